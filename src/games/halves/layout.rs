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

/// The empty cells next to the group as it grows, kept sorted in the order the spec
/// draws from, so each tile costs a few insertions instead of a new sorted list.
struct Frontier {
    /// The cells, sorted by `r`, then `q`.
    cells: [Cell; MAX_TILES * 6],
    len: usize,
    /// Every cell laid or listed so far: bit `q + RADIUS` of row `r + RADIUS`.
    seen: [u128; 2 * RADIUS as usize + 1],
}

impl Frontier {
    /// The frontier of a tile on (0,0).
    fn new() -> Frontier {
        let mut f = Frontier {
            cells: [Cell { q: 0, r: 0 }; MAX_TILES * 6],
            len: 0,
            seen: [0; 2 * RADIUS as usize + 1],
        };
        let origin = Cell { q: 0, r: 0 };
        f.mark(origin);
        f.grow(origin);
        f
    }

    /// Marks `c` as seen; false if it already was.
    fn mark(&mut self, c: Cell) -> bool {
        let row = &mut self.seen[(c.r + RADIUS) as usize];
        let bit = 1u128 << (c.q + RADIUS);
        let new = *row & bit == 0;
        *row |= bit;
        new
    }

    /// Takes the `k`-th cell (in the drawing order) off the list.
    fn take(&mut self, k: usize) -> Cell {
        let c = self.cells[k];
        self.cells.copy_within(k + 1..self.len, k);
        self.len -= 1;
        c
    }

    /// Lists the neighbours of `c`, just laid, that were neither laid nor listed.
    fn grow(&mut self, c: Cell) {
        for nb in c.neighbours() {
            if !self.mark(nb) {
                continue;
            }
            let at = self.cells[..self.len].partition_point(|x| (x.r, x.q) < (nb.r, nb.q));
            self.cells.copy_within(at..self.len, at + 1);
            self.cells[at] = nb;
            self.len += 1;
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
