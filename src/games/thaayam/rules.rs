//! Judging and applying a turn, the use-all search, legal-turn generation.

use std::collections::{HashMap, HashSet};

use super::board::{is_safe, position, square, Ending, Reason, State, HAND, KEEP, OFF, OPPOSITE};
use super::settings::{Settings, MAX_SERIES};
use super::violation::{Fault, Violation};
use crate::games::Seat;
use crate::notation::thaayam::{Action, Series, Turn};

/// The search's code for a piece that moved and can play no further part.
const DONE: u8 = 27;

/// Unused throws by value (`counts[v]`, v in 1..=8; index 0 unused).
pub type Counts = [u16; 9];

/// The throws of a series that may be used, and those discarded (rule 7): with no
/// piece on the board, the throws before the first 1; a series with no 1 whole.
pub fn split(series: &Series, on_board: bool) -> (Counts, Counts) {
    let mut usable = [0u16; 9];
    let mut discarded = [0u16; 9];
    let first_one = if on_board {
        0
    } else {
        series
            .0
            .iter()
            .position(|&t| t == 1)
            .unwrap_or(series.0.len())
    };
    for (i, &t) in series.0.iter().enumerate() {
        if (1..=8).contains(&t) {
            if i < first_one {
                discarded[t as usize] += 1;
            } else {
                usable[t as usize] += 1;
            }
        }
    }
    (usable, discarded)
}

/// Throws a series from the seed: one throw at a time until one that is not an extra
/// throw (at most [`MAX_SERIES`]).
pub fn throw_series(s: &Settings, dice: &mut crate::dice::Dice) -> Series {
    let mut out = Vec::new();
    loop {
        let t = s.dice.throw(dice);
        out.push(t);
        if !s.is_extra(t) || out.len() >= MAX_SERIES {
            return Series(out);
        }
    }
}

/// Checks a written series without a seed: not empty, possible values, every throw but
/// the last an extra throw, the last not.
pub fn check_series(s: &Settings, series: &Series) -> Result<(), Fault> {
    let Some((&last, init)) = series.0.split_last() else {
        return Err(Fault::EmptySeries);
    };
    for &t in &series.0 {
        if !s.dice.can_show(t) {
            return Err(Fault::Impossible { value: t });
        }
    }
    if let Some(at) = init.iter().position(|&t| !s.is_extra(t)) {
        return Err(Fault::EndsEarly {
            at,
            value: init[at],
        });
    }
    if s.is_extra(last) {
        return Err(Fault::Unfinished { value: last });
    }
    Ok(())
}

/// One seat's pieces during a turn, as the use-all search sees them (enemy pieces never
/// block a move, so they do not matter to how many throws can be used).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Own {
    pub pos: [u8; 4],
    pub twinned: u8,
    pub moved: u8,
}

impl Own {
    fn code(&self, i: usize) -> u8 {
        self.pos[i] | (((self.twinned >> i) & 1) << 5) | (((self.moved >> i) & 1) << 6)
    }
    /// A piece as the search needs to know it. A piece that moved this turn cannot
    /// move again, so where it stands matters only in the keep (bear-off) or as a
    /// single on the opposite palace (a declaration may pair it); anywhere else it is
    /// just "done", which keeps the memo small.
    fn search_code(&self, i: usize) -> u8 {
        let p = self.pos[i];
        let done = self.is_moved(i) && p < KEEP && (p != OPPOSITE || self.is_twinned(i));
        if done {
            DONE | (1 << 6)
        } else {
            self.code(i)
        }
    }
    /// The pieces as a multiset, as the search sees them: the memo key.
    fn key(&self) -> u32 {
        let mut c = [
            self.search_code(0),
            self.search_code(1),
            self.search_code(2),
            self.search_code(3),
        ];
        c.sort_unstable();
        u32::from_le_bytes(c)
    }
    fn is_twinned(&self, i: usize) -> bool {
        self.twinned & (1 << i) != 0
    }
    fn is_moved(&self, i: usize) -> bool {
        self.moved & (1 << i) != 0
    }
    /// The pieces a `twin` declaration pairs: two single pieces on the opposite palace,
    /// those that moved this turn first (so an unmoved single stays free).
    fn declaration(&self) -> Option<(usize, usize)> {
        let mut cand: Vec<usize> = (0..4)
            .filter(|&i| self.pos[i] == OPPOSITE && !self.is_twinned(i))
            .collect();
        cand.sort_by_key(|&i| (!self.is_moved(i), i));
        match cand[..] {
            [a, b, ..] => Some((a, b)),
            _ => None,
        }
    }
    /// An unmoved partner of twinned piece `i` on its square.
    fn partner(&self, i: usize) -> Option<usize> {
        (0..4).find(|&j| {
            j != i && self.is_twinned(j) && !self.is_moved(j) && self.pos[j] == self.pos[i]
        })
    }
}

