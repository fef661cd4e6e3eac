//! The ruleset parser: pest (`grammar/ruleset.pest`) turned into a typed AST that knows
//! the line and column of every statement and value. Pest pairs stay in this module.

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser as _;

use super::error::{suggest, RulesetError};
use super::lines::{common_line, common_value};
use super::value::Value;
use crate::quote::quote;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/ruleset.pest"]
struct RulesetParser;

pub use super::ast::{Pos, Spanned, Statement, StatementNode, TestNode, ValueKind, ValueNode};

/// The statements of a file, in order, and every syntax error found (one per line at
/// most: a line with an error yields no statement).
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    pub statements: Vec<StatementNode>,
    pub errors: Vec<RulesetError>,
}

const KEYWORDS: &[&str] = &[
    "ruleset", "game", "extends", "title", "source", "set", "rule",
];

/// Parses a ruleset file's text; `file` is its display path, used in errors.
pub fn parse_file(source: &str, file: &str) -> Parsed {
    let mut parsed = Parsed::default();
    // The lines as `split('\n')` gives them, found by `memchr`: a cold start reads the
    // whole base ruleset.
    let mut rest = Some(source);
    let mut line_no = 0;
    while let Some(text) = rest {
        let raw = match memchr::memchr(b'\n', text.as_bytes()) {
            Some(end) => {
                rest = Some(&text[end + 1..]);
                &text[..end]
            }
            None => {
                rest = None;
                text
            }
        };
        line_no += 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let read = match common_line(line, line_no) {
            Some(common) => Ok(common),
            None => parse_line(line, line_no),
        };
        match read {
            Ok(Some(st)) => parsed.statements.push(st),
            Ok(None) => {}
            Err(e) => parsed.errors.push(e.into_error(file)),
        }
    }
    parsed
}

/// An error found while parsing, before it is given a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub pos: Pos,
    /// Byte offset in the parsed text (the line, or the lone value).
    pub offset: usize,
    pub message: String,
    pub suggestion: Option<String>,
}

impl SyntaxError {
    pub fn into_error(self, file: &str) -> RulesetError {
        RulesetError::new(file, self.pos.line, self.pos.column, self.message)
            .with_suggestion(self.suggestion)
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "column {}: {}", self.pos.column, self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, "; did you mean `{s}`?")?;
        }
        Ok(())
    }
}

impl std::error::Error for SyntaxError {}

/// Parses a single value in ruleset syntax (`true`, `reduce-to(5)`, `[white black]`),
/// as written after `=` in a `set` line. Positions are on line 1.
pub fn parse_value(text: &str) -> Result<Value, SyntaxError> {
    parse_value_node(text).map(|v| v.to_value())
}

/// [`parse_value`], keeping the position of every part.
pub fn parse_value_node(text: &str) -> Result<ValueNode, SyntaxError> {
    match common_value(text) {
        Some(value) => Ok(value),
        None => pest_value_node(text),
    }
}

/// [`parse_value_node`] by pest alone.
pub(super) fn pest_value_node(text: &str) -> Result<ValueNode, SyntaxError> {
    not_too_deep(text, 1)?;
    let pairs = RulesetParser::parse(Rule::lone_value, text)
        .map_err(|e| syntax_error(text, 1, e, Context::Value))?;
    let value = pairs
        .into_iter()
        .find(|p| p.as_rule() == Rule::value)
        .expect("lone_value holds a value");
    build_value(value, 1)
}

/// The deepest a value may nest lists, maps and calls. Values are built, printed and
/// dropped by recursion, one stack frame a level: without a bound, `[[[…]]]` ten thousand
/// deep in an `Options` tag overflowed the stack (pest's own guard stops only its parse).
/// A real setting nests two or three deep.
pub const MAX_DEPTH: usize = 32;

/// Refuses a text whose brackets (`[`, `{`, `(` outside strings and comments) nest
/// deeper than [`MAX_DEPTH`], at the first bracket too deep.
fn not_too_deep(text: &str, line_no: u32) -> Result<(), SyntaxError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (offset, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '#' => break,
            '[' | '{' | '(' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(SyntaxError {
                        pos: Pos {
                            line: line_no,
                            column: text[..offset].chars().count() as u32 + 1,
                        },
                        offset,
                        message: format!("a value nested more than {MAX_DEPTH} deep"),
                        suggestion: None,
                    });
                }
            }
            ']' | '}' | ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

