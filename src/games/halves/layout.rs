//! The random layout from the seed (`halves.md`, "Random events, in order"): one shuffle
//! of every tile (white's, then black's, then red's); the first on (0,0); each next on a
//! cell chosen uniformly among the empty cells next to the group, taken in ascending
//! order of `r`, then `q`. And the normal start: that layout, or the manual start.

use super::board::{Phase, State, MAX_TILES};
use super::rules::{manual_start, settle_start};
use super::settings::{Settings, Start};
use super::violation::{SetupFault, Violation};
use crate::dice::Dice;
use crate::games::Seat;
use crate::notation::halves::Cell;

/// One row of cells as bits: `u64` where a layout stays within 31 steps of (0,0) (at
/// most 31 tiles), `u128` up to [`MAX_TILES`].
trait Row: Copy + Default {
    fn bit(i: i16) -> Self;
    fn has(self, bit: Self) -> bool;
    fn set(&mut self, bit: Self);
    fn unset(&mut self, bit: Self);
    /// The index of the `k`-th set bit (from 0, lowest first); there are more.
    fn nth(self, k: usize) -> i16;
}

macro_rules! row {
    ($t:ty) => {
        impl Row for $t {
            #[inline]
            fn bit(i: i16) -> Self {
                1 << i
            }
            #[inline]
            fn has(self, bit: Self) -> bool {
                self & bit != 0
            }
            #[inline]
            fn set(&mut self, bit: Self) {
                *self |= bit;
            }
            #[inline]
            fn unset(&mut self, bit: Self) {
                *self &= !bit;
            }
            #[inline]
            fn nth(mut self, k: usize) -> i16 {
                for _ in 0..k {
                    self &= self - 1;
                }
                self.trailing_zeros() as i16
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
/// `q`. The `k`-th tile laid (from 0) is at most `k` steps from (0,0) and the cells next
/// to it one more, so a layout of `n` tiles needs `ROWS / 2 >= n` (and a row type of
/// `ROWS` bits): the size is chosen from the tile count, since the two bitmaps are made
/// afresh for every record with a random start.
struct Frontier<W: Row, const ROWS: usize> {
    /// Bit `q + RADIUS` of row `r + RADIUS`: the cell is listed.
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
    const RADIUS: i16 = (ROWS / 2) as i16;

    /// The frontier of a tile on (0,0).
    fn new() -> Self {
        let mut f = Frontier {
            listed: [W::default(); ROWS],
            seen: [W::default(); ROWS],
            count: [0; ROWS],
            lo: Self::RADIUS as usize,
            len: 0,
        };
        let origin = Cell { q: 0, r: 0 };
        f.seen[Self::RADIUS as usize].set(W::bit(Self::RADIUS));
        f.grow(origin);
        f
    }

    /// Takes the `k`-th cell (in the drawing order) off the list.
    fn take(&mut self, mut k: usize) -> Cell {
        let mut row = self.lo;
        while k >= usize::from(self.count[row]) {
            k -= usize::from(self.count[row]);
            row += 1;
        }
        let bit = self.listed[row].nth(k);
        self.listed[row].unset(W::bit(bit));
        self.count[row] -= 1;
        self.len -= 1;
        Cell {
            q: bit - Self::RADIUS,
            r: row as i16 - Self::RADIUS,
        }
    }

    /// Lists the neighbours of `c`, just laid, that were neither laid nor listed.
    fn grow(&mut self, c: Cell) {
        for nb in c.neighbours() {
            let row = (nb.r + Self::RADIUS) as usize;
            let bit = W::bit(nb.q + Self::RADIUS);
            if self.seen[row].has(bit) {
                continue;
            }
            self.seen[row].set(bit);
            self.listed[row].set(bit);
            self.count[row] += 1;
            self.len += 1;
            self.lo = self.lo.min(row);
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
    let mut st = State::empty();
    if n <= 31 {
        lay::<u64, 63>(&mut st, colours, dice);
    } else {
        lay::<u128, { 2 * MAX_TILES + 1 }>(&mut st, colours, dice);
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
/// frontier. `ROWS / 2` is at least the number of tiles.
fn lay<W: Row, const ROWS: usize>(st: &mut State, colours: &[u8], dice: &mut Dice) {
    debug_assert!(colours.len() <= ROWS / 2);
    let mut frontier = Frontier::<W, ROWS>::new();
    for (k, &c) in colours.iter().enumerate() {
        let cell = if k == 0 {
            Cell { q: 0, r: 0 }
        } else {
            let cell = frontier.take(dice.uniform(frontier.len as u32) as usize);
            frontier.grow(cell);
            cell
        };
        st.tiles.insert(cell, Seat(c));
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
