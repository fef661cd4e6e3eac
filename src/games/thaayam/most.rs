//! The most throws a seat can use (rule 13), worked out without walking the orders of a
//! turn (issue 9): polynomial in the series, whatever its length.
//!
//! A turn's throws go to enters and bear-offs (a 1 each) and to the moves of its
//! **units** (a single piece, or twins), each unit moving at most once by a group of
//! throws whose sum fits its distance. Enemy pieces never block, and a declaration
//! that pairs a piece that moved gives nothing, so a turn is: which declarations of
//! unmoved singles to make (first, as they use no throw), how many pieces to enter, and
//! the groups of the units; then bear-offs, when every piece ends in the keep.
//!
//! For each choice of declarations and enters the groups are found by a reachability
//! table over the units' sums (a bit set, one bit a vector of sums):
//!
//! - **free** (no bear-off): a unit's group has a sum of at most its reach, at least 2
//!   for twins. Swapping a used throw greater than 1 for an unused smaller one greater
//!   than 1 keeps every group within reach and twins at 2 or more, so the throws other
//!   than 1s used are the smallest ones: the table follows them in increasing order, all
//!   placed, and the 1s then fill what room is left (worked out in closed form).
//! - **bear-off** (some unmoved piece in the keep, every other piece able to end there):
//!   every unit's sum is exact, so there is no such swap; the table also counts the
//!   throws placed, each of which may be left out. At most three units then move.

use smallvec::SmallVec;

use super::board::{HAND, KEEP, OFF, OPPOSITE};
use super::own::Own;
use super::series::Unused;
use super::settings::Settings;

/// A unit that may move this turn.
#[derive(Copy, Clone, Debug)]
struct Unit {
    /// The largest sum its group may have (twins: twice the distance, plus 1).
    reach: u8,
    twins: bool,
}

impl Unit {
    fn single(pos: u8) -> Unit {
        Unit {
            reach: KEEP - pos,
            twins: false,
        }
    }
    fn twins(pos: u8) -> Unit {
        Unit {
            reach: 2 * (KEEP - pos) + 1,
            twins: true,
        }
    }
    /// The sums that take it exactly to the keep.
    fn home(&self) -> (u8, u8) {
        if self.twins {
            (self.reach - 1, self.reach)
        } else {
            (self.reach, self.reach)
        }
    }
}

/// The most throws of `throws` a seat with pieces `own` can use.
pub fn most(s: &Settings, own: &Own, throws: Unused) -> u8 {
    if throws.is_empty() {
        return 0;
    }
    let ones = u32::from(throws.count(1));
    // A seat has four pieces: at most four units, held inline (no allocation a call).
    let mut base: SmallVec<[Unit; 4]> = SmallVec::new();
    let mut hand = 0u32;
    let mut in_keep = 0u32; // unmoved in the keep: may bear off
    let mut stuck = false; // a piece that can never end this turn in the keep
    let (mut free_there, mut moved_there) = (0u32, 0u32); // singles on the opposite palace
    let mut twins_at = [0u8; 25]; // unmoved twinned pieces by position
    for i in 0..4 {
        let (p, moved, twinned) = (own.pos[i], own.is_moved(i), own.is_twinned(i));
        match p {
            OFF => {}
            HAND => hand += 1,
            KEEP => in_keep += u32::from(!moved),
            _ if moved => {
                stuck = true;
                moved_there += u32::from(p == OPPOSITE && !twinned);
            }
            _ if twinned => twins_at[usize::from(p)] += 1,
            OPPOSITE => free_there += 1,
            _ => base.push(Unit::single(p)),
        }
    }
    for (p, &n) in twins_at.iter().enumerate() {
        for _ in 0..n / 2 {
            base.push(Unit::twins(p as u8));
        }
        // A twinned piece without an unmoved partner cannot move.
        stuck |= n % 2 == 1;
    }
    // A declaration pairs the singles that moved first: with an odd number of them, one
    // unmoved single is spent before two unmoved ones can be paired.
    let spent = u32::from(moved_there % 2 == 1 && free_there > 0);
    let pairs = if s.twins { (free_there - spent) / 2 } else { 0 };
    let mut best = 0u32;
    for d in 0..=pairs {
        let singles = if d == 0 {
            free_there
        } else {
            free_there - spent - 2 * d
        };
        for e in 0..=hand.min(ones) {
            let mut units = base.clone();
            units.extend((0..singles).map(|_| Unit::single(OPPOSITE)));
            units.extend((0..d).map(|_| Unit::twins(OPPOSITE)));
            units.extend((0..e).map(|_| Unit::single(0)));
            let left = ones - e;
            best = best.max(e + free(s, &units, left, throws));
            let spends = d > 0 && spent > 0;
            if in_keep > 0 && !stuck && !spends && e == hand {
                best = best.max(e + bear_off(s, &units, left, in_keep, throws));
            }
        }
    }
    best.min(u32::from(u8::MAX)) as u8
}