/// What one step of a turn does, in the search's terms.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum StepKind {
    Enter,
    Off,
    Twin,
    /// Piece `piece` (and its partner, for twins) moves; the throws used are the
    /// difference of the counts.
    Move {
        piece: usize,
        twins: bool,
    },
}

/// One possible step from a search node.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    pub kind: StepKind,
    pub own: Own,
    pub counts: Counts,
    pub used: u8,
}

/// Every sub-multiset of `counts` (not empty) whose sum is in `min..=max`; with
/// `combine` false, single throws only. Calls `f(rest, sum, n)`.
fn subsets(
    counts: &Counts,
    min: u16,
    max: u16,
    combine: bool,
    f: &mut impl FnMut(Counts, u16, u8),
) {
    if !combine {
        for v in 1..=8u16 {
            if counts[v as usize] > 0 && v >= min && v <= max {
                let mut rest = *counts;
                rest[v as usize] -= 1;
                f(rest, v, 1);
            }
        }
        return;
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        counts: &Counts,
        v: usize,
        rest: &mut Counts,
        sum: u16,
        n: u8,
        min: u16,
        max: u16,
        f: &mut impl FnMut(Counts, u16, u8),
    ) {
        if v > 8 {
            if n > 0 && sum >= min {
                f(*rest, sum, n);
            }
            return;
        }
        let mut k = 0u16;
        loop {
            go(
                counts,
                v + 1,
                rest,
                sum + k * v as u16,
                n + k as u8,
                min,
                max,
                f,
            );
            k += 1;
            if k > counts[v] || sum + k * v as u16 > max || n as u16 + k > 250 {
                break;
            }
            rest[v] -= 1;
        }
        rest[v] += k - 1;
    }
    let mut rest = *counts;
    go(counts, 1, &mut rest, 0, 0, min, max, f);
}

/// Every step from a node (deduplicated over identical pieces).
pub fn steps(s: &Settings, own: &Own, counts: &Counts, out: &mut Vec<Step>) {
    out.clear();
    if counts[1] > 0 {
        if let Some(i) = (0..4).find(|&i| own.pos[i] == HAND) {
            let mut o = *own;
            o.pos[i] = 0;
            let mut c = *counts;
            c[1] -= 1;
            out.push(Step {
                kind: StepKind::Enter,
                own: o,
                counts: c,
                used: 1,
            });
        }
        let all_in = (0..4).all(|i| own.pos[i] == KEEP || own.pos[i] == OFF);
        if all_in {
            if let Some(i) = (0..4).find(|&i| own.pos[i] == KEEP && !own.is_moved(i)) {
                let mut o = *own;
                o.pos[i] = OFF;
                let mut c = *counts;
                c[1] -= 1;
                out.push(Step {
                    kind: StepKind::Off,
                    own: o,
                    counts: c,
                    used: 1,
                });
            }
        }
    }
    if s.twins {
        if let Some((a, b)) = own.declaration() {
            let mut o = *own;
            o.twinned |= (1 << a) | (1 << b);
            if o.is_moved(a) || o.is_moved(b) {
                o.moved |= (1 << a) | (1 << b);
            }
            out.push(Step {
                kind: StepKind::Twin,
                own: o,
                counts: *counts,
                used: 0,
            });
        }
    }
    let mut seen: u32 = 0; // codes already tried, as a small set of 4
    let mut tried = [255u8; 4];
    for i in 0..4 {
        let p = own.pos[i];
        if p >= KEEP || own.is_moved(i) {
            continue;
        }
        let code = own.code(i);
        if tried[..seen as usize].contains(&code) {
            continue;
        }
        tried[seen as usize] = code;
        seen += 1;
        let left = u16::from(KEEP - p);
        if own.is_twinned(i) {
            let Some(j) = own.partner(i) else { continue };
            subsets(counts, 2, 2 * left + 1, s.combine, &mut |rest, sum, n| {
                let mut o = *own;
                let to = p + (sum / 2) as u8;
                o.pos[i] = to;
                o.pos[j] = to;
                o.moved |= (1 << i) | (1 << j);
                if to == KEEP {
                    o.twinned &= !((1 << i) | (1 << j));
                }
                out.push(Step {
                    kind: StepKind::Move {
                        piece: i,
                        twins: true,
                    },
                    own: o,
                    counts: rest,
                    used: n,
                });
            });
        } else {
            subsets(counts, 1, left, s.combine, &mut |rest, sum, n| {
                let mut o = *own;
                o.pos[i] = p + sum as u8;
                o.moved |= 1 << i;
                out.push(Step {
                    kind: StepKind::Move {
                        piece: i,
                        twins: false,
                    },
                    own: o,
                    counts: rest,
                    used: n,
                });
            });
        }
    }
}

