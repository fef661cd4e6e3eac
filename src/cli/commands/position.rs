//! `referee show`, `moves` and `score`: the position after a turn, the legal turns
//! there, the standings.

use std::io::Write;

use serde_json::{json, Value as Json};

use super::{load_one, visit_game, OneRecord};
use crate::cli::diagnostics;
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::games::seat_name;
use crate::referee::{judge, JudgeOptions, StatusReport};

/// What a position command prints.
#[derive(Copy, Clone)]
enum View {
    Show,
    Moves,
    Score,
}

struct PositionVisit<'a> {
    ctx: &'a Ctx,
    rec: &'a OneRecord,
    turn: Option<usize>,
    what: View,
    out: &'a mut dyn Write,
}

impl Visitor for PositionVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        position_game::<G>(self.ctx, self.rec, self.turn, self.what, self.out)
    }
}

fn position(
    ctx: &Ctx,
    file: &str,
    turn: Option<usize>,
    what: View,
    out: &mut dyn Write,
) -> Outcome {
    let rec = load_one(ctx, file)?;
    visit_game(
        rec.game,
        PositionVisit {
            ctx,
            rec: &rec,
            turn,
            what,
            out,
        },
    )
}

pub fn show(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Show, out)
}

pub fn moves(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Moves, out)
}

pub fn score(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Score, out)
}

fn position_game<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    what: View,
    out: &mut dyn Write,
) -> Outcome {
    let opts = JudgeOptions {
        detail: false,
        stop_after: turn,
        breakdowns: matches!(what, View::Score),
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let Some(session) = &j.session else {
        for d in &j.report.errors {
            write!(
                out,
                "{}",
                diagnostics::render(&rec.name, &rec.text, 0, d, ctx.color)
            )?;
        }
        return Err(Failure::Invalid);
    };
    // A violation before the asked position: say where the replay stopped.
    let played = session.turns;
    if let Some(n) = turn {
        if played < n {
            eprintln!(
                "referee: the replay stops after turn {played} (the record {}); showing that position",
                if j.report.turns < n { "is shorter" } else { "has an error there" }
            );
        }
    } else if !j.report.valid {
        eprintln!("referee: the record is invalid; showing the position after turn {played}, where the replay stops");
    }
    let status = StatusReport::of::<G>(&session.status());
    match (what, ctx.global.format) {
        (View::Show, Format::Text) => {
            write!(out, "{}", G::diagram(&session.settings, &session.state))?;
            writeln!(out, "{}", status.describe())?;
        }
        (View::Show, Format::Setup) => writeln!(
            out,
            "{}",
            G::setup_string(&session.settings, &session.state)
        )?,
        (View::Show, Format::Json) => {
            let doc = json!({
                "turn": played,
                "position": G::position_json(&session.settings, &session.state),
                "setup": G::setup_string(&session.settings, &session.state),
                "status": status,
            });
            writeln!(out, "{doc}")?;
        }
        (View::Show, Format::Svg) => match G::svg(&session.settings, &session.state) {
            Some(svg) => write!(out, "{svg}")?,
            None => {
                return Err(Failure::Usage(format!(
                    "SVG output is not available for {} yet",
                    G::NAME
                )))
            }
        },
        (View::Moves, Format::Text | Format::Json) => {
            let mut turns = Vec::new();
            session.legal_turns(&mut turns);
            let mut legal: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
            legal.sort();
            if ctx.global.format == Format::Json {
                let mut doc =
                    json!({"turn": played + 1, "to_move": status.to_move, "moves": legal});
                if let Some(note) = G::MOVES_NOTE {
                    doc["note"] = json!(note);
                }
                writeln!(out, "{doc}")?;
            } else {
                if let Some(note) = G::MOVES_NOTE {
                    eprintln!("referee: {note}");
                }
                for m in legal {
                    writeln!(out, "{m}")?;
                }
            }
        }
        (View::Score, Format::Text | Format::Json) => {
            let standings = G::standings(&session.settings, &session.state);
            // With --turn N the breakdown of turn N, else of every turn.
            let scored: Vec<&(usize, G::Breakdown)> = j
                .breakdowns
                .iter()
                .filter(|(t, _)| turn.is_none_or(|n| *t == n))
                .collect();
            let turn_text = |t: usize| {
                j.movetext
                    .as_ref()
                    .and_then(|m| m.entries.get(t - 1))
                    .map(|e| rec.text[e.span.start..e.span.end].to_string())
                    .unwrap_or_default()
            };
            if ctx.global.format == Format::Json {
                let rows: Vec<Json> = standings
                    .iter()
                    .map(|s| json!({"seat": seat_name::<G>(s.seat), "value": s.value, "unit": s.unit}))
                    .collect();
                let turns: Vec<Json> = scored
                    .iter()
                    .map(|(t, b)| {
                        let mut obj = serde_json::Map::new();
                        obj.insert("turn".into(), json!(t));
                        obj.insert("text".into(), json!(turn_text(*t)));
                        if let Ok(Json::Object(fields)) = serde_json::to_value(b) {
                            obj.extend(fields);
                        }
                        Json::Object(obj)
                    })
                    .collect();
                let mut doc = json!({"turn": played, "standings": rows, "status": status});
                if !turns.is_empty() {
                    doc["turns"] = Json::Array(turns);
                }
                writeln!(out, "{doc}")?;
            } else {
                for (t, b) in &scored {
                    writeln!(out, "Turn {t}: {}", turn_text(*t))?;
                    write!(out, "{}", G::breakdown_text(b))?;
                    writeln!(out)?;
                }
                writeln!(out, "Standings after turn {played}:")?;
                for s in &standings {
                    writeln!(
                        out,
                        "  {:<8} {:>4} {}",
                        seat_name::<G>(s.seat),
                        s.value,
                        s.unit
                    )?;
                }
                writeln!(out, "{}", status.describe())?;
            }
        }
        (_, f) => {
            return Err(Failure::Usage(
                format!("this command does not print {f:?}").to_lowercase(),
            ))
        }
    }
    Ok(())
}
