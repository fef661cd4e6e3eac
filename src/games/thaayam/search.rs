//! The steps a seat's pieces can take with unused throws, and the use-all search: the
//! most throws a seat can still use (rule 13), worked out by [`most`] and memoised.

use std::cell::RefCell;

use super::board::{State, HAND, KEEP, OFF, OPPOSITE};
use super::most::most;
use super::series::Unused;
use super::settings::Settings;
use super::table::{Key, Table};
use crate::games::Seat;

/// The search's code for a piece that moved and can play no further part.
const DONE: u8 = 27;

/// One seat's pieces during a turn, as the use-all search sees them (enemy pieces never
/// block a move, so they do not matter to how many throws can be used).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Own {
    pub pos: [u8; 4],
    pub twinned: u8,
    pub moved: u8,
}

impl Own {
    /// A seat's pieces at the start of its turn.
    pub fn of(st: &State, seat: Seat) -> Own {
        Own {
            pos: st.pos[seat.0 as usize],
            twinned: st.twinned[seat.0 as usize],
            moved: 0,
        }
    }
    fn code(&self, i: usize) -> u8 {
        self.pos[i] | (((self.twinned >> i) & 1) << 5) | (((self.moved >> i) & 1) << 6)
    }
    /// The pieces as a multiset, as the search sees them: the memo key's first word.
    ///
    /// A piece's code is its position, bit 5 twinned, bit 6 moved. A piece that moved
    /// this turn cannot move again, so where it stands matters only in the keep
    /// (bear-off) or as a single on the opposite palace (a declaration may pair it);
    /// anywhere else it is just [`DONE`], which keeps the memo small. The four codes
    /// are worked out side by side, a byte each, then sorted.
    fn key(&self) -> u64 {
        const LOW: u32 = 0x0101_0101;
        const HIGH: u32 = 0x8080_8080;
        let pos = u32::from_le_bytes(self.pos);
        let twinned = spread(self.twinned);
        let moved = spread(self.moved);
        // Bit 7 of a byte: the piece stands before the keep; it stands off the opposite
        // palace. Positions are at most 26, so no byte carries into the next.
        let before_keep = !(pos + (128 - u32::from(KEEP)) * LOW) & HIGH;
        let off_opposite = ((pos ^ (u32::from(OPPOSITE) * LOW)) + 0x7f * LOW) & HIGH;
        let done = moved << 7 & before_keep & (off_opposite | twinned << 7);
        let done = (done >> 7) * 0xff;
        let codes =
            (pos | twinned << 5 | moved << 6) & !done | done & (u32::from(DONE | 1 << 6) * LOW);
        u64::from(sorted(codes))
    }
    /// Where the pieces stand, as a multiset: each piece's position and twinned flag (bit
    /// 5), sorted, a byte each. Two partial turns that leave the same position have the
    /// same placement whichever piece went where (the pieces of a seat are alike).
    pub fn placement(&self) -> u32 {
        sorted(u32::from_le_bytes(self.pos) | spread(self.twinned) << 5)
    }
    /// The pieces exactly, with their twinned and moved flags, in 40 bits.
    pub fn packed(&self) -> u64 {
        let pos = u32::from_le_bytes(self.pos);
        u64::from(pos) | u64::from(self.twinned) << 32 | u64::from(self.moved) << 36
    }
    pub fn is_twinned(&self, i: usize) -> bool {
        self.twinned & (1 << i) != 0
    }
    pub fn is_moved(&self, i: usize) -> bool {
        self.moved & (1 << i) != 0
    }
    /// The pieces a `twin` declaration pairs: two single pieces on the opposite palace,
    /// those that moved this turn first (so an unmoved single stays free).
    pub fn declaration(&self) -> Option<(usize, usize)> {
        // The pieces on the opposite palace, side by side: bit 7 of a byte is set where
        // the byte is not OPPOSITE (positions are at most 26, so nothing carries), then
        // bit 7 of byte `i` is moved to bit `i` by one multiply, as in `Unused::values`.
        const LOW: u32 = 0x0101_0101;
        let apart = (u32::from_le_bytes(self.pos) ^ (u32::from(OPPOSITE) * LOW)) + 0x7f * LOW;
        let there = (!apart >> 7) & LOW;
        let gathered = u64::from(there).wrapping_mul(1 << 24 | 1 << 17 | 1 << 10 | 1 << 3);
        let singles = (gathered >> 24) as u8 & 0xf & !self.twinned;
        if singles.count_ones() < 2 {
            return None;
        }
        // The moved ones by index, then the others by index.
        let order = u16::from(singles & self.moved) | u16::from(singles & !self.moved) << 4;
        let a = order.trailing_zeros();
        let b = (order & (order - 1)).trailing_zeros();
        Some(((a % 4) as usize, (b % 4) as usize))
    }
    /// An unmoved partner of twinned piece `i` on its square.
    pub fn partner(&self, i: usize) -> Option<usize> {
        (0..4).find(|&j| {
            j != i && self.is_twinned(j) && !self.is_moved(j) && self.pos[j] == self.pos[i]
        })
    }
}

