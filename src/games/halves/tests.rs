//! Unit tests: one or more per rule id, each failing if its rule broke.

use super::*;
use crate::games::{Game, SeatSet, Status, Violation as _};
use crate::notation::halves::Cell;
use board::MAX_TILES;

fn c(q: i32, r: i32) -> Cell {
    Cell::new(q, r).unwrap()
}

fn settings(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::default();
    f(&mut s);
    s
}

/// Three seats from the manual start, a placement touching two tiles of any colour.
fn manual_three_seats_touching_two() -> Settings {
    settings(|s| {
        s.start = Start::Manual;
        s.must_touch = 2;
        s.touch = Touch::Any;
        s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
    })
}

/// Three seats of 21 tiles: the largest table, [`MAX_TILES`].
fn three_seats_full_table() -> Settings {
    settings(|s| {
        s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
        s.tiles_each = 21;
    })
}

fn setup(s: &Settings, text: &str) -> State {
    let st = Halves::parse_setup(s, text).unwrap_or_else(|v| panic!("{text}: {v}"));
    let none = crate::notation::record::Header::default();
    Halves::start(s, Some(st), &none, None).unwrap()
}

fn play(s: &Settings, st: &mut State, t: &str) -> Result<(), Violation> {
    let turn = match Halves::parse_turn(t) {
        TurnParse::Turn(turn, _) => turn,
        other => panic!("{t}: {other:?}"),
    };
    Halves::play(s, st, None, &turn)
}

fn rule_of(s: &Settings, st: &State, t: &str) -> &'static str {
    let mut st = *st;
    play(s, &mut st, t).expect_err(t).rule()
}

fn legal(s: &Settings, st: &State) -> Vec<String> {
    let mut v = Vec::new();
    Halves::legal_turns(s, st, None, &mut v);
    v.iter().map(|t| t.to_string()).collect()
}

#[test]
fn halves_1_layout_matches_the_spec() {
    let s = Settings::default();
    let mut dice = Dice::from_seed("halves-1");
    let none = crate::notation::record::Header::default();
    let st = Halves::start(&s, None, &none, Some(&mut dice)).unwrap();
    assert_eq!(
        Halves::setup_string(&s, &st),
        "white: (-5,4) (-5,5) (-4,3) (-3,0) (-2,1) (-1,1) (-1,4) (0,-1) (0,0) (0,1) (0,3) (2,0); black: (-5,6) (-4,1) (-4,2) (-3,2) (-2,-1) (-1,3) (0,2) (1,-1) (1,0) (1,1) (1,2) (2,-1); to-move: white; phase: contract"
    );
}

#[test]
fn random_start_needs_a_seed_or_setup() {
    let s = Settings::default();
    let none = crate::notation::record::Header::default();
    let v = Halves::start(&s, None, &none, None).unwrap_err();
    assert_eq!(v.rule(), "setup");
}

#[test]
fn random_start_without_contract_or_with_three_seats_is_waning() {
    let none = crate::notation::record::Header::default();
    for s in [
        settings(|s| s.contract = false),
        settings(|s| s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)])),
    ] {
        let mut dice = Dice::from_seed("x");
        let st = Halves::start(&s, None, &none, Some(&mut dice)).unwrap();
        assert_eq!(st.phase, Phase::Waning);
        assert_eq!(st.to_move, Seat(0));
        assert!(st.tiles.connected());
        assert_eq!(st.tiles.len(), s.seats.len() * 12);
    }
}

#[test]
fn setup_round_trips_and_rejects_bad_structure() {
    let s = Settings::default();
    let text = "white: (0,0) (1,0) (2,-1); black: (0,1) (1,1); to-move: black; phase: waning";
    let st = setup(&s, text);
    assert_eq!(Halves::setup_string(&s, &st), text);
    let empty = "white: (0,0); black:; to-move: white; phase: waning";
    let st = Halves::parse_setup(&s, empty).unwrap();
    assert_eq!(Halves::setup_string(&s, &st), empty);
    for bad in [
        "white: (0,0) (5,5); black: (0,1); to-move: white; phase: waning",
        "white: (0,0) (0,0); black: (0,1); to-move: white; phase: waning",
        "white: (0,0); black: (0,1); to-move: red; phase: waning",
        "white: (0,0); black: (0,1); to-move: white; phase: later",
        "white: (0,0); black: (0,1); to-move: white",
        "white: (0,0); black: (0,1); to-move: black; phase: contract",
        "white: (0,0); black: (0,1) (1000,0); to-move: white; phase: waning",
        "white: (0,0); black: (0,1); red: (1,0); to-move: white; phase: waning",
    ] {
        let v = Halves::parse_setup(&s, bad).expect_err(bad);
        assert_eq!(v.rule(), "setup", "{bad}");
    }
}

