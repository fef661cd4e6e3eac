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

pub use movetext::{
    parse_movetext, Action, Comment, Entry, HeapFree, Movetext, Sink, Termination, TurnNumber,
    Written,
};
pub(crate) use movetext::{parse_movetext_fast, FrameRule};
pub use print::{print, set_tags, today};
pub use split::split;
pub use stream::{Chunk, ChunkText, Chunks};

use std::sync::Arc;

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

/// One tag pair of a header, as [`Header`] hands it out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    pub name: &'a str,
    /// The value with its escapes resolved.
    pub value: &'a str,
    /// The whole line.
    pub span: Span,
    /// The value's text between the quotes.
    pub value_span: Span,
}

/// A record's header, tags in written order, with an index by a hash of the name: a
/// look-up compares one name, mostly, and a tag the header lacks is known absent without
/// comparing any (a record is asked for a dozen tags, most of them lacking).
///
/// The header keeps each tag as where its name and value lie in a text: the record's
/// own, shared, where the stream read the record whole; else its lines' text, copied
/// once (a value with escapes, resolved, is added after the lines). A header costs one
/// allocation however many tags it has (two where its lines are copied), and a tag no
/// copy. Two headers are equal where their tags are.
#[derive(Clone, Debug)]
pub struct Header {
    text: HeaderText,
    index: TagIndex,
}

/// A header's tags as where they lie in its text, in written order, with the index by
/// name hash. Built apart from the text where the stream reads a record's header lines
/// before the record's text is whole ([`Header::in_record`]).
#[derive(Clone, Debug)]
pub(crate) struct TagIndex {
    slots: Vec<Slot>,
    /// By [`name_hash`], one more than the index of the first tag whose name has that
    /// hash; 0 where none has.
    first: [u8; 64],
    /// A tag past the index's reach (index 255 on) is not indexed: then a look-up the
    /// index does not answer searches every tag (where none is, the index alone would
    /// say so: searching is then only slower).
    beyond: bool,
}

impl TagIndex {
    /// No tag yet, with room for `tags` tags.
    pub(crate) fn with_capacity(tags: usize) -> TagIndex {
        TagIndex {
            slots: Vec::with_capacity(tags),
            first: [0; 64],
            beyond: false,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// No tag yet, in `list` (emptied: one a record dropped left, [`Spare`]).
    pub(crate) fn in_list(list: Vec<Slot>) -> TagIndex {
        debug_assert!(list.is_empty());
        TagIndex {
            slots: list,
            first: [0; 64],
            beyond: false,
        }
    }

    /// No tag any more, with room for `tags` tags.
    pub(crate) fn clear(&mut self, tags: usize) {
        self.slots.clear();
        self.slots.reserve(tags);
        self.first = [0; 64];
        self.beyond = false;
    }

    /// From the first tag's line to the last's.
    pub(crate) fn lines_span(&self) -> Span {
        match (self.slots.first(), self.slots.last()) {
            (Some(first), Some(last)) => Span::new(first.span.start, last.span.end),
            _ => Span::default(),
        }
    }

    /// Each tag's line, name and value (where they lie in the text).
    pub(crate) fn lines(&self) -> impl Iterator<Item = (Span, Span, Span)> + '_ {
        self.slots.iter().map(|s| (s.span, s.name, s.value))
    }

    /// The slot of the tag named `name`, whose [`name_hash`] is `hash`, the names lying
    /// in `text`.
    #[inline(always)]
    fn find(&self, text: &[u8], name: &[u8], hash: usize) -> Option<&Slot> {
        let first = usize::from(self.first[hash]);
        let from = match first {
            0 if self.beyond => &self.slots[..],
            0 => return None,
            _ => &self.slots[first - 1..],
        };
        // The first tag of the hash, mostly the one asked for; else another name with
        // the same hash came first, and the rest are searched.
        from.iter()
            .find(|s| &text[s.name.start..s.name.end] == name)
    }

    /// Adds the tag whose name and value lie at `name` and `value` in `text`, unless
    /// there is a tag of that name: then it is not added, and the answer is `false`.
    #[inline(always)]
    pub(crate) fn push(
        &mut self,
        text: &[u8],
        name: Span,
        value: Span,
        span: Span,
        value_span: Span,
    ) -> bool {
        let bytes = &text[name.start..name.end];
        let h = name_hash(bytes);
        if self.find(text, bytes, h).is_some() {
            return false;
        }
        if self.first[h] == 0 {
            // The first of its hash: indexed, within the index's reach.
            match u8::try_from(self.slots.len() + 1) {
                Ok(i) => self.first[h] = i,
                Err(_) => self.beyond = true,
            }
        }
        self.slots.push(Slot {
            name,
            value,
            span,
            value_span,
        });
        true
    }
}

/// The text a header's tags lie in.
#[derive(Clone, Debug)]
enum HeaderText {
    /// The header's lines as written, then any value whose escapes were resolved.
    Own(String),
    /// The record's whole text, shared with the stream's chunk of it.
    Shared(Arc<str>),
}

impl HeaderText {
    #[inline]
    fn as_str(&self) -> &str {
        match self {
            HeaderText::Own(t) => t,
            HeaderText::Shared(t) => t,
        }
    }
}

impl PartialEq for Header {
    fn eq(&self, other: &Header) -> bool {
        self.tags().eq(other.tags())
    }
}

impl Eq for Header {}

/// What records dropped leave for the next records of a stream to use: their lists of
/// tags, emptied. A streamed record's header then costs no allocation of its list: the
/// reader hands each record back once judged ([`Spare::keep`]), and the stream takes a
/// list from here for the next header ([`Chunks::with_spare`]).
#[derive(Debug, Default)]
pub struct Spare {
    lists: Vec<Vec<Slot>>,
}

impl Spare {
    /// The most lists kept: as many as `check` judges in a batch; past that, a record's
    /// list is freed.
    const MOST: usize = 8192;

