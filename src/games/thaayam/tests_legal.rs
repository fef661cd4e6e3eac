//! Generated turns: the legal turns listed (by either walk) against the plain generator
//! they replaced, the random turn against the listed turn it must pick, and listed turns
//! applied without judging against judged play, over many seeded random positions.

use std::collections::HashSet;

use super::board::{square, State, HAND, KEEP, OFF, OPPOSITE};
use super::legal::{
    full_turns, full_walk_lists, generic_full_turns, is_short, pruned_turns, MAX_LISTED, MAX_NODES,
};
use super::own::Own;
use super::rules::{self, Work};
use super::search::{steps, Search, StepKind};
use super::series::{split, throw_series, usable_throws, Unused};
use super::*;
use crate::dice::Dice;
use crate::notation::thaayam::Throws;

/// The legal turns as the module first listed them: a depth-first walk over whole
/// positions, every step judged by `rules::apply`, the partial turns and outcomes seen in
/// `HashSet`s. The generator must list exactly these, in this order.
fn reference(s: &Settings, st: &State, series: &Series) -> Vec<Turn> {
    let seat = st.to_move;
    let usable = Unused::of(&split(series, st.on_board(seat)).0);
    let mut search = Search::default();
    let max = u16::from(search.best(s, Own::of(st, seat), usable));
    let mut walk = Reference {
        s,
        seat,
        max,
        series,
        search,
        visited: HashSet::new(),
        outcomes: HashSet::new(),
        actions: Vec::new(),
        out: Vec::new(),
    };
    walk.dfs(Work::start(st, usable));
    walk.out
}

/// The position `st` stands for: each seat's pieces sorted, so that which of a seat's
/// alike pieces stands where does not count.
fn placed(st: &State) -> State {
    let mut out = *st;
    for seat in 0..4 {
        let mut pieces: [(u8, bool); 4] =
            std::array::from_fn(|i| (st.pos[seat][i], st.twinned[seat] >> i & 1 == 1));
        pieces.sort();
        out.twinned[seat] = 0;
        for (i, (pos, twinned)) in pieces.into_iter().enumerate() {
            out.pos[seat][i] = pos;
            out.twinned[seat] |= u8::from(twinned) << i;
        }
    }
    out
}

/// `st` with each seat's pieces held in the reverse order: the same position.
fn reversed(st: &State) -> State {
    let mut out = *st;
    for seat in 0..4 {
        out.pos[seat].reverse();
        out.twinned[seat] = st.twinned[seat].reverse_bits() >> 4;
    }
    out
}

struct Reference<'a> {
    s: &'a Settings,
    seat: Seat,
    max: u16,
    series: &'a Series,
    search: Search,
    visited: HashSet<Work>,
    outcomes: HashSet<(State, bool)>,
    actions: Vec<Action>,
    out: Vec<Turn>,
}

impl Reference<'_> {
    fn dfs(&mut self, w: Work) {
        if self.out.len() >= MAX_LISTED || self.visited.len() >= MAX_NODES {
            return;
        }
        if !self.visited.insert(w) {
            return;
        }
        if w.used == self.max && self.outcomes.insert((placed(&w.st), w.captured)) {
            self.out.push(Turn {
                series: Some(self.series.clone()),
                actions: self.actions.iter().cloned().collect(),
            });
        }
        let own = Own {
            moved: w.moved,
            ..Own::of(&w.st, self.seat)
        };
        let mut list = Vec::new();
        steps(self.s, &own, w.throws, &mut list);
        for step in list {
            let best = self.search.best(self.s, step.own, step.throws);
            if w.used + u16::from(step.used) + u16::from(best) != self.max {
                continue;
            }
            let mut action = match step.kind {
                StepKind::Enter => Action::Enter,
                StepKind::Off => Action::Off,
                StepKind::Twin => Action::Twin(square(self.seat, OPPOSITE)),
                StepKind::Move { piece, twins } => {
                    let mut throws = Throws::new();
                    for v in (1..=8u8).rev() {
                        for _ in 0..(w.throws.count(v) - step.throws.count(v)) {
                            throws.push(v);
                        }
                    }
                    Action::Move {
                        from: square(self.seat, own.pos[piece as usize]),
                        twins,
                        throws,
                        capture: false,
                    }
                }
            };
            let mut next = w;
            if rules::apply(self.s, &mut next, self.seat, action.view()).is_err() {
                continue;
            }
            let took = (0..4).any(|e| {
                e != self.seat.0 as usize
                    && (w.st.pos[e] != next.st.pos[e] || w.st.twinned[e] != next.st.twinned[e])
            });
            if let Action::Move { capture, .. } = &mut action {
                *capture = took;
            }
            self.actions.push(action);
            self.dfs(next);
            self.actions.pop();
        }
    }
}

