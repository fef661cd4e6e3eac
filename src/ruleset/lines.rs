//! The common lines of a ruleset file, read by hand: blank lines, comments,
//! `rule ID "TEXT"` lines whose text has no escape, and `set KEY = VALUE` lines whose
//! value is a word, a number, `true`, `false` or a list of those: most of every shipped
//! file. pest reads every other line (`parse::parse_file`), and would read these the
//! same way: a test compares the two on every line of every shipped ruleset. Reading
//! them by hand keeps a cold `referee check` from spending most of its start in pest.

use super::ast::{Pos, Spanned, Statement, StatementNode, ValueKind, ValueNode};

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
    // Columns count characters from 1, as pest's do.
    let pos = |rest: &str| Pos {
        line: line_no,
        column: line[..line.len() - rest.len()].chars().count() as u32 + 1,
    };
    if let Some(after_keyword) = body.strip_prefix("set") {
        return set_line(after_keyword, &pos).map(|statement| {
            Some(StatementNode {
                statement,
                pos: pos(body),
            })
        });
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

/// Whether the grammar's `name_char` follows.
fn name_char_at(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The end of a statement: spaces, then a comment or nothing.
fn at_end(s: &str) -> bool {
    let s = skip_sp(s);
    s.is_empty() || s.starts_with('#')
}

/// `set KEY = VALUE` after its keyword, for a value of the common kinds.
fn set_line(after_keyword: &str, pos: &impl Fn(&str) -> Pos) -> Option<Statement> {
    let key_at = skip_sp(after_keyword);
    if key_at.len() == after_keyword.len() {
        return None;
    }
    let key_len = key_at
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'))
        .unwrap_or(key_at.len());
    let key = &key_at[..key_len];
    if !key.split('.').all(is_name) || name_char_at(&key_at[key_len..]) {
        return None;
    }
    let equals = skip_sp(&key_at[key_len..]).strip_prefix('=')?;
    let value_at = skip_sp(equals);
    let (value, rest) = match value_at.strip_prefix('[') {
        Some(items) => list(value_at, items, pos)?,
        None => scalar(value_at, pos)?,
    };
    at_end(rest).then(|| Statement::Set {
        key: Spanned {
            node: key.to_string(),
            pos: pos(key_at),
        },
        value,
    })
}

/// A word, a number, `true` or `false` at the start of `at`, and what follows it.
fn scalar<'a>(at: &'a str, pos: &impl Fn(&str) -> Pos) -> Option<(ValueNode, &'a str)> {
    let digits = at.strip_prefix('-').unwrap_or(at);
    let len = at.len() - digits.len()
        + digits
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(digits.len());
    let (token, rest) = at.split_at(len);
    let number = &token[at.len() - digits.len()..];
    let kind = match token {
        "true" => ValueKind::Bool(true),
        "false" => ValueKind::Bool(false),
        // At most 18 digits always fit an i64; pest reads (and refuses) longer ones.
        _ if !number.is_empty()
            && number.len() <= 18
            && number.bytes().all(|b| b.is_ascii_digit()) =>
        {
            ValueKind::Int(token.parse().ok()?)
        }
        _ if is_name(token) && !rest.starts_with('(') => ValueKind::Word(token.to_string()),
        _ => return None,
    };
    Some((ValueNode { kind, pos: pos(at) }, rest))
}

/// A list of scalars: `at` starts with its `[`, `items` just after it.
fn list<'a>(
    at: &'a str,
    items: &'a str,
    pos: &impl Fn(&str) -> Pos,
) -> Option<(ValueNode, &'a str)> {
    let mut values = Vec::new();
    let mut rest = skip_sp(items);
    let close = |values, rest| {
        let node = ValueNode {
            kind: ValueKind::List(values),
            pos: pos(at),
        };
        Some((node, rest))
    };
    loop {
        if let Some(after) = rest.strip_prefix(']') {
            return close(values, after);
        }
        if !values.is_empty() {
            // Items are parted by spaces.
            let after_sp = skip_sp(rest);
            if after_sp.len() == rest.len() {
                return None;
            }
            rest = after_sp;
            if let Some(after) = rest.strip_prefix(']') {
                return close(values, after);
            }
        }
        let (value, after) = scalar(rest, pos)?;
        values.push(value);
        rest = after;
    }
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
        // All but the few `ruleset`, `game`, `title` lines and calls and maps.
        assert!(
            by_hand * 10 > lines * 8,
            "{by_hand} of {lines} lines by hand"
        );
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
            "set first = white",
            "set  score.adjoining=true # a comment",
            "set seats = [white black]",
            "set seats = [ a\tb  c ]",
            "set seats = []",
            "set n = -12",
            "set n = 007",
            "set n = 999999999999999999",
            "set x = [true 3 word-two]",
            "set x = truex",
            "set x = true-x",
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
            "title \"x\"",
            "set win = reduce-to(5)",
            "set n = 9999999999999999999",
            "set n = 12abc",
            "set n = -",
            "set x = [a [b]]",
            "set x = [ab]c",
            "set x = [a b",
            "set x = a.b",
            "set x.y. = a",
            "set x = \"string\"",
            "set x = {a: 1}",
            "set x =",
            "setx = 1",
            "set x = a b",
            "set x = white_",
        ];
        for line in to_pest {
            assert!(!agrees(line), "{line:?} goes to pest");
        }
        // The errors pest gives for the lines the hand reader leaves alone stay errors.
        assert!(parse_line("rule step \"unclosed", 1).is_err());
        assert!(parse_line("rule step- \"bad id\"", 1).is_err());
    }
}
