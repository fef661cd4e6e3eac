//! One game between bots: their processes started, each turn asked for, timed and
//! judged by the referee, forfeits ruled, and the finished record written.
//!
//! A forfeit (a crash, a hang, time, garbage, a protocol error, an illegal turn) loses
//! the game for the seat that made it. With two seats the game ends there and the other
//! seat wins. With more, the rules' own exit is used: the seat resigns at its turn (it
//! leaves, and play goes on among the rest); where the rules refuse a resignation
//! (Halasi's setup rounds) the game ends there and the seats still playing share the
//! win. The record says which seat forfeited and why, in a `Forfeit` tag and a comment.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::games::{seat_name, Game, Seat, Status};
use crate::notation::record::{self, parse_single, Action};
use crate::referee::{Finish, Session};
use crate::ruleset::Ruleset;

use super::process::{Output, Process, Received};
use super::protocol::{self, Clock, FromBot, Hello, Over, Play, ToBot};
use super::view;

/// A bot: its name in records and reports, and the command that starts it (run by
/// `sh -c`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    pub name: String,
    pub command: String,
}

/// How long bots may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// From the bot's start to its `ready`.
    pub startup: Duration,
    /// The most one turn may take.
    pub movetime: Option<Duration>,
    /// A game clock: the time each seat has for the game, and what each turn adds.
    pub clock: Option<(Duration, Duration)>,
    /// How far past a limit an answer still counts (the pipes' and scheduler's delays).
    pub margin: Duration,
}

impl TimeLimits {
    /// The record's `TimeControl` tag: `60+0.6` (seconds, a game clock and its
    /// increment), `movetime 0.5` (seconds a turn), or both.
    pub fn tag(&self) -> String {
        let secs = |d: Duration| {
            let s = format!("{:.3}", d.as_secs_f64());
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        let mut parts = Vec::new();
        if let Some((base, inc)) = self.clock {
            parts.push(format!("{}+{}", secs(base), secs(inc)));
        }
        if let Some(m) = self.movetime {
            parts.push(format!("movetime {}", secs(m)));
        }
        parts.join(", ")
    }
}

/// What every game of a match shares.
pub struct Table {
    /// The ruleset, the match's `--option` settings applied.
    pub ruleset: Arc<Ruleset>,
    /// The `Options` tag of each record (the `--option` settings), so it replays alone.
    pub options: Option<String>,
    /// Write a `Seats` tag (the match chose the seats).
    pub seats_tag: bool,
    pub bots: Vec<BotSpec>,
    pub limits: TimeLimits,
    /// A game still going after this many turns is ended as a draw, or where
    /// `estimate` is given, won by the seat the engine's estimate puts ahead beyond
    /// doubt.
    pub max_turns: usize,
    /// `--adjudicate estimate`: the engine's search at the turn limit.
    pub estimate: Option<crate::engine::Config>,
    /// The record notation's limits, for reading the bots' turns.
    pub notation: record::Limits,
    /// The `Event` tag.
    pub event: String,
    /// The bots' working directory (none: the runner's).
    pub dir: Option<PathBuf>,
}

/// One game to play: which bot has which seat, and the seed of its dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's index in the schedule (0-based); the record's `Round` is one more.
    pub index: usize,
    /// The bot (index into [`Table::bots`]) at each seat, in the game's seat order.
    pub seating: Vec<usize>,
    pub seed: String,
    /// Turns that open the game, played for the bots (an `--openings` record's), each as
    /// a record writes it.
    pub opening: Vec<String>,
    /// Random legal turns played for the bots after the opening; drawn from the seed,
    /// so every game of a pair opens alike.
    pub random_turns: usize,
}

/// An opening from `--openings`: a record's turns, and its seed where it has one (the
/// pair then plays under it, so turns written under its dice replay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub seed: Option<String>,
    pub turns: Vec<String>,
}

/// Why a seat lost its game outside the rules of play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// Did not start, or did not answer `hello` in time.
    Startup,
    /// Over its time.
    Time,
    /// Exited, or closed its output.
    Crash,
    /// An answer that is not a message of the protocol, or not the one asked for.
    Protocol,
    /// A turn the referee refused (the rule is in the message).
    Illegal,
}

