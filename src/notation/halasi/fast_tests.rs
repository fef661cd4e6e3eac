//! Tests of the hand reader of Halasi's turns (`fast.rs`) against pest.
//! The hand reader against the parser: every turn of the shipped records and of
//! selfplay games, near-misses and mutations of them. Wherever the hand reader reads
//! a turn, the parser must read the same turn of the same length; wherever it leaves
//! one, the movetext read must still be the parser's, errors and spans included.

use std::sync::Arc;

use proptest::prelude::*;

use super::fast_turn;
use crate::dice::Dice;
use crate::games::halasi::Halasi;
use crate::games::Game;
use crate::notation::halasi::{parse_movetext, parse_turn, Turn};
use crate::notation::record::{self, Action, Limits, Span};
use crate::notation::TurnParse;
use crate::referee::Session;
use crate::ruleset::Library;

/// The hand reader on `text` (a turn at its start, then what follows it): `Ok(true)`
/// where it reads the turn as the parser does, `Ok(false)` where it leaves it.
fn by_hand(text: &str) -> Result<bool, String> {
    compare(fast_turn, text)
}

/// [`by_hand`] with another reader.
fn compare(reader: fn(&[u8]) -> Option<(Turn, usize)>, text: &str) -> Result<bool, String> {
    let Some((turn, len)) = reader(text.as_bytes()) else {
        return Ok(false);
    };
    match parse_turn(text) {
        TurnParse::Turn(parsed, n) if parsed == turn && n == len => Ok(true),
        other => Err(format!(
            "{text:?}: read by hand as {turn:?} of {len} bytes, by the parser {other:?}"
        )),
    }
}

/// The fast movetext reader against the parser's token by token on `text`, with the
/// default limits and tight ones.
fn movetext_agrees(text: &str) -> Result<(), String> {
    let span = Span::new(0, text.len());
    for limits in [
        Limits::default(),
        Limits {
            max_turn_bytes: 30,
            max_turns: 3,
            ..Limits::default()
        },
    ] {
        let slow = record::parse_movetext(text, span, &limits, parse_turn);
        let fast = parse_movetext(text, span, &limits);
        if fast != slow {
            return Err(format!("{text:?}:\nfast {fast:?}\nparser {slow:?}"));
        }
    }
    Ok(())
}

/// Each turn of a movetext as the parser reads it, from its start to the movetext's
/// end (what the hand reader sees).
fn turns_of(text: &str, movetext: Span) -> Vec<&str> {
    let read = record::parse_movetext(text, movetext, &Limits::default(), parse_turn);
    read.entries
        .iter()
        .filter(|e| matches!(e.action, Action::Play(_)))
        .map(|e| &text[e.span.start..movetext.end])
        .collect()
}

fn shipped_records() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/halasi");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("games/halasi") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("utf-8");
        out.push((path.display().to_string(), text));
    }
    out.sort();
    out
}

/// `games` random games of a shipped ruleset, written as `selfplay` writes them:
/// each game's movetext, and its turns as written.
fn selfplay(ruleset: &str, games: usize, seed: &str) -> Vec<(String, Vec<String>)> {
    let rs = Arc::new(
        Library::new(Vec::new())
            .load(ruleset, crate::referee::schemas())
            .expect("a shipped ruleset"),
    );
    let mut chooser = Dice::from_seed(seed);
    let mut scratch = Vec::new();
    let mut out = Vec::new();
    for g in 0..games {
        let tags = record::Header::default();
        let game_seed = format!("{seed}-{g}");
        let mut s = Session::<Halasi>::start(rs.clone(), None, &tags, Some(&game_seed))
            .expect("the game starts");
        let (mut movetext, mut turns) = (String::new(), Vec::new());
        while s.to_move().is_some() && s.turns < 400 {
            let turn = Halasi::random_turn(
                &s.settings,
                &s.state,
                s.chance.as_ref(),
                &mut chooser,
                &mut scratch,
            )
            .expect("a legal turn");
            let written = turn.to_string();
            let sep = if s.turns % 3 == 2 { "\n" } else { " " };
            movetext.push_str(&format!("{} {written}{sep}", s.expected_number()));
            assert!(
                s.play(&Action::Play(turn), "").is_ok(),
                "a listed turn is legal"
            );
            turns.push(written);
        }
        out.push((movetext, turns));
    }
    out
}

