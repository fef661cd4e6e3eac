//! The Halasi notation's unit tests: parsing, printing and reading back.

use super::*;
use crate::notation::TurnParse;

fn turn(input: &str) -> (Turn, usize) {
    match parse_turn(input) {
        TurnParse::Turn(t, len) => (t, len),
        other => panic!("{input:?} did not parse: {other:?}"),
    }
}

#[test]
fn every_form_parses_and_prints_back() {
    for text in [
        "home M1",
        "place AM1 @0,0 r0",
        "[RX SS IO QQ] place BT2 @-1,2 r5",
        "[3: RX KK SS] territory BT2 @1,0 r3 =0",
        "[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17",
        "[4: RX MM SS YY] leave",
        "[3: RX KK SS]",
        "[5:]",
        "[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5",
        "RR@AM1.0/AM1.7",
        "leave",
        "territory CM2 @-3,-4 r1",
        "9#@AT1.23/AT1.6 route AM1~BM1 route AM1~CM1 =-8",
        "44@BT3.1/BT3.2",
    ] {
        let (t, len) = turn(text);
        assert_eq!(len, text.len(), "{text}");
        assert_eq!(t.to_string(), text, "prints back");
    }
}

#[test]
fn the_tree_is_what_was_written() {
    let (t, _) = turn("[2: IO YY] RR@AM1.0/AM1.7 route AM1~BM2 =17");
    let Turn::Play {
        opening: None,
        draw: Some(draw),
        action: Action::Run(run),
        routes,
        claim: Some(17),
    } = t
    else {
        panic!("{t:?}")
    };
    assert_eq!(draw.roll, 2);
    assert_eq!(draw.dominos.len(), 2);
    assert_eq!(run[0].first.to_string(), "AM1.0");
    assert_eq!(run[0].second.index, 7);
    assert_eq!(routes[0].1.as_str(), "BM2");
    assert!(matches!(
        turn("[3: RX]").0,
        Turn::Play {
            action: Action::Nothing,
            ..
        }
    ));
}

#[test]
fn spaces_and_line_breaks_inside_a_turn() {
    let (t, len) = turn("[2:IO YY]\n  RR@AM1.0/AM1.7 ,\n RS@AM1.8/AM1.9\nroute AM1~BM2\n=17");
    assert_eq!(len, 62, "the whole text");
    assert_eq!(
        t.to_string(),
        "[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17"
    );
}

#[test]
fn a_turn_ends_where_its_notation_ends() {
    assert_eq!(turn("RR@AM1.0/AM1.7 12. b: leave").1, 14);
    assert_eq!(turn("leave {c}").1, 5);
    assert_eq!(turn("leave ; c").1, 5);
    assert_eq!(turn("[3: RX] =0 \n").1, 10);
    assert_eq!(turn("home M1\n2. home M1").1, 7);
    assert_eq!(turn("place AM1 @0,0 r0 b: place").1, 17);
    assert!(matches!(parse_turn("leaver"), TurnParse::NoTurn { .. }));
    assert!(matches!(parse_turn("homeM1"), TurnParse::NoTurn { .. }));
    assert!(
        matches!(parse_turn("[RX SS] leave"), TurnParse::Turn(..)),
        "opening brackets parse; the game judges them"
    );
    assert!(matches!(
        parse_turn("[3: RX] home M1"),
        TurnParse::NoTurn { .. } | TurnParse::Turn(_, 7)
    ));
    assert!(matches!(parse_turn("RR@AM1.0"), TurnParse::NoTurn { .. }));
    assert!(matches!(
        parse_turn("ZZ@AM1.0/AM1.1"),
        TurnParse::NoTurn { .. }
    ));
    assert!(matches!(parse_turn(""), TurnParse::NoTurn { .. }));
}

#[test]
fn what_does_not_exist_is_a_bad_address() {
    let bad = |text: &str| match parse_turn(text) {
        TurnParse::BadAddress {
            len,
            at,
            address_len,
        } => (len, at, address_len),
        other => panic!("{text:?}: {other:?}"),
    };
    assert_eq!(bad("RR@AM1.24/AM1.7"), (15, 3, 6));
    assert_eq!(bad("RR@AM1.0/AM1.99999999999"), (24, 9, 15));
    assert_eq!(bad("place AM1 @100,0 r0"), (19, 10, 6));
    assert_eq!(bad("territory BT2 @1,0 r7"), (21, 19, 2));
    assert_eq!(bad("home ABCDEFGHIJK"), (16, 5, 11));
    assert_eq!(bad("RR@AM1.0/AM1.1 route AM1~ABCDEFGHIJK"), (36, 25, 11));
}

mod properties {
    use super::super::*;
    use crate::notation::TurnParse;
    use proptest::prelude::*;

