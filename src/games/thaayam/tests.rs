//! Unit tests, one or more per rule id: each fails if its rule broke.

use super::board::{is_safe, square, ROUTES};
use super::own::Own;
use super::search::Search;
use super::series;
use super::settings::Seats;
use super::*;
use crate::games::{Game, Violation as _};
use crate::notation::thaayam::parse_turn;
use crate::notation::thaayam::Square;
use crate::notation::TurnParse;

struct NoTags;
impl Tags for NoTags {
    fn tag(&self, _: &str) -> Option<&str> {
        None
    }
}
struct FirstTag(&'static str);
impl Tags for FirstTag {
    fn tag(&self, name: &str) -> Option<&str> {
        (name == "First").then_some(self.0)
    }
}

fn s2() -> Settings {
    Settings::default()
}

pub(super) fn seats(names: &[&str]) -> Settings {
    let mut s = Settings::default();
    let chosen: Vec<Seat> = (0..4u8)
        .filter(|&i| names.contains(&SEAT_NAMES[i as usize]))
        .map(Seat)
        .collect();
    s.seats = Seats::of(&chosen);
    s
}

pub(super) fn setup(s: &Settings, text: &str) -> State {
    Thaayam::parse_setup(s, text).unwrap_or_else(|v| panic!("{text}: {v}"))
}

fn turn(text: &str) -> Turn {
    match parse_turn(text) {
        TurnParse::Turn(t, n) if n == text.len() => t,
        other => panic!("{text:?}: {other:?}"),
    }
}

/// Plays `text` (its written series) on `st`; returns the rule cited, if any.
fn play(s: &Settings, st: &mut State, text: &str) -> Result<(), &'static str> {
    let t = turn(text);
    let series = t.series.clone();
    Thaayam::play(s, st, series.as_ref(), &t).map_err(|v| {
        assert!(!v.to_string().is_empty());
        v.rule()
    })
}

fn rule_of(s: &Settings, st: &str, text: &str) -> Result<(), &'static str> {
    let mut state = setup(s, st);
    let before = state;
    let r = play(s, &mut state, text);
    if r.is_err() {
        assert_eq!(
            state, before,
            "a refused turn leaves the position unchanged"
        );
    }
    r
}

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap()
}

#[test]
fn routes_are_the_spec_routes() {
    let spec = [
        "c1 d1 e1 e2 e3 e4 e5 d5 c5 b5 a5 a4 a3 a2 a1 b1 b2 b3 b4 c4 d4 d3 d2 c2 c3",
        "a3 a2 a1 b1 c1 d1 e1 e2 e3 e4 e5 d5 c5 b5 a5 a4 b4 c4 d4 d3 d2 c2 b2 b3 c3",
        "c5 b5 a5 a4 a3 a2 a1 b1 c1 d1 e1 e2 e3 e4 e5 d5 d4 d3 d2 c2 b2 b3 b4 c4 c3",
        "e3 e4 e5 d5 c5 b5 a5 a4 a3 a2 a1 b1 c1 d1 e1 e2 d2 c2 b2 b3 b4 c4 d4 d3 c3",
    ];
    for (i, want) in spec.iter().enumerate() {
        let got: Vec<String> = (0..25)
            .map(|p| square(Seat(i as u8), p).to_string())
            .collect();
        assert_eq!(got.join(" "), *want, "{}", SEAT_NAMES[i]);
        // Position 8 is the palace opposite the seat's own.
        assert_eq!(ROUTES[i][8], ROUTES[(i + 2) % 4][0]);
        for p in 0..25 {
            let at = square(Seat(i as u8), p);
            assert_eq!(board::position(Seat(i as u8), at), p);
            // The marked squares are at the same route positions for every seat.
            assert_eq!(is_safe(at), board::SAFE_POSITIONS & (1 << p) != 0);
            assert_eq!(board::position_of(i, at.index() as u8), p);
        }
    }
}

/// `pieces_at` finds the pieces standing at a position, byte by byte, as a plain search
/// would: every position, in hand and borne off, over many random placements.
#[test]
fn pieces_at_a_position_side_by_side() {
    let mut dice = crate::dice::Dice::from_seed("pieces-at");
    for _ in 0..20_000 {
        let pos = [0u8; 4].map(|_| dice.uniform(27) as u8);
        for p in 0..27 {
            let want = (0..4).fold(0u8, |m, i| m | u8::from(pos[i] == p) << i);
            assert_eq!(board::pieces_at(pos, p), want, "{pos:?} at {p}");
        }
    }
}

