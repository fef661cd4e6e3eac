//! How a message quotes what the user wrote: a bad token, a tag's value, a setup string,
//! an unknown name. Every message that quotes input goes through [`quote`], so a huge or
//! hostile quote can neither flood the output (text or JSON) nor reach the terminal raw:
//!
//! - at most [`MAX_QUOTE`] characters, and as many terminal columns, are shown (a wide
//!   character counts twice); a longer quote keeps its start and ends in `…`;
//! - control characters (NUL, CR, LF, ESC, …) and the invisible characters that reorder
//!   or hide text (bidirectional overrides, zero-width spaces, a byte-order mark) are
//!   written escaped, as Rust writes them (`\u{0}`, `\r`, `\u{1b}`, `\u{202e}`).
//!
//! Short, printable text is shown as it is.

use std::fmt;

/// The most characters (and columns) a quote shows, the `…` included.
pub const MAX_QUOTE: usize = 32;

/// `text` as a message quotes it (see the module's documentation). The quote marks are
/// the caller's: ``format!("unknown game `{}`", quote(name))``.
pub fn quote(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// A quote of user text, clipped and escaped when displayed.
#[derive(Copy, Clone, Debug)]
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0;
        // Does it all fit? Counted up to one past the limit, never over the whole text.
        let mut total = 0;
        for c in text.chars() {
            total += shown_len(c);
            if total > MAX_QUOTE {
                break;
            }
        }
        if total <= MAX_QUOTE {
            return text.chars().try_for_each(|c| write_char(f, c));
        }
        let mut shown = 0;
        for c in text.chars() {
            let n = shown_len(c);
            if shown + n > MAX_QUOTE - 1 {
                break;
            }
            write_char(f, c)?;
            shown += n;
        }
        f.write_str("…")
    }
}

/// Whether `c` is written escaped: a control character, or one that reorders or hides
/// text (the "Trojan source" characters, zero-width ones, a byte-order mark).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// The room `c` takes as shown: its escape's length, or its width on a terminal (at
/// least 1, so a quote of zero-width characters is bounded too).
fn shown_len(c: char) -> usize {
    if is_hidden(c) {
        c.escape_default().len()
    } else {
        unicode_width::UnicodeWidthChar::width(c)
            .unwrap_or(1)
            .max(1)
    }
}

fn write_char(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    if is_hidden(c) {
        write!(f, "{}", c.escape_default())
    } else {
        fmt::Write::write_char(f, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_printable_text_is_unchanged() {
        for s in [
            "",
            "halatafl",
            "e3-d4",
            "white: (0,0) (1,0); to-move: red",
            "ä→中",
        ] {
            assert_eq!(quote(s).to_string(), s);
        }
    }

    #[test]
    fn exactly_the_limit_is_not_clipped() {
        let s = "a".repeat(MAX_QUOTE);
        assert_eq!(quote(&s).to_string(), s);
    }

    #[test]
    fn long_text_keeps_its_start_and_ends_in_an_ellipsis() {
        let s = "b".repeat(MAX_QUOTE + 1);
        let q = quote(&s).to_string();
        assert_eq!(q.chars().count(), MAX_QUOTE);
        assert_eq!(q, format!("{}…", "b".repeat(MAX_QUOTE - 1)));
        let huge = "x".repeat(1 << 20);
        assert_eq!(quote(&huge).to_string().chars().count(), MAX_QUOTE);
    }

    #[test]
    fn multi_byte_text_is_clipped_on_characters_and_columns() {
        let s = "é中😀".repeat(100);
        let q = quote(&s).to_string();
        assert!(q.ends_with('…'));
        assert!(s.starts_with(q.trim_end_matches('…')));
        // é takes one column, 中 and 😀 two each: the quote stops where the next would
        // not fit.
        let width = unicode_width::UnicodeWidthStr::width(q.as_str());
        assert!((MAX_QUOTE - 2..=MAX_QUOTE).contains(&width), "{width}");
        assert!(q.chars().count() < MAX_QUOTE);
        // Combining marks take no column, but count as one each.
        let marks = "e\u{301}".repeat(100);
        assert!(quote(&marks).to_string().chars().count() <= MAX_QUOTE);
    }

    #[test]
    fn control_and_hidden_characters_are_escaped() {
        assert_eq!(quote("a\0b").to_string(), "a\\u{0}b");
        assert_eq!(quote("a\r\nb").to_string(), "a\\r\\nb");
        assert_eq!(quote("\u{1b}[31m").to_string(), "\\u{1b}[31m");
        assert_eq!(
            quote("\u{feff}x\u{202e}").to_string(),
            "\\u{feff}x\\u{202e}"
        );
        // Escapes count towards the limit.
        let s = "\0".repeat(100);
        let q = quote(&s).to_string();
        assert!(q.chars().count() <= MAX_QUOTE, "{q}");
        assert!(q.ends_with('…'));
    }
}
