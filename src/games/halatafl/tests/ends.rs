//! Tests of the Halatafl end checks and their order, rule precedence and the setup
//! notation.

use super::*;

// ---------------------------------------------------------------------------------------
// End checks

#[test]
fn win_capture_all() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4xd6");
    assert_eq!(end(&s, &st), None);
    let mut st = pos(&s, "Md4 md5", 'w');
    ok(&s, &mut st, "d4xd6");
    // Black also has no moves, but the win is checked first.
    won(&s, &st, W, "capture-all", "win-capture-all");
    let v = err(&s, &st, "d6-d7");
    assert_eq!(v.rule(), "game-over");
    assert!(legal(&s, &st).is_empty());
}

#[test]
fn win_reduce_to() {
    let s = with(|s| s.win = Win::ReduceTo(2));
    let mut st = pos(&s, "Md4 Mb1 Mc1 md5 mb7 mf7 mg6", 'w');
    ok(&s, &mut st, "d4xd6");
    assert_eq!(end(&s, &st), None);
    let mut st = pos(&s, "Md4 Mb1 Mc1 md5 mb7 mf7", 'w');
    ok(&s, &mut st, "d4xd6");
    won(&s, &st, W, "reduce-to", "win-reduce-to");
}

#[test]
fn win_thrones() {
    let s = with(|s| {
        s.win = Win::Thrones(1);
        s.promotion = false;
    });
    let mut st = pos(&s, "Mf6 mb5", 'w');
    ok(&s, &mut st, "f6-g7");
    won(&s, &st, W, "thrones", "win-thrones");
    let s2 = with(|s| {
        s.win = Win::Thrones(2);
        s.promotion = false;
    });
    let mut st = pos(&s2, "Mf6 mb5", 'w');
    ok(&s2, &mut st, "f6-g7");
    assert_eq!(end(&s2, &st), None);
    let mut st = pos(&s2, "Mf6 Ma7 mb5", 'w');
    ok(&s2, &mut st, "f6-g7");
    won(&s2, &st, W, "thrones", "win-thrones");
    // Standing on an own throne counts for nothing (kings may stand there).
    let s3 = with(|s| s.win = Win::Thrones(1));
    let mut st = pos(&s3, "Kb1 mb5", 'w');
    ok(&s3, &mut st, "b1-a1");
    assert_eq!(end(&s3, &st), None);
}

/// Black's only man on c1 is shut in; white's g3 moves freely.
const SHUT_IN: &str = "Ka1 Mb1 Md1 Me1 Mg3 mc1";

#[test]
fn no_moves_rule() {
    let s = Settings::default();
    let mut st = pos(&s, SHUT_IN, 'w');
    assert_eq!(end(&s, &st), None);
    ok(&s, &mut st, "g3-g4");
    won(&s, &st, W, "no-moves", "no-moves");
    let d = with(|s| s.no_moves = NoMoves::Draw);
    let mut st = pos(&d, SHUT_IN, 'w');
    ok(&d, &mut st, "g3-g4");
    drawn(&d, &st, "no-moves", "no-moves");
    // A seat whose only turns start with a huff has a turn.
    let mut st = pos_h(&s, "Ka1 Mb1 Md1 Me1 Mg3 mc1", 'b', "b1");
    assert_eq!(end(&s, &st), None);
    assert_eq!(legal(&s, &st), ["huff b1 c1-b1"]);
    ok(&s, &mut st, "huff b1 c1-b1");
}

