//! The common lines of a ruleset file, read by hand: blank lines, comments and
//! `rule ID "TEXT"` lines whose text has no escape, which are most of every shipped
//! file. pest reads every other line (`parse::parse_file`), and would read these the
//! same way: a test compares the two on every line of every shipped ruleset. Reading
//! them by hand keeps a cold `referee check` from spending most of its start in pest.

use super::ast::{Pos, Spanned, Statement, StatementNode};

/// Kebab-case, as the grammar's `name`: lowercase letters and digits in parts joined by
/// single hyphens, starting with a letter.
pub(crate) fn is_name(name: &str) -> bool {
    let mut parts = name.split('-');
    let first_ok = name.starts_with(|c: char| c.is_ascii_lowercase());
    first_ok
        && parts.all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// Spaces and tabs, as the grammar's `sp`.
fn skip_sp(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// A line of the common kinds: `Some(None)` for a blank or comment line,
/// `Some(Some(rule))` for a plain `rule` line; `None` for every other line (pest reads
/// it). `line` is without its line end.
pub(super) fn common_line(line: &str, line_no: u32) -> Option<Option<StatementNode>> {
    let body = skip_sp(line);
    if body.is_empty() || body.starts_with('#') {
        return Some(None);
    }
    let after_keyword = body.strip_prefix("rule")?;
    let id_at = skip_sp(after_keyword);
    if id_at.len() == after_keyword.len() {
        return None;
    }
    let id_len = id_at
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(id_at.len());
    let id = &id_at[..id_len];
    let after_id = &id_at[id_len..];
    let string_at = skip_sp(after_id);
    if !is_name(id) || string_at.len() == after_id.len() {
        return None;
    }
    let text_at = string_at.strip_prefix('"')?;
    let close = text_at.find(['"', '\\'])?;
    if text_at.as_bytes()[close] != b'"' {
        return None;
    }
    let tail = skip_sp(&text_at[close + 1..]);
    if !(tail.is_empty() || tail.starts_with('#')) {
        return None;
    }
    // Columns count characters from 1, as pest's do.
    let column = |rest: &str| line[..line.len() - rest.len()].chars().count() as u32 + 1;
    let pos = |rest: &str| Pos {
        line: line_no,
        column: column(rest),
    };
    Some(Some(StatementNode {
        statement: Statement::Rule {
            id: Spanned {
                pos: pos(id_at),
                node: id.to_string(),
            },
            text: Spanned {
                pos: pos(string_at),
                node: text_at[..close].to_string(),
            },
        },
        pos: pos(body),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::parse::parse_line;
    use crate::ruleset::shipped;

    /// The hand reader gives what pest gives, wherever it reads a line.
    fn agrees(line: &str) -> bool {
        match common_line(line, 7) {
            Some(read) => {
                assert_eq!(Ok(read), parse_line(line, 7), "{line:?}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn every_shipped_line_reads_as_pest_reads_it() {
        let (mut lines, mut by_hand) = (0, 0);
        for name in shipped::names() {
            for line in shipped::get(name).expect("shipped").lines() {
                lines += 1;
                by_hand += usize::from(agrees(line));
            }
        }
        // Blank, comment and rule lines are most of them; `set` and the rest go to pest.
        assert!(by_hand * 2 > lines, "{by_hand} of {lines} lines by hand");
    }

    #[test]
    fn odd_lines_read_as_pest_reads_them_or_go_to_pest() {
        let read = [
            "",
            "   ",
            "\t# a comment \"with quotes\"",
            "rule step \"A man steps.\"",
            "  rule\tstep\t\"Tabs.\"   # and a comment",
            "rule a-1 \"\"",
            "rule step \"Ünïcödé before: the column counts characters.\"",
        ];
        for line in read {
            assert!(agrees(line), "{line:?} is read by hand");
        }
        let to_pest = [
            "rule step \"an \\\"escape\\\"\"",
            "rule step\"no space\"",
            "rule  \"no id\"",
            "rule step- \"bad id\"",
            "rule step_x \"bad id\"",
            "rule Step \"capital\"",
            "rule émile \"x\"",
            "rule step \"unclosed",
            "rule step \"text\" trailing",
            "rules step \"x\"",
            "ruleset halatafl",
            "set first = white",
            "title \"x\"",
        ];
        for line in to_pest {
            assert!(!agrees(line), "{line:?} goes to pest");
        }
        // The errors pest gives for the lines the hand reader leaves alone stay errors.
        assert!(parse_line("rule step \"unclosed", 1).is_err());
        assert!(parse_line("rule step- \"bad id\"", 1).is_err());
    }
}
