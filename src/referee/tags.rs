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

/// A tag name as a game's table of the tags it reads holds it ([`known`]): its length,
/// and its bytes as two words ([`words`]), so that a name is compared without a call.
#[derive(Copy, Clone)]
struct Entry {
    len: u8,
    words: (u64, u64),
}

/// The bytes of a name as two words, whatever its length up to 16: its first and last
/// eight bytes from 8 bytes on, its first and last four from 4, its first, middle and
/// last byte below. Two names of the same length are equal where their words are.
#[inline(always)]
const fn words(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    // (A chunk of a slice's first or last bytes is one load.)
    const fn le8(b: Option<&[u8; 8]>) -> u64 {
        u64::from_le_bytes(*b.unwrap())
    }
    const fn le4(b: Option<&[u8; 4]>) -> u64 {
        u32::from_le_bytes(*b.unwrap()) as u64
    }
    if n >= 8 {
        (le8(b.first_chunk()), le8(b.last_chunk()))
    } else if n >= 4 {
        (le4(b.first_chunk()), le4(b.last_chunk()))
    } else if n > 0 {
        (
            b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16,
            0,
        )
    } else {
        (0, 0)
    }
}

/// A hash of a tag name in `0..64`, from its length and its first and last bytes. It
/// keeps apart the names each game reads: two of them with one hash fail the build.
#[inline(always)]
const fn hash(b: &[u8]) -> usize {
    match b {
        [] => 0,
        [first, ..] => (b.len() + *first as usize * 4 + b[b.len() - 1] as usize * 6) & 63,
    }
}

/// The longest tag name the table may hold.
const LONGEST: usize = 16;

/// The tags a game reads (`COMMON`, its own, its seats' capitalised), by [`hash`]: a
/// name is one of them where it is the one of its hash. (An entry no tag fills has the
/// length 0, which only the empty name has, and [`is_known`] refuses that.)
const fn known(own: &[&str], seats: &[&str]) -> [Entry; 64] {
    let mut table = [Entry {
        len: 0,
        words: (0, 0),
    }; 64];
    let mut buf = [0u8; LONGEST];
    let mut i = 0;
    while i < COMMON.len() + own.len() + seats.len() {
        let (name, seat) = if i < COMMON.len() {
            (COMMON[i].as_bytes(), false)
        } else if i < COMMON.len() + own.len() {
            (own[i - COMMON.len()].as_bytes(), false)
        } else {
            (seats[i - COMMON.len() - own.len()].as_bytes(), true)
        };
        assert!(
            !name.is_empty() && name.len() <= LONGEST,
            "a tag name of 1 to 16 bytes"
        );
        let mut k = 0;
        while k < name.len() {
            buf[k] = name[k];
            k += 1;
        }
        if seat {
            buf[0] = buf[0].to_ascii_uppercase();
        }
        let (name, _) = buf.split_at(name.len());
        let h = hash(name);
        assert!(table[h].len == 0, "two tags the referee reads share a hash");
        table[h] = Entry {
            len: name.len() as u8,
            words: words(name),
        };
        i += 1;
    }
    table
}

/// The table of [`known`] of each game, made when the game is built (a reference, so
/// that the table lies in the binary once, and a look-up reads one entry of it).
trait KnownTags: Game {
    const KNOWN: &'static [Entry; 64] = &known(Self::TAGS, Self::SEATS);
}

impl<G: Game> KnownTags for G {}

/// Whether `name` is a tag the referee reads for `G`: one look in the game's table, and
/// one comparison.
#[inline(always)]
fn is_known<G: Game>(b: &[u8]) -> bool {
    let e = &<G as KnownTags>::KNOWN[hash(b)];
    usize::from(e.len) == b.len() && !b.is_empty() && words(b) == e.words
}

