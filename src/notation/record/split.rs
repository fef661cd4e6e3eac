//! Cutting a file into records and parsing each header.

use pest::Parser;

use super::{
    File, FrameParser, Header, Limits, RawRecord, Rule, Span, SyntaxError, SyntaxKind, Tag,
};

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
