//! A record's movetext: the frame's tokens (numbers, labels, comments, annotations,
//! `resign`/`draw`, the termination marker) and the game's turns.

use std::fmt;

use pest::Parser;

use super::{FrameParser, Limits, Rule, Span, SyntaxError, SyntaxKind};
use crate::notation::TurnParse;

/// A turn number as written: `12.` or `12...`.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Hash)]
pub struct TurnNumber {
    pub n: u32,
    /// Written with `...` (a round's later seat, in `rounds` numbering).
    pub ellipsis: bool,
}

impl fmt::Display for TurnNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.n, if self.ellipsis { "..." } else { "." })
    }
}

/// What stands in the place of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action<T> {
    /// A turn in the game's notation.
    Play(T),
    /// A well-formed turn naming a point that does not exist (rule `address`); the span
    /// is the bad address.
    BadAddress(Span),
    /// `resign`: the seat to move resigns.
    Resign,
    /// `draw`: a draw agreed by all seats still playing.
    Draw,
}

impl<T: fmt::Display> Action<T> {
    /// The action as written in a record (`e3-d4`, `resign`, `draw`); `None` for a bad
    /// address, which has no canonical text.
    pub fn written(&self) -> Option<String> {
        match self {
            Action::Play(t) => Some(t.to_string()),
            Action::Resign => Some("resign".into()),
            Action::Draw => Some("draw".into()),
            Action::BadAddress(_) => None,
        }
    }
}

/// A comment, kept and never interpreted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Comment {
    /// `{ … }`, the text between the braces.
    Brace(String),
    /// `; …` to the end of the line, the text after the semicolon.
    Line(String),
}

impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Comment::Brace(t) => write!(f, "{{{t}}}"),
            Comment::Line(t) => write!(f, ";{t}"),
        }
    }
}

/// One turn of the movetext with what was written around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<T> {
    pub number: Option<(TurnNumber, Span)>,
    pub label: Option<(String, Span)>,
    pub action: Action<T>,
    /// The turn's text (without number, label or annotations).
    pub span: Span,
    /// `!`, `?!`, `$3`… written right after the turn.
    pub annotations: Vec<String>,
    /// Comments written before this turn (after the previous one).
    pub comments: Vec<Comment>,
}

/// The termination marker.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Hash)]
pub enum Termination {
    /// `*`: not stated.
    Unknown,
    /// `1-0`: the first seat wins.
    FirstWins,
    /// `0-1`: the second seat wins.
    SecondWins,
    /// `1/2-1/2`: a draw.
    Draw,
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::Unknown => "*",
            Termination::FirstWins => "1-0",
            Termination::SecondWins => "0-1",
            Termination::Draw => "1/2-1/2",
        })
    }
}

/// A record's movetext, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movetext<T> {
    pub entries: Vec<Entry<T>>,
    /// Comments after the last turn.
    pub trailing: Vec<Comment>,
    pub termination: Option<(Termination, Span)>,
    /// The first syntax (or limit) error; the entries before it are kept and replayed.
    pub error: Option<SyntaxError>,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Characters that may follow a turn directly.
fn ends_turn(rest: &[u8]) -> bool {
    match rest.first() {
        None => true,
        Some(&b) => is_space(b) || matches!(b, b'{' | b';' | b'!' | b'?' | b'$'),
    }
}

/// A token of the frame matched at a position.
enum Token {
    Comment(Comment),
    Termination(Termination),
    Number(TurnNumber),
    Label(String),
    Resign,
    Draw,
    Annotation(String),
}

