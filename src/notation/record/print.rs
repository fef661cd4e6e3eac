//! A record written back as text.

use std::fmt;

use super::{escape, Action, Header, Movetext};

/// Writes a record: its header, a blank line, then its movetext, one turn a line, each
/// with its number and label as given. Parsing the output gives the same record.
pub fn print<T: fmt::Display>(header: &Header, movetext: &Movetext<T>, src: &str) -> String {
    let mut out = String::new();
    for tag in header.tags() {
        out.push_str(&format!("[{} \"{}\"]\n", tag.name, escape(tag.value)));
    }
    out.push('\n');
    for entry in &movetext.entries {
        for c in entry.comments() {
            out.push_str(&c.to_string());
            out.push('\n');
        }
        if let Some((n, _)) = &entry.number {
            out.push_str(&format!("{n} "));
        }
        if let Some((l, _)) = entry.label() {
            out.push_str(&format!("{l}: "));
        }
        match &entry.action {
            Action::Play(t) => out.push_str(&t.to_string()),
            Action::BadAddress(_) => out.push_str(&src[entry.span.start..entry.span.end]),
            Action::Resign => out.push_str("resign"),
            Action::Draw => out.push_str("draw"),
        }
        for a in entry.annotations() {
            if a.starts_with('$') {
                out.push(' ');
            }
            out.push_str(a);
        }
        out.push('\n');
    }
    for c in &movetext.trailing {
        out.push_str(&c.to_string());
        out.push('\n');
    }
    if let Some((t, _)) = &movetext.termination {
        out.push_str(&format!("{t}\n"));
    }
    out
}

/// `text` (a record, or a file of records, that `header` was read from) with tags set:
/// the value of each tag the header has is replaced, and each it lacks is added on a line
/// of its own after its last tag (every valid record has a `Game` tag), with the line
/// ending `eol`. The rest of the text is kept byte for
/// byte, so a record keeps its layout, comments and line endings.
pub fn set_tags(text: &str, header: &Header, set: &[(&str, &str)], eol: &str) -> String {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut added = String::new();
    for (name, value) in set {
        match header.get(name) {
            Some(tag) => edits.push((tag.value_span.start, tag.value_span.end, escape(value))),
            None => added.push_str(&format!("{eol}[{name} \"{}\"]", escape(value))),
        }
    }
    if !added.is_empty() {
        let at = header.tags().last().map_or(0, |t| t.span.end);
        edits.push((at, at, added));
    }
    // Later edits first, so earlier offsets stay true.
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_string();
    for (start, end, with) in edits {
        out.replace_range(start..end, &with);
    }
    out
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}