/// A series is thrown one throw at a time until one that is not an extra throw, or
/// `MAX_SERIES` throws: as that loop throws it, whether the series fits inline or not
/// (every face an extra throw makes every series the longest).
#[test]
fn a_series_is_thrown_until_a_throw_that_is_not_extra() {
    for extra in [s2().extra, 0b1_1111_1110] {
        let mut s = s2();
        s.extra = extra;
        for seed in 0..300 {
            let seed = format!("series-{seed}");
            let (mut a, mut b) = (
                crate::dice::Dice::from_seed(&seed),
                crate::dice::Dice::from_seed(&seed),
            );
            let mut want = Vec::new();
            loop {
                let t = s.dice.throw(&mut b);
                want.push(t);
                if !s.is_extra(t) || want.len() >= settings::MAX_SERIES {
                    break;
                }
            }
            let got = series::throw_series(&s, &mut a);
            assert_eq!(&got[..], &want[..], "{seed}");
            assert_eq!(got, Series::new(&want), "{seed}");
            assert_eq!(a.words_used(), b.words_used(), "{seed}");
        }
    }
}

/// The starter and the starting throws are rule 3's, as written plainly here (every
/// seat tied throws, in turn order, until one is highest), drawing the same words, with
/// two, three and four seats, ties thrown again; a `First` tag that disagrees is told
/// the throws.
#[test]
fn the_starter_is_the_one_the_starting_throws_find() {
    fn by_rule_3(s: &Settings, dice: &mut crate::dice::Dice) -> (Seat, Vec<(Seat, u8)>) {
        let mut throws = Vec::new();
        let mut tied: Vec<Seat> = s.seats().to_vec();
        loop {
            let round: Vec<(Seat, u8)> = tied.iter().map(|&t| (t, s.dice.throw(dice))).collect();
            throws.extend(round.iter().copied());
            let high = round.iter().map(|r| r.1).max().unwrap_or(0);
            tied = round.iter().filter(|r| r.1 == high).map(|r| r.0).collect();
            if tied.len() == 1 {
                return (tied[0], throws);
            }
        }
    }
    for names in [
        &["south", "north"][..],
        &["south", "west", "north"],
        &["south", "west", "north", "east"],
    ] {
        let s = seats(names);
        let mut rounds = 0;
        for seed in 0..500 {
            let seed = format!("start-{seed}");
            let mut a = crate::dice::Dice::from_seed(&seed);
            let mut b = crate::dice::Dice::from_seed(&seed);
            let (first, throws) = by_rule_3(&s, &mut b);
            let (starter, listed) = starting_throws(&s, &mut a);
            assert_eq!(starter, first, "{names:?} {seed}");
            assert_eq!(listed.to_vec(), throws, "{names:?} {seed}");
            assert_eq!(a.words_used(), b.words_used(), "{names:?} {seed}");
            rounds += usize::from(throws.len() > names.len());
        }
        assert!(rounds > 0, "{names:?}: no tie thrown again");
    }
    let s = s2();
    let mut dice = crate::dice::Dice::from_seed("thaayam-1");
    let v = Thaayam::start(&s, None, &FirstTag("south"), Some(&mut dice)).unwrap_err();
    let text = v.to_string();
    assert!(text.contains("north (throws: south 2, north 3)"), "{text}");
}

#[test]
fn seed_thaayam_1_north_starts_with_2() {
    let s = s2();
    let mut dice = crate::dice::Dice::from_seed("thaayam-1");
    let (first, throws) = starting_throws(&s, &mut dice);
    assert_eq!(first, Seat(2));
    assert_eq!(throws.to_vec(), vec![(Seat(0), 2), (Seat(2), 3)]);
    assert_eq!(series::throw_series(&s, &mut dice), Series::new(&[2]));
    // Through the trait: start, then the first series.
    let mut dice = crate::dice::Dice::from_seed("thaayam-1");
    let mut st = Thaayam::start(&s, None, &NoTags, Some(&mut dice)).unwrap();
    assert_eq!(st.to_move, Seat(2));
    assert_eq!(
        Thaayam::draw_chance(&s, &mut st, &mut dice),
        Some(Series::new(&[2]))
    );
}

