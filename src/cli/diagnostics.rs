//! Errors pointing into a record the way a compiler's do: file:line:column, the line,
//! the turn underlined, the rule id and text, where its setting was set, a hint.
//! Rendered with codespan-reporting, in ASCII so the output is stable everywhere.

use codespan_reporting::diagnostic::{Diagnostic as Cs, Label};
use std::ops::Range;

use codespan_reporting::files::{self, Files};
use codespan_reporting::term::{self, termcolor};
use serde_json::{json, Value as Json};
use unicode_width::UnicodeWidthChar;

use crate::notation::record::LineIndex;
use crate::referee::{Diagnostic, Report};
use crate::ruleset::Origin;

/// The most of a source line a diagnostic shows, in characters and in terminal columns
/// alike (see [`room`]), besides the `…` that mark where a longer line was cut.
pub const WINDOW: usize = 160;

/// How much room before the underlined text (after it, on a label's last line) a
/// clipped line keeps.
const LEAD: usize = 40;

/// The lines a diagnostic shows, as codespan sees them: only the lines its label touches,
/// each clipped to a window of [`WINDOW`] characters around the label (`…` marking each
/// cut), with control characters shown as `�`. Line numbers and the column of the
/// `file:line:column` header are those of the file.
struct View<'a> {
    name: &'a str,
    text: String,
    /// The line number in the file of the first line shown.
    first_number: usize,
    /// The lines shown, by index from the first; an index missing between two is a line
    /// codespan does not print (inside a multi-line label), shown empty if asked.
    lines: Vec<Shown>,
}

/// One line of a [`View`].
struct Shown {
    index: usize,
    /// Where its shown text is in the view's text.
    range: Range<usize>,
    /// The bytes of the leading `…`, when the start of the line was cut.
    cut: usize,
    /// The column in the file (1-based, in characters) of the first character shown
    /// after the cut.
    column: usize,
}

impl View<'_> {
    fn line(&self, index: usize) -> Option<&Shown> {
        self.lines
            .binary_search_by_key(&index, |l| l.index)
            .ok()
            .map(|i| &self.lines[i])
    }
}

