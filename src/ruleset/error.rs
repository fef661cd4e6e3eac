//! Errors of the ruleset layer and the "did you mean" suggestions they carry.

use std::fmt;

/// An error in a ruleset file, a `--option`, or a record's `Options` tag: where it is
/// (file as displayed, 1-based line and column), what was wrong and what was expected,
/// and a suggestion when a misspelt name is close to a known one.
///
/// An error that belongs to no file (a ruleset name that cannot be found at all) has an
/// empty `file` and line 0; its `Display` is then the message alone. Callers that know
/// better (a record's `Ruleset` tag) can move it with [`RulesetError::at`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetError {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The close match the message suggests (`free-edges`), without decoration.
    pub suggestion: Option<String>,
}

impl RulesetError {
    pub fn new(file: &str, line: u32, column: u32, message: impl Into<String>) -> RulesetError {
        RulesetError {
            file: file.to_string(),
            line,
            column,
            message: message.into(),
            suggestion: None,
        }
    }

    /// An error that belongs to no file.
    pub fn general(message: impl Into<String>) -> RulesetError {
        RulesetError::new("", 0, 0, message)
    }

    pub fn with_suggestion(mut self, suggestion: Option<String>) -> RulesetError {
        self.suggestion = suggestion;
        self
    }

    /// The same error, placed at another file, line and column.
    pub fn at(mut self, file: &str, line: u32, column: u32) -> RulesetError {
        self.file = file.to_string();
        self.line = line;
        self.column = column;
        self
    }
}

impl RulesetError {
    /// What is wrong and the suggestion, without the place: for a diagnostic that points
    /// at the place itself.
    pub fn what(&self) -> String {
        match &self.suggestion {
            Some(s) => format!("{}; did you mean `{s}`?", self.message),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            if self.line > 0 {
                write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
            } else {
                write!(f, "{}: ", self.file)?;
            }
        }
        f.write_str(&self.what())
    }
}

impl std::error::Error for RulesetError {}

/// The candidate closest to `word`, if it is close enough to be a plausible misspelling:
/// a Damerau–Levenshtein distance of at most a third of the longer length (so nothing
/// is suggested for words of one or two letters, and unrelated words are left alone).
pub fn suggest<'a, I>(word: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut best: Option<(usize, &str)> = None;
    let len = word.chars().count();
    for c in candidates {
        if c == word {
            continue;
        }
        let limit = len.max(c.chars().count()) / 3;
        // The distance is at least the difference in length: a word too long or too
        // short to be within the limit is not compared (a huge word would cost its
        // length times the candidate's in time and memory).
        if len.abs_diff(c.chars().count()) > limit {
            continue;
        }
        let d = strsim::damerau_levenshtein(word, c);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// `a`, `b` or `c` — a list of words for an "expected" message.
pub(crate) fn one_of<'a, I>(items: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let items: Vec<String> = items.into_iter().map(|i| format!("`{i}`")).collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// `a`, `b` and `c` — every item of a list, for a message.
pub(crate) fn all_of<'a, I>(items: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let items: Vec<String> = items.into_iter().map(|i| format!("`{i}`")).collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// `a, b or c` for phrases already quoted or described.
pub(crate) fn one_of_plain(items: &[&str]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].to_string(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let keys = ["free-edges", "diagonals", "emperor", "win"];
        assert_eq!(
            suggest("free-edge", keys).as_deref(),
            Some("free-edges"),
            "one letter missing"
        );
        assert_eq!(suggest("diagnoals", keys).as_deref(), Some("diagonals"));
        assert_eq!(suggest("emprer", keys).as_deref(), Some("emperor"));
        assert_eq!(suggest("xy", keys), None, "too short to guess");
        assert_eq!(suggest("wn", keys).as_deref(), Some("win"));
        assert_eq!(suggest("promotion", keys), None, "nothing close");
        assert_eq!(
            suggest(&"e".repeat(1 << 24), keys),
            None,
            "a huge word, at once"
        );
        assert_eq!(suggest("emperorrr", keys).as_deref(), Some("emperor"));
        assert_eq!(suggest("emperorrrrr", keys), None, "four letters too many");
        assert_eq!(
            suggest("emperor", keys),
            None,
            "an exact match is no suggestion"
        );
    }

    #[test]
    fn display_with_and_without_location() {
        let e = RulesetError::new("rulesets/x.rules", 7, 5, "unknown setting `free-edge`")
            .with_suggestion(Some("free-edges".into()));
        assert_eq!(
            e.to_string(),
            "rulesets/x.rules:7:5: unknown setting `free-edge`; did you mean `free-edges`?"
        );
        assert_eq!(
            RulesetError::general("no ruleset named `x`").to_string(),
            "no ruleset named `x`"
        );
        assert_eq!(one_of(["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(one_of(["a"]), "`a`");
    }
}