/// Lists the legal turns, checks them (and the pruned walk's) against [`reference`],
/// checks that `play` accepts each and that `apply_legal` leaves the same position;
/// checks that `random_turn` picks `turns[chooser.uniform(len)]`, drawing as much from
/// `chooser`. Returns the list and the turn picked.
fn check_position(
    s: &Settings,
    st: &State,
    series: &Series,
    chooser: &mut Dice,
) -> (Vec<Turn>, Turn) {
    let mut turns = Vec::new();
    Thaayam::legal_turns(s, st, Some(series), &mut turns);
    let want = reference(s, st, series);
    assert_eq!(turns, want, "{st:?} {series}");
    assert_eq!(pruned_turns(s, st, series), want, "{st:?} {series}");
    if let Some(full) = full_turns(s, st, series) {
        assert_eq!(full, want, "full walk: {st:?} {series}");
    }
    let mut listing = chooser.clone();
    let listed = turns[listing.uniform(turns.len() as u32) as usize].clone();
    let mut scratch = vec![listed.clone()];
    let picked = Thaayam::random_turn(s, st, Some(series), chooser, &mut scratch);
    assert_eq!(picked.as_ref(), Some(&listed), "{st:?} {series}");
    assert_eq!(chooser.words_used(), listing.words_used());
    // One turn per outcome: no two listed turns leave the same position (a seat's pieces
    // are alike, whichever of them moved), and the same position with its pieces held in
    // another order lists as many turns.
    let mut outcomes = HashSet::new();
    for t in &turns {
        let mut judged = *st;
        Thaayam::play(s, &mut judged, Some(series), t).unwrap_or_else(|v| panic!("{t}: {v}"));
        let mut applied = *st;
        Thaayam::apply_legal(s, &mut applied, Some(series), t);
        assert_eq!(applied, judged, "{st:?} {t}");
        let captured = t
            .actions
            .iter()
            .any(|a| matches!(a, Action::Move { capture: true, .. }));
        assert!(
            outcomes.insert((placed(&judged), captured)),
            "{st:?} {series}: {t} leaves the position of an earlier turn"
        );
    }
    let mut again = Vec::new();
    Thaayam::legal_turns(s, &reversed(st), Some(series), &mut again);
    assert_eq!(again.len(), turns.len(), "{st:?} {series}, pieces reversed");
    (turns, listed)
}

/// The rulesets' settings and a few more: every setting that changes the turns.
fn variants() -> Vec<Settings> {
    let mut out = Vec::new();
    for (seats, combine, twins, bonus) in [
        (&["south", "north"][..], true, true, true),
        (&["south", "east", "north", "west"][..], false, true, true),
        (&["south", "east", "north", "west"][..], true, true, false),
        (&["west", "north", "east"][..], true, false, true),
        (&["south", "east"][..], false, false, false),
    ] {
        let mut s = Settings::default();
        let chosen: Vec<Seat> = (0..4u8)
            .filter(|&i| seats.contains(&SEAT_NAMES[i as usize]))
            .map(Seat)
            .collect();
        s.seats = super::settings::Seats::of(&chosen);
        s.combine = combine;
        s.twins = twins;
        s.capture_bonus = bonus;
        out.push(s);
    }
    out.push(Settings {
        dice: settings::Dice::Spinner,
        ..Settings::default()
    });
    out
}

/// Random games, every position checked.
#[test]
fn listed_turns_in_random_games() {
    let mut chooser = Dice::from_seed("listed-choice");
    for (k, s) in variants().iter().enumerate() {
        for g in 0..20 {
            let mut dice = Dice::from_seed(&format!("listed-{k}-{g}"));
            let mut st = Thaayam::start(s, None, &NoTags, Some(&mut dice)).unwrap();
            for _ in 0..400 {
                if st.end.is_some() {
                    break;
                }
                let series = throw_series(s, &mut dice);
                let (_, pick) = check_position(s, &st, &series, &mut chooser);
                Thaayam::apply_legal(s, &mut st, Some(&series), &pick);
            }
        }
    }
}