impl ForfeitKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            ForfeitKind::Startup => "startup",
            ForfeitKind::Time => "time",
            ForfeitKind::Crash => "crash",
            ForfeitKind::Protocol => "protocol",
            ForfeitKind::Illegal => "illegal",
        }
    }
}

/// A seat's forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The seat's index in the game's seat order.
    pub seat: usize,
    pub kind: ForfeitKind,
    /// The rule a refused turn broke.
    pub rule: Option<&'static str>,
    /// What happened, in words.
    pub message: String,
}

/// How a seat's bot answered in a game (for `referee bot-check`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    /// How long its `ready` took after `hello`.
    pub ready: Option<Duration>,
    /// Turns it answered in time.
    pub turns: u32,
    /// The longest it took for one.
    pub slowest: Duration,
    /// It ended by itself on `quit`, within the grace.
    pub quit: bool,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub index: usize,
    /// The complete record, ending with a blank line.
    pub record: String,
    /// The `Result` tag.
    pub result: String,
    /// The `Termination` tag.
    pub termination: String,
    /// Why, where the rules did not end the game.
    pub reason: Option<String>,
    pub turns: usize,
    /// The seats (indices in seat order) that won; empty for a draw or a game nobody won.
    pub winners: Vec<usize>,
    pub forfeits: Vec<Forfeit>,
    /// Each seat's answers.
    pub answers: Vec<Answers>,
}

/// A seat's bot during a game.
struct Player {
    process: Option<Process>,
    wants_legal: bool,
    answers: Answers,
    /// Time left on the game clock.
    left: Option<Duration>,
    forfeit: Option<Forfeit>,
}

/// How the game ended, when not by its rules.
enum Stop {
    /// A two-seat game's forfeit, or one whose resignation the rules refused.
    Forfeit(usize),
    /// The turn limit.
    TurnLimit,
}

/// Replays a game's opening (its seed, its turns) as [`play`] would before any bot
/// plays: `Err` says which turn is refused.
pub fn replay_opening<G: Game>(table: &Table, spec: &GameSpec) -> Result<(), String> {
    let no_tags = record::Header::default();
    let mut session = Session::<G>::start(table.ruleset.clone(), None, &no_tags, Some(&spec.seed))
        .map_err(|v| format!("the game cannot start: {v}"))?;
    let (mut seen, mut moves) = (Vec::new(), Vec::new());
    open_game(table, spec, &mut session, &mut seen, &mut moves)
}

/// The seat the engine's estimate names the winner at the turn limit: the one whose
/// 95 % interval lies wholly above every other seat's; `None` when it is too close to
/// call (or the engine cannot search the position).
fn estimate_winner<G: Game>(
    session: &Session<G>,
    seats: &[Seat],
    config: &crate::engine::Config,
) -> Option<(usize, String)> {
    let a = crate::engine::search::<G>(
        &session.settings,
        &session.state,
        session.chance.as_ref(),
        config,
    )
    .ok()?;
    let best = a.seats.iter().max_by(|x, y| x.mean.total_cmp(&y.mean))?;
    let clear = a
        .seats
        .iter()
        .filter(|e| e.seat != best.seat)
        .all(|e| best.low > e.high);
    let i = seats.iter().position(|&s| s == best.seat)?;
    clear.then(|| {
        (
            i,
            format!(
                "the engine's estimate: {} wins {:.1} % [{:.1}, {:.1}]",
                seat_name::<G>(best.seat),
                100.0 * best.mean,
                100.0 * best.low,
                100.0 * best.high
            ),
        )
    })
}