#[test]
fn first_tag_checked_with_a_seed_and_obeyed_without() {
    let s = s2();
    let mut dice = crate::dice::Dice::from_seed("thaayam-1");
    let v = Thaayam::start(&s, None, &FirstTag("south"), Some(&mut dice)).unwrap_err();
    assert_eq!(v.rule(), "first");
    assert!(v.to_string().contains("north"), "{v}");
    let mut dice = crate::dice::Dice::from_seed("thaayam-1");
    assert!(Thaayam::start(&s, None, &FirstTag("north"), Some(&mut dice)).is_ok());
    let st = Thaayam::start(&s, None, &FirstTag("north"), None).unwrap();
    assert_eq!(st.to_move, Seat(2));
    let v = Thaayam::start(&s, None, &FirstTag("east"), None).unwrap_err();
    assert_eq!(v.rule(), "first");
    let st = Thaayam::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(st.to_move, Seat(0));
}

#[test]
fn turn_order_is_clockwise_whatever_the_list() {
    let s = seats(&["north", "east", "south"]);
    let mut st = State::start(s.mask(), Seat(0));
    let mut order = Vec::new();
    for _ in 0..4 {
        order.push(SEAT_NAMES[st.to_move.0 as usize]);
        play(&s, &mut st, "[2] -").unwrap();
    }
    assert_eq!(order, ["south", "north", "east", "south"]);
}

#[test]
fn series_checked_without_a_seed() {
    let s = s2();
    let st = State::start(s.mask(), Seat(0));
    let check = |v: Vec<u8>| {
        Thaayam::check_chance(&s, &st, &Series::new(&v)).map_err(|v| (v.rule(), v.fault))
    };
    assert!(check(vec![1, 4, 8, 2]).is_ok());
    assert_eq!(check(vec![]).unwrap_err().1, Fault::EmptySeries);
    assert_eq!(
        check(vec![5]).unwrap_err().1,
        Fault::Impossible { value: 5 }
    );
    assert_eq!(check(vec![2, 1]).unwrap_err().0, "throws");
    assert_eq!(
        check(vec![1, 4]).unwrap_err().1,
        Fault::Unfinished { value: 4 }
    );
    let mut sp = s2();
    sp.dice = Throws::Spinner;
    assert!(Thaayam::check_chance(&sp, &st, &Series::new(&[4, 3])).is_ok());
}

#[test]
fn no_series_without_a_seed_is_refused() {
    let s = s2();
    let mut st = State::start(s.mask(), Seat(0));
    let v = Thaayam::play(&s, &mut st, None, &turn("-")).unwrap_err();
    assert_eq!(v.fault, Fault::NoSeries);
    assert_eq!(v.rule(), "throws");
}

#[test]
fn enter() {
    let s = s2();
    let start = "south: hand=4; north: hand=4; to-move: south";
    assert_eq!(rule_of(&s, start, "[1 2] enter, c1+2"), Ok(()));
    assert_eq!(rule_of(&s, start, "[1 1 3] enter, enter, c1+3"), Ok(()));
    assert_eq!(rule_of(&s, start, "[1 3] enter, enter"), Err("enter"));
    assert_eq!(
        rule_of(&s, "south: c1 e5 c5 b5; to-move: south", "[1 2] enter"),
        Err("enter")
    );
    let mut st = setup(&s, start);
    play(&s, &mut st, "[1 2] enter, c1+2").unwrap();
    assert_eq!(st.pos[0].iter().filter(|&&p| p == 2).count(), 1);
}

#[test]
fn move_and_throws_in_the_series() {
    let s = s2();
    let st = "south: d1 hand=3; to-move: south";
    assert_eq!(rule_of(&s, st, "[3] d1+3"), Ok(()));
    assert_eq!(rule_of(&s, st, "[3] e1+3"), Err("move"));
    assert_eq!(rule_of(&s, st, "[3] d1+2"), Err("move"));
    assert_eq!(rule_of(&s, st, "[4 3] d1+4+4"), Err("move"));
    // Throws combine: one piece jumps to the sum.
    let mut state = setup(&s, st);
    play(&s, &mut state, "[4 8 3] d1+4+8+3").unwrap();
    assert_eq!(state.pos[0][0], 16);
}