/// The use-all search: the most throws a seat can still use, memoised on the multiset
/// of its pieces (with their moved flags) and the multiset of unused throws.
pub struct Search<'a> {
    s: &'a Settings,
    memo: HashMap<(u32, Counts), u8>,
}

impl<'a> Search<'a> {
    pub fn new(s: &'a Settings) -> Search<'a> {
        Search {
            s,
            memo: HashMap::new(),
        }
    }

    /// The most throws usable from this node.
    pub fn best(&mut self, own: Own, counts: Counts) -> u8 {
        let total: u16 = counts.iter().sum();
        if total == 0 {
            return 0;
        }
        let key = (own.key(), counts);
        if let Some(&b) = self.memo.get(&key) {
            return b;
        }
        let mut list = Vec::new();
        steps(self.s, &own, &counts, &mut list);
        let mut best = 0u8;
        for st in list {
            let v = st.used.saturating_add(self.best(st.own, st.counts));
            if v > best {
                best = v;
                if u16::from(best) >= total {
                    break;
                }
            }
        }
        self.memo.insert(key, best);
        best
    }
}

/// A seat's pieces at the start of its turn.
pub fn own_of(st: &State, seat: Seat) -> Own {
    Own {
        pos: st.pos[seat.0 as usize],
        twinned: st.twinned[seat.0 as usize],
        moved: 0,
    }
}

/// A turn in progress.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Work {
    pub st: State,
    pub moved: u8,
    pub counts: Counts,
    pub used: u16,
    pub captured: bool,
}

impl Work {
    fn own(&self, seat: Seat) -> Own {
        Own {
            moved: self.moved,
            ..own_of(&self.st, seat)
        }
    }
}

/// Sends the enemy pieces on the landing square home: all of them when twins land,
/// the singles when a single lands; nothing on a marked square. Returns whether
/// anything was taken; a claimed capture that takes nothing is a fault.
fn land(w: &mut Work, seat: Seat, to: u8, twins: bool, claim: bool) -> Result<(), Fault> {
    let sq = square(seat, to);
    if is_safe(sq) {
        return if claim {
            Err(Fault::SafeSquare { at: sq })
        } else {
            Ok(())
        };
    }
    let mut took = false;
    let mut twins_there = false;
    for e in 0..4u8 {
        let enemy = Seat(e);
        if enemy == seat || !w.st.is_playing(enemy) {
            continue;
        }
        let e = e as usize;
        for i in 0..4 {
            let p = w.st.pos[e][i];
            if p > KEEP || square(enemy, p) != sq {
                continue;
            }
            let tw = w.st.twinned[e] & (1 << i) != 0;
            if tw && !twins {
                twins_there = true;
                continue;
            }
            w.st.pos[e][i] = HAND;
            w.st.twinned[e] &= !(1 << i);
            took = true;
        }
    }
    if took {
        w.captured = true;
    } else if claim {
        return Err(if twins_there {
            Fault::SingleOnTwins { at: sq }
        } else {
            Fault::NoCapture { at: sq }
        });
    }
    Ok(())
}

/// Takes the written throws from the unused ones.
fn take(w: &mut Work, discarded: &Counts, throws: &[u8]) -> Result<(), Fault> {
    for &v in throws {
        let i = v as usize;
        if !(1..=8).contains(&i) || w.counts[i] == 0 {
            return Err(if (1..=8).contains(&i) && discarded[i] > 0 {
                Fault::Discarded { value: v }
            } else {
                Fault::NoThrow { value: v }
            });
        }
        w.counts[i] -= 1;
        w.used += 1;
    }
    Ok(())
}

