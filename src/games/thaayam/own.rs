//! One seat's pieces during a turn ([`Own`]), as the use-all search and the walks that
//! list legal turns see them, and the key the search's memo keeps them by.

use super::board::{State, KEEP, OPPOSITE};
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
    pub(super) fn code(&self, i: usize) -> u8 {
        self.pos[i] | (((self.twinned >> i) & 1) << 5) | (((self.moved >> i) & 1) << 6)
    }
    /// The pieces as a multiset, as the search sees them: the memo key's first word.
    ///
    /// A piece's code is its position, bit 5 twinned, bit 6 moved. A piece that moved
    /// this turn cannot move again, so where it stands matters only in the keep
    /// (bear-off) or as a single on the opposite palace (a declaration may pair it);
    /// anywhere else it is just [`DONE`], which keeps the memo small. The four codes
    /// are worked out side by side, a byte each, then sorted.
    pub(super) fn key(&self) -> u64 {
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
