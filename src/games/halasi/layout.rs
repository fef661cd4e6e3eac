//! The layout: territories laid edge to edge, the triangles they print, and the dominos
//! covering them.
//!
//! A triangle of the layout is a [`Tri`]: the territory's slot (the order it was laid
//! in) times 24, plus its index. Each triangle knows its three edge neighbours once they
//! exist, across the joins between territories, so questions of adjacency are a table
//! look-up.

use super::geometry::{Dir, CENTRE, JOINS, PRINTED, TRIANGLES};
use super::markings::NO_MARK;
use super::tiles::TileSet;
use crate::games::Seat;
use crate::notation::halasi::{Address, Label, Marking, Pos};

/// A triangle of the layout: `slot * 24 + index`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Tri(pub u16);

impl Tri {
    pub fn slot(self) -> usize {
        self.0 as usize / TRIANGLES
    }
    pub fn index(self) -> u8 {
        (self.0 as usize % TRIANGLES) as u8
    }
    /// Is it one of the six centre triangles of its territory?
    pub fn is_centre(self) -> bool {
        CENTRE.contains(&self.index())
    }
    fn at(slot: usize, index: u8) -> Tri {
        Tri((slot * TRIANGLES) as u16 + u16::from(index))
    }
}

/// No triangle (an edge of the layout) / no domino.
const NONE: u16 = u16::MAX;

/// A territory on the layout.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Territory {
    /// `AM1`: the seat whose set it came from, then the tile's name.
    pub label: Label,
    /// The seat whose set the tile came from (in solitaire: the copy, `a` or `b`).
    pub owner: Seat,
    /// The tile's index in the set.
    pub tile: u8,
    pub market: bool,
    pub at: Pos,
    pub rotation: u8,
}

/// A domino on the layout.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Placed {
    /// The triangles under its first and second half (as written).
    pub halves: [Tri; 2],
    pub marks: [Marking; 2],
    pub seat: Seat,
    /// The turn (1-based, as numbered) it was placed in.
    pub turn: u32,
}

/// The layout.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    pub territories: Vec<Territory>,
    /// The marking printed under each triangle (rotation applied).
    foundation: Vec<Marking>,
    /// Each triangle's three neighbours (`NONE` at an open edge).
    nb: Vec<[u16; 3]>,
    /// The domino half covering each triangle: `domino * 2 + half`, or `NONE`.
    cover: Vec<u16>,
    /// The marking number of the half covering each triangle, or [`NO_MARK`]; then one
    /// more [`NO_MARK`], where a neighbour at an edge (`NONE`) is looked up.
    mark: Vec<u8>,
    pub dominos: Vec<Placed>,
    /// The groups of edge-joined dominos as a forest: each domino's parent, a root its
    /// own. A root is its group's lowest domino. No path is ever shortened, so taking
    /// the last domino off undoes its joins exactly.
    parent: Vec<u16>,
    /// For each domino, the roots its placing hung under another root (`NONE` after the
    /// last): what taking it off sets back.
    hung: Vec<[u16; 6]>,
    /// For each domino, the dominos sharing an edge with it: one entry an edge (a domino
    /// sharing two edges comes twice), then `NONE`. A domino's halves have four edges
    /// besides the one between them. The walks over dominos read these rather than
    /// looking through triangles and covers.
    next_to: Vec<[u16; 4]>,
}

/// Why a territory cannot go where it was put (rule `territory-adjacent`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum PlaceFault {
    /// The first territory lies at `(0,0)`.
    FirstAtOrigin,
    /// The position holds a territory already.
    Taken(Label),
    /// No territory of the layout is next to the position.
    NotAdjacent,
}

impl Layout {
    /// The territory laid at `pos`.
    pub fn slot_at(&self, pos: Pos) -> Option<usize> {
        self.territories.iter().position(|t| t.at == pos)
    }

    /// The territory labelled `label`.
    pub fn slot_of(&self, label: &Label) -> Option<usize> {
        self.territories.iter().position(|t| t.label == *label)
    }