    fn marking() -> impl Strategy<Value = Marking> {
        (0u8..16).prop_map(|n| Marking::from_number(n).unwrap())
    }
    fn domino() -> impl Strategy<Value = Domino> {
        (marking(), marking()).prop_map(|(a, b)| Domino(a, b))
    }
    fn label() -> impl Strategy<Value = Label> {
        "[A-Z][A-Za-z0-9]{0,8}".prop_map(|s| Label::new(&s).unwrap())
    }
    fn address() -> impl Strategy<Value = Address> {
        (label(), 0u8..24).prop_map(|(label, index)| Address { label, index })
    }
    fn territory() -> impl Strategy<Value = TerritoryAt> {
        (label(), -99i32..=99, -99i32..=99, 0u8..6).prop_map(|(label, q, r, rotation)| {
            TerritoryAt {
                label,
                at: Pos::new(q, r).unwrap(),
                rotation,
            }
        })
    }
    fn bracket() -> impl Strategy<Value = Dominos> {
        prop::collection::vec(domino(), 0..6).prop_map(|d| Dominos(d.into()))
    }
    fn action() -> impl Strategy<Value = Action> {
        prop_oneof![
            territory().prop_map(Action::Territory),
            Just(Action::Leave),
            prop::collection::vec(
                (domino(), address(), address()).prop_map(|(domino, first, second)| {
                    DominoAt {
                        domino,
                        first,
                        second,
                    }
                }),
                1..5
            )
            .prop_map(|r| Action::Run(r.into())),
        ]
    }
    fn turn() -> impl Strategy<Value = Turn> {
        prop_oneof![
            label().prop_map(|tile| Turn::Home { tile }),
            (prop::option::of(bracket()), territory())
                .prop_map(|(buy_in, territory)| Turn::Place { buy_in, territory }),
            (
                prop::option::of(bracket()),
                prop::option::of((1u8..=99, prop::collection::vec(domino(), 0..7))),
                prop::option::of(action()),
                prop::collection::vec((label(), label()).prop_map(|(a, b)| Route(a, b)), 0..3),
                prop::option::of(any::<i64>()),
            )
                .prop_map(|(opening, draw, action, routes, claim)| {
                    let draw = draw.map(|(roll, dominos)| Draw {
                        roll,
                        dominos: dominos.into(),
                    });
                    // An action is needed unless a roll bracket stands alone.
                    let action = match (action, &draw) {
                        (Some(a), _) => a,
                        (None, Some(_)) => Action::Nothing,
                        (None, None) => Action::Leave,
                    };
                    Turn::Play {
                        opening,
                        draw,
                        action,
                        routes,
                        claim,
                    }
                }),
        ]
    }

    proptest! {
        #[test]
        fn a_printed_turn_parses_back(t in turn()) {
            let text = t.to_string();
            match parse_turn(&text) {
                TurnParse::Turn(back, len) => {
                    prop_assert_eq!(back, t);
                    prop_assert_eq!(len, text.len());
                }
                other => prop_assert!(false, "{:?} did not parse: {:?}", text, other),
            }
        }

        #[test]
        fn no_input_panics(text in "\\PC{0,60}|[\\[\\]0-9: RXIO#94@AM.,/~=rle-]{0,60}") {
            match parse_turn(&text) {
                TurnParse::Turn(_, len) | TurnParse::BadAddress { len, .. } => {
                    prop_assert!(len <= text.len())
                }
                TurnParse::NoTurn { at, .. } => prop_assert!(at <= text.len()),
            }
        }
    }
}

#[test]
fn a_movetext_through_the_record_frame() {
    use crate::notation::record::{parse_movetext, Action as Frame, Limits, Span};
    let text = "1. home M1 2. home M1 {both homes}\n\
                3. a: [RX SS IO QQ] place AM1 @0,0 r0\n\
                4. b: place BM1 @0,-1 r2 ; the first round\n\
                5. [2: IO YY] RR@AM1.0/AM1.7,\n   RS@AM1.8/AM1.9 route AM1~BM1 =17!?\n\
                6. resign *";
    let mt = parse_movetext(
        text,
        Span::new(0, text.len()),
        &Limits::default(),
        parse_turn,
    );
    assert!(mt.error.is_none(), "{:?}", mt.error);
    assert_eq!(mt.entries.len(), 6);
    assert_eq!(mt.entries[2].label().map(|l| l.0.as_str()), Some("a"));
    let Frame::Play(Turn::Play {
        action: Action::Run(run),
        ..
    }) = &mt.entries[4].action
    else {
        panic!("{:?}", mt.entries[4].action)
    };
    assert_eq!(run.len(), 2, "a run over two lines");
    assert_eq!(mt.entries[4].annotations(), ["!?"]);
    assert!(matches!(mt.entries[5].action, Frame::Resign));
    assert!(mt.termination.is_some());
}