/// Plays the opening's turns, then its random ones, for the bots.
fn open_game<G: Game>(
    table: &Table,
    spec: &GameSpec,
    session: &mut Session<G>,
    seen: &mut Vec<String>,
    moves: &mut Vec<String>,
) -> Result<(), String> {
    for text in &spec.opening {
        let entry = parse_single(text, &table.notation, G::parse_turn)
            .map_err(|m| format!("the opening's turn `{text}` is not a turn: {m}"))?;
        let seat = session
            .to_move()
            .ok_or_else(|| format!("the opening plays `{text}` after the game's end"))?;
        play_turn(session, seat, &entry.action, seen, moves)
            .map_err(|r| format!("the opening's turn `{text}` is refused: {r}"))?;
    }
    let mut chooser = crate::dice::Dice::from_seed(&format!("{}/opening", spec.seed));
    let mut legal: Vec<G::Turn> = Vec::new();
    for _ in 0..spec.random_turns {
        let Some(seat) = session.to_move() else {
            break;
        };
        let Some(turn) = G::random_turn(
            &session.settings,
            &session.state,
            session.chance.as_ref(),
            &mut chooser,
            &mut legal,
        ) else {
            break;
        };
        play_turn(session, seat, &Action::Play(turn), seen, moves)
            .map_err(|r| format!("internal error: a random opening turn was refused: {r}"))?;
    }
    Ok(())
}

/// Plays one game. An `Err` is the runner's own failure (the game cannot start under
/// these settings), never a bot's.
pub fn play<G: Game>(table: &Table, spec: &GameSpec) -> Result<Played, String> {
    let no_tags = record::Header::default();
    let mut session = Session::<G>::start(table.ruleset.clone(), None, &no_tags, Some(&spec.seed))
        .map_err(|v| format!("the game cannot start: {v}"))?;
    let seats: Vec<Seat> = G::seats(&session.settings).to_vec();
    if seats.len() != spec.seating.len() {
        return Err(format!(
            "{} seats but {} bots seated",
            seats.len(),
            spec.seating.len()
        ));
    }
    let setup = view::start_setup::<G>(&session, &no_tags);
    let commit = crate::dice::seed_commit(&spec.seed);
    let mut seen: Vec<String> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    open_game(table, spec, &mut session, &mut seen, &mut moves)?;
    let mut legal: Vec<G::Turn> = Vec::new();
    let mut players = start_players::<G>(table, spec, &seats, setup.as_deref(), &commit);
    let mut stop: Option<Stop> = None;
    // Start-up forfeits of a two-seat game end it before any turn.
    if seats.len() == 2 {
        if let Some(i) = players.iter().position(|p| p.forfeit.is_some()) {
            stop = Some(Stop::Forfeit(i));
        }
    }
    while stop.is_none() {
        let Status::Playing { to_move } = session.status() else {
            break;
        };
        if session.turns >= table.max_turns {
            stop = Some(Stop::TurnLimit);
            break;
        }
        let i = seats
            .iter()
            .position(|&s| s == to_move)
            .expect("a seat that plays");
        if players[i].forfeit.is_none() {
            if let Err(f) = ask_turn::<G>(
                table,
                &mut session,
                &seats,
                i,
                &mut players[i],
                &mut legal,
                &mut seen,
                &mut moves,
            ) {
                players[i].forfeit = Some(f);
                players[i].process = None;
            } else {
                continue;
            }
        }
        // The seat to move has forfeited: it leaves by resigning, where it may.
        if seats.len() == 2 {
            stop = Some(Stop::Forfeit(i));
            break;
        }
        let f = players[i].forfeit.as_ref().expect("forfeited");
        moves.push(comment(&format!(
            "{} forfeits ({}): {}",
            seat_name::<G>(to_move),
            f.kind.as_str(),
            f.message
        )));
        if play_turn(
            &mut session,
            to_move,
            &Action::Resign,
            &mut seen,
            &mut moves,
        )
        .is_err()
        {
            stop = Some(Stop::Forfeit(i));
        }
    }
    // The end, for every bot still there.
    let (result, termination, reason, winners, marker) = match &stop {
        None => {
            let status = session.status();
            let f = Finish::of::<G>(&session.settings, &status).expect("the game is over");
            let winners = match status {
                Status::Over(end) => seats
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| end.winners.contains(**s))
                    .map(|(i, _)| i)
                    .collect(),
                Status::Playing { .. } => Vec::new(),
            };
            (f.result, f.termination.to_string(), None, winners, f.marker)
        }
        Some(Stop::TurnLimit) => {
            let limit = format!("the turn limit: {} turns played", session.turns);
            match table
                .estimate
                .as_ref()
                .and_then(|c| estimate_winner(&session, &seats, c))
            {
                Some((winner, why)) => (
                    seat_name::<G>(seats[winner]).to_string(),
                    "adjudication".to_string(),
                    Some(format!("{limit}; {why}")),
                    vec![winner],
                    None,
                ),
                None => (
                    "draw".to_string(),
                    "adjudication".to_string(),
                    Some(limit),
                    Vec::new(),
                    None,
                ),
            }
        }
        Some(Stop::Forfeit(i)) => {
            let f = players[*i].forfeit.as_ref().expect("forfeited");
            let reason = format!(
                "{} forfeits ({}): {}",
                seat_name::<G>(seats[*i]),
                f.kind.as_str(),
                f.message
            );
            moves.push(comment(&reason));
            // The seats still playing share the win.
            let winners: Vec<usize> = (0..seats.len())
                .filter(|&j| j != *i && players[j].forfeit.is_none())
                .collect();
            let result = match winners.is_empty() {
                true => "none".to_string(),
                false => winners
                    .iter()
                    .map(|&j| seat_name::<G>(seats[j]))
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            (
                result,
                "adjudication".to_string(),
                Some(reason),
                winners,
                None,
            )
        }
    };
    let forfeits: Vec<Forfeit> = players.iter().filter_map(|p| p.forfeit.clone()).collect();
    let record = write_record::<G>(
        table,
        spec,
        &seats,
        &moves,
        &result,
        &termination,
        &forfeits,
        marker,
    );
    let over = ToBot::Over(Over {
        result: result.clone(),
        termination: termination.clone(),
        reason: reason.clone(),
        record: record.clone(),
    })
    .line();
    let quit = ToBot::Quit.line();
    for p in players.iter_mut() {
        if let Some(proc_) = p.process.as_mut() {
            let _ = proc_.send(&over);
            let _ = proc_.send(&quit);
        }
    }
    // A short grace for every bot at once, then each group is killed.
    let until = Instant::now() + Duration::from_millis(500);
    for p in players.iter_mut() {
        if let Some(proc_) = p.process.take() {
            p.answers.quit = proc_.finish(None, until.saturating_duration_since(Instant::now()));
        }
    }
    Ok(Played {
        index: spec.index,
        record,
        result,
        termination,
        reason,
        turns: session.turns,
        winners,
        forfeits,
        answers: players.iter().map(|p| p.answers).collect(),
    })
}