/// Judges and applies one action of the seat's turn.
pub fn apply(
    s: &Settings,
    w: &mut Work,
    seat: Seat,
    discarded: &Counts,
    action: &Action,
) -> Result<(), Fault> {
    let si = seat.0 as usize;
    match action {
        Action::Enter => {
            if w.counts[1] == 0 {
                return Err(Fault::EnterNoOne);
            }
            let Some(i) = (0..4).find(|&i| w.st.pos[si][i] == HAND) else {
                return Err(Fault::NothingToEnter);
            };
            take(w, discarded, &[1])?;
            w.st.pos[si][i] = 0;
            Ok(())
        }
        Action::Off => {
            if w.counts[1] == 0 {
                return Err(Fault::OffNoOne);
            }
            let outside = (0..4)
                .filter(|&i| w.st.pos[si][i] != KEEP && w.st.pos[si][i] != OFF)
                .count();
            if outside > 0 {
                return Err(Fault::OffTooEarly { outside });
            }
            let Some(i) = (0..4).find(|&i| w.st.pos[si][i] == KEEP && w.moved & (1 << i) == 0)
            else {
                return Err(Fault::OffMoved);
            };
            take(w, discarded, &[1])?;
            w.st.pos[si][i] = OFF;
            w.moved |= 1 << i;
            Ok(())
        }
        Action::Twin(sq) => {
            if !s.twins {
                return Err(Fault::TwinsOff);
            }
            let palace = square(seat, OPPOSITE);
            if *sq != palace {
                return Err(Fault::TwinWrongSquare { at: *sq, palace });
            }
            let own = w.own(seat);
            let Some((a, b)) = own.declaration() else {
                return Err(Fault::TwinTooFew { at: *sq });
            };
            w.st.twinned[si] |= (1 << a) | (1 << b);
            if own.is_moved(a) || own.is_moved(b) {
                w.moved |= (1 << a) | (1 << b);
            }
            Ok(())
        }
        Action::Move {
            from,
            twins,
            throws,
            capture,
        } => {
            let mut after = *w;
            take(&mut after, discarded, throws)?;
            if throws.len() > 1 && !s.combine {
                return Err(Fault::Combined);
            }
            let p = position(seat, *from);
            let sum: u16 = throws.iter().map(|&t| u16::from(t)).sum();
            let own = w.own(seat);
            let here: Vec<usize> = (0..4)
                .filter(|&i| own.pos[i] == p && own.is_twinned(i) == *twins)
                .collect();
            if *twins {
                if p == KEEP {
                    return Err(Fault::TwinsInKeep);
                }
                if here.is_empty() {
                    return Err(Fault::NoTwins { at: *from });
                }
                if sum < 2 {
                    return Err(Fault::TwinsTooShort { sum: sum as u8 });
                }
            } else if here.is_empty() {
                return Err(Fault::NoPiece { at: *from });
            }
            if p == KEEP {
                return Err(Fault::InKeep);
            }
            let by = if *twins { sum / 2 } else { sum };
            if u16::from(p) + by > u16::from(KEEP) {
                return Err(Fault::PastKeep {
                    from: *from,
                    by: by.min(255) as u8,
                    left: KEEP - p,
                });
            }
            let Some(&i) = here.iter().find(|&&i| !own.is_moved(i)) else {
                return Err(Fault::MovedTwice { at: *from });
            };
            let to = p + by as u8;
            let mut mask = 1u8 << i;
            if *twins {
                let Some(j) = own.partner(i) else {
                    return Err(Fault::MovedTwice { at: *from });
                };
                mask |= 1 << j;
            }
            for k in 0..4 {
                if mask & (1 << k) != 0 {
                    after.st.pos[si][k] = to;
                }
            }
            after.moved |= mask;
            if to == KEEP {
                after.st.twinned[si] &= !mask;
            }
            land(&mut after, seat, to, *twins, *capture)?;
            *w = after;
            Ok(())
        }
    }
}

