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
    pub action: Action<T>,
    /// The turn's text (without number, label or annotations).
    pub span: Span,
    /// The seat label, annotations and comments, where any is written (most turns have
    /// none: a record's entries are built and read a turn at a time, and this keeps
    /// each one small).
    pub written: Option<Box<Written>>,
}

/// What is written around a turn besides its number; see [`Entry`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Written {
    pub label: Option<(String, Span)>,
    /// `!`, `?!`, `$3`… written right after the turn.
    pub annotations: Vec<String>,
    /// Comments written before this turn (after the previous one).
    pub comments: Vec<Comment>,
}

impl<T> Entry<T> {
    /// The seat label written before the turn, and where.
    pub fn label(&self) -> Option<&(String, Span)> {
        self.written.as_ref().and_then(|w| w.label.as_ref())
    }

    /// `!`, `?!`, `$3`… written right after the turn.
    pub fn annotations(&self) -> &[String] {
        self.written.as_ref().map_or(&[], |w| &w.annotations)
    }

    /// Comments written before this turn (after the previous one).
    pub fn comments(&self) -> &[Comment] {
        self.written.as_ref().map_or(&[], |w| &w.comments)
    }
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

/// Characters that may follow a turn directly (`None`: the movetext ends).
fn ends_turn(next: Option<u8>) -> bool {
    match next {
        None => true,
        Some(b) => is_space(b) || matches!(b, b'{' | b';' | b'!' | b'?' | b'$'),
    }
}

/// The frame's rules that make a token, as a game's one-pass parser reports them
/// (`grammar/movetext.pest` composes `record.pest` with the game's grammar, so each game
/// has its own `Rule` enum; this names the frame's rules in any of them).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum FrameRule {
    BraceComment,
    LineComment,
    Termination,
    TurnNumber,
    SeatLabel,
    CommonAction,
    Nag,
    Annotation,
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

/// The token a frame rule matched as `text`; `None` for a turn number too large.
fn token_of(rule: FrameRule, text: &str) -> Option<Token> {
    let len = text.len();
    Some(match rule {
        FrameRule::BraceComment => Token::Comment(Comment::Brace(text[1..len - 1].to_string())),
        FrameRule::LineComment => Token::Comment(Comment::Line(text[1..].to_string())),
        FrameRule::Termination => Token::Termination(match text {
            "1-0" => Termination::FirstWins,
            "0-1" => Termination::SecondWins,
            "1/2-1/2" => Termination::Draw,
            _ => Termination::Unknown,
        }),
        FrameRule::TurnNumber => Token::Number(TurnNumber {
            n: text.trim_end_matches('.').parse().ok()?,
            ellipsis: text.ends_with("..."),
        }),
        FrameRule::SeatLabel => Token::Label(text[..len - 1].to_string()),
        FrameRule::CommonAction if text == "resign" => Token::Resign,
        FrameRule::CommonAction => Token::Draw,
        FrameRule::Nag | FrameRule::Annotation => Token::Annotation(text.to_string()),
    })
}

/// The frame token at the start of `input`, tried rule by rule (the fallback reader).
fn frame_token(input: &str) -> Option<(Token, usize)> {
    let first = *input.as_bytes().first()?;
    // Only the rules that can start with this byte are tried.
    let rules: &[(Rule, FrameRule)] = match first {
        b'{' => &[(Rule::brace_comment, FrameRule::BraceComment)],
        b';' => &[(Rule::line_comment, FrameRule::LineComment)],
        b'*' => &[(Rule::termination, FrameRule::Termination)],
        b'$' => &[(Rule::nag, FrameRule::Nag)],
        b'!' | b'?' => &[(Rule::annotation, FrameRule::Annotation)],
        b'0'..=b'9' => {
            // A failed pest parse builds an error, which is costly: try the marker only
            // where one is written.
            if ["1-0", "0-1", "1/2-1/2"]
                .iter()
                .any(|m| input.starts_with(m))
            {
                &[
                    (Rule::termination, FrameRule::Termination),
                    (Rule::turn_number, FrameRule::TurnNumber),
                ]
            } else {
                &[(Rule::turn_number, FrameRule::TurnNumber)]
            }
        }
        b'a'..=b'z' => {
            // Most tokens starting with a letter are turns: try the frame's rules only
            // where one of them can match (a word then `:`, or `resign`/`draw`).
            let word = input.bytes().take_while(u8::is_ascii_lowercase).count();
            if input.as_bytes().get(word) == Some(&b':') {
                &[(Rule::seat_label, FrameRule::SeatLabel)]
            } else if input.starts_with("resign") || input.starts_with("draw") {
                &[(Rule::common_action, FrameRule::CommonAction)]
            } else {
                return None;
            }
        }
        _ => return None,
    };
    for &(rule, frame) in rules {
        let Ok(mut pairs) = FrameParser::parse(rule, input) else {
            continue;
        };
        let text = pairs.next()?.as_str();
        return Some((token_of(frame, text)?, text.len()));
    }
    None
}

/// Whether reading goes on after a token.
#[derive(Copy, Clone, Eq, PartialEq)]
enum Flow {
    Go,
    Stop,
}

/// Takes each entry as it is read: `false` stops the reading there (`check` replays a
/// record as it reads it, and stops at the first turn it cannot play). A movetext read
/// into a sink keeps none of its entries.
pub type Sink<'a, T> = &'a mut dyn FnMut(&Entry<T>) -> bool;

/// Whether a turn owns nothing on the heap, so that letting it go frees nothing: an
/// entry handed to a [`Sink`] is then let go without running its drop, a call a turn
/// where nearly every turn owns nothing (Thaayam's lists are inline but for rare long
/// ones). The default: a type with no drop to run (`Copy` turns); any other is dropped,
/// which is always safe.
pub trait HeapFree: Sized {
    fn heap_free(&self) -> bool {
        !std::mem::needs_drop::<Self>()
    }
}

impl HeapFree for String {}

/// The frame's state while a movetext is read: what the next turn carries, and the
/// rules on what may follow what. Fed token by token, from a one-pass parse or from
/// the fallback reader.
struct Reader<'a, 's, T> {
    out: Movetext<T>,
    /// Where entries go as they are read, instead of into `out` (see [`Sink`]).
    sink: Option<Sink<'s, T>>,
    /// Entries read so far.
    turns: usize,
    text: &'a str,
    /// The movetext's end in `text`.
    end: usize,
    limits: &'a Limits,
    number: Option<(TurnNumber, Span)>,
    label: Option<(String, Span)>,
    comments: Vec<Comment>,
    /// Whether the previous token was a turn with nothing between (annotations attach
    /// to it).
    after_turn: bool,
}

impl<'a, 's, T: HeapFree> Reader<'a, 's, T> {
    fn new(
        text: &'a str,
        span: Span,
        limits: &'a Limits,
        sink: Option<Sink<'s, T>>,
    ) -> Reader<'a, 's, T> {
        // About one turn in eight bytes of movetext, within reason: growing the list turn
        // by turn costs more than reading the turns. (A sink keeps none.)
        let room = if sink.is_some() {
            0
        } else {
            (span.len() / 8).min(4096)
        };
        Reader {
            sink,
            turns: 0,
            out: Movetext {
                entries: Vec::with_capacity(room),
                trailing: Vec::new(),
                termination: None,
                error: None,
            },
            text,
            end: span.end,
            limits,
            number: None,
            label: None,
            comments: Vec::new(),
            after_turn: false,
        }
    }

