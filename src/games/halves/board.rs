//! The position: the tiles on the table as a sorted fixed-size array (cheap to copy,
//! no allocation), groups as bit masks over tile indices.

use crate::games::{Seat, SeatSet};
use crate::notation::halves::Cell;

/// The most tiles a position holds (masks over tile indices are `u64`).
pub const MAX_TILES: usize = 63;

/// Where a game stands.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Phase {
    Waxing,
    Contract,
    Waning,
}

impl Phase {
    pub fn word(self) -> &'static str {
        match self {
            Phase::Waxing => "waxing",
            Phase::Contract => "contract",
            Phase::Waning => "waning",
        }
    }
}

/// Why the game ended.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Reason {
    FirstOut,
    LastStanding,
    DeadPosition,
    Resignation,
    Agreement,
}

impl Reason {
    pub fn word(self) -> &'static str {
        match self {
            Reason::FirstOut => "first-out",
            Reason::LastStanding => "last-standing",
            Reason::DeadPosition => "dead-position",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
        }
    }
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Reason::FirstOut => Some("win-first-out"),
            Reason::LastStanding => Some("win-last-standing"),
            Reason::DeadPosition => Some("dead-position"),
            Reason::Resignation | Reason::Agreement => None,
        }
    }
}

/// How a game ended: the winners (none for a draw).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Ending {
    pub winners: SeatSet,
    pub reason: Reason,
}

/// The tiles on the table, sorted by cell (`q`, then `r`). Slots past `n` are zero, so
/// derived equality is equality of positions.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Tiles {
    n: u8,
    cells: [Cell; MAX_TILES],
    colour: [u8; MAX_TILES],
}

impl Default for Tiles {
    fn default() -> Tiles {
        Tiles {
            n: 0,
            cells: [Cell { q: 0, r: 0 }; MAX_TILES],
            colour: [0; MAX_TILES],
        }
    }
}

/// The bits of a mask, lowest first.
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