/// Ends a turn: a seat with every piece borne off wins; after a capture (with
/// `capture-bonus`) the seat plays again; otherwise the next seat clockwise.
pub fn finish(s: &Settings, st: &mut State, seat: Seat, captured: bool) {
    if st.off(seat) == 4 {
        st.end = Some(Ending {
            winner: Some(seat),
            reason: Reason::Win,
        });
    } else if !(captured && s.capture_bonus) {
        st.to_move = st.next_after(seat);
    }
}

/// Judges a turn and, when legal, applies it.
pub fn play(
    s: &Settings,
    st: &mut State,
    series: Option<&Series>,
    turn: &Turn,
) -> Result<(), Violation> {
    let Some(series) = series else {
        return Err(Violation::new(Fault::NoSeries));
    };
    let fail = |fault| Violation {
        fault,
        series: series.clone(),
    };
    let seat = st.to_move;
    let (usable, discarded) = split(series, st.on_board(seat));
    let mut w = Work {
        st: *st,
        moved: 0,
        counts: usable,
        used: 0,
        captured: false,
    };
    for action in &turn.actions {
        apply(s, &mut w, seat, &discarded, action).map_err(fail)?;
    }
    let possible = Search::new(s).best(own_of(st, seat), usable);
    if w.used < u16::from(possible) {
        return Err(fail(Fault::UseAll {
            used: w.used as usize,
            possible: possible as usize,
        }));
    }
    let mut next = w.st;
    finish(s, &mut next, seat, w.captured);
    *st = next;
    Ok(())
}

/// The most turns [`legal_turns`] lists, and the most partial turns it explores.
pub const MAX_LISTED: usize = 500;
const MAX_NODES: usize = 50_000;

/// The legal turns for the series in force, one per distinct outcome, in a fixed
/// order. Without a series (no seed, nothing written) there is nothing to list.
pub fn legal_turns(s: &Settings, st: &State, series: Option<&Series>, out: &mut Vec<Turn>) {
    let Some(series) = series else { return };
    if st.end.is_some() {
        return;
    }
    let seat = st.to_move;
    let (usable, discarded) = split(series, st.on_board(seat));
    let mut search = Search::new(s);
    let max = u16::from(search.best(own_of(st, seat), usable));
    let mut gen = Gen {
        s,
        seat,
        discarded,
        max,
        series,
        search,
        visited: HashSet::new(),
        outcomes: HashSet::new(),
        actions: Vec::new(),
        out,
    };
    let start = Work {
        st: *st,
        moved: 0,
        counts: usable,
        used: 0,
        captured: false,
    };
    gen.dfs(start);
}

struct Gen<'a, 'o> {
    s: &'a Settings,
    seat: Seat,
    discarded: Counts,
    max: u16,
    series: &'a Series,
    search: Search<'a>,
    visited: HashSet<Work>,
    outcomes: HashSet<(State, bool)>,
    actions: Vec<Action>,
    out: &'o mut Vec<Turn>,
}

impl Gen<'_, '_> {
    fn dfs(&mut self, w: Work) {
        if self.out.len() >= MAX_LISTED || self.visited.len() >= MAX_NODES {
            return;
        }
        if !self.visited.insert(w) {
            return;
        }
        if w.used == self.max && self.outcomes.insert((w.st, w.captured)) {
            self.out.push(Turn {
                series: Some(self.series.clone()),
                actions: self.actions.clone(),
            });
        }
        let own = w.own(self.seat);
        let mut list = Vec::new();
        steps(self.s, &own, &w.counts, &mut list);
        for step in list {
            let reach =
                w.used + u16::from(step.used) + u16::from(self.search.best(step.own, step.counts));
            if reach != self.max {
                continue;
            }
            let mut action = match step.kind {
                StepKind::Enter => Action::Enter,
                StepKind::Off => Action::Off,
                StepKind::Twin => Action::Twin(square(self.seat, OPPOSITE)),
                StepKind::Move { piece, twins } => {
                    let mut throws = Vec::new();
                    for v in (1..=8usize).rev() {
                        for _ in 0..(w.counts[v] - step.counts[v]) {
                            throws.push(v as u8);
                        }
                    }
                    Action::Move {
                        from: square(self.seat, own.pos[piece]),
                        twins,
                        throws,
                        capture: false,
                    }
                }
            };
            let mut next = w;
            if apply(self.s, &mut next, self.seat, &self.discarded, &action).is_err() {
                continue;
            }
            // Mark the move that captured with `x`.
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