/// The tag a record's tag name was most likely meant to be, if it is not a tag the
/// referee reads for game `G` itself: the same name in another case, or one within the
/// distance of a misspelling. (Cold, apart: a header's loop over its names asks it only
/// of a name that is not known, and stays small.)
#[cold]
#[inline(never)]
pub fn meant<G: Game>(name: &str) -> Option<String> {
    if is_known::<G>(name.as_bytes()) {
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
            let tag = header.tags().nth(i);
            if let Some((tag, meant)) = tag.and_then(|t| Some((t, meant::<G>(t.name)?))) {
                out.push(near_miss(text, &tag, &meant));
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
    use super::{capitalised, is_known, meant, words, COMMON};
    use crate::games::halasi::Halasi;
    use crate::games::halatafl::Halatafl;
    use crate::games::halves::Halves;
    use crate::games::thaayam::Thaayam;
    use crate::games::Game;

    /// Each game's table holds the common tags, its own and its seats' capitalised, and
    /// nothing else: not another case, a name cut short or made longer by a byte, a
    /// byte changed anywhere, another game's tag.
    #[test]
    fn each_game_knows_its_tags_and_no_other_name() {
        fn check<G: Game>(others: &[&str]) {
            let mut names: Vec<String> = COMMON.iter().map(|t| t.to_string()).collect();
            names.extend(G::TAGS.iter().map(|t| t.to_string()));
            names.extend(G::SEATS.iter().map(|s| capitalised(s)));
            for t in &names {
                assert!(is_known::<G>(t.as_bytes()), "{}: {t}", G::NAME);
                let near = [
                    t.to_lowercase(),
                    t.to_uppercase(),
                    t[1..].to_string(),
                    t[..t.len() - 1].to_string(),
                    format!("{t}s"),
                    format!("X{t}"),
                ];
                for n in near.iter().filter(|n| !names.contains(n)) {
                    assert!(!is_known::<G>(n.as_bytes()), "{}: {n}", G::NAME);
                }
                for at in 0..t.len() {
                    let mut b = t.clone().into_bytes();
                    b[at] ^= 0x20 | 1;
                    let n = String::from_utf8(b).unwrap();
                    assert!(!is_known::<G>(n.as_bytes()), "{}: {n}", G::NAME);
                }
            }
            for n in others
                .iter()
                .chain(&["", "X", "PlyCount", "TimeControl", "WhiteElo"])
            {
                assert!(!is_known::<G>(n.as_bytes()), "{}: {n}", G::NAME);
            }
        }
        check::<Halatafl>(&["First", "North", "Red", "A"]);
        check::<Thaayam>(&["White", "Black", "Red", "A"]);
        check::<Halves>(&["First", "North", "A"]);
        check::<Halasi>(&["First", "North", "White", "G"]);
    }

    /// A header's near-misses: each tag that is not read but is close to one that is,
    /// pointing at its name, and no other tag (read, or far from every read one).
    #[test]
    fn a_headers_near_misses_are_its_misspelt_tags() {
        use super::near_misses;
        use crate::notation::record::{split, Limits};
        let text = "[Game \"halatafl\"]\n[Reslut \"white\"]\n[PlyCount \"3\"]\n\
                    [white \"Ann\"]\n[Black \"Bo\"]\n\n1. *\n";
        let file = split(text, &Limits::default());
        let header = &file.records[0].header;
        let found = near_misses::<Halatafl>(text, header);
        let at: Vec<&str> = found
            .iter()
            .map(|d| {
                let s = d.span.expect("a place");
                &text[s.start..s.end]
            })
            .collect();
        assert_eq!(at, ["Reslut", "white"], "{found:?}");
        assert!(
            found[0].message.contains("did you mean `Result`"),
            "{found:?}"
        );
        assert!(
            found[1].message.contains("did you mean `White`"),
            "{found:?}"
        );
    }

    /// Two names of one length are equal where their words are: at every length up
    /// to 16, a byte changed at any place changes the words.
    #[test]
    fn names_of_one_length_differ_in_their_words() {
        for n in 1..=16 {
            let name: Vec<u8> = (0..n).map(|i| b'a' + i as u8).collect();
            for at in 0..n {
                let mut other = name.clone();
                other[at] = b'Z';
                assert_ne!(words(&name), words(&other), "{n} bytes, at {at}");
            }
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
