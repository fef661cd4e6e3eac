//! The random layout from the seed (`halves.md`, "Random events, in order"): one shuffle
//! of every tile (white's, then black's, then red's); the first on (0,0); each next on a
//! cell chosen uniformly among the empty cells next to the group, taken in ascending
//! order of `r`, then `q`. And the normal start: that layout, or the manual start.

use super::board::{Phase, State, Tiles, MAX_TILES};
use super::rules::{manual_start, settle_start};
use super::settings::{Settings, Start};
use super::violation::{SetupFault, Violation};
use crate::dice::Dice;
use crate::games::Seat;
use crate::notation::halves::Cell;
use std::ops::{BitAnd, BitOr, Not, Shl, Shr};

/// One row of cells as bits: `u64` where a layout stays within 31 steps of (0,0) (at
/// most 31 tiles), `u128` up to [`MAX_TILES`].
trait Row:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    fn bit(i: usize) -> Self;
    /// The index of the lowest set bit; there is one.
    fn lowest(self) -> usize;
    /// Without the lowest set bit.
    fn without_lowest(self) -> Self;
}

macro_rules! row {
    ($t:ty) => {
        impl Row for $t {
            const ZERO: Self = 0;
            #[inline]
            fn bit(i: usize) -> Self {
                1 << i
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}
row!(u64);
row!(u128);

/// The empty cells next to the group as it grows, as one bit a cell in rows: the order
/// the spec draws from (`r`, then `q`) is the order of the rows, then of the bits, so a
/// tile costs setting a few bits and finding the `k`-th one, and nothing moves.
///
/// `ROWS` is odd: rows `r` from `-ROWS / 2` to `ROWS / 2`, and as many bits a row for
/// `q`; a cell is written as its row and bit, `(q + ROWS / 2, r + ROWS / 2)`. The `k`-th
/// tile laid (from 0) is at most `k` steps from (0,0) and the cells next to it one more,
/// so a layout of `n` tiles needs `ROWS / 2 >= n` (and a row type of `ROWS` bits): the
/// size is chosen from the tile count, since the bitmaps are made afresh for every
/// record with a random start.
struct Frontier<W: Row, const ROWS: usize> {
    /// Bit `q` of row `r`: the cell is listed.
    listed: [W; ROWS],
    /// Every cell laid or listed so far, by the same bits.
    seen: [W; ROWS],
    /// How many cells each row lists.
    count: [u8; ROWS],
    /// The first row that may list cells.
    lo: usize,
    len: usize,
}

impl<W: Row, const ROWS: usize> Frontier<W, ROWS> {
    const RADIUS: usize = ROWS / 2;

    /// The frontier of a tile on (0,0).
    fn new() -> Self {
        let mut f = Frontier {
            listed: [W::ZERO; ROWS],
            seen: [W::ZERO; ROWS],
            count: [0; ROWS],
            lo: Self::RADIUS,
            len: 0,
        };
        f.seen[Self::RADIUS] = W::bit(Self::RADIUS);
        f.grow(Self::RADIUS, Self::RADIUS);
        f
    }

    /// Takes the `k`-th cell (in the drawing order) off the list: its `(q, r)` bit and
    /// row.
    #[inline]
    fn take(&mut self, mut k: usize) -> (usize, usize) {
        let mut row = self.lo;
        while k >= usize::from(self.count[row]) {
            k -= usize::from(self.count[row]);
            row += 1;
        }
        let mut bits = self.listed[row];
        for _ in 0..k {
            bits = bits.without_lowest();
        }
        let q = bits.lowest();
        self.listed[row] = self.listed[row] & !W::bit(q);
        self.count[row] -= 1;
        self.len -= 1;
        (q, row)
    }

    /// Lists the neighbours of the cell `(q, r)`, just laid, that were neither laid nor
    /// listed: a row's neighbours are two bits of the row above, two of its own and two
    /// of the row below.
    #[inline]
    fn grow(&mut self, q: usize, r: usize) {
        let x = W::bit(q);
        // North (0,-1) and north-east (1,-1); north-west (-1,0) and south-east (1,0);
        // south-west (-1,1) and south (0,1).
        let around = [
            (r - 1, x | x << 1),
            (r, x >> 1 | x << 1),
            (r + 1, x >> 1 | x),
        ];
        for (row, cells) in around {
            let new = cells & !self.seen[row];
            self.seen[row] = self.seen[row] | new;
            self.listed[row] = self.listed[row] | new;
            // `cells` holds two cells (the layout stays clear of the rows' ends), and
            // `new` some of them: both where it is all of them.
            let added = u8::from(new != W::ZERO) + u8::from(new == cells);
            self.count[row] += added;
            self.len += usize::from(added);
        }
        if self.count[r - 1] != 0 {
            self.lo = self.lo.min(r - 1);
        }
    }
}

/// The random start from the seed; then the contract (two seats with a contract) or the
/// waning, white to move.
pub(crate) fn random_start(s: &Settings, dice: &mut Dice) -> State {
    let mut colours = [0u8; MAX_TILES];
    let mut n = 0;
    for &seat in &s.seats {
        for _ in 0..s.tiles_each {
            if n < MAX_TILES {
                colours[n] = seat.0;
                n += 1;
            }
        }
    }
    let colours = &mut colours[..n];
    dice.shuffle(colours);
    // The tiles are laid in the state's own table (a table is a few hundred bytes:
    // not built apart and copied in).
    let mut st = State::empty();
    // (The bitmaps are zeroed for every record: no larger than the tiles need.)
    if n <= 24 {
        lay::<u64, 49>(colours, dice, &mut st.tiles);
    } else if n <= 31 {
        lay::<u64, 63>(colours, dice, &mut st.tiles);
    } else {
        lay::<u128, { 2 * MAX_TILES + 1 }>(colours, dice, &mut st.tiles);
    }
    st.phase = if s.has_contract() {
        Phase::Contract
    } else {
        Phase::Waning
    };
    st.to_move = s.first();
    settle_start(s, &mut st);
    st
}

/// Lays the shuffled tiles: the first on (0,0), each next on a cell drawn from the
/// frontier. `ROWS / 2` is at least the number of tiles. Each colour's tiles are kept in
/// columns (a bit a cell of column `q`, by `r`) as they are laid, so the tiles come out
/// sorted by `q`, then `r`, at the end, into `tiles` (empty).
fn lay<W: Row, const ROWS: usize>(colours: &[u8], dice: &mut Dice, tiles: &mut Tiles) {
    debug_assert!(colours.len() <= ROWS / 2);
    let radius = ROWS / 2;
    let mut frontier = Frontier::<W, ROWS>::new();
    let mut columns = [[W::ZERO; 3]; ROWS];
    let (mut first, mut last) = (radius, radius);
    for (k, &c) in colours.iter().enumerate() {
        let (q, r) = if k == 0 {
            (radius, radius)
        } else {
            let (q, r) = frontier.take(dice.uniform(frontier.len as u32) as usize);
            frontier.grow(q, r);
            (q, r)
        };
        let column = &mut columns[q][usize::from(c)];
        *column = *column | W::bit(r);
        first = first.min(q);
        last = last.max(q);
    }
    debug_assert!(tiles.is_empty());
    let at = |i: usize| i as i16 - radius as i16;
    for (q, &[white, black, red]) in columns.iter().enumerate().take(last + 1).skip(first) {
        let mut laid = white | black | red;
        while laid != W::ZERO {
            let r = laid.lowest();
            let colour = if black & W::bit(r) != W::ZERO {
                1
            } else if red & W::bit(r) != W::ZERO {
                2
            } else {
                0
            };
            tiles.push(Cell { q: at(q), r: at(r) }, Seat(colour));
            laid = laid.without_lowest();
        }
    }
}

/// The normal start.
pub(crate) fn start(s: &Settings, dice: Option<&mut Dice>) -> Result<State, Violation> {
    match (s.start, dice) {
        (Start::Manual, _) => Ok(manual_start(s)),
        (Start::Random, Some(d)) => Ok(random_start(s, d)),
        (Start::Random, None) => Err(Violation::Setup(SetupFault::RandomWithoutSeed)),
    }
}