#[test]
fn quiet_limit_rule() {
    let s = with(|s| s.quiet_limit = 2);
    let mut st = pos(&s, "Md2 Mg2 mb6 mf6", 'w');
    for t in ["d2-d3", "b6-b5", "d3-c3"] {
        ok(&s, &mut st, t);
        assert_eq!(end(&s, &st), None, "after {t}");
    }
    assert_eq!(st.quiet(), 3);
    ok(&s, &mut st, "f6-f5");
    drawn(&s, &st, "quiet-limit", "quiet-limit");
    // 0 = off.
    let off = Settings::default();
    let mut st = pos(&off, "Md2 Mg2 mb6 mf6", 'w');
    for t in ["d2-d3", "b6-b5", "d3-c3", "f6-f5", "c3-c4"] {
        ok(&off, &mut st, t);
    }
    assert_eq!(end(&off, &st), None);
    // A capture or a promotion resets the count.
    let mut st = pos(&s, "Md2 Mf6 md4 mb6 mb3", 'w');
    ok(&s, &mut st, "d2-e2");
    ok(&s, &mut st, "b6-b5");
    assert_eq!(st.quiet(), 2);
    ok(&s, &mut st, "f6-g7=K");
    assert_eq!(st.quiet(), 0);
    ok(&s, &mut st, "b5-b4");
    ok(&s, &mut st, "e2-e3");
    assert_eq!(st.quiet(), 2);
    ok(&s, &mut st, "d4xf2");
    assert_eq!(st.quiet(), 0);
    assert_eq!(end(&s, &st), None);
}

#[test]
fn end_checks_in_order() {
    // quiet-limit before no-moves: the turn that reaches the limit also shuts black in.
    let q = with(|s| s.quiet_limit = 1);
    let mut st = pos(&q, "Ka1 Mb1 Md1 Me1 Mg3 mc2", 'b');
    ok(&q, &mut st, "c2-c1");
    assert_eq!(end(&q, &st), None);
    ok(&q, &mut st, "g3-g4");
    drawn(&q, &st, "quiet-limit", "quiet-limit");
    // The same without the limit: no-moves.
    let s = Settings::default();
    let mut st = pos(&s, "Ka1 Mb1 Md1 Me1 Mg3 mc2", 'b');
    ok(&s, &mut st, "c2-c1");
    ok(&s, &mut st, "g3-g4");
    won(&s, &st, W, "no-moves", "no-moves");
    // The win before quiet-limit: a quiet step onto an enemy throne.
    let tq = with(|s| {
        s.quiet_limit = 1;
        s.win = Win::Thrones(1);
        s.promotion = false;
    });
    let mut st = pos(&tq, "Mf6 mb5", 'b');
    ok(&tq, &mut st, "b5-b4");
    ok(&tq, &mut st, "f6-g7");
    won(&tq, &st, W, "thrones", "win-thrones");
}

#[test]
fn a_decided_setup_ends_before_turn_1() {
    let s = Settings::default();
    let st = pos(&s, "Md4", 'b');
    won(&s, &st, W, "capture-all", "win-capture-all");
    let st = Halatafl::start(&s, Some(st), &NoTags, None).unwrap();
    assert!(end(&s, &st).is_some());
    assert!(legal(&s, &st).is_empty());
    let st = pos(&s, SHUT_IN, 'b');
    won(&s, &st, W, "no-moves", "no-moves");
    let t = with(|s| s.win = Win::Thrones(1));
    let st = pos(&t, "Mg7 mb5", 'b');
    won(&t, &st, W, "thrones", "win-thrones");
    let st = pos(&t, "Mg7 mb5", 'w');
    won(&t, &st, W, "thrones", "win-thrones");
}

#[test]
fn game_over_rule_and_common_actions() {
    let s = Settings::default();
    let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    Halatafl::resign(&s, &mut st).expect("a resignation");
    let e = end(&s, &st).unwrap();
    assert_eq!(e.winners, SeatSet::only(Seat(B)));
    assert_eq!(e.reason, "resignation");
    assert_eq!(e.rule, None);
    assert_eq!(rule(&s, &st, "e3-d4"), "game-over");
    let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    ok(&s, &mut st, "e3-d4");
    Halatafl::agree_draw(&s, &mut st);
    let e = end(&s, &st).unwrap();
    assert!(e.draw);
    assert_eq!(e.reason, "agreement");
    assert_eq!(rule(&s, &st, "c5-c4"), "game-over");
}

