//! The random layout from the seed (`halves.md`, "Random events, in order"): one shuffle
//! of every tile (white's, then black's, then red's); the first on (0,0); each next on a
//! cell chosen uniformly among the empty cells next to the group, taken in ascending
//! order of `r`, then `q`.

use super::board::{Phase, State, MAX_TILES};
use super::rules::settle_start;
use super::settings::Settings;
use crate::dice::Dice;
use crate::games::Seat;
use crate::notation::halves::Cell;

/// How far from (0,0) a cell of the layout or next to it can be: the `k`-th tile laid
/// (from 0) is at most `k` steps away, and there are at most [`MAX_TILES`].
const RADIUS: i16 = MAX_TILES as i16;

/// Rows of cells, `r` from `-RADIUS` to `RADIUS`.
const ROWS: usize = 2 * RADIUS as usize + 1;

/// The empty cells next to the group as it grows, as one bit a cell in rows: the order
/// the spec draws from (`r`, then `q`) is the order of the rows, then of the bits, so a
/// tile costs setting a few bits and finding the `k`-th one, and nothing moves.
struct Frontier {
    /// Bit `q + RADIUS` of row `r + RADIUS`: the cell is listed.
    listed: [u128; ROWS],
    /// Every cell laid or listed so far, by the same bits.
    seen: [u128; ROWS],
    /// How many cells each row lists.
    count: [u8; ROWS],
    /// The first row that may list cells.
    lo: usize,
    len: usize,
}

impl Frontier {
    /// The frontier of a tile on (0,0).
    fn new() -> Frontier {
        let mut f = Frontier {
            listed: [0; ROWS],
            seen: [0; ROWS],
            count: [0; ROWS],
            lo: RADIUS as usize,
            len: 0,
        };
        let origin = Cell { q: 0, r: 0 };
        f.seen[RADIUS as usize] |= 1u128 << RADIUS;
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
        let mut bits = self.listed[row];
        for _ in 0..k {
            bits &= bits - 1;
        }
        let bit = bits.trailing_zeros();
        self.listed[row] &= !(1u128 << bit);
        self.count[row] -= 1;
        self.len -= 1;
        Cell {
            q: bit as i16 - RADIUS,
            r: row as i16 - RADIUS,
        }
    }

    /// Lists the neighbours of `c`, just laid, that were neither laid nor listed.
    fn grow(&mut self, c: Cell) {
        for nb in c.neighbours() {
            let row = (nb.r + RADIUS) as usize;
            let bit = 1u128 << (nb.q + RADIUS);
            if self.seen[row] & bit != 0 {
                continue;
            }
            self.seen[row] |= bit;
            self.listed[row] |= bit;
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
    let mut frontier = Frontier::new();
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
    st.phase = if s.has_contract() {
        Phase::Contract
    } else {
        Phase::Waning
    };
    st.to_move = s.first();
    settle_start(s, &mut st);
    st
}