    /// The territory of `owner`'s tile `tile` (the one its label names: a seat's tiles
    /// have distinct names, and seats distinct letters).
    pub fn slot_of_tile(&self, owner: Seat, tile: u8) -> Option<usize> {
        self.territories
            .iter()
            .position(|t| t.owner == owner && t.tile == tile)
    }

    /// The triangle an address names, if its territory is on the layout.
    pub fn tri(&self, a: &Address) -> Option<Tri> {
        let slot = self.slot_of(&a.label)?;
        (a.index < TRIANGLES as u8).then(|| Tri::at(slot, a.index))
    }

    /// The address of a triangle.
    pub fn address(&self, t: Tri) -> Address {
        Address {
            label: self.territories[t.slot()].label,
            index: t.index(),
        }
    }

    /// How many triangles the layout has.
    pub fn len(&self) -> usize {
        self.foundation.len()
    }

    pub fn is_empty(&self) -> bool {
        self.territories.is_empty()
    }

    /// The marking printed under a triangle.
    pub fn foundation(&self, t: Tri) -> Marking {
        self.foundation[t.0 as usize]
    }

    /// The triangle's edge neighbours on the layout (two or three; fewer at an edge).
    #[inline]
    pub fn neighbours(&self, t: Tri) -> impl Iterator<Item = Tri> + '_ {
        self.nb[t.0 as usize]
            .iter()
            .filter(|&&n| n != NONE)
            .map(|&n| Tri(n))
    }

    /// Do two triangles share an edge?
    pub fn adjacent(&self, a: Tri, b: Tri) -> bool {
        self.nb[a.0 as usize].contains(&b.0)
    }

    /// The domino half on a triangle: (domino, half 0 or 1).
    #[inline]
    pub fn cover(&self, t: Tri) -> Option<(usize, usize)> {
        let c = self.cover[t.0 as usize];
        (c != NONE).then_some((c as usize / 2, c as usize % 2))
    }

    /// The marking numbers of the halves on a triangle's three neighbours, in neighbour
    /// order; [`NO_MARK`] where there is none (uncovered, or an edge of the layout).
    /// Found without a branch, for scoring.
    #[inline]
    pub fn marks_around(&self, t: Tri) -> [u8; 3] {
        let past = self.mark.len() - 1;
        self.nb[t.0 as usize].map(|n| self.mark[usize::from(n).min(past)])
    }

    /// The marking of the domino half on a triangle.
    pub fn half_marking(&self, t: Tri) -> Option<Marking> {
        self.cover(t).map(|(d, h)| self.dominos[d].marks[h])
    }

    /// Can a territory go at `pos` (on an empty position next to the layout, or the
    /// first at `(0,0)`)?
    pub fn check_territory(&self, pos: Pos) -> Result<(), PlaceFault> {
        if self.territories.is_empty() {
            return if pos == (Pos { q: 0, r: 0 }) {
                Ok(())
            } else {
                Err(PlaceFault::FirstAtOrigin)
            };
        }
        if let Some(s) = self.slot_at(pos) {
            return Err(PlaceFault::Taken(self.territories[s].label));
        }
        let next_to = Dir::ALL
            .iter()
            .filter_map(|d| d.from(pos))
            .any(|p| self.slot_at(p).is_some());
        if next_to {
            Ok(())
        } else {
            Err(PlaceFault::NotAdjacent)
        }
    }

    /// The empty positions next to the layout, in ascending order of `r`, then `q`.
    pub fn free_positions(&self) -> Vec<Pos> {
        let mut out: Vec<Pos> = Vec::new();
        for t in &self.territories {
            for d in Dir::ALL {
                if let Some(p) = d.from(t.at) {
                    if self.slot_at(p).is_none() && !out.contains(&p) {
                        out.push(p);
                    }
                }
            }
        }
        out.sort_by_key(|p| (p.r, p.q));
        out
    }

    /// Lays a territory (already checked with [`Layout::check_territory`]).
    pub fn add_territory(&mut self, t: Territory, set: &TileSet) {
        let slot = self.territories.len();
        if slot == 0 {
            // Room for a layout of a few seats' territories at once, and the dominos
            // that cover it.
            let room = 16 * TRIANGLES;
            self.territories.reserve(16);
            self.foundation.reserve(room);
            self.cover.reserve(room);
            self.mark.reserve(room + 1);
            self.nb.reserve(room);
            self.dominos.reserve(room / 2);
            self.parent.reserve(room / 2);
            self.hung.reserve(room / 2);
            self.next_to.reserve(room / 2);
        }
        // The territories next to it, by direction: each is looked for once.
        let next = Dir::ALL.map(|d| d.from(t.at).and_then(|p| self.slot_at(p)));
        let printed = &set.tiles[t.tile as usize].markings;
        let at = &PRINTED[usize::from(t.rotation % 6)];
        self.foundation
            .extend(at.iter().map(|&i| printed[usize::from(i)]));
        self.cover.extend([NONE; TRIANGLES]);
        // The last entry stays a `NO_MARK`, past every triangle.
        if self.mark.is_empty() {
            self.mark.push(NO_MARK);
        }
        self.mark.extend([NO_MARK; TRIANGLES]);
        self.territories.push(t);
        // The joins inside the territory (an edge's entry made `NONE` below), then those
        // across its edges to the territories next to it, both ways.
        let joins = &*JOINS;
        let base = Tri::at(slot, 0).0;
        self.nb.extend(
            joins
                .inside
                .iter()
                .map(|nbs| nbs.map(|j| j.wrapping_add(base))),
        );
        for (d, there) in next.into_iter().enumerate() {
            for &(i, k, j, back) in &joins.across[d] {
                let here = Tri::at(slot, i);
                self.nb[here.0 as usize][usize::from(k)] = match there {
                    Some(s) => {
                        let other = Tri::at(s, j);
                        self.nb[other.0 as usize][usize::from(back)] = here.0;
                        other.0
                    }
                    None => NONE,
                };
            }
        }
    }

    /// Puts a domino on the layout (its triangles already checked uncovered).
    pub fn place(&mut self, d: Placed) {
        let n = self.dominos.len() as u16;
        self.cover[d.halves[0].0 as usize] = n * 2;
        self.cover[d.halves[1].0 as usize] = n * 2 + 1;
        for (t, m) in d.halves.into_iter().zip(d.marks) {
            self.mark[t.0 as usize] = m.number();
        }
        self.dominos.push(d);
        // Join the groups the domino touches: the lower root stays a root.
        self.parent.push(n);
        let mut hung = [NONE; 6];
        let mut k = 0;
        let mut root = n;
        let mut next_to = [NONE; 4];
        let mut touching = 0;
        for t in d.halves {
            for &nb in &self.nb[t.0 as usize] {
                let c = if nb == NONE {
                    NONE
                } else {
                    self.cover[nb as usize]
                };
                if c == NONE || c / 2 == n {
                    continue;
                }
                let e = c / 2;
                // (Four at most: of each half's three edges, one is its partner's.)
                if let Some(x) = next_to.get_mut(touching) {
                    *x = e;
                    touching += 1;
                }
                let theirs = &mut self.next_to[usize::from(e)];
                if let Some(free) = theirs.iter_mut().find(|x| **x == NONE) {
                    *free = n;
                }
                let r = self.group(usize::from(e)) as u16;
                if r != root {
                    let (keep, hang) = (r.min(root), r.max(root));
                    self.parent[hang as usize] = keep;
                    hung[k] = hang;
                    k += 1;
                    root = keep;
                }
            }
        }
        self.hung.push(hung);
        self.next_to.push(next_to);
    }

    /// Takes the last domino placed off the layout again.
    pub fn unplace(&mut self) {
        if let Some(d) = self.dominos.pop() {
            for t in d.halves {
                self.cover[t.0 as usize] = NONE;
                self.mark[t.0 as usize] = NO_MARK;
            }
            self.parent.pop();
            let hung = self.hung.pop().unwrap_or([NONE; 6]);
            // The last placed, it is the last entry of each neighbour's list.
            let n = self.dominos.len() as u16;
            for e in self.next_to.pop().unwrap_or([NONE; 4]) {
                if let Some(theirs) = self.next_to.get_mut(usize::from(e)) {
                    if let Some(x) = theirs.iter_mut().rev().find(|x| **x == n) {
                        *x = NONE;
                    }
                }
            }
            for h in hung.into_iter().take_while(|&h| h != NONE) {
                if let Some(p) = self.parent.get_mut(h as usize) {
                    *p = h;
                }
            }
        }
    }

    /// The group of domino `d`: the lowest domino of the dominos joined to it by chains
    /// of dominos sharing an edge.
    #[inline]
    pub fn group(&self, d: usize) -> usize {
        let mut x = d;
        while self.parent[x] as usize != x {
            x = self.parent[x] as usize;
        }
        x
    }

    /// The group domino `d` belonged to before the dominos from `first` on were placed
    /// (`d < first`): its root then. Placing hangs only roots, and only under others, so
    /// the walk up from `d` passes that root, where it stops: a root still, or one that
    /// a domino from `first` on hung.
    pub fn group_before(&self, d: usize, first: usize) -> usize {
        self.groups_now_and_before(d, first, &self.hung_since(first))
            .1
    }

    /// The roots the dominos from `first` on hung under others, for
    /// [`Layout::groups_now_and_before`].
    pub fn hung_since(&self, first: usize) -> smallvec::SmallVec<[u16; 8]> {
        self.hung_after(first).collect()
    }

    /// The roots the dominos from `first` on hung under others, as they come.
    #[inline]
    pub fn hung_after(&self, first: usize) -> impl Iterator<Item = u16> + '_ {
        self.hung[first.min(self.hung.len())..]
            .iter()
            .flat_map(|h| h.iter().copied().take_while(|&r| r != NONE))
    }

    /// Domino `d`'s group now ([`Layout::group`]) and, when `d < first`, before the
    /// dominos from `first` on were placed ([`Layout::group_before`]; `usize::MAX` for a
    /// domino of those), in one walk up: the first root on the way that those dominos
    /// hung (`hung`, from [`Layout::hung_since`]), or the root at the top.
    #[inline]
    pub fn groups_now_and_before(&self, d: usize, first: usize, hung: &[u16]) -> (usize, usize) {
        let mut before = if d < first { None } else { Some(usize::MAX) };
        let mut x = d;
        loop {
            if before.is_none() && hung.contains(&(x as u16)) {
                before = Some(x);
            }
            let up = self.parent[x] as usize;
            if up == x {
                return (x, before.unwrap_or(x));
            }
            x = up;
        }
    }

    /// The dominos sharing an edge with domino `d`, one for each edge they share (a
    /// domino may come twice).
    #[inline]
    pub fn next_to(&self, d: usize) -> impl Iterator<Item = usize> + '_ {
        self.next_to[d]
            .iter()
            .take_while(|&&e| e != NONE)
            .map(|&e| usize::from(e))
    }

    /// [`Layout::next_to`] as kept: four entries, `u16::MAX` after the last.
    #[inline]
    pub fn next_to_raw(&self, d: usize) -> [u16; 4] {
        self.next_to[d]
    }

    /// The dominos sharing an edge with domino `d` (each once; `d` itself left out).
    pub fn touching(&self, d: usize, out: &mut Vec<usize>) {
        out.clear();
        for e in self.next_to(d) {
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }

    /// The market territories' slots, in layout order.
    pub fn markets(&self) -> impl Iterator<Item = usize> + '_ {
        self.territories
            .iter()
            .enumerate()
            .filter(|(_, t)| t.market)
            .map(|(s, _)| s)
    }

    /// The triangles of the centre of territory `slot`.
    pub fn centre(slot: usize) -> impl Iterator<Item = Tri> {
        CENTRE.map(move |i| Tri::at(slot, i))
    }

    /// Every pair of uncovered edge-adjacent triangles, each pair once (lower first).
    pub fn free_pairs(&self, out: &mut Vec<(Tri, Tri)>) {
        out.clear();
        for a in 0..self.len() as u16 {
            if self.cover[a as usize] != NONE {
                continue;
            }
            for &b in &self.nb[a as usize] {
                if b != NONE && b > a && self.cover[b as usize] == NONE {
                    out.push((Tri(a), Tri(b)));
                }
            }
        }
    }

    /// The key of the pair of `lo` and its neighbour `hi` (`lo < hi`): `lo`, then where
    /// `hi` stands among its neighbours.
    #[inline]
    fn pair_key(&self, lo: u16, hi: u16) -> u32 {
        let at = self.nb[lo as usize]
            .iter()
            .position(|&n| n == hi)
            .unwrap_or(0);
        (u32::from(lo) << 2) | at as u32
    }

    /// The free pairs ([`Layout::free_pairs`], in the same order) with a triangle next to
    /// a domino: where a domino other than a seat's first may go.
    pub fn free_pairs_near(&self, out: &mut Vec<(Tri, Tri)>) {
        out.clear();
        // The triangles next to a domino (covered ones too; they are not free).
        let mut near = vec![0u64; self.len().div_ceil(64)];
        for p in &self.dominos {
            for t in p.halves {
                for &n in &self.nb[t.0 as usize] {
                    if n != NONE {
                        near[n as usize / 64] |= 1 << (n % 64);
                    }
                }
            }
        }
        let is_near = |i: u16| near[i as usize / 64] >> (i % 64) & 1 != 0;
        // Each pair once, from its lower triangle when that is near, else from the
        // higher; keyed by (lower triangle, the higher's place among its neighbours),
        // which is the order of `free_pairs`.
        let mut keys: Vec<u32> = Vec::new();
        for (w, &word) in near.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let a = (w * 64) as u16 + bits.trailing_zeros() as u16;
                bits &= bits - 1;
                if self.cover[a as usize] != NONE {
                    continue;
                }
                for &b in &self.nb[a as usize] {
                    if b == NONE || self.cover[b as usize] != NONE {
                        continue;
                    }
                    if b > a {
                        keys.push(self.pair_key(a, b));
                    } else if !is_near(b) {
                        keys.push(self.pair_key(b, a));
                    }
                }
            }
        }
        keys.sort_unstable();
        out.extend(keys.into_iter().map(|k| {
            let lo = (k >> 2) as u16;
            (Tri(lo), Tri(self.nb[lo as usize][(k & 3) as usize]))
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::halasi::tiles;

    fn set() -> TileSet {
        tiles::parse(
            "standard",
            include_str!("../../../rulesets/halasi/standard.yaml"),
        )
        .unwrap()
    }

    fn territory(label: &str, tile: u8, q: i16, r: i16, rotation: u8) -> Territory {
        Territory {
            label: Label::new(label).unwrap(),
            owner: Seat(0),
            tile,
            market: tile < 2,
            at: Pos { q, r },
            rotation,
        }
    }

    fn addr(l: &str, i: u8) -> Address {
        Address {
            label: Label::new(l).unwrap(),
            index: i,
        }
    }

    #[test]
    fn territories_join_across_their_shared_edge() {
        let set = set();
        let mut lay = Layout::default();
        assert_eq!(
            lay.check_territory(Pos { q: 1, r: 0 }),
            Err(PlaceFault::FirstAtOrigin)
        );
        lay.add_territory(territory("AM1", 0, 0, 0, 0), &set);
        assert_eq!(
            lay.check_territory(Pos { q: 0, r: 0 }),
            Err(PlaceFault::Taken(Label::new("AM1").unwrap()))
        );
        assert_eq!(
            lay.check_territory(Pos { q: 2, r: 0 }),
            Err(PlaceFault::NotAdjacent)
        );
        assert_eq!(lay.check_territory(Pos { q: 0, r: -1 }), Ok(()));
        let a9 = lay.tri(&addr("AM1", 9)).unwrap();
        assert_eq!(lay.neighbours(a9).count(), 2, "an open edge");
        lay.add_territory(territory("AT1", 2, 0, -1, 3), &set);
        let b20 = lay.tri(&addr("AT1", 20)).unwrap();
        let b18 = lay.tri(&addr("AT1", 18)).unwrap();
        let a11 = lay.tri(&addr("AM1", 11)).unwrap();
        assert!(lay.adjacent(a9, b20) && lay.adjacent(b20, a9));
        assert!(lay.adjacent(a11, b18) && lay.adjacent(b18, a11));
        assert_eq!(lay.neighbours(a9).count(), 3);
        assert_eq!(lay.address(b18), addr("AT1", 18));
        // Rotation 3 puts the marking printed at index 18 - 9 = 9 on layout index 18.
        assert_eq!(lay.foundation(b18), set.tiles[2].markings[9]);
        assert_eq!(
            lay.free_positions().first(),
            Some(&Pos { q: 0, r: -2 }),
            "lowest r first"
        );
    }

    #[test]
    fn every_join_is_the_lattices_own_whatever_order_territories_are_laid_in() {
        use crate::games::halasi::geometry::lattice;
        let set = set();
        // A ring around the origin and a few beyond it, laid out of order, turned.
        let at = [
            (0, 0),
            (1, -1),
            (0, 1),
            (-1, 0),
            (1, 0),
            (0, -1),
            (-1, 1),
            (2, -1),
        ];
        let at = at.iter().chain(&[(2, -2), (-2, 2), (1, 1), (-1, -1)]);
        let mut lay = Layout::default();
        for (n, &(q, r)) in at.enumerate() {
            let label = format!("A{}", (b'A' + n as u8) as char);
            lay.add_territory(territory(&label, 2, q, r, (n % 6) as u8), &set);
        }
        let tris: Vec<(Tri, crate::games::halasi::geometry::LatticeTri)> = (0..lay.len())
            .map(|t| {
                let t = Tri(t as u16);
                (t, lattice(lay.territories[t.slot()].at, t.index()))
            })
            .collect();
        for &(t, l) in &tris {
            for (k, want) in l.neighbours().into_iter().enumerate() {
                let found = tris.iter().find(|(_, m)| *m == want).map(|(u, _)| u.0);
                assert_eq!(
                    lay.nb[t.0 as usize][k],
                    found.unwrap_or(NONE),
                    "{:?}, neighbour {k}",
                    lay.address(t)
                );
            }
        }
    }

    #[test]
    fn dominos_cover_and_touch() {
        let set = set();
        let mut lay = Layout::default();
        lay.add_territory(territory("AM1", 0, 0, 0, 0), &set);
        let t = |i| lay.tri(&addr("AM1", i)).unwrap();
        let (t0, t1, t7, t6) = (t(0), t(1), t(7), t(6));
        let m = lay.foundation(t0);
        lay.place(Placed {
            halves: [t0, t1],
            marks: [m, m],
            seat: Seat(0),
            turn: 1,
        });
        lay.place(Placed {
            halves: [t7, t6],
            marks: [m, m],
            seat: Seat(0),
            turn: 2,
        });
        assert_eq!(lay.cover(t1), Some((0, 1)));
        let mut out = Vec::new();
        lay.touching(1, &mut out);
        assert_eq!(out, [0], "7 touches 0");
        let mut pairs = Vec::new();
        lay.free_pairs(&mut pairs);
        assert!(!pairs.iter().any(|&(a, b)| [a, b].contains(&t0)));
        lay.unplace();
        assert_eq!(lay.cover(t7), None);
    }
}
