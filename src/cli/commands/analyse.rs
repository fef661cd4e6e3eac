//! `referee analyse` (alias `analyze`): the engine's view of the position after a turn —
//! each seat's estimated share of the win with a 95 % interval, the best turns for the
//! seat to move, the expected line. Also what `adjudicate --estimate`, `moves --best`,
//! `play --engine` and `selfplay --engine` share: the engine's options and its reports.

use std::io::Write;
use std::time::Duration;

use serde_json::{json, Value as Json};

use super::turn_arg;
use super::{load_one, visit_game, OneRecord};
use crate::cli::args::{EngineArgs, TurnArg};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::engine::{self, Analysis, Budget, Choice, Config};
use crate::games::{seat_name, Game};
use crate::referee::{judge, JudgeOptions, Session};

/// The default budget: playouts.
pub const DEFAULT_PLAYOUTS: u64 = 2000;

/// The most search threads `--threads` takes: each is a tree of its own, and far more
/// threads than cores only share the cores.
pub const MAX_THREADS: usize = 256;

impl EngineArgs {
    pub fn config(&self, seed: &str) -> Result<Config, Failure> {
        let budget = match (&self.time, self.playouts) {
            (Some(t), _) => Budget::Time(parse_duration(t)?),
            (None, Some(0)) => return Err(Failure::Usage("--playouts must be at least 1".into())),
            (None, Some(n)) => Budget::Playouts(n),
            (None, None) => Budget::Playouts(DEFAULT_PLAYOUTS),
        };
        let mut c = Config::new(budget, seed);
        if let Some(t) = self.threads {
            if !(1..=MAX_THREADS).contains(&t) {
                return Err(Failure::Usage(format!(
                    "--threads must be from 1 to {MAX_THREADS}, got {t}"
                )));
            }
            c.threads = t;
        }
        Ok(c)
    }
}

/// `2s`, `500ms`, `1.5s`, `1m`, `3` (seconds).
pub fn parse_duration(text: &str) -> Result<Duration, Failure> {
    let t = text.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else {
        (t, 1.0)
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() && v * scale < 1e7 => {
            Ok(Duration::from_secs_f64(v * scale))
        }
        _ => Err(Failure::Usage(format!(
            "--time takes a duration such as 500ms, 2s or 1m, got `{}`",
            crate::quote::quote(text)
        ))),
    }
}