// ---------------------------------------------------------------------------------------
// Rule precedence

#[test]
fn rule_precedence() {
    let comp = with(|s| s.capture = Capture::Compulsory);
    // own-throne before compulsory-capture.
    let st = pos(&comp, "Mb1 Md4 md5 mb7", 'w');
    assert_eq!(rule(&comp, &st, "b1-a1"), "own-throne");
    // compulsory-capture before the marker.
    let st = pos(&comp, "Md4 Mf6 md5 mb7", 'w');
    assert_eq!(rule(&comp, &st, "f6-g7=K"), "compulsory-capture");
    assert_eq!(rule(&comp, &st, "f6-f7=K"), "compulsory-capture");
    // continue-jumps before the marker.
    let st = pos(&comp, "Me5 mf6 mf7 mb7", 'w');
    assert_eq!(rule(&comp, &st, "e5xg7=K"), "continue-jumps");
    assert_eq!(rule(&comp, &st, "e5xg7=E"), "continue-jumps");
    // the shape before own-throne.
    let st = pos(&comp, "Mc1 mb7", 'w');
    assert_eq!(rule(&comp, &st, "c1-a1"), "step");
    // huff before the shape.
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    assert_eq!(rule(&s, &st, "huff g3 b7-b5"), "huff");
    // A winning huff followed by a move breaks huff whatever the move.
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4-c4");
    assert_eq!(rule(&s, &st, "huff c4 b7-b1"), "huff");
}

// ---------------------------------------------------------------------------------------
// Setup notation

#[test]
fn setup_round_trip() {
    let e = with(|s| s.emperor = true);
    for text in [
        "1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -",
        "7/7/7/3M3/3m3/7/7 b -",
        "k5E/7/2m4/3M3/1K5/7/M5e w -",
        "1mmmmm1/mmmmmmm/mmmmmmm/mmmMMM1/MMMMMM1/MMMMMMM/1MMMMM1 b d4,f4",
    ] {
        let st = Halatafl::parse_setup(&e, text).unwrap_or_else(|v| panic!("{text}: {v}"));
        assert_eq!(Halatafl::setup_string(&e, &st), text);
    }
    // Huffable points sort by name: a7 before c3 before c4.
    let st = pos_h(&e, "Ma7 Mc3 Mc4 me5", 'b', "a7,c3,c4");
    assert_eq!(
        Halatafl::setup_string(&e, &st),
        setup("Ma7 Mc3 Mc4 me5", 'b', "a7,c3,c4")
    );
    assert_eq!(
        st.huffable_squares(&e).collect::<Vec<_>>(),
        [sq("a7"), sq("c3"), sq("c4")]
    );
    // A position reached by play prints and reads back the same.
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 Mf4 md5 mf5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    let text = Halatafl::setup_string(&s, &st);
    assert!(text.ends_with(" b d4,f4"), "{text}");
    assert_eq!(
        Halatafl::parse_setup(&s, &text).unwrap().huffable(&s),
        st.huffable(&s)
    );
}