/// A table of vectors of small numbers, one bit a vector: coordinate `d` of bit `i` is
/// `i / stride[d] % size[d]`.
struct Grid {
    size: Vec<usize>,
    stride: Vec<usize>,
    bits: usize,
}

impl Grid {
    fn new(size: Vec<usize>) -> Grid {
        let mut stride = Vec::with_capacity(size.len());
        let mut bits = 1;
        for &n in &size {
            stride.push(bits);
            bits *= n;
        }
        Grid { size, stride, bits }
    }
    fn words(&self) -> usize {
        self.bits.div_ceil(64)
    }
    fn empty(&self) -> Vec<u64> {
        vec![0; self.words()]
    }
    fn coord(&self, i: usize, d: usize) -> usize {
        i / self.stride[d] % self.size[d]
    }
    /// The vectors whose coordinate `d` is at most `lim`.
    ///
    /// The set is periodic: `size[d]` blocks of `stride[d]` bits, the first `lim + 1`
    /// set. A long period is written run by run (each run is at least `stride[d]` bits,
    /// a few words); a short one (coordinate 0 or 1, where a run is a few bits and
    /// writing run by run cost ~40,000 instructions a table) is written once, with a
    /// word to spare, and each word of the table is read out of it at its offset in the
    /// period.
    #[cfg(test)]
    fn at_most(&self, d: usize, lim: usize) -> Vec<u64> {
        let mut m = vec![!0; self.words()];
        self.at_most_into(&mut m, d, lim);
        m
    }

    /// [`Grid::at_most`] written over `m` (a table's words, whatever they held), so a
    /// caller reuses one buffer for every set it needs.
    fn at_most_into(&self, m: &mut [u64], d: usize, lim: usize) {
        let (st, period) = (self.stride[d], self.stride[d] * self.size[d]);
        let run = (lim + 1).min(self.size[d]) * st;
        if period >= SHORT_PERIOD {
            m.fill(0);
            for start in (0..self.bits).step_by(period) {
                set_range(m, start, start + run);
            }
            return;
        }
        // One period and the 64 bits after it, and a word more so that every read of
        // two words stays inside.
        let mut once = [0u64; SHORT_PERIOD / 64 + 3];
        let end = period + 64;
        for start in (0..end).step_by(period) {
            set_range(&mut once, start, (start + run).min(end));
        }
        let step = 64 % period;
        let mut off = 0; // (64 * word) % period
        for w in m.iter_mut() {
            let (i, r) = (off / 64, off % 64);
            *w = if r == 0 {
                once[i]
            } else {
                once[i] >> r | once[i + 1] << (64 - r)
            };
            off += step;
            if off >= period {
                off -= period;
            }
        }
        // The bits past the table are not vectors.
        if !self.bits.is_multiple_of(64) {
            if let Some(last) = m.last_mut() {
                *last &= (1u64 << (self.bits % 64)) - 1;
            }
        }
    }
}

/// The period, in bits, from which [`Grid::at_most`] writes its set run by run.
const SHORT_PERIOD: usize = 1024;

fn set_range(m: &mut [u64], a: usize, b: usize) {
    let mut i = a;
    while i < b {
        let (w, off) = (i / 64, i % 64);
        let n = (64 - off).min(b - i);
        let bits = if n == 64 {
            !0
        } else {
            ((1u64 << n) - 1) << off
        };
        m[w] |= bits;
        i += n;
    }
}

