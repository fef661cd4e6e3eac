//! Tests of Halatafl moves: steps, lines, jumps and chains, capture obligations and
//! huffs, thrones, promotion, kings and emperors.

use super::*;

// ---------------------------------------------------------------------------------------
// step, lines, settings that change steps

fn step_targets(s: &Settings, st: &State, from: &str) -> Vec<String> {
    legal(s, st)
        .into_iter()
        .filter(|t| t.starts_with(from) && t.contains('-'))
        .collect()
}

#[test]
fn centre_point_has_5_3_8_targets() {
    let board = "Md4 mf7";
    let s = Settings::default();
    assert_eq!(
        step_targets(&s, &pos(&s, board, 'w'), "d4"),
        ["d4-c4", "d4-e4", "d4-c5", "d4-d5", "d4-e5"]
    );
    let s = with(|s| s.diagonals = Diagonals::None);
    assert_eq!(
        step_targets(&s, &pos(&s, board, 'w'), "d4"),
        ["d4-c4", "d4-e4", "d4-d5"]
    );
    let s = with(|s| s.men = Men::Any);
    assert_eq!(step_targets(&s, &pos(&s, board, 'w'), "d4").len(), 8);
    let s = with(|s| s.diagonals = Diagonals::Alquerque);
    assert_eq!(step_targets(&s, &pos(&s, board, 'w'), "d4").len(), 5);
}

#[test]
fn alquerque_diagonals_run_through_even_points() {
    let board = "Mb4 Mb3 mf7";
    let main = Settings::default();
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    // b4: file 1 + rank 3 even: diagonals only with alquerque.
    assert_eq!(
        step_targets(&main, &pos(&main, board, 'w'), "b4"),
        ["b4-a4", "b4-c4", "b4-b5"]
    );
    assert_eq!(
        step_targets(&alq, &pos(&alq, board, 'w'), "b4"),
        ["b4-a4", "b4-c4", "b4-a5", "b4-b5", "b4-c5"]
    );
    // b3: odd, no diagonal in either.
    assert_eq!(rule(&alq, &pos(&alq, board, 'w'), "b3-c4"), "step");
    assert_eq!(rule(&main, &pos(&main, board, 'w'), "b3-a4"), "step");
    // c3 lies on a1–g7: a diagonal with main too.
    let st = pos(&main, "Mc3 mf7", 'w');
    let mut st2 = st;
    ok(&main, &mut st2, "c3-d4");
    assert_eq!(rule(&main, &st, "c3-b4"), "step");
}

#[test]
fn step_rule() {
    let s = Settings::default();
    let st = pos(&s, "Md4 Me5 mb7", 'w');
    for bad in ["d4-d3", "d4-c3", "d4-d6", "d4-d4", "d4-e5", "c3-c4"] {
        assert_eq!(rule(&s, &st, bad), "step", "{bad}");
    }
    assert!(err(&s, &st, "d4-d3").to_string().contains("backward"));
    assert!(err(&s, &st, "d4-e5").to_string().contains("not vacant"));
    assert!(matches!(
        err(&s, &st, "c3-c4"),
        Violation::NoPieceToStep { .. }
    ));
    let mut st2 = st;
    ok(&s, &mut st2, "d4-c4");
    assert_eq!(piece(&st2, "c4"), Some((W, Rank::Man)));
    assert_eq!(piece(&st2, "d4"), None);
    // Black's forward is down the board.
    let st = pos(&s, "Mb1 md4", 'b');
    assert_eq!(rule(&s, &st, "d4-d5"), "step");
    assert_eq!(rule(&s, &st, "d4-e5"), "step");
    let mut st2 = st;
    ok(&s, &mut st2, "d4-c3");
    // With men = any a man may step back.
    let s = with(|s| s.men = Men::Any);
    let mut st = pos(&s, "Md4 mb7", 'w');
    ok(&s, &mut st, "d4-d3");
}

// ---------------------------------------------------------------------------------------
// jump, multi-jump

