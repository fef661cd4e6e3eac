//! `referee selfplay`: games of uniformly random legal turns (or the engine's, for the
//! seats `--engine` names), printed as records.

use std::sync::Arc;

use std::io::Write;

use super::analyse::think;
use super::new::{header_for, options_tag};
use super::{apply_cli_options, load_ruleset, visit_game};
use crate::cli::args::EngineArgs;
use crate::cli::{Ctx, Failure, Outcome, Render, Visitor};
use crate::dice::Dice;
use crate::games::{seat_name, Game, SeatSet};
use crate::notation::record::{self, Action};
use crate::referee::{Finish, Session};
use crate::ruleset::Ruleset;

/// The numbered text of a turn about to be played (`12.`, `12...`, `7.`).
pub fn numbered<G: Game>(session: &Session<G>, turn: &str) -> String {
    format!("{} {turn}", session.expected_number())
}

struct SelfplayVisit<'a> {
    rs: &'a Ruleset,
    /// The `--option` settings, written into each record's `Options` tag so the record
    /// replays on its own.
    options: Option<String>,
    /// `--seats` was given: each record gets a Seats tag.
    seats_tag: bool,
    games: usize,
    seed: &'a str,
    max_turns: usize,
    /// Seat names the engine plays, and its budget.
    engine: &'a [String],
    engine_args: &'a EngineArgs,
    out: &'a mut dyn Write,
}

impl Visitor for SelfplayVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let mut chooser = Dice::from_seed(self.seed);
        let mut turns: Vec<G::Turn> = Vec::new();
        let no_tags = record::Header::default();
        let settings = G::settings(self.rs);
        let mut engine_seats = SeatSet::EMPTY;
        for name in self.engine {
            let seat = G::seats(&settings)
                .iter()
                .copied()
                .find(|&x| seat_name::<G>(x) == name.as_str())
                .ok_or_else(|| {
                    Failure::Usage(format!(
                        "--engine {}: not a seat of this game",
                        crate::quote::quote(name)
                    ))
                })?;
            engine_seats = engine_seats.with(seat);
        }
        let config = self.engine_args.config(self.seed)?;
        for g in 0..self.games {
            let game_seed = format!("{}-{}", self.seed, g + 1);
            let mut session =
                Session::<G>::start(Arc::new(self.rs.clone()), None, &no_tags, Some(&game_seed))
                    .map_err(|v| Failure::Usage(format!("the game cannot start: {v}")))?;
            let mut moves = String::new();
            let mut line_len = 0;
            while session.turns < self.max_turns && session.to_move().is_some() {
                // The turn `legal_turns[chooser.uniform(len)]` is, without listing them all
                // where the game can count them.
                let engine_moves = session.to_move().is_some_and(|m| engine_seats.contains(m));
                let pick = if engine_moves {
                    let mut c = config.clone();
                    c.seed = format!("{game_seed}/engine/{}", session.turns + 1);
                    let a = think(&session, &c)?;
                    turns.clear();
                    session.legal_turns(&mut turns);
                    a.best_of(&turns)
                } else {
                    G::random_turn(
                        &session.settings,
                        &session.state,
                        session.chance.as_ref(),
                        &mut chooser,
                        &mut turns,
                    )
                };
                let Some(pick) = pick else {
                    return Err(Failure::Usage(format!(
                        "internal error: {} has no legal turn but the game is not over",
                        session.to_move().map(seat_name::<G>).unwrap_or("?")
                    )));
                };
                let text = numbered(&session, &pick.to_string());
                session.play(&Action::Play(pick), "").map_err(|r| {
                    Failure::Usage(format!("internal error: a generated turn was refused: {r}"))
                })?;
                if line_len + text.len() > 78 {
                    moves.push('\n');
                    line_len = 0;
                } else if line_len > 0 {
                    moves.push(' ');
                    line_len += 1;
                }
                moves.push_str(&text);
                line_len += text.len();
            }
            // A finished game says who won and how; one cut at --max-turns stays `*`.
            let finish = Finish::of::<G>(&session.settings, &session.status());
            let declared = match &finish {
                Some(f) => format!(
                    "[Result \"{}\"]\n[Termination \"{}\"]",
                    f.result, f.termination
                ),
                None => "[Result \"*\"]".to_string(),
            };
            let header = header_for::<G>(
                self.rs,
                &session.settings,
                Some(&game_seed),
                self.seats_tag,
                Some("selfplay"),
                self.options.as_deref(),
            );
            let header = header.replace(
                "[Result \"*\"]",
                &format!("[Round \"{}\"]\n{declared}", g + 1),
            );
            writeln!(self.out, "{header}\n{moves}\n")?;
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
pub fn selfplay(
    ctx: &Ctx,
    name: &str,
    games: usize,
    seats: &[String],
    seed: &str,
    max_turns: usize,
    engine: &[String],
    engine_args: &EngineArgs,
    out: &mut dyn Write,
) -> Outcome {
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, seats)?;
    let game = rs.game.clone();
    visit_game(
        &game,
        SelfplayVisit {
            rs: &rs,
            options: options_tag(ctx),
            seats_tag: !seats.is_empty(),
            games,
            seed,
            max_turns,
            engine,
            engine_args,
            out,
        },
    )
}