/// `dst |= (src & mask) << sh`, bit by bit across the words.
fn shl_or(dst: &mut [u64], src: &[u64], mask: &[u64], sh: usize) {
    let (q, r) = (sh / 64, sh % 64);
    for (k, d) in dst.iter_mut().enumerate().skip(q).map(|(j, d)| (j - q, d)) {
        let mut w = (src[k] & mask[k]) << r;
        if r != 0 && k > 0 {
            w |= (src[k - 1] & mask[k - 1]) >> (64 - r);
        }
        *d |= w;
    }
}

fn set_bits(words: &[u64], mut f: impl FnMut(usize)) {
    for (j, &w) in words.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            f(j * 64 + w.trailing_zeros() as usize);
            w &= w - 1;
        }
    }
}

/// Where a throw of `v` may join unit `u`'s group: the vectors of sums whose coordinate
/// `u` is at most the limit given (without combined throws, the vectors where the unit
/// has none yet). `None` if nowhere.
fn room(s: &Settings, reach: &[u8], u: usize, v: u8) -> Option<usize> {
    if v > reach[u] {
        return None;
    }
    Some(usize::from(if s.combine { reach[u] - v } else { 0 }))
}

/// The sets of [`room`] for a throw of `v`, one a unit, written into buffers that live
/// as long as the search: `have[u]` says whether unit `u` has room at all.
struct Masks {
    words: Vec<Vec<u64>>,
    have: Vec<bool>,
}

impl Masks {
    fn new(units: usize) -> Masks {
        Masks {
            words: vec![Vec::new(); units],
            have: vec![false; units],
        }
    }

    fn write(&mut self, s: &Settings, g: &Grid, reach: &[u8], v: u8) {
        for u in 0..reach.len() {
            let lim = room(s, reach, u, v);
            self.have[u] = lim.is_some();
            if let Some(lim) = lim {
                let m = &mut self.words[u];
                m.resize(g.words(), 0);
                g.at_most_into(m, u, lim);
            }
        }
    }

    fn get(&self, u: usize) -> Option<&[u64]> {
        self.have[u].then(|| self.words[u].as_slice())
    }
}

/// The most throws the units' moves can use, with `ones` 1s for them, and no bear-off.
fn free(s: &Settings, units: &[Unit], ones: u32, throws: Unused) -> u32 {
    if units.is_empty() {
        return 0;
    }
    if !s.combine {
        return free_uncombined(units, ones, throws);
    }
    let reach: Vec<u8> = units.iter().map(|u| u.reach).collect();
    let g = Grid::new(reach.iter().map(|&r| usize::from(r) + 1).collect());
    let mut reached = g.empty();
    reached[0] = 1;
    // The 1s the units' groups can take on top of sums `x`, at most `ones`.
    let fill = |x: &dyn Fn(usize) -> usize| -> u32 {
        let mut room = 0u32;
        let mut single_one = false; // some unit can take a lone 1
        for (u, unit) in units.iter().enumerate() {
            let xu = x(u);
            let r = usize::from(unit.reach);
            let h = if s.combine {
                r - xu
            } else if xu == 0 && !unit.twins {
                1
            } else {
                0
            };
            // Twins with no other throw need two 1s at least.
            single_one |= h >= 1 && !(unit.twins && xu == 0);
            room += h as u32;
        }
        let m = room.min(ones);
        if m == 1 && !single_one {
            0
        } else {
            m
        }
    };
    let mut best = fill(&|_| 0);
    let reach_sum: u32 = reach.iter().map(|&r| u32::from(r)).sum();
    if s.combine && ones >= reach_sum {
        // 1s alone fill every unit's reach, and no throw is smaller.
        return best;
    }
    let mut placed = 0u32;
    let mut sum = 0u32;
    let mut next = g.empty();
    let mut masks = Masks::new(units.len());
    for v in 2..=8u8 {
        if (0..units.len()).all(|u| room(s, &reach, u, v).is_none()) {
            break;
        }
        // The sets are written only for a value the series holds.
        if throws.count(v) > 0 {
            masks.write(s, &g, &reach, v);
        }
        for _ in 0..throws.count(v) {
            next.iter_mut().for_each(|w| *w = 0);
            for u in 0..units.len() {
                if let Some(m) = masks.get(u) {
                    shl_or(&mut next, &reached, m, usize::from(v) * g.stride[u]);
                }
            }
            std::mem::swap(&mut reached, &mut next);
            if reached.iter().all(|&w| w == 0) {
                return best;
            }
            placed += 1;
            sum += u32::from(v);
            // With throws combined the room left is the same for every vector (the
            // reach less the sum placed); only whether a lone 1 fits can differ.
            let here = if s.combine && (reach_sum - sum).min(ones) != 1 {
                (reach_sum - sum).min(ones)
            } else {
                let mut here = 0;
                set_bits(&reached, |i| {
                    here = here.max(fill(&|u| g.coord(i, u)));
                });
                here
            };
            best = best.max(placed + here);
            if s.combine && reach_sum - sum <= ones {
                // The 1s fill the room left; each further throw takes at least two
                // squares of it for one throw more: fewer throws.
                return best;
            }
        }
    }
    best
}

