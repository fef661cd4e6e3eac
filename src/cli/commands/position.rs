//! `referee show`, `moves` and `score`: the position after a turn (or, as HTML, every
//! position of the record), the legal turns there, the standings.

use std::io::Write;

use serde_json::{json, Value as Json};

use super::turn_arg;
use super::{load_one, visit_game, written_chance_note, OneRecord};
use crate::cli::args::TurnArg;
use crate::cli::diagnostics;
use crate::cli::html::{self, Fate, Page, Positions, Ruling, RulingError, TurnRow};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::games::seat_name;
use crate::notation::record::Action;
use crate::referee::{judge, JudgeOptions, Numbering, Session};

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
    turn: Option<TurnArg>,
    what: View,
    out: &'a mut dyn Write,
}

impl Visitor for PositionVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let turn = turn_arg::resolve::<G>(self.ctx, self.rec, self.turn)?;
        position_game::<G>(self.ctx, self.rec, turn, self.what, self.out)
    }
}

fn position(
    ctx: &Ctx,
    file: &str,
    turn: Option<TurnArg>,
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

pub fn show(ctx: &Ctx, file: &str, turn: Option<TurnArg>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Show, out)
}

pub fn moves(ctx: &Ctx, file: &str, turn: Option<TurnArg>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Moves, out)
}

pub fn score(ctx: &Ctx, file: &str, turn: Option<TurnArg>, out: &mut dyn Write) -> Outcome {
    position(ctx, file, turn, View::Score, out)
}

