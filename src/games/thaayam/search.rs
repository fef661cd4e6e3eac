//! The steps a seat's pieces can take with unused throws, and the use-all search: the
//! most throws a seat can still use (rule 13), worked out by `most` and memoised.

use std::cell::RefCell;

use super::board::{HAND, KEEP, OFF};
use super::most::most;
use super::own::Own;
use super::series::Unused;
use super::settings::Settings;
use super::table::{Key, Table};

/// What one step of a turn does, in the search's terms.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum StepKind {
    Enter,
    Off,
    Twin,
    /// Piece `piece` (and its partner, for twins) moves; the throws used are those the
    /// step leaves out.
    Move {
        piece: u8,
        twins: bool,
    },
}

/// One possible step from a search node.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    pub kind: StepKind,
    /// The pieces after the step: a piece that moved, bore off or was declared twins
    /// with one that moved is marked moved, as judging a turn marks it.
    pub own: Own,
    pub throws: Unused,
    pub used: u8,
}

/// Every sub-multiset of `throws` (not empty) whose sum is in `min..=max`, in a fixed
/// order; with `combine` false, single throws only (`values`: the values held, as
/// [`Unused::values`] gives them). Calls `f(rest, sum, n)` until it
/// returns false; returns false if it did.
fn subsets(
    throws: Unused,
    values: u8,
    min: u16,
    max: u16,
    combine: bool,
    f: &mut impl FnMut(Unused, u16, u8) -> bool,
) -> bool {
    if !combine {
        // The values held in `min..=max`, as bits.
        let (low, high) = (min.max(1), max.min(8));
        if low > high {
            return true;
        }
        let mut fit = values & (((1u16 << high) - 1) & !((1u16 << (low - 1)) - 1)) as u8;
        while fit != 0 {
            let v = fit.trailing_zeros() as u8 + 1;
            fit &= fit - 1;
            if !f(Unused(throws.0 - Unused::one(v)), u16::from(v), 1) {
                return false;
            }
        }
        return true;
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        throws: Unused,
        v: u8,
        rest: u128,
        sum: u16,
        n: u8,
        min: u16,
        max: u16,
        f: &mut impl FnMut(Unused, u16, u8) -> bool,
    ) -> bool {
        if v > 8 {
            return n == 0 || sum < min || f(Unused(rest), sum, n);
        }
        let have = throws.count(v);
        let step = u16::from(v);
        let mut rest = rest;
        let mut k = 0u16;
        loop {
            if !go(
                throws,
                v + 1,
                rest,
                sum + k * step,
                n + k as u8,
                min,
                max,
                f,
            ) {
                return false;
            }
            k += 1;
            if k > have || sum + k * step > max || u16::from(n) + k > 250 {
                return true;
            }
            rest -= Unused::one(v);
        }
    }
    go(throws, 1, throws.0, 0, 0, min, max, f)
}

/// The `twin` declaration from a node, if one can be made: the only step that uses no
/// throw.
pub fn declare(s: &Settings, own: &Own, throws: Unused) -> Option<Step> {
    if !s.twins {
        return None;
    }
    let (a, b) = own.declaration()?;
    let mut o = *own;
    o.twinned |= (1 << a) | (1 << b);
    if o.is_moved(a) || o.is_moved(b) {
        o.moved |= (1 << a) | (1 << b);
    }
    Some(Step {
        kind: StepKind::Twin,
        own: o,
        throws,
        used: 0,
    })
}

/// Every step from a node (deduplicated over identical pieces), appended to `out` in
/// the order of [`each_step`]: the tests' plain searches.
#[cfg(test)]
pub fn steps(s: &Settings, own: &Own, throws: Unused, out: &mut Vec<Step>) {
    each_step(s, own, throws, &mut |step| {
        out.push(step);
        true
    });
}

/// The pieces a step may move, in index order: on the board and not moved by the turn
/// yet, and of the pieces alike (same square, same twinning: the same `code`) only the
/// first, since moving either gives the same outcome.
#[inline]
pub(super) fn pieces_to_try(own: &Own) -> impl Iterator<Item = usize> + '_ {
    let mut tried = 0u32; // the codes of the pieces tried, a byte each
    (0..4).filter(move |&i| {
        if own.pos[i] >= KEEP || own.is_moved(i) {
            return false;
        }
        let code = u32::from(own.code(i)) + 1;
        if (0..4).any(|k| tried >> (8 * k) & 0xff == code) {
            return false;
        }
        tried = tried << 8 | code;
        true
    })
}

