//! Records read from a stream, one at a time, so that a file of any size is checked in
//! memory bounded by its largest record (`--max-bytes`, 64 MiB by default), from a file
//! or from stdin.
//!
//! A record ends where a tag-pair line follows movetext, as [`split`](super::split)
//! reads a file; each record comes out as a [`Chunk`] with where it sits in its file, so
//! that reports on it point at the file's lines. The first chunk also holds any text
//! before the first header, which is that record's error.

use std::io::{self, Read};
use std::sync::Arc;

use super::split::{
    end_record, header_record, opens_no_tag_line, tag_line_ahead, tag_line_at, tags_record, TagAt,
};
use super::{Limits, RawRecord, Spare, TagIndex};

/// Room for this many tags in a record's header (the common tags and the seats'); more
/// are added as they come.
const TAGS: usize = 12;

/// How much is read from the stream at a time: the first read asks for
/// `FIRST_BLOCK`, each next one for twice as much, up to `BLOCK`. A small record is
/// read without preparing (zeroing) a large buffer; a large file in large reads.
const BLOCK: usize = 256 << 10;
const FIRST_BLOCK: usize = 8 << 10;
/// What is kept of an over-limit record's header at least, in whole lines, whatever
/// the limit: enough to quote its first tag.
const QUOTED: usize = 1 << 10;

/// Finds the next `\n` or `\r`. `memchr2` picks its searcher and readies its needles at
/// every call, which for a line of a few dozen bytes is most of the cost: here memchr's
/// AVX2 searcher is made once, where the processor has AVX2, and `memchr2` is the rest.
struct LineEnds {
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::Two>,
}

impl LineEnds {
    fn new() -> LineEnds {
        LineEnds {
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::Two::new(b'\n', b'\r'),
        }
    }

    #[inline]
    fn find(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if let Some(two) = &self.avx2 {
            return two.find(haystack);
        }
        memchr::memchr2(b'\n', b'\r', haystack)
    }
}

/// One record of a file, read from a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The record's index in its file (0-based).
    pub index: usize,
    pub text: ChunkText,
    /// The byte offset of the text in its file (after a byte-order mark).
    pub offset: usize,
    /// The 0-based line of the file on which the text starts.
    pub line: usize,
    /// The record's size in its file, in bytes.
    pub bytes: usize,
    /// Whether the file holds more than one record (reports then say which).
    pub several: bool,
    /// The record as [`split`](super::split) reads the text, spans from the text's
    /// start, where the stream read it whole: the text starts with its header and is
    /// within the limit. `None` leaves it to `split`.
    pub record: Option<RawRecord>,
}

/// A record's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChunkText {
    /// The record, from its first header line (from the start of the file for the first
    /// record) to the next record. Its header, where the stream read it whole, shares it.
    Text(Arc<str>),
    /// The record is not UTF-8: its text up to the first invalid byte.
    NotUtf8 { valid: String },
    /// The record is over the size limit: its header lines, as far as they are within
    /// the limit (or within 1 KiB, where the limit is smaller).
    OverLimit { header: String },
}

impl ChunkText {
    /// The text kept of the record.
    pub fn as_str(&self) -> &str {
        match self {
            ChunkText::Text(t) => t,
            ChunkText::NotUtf8 { valid: t } => t,
            ChunkText::OverLimit { header, .. } => header,
        }
    }
}