#[test]
fn manual_start_lays_the_first_tiles() {
    let s = settings(|s| s.start = Start::Manual);
    let none = crate::notation::record::Header::default();
    let st = Halves::start(&s, None, &none, None).unwrap();
    assert_eq!(
        Halves::setup_string(&s, &st),
        "white: (0,0); black: (0,1); to-move: white; phase: waxing"
    );
    assert_eq!(st.hand[0], 11);
    let s3 = settings(|s| {
        s.start = Start::Manual;
        s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
    });
    let st = Halves::start(&s3, None, &none, None).unwrap();
    assert_eq!(
        Halves::setup_string(&s3, &st),
        "white: (0,0); black: (0,1); red: (1,0); to-move: white; phase: waxing"
    );
}

#[test]
fn place_must_touch_and_touch_enemy() {
    let s = settings(|s| s.start = Start::Manual);
    let st = setup(
        &s,
        "white: (0,0) (1,-1); black: (0,1); to-move: white; phase: waxing",
    );
    assert_eq!(rule_of(&s, &st, "+(0,0)"), "place");
    // (2,-2) touches only white's (1,-1).
    assert_eq!(rule_of(&s, &st, "+(2,-2)"), "touch-enemy");
    assert_eq!(rule_of(&s, &st, "+(5,5)"), "must-touch");
    let mut ok = st;
    play(&s, &mut ok, "+(1,0)").unwrap();
    assert_eq!(ok.to_move, Seat(1));
    // touch = any allows a tile touching only friends.
    let any = settings(|s| {
        s.start = Start::Manual;
        s.touch = Touch::Any;
    });
    let mut st2 = setup(
        &any,
        "white: (0,0) (1,-1); black: (0,1); to-move: white; phase: waxing",
    );
    play(&any, &mut st2, "+(2,-2)").unwrap();
    // must-touch 2: a tile touching one tile is refused, two is fine.
    let two = settings(|s| {
        s.start = Start::Manual;
        s.must_touch = 2;
    });
    let st3 = setup(
        &two,
        "white: (0,0) (1,-1); black: (0,1); to-move: white; phase: waxing",
    );
    assert_eq!(rule_of(&two, &st3, "+(-1,0)"), "must-touch");
    let mut st4 = st3;
    play(&two, &mut st4, "+(1,0)").unwrap();
    // A removal in the waxing is remove-own (wrong phase).
    assert_eq!(rule_of(&s, &st, "x(0,0)"), "remove-own");
}

#[test]
fn waxing_ends_in_the_contract_then_keep_or_swap() {
    let s = settings(|s| {
        s.start = Start::Manual;
        s.tiles_each = 2;
    });
    let none = crate::notation::record::Header::default();
    let mut st = Halves::start(&s, None, &none, None).unwrap();
    play(&s, &mut st, "+(1,0)").unwrap();
    assert_eq!(rule_of(&s, &st, "keep"), "contract");
    play(&s, &mut st, "+(-1,1)").unwrap();
    assert_eq!(st.phase, Phase::Contract);
    assert_eq!(st.to_move, Seat(0));
    assert_eq!(legal(&s, &st), ["keep", "swap"]);
    assert_eq!(rule_of(&s, &st, "x(0,0)"), "contract");
    assert_eq!(rule_of(&s, &st, "pass"), "contract");
    let mut kept = st;
    play(&s, &mut kept, "keep").unwrap();
    assert_eq!(
        (kept.phase, kept.to_move, kept.swapped),
        (Phase::Waning, Seat(1), false)
    );
    assert_eq!(rule_of(&s, &kept, "swap"), "contract");
    let mut swapped = st;
    play(&s, &mut swapped, "swap").unwrap();
    assert_eq!((swapped.to_move, swapped.swapped), (Seat(0), true));
    // Rulings after a swap name the player too.
    let v = {
        let mut x = swapped;
        play(&s, &mut x, "x(0,1)").unwrap_err()
    };
    assert!(v.to_string().contains("`Black` player"), "{v}");
    // No contract: straight to the waning, white first; keep is refused.
    let nc = settings(|s| {
        s.start = Start::Manual;
        s.tiles_each = 1;
        s.contract = false;
    });
    let st = Halves::start(&nc, None, &none, None).unwrap();
    assert_eq!((st.phase, st.to_move), (Phase::Waning, Seat(0)));
    assert_eq!(rule_of(&nc, &st, "keep"), "contract");
}

#[test]
fn remove_own_and_free_edges() {
    let s = Settings::default();
    let st = setup(
        &s,
        "white: (0,0) (1,0) (2,-1); black: (0,1) (1,1); to-move: white; phase: waning",
    );
    assert_eq!(rule_of(&s, &st, "x(0,1)"), "remove-own");
    assert_eq!(rule_of(&s, &st, "x(7,7)"), "remove-own");
    assert_eq!(rule_of(&s, &st, "+(3,-1)"), "place");
    let fe = settings(|s| s.free_edges = 4);
    // (1,0) touches (0,0), (2,-1), (0,1), (1,1): two free edges.
    assert_eq!(rule_of(&fe, &st, "x(1,0)"), "free-edges");
    let mut ok = st;
    play(&fe, &mut ok, "x(2,-1)").unwrap();
}