/// [`free`] where throws are never combined: each unit moves by one throw at most, so
/// the table's vectors are the sets of units that moved. As in the table, the throws
/// other than 1s used are the `k` smallest, all placed; they fit a set of `k` units
/// when, both sorted, each throw is at most its unit's reach (a throw that fits a unit
/// fits every unit of a greater reach). The 1s then go to the singles left, one each,
/// so of the sets that fit, the one leaving the most singles counts. A seat has four
/// pieces, so every set of units is tried.
fn free_uncombined(units: &[Unit], ones: u32, throws: Unused) -> u32 {
    let n = units.len();
    // The units as bits: the twins, and every unit.
    let twins = units
        .iter()
        .enumerate()
        .fold(0u32, |m, (u, unit)| m | u32::from(unit.twins) << u);
    let all = (1u32 << n) - 1;
    let mut best = (n as u32 - twins.count_ones()).min(ones);
    // The throws other than 1s that may be placed, smallest first: one a unit at most;
    // and for each, the units it fits (a reach at least its value).
    let (mut small, mut fits, mut m) = ([0u8; 4], [0u32; 4], 0);
    'values: for v in 2..=8u8 {
        for _ in 0..throws.count(v) {
            if m == n {
                break 'values;
            }
            small[m] = v;
            fits[m] = units
                .iter()
                .enumerate()
                .fold(0u32, |f, (u, unit)| f | u32::from(v <= unit.reach) << u);
            m += 1;
        }
    }
    for k in 1..=m {
        let mut left = None; // the most singles a fitting set leaves
        for set in 0..=all {
            if set.count_ones() as usize != k {
                continue;
            }
            // The `k` smallest throws fit the set's units, both sorted, each throw at
            // most its unit's reach, exactly when each throw and the greater ones (the
            // `j`-th smallest and `k - j` in all) find as many units that they fit.
            if (0..k).all(|j| (set & fits[j]).count_ones() as usize >= k - j) {
                let unmoved = (all & !set & !twins).count_ones();
                left = left.max(Some(unmoved));
            }
        }
        // No set fits `k` throws: none fits more.
        let Some(left) = left else {
            break;
        };
        best = best.max(k as u32 + left.min(ones));
    }
    best
}

