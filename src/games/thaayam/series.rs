//! Series of throws: thrown from the seed, checked when written, split into the throws
//! that may be used and those discarded.

use super::settings::{Settings, MAX_SERIES};
use super::violation::Fault;
use crate::notation::thaayam::Series;

/// Unused throws by value (`counts[v]`, v in 1..=8; index 0 unused).
pub type Counts = [u16; 9];

/// The throws of a series that may be used, and those discarded (rule 7): with no
/// piece on the board, the throws before the first 1; a series with no 1 whole.
pub fn split(series: &Series, on_board: bool) -> (Counts, Counts) {
    let mut usable = [0u16; 9];
    let mut discarded = [0u16; 9];
    let first_one = first_usable(series, on_board);
    for (i, &t) in series.iter().enumerate() {
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

/// Where a series' usable throws begin (rule 7): with no piece on the board, at its
/// first 1 (none usable without one).
fn first_usable(series: &Series, on_board: bool) -> usize {
    if on_board {
        0
    } else {
        series.iter().position(|&t| t == 1).unwrap_or(series.len())
    }
}

/// The usable throws of a series ([`split`]'s first part), counted straight into
/// [`Unused`].
#[inline(always)]
pub fn usable_throws(series: &Series, on_board: bool) -> Unused {
    let first_one = first_usable(series, on_board);
    let mut out = Unused(0);
    for &t in &series[first_one..] {
        // (A value past 8 is no throw: it counts nothing.)
        out.0 += ONE.get(usize::from(t)).copied().unwrap_or(0);
    }
    out
}

/// [`Unused::one`] by value, 0 for a value that is no throw (0, or past 8): a load where
/// a shift of the word takes several instructions.
const ONE: [u128; 9] = {
    let mut t = [0u128; 9];
    let mut v = 1;
    while v <= 8 {
        t[v] = 1 << (16 * (v - 1));
        v += 1;
    }
    t
};

/// Throws a series from the seed: one throw at a time until one that is not an extra
/// throw (at most [`MAX_SERIES`]).
#[inline]
pub fn throw_series(s: &Settings, dice: &mut crate::dice::Dice) -> Series {
    let mut out = Series::default();
    loop {
        let t = s.dice.throw(dice);
        out.push(t);
        if !s.is_extra(t) || out.len() >= MAX_SERIES {
            return out;
        }
    }
}

/// A series a seat could write under these settings, for the example turn of a note
/// that asks the players for their throws: `[1 4 2]` where the dice and `extra-throws`
/// allow it (the guide's example), else the first of a few short ones that is possible.
pub fn example(s: &Settings) -> Option<Series> {
    const CANDIDATES: [&[u8]; 7] = [&[1, 4, 2], &[1, 2], &[1, 3], &[1], &[2], &[3], &[4]];
    CANDIDATES
        .iter()
        .map(|t| Series::new(t))
        .find(|series| check_series(s, series).is_ok())
}

/// Checks a written series without a seed: not empty, possible values, every throw but
/// the last an extra throw, the last not.
pub fn check_series(s: &Settings, series: &Series) -> Result<(), Fault> {
    let Some((&last, init)) = series.split_last() else {
        return Err(Fault::EmptySeries);
    };
    for &t in series.iter() {
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

/// Unused throws by value packed in one word, 16 bits a value (value `v` in bits
/// `16 * (v - 1)..16 * v`): the same as [`Counts`], but `Copy` in a register, a hash key
/// as it is, and taking throws away is a subtraction.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default, Debug)]
pub struct Unused(pub u128);

impl Unused {
    /// The throws of counts by value.
    pub fn of(counts: &Counts) -> Unused {
        Unused(
            counts[1..]
                .iter()
                .rev()
                .fold(0, |acc, &c| (acc << 16) | u128::from(c)),
        )
    }
    /// How many throws of `v` (1..=8).
    pub fn count(self, v: u8) -> u16 {
        (self.0 >> (16 * (u32::from(v) - 1))) as u16
    }
    /// One throw of `v` (1..=8), as a word to add or subtract.
    #[inline]
    pub fn one(v: u8) -> u128 {
        ONE[usize::from(v)]
    }
    /// The value of the one throw left, when exactly one is.
    pub fn single(self) -> Option<u8> {
        // One bit, at the bottom of a value's lane (a higher bit is a count above 1).
        let low = self.0.trailing_zeros();
        (self.0 == 1 << (low & 127) && low.is_multiple_of(16)).then_some((low / 16) as u8 + 1)
    }
    /// No throw left?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// How many throws in all.
    pub fn total(self) -> u16 {
        (1..=8).map(|v| self.count(v)).sum()
    }
    /// The values held at least once, bit `v - 1` for `v`.
    pub fn values(self) -> u8 {
        // Bit 15 of a lane: the lane is not 0.
        const LOW: u128 = 0x7fff_7fff_7fff_7fff_7fff_7fff_7fff_7fff;
        const ONES: u64 = 0x0001_0001_0001_0001;
        let held = (((self.0 & LOW) + LOW) | self.0) >> 15;
        // Bits 0, 16, 32 and 48 of a word to bits 48 to 51: the product's other terms
        // land on bits 3, 18, 19, 33, 34, 35 or past 63, apart, so nothing carries.
        let gather =
            |w: u64| (((w & ONES).wrapping_mul(1 << 48 | 1 << 33 | 1 << 18 | 1 << 3)) >> 48) as u8;
        gather(held as u64) | gather((held >> 64) as u64) << 4
    }

    /// The throws in `self` not in `other`, which must hold no more of any value.
    pub fn minus(self, other: Unused) -> Unused {
        Unused(self.0 - other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_is_one_throw_alone() {
        assert_eq!(Unused(0).single(), None);
        for v in 1..=8u8 {
            let mut counts = [0u16; 9];
            counts[usize::from(v)] = 1;
            assert_eq!(Unused::of(&counts).single(), Some(v));
            for n in [2, 3, 4, 256] {
                counts[usize::from(v)] = n;
                assert_eq!(Unused::of(&counts).single(), None, "{n} of {v}");
            }
            counts[usize::from(v)] = 1;
            counts[usize::from(v % 8 + 1)] += 1;
            assert_eq!(Unused::of(&counts).single(), None, "{counts:?}");
        }
    }

    #[test]
    fn usable_throws_are_the_split_counts() {
        let mut dice = crate::dice::Dice::from_seed("usable");
        for _ in 0..20_000 {
            let n = 1 + dice.uniform(12) as usize;
            let throws: Vec<u8> = (0..n).map(|_| dice.uniform(10) as u8).collect();
            let series = Series::new(&throws);
            for on_board in [false, true] {
                let want = Unused::of(&split(&series, on_board).0);
                assert_eq!(
                    usable_throws(&series, on_board),
                    want,
                    "{throws:?} {on_board}"
                );
            }
        }
    }

    #[test]
    fn values_are_the_values_held() {
        let mut dice = crate::dice::Dice::from_seed("values");
        for _ in 0..20_000 {
            let mut counts = [0u16; 9];
            for c in &mut counts[1..] {
                *c = match dice.uniform(4) {
                    0 | 1 => 0,
                    2 => dice.uniform(4) as u16,
                    _ => dice.uniform(1 << 16) as u16,
                };
            }
            let want = (1..=8).fold(0u8, |m, v| m | u8::from(counts[v] > 0) << (v - 1));
            assert_eq!(Unused::of(&counts).values(), want, "{counts:?}");
        }
    }
}