    /// Keeps what `record`, about to be dropped, leaves: its list of tags. The record
    /// is left with no tag.
    pub fn keep(&mut self, record: &mut RawRecord) {
        if self.lists.len() < Spare::MOST {
            let index = std::mem::replace(&mut record.header.index, TagIndex::in_list(Vec::new()));
            let mut list = index.slots;
            list.clear();
            self.lists.push(list);
        }
    }

    /// An empty list, one kept where there is one.
    pub(crate) fn list(&mut self) -> Vec<Slot> {
        self.lists.pop().unwrap_or_default()
    }
}

/// Where a tag's name and value lie in [`Header::text`], and its line and value in the
/// source.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    name: Span,
    value: Span,
    span: Span,
    value_span: Span,
}

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
        Header::with_text(String::new(), 0)
    }
}

impl Header {
    /// A header of no tag yet, its lines' text `text`, with room for `tags` tags.
    pub(crate) fn with_text(text: String, tags: usize) -> Header {
        Header::of(HeaderText::Own(text), tags)
    }

    /// The header whose tags, `index`, lie in `record`, the record's whole text (shared,
    /// not copied).
    pub(crate) fn in_record(record: Arc<str>, index: TagIndex) -> Header {
        Header {
            text: HeaderText::Shared(record),
            index,
        }
    }

    fn of(text: HeaderText, tags: usize) -> Header {
        Header {
            text,
            index: TagIndex::with_capacity(tags),
        }
    }

    /// Adds `s` after the text (a value whose escapes were resolved): where it lies. A
    /// record's shared text is copied first.
    pub(crate) fn append(&mut self, s: &str) -> Span {
        let mut text = match std::mem::replace(&mut self.text, HeaderText::Own(String::new())) {
            HeaderText::Own(t) => t,
            HeaderText::Shared(record) => record.to_string(),
        };
        let start = text.len();
        text.push_str(s);
        let end = text.len();
        self.text = HeaderText::Own(text);
        Span::new(start, end)
    }

    /// The text at `span` of the header's text.
    #[inline]
    pub(crate) fn text_at(&self, span: Span) -> &str {
        &self.text.as_str()[span.start..span.end]
    }

    #[inline]
    fn tag(&self, s: &Slot) -> Tag<'_> {
        Tag {
            name: self.text_at(s.name),
            value: self.text_at(s.value),
            span: s.span,
            value_span: s.value_span,
        }
    }

    /// The tags in written order.
    pub fn tags(&self) -> impl DoubleEndedIterator<Item = Tag<'_>> + ExactSizeIterator + '_ {
        self.index.slots.iter().map(|s| self.tag(s))
    }

    /// The tags' names in written order, as their bytes (to compare: a name is not
    /// sliced out of the text as text).
    pub fn names(&self) -> impl Iterator<Item = &[u8]> + '_ {
        let text = self.text.as_str().as_bytes();
        self.index
            .slots
            .iter()
            .map(|s| &text[s.name.start..s.name.end])
    }

    /// How many tags the header has.
    pub fn len(&self) -> usize {
        self.index.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The slot of the tag named `name`, whose [`name_hash`] is `hash`.
    #[inline(always)]
    fn find(&self, name: &[u8], hash: usize) -> Option<&Slot> {
        self.index.find(self.text.as_str().as_bytes(), name, hash)
    }

    /// Adds the tag whose name and value lie at `name` and `value` in the header's
    /// text, unless the header has a tag of that name: then it is not added, and the
    /// answer is `false`.
    pub(crate) fn push(&mut self, name: Span, value: Span, span: Span, value_span: Span) -> bool {
        let text = self.text.as_str().as_bytes();
        self.index.push(text, name, value, span, value_span)
    }

    #[inline(always)]
    pub fn get(&self, name: &str) -> Option<Tag<'_>> {
        let name = name.as_bytes();
        self.find(name, name_hash(name)).map(|s| self.tag(s))
    }
    #[inline(always)]
    pub fn value(&self, name: &str) -> Option<&str> {
        let name = name.as_bytes();
        self.find(name, name_hash(name))
            .map(|s| self.text_at(s.value))
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
pub fn parse_single<T: HeapFree>(
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