#[test]
fn combine_throws() {
    let mut s = s2();
    s.combine = false;
    let st = "south: d1 e5 hand=2; to-move: south";
    assert_eq!(rule_of(&s, st, "[4 2] d1+4+2"), Err("combine-throws"));
    assert_eq!(rule_of(&s, st, "[4 2] d1+4, e5+2"), Ok(()));
}

#[test]
fn keep_exact() {
    let s = s2();
    let st = "south: d2 c3 hand=2; to-move: south";
    assert_eq!(rule_of(&s, st, "[3] d2+3"), Err("keep-exact"));
    assert_eq!(rule_of(&s, st, "[2] c3+2"), Err("keep-exact"));
    assert_eq!(rule_of(&s, st, "[2] d2+2"), Ok(()));
    // No move fits: nothing to use.
    assert_eq!(rule_of(&s, st, "[3] -"), Ok(()));
}

#[test]
fn discard() {
    let s = s2();
    let start = "south: hand=4; to-move: south";
    assert_eq!(rule_of(&s, start, "[4 1 2] enter, c1+4+2"), Err("discard"));
    assert_eq!(rule_of(&s, start, "[4 1 2] enter, c1+2"), Ok(()));
    assert_eq!(rule_of(&s, start, "[4 8 2] -"), Ok(()));
    // A piece on the board: nothing is discarded.
    assert_eq!(
        rule_of(&s, "south: e5 hand=3; to-move: south", "[4 8 2] -"),
        Err("use-all")
    );
}

#[test]
fn use_all() {
    let s = s2();
    let st = "south: e5 hand=3; to-move: south";
    assert_eq!(rule_of(&s, st, "[3] -"), Err("use-all"));
    assert_eq!(rule_of(&s, st, "[1 3] enter"), Err("use-all"));
    assert_eq!(rule_of(&s, st, "[1 3] enter, c1+3"), Ok(()));
    assert_eq!(rule_of(&s, st, "[1 3] enter, e5+3"), Ok(()));
    // Throws that cannot all be used: as many as possible.
    let near = "south: c2 hand=3; to-move: south";
    assert_eq!(rule_of(&s, near, "[8 1 2] c2+1"), Err("use-all"));
    assert_eq!(rule_of(&s, near, "[8 1 2] enter, c1+8+2"), Ok(()));
}

#[test]
fn use_all_counts_a_necessary_twins_declaration() {
    // Two singles on the opposite palace, 40 ones and a 2: singles can use at most 32
    // (16 squares each), twins 33 (half of 33 is 16, exactly the keep).
    let s = s2();
    let st = "south: c5 c5 off=2; to-move: south";
    let mut series = vec![1u8; 40];
    series.push(2);
    let ones = |n: usize| "+1".repeat(n);
    let text = format!("{} c5{}, c5{}", Series::new(&series), ones(16), ones(16));
    assert_eq!(rule_of(&s, st, &text), Err("use-all"));
    let text = format!("{} twin c5, Tc5{}", Series::new(&series), ones(33));
    assert_eq!(rule_of(&s, st, &text), Ok(()));
    let mut no_twins = s2();
    no_twins.twins = false;
    let text = format!("{} c5{}, c5{}", Series::new(&series), ones(16), ones(16));
    assert_eq!(rule_of(&no_twins, st, &text), Ok(()));
}

#[test]
fn use_all_judges_a_30_throw_series_fast() {
    let s = s2();
    let st = setup(&s, "south: b5 a1 d4 hand=1; north: c1 e3; to-move: south");
    let mut series = Vec::new();
    for i in 0..29 {
        series.push([1u8, 4, 8][i % 3]);
    }
    series.push(3);
    let series = Series::new(&series);
    let t0 = std::time::Instant::now();
    let (usable, _) = series::split(&series, true);
    let best = Search::default().best(&s, Own::of(&st, Seat(0)), series::Unused::of(&usable));
    let mut turns = Vec::new();
    Thaayam::legal_turns(&s, &st, Some(&series), &mut turns);
    let elapsed = t0.elapsed();
    assert!(best > 10 && (best as usize) < 30, "{best}");
    assert!(!turns.is_empty());
    assert!(elapsed.as_millis() < 1000, "{elapsed:?}");
    // Every listed turn is legal and uses that many throws.
    for t in turns.iter().take(20) {
        let mut x = st;
        Thaayam::play(&s, &mut x, Some(&series), t).unwrap_or_else(|v| panic!("{t}: {v}"));
    }
}