/// Plays an action for `seat` and notes it: in `seen` as every seat sees it, in
/// `moves` as the record writes it (numbered).
fn play_turn<G: Game>(
    session: &mut Session<G>,
    seat: Seat,
    action: &Action<G::Turn>,
    seen: &mut Vec<String>,
    moves: &mut Vec<String>,
) -> Result<(), crate::referee::Refused<G>> {
    let number = session.expected_number();
    let chance = session.chance.clone();
    session.check_frame(None, None)?;
    session.play(action, "")?;
    note_turn::<G>(number, seat, action, chance.as_ref(), seen, moves);
    Ok(())
}

/// Notes a turn just played: in `seen` as every seat sees it (`seat: turn`, written in
/// full), in `moves` as the record writes it (numbered, without the label).
fn note_turn<G: Game>(
    number: crate::notation::record::TurnNumber,
    seat: Seat,
    action: &Action<G::Turn>,
    chance: Option<&G::Chance>,
    seen: &mut Vec<String>,
    moves: &mut Vec<String>,
) {
    let full = view::seen_turn::<G>(seat, action, chance).unwrap_or_default();
    let written = full.split_once(": ").map_or(full.as_str(), |(_, t)| t);
    moves.push(format!("{number} {written}"));
    seen.push(full);
}