#[test]
fn jump_rule() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    for bad in ["d4xd2", "d4xf4", "d4xf6", "d4xd7", "c4xc6"] {
        assert_eq!(rule(&s, &st, bad), "jump", "{bad}");
    }
    assert!(matches!(
        err(&s, &st, "c4xc6"),
        Violation::NoPieceToJump { .. }
    ));
    ok(&s, &mut st, "d4xd6");
    assert_eq!(piece(&st, "d5"), None, "the jumped piece is removed");
    assert_eq!(piece(&st, "d6"), Some((W, Rank::Man)));
    assert_eq!(st.count(Seat(B)), 1);
    // Backward jumps only with men = any.
    let st = pos(&s, "Md4 md3 mb7", 'w');
    assert!(err(&s, &st, "d4xd2").to_string().contains("backward"));
    let any = with(|s| s.men = Men::Any);
    let mut st = pos(&any, "Md4 md3 mb7", 'w');
    ok(&any, &mut st, "d4xd2");
    // Own piece, occupied landing.
    let st = pos(&s, "Md4 Md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "d4xd6"), "jump");
    let st = pos(&s, "Md4 md5 Md6 mb7", 'w');
    assert_eq!(rule(&s, &st, "d4xd6"), "jump");
    // A diagonal jump needs a diagonal line: c4-d5-e6 is none with main.
    let st = pos(&s, "Mc4 md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "c4xe6"), "jump");
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    let mut st = pos(&alq, "Mc5 md6 mb7", 'w');
    ok(&alq, &mut st, "c5xe7");
}

#[test]
fn captured_kings_and_emperors_leave_nothing_behind() {
    let e = with(|s| s.emperor = true);
    let mut st = pos(&e, "Md4 Mc5 kd5 ef7 mb7", 'w');
    ok(&e, &mut st, "d4xd6");
    assert_eq!(st.kings(), 0);
    assert_eq!(piece(&st, "d5"), None);
    ok(&e, &mut st, "f7-f5");
    ok(&e, &mut st, "c5-d5");
    assert_eq!(piece(&st, "d5"), Some((W, Rank::Man)));
    // An emperor captured by the short jump.
    let mut st = pos(&e, "Me4 Md2 ee5 mb7", 'w');
    ok(&e, &mut st, "e4xe6");
    assert_eq!(st.emperors(), 0);
    assert_eq!(piece(&st, "e5"), None);
}

#[test]
fn multi_jump_rule() {
    let s = Settings::default();
    let st = pos(&s, "Md2 md3 md5 mf4 mb7", 'w');
    let mut st2 = st;
    ok(&s, &mut st2, "d2xd4xd6");
    assert_eq!(st2.count(Seat(B)), 2);
    // Direction may change: d4 over e4? there is f4: d4xf4 needs e4.
    let st = pos(&s, "Md2 md3 me4 mb7", 'w');
    let mut st2 = st;
    ok(&s, &mut st2, "d2xd4xf4");
    // A later hop that is not a jump.
    let st = pos(&s, "Md2 md3 md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "d2xd4xd2"), "multi-jump");
    assert_eq!(rule(&s, &st, "d2xd4xf4"), "multi-jump");
    assert_eq!(rule(&s, &st, "d2xd4xd7"), "multi-jump");
    // Re-jumping a piece: a king back over d3.
    let st = pos(&s, "Kd2 md3 mb7", 'w');
    let v = err(&s, &st, "d2xd4xd2");
    assert_eq!(v.rule(), "multi-jump");
    assert!(matches!(
        v,
        Violation::MultiJump {
            fault: Fault::AlreadyJumped(_),
            ..
        }
    ));
}

#[test]
fn start_counts_as_empty_and_points_may_be_revisited() {
    let s = Settings::default();
    let mut st = pos(&s, "Kb2 mc2 md3 mc4 mb3 mf7", 'w');
    assert!(legal(&s, &st).contains(&"b2xd2xd4xb4xb2".to_string()));
    ok(&s, &mut st, "b2xd2xd4xb4xb2");
    assert_eq!(st.count(Seat(B)), 1);
    assert_eq!(piece(&st, "b2"), Some((W, Rank::King)));
}

// ---------------------------------------------------------------------------------------
// capture obligations: compulsory-capture, continue-jumps, huff

#[test]
fn compulsory_capture_rule() {
    let board = "Md4 Mg2 md5 mb7";
    let comp = with(|s| s.capture = Capture::Compulsory);
    let st = pos(&comp, board, 'w');
    assert_eq!(rule(&comp, &st, "g2-g3"), "compulsory-capture");
    assert_eq!(legal(&comp, &st), ["d4xd6"]);
    // optional: the step is legal and nothing may be huffed.
    let opt = with(|s| s.capture = Capture::Optional);
    let mut st = pos(&opt, board, 'w');
    assert!(legal(&opt, &st).contains(&"g2-g3".to_string()));
    assert!(legal(&opt, &st).contains(&"d4xd6".to_string()));
    ok(&opt, &mut st, "g2-g3");
    assert_eq!(st.huffable(&opt), 0);
    // compulsory-huff: legal, listed, and huffable.
    let s = Settings::default();
    let mut st = pos(&s, board, 'w');
    assert!(legal(&s, &st).contains(&"g2-g3".to_string()));
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(&s), sq("d4").bit());
}

#[test]
fn a_dead_end_jump_into_own_throne_is_no_capture() {
    let comp = with(|s| s.capture = Capture::Compulsory);
    // c1xa1 would end on white's own throne with no jump onward.
    let st = pos(&comp, "Mc1 mb1 mf7", 'w');
    assert!(!legal(&comp, &st).iter().any(|t| t.contains('x')));
    let mut st2 = st;
    ok(&comp, &mut st2, "c1-c2");
    assert_eq!(rule(&comp, &st, "c1xa1"), "own-throne");
    // With a jump onward it is a capture, and compulsory.
    let st = pos(&comp, "Mc1 mb1 ma2 mf7", 'w');
    assert_eq!(legal(&comp, &st), ["c1xa1xa3"]);
    assert_eq!(rule(&comp, &st, "c1-c2"), "compulsory-capture");
}

#[test]
fn continue_jumps_rule() {
    let board = "Md2 md3 md5 Mf4 mf5 mb7";
    // capture = compulsory: stopping early is illegal.
    let comp = with(|s| s.capture = Capture::Compulsory);
    let st = pos(&comp, board, 'w');
    let v = err(&comp, &st, "d2xd4");
    assert_eq!(v.rule(), "continue-jumps");
    assert_eq!(legal(&comp, &st), ["d2xd4xd6", "f4xf6"]);
    // capture = optional still requires the chain to go on.
    let opt = with(|s| s.capture = Capture::Optional);
    assert_eq!(
        rule(&opt, &pos(&opt, board, 'w'), "d2xd4"),
        "continue-jumps"
    );
    // continue-jumps = optional: any chain may stop.
    let free = with(|s| {
        s.capture = Capture::Compulsory;
        s.continue_jumps = ContinueJumps::Optional;
    });
    let mut st = pos(&free, board, 'w');
    assert_eq!(legal(&free, &st), ["d2xd4", "d2xd4xd6", "f4xf6"]);
    ok(&free, &mut st, "d2xd4");
    assert_eq!(st.huffable(&free), 0);
    // compulsory-huff: legal, and only the chain's piece may be huffed (not f4).
    let s = Settings::default();
    let before = pos(&s, board, 'w');
    let mut st = before;
    ok(&s, &mut st, "d2xd4");
    assert_eq!(st.huffable(&s), sq("d4").bit());
}

#[test]
fn huffable_set_is_the_capturers_followed() {
    let s = Settings::default();
    let board = "Md4 Mg2 Mf4 md5 mf5 mb7";
    let before = pos(&s, board, 'w');
    let mut st = before;
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(&s), sq("d4").bit() | sq("f4").bit());
    // A capturer that stepped is followed to where it went.
    let mut st = before;
    ok(&s, &mut st, "d4-c4");
    assert_eq!(st.huffable(&s), sq("c4").bit() | sq("f4").bit());
    // A turn that captures fails nothing, whichever piece captured.
    let mut st = before;
    ok(&s, &mut st, "f4xf6");
    assert_eq!(st.huffable(&s), 0);
}