pub(super) fn parse_line(line: &str, line_no: u32) -> Result<Option<StatementNode>, SyntaxError> {
    not_too_deep(line, line_no)?;
    let pairs = RulesetParser::parse(Rule::line, line)
        .map_err(|e| syntax_error(line, line_no, e, Context::Line))?;
    for pair in pairs {
        if pair.as_rule() != Rule::end_of_line && pair.as_rule() != Rule::EOI {
            return build_statement(pair, line_no).map(Some);
        }
    }
    Ok(None)
}

/// The children of a pair that carry meaning: keywords and punctuation dropped.
fn parts<'i>(pair: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_ruleset
                | Rule::kw_game
                | Rule::kw_extends
                | Rule::kw_title
                | Rule::kw_source
                | Rule::kw_set
                | Rule::kw_rule
                | Rule::kw_when
                | Rule::kw_and
                | Rule::equals
                | Rule::comma
                | Rule::colon
                | Rule::close_paren
                | Rule::close_bracket
                | Rule::close_brace
                | Rule::open_quote
                | Rule::close_quote
        )
    })
}

fn pos_of(pair: &Pair<'_, Rule>, line_no: u32) -> Pos {
    let (l, c) = pair.as_span().start_pos().line_col();
    Pos {
        line: line_no + l as u32 - 1,
        column: c as u32,
    }
}

fn spanned_name(pair: Pair<'_, Rule>, line_no: u32) -> Spanned<String> {
    Spanned {
        pos: pos_of(&pair, line_no),
        node: pair.as_str().to_string(),
    }
}

/// A `string` pair, unescaped.
fn spanned_string(pair: Pair<'_, Rule>, line_no: u32) -> Spanned<String> {
    let pos = pos_of(&pair, line_no);
    let mut node = String::new();
    for text in parts(pair) {
        for piece in text.into_inner() {
            match piece.as_rule() {
                // `\"` or `\\`: the character after the backslash.
                Rule::escape => node.push_str(&piece.as_str()[1..]),
                _ => node.push_str(piece.as_str()),
            }
        }
    }
    Spanned { node, pos }
}

fn build_statement(pair: Pair<'_, Rule>, line_no: u32) -> Result<StatementNode, SyntaxError> {
    let pos = pos_of(&pair, line_no);
    let rule = pair.as_rule();
    let mut inner = parts(pair);
    let mut next = || inner.next().expect("statement parts as in the grammar");
    let statement = match rule {
        Rule::ruleset_stmt => Statement::Ruleset(spanned_name(next(), line_no)),
        Rule::game_stmt => Statement::Game(spanned_name(next(), line_no)),
        Rule::extends_stmt => Statement::Extends(spanned_name(next(), line_no)),
        Rule::title_stmt => Statement::Title(spanned_string(next(), line_no)),
        Rule::source_stmt => Statement::Source(spanned_string(next(), line_no)),
        Rule::set_stmt => {
            let key = spanned_name(next(), line_no);
            let value = build_value(next(), line_no)?;
            Statement::Set { key, value }
        }
        Rule::rule_stmt => {
            let id = spanned_name(next(), line_no);
            let mut part = next();
            let mut when = Vec::new();
            if part.as_rule() == Rule::condition {
                for test in parts(part) {
                    let mut inner = parts(test);
                    let key = spanned_name(inner.next().expect("a test's key"), line_no);
                    let value = build_value(inner.next().expect("a test's value"), line_no)?;
                    when.push(TestNode { key, value });
                }
                part = next();
            }
            let text = spanned_string(part, line_no);
            Statement::Rule { id, when, text }
        }
        other => unreachable!("not a statement: {other:?}"),
    };
    Ok(StatementNode { statement, pos })
}

fn parse_int(pair: &Pair<'_, Rule>, line_no: u32) -> Result<i64, SyntaxError> {
    pair.as_str().parse::<i64>().map_err(|_| SyntaxError {
        pos: pos_of(pair, line_no),
        offset: pair.as_span().start(),
        message: format!(
            "the integer `{}` is too large; expected an integer from {} to {}",
            quote(pair.as_str()),
            i64::MIN,
            i64::MAX
        ),
        suggestion: None,
    })
}