/// Starts every seat's bot, says hello to each, and waits for their `ready` together.
fn start_players<G: Game>(
    table: &Table,
    spec: &GameSpec,
    seats: &[Seat],
    setup: Option<&str>,
    commit: &str,
) -> Vec<Player> {
    let limits = &table.limits;
    let settings = table
        .ruleset
        .settings
        .iter()
        .map(|(k, s)| (k.clone(), s.value.to_string()))
        .collect::<std::collections::BTreeMap<_, _>>();
    let seat_names: Vec<String> = seats
        .iter()
        .map(|&s| seat_name::<G>(s).to_string())
        .collect();
    let started = Instant::now();
    let deadline = started + limits.startup + limits.margin;
    let mut players: Vec<Player> = spec
        .seating
        .iter()
        .zip(seats)
        .enumerate()
        .map(|(i, (&bot, &seat))| {
            let fail = |message: String| Player {
                process: None,
                wants_legal: false,
                answers: Answers::default(),
                left: None,
                forfeit: Some(Forfeit {
                    seat: i,
                    kind: ForfeitKind::Startup,
                    rule: None,
                    message,
                }),
            };
            let spec_ = &table.bots[bot];
            let mut p =
                match Process::start(&spec_.command, table.dir.as_deref(), protocol::MAX_LINE) {
                    Ok(p) => p,
                    Err(e) => return fail(format!("cannot start `{}`: {e}", spec_.command)),
                };
            let hello = ToBot::Hello(Hello {
                protocol: protocol::VERSION,
                game: G::NAME.to_string(),
                ruleset: table.ruleset.name.clone(),
                settings: settings.clone(),
                seats: seat_names.clone(),
                seat: seat_name::<G>(seat).to_string(),
                setup: setup.map(str::to_string),
                seed_commit: commit.to_string(),
                clock: clock(limits, limits.clock.map(|(base, _)| base)),
            });
            if let Err(e) = p.send(&hello.line()) {
                return fail(format!("closed its input before `hello`: {e}"));
            }
            Player {
                process: Some(p),
                wants_legal: false,
                answers: Answers::default(),
                left: limits.clock.map(|(base, _)| base),
                forfeit: None,
            }
        })
        .collect();
    for (i, player) in players.iter_mut().enumerate() {
        let Some(p) = player.process.as_mut() else {
            continue;
        };
        let answer = match p.receive(deadline) {
            Received::Timeout => Err((
                ForfeitKind::Startup,
                format!(
                    "no `ready` within the start-up limit of {:.3} s",
                    limits.startup.as_secs_f64()
                ),
            )),
            Received::Got(Output::Line(line), at) => match FromBot::read(&line) {
                Ok(FromBot::Ready { legal, .. }) => {
                    player.wants_legal = legal;
                    player.answers.ready = Some(at.saturating_duration_since(started));
                    Ok(())
                }
                Ok(FromBot::Turn { .. }) => Err((
                    ForfeitKind::Protocol,
                    "answered `hello` with a `turn`: it answers `ready`".to_string(),
                )),
                Err(m) => Err((ForfeitKind::Protocol, m)),
            },
            Received::Got(other, _) => Err(output_fault(p, other)),
        };
        if let Err((kind, message)) = answer {
            tell_error(p, &kind, &message);
            player.forfeit = Some(Forfeit {
                seat: i,
                kind,
                rule: None,
                message,
            });
            player.process = None;
        }
    }
    players
}

/// The clock as a `play` or `hello` says it.
fn clock(limits: &TimeLimits, left: Option<Duration>) -> Clock {
    Clock {
        left_ms: left.map(|d| d.as_millis() as u64),
        increment_ms: limits.clock.map_or(0, |(_, inc)| inc.as_millis() as u64),
        movetime_ms: limits.movetime.map(|d| d.as_millis() as u64),
    }
}

/// Tells a bot why it forfeits, where the fault was in what it said.
fn tell_error(p: &mut Process, kind: &ForfeitKind, message: &str) {
    if matches!(kind, ForfeitKind::Protocol | ForfeitKind::Illegal) {
        let _ = p.send(
            &ToBot::Error {
                message: message.to_string(),
            }
            .line(),
        );
    }
}

/// The forfeit for output that is not a line: the end of it (a crash), a line too long
/// or not UTF-8 (protocol).
fn output_fault(p: &mut Process, out: Output) -> (ForfeitKind, String) {
    match out {
        Output::End => {
            let how = p
                .exit_status(Duration::from_millis(200))
                .unwrap_or_else(|| "closed its output".to_string());
            let last = p
                .stderr_tail()
                .map(|t| format!("; its last words on stderr: {}", protocol::clip(&t)))
                .unwrap_or_default();
            (ForfeitKind::Crash, format!("ended ({how}){last}"))
        }
        Output::TooLong(n) => (
            ForfeitKind::Protocol,
            format!(
                "a line of more than {n} bytes (the limit is {} bytes)",
                protocol::MAX_LINE
            ),
        ),
        Output::NotUtf8 => (
            ForfeitKind::Protocol,
            "a line that is not UTF-8".to_string(),
        ),
        Output::Line(l) => (
            ForfeitKind::Protocol,
            format!("an unexpected line: {}", protocol::clip(&l)),
        ),
    }
}