fn frame_token(input: &str) -> Option<(Token, usize)> {
    let first = *input.as_bytes().first()?;
    // Only the rules that can start with this byte are tried.
    let rules: &[Rule] = match first {
        b'{' => &[Rule::brace_comment],
        b';' => &[Rule::line_comment],
        b'*' => &[Rule::termination],
        b'$' => &[Rule::nag],
        b'!' | b'?' => &[Rule::annotation],
        b'0'..=b'9' => {
            // A failed pest parse builds an error, which is costly: try the marker only
            // where one is written.
            if ["1-0", "0-1", "1/2-1/2"]
                .iter()
                .any(|m| input.starts_with(m))
            {
                &[Rule::termination, Rule::turn_number]
            } else {
                &[Rule::turn_number]
            }
        }
        b'a'..=b'z' => {
            // Most tokens starting with a letter are turns: try the frame's rules only
            // where one of them can match (a word then `:`, or `resign`/`draw`).
            let word = input.bytes().take_while(u8::is_ascii_lowercase).count();
            if input.as_bytes().get(word) == Some(&b':') {
                &[Rule::seat_label]
            } else if input.starts_with("resign") || input.starts_with("draw") {
                &[Rule::common_action]
            } else {
                return None;
            }
        }
        _ => return None,
    };
    for &rule in rules {
        let Ok(mut pairs) = FrameParser::parse(rule, input) else {
            continue;
        };
        let pair = pairs.next()?;
        let len = pair.as_str().len();
        let text = pair.as_str();
        let token = match rule {
            Rule::brace_comment => Token::Comment(Comment::Brace(text[1..len - 1].to_string())),
            Rule::line_comment => Token::Comment(Comment::Line(text[1..].to_string())),
            Rule::termination => Token::Termination(match text {
                "1-0" => Termination::FirstWins,
                "0-1" => Termination::SecondWins,
                "1/2-1/2" => Termination::Draw,
                _ => Termination::Unknown,
            }),
            Rule::turn_number => {
                let digits = text.trim_end_matches('.');
                Token::Number(TurnNumber {
                    n: digits.parse().ok()?,
                    ellipsis: text.ends_with("..."),
                })
            }
            Rule::seat_label => Token::Label(text[..len - 1].to_string()),
            Rule::common_action => {
                if text == "resign" {
                    Token::Resign
                } else {
                    Token::Draw
                }
            }
            _ => Token::Annotation(text.to_string()),
        };
        return Some((token, len));
    }
    None
}

