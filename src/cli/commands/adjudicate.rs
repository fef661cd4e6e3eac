//! `referee adjudicate`: a full ruling on the last record of a file.

use std::io::Write;

use serde_json::{json, Value as Json};

use super::analyse::{analysis_json, analysis_text, likely_winner, think};
use super::turn_arg;
use super::{load_one, visit_game, OneRecord};
use crate::cli::args::{EngineArgs, TurnArg};
use crate::cli::diagnostics::{self, origin, report_json};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::engine::{Analysis, Config, ExpectedStanding};
use crate::games::{seat_name, Game};
use crate::notation::record::LineIndex;
use crate::referee::{judge, JudgeOptions, Session};

/// `--estimate`: the engine's seed and budget.
pub struct Estimate<'a> {
    pub seed: &'a str,
    pub engine: &'a EngineArgs,
}

struct AdjudicateVisit<'a> {
    ctx: &'a Ctx,
    rec: &'a OneRecord,
    turn: Option<TurnArg>,
    estimate: Option<Estimate<'a>>,
    out: &'a mut dyn Write,
}

impl Visitor for AdjudicateVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let turn = turn_arg::resolve::<G>(self.ctx, self.rec, self.turn)?;
        adjudicate_game::<G>(self.ctx, self.rec, turn, self.estimate, self.out)
    }
}

pub fn adjudicate(
    ctx: &Ctx,
    file: &str,
    turn: Option<TurnArg>,
    estimate: Option<Estimate<'_>>,
    out: &mut dyn Write,
) -> Outcome {
    match ctx.global.format {
        Format::Text | Format::Json => {
            let rec = load_one(ctx, file)?;
            visit_game(
                rec.game,
                AdjudicateVisit {
                    ctx,
                    rec: &rec,
                    turn,
                    estimate,
                    out,
                },
            )
        }
        f => Err(Failure::Usage(
            format!("adjudicate prints text or json, not {f:?}").to_lowercase(),
        )),
    }
}

/// The narrowest and widest turn column of a ruling's list of turns.
const TURN_COLUMN_MIN: usize = 22;
const TURN_COLUMN_MAX: usize = 40;