fn position_game<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    what: View,
    out: &mut dyn Write,
) -> Outcome {
    if matches!(what, View::Show) && ctx.global.format == Format::Html {
        return html_page::<G>(ctx, rec, turn, out);
    }
    let opts = JudgeOptions {
        detail: false,
        stop_after: turn,
        breakdowns: matches!(what, View::Score),
        first_line: 0,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let Some(session) = &j.session else {
        return cannot_start(ctx, rec, &j.report.errors, out);
    };
    super::turn_arg::within(turn, j.report.turns)?;
    // A violation before the asked position: say where the replay stopped.
    let played = session.turns;
    if let Some(n) = turn {
        if played < n {
            eprintln!(
                "referee: the replay stops before {} (the record has an error there); showing that position",
                session.turn_name().1,
            );
        }
    } else if !j.report.valid {
        eprintln!(
            "referee: the record is invalid; showing the position before {}, where the replay stops",
            session.turn_name().1
        );
    }
    let status = session.status_report();
    match (what, ctx.global.format) {
        (View::Show, Format::Text) => {
            write!(out, "{}", G::diagram(&session.settings, &session.state))?;
            writeln!(out, "{}", status.describe())?;
        }
        (View::Show, Format::Setup) => {
            // Where the string is less than a position a record can start from, say so.
            if let Some(note) = G::setup_note(&session.settings) {
                eprintln!("referee: {note}");
            }
            writeln!(
                out,
                "{}",
                G::setup_string(&session.settings, &session.state)
            )?
        }
        (View::Show, Format::Json) => {
            let mut doc = json!({
                "turn": played,
                "position": G::position_json(&session.settings, &session.state),
                "setup": G::setup_string(&session.settings, &session.state),
                "status": status,
            });
            if let Some(note) = G::setup_note(&session.settings) {
                doc["setup_note"] = json!(note);
            }
            writeln!(out, "{doc}")?;
        }
        (View::Show, Format::Svg) => match G::svg(
            &session.settings,
            &session.state,
            before_last::<G>(ctx, rec, played).as_ref(),
        ) {
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
            // No turn listed because the seat must write its throws: say so.
            let note = match legal.is_empty() {
                true => written_chance_note(session),
                false => None,
            }
            .or(G::MOVES_NOTE.map(str::to_string));
            if ctx.global.format == Format::Json {
                let mut doc =
                    json!({"turn": played + 1, "to_move": status.to_move, "moves": legal});
                if let Some(note) = note {
                    doc["note"] = json!(note);
                }
                writeln!(out, "{doc}")?;
            } else {
                if let Some(note) = note {
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
                        // A refused turn's breakdown is what it would score.
                        obj.insert("counted".into(), json!(*t <= played));
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
                    let counted = *t <= played;
                    write!(out, "{}", G::breakdown_text(b, counted))?;
                    if !counted {
                        let why = j
                            .report
                            .errors
                            .iter()
                            .find(|e| e.turn == Some(*t))
                            .map(|e| match &e.rule {
                                Some(rule) => format!("rule {rule}: {}", e.message),
                                None => e.message.clone(),
                            })
                            .unwrap_or_default();
                        writeln!(
                            out,
                            "  REFUSED ({why}): the turn is not counted; the position stays as after turn {played}"
                        )?;
                    }
                    writeln!(out)?;
                }
                writeln!(out, "Standings after turn {played}:")?;
                for s in &standings {
                    writeln!(
                        out,
                        "  {:<8} {:>4} {}",
                        seat_name::<G>(s.seat),
                        s.value,
                        unit_for(s.value, s.unit)
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
    // Every command that reads a record exits as `check` would on what it replayed: 1
    // when the replay found the record invalid, after showing where it stopped.
    if !j.report.valid {
        return Err(Failure::Invalid);
    }
    Ok(())
}

/// The position before turn `played` (the last played), for a picture to mark what
/// that turn changed; `None` at the start.
fn before_last<G: Render>(ctx: &Ctx, rec: &OneRecord, played: usize) -> Option<G::State> {
    let opts = JudgeOptions {
        detail: false,
        stop_after: Some(played.checked_sub(1)?),
        breakdowns: false,
        first_line: 0,
    };
    judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts)
        .session
        .map(|s| s.state)
}

/// `show --format html`: the record judged once for its ruling, then replayed from the
/// start with the picture of each position kept (as lines shared between positions, see
/// [`html`]); the session is played forward, never cloned. The page starts at turn N
/// with `--turn N`, else (or past the replay's end) at its last step.
fn html_page<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    out: &mut dyn Write,
) -> Outcome {
    let judged = |stop_after| {
        let opts = JudgeOptions {
            detail: false,
            stop_after,
            breakdowns: false,
            first_line: 0,
        };
        judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts)
    };
    let j = judged(None);
    let Some(end) = &j.session else {
        return cannot_start(ctx, rec, &j.report.errors, out);
    };
    super::turn_arg::within(turn, j.report.turns)?;
    let played = end.turns;
    let internal = |what: &str| Failure::Usage(format!("internal error: {what}"));
    let mut session: Session<G> = judged(Some(0))
        .session
        .ok_or_else(|| internal("the record started once but not twice"))?;
    let movetext = j.movetext.as_ref().ok_or_else(|| internal("no movetext"))?;
    let picture = |s: &Session<G>, before: Option<&G::State>| {
        G::svg(&s.settings, &s.state, before).ok_or_else(|| {
            Failure::Usage(format!("HTML output needs pictures; {} has none", G::NAME))
        })
    };
    let turn_text = |e: &crate::notation::record::Entry<G::Turn>| {
        rec.text[e.span.start..e.span.end].to_string()
    };
    let describe = |s: &Session<G>| s.status_report().describe();
    let mut positions = Positions::default();
    let mut captions = Vec::with_capacity(played + 2);
    let mut turns = Vec::with_capacity(movetext.entries.len());
    // A turn's comments are those written after it: before the next turn, or after the
    // last.
    let comments_after = |i: usize| -> Vec<String> {
        match movetext.entries.get(i + 1) {
            Some(next) => next.comments().iter().map(|c| c.to_string()).collect(),
            None => movetext.trailing.iter().map(|c| c.to_string()).collect(),
        }
    };
    positions.push(&picture(&session, None)?);
    captions.push(format!("The start: {}", describe(&session)));
    // The counter names a turn as the record numbers it: `2...` where turns are
    // numbered by rounds, else its number (its index).
    let mut counters = vec!["start".to_string()];
    let short = |s: &Session<G>, i: usize, number: &str| match s.numbering {
        Numbering::Rounds => number.to_string(),
        Numbering::Turns => (i + 1).to_string(),
    };
    for (i, entry) in movetext.entries.iter().enumerate().take(played) {
        let (number, name) = session.turn_name();
        counters.push(short(&session, i, &number));
        let address = match &entry.action {
            Action::BadAddress(s) => &rec.text[s.start..s.end],
            _ => "",
        };
        let before = session.state.clone();
        session
            .check_frame(
                entry.number.map(|(n, _)| n),
                entry.label().map(|(l, _)| l.as_str()),
            )
            .and_then(|()| session.play(&entry.action, address))
            .map_err(|r| internal(&format!("turn {} replayed differently: {r}", i + 1)))?;
        // The seat that played: where the order was open, the one its label chose.
        let seat = session.last_mover().map(seat_name::<G>).unwrap_or("-");
        positions.push(&picture(&session, Some(&before))?);
        captions.push(format!(
            "After {name} ({seat}: {}): {}",
            turn_text(entry),
            describe(&session)
        ));
        turns.push(TurnRow {
            number: Some(number),
            seat: Some(seat.to_string()),
            text: turn_text(entry),
            comments: comments_after(i),
            fate: Fate::Played,
        });
    }
    // The last turn played names the end of the counter (`2... / 38.`).
    if let Some(last) = counters.last().cloned().filter(|_| played > 0) {
        for c in counters.iter_mut().skip(1) {
            c.push_str(&format!(" / {last}"));
        }
    }
    let illegal_name = session.turn_name();
    let ruling = (!j.report.valid).then(|| Ruling {
        turn: j.report.errors.iter().filter_map(|d| d.turn).min(),
        name: j
            .report
            .errors
            .iter()
            .any(|d| d.turn.is_some())
            .then(|| illegal_name.1.clone()),
        status: describe(&session),
        errors: j
            .report
            .errors
            .iter()
            .map(|d| RulingError {
                rule: d.rule.clone(),
                rule_text: d
                    .rule_text
                    .as_ref()
                    .map(|t| (t.text.clone(), t.location.to_string())),
                message: d.message.clone(),
                setting: diagnostics::setting_note(d),
                hint: d.hint.clone(),
                excerpt: diagnostics::excerpt(&rec.name, &rec.text, 0, d),
            })
            .collect(),
    });
    let illegal = ruling.as_ref().and_then(|r| r.turn);
    for (i, entry) in movetext.entries.iter().enumerate().skip(played) {
        // The seat as written where there is a label (a turn-order dispute is about it).
        let label = entry.label().map(|(l, _)| l.clone());
        let written = entry.number.map(|(n, _)| n.to_string());
        let (seat, fate, number) = if Some(i + 1) == illegal {
            let to_move = session.to_move().map(seat_name::<G>).map(str::to_string);
            (
                label.or(to_move),
                Fate::Illegal,
                Some(illegal_name.0.clone()),
            )
        } else {
            (label, Fate::NotJudged, written)
        };
        turns.push(TurnRow {
            number,
            seat,
            text: turn_text(entry),
            comments: comments_after(i),
            fate,
        });
    }
    if let Some(r) = &ruling {
        counters.push("ruling".to_string());
        let first = &r.errors[0];
        captions.push(
            match r.turn.and_then(|t| turns.get(t - 1).map(|row| (t, row))) {
                Some((t, row)) => format!(
                    "{} ({}: {}) is illegal{}: the position before it",
                    upper_first(r.name.as_deref().unwrap_or(&format!("turn {t}"))),
                    row.seat.as_deref().unwrap_or("-"),
                    row.text,
                    first
                        .rule
                        .as_deref()
                        .map(|x| format!(" ({x})"))
                        .unwrap_or_default()
                ),
                None => format!("The ruling: {}", first.message),
            },
        );
    }
    let steps = positions.len() + usize::from(ruling.is_some());
    let start = match turn {
        Some(n) if n <= played => n,
        Some(_) => {
            eprintln!(
                "referee: the replay stops before {}; the page starts at its last step",
                session.turn_name().1
            );
            steps - 1
        }
        // Without --turn, where the record ends, as `show` does: the position it
        // reached, and for an invalid record the ruling on the turn that stops it.
        None => steps - 1,
    };
    if let Some(r) = &ruling {
        eprintln!(
            "referee: the record is invalid; the page ends with the ruling{}",
            r.name
                .as_ref()
                .map(|t| format!(" on {t}"))
                .unwrap_or_default()
        );
    }
    let page = Page {
        file: rec.name.clone(),
        game: G::NAME,
        tags: rec
            .raw
            .header
            .tags()
            .map(|t| (t.name.to_string(), t.value.to_string()))
            .collect(),
        turns,
        opening: match movetext.entries.first() {
            Some(first) => first.comments().iter().map(|c| c.to_string()).collect(),
            None => movetext.trailing.iter().map(|c| c.to_string()).collect(),
        },
        positions,
        captions,
        counters,
        ruling,
        start,
    };
    out.write_all(html::page(&page).as_bytes())?;
    if j.report.valid {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// A record whose game cannot even start: its diagnostics, and exit code 1.
fn cannot_start(
    ctx: &Ctx,
    rec: &OneRecord,
    errors: &[crate::referee::Diagnostic],
    out: &mut dyn Write,
) -> Outcome {
    for d in errors {
        write!(
            out,
            "{}",
            diagnostics::render(&rec.name, &rec.text, 0, d, ctx.color)
        )?;
    }
    Err(Failure::Invalid)
}

/// `move 2, black` → `Move 2, black`.
fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A standing's unit as its count reads in words: `1 tile`, `2 tiles` (units that are
/// no plural, `money` and `borne off`, stay as they are).
fn unit_for(value: i64, unit: &str) -> &str {
    match (value, unit) {
        (1, "pieces") => "piece",
        (1, "tiles") => "tile",
        (1, "points") => "point",
        _ => unit,
    }
}
