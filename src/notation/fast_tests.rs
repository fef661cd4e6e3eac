//! Each game's fast movetext reader ([`halatafl::parse_movetext`] and the others: by
//! hand, then one pass of the parser) gives exactly what reading one parser run a token
//! gives ([`record::parse_movetext`]), on the shipped records' movetexts, on random
//! movetexts made of their tokens and near-misses, and on random bytes mutated into them.

use proptest::prelude::*;

use super::record::{self, Limits, Movetext, Span};
use super::{halasi, halatafl, halves, thaayam, TurnParse};

/// The words of every shipped record of `game` (headers left out), and near-misses of
/// the frame and the notations.
fn vocabulary(game: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(game);
    let mut words: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).expect("games folder") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("utf-8");
        for line in text.lines().filter(|l| !l.trim_start().starts_with("[G")) {
            if line.trim_start().starts_with('[') && line.trim_end().ends_with("\"]") {
                continue;
            }
            words.extend(line.split_whitespace().map(str::to_string));
        }
    }
    words.sort();
    words.dedup();
    // The near-misses repeated so that they make about half of the words drawn.
    let near_misses = [
        "1.",
        "12...",
        "1234567890.",
        "1..",
        "1-0",
        "0-1",
        "1/2-1/2",
        "*",
        "{c}",
        "{a}{b}",
        "{",
        "**",
        "*.",
        "*-",
        "1-0x",
        "0-10",
        "1/2-1/2/",
        "!!!",
        "?!?",
        "}",
        ";x",
        "!",
        "?!",
        "$12",
        "$",
        "white:",
        "black:",
        "south:",
        "resign",
        "draw",
        "drawn",
        "huff",
        "huff c3",
        "a10",
        "h9",
        "c3-",
        "c3x",
        "c3xd4x",
        "=K",
        "=Q",
        "e3-d4=",
        "T",
        "x",
        "+",
        "-",
        "--",
        "[",
        "]",
        "[3",
        "[1 2]",
        "enter",
        "off",
        "twin",
        "e3+",
        "x(1,",
        "x(1,2)/",
        "+(0,0)",
        "keep",
        "swap",
        "pass",
        "\t",
        "\r\n",
        "\r",
        ",",
        "[123]",
        "[12 3]",
        "[ 1  2 ]",
        "[1 2 ]",
        "[]",
        "[1,2]",
        "e3+12",
        "e3+123",
        "a1+4x",
        "a1+4xy",
        "Tc5+8+3",
        "T",
        "twin c5",
        "twinc5",
        "twin f6",
        "c1+4,",
        "[1 4 8 2] enter, c1+4+2x, e5+1",
        "[x]",
        "[x 2]",
        "[1 x]",
        "[- 2]",
        "[:]",
        "[1 1 1 1 1 1 1 1 1 1 1 1 1 1 2]",
        "[8 8 8 8 8 8 8 8 8 8 8 8 8 8]",
        "e3+1+1+1+1+1+1+1+1",
        "e3+1+1+1+1+1+1+1+1+1",
        "e5+9x, a1+1x,",
        "c1+4+2,  a3+1",
        "c1+4+2,\ta3+1",
        "e6+1",
        "enter, enterx",
        "c1+4 , e2+3",
        "c1+4,e2+3",
        "enter,",
        "enterx",
        "offx",
        "-x",
        "f6+2",
        "a0+1",
        "x(1,2)/(3,",
        "+(12345,0)",
        "x(-0,-0)",
        "+(1,-)",
        "pass:",
        "keep-",
        "swap_",
        "e3-d4=K",
        "c5xe3xg1=E",
        "huff  c3",
        "huff c3 e5",
        "huff c3 e5-",
        "huff h9",
        "a7-a6",
        "g7xg5",
        // A chain longer than a path holds.
        "a1xa3xa5xa7xc7xc5xc3xc1xe1xe3xe5xe7xg7xg5xg3xg1xa1xa3xa5xa7xc7xc5xc3xc1xe1xe3xe5xe7xg7xg5xg3xg1xa1xa3xa5xa7xc7xc5xc3xc1xe1xe3xe5xe7xg7xg5xg3xg1",
    ];
    let repeat = words.len() / near_misses.len() + 1;
    for _ in 0..repeat {
        words.extend(near_misses.iter().map(|w| w.to_string()));
    }
    words
}

/// Both readers on `text`, compared.
fn agree<T: PartialEq + std::fmt::Debug + record::HeapFree>(
    text: &str,
    fast: fn(&str, Span, &Limits) -> Movetext<T>,
    parse_turn: fn(&str) -> TurnParse<T>,
) -> Result<(), TestCaseError> {
    let span = Span::new(0, text.len());
    for limits in [
        Limits::default(),
        Limits {
            max_turn_bytes: 6,
            max_turns: 3,
            ..Limits::default()
        },
    ] {
        let slow = record::parse_movetext(text, span, &limits, parse_turn);
        prop_assert_eq!(fast(text, span, &limits), slow, "{:?}", text);
    }
    Ok(())
}

/// A movetext of `n` words of the vocabulary, joined by single or no blanks, then
/// mutated at a few bytes.
fn movetext(words: Vec<String>) -> impl Strategy<Value = String> {
    let n = words.len();
    (
        prop::collection::vec(
            (0..n, prop::sample::select(vec!["", " ", " ", "\n"])),
            0..40,
        ),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
    )
        .prop_map(move |(picks, edits)| {
            let mut text = String::new();
            for (i, sep) in picks {
                text.push_str(&words[i]);
                text.push_str(sep);
            }
            let mut bytes = text.into_bytes();
            for (at, b) in edits {
                if !bytes.is_empty() && b.is_ascii() {
                    let at = at.index(bytes.len());
                    bytes[at] = b;
                }
            }
            String::from_utf8(bytes).expect("ASCII edits keep UTF-8")
        })
}

macro_rules! agreement {
    ($name:ident, $game:literal, $module:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(600))]
            #[test]
            fn $name(text in movetext(vocabulary($game))) {
                agree(&text, $module::parse_movetext, $module::parse_turn)?;
            }
        }
    };
}

agreement!(halatafl_fast_reader_agrees, "halatafl", halatafl);
agreement!(thaayam_fast_reader_agrees, "thaayam", thaayam);
agreement!(halves_fast_reader_agrees, "halves", halves);
agreement!(halasi_fast_reader_agrees, "halasi", halasi);

/// Every shipped record's movetext, read both ways.
#[test]
fn shipped_movetexts_agree() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    for game in ["halatafl", "thaayam", "halves", "halasi"] {
        for entry in std::fs::read_dir(root.join(game)).expect("games folder") {
            let path = entry.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("utf-8");
            let file = record::split(&text, &Limits::default());
            for raw in &file.records {
                let body = &text[raw.movetext.start..raw.movetext.end];
                let checked = match game {
                    "halatafl" => agree(body, halatafl::parse_movetext, halatafl::parse_turn),
                    "thaayam" => agree(body, thaayam::parse_movetext, thaayam::parse_turn),
                    "halves" => agree(body, halves::parse_movetext, halves::parse_turn),
                    _ => agree(body, halasi::parse_movetext, halasi::parse_turn),
                };
                assert!(checked.is_ok(), "{}: {checked:?}", path.display());
            }
        }
    }
}
