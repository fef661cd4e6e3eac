//! Cutting a file into records and parsing each header.

use pest::Parser;
use std::sync::Arc;

use super::{
    File, FrameParser, Header, Limits, RawRecord, Rule, Span, SyntaxError, SyntaxKind, TagIndex,
};

/// A tag-pair line read by the `tag_line` rule: its name and its value with the escapes
/// resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineTag {
    pub name: String,
    pub value: String,
    /// The whole line.
    pub span: Span,
    /// The value's text between the quotes.
    pub value_span: Span,
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
        let end = memchr::memchr2(b'\n', b'\r', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
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

/// Parses a line as a complete tag pair: the commonest form by hand, the rest with
/// the `tag_line` rule.
#[cfg(test)]
pub(crate) fn parse_tag_line(line: &str, offset: usize) -> Option<LineTag> {
    match fast_tag_line(line.as_bytes()) {
        Some(t) => Some(LineTag {
            name: line[t.name_start..t.name_end].to_string(),
            value: line[t.value_start..t.value_end].to_string(),
            span: Span::new(offset, offset + line.len()),
            value_span: Span::new(offset + t.value_start, offset + t.value_end),
        }),
        None => parse_tag_line_with_parser(line, offset),
    }
}

/// Whether a line is a complete tag pair.
#[cfg(test)]
pub(crate) fn is_tag_line(line: &str) -> bool {
    tag_line_at(line.as_bytes(), 0).is_some()
}

/// [`tag_line_at`] with the tag built, from the line's own text.
#[cfg(test)]
pub(crate) fn parse_tag_line_bytes(line: &[u8], offset: usize) -> Option<LineTag> {
    let at = tag_line_at(line, offset)?;
    let mut text = " ".repeat(offset);
    text.push_str(std::str::from_utf8(line).ok()?);
    Some(at.owned(&text))
}

/// A tag-pair line as the stream finds it: where its name and value lie (offsets in
/// the record's text), or, for a line the parser read, the tag.
#[derive(Clone, Debug)]
pub(crate) enum TagAt {
    Fast { line: Span, name: Span, value: Span },
    Parsed(Box<LineTag>),
}

impl TagAt {
    /// The tag with its name and value, taken from `text`, in which the line lies at
    /// the offsets found.
    #[cfg(test)]
    pub(crate) fn owned(self, text: &str) -> LineTag {
        match self {
            TagAt::Fast { line, name, value } => LineTag {
                name: text[name.start..name.end].to_string(),
                value: text[value.start..value.end].to_string(),
                span: line,
                value_span: value,
            },
            TagAt::Parsed(tag) => *tag,
        }
    }

    /// The whole line.
    fn line(&self) -> Span {
        match self {
            TagAt::Fast { line, .. } => *line,
            TagAt::Parsed(tag) => tag.span,
        }
    }
}

/// The header whose tag-pair lines, at `lines` in `text`, are `tags` (the lines follow
/// each other): the lines' text is copied once (or, where `text` is the record's own,
/// `shared`, the header shares it), and a tag read by hand is where it lies in it. A
/// repeated tag is a header error, in `errors`.
fn build_header(
    text: &str,
    shared: Option<&Arc<str>>,
    lines: Span,
    tags: &[TagAt],
    errors: &mut Vec<SyntaxError>,
) -> Header {
    let (mut header, base) = match shared {
        Some(record) => {
            let index = TagIndex::with_capacity(tags.len());
            (Header::in_record(Arc::clone(record), index), 0)
        }
        None => (
            Header::with_text(text[lines.start..lines.end].to_string(), tags.len()),
            lines.start,
        ),
    };
    let at = |s: Span| Span::new(s.start - base, s.end - base);
    for tag in tags {
        let (name, value, span, value_span) = match tag {
            TagAt::Fast { line, name, value } => (at(*name), at(*value), *line, *value),
            TagAt::Parsed(tag) => (
                header.append(&tag.name),
                header.append(&tag.value),
                tag.span,
                tag.value_span,
            ),
        };
        if !header.push(name, value, span, value_span) {
            errors.push(SyntaxError {
                kind: SyntaxKind::Header,
                span,
                message: format!(
                    "the tag `{}` appears twice in this header",
                    crate::quote::quote(header.text_at(name))
                ),
            });
        }
    }
    header
}

/// A line beginning with this byte is no tag-pair line: ASCII, neither blank (white
/// space as `str::trim_start` takes it) nor `[`. (A non-ASCII byte may begin white space
/// before the `[`.)
#[inline]
pub(crate) fn opens_no_tag_line(b: u8) -> bool {
    b.is_ascii() && b != b'[' && !matches!(b, b'\t'..=b'\r' | b' ')
}

/// Whether a line's bytes are UTF-8 and a complete tag pair, and where its parts lie
/// (the stream asks this of every line it does not take at once): a line `offset` bytes
/// into its record's text is one where [`parse_tag_line`] reads it as one. A line read by
/// hand is ASCII but for its value, so only the value is checked to be UTF-8; a line
/// whose first character other than white space is not `[` is no tag pair, found
/// without reading the rest.
pub(crate) fn tag_line_at(line: &[u8], offset: usize) -> Option<TagAt> {
    if let Some(t) = fast_tag_line(line) {
        let value = &line[t.value_start..t.value_end];
        if !value.is_ascii() && std::str::from_utf8(value).is_err() {
            return None;
        }
        return Some(TagAt::Fast {
            line: Span::new(offset, offset + line.len()),
            name: Span::new(offset + t.name_start, offset + t.name_end),
            value: Span::new(offset + t.value_start, offset + t.value_end),
        });
    }
    // White space as `str::trim_start` takes it, as far as it is ASCII.
    match line.iter().find(|&&b| !matches!(b, b'\t'..=b'\r' | b' ')) {
        Some(&b) if opens_no_tag_line(b) => return None,
        None => return None,
        _ => {}
    }
    parse_tag_line_with_parser(std::str::from_utf8(line).ok()?, offset)
        .map(|t| TagAt::Parsed(Box::new(t)))
}

/// A tag line of the commonest form (as [`fast_tag_line`] reads it) at the start of
/// `rest`, the bytes from a line's start to the end of what the stream has read, found
/// in one pass with the line's end: the tag (the line `offset` bytes into its record's
/// text), the line's length and its terminator's (`\n`, `\r\n`, a lone `\r`, or none at
/// the end of the stream). `None` where [`tag_line_at`] and the line's end must be
/// worked out the usual way: another form of line, or a line not yet read to its end.
/// Where it answers, it answers as they do: none of the bytes before the line's end is a
/// line end, so the line is the one they would cut.
pub(crate) fn tag_line_ahead(
    rest: &[u8],
    offset: usize,
    eof: bool,
) -> Option<(TagAt, usize, usize)> {
    if let Some(found) = canonical_tag_line(rest, offset) {
        return Some(found);
    }
    let b = rest;
    let blanks = |i: usize| skip_blanks(b, i);
    let (name_start, name_end, value_start) = tag_head(b)?;
    // The value ends at its first quote; an escape or a line end before it leaves the
    // line to the usual way.
    let close = value_start + value_stop(&b[value_start..])?;
    if b[close] != b'"' {
        return None;
    }
    let value = &b[value_start..close];
    if !value.is_ascii() && std::str::from_utf8(value).is_err() {
        return None;
    }
    let i = blanks(close + 1);
    if b.get(i) != Some(&b']') {
        return None;
    }
    let end = blanks(i + 1);
    let term = match b.get(end) {
        Some(b'\n') => 1,
        Some(b'\r') => match b.get(end + 1) {
            Some(b'\n') => 2,
            Some(_) => 1,
            None if eof => 1,
            None => return None,
        },
        None if eof => 0,
        _ => return None,
    };
    let tag = TagAt::Fast {
        line: Span::new(offset, offset + end),
        name: Span::new(offset + name_start, offset + name_end),
        value: Span::new(offset + value_start, offset + close),
    };
    Some((tag, end, term))
}

/// [`tag_line_ahead`] for the form nearly every tag line has, `[Name "value"]` with one
/// space, a plain ASCII value and `\n` or `\r\n` after it, read with no blank skipped and
/// the value in words of eight bytes; `None` leaves every other line to the general way.
#[inline]
fn canonical_tag_line(b: &[u8], offset: usize) -> Option<(TagAt, usize, usize)> {
    if b.first() != Some(&b'[') || !b.get(1)?.is_ascii_alphabetic() {
        return None;
    }
    let mut i = 2;
    while i < b.len() && NAME_BYTES[usize::from(b[i])] {
        i += 1;
    }
    let name_end = i;
    if b.get(i..i + 2) != Some(b" \"") {
        return None;
    }
    let value_start = i + 2;
    let close = value_start + plain_run(&b[value_start..]);
    let (end, term) = match b.get(close..close + 4) {
        Some([b'"', b']', b'\n', _]) => (close + 2, 1),
        Some([b'"', b']', b'\r', b'\n']) => (close + 2, 2),
        _ if b.get(close..close + 3) == Some(b"\"]\n") => (close + 2, 1),
        _ => return None,
    };
    let tag = TagAt::Fast {
        line: Span::new(offset, offset + end),
        name: Span::new(offset + 1, offset + name_end),
        value: Span::new(offset + value_start, offset + close),
    };
    Some((tag, end, term))
}

/// Words of eight bytes, as the scans below read them.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `v` equal to `c`: the zero bytes of `v` xor `c` repeated
/// (of several flags the lowest is exact, a borrow only moving up).
#[inline(always)]
fn bytes_equal(v: u64, c: u8) -> u64 {
    let x = v ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & HIGH
}

/// Where the first byte of `b` that stops a scan is, eight bytes at a time: `flags`
/// marks a word's stopping bytes by their high bits (the lowest exact), `stops` says
/// it of one byte (the last bytes, fewer than eight). `b.len()` when none stops it.
#[inline(always)]
fn scan_to(b: &[u8], flags: impl Fn(u64) -> u64, stops: impl Fn(u8) -> bool) -> usize {
    let mut words = b.chunks_exact(8);
    let mut at = 0;
    for w in &mut words {
        let found = flags(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        if found != 0 {
            return at + found.trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    let rest = words.remainder();
    at + rest.iter().position(|&c| stops(c)).unwrap_or(rest.len())
}

/// How many bytes `b` starts with that are printable ASCII other than `"` and `\`
/// (the bytes a plain value holds): a word's bytes below 0x20 or from 0x80 have the
/// high bit of the byte less 0x20, or of the byte, set.
#[inline]
fn plain_run(b: &[u8]) -> usize {
    scan_to(
        b,
        |v| {
            ((v.wrapping_sub(ONES * 0x20) | v) & HIGH)
                | bytes_equal(v, b'"')
                | bytes_equal(v, b'\\')
        },
        |c| !(b' '..0x80).contains(&c) || c == b'"' || c == b'\\',
    )
}

/// `i` past the blanks (spaces and tabs) of `b` from `i`.
#[inline]
fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// The start of a tag line read by hand, `[Name "`, blanks allowed around its parts:
/// where the name starts and ends, and where the value starts. `None` where the line
/// does not start so.
#[inline]
fn tag_head(b: &[u8]) -> Option<(usize, usize, usize)> {
    let mut i = skip_blanks(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_blanks(b, i + 1);
    let name_start = i;
    if !b.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    i += 1;
    while i < b.len() && NAME_BYTES[usize::from(b[i])] {
        i += 1;
    }
    let name_end = i;
    i = skip_blanks(b, i);
    if i == name_end || b.get(i) != Some(&b'"') {
        return None;
    }
    Some((name_start, name_end, i + 1))
}

/// The first `"`, `\`, `\n` or `\r` of `b`.
#[inline]
fn value_stop(b: &[u8]) -> Option<usize> {
    let at = scan_to(
        b,
        |v| {
            bytes_equal(v, b'"')
                | bytes_equal(v, b'\\')
                | bytes_equal(v, b'\n')
                | bytes_equal(v, b'\r')
        },
        |c| matches!(c, b'"' | b'\\' | b'\n' | b'\r'),
    );
    (at < b.len()).then_some(at)
}

/// A record whose header's lines are `lines`, in `text`, its movetext after the last
/// (up to [`end_record`]). Where `text` is the record's own text, `shared`, the header
/// shares it.
pub(crate) fn header_record(text: &str, shared: Option<&Arc<str>>, lines: &[TagAt]) -> RawRecord {
    let start = lines.first().map_or(0, |l| l.line().start);
    let end = lines.last().map_or(0, |l| l.line().end);
    let mut header_errors = Vec::new();
    let span = Span::new(start, end);
    let header = build_header(text, shared, span, lines, &mut header_errors);
    RawRecord {
        header,
        header_errors,
        movetext: Span::new(end, end),
        span: Span::new(start, end),
    }
}

/// A record whose header's tags, `tags`, the stream indexed as it read their lines by
/// hand, with no name repeated; they lie in `text`, the record's own text, which the
/// header shares. Its movetext follows the last line (up to [`end_record`]).
pub(crate) fn tags_record(text: &Arc<str>, tags: TagIndex) -> RawRecord {
    let span = tags.lines_span();
    RawRecord {
        header: Header::in_record(Arc::clone(text), tags),
        header_errors: Vec::new(),
        movetext: Span::new(span.end, span.end),
        span,
    }
}

/// The end of a record that runs to `end`: its movetext and its span end there.
pub(crate) fn end_record(rec: &mut RawRecord, end: usize) {
    rec.movetext.end = end.max(rec.movetext.start);
    rec.span.end = end;
}

/// Where the parts of a tag line read by hand lie in the line.
struct FastTag {
    name_start: usize,
    name_end: usize,
    value_start: usize,
    value_end: usize,
}

/// The bytes that may follow a tag name's first letter.
const NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c as u8).is_ascii_alphanumeric() || c == b'_' as usize;
        c += 1;
    }
    t
};

/// A tag line of the commonest form (`[Name "value"]`, blanks around the parts, no
/// escape in the value) read by hand: where its name and its value lie, only where the
/// `tag_line` rule reads exactly those. `None` leaves the line to the parser. `line`
/// holds no line end: `lines` and the stream cut lines there. Everything but the value
/// is ASCII, so the offsets are character boundaries of a line that is text.
fn fast_tag_line(b: &[u8]) -> Option<FastTag> {
    let blanks = |i: usize| skip_blanks(b, i);
    let (name_start, name_end, value_start) = tag_head(b)?;
    // A line holds no line end, so the value ends at the first quote unless an escape
    // comes first. Most values are short: their first bytes are looked at one by one,
    // a longer value's rest with `memchr2`.
    let rest = &b[value_start..];
    let head = rest.len().min(16);
    let at = match rest[..head].iter().position(|&c| c == b'"' || c == b'\\') {
        Some(k) => k,
        None => head + memchr::memchr2(b'"', b'\\', &rest[head..])?,
    };
    let close = value_start + at;
    if b[close] != b'"' {
        return None;
    }
    let i = blanks(close + 1);
    if b.get(i) != Some(&b']') || blanks(i + 1) != b.len() {
        return None;
    }
    Some(FastTag {
        name_start,
        name_end,
        value_start,
        value_end: close,
    })
}

/// Parses a line as a complete tag pair with the `tag_line` rule.
fn parse_tag_line_with_parser(line: &str, offset: usize) -> Option<LineTag> {
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
    Some(LineTag {
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
    // The lines of the header being read.
    let mut header: Vec<TagAt> = Vec::with_capacity(16);
    for (offset, line) in lines(text) {
        match tag_line_at(line.as_bytes(), offset) {
            Some(tag) => header.push(tag),
            None => {
                if !header.is_empty() {
                    records.push(header_record(text, None, &header));
                    header.clear();
                }
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
    if !header.is_empty() {
        records.push(header_record(text, None, &header));
    }
    // Each record's movetext ends where the next record begins (or at the end).
    let n = records.len();
    for i in 0..n {
        let end = if i + 1 < n {
            records[i + 1].span.start
        } else {
            text.len()
        };
        end_record(&mut records[i], end);
    }
    File { records, errors }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{
        is_tag_line, parse_tag_line, parse_tag_line_bytes, parse_tag_line_with_parser,
        tag_line_ahead, tag_line_at,
    };

    /// One part of a tag line, or a near-miss of it.
    fn part(options: &'static [&'static str]) -> impl Strategy<Value = &'static str> {
        prop::sample::select(options)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// A line read by hand gives what the `tag_line` rule gives.
        #[test]
        fn fast_tag_lines_agree(
            head in (part(&["", " ", "\t", "x"]), part(&["[", "", "{"]), part(&["", " ", "\t"])),
            name in (part(&["Game", "G_1", "1x", "", "é", "a-b"]), part(&[" ", "", "\t ", "\""])),
            value in (part(&["\"", "", "'"]),
                      prop::collection::vec(part(&["a", " ", "\\", "\"", "\\\"", "\\\\", "é", "]"]), 0..5),
                      part(&["\"", ""])),
            tail in (part(&["", " ", "\t"]), part(&["]", "", "]]"]), part(&["", " ", "x", "\t"])),
        ) {
            let line = [head.0, head.1, head.2, name.0, name.1, value.0, &value.1.concat(), value.2,
                        tail.0, tail.1, tail.2].concat();
            prop_assert_eq!(parse_tag_line(&line, 7), parse_tag_line_with_parser(&line, 7), "{:?}", line);
            prop_assert_eq!(is_tag_line(&line), parse_tag_line_with_parser(&line, 7).is_some());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// The stream's test on a line's bytes says what the parser says of the line
        /// as text, and no for bytes that are not UTF-8.
        #[test]
        fn tag_line_bytes_agree(
            parts in prop::collection::vec(part(&[
                "[", "]", "\"", "\\", " ", "\t", "\u{b}", "\u{c}", "\u{a0}", "\u{85}", "\u{3000}",
                "Game", "_", "1", "é", "x", "\u{0}", "{", "-",
            ]), 0..9),
            bad in prop::option::of((0usize..12, prop::sample::select(vec![0xffu8, 0x80, 0xc3]))),
        ) {
            let mut line = parts.concat().into_bytes();
            if let Some((at, byte)) = bad {
                line.insert(at.min(line.len()), byte);
            }
            let expected = std::str::from_utf8(&line)
                .ok()
                .and_then(|l| parse_tag_line_with_parser(l, 3));
            prop_assert_eq!(parse_tag_line_bytes(&line, 3), expected, "{:?}", line);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        /// A tag line read ahead, with its end, is the line the stream would cut and the
        /// tag it would read there; the commonest form is always read ahead.
        #[test]
        fn tag_lines_read_ahead_agree(
            parts in prop::collection::vec(part(&[
                "[", "]", "\"", "\\", " ", "\t", "\u{b}", "Game", "_", "1", "é", "x", "\n",
                "\r", "SeedCommit", "0123456789abcdef", "[Game \"x\"]", "\"v\"",
            ]), 0..12),
            bad in prop::option::of((0usize..12, prop::sample::select(vec![0xffu8, 0x80, 0xc3]))),
            eof in any::<bool>(),
        ) {
            let mut rest = parts.concat().into_bytes();
            if let Some((at, byte)) = bad {
                rest.insert(at.min(rest.len()), byte);
            }
            // The line's end as the stream finds it, where it can tell.
            let cut = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) if rest[i] == b'\n' => Some((i, 1)),
                Some(i) => match rest.get(i + 1) {
                    Some(b'\n') => Some((i, 2)),
                    Some(_) => Some((i, 1)),
                    None => eof.then_some((i, 1)),
                },
                None => (eof && !rest.is_empty()).then_some((rest.len(), 0)),
            };
            if let Some((at, len, term)) = tag_line_ahead(&rest, 5, eof) {
                let (end, t) = cut.expect("a line read ahead has an end");
                prop_assert_eq!((len, term), (end, t));
                let text = format!("{}{}", " ".repeat(5), std::str::from_utf8(&rest[..end]).unwrap());
                let expected = tag_line_at(&rest[..end], 5).map(|a| a.owned(&text));
                prop_assert_eq!(Some(at.owned(&text)), expected);
            }
        }
    }

    #[test]
    fn common_tag_lines_are_read_ahead() {
        for (line, eof, len, term) in [
            ("[Game \"halves\"]\n[", false, 15, 1),
            (" [Seed\t\"perf-1\" ] \r\n", false, 18, 2),
            ("[SeedCommit \"a3ef772ac27e5c6afe7d8a6d81e3c7b3956a8210b1a2675225a54a695e39df91\"]\rx", false, 79, 1),
            ("[Round \"1\"]", true, 11, 0),
        ] {
            let (_, l, t) = tag_line_ahead(line.as_bytes(), 0, eof).expect(line);
            assert_eq!((l, t), (len, term), "{line:?}");
        }
        for (line, eof) in [
            ("[Round \"1\"]", false),
            ("[Round \"1\"]\r", false),
            ("[A \"b\\\"\"]\n", true),
            ("[A \"b\nc\"]\n", true),
        ] {
            assert!(
                tag_line_ahead(line.as_bytes(), 0, eof).is_none(),
                "{line:?}"
            );
        }
    }

    #[test]
    fn tag_lines_by_hand() {
        for line in [
            "[Game \"halatafl\"]",
            " \t[ Event\t\"Club \\\"A\\\" round\" ] ",
            "[Round \"\"]",
            "[1x \"y\"]",
            "[Game\"x\"]",
            "[Game \"x\"] y",
        ] {
            assert_eq!(
                parse_tag_line(line, 0),
                parse_tag_line_with_parser(line, 0),
                "{line}"
            );
        }
    }
}