/// Random positions (twins, the keep, pieces borne off, several pieces on a square)
/// and random series of up to seven throws.
#[test]
fn listed_turns_in_random_positions() {
    let mut dice = Dice::from_seed("listed-positions");
    let mut chooser = Dice::from_seed("listed-positions-choice");
    for (k, s) in variants().iter().enumerate() {
        for _ in 0..300 {
            let st = random_position(s, &mut dice);
            let series = random_series(s, &mut dice, 7);
            check_position(s, &st, &series, &mut chooser);
        }
        if k < 2 {
            let st = random_position(s, &mut dice);
            check_position(s, &st, &random_series(s, &mut dice, 12), &mut chooser);
        }
    }
}

/// Long series: the full walk leaves them to the pruned walk, and the listing stops
/// at its limits (the turns listed, the partial turns explored) where it did.
#[test]
fn listed_turns_of_long_series() {
    let s = Settings::default();
    let st = setup::parse(&s, "south: d1 e2 e4 d5; north: c1 e3; to-move: south").unwrap();
    let crowded = setup::parse(&s, "south: c1 d1 e2 e3; north: c5; to-move: south").unwrap();
    let mut chooser = Dice::from_seed("long-series");
    // The first stops at the turns listed, the second at the partial turns explored.
    for (st, n, throws, listed) in [
        (&crowded, 10, [4, 4, 8, 1, 1], Some(MAX_LISTED)),
        (&st, 20, [4, 8, 1, 4, 8], None),
    ] {
        let mut series: Vec<u8> = (0..n - 1).map(|i| throws[i % 5]).collect();
        series.push(3);
        let series = Series::new(&series);
        assert!(!full_walk_lists(&s, st, &series));
        let (turns, _) = check_position(&s, st, &series, &mut chooser);
        if let Some(listed) = listed {
            assert_eq!(turns.len(), listed);
        }
    }
    // A short series is listed by the full walk.
    let series = Series::new(&[4, 8, 3]);
    assert!(full_walk_lists(&s, &st, &series));
    check_position(&s, &st, &series, &mut chooser);
}

/// Listing after turns already in the list: the 500 turns listed at most count them
/// (as the walk always has), by either walk.
#[test]
fn listed_turns_append_to_the_list() {
    let s = Settings::default();
    let st = setup::parse(&s, "south: d1 e2 e4 d5; north: c1 e3; to-move: south").unwrap();
    for series in [&[4, 8, 3][..], &[4, 8, 1, 4, 8, 4, 8, 1, 3]] {
        let series = Series::new(series);
        let mut alone = Vec::new();
        Thaayam::legal_turns(&s, &st, Some(&series), &mut alone);
        for before in [1, alone.len() / 2, MAX_LISTED - 1, MAX_LISTED + 3] {
            let mut out = vec![alone[0].clone(); before];
            Thaayam::legal_turns(&s, &st, Some(&series), &mut out);
            let room = MAX_LISTED.saturating_sub(before);
            let added = &out[before..];
            assert_eq!(
                added,
                &alone[..alone.len().min(room)],
                "{series} after {before}"
            );
        }
    }
}

struct NoTags;
impl Tags for NoTags {
    fn tag(&self, _: &str) -> Option<&str> {
        None
    }
}

/// A position with each playing seat's pieces anywhere play can put them: in hand,
/// borne off (never all four), on the route, in the keep, a pair of twins from the
/// opposite palace on; crowded on a few squares so that pieces meet.
fn random_position(s: &Settings, dice: &mut Dice) -> State {
    let mut st = State::start(
        s.mask(),
        s.seats()[dice.uniform(s.seats().len() as u32) as usize],
    );
    let squares = [0, 3, 5, 8, 8, 10, 13, 17, 20, 23];
    for &seat in s.seats() {
        let k = seat.0 as usize;
        for i in 0..4 {
            st.pos[k][i] = match dice.uniform(8) {
                0 => HAND,
                1 if i > 0 => OFF,
                2 => KEEP,
                _ => squares[dice.uniform(squares.len() as u32) as usize],
            };
        }
        if s.twins && dice.uniform(3) == 0 {
            let p = OPPOSITE + dice.uniform(u32::from(KEEP - OPPOSITE)) as u8;
            st.pos[k][2] = p;
            st.pos[k][3] = p;
            st.twinned[k] = 0b1100;
        }
    }
    st
}