fn adjudicate_game<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    estimate: Option<Estimate<'_>>,
    out: &mut dyn Write,
) -> Outcome {
    let opts = JudgeOptions {
        detail: true,
        stop_after: turn,
        breakdowns: true,
        first_line: 0,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let r = &j.report;
    super::turn_arg::within(turn, r.turns)?;
    let lines = LineIndex::new(&rec.text);
    // The engine's estimate of the position where the replay stops.
    let estimated = match (&estimate, &j.session) {
        (Some(e), Some(s)) if !s.status().is_over() => {
            let config = e.engine.config(e.seed)?;
            let a = think(s, &config)?;
            Some((a, config))
        }
        _ => None,
    };
    // With --turn N: the position before turn N and the legal turns there.
    let before_n = turn.and_then(|n| {
        if n == 0 {
            return None;
        }
        let o = JudgeOptions {
            detail: false,
            stop_after: Some(n - 1),
            breakdowns: false,
            first_line: 0,
        };
        judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, o).session
    });
    let legal_at = |s: &Session<G>| {
        let mut turns = Vec::new();
        s.legal_turns(&mut turns);
        let mut v: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
        v.sort();
        v
    };
    let score_of = |t: usize| j.breakdowns.iter().find(|(n, _)| *n == t).map(|(_, b)| b);
    // A turn named as the record numbers it (`move 2, black`; `turn 3`), and its
    // number in the list's column (`2...`; `3`).
    let name_of = |t: usize| {
        j.verdicts
            .iter()
            .find(|v| v.turn == t)
            .map(|v| v.name.clone())
            .unwrap_or_else(|| format!("turn {t}"))
    };
    let column = |v: &crate::referee::TurnVerdict| match v.name.starts_with("turn ") {
        true => v.turn.to_string(),
        false => v.number.clone(),
    };
    let verdicts: Vec<_> = match turn {
        Some(n) => j.verdicts.iter().filter(|v| v.turn == n).collect(),
        None => j.verdicts.iter().collect(),
    };
    if ctx.global.format == Format::Json {
        let mut doc = report_json(&rec.name, &rec.text, &lines, 0, r);
        doc["verdicts"] = verdicts
            .iter()
            .map(|v| {
                let mut o = json!({"turn": v.turn, "number": v.number, "seat": v.seat, "text": v.text, "legal": v.legal, "note": v.note});
                if let Some(b) = score_of(v.turn) {
                    o["score"] = json!(b);
                }
                o
            })
            .collect();
        doc["violation"] = match &j.violation {
            None => Json::Null,
            Some(v) => json!({
                "turn": v.turn,
                "number": j.verdicts.iter().find(|x| x.turn == v.turn).map(|x| &x.number),
                "rule": v.refusal.rule(),
                "message": v.refusal.to_string(),
                "rule_text": v.rule_text.as_ref().map(|t| &t.text),
                "rule_source": v.rule_text.as_ref().map(|t| t.location.to_string()),
                "setting": v.setting.as_ref().map(|(k, s)| json!({"key": k, "value": s.value.to_string(), "set_at": origin(&s.origin)})),
                "before": {
                    "setup": G::setup_string(&v.before.settings, &v.before.state),
                    "status": v.before.status_report(),
                },
                "legal": v.legal,
            }),
        };
        if let Some(b) = j.violation.as_ref().and_then(|v| v.breakdown.as_ref()) {
            doc["violation"]["breakdown"] = json!(b);
        }
        if let (Some(n), Some(s)) = (turn, &before_n) {
            doc["turn"] = json!({
                "turn": n,
                "before": {"setup": G::setup_string(&s.settings, &s.state), "status": s.status_report()},
                "legal": legal_at(s),
            });
        }
        if estimate.is_some() {
            doc["estimate"] = match &estimated {
                Some((a, config)) => estimate_json(a, config),
                None => Json::Null,
            };
        }
        writeln!(out, "{doc}")?;
        return if r.valid {
            Ok(())
        } else {
            Err(Failure::Invalid)
        };
    }
    // Text, built whole so blank lines between its blocks can be evened out.
    let final_out = out;
    let mut text: Vec<u8> = Vec::new();
    let out: &mut dyn Write = &mut text;
    let ruleset_file = j
        .session
        .as_ref()
        .map(|s| s.ruleset.file.clone())
        .unwrap_or_default();
    writeln!(out, "Ruling on {} (record {})", rec.name, rec.index + 1)?;
    writeln!(
        out,
        "Game {}, ruleset {}{}",
        G::NAME,
        crate::quote::quote(r.ruleset.as_deref().unwrap_or("?")),
        if ruleset_file.is_empty() {
            String::new()
        } else {
            format!(" ({ruleset_file})")
        }
    )?;
    if !verdicts.is_empty() {
        writeln!(out)?;
    }
    // The turn column fits the turns, up to a width past which a long turn (a Halasi
    // run) keeps its own line and its verdict goes under it, aligned.
    let width = verdicts
        .iter()
        .map(|v| v.text.chars().count())
        .filter(|&n| n <= TURN_COLUMN_MAX)
        .max()
        .unwrap_or(0)
        .max(TURN_COLUMN_MIN);
    let numbers = verdicts
        .iter()
        .map(|v| column(v).len())
        .max()
        .unwrap_or(0)
        .max(4);
    for v in &verdicts {
        let verdict = if v.legal {
            "legal".to_string()
        } else {
            let rule = j
                .violation
                .as_ref()
                .and_then(|x| x.refusal.rule())
                .unwrap_or("dice");
            format!("ILLEGAL ({rule})")
        };
        if v.text.chars().count() <= width {
            writeln!(
                out,
                "  {:>numbers$}  {:<6} {:<width$} {verdict}",
                column(v),
                v.seat,
                v.text
            )?;
        } else {
            writeln!(out, "  {:>numbers$}  {:<6} {}", column(v), v.seat, v.text)?;
            writeln!(
                out,
                "  {:>numbers$}  {:<6} {:<width$} {verdict}",
                "", "", ""
            )?;
        }
        if let Some(line) = score_of(v.turn).and_then(G::score_line) {
            writeln!(out, "              {line}")?;
        }
        if let Some(note) = &v.note {
            writeln!(out, "              note: {note}")?;
        }
    }
    if let (Some(n), Some(s)) = (turn, &before_n) {
        if j.violation.as_ref().is_none_or(|v| v.turn == n) {
            writeln!(
                out,
                "\nPosition before {} ({}):",
                name_of(n),
                s.status_report().describe()
            )?;
            write!(out, "{}", G::diagram(&s.settings, &s.state))?;
            writeln!(out, "setup: {}", G::setup_string(&s.settings, &s.state))?;
            write_legal(out, &legal_at(s))?;
        }
    }
    if !r.errors.is_empty() || !r.warnings.is_empty() {
        writeln!(out)?;
    }
    for d in &r.errors {
        write!(
            out,
            "{}",
            diagnostics::render(&rec.name, &rec.text, 0, d, ctx.color)
        )?;
    }
    for d in &r.warnings {
        write!(
            out,
            "{}",
            diagnostics::render_warning(&rec.name, &rec.text, 0, d, ctx.color)
        )?;
    }
    if let Some(v) = &j.violation {
        if let Some(b) = &v.breakdown {
            writeln!(out, "How {} scores, point by point:", v.name)?;
            write!(out, "{}", G::breakdown_text(b, false))?;
            writeln!(out)?;
        }
        if turn.is_none() {
            writeln!(
                out,
                "Position before {} ({}):",
                v.name,
                v.before.status_report().describe()
            )?;
            write!(out, "{}", G::diagram(&v.before.settings, &v.before.state))?;
            writeln!(
                out,
                "setup: {}",
                G::setup_string(&v.before.settings, &v.before.state)
            )?;
            write_legal(out, &v.legal)?;
        } else if turn != Some(v.turn) {
            writeln!(
                out,
                "The replay stopped at {}, before {}.",
                v.name,
                name_of(turn.unwrap_or(0))
            )?;
        }
        if r.turns > v.turn {
            let k = r.turns - v.turn;
            let (s, follow) = if k == 1 {
                ("", "follows")
            } else {
                ("s", "follow")
            };
            writeln!(
                out,
                "{k} more turn{s} {follow} the illegal turn and {} not judged.",
                if k == 1 { "was" } else { "were" }
            )?;
        }
    }
    writeln!(out)?;
    let status = r
        .status
        .as_ref()
        .map(|s| s.describe())
        .unwrap_or_else(|| "the game could not start".into());
    let declared = crate::quote::quote(rec.raw.header.value("Result").unwrap_or("*"));
    let stopped = j.violation.as_ref().map(|v| v.name.clone());
    match (turn, stopped) {
        (Some(_), Some(t)) => writeln!(out, "The replay stops before {t}: {status}")?,
        (None, Some(t)) => writeln!(
            out,
            "The replay stops before {t} ({status}); declared \"{declared}\""
        )?,
        (Some(n), None) => writeln!(out, "After {}: {status}", name_of(n))?,
        (None, None) => writeln!(out, "Result: {status}; declared \"{declared}\"")?,
    }
    let n = r.errors.len();
    let scope = match turn {
        Some(t) => format!(" on turns 1-{t}"),
        None => String::new(),
    };
    writeln!(
        out,
        "Verdict{scope}: {}",
        if r.valid {
            "valid".to_string()
        } else {
            format!("invalid ({n} error{})", if n == 1 { "" } else { "s" })
        }
    )?;
    if estimate.is_some() {
        match &estimated {
            Some((a, config)) => write!(out, "\n{}", estimate_text(a, config))?,
            None => writeln!(out, "\nEstimate: none, the game is over")?,
        }
    }
    let mut text = String::from_utf8_lossy(&text).into_owned();
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    final_out.write_all(text.as_bytes())?;
    if r.valid {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

/// The verdict of an estimate: the likely winner, or too close.
fn verdict<G: Game>(a: &Analysis<G>) -> String {
    match likely_winner(a) {
        Some(seat) => format!("{} is the likely winner", seat_name::<G>(seat)),
        None => "too close to call: no seat's interval lies wholly above the others'".into(),
    }
}

/// Expected standings where they count money or points (Halasi), best first.
fn expected<G: Game>(a: &Analysis<G>) -> Vec<&ExpectedStanding> {
    let mut v: Vec<&ExpectedStanding> = a
        .standings
        .iter()
        .filter(|s| s.unit == "money" || s.unit == "points")
        .collect();
    v.sort_by(|x, y| {
        y.mean
            .partial_cmp(&x.mean)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    v
}

fn estimate_json<G: Game>(a: &Analysis<G>, config: &Config) -> Json {
    let mut doc = analysis_json(a, config);
    doc["likely_winner"] = json!(likely_winner(a).map(seat_name::<G>));
    doc["verdict"] = json!(verdict(a));
    let exp = expected(a);
    if !exp.is_empty() {
        doc["expected_standings"] = exp
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"rank": i + 1, "seat": seat_name::<G>(s.seat), "value": (s.mean * 10.0).round() / 10.0, "unit": s.unit}))
            .collect();
    }
    doc
}

fn estimate_text<G: Game>(a: &Analysis<G>, config: &Config) -> String {
    let mut s = analysis_text(a, config);
    s += &format!("Estimated outcome: {}\n", verdict(a));
    let exp = expected(a);
    if !exp.is_empty() {
        s += "Expected final standings:\n";
        for (i, e) in exp.iter().enumerate() {
            s += &format!(
                "  {}. {:<8} {:>8.1} {}\n",
                i + 1,
                seat_name::<G>(e.seat),
                e.mean,
                e.unit
            );
        }
    }
    s
}

/// Longest line of a packed list of legal turns, in columns.
const LEGAL_WIDTH: usize = 100;

/// The legal turns after their count: packed into lines of at most [`LEGAL_WIDTH`]
/// columns when no turn has a space, else one a line (so that where one turn ends and
/// the next begins can be read: `[1 1 2] enter, c1+2`, `[2: KK] KK@AM1.0/AM1.7 =4`).
/// Continuation lines are indented by two spaces.
fn write_legal(out: &mut dyn Write, legal: &[String]) -> std::io::Result<()> {
    let head = format!("Legal turns ({}):", legal.len());
    write!(out, "{head}")?;
    if legal.iter().any(|t| t.contains(' ')) {
        writeln!(out)?;
        for t in legal {
            writeln!(out, "  {t}")?;
        }
        return Ok(());
    }
    let mut col = head.chars().count();
    for t in legal {
        let w = t.chars().count();
        if col + 1 + w > LEGAL_WIDTH && col > 2 {
            write!(out, "\n  {t}")?;
            col = 2 + w;
        } else {
            write!(out, " {t}")?;
            col += 1 + w;
        }
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::write_legal;

    fn legal(turns: &[&str]) -> String {
        let turns: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
        let mut out = Vec::new();
        write_legal(&mut out, &turns).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn legal_turns_without_spaces_are_packed_into_short_lines() {
        assert_eq!(legal(&["c3-d4", "d3-d4"]), "Legal turns (2): c3-d4 d3-d4\n");
        assert_eq!(legal(&[]), "Legal turns (0):\n");
        let many: Vec<String> = (0..100).map(|i| format!("a{i}-b{i}")).collect();
        let many: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
        let text = legal(&many);
        assert!(text.lines().count() > 5, "{text}");
        for (k, line) in text.lines().enumerate() {
            assert!(line.chars().count() <= 100, "{line}");
            assert_eq!(k > 0, line.starts_with("  "), "{line}");
        }
        let back: Vec<&str> = text
            .trim_start_matches("Legal turns (100):")
            .split_whitespace()
            .collect();
        assert_eq!(back, many);
    }

    #[test]
    fn legal_turns_with_spaces_are_one_a_line() {
        assert_eq!(
            legal(&["[1 2] enter, c1+2", "[1 2] e1+2+1"]),
            "Legal turns (2):\n  [1 2] enter, c1+2\n  [1 2] e1+2+1\n"
        );
    }
}