#[test]
fn one_move() {
    let s = s2();
    let st = "south: c1 hand=3; to-move: south";
    assert_eq!(rule_of(&s, st, "[4 3] c1+4, e3+3"), Err("one-move"));
    assert_eq!(rule_of(&s, st, "[4 3] c1+4+3"), Ok(()));
    // Entering then moving is allowed (rule 11).
    assert_eq!(
        rule_of(&s, "south: hand=4; to-move: south", "[1 3] enter, c1+3"),
        Ok(())
    );
    // A piece that moved into the keep does not also bear off.
    let keep = "south: c3 c2 off=2; to-move: south";
    assert_eq!(
        rule_of(&s, keep, "[1 1 1 2] c2+1, off, off"),
        Err("one-move")
    );
    assert_eq!(rule_of(&s, keep, "[1 1 2] c2+1, off"), Ok(()));
}

#[test]
fn capture_and_extra_turn() {
    let s = s2();
    // North's piece on e1 (north's position 10); south lands there from c1.
    let st = "south: c1 hand=3; north: e1 hand=3; to-move: south";
    let mut state = setup(&s, st);
    play(&s, &mut state, "[2] c1+2x").unwrap();
    assert_eq!(state.hand(Seat(2)), 4, "north's piece went home");
    assert_eq!(state.to_move, Seat(0), "south plays another turn");
    // The claim is optional; the capture happens anyway.
    let mut state = setup(&s, st);
    play(&s, &mut state, "[2] c1+2").unwrap();
    assert_eq!(state.hand(Seat(2)), 4);
    // Without capture-bonus the turn passes.
    let mut nb = s2();
    nb.capture_bonus = false;
    let mut state = setup(&nb, st);
    play(&nb, &mut state, "[2] c1+2").unwrap();
    assert_eq!(state.to_move, Seat(2));
    // A claim where nothing is taken.
    assert_eq!(rule_of(&s, st, "[3] c1+3x"), Err("capture"));
    // Jumped squares are not touched.
    let mut state = setup(&s, "south: c1 hand=3; north: d1 hand=3; to-move: south");
    play(&s, &mut state, "[2] c1+2").unwrap();
    assert_eq!(state.hand(Seat(2)), 3);
    assert_eq!(state.to_move, Seat(2));
}

#[test]
fn a_label_against_the_extra_turn_cites_it() {
    let s = s2();
    let st = "south: c1 hand=3; north: e1 hand=3; to-move: south";
    let (south, north) = (Seat(0), Seat(2));
    // South captured: a turn labelled north breaks extra-turn.
    let mut state = setup(&s, st);
    play(&s, &mut state, "[2] c1+2x").unwrap();
    let v = Thaayam::label_violation(&s, &state, Some(south), north).expect("ruled");
    assert_eq!(v.rule(), "extra-turn");
    assert_eq!(
        v.to_string(),
        "the turn is labelled `north:`, but south captured on its last turn and plays again"
    );
    assert!(Thaayam::label_violation(&s, &state, Some(south), south).is_none());
    // South took nothing: south again breaks extra-turn too.
    let mut state = setup(&s, st);
    play(&s, &mut state, "[3] c1+3").unwrap();
    let v = Thaayam::label_violation(&s, &state, Some(south), south).expect("ruled");
    assert_eq!(v.rule(), "extra-turn");
    assert!(v
        .to_string()
        .contains("south captured nothing on its last turn"));
    // Without the bonus, or before any turn, it is plain turn order.
    let mut nb = s2();
    nb.capture_bonus = false;
    let mut state = setup(&nb, st);
    play(&nb, &mut state, "[2] c1+2x").unwrap();
    assert!(Thaayam::label_violation(&nb, &state, Some(south), south).is_none());
    let state = setup(&s, st);
    assert!(Thaayam::label_violation(&s, &state, None, north).is_none());
}

#[test]
fn safe_square() {
    let s = s2();
    // e3 is east's palace: safe even though east does not play.
    let st = "south: d1 hand=3; north: e3 hand=3; to-move: south";
    assert_eq!(rule_of(&s, st, "[3] d1+3x"), Err("safe-square"));
    let mut state = setup(&s, st);
    play(&s, &mut state, "[3] d1+3").unwrap();
    assert_eq!(state.hand(Seat(2)), 3, "they share the square");
    assert_eq!(state.at(sq("e3"))[0], (1, 0));
    assert_eq!(state.at(sq("e3"))[2], (1, 0));
}