/// The records of a stream, in order.
pub struct Chunks<R: Read> {
    reader: R,
    limits: Limits,
    line_ends: LineEnds,
    /// What is read and not yet handed out, `buf[..len]`: the current record from
    /// `start`, and what follows it. The bytes past `len` are room for the next read,
    /// zeroed once when the buffer grows, not at every read.
    buf: Vec<u8>,
    len: usize,
    /// Where the current record starts in `buf`.
    start: usize,
    /// The start of the next line not yet looked at, in `buf`.
    scan: usize,
    /// The file offset and 0-based line of the current record's start.
    offset: usize,
    line: usize,
    /// Lines of the current record looked at, before `scan`.
    lines: usize,
    /// The current record has begun (a tag-pair line was seen).
    begun: bool,
    /// The last line looked at was a tag-pair line.
    in_header: bool,
    /// The end of the current record's first header, in `buf`, while it is growing.
    header_end: Option<usize>,
    /// The current record's header lines as read, offsets from `start`, while the
    /// record begins with its header (`header` false once it does not: text before it):
    /// while every line is read by hand and no name repeats (`by_hand`), as the tags of
    /// the header, indexed as they come (`tags`, handed to the record whole); from the
    /// first other line on, as lines (`header_lines`), of which the header is built
    /// once the record's text is known to be UTF-8. The list of lines is kept from
    /// record to record, so a record's header costs no allocation of it.
    header: bool,
    by_hand: bool,
    tags: TagIndex,
    header_lines: Vec<TagAt>,
    /// Lists of tags that records handed back left, for the next headers.
    spare: Spare,
    /// The current record went over the limit: its header, and the bytes dropped.
    over: Option<(Vec<u8>, usize)>,
    /// Bytes of a line too long to keep were dropped; its end is still to come.
    long_line: bool,
    index: usize,
    /// How much the next read asks for.
    block: usize,
    started: bool,
    eof: bool,
    done: bool,
}

impl<R: Read> Chunks<R> {
    pub fn new(reader: R, limits: Limits) -> Chunks<R> {
        Chunks::with_spare(reader, limits, Spare::default())
    }

    /// The records of `reader`, their headers' lists of tags taken from `spare` while
    /// it has some.
    pub fn with_spare(reader: R, limits: Limits, mut spare: Spare) -> Chunks<R> {
        Chunks {
            reader,
            limits,
            line_ends: LineEnds::new(),
            buf: Vec::new(),
            len: 0,
            block: FIRST_BLOCK,
            start: 0,
            scan: 0,
            offset: 0,
            line: 0,
            lines: 0,
            begun: false,
            in_header: false,
            header_end: None,
            header: false,
            by_hand: true,
            tags: TagIndex::in_list(spare.list()),
            header_lines: Vec::with_capacity(16),
            spare,
            over: None,
            long_line: false,
            index: 0,
            started: false,
            eof: false,
            done: false,
        }
    }

    /// Where records handed back leave their lists of tags ([`Spare::keep`]).
    pub fn spare(&mut self) -> &mut Spare {
        &mut self.spare
    }

    /// The lists of tags left, for the stream of the next file.
    pub fn into_spare(self) -> Spare {
        self.spare
    }

