//! `referee move`: append one turn to a record file after checking it.

use std::io::Write;
use std::path::Path;

use serde_json::json;

use super::{load_one, parse_single, refusal_json, visit_game, write_atomically, OneRecord};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::notation::record::Action;
use crate::referee::{self, judge, JudgeOptions, StatusReport};

struct MoveVisit<'a> {
    ctx: &'a Ctx,
    path: &'a Path,
    rec: &'a OneRecord,
    turn: &'a str,
    expect: Option<usize>,
    out: &'a mut dyn Write,
}

impl Visitor for MoveVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let MoveVisit {
            ctx,
            path,
            rec,
            turn,
            expect,
            out,
        } = self;
        let json = ctx.global.format == Format::Json;
        let refuse = |out: &mut dyn Write,
                      rule: Option<&str>,
                      message: String,
                      hint: Option<String>|
         -> Outcome {
            if json {
                writeln!(out, "{}", refusal_json(rule, &message, hint.as_deref()))?;
            } else {
                let rule = rule.map(|r| format!(" ({r})")).unwrap_or_default();
                writeln!(out, "refused{rule}: {message}")?;
                if let Some(h) = hint {
                    writeln!(out, "hint: {h}")?;
                }
            }
            Err(Failure::Invalid)
        };
        let j = judge::<G>(
            &ctx.env,
            &rec.name,
            &rec.text,
            &rec.raw,
            rec.index,
            JudgeOptions::default(),
        );
        if !j.report.valid {
            let first = &j.report.errors[0];
            return refuse(
                out,
                first.rule.as_deref(),
                format!("the record is not valid: {}", first.message),
                Some(format!("run `referee check {}`", rec.name)),
            );
        }
        let mut session = j.session.expect("a valid record has a session");
        let next = session.turns + 1;
        if let Some(n) = expect {
            if n != next {
                return refuse(out, Some("turn-order"), format!("the turn would be turn {next}, not {n}: the record has changed since (a stale move)"), None);
            }
        }
        let entry = match parse_single::<G>(turn.trim(), &ctx.env.limits) {
            Ok(e) => e,
            Err(m) => {
                return refuse(
                    out,
                    None,
                    format!("`{}` is not a turn: {m}", crate::quote::quote(turn)),
                    None,
                )
            }
        };
        let number_text = session.expected_number().to_string();
        if let Err(r) = session.check_frame(
            entry.number.map(|(n, _)| n),
            entry.label.as_ref().map(|(l, _)| l.as_str()),
        ) {
            return refuse(out, r.rule(), r.to_string(), None);
        }
        let bad = match &entry.action {
            Action::BadAddress(s) => turn.trim()[s.start..s.end].to_string(),
            _ => String::new(),
        };
        let before = session.state.clone();
        if let Err(r) = session.play(&entry.action, &bad) {
            let hint = match &r {
                referee::Refusal::Rule(v) => G::hint(&session.settings, &before, v),
                _ => None,
            };
            return refuse(out, r.rule(), r.to_string(), hint);
        }
        // Append: the turn goes before a termination marker, if the record has one.
        let written = entry.action.written().expect("refused above");
        let line = format!("{number_text} {written}");
        let mt = j.movetext.as_ref();
        let insert_at = mt
            .and_then(|m| m.termination.map(|(_, s)| s.start))
            .unwrap_or(rec.raw.span.end);
        let mut text = rec.text.clone();
        let before_text = &text[..insert_at];
        let sep = if before_text.ends_with('\n') || before_text.is_empty() {
            ""
        } else {
            "\n"
        };
        let tail = if insert_at < text.len() { " " } else { "\n" };
        text.insert_str(insert_at, &format!("{sep}{line}{tail}"));
        // Refuse if someone else changed the file meanwhile.
        let now = std::fs::read_to_string(path)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        let now = now.strip_prefix('\u{feff}').unwrap_or(&now);
        if now != rec.text {
            return refuse(
                out,
                Some("turn-order"),
                "the record changed while the turn was checked; try again".into(),
                None,
            );
        }
        write_atomically(path, &text)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
        let status = StatusReport::of::<G>(&session.status());
        if json {
            writeln!(
                out,
                "{}",
                json!({"ok": true, "turn": next, "next": status.to_move, "status": status})
            )?;
        } else {
            writeln!(out, "turn {next} accepted: {line}; {}", status.describe())?;
        }
        Ok(())
    }
}

pub fn move_turn(
    ctx: &Ctx,
    path: &Path,
    turn: &str,
    expect: Option<usize>,
    out: &mut dyn Write,
) -> Outcome {
    let file = path.to_string_lossy().to_string();
    let rec = load_one(ctx, &file)?;
    visit_game(
        rec.game,
        MoveVisit {
            ctx,
            path,
            rec: &rec,
            turn,
            expect,
            out,
        },
    )
}