impl<'a> Files<'a> for View<'a> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }
    fn source(&'a self, _: ()) -> Result<&'a str, files::Error> {
        Ok(&self.text)
    }
    fn line_index(&'a self, _: (), byte_index: usize) -> Result<usize, files::Error> {
        let i = self.lines.partition_point(|l| l.range.start <= byte_index);
        Ok(self.lines[i.saturating_sub(1)].index)
    }
    fn line_number(&'a self, _: (), line_index: usize) -> Result<usize, files::Error> {
        Ok(self.first_number + line_index)
    }
    fn column_number(
        &'a self,
        _: (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let line = self.line(line_index).ok_or(files::Error::LineTooLarge {
            given: line_index,
            max: self.lines.last().map_or(0, |l| l.index),
        })?;
        let from = line.range.start + line.cut;
        let shown = self
            .text
            .get(from..byte_index.max(from))
            .unwrap_or_default();
        Ok(line.column + shown.chars().count())
    }
    fn line_range(&'a self, _: (), line_index: usize) -> Result<Range<usize>, files::Error> {
        let last = self.lines.last().map_or(0, |l| l.index);
        if line_index > last {
            return Err(files::Error::LineTooLarge {
                given: line_index,
                max: last,
            });
        }
        Ok(self.line(line_index).map_or(0..0, |l| l.range.clone()))
    }
}

/// Whether the byte at `i` ends a line: `\n`, or a `\r` not followed by `\n` (as
/// [`LineIndex`] counts lines).
fn is_break(b: &[u8], i: usize) -> bool {
    b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n'))
}

/// Where the line holding byte `at` starts.
fn line_start(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let mut end = at.min(b.len());
    while let Some(p) = memchr::memrchr2(b'\n', b'\r', &b[..end]) {
        if is_break(b, p) {
            return p + 1;
        }
        end = p;
    }
    0
}

/// Where the text of the line starting at `start` ends (before its `\r` or `\n`).
fn line_end(text: &str, start: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', &text.as_bytes()[start..]).map_or(text.len(), |p| start + p)
}

/// Where the line after the one whose text ends at `end` starts.
fn next_line(text: &str, end: usize) -> usize {
    match text.as_bytes().get(end..end + 2) {
        Some(b"\r\n") => end + 2,
        _ => (end + 1).min(text.len()),
    }
}

/// The number of lines that end before `at` (its line's 0-based index).
fn lines_before(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    memchr::memchr2_iter(b'\n', b'\r', &b[..at])
        .filter(|&p| is_break(b, p))
        .count()
}

/// Builds the [`View`] of the label `span` of `text`, and the label's range in it.
fn view<'a>(
    name: &'a str,
    text: &str,
    first_line: usize,
    span: Range<usize>,
) -> (View<'a>, Range<usize>) {
    let start = span.start.min(text.len());
    let first = line_start(text, start);
    let first_end = line_end(text, first);
    // The line of the span's last byte; a span that only goes on to its line's end
    // (its `\n`) stays on its line.
    let last_byte = span.end.max(start + 1) - 1;
    let (last, last_end) = if last_byte < text.len() && last_byte >= next_line(text, first_end) {
        let l = line_start(text, last_byte);
        (l, line_end(text, l))
    } else {
        (first, first_end)
    };
    let mut v = View {
        name,
        text: String::new(),
        first_number: first_line + lines_before(text, first) + 1,
        lines: Vec::new(),
    };
    if last == first {
        let end = span.end.clamp(start, first_end);
        let (range, label) = v.push(text, 0, first..first_end, Some(start..end), Focus::Start);
        let label = label.unwrap_or(range);
        return (v, label);
    }
    // A label over several lines: its first line, the few after it and the one before
    // its last that codespan prints, and its last line.
    let (_, top) = v.push(
        text,
        0,
        first..first_end,
        Some(start..first_end),
        Focus::Start,
    );
    let mut index = 0;
    let mut at = next_line(text, first_end);
    let last_index = lines_before(&text[first..], last - first);
    while at < last && index < 4 {
        index += 1;
        let end = line_end(text, at);
        v.push(text, index, at..end, None, Focus::Start);
        at = next_line(text, end);
    }
    if last_index >= 2 && last_index - 1 > index {
        let before = line_start(text, last.saturating_sub(1));
        v.push(
            text,
            last_index - 1,
            before..line_end(text, before),
            None,
            Focus::Start,
        );
    }
    let end = span.end.clamp(last, last_end);
    let (_, bottom) = v.push(
        text,
        last_index,
        last..last_end,
        Some(last..end),
        Focus::End,
    );
    let label = top.map_or(0, |r| r.start)..bottom.map_or(v.text.len(), |r| r.end);
    (v, label)
}

/// Which end of the label a clipped line keeps in its window.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Focus {
    Start,
    End,
}

impl View<'_> {
    /// Adds the line `line` of `text` as line `index`, clipped around `label` (a byte
    /// range within it) when it is longer than [`WINDOW`]; returns its range in the
    /// view's text and the label's.
    fn push(
        &mut self,
        text: &str,
        index: usize,
        line: Range<usize>,
        label: Option<Range<usize>>,
        focus: Focus,
    ) -> (Range<usize>, Option<Range<usize>>) {
        let content = &text[line.clone()];
        // The window's ends as byte offsets into `content`.
        let (fb, tb) = if fits(content, WINDOW) {
            (0, content.len())
        } else {
            match (&label, focus) {
                (Some(l), Focus::Start) => {
                    let fb = back(content, l.start - line.start, LEAD);
                    match forth(content, fb, WINDOW) {
                        tb if tb == content.len() => (back(content, tb, WINDOW), tb),
                        tb => (fb, tb),
                    }
                }
                (Some(l), Focus::End) => {
                    let tb = forth(content, l.end - line.start, LEAD);
                    match back(content, tb, WINDOW) {
                        0 => (0, forth(content, 0, WINDOW)),
                        fb => (fb, tb),
                    }
                }
                (None, _) => (0, forth(content, 0, WINDOW)),
            }
        };
        let (from, to) = (fb > 0, tb < content.len());
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        let begin = self.text.len();
        let cut = if from { "…" } else { "" };
        self.text.push_str(cut);
        let shown_start = self.text.len();
        self.text.extend(content[fb..tb].chars().map(shown));
        let shown_end = self.text.len();
        if to {
            self.text.push('…');
        }
        let range = begin..self.text.len();
        self.lines.push(Shown {
            index,
            range: range.clone(),
            cut: cut.len(),
            column: content[..fb].chars().count() + 1,
        });
        // A byte of the line to its place in the view: before the window, at the
        // window's start; past it, after the closing `…` (a label running on beyond
        // the window takes it in).
        let end = self.text.len();
        let place = |byte: usize| {
            let b = byte - line.start;
            if b < fb {
                shown_start
            } else if b > tb {
                end
            } else {
                shown_start
                    + content[fb..b]
                        .chars()
                        .map(|c| shown(c).len_utf8())
                        .sum::<usize>()
            }
        };
        let label = label.map(|l| {
            let s = place(l.start);
            let e = if l.end > line.start + tb && to {
                end
            } else {
                place(l.end).min(shown_end)
            };
            s..e.max(s)
        });
        (range, label)
    }
}