impl Tiles {
    #[inline]
    pub fn len(&self) -> usize {
        self.n as usize
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Every tile as a mask.
    #[inline]
    pub fn all(&self) -> u64 {
        if self.n as usize >= 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        }
    }
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        self.cells[i]
    }
    #[inline]
    pub fn colour(&self, i: usize) -> Seat {
        Seat(self.colour[i])
    }
    /// The tile index on a cell.
    #[inline]
    pub fn find(&self, c: Cell) -> Option<usize> {
        self.cells[..self.len()].binary_search(&c).ok()
    }
    pub fn at(&self, c: Cell) -> Option<Seat> {
        self.find(c).map(|i| self.colour(i))
    }
    /// `(cell, colour)` of every tile, by cell.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, Seat)> + '_ {
        (0..self.len()).map(|i| (self.cells[i], Seat(self.colour[i])))
    }
    /// How many tiles of a colour are on the table.
    pub fn count(&self, seat: Seat) -> u32 {
        self.colour[..self.len()]
            .iter()
            .filter(|&&c| c == seat.0)
            .count() as u32
    }
    /// The tiles of a colour within `mask`.
    pub fn mask_of(&self, seat: Seat) -> u64 {
        let mut m = 0;
        for i in 0..self.len() {
            if self.colour[i] == seat.0 {
                m |= 1u64 << i;
            }
        }
        m
    }

    /// Places a tile; false when the cell is taken or the table is full.
    pub fn insert(&mut self, c: Cell, seat: Seat) -> bool {
        let n = self.len();
        if n >= MAX_TILES {
            return false;
        }
        let Err(at) = self.cells[..n].binary_search(&c) else {
            return false;
        };
        self.cells.copy_within(at..n, at + 1);
        self.colour.copy_within(at..n, at + 1);
        self.cells[at] = c;
        self.colour[at] = seat.0;
        self.n += 1;
        true
    }

    /// Removes the tiles of `mask`.
    pub fn remove(&mut self, mask: u64) {
        let n = self.len();
        let mut k = 0;
        for i in 0..n {
            if mask & (1u64 << i) == 0 {
                self.cells[k] = self.cells[i];
                self.colour[k] = self.colour[i];
                k += 1;
            }
        }
        for i in k..n {
            self.cells[i] = Cell { q: 0, r: 0 };
            self.colour[i] = 0;
        }
        self.n = k as u8;
    }

    /// Which of the six cells around tile `i` hold a tile: bit `d` for the `d`-th of
    /// [`NEIGHBOURS`](crate::notation::halves::NEIGHBOURS) (north, north-east, south-east,
    /// south, south-west, north-west),
    /// which go round the cell in order.
    ///
    /// Sorted by `q`, then `r`, the north and south neighbours are the tiles next to `i`,
    /// the north-east and south-east ones follow each other, and so do the north-west
    /// and south-west ones: two searches, not six.
    pub fn ring(&self, i: usize) -> u8 {
        let cells = &self.cells[..self.len()];
        let c = cells[i];
        let at = |k: usize, q: i16, r: i16| cells.get(k) == Some(&Cell { q, r });
        let mut m = 0u8;
        m |= u8::from(i > 0 && at(i - 1, c.q, c.r - 1));
        m |= u8::from(at(i + 1, c.q, c.r + 1)) << 3;
        let ne = cells.partition_point(|&x| {
            x < Cell {
                q: c.q + 1,
                r: c.r - 1,
            }
        });
        let ne_there = at(ne, c.q + 1, c.r - 1);
        m |= u8::from(ne_there) << 1;
        m |= u8::from(at(ne + usize::from(ne_there), c.q + 1, c.r)) << 2;
        let nw = cells.partition_point(|&x| x < Cell { q: c.q - 1, r: c.r });
        let nw_there = at(nw, c.q - 1, c.r);
        m |= u8::from(nw_there) << 5;
        m |= u8::from(at(nw + usize::from(nw_there), c.q - 1, c.r + 1)) << 4;
        m
    }

    /// The neighbours (as a mask) of the tile on `c`, which need not be a tile.
    #[inline]
    pub fn neighbours_of(&self, c: Cell) -> u64 {
        let mut m = 0;
        for nb in c.neighbours() {
            if let Some(j) = self.find(nb) {
                m |= 1u64 << j;
            }
        }
        m
    }

    /// The neighbour mask of every tile, in one pass over the sorted cells.
    ///
    /// Sorted by `q`, then `r`, a tile's south neighbour `(q,r+1)` is the next tile, and
    /// its north-east `(q+1,r-1)` and south-east `(q+1,r)` neighbours are consecutive
    /// tiles found by a second cursor that only moves forward; the other three
    /// directions are the same pairs seen from the other end.
    pub fn adjacency(&self) -> [u64; MAX_TILES] {
        let mut adj = [0u64; MAX_TILES];
        let cells = &self.cells[..self.len()];
        let mut j = 0;
        for (i, &c) in cells.iter().enumerate() {
            let mut link = |k: usize| {
                adj[i] |= 1u64 << k;
                adj[k] |= 1u64 << i;
            };
            if cells.get(i + 1) == Some(&Cell { q: c.q, r: c.r + 1 }) {
                link(i + 1);
            }
            let north_east = Cell {
                q: c.q + 1,
                r: c.r - 1,
            };
            while j < cells.len() && cells[j] < north_east {
                j += 1;
            }
            let mut k = j;
            if cells.get(k) == Some(&north_east) {
                link(k);
                k += 1;
            }
            if cells.get(k) == Some(&Cell { q: c.q + 1, r: c.r }) {
                link(k);
            }
        }
        adj
    }

    /// The group (connected component within `within`) holding the tiles of `seed`.
    #[inline]
    pub fn grow(adj: &[u64; MAX_TILES], within: u64, seed: u64) -> u64 {
        let mut g = seed & within;
        let mut frontier = g;
        while frontier != 0 {
            let mut next = 0;
            for i in Bits(frontier) {
                next |= adj[i];
            }
            next &= within & !g;
            g |= next;
            frontier = next;
        }
        g
    }

    /// The groups of the tiles in `within`, each holding a tile of `seeds`, in order of
    /// their lowest tile; at most 6 (a removal leaves at most six pieces). Returns how
    /// many.
    pub fn groups_from(
        adj: &[u64; MAX_TILES],
        within: u64,
        seeds: u64,
        out: &mut [u64; 6],
    ) -> usize {
        let mut k = 0;
        let mut left = seeds & within;
        while left != 0 && k < out.len() {
            let i = left.trailing_zeros();
            let g = Tiles::grow(adj, within, 1u64 << i);
            out[k] = g;
            k += 1;
            left &= !g;
        }
        out[..k].sort_unstable_by_key(|g| g.trailing_zeros());
        k
    }

    /// The tiles of `within` whose removal splits the group they are in (cut vertices),
    /// all found by one depth-first search (Hopcroft and Tarjan's low points) instead of
    /// a search of the groups left by each tile.
    pub fn cut_tiles(adj: &[u64; MAX_TILES], within: u64) -> u64 {
        let mut dfs = CutSearch {
            adj,
            within,
            order: [0; MAX_TILES],
            low: [0; MAX_TILES],
            parent: [0; MAX_TILES],
            todo: [0; MAX_TILES],
            time: 0,
            unseen: within,
        };
        let mut path = [0u8; MAX_TILES];
        let mut cut = 0u64;
        while dfs.unseen != 0 {
            let root = dfs.unseen.trailing_zeros() as usize;
            dfs.reach(root, root);
            path[0] = root as u8;
            let mut depth = 1;
            let mut root_children = 0;
            while depth > 0 {
                let v = path[depth - 1] as usize;
                if dfs.todo[v] != 0 {
                    let w = dfs.todo[v].trailing_zeros() as usize;
                    dfs.todo[v] &= dfs.todo[v] - 1;
                    if dfs.order[w] == 0 {
                        dfs.reach(w, v);
                        path[depth] = w as u8;
                        depth += 1;
                        root_children += usize::from(v == root);
                    } else if w != dfs.parent[v] as usize {
                        dfs.low[v] = dfs.low[v].min(dfs.order[w]);
                    }
                } else {
                    depth -= 1;
                    let p = dfs.parent[v] as usize;
                    if v != root {
                        dfs.low[p] = dfs.low[p].min(dfs.low[v]);
                        // Nothing below `v` reaches above `p`: removing `p` cuts it off.
                        if p != root && dfs.low[v] >= dfs.order[p] {
                            cut |= 1u64 << p;
                        }
                    }
                }
            }
            if root_children > 1 {
                cut |= 1u64 << root;
            }
        }
        cut
    }

    /// Do the tiles form one group (or none)?
    pub fn connected(&self) -> bool {
        if self.n == 0 {
            return true;
        }
        let adj = self.adjacency();
        Tiles::grow(&adj, self.all(), 1) == self.all()
    }

    /// The empty cells next to the tiles, each once, sorted by `(q, r)`, written into
    /// `buf`; returns how many.
    pub fn frontier(&self, buf: &mut [Cell; MAX_TILES * 6]) -> usize {
        let mut k = 0;
        for i in 0..self.len() {
            for nb in self.cells[i].neighbours() {
                if self.find(nb).is_none() {
                    buf[k] = nb;
                    k += 1;
                }
            }
        }
        buf[..k].sort_unstable();
        let mut w = 0;
        for i in 0..k {
            if w == 0 || buf[w - 1] != buf[i] {
                buf[w] = buf[i];
                w += 1;
            }
        }
        w
    }
}

