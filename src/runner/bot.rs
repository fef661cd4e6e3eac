//! `referee bot`: the engine (or a uniformly random player) as a bot that speaks the
//! protocol: a sparring partner for bot writers and the runner's own test bot.
//!
//! It knows only what the protocol tells it: it rebuilds each game from the `hello`'s
//! ruleset and setup and the `play`'s turns ([`view::rebuild`]), asks for the legal
//! turns, and learns the random outcome it faces from them (every legal turn writes it).

use std::io::{BufRead, Write};
use std::sync::Arc;

use crate::dice::Dice;
use crate::engine::{self, Config};
use crate::games::{Game, Seat};
use crate::notation::record::{parse_single, Action, Limits};
use crate::referee::Session;
use crate::ruleset::Ruleset;

use super::protocol::{FromBot, Hello, Play, ToBot};
use super::view;

/// How the bot chooses its turn.
#[derive(Clone, Debug)]
pub enum Policy {
    /// Uniformly among the legal turns listed.
    Random,
    /// The engine's best, searched with this budget; each turn's search is seeded from
    /// the config's seed, the game's number and the turn's.
    Engine(Config),
}

/// The game the bot is in.
struct Current<G: Game> {
    ruleset: Arc<Ruleset>,
    setup: Option<String>,
    /// The turns `session` has played.
    known: Vec<String>,
    session: Session<G>,
}

/// Serves the protocol on `input` and `output` until `quit` or the end of input.
/// `rules` gives the ruleset a `hello` asks for (its settings applied), or says why the
/// bot cannot play it. An `Err` is a failure to go on (said on standard error by the
/// caller; the runner then sees the bot end).
pub fn serve<G: Game>(
    rules: &dyn Fn(&Hello) -> Result<Arc<Ruleset>, String>,
    policy: &Policy,
    name: &str,
    seed: &str,
    limits: &Limits,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), String> {
    let mut current: Option<Current<G>> = None;
    // The game's seed commitment: each game's choices differ, a pair's games alike.
    let mut game_id = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("cannot read standard input: {e}")),
        }
        let message: ToBot = serde_json::from_str(line.trim())
            .map_err(|e| format!("not a message of the protocol: {e}"))?;
        let answer = match message {
            ToBot::Hello(hello) => {
                if hello.game != G::NAME {
                    return Err(format!(
                        "this bot plays {}, the runner asks for {}",
                        G::NAME,
                        hello.game
                    ));
                }
                let ruleset = rules(&hello)?;
                let session =
                    view::rebuild::<G>(ruleset.clone(), hello.setup.as_deref(), &[], limits)?;
                current = Some(Current {
                    ruleset,
                    setup: hello.setup,
                    known: Vec::new(),
                    session,
                });
                game_id = hello.seed_commit.chars().take(16).collect();
                FromBot::Ready {
                    name: name.to_string(),
                    legal: true,
                }
            }
            ToBot::Play(play) => {
                let game = current.as_mut().ok_or("a `play` before any `hello`")?;
                catch_up(game, &play, limits)?;
                let turn = choose(game, &play, policy, seed, &game_id, limits)?;
                FromBot::Turn { turn }
            }
            ToBot::Over(_) => {
                current = None;
                continue;
            }
            ToBot::Error { message } => {
                eprintln!("referee bot: the runner says: {message}");
                continue;
            }
            ToBot::Quit => return Ok(()),
        };
        let text = serde_json::to_string(&answer).expect("messages serialize");
        writeln!(output, "{text}")
            .and_then(|()| output.flush())
            .map_err(|e| format!("cannot write standard output: {e}"))?;
    }
}

/// Brings the game up to the request's turns: the new ones played on, or the game
/// rebuilt where the request does not continue what the bot knows.
fn catch_up<G: Game>(game: &mut Current<G>, play: &Play, limits: &Limits) -> Result<(), String> {
    let continues =
        play.turns.len() >= game.known.len() && play.turns[..game.known.len()] == game.known[..];
    if !continues {
        game.session =
            view::rebuild::<G>(game.ruleset.clone(), game.setup.as_deref(), &[], limits)?;
        game.known.clear();
    }
    let new = &play.turns[game.known.len()..];
    let mut session = game.session.clone();
    session.chance = None;
    let rebuilt = view::rebuild_on(&mut session, new, game.known.len(), limits);
    rebuilt?;
    game.session = session;
    game.known.extend(new.iter().cloned());
    Ok(())
}

/// The bot's turn, as it writes it.
fn choose<G: Game>(
    game: &mut Current<G>,
    play: &Play,
    policy: &Policy,
    seed: &str,
    game_id: &str,
    limits: &Limits,
) -> Result<String, String> {
    let listed = play
        .legal
        .as_ref()
        .ok_or("the `play` lists no legal turns though `ready` asked for them")?;
    let mut legal: Vec<G::Turn> = Vec::with_capacity(listed.len());
    for text in listed {
        if let Ok(e) = parse_single(text, limits, G::parse_turn) {
            if let Action::Play(t) = e.action {
                legal.push(t);
            }
        }
    }
    if legal.is_empty() {
        return Ok("resign".to_string());
    }
    // Every legal turn writes the outcome the seat faces.
    game.session.chance = legal
        .iter()
        .find_map(|t| G::written_chance(t).map(|c| c.into_owned()));
    let turn_seed = format!("{seed}/{game_id}/{}", play.turns.len() + 1);
    // Where the engine cannot search what the bot knows (Halasi's solitaire before its
    // opening four are written), the turn is a random one.
    let searchable = G::engine_ready(&game.session.settings, &game.session.state).is_ok();
    let pick = match policy {
        Policy::Engine(config) if searchable => {
            let mut c = config.clone();
            c.seed = turn_seed;
            let s = &game.session;
            let state = known_position(s, &play.seat, &legal);
            let analysis = engine::search::<G>(&s.settings, &state, s.chance.as_ref(), &c)
                .map_err(|why| format!("the engine cannot search this position: {why}"))?;
            analysis.best_of(&legal).unwrap_or_else(|| legal[0].clone())
        }
        _ => {
            let mut rng = Dice::from_seed(&turn_seed);
            legal[rng.uniform(legal.len() as u32) as usize].clone()
        }
    };
    Ok(pick.to_string())
}

/// The position the engine searches for the bot's `seat`: the seat to move where the
/// round is open (its label chooses), and what the turns it is `offered` say that the
/// turns written so far do not ([`Game::learn_from_offered`]).
fn known_position<G: Game>(session: &Session<G>, seat: &str, offered: &[G::Turn]) -> G::State {
    let mut state = session.state.clone();
    let seat = G::SEATS.iter().position(|n| *n == seat);
    if let (Some(open), Some(i)) = (G::open_movers(&session.settings, &state), seat) {
        let seat = Seat(i as u8);
        if open.contains(seat) {
            G::choose_mover(&session.settings, &mut state, seat);
        }
    }
    G::learn_from_offered(&session.settings, &mut state, offered);
    state
}

#[cfg(test)]
#[path = "bot_tests.rs"]
mod tests;