/// Asks seat `i`'s bot for its turn and plays it; `Err` is the seat's forfeit.
#[allow(clippy::too_many_arguments)]
fn ask_turn<G: Game>(
    table: &Table,
    session: &mut Session<G>,
    seats: &[Seat],
    i: usize,
    player: &mut Player,
    legal: &mut Vec<G::Turn>,
    seen: &mut Vec<String>,
    moves: &mut Vec<String>,
) -> Result<(), Forfeit> {
    let limits = &table.limits;
    let seat = seats[i];
    let forfeit = |kind: ForfeitKind, rule: Option<&'static str>, message: String| Forfeit {
        seat: i,
        kind,
        rule,
        message,
    };
    let (listed, complete) = if player.wants_legal {
        legal.clear();
        session.legal_turns(legal);
        let complete = legal.len() <= protocol::LEGAL_LISTED;
        let listed = legal
            .iter()
            .take(protocol::LEGAL_LISTED)
            .map(|t| match &session.chance {
                Some(c) => G::with_outcome(t, c).to_string(),
                None => t.to_string(),
            })
            .collect();
        (Some(listed), Some(complete))
    } else {
        (None, None)
    };
    let request = ToBot::Play(Play {
        turns: seen.clone(),
        seat: seat_name::<G>(seat).to_string(),
        random: session.chance.as_ref().map(|c| c.to_string()),
        legal: listed,
        legal_complete: complete,
        clock: clock(limits, player.left),
    });
    let p = player
        .process
        .as_mut()
        .expect("a seat that has not forfeited has its bot");
    if let Err(e) = p.send(&request.line()) {
        let (kind, message) = output_fault(p, Output::End);
        return Err(forfeit(
            kind,
            None,
            format!("{message}; its input is closed: {e}"),
        ));
    }
    let asked = Instant::now();
    // The most this turn may take.
    let allowed = match (player.left, limits.movetime) {
        (Some(l), Some(m)) => l.min(m),
        (Some(l), None) => l,
        (None, Some(m)) => m,
        (None, None) => Duration::from_secs(3600),
    };
    let line = match p.receive(asked + allowed + limits.margin) {
        // A bot that exited while a process it started holds its output open.
        Received::Timeout if p.exit_status(Duration::ZERO).is_some() => {
            let how = p.exit_status(Duration::ZERO).unwrap_or_default();
            return Err(forfeit(
                ForfeitKind::Crash,
                None,
                format!(
                    "ended ({how}) without answering; a process it started kept its output open"
                ),
            ));
        }
        Received::Timeout => {
            return Err(forfeit(
                ForfeitKind::Time,
                None,
                format!(
                    "no answer within {:.3} s (and the margin of {:.3} s)",
                    allowed.as_secs_f64(),
                    limits.margin.as_secs_f64()
                ),
            ))
        }
        Received::Got(Output::Line(line), at) => {
            let took = at.saturating_duration_since(asked);
            if took > allowed + limits.margin {
                return Err(forfeit(
                    ForfeitKind::Time,
                    None,
                    format!(
                        "answered after {:.3} s of {:.3} s",
                        took.as_secs_f64(),
                        allowed.as_secs_f64()
                    ),
                ));
            }
            player.answers.turns += 1;
            player.answers.slowest = player.answers.slowest.max(took);
            if let (Some(left), Some((_, inc))) = (player.left, limits.clock) {
                player.left = Some(left.saturating_sub(took) + inc);
            }
            line
        }
        Received::Got(other, _) => {
            let (kind, message) = output_fault(p, other);
            return Err(forfeit(kind, None, message));
        }
    };
    let text = match FromBot::read(&line) {
        Ok(FromBot::Turn { turn }) => turn,
        Ok(FromBot::Ready { .. }) => {
            let m = "answered `play` with `ready`: it answers a `turn`".to_string();
            tell_error(p, &ForfeitKind::Protocol, &m);
            return Err(forfeit(ForfeitKind::Protocol, None, m));
        }
        Err(m) => {
            tell_error(p, &ForfeitKind::Protocol, &m);
            return Err(forfeit(ForfeitKind::Protocol, None, m));
        }
    };
    let refused = |p: &mut Process, rule: Option<&'static str>, m: String| {
        tell_error(p, &ForfeitKind::Illegal, &m);
        Err(forfeit(ForfeitKind::Illegal, rule, m))
    };
    let entry = match parse_single(text.trim(), &table.notation, G::parse_turn) {
        Ok(e) => e,
        Err(m) => {
            let m = format!("`{}` is not a turn: {m}", protocol::clip(&text));
            return refused(p, Some("notation"), m);
        }
    };
    let number = session.expected_number();
    let chance = session.chance.clone();
    let bad = match &entry.action {
        Action::BadAddress(sp) => text.trim()[sp.start..sp.end].to_string(),
        _ => String::new(),
    };
    let played = session
        .check_frame(
            entry.number.map(|(n, _)| n),
            entry.label().map(|(l, _)| l.as_str()),
        )
        .and_then(|()| session.play(&entry.action, &bad));
    if let Err(r) = played {
        let m = format!("`{}` is refused: {r}", protocol::clip(text.trim()));
        return refused(p, r.rule(), m);
    }
    note_turn::<G>(number, seat, &entry.action, chance.as_ref(), seen, moves);
    Ok(())
}