    fn fail(&mut self, kind: SyntaxKind, at: usize, to: usize, message: String) -> Flow {
        self.out.error = Some(SyntaxError {
            kind,
            span: Span::new(at, to.max(at)),
            message,
        });
        Flow::Stop
    }

    /// Where the token at `at` ends on its line, for underlining.
    fn token_end(&self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut e = at;
        while e < self.end && !is_space(bytes[e]) {
            e += 1;
        }
        e.max(at + 1).min(self.end.max(at))
    }

    /// After the termination marker only comments may follow: `true` when the token
    /// at `pos` is refused for that. (Asked before every token: inlined, the refusal
    /// apart.)
    #[inline]
    fn after_termination(&mut self, pos: usize, is_comment: bool) -> bool {
        if is_comment || self.out.termination.is_none() {
            return false;
        }
        self.refuse_after_termination(pos);
        true
    }

    #[cold]
    fn refuse_after_termination(&mut self, pos: usize) {
        let Some((_, tspan)) = self.out.termination else {
            return;
        };
        // The marker by its text, not its place: a byte offset in the record would not
        // be one in the file (`check` reads records one at a time).
        let message = format!(
            "nothing but comments may follow the termination marker `{}`",
            crate::quote::quote(&self.text[tspan.start..tspan.end])
        );
        self.fail(SyntaxKind::Syntax, pos, self.token_end(pos), message);
    }

