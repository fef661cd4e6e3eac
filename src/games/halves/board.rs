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

/// The tiles on the table, sorted by cell (`q`, then `r`), each cell one [`key`] so a
/// comparison is one `u32` comparison. Slots past `n` hold [`NO_KEY`], so derived
/// equality is equality of positions, and a search of all 64 slots needs no length.
/// Each colour's tiles are a mask over the indices, with their count.
#[derive(Copy, Clone, Eq, PartialEq)]
pub struct Tiles {
    n: u8,
    /// Tiles of each colour (white, black, red).
    count: [u8; 3],
    /// The tiles of each colour, as bits of their indices.
    masks: [u64; 3],
    keys: [u32; MAX_TILES + 1],
}

/// The neighbours of each tile as a mask ([`Tiles::adjacency`]); the last entry is
/// always empty (64 entries, so a masked index needs no bounds check).
pub type Adjacency = [u64; MAX_TILES + 1];

/// The key of a slot past the last tile: above every cell's.
const NO_KEY: u32 = u32::MAX;

/// A cell as one number ordered as cells are (`q`, then `r`): each coordinate offset by
/// 2^15, `q` in the high half. The neighbours' keys are the key plus a constant
/// ([`KEY_STEPS`]): coordinates stay far from the halves' bounds.
#[inline]
pub fn key(c: Cell) -> u32 {
    (u32::from(c.q as u16 ^ 0x8000) << 16) | u32::from(c.r as u16 ^ 0x8000)
}

/// The cell of a [`key`].
#[inline]
fn cell_of(k: u32) -> Cell {
    Cell {
        q: ((k >> 16) as u16 ^ 0x8000) as i16,
        r: (k as u16 ^ 0x8000) as i16,
    }
}

/// North `(0,-1)` and south `(0,1)` are the key less and plus one; north-east `(1,-1)`
/// and south-east `(1,0)` plus these; south-west `(-1,1)` and north-west `(-1,0)` minus.
const KEY_NE: u32 = 0xFFFF;
const KEY_SE: u32 = 0x1_0000;

impl std::fmt::Debug for Tiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|(c, seat)| (c.q, c.r, seat.0)))
            .finish()
    }
}