    /// Reads another block, first moving the current record to the front of the buffer;
    /// strips a byte-order mark at the start of the stream.
    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.len, 0);
            self.len -= self.start;
            self.scan -= self.start;
            self.header_end = self.header_end.map(|e| e - self.start);
            self.start = 0;
        }
        let at = self.len;
        let end = at + self.block;
        if self.buf.len() < end {
            self.buf.resize(end, 0);
        }
        self.block = (self.block * 2).min(BLOCK);
        let n = loop {
            match self.reader.read(&mut self.buf[at..end]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.len = at + n;
        if n == 0 {
            self.eof = true;
        }
        if !self.started && (self.len >= 3 || self.eof) {
            self.started = true;
            if self.buf[..self.len].starts_with("\u{feff}".as_bytes()) {
                self.buf.copy_within(3..self.len, 0);
                self.len -= 3;
            }
        }
        Ok(())
    }

    /// The end of the line starting at `scan` and the length of its terminator (`\n`,
    /// `\r\n` or a lone `\r`); `None` when more must be read to know.
    fn line_end(&self) -> Option<(usize, usize)> {
        let rest = &self.buf[self.scan..self.len];
        match self.line_ends.find(rest) {
            Some(i) if rest[i] == b'\n' => Some((self.scan + i, 1)),
            Some(i) => match rest.get(i + 1) {
                Some(b'\n') => Some((self.scan + i, 2)),
                Some(_) => Some((self.scan + i, 1)),
                None if self.eof => Some((self.scan + i, 1)),
                None => None,
            },
            None if self.eof && !rest.is_empty() => Some((self.len, 0)),
            None => None,
        }
    }

    /// Takes at once the whole lines from `scan` that hold no `[`, as the loop in `next`
    /// would take them one by one: a tag-pair line starts with `[` after blanks, so none
    /// of them is one, and the record goes on (movetext, mostly). The line that holds
    /// the next `[`, and a last line not yet ended, are left to the loop.
    fn skip_plain_lines(&mut self) {
        let rest = &self.buf[self.scan..self.len];
        let upto = memchr::memchr(b'[', rest).unwrap_or(rest.len());
        // The last line end before `upto`: the lines up to it are whole.
        let Some(t) = memchr::memrchr2(b'\n', b'\r', &rest[..upto]) else {
            return;
        };
        // Nothing after it is a line end before `upto`, so a `\r` there is a lone one,
        // unless it is the last byte read and a `\n` may follow.
        if rest[t] == b'\r' && t + 1 == rest.len() && !self.eof {
            return;
        }
        let skipped = &rest[..t + 1];
        let mut lines = count_newlines(skipped);
        lines += memchr::memchr_iter(b'\r', skipped)
            .filter(|&i| skipped.get(i + 1) != Some(&b'\n'))
            .count();
        self.scan += t + 1;
        self.lines += lines;
        self.in_header = false;
        self.long_line = false;
        self.drop_if_over();
    }

    /// Takes at once the whole lines from `scan` that begin with a byte no tag-pair line
    /// begins with (ASCII, neither blank nor `[`), up to the first line that does not,
    /// as the loop in `next` would take them one by one. Movetext whose turns write `[`
    /// (Thaayam's throws, Halasi's rolls) is taken here: [`Chunks::skip_plain_lines`]
    /// stops at the first `[`. A `\r` stops it: the loop reads such lines.
    fn skip_plain_starts(&mut self) {
        let rest = &self.buf[self.scan..self.len];
        let plain = |b: Option<&u8>| b.is_some_and(|&b| opens_no_tag_line(b));
        if !plain(rest.first()) {
            return;
        }
        let (mut taken, mut lines) = (0, 0);
        while let Some(k) = self.line_ends.find(&rest[taken..]) {
            let i = taken + k;
            if rest[i] == b'\r' {
                break;
            }
            taken = i + 1;
            lines += 1;
            if !plain(rest.get(i + 1)) {
                break;
            }
        }
        if lines == 0 {
            return;
        }
        self.scan += taken;
        self.lines += lines;
        self.in_header = false;
        self.long_line = false;
        self.drop_if_over();
    }

    /// Lines were looked at up to `scan`: over the limit, what was looked at is dropped
    /// before more is read.
    fn drop_if_over(&mut self) {
        if self.over.is_none() && self.scan - self.start > self.limits.max_bytes {
            self.overflow(false);
        }
    }

    /// The record read so far, ended before `buf[end..]`, as a chunk.
    fn take(&mut self, end: usize, several: bool) -> Chunk {
        let bytes = &self.buf[self.start..end];
        let mut size = bytes.len();
        let header = std::mem::take(&mut self.header);
        let text = match self.over.take() {
            Some((header, dropped)) => {
                size += dropped;
                ChunkText::OverLimit {
                    header: String::from_utf8_lossy(&header).into_owned(),
                }
            }
            // Copied once, into the text the chunk and its header share.
            None => match std::str::from_utf8(bytes) {
                Ok(t) => ChunkText::Text(Arc::from(t)),
                Err(e) => {
                    let valid = &bytes[..e.valid_up_to()];
                    ChunkText::NotUtf8 {
                        valid: String::from_utf8_lossy(valid).into_owned(),
                    }
                }
            },
        };
        self.start = end;
        // Only a record read whole, as text, within the limit: `split` reports the rest.
        let record = match (&text, header) {
            (ChunkText::Text(t), true) if t.len() <= self.limits.max_bytes => {
                let mut r = if self.by_hand {
                    // (The next record's tags get a list of their own.)
                    let next = TagIndex::in_list(self.spare.list());
                    let tags = std::mem::replace(&mut self.tags, next);
                    debug_assert!(
                        !tags.is_empty(),
                        "a header begun by hand holds its first tag"
                    );
                    Some(tags_record(t, tags))
                } else {
                    (!self.header_lines.is_empty())
                        .then(|| header_record(t, Some(t), &self.header_lines))
                };
                if let Some(r) = &mut r {
                    end_record(r, t.len());
                }
                r
            }
            _ => None,
        };
        self.header_lines.clear();
        let chunk = Chunk {
            index: self.index,
            text,
            offset: self.offset,
            line: self.line,
            bytes: size,
            several: several || self.index > 0,
            record,
        };
        self.index += 1;
        self.offset += size;
        self.line += self.lines;
        self.lines = 0;
        self.begun = false;
        self.header_end = None;
        chunk
    }

    /// The current record is over the limit: keeps its header (the first time), drops
    /// the lines looked at and, where what is left is the start of one line (`partial`),
    /// drops it too if it is longer than the limit (such a line is no record's start).
    fn overflow(&mut self, partial: bool) {
        let (_, dropped) = self.over.get_or_insert_with(|| {
            // The header lines within the limit, or within `QUOTED` bytes where the
            // limit is smaller: a ruling on the record quotes its first line.
            let header = match self.header_end {
                Some(end) => {
                    let lines = &self.buf[self.start..end];
                    let keep = self.limits.max_bytes.max(QUOTED);
                    if lines.len() <= keep {
                        lines.to_vec()
                    } else {
                        memchr::memrchr(b'\n', &lines[..keep])
                            .map_or_else(Vec::new, |i| lines[..=i].to_vec())
                    }
                }
                None => Vec::new(),
            };
            (header, 0)
        });
        *dropped += self.scan - self.start;
        self.buf.copy_within(self.scan..self.len, 0);
        self.len -= self.scan;
        self.start = 0;
        self.scan = 0;
        if partial && self.len > self.limits.max_bytes {
            // A `\r` last may end the line (unless a `\n` follows): it is kept, so the
            // line is counted where it ends.
            let keep = usize::from(self.buf[self.len - 1] == b'\r');
            *dropped += self.len - keep;
            self.buf.copy_within(self.len - keep..self.len, 0);
            self.len = keep;
            self.long_line = true;
        }
    }
}