/// Calls `f` with every step from a node (deduplicated over identical pieces) in a
/// fixed order: enter, bear off, declare, then each piece's moves; stops as soon as `f`
/// returns false.
pub fn each_step(s: &Settings, own: &Own, throws: Unused, f: &mut impl FnMut(Step) -> bool) {
    if throws.count(1) > 0 {
        let rest = Unused(throws.0 - Unused::one(1));
        if let Some(i) = (0..4).find(|&i| own.pos[i] == HAND) {
            let mut o = *own;
            o.pos[i] = 0;
            let step = Step {
                kind: StepKind::Enter,
                own: o,
                throws: rest,
                used: 1,
            };
            if !f(step) {
                return;
            }
        }
        let all_in = (0..4).all(|i| own.pos[i] == KEEP || own.pos[i] == OFF);
        if all_in {
            if let Some(i) = (0..4).find(|&i| own.pos[i] == KEEP && !own.is_moved(i)) {
                let mut o = *own;
                o.pos[i] = OFF;
                o.moved |= 1 << i;
                let step = Step {
                    kind: StepKind::Off,
                    own: o,
                    throws: rest,
                    used: 1,
                };
                if !f(step) {
                    return;
                }
            }
        }
    }
    if let Some(step) = declare(s, own, throws) {
        if !f(step) {
            return;
        }
    }
    let values = throws.values();
    for i in pieces_to_try(own) {
        let p = own.pos[i];
        let left = u16::from(KEEP - p);
        let more = if own.is_twinned(i) {
            let Some(j) = own.partner(i) else { continue };
            subsets(
                throws,
                values,
                2,
                2 * left + 1,
                s.combine,
                &mut |rest, sum, n| {
                    let mut o = *own;
                    let to = p + (sum / 2) as u8;
                    o.pos[i] = to;
                    o.pos[j] = to;
                    o.moved |= (1 << i) | (1 << j);
                    if to == KEEP {
                        o.twinned &= !((1 << i) | (1 << j));
                    }
                    f(Step {
                        kind: StepKind::Move {
                            piece: i as u8,
                            twins: true,
                        },
                        own: o,
                        throws: rest,
                        used: n,
                    })
                },
            )
        } else {
            subsets(throws, values, 1, left, s.combine, &mut |rest, sum, n| {
                let mut o = *own;
                o.pos[i] = p + sum as u8;
                o.moved |= 1 << i;
                f(Step {
                    kind: StepKind::Move {
                        piece: i as u8,
                        twins: false,
                    },
                    own: o,
                    throws: rest,
                    used: n,
                })
            })
        };
        if !more {
            return;
        }
    }
}

/// The steps from a node whose unused throws are one throw of `t`, less the declaration
/// (the caller's to try, before these): the steps [`each_step`] gives after it, in its
/// order, worked out without its sub-multisets (each step uses the throw: a single
/// moves by `t`, twins by half of it). Stops as soon as `f` returns false.
#[inline(always)]
pub fn each_one_throw_step(own: &Own, t: u8, f: &mut impl FnMut(Step) -> bool) {
    let step = |kind, own| Step {
        kind,
        own,
        throws: Unused(0),
        used: 1,
    };
    if t == 1 {
        if let Some(i) = (0..4).find(|&i| own.pos[i] == HAND) {
            let mut o = *own;
            o.pos[i] = 0;
            if !f(step(StepKind::Enter, o)) {
                return;
            }
        }
        if own.pos.iter().all(|&p| p == KEEP || p == OFF) {
            if let Some(i) = (0..4).find(|&i| own.pos[i] == KEEP && !own.is_moved(i)) {
                let mut o = *own;
                o.pos[i] = OFF;
                o.moved |= 1 << i;
                if !f(step(StepKind::Off, o)) {
                    return;
                }
            }
        }
    }
    for i in pieces_to_try(own) {
        let p = own.pos[i];
        let left = KEEP - p;
        let mut o = *own;
        let kind = if own.is_twinned(i) {
            let Some(j) = own.partner(i) else { continue };
            if t < 2 || t > 2 * left + 1 {
                continue;
            }
            let to = p + t / 2;
            o.pos[i] = to;
            o.pos[j] = to;
            o.moved |= (1 << i) | (1 << j);
            if to == KEEP {
                o.twinned &= !((1 << i) | (1 << j));
            }
            StepKind::Move {
                piece: i as u8,
                twins: true,
            }
        } else {
            if t > left {
                continue;
            }
            o.pos[i] = p + t;
            o.moved |= 1 << i;
            StepKind::Move {
                piece: i as u8,
                twins: false,
            }
        };
        if !f(step(kind, o)) {
            return;
        }
    }
}