#[test]
fn huff_rule() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    // No huff right at the start.
    assert_eq!(rule(&s, &st, "huff d5 d4xd6"), "huff");
    ok(&s, &mut st, "g2-g3");
    // Wrong piece; a huff alone that does not win.
    assert_eq!(rule(&s, &st, "huff g3 b7-b6"), "huff");
    assert_eq!(rule(&s, &st, "huff d4"), "huff");
    // The huff comes first: a bad huff with a bad move cites huff.
    assert_eq!(rule(&s, &st, "huff g3 b7-b5"), "huff");
    // The legal turns list the huff variants.
    let l = legal(&s, &st);
    assert!(l.contains(&"huff d4 b7-b6".to_string()));
    assert!(l.contains(&"b7-b6".to_string()));
    assert!(!l.contains(&"huff d4".to_string()));
    ok(&s, &mut st, "huff d4 b7-b6");
    assert_eq!(piece(&st, "d4"), None);
    assert_eq!(st.count(Seat(W)), 1);
    assert_eq!(
        st.quiet(),
        0,
        "a huff counts as a capture for the quiet count"
    );
    // Declining the huff: the right lapses after one turn.
    let mut st = pos(&s, "Mb2 Mb3 Mg2 mb4 mf7", 'w');
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(&s), sq("b3").bit());
    assert!(legal(&s, &st).contains(&"huff b3 b4-c4".to_string()));
    ok(&s, &mut st, "b4-c4");
    assert_eq!(st.huffable(&s), 0);
    ok(&s, &mut st, "g3-g4");
    assert_eq!(st.huffable(&s), 0);
    assert_eq!(piece(&st, "b3"), Some((W, Rank::Man)));
    assert_eq!(rule(&s, &st, "huff b3 c4-c3"), "huff");
    assert!(!legal(&s, &st).iter().any(|t| t.starts_with("huff")));
}

