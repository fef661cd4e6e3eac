//! Errors pointing into a record the way a compiler's do: file:line:column, the line,
//! the turn underlined, the rule id and text, where its setting was set, a hint.
//! Rendered with codespan-reporting, in ASCII so the output is stable everywhere.

use codespan_reporting::diagnostic::{Diagnostic as Cs, Label};
use std::ops::Range;

use codespan_reporting::files::{self, Files, SimpleFile};
use codespan_reporting::term::{self, termcolor};
use serde_json::{json, Value as Json};

use crate::notation::record::LineIndex;
use crate::referee::{Diagnostic, Report};
use crate::ruleset::Origin;

/// A record's text as codespan sees it: `text` starts on line `first_line + 1` of the
/// file (a record read from a stream carries only its own text).
struct RecordSource<'a> {
    file: SimpleFile<&'a str, &'a str>,
    first_line: usize,
}

impl<'a> Files<'a> for RecordSource<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: ()) -> Result<&'a str, files::Error> {
        Files::name(&self.file, id)
    }
    fn source(&'a self, id: ()) -> Result<&'a str, files::Error> {
        Files::source(&self.file, id)
    }
    fn line_index(&'a self, id: (), byte_index: usize) -> Result<usize, files::Error> {
        Files::line_index(&self.file, id, byte_index)
    }
    fn line_number(&'a self, _: (), line_index: usize) -> Result<usize, files::Error> {
        Ok(self.first_line + line_index + 1)
    }
    fn line_range(&'a self, id: (), line_index: usize) -> Result<Range<usize>, files::Error> {
        Files::line_range(&self.file, id, line_index)
    }
}

/// Renders one diagnostic of a record file as text; `text` starts on line
/// `first_line + 1` of the file.
pub fn render(file: &str, text: &str, first_line: usize, d: &Diagnostic, color: bool) -> String {
    let src = RecordSource {
        file: SimpleFile::new(file, text),
        first_line,
    };
    let code = match &d.rule {
        Some(rule) => format!("{} {rule}", d.kind.as_str()),
        None => d.kind.as_str().to_string(),
    };
    let mut cs = Cs::error().with_message(&d.message).with_code(code);
    if let Some(span) = d.span {
        let end = if span.end > span.start {
            span.end
        } else {
            // An empty span: underline one character where possible.
            text[span.start..]
                .chars()
                .next()
                .map(|c| span.start + c.len_utf8())
                .unwrap_or(span.start)
        };
        let label = match d.turn {
            Some(t) => format!("turn {t}"),
            None => String::new(),
        };
        cs = cs.with_labels(vec![Label::primary((), span.start..end).with_message(label)]);
    }
    cs = cs.with_notes(notes(d));
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut buf: Vec<u8> = Vec::new();
    if color {
        let mut w = termcolor::Ansi::new(&mut buf);
        let _ = term::emit(&mut w, &config, &src, &cs);
    } else {
        let mut w = termcolor::NoColor::new(&mut buf);
        let _ = term::emit(&mut w, &config, &src, &cs);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// The notes under a diagnostic: the rule's text, the setting, the hint.
pub fn notes(d: &Diagnostic) -> Vec<String> {
    let mut notes = Vec::new();
    if let (Some(rule), Some(text)) = (&d.rule, &d.rule_text) {
        notes.push(format!("rule {rule}: {} ({})", text.text, text.location));
    }
    if let Some((key, setting)) = &d.setting {
        notes.push(format!(
            "it applies because {key} = {} ({})",
            setting.value,
            origin(&setting.origin)
        ));
    }
    if let Some(h) = &d.hint {
        notes.push(format!("hint: {h}"));
    }
    notes
}

pub fn origin(o: &Origin) -> String {
    match o {
        Origin::Default => "the module's default".into(),
        Origin::Ruleset(loc) => format!("set at {loc}"),
        other => format!("set by {other}"),
    }
}

/// One record's line of `check --format json` (`cli.md`); `text` starts on line
/// `first_line + 1` of the file.
pub fn report_json(
    file: &str,
    text: &str,
    lines: &LineIndex,
    first_line: usize,
    r: &Report,
) -> Json {
    let errors: Vec<Json> = r
        .errors
        .iter()
        .map(|d| {
            let (line, column) = match d.span {
                Some(s) => {
                    let (l, c) = lines.line_col(text, s.start);
                    (json!(first_line + l), json!(c))
                }
                None => (Json::Null, Json::Null),
            };
            json!({
                "kind": d.kind.as_str(),
                "turn": d.turn,
                "line": line,
                "column": column,
                "rule": d.rule,
                "message": d.message,
                "hint": d.hint,
            })
        })
        .collect();
    let status = match &r.status {
        Some(s) => json!({"over": s.over, "winners": s.winners, "reason": s.reason}),
        None => Json::Null,
    };
    json!({
        "file": file,
        "index": r.index,
        "game": r.game,
        "ruleset": r.ruleset,
        "valid": r.valid,
        "turns": r.turns,
        "status": status,
        "errors": errors,
    })
}