/// Builds a `value` pair (or an `arg` or `range`, inside a call).
fn build_value(pair: Pair<'_, Rule>, line_no: u32) -> Result<ValueNode, SyntaxError> {
    let pair = if matches!(pair.as_rule(), Rule::value | Rule::arg) {
        let inner = pair.into_inner().next().expect("one alternative");
        if inner.as_rule() == Rule::value {
            inner.into_inner().next().expect("one alternative")
        } else {
            inner
        }
    } else {
        pair
    };
    let pos = pos_of(&pair, line_no);
    let kind = match pair.as_rule() {
        Rule::boolean => ValueKind::Bool(pair.as_str() == "true"),
        Rule::integer => ValueKind::Int(parse_int(&pair, line_no)?),
        Rule::word => ValueKind::Word(pair.as_str().to_string()),
        Rule::string => ValueKind::Str(spanned_string(pair, line_no).node),
        Rule::range => {
            let mut inner = parts(pair);
            let a = inner.next().expect("range start");
            let b = inner.next().expect("range end");
            ValueKind::Range(parse_int(&a, line_no)?, parse_int(&b, line_no)?)
        }
        Rule::call => {
            let mut inner = parts(pair);
            let name = inner.next().expect("call name").as_str().to_string();
            let args = inner
                .map(|a| build_value(a, line_no))
                .collect::<Result<_, _>>()?;
            ValueKind::Call { name, args }
        }
        Rule::list => ValueKind::List(
            parts(pair)
                .map(|a| build_value(a, line_no))
                .collect::<Result<_, _>>()?,
        ),
        Rule::map => {
            let mut entries = Vec::new();
            for entry in parts(pair) {
                let mut inner = parts(entry);
                let key = spanned_name(inner.next().expect("entry key"), line_no);
                let value = build_value(inner.next().expect("entry value"), line_no)?;
                entries.push((key, value));
            }
            ValueKind::Map(entries)
        }
        other => unreachable!("not a value: {other:?}"),
    };
    Ok(ValueNode { kind, pos })
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Context {
    Line,
    Value,
}

fn describe(rule: Rule, context: Context) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI | Rule::end_of_line => match context {
            Context::Line => "the end of the line",
            Context::Value => "the end of the value",
        },
        Rule::name => "a kebab-case name (like `halatafl-emperor`)",
        Rule::key => "a setting key (like `free-edges` or `score.adjoining`)",
        Rule::equals => "`=`",
        Rule::kw_when => "`when`",
        Rule::kw_and => "`and`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::close_paren => "`)`",
        Rule::close_bracket => "`]`",
        Rule::close_brace => "`}`",
        Rule::value
        | Rule::boolean
        | Rule::integer
        | Rule::word
        | Rule::call
        | Rule::list
        | Rule::map => "a value",
        Rule::arg | Rule::range => "a value or a range (`0..4`)",
        Rule::entry => "a map entry (`name: value`)",
        Rule::string | Rule::open_quote => "a string in double quotes",
        Rule::escape => "an escape (`\\\"` or `\\\\`)",
        Rule::close_quote => "`\"` to end the string",
        _ => return None,
    })
}

/// The word (or the character) at `offset`, for "found" in messages.
fn found_at(text: &str, offset: usize, context: Context) -> String {
    let rest = &text[offset..];
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == '.')
        .collect();
    if !word.is_empty() {
        format!("`{}`", quote(&word))
    } else {
        match rest.chars().next() {
            None if text.is_empty() => "nothing".to_string(),
            None => match context {
                Context::Line => "the end of the line".to_string(),
                Context::Value => "the end of the value".to_string(),
            },
            Some(c) => format!("`{}`", quote(c.encode_utf8(&mut [0; 4]))),
        }
    }
}