#[test]
fn setup_errors() {
    let s = Settings::default();
    let bad = [
        "",
        "7/7/7/3M3/3m3/7/7",
        "7/7/7/3M3/3m3/7/7 w",
        "7/7/7/3M3/3m3/7/7  w -",
        "7/7/7/3M3/3m3/7/7 w - ",
        "7/7/7/3M3/3m3/7 w -",
        "7/7/7/3M3/3m3/7/7/7 w -",
        "7/7/7/3M4/3m3/7/7 w -",
        "7/7/7/3M2/3m3/7/7 w -",
        "7/7/7/3X3/3m3/7/7 w -",
        "7/7/7/3M03/3m3/7/7 w -",
        "7/7/7/3M12/3m3/7/7 w -",
        "7/7/7/3M3/3m3/7/7 x -",
        "7/7/7/3M3/3m3/7/7 white -",
        "7/7/7/7/7/7/7 w -",
        "7/7/7/3M3/3m3/7/7 b h9",
        "7/7/7/3M3/3m3/7/7 b d5",
        "7/7/7/3M3/3m3/7/7 w d5",
        "7/7/7/3M3/3m3/7/7 b d4,d4",
        "7/7/7/2MM3/3m3/7/7 b d4,c4",
        "7/7/7/2MM3/3m3/7/7 b c4,",
        "MMMMMMM/MMMMMMM/MMMMMMM/MMMMMMM/3m3/7/7 w -",
    ];
    for text in bad {
        let v = Halatafl::parse_setup(&s, text).expect_err(text);
        assert_eq!(v.rule(), "setup", "{text}");
        assert!(!v.to_string().is_empty());
    }
    // Kings need promotion; huffable points need compulsory-huff.
    let np = with(|s| s.promotion = false);
    assert!(Halatafl::parse_setup(&np, "7/7/7/3K3/3m3/7/7 w -").is_err());
    assert!(Halatafl::parse_setup(&s, "7/7/7/3K3/3m3/7/7 w -").is_ok());
    let comp = with(|s| s.capture = Capture::Compulsory);
    assert!(Halatafl::parse_setup(&comp, "7/7/7/2MM3/3m3/7/7 b c4,d4").is_err());
    assert!(Halatafl::parse_setup(&s, "7/7/7/2MM3/3m3/7/7 b c4,d4").is_ok());
}

#[test]
fn address_rule_from_parse_turn() {
    assert_eq!(
        Halatafl::parse_turn("h9-a1"),
        TurnParse::BadAddress {
            len: 5,
            at: 0,
            address_len: 2
        }
    );
    assert!(matches!(
        Halatafl::parse_turn("Qd4"),
        TurnParse::NoTurn { at: 0, .. }
    ));
}

#[test]
fn board_drawing_accessors() {
    let s = Settings::default();
    let st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(
        st.piece_at(sq("b1")),
        Some(Piece {
            seat: Seat(0),
            rank: Rank::Man
        })
    );
    assert_eq!(st.piece_at(sq("a1")), None);
    assert_eq!(st.piece_at(sq("d4")), None);
    assert_eq!(st.piece_at(sq("c4")).map(|p| p.seat), Some(Seat(1)));
    assert!(is_throne(sq("g7")) && !is_throne(sq("d4")));
    assert_eq!(thrones_of(Seat(1)), sq("a7").bit() | sq("g7").bit());
    // Lines: 42 orthogonal segments, plus 12 on the two long diagonals.
    assert_eq!(s.lines().count(), 84 + 12);
    assert!(s.joined(sq("c3"), sq("d4")));
    assert!(!s.joined(sq("c4"), sq("d5")));
    let none = with(|s| s.diagonals = Diagonals::None);
    assert_eq!(none.lines().count(), 84);
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    assert_eq!(alq.lines().count(), 84 + 36);
}

#[test]
fn messages_are_specific() {
    let s = Settings::default();
    let st = pos(&s, "Me3 mb7", 'w');
    assert_eq!(
        err(&s, &st, "e3-e2").to_string(),
        "the man on e3 cannot step backward to e2"
    );
    let st = pos(&s, "Mb1 mb7", 'w');
    assert_eq!(
        err(&s, &st, "b1-a1").to_string(),
        "a man cannot end its turn on a1, white's own throne"
    );
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Ea1 ma4 me7", 'w');
    assert_eq!(
        err(&e, &st, "a1-a6").to_string(),
        "the emperor's slide from a1 to a6 is blocked at a4"
    );
    let st = pos(&s, "Md2 md3 md5 mb7", 'w');
    assert_eq!(
        err(&s, &st, "d2xd4xd2").to_string(),
        "jump 2 of the chain: the man on d4 cannot jump backward to d2"
    );
}