impl Default for Tiles {
    fn default() -> Tiles {
        Tiles {
            n: 0,
            count: [0; 3],
            masks: [0; 3],
            keys: [NO_KEY; MAX_TILES + 1],
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

/// `m` with bit `i` taken out and the bits above it moved down one.
#[inline]
fn delete_bit(m: u64, i: usize) -> u64 {
    let below = (1u64 << i) - 1;
    (m & below) | ((m >> 1) & !below)
}

/// `m` with the bits from `i` up moved up one (bit `i` left clear).
#[inline]
fn open_bit(m: u64, i: usize) -> u64 {
    let below = (1u64 << i) - 1;
    (m & below) | ((m & !below) << 1)
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
        // At most 63 tiles: the shift stays below 64.
        (1u64 << self.n) - 1
    }
    #[inline]
    pub fn cell(&self, i: usize) -> Cell {
        cell_of(self.keys[i])
    }
    #[inline]
    pub fn colour(&self, i: usize) -> Seat {
        let bit = |m: u64| ((m >> i) & 1) as u8;
        Seat(bit(self.masks[1]) | bit(self.masks[2]) << 1)
    }
    /// How many keys are below `k` (`k` below [`NO_KEY`]): a search of all 64 slots in
    /// six steps without a branch.
    #[inline]
    fn rank(&self, k: u32) -> usize {
        let keys = &self.keys;
        let mut i = 0;
        for step in [32, 16, 8, 4, 2, 1] {
            i += usize::from(keys[i + step - 1] < k) * step;
        }
        i
    }
    /// The tile index on a cell.
    #[inline]
    pub fn find(&self, c: Cell) -> Option<usize> {
        let k = key(c);
        let i = self.rank(k);
        (self.keys[i] == k).then_some(i)
    }
    pub fn at(&self, c: Cell) -> Option<Seat> {
        self.find(c).map(|i| self.colour(i))
    }
    /// `(cell, colour)` of every tile, by cell.
    pub fn iter(&self) -> impl Iterator<Item = (Cell, Seat)> + '_ {
        (0..self.len()).map(|i| (self.cell(i), self.colour(i)))
    }
    /// How many tiles of a colour are on the table.
    #[inline]
    pub fn count(&self, seat: Seat) -> u32 {
        u32::from(self.count[usize::from(seat.0)])
    }
    /// The tiles of a colour.
    #[inline]
    pub fn mask_of(&self, seat: Seat) -> u64 {
        self.masks[usize::from(seat.0)]
    }

    /// Places a tile; false when the cell is taken or the table is full.
    pub fn insert(&mut self, c: Cell, seat: Seat) -> bool {
        let n = self.len();
        if n >= MAX_TILES {
            return false;
        }
        let k = key(c);
        let at = self.rank(k);
        if self.keys[at] == k {
            return false;
        }
        self.keys.copy_within(at..n, at + 1);
        self.keys[at] = k;
        for m in &mut self.masks {
            *m = open_bit(*m, at);
        }
        let colour = usize::from(seat.0);
        self.masks[colour] |= 1u64 << at;
        self.count[colour] += 1;
        self.n += 1;
        true
    }

    /// Adds a tile after every tile on the table (its cell is above theirs).
    pub(super) fn push(&mut self, c: Cell, seat: Seat) {
        let n = self.len();
        debug_assert!(n < MAX_TILES && (n == 0 || self.keys[n - 1] < key(c)));
        self.keys[n] = key(c);
        let colour = usize::from(seat.0);
        self.masks[colour] |= 1u64 << n;
        self.count[colour] += 1;
        self.n += 1;
    }

    /// Removes the tiles of `mask`.
    pub fn remove(&mut self, mask: u64) {
        let mask = mask & self.all();
        if mask == 0 {
            return;
        }
        let n = self.len();
        let lowest = mask.trailing_zeros() as usize;
        if mask & (mask - 1) == 0 {
            // One tile: the keys above it move down one.
            self.keys.copy_within(lowest + 1..=n, lowest);
        } else {
            // The keys kept move down over the gaps, from the first one.
            let mut k = lowest;
            for i in lowest + 1..n {
                self.keys[k] = self.keys[i];
                k += usize::from(mask & (1u64 << i) == 0);
            }
            self.keys[k..n].fill(NO_KEY);
        }
        // Each colour's mask loses the removed bits, the highest first, so the bits
        // below each are where they were.
        let mut gone = mask;
        while gone != 0 {
            let i = 63 - gone.leading_zeros() as usize;
            self.count[self.colour(i).0 as usize] -= 1;
            for m in &mut self.masks {
                *m = delete_bit(*m, i);
            }
            self.n -= 1;
            gone &= !(1u64 << i);
        }
    }

    /// Which of the six cells around tile `i` hold a tile: bit `d` for the `d`-th of
    /// [`NEIGHBOURS`](crate::notation::halves::NEIGHBOURS) (north, north-east, south-east,
    /// south, south-west, north-west),
    /// which go round the cell in order.
    ///
    /// Sorted by `q`, then `r`, the north and south neighbours are the tiles next to `i`,
    /// the north-east and south-east ones follow each other, and so do the north-west
    /// and south-west ones: two short walks ([`Tiles::sides`]), not six searches.
    #[inline(always)]
    pub fn ring(&self, i: usize) -> u8 {
        let keys = &self.keys;
        let k = keys[i];
        let mut m = u8::from(i > 0 && keys[i - 1] == k - 1);
        m |= u8::from(keys[i + 1] == k + 1) << 3;
        let (nw, ne) = self.sides(i);
        let ne_there = keys[ne] == k + KEY_NE;
        m |= u8::from(ne_there) << 1;
        m |= u8::from(keys[ne + usize::from(ne_there)] == k + KEY_SE) << 2;
        let nw_there = keys[nw] == k - KEY_SE;
        m |= u8::from(nw_there) << 5;
        m |= u8::from(keys[nw + usize::from(nw_there)] == k - KEY_NE) << 4;
        m
    }

    /// The tiles next to tile `i`, as a mask: the cells [`Tiles::ring`] finds, by index.
    #[inline(always)]
    pub fn neighbours(&self, i: usize) -> u64 {
        let keys = &self.keys;
        let k = keys[i];
        // An index below 64 (the slots past the last tile stop the walks up), as a bit
        // where the tile is there.
        let bit = |j: usize, there: bool| u64::from(there) << (j & MAX_TILES);
        let mut m = bit(i.wrapping_sub(1), i > 0 && keys[i - 1] == k - 1);
        m |= bit(i + 1, keys[i + 1] == k + 1);
        let (nw, ne) = self.sides(i);
        let ne_there = keys[ne] == k + KEY_NE;
        m |= bit(ne, ne_there);
        let se = ne + usize::from(ne_there);
        m |= bit(se, keys[se] == k + KEY_SE);
        let nw_there = keys[nw] == k - KEY_SE;
        m |= bit(nw, nw_there);
        let sw = nw + usize::from(nw_there);
        m |= bit(sw, keys[sw] == k - KEY_NE);
        m
    }

    /// The tile next to tile `i` in direction `d` of [`Tiles::ring`] (0 north, then
    /// clockwise), where the ring says there is one.
    #[inline]
    pub fn neighbour_in(&self, i: usize, d: u32) -> usize {
        let keys = &self.keys;
        let k = keys[i];
        match d {
            0 => i - 1,
            3 => i + 1,
            1 | 2 => {
                let (_, ne) = self.sides(i);
                ne + usize::from(d == 2 && keys[ne] == k + KEY_NE)
            }
            _ => {
                let (nw, _) = self.sides(i);
                nw + usize::from(d == 4 && keys[nw] == k - KEY_SE)
            }
        }
    }

    /// The pieces left by taking tile `i` off where its neighbours form two runs round
    /// it, `a` a tile of one and `b` of the other: `None` where they are still one
    /// group, else the piece holding `a`. The two pieces are searched from `a` and `b`
    /// a tile each in turn, so the search ends once the smaller one is found whole, and
    /// what a removal cuts off is mostly a tile or two: the table's neighbours are not
    /// all worked out first ([`Tiles::adjacency`]). The position is one group (every
    /// tile left is joined to `a` or `b`).
    pub fn two_pieces(&self, i: usize, a: usize, b: usize) -> Option<u64> {
        let within = self.all() & !(1u64 << i);
        // Each side's tiles found, and those whose neighbours are still to look at. The
        // two sides' steps are written out: as a loop over the sides, with the sets in
        // arrays, `check` of Halves took 0.3 % more.
        let (mut seen_a, mut seen_b) = (1u64 << a, 1u64 << b);
        let (mut todo_a, mut todo_b) = (seen_a, seen_b);
        loop {
            let j = todo_a.trailing_zeros() as usize;
            todo_a &= todo_a - 1;
            let new = self.neighbours(j) & within & !seen_a;
            if new & seen_b != 0 {
                return None;
            }
            seen_a |= new;
            todo_a |= new;
            if todo_a == 0 {
                return Some(seen_a);
            }
            let j = todo_b.trailing_zeros() as usize;
            todo_b &= todo_b - 1;
            let new = self.neighbours(j) & within & !seen_b;
            if new & seen_a != 0 {
                return None;
            }
            seen_b |= new;
            todo_b |= new;
            if todo_b == 0 {
                return Some(within & !seen_b);
            }
        }
    }

    /// Where the neighbours of tile `i` in the columns on either side would be: the
    /// first tile at or above its north-west cell `(q-1,r)`, and at or above its
    /// north-east cell `(q+1,r-1)`. A column holds a few tiles, so a walk from `i` each
    /// way is shorter than a search of the table (the slots past the last tile stop
    /// the walk up).
    #[inline]
    fn sides(&self, i: usize) -> (usize, usize) {
        let keys = &self.keys;
        let k = keys[i];
        let mut nw = i;
        while nw > 0 && keys[nw - 1] >= k - KEY_SE {
            nw -= 1;
        }
        let mut ne = i + 1;
        while keys[ne] < k + KEY_NE {
            ne += 1;
        }
        (nw, ne)
    }

    /// The neighbours (as a mask) of the tile on `c`, which need not be a tile.
    #[inline]
    pub fn neighbours_of(&self, c: Cell) -> u64 {
        let k = key(c);
        let keys = &self.keys;
        let mut m = 0;
        // Each run of three keys: north-west and south-west; north, the cell, south;
        // north-east and south-east.
        for (first, run) in [
            (k - KEY_SE, &[k - KEY_SE, k - KEY_NE][..]),
            (k - 1, &[k - 1, k, k + 1][..]),
            (k + KEY_NE, &[k + KEY_NE, k + KEY_SE][..]),
        ] {
            let mut j = self.rank(first);
            for &want in run {
                if keys[j] == want {
                    if want != k {
                        m |= 1u64 << j;
                    }
                    j += 1;
                }
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
    #[inline]
    pub fn adjacency(&self) -> Adjacency {
        let mut adj = [0u64; MAX_TILES + 1];
        let keys = &self.keys;
        // Indices are below 64: masked, they need no bounds check.
        let at = |i: usize| i & MAX_TILES;
        let mut j = 0;
        for i in 0..self.len() {
            let k = keys[at(i)];
            let me = 1u64 << i;
            if keys[at(i + 1)] == k + 1 {
                adj[at(i)] |= me << 1;
                adj[at(i + 1)] |= me;
            }
            // The slots past the last tile hold `NO_KEY`, above every key: the cursor
            // stops there.
            while keys[at(j)] < k + KEY_NE {
                j += 1;
            }
            let mut to = j;
            if keys[at(to)] == k + KEY_NE {
                adj[at(i)] |= 1u64 << to;
                adj[at(to)] |= me;
                to += 1;
            }
            if keys[at(to)] == k + KEY_SE {
                adj[at(i)] |= 1u64 << to;
                adj[at(to)] |= me;
            }
        }
        adj
    }

    /// The group (connected component within `within`) holding the tiles of `seed`.
    #[inline]
    pub fn grow(adj: &Adjacency, within: u64, seed: u64) -> u64 {
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
    pub fn groups_from(adj: &Adjacency, within: u64, seeds: u64, out: &mut [u64; 6]) -> usize {
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

    /// [`Tiles::groups_from`] where every tile of `within` is joined to a tile of
    /// `seeds` (the pieces left by removing a tile of one group, `seeds` its
    /// neighbours): once the seeds not yet in a group are joined to each other, the
    /// tiles not yet in a group are theirs, and the largest group is often never
    /// searched.
    pub fn pieces(adj: &Adjacency, within: u64, seeds: u64, out: &mut [u64; 6]) -> usize {
        let mut k = 0;
        let mut left = seeds & within;
        let mut rest = within;
        while left != 0 && k < out.len() {
            let first = left & left.wrapping_neg();
            if Tiles::grow(adj, left, first) == left {
                out[k] = rest;
                k += 1;
                break;
            }
            let g = Tiles::grow(adj, rest, first);
            out[k] = g;
            k += 1;
            left &= !g;
            rest &= !g;
        }
        // In order of the lowest tile (a few groups: insertion).
        for a in 1..k {
            let mut b = a;
            while b > 0 && out[b - 1].trailing_zeros() > out[b].trailing_zeros() {
                out.swap(b - 1, b);
                b -= 1;
            }
        }
        k
    }

    /// The tiles of `within` whose removal splits the group they are in (cut vertices),
    /// all found by one depth-first search (Hopcroft and Tarjan's low points) instead of
    /// a search of the groups left by each tile.
    pub fn cut_tiles(adj: &Adjacency, within: u64) -> u64 {
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
            for nb in self.cell(i).neighbours() {
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
    adj: &'a Adjacency,
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
        self.tiles.count(seat) + u32::from(self.hand[usize::from(seat.0)])
    }

    /// The seat to move, while the game goes on.
    pub fn to_move(&self) -> Seat {
        self.to_move
    }
}