    /// A frame token at `span`.
    fn token(&mut self, token: Token, span: Span) -> Flow {
        let (pos, len) = (span.start, span.len());
        if self.after_termination(pos, matches!(token, Token::Comment(_))) {
            return Flow::Stop;
        }
        if self.out.termination.is_some() {
            if let Token::Comment(c) = token {
                self.out.trailing.push(c);
            }
            return Flow::Go;
        }
        match token {
            Token::Comment(c) => self.comments.push(c),
            // (An entry given to a sink is gone: what is written after it is not kept,
            // but follows the same rules.)
            Token::Annotation(a) if self.turns > 0 && (self.after_turn || a.starts_with('$')) => {
                if let Some(last) = self.out.entries.last_mut() {
                    last.written.get_or_insert_default().annotations.push(a);
                }
                self.after_turn = true;
            }
            Token::Annotation(a) => {
                let message = format!(
                    "the annotation `{}` must follow a turn directly",
                    crate::quote::quote(&a)
                );
                return self.fail(SyntaxKind::Syntax, pos, pos + len, message);
            }
            Token::Termination(t) => {
                if self.number.is_some() || self.label.is_some() {
                    return self.fail(
                        SyntaxKind::Syntax,
                        pos,
                        pos + len,
                        "a turn number or seat label must be followed by a turn".into(),
                    );
                }
                self.out.termination = Some((t, span));
                self.out.trailing.append(&mut self.comments);
            }
            Token::Number(n) => {
                if self.number.is_some() || self.label.is_some() {
                    return self.fail(
                        SyntaxKind::Syntax,
                        pos,
                        pos + len,
                        "expected a turn after the turn number".into(),
                    );
                }
                self.number = Some((n, span));
            }
            Token::Label(l) => {
                if self.label.is_some() {
                    return self.fail(
                        SyntaxKind::Syntax,
                        pos,
                        pos + len,
                        "expected a turn after the seat label".into(),
                    );
                }
                self.label = Some((l, span));
            }
            Token::Resign => return self.entry(Action::Resign, span),
            Token::Draw => return self.entry(Action::Draw, span),
        }
        Flow::Go
    }

    /// A turn number at `span`, read by hand: where nothing stands before it (no
    /// termination marker, number or label), kept for the next turn without going
    /// through [`Reader::token`], which says the same there.
    #[inline(always)]
    fn number(&mut self, n: TurnNumber, span: Span) -> Flow {
        if self.out.termination.is_none() && self.number.is_none() && self.label.is_none() {
            self.number = Some((n, span));
            return Flow::Go;
        }
        self.token(Token::Number(n), span)
    }

    /// A turn in the game's notation parsed at `pos`.
    #[inline(always)]
    fn turn(&mut self, parsed: TurnParse<T>, pos: usize) -> Flow {
        if self.after_termination(pos, false) {
            return Flow::Stop;
        }
        let (text, end) = (self.text, self.end);
        match parsed {
            TurnParse::Turn(turn, len) => self.played(turn, len, pos),
            TurnParse::BadAddress {
                len,
                at,
                address_len,
            } => {
                let bad = Span::new(pos + at, pos + at + address_len);
                self.entry(Action::BadAddress(bad), Span::new(pos, pos + len))
            }
            TurnParse::NoTurn { at, expected } => {
                let at = pos + at.min(end - pos);
                let message = if text.as_bytes()[pos] == b'{' {
                    "this comment is never closed: `{` needs a matching `}`".to_string()
                } else if at >= end {
                    format!("the record ends inside a turn: expected {expected}")
                } else {
                    format!("expected {expected}, found `{}`", next_char(&text[at..]))
                };
                self.fail(SyntaxKind::Syntax, at, self.token_end(at), message)
            }
        }
    }

