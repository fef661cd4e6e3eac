//! The record frame (`record.md`): files of one or more records, each a header of tag
//! pairs and a movetext of turns, numbers, seat labels, comments, annotations, the
//! common actions `resign`/`draw` and a termination marker.
//!
//! Parsing happens in two steps, because a turn's text is parsed by the game's own rule
//! and the game is named in the header:
//!
//! 1. [`split`] cuts a file into records and parses each header ([`RawRecord`]).
//! 2. [`parse_movetext`] reads one record's movetext with the game's turn parser.

use std::fmt;

use pest::Parser;

use super::TurnParse;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/record.pest"]
struct FrameParser;

/// A byte range of the source file.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, Hash)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// Limits on input size (`record.md`, "Limits"); settable from the command line.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// Largest record file, in bytes.
    pub max_bytes: usize,
    /// Longest turn text, in bytes.
    pub max_turn_bytes: usize,
    /// Most turns in one record.
    pub max_turns: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 64 << 20,
            max_turn_bytes: 64 << 10,
            max_turns: 1_000_000,
        }
    }
}

/// One tag pair of a header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    /// The value with its escapes resolved.
    pub value: String,
    /// The whole line.
    pub span: Span,
    /// The value's text between the quotes.
    pub value_span: Span,
}

/// A record's header, tags in written order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub tags: Vec<Tag>,
}

impl Header {
    pub fn get(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|t| t.value.as_str())
    }
}

impl crate::notation::Tags for Header {
    fn tag(&self, name: &str) -> Option<&str> {
        self.value(name)
    }
}

/// What kind of input problem a [`SyntaxError`] is.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum SyntaxKind {
    /// The text does not follow the grammar.
    Syntax,
    /// The header is wrong (a repeated tag).
    Header,
    /// A size limit was exceeded.
    Limit,
}

/// A problem found while parsing, at a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxKind,
    pub span: Span,
    pub message: String,
}

/// A record cut out of a file with its header parsed; its movetext is still text.
#[derive(Clone, Debug)]
pub struct RawRecord {
    pub header: Header,
    /// Problems in the header (repeated tags).
    pub header_errors: Vec<SyntaxError>,
    /// The movetext: everything after the header up to the next record.
    pub movetext: Span,
    /// The whole record.
    pub span: Span,
}

/// The outcome of cutting a file into records.
#[derive(Clone, Debug)]
pub struct File {
    pub records: Vec<RawRecord>,
    /// Text before the first header that is not blank, or a file over the size limit.
    pub errors: Vec<SyntaxError>,
}

/// A byte-order mark at the start of a text is ignored.
pub fn strip_bom(text: &str) -> (&str, usize) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, 3),
        None => (text, 0),
    }
}

/// Iterates the lines of `text` with the byte offset of each; the line excludes its
/// terminator (`\n`, `\r\n` or a lone `\r`).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let mut end = pos;
        while end < bytes.len() && bytes[end] != b'\n' && bytes[end] != b'\r' {
            end += 1;
        }
        pos = end;
        if pos < bytes.len() && bytes[pos] == b'\r' {
            pos += 1;
        }
        if pos < bytes.len() && bytes[pos] == b'\n' {
            pos += 1;
        }
        Some((start, &text[start..end]))
    })
}