/// A series as a seed throws it, cut to at most `most` throws (the last then one that
/// ends a series).
fn random_series(s: &Settings, dice: &mut Dice, most: usize) -> Series {
    let mut t = throw_series(s, dice).to_vec();
    if t.len() > most {
        t.truncate(most - 1);
        t.push(2);
    }
    Series::new(&t)
}

/// Where throws are never combined, the uncombined walk (canonical where the turn only
/// enters and moves pieces, else full) lists what the full walk lists, in its order: over
/// random positions of three kinds (crowded on a few squares, anywhere, or near the keep
/// or the opposite palace, where pieces bear off or are declared twins), with series of
/// up to nine throws (three to seven near the ends), in the variants without combined throws and with twins on and off.
#[test]
fn uncombined_walks_list_as_the_full_walk() {
    let mut dice = Dice::from_seed("uncombined");
    let (mut canonical, mut full, mut listed, mut bearing_off) = (0, 0, 0, 0);
    for s in variants().iter().filter(|s| !s.combine) {
        for twins in [true, false] {
            let s = Settings { twins, ..*s };
            for k in 0..12_000 {
                let st = match k % 3 {
                    0 => random_position(&s, &mut dice),
                    1 => anywhere(&s, &mut dice),
                    _ => near_ends(&s, &mut dice),
                };
                let series = if k % 3 == 2 {
                    // Two to six extra throws, then the end of the series.
                    let mut t: Vec<u8> = (0..2 + dice.uniform(5))
                        .map(|_| [1, 1, 4, 8][dice.uniform(4) as usize])
                        .collect();
                    t.push(2 + dice.uniform(2) as u8);
                    Series::new(&t)
                } else {
                    random_series(&s, &mut dice, 9)
                };
                let usable = usable_throws(&series, st.on_board(st.to_move));
                let (Some(generic), Some(turns)) = (
                    generic_full_turns(&s, &st, &series),
                    full_turns(&s, &st, &series),
                ) else {
                    continue;
                };
                assert_eq!(turns, generic, "{st:?} {series}");
                let own = Own::of(&st, st.to_move);
                let values = usable.values();
                if usable.total() >= 2 && super::uncombined::moves_only(s.twins, &own, values) {
                    canonical += 1;
                    let off = |t: &Turn| t.actions.iter().any(|a| matches!(a, Action::Off));
                    bearing_off += usize::from(turns.iter().any(off));
                } else if usable.total() >= 2 {
                    full += 1;
                }
                listed += turns.len();
            }
        }
    }
    // Both walks ran often, on turns of several outcomes.
    assert!(
        canonical > 20_000 && full > 3_000,
        "{canonical} canonical, {full} full"
    );
    assert!(
        bearing_off > 500,
        "{bearing_off} canonical turns bearing off"
    );
    assert!(listed > 4 * (canonical + full), "{listed} listed");
}

/// A position with each playing seat's pieces anywhere: in hand, borne off, in the keep or
/// on any square of the route, a pair of them twins now and then, so that pieces are
/// alike, meet enemies, reach the keep and the opposite palace by every throw.
fn anywhere(s: &Settings, dice: &mut Dice) -> State {
    let mut st = State::start(
        s.mask(),
        s.seats()[dice.uniform(s.seats().len() as u32) as usize],
    );
    for &seat in s.seats() {
        let k = seat.0 as usize;
        for i in 0..4 {
            st.pos[k][i] = match dice.uniform(10) {
                0 => HAND,
                1 if i > 0 => OFF,
                2 => KEEP,
                3 if i > 0 => st.pos[k][i - 1].min(KEEP),
                _ => dice.uniform(u32::from(KEEP)) as u8,
            };
        }
        if s.twins && dice.uniform(4) == 0 {
            let p = OPPOSITE + dice.uniform(u32::from(KEEP - OPPOSITE)) as u8;
            st.pos[k][0] = p;
            st.pos[k][1] = p;
            st.twinned[k] = 0b0011;
        }
    }
    st
}

/// A position with the seat to move's pieces near the end of the route (in the keep,
/// borne off, within a throw of the keep) or near its opposite palace (on it, within a
/// throw of it, in hand), the other seats' anywhere: turns that bear off, declare twins,
/// or may.
fn near_ends(s: &Settings, dice: &mut Dice) -> State {
    let mut st = anywhere(s, dice);
    let k = st.to_move.0 as usize;
    let keep = dice.uniform(2) == 0;
    for i in 0..4 {
        st.pos[k][i] = match (keep, dice.uniform(4)) {
            (true, 0) => KEEP,
            (true, 1) if i > 0 => OFF,
            (true, _) => KEEP - 1 - dice.uniform(8) as u8,
            (false, 0) => OPPOSITE,
            (false, 1) => HAND,
            (false, _) => dice.uniform(u32::from(OPPOSITE)) as u8,
        };
    }
    st.twinned[k] = 0;
    st
}

