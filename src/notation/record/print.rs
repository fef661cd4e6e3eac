//! A record written back as text.

use std::fmt;

use super::{escape, Action, Header, Movetext};

/// Writes a record: its header, a blank line, then its movetext, one turn a line, each
/// with its number and label as given. Parsing the output gives the same record.
pub fn print<T: fmt::Display>(header: &Header, movetext: &Movetext<T>, src: &str) -> String {
    let mut out = String::new();
    for tag in &header.tags {
        out.push_str(&format!("[{} \"{}\"]\n", tag.name, escape(&tag.value)));
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