fn syntax_error(
    text: &str,
    line_no: u32,
    error: pest::error::Error<Rule>,
    context: Context,
) -> SyntaxError {
    let offset = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let column = text[..offset].chars().count() as u32 + 1;
    let pos = Pos {
        line: line_no,
        column,
    };
    let positives: Vec<Rule> = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let found = found_at(text, offset, context);
    let at_statement = positives.iter().any(|r| {
        matches!(
            r,
            Rule::kw_ruleset
                | Rule::kw_game
                | Rule::kw_extends
                | Rule::kw_title
                | Rule::kw_source
                | Rule::kw_set
                | Rule::kw_rule
        )
    });
    if at_statement {
        let word: String = text[offset..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        return SyntaxError {
            pos,
            offset,
            message: format!(
                "unknown statement {found}; expected `ruleset`, `game`, `extends`, \
                 `title`, `source`, `set` or `rule`"
            ),
            suggestion: suggest(&word, KEYWORDS.iter().copied()),
        };
    }
    let mut expected: Vec<&str> = Vec::new();
    for r in &positives {
        if let Some(d) = describe(*r, context) {
            if !expected.contains(&d) {
                expected.push(d);
            }
        }
    }
    let expected = if expected.is_empty() {
        // Not expected to happen with this grammar; say what pest knew.
        format!("{positives:?}")
    } else {
        super::error::one_of_plain(&expected)
    };
    SyntaxError {
        pos,
        offset,
        message: format!("expected {expected}, found {found}"),
        suggestion: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        parse_value(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn words(ws: &[&str]) -> Value {
        Value::List(ws.iter().map(|w| Value::Word(w.to_string())).collect())
    }

    #[test]
    fn values_nest_up_to_max_depth_and_no_deeper() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse_value(&nested(MAX_DEPTH)).is_ok());
        let e = parse_value(&nested(100_000)).unwrap_err();
        assert_eq!((e.pos.column, e.offset), (MAX_DEPTH as u32 + 1, MAX_DEPTH));
        assert_eq!(e.message, "a value nested more than 32 deep");
        // Brackets in strings and comments do not count.
        let quoted = format!("\"{}\\\"\"", "[".repeat(100));
        assert!(parse_value(&format!("[{quoted}]")).is_ok());
        let line = format!("set seats = [a b] # {}", "(".repeat(100));
        assert!(parse_line(&line, 1).is_ok());
        let line = format!("set seats = {}", "{a: ".repeat(40));
        let e = parse_line(&line, 3).unwrap_err();
        assert_eq!((e.pos.line, e.pos.column), (3, 13 + 4 * MAX_DEPTH as u32));
    }

    #[test]
    fn every_value_kind_parses_and_displays_back() {
        let cases: Vec<(&str, Value)> = vec![
            ("true", Value::Bool(true)),
            ("false", Value::Bool(false)),
            ("12", Value::Int(12)),
            ("-2", Value::Int(-2)),
            ("main", Value::Word("main".into())),
            ("compulsory-huff", Value::Word("compulsory-huff".into())),
            (
                "reduce-to(5)",
                Value::Call {
                    name: "reduce-to".into(),
                    args: vec![Value::Int(5)],
                },
            ),
            (
                "spinner(0..4)",
                Value::Call {
                    name: "spinner".into(),
                    args: vec![Value::Range(0, 4)],
                },
            ),
            (
                "f(1, -3..-1, x)",
                Value::Call {
                    name: "f".into(),
                    args: vec![Value::Int(1), Value::Range(-3, -1), Value::Word("x".into())],
                },
            ),
            ("[south north]", words(&["south", "north"])),
            (
                "[1 4 8]",
                Value::List(vec![Value::Int(1), Value::Int(4), Value::Int(8)]),
            ),
            ("[]", Value::List(vec![])),
            (
                "{self: 3, kin: 2, opposed: -2}",
                Value::Map(vec![
                    ("self".into(), Value::Int(3)),
                    ("kin".into(), Value::Int(2)),
                    ("opposed".into(), Value::Int(-2)),
                ]),
            ),
            (
                r#""say \"hi\" \\ bye""#,
                Value::Str(r#"say "hi" \ bye"#.into()),
            ),
            ("\"\"", Value::Str(String::new())),
            (
                "[[1 2] {a: [x]}]",
                Value::List(vec![
                    Value::List(vec![Value::Int(1), Value::Int(2)]),
                    Value::Map(vec![("a".into(), words(&["x"]))]),
                ]),
            ),
        ];
        for (text, expected) in cases {
            let v = value(text);
            assert_eq!(v, expected, "{text}");
            assert_eq!(v.to_string(), text, "Display of {text}");
            assert_eq!(value(&v.to_string()), v, "round trip of {text}");
        }
    }

    #[test]
    fn spacing_inside_values_is_free() {
        assert_eq!(value("[ south  north ]"), words(&["south", "north"]));
        assert_eq!(value("{self:3,kin : 2}").to_string(), "{self: 3, kin: 2}");
        assert_eq!(value("f( 1 ,2 )").to_string(), "f(1, 2)");
    }

    #[test]
    fn bad_values_are_refused_with_a_column() {
        for (text, column) in [
            ("", 1),
            ("Main", 1),
            ("reduce-to(", 11),
            ("[1 2", 5),
            ("{a 1}", 4),
            ("\"open", 6),
            ("1..4", 2),
            ("free_edges", 1),
            ("main extra", 5),
            ("99999999999999999999", 1),
            (r#""bad \n escape""#, 6),
        ] {
            let e = parse_value(text).expect_err(text);
            assert_eq!(e.pos.column, column, "{text}: {e}");
            assert!(e.message.starts_with("expected") || e.message.contains("too large"));
        }
    }

    #[test]
    fn statements_carry_positions() {
        let src = "# a comment\nruleset x   # trailing\n\n  set score.adjoining = {self: 3}\n\
                   rule step \"A man \\\"steps\\\".\"\ntitle \"T\"\r\nsource \"s.txt\"\ngame g\nextends y\n";
        let parsed = parse_file(src, "x.rules");
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        let st = &parsed.statements;
        assert_eq!(st.len(), 7);
        assert_eq!(st[0].pos, Pos { line: 2, column: 1 });
        assert!(matches!(&st[0].statement, Statement::Ruleset(n) if n.node == "x"));
        assert_eq!(st[1].pos, Pos { line: 4, column: 3 });
        match &st[1].statement {
            Statement::Set { key, value } => {
                assert_eq!(key.node, "score.adjoining");
                assert_eq!(key.pos, Pos { line: 4, column: 7 });
                assert_eq!(
                    value.pos,
                    Pos {
                        line: 4,
                        column: 25
                    }
                );
                let ValueKind::Map(entries) = &value.kind else {
                    panic!("a map")
                };
                assert_eq!(entries[0].0.pos.column, 26);
                assert_eq!(entries[0].1.pos.column, 32);
            }
            other => panic!("{other:?}"),
        }
        match &st[2].statement {
            Statement::Rule { id, when, text } => {
                assert_eq!(id.node, "step");
                assert!(when.is_empty(), "a plain text");
                assert_eq!(text.node, "A man \"steps\".");
                assert_eq!(text.pos.column, 11);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&st[3].statement, Statement::Title(t) if t.node == "T"));
        assert!(matches!(&st[4].statement, Statement::Source(t) if t.node == "s.txt"));
        assert!(matches!(&st[5].statement, Statement::Game(t) if t.node == "g"));
        assert!(matches!(&st[6].statement, Statement::Extends(t) if t.node == "y"));
    }

    #[test]
    fn conditional_rule_texts_carry_their_tests_and_positions() {
        let src = "rule huff when capture = compulsory \"No huff.\"\n\
                   rule step when men = any and diagonals = none  \"Any way.\" # c\n\
                   rule win-reduce-to when win = reduce-to(5) \"Five.\"\n\
                   rule x when seats = [a b] \"L.\"\n";
        let parsed = parse_file(src, "x.rules");
        assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
        type Tested = (String, Pos, Value, Pos);
        let rules: Vec<(&str, Vec<Tested>, &Spanned<String>)> = parsed
            .statements
            .iter()
            .map(|st| match &st.statement {
                Statement::Rule { id, when, text } => (
                    id.node.as_str(),
                    when.iter()
                        .map(|t| {
                            (
                                t.key.node.clone(),
                                t.key.pos,
                                t.value.to_value(),
                                t.value.pos,
                            )
                        })
                        .collect(),
                    text,
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        let at = |line, column| Pos { line, column };
        let word = |w: &str| Value::Word(w.into());
        assert_eq!(rules[0].0, "huff");
        assert_eq!(
            rules[0].1,
            [("capture".into(), at(1, 16), word("compulsory"), at(1, 26))]
        );
        assert_eq!(
            (rules[0].2.node.as_str(), rules[0].2.pos),
            ("No huff.", at(1, 37))
        );
        assert_eq!(
            rules[1].1,
            [
                ("men".into(), at(2, 16), word("any"), at(2, 22)),
                ("diagonals".into(), at(2, 30), word("none"), at(2, 42)),
            ]
        );
        assert_eq!(rules[1].2.pos, at(2, 48));
        assert_eq!(rules[2].1[0].2, value("reduce-to(5)"));
        assert_eq!(rules[3].1[0].2, words(&["a", "b"]));
        assert_eq!(rules[3].2.node, "L.");
    }

    #[test]
    fn conditional_rule_texts_refuse_bad_syntax() {
        let src = "rule huff when \"x\"\nrule huff when capture \"x\"\n\
                   rule huff when capture = \"x\"\nrule huff when a = b c = d \"x\"\n\
                   rule huff when a = b and \"x\"\nrule huff when a = b\n\
                   rule huff whenever a = b \"x\"\n";
        let parsed = parse_file(src, "x.rules");
        let shown: Vec<String> = parsed.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            shown,
            vec![
                "x.rules:1:16: expected a setting key (like `free-edges` or \
                 `score.adjoining`), found `\"`",
                "x.rules:2:24: expected `=`, found `\"`",
                // A string is a value too: the text is what is missing.
                "x.rules:3:29: expected `and` or a string in double quotes, found the end \
                 of the line",
                "x.rules:4:22: expected `and` or a string in double quotes, found `c`",
                "x.rules:5:26: expected a setting key (like `free-edges` or \
                 `score.adjoining`), found `\"`",
                "x.rules:6:21: expected `and` or a string in double quotes, found the end \
                 of the line",
                "x.rules:7:11: expected `when` or a string in double quotes, found \
                 `whenever`",
            ]
        );
        assert!(parsed.statements.is_empty());
    }

    #[test]
    fn syntax_errors_name_line_column_and_expectation() {
        let src = "ruleset x\nsett emperor = true\nset emperor true\nset win = reduce-to(5\n\
                   rule step unquoted\nset a = 1 2\ntitle \"x\" extra\ngame\nset = 3\n\
                   set s = [a b\nset m = {a 1}\nset m = {a: 1,}\nset v = Main\n\
                   title \"open\nrule x \"a \\n b\"\nset f = g(\n";
        let parsed = parse_file(src, "rulesets/x.rules");
        let shown: Vec<String> = parsed.errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            shown,
            vec![
                "rulesets/x.rules:2:1: unknown statement `sett`; expected `ruleset`, `game`, \
                 `extends`, `title`, `source`, `set` or `rule`; did you mean `set`?",
                "rulesets/x.rules:3:13: expected `=`, found `true`",
                "rulesets/x.rules:4:22: expected `,` or `)`, found the end of the line",
                "rulesets/x.rules:5:11: expected `when` or a string in double quotes, found \
                 `unquoted`",
                "rulesets/x.rules:6:11: expected the end of the line, found `2`",
                "rulesets/x.rules:7:11: expected the end of the line, found `extra`",
                "rulesets/x.rules:8:5: expected a kebab-case name (like `halatafl-emperor`), \
                 found the end of the line",
                "rulesets/x.rules:9:5: expected a setting key (like `free-edges` or \
                 `score.adjoining`), found `=`",
                "rulesets/x.rules:10:13: expected `]`, found the end of the line",
                "rulesets/x.rules:11:12: expected `:`, found `1`",
                "rulesets/x.rules:12:15: expected a kebab-case name (like `halatafl-emperor`), \
                 found `}`",
                "rulesets/x.rules:13:9: expected a value, found `Main`",
                "rulesets/x.rules:14:12: expected `\"` to end the string or an escape \
                 (`\\\"` or `\\\\`), found the end of the line",
                "rulesets/x.rules:15:11: expected `\"` to end the string or an escape \
                 (`\\\"` or `\\\\`), found `\\`",
                "rulesets/x.rules:16:11: expected `)` or a value or a range (`0..4`), \
                 found the end of the line",
            ]
        );
        assert_eq!(parsed.statements.len(), 1, "only the good line");
    }
}