/// How much room a character of a source line takes in a window: its width on a
/// terminal (a tab as codespan's 4), at least 1, so that a window of [`WINDOW`] holds at
/// most that many characters and that many columns.
fn room(c: char) -> usize {
    match c {
        '\t' => 4,
        c => UnicodeWidthChar::width(shown(c)).unwrap_or(1).max(1),
    }
}

/// Whether all of `s` fits in `room`.
fn fits(s: &str, room: usize) -> bool {
    s.chars()
        .try_fold(0, |used, c| {
            Some(used + self::room(c)).filter(|&u| u <= room)
        })
        .is_some()
}

/// Where a window of `room` ending at byte `end` of `s` starts.
fn back(s: &str, end: usize, room: usize) -> usize {
    let mut used = 0;
    let mut start = end;
    for (b, c) in s[..end].char_indices().rev() {
        used += self::room(c);
        if used > room {
            break;
        }
        start = b;
    }
    start
}

/// Where a window of `room` starting at byte `start` of `s` ends.
fn forth(s: &str, start: usize, room: usize) -> usize {
    let mut used = 0;
    for (b, c) in s[start..].char_indices() {
        used += self::room(c);
        if used > room {
            return start + b;
        }
    }
    s.len()
}

/// How a character of a source line is shown: control characters (other than a tab)
/// and the invisible ones that reorder text as `�`, one character for one, so the
/// underline stays under what it points at and nothing reaches the terminal raw.
fn shown(c: char) -> char {
    if c != '\t' && crate::quote::is_hidden(c) {
        '\u{fffd}'
    } else {
        c
    }
}

/// Renders one diagnostic of a record file as text; `text` starts on line
/// `first_line + 1` of the file.
pub fn render(file: &str, text: &str, first_line: usize, d: &Diagnostic, color: bool) -> String {
    render_as(Cs::error(), file, text, first_line, d, color)
}

/// Renders one warning of a record file as text, as [`render`] does an error.
pub fn render_warning(
    file: &str,
    text: &str,
    first_line: usize,
    d: &Diagnostic,
    color: bool,
) -> String {
    render_as(Cs::warning(), file, text, first_line, d, color)
}