    /// A turn of `len` bytes parsed at `pos`, where the termination marker was already
    /// looked for: an entry, unless it is too long or something sticks to it. The hand
    /// readers give their turns here directly: a turn wrapped in a [`TurnParse`] on the
    /// way is one more copy of it (Thaayam's `Turn` is 176 bytes).
    #[inline(always)]
    fn played(&mut self, turn: T, len: usize, pos: usize) -> Flow {
        let (text, end) = (self.text, self.end);
        if len > self.limits.max_turn_bytes {
            let message = format!(
                "a turn of {len} bytes is over the limit of {} bytes (--max-turn-bytes)",
                self.limits.max_turn_bytes
            );
            return self.fail(SyntaxKind::Limit, pos, pos + len, message);
        }
        if !ends_turn(text.as_bytes()[..end].get(pos + len).copied()) {
            let at = pos + len;
            let message = format!(
                "unexpected `{}` after the turn `{}`",
                next_char(&text[at..]),
                crate::quote::quote(&text[pos..pos + len])
            );
            return self.fail(SyntaxKind::Syntax, at, self.token_end(at), message);
        }
        self.entry(Action::Play(turn), Span::new(pos, pos + len))
    }

    /// A turn (or `resign`/`draw`) at `span` becomes an entry with what was written
    /// before it.
    #[inline(always)]
    fn entry(&mut self, action: Action<T>, span: Span) -> Flow {
        if self.turns >= self.limits.max_turns {
            let message = format!(
                "more than {} turns in one record (--max-turns)",
                self.limits.max_turns
            );
            return self.fail(SyntaxKind::Limit, span.start, span.end, message);
        }
        // (Most turns have neither: the label is taken only where there is one.)
        let written = (self.label.is_some() || !self.comments.is_empty()).then(|| {
            Box::new(Written {
                label: self.label.take(),
                annotations: Vec::new(),
                comments: std::mem::take(&mut self.comments),
            })
        });
        let entry = Entry {
            number: self.number.take(),
            action,
            span,
            written,
        };
        self.turns += 1;
        self.after_turn = true;
        match &mut self.sink {
            None => self.out.entries.push(entry),
            Some(sink) => {
                let go = sink(&entry);
                let heap_free = entry.written.is_none()
                    && match &entry.action {
                        Action::Play(turn) => turn.heap_free(),
                        Action::BadAddress(_) | Action::Resign | Action::Draw => true,
                    };
                if heap_free {
                    std::mem::forget(entry);
                }
                if !go {
                    return Flow::Stop;
                }
            }
        }
        Flow::Go
    }

    /// Where the blanks from `pos` end; blanks after a turn end what annotations may
    /// attach to.
    #[inline(always)]
    fn skip_blanks(&mut self, mut pos: usize) -> usize {
        let bytes = &self.text.as_bytes()[..self.end];
        let start = pos;
        while bytes.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        self.after_turn &= pos == start;
        pos
    }

    /// Reads on from `pos` token by token: each frame rule that can start there, then
    /// the game's turn.
    fn read_from(&mut self, mut pos: usize, parse_turn: impl Fn(&str) -> TurnParse<T>) {
        loop {
            pos = self.skip_blanks(pos);
            if pos >= self.end {
                return;
            }
            let rest = &self.text[pos..self.end];
            let (flow, len) = match frame_token(rest) {
                Some((token, len)) => (self.token(token, Span::new(pos, pos + len)), len),
                None => {
                    let parsed = parse_turn(rest);
                    let len = match &parsed {
                        TurnParse::Turn(_, len) | TurnParse::BadAddress { len, .. } => *len,
                        TurnParse::NoTurn { .. } => 0,
                    };
                    (self.turn(parsed, pos), len)
                }
            };
            if flow == Flow::Stop {
                return;
            }
            pos += len;
        }
    }