/// Twins moving one square by a 2 or by a 3 (one throw a move) reach the same position
/// with different throws left: one turn, the first found.
#[test]
fn one_outcome_reached_with_different_throws_left_is_listed_once() {
    let s = Settings {
        combine: false,
        ..Settings::default()
    };
    let st = setup::parse(&s, "south: Tc5 off=2; north: e5; to-move: south").unwrap();
    let series = Series::new(&[2, 3]);
    assert!(full_walk_lists(&s, &st, &series));
    let (turns, _) = check_position(&s, &st, &series, &mut Dice::from_seed("once"));
    let written: Vec<String> = turns.iter().map(ToString::to_string).collect();
    assert_eq!(written, ["[2 3] Tc5+2"]);
}

/// Short turns (at most one usable throw, no declaration before it) are listed without
/// the walk, and as the walk lists them: over random games, most turns are short (three in five), and
/// among them turns with declarations after the step, with none to make, and turns with
/// no throw at all.
#[test]
fn short_turns_are_listed_as_the_walk_lists_them() {
    let mut chooser = Dice::from_seed("short-choice");
    let (mut short, mut long, mut declared, mut none) = (0, 0, 0, 0);
    for (k, s) in variants().iter().enumerate() {
        for g in 0..10 {
            let mut dice = Dice::from_seed(&format!("short-{k}-{g}"));
            let mut st = Thaayam::start(s, None, &NoTags, Some(&mut dice)).unwrap();
            for _ in 0..400 {
                if st.end.is_some() {
                    break;
                }
                let series = throw_series(s, &mut dice);
                let (turns, pick) = check_position(s, &st, &series, &mut chooser);
                if is_short(s, &st, &series) {
                    short += 1;
                    let full = full_turns(s, &st, &series).expect("a short turn is walked");
                    assert_eq!(turns, full, "{st:?} {series}");
                    declared += usize::from(
                        turns
                            .iter()
                            .any(|t| t.actions.iter().any(|a| matches!(a, Action::Twin(_)))),
                    );
                    none += usize::from(split(&series, st.on_board(st.to_move)).0 == [0; 9]);
                } else {
                    long += 1;
                }
                Thaayam::apply_legal(s, &mut st, Some(&series), &pick);
            }
        }
    }
    assert!(short > long && long > 1000, "{short} short, {long} long");
    assert!(
        declared > 10 && none > 100,
        "{declared} declared, {none} with none"
    );
}
/// The steps of a node with one throw left are [`each_step`]'s (less the declaration,
/// which the walk tries first), over random pieces with random moved flags; two throws of
/// one value are not one throw.
#[test]
fn one_throw_steps_are_each_steps() {
    use super::search::{declare, each_one_throw_step};
    let mut dice = Dice::from_seed("one-throw-steps");
    let mut compared = 0;
    for s in variants() {
        for _ in 0..5_000 {
            let st = random_position(&s, &mut dice);
            let own = Own {
                moved: dice.uniform(16) as u8,
                ..Own::of(&st, st.to_move)
            };
            let t = 1 + dice.uniform(8) as u8;
            let mut counts = [0u16; 9];
            counts[usize::from(t)] = 1;
            let throws = Unused::of(&counts);
            assert_eq!(throws.single(), Some(t));
            if declare(&s, &own, throws).is_some() {
                continue;
            }
            let mut want = Vec::new();
            steps(&s, &own, throws, &mut want);
            let mut got = Vec::new();
            each_one_throw_step(&own, t, &mut |step| {
                got.push(step);
                true
            });
            let plain = |v: &[super::search::Step]| -> Vec<_> {
                v.iter()
                    .map(|x| (x.kind, x.own, x.throws, x.used))
                    .collect()
            };
            assert_eq!(plain(&got), plain(&want), "{own:?} {t}");
            compared += usize::from(!want.is_empty());
            counts[usize::from(t)] = 2;
            assert!(super::short::Short::of(&s, &own, Unused::of(&counts)).is_none());
        }
    }
    assert!(compared > 10_000, "{compared}");
}