#[test]
fn every_turn_of_the_shipped_records_is_read_as_the_parser_reads_it() {
    let (mut turns, mut read) = (0, 0);
    for (path, text) in shipped_records() {
        let file = record::split(&text, &Limits::default());
        for raw in &file.records {
            movetext_agrees(&text[raw.movetext.start..raw.movetext.end])
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            for turn in turns_of(&text, raw.movetext) {
                turns += 1;
                read += usize::from(by_hand(turn).unwrap_or_else(|e| panic!("{path}: {e}")));
            }
        }
    }
    assert!(turns > 1000, "{turns} turns");
    // Every shipped turn is of a common form.
    assert_eq!(read, turns, "turns read by hand");
}

#[test]
fn every_turn_of_selfplay_games_is_read_by_hand_as_the_parser_reads_it() {
    for (ruleset, games) in [("halasi", 12), ("halasi-solitaire", 30)] {
        let mut turns = 0;
        for (movetext, written) in selfplay(ruleset, games, "fast-reader") {
            movetext_agrees(&movetext).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
            let at = turns_of(&movetext, Span::new(0, movetext.len()));
            assert_eq!(at.len(), written.len(), "{ruleset}: {movetext}");
            for (turn, w) in at.into_iter().zip(&written) {
                assert!(turn.starts_with(w.as_str()), "{turn:?} is {w:?}");
                let hand = by_hand(turn).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
                assert!(hand, "{ruleset}: {turn:?} is left to the parser");
                // The turn alone, at the end of the movetext, too.
                let hand = by_hand(w).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
                assert!(hand, "{ruleset}: {w:?} is left to the parser");
                turns += 1;
            }
        }
        assert!(turns > 200, "{ruleset}: {turns} turns");
    }
}