/// How many `\n` bytes `bytes` holds, 64 bytes at a time (counted in a byte, which the
/// compiler does with vector compares; one `filter().count()` goes byte by byte).
fn count_newlines(bytes: &[u8]) -> usize {
    let mut blocks = bytes.chunks_exact(64);
    let mut n = 0;
    for block in &mut blocks {
        n += usize::from(block.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>());
    }
    n + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = io::Result<Chunk>;

    fn next(&mut self) -> Option<io::Result<Chunk>> {
        if self.done {
            return None;
        }
        loop {
            // A tag line of the commonest form is read with its end in one pass; any
            // other line the usual way.
            let ahead = if self.long_line {
                None
            } else {
                tag_line_ahead(
                    &self.buf[self.scan..self.len],
                    self.scan - self.start,
                    self.eof,
                )
            };
            if let Some((tag, len, term)) = ahead {
                if !self.tag_line(tag, self.scan + len, term) {
                    let start = self.scan;
                    return Some(Ok(self.take(start, true)));
                }
                continue;
            }
            let from = self.scan;
            self.skip_plain_lines();
            self.skip_plain_starts();
            if self.scan != from && !self.long_line {
                // Lines were taken: the next one (mostly the next record's first tag
                // line) is tried by hand first, as any line is.
                continue;
            }
            let Some((end, term)) = self.line_end() else {
                if self.eof {
                    self.done = true;
                    // The last record; an empty stream is one empty chunk.
                    if self.len == self.start && self.over.is_none() && self.index > 0 {
                        return None;
                    }
                    let len = self.len;
                    self.scan = len;
                    return Some(Ok(self.take(len, false)));
                }
                // No whole line is left: what follows `scan` is the start of one line.
                let max = self.limits.max_bytes;
                let record = self.scan - self.start;
                if self.over.is_some() || record > max || self.len - self.scan > max {
                    self.overflow(true);
                }
                if let Err(e) = self.fill() {
                    self.done = true;
                    return Some(Err(e));
                }
                continue;
            };
            let tag = if self.long_line {
                None
            } else {
                tag_line_at(&self.buf[self.scan..end], self.scan - self.start)
            };
            self.long_line = false;
            match tag {
                Some(tag) => {
                    if !self.tag_line(tag, end, term) {
                        let start = self.scan;
                        return Some(Ok(self.take(start, true)));
                    }
                }
                None => {
                    self.in_header = false;
                    self.scan = end + term;
                    self.lines += 1;
                    self.drop_if_over();
                }
            }
        }
    }
}