/// Parses a line as a complete tag pair.
fn parse_tag_line(line: &str, offset: usize) -> Option<Tag> {
    if !line.trim_start().starts_with('[') {
        return None;
    }
    let pairs = FrameParser::parse(Rule::tag_line, line).ok()?;
    let mut name = String::new();
    let mut value = String::new();
    let mut value_span = Span::default();
    for pair in pairs.flatten() {
        match pair.as_rule() {
            Rule::tag_name => name = pair.as_str().to_string(),
            Rule::tag_text => {
                let s = pair.as_span();
                value_span = Span::new(offset + s.start(), offset + s.end());
                value = unescape(pair.as_str());
            }
            _ => {}
        }
    }
    Some(Tag {
        name,
        value,
        span: Span::new(offset, offset + line.len()),
        value_span,
    })
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Escapes a tag value for writing (`\"` and `\\`).
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Cuts a file's text into records. A record starts at a line that is a complete tag
/// pair; its header is the run of consecutive tag-pair lines; its movetext runs to the
/// next tag-pair line that follows movetext, or to the end of the file.
///
/// `text` must already have its byte-order mark stripped; spans are offsets in `text`.
pub fn split(text: &str, limits: &Limits) -> File {
    let mut errors = Vec::new();
    if text.len() > limits.max_bytes {
        errors.push(SyntaxError {
            kind: SyntaxKind::Limit,
            span: Span::new(0, 0),
            message: format!(
                "the file is {} bytes, over the limit of {} bytes (--max-bytes)",
                text.len(),
                limits.max_bytes
            ),
        });
        return File {
            records: Vec::new(),
            errors,
        };
    }
    let mut records: Vec<RawRecord> = Vec::new();
    let mut in_header = false;
    for (offset, line) in lines(text) {
        let tag = parse_tag_line(line, offset);
        match (tag, in_header) {
            (Some(tag), true) => {
                let rec = records.last_mut().expect("in a header there is a record");
                if rec.header.get(&tag.name).is_some() {
                    rec.header_errors.push(SyntaxError {
                        kind: SyntaxKind::Header,
                        span: tag.span,
                        message: format!("the tag `{}` appears twice in this header", tag.name),
                    });
                } else {
                    rec.header.tags.push(tag);
                }
                rec.movetext = Span::new(offset + line.len(), offset + line.len());
            }
            (Some(tag), false) => {
                let end = offset + line.len();
                records.push(RawRecord {
                    header: Header { tags: vec![tag] },
                    header_errors: Vec::new(),
                    movetext: Span::new(end, end),
                    span: Span::new(offset, end),
                });
                in_header = true;
            }
            (None, _) => {
                in_header = false;
                let blank = line.trim().is_empty();
                if records.is_empty() && !blank && errors.is_empty() {
                    let col = line.len() - line.trim_start().len();
                    errors.push(SyntaxError {
                        kind: SyntaxKind::Syntax,
                        span: Span::new(offset + col, offset + line.len()),
                        message: "expected a header tag pair such as `[Game \"halatafl\"]`: a record starts with its header".into(),
                    });
                }
            }
        }
    }
    // Each record's movetext ends where the next record begins (or at the end).
    let n = records.len();
    for i in 0..n {
        let end = if i + 1 < n {
            records[i + 1].span.start
        } else {
            text.len()
        };
        records[i].movetext.end = end.max(records[i].movetext.start);
        records[i].span.end = end;
    }
    File { records, errors }
}

// ---------------------------------------------------------------------------------
// Movetext

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

// ---------------------------------------------------------------------------------
// Printing

/// Writes a record: its header, a blank line, then its movetext, one turn a line, each
/// with its number and label as given. Parsing the output gives the same record.
pub fn print<T: fmt::Display>(header: &Header, movetext: &Movetext<T>, src: &str) -> String {
    let mut out = String::new();
    for tag in &header.tags {
        out.push_str(&format!("[{} \"{}\"]\n", tag.name, escape(&tag.value)));
    }
    out.push('\n');
    for entry in &movetext.entries {
        for c in &entry.comments {
            out.push_str(&c.to_string());
            out.push('\n');
        }
        if let Some((n, _)) = &entry.number {
            out.push_str(&format!("{n} "));
        }
        if let Some((l, _)) = &entry.label {
            out.push_str(&format!("{l}: "));
        }
        match &entry.action {
            Action::Play(t) => out.push_str(&t.to_string()),
            Action::BadAddress(_) => out.push_str(&src[entry.span.start..entry.span.end]),
            Action::Resign => out.push_str("resign"),
            Action::Draw => out.push_str("draw"),
        }
        for a in &entry.annotations {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy turn notation for frame tests: `xN-yM` or `huff xN yN-zM` (letters + digits).
    fn toy(input: &str) -> TurnParse<String> {
        let b = input.as_bytes();
        let word = |i: usize| {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
                j += 1;
            }
            j
        };
        if input.starts_with("huff ") {
            let j = word(5);
            let k = word(j + 1);
            return TurnParse::Turn(input[..k].to_string(), k);
        }
        let j = word(0);
        if j == 0 || !input[..j].contains('-') {
            return TurnParse::NoTurn {
                at: 0,
                expected: "a move".into(),
            };
        }
        if input.starts_with('z') {
            return TurnParse::BadAddress {
                len: j,
                at: 0,
                address_len: 2,
            };
        }
        TurnParse::Turn(input[..j].to_string(), j)
    }

    fn parse(text: &str) -> (File, Vec<Movetext<String>>) {
        let limits = Limits::default();
        let file = split(text, &limits);
        let mts = file
            .records
            .iter()
            .map(|r| parse_movetext(text, r.movetext, &limits, toy))
            .collect();
        (file, mts)
    }

    #[test]
    fn header_and_movetext() {
        let text = "[Game \"halatafl\"]\n[White \"A \\\"the\\\" \\\\ B\"]\n\n1. e3-d4 c5-e3 {c} 2. f3-e3! $4 ; end\n*\n";
        let (file, mts) = parse(text);
        assert!(file.errors.is_empty());
        assert_eq!(file.records.len(), 1);
        let h = &file.records[0].header;
        assert_eq!(h.value("Game"), Some("halatafl"));
        assert_eq!(h.value("White"), Some("A \"the\" \\ B"));
        let mt = &mts[0];
        assert!(mt.error.is_none(), "{:?}", mt.error);
        assert_eq!(mt.entries.len(), 3);
        assert_eq!(
            mt.entries[0].number.unwrap().0,
            TurnNumber {
                n: 1,
                ellipsis: false
            }
        );
        assert_eq!(mt.entries[2].annotations, vec!["!", "$4"]);
        assert_eq!(mt.entries[2].comments, vec![Comment::Brace("c".into())]);
        assert_eq!(mt.trailing, vec![Comment::Line(" end".into())]);
        assert_eq!(mt.termination.unwrap().0, Termination::Unknown);
        assert_eq!(
            &text[mt.entries[1].span.start..mt.entries[1].span.end],
            "c5-e3"
        );
    }

    #[test]
    fn several_records_and_bracket_lines_are_movetext() {
        let text = "\u{feff}[Game \"x\"]\r\n\r\n[4 1 2] a1-a2\r\n[Game \"y\"]\n[Round \"2\"]\na1-a2 resign\n";
        let (stripped, _) = strip_bom(text);
        let file = split(stripped, &Limits::default());
        assert_eq!(file.records.len(), 2);
        assert_eq!(file.records[1].header.value("Round"), Some("2"));
        let mt = parse_movetext(stripped, file.records[1].movetext, &Limits::default(), toy);
        assert_eq!(mt.entries.len(), 2);
        assert_eq!(mt.entries[1].action, Action::Resign);
        // `[4 1 2] …` is movetext of the first record, not a header.
        let mt0 = parse_movetext(stripped, file.records[0].movetext, &Limits::default(), toy);
        assert!(mt0.error.is_some());
    }

    #[test]
    fn repeated_tag_is_a_header_error() {
        let (file, _) = parse("[Game \"x\"]\n[Game \"y\"]\n");
        assert_eq!(file.records[0].header_errors.len(), 1);
        assert_eq!(file.records[0].header_errors[0].kind, SyntaxKind::Header);
    }

    #[test]
    fn text_before_the_header_is_an_error() {
        let (file, _) = parse("e3-d4\n[Game \"x\"]\n");
        assert_eq!(file.errors.len(), 1);
    }

    #[test]
    fn syntax_error_keeps_the_turns_before_it() {
        let text = "[Game \"x\"]\n1. a1-a2 b2-b3 2. @@ c3-c4\n";
        let (_, mts) = parse(text);
        let mt = &mts[0];
        assert_eq!(mt.entries.len(), 2);
        let e = mt.error.as_ref().unwrap();
        assert_eq!(&text[e.span.start..e.span.start + 2], "@@");
    }

    #[test]
    fn garbage_glued_to_a_turn_is_an_error() {
        let (_, mts) = parse("[Game \"x\"]\na1-a2}\n");
        assert!(mts[0]
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("unexpected `}`"));
    }

    #[test]
    fn only_comments_follow_the_termination_marker() {
        let (_, mts) = parse("[Game \"x\"]\na1-a2 1-0 {fine}\n");
        assert!(mts[0].error.is_none());
        assert_eq!(mts[0].termination.unwrap().0, Termination::FirstWins);
        let (_, mts) = parse("[Game \"x\"]\na1-a2 1-0 b1-b2\n");
        assert!(mts[0].error.is_some());
    }

    #[test]
    fn dangling_number_or_label_is_an_error() {
        let (_, mts) = parse("[Game \"x\"]\na1-a2 2.\n");
        assert!(mts[0].error.is_some());
        let (_, mts) = parse("[Game \"x\"]\nwhite: 1-0\n");
        assert!(mts[0].error.is_some());
    }

    #[test]
    fn unclosed_comment_is_reported() {
        let (_, mts) = parse("[Game \"x\"]\na1-a2 {never closed\n");
        assert!(mts[0]
            .error
            .as_ref()
            .unwrap()
            .message
            .contains("never closed"));
    }

    #[test]
    fn bad_address_is_kept_as_an_action() {
        let (_, mts) = parse("[Game \"x\"]\nz9-a1\n");
        assert!(matches!(mts[0].entries[0].action, Action::BadAddress(_)));
    }

    #[test]
    fn limits_are_enforced() {
        let limits = Limits {
            max_turns: 2,
            ..Limits::default()
        };
        let text = "[Game \"x\"]\na1-a2 a2-a3 a3-a4\n";
        let file = split(text, &limits);
        let mt = parse_movetext(text, file.records[0].movetext, &limits, toy);
        assert_eq!(mt.entries.len(), 2);
        assert_eq!(mt.error.unwrap().kind, SyntaxKind::Limit);
        let small = Limits {
            max_bytes: 4,
            ..Limits::default()
        };
        assert_eq!(split(text, &small).errors[0].kind, SyntaxKind::Limit);
    }

    #[test]
    fn print_then_parse_is_the_same_record() {
        let text = "[Game \"x\"]\n[Event \"a \\\"b\\\"\"]\n\n{start} 1. a1-a2 ?! 1... white: b2-b3 $1 resign ; done\n0-1\n";
        let (file, mts) = parse(text);
        let printed = print(&file.records[0].header, &mts[0], text);
        let (file2, mts2) = parse(&printed);
        assert_eq!(
            file.records[0].header.tags.len(),
            file2.records[0].header.tags.len()
        );
        let strip = |m: &Movetext<String>| {
            m.entries
                .iter()
                .map(|e| {
                    (
                        e.number.map(|n| n.0),
                        e.label.clone().map(|l| l.0),
                        e.action.clone(),
                        e.annotations.clone(),
                        e.comments.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&mts[0]), strip(&mts2[0]), "{printed}");
        assert_eq!(mts[0].trailing, mts2[0].trailing);
        assert_eq!(
            mts[0].termination.map(|t| t.0),
            mts2[0].termination.map(|t| t.0)
        );
    }
}

/// Line starts of a text, to turn byte offsets into 1-based lines and columns.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if b.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// The 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let col = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, col + 1)
    }
}