/// The four bytes of `codes` sorted, smallest in the lowest byte (a sorting network).
#[inline]
fn sorted(codes: u32) -> u32 {
    let mut c = codes.to_le_bytes();
    for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (1, 2)] {
        let (x, y) = (c[a], c[b]);
        c[a] = x.min(y);
        c[b] = x.max(y);
    }
    u32::from_le_bytes(c)
}

/// Bit `i` of a four-bit mask moved to bit 0 of byte `i`.
fn spread(mask: u8) -> u32 {
    const SPREAD: [u32; 16] = {
        let mut out = [0u32; 16];
        let mut m = 0;
        while m < 16 {
            out[m] =
                (m as u32 & 1) | (m as u32 & 2) << 7 | (m as u32 & 4) << 14 | (m as u32 & 8) << 21;
            m += 1;
        }
        out
    };
    SPREAD[usize::from(mask & 15)]
}

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
/// [`MEMO_LIMIT`] entries.
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
    /// [`WALK_THROWS`] throws, the walk over the steps of a turn, the fastest on the
    /// turns of real games; for a longer one, where the walk would grow exponentially
    /// with mixed throws, the polynomial [`most`]. Both are exact (`tests_most`
    /// compares them), so the answer is the same either way.
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
        let best = if total > longest {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The memo key worked out a piece at a time, sorted.
    fn plain_key(own: &Own) -> u64 {
        let mut c: Vec<u8> = (0..4)
            .map(|i| {
                let p = own.pos[i];
                if own.is_moved(i) && p < KEEP && (p != OPPOSITE || own.is_twinned(i)) {
                    DONE | (1 << 6)
                } else {
                    own.code(i)
                }
            })
            .collect();
        c.sort_unstable();
        u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }

    #[test]
    fn declarations_pair_the_singles_on_the_opposite_palace() {
        let mut dice = crate::dice::Dice::from_seed("declaration");
        for _ in 0..20_000 {
            let own = Own {
                pos: [0; 4].map(|_| [7, 8, 8, 9, 24, 25, 26][dice.uniform(7) as usize]),
                twinned: dice.uniform(16) as u8,
                moved: dice.uniform(16) as u8,
            };
            let singles: Vec<usize> = (0..4)
                .filter(|&i| own.pos[i] == OPPOSITE && !own.is_twinned(i))
                .collect();
            let mut order: Vec<usize> = singles.clone();
            order.sort_by_key(|&i| (!own.is_moved(i), i));
            let want = (singles.len() >= 2).then(|| (order[0], order[1]));
            assert_eq!(own.declaration(), want, "{own:?}");
        }
    }

    #[test]
    fn the_memo_key_is_the_sorted_codes() {
        let mut dice = crate::dice::Dice::from_seed("memo-key");
        for _ in 0..20_000 {
            let own = Own {
                pos: [0; 4].map(|_| dice.uniform(27) as u8),
                twinned: dice.uniform(16) as u8,
                moved: dice.uniform(16) as u8,
            };
            assert_eq!(own.key(), plain_key(&own), "{own:?}");
        }
    }
}