fn render_as(
    cs: Cs<()>,
    file: &str,
    text: &str,
    first_line: usize,
    d: &Diagnostic,
    color: bool,
) -> String {
    // The code says the kind and the rule, once where they are the same (`setup`).
    let code = match &d.rule {
        Some(rule) if rule != d.kind.as_str() => format!("{} {rule}", d.kind.as_str()),
        _ => d.kind.as_str().to_string(),
    };
    let mut cs = cs.with_message(&d.message).with_code(code);
    let mut shown = None;
    if let Some(span) = d.span {
        let end = if span.end > span.start {
            span.end
        } else {
            // An empty span: underline one character where possible.
            text[span.start..]
                .chars()
                .next()
                .filter(|c| !matches!(c, '\n' | '\r'))
                .map(|c| span.start + c.len_utf8())
                .unwrap_or(span.start)
        };
        let (v, range) = view(file, text, first_line, span.start..end);
        // The turn as the record numbers it (`move 2, black`).
        let label = match (&d.name, d.turn) {
            (Some(name), _) => name.clone(),
            (None, Some(t)) => format!("turn {t}"),
            (None, None) => String::new(),
        };
        cs = cs.with_labels(vec![Label::primary((), range).with_message(label)]);
        shown = Some(v);
    }
    let v = shown.unwrap_or(View {
        name: file,
        text: String::new(),
        first_number: first_line + 1,
        lines: Vec::new(),
    });
    cs = cs.with_notes(notes(d).iter().map(|n| wrap(n, NOTE_WIDTH)).collect());
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut buf: Vec<u8> = Vec::new();
    if color {
        let mut w = termcolor::Ansi::new(&mut buf);
        let _ = term::emit(&mut w, &config, &v, &cs);
    } else {
        let mut w = termcolor::NoColor::new(&mut buf);
        let _ = term::emit(&mut w, &config, &v, &cs);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// The widest line of a note, in characters: a rule's text runs to hundreds of them,
/// and no line of a diagnostic is to be over ~200 (codespan puts `   = ` before it).
const NOTE_WIDTH: usize = 94;

/// `text` with its spaces turned into line breaks where a line would pass `width`
/// characters; a word longer than `width` stays whole on its own line.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut line = 0;
    for (i, word) in text.split(' ').enumerate() {
        let n = word.chars().count();
        if i > 0 {
            if line > 0 && line + 1 + n > width {
                out.push('\n');
                line = 0;
            } else {
                out.push(' ');
                line += 1;
            }
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// Where a diagnostic stands in the record, as [`render`] draws it (`--> file:line:col`,
/// the line, the turn underlined) without its message and notes: for the HTML page,
/// which writes those itself. Empty for a diagnostic that is not in the record.
pub fn excerpt(file: &str, text: &str, first_line: usize, d: &Diagnostic) -> String {
    if d.span.is_none() {
        return String::new();
    }
    let bare = Diagnostic {
        rule: None,
        message: String::new(),
        hint: None,
        rule_text: None,
        setting: None,
        ..d.clone()
    };
    let drawn = render(file, text, first_line, &bare, false);
    // The first line is the header, `error[KIND]` with the message left out.
    drawn
        .split_once('\n')
        .map(|(_, rest)| rest.to_string())
        .unwrap_or_default()
}

/// The notes under a diagnostic: the rule's text, the setting, the hint.
pub fn notes(d: &Diagnostic) -> Vec<String> {
    let mut notes = Vec::new();
    if let (Some(rule), Some(text)) = (&d.rule, &d.rule_text) {
        notes.push(format!("rule {rule}: {} ({})", text.text, text.location));
    }
    notes.extend(setting_note(d));
    if let Some(h) = &d.hint {
        notes.push(format!("hint: {h}"));
    }
    notes
}

/// Why the rule cited applies: the setting behind it and where it was set.
pub fn setting_note(d: &Diagnostic) -> Option<String> {
    let (key, setting) = d.setting.as_ref()?;
    Some(format!(
        "it applies because {key} = {} ({})",
        setting.value,
        origin(&setting.origin)
    ))
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
    let diagnostic = |d: &Diagnostic| {
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
            "number": d.number,
            "line": line,
            "column": column,
            "rule": d.rule,
            "message": d.message,
            "hint": d.hint,
        })
    };
    let errors: Vec<Json> = r.errors.iter().map(diagnostic).collect();
    let status = match &r.status {
        Some(s) => json!({"over": s.over, "winners": s.winners, "reason": s.reason}),
        None => Json::Null,
    };
    let mut doc = json!({
        "file": file,
        "index": r.index,
        "game": r.game,
        "ruleset": r.ruleset,
        "valid": r.valid,
        "turns": r.turns,
        "status": status,
        "errors": errors,
    });
    // Only where there are any: a record without warnings reads as it always has.
    if !r.warnings.is_empty() {
        doc["warnings"] = r.warnings.iter().map(diagnostic).collect();
    }
    doc
}

#[cfg(test)]
mod tests {
    #[test]
    fn notes_wrap_at_spaces_to_the_width() {
        use super::wrap;
        assert_eq!(wrap("short note", 94), "short note");
        assert_eq!(wrap("aaa bbb ccc ddd", 7), "aaa bbb\nccc ddd");
        assert_eq!(wrap("aaa bbbbbbbbbb c", 5), "aaa\nbbbbbbbbbb\nc");
        assert_eq!(wrap("é é é", 3), "é é\né");
        let long = "word ".repeat(100);
        let wrapped = wrap(long.trim_end(), 94);
        assert!(wrapped.lines().all(|l| l.chars().count() <= 94));
        assert_eq!(wrapped.replace('\n', " "), long.trim_end());
    }

    use super::*;
    use crate::notation::record::Span;
    use crate::referee::ErrorKind;

    fn at(text: &str, start: usize, end: usize) -> String {
        let d = Diagnostic::new(ErrorKind::Syntax, Some(Span::new(start, end)), "bad");
        render("f.game", text, 0, &d, false)
    }

    fn header(out: &str) -> &str {
        out.lines()
            .find_map(|l| l.trim_start().strip_prefix("--> "))
            .expect("a header")
    }

    #[test]
    fn lines_are_counted_as_the_json_counts_them() {
        // A lone CR ends a line, CRLF is one line end.
        let text = "a\rbb zz\r\ncc\nd zz";
        let first = text.find("zz").unwrap();
        let second = text.rfind("zz").unwrap();
        let index = LineIndex::new(text);
        for offset in [first, second] {
            let (line, col) = index.line_col(text, offset);
            let out = at(text, offset, offset + 2);
            assert_eq!(header(&out), format!("f.game:{line}:{col}"), "{out}");
        }
        assert!(at(text, first, first + 2).contains("2 | bb zz\n"));
    }

    #[test]
    fn a_long_line_is_shown_around_the_label_with_the_true_column() {
        let text = format!("{}XY{}", "é".repeat(1000), "z".repeat(1000));
        let start = text.find("XY").unwrap();
        let out = at(&text, start, start + 2);
        assert_eq!(header(&out), "f.game:1:1001");
        let shown = out.lines().find(|l| l.starts_with("1 |")).unwrap();
        assert_eq!(shown.chars().count(), "1 | ".len() + WINDOW + 2);
        assert!(
            shown.starts_with(&format!("1 | …{}XY", "é".repeat(LEAD))),
            "{shown}"
        );
        // The label's end past the window: the underline takes in the closing `…`.
        let out = at(&text, start, text.len());
        let carets = out.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(
            carets.trim_start_matches([' ', '|']).len(),
            WINDOW - LEAD + 1
        );
    }

    #[test]
    fn a_label_over_many_long_lines_shows_its_ends() {
        let long = "w".repeat(5000);
        let text: String = (0..30).map(|i| format!("{i:02}{long}\n")).collect();
        let start = text.find("05").unwrap() + 3000;
        let end = text.find("25").unwrap() + 4000;
        let out = at(&text, start, end);
        assert_eq!(header(&out), "f.game:6:3001");
        for line in out.lines() {
            assert!(line.chars().count() <= 200, "{line}");
        }
        let numbers: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once(" | ").map(|(n, _)| n.trim()))
            .filter(|n| !n.is_empty())
            .collect();
        assert_eq!(numbers, ["6", "7", "8", "9", "25", "26"], "{out}");
        // The last line is cut around the label's end.
        let last = out.lines().find(|l| l.starts_with("26 |")).unwrap();
        assert!(last.ends_with('…') && last.contains("| …"), "{last}");
    }

    #[test]
    fn control_characters_are_shown_one_for_one() {
        let text = "a\u{1b}[2Jb\0c zz";
        let start = text.find("zz").unwrap();
        let out = at(text, start, start + 2);
        assert!(out.contains("1 | a\u{fffd}[2Jb\u{fffd}c zz"), "{out}");
        assert_eq!(header(&out), "f.game:1:10");
        let carets = out.lines().find(|l| l.contains('^')).unwrap();
        assert_eq!(carets.find('^'), Some("1 | a�[2Jb�c ".chars().count()));
    }
}