#[test]
fn twins() {
    let s = s2();
    let st = "south: c5 c5 hand=2; to-move: south";
    let mut state = setup(&s, st);
    play(&s, &mut state, "[8 3] twin c5, Tc5+8+3").unwrap();
    assert_eq!(state.pos[0][0], 13, "half of 11 is 5");
    assert_eq!(state.pos[0][1], 13);
    assert_eq!(state.twinned[0], 0b11);
    assert_eq!(rule_of(&s, st, "[8 3] Tc5+8+3"), Err("twins"));
    assert_eq!(rule_of(&s, st, "[8 3] twin b5, c5+8, c5+3"), Err("twins"));
    assert_eq!(
        rule_of(&s, "south: c5 e5 hand=2; to-move: south", "[2] twin c5"),
        Err("twins")
    );
    assert_eq!(
        rule_of(
            &s,
            "south: Ta2 hand=2; to-move: south",
            "[1 2] Ta2+1, enter"
        ),
        Err("twins")
    );
    // A single on the twins' square is not one of them.
    assert_eq!(
        rule_of(&s, "south: Ta2 hand=2; to-move: south", "[2] a2+2"),
        Err("move")
    );
    let mut off = s2();
    off.twins = false;
    assert_eq!(rule_of(&off, st, "[8 3] twin c5, Tc5+8+3"), Err("twins"));
    // Twins made with a piece that moved count as moved.
    assert_eq!(
        rule_of(
            &s,
            "south: c5 e5 hand=2; to-move: south",
            "[2 3] e5+2, twin c5, Tc5+3"
        ),
        Err("one-move")
    );
}

#[test]
fn twins_capture() {
    let s = s2();
    // North's twins on d1 (north's position 9, not a palace).
    let st = "south: c1 hand=3; north: Td1 hand=2; to-move: south";
    assert_eq!(
        rule_of(&s, st, "[1 1 2] c1+1x, enter, c1+2"),
        Err("twins-capture")
    );
    let mut state = setup(&s, st);
    play(&s, &mut state, "[1 1 2] c1+1, enter, c1+2").unwrap();
    assert_eq!(state.hand(Seat(2)), 2, "a single shares with twins");
    assert_eq!(state.to_move, Seat(2), "no capture, no extra turn");
    // Twins capture twins (separated, home as singles) and singles alike.
    let st = "south: Tb2 c1 hand=1; north: Td4 d4 hand=1; to-move: south";
    let mut state = setup(&s, st);
    play(&s, &mut state, "[8 3] Tb2+8x, c1+3").unwrap();
    assert_eq!(state.hand(Seat(2)), 4);
    assert_eq!(state.twinned[2], 0);
    assert_eq!(state.to_move, Seat(0));
}

#[test]
fn twins_keep() {
    let s = s2();
    let st = "south: Td2 hand=2; to-move: south";
    assert_eq!(rule_of(&s, st, "[4 3] Td2+4+3"), Err("keep-exact"));
    let mut state = setup(&s, "south: Td2 c1 hand=1; to-move: south");
    play(&s, &mut state, "[4 3] Td2+4, c1+3").unwrap();
    assert_eq!(state.twinned[0], 0, "twins in the keep are singles");
    assert_eq!(state.pos[0].iter().filter(|&&p| p == 24).count(), 2);
    assert_eq!(
        rule_of(&s, "south: c3 c3 c1 hand=1; to-move: south", "[2] Tc3+2"),
        Err("twins-keep")
    );
}

#[test]
fn bear_off_and_win() {
    let s = s2();
    assert_eq!(
        rule_of(&s, "south: c3 c3 c3 e5; to-move: south", "[1 2] off"),
        Err("bear-off")
    );
    assert_eq!(
        rule_of(&s, "south: c3 c3 c3 c3; to-move: south", "[2] off"),
        Err("bear-off")
    );
    let mut state = setup(&s, "south: c3 c3 c3 c3; north: e5 hand=3; to-move: south");
    play(&s, &mut state, "[1 1 2] off, off").unwrap();
    assert_eq!(state.off(Seat(0)), 2);
    assert_eq!(state.to_move, Seat(2));
    let mut state = setup(&s, "south: c3 off=3; north: e5 hand=3; to-move: south");
    play(&s, &mut state, "[1 2] off").unwrap();
    let Status::Over(end) = Thaayam::status(&s, &state) else {
        panic!("not over")
    };
    assert_eq!(end.rule, Some("win"));
    assert!(end.winners.contains(Seat(0)));
}