#[test]
fn huffer_capture_is_judged_after_the_huff() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    // Black's d5 could capture d4; huffing d4 removes that capture.
    let mut huffed = st;
    ok(&s, &mut huffed, "huff d4 b7-b6");
    assert_eq!(huffed.huffable(&s), 0);
    // Without the huff the step fails to capture and white may huff d5.
    let mut plain = st;
    ok(&s, &mut plain, "b7-b6");
    assert_eq!(plain.huffable(&s), sq("d5").bit());
}

#[test]
fn a_winning_huff_is_alone_and_ends_the_game() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4-c4");
    assert_eq!(st.huffable(&s), sq("c4").bit());
    let l = legal(&s, &st);
    assert!(l.contains(&"huff c4".to_string()));
    assert!(!l.iter().any(|t| t.starts_with("huff c4 ")));
    assert_eq!(rule(&s, &st, "huff c4 b7-b6"), "huff");
    assert!(matches!(
        err(&s, &st, "huff c4 b7-b6"),
        Violation::MoveAfterWinningHuff { .. }
    ));
    assert_eq!(rule(&s, &st, "huff d4"), "huff");
    ok(&s, &mut st, "huff c4");
    won(&s, &st, B, "capture-all", "win-capture-all");
    // Under reduce-to the huff wins when it reduces enough.
    let r = with(|s| s.win = Win::ReduceTo(1));
    let mut st = pos(&r, "Md4 Mg2 md5 mb7", 'w');
    ok(&r, &mut st, "g2-g3");
    ok(&r, &mut st, "huff d4");
    won(&r, &st, B, "reduce-to", "win-reduce-to");
}

// ---------------------------------------------------------------------------------------
// thrones, promotion, kings, emperors