/// The most throws a turn that ends bearing off can use: every unit's group takes it
/// exactly to the keep, then `in_keep` pieces may each bear off with a 1 left of `ones`.
fn bear_off(s: &Settings, units: &[Unit], ones: u32, in_keep: u32, throws: Unused) -> u32 {
    if !s.combine {
        return bear_off_uncombined(units, ones, in_keep, throws);
    }
    let reach: Vec<u8> = units.iter().map(|u| u.reach).collect();
    let total: u32 = reach.iter().map(|&r| u32::from(r)).sum();
    // The throws other than 1s that could be placed at all, by value.
    let counts: Vec<(u8, u32)> = (2..=8u8)
        .map(|v| (v, u32::from(throws.count(v)).min(total / u32::from(v))))
        .collect();
    let items: u32 = counts.iter().map(|&(_, n)| n).sum();
    let mut size: Vec<usize> = reach.iter().map(|&r| usize::from(r) + 1).collect();
    size.push(items as usize + 1); // how many placed
    let g = Grid::new(size);
    let c = units.len();
    let mut reached = g.empty();
    reached[0] = 1;
    let mut next = g.empty();
    let mut masks = Masks::new(units.len());
    for &(v, n) in &counts {
        // The sets are written only for a value that can be placed.
        if n > 0 {
            masks.write(s, &g, &reach, v);
        }
        for _ in 0..n {
            next.copy_from_slice(&reached);
            for u in 0..units.len() {
                if let Some(m) = masks.get(u) {
                    shl_or(
                        &mut next,
                        &reached,
                        m,
                        usize::from(v) * g.stride[u] + g.stride[c],
                    );
                }
            }
            std::mem::swap(&mut reached, &mut next);
        }
    }
    let mut best = 0u32;
    set_bits(&reached, |i| {
        let placed = g.coord(i, c) as u32;
        // Each twins unit ends on one of two sums: try both.
        let twins: Vec<usize> = (0..units.len()).filter(|&u| units[u].twins).collect();
        for pick in 0..1u32 << twins.len() {
            let mut need = 0u32;
            let mut ok = true;
            for (u, unit) in units.iter().enumerate() {
                let xu = g.coord(i, u) as u32;
                let (a, b) = unit.home();
                let k = twins.iter().position(|&t| t == u);
                let target = u32::from(match k {
                    Some(k) if pick >> k & 1 == 1 => b,
                    _ => a,
                });
                let fits = if s.combine {
                    xu <= target
                } else {
                    xu == target || (xu == 0 && target == 1)
                };
                if !fits {
                    ok = false;
                    break;
                }
                need += target - xu;
            }
            if ok && need <= ones {
                best = best.max(placed + need + (ones - need).min(in_keep));
            }
        }
    });
    best
}

/// [`bear_off`] where throws are never combined: every unit moves by one throw that
/// takes it exactly to the keep (twins: one of their two sums), a single one point short
/// by a 1. Whichever throws do it, every unit moves and the same 1s are spent, so the
/// turn uses all the units' throws and then bears off what the 1s left allow; it can
/// end so when some choice of the twins' sums asks no value more often than the series
/// holds it.
fn bear_off_uncombined(units: &[Unit], ones: u32, in_keep: u32, throws: Unused) -> u32 {
    // The 1s the singles one point short take.
    let need = units.iter().filter(|u| !u.twins && u.reach == 1).count() as u32;
    if need > ones {
        return 0;
    }
    let twins = units.iter().filter(|u| u.twins).count();
    let fits = (0..1u32 << twins).any(|pick| {
        let mut asked = [0u16; 9];
        let mut t = 0;
        for unit in units {
            let sum = if unit.twins {
                let (a, b) = unit.home();
                t += 1;
                if pick >> (t - 1) & 1 == 1 {
                    b
                } else {
                    a
                }
            } else if unit.reach == 1 {
                continue;
            } else {
                unit.reach
            };
            match asked.get_mut(usize::from(sum)) {
                Some(n) => *n += 1,
                None => return false,
            }
        }
        (2..=8u8).all(|v| asked[usize::from(v)] <= throws.count(v))
    });
    if fits {
        units.len() as u32 + (ones - need).min(in_keep)
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::Grid;

    /// `at_most` is its definition, bit by bit, for short and long periods, every
    /// coordinate and limit, and tables that end inside a word.
    #[test]
    fn at_most_is_the_vectors_within_the_limit() {
        let sizes: [&[usize]; 6] = [
            &[25],
            &[3, 5],
            &[25, 25, 7],
            &[64, 2, 3],
            &[9, 26, 26],
            &[26, 26, 26, 4],
        ];
        for size in sizes {
            let g = Grid::new(size.to_vec());
            for d in 0..size.len() {
                for lim in 0..=size[d] {
                    let m = g.at_most(d, lim);
                    assert_eq!(m.len(), g.words());
                    for i in 0..m.len() * 64 {
                        let want = i < g.bits && g.coord(i, d) <= lim;
                        assert_eq!(
                            m[i / 64] >> (i % 64) & 1 == 1,
                            want,
                            "{size:?} {d} {lim} {i}"
                        );
                    }
                }
            }
        }
    }
}