#[test]
fn markings_by_number_and_symbol() {
    assert_eq!(Marking::from_symbol('I').unwrap().number(), 0);
    assert_eq!(Marking::from_symbol('#').unwrap().number(), 8);
    assert_eq!(Marking::from_symbol('R').unwrap().number(), 15);
    assert_eq!(Marking::from_symbol('Z'), None);
    for m in Marking::ALL {
        assert_eq!(Marking::from_symbol(m.symbol()), Some(m));
    }
}

#[test]
fn domino_keys_run_through_the_set_in_order() {
    let mut k = 0u8;
    for i in 0..16u8 {
        for j in i..16u8 {
            let d = Domino(Marking(i), Marking(j));
            assert_eq!(d.key(), k, "{d}");
            assert_eq!(Domino(d.1, d.0).key(), k, "reversed {d}");
            assert_eq!(Domino::from_key(k), Some(d));
            k = k.wrapping_add(1);
        }
    }
    assert_eq!(k as usize, Domino::KINDS);
    assert_eq!(Domino::from_key(136), None);
    // `same` is equality of keys.
    let all: Vec<Domino> = (0..256)
        .map(|n| Domino(Marking(n as u8 >> 4), Marking(n as u8 & 15)))
        .collect();
    for &a in &all {
        for &b in &all {
            assert_eq!(a.same(b), a.key() == b.key(), "{a} {b}");
        }
    }
}

#[test]
fn labels_are_equal_when_their_text_is_and_hash_alike_then() {
    use std::hash::BuildHasher;
    let texts = [
        "A",
        "B",
        "AM1",
        "AM2",
        "BM1",
        "AM",
        "AM10",
        "ABCDEFGH",
        "ABCDEFGHI",
        "ABCDEFGHJ",
        "BBCDEFGHI",
        "ABCDEFGH1",
    ];
    let hasher = std::collections::hash_map::RandomState::new();
    for a in texts {
        for b in texts {
            let (x, y) = (Label::new(a).unwrap(), Label::new(b).unwrap());
            assert_eq!(x == y, a == b, "{a} {b}");
            assert_eq!(x.cmp(&y), (a.len(), a).cmp(&(b.len(), b)), "{a} {b}");
            if a == b {
                assert_eq!(hasher.hash_one(x), hasher.hash_one(y));
            }
        }
    }
}

#[test]
fn labels() {
    assert_eq!(Label::new("AM1").unwrap().as_str(), "AM1");
    assert!(Label::new("am1").is_none());
    assert!(Label::new("").is_none());
    assert!(Label::new("ABCDEFGHIJ").is_none());
    assert!(Label::new("A.1").is_none());
    let m1 = Label::new("M1").unwrap();
    assert_eq!(Label::of('b', m1).unwrap().as_str(), "BM1");
    // As `Label::new` of the letter capitalised and the name.
    for name in ["M1", "T", "ABCDEFGH", "ABCDEFGHI", "X9y"] {
        let name = Label::new(name).unwrap();
        for letter in ['a', 'f', 'Z', '1', 'é', ' '] {
            let text = format!("{}{}", letter.to_ascii_uppercase(), name.as_str());
            assert_eq!(Label::of(letter, name), Label::new(&text), "{text}");
        }
    }
}

/// A turn owns nothing on the heap unless it announces a route or one of its lists
/// outgrew its room: only then must an entry handed on run its drop.
#[test]
fn a_turn_is_heap_free_unless_it_announces_a_route_or_a_list_is_long() {
    use crate::notation::record::HeapFree;
    let nine = ["RX"; 9].join(" ");
    let (long_buy_in, long_draw, long_opening) = (
        format!("[{nine}] place BT2 @-1,2 r5"),
        format!("[9: {nine}] leave"),
        format!("[{nine}] [3: KK SS YY] KK@AM1.4/AM1.5"),
    );
    for (input, free) in [
        ("home M1", true),
        ("[RX SS IO QQ] place BT2 @-1,2 r5", true),
        ("[3: RX KK SS] territory BT2 @1,0 r3 =0", true),
        ("[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 =17", true),
        ("[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5", true),
        ("[4: RX MM SS YY] leave", true),
        ("[2: IO YY] RR@AM1.0/AM1.7 route AM1~BM2 =17", false),
        ("RR@AM1.0/AM1.7, RS@AM1.8/AM1.9, SS@AM1.10/AM1.11", false),
        (long_buy_in.as_str(), false),
        (long_draw.as_str(), false),
        (long_opening.as_str(), false),
    ] {
        assert_eq!(turn(input).0.heap_free(), free, "{input}");
        // The hand reader, which `check` uses, makes the same lists.
        let (t, _) = super::fast::fast_turn(input.as_bytes()).expect("read by hand");
        assert_eq!(t.heap_free(), free, "{input}, read by hand");
    }
}