impl<R: Read> Chunks<R> {
    /// The line at `scan`, ending at `end` with a terminator of `term` bytes, is the
    /// tag-pair line `tag`: a line of the record's header, which `split` would read the
    /// same, taken; or, after movetext, the next record's first line, left for it
    /// (`false`). (Once a header line: inlined.)
    #[inline(always)]
    fn tag_line(&mut self, tag: TagAt, end: usize, term: usize) -> bool {
        self.long_line = false;
        if !self.in_header && self.begun {
            return false;
        }
        if !self.begun {
            self.header = self.scan == self.start;
            self.header_lines.clear();
            self.by_hand = true;
            self.tags.clear(TAGS);
        }
        if self.header {
            let indexed = match &tag {
                TagAt::Fast { line, name, value } if self.by_hand && self.over.is_none() => {
                    let text = &self.buf[self.start..];
                    self.tags.push(text, *name, *value, *line, *value)
                }
                _ => false,
            };
            if !indexed {
                self.by_lines();
                self.header_lines.push(tag);
            }
        }
        self.begun = true;
        if self.header_end.is_none_or(|e| e == self.scan) {
            self.header_end = Some(end + term);
        }
        self.in_header = true;
        self.scan = end + term;
        self.lines += 1;
        self.drop_if_over();
        true
    }