/// Reads the movetext `span` of `text`, parsing turns with the game's `parse_turn`.
/// Stops at the first syntax error, keeping everything before it.
pub fn parse_movetext<T>(
    text: &str,
    span: Span,
    limits: &Limits,
    parse_turn: impl Fn(&str) -> TurnParse<T>,
) -> Movetext<T> {
    let mut out = Movetext {
        entries: Vec::new(),
        trailing: Vec::new(),
        termination: None,
        error: None,
    };
    let bytes = text.as_bytes();
    let mut pos = span.start;
    let end = span.end;
    let mut number: Option<(TurnNumber, Span)> = None;
    let mut label: Option<(String, Span)> = None;
    let mut comments: Vec<Comment> = Vec::new();
    // Whether the previous token was a turn (annotations attach to it).
    let mut after_turn = false;
    let error = |kind, at: usize, to: usize, message: String| SyntaxError {
        kind,
        span: Span::new(at, to.max(at)),
        message,
    };
    // Where the current token ends on its line, for underlining.
    let token_end = |at: usize| {
        let mut e = at;
        while e < end && !is_space(bytes[e]) {
            e += 1;
        }
        e.max(at + 1).min(end.max(at))
    };
    loop {
        let ws_start = pos;
        while pos < end && is_space(bytes[pos]) {
            pos += 1;
        }
        if pos > ws_start {
            after_turn = false;
        }
        if pos >= end {
            break;
        }
        let rest = &text[pos..end];
        if let Some((_, tspan)) = &out.termination {
            // Only blanks and comments may follow the termination marker.
            if let Some((Token::Comment(c), len)) = frame_token(rest) {
                out.trailing.push(c);
                pos += len;
                continue;
            }
            out.error = Some(error(
                SyntaxKind::Syntax,
                pos,
                token_end(pos),
                format!(
                    "nothing but comments may follow the termination marker (at byte {})",
                    tspan.start
                ),
            ));
            break;
        }
        if let Some((token, len)) = frame_token(rest) {
            let tok_span = Span::new(pos, pos + len);
            match token {
                Token::Comment(c) => {
                    comments.push(c);
                    pos += len;
                    continue;
                }
                Token::Annotation(a) => {
                    match out.entries.last_mut() {
                        Some(last) if after_turn || a.starts_with('$') => {
                            last.annotations.push(a);
                        }
                        _ => {
                            out.error = Some(error(
                                SyntaxKind::Syntax,
                                pos,
                                pos + len,
                                format!("the annotation `{a}` must follow a turn directly"),
                            ));
                            break;
                        }
                    }
                    pos += len;
                    after_turn = true;
                    continue;
                }
                Token::Termination(t) => {
                    if number.is_some() || label.is_some() {
                        out.error = Some(error(
                            SyntaxKind::Syntax,
                            pos,
                            pos + len,
                            "a turn number or seat label must be followed by a turn".into(),
                        ));
                        break;
                    }
                    out.termination = Some((t, tok_span));
                    out.trailing.append(&mut comments);
                    pos += len;
                    continue;
                }
                Token::Number(n) => {
                    if number.is_some() || label.is_some() {
                        out.error = Some(error(
                            SyntaxKind::Syntax,
                            pos,
                            pos + len,
                            "expected a turn after the turn number".into(),
                        ));
                        break;
                    }
                    number = Some((n, tok_span));
                    pos += len;
                    continue;
                }
                Token::Label(l) => {
                    if label.is_some() {
                        out.error = Some(error(
                            SyntaxKind::Syntax,
                            pos,
                            pos + len,
                            "expected a turn after the seat label".into(),
                        ));
                        break;
                    }
                    label = Some((l, tok_span));
                    pos += len;
                    continue;
                }
                Token::Resign | Token::Draw => {
                    let action = if matches!(token, Token::Resign) {
                        Action::Resign
                    } else {
                        Action::Draw
                    };
                    if !push_entry(
                        &mut out,
                        limits,
                        number.take(),
                        label.take(),
                        action,
                        tok_span,
                        &mut comments,
                    ) {
                        break;
                    }
                    pos += len;
                    after_turn = true;
                    continue;
                }
            }
        }
        // A turn in the game's notation.
        match parse_turn(rest) {
            TurnParse::Turn(turn, len) => {
                if len > limits.max_turn_bytes {
                    out.error = Some(error(
                        SyntaxKind::Limit,
                        pos,
                        pos + len,
                        format!(
                            "a turn of {len} bytes is over the limit of {} bytes (--max-turn-bytes)",
                            limits.max_turn_bytes
                        ),
                    ));
                    break;
                }
                if !ends_turn(&bytes[pos + len..end]) {
                    let at = pos + len;
                    out.error = Some(error(
                        SyntaxKind::Syntax,
                        at,
                        token_end(at),
                        format!(
                            "unexpected `{}` after the turn `{}`",
                            next_char(&text[at..]),
                            &text[pos..pos + len]
                        ),
                    ));
                    break;
                }
                let tspan = Span::new(pos, pos + len);
                if !push_entry(
                    &mut out,
                    limits,
                    number.take(),
                    label.take(),
                    Action::Play(turn),
                    tspan,
                    &mut comments,
                ) {
                    break;
                }
                pos += len;
                after_turn = true;
            }
            TurnParse::BadAddress {
                len,
                at,
                address_len,
            } => {
                let tspan = Span::new(pos, pos + len);
                let bad = Span::new(pos + at, pos + at + address_len);
                if !push_entry(
                    &mut out,
                    limits,
                    number.take(),
                    label.take(),
                    Action::BadAddress(bad),
                    tspan,
                    &mut comments,
                ) {
                    break;
                }
                pos += len;
                after_turn = true;
            }
            TurnParse::NoTurn { at, expected } => {
                let at = pos + at.min(rest.len());
                let message = if bytes[pos] == b'{' {
                    "this comment is never closed: `{` needs a matching `}`".to_string()
                } else if at >= end {
                    format!("the record ends inside a turn: expected {expected}")
                } else {
                    format!("expected {expected}, found `{}`", next_char(&text[at..]))
                };
                out.error = Some(error(SyntaxKind::Syntax, at, token_end(at), message));
                break;
            }
        }
    }
    if out.error.is_none() {
        if let Some((_, s)) = number.or(label.map(|(_, s)| {
            (
                TurnNumber {
                    n: 0,
                    ellipsis: false,
                },
                s,
            )
        })) {
            out.error = Some(error(
                SyntaxKind::Syntax,
                s.start,
                s.end,
                "a turn number or seat label must be followed by a turn".into(),
            ));
        }
    }
    out.trailing.append(&mut comments);
    out
}

fn next_char(text: &str) -> String {
    match text.chars().next() {
        Some(c) if c.is_control() => c.escape_default().to_string(),
        Some(c) => c.to_string(),
        None => "the end".into(),
    }
}

fn push_entry<T>(
    out: &mut Movetext<T>,
    limits: &Limits,
    number: Option<(TurnNumber, Span)>,
    label: Option<(String, Span)>,
    action: Action<T>,
    span: Span,
    comments: &mut Vec<Comment>,
) -> bool {
    if out.entries.len() >= limits.max_turns {
        out.error = Some(SyntaxError {
            kind: SyntaxKind::Limit,
            span,
            message: format!(
                "more than {} turns in one record (--max-turns)",
                limits.max_turns
            ),
        });
        return false;
    }
    out.entries.push(Entry {
        number,
        label,
        action,
        span,
        annotations: Vec::new(),
        comments: std::mem::take(comments),
    });
    true
}
