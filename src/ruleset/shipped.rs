//! The rulesets shipped in `rulesets/`, built into the binary by `build.rs`. Each is
//! kept as text and parsed only when asked for.

include!(concat!(env!("OUT_DIR"), "/shipped_rulesets.rs"));

/// The text of a shipped ruleset.
pub fn get(name: &str) -> Option<&'static str> {
    SHIPPED
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| SHIPPED[i].1)
}

/// The names of the shipped rulesets, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n)
}

/// How a shipped ruleset's file is displayed: `rulesets/halatafl.rules`.
pub fn display_path(name: &str) -> String {
    format!("rulesets/{name}.rules")
}
