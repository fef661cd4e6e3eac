//! The common lines of a ruleset file, read by hand: blank lines, comments, statements
//! whose strings have no escape, `set KEY = VALUE` lines (and lone values) whose value is
//! a word, a number, `true`, `false` or a list of those, and rule texts whose conditions
//! test such values: most of every shipped file, and every shipped module default. pest
//! reads every other line (`parse::parse_file`), and would read these the same way: a
//! test compares the two on every line of every shipped ruleset. Reading them by hand
//! keeps a cold `referee check` from spending most of its start in pest.

use super::ast::{Pos, Spanned, Statement, StatementNode, TestNode, ValueKind, ValueNode};

/// Kebab-case, as the grammar's `name`: lowercase letters and digits in parts joined by
/// single hyphens, starting with a letter.
pub(crate) fn is_name(name: &str) -> bool {
    // Byte by byte: every byte of a name is ASCII, and a cold start reads every name of
    // the base ruleset.
    if !name.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        return false;
    }
    let mut after_hyphen = false;
    for b in name.bytes() {
        match b {
            b'-' if after_hyphen => return false,
            b'-' => after_hyphen = true,
            b'a'..=b'z' | b'0'..=b'9' => after_hyphen = false,
            _ => return false,
        }
    }
    !after_hyphen
}

/// The length of the run of bytes at the start of `s` that `keep` accepts (ASCII bytes:
/// the run ends on a character boundary).
fn run_len(s: &str, keep: impl Fn(u8) -> bool) -> usize {
    s.bytes().position(|b| !keep(b)).unwrap_or(s.len())
}

/// Spaces and tabs, as the grammar's `sp`.
fn skip_sp(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// A line of the common kinds: `Some(None)` for a blank or comment line,
/// `Some(Some(statement))` for a statement read by hand; `None` for every other line
/// (pest reads it). `line` is without its line end.
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
    let keyword_len = body.find([' ', '\t']).unwrap_or(body.len());
    let (keyword, after_keyword) = body.split_at(keyword_len);
    // Each statement's keyword, then at least one space (so no `name_char` follows it).
    let at = skip_sp(after_keyword);
    if at.len() == after_keyword.len() {
        return None;
    }
    let named = |make: fn(Spanned<String>) -> Statement| {
        let (name, rest) = name(at)?;
        at_end(rest).then(|| make(spanned(name, at, &pos)))
    };
    let quoted = |make: fn(Spanned<String>) -> Statement| {
        let (text, rest) = string(at)?;
        at_end(rest).then(|| make(spanned(text, at, &pos)))
    };
    let statement = match keyword {
        "ruleset" => named(Statement::Ruleset)?,
        "game" => named(Statement::Game)?,
        "extends" => named(Statement::Extends)?,
        "title" => quoted(Statement::Title)?,
        "source" => quoted(Statement::Source)?,
        "set" => set_line(at, &pos)?,
        "rule" => {
            let (id, after_id) = name(at)?;
            let mut string_at = skip_sp(after_id);
            if string_at.len() == after_id.len() {
                return None;
            }
            let mut when = Vec::new();
            if let Some(after_when) = string_at.strip_prefix("when") {
                // `when KEY = VALUE`, `and KEY = VALUE` …, each word then a space.
                let mut test_at = spaced(after_when)?;
                loop {
                    let (key, value, rest) = key_value(test_at, &pos)?;
                    when.push(TestNode { key, value });
                    let next = spaced(rest)?;
                    match next.strip_prefix("and") {
                        Some(after_and) => test_at = spaced(after_and)?,
                        None => {
                            string_at = next;
                            break;
                        }
                    }
                }
            }
            let (text, rest) = string(string_at)?;
            if !at_end(rest) {
                return None;
            }
            Statement::Rule {
                id: spanned(id, at, &pos),
                when,
                text: spanned(text, string_at, &pos),
            }
        }
        _ => return None,
    };
    Some(Some(StatementNode {
        statement,
        pos: pos(body),
    }))
}

/// `node` written where `at` starts.
fn spanned(node: &str, at: &str, pos: &impl Fn(&str) -> Pos) -> Spanned<String> {
    Spanned {
        node: node.to_string(),
        pos: pos(at),
    }
}