/// Turns of every form, then near-misses of each: other gaps, what does not exist,
/// numbers too long, what may or may not continue a turn.
const NEAR_MISSES: &[&str] = &[
    "home M1",
    "home M1 2. home M2",
    "home  M1",
    "home\tM1",
    "home\r\nM1",
    "homeM1",
    "home m1",
    "home ABCDEFGHI",
    "home ABCDEFGHIJ",
    "home M1x",
    "home M1.",
    "home",
    "home ",
    "place AM1 @0,0 r0",
    "place AM1 @0,0 r0 =0",
    "place AM1 @0,0 r0 route AM1~BM1",
    "place AM1 @-9,12 r5",
    "place AM1 @-99,99 r5",
    "place AM1 @100,0 r0",
    "place AM1 @-100,0 r0",
    "place AM1 @007,0 r0",
    "place AM1 @-0,-0 r0",
    "place AM1 @0,0 r6",
    "place AM1 @0,0 r05",
    "place AM1 @0,0 r0x",
    "place AM1 @0,0 r0-",
    "place AM1 @0,0 r0_",
    "place AM1 @0,0 r0.",
    "place AM1 @0,0 r",
    "place AM1 @0,0r0",
    "place AM1@0,0 r0",
    "place AM1  @0,0\nr0",
    "place AM1 @0, 0 r0",
    "place AM1 @0,0 R0",
    "place am1 @0,0 r0",
    "placeAM1 @0,0 r0",
    "place",
    "[RX SS IO QQ] place AM1 @0,0 r0",
    "[RX SS IO QQ]place AM1 @0,0 r0",
    "[RX SS IO QQ]\nplace AM1 @0,0 r0",
    "[ RX SS IO QQ ] place AM1 @0,0 r0",
    "[RX  SS\tIO\nQQ] place AM1 @0,0 r0",
    "[RXSS IO QQ] place AM1 @0,0 r0",
    "[RX SS IO Q] place AM1 @0,0 r0",
    "[RX SS IO QQ place AM1 @0,0 r0",
    "[] place AM1 @0,0 r0",
    "[ ] place AM1 @0,0 r0",
    "[RX] placeAM1 @0,0 r0",
    "[RX] place AM1 @0,0 r9",
    "[RX] [3: KK] place AM1 @0,0 r0",
    "[44 99 #4 9#] place AM1 @0,0 r0",
    "[3: RX KK SS] territory BT2 @1,0 r3",
    "[3: RX KK SS] territory BT2 @1,0 r3 =0",
    "[3: RX KK SS] territory BT2 @1,0 r3=0",
    "[3: RX KK SS] territory BT2 @1,0 r3 route AM1~BM1 =0",
    "[3: RX KK SS] territory BT2 @1,0 r3x",
    "[3: RX KK SS] territory BT2 @1,0 r7",
    "[3: RX KK SS] territoryBT2 @1,0 r3",
    "[3: RX KK SS] territory",
    "[3: RX KK SS] territor BT2 @1,0 r3",
    "[3: RX KK SS]territory BT2 @1,0 r3",
    "territory BT2 @1,0 r3",
    "territory BT2 @1,0 r3 =0",
    "[3:RX KK SS] territory BT2 @1,0 r3",
    "[ 3: RX KK SS ] territory BT2 @1,0 r3",
    "[3 : RX] leave",
    "[03: RX] leave",
    "[12: RX] leave",
    "[123: RX] leave",
    "[3: RX KK SS ]",
    "[3: RX KK SS ] =0",
    "[3: RX KK SS] =0",
    "[3: RX KK SS]=0",
    "[3: RX KK SS] = 0",
    "[3: RX KK SS] =",
    "[3: RX KK SS] =-",
    "[3: RX KK SS] =-5",
    "[3: RX KK SS] =123456789012345678",
    "[3: RX KK SS] =1234567890123456789",
    "[3: RX KK SS] =99999999999999999999",
    "[3: RX KK SS] =0x",
    "[3:]",
    "[3: ]",
    "[3:] leave",
    "[3: RX KK SS]",
    "[3: RX KK SS] 4. [2: RR]",
    "[3: RX KK SS] 44. leave",
    "[3: RX KK SS] 49. leave",
    "[3: RX KK SS] 4",
    "[3: RX KK SS] 44",
    "[3: RX KK SS] 44@",
    "[3: RX KK SS] 44@AM1.0",
    "[3: RX KK SS] 44@AM1.0/AM1.1",
    "[3: RX KK SS] #9@AM1.0/AM1.1",
    "[3: RX KK SS] {c}",
    "[3: RX KK SS] ; c",
    "[3: RX KK SS] leave",
    "[3: RX KK SS] leave =0",
    "[3: RX KK SS] leaver",
    "[3: RX KK SS] leave-",
    "[3: RX KK SS] leave_",
    "[3: RX KK SS] leave!",
    "[3: RX KK SS] leave.",
    "[3: RX KK SS]leave",
    "[3: RX KK SS]\n\nleave",
    "[3: RX KK SS] route AM1~BM2",
    "[3: RX KK SS] routes",
    "leave",
    "leave route AM1~BM2",
    "[4: RX MM SS YY] leave",
    "[RX SS] leave",
    "[RX SS] RR@AM1.0/AM1.7",
    "[RX SS] [3: KK SS YY] KK@AM1.4/AM1.5",
    "[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5 =3",
    "[RX SS IO QQ][3: KK SS YY]KK@AM1.4/AM1.5",
    "[RX SS IO QQ] [3: KK SS YY]",
    "[RX SS IO QQ] [3 KK SS YY]",
    "[RX SS IO QQ] [RX]",
    "RR@AM1.0/AM1.7",
    "RR@AM1.0/AM1.7 =3",
    "RR@AM1.0/AM1.7=3",
    "RR@AM1.0/AM1.7\n=3",
    "RR@AM1.0/AM1.7 =-3",
    "RR@AM1.0/AM1.7 = 3",
    "RR@AM1.0/AM1.7, RS@AM1.8/AM1.9",
    "RR@AM1.0/AM1.7,RS@AM1.8/AM1.9",
    "RR@AM1.0/AM1.7 , RS@AM1.8/AM1.9",
    "RR@AM1.0/AM1.7 ,\n RS@AM1.8/AM1.9",
    "RR@AM1.0/AM1.7, RS@AM1.8/AM1.24",
    "RR@AM1.0/AM1.7, RS@AM1.8",
    "RR@AM1.0/AM1.7, ",
    "RR@AM1.0/AM1.7,",
    "RR@AM1.0/AM1.7, 5. leave",
    "RR@AM1.0/AM1.7 5. leave",
    "RR@AM1.0/AM1.7x",
    "RR@AM1.0/AM1.7.",
    "RR@AM1.0/AM1.23",
    "RR@AM1.0/AM1.24",
    "RR@AM1.0/AM1.023",
    "RR@AM1.0/AM1.07",
    "RR@AM1.0/AM1.",
    "RR@AM1.0/AM1",
    "RR@AM1.0 /AM1.7",
    "RR@ AM1.0/AM1.7",
    "RR @AM1.0/AM1.7",
    "RZ@AM1.0/AM1.7",
    "R@AM1.0/AM1.7",
    "RRR@AM1.0/AM1.7",
    "RR@ABCDEFGHI.0/AM1.7",
    "RR@ABCDEFGHIJ.0/AM1.7",
    "RR@am1.0/AM1.7",
    "RR@A.0/B.7",
    "RR@AM1.0/AM1.7 route AM1~BM2",
    "RR@AM1.0/AM1.7 route AM1~BM2 =17",
    "RR@AM1.0/AM1.7 route AM1~BM2=17",
    "RR@AM1.0/AM1.7 route AM1~BM2 route AM1~CM1 =17",
    "RR@AM1.0/AM1.7\nroute AM1~BM2\n=17",
    "RR@AM1.0/AM1.7 route  AM1~BM2",
    "RR@AM1.0/AM1.7 route AM1 ~BM2",
    "RR@AM1.0/AM1.7 route AM1~ BM2",
    "RR@AM1.0/AM1.7 route AM1~",
    "RR@AM1.0/AM1.7 route AM1",
    "RR@AM1.0/AM1.7 route",
    "RR@AM1.0/AM1.7 routeAM1~BM2",
    "RR@AM1.0/AM1.7 routes",
    "RR@AM1.0/AM1.7route AM1~BM2",
    "RR@AM1.0/AM1.7 route AM1~ABCDEFGHIJ",
    "RR@AM1.0/AM1.7 route AM1~BM2x =3",
    "RR@AM1.0/AM1.7 route AM1~BM2.",
    "RR@AM1.0/AM1.7 route am1~BM2",
    "RR@AM1.0/AM1.7 =3 route AM1~BM2",
    "[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17",
    "[2:IO YY]\n  RR@AM1.0/AM1.7 ,\n RS@AM1.8/AM1.9\nroute AM1~BM2\n=17",
    "9#@AT1.23/AT1.6 route AM1~BM1 route AM1~CM1 =-8",
    "44@BT3.1/BT3.2",
    "44@BT3.1/BT3.2 44@BT3.3/BT3.4",
    "[1: 44] 44@BT3.1/BT3.2",
    "#",
    "[",
    "[3",
    "[3:",
    "[3: RX",
    "[RX",
    "]",
    "",
    " ",
    "=3",
    "route AM1~BM2",
    "é",
    "[3: RX KK SS] é",
    "RR@AM1.0/AM1.7 é",
];