/// A comment of the record (which ends at the first `}`).
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")").replace('{', "("))
}

/// The record of a finished game.
#[allow(clippy::too_many_arguments)]
fn write_record<G: Game>(
    table: &Table,
    spec: &GameSpec,
    seats: &[Seat],
    moves: &[String],
    result: &str,
    termination: &str,
    forfeits: &[Forfeit],
    marker: Option<record::Termination>,
) -> String {
    let tag = |name: &str, value: &str| format!("[{name} \"{}\"]\n", record::escape(value));
    let mut h = String::new();
    h.push_str(&tag("Game", G::NAME));
    h.push_str(&tag("Ruleset", &table.ruleset.name));
    if let Some(o) = &table.options {
        h.push_str(&tag("Options", o));
    }
    h.push_str(&tag("Event", &table.event));
    h.push_str(&tag("Date", &record::today()));
    h.push_str(&tag("Round", &(spec.index + 1).to_string()));
    if table.seats_tag {
        let names: Vec<&str> = seats.iter().map(|&s| seat_name::<G>(s)).collect();
        h.push_str(&tag("Seats", &names.join(" ")));
    }
    for (&seat, &bot) in seats.iter().zip(&spec.seating) {
        let name = seat_name::<G>(seat);
        let mut cap = name.to_string();
        if let Some(first) = cap.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        h.push_str(&tag(&cap, &table.bots[bot].name));
    }
    h.push_str(&tag("TimeControl", &table.limits.tag()));
    h.push_str(&tag("Seed", &spec.seed));
    h.push_str(&tag("SeedCommit", &crate::dice::seed_commit(&spec.seed)));
    h.push_str(&tag("Result", result));
    h.push_str(&tag("Termination", termination));
    if !forfeits.is_empty() {
        let each: Vec<String> = forfeits
            .iter()
            .map(|f| format!("{} {}", seat_name::<G>(seats[f.seat]), f.kind.as_str()))
            .collect();
        h.push_str(&tag("Forfeit", &each.join("; ")));
    }
    let mut text = h;
    text.push('\n');
    let mut line_len = 0;
    let mut words: Vec<String> = moves.to_vec();
    if let Some(m) = marker {
        words.push(m.to_string());
    }
    for w in &words {
        if line_len > 0 && line_len + 1 + w.len() > 78 {
            text.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            text.push(' ');
            line_len += 1;
        }
        text.push_str(w);
        line_len += w.len();
    }
    text.push_str("\n\n");
    text
}