#[test]
fn own_throne_rule() {
    let s = Settings::default();
    let st = pos(&s, "Mb1 mf7", 'w');
    assert_eq!(rule(&s, &st, "b1-a1"), "own-throne");
    assert!(!legal(&s, &st).contains(&"b1-a1".to_string()));
    // Landing there in passing and jumping on is legal; ending there is not.
    let st = pos(&s, "Mc1 mb1 ma2 mb2 mf7", 'w');
    assert_eq!(rule(&s, &st, "c1xa1"), "own-throne");
    let l = legal(&s, &st);
    assert!(l.contains(&"c1xa1xa3".to_string()), "{l:?}");
    assert!(l.contains(&"c1xa1xc3".to_string()), "{l:?}");
    assert!(!l.contains(&"c1xa1".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "c1xa1xa3");
    assert_eq!(st2.count(Seat(B)), 2);
    // A king may stop on its own throne.
    let mut st = pos(&s, "Kb1 mf7", 'w');
    ok(&s, &mut st, "b1-a1");
    // Black's thrones are a7 and g7.
    let st = pos(&s, "Mb1 mb7", 'b');
    assert_eq!(rule(&s, &st, "b7-a7"), "own-throne");
}

#[test]
fn promotion_rule() {
    let s = Settings::default();
    let st = pos(&s, "Mf6 mb6", 'w');
    assert!(legal(&s, &st).contains(&"f6-g7=K".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "f6-g7=K");
    assert_eq!(piece(&st2, "g7"), Some((W, Rank::King)));
    let mut st2 = st;
    ok(&s, &mut st2, "f6-g7");
    assert_eq!(
        piece(&st2, "g7"),
        Some((W, Rank::King)),
        "the marker is optional"
    );
    assert_eq!(rule(&s, &st, "f6-f7=K"), "promotion");
    assert_eq!(rule(&s, &st, "f6-g7=E"), "emperor");
    // promotion = false: no king, and =K is wrong.
    let np = with(|s| s.promotion = false);
    let st = pos(&np, "Mf6 mb6", 'w');
    assert!(legal(&np, &st).contains(&"f6-g7".to_string()));
    assert_eq!(rule(&np, &st, "f6-g7=K"), "promotion");
    let mut st2 = st;
    ok(&np, &mut st2, "f6-g7");
    assert_eq!(piece(&st2, "g7"), Some((W, Rank::Man)));
    // Black promotes on a1 / g1.
    let mut st = pos(&s, "Mf5 mb2", 'b');
    ok(&s, &mut st, "b2-a1=K");
    assert_eq!(piece(&st, "a1"), Some((B, Rank::King)));
}

#[test]
fn promotion_in_passing_keeps_the_rank_for_the_turn() {
    let s = Settings::default();
    // e5xg7 lands on black's throne, then jumps on sideways as a man.
    let st = pos(&s, "Me5 mf6 mf7 mb7", 'w');
    assert!(legal(&s, &st).contains(&"e5xg7xe7=K".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "e5xg7xe7=K");
    assert_eq!(piece(&st2, "e7"), Some((W, Rank::King)));
    // As a man it cannot jump backward from g7, although a king could.
    let st = pos(&s, "Me5 mf6 mg6 mb7", 'w');
    assert_eq!(rule(&s, &st, "e5xg7xg5"), "multi-jump");
    let comp = with(|s| s.capture = Capture::Compulsory);
    let mut st = pos(&comp, "Me5 mf6 mg6 mb7", 'w');
    assert_eq!(legal(&comp, &st), ["e5xg7=K"]);
    ok(&comp, &mut st, "e5xg7=K");
    assert_eq!(st.huffable(&s), 0);
}

#[test]
fn king_move_rule() {
    let s = Settings::default();
    let st = pos(&s, "Kd4 md3 mb7", 'w');
    let l = legal(&s, &st);
    for t in ["d4xd2", "d4-c3", "d4-e3", "d4-c4", "d4-d5"] {
        assert!(l.contains(&t.to_string()), "{t} in {l:?}");
    }
    for bad in ["d4-d6", "d4-b2", "d4xd1", "d4-c2"] {
        assert_eq!(rule(&s, &st, bad), "king-move", "{bad}");
    }
    let mut st2 = st;
    ok(&s, &mut st2, "d4xd2");
    assert_eq!(piece(&st2, "d2"), Some((W, Rank::King)));
    // Diagonally only along the lines.
    let st = pos(&s, "Kc4 mb7", 'w');
    assert_eq!(rule(&s, &st, "c4-d5"), "king-move");
    let none = with(|s| s.diagonals = Diagonals::None);
    let st = pos(&none, "Kd4 mb7", 'w');
    assert_eq!(rule(&none, &st, "d4-c3"), "king-move");
    // A king steps onto any throne.
    let mut st = pos(&s, "Kf6 mb6", 'w');
    ok(&s, &mut st, "f6-g7");
}

#[test]
fn emperor_rule() {
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Kb2 mf7", 'w');
    assert!(legal(&e, &st).contains(&"b2-a1=E".to_string()));
    assert_eq!(rule(&e, &st, "b2-a1=K"), "promotion");
    assert_eq!(rule(&e, &st, "b2-c3=E"), "emperor");
    let mut st2 = st;
    ok(&e, &mut st2, "b2-a1=E");
    assert_eq!(piece(&st2, "a1"), Some((W, Rank::Emperor)));
    // Also in passing.
    let mut st = pos(&e, "Kc3 mb2 ma2 mf7", 'w');
    ok(&e, &mut st, "c3xa1xa3=E");
    assert_eq!(piece(&st, "a3"), Some((W, Rank::Emperor)));
    // A man promoted in passing finishes as a man: no emperor the same turn.
    let mut st = pos(&e, "Me5 mf6 mf7 mb7", 'w');
    ok(&e, &mut st, "e5xg7xe7=K");
    assert_eq!(piece(&st, "e7"), Some((W, Rank::King)));
    // emperor = false: kings stay kings, =E is wrong.
    let s = Settings::default();
    let st = pos(&s, "Kb2 mf7", 'w');
    assert_eq!(rule(&s, &st, "b2-a1=E"), "emperor");
    let mut st2 = st;
    ok(&s, &mut st2, "b2-a1");
    assert_eq!(piece(&st2, "a1"), Some((W, Rank::King)));
}

#[test]
fn emperor_move_rule() {
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Ea1 ma4 mb2 me7", 'w');
    for bad in ["a1-a6", "a1-c3", "a1-b3", "a1xa5"] {
        assert_eq!(rule(&e, &st, bad), "emperor-move", "{bad}");
    }
    assert!(err(&e, &st, "a1-a6").to_string().contains("blocked at a4"));
    let l = legal(&e, &st);
    for t in ["a1-a2", "a1-a3", "a1-g1", "a1-b1", "a1xc3"] {
        assert!(l.contains(&t.to_string()), "{t} in {l:?}");
    }
    let st = pos(&e, "Ea1 me6", 'w');
    let mut st2 = st;
    ok(&e, &mut st2, "a1-g7");
    let mut st2 = st;
    ok(&e, &mut st2, "a1-a7");
    let mut st2 = st;
    ok(&e, &mut st2, "a1-g1");
    // A slide captures nothing.
    let st = pos(&e, "Ea1 ma3 me6", 'w');
    assert_eq!(rule(&e, &st, "a1-a4"), "emperor-move");
    // Emperors are not pieces of rulesets without them.
    assert_eq!(
        Halatafl::parse_setup(&Settings::default(), &setup("Ea1 me6", 'w', "-"))
            .unwrap_err()
            .rule(),
        "setup"
    );
}

#[test]
fn positions_are_equal_when_pieces_seat_counts_and_huff_right_are() {
    let s = Settings::default();
    let start = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    // Judging keeps the step that failed to capture and works out what may be huffed only
    // where asked; applying the listed turn works it out at once. The same position.
    let (mut judged, mut applied) = (start, start);
    ok(&s, &mut judged, "g2-g3");
    Halatafl::apply_legal(&s, &mut applied, None, &turn("g2-g3"));
    assert_eq!(judged.huffable, board::UNKNOWN);
    assert_eq!(applied.huffable, sq("d4").bit());
    assert_eq!(judged, applied);
    // Any other piece, seat to move, quiet count, end or step makes another position.
    let mut other = start;
    ok(&s, &mut other, "g2-f2");
    assert_ne!(judged, other);
    assert_ne!(
        judged,
        State {
            to_move: 0,
            ..judged
        }
    );
    assert_ne!(
        judged,
        State {
            quiet: judged.quiet + 1,
            ..judged
        }
    );
    let mut ended = pos(&s, "Md4 md5", 'w');
    ok(&s, &mut ended, "d4xd6");
    assert!(ended.end.is_some());
    assert_ne!(ended, State { end: None, ..ended });
    assert_ne!(
        judged,
        State {
            failed: None,
            huffable: sq("d4").bit(),
            ..judged
        }
    );
    // Without a step, the points that may be huffed are the position's own.
    let listed = pos_h(&s, "Md4 Mg3 md5 mb7", 'b', "d4");
    assert_ne!(
        listed,
        State {
            huffable: 0,
            ..listed
        }
    );
}
