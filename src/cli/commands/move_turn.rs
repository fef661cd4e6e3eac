//! `referee move`: append one turn to a record file after checking it. The record is
//! locked from before it is read until the new text has replaced it, so concurrent
//! `move`s (and a `play --record` session) take turns: none writes over another's turn.

use std::io::Write;
use std::path::Path;

use serde_json::json;

use super::{
    load_locked, parse_single, refusal_json, visit_game, wait_limit, LockError, OneRecord,
    RecordLock,
};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::notation::record::{self, Action};
use crate::referee::{self, judge, Finish, JudgeOptions};

struct MoveVisit<'a> {
    ctx: &'a Ctx,
    path: &'a Path,
    lock: &'a mut RecordLock,
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
            lock,
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
         -> Outcome { refusal(out, json, rule, &message, hint.as_deref()) };
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
        let entry = match parse_single(turn.trim(), &ctx.env.limits, G::parse_turn) {
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
            entry.label().map(|(l, _)| l.as_str()),
        ) {
            return refuse(out, r.rule(), r.to_string(), None);
        }
        let bad = match &entry.action {
            Action::BadAddress(s) => turn.trim()[s.start..s.end].to_string(),
            _ => String::new(),
        };
        let before = session.state.clone();
        if let Err(r) = session.play(&entry.action, &bad) {
            let hint = match &*r {
                referee::Refusal::Rule(v) => G::hint(&session.settings, &before, v),
                _ => None,
            };
            return refuse(out, r.rule(), r.to_string(), hint);
        }
        // Append: the turn goes before a termination marker, if the record has one. A
        // label the user wrote is kept: the record says what was sent.
        let written = entry.action.written().expect("refused above");
        let label = entry
            .label()
            .map(|(l, _)| format!("{l}: "))
            .unwrap_or_default();
        let line = format!("{number_text} {label}{written}");
        let finish = Finish::of::<G>(&session.settings, &session.status());
        let marker = j.movetext.as_ref().and_then(|m| m.termination);
        let mut text = rec.text.clone();
        // The record keeps its line endings: the new line ends as its lines do.
        let eol = line_ending(&text);
        let (insert_at, marker_end) = match marker {
            Some((_, s)) => (s.start, s.end),
            None => (rec.raw.span.end, rec.raw.span.end),
        };
        let kept = text[..insert_at].trim_end_matches([' ', '\t']).len();
        let sep = if text[..kept].ends_with(['\n', '\r']) || kept == 0 {
            ""
        } else {
            eol
        };
        // A finished game's `*` becomes its marker (two seats) or goes (more seats).
        let tail = match (marker, &finish) {
            (None, _) if insert_at < text.len() => " ".to_string(),
            (None, _) => eol.to_string(),
            (Some((m, _)), None) => format!(" {m}"),
            (Some(_), Some(f)) => f.marker.map(|m| format!(" {m}")).unwrap_or_default(),
        };
        text.replace_range(kept..marker_end, &format!("{sep}{line}{tail}"));
        // The header says how the game ended (the edit lies before the movetext's).
        if let Some(f) = &finish {
            text = record::set_tags(&text, &rec.raw.header, &f.tags(), eol);
        }
        // Still under the lock taken before the record was read: nobody has changed it.
        lock.replace(&text)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
        let status = session.status_report();
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
    let json = ctx.global.format == Format::Json;
    super::not_a_directory(&file)?;
    let wait = wait_limit().map_err(Failure::Usage)?;
    let mut lock = match RecordLock::acquire(path, false, wait) {
        Ok(lock) => lock,
        Err(LockError::Busy(waited)) => {
            let message = format!(
                "{file} is held by another referee (a `play --record` session, or a `move` \
                 that is slow to finish) and was not free after {waited:?}"
            );
            let hint = format!(
                "try again later; {} sets the wait in seconds",
                super::LOCK_WAIT_VAR
            );
            return refusal(out, json, None, &message, Some(&hint));
        }
        Err(LockError::Io(e)) => return Err(Failure::Usage(format!("cannot read {file}: {e}"))),
    };
    // Read only now, under the lock: what is read is what the new text replaces.
    let rec = load_locked(ctx, &file, &lock)?;
    visit_game(
        rec.game,
        MoveVisit {
            ctx,
            path,
            lock: &mut lock,
            rec: &rec,
            turn,
            expect,
            out,
        },
    )
}

/// Writes a refusal (text or JSON) and ends with exit code 1.
fn refusal(
    out: &mut dyn Write,
    json: bool,
    rule: Option<&str>,
    message: &str,
    hint: Option<&str>,
) -> Outcome {
    if json {
        writeln!(out, "{}", refusal_json(rule, message, hint))?;
    } else {
        let rule = rule.map(|r| format!(" ({r})")).unwrap_or_default();
        writeln!(out, "refused{rule}: {message}")?;
        if let Some(h) = hint {
            writeln!(out, "hint: {h}")?;
        }
    }
    Err(Failure::Invalid)
}

/// The line ending a text uses, by its first line break: `\r\n`, `\r` or `\n` (also for
/// a text without one).
fn line_ending(text: &str) -> &'static str {
    match memchr::memchr2(b'\n', b'\r', text.as_bytes()) {
        Some(i) if text.as_bytes()[i] == b'\r' => {
            if text.as_bytes().get(i + 1) == Some(&b'\n') {
                "\r\n"
            } else {
                "\r"
            }
        }
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use super::line_ending;

    #[test]
    fn line_endings() {
        assert_eq!(
            line_ending("[Game \"halatafl\"]\r\n\r\n1. e3-d4\r\n"),
            "\r\n"
        );
        assert_eq!(line_ending("[Game \"halatafl\"]\r\r1. e3-d4\r"), "\r");
        assert_eq!(line_ending("[Game \"halatafl\"]\n"), "\n");
        assert_eq!(line_ending("[Game \"halatafl\"]"), "\n");
    }
}