/// The use-all search: the most throws a seat can still use, memoised on the multiset
/// of its pieces (with their moved flags) and the multiset of unused throws. What it
/// finds depends on nothing else but two settings, which the memo's key holds too, so
/// the thread's search keeps its memo from turn to turn, until it holds more than
/// `MEMO_LIMIT` entries.
#[derive(Clone, Debug, Default)]
pub struct Search {
    memo: Table<u8>,
}

/// The most entries the thread's memo keeps from turn to turn; past it, it starts
/// afresh. Small enough for the cache: a lookup that misses the cache costs more than a
/// search that the memo would have spared (measured: 1 << 10 and 1 << 12 alike, 1 << 14
/// and 1 << 16 slower).
const MEMO_LIMIT: usize = 1 << 12;

/// The longest series [`Search::best`] walks; a longer one goes to [`most`]. Random
/// play throws series of one to three throws; [`most`] builds its tables afresh each
/// call, so on such series the walk is about twenty times faster (`check` of
/// `thaayam-bell` records: 41 MB/s walked, 1.9 MB/s by `most` alone), while a walk of
/// eight mixed throws stays within a few milliseconds.
const WALK_THROWS: u16 = 8;

thread_local! {
    /// The thread's search, kept so that its memo serves every turn.
    static SEARCH: RefCell<Search> = RefCell::default();
}

impl Search {
    /// Runs `f` with the thread's search (or with a new one, should the thread's be in
    /// use).
    pub fn with<R>(f: impl FnOnce(&mut Search) -> R) -> R {
        SEARCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut search) => {
                if search.memo.len() > MEMO_LIMIT {
                    search.memo.reset(4 * MEMO_LIMIT);
                }
                f(&mut search)
            }
            Err(_) => f(&mut Search::default()),
        })
    }

    /// The most throws usable from this node, memoised: for a series of at most
    /// `WALK_THROWS` throws, the walk over the steps of a turn, the fastest on the
    /// turns of real games; for a longer one, where the walk would grow exponentially
    /// with mixed throws, the polynomial `most`. Where throws are never combined,
    /// `most` from two throws on: it tries the sets of units that move instead of
    /// building tables. Both are exact (`tests_most` compares them), so the answer is
    /// the same either way.
    pub fn best(&mut self, s: &Settings, own: Own, throws: Unused) -> u8 {
        self.walk(s, own, throws, WALK_THROWS)
    }

    /// [`Search::best`] walking series of up to `longest` throws, [`most`] above.
    fn walk(&mut self, s: &Settings, own: Own, throws: Unused, longest: u16) -> u8 {
        if throws.is_empty() {
            return 0;
        }
        let key = Self::key(s, &own, throws);
        if let Some(b) = self.memo.get(key) {
            return b;
        }
        let total = throws.total();
        // Where throws are never combined, `most` works in closed form: cheaper than a
        // walk of two throws or more.
        let best = if total > longest || (!s.combine && total >= 3) {
            most(s, &own, throws)
        } else {
            let mut best = 0u8;
            each_step(s, &own, throws, &mut |st| {
                let v = st
                    .used
                    .saturating_add(self.walk(s, st.own, st.throws, longest));
                best = best.max(v);
                u16::from(best) < total
            });
            best
        };
        self.memo.insert(key, best);
        best
    }

    /// The memo key: what the answer depends on.
    fn key(s: &Settings, own: &Own, throws: Unused) -> Key {
        let rules = u64::from(s.twins) << 32 | u64::from(s.combine) << 33;
        Key::new(own.key() | rules, throws.0)
    }

    /// The most throws usable from this node, by the search over the steps of a turn
    /// alone, whatever the series (exponential in mixed series; the tests' reference
    /// for [`most`]).
    #[cfg(test)]
    pub fn best_walked(&mut self, s: &Settings, own: Own, throws: Unused) -> u8 {
        self.walk(s, own, throws, u16::MAX)
    }
}