    /// The movetext read, with the error for a number or label left without a turn.
    fn finish(mut self) -> Movetext<T> {
        if self.out.error.is_none() {
            let dangling = self
                .number
                .map(|(_, s)| s)
                .or(self.label.as_ref().map(|(_, s)| *s));
            if let Some(s) = dangling {
                self.fail(
                    SyntaxKind::Syntax,
                    s.start,
                    s.end,
                    "a turn number or seat label must be followed by a turn".into(),
                );
            }
        }
        self.out.trailing.append(&mut self.comments);
        self.out
    }
}

/// Reads the movetext `span` of `text`, parsing turns with the game's `parse_turn`, one
/// token at a time. Stops at the first syntax error, keeping everything before it.
pub fn parse_movetext<T: HeapFree>(
    text: &str,
    span: Span,
    limits: &Limits,
    parse_turn: impl Fn(&str) -> TurnParse<T>,
) -> Movetext<T> {
    let mut reader = Reader::new(text, span, limits, None);
    reader.read_from(span.start, parse_turn);
    reader.finish()
}

/// A turn number at the start of `b` (`12.` or `12...`, at most nine digits), read by
/// hand as the frame's `turn_number` rule reads it: `(number, length)`. (Read before
/// every turn: inlined.)
#[inline(always)]
fn fast_number(b: &[u8]) -> Option<(TurnNumber, usize)> {
    // The digits and their value in one pass; a tenth digit refuses the number.
    let (mut digits, mut n) = (0usize, 0u32);
    for &c in b {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        if digits == 9 {
            return None;
        }
        n = n * 10 + u32::from(d);
        digits += 1;
    }
    if digits == 0 || b.get(digits) != Some(&b'.') {
        return None;
    }
    let ellipsis = b.get(digits + 1) == Some(&b'.') && b.get(digits + 2) == Some(&b'.');
    let len = if ellipsis { digits + 3 } else { digits + 1 };
    Some((TurnNumber { n, ellipsis }, len))
}

/// A brace comment, an annotation or a termination marker at the start of `b`, read by
/// hand where the frame's rule (`grammar/record.pest`) reads exactly it: the rule and
/// the token's length. A comment never closed, and anything else, is left to pest.
fn frame_by_hand(b: &[u8]) -> Option<(FrameRule, usize)> {
    match b.first()? {
        b'{' => memchr::memchr(b'}', b).map(|end| (FrameRule::BraceComment, end + 1)),
        // `!!`, `??`, `!?`, `?!`, `!` and `?`: the longest.
        b'!' | b'?' => {
            let len = if matches!(b.get(1), Some(b'!' | b'?')) {
                2
            } else {
                1
            };
            Some((FrameRule::Annotation, len))
        }
        b'*' | b'0' | b'1' => {
            let markers: [&[u8]; 4] = [b"1/2-1/2", b"1-0", b"0-1", b"*"];
            let len = markers.iter().find(|m| b.starts_with(m))?.len();
            let joined = b.get(len).is_some_and(|c| {
                c.is_ascii_alphanumeric() || matches!(c, b'-' | b'/' | b'.' | b'*')
            });
            (!joined).then_some((FrameRule::Termination, len))
        }
        _ => None,
    }
}

/// Reads the movetext `span` of `text` fast, with the same result as [`parse_movetext`]:
///
/// 1. turn numbers, brace comments, annotations, termination markers and the game's
///    commonest turns by hand (`fast_turn` gives a turn and its length only where the
///    game's `turn` rule would give exactly those);
/// 2. from the first token that is anything else, the game's one-pass parse of the rest
///    (`one_pass`: rule `movetext` of `grammar/movetext.pest`), which matches the
///    frame's tokens and the game's turns as far as they are well formed;
/// 3. where that stops, token by token, which names the error.
///
/// With a `sink`, each entry goes to it as it is read, and none is kept.
#[allow(clippy::too_many_arguments)]
pub(crate) fn parse_movetext_fast<'i, R: pest::RuleType, T: HeapFree>(
    text: &'i str,
    span: Span,
    limits: &Limits,
    fast_turn: impl Fn(&[u8]) -> Option<(T, usize)>,
    one_pass: impl Fn(&'i str) -> Option<pest::iterators::Pairs<'i, R>>,
    frame: impl Fn(R) -> Option<FrameRule>,
    turn_of: impl Fn(pest::iterators::Pair<'i, R>) -> TurnParse<T>,
    parse_turn: impl Fn(&str) -> TurnParse<T>,
    sink: Option<Sink<'_, T>>,
) -> Movetext<T> {
    let mut reader = Reader::new(text, span, limits, sink);
    let bytes = text.as_bytes();
    let mut pos = span.start;
    // 1. By hand.
    loop {
        pos = reader.skip_blanks(pos);
        if pos >= span.end {
            return reader.finish();
        }
        let rest = &bytes[pos..span.end];
        // (Only a digit can start a turn number: most tokens are turns, asked no more.)
        let number = match rest.first() {
            Some(b) if b.is_ascii_digit() => fast_number(rest),
            _ => None,
        };
        let (flow, len) = if let Some((n, len)) = number {
            (reader.number(n, Span::new(pos, pos + len)), len)
        } else if let Some((rule, len)) = match rest[0] {
            // (Asked only where such a token can start: most tokens are turns.)
            b'{' | b'!' | b'?' | b'*' | b'0' | b'1' => frame_by_hand(rest),
            _ => None,
        } {
            match token_of(rule, &text[pos..pos + len]) {
                Some(token) => (reader.token(token, Span::new(pos, pos + len)), len),
                None => break,
            }
        } else if frame_word(rest) {
            break;
        } else if let Some((turn, len)) = fast_turn(rest) {
            let flow = if reader.after_termination(pos, false) {
                Flow::Stop
            } else {
                reader.played(turn, len, pos)
            };
            (flow, len)
        } else {
            break;
        };
        if flow == Flow::Stop {
            return reader.finish();
        }
        pos += len;
    }
    // 2. In one pass of the parser.
    let base = pos;
    for pair in one_pass(&text[base..span.end]).into_iter().flatten() {
        let s = pair.as_span();
        let at = Span::new(base + s.start(), base + s.end());
        if at.start > pos {
            reader.after_turn = false;
        }
        let flow = match frame(pair.as_rule()) {
            Some(rule) => match token_of(rule, pair.as_str()) {
                Some(token) => reader.token(token, at),
                // Left to the token-by-token reader.
                None => break,
            },
            None => reader.turn(turn_of(pair), at.start),
        };
        if flow == Flow::Stop {
            return reader.finish();
        }
        pos = at.end;
    }
    // 3. Token by token.
    reader.read_from(pos, parse_turn);
    reader.finish()
}

/// A seat label and `resign`/`draw` come before a turn, as the frame reads them.
/// Neither can start unless the token starts with `:` or a letter and then a letter or
/// `:` (most turns do not: `c3-d4`): the rest is asked only then.
#[inline(always)]
fn frame_word(rest: &[u8]) -> bool {
    let word_or_colon = |c: &u8| c.is_ascii_lowercase() || *c == b':';
    let may_be =
        rest[0] == b':' || (rest[0].is_ascii_lowercase() && rest.get(1).is_some_and(word_or_colon));
    may_be && {
        let word = rest.iter().take_while(|c| c.is_ascii_lowercase()).count();
        rest.get(word) == Some(&b':') || rest.starts_with(b"resign") || rest.starts_with(b"draw")
    }
}

fn next_char(text: &str) -> String {
    match text.chars().next() {
        Some(c) => crate::quote::quote(c.encode_utf8(&mut [0; 4])).to_string(),
        None => "the end".into(),
    }
}