/// Runs the engine on a session's position. The outcome opening the turn, when the
/// referee has derived it from the record's seed, is the one the seat to move faces (as
/// `moves` lists its turns): the search keeps it. Without a seed it is not known until
/// written, and the search draws it afresh in every iteration. Every outcome after it
/// comes from the engine's generator, never from the record's seed.
pub fn think<G: Game>(session: &Session<G>, config: &Config) -> Result<Analysis<G>, Failure> {
    engine::search::<G>(
        &session.settings,
        &session.state,
        session.chance.as_ref(),
        config,
    )
    .map_err(|why| Failure::Usage(format!("the engine cannot search this position: {why}")))
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

/// The estimate as JSON: seats, the outcome the seat faces, best turns (or, when that
/// outcome is not known, the seat's chances by outcome), line, and the search's size.
pub fn analysis_json<G: Game>(a: &Analysis<G>, config: &Config) -> Json {
    let seats: Vec<Json> = a
        .seats
        .iter()
        .map(|s| json!({"seat": seat_name::<G>(s.seat), "win": round4(s.mean), "low": round4(s.low), "high": round4(s.high)}))
        .collect();
    let choice = |c: &Choice<G::Turn>| json!({"turn": c.turn.to_string(), "visits": c.visits, "value": round4(c.value), "few_visits": c.few_visits()});
    // Not known: no turn is the seat's to choose yet.
    let best: Vec<Json> = if a.outcomes.is_empty() {
        a.choices.iter().take(BEST_LISTED).map(choice).collect()
    } else {
        Vec::new()
    };
    let outcomes: Vec<Json> = a
        .outcomes
        .iter()
        .map(|o| {
            json!({
                "outcome": o.label,
                "probability": round4(o.probability),
                "win": round4(o.value),
                "best": o.choices.first().map(choice),
            })
        })
        .collect();
    let line: Vec<String> = a.line.iter().map(|t| t.to_string()).collect();
    let mut doc = json!({
        "to_move": a.to_move.map(seat_name::<G>),
        "seats": seats,
        "outcome": a.outcome.as_ref().map(|c| c.to_string()),
        "outcomes": outcomes,
        "best": best,
        "line": line,
        "playouts": a.iterations,
        "threads": a.threads,
        "seed": config.seed,
    });
    if matches!(config.budget, Budget::Time(_)) {
        doc["seconds"] = json!((a.elapsed.as_secs_f64() * 1000.0).round() / 1000.0);
    }
    doc
}

/// The best turns listed.
const BEST_LISTED: usize = 5;

/// The outcome groups listed in text (the rest are summed on one line).
const OUTCOMES_LISTED: usize = 8;

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// A choice's visits, marked when too few to mean anything.
fn visits_text<T>(c: &Choice<T>) -> String {
    if c.few_visits() {
        format!("{} visits, few", c.visits)
    } else {
        format!("{} visits", c.visits)
    }
}

/// The estimate as text: one line a seat, the best turns (or the seat's chances by
/// outcome when the outcome it faces is not known), the line.
pub fn analysis_text<G: Game>(a: &Analysis<G>, config: &Config) -> String {
    let mut s = String::new();
    if a.to_move.is_none() {
        s += "Outcome (the game is over: nothing to search):\n";
    } else {
        let timing = match config.budget {
            Budget::Time(_) => format!(", {:.2} s", a.elapsed.as_secs_f64()),
            Budget::Playouts(_) => String::new(),
        };
        s += &format!(
            "Estimate ({} playouts, seed {}, {} thread{}{timing}):\n",
            a.iterations,
            crate::quote::quote(&config.seed),
            a.threads,
            if a.threads == 1 { "" } else { "s" }
        );
    }
    for e in &a.seats {
        s += &format!(
            "  {:<8} {:>5} %  [{}, {}]\n",
            seat_name::<G>(e.seat),
            pct(e.mean),
            pct(e.low),
            pct(e.high)
        );
    }
    let Some(m) = a.to_move else {
        return s;
    };
    let seat = seat_name::<G>(m);
    let noun = G::OUTCOME_NOUN;
    let line: Vec<String> = a.line.iter().map(|t| t.to_string()).collect();
    if a.outcomes.is_empty() {
        match &a.outcome {
            Some(o) => s += &format!("Best turns for {seat}, {noun} {o}:\n"),
            None => s += &format!("Best turns for {seat}:\n"),
        }
        for c in a.choices.iter().take(BEST_LISTED) {
            let few = if c.few_visits() { "  few visits" } else { "" };
            s += &format!(
                "  {:<24} {:>7} visits  value {:.3}{few}\n",
                c.turn.to_string(),
                c.visits,
                c.value
            );
        }
        s += &format!("Expected line: {}\n", line.join("  "));
        return s;
    }
    s += &format!(
        "The {noun} is not known (no seed, and not written yet): {seat}'s chances by {noun}, \
         with the best choice under each:\n"
    );
    let width = a
        .outcomes
        .iter()
        .take(OUTCOMES_LISTED)
        .map(|o| o.label.chars().count())
        .max()
        .unwrap_or(0);
    for o in a.outcomes.iter().take(OUTCOMES_LISTED) {
        let best = match o.choices.first() {
            Some(c) => format!("{}  ({})", c.turn, visits_text(c)),
            None => "no turn".to_string(),
        };
        s += &format!(
            "  {:<width$}  drawn {:>5} %  {seat} {:>5} %  best {best}\n",
            o.label,
            pct(o.probability),
            pct(o.value),
        );
    }
    let rest = &a.outcomes[a.outcomes.len().min(OUTCOMES_LISTED)..];
    if !rest.is_empty() {
        let p: f64 = rest.iter().map(|o| o.probability).sum();
        s += &format!(
            "  ({} rarer {noun}s, drawn {} % together)\n",
            rest.len(),
            pct(p)
        );
    }
    s += &format!(
        "Expected line, under the {noun} drawn most: {}\n",
        line.join("  ")
    );
    s
}

/// The likely winner: the seat whose interval lies wholly above every other's.
pub fn likely_winner<G: Game>(a: &Analysis<G>) -> Option<crate::games::Seat> {
    a.seats
        .iter()
        .find(|e| {
            a.seats
                .iter()
                .filter(|o| o.seat != e.seat)
                .all(|o| e.low > o.high)
        })
        .map(|e| e.seat)
}

/// An engine command on a record's position: `analyse`, or `moves --best` (`best`).
struct EngineVisit<'a> {
    ctx: &'a Ctx,
    rec: &'a OneRecord,
    turn: Option<TurnArg>,
    seed: &'a str,
    engine: &'a EngineArgs,
    best: bool,
    out: &'a mut dyn Write,
}

impl Visitor for EngineVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let config = self.engine.config(self.seed)?;
        let turn = turn_arg::resolve::<G>(self.ctx, self.rec, self.turn)?;
        let (session, valid) = replay_to::<G>(self.ctx, self.rec, turn)?;
        if self.best {
            best_turn::<G>(self.ctx, &session, &config, self.out)?;
        } else {
            analysis::<G>(self.ctx, &session, &config, self.out)?;
        }
        // As `check` would on what was replayed: an invalid record exits 1.
        if valid {
            Ok(())
        } else {
            Err(Failure::Invalid)
        }
    }
}