#[test]
fn resign_with_three_seats() {
    let s = seats(&["south", "north", "east"]);
    let mut st = State::start(s.mask(), Seat(0));
    Thaayam::resign(&s, &mut st).expect("a resignation");
    assert_eq!(
        Thaayam::status(&s, &st),
        Status::Playing { to_move: Seat(2) }
    );
    Thaayam::resign(&s, &mut st).expect("a resignation");
    let Status::Over(end) = Thaayam::status(&s, &st) else {
        panic!("not over")
    };
    assert!(end.winners.contains(Seat(3)) && end.winners.len() == 1);
}

#[test]
fn setup_round_trip_and_errors() {
    let s = s2();
    let text = "south: c1 Tc5 c3; north: e5 hand=3; to-move: south";
    let st = setup(&s, text);
    assert_eq!(Thaayam::setup_string(&s, &st), text);
    for bad in [
        "south: c1; to-move: west",
        "south: f1; to-move: south",
        "south: c1 c1 c1 c1 c1; to-move: south",
        "south: Tc1; to-move: south",
        "south: off=4; to-move: north",
        "south: c1",
        "south: c1 hand=1 off=1; to-move: south",
    ] {
        let v = Thaayam::parse_setup(&s, bad).unwrap_err();
        assert_eq!(v.rule(), "setup", "{bad}");
    }
}

#[test]
fn legal_turns_are_legal_and_complete() {
    let s = s2();
    let st = setup(&s, "south: c1 Tc5 c3; north: e5 e1 hand=2; to-move: south");
    for series in [vec![1, 4, 2], vec![8, 8, 1, 3], vec![2]] {
        let series = Series::new(&series);
        let mut turns = Vec::new();
        Thaayam::legal_turns(&s, &st, Some(&series), &mut turns);
        assert!(!turns.is_empty());
        for t in &turns {
            let mut x = st;
            Thaayam::play(&s, &mut x, Some(&series), t).unwrap_or_else(|v| panic!("{t}: {v}"));
            // The printed turn parses back to itself.
            assert_eq!(&turn(&t.to_string()), t);
        }
    }
}

/// The memoised search (which forgets where moved pieces stand) agrees with a plain
/// exhaustive search on many random positions and short series.
#[test]
fn use_all_search_agrees_with_exhaustive_search() {
    use super::search::steps;
    use super::series::Unused;
    fn naive(s: &Settings, own: Own, throws: Unused) -> u8 {
        let mut list = Vec::new();
        steps(s, &own, throws, &mut list);
        list.iter()
            .map(|st| st.used + naive(s, st.own, st.throws))
            .max()
            .unwrap_or(0)
    }
    let mut dice = crate::dice::Dice::from_seed("search-check");
    let faces = [1u8, 2, 3, 4, 8];
    for round in 0..400 {
        let mut s = s2();
        s.combine = round % 3 != 0;
        let mut own = Own {
            pos: [0; 4],
            twinned: 0,
            moved: 0,
        };
        for i in 0..4 {
            // Hand, off, the keep, the opposite palace and anywhere: all likely.
            own.pos[i] = match dice.uniform(6) {
                0 => board::HAND,
                1 => board::OFF,
                2 => board::KEEP,
                3 => board::OPPOSITE,
                _ => dice.uniform(25) as u8,
            };
        }
        if round % 4 == 1 {
            own.pos[0] = 12;
            own.pos[1] = 12;
            own.twinned = 0b11;
        }
        let mut counts = [0u16; 9];
        for _ in 0..(1 + dice.uniform(6)) {
            counts[faces[dice.uniform(5) as usize] as usize] += 1;
        }
        let throws = Unused::of(&counts);
        let fast = Search::default().best(&s, own, throws);
        assert_eq!(fast, naive(&s, own, throws), "{own:?} {counts:?}");
    }
}
