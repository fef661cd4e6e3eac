//! `play`'s input lines, read one at a time with a cap, so that one endless line cannot
//! fill the memory.

use std::io::{self, BufRead};

/// Bytes a `play` input line may have beyond the longest turn (`--max-turn-bytes`): its
/// number and spaces around it.
pub(super) const LINE_SLACK: usize = 1024;

/// One input line of `play`.
#[derive(Debug, PartialEq)]
pub(super) enum Line {
    /// The line without its `\n` or `\r\n`.
    Text(String),
    /// A line longer than the cap, of this many bytes (its end of line not counted),
    /// read through and dropped.
    TooLong(usize),
    /// A line that is not UTF-8 text: the offset of its first byte that is not part of
    /// a character, and that byte.
    NotUtf8 { at: usize, byte: u8 },
}

/// Reads the next line of `input` as `BufRead::lines` would (`None` at the end), except
/// that a line over `cap` bytes is not kept: it is read to its end and reported by its
/// length, so one endless line cannot fill the memory; and a line that is not UTF-8 is
/// reported as such, so the session answers it and goes on. `buf` is reused from line to
/// line.
pub(super) fn read_line_bounded(
    input: &mut dyn BufRead,
    cap: usize,
    buf: &mut Vec<u8>,
) -> io::Result<Option<Line>> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match memchr::memchr(b'\n', chunk) {
            Some(i) => (&chunk[..i], i + 1),
            None => (chunk, chunk.len()),
        };
        let ends = done > part.len();
        len += part.len();
        if len <= cap.saturating_add(1) {
            buf.extend_from_slice(part);
        }
        input.consume(done);
        if ends {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    // `lines` strips one `\r` before the `\n`.
    if buf.last() == Some(&b'\r') && len <= cap.saturating_add(1) {
        buf.pop();
        len -= 1;
    }
    if len > cap {
        return Ok(Some(Line::TooLong(len)));
    }
    match std::str::from_utf8(buf) {
        Ok(text) => Ok(Some(Line::Text(text.to_string()))),
        Err(e) => Ok(Some(Line::NotUtf8 {
            at: e.valid_up_to(),
            byte: buf[e.valid_up_to()],
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::{read_line_bounded, Line};
    use std::io::{BufReader, Cursor};

    /// Every line of `text` read with a `cap`, through a buffer of `chunk` bytes (so
    /// lines cross buffer refills).
    fn lines(text: &[u8], cap: usize, chunk: usize) -> Vec<Result<Line, String>> {
        let mut input = BufReader::with_capacity(chunk, Cursor::new(text.to_vec()));
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line_bounded(&mut input, cap, &mut buf) {
                Ok(None) => return out,
                Ok(Some(l)) => out.push(Ok(l)),
                Err(e) => {
                    out.push(Err(e.to_string()));
                    return out;
                }
            }
        }
    }

    #[test]
    fn lines_as_bufread_lines_reads_them() {
        let text = b"e3-d4\r\n\n:show\r\nlast";
        for chunk in [1, 2, 3, 7, 64] {
            let expected: Vec<Result<Line, String>> = std::io::BufRead::lines(&text[..])
                .map(|l| Ok(Line::Text(l.unwrap())))
                .collect();
            assert_eq!(lines(text, 100, chunk), expected, "chunk {chunk}");
        }
        assert!(lines(b"", 100, 8).is_empty());
    }

    #[test]
    fn a_line_over_the_cap_is_reported_by_length_and_skipped() {
        let mut text = vec![b'e'; 10_000];
        text.extend_from_slice(b"\n:quit\n");
        for chunk in [3, 64, 8192] {
            assert_eq!(
                lines(&text, 100, chunk),
                vec![Ok(Line::TooLong(10_000)), Ok(Line::Text(":quit".into()))]
            );
        }
        // The cap itself is allowed; one byte more is not; a `\r\n` does not count.
        assert_eq!(lines(b"abcd\n", 4, 2), vec![Ok(Line::Text("abcd".into()))]);
        assert_eq!(
            lines(b"abcd\r\n", 4, 2),
            vec![Ok(Line::Text("abcd".into()))]
        );
        assert_eq!(lines(b"abcde\n", 4, 2), vec![Ok(Line::TooLong(5))]);
        // An endless line without a newline at the end of input.
        assert_eq!(lines(&[b'x'; 5000], 10, 16), vec![Ok(Line::TooLong(5000))]);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_reading_goes_on() {
        let got = lines(b"ok\nab\xff\xfe\n:quit\n", 100, 4);
        assert_eq!(
            got,
            vec![
                Ok(Line::Text("ok".into())),
                Ok(Line::NotUtf8 { at: 2, byte: 0xff }),
                Ok(Line::Text(":quit".into())),
            ]
        );
    }
}