/// `referee analyse`: each seat's chance, the best turns, the expected line.
fn analysis<G: Render>(
    ctx: &Ctx,
    session: &Session<G>,
    config: &Config,
    out: &mut dyn Write,
) -> Outcome {
    let a = think(session, config)?;
    let played = session.turns;
    if ctx.global.format == Format::Json {
        let mut doc = json!({"turn": played});
        if let (Json::Object(d), Json::Object(more)) = (&mut doc, analysis_json(&a, config)) {
            d.extend(more);
        }
        writeln!(out, "{doc}")?;
    } else {
        let status = session.status_report();
        writeln!(
            out,
            "Position after turn {played} ({}): {}",
            G::NAME,
            status.describe()
        )?;
        write!(out, "{}", analysis_text(&a, config))?;
    }
    Ok(())
}

/// `referee moves --best`: the engine's choice among the legal turns.
fn best_turn<G: Render>(
    ctx: &Ctx,
    session: &Session<G>,
    config: &Config,
    out: &mut dyn Write,
) -> Outcome {
    let mut legal = Vec::new();
    session.legal_turns(&mut legal);
    if legal.is_empty() {
        return Err(Failure::Usage(match session.to_move() {
            None => "the game is over: there is no turn to choose".into(),
            Some(_) => "the seat to move has no legal turn listed here (without a seed \
                            the random outcome opening the turn is not known until written)"
                .into(),
        }));
    }
    let a = think(session, config)?;
    // The most visited root turn that is legal here (the search keeps the outcome
    // the seat has seen, so it always is).
    let best = a.best_of(&legal).expect("legal turns");
    if ctx.global.format == Format::Json {
        let mut doc = json!({"turn": session.turns + 1, "best": best.to_string()});
        if let (Json::Object(d), Json::Object(more)) = (&mut doc, analysis_json(&a, config)) {
            d.extend(more);
        }
        writeln!(out, "{doc}")?;
    } else {
        writeln!(out, "{best}")?;
    }
    Ok(())
}

/// The session after turn `turn` (default: the last), as `show` replays it; a replay
/// that stops early is said on stderr.
pub fn replay_to<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
) -> Result<(Session<G>, bool), Failure> {
    let opts = JudgeOptions {
        detail: false,
        stop_after: turn,
        breakdowns: false,
        first_line: 0,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let Some(session) = j.session else {
        let why = j
            .report
            .errors
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_default();
        return Err(Failure::Usage(format!(
            "{}: the game cannot start: {why}",
            rec.name
        )));
    };
    super::turn_arg::within(turn, j.report.turns)?;
    let played = session.turns;
    match turn {
        Some(n) if played < n => eprintln!(
            "referee: the replay stops before {} (the record has an error there); analysing that position",
            session.turn_name().1,
        ),
        None if !j.report.valid => eprintln!(
            "referee: the record is invalid; analysing the position before {}, where the replay stops",
            session.turn_name().1
        ),
        _ => {}
    }
    Ok((session, j.report.valid))
}

/// The engine's commands answer in text or JSON.
fn text_or_json(ctx: &Ctx, command: &str) -> Result<(), Failure> {
    match ctx.global.format {
        Format::Text | Format::Json => Ok(()),
        f => Err(Failure::Usage(
            format!("{command} prints text or json, not {f:?}").to_lowercase(),
        )),
    }
}

/// `referee analyse FILE`.
pub fn analyse(
    ctx: &Ctx,
    file: &str,
    turn: Option<TurnArg>,
    seed: &str,
    engine: &EngineArgs,
    out: &mut dyn Write,
) -> Outcome {
    text_or_json(ctx, "analyse")?;
    engine_view(ctx, file, turn, seed, engine, false, out)
}

/// `referee moves FILE --best`.
pub fn best_move(
    ctx: &Ctx,
    file: &str,
    turn: Option<TurnArg>,
    seed: &str,
    engine: &EngineArgs,
    out: &mut dyn Write,
) -> Outcome {
    text_or_json(ctx, "moves --best")?;
    engine_view(ctx, file, turn, seed, engine, true, out)
}

/// Loads the record and runs `analyse` or `moves --best` for its game.
fn engine_view(
    ctx: &Ctx,
    file: &str,
    turn: Option<TurnArg>,
    seed: &str,
    engine: &EngineArgs,
    best: bool,
    out: &mut dyn Write,
) -> Outcome {
    let rec = load_one(ctx, file)?;
    visit_game(
        rec.game,
        EngineVisit {
            ctx,
            rec: &rec,
            turn,
            seed,
            engine,
            best,
            out,
        },
    )
}
