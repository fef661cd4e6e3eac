//! The tags the referee reads, and the near-misses of them: a record's tag that is not
//! one of them but differs from one only in case or by a slip of the keyboard
//! (`[Option …]`, `[options …]`, `[Frist …]`) would otherwise be ignored in silence,
//! as every unknown tag is, and the record judged under rules its writer did not mean.

use super::{Diagnostic, ErrorKind};
use crate::games::Game;
use crate::notation::record::{Header, Span, Tag};
use crate::quote::quote;
use crate::ruleset::error::suggest;

/// The tags every game's records give a meaning to (`record.md`), besides the seats'.
const COMMON: [&str; 14] = [
    "Game",
    "Ruleset",
    "Options",
    "Seats",
    "Seed",
    "SeedCommit",
    "Setup",
    "Result",
    "Termination",
    "Event",
    "Site",
    "Date",
    "Round",
    "Annotator",
];

/// Whether `name` is one of [`COMMON`]: a `match` on the names, which compares a
/// name's length before its bytes, where a search of the list compares it with each.
#[inline(always)]
fn is_common(name: &str) -> bool {
    matches!(
        name,
        "Game"
            | "Ruleset"
            | "Options"
            | "Seats"
            | "Seed"
            | "SeedCommit"
            | "Setup"
            | "Result"
            | "Termination"
            | "Event"
            | "Site"
            | "Date"
            | "Round"
            | "Annotator"
    )
}

/// Whether `name` is a tag the referee reads for `G`: most tags are, found without
/// building the list of all.
#[inline(always)]
fn is_known<G: Game>(name: &str) -> bool {
    is_common(name) || G::TAGS.contains(&name) || G::SEATS.iter().any(|s| is_capitalised(name, s))
}

/// The tag a record's tag name was most likely meant to be, if it is not a tag the
/// referee reads for game `G` itself: the same name in another case, or one within the
/// distance of a misspelling. (Cold, apart: a header's loop over its names asks it only
/// of a name that is not known, and stays small.)
#[cold]
#[inline(never)]
pub fn meant<G: Game>(name: &str) -> Option<String> {
    if is_known::<G>(name) {
        return None;
    }
    let mut known: Vec<String> = COMMON.iter().map(|t| t.to_string()).collect();
    known.extend(G::TAGS.iter().map(|t| t.to_string()));
    known.extend(G::SEATS.iter().map(|s| capitalised(s)));
    if let Some(k) = known.iter().find(|k| k.eq_ignore_ascii_case(name)) {
        return Some(k.clone());
    }
    suggest(name, known.iter().map(String::as_str))
}

/// Whether `name` is `seat` capitalised (`North` for `north`).
fn is_capitalised(name: &str, seat: &str) -> bool {
    let (n, s) = (name.as_bytes(), seat.as_bytes());
    n.len() == s.len() && !n.is_empty() && n[0] == s[0].to_ascii_uppercase() && n[1..] == s[1..]
}

/// `north` as its tag is written: `North`.
pub fn capitalised(seat: &str) -> String {
    let mut s = seat.to_string();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

/// A diagnostic for each tag of `header` that is a near-miss of a tag the referee reads,
/// pointing at its name.
pub fn near_misses<G: Game>(text: &str, header: &Header) -> Vec<Diagnostic> {
    // Names first: a tag is looked at whole only where it is a near-miss.
    let mut out = Vec::new();
    for (i, name) in header.names().enumerate() {
        if !is_known::<G>(name) {
            if let Some(meant) = meant::<G>(name) {
                out.extend(
                    header
                        .tags()
                        .nth(i)
                        .map(|tag| near_miss(text, &tag, &meant)),
                );
            }
        }
    }
    out
}

/// The warning on `tag`, a near-miss of the tag `meant`.
#[cold]
fn near_miss(text: &str, tag: &Tag<'_>, meant: &str) -> Diagnostic {
    let mut d = Diagnostic::new(
        ErrorKind::Header,
        Some(name_span(text, tag)),
        format!(
            "`{}` is not a tag the referee reads, so it is ignored; did you mean `{meant}`?",
            quote(tag.name)
        ),
    );
    d.hint = Some(format!(
        "tag names are matched exactly, case included: write [{meant} \"{}\"]",
        quote(tag.value)
    ));
    d
}

/// The span of a tag's name in `text`: its first occurrence in the tag's line (the
/// name comes first, after `[` and any blanks).
fn name_span(text: &str, tag: &Tag<'_>) -> Span {
    let line = &text[tag.span.start..tag.span.end];
    match line.find(tag.name) {
        Some(at) => Span::new(tag.span.start + at, tag.span.start + at + tag.name.len()),
        None => tag.span,
    }
}

#[cfg(test)]
mod tests {
    use super::{is_common, meant, COMMON};
    use crate::games::halatafl::Halatafl;
    use crate::games::thaayam::Thaayam;

    /// The `match` and the list name the same tags.
    #[test]
    fn the_common_tags_are_the_list() {
        for t in COMMON {
            assert!(is_common(t), "{t}");
            assert!(!is_common(&t.to_lowercase()), "{t}");
            assert!(!is_common(&t[1..]), "{t}");
        }
        for t in ["First", "White", "Black", "", "Gam", "Games", "SeedCommi"] {
            assert!(!is_common(t), "{t}");
        }
    }

    #[test]
    fn known_tags_are_not_near_misses() {
        for t in [
            "Game",
            "Ruleset",
            "Options",
            "Seed",
            "SeedCommit",
            "Result",
            "White",
        ] {
            assert_eq!(meant::<Halatafl>(t), None, "{t}");
        }
        assert_eq!(meant::<Thaayam>("First"), None);
        assert_eq!(meant::<Thaayam>("North"), None);
        // Tags nobody misspelt: PGN's own, and names far from every known one.
        for t in ["WhiteElo", "TimeControl", "PlyCount", "Opening", "X"] {
            assert_eq!(meant::<Halatafl>(t), None, "{t}");
        }
    }

    #[test]
    fn case_and_slips_are_near_misses() {
        let cases = [
            ("Option", "Options"),
            ("options", "Options"),
            ("OPTIONS", "Options"),
            ("ruleset", "Ruleset"),
            ("Seeed", "Seed"),
            ("Reslut", "Result"),
            ("white", "White"),
            ("Setpu", "Setup"),
        ];
        for (written, meant_) in cases {
            assert_eq!(
                meant::<Halatafl>(written).as_deref(),
                Some(meant_),
                "{written}"
            );
        }
        assert_eq!(meant::<Thaayam>("Frist").as_deref(), Some("First"));
        assert_eq!(meant::<Thaayam>("first").as_deref(), Some("First"));
        // `First` is Thaayam's: in Halatafl it is just an unknown tag.
        assert_eq!(meant::<Halatafl>("First"), None);
    }
}
