//! The setup notation's `out` (a seat that resigned): printed, read back to the same
//! position, and refused where it makes no sense.

use super::super::board::HAND;
use super::super::{Settings, State};
use crate::games::thaayam::Thaayam;
use crate::games::{Game, Seat, Status, Violation as _};

use crate::games::thaayam::tests::{seats, setup};

/// The `setup` error's message for a refused setup string.
fn refused(s: &Settings, text: &str) -> String {
    match Thaayam::parse_setup(s, text) {
        Ok(st) => panic!("`{text}` is read as {st:?}"),
        Err(v) => {
            assert_eq!(v.rule(), "setup", "{text}");
            v.to_string()
        }
    }
}

#[test]
fn a_resigned_seat_is_written_out_and_read_back_as_the_same_position() {
    let s = seats(&["south", "west", "north"]);
    let mut st = setup(
        &s,
        "south: c1 Tc5 hand=1; west: a3 hand=3; north: e5 off=1; to-move: south",
    );
    Thaayam::resign(&s, &mut st).expect("a resignation");
    let text = Thaayam::setup_string(&s, &st);
    assert_eq!(
        text,
        "south: out; west: a3 hand=3; north: e5 hand=2 off=1; to-move: west"
    );
    let back = setup(&s, &text);
    assert_eq!(back, st, "the position read back differs");
    assert!(!back.is_playing(Seat(0)));
    assert_eq!(back.pos[0], [HAND; 4]);
    assert_eq!(
        Thaayam::status(&s, &back),
        Status::Playing { to_move: Seat(1) }
    );
    // And it goes on alike: the next resignation ends the game with north the winner.
    let (mut a, mut b) = (st, back);
    Thaayam::resign(&s, &mut a).expect("a resignation");
    Thaayam::resign(&s, &mut b).expect("a resignation");
    assert_eq!(a, b);
    let Status::Over(end) = Thaayam::status(&s, &b) else {
        panic!("not over")
    };
    assert!(end.winners.contains(Seat(2)) && end.winners.len() == 1);
}

#[test]
fn out_in_the_middle_of_the_turn_order_is_skipped() {
    let s = seats(&["south", "west", "north", "east"]);
    let st = setup(&s, "west: out; north: c3 hand=3; to-move: south");
    assert_eq!(st.playing, 0b1101);
    assert_eq!(st.next_after(Seat(0)), Seat(2));
    // South and east, not mentioned, still play with every piece in hand.
    assert_eq!(st.hand(Seat(0)), 4);
    assert_eq!(st.hand(Seat(3)), 4);
    assert_eq!(
        Thaayam::setup_string(&s, &st),
        "south: hand=4; west: out; north: c3 hand=3; east: hand=4; to-move: south"
    );
}

#[test]
fn a_setup_without_out_still_means_what_it_meant() {
    let s = seats(&["south", "west", "north"]);
    let st = setup(&s, "south: c1 hand=3; to-move: south");
    assert_eq!(st.playing, 0b0111);
    assert_eq!(
        Thaayam::setup_string(&s, &st),
        "south: c1 hand=3; west: hand=4; north: hand=4; to-move: south"
    );
}

#[test]
fn out_with_pieces_or_leaving_one_seat_is_refused() {
    let s3 = seats(&["south", "west", "north"]);
    let m = refused(&s3, "west: out c1; to-move: south");
    assert!(
        m.contains("`west: out c1`") && m.contains("`west: out` alone"),
        "{m}"
    );
    let m = refused(&s3, "west: c1 out; to-move: south");
    assert!(m.contains("`west: c1 out`"), "{m}");
    refused(&s3, "west: out out; to-move: south");
    refused(&s3, "west: out hand=4; to-move: south");
    refused(&s3, "west: outc1; to-move: south");
    let m = refused(&s3, "west: out; to-move: west");
    assert!(m.contains("west is out of the game"), "{m}");
    let m = refused(&s3, "west: out; north: out; to-move: south");
    assert!(m.contains("the game would be over"), "{m}");
    refused(&seats(&["south", "north"]), "north: out; to-move: south");
    // A seat that does not play cannot be out either.
    let m = refused(&s3, "east: out; to-move: south");
    assert!(m.contains("does not play"), "{m}");
    // Written twice, out or not.
    refused(&s3, "west: out; west: out; to-move: south");
    refused(&s3, "west: out; west: c1; to-move: south");
}

#[test]
fn a_game_ended_by_resignations_writes_a_setup_that_is_refused() {
    let s = seats(&["south", "west", "north"]);
    let mut st = State::start(s.mask(), Seat(0));
    Thaayam::resign(&s, &mut st).expect("a resignation");
    Thaayam::resign(&s, &mut st).expect("a resignation");
    let text = Thaayam::setup_string(&s, &st);
    assert!(
        text.starts_with("south: out; west: out; north: hand=4"),
        "{text}"
    );
    refused(&s, &text);
}