/// The state of [`Tiles::cut_tiles`]'s search, per tile: when it was reached (from 1;
/// 0 = not yet), the earliest tile its subtree has an edge back to, the tile it was
/// reached from, and the neighbours it has still to look at.
struct CutSearch<'a> {
    adj: &'a [u64; MAX_TILES],
    within: u64,
    order: [u8; MAX_TILES],
    low: [u8; MAX_TILES],
    parent: [u8; MAX_TILES],
    todo: [u64; MAX_TILES],
    time: u8,
    unseen: u64,
}

impl CutSearch<'_> {
    /// The search reaches tile `v` from tile `from`.
    fn reach(&mut self, v: usize, from: usize) {
        self.time += 1;
        self.order[v] = self.time;
        self.low[v] = self.time;
        self.parent[v] = from as u8;
        self.todo[v] = self.adj[v] & self.within;
        self.unseen &= !(1u64 << v);
    }
}

/// A Halves position.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct State {
    pub tiles: Tiles,
    /// Tiles still in each seat's hand (waxing only).
    pub hand: [u8; 3],
    pub to_move: Seat,
    pub phase: Phase,
    /// The players exchanged colours in the contract: white's player is the one whose
    /// name the `Black` tag holds, and the other way round.
    pub swapped: bool,
    /// Seats that resigned (they take no more turns and cannot win).
    pub resigned: SeatSet,
    /// Passes in succession so far.
    pub passes: u8,
    pub end: Option<Ending>,
}

impl State {
    /// An empty table in the waxing phase, white to move.
    pub fn empty() -> State {
        State {
            tiles: Tiles::default(),
            hand: [0; 3],
            to_move: Seat(0),
            phase: Phase::Waxing,
            swapped: false,
            resigned: SeatSet::EMPTY,
            passes: 0,
            end: None,
        }
    }

    /// A seat's tiles left: on the table and in hand.
    pub fn left(&self, seat: Seat) -> u32 {
        self.tiles.count(seat) + u32::from(self.hand[seat.0 as usize % 3])
    }

    /// The seat to move, while the game goes on.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
}