#[test]
fn near_misses_are_read_as_the_parser_reads_them() {
    let mut read = 0;
    for text in NEAR_MISSES {
        read += usize::from(by_hand(text).unwrap_or_else(|e| panic!("{e}")));
        for movetext in [
            text.to_string(),
            format!("1. {text}"),
            format!("1. {text} 2. leave"),
            format!("1. home M1 {{c}} 2. {text}!? 3. [1: RR] leave *"),
            format!("1. {text}\n"),
        ] {
            movetext_agrees(&movetext).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    // The list holds turns of every form the hand reader takes.
    assert!(read > 60, "{read} read by hand");
}

/// Bytes a mutation puts in: the notation's own, blanks and frame tokens.
const ALPHABET: &[u8] = b" \t\n[]:,@./~=-_0123456789rlteAMBTRX#Qx!{;";

/// Representative turns, one of each form, for the exhaustive single mutations.
const FORMS: &[&str] = &[
    "home M1",
    "[RX SS IO QQ] place AM1 @0,-1 r0",
    "place AM1 @12,0 r5",
    "[3: RX KK SS] territory BT2 @1,0 r3",
    "[2: IO YY] RR@AM1.0/AM1.17, RS@AM1.8/AM1.9 route AM1~BM2 =17",
    "[4: RX MM SS YY] leave",
    "[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5 =-3",
    "[5:] 44@BT3.1/BT3.2",
    "[3: RX KK SS]",
];

#[test]
fn every_single_mutation_of_each_form_is_read_as_the_parser_reads_it() {
    for form in FORMS {
        let b = form.as_bytes();
        let mut texts = Vec::new();
        for at in 0..=b.len() {
            if at < b.len() {
                let mut cut = b.to_vec();
                cut.remove(at);
                texts.push(cut);
            }
            for &c in ALPHABET {
                let mut put = b.to_vec();
                put.insert(at, c);
                texts.push(put);
                if at < b.len() {
                    let mut changed = b.to_vec();
                    changed[at] = c;
                    texts.push(changed);
                }
            }
        }
        for t in texts {
            let text = String::from_utf8(t).expect("ASCII");
            by_hand(&text).unwrap_or_else(|e| panic!("{e}"));
            let text = format!("{text} 9. leave");
            by_hand(&text).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// The shipped turns and the near-misses, as movetext words.
fn words() -> Vec<String> {
    let mut out: Vec<String> = NEAR_MISSES.iter().map(|s| s.to_string()).collect();
    for (_, text) in shipped_records() {
        let file = record::split(&text, &Limits::default());
        for raw in &file.records {
            let read = record::parse_movetext(&text, raw.movetext, &Limits::default(), parse_turn);
            out.extend(
                read.entries
                    .iter()
                    .map(|e| text[e.span.start..e.span.end].to_string()),
            );
        }
    }
    out.sort();
    out.dedup();
    out
}

fn mutated_movetext() -> impl Strategy<Value = String> {
    let words = words();
    let n = words.len();
    (
        prop::collection::vec(
            (
                0..n,
                prop::sample::select(vec![" ", " ", "\n", "", " 7. ", " {c} "]),
            ),
            1..8,
        ),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                prop::sample::select(ALPHABET.to_vec()),
                0..3u8,
            ),
            0..4,
        ),
    )
        .prop_map(move |(picks, edits)| {
            let mut text = String::from("1. ");
            for (i, sep) in picks {
                text.push_str(&words[i]);
                text.push_str(sep);
            }
            let mut bytes = text.into_bytes();
            for (at, c, how) in edits {
                let at = at.index(bytes.len());
                match how {
                    0 => bytes[at] = c,
                    1 => bytes.insert(at, c),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            // An edit inside a character of more than a byte spoils it: replaced.
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random movetexts of the shipped turns and near-misses, mutated: the fast reader
    /// gives the parser's movetext (turns, errors and their spans), and every turn
    /// read by hand is the parser's.
    #[test]
    fn mutated_movetexts_are_read_as_the_parser_reads_them(text in mutated_movetext()) {
        movetext_agrees(&text).map_err(TestCaseError::fail)?;
        for at in 0..text.len() {
            if text.is_char_boundary(at) {
                by_hand(&text[at..]).map_err(TestCaseError::fail)?;
            }
        }
    }
}

/// The comparison fails wherever a reader reads a turn otherwise than the parser:
/// here readers that leave out the claim, stop before the routes, or take a rotation
/// that does not exist.
#[test]
fn a_different_reading_is_caught() {
    fn no_claim(b: &[u8]) -> Option<(Turn, usize)> {
        let (turn, len) = fast_turn(b)?;
        match turn {
            Turn::Play {
                opening,
                draw,
                action,
                routes,
                claim: Some(_),
            } => {
                let turn = Turn::Play {
                    opening,
                    draw,
                    action,
                    routes,
                    claim: None,
                };
                Some((turn, len))
            }
            other => Some((other, len)),
        }
    }
    fn short(b: &[u8]) -> Option<(Turn, usize)> {
        let (turn, len) = fast_turn(b)?;
        Some((turn, len.min(14)))
    }
    fn any_rotation(b: &[u8]) -> Option<(Turn, usize)> {
        let text = std::str::from_utf8(b).ok()?.replace("r6", "r5");
        fast_turn(text.as_bytes())
    }
    let text = "RR@AM1.0/AM1.7 route AM1~BM2 =3";
    assert_eq!(compare(fast_turn, text), Ok(true));
    assert!(compare(no_claim, text).is_err());
    assert!(compare(short, text).is_err());
    assert!(compare(any_rotation, "place AM1 @0,0 r6").is_err());
}
