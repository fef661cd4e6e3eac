//! The record frame (`record.md`): files of one or more records, each a header of tag
//! pairs and a movetext of turns, numbers, seat labels, comments, annotations, the
//! common actions `resign`/`draw` and a termination marker.
//!
//! Parsing happens in two steps, because a turn's text is parsed by the game's own rule
//! and the game is named in the header:
//!
//! 1. [`split`] cuts a file into records and parses each header ([`RawRecord`]).
//! 2. [`parse_movetext`] reads one record's movetext with the game's turn parser.
//!
//! The files: `split` (records and headers), `movetext` (the frame's tokens and the
//! turns), `print` (a record written back), `tests`.

mod movetext;
mod print;
mod split;
mod stream;
#[cfg(test)]
mod tests;

pub use compact_str::CompactString;
pub use movetext::{
    parse_movetext, Action, Comment, Entry, Movetext, Sink, Termination, TurnNumber, Written,
};
pub(crate) use movetext::{parse_movetext_fast, FrameRule};
pub use print::{print, set_tags, today};
pub use split::split;
pub use stream::{Chunk, ChunkText, Chunks};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/record.pest"]
pub(crate) struct FrameParser;

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
    /// The name (up to 24 bytes kept inline, as name and value mostly are: a record's
    /// tags cost no allocation each).
    pub name: CompactString,
    /// The value with its escapes resolved.
    pub value: CompactString,
    /// The whole line.
    pub span: Span,
    /// The value's text between the quotes.
    pub value_span: Span,
}

/// A record's header, tags in written order, with an index by a hash of the name: a
/// look-up compares one name, mostly, and a tag the header lacks is known absent without
/// comparing any (a record is asked for a dozen tags, most of them lacking).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    tags: Vec<Tag>,
    /// By [`name_hash`], the index of the first tag whose name has that hash;
    /// [`NO_TAG`] where none has.
    first: [u32; 64],
}

/// No tag's index.
const NO_TAG: u32 = u32::MAX;

/// A hash of a tag name in `0..64`, from its length and its first and last bytes: it
/// keeps the usual names of every game apart, so a look-up compares one name, mostly.
#[inline]
fn name_hash(name: &[u8]) -> usize {
    let (first, last) = match name {
        [first, .., last] => (*first, *last),
        [only] => (*only, *only),
        [] => (0, 0),
    };
    (name.len() + usize::from(first) * 12 + usize::from(last) * 6) & 63
}

impl Default for Header {
    fn default() -> Header {
        Header::with_capacity(0)
    }
}

impl Header {
    /// An empty header with room for `tags` tags.
    pub fn with_capacity(tags: usize) -> Header {
        Header {
            tags: Vec::with_capacity(tags),
            first: [NO_TAG; 64],
        }
    }

    /// The tags in written order.
    pub fn tags(&self) -> &[Tag] {
        &self.tags
    }

    /// Adds a tag, unless the header has one of that name: then it is handed back.
    pub fn push(&mut self, tag: Tag) -> Result<(), Tag> {
        let h = name_hash(tag.name.as_bytes());
        let first = self.first[h] as usize;
        if self
            .tags
            .get(first..)
            .is_some_and(|from| from.iter().any(|t| t.name == tag.name))
        {
            return Err(tag);
        }
        if first >= self.tags.len() {
            // The first of its hash: indexed. (An index past `u32` would leave it out of
            // the index; it takes 2^32 tags, hundreds of gigabytes, before it.)
            self.first[h] = u32::try_from(self.tags.len()).unwrap_or(NO_TAG);
        }
        self.tags.push(tag);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&Tag> {
        let first = self.first[name_hash(name.as_bytes())] as usize;
        let from = self.tags.get(first..)?;
        // The first tag of the hash, mostly the one asked for; else another name with
        // the same hash came first, and the rest are searched.
        from.iter().find(|t| t.name == name)
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// Parses one turn given on its own (a command-line argument or a `play` line): the
/// game's notation, `resign` or `draw`, optionally with a number and a seat label.
pub fn parse_single<T>(
    text: &str,
    limits: &Limits,
    parse_turn: impl Fn(&str) -> crate::notation::TurnParse<T>,
) -> Result<Entry<T>, String> {
    let mt = parse_movetext(text, Span::new(0, text.len()), limits, parse_turn);
    if let Some(e) = mt.error {
        return Err(e.message);
    }
    if mt.termination.is_some() {
        return Err("a termination marker is not a turn".into());
    }
    let mut entries = mt.entries;
    match entries.len() {
        1 => Ok(entries.remove(0)),
        0 => Err("no turn given".into()),
        n => Err(format!("one turn at a time, please ({n} given)")),
    }
}