    /// The header so far from now on as lines: the tags indexed, then the lines after.
    fn by_lines(&mut self) {
        if self.by_hand {
            self.by_hand = false;
            let lines = self.tags.lines();
            let tags = lines.map(|(line, name, value)| TagAt::Fast { line, name, value });
            self.header_lines.extend(tags);
            self.tags.clear(TAGS);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::notation::record::split;

    /// A reader that hands out at most `step` bytes at a time.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn chunks(data: &[u8], step: usize, limits: Limits) -> Vec<Chunk> {
        Chunks::new(Trickle { data, step }, limits)
            .collect::<io::Result<Vec<_>>>()
            .expect("no I/O error")
    }

    /// The 0-based line on which a byte offset sits.
    fn line_of(text: &str, offset: usize) -> usize {
        let b = &text.as_bytes()[..offset];
        (0..b.len())
            .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
            .count()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// Streamed in pieces of any size, a file comes out as the records `split` cuts
        /// it into, each at its offset and line, and nothing is lost.
        #[test]
        fn streamed_records_are_split_records(
            lines in prop::collection::vec((prop::sample::select(vec![
                "[Game \"halatafl\"]", "[Event \"x\"]", " [A \"b\\\"\"]", "1. e3-d4", "",
                "{ [Game \"x\"] }", "[3] -", "[Bad", "*", "2. [1 4] enter, c1+4",
                "\t[Event \"t\"]", "\u{a0}[A \"n\"]", "é [3] -",
            ]), prop::sample::select(vec!["\n", "\r\n", "\r"])), 0..14),
            bom in any::<bool>(),
            step in 1usize..9,
            max in prop::option::of(20usize..120),
        ) {
            let text: String = lines.iter().map(|(l, t)| format!("{l}{t}")).collect();
            let data = if bom { format!("\u{feff}{text}") } else { text.clone() };
            let limits = Limits { max_bytes: max.unwrap_or(64 << 20), ..Limits::default() };
            let got = chunks(data.as_bytes(), step, limits);
            let file = split(&text, &Limits::default());
            prop_assert_eq!(got.len(), file.records.len().max(1));
            let mut joined = String::new();
            for (i, c) in got.iter().enumerate() {
                prop_assert_eq!(c.index, i);
                prop_assert_eq!(c.several, got.len() > 1);
                let start = if i == 0 { 0 } else { file.records[i].span.start };
                prop_assert_eq!(c.offset, start);
                prop_assert_eq!(c.line, line_of(&text, start));
                let end = file.records.get(i + 1).map_or(text.len(), |r| r.span.start);
                prop_assert_eq!(c.bytes, end - start);
                // A record read whole is the one `split` reads in its text.
                if let Some(record) = &c.record {
                    let own = split(c.text.as_str(), &limits);
                    prop_assert!(own.errors.is_empty());
                    prop_assert_eq!(own.records.len(), 1);
                    prop_assert_eq!(record, &own.records[0]);
                }
                if i > 0 && c.bytes <= limits.max_bytes {
                    prop_assert!(c.record.is_some(), "{:?}", c);
                }
                match &c.text {
                    ChunkText::Text(t) if c.bytes <= limits.max_bytes => joined.push_str(t),
                    ChunkText::OverLimit { header } if c.bytes > limits.max_bytes => {
                        prop_assert!(text[start..].starts_with(header.as_str()));
                        joined.push_str(&text[start..end]);
                    }
                    other => prop_assert!(false, "{:?}", other),
                }
            }
            prop_assert_eq!(joined, text);
        }
    }

    #[test]
    fn a_record_over_the_limit_keeps_its_header_and_the_next_record_is_read() {
        let limits = Limits {
            max_bytes: 60,
            ..Limits::default()
        };
        let long = "1. e3-d4 ".repeat(20);
        let text = format!(
            "[Game \"halatafl\"]\n[Event \"a\"]\n\n{long}\n{long}\n[Game \"halatafl\"]\n\n1. e3-d4\n"
        );
        for step in [1, 7, 4096] {
            let got = chunks(text.as_bytes(), step, limits);
            assert_eq!(got.len(), 2, "{got:?}");
            assert_eq!(
                got[0].text,
                ChunkText::OverLimit {
                    header: "[Game \"halatafl\"]\n[Event \"a\"]\n".into(),
                }
            );
            assert_eq!(
                got[0].bytes,
                text.find("[Game \"halatafl\"]\n\n1.").unwrap()
            );
            assert_eq!(got[1].offset, got[0].bytes);
            assert_eq!(got[1].line, 5);
            assert_eq!(
                got[1].text,
                ChunkText::Text("[Game \"halatafl\"]\n\n1. e3-d4\n".into())
            );
        }
    }

    #[test]
    fn a_line_longer_than_the_limit_is_dropped_as_it_comes() {
        let limits = Limits {
            max_bytes: 100,
            ..Limits::default()
        };
        let text = format!("[Game \"x\"]\n\n{}\n[Game \"y\"]\n", "a".repeat(1000));
        let got = chunks(text.as_bytes(), 3, limits);
        assert_eq!(got.len(), 2);
        assert!(matches!(&got[0].text, ChunkText::OverLimit { .. }));
        assert_eq!(got[0].bytes, 1013);
        assert_eq!(got[1].text, ChunkText::Text("[Game \"y\"]\n".into()));
    }

    #[test]
    fn invalid_utf8_is_kept_up_to_the_bad_byte_in_its_record_only() {
        let data = b"[Game \"a\"]\n\n1. \xff\n[Game \"b\"]\n";
        let got = chunks(data, 5, Limits::default());
        assert_eq!(
            got[0].text,
            ChunkText::NotUtf8 {
                valid: "[Game \"a\"]\n\n1. ".into()
            }
        );
        assert_eq!(got[1].text, ChunkText::Text("[Game \"b\"]\n".into()));
        assert_eq!((got[1].offset, got[1].line), (17, 3));
    }

    /// A header read by hand shares its record's text and its tags are the ones the
    /// record is asked for; a header with an escaped value, or a tag written twice, is
    /// built the general way, and says the same as `split` does.
    #[test]
    fn a_header_read_by_hand_shares_the_record_text_and_others_are_built_apart() {
        let plain = "[Game \"halves\"]\n[Seed \"s\"]\n[Round \"1\"]\n\n1. keep\n";
        let escaped = "[Game \"halves\"]\n[Event \"a \\\"b\\\"\"]\n\n1. keep\n";
        let twice = "[Game \"halves\"]\n[Round \"1\"]\n[Round \"2\"]\n\n1. keep\n";
        for step in [1, 4096] {
            let got = chunks(plain.as_bytes(), step, Limits::default());
            let ChunkText::Text(text) = &got[0].text else {
                panic!("{:?}", got[0].text);
            };
            let record = got[0].record.as_ref().expect("read whole");
            assert_eq!(Arc::strong_count(text), 2, "the header shares the text");
            assert_eq!(record.header.value("Seed"), Some("s"));
            assert_eq!(record.header.value("Round"), Some("1"));
            assert_eq!(record.header.value("Event"), None);
            assert_eq!(record, &split(plain, &Limits::default()).records[0]);
            let got = chunks(escaped.as_bytes(), step, Limits::default());
            let record = got[0].record.as_ref().expect("read whole");
            assert_eq!(record.header.value("Event"), Some("a \"b\""));
            assert_eq!(record, &split(escaped, &Limits::default()).records[0]);
            let got = chunks(twice.as_bytes(), step, Limits::default());
            let record = got[0].record.as_ref().expect("read whole");
            assert_eq!(record.header.value("Round"), Some("1"));
            assert_eq!(record.header_errors.len(), 1, "{:?}", record.header_errors);
            assert_eq!(record, &split(twice, &Limits::default()).records[0]);
        }
    }

    /// Records handed back leave their lists of tags; a stream given them reads the
    /// same records as one without, its headers in those lists, and leaves the rest.
    #[test]
    fn records_handed_back_leave_their_lists_to_the_next_headers() {
        let text = "[Game \"halves\"]\n[Seed \"a\"]\n\n1. keep\n\n\
                    [Game \"halves\"]\n[Event \"e \\\"q\\\"\"]\n\n1. keep\n\n\
                    [Game \"halves\"]\n[Round \"1\"]\n\n1. keep\n";
        let fresh = chunks(text.as_bytes(), 4096, Limits::default());
        assert_eq!(fresh.len(), 3);
        let mut spare = Spare::default();
        let mut lists = Vec::new();
        for _ in 0..2 {
            for mut c in chunks(text.as_bytes(), 4096, Limits::default()) {
                let record = c.record.as_mut().expect("read whole");
                spare.keep(record);
                assert_eq!(record.header.tags().count(), 0, "left with no tag");
                assert_eq!(record.header.value("Game"), None);
                lists.push(spare.lists.last().map(|l| (l.as_ptr(), l.capacity())));
            }
        }
        assert_eq!(spare.lists.len(), 6);
        assert!(spare.lists.iter().all(|l| l.is_empty() && l.capacity() > 0));
        let mut stream = Chunks::with_spare(text.as_bytes(), Limits::default(), spare);
        let again: Vec<Chunk> = stream.by_ref().map(Result::unwrap).collect();
        assert_eq!(again, fresh);
        let left = stream.into_spare();
        // A list for the first header, and one after each header read by hand (the
        // second, with an escape, is read the general way in a list of its own).
        assert_eq!(left.lists.len(), 3);
        // The first header is in the last list kept (a list kept from a header read
        // the general way is only as long as its tags, and may grow elsewhere).
        let list = &again[0].record.as_ref().unwrap().header.index.slots;
        assert_eq!(lists.last(), Some(&Some((list.as_ptr(), list.capacity()))));
        // No more are kept than the most.
        let mut full = Spare {
            lists: vec![Vec::new(); Spare::MOST],
        };
        let mut record = fresh[0].record.clone().unwrap();
        full.keep(&mut record);
        assert_eq!(full.lists.len(), Spare::MOST);
    }

    #[test]
    fn an_empty_stream_is_one_empty_record() {
        let got = chunks(b"", 1, Limits::default());
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].text, ChunkText::Text("".into()));
    }
}