/// The worked example of halves.txt: white removes its bridging tile, the smaller
/// (left) group goes, and white wins on its next move.
#[test]
fn the_worked_example() {
    let s = Settings::default();
    let mut st = setup(
        &s,
        "white: (-2,1) (-1,0) (0,-1); black: (1,-1) (0,0); to-move: white; phase: waning",
    );
    play(&s, &mut st, "x(-1,0)").unwrap();
    assert_eq!(
        Halves::setup_string(&s, &st),
        "white: (0,-1); black: (0,0) (1,-1); to-move: black; phase: waning"
    );
    play(&s, &mut st, "x(1,-1)").unwrap();
    play(&s, &mut st, "x(0,-1)").unwrap();
    match Halves::status(&s, &st) {
        Status::Over(e) => {
            assert_eq!(e.winners, SeatSet::only(Seat(0)));
            assert_eq!(e.rule, Some("win-first-out"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(rule_of(&s, &st, "x(0,0)"), "game-over");
}

#[test]
fn split_keep_and_keep_choice() {
    // Removing (0,0) leaves (0,-1),(0,-2) north and (0,1) south... and (1,0) apart.
    let text =
        "white: (0,0) (0,-2); black: (0,-1) (0,1) (0,2) (1,0); to-move: white; phase: waning";
    // largest: the unique largest survives; the other group is not allowed.
    let s = Settings::default();
    let st = setup(&s, text);
    // Groups: {(0,-1),(0,-2)} (2), {(0,1),(0,2),(1,0)} (3).
    let mut a = st;
    play(&s, &mut a, "x(0,0)").unwrap();
    assert_eq!(a.tiles.len(), 3);
    assert_eq!(rule_of(&s, &st, "x(0,0)/(0,-1)"), "split-keep");
    assert_eq!(rule_of(&s, &st, "x(0,0)/(0,0)"), "keep-choice");
    assert_eq!(rule_of(&s, &st, "x(0,0)/(9,9)"), "keep-choice");
    // A choice where none was needed is accepted if it names the survivor.
    let mut b = st;
    play(&s, &mut b, "x(0,0)/(1,0)").unwrap();
    assert_eq!(a, b);
    // chosen: the mover must write it, and may keep either.
    let ch = settings(|s| s.keep = Keep::Chosen);
    assert_eq!(rule_of(&ch, &st, "x(0,0)"), "keep-choice");
    let mut d = st;
    play(&ch, &mut d, "x(0,0)/(0,-2)").unwrap();
    assert_eq!(d.tiles.len(), 2);
    assert_eq!(d.end.map(|e| e.winners), None);
    assert!(legal(&ch, &st).contains(&"x(0,0)/(0,-2)".to_string()));
    // most-friendly: white's tiles after the removal: (0,-2) in the small group.
    let mf = settings(|s| s.keep = Keep::MostFriendly);
    assert_eq!(rule_of(&mf, &st, "x(0,0)/(1,0)"), "split-keep");
    let mut e = st;
    play(&mf, &mut e, "x(0,0)").unwrap();
    assert_eq!(
        Halves::setup_string(&mf, &e),
        "white: (0,-2); black: (0,-1); to-move: black; phase: waning"
    );
    // Equal largest: the mover must choose.
    let tie = "white: (0,0); black: (0,-1) (0,1); to-move: white; phase: waning";
    let st = setup(&s, tie);
    assert_eq!(rule_of(&s, &st, "x(0,0)"), "keep-choice");
    assert_eq!(legal(&s, &st), ["x(0,0)/(0,-1)", "x(0,0)/(0,1)"]);
    // One group left (the neighbours of (0,2) go round it in one run): a choice written
    // is accepted where it names a tile left, refused where it names none.
    let one = "white: (0,2) (0,0); black: (0,1) (1,1); to-move: white; phase: waning";
    let st = setup(&s, one);
    let mut f = st;
    play(&s, &mut f, "x(0,2)").unwrap();
    let mut g = st;
    play(&s, &mut g, "x(0,2)/(1,1)").unwrap();
    assert_eq!(f, g);
    assert_eq!(f.tiles.len(), 3);
    assert_eq!(rule_of(&s, &st, "x(0,2)/(0,2)"), "keep-choice");
    assert_eq!(rule_of(&s, &st, "x(0,2)/(5,5)"), "keep-choice");
}

#[test]
fn pass_only_without_a_legal_turn_and_dead_position() {
    let s = Settings::default();
    let st = setup(
        &s,
        "white: (0,0) (1,0); black: (0,1); to-move: white; phase: waning",
    );
    assert_eq!(rule_of(&s, &st, "pass"), "pass");
    // free-edges 6: no tile can go; both pass: dead position.
    let fe = settings(|s| s.free_edges = 6);
    let mut st = setup(
        &fe,
        "white: (0,0) (1,0); black: (0,1); to-move: white; phase: waning",
    );
    assert_eq!(legal(&fe, &st), ["pass"]);
    play(&fe, &mut st, "pass").unwrap();
    assert!(st.end.is_none());
    play(&fe, &mut st, "pass").unwrap();
    match Halves::status(&fe, &st) {
        Status::Over(e) => {
            assert!(e.draw);
            assert_eq!(e.rule, Some("dead-position"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn last_standing_and_shared_first_out() {
    let inv = settings(|s| s.win = Win::LastStanding);
    let mut st = setup(
        &inv,
        "white: (0,0); black: (0,1) (0,2); to-move: white; phase: waning",
    );
    play(&inv, &mut st, "x(0,0)").unwrap();
    match Halves::status(&inv, &st) {
        Status::Over(e) => {
            assert_eq!(e.winners, SeatSet::only(Seat(1)));
            assert_eq!(e.rule, Some("win-last-standing"));
        }
        other => panic!("{other:?}"),
    }
    // Three seats, last-standing: an empty seat is skipped.
    let inv3 = settings(|s| {
        s.win = Win::LastStanding;
        s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
    });
    let mut st = setup(
        &inv3,
        "white: (0,0) (0,-1); black: (0,1) (0,2); red: (1,0); to-move: red; phase: waning",
    );
    play(&inv3, &mut st, "x(1,0)").unwrap();
    assert!(st.end.is_none());
    assert_eq!(st.to_move, Seat(0));
    play(&inv3, &mut st, "x(0,-1)").unwrap();
    assert_eq!(st.to_move, Seat(1));
    // After black, red (out) is skipped: white moves.
    play(&inv3, &mut st, "x(0,2)").unwrap();
    assert!(st.end.is_none());
    assert_eq!(st.to_move, Seat(0));
    // Three seats, first-out: a split that empties two seats at once: they share.
    let s3 = settings(|s| s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]));
    let mut st = setup(
        &s3,
        "white: (0,0) (0,-1); black: (0,1) (0,2) (0,3); red: (1,-1); to-move: white; phase: waning",
    );
    // Removing (0,0) leaves {(0,-1),(1,-1)} and {(0,1),(0,2),(0,3)}: black's survive.
    play(&s3, &mut st, "x(0,0)").unwrap();
    match Halves::status(&s3, &st) {
        Status::Over(e) => {
            assert_eq!(e.winners, SeatSet::only(Seat(0)).with(Seat(2)));
            assert_eq!(e.rule, Some("win-first-out"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn resign_in_three_seats_leaves_and_play_goes_on() {
    let s3 = settings(|s| s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]));
    let mut st = setup(
        &s3,
        "white: (0,0) (0,-1); black: (0,1) (0,2); red: (1,0); to-move: white; phase: waning",
    );
    Halves::resign(&s3, &mut st).expect("a resignation");
    assert!(st.end.is_none());
    assert_eq!(st.to_move, Seat(1));
    // The setup string says white has left (its tiles stay), and reads back the same.
    let text = Halves::setup_string(&s3, &st);
    assert_eq!(
        text,
        "white: resigned (0,-1) (0,0); black: (0,1) (0,2); red: (1,0); to-move: black; phase: waning"
    );
    let back = setup(&s3, &text);
    assert_eq!(back.resigned, st.resigned);
    assert_eq!(Halves::setup_string(&s3, &back), text);
    Halves::resign(&s3, &mut st).expect("a resignation");
    match Halves::status(&s3, &st) {
        Status::Over(e) => assert_eq!(e.winners, SeatSet::only(Seat(2))),
        other => panic!("{other:?}"),
    }
}

#[test]
fn passes_just_made_in_a_setup() {
    let s = settings(|s| s.free_edges = 6);
    let text = "white: (0,0) (1,0); black: (0,1); to-move: white; phase: waning";
    let mut st = setup(&s, text);
    play(&s, &mut st, "pass").unwrap();
    let after = Halves::setup_string(&s, &st);
    assert_eq!(
        after,
        "white: (0,0) (1,0); black: (0,1); to-move: black; phase: waning; passes: 1"
    );
    // Read back, black's pass ends the game as it does in play.
    let mut back = setup(&s, &after);
    assert_eq!(back.passes, 1);
    for st in [&mut st, &mut back] {
        play(&s, st, "pass").unwrap();
        match Halves::status(&s, st) {
            Status::Over(e) => assert_eq!(e.rule, Some("dead-position")),
            other => panic!("{other:?}"),
        }
    }
    for bad in [
        "white: (0,0) (1,0); black: (0,1); to-move: black; phase: waning; passes: 2",
        "white: (0,0) (1,0); black: (0,1); to-move: black; phase: waning; passes: x",
        "white: (0,0) (1,0); black: (0,1); to-move: black; phase: waning; passes: 1; passes: 1",
    ] {
        let v = Halves::parse_setup(&s, bad).expect_err(bad);
        assert_eq!(v.rule(), "setup", "{bad}");
    }
    let v = Halves::parse_setup(
        &s,
        "white: (0,0) (1,0); black: (0,1); to-move: black; phase: waning; passes: 2",
    )
    .unwrap_err();
    assert_eq!(
        v.to_string(),
        "`passes: 2` is not a count of passes just made: write 0 to 1, fewer than the seats taking turns (as many would have ended the game)"
    );
}

#[test]
fn a_resigned_seat_in_a_setup() {
    let s3 = settings(|s| s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]));
    // Play skips a resigned seat: black moves, then red, never white.
    let mut st = setup(
        &s3,
        "white: resigned (0,0) (0,-1); black: (0,1) (0,2); red: (1,0) (1,1); to-move: black; phase: waning",
    );
    play(&s3, &mut st, "x(0,2)").unwrap();
    assert_eq!(st.to_move, Seat(2));
    play(&s3, &mut st, "x(1,1)").unwrap();
    assert_eq!(st.to_move, Seat(1));
    for (bad, message) in [
        (
            "white: (0,0) resigned; black: (0,1); red: (1,0); to-move: black; phase: waning",
            "`resigned` comes first in white's field, before its cells",
        ),
        (
            "white: resigned (0,0); black: (0,1); red: (1,0); to-move: white; phase: waning",
            "white has resigned, so it cannot be to move",
        ),
        (
            "white: resigned (0,0); black: resigned (0,1); red: (1,0); to-move: red; phase: waning",
            "fewer than two seats are still playing, so the game would be over",
        ),
        (
            "white: (0,0); black: resigned (0,1); to-move: white; phase: waning",
            "fewer than two seats are still playing, so the game would be over",
        ),
    ] {
        let s = if bad.contains("red") {
            &s3
        } else {
            &Settings::default()
        };
        let v = Halves::parse_setup(s, bad).expect_err(bad);
        assert_eq!(v.rule(), "setup", "{bad}");
        assert_eq!(v.to_string(), message, "{bad}");
    }
}

#[test]
fn every_legal_turn_plays_and_selfplay_ends() {
    let none = crate::notation::record::Header::default();
    for (k, s) in [
        Settings::default(),
        settings(|s| s.start = Start::Manual),
        manual_three_seats_touching_two(),
        settings(|s| {
            s.keep = Keep::Chosen;
            s.free_edges = 3;
            s.win = Win::LastStanding;
        }),
        settings(|s| s.keep = Keep::MostFriendly),
    ]
    .into_iter()
    .enumerate()
    {
        let mut dice = Dice::from_seed(&format!("t{k}"));
        let mut st = Halves::start(&s, None, &none, Some(&mut dice)).unwrap();
        let mut turns = Vec::new();
        let mut n = 0;
        while st.end.is_none() {
            turns.clear();
            Halves::legal_turns(&s, &st, None, &mut turns);
            assert!(!turns.is_empty());
            for t in &turns {
                let mut x = st;
                Halves::play(&s, &mut x, None, t).unwrap_or_else(|v| panic!("{t}: {v}"));
            }
            let t = turns[dice.uniform(turns.len() as u32) as usize];
            Halves::play(&s, &mut st, None, &t).unwrap();
            n += 1;
            assert!(n < 500);
        }
    }
}

/// With two seats but not white, the contract is the first seat's (black's) to choose,
/// and after `keep` the other seat removes first.
#[test]
fn a_contract_without_white_is_the_first_seats() {
    let s = settings(|s| s.seats = Seats::of(&[Seat(1), Seat(2)]));
    let mut st = setup(
        &s,
        "black: (0,0) (1,0); red: (0,1) (1,1); to-move: black; phase: contract",
    );
    assert_eq!(rules::rotation(&s, &st), 1);
    let mut turns = Vec::new();
    Halves::legal_turns(&s, &st, None, &mut turns);
    assert_eq!(turns, [Turn::Keep, Turn::Swap]);
    play(&s, &mut st, "keep").unwrap();
    assert_eq!((st.phase, st.to_move), (Phase::Waning, Seat(2)));
}

#[test]
fn after_a_swap_rulings_name_the_player_by_the_other_seats_tag() {
    let s = settings(|s| s.seats = Seats::of(&[Seat(0), Seat(2)]));
    let mut st = setup(
        &s,
        "white: (0,0) (1,0); red: (0,1) (1,1); to-move: white; phase: contract",
    );
    play(&s, &mut st, "swap").unwrap();
    let v = play(&s, &mut st, "x(0,1)").unwrap_err();
    assert_eq!(v.rule(), "remove-own");
    assert!(
        v.to_string()
            .starts_with("white (played since the swap by the `Red` player, who started as red)"),
        "{v}"
    );
    // Without a swap only the colour is named.
    let mut kept = setup(
        &s,
        "white: (0,0) (1,0); red: (0,1) (1,1); to-move: white; phase: contract",
    );
    play(&s, &mut kept, "keep").unwrap();
    assert_eq!(kept.to_move, Seat(2));
    let v = play(&s, &mut kept, "x(0,0)").unwrap_err();
    assert!(v.to_string().starts_with("red cannot remove (0,0)"), "{v}");
}

/// A small xorshift generator for the tests below.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn adjacency_and_ring_match_the_neighbours_of_every_tile() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for round in 0..400 {
        let mut tiles = Tiles::default();
        // Dense and sparse sets, around (0,0) and against the edge of the cells that exist.
        let (span, centre) = (
            2 + rng.below(9) as i32,
            if round % 4 == 0 { 995 } else { 0 },
        );
        for _ in 0..rng.below(MAX_TILES as u64 + 1) {
            let q = centre + rng.below(2 * span as u64 + 1) as i32 - span;
            let r = -centre + rng.below(2 * span as u64 + 1) as i32 - span;
            if let Some(cell) = Cell::new(q, r) {
                tiles.insert(cell, Seat(rng.below(3) as u8));
            }
        }
        let adj = tiles.adjacency();
        for (i, &a) in adj.iter().enumerate() {
            let expected = if i < tiles.len() {
                tiles.neighbours_of(tiles.cell(i))
            } else {
                0
            };
            assert_eq!(a, expected, "tile {i} of {tiles:?}");
        }
        for i in 0..tiles.len() {
            let c = tiles.cell(i);
            let ring = crate::notation::halves::NEIGHBOURS
                .iter()
                .enumerate()
                .filter(|&(_, &(dq, dr))| {
                    Cell::new(i32::from(c.q + dq), i32::from(c.r + dr))
                        .is_some_and(|nb| tiles.find(nb).is_some())
                })
                .fold(0u8, |m, (d, _)| m | 1 << d);
            assert_eq!(tiles.ring(i), ring, "ring of tile {i} of {tiles:?}");
        }
    }
}

/// The tiles against a plain sorted list of `(cell, colour)`: inserting and removing
/// (one tile, or many), finding a cell, the colours, their masks and counts, and each
/// cell's neighbours, over random tables near (0,0) and against the edge of the cells
/// that exist.
#[test]
fn tiles_match_a_plain_sorted_list() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for round in 0..300 {
        let (span, centre) = (
            1 + rng.below(8) as i32,
            if round % 4 == 0 { 996 } else { 0 },
        );
        let cell = |rng: &mut Rng| {
            let q = centre + rng.below(2 * span as u64 + 3) as i32 - span - 1;
            let r = -centre + rng.below(2 * span as u64 + 3) as i32 - span - 1;
            Cell::new(q, r)
        };
        let mut tiles = Tiles::default();
        let mut plain: Vec<(Cell, Seat)> = Vec::new();
        for _ in 0..200 {
            if rng.below(3) == 0 && !plain.is_empty() {
                // Remove one tile, or a random set of them.
                let mask = if rng.below(2) == 0 {
                    1u64 << rng.below(plain.len() as u64)
                } else {
                    rng.below(u64::MAX) & tiles.all()
                };
                tiles.remove(mask);
                let mut i = 0;
                plain.retain(|_| {
                    i += 1;
                    mask & (1u64 << (i - 1)) == 0
                });
            } else if let Some(c) = cell(&mut rng) {
                let seat = Seat(rng.below(3) as u8);
                let fits = plain.len() < MAX_TILES && plain.iter().all(|&(x, _)| x != c);
                assert_eq!(tiles.insert(c, seat), fits, "{c} into {tiles:?}");
                if fits {
                    plain.push((c, seat));
                    plain.sort();
                }
            }
            assert_eq!(tiles.iter().collect::<Vec<_>>(), plain);
            assert_eq!(tiles.len(), plain.len());
            for seat in [Seat(0), Seat(1), Seat(2)] {
                let mask = plain
                    .iter()
                    .enumerate()
                    .filter(|(_, &(_, x))| x == seat)
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                assert_eq!(tiles.mask_of(seat), mask);
                assert_eq!(tiles.count(seat), mask.count_ones());
            }
            let mut rebuilt = Tiles::default();
            for &(c, seat) in &plain {
                rebuilt.insert(c, seat);
            }
            assert_eq!(tiles, rebuilt, "the same tiles, the same value");
            for _ in 0..4 {
                let Some(c) = cell(&mut rng) else { continue };
                let at = plain.iter().position(|&(x, _)| x == c);
                assert_eq!(tiles.find(c), at, "{c} in {tiles:?}");
                let around = plain
                    .iter()
                    .enumerate()
                    .filter(|(_, &(x, _))| c.touches(x))
                    .fold(0u64, |m, (i, _)| m | 1 << i);
                assert_eq!(tiles.neighbours_of(c), around, "around {c} in {tiles:?}");
            }
        }
    }
}

/// The random layout, recomputed the plain way: the whole frontier again for each tile.
fn plain_layout(s: &Settings, dice: &mut Dice) -> Tiles {
    let mut colours: Vec<u8> = s
        .seats
        .iter()
        .flat_map(|seat| std::iter::repeat_n(seat.0, s.tiles_each as usize))
        .collect();
    dice.shuffle(&mut colours);
    let mut tiles = Tiles::default();
    let mut buf = [Cell { q: 0, r: 0 }; MAX_TILES * 6];
    for (k, &c) in colours.iter().enumerate() {
        let cell = if k == 0 {
            Cell { q: 0, r: 0 }
        } else {
            let m = tiles.frontier(&mut buf);
            let cells = &mut buf[..m];
            cells.sort_unstable_by_key(|c| (c.r, c.q));
            cells[dice.uniform(m as u32) as usize]
        };
        tiles.insert(cell, Seat(c));
    }
    tiles
}

#[test]
fn random_layout_matches_the_plain_recomputation() {
    let none = crate::notation::record::Header::default();
    for s in [
        Settings::default(),
        settings(|s| s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)])),
        three_seats_full_table(),
        // Each size of the frontier at its largest, and past it: the default's 24
        // tiles (24 at most), 26 and 30 (31 at most), 32 (63 at most).
        settings(|s| s.tiles_each = 13),
        settings(|s| {
            s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
            s.tiles_each = 10;
        }),
        settings(|s| s.tiles_each = 16),
    ] {
        for seed in 0..150 {
            let seed = format!("layout-{seed}");
            let st = Halves::start(&s, None, &none, Some(&mut Dice::from_seed(&seed))).unwrap();
            let plain = plain_layout(&s, &mut Dice::from_seed(&seed));
            assert_eq!(st.tiles, plain, "{seed}");
        }
    }
}

#[test]
fn cut_tiles_are_the_tiles_whose_removal_leaves_two_groups() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..400 {
        let mut tiles = Tiles::default();
        let span = 1 + rng.below(6) as i32;
        for _ in 0..rng.below(MAX_TILES as u64 + 1) {
            let q = rng.below(2 * span as u64 + 1) as i32 - span;
            let r = rng.below(2 * span as u64 + 1) as i32 - span;
            tiles.insert(c(q, r), Seat(0));
        }
        let adj = tiles.adjacency();
        let cut = Tiles::cut_tiles(&adj, tiles.all());
        for i in 0..tiles.len() {
            let mut groups = [0u64; 6];
            let within = tiles.all() & !(1u64 << i);
            let splits = Tiles::groups_from(&adj, within, adj[i], &mut groups) >= 2;
            assert_eq!(cut & (1u64 << i) != 0, splits, "tile {i} of {tiles:?}");
        }
    }
}

/// `apply_legal` makes of every listed turn exactly the position `play` makes, and `play`
/// accepts every listed turn, in random games under many settings.
#[test]
fn apply_legal_makes_the_position_play_makes() {
    let none = crate::notation::record::Header::default();
    let three = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
    let variants = [
        Settings::default(),
        settings(|s| s.seats = three),
        settings(|s| s.contract = false),
        settings(|s| s.start = Start::Manual),
        manual_three_seats_touching_two(),
        settings(|s| {
            s.keep = Keep::Chosen;
            s.free_edges = 3;
            s.win = Win::LastStanding;
        }),
        settings(|s| {
            s.keep = Keep::MostFriendly;
            s.seats = three;
            s.win = Win::LastStanding;
        }),
        settings(|s| s.free_edges = 4),
    ];
    let mut checked = 0;
    for (k, s) in variants.iter().enumerate() {
        for game in 0..40 {
            let mut dice = Dice::from_seed(&format!("apply-{k}-{game}"));
            let mut st = Halves::start(s, None, &none, Some(&mut dice)).unwrap();
            let mut turns = Vec::new();
            while st.end.is_none() {
                turns.clear();
                Halves::legal_turns(s, &st, None, &mut turns);
                for t in &turns {
                    let mut judged = st;
                    Halves::play(s, &mut judged, None, t).unwrap_or_else(|v| panic!("{t}: {v}"));
                    let mut applied = st;
                    Halves::apply_legal(s, &mut applied, None, t);
                    assert_eq!(applied, judged, "{t} in {}", Halves::setup_string(s, &st));
                    checked += 1;
                }
                let t = turns[dice.uniform(turns.len() as u32) as usize];
                Halves::apply_legal(s, &mut st, None, &t);
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}

/// The shortcut of judging a removal (a tile whose neighbours go round it in one run
/// leaves one group) against the groups searched, in every position of random games:
/// wherever it says one group, the search finds one; and it says so for most tiles.
#[test]
fn one_run_of_neighbours_leaves_one_group() {
    let none = crate::notation::record::Header::default();
    let (mut said, mut tiles_seen) = (0, 0);
    for (k, s) in [
        Settings::default(),
        manual_three_seats_touching_two(),
        three_seats_full_table(),
    ]
    .into_iter()
    .enumerate()
    {
        for game in 0..40 {
            let mut dice = Dice::from_seed(&format!("run-{k}-{game}"));
            let mut st = Halves::start(&s, None, &none, Some(&mut dice)).unwrap();
            let mut turns = Vec::new();
            while st.end.is_none() {
                let tiles = &st.tiles;
                assert!(tiles.connected());
                let adj = tiles.adjacency();
                for i in 0..tiles.len() {
                    tiles_seen += 1;
                    if rules::leaves_one_group(tiles.ring(i)) {
                        said += 1;
                        let sp = rules::split(&s, tiles, &adj, i, tiles.colour(i));
                        assert_eq!(sp.count, 1, "tile {i} of {tiles:?}");
                    }
                }
                turns.clear();
                Halves::legal_turns(&s, &st, None, &mut turns);
                let t = turns[dice.uniform(turns.len() as u32) as usize];
                Halves::apply_legal(&s, &mut st, None, &t);
            }
        }
    }
    assert!(said * 2 > tiles_seen, "{said} of {tiles_seen}");
}

/// The pieces a removal leaves, found by [`Tiles::pieces`] (the last group taken as
/// the tiles left over), against every group searched ([`Tiles::groups_from`]), for
/// every tile of every position of random games; the split searched from two runs of
/// neighbours ([`rules::split_ring`]) against the one from every tile's neighbours; and
/// the turn-order helpers against their plain definitions.
#[test]
fn pieces_match_the_groups_searched() {
    let none = crate::notation::record::Header::default();
    let (mut splits, mut two_runs) = (0, 0);
    for (k, s) in [
        Settings::default(),
        manual_three_seats_touching_two(),
        three_seats_full_table(),
        settings(|s| {
            s.seats = Seats::of(&[Seat(0), Seat(1), Seat(2)]);
            s.win = Win::LastStanding;
            s.keep = Keep::MostFriendly;
        }),
    ]
    .into_iter()
    .enumerate()
    {
        for game in 0..40 {
            let mut dice = Dice::from_seed(&format!("pieces-{k}-{game}"));
            let mut st = Halves::start(&s, None, &none, Some(&mut dice)).unwrap();
            let mut turns = Vec::new();
            while st.end.is_none() {
                let tiles = &st.tiles;
                let adj = tiles.adjacency();
                for i in 0..tiles.len() {
                    let within = tiles.all() & !(1u64 << i);
                    let (mut a, mut b) = ([0u64; 6], [0u64; 6]);
                    let n = Tiles::pieces(&adj, within, adj[i], &mut a);
                    assert_eq!(n, Tiles::groups_from(&adj, within, adj[i], &mut b));
                    assert_eq!(a, b, "tile {i} of {tiles:?}");
                    splits += usize::from(n > 1);
                    assert_eq!(tiles.neighbours(i), adj[i], "tile {i} of {tiles:?}");
                    // The pieces searched from two runs of neighbours, or from all.
                    let ring = tiles.ring(i);
                    if !rules::leaves_one_group(ring) {
                        let seat = tiles.colour(i);
                        let (x, y) = (
                            rules::split_ring(&s, tiles, i, ring, seat),
                            rules::split(&s, tiles, &adj, i, seat),
                        );
                        let at = format!("tile {i} of {tiles:?}");
                        assert_eq!(
                            (x.count, x.groups, x.allowed),
                            (y.count, y.groups, y.allowed),
                            "{at}"
                        );
                        two_runs += usize::from(ring_runs(ring) == 2);
                    }
                }
                let plain_with_tiles = s
                    .seats
                    .iter()
                    .filter(|&&seat| st.left(seat) > 0)
                    .fold(SeatSet::EMPTY, |m, &seat| m.with(seat));
                assert_eq!(rules::with_tiles(&s, &st), plain_with_tiles);
                let plain_rotation = s
                    .seats
                    .iter()
                    .filter(|&&seat| rules::takes_turns(&s, &st, seat))
                    .count() as u32;
                assert_eq!(rules::rotation(&s, &st), plain_rotation);
                turns.clear();
                Halves::legal_turns(&s, &st, None, &mut turns);
                let t = turns[dice.uniform(turns.len() as u32) as usize];
                if dice.uniform(50) == 0 {
                    Halves::resign(&s, &mut st).unwrap();
                } else {
                    Halves::apply_legal(&s, &mut st, None, &t);
                }
            }
        }
    }
    assert!(splits > 1000, "{splits}");
    assert!(two_runs > 1000, "{two_runs}");
}

/// How many runs of neighbours a ring holds (all six: one).
fn ring_runs(ring: u8) -> u32 {
    let cells: Vec<bool> = (0..6).map(|d| ring & (1 << d) != 0).collect();
    let starts = (0..6).filter(|&d| cells[d] && !cells[(d + 5) % 6]).count() as u32;
    if ring & 0x3F == 0x3F {
        1
    } else {
        starts
    }
}

/// `seats`: the turn order is white, black, red whatever order the ruleset names them
/// in, each once, and the set and the list agree.
#[test]
fn seats_are_taken_in_turn_order_each_once() {
    let seats = Seats::of(&[Seat(2), Seat(0), Seat(2), Seat(3), Seat(7)]);
    assert_eq!(&*seats, &[Seat(0), Seat(2)]);
    assert_eq!(seats.set(), SeatSet(0b101));
    assert_eq!(format!("{seats:?}"), "[Seat(0), Seat(2)]");
    let named = |words: &str| {
        use crate::ruleset::{apply_overrides, Library, Origin, Override};
        let base = Library::new(Vec::new())
            .load("halves", crate::games::registry::schemas())
            .expect("the shipped ruleset loads");
        let set = Override {
            key: "seats".into(),
            value: words.into(),
            origin: Origin::CommandLine,
            file: "--option".into(),
            line: 1,
            column: 1,
            value_column: 1,
        };
        let r = apply_overrides(&base, &SCHEMA, &[set]).expect("valid settings");
        Settings::from_ruleset(&r).seats
    };
    assert_eq!(&*named("[red white]"), &[Seat(0), Seat(2)]);
    assert_eq!(&*named("[red black white]"), &[Seat(0), Seat(1), Seat(2)]);
    assert_eq!(named("[black red]").set(), SeatSet(0b110));
}