/// A name at the start of `at` that no `name_char` follows, and what follows it.
fn name(at: &str) -> Option<(&str, &str)> {
    let len = run_len(at, |b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let (name, rest) = at.split_at(len);
    is_name(name).then_some((name, rest))
}

/// A quoted string without escapes at the start of `at`: its text, and what follows it.
fn string(at: &str) -> Option<(&str, &str)> {
    let text_at = at.strip_prefix('"')?;
    let close = memchr::memchr2(b'"', b'\\', text_at.as_bytes())?;
    (text_at.as_bytes()[close] == b'"').then(|| (&text_at[..close], &text_at[close + 1..]))
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

/// What follows at least one space, or `None` (pest reads the line).
fn spaced(s: &str) -> Option<&str> {
    let after = skip_sp(s);
    (after.len() < s.len()).then_some(after)
}

/// `set KEY = VALUE` from its key on, for a value of the common kinds.
fn set_line(key_at: &str, pos: &impl Fn(&str) -> Pos) -> Option<Statement> {
    let (key, value, rest) = key_value(key_at, pos)?;
    at_end(rest).then_some(Statement::Set { key, value })
}

/// `KEY = VALUE` at the start of `key_at`, for a value of the common kinds (a `set`
/// line's, a rule text's condition's), and what follows it.
fn key_value<'a>(
    key_at: &'a str,
    pos: &impl Fn(&str) -> Pos,
) -> Option<(Spanned<String>, ValueNode, &'a str)> {
    let key_len = run_len(key_at, |b| {
        b.is_ascii_alphanumeric() || b == b'-' || b == b'.'
    });
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
    let key = Spanned {
        node: key.to_string(),
        pos: pos(key_at),
    };
    Some((key, value, rest))
}

/// A value of the common kinds that is the whole of `text`, as the grammar's
/// `lone_value` reads it (a setting's default, `--option`, the `Options` tag); positions
/// on line 1. `None`: pest reads it.
pub(super) fn common_value(text: &str) -> Option<ValueNode> {
    let pos = |rest: &str| Pos {
        line: 1,
        column: text[..text.len() - rest.len()].chars().count() as u32 + 1,
    };
    let (value, rest) = match text.strip_prefix('[') {
        Some(items) => list(text, items, &pos)?,
        None => scalar(text, &pos)?,
    };
    rest.is_empty().then_some(value)
}

/// A word, a number, `true` or `false` at the start of `at`, and what follows it.
fn scalar<'a>(at: &'a str, pos: &impl Fn(&str) -> Pos) -> Option<(ValueNode, &'a str)> {
    let digits = at.strip_prefix('-').unwrap_or(at);
    let len = at.len() - digits.len()
        + run_len(digits, |b| {
            b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
        });
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
    use crate::ruleset::parse::{parse_line, pest_value_node};
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
        // All but the `set` lines and conditions of calls and maps.
        let calls_and_maps = shipped::names()
            .flat_map(|n| shipped::get(n).expect("shipped").lines())
            .filter(|l| {
                let before_text = l.split('"').next().unwrap_or_default();
                (l.starts_with("set ") || l.starts_with("rule "))
                    && (before_text.contains('(') || before_text.contains('{'))
            })
            .count();
        assert!(calls_and_maps > 0);
        assert_eq!(by_hand, lines - calls_and_maps, "read by hand of {lines}");
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
            "rule huff when capture = compulsory \"No huff.\"",
            "rule step when men = any and diagonals = none \"Any.\" # c",
            "rule step\twhen\tmen\t=\tany\tand\tdiagonals=none\t\"Tabs.\"",
            "rule x when seats = [a b] and n = -3 \"L.\"",
            "rule when when when = true \"Keywords as names.\"",
            "rule x when score.adjoining = 2 \"Dotted.\"",
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
            "ruleset halatafl-emperor",
            "  game\thalves # a comment",
            "extends halatafl",
            "title \"Halatafl, checkers-like reconstruction\"",
            "source \"\"",
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
            "rule huff when capture = compulsory\"no space\"",
            "rule huff when capture = [a b]\"no space\"",
            "rule huff when capture = compulsory and\"x\"",
            "rule huff when win = reduce-to(5) \"call\"",
            "rule huff when m = {a: 1} \"map\"",
            "rule huff when capture = \"s\" \"string value\"",
            "rule huff when \"no test\"",
            "rule huff when capture \"no value\"",
            "rule huff when a = b c = d \"no and\"",
            "rule huff when a = b andx c = d \"andx\"",
            "rule huff whenx a = b \"whenx\"",
            "rule huff when a = b",
            "rule huff when a = b \"text\" trailing",
            "rule huff when a = b \"an \\\"escape\\\"\"",
            "ruleset Halatafl",
            "ruleset halatafl x",
            "game halves.x",
            "title\"no space\"",
            "title \"an \\\"escape\\\"\"",
            "source \"unclosed",
            "extends",
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
        // Lone values: the hand reader reads the whole text or leaves it to pest.
        let values = [
            "true",
            "false",
            "7",
            "-3",
            "white",
            "forward-sideways",
            "[white black]",
            "[]",
            "[ a b ]",
            "[1 true x]",
        ];
        for text in values {
            assert_eq!(Ok(common_value(text).expect(text)), pest_value_node(text));
        }
        let to_pest = [
            " true",
            "true ",
            "reduce-to(5)",
            "[a [b]]",
            "\"s\"",
            "{a: 1}",
            "a.b",
            "1..2",
            "",
            "# x",
            "[a b] # c",
            "12abc",
        ];
        for text in to_pest {
            assert_eq!(common_value(text), None, "{text:?}");
        }
        // The errors pest gives for the lines the hand reader leaves alone stay errors.
        assert!(parse_line("rule step \"unclosed", 1).is_err());
        assert!(parse_line("rule step- \"bad id\"", 1).is_err());
    }
}
