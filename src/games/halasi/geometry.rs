//! The geometry of the layout (`halasi.md`, "Geometry"), derived from coordinates so
//! that every table the spec states is a consequence, tested, rather than a copy.
//!
//! Unit triangles live on a lattice with basis `e1 = (1, 0)` and `e2 = (1/2, √3/2)`
//! (north up, angles anticlockwise from east). Vertex `(i,j)` is `i·e1 + j·e2`; the
//! triangle pointing up at `(i,j)` has vertices `(i,j) (i+1,j) (i,j+1)`, the one pointing
//! down `(i+1,j) (i,j+1) (i+1,j+1)`.
//!
//! A territory is the hexagon of side 2 around a lattice vertex: territory `(q,r)` is
//! centred at `(3q, −√3(q + 2r))`, the vertex `(4q + 2r, −2q − 4r)`. Its 24 triangles
//! are indexed by ring (0–5 the centre ring, 6–23 the outer), then by the angle of their
//! centroid from due east. An index names a place on the layout; rotating a tile moves
//! its printing, not the places ([`printed_index`]).

use std::sync::LazyLock;

use crate::notation::halasi::Pos;

/// The six directions between territories, in the spec's order, with their axial
/// offsets (as Halves' cells).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Dir {
    North,
    NorthEast,
    SouthEast,
    South,
    SouthWest,
    NorthWest,
}

impl Dir {
    pub const ALL: [Dir; 6] = [
        Dir::North,
        Dir::NorthEast,
        Dir::SouthEast,
        Dir::South,
        Dir::SouthWest,
        Dir::NorthWest,
    ];

    pub fn offset(self) -> (i16, i16) {
        match self {
            Dir::North => (0, -1),
            Dir::NorthEast => (1, -1),
            Dir::SouthEast => (1, 0),
            Dir::South => (0, 1),
            Dir::SouthWest => (-1, 1),
            Dir::NorthWest => (-1, 0),
        }
    }

    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 6]
    }

    /// The position next to `pos` in this direction, if it exists.
    pub fn from(self, pos: Pos) -> Option<Pos> {
        let (dq, dr) = self.offset();
        Pos::new(i32::from(pos.q + dq), i32::from(pos.r + dr))
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::North => "north",
            Dir::NorthEast => "north-east",
            Dir::SouthEast => "south-east",
            Dir::South => "south",
            Dir::SouthWest => "south-west",
            Dir::NorthWest => "north-west",
        }
    }
}

/// A unit triangle of the lattice.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct LatticeTri {
    pub up: bool,
    pub i: i32,
    pub j: i32,
}

impl LatticeTri {
    /// Its three vertices, as lattice points.
    pub fn vertices(self) -> [(i32, i32); 3] {
        let (i, j) = (self.i, self.j);
        if self.up {
            [(i, j), (i + 1, j), (i, j + 1)]
        } else {
            [(i + 1, j), (i, j + 1), (i + 1, j + 1)]
        }
    }

    /// Its three edge neighbours.
    pub fn neighbours(self) -> [LatticeTri; 3] {
        let (i, j) = (self.i, self.j);
        let t = |up, i, j| LatticeTri { up, i, j };
        if self.up {
            [t(false, i, j - 1), t(false, i, j), t(false, i - 1, j)]
        } else {
            [t(true, i, j), t(true, i + 1, j), t(true, i, j + 1)]
        }
    }

    /// Its centroid, in lattice coordinates times 3 (integers).
    fn centroid3(self) -> (i32, i32) {
        let v = self.vertices();
        (v[0].0 + v[1].0 + v[2].0, v[0].1 + v[1].1 + v[2].1)
    }

    /// The same triangle moved by a lattice vector.
    pub fn shifted(self, (di, dj): (i32, i32)) -> LatticeTri {
        LatticeTri {
            up: self.up,
            i: self.i + di,
            j: self.j + dj,
        }
    }
}

/// A lattice point in Cartesian coordinates (unit triangles of side 1, north up).
pub fn cartesian((i, j): (i32, i32)) -> (f64, f64) {
    let (i, j) = (f64::from(i), f64::from(j));
    (i + j / 2.0, j * 3f64.sqrt() / 2.0)
}

/// The lattice vertex at the centre of the territory at `pos`.
pub fn centre_vertex(pos: Pos) -> (i32, i32) {
    let (q, r) = (i32::from(pos.q), i32::from(pos.r));
    (4 * q + 2 * r, -2 * q - 4 * r)
}

/// Is a centroid (lattice coordinates times 3, relative to a territory's centre) inside
/// the territory's hexagon? The hexagon of side 2 is `max(|a|, |b|, |a+b|) ≤ 2`.
fn inside3((a, b): (i32, i32)) -> bool {
    a.abs().max(b.abs()).max((a + b).abs()) < 6
}

/// Triangles of a territory.
pub const TRIANGLES: usize = 24;
/// Triangles 0–5 are the centre ring.
pub const CENTRE: std::ops::Range<u8> = 0..6;

/// Each index's triangle relative to the territory's centre vertex.
pub static LOCAL: LazyLock<[LatticeTri; TRIANGLES]> = LazyLock::new(|| {
    let mut tris = Vec::with_capacity(TRIANGLES);
    for up in [true, false] {
        for i in -3..=3 {
            for j in -3..=3 {
                let t = LatticeTri { up, i, j };
                if inside3(t.centroid3()) {
                    tris.push(t);
                }
            }
        }
    }
    // Ring (the centre ring touches the centre vertex), then centroid angle in [0, 360).
    let key = |t: &LatticeTri| {
        let ring = u8::from(!t.vertices().contains(&(0, 0)));
        let (a, b) = t.centroid3();
        let (x, y) = (
            f64::from(a) + f64::from(b) / 2.0,
            f64::from(b) * 3f64.sqrt() / 2.0,
        );
        let angle = y.atan2(x).to_degrees().rem_euclid(360.0);
        (ring, (angle * 1000.0).round() as i64)
    };
    tris.sort_by_key(key);
    tris.try_into()
        .expect("a hexagon of side 2 holds 24 unit triangles")
});

/// The centroid angle of an index, in degrees from due east (for tests and drawing).
pub fn angle(index: u8) -> f64 {
    let (a, b) = LOCAL[index as usize].centroid3();
    let (x, y) = cartesian((a, b));
    y.atan2(x).to_degrees().rem_euclid(360.0)
}

/// An edge neighbour of a triangle: in the same territory, or across an edge of the
/// hexagon in the neighbouring territory.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Nb {
    Inside(u8),
    Across(Dir, u8),
}

/// The three neighbours of every index. Across a territory's edge, the neighbour is in
/// the territory next to it in that direction (positions are on the layout, so this
/// does not depend on rotations).
pub static NEIGHBOURS: LazyLock<[[Nb; 3]; TRIANGLES]> = LazyLock::new(|| {
    let find = |t: LatticeTri| LOCAL.iter().position(|&l| l == t).map(|i| i as u8);
    let origin = Pos { q: 0, r: 0 };
    let mut out = [[Nb::Inside(0); 3]; TRIANGLES];
    for (index, tri) in LOCAL.iter().enumerate() {
        for (k, nb) in tri.neighbours().into_iter().enumerate() {
            out[index][k] = match find(nb) {
                Some(i) => Nb::Inside(i),
                None => Dir::ALL
                    .iter()
                    .find_map(|&d| {
                        let there = d.from(origin).expect("next to the origin");
                        let (ci, cj) = centre_vertex(there);
                        find(nb.shifted((-ci, -cj))).map(|i| Nb::Across(d, i))
                    })
                    .expect("an edge of a territory borders one of its six neighbours"),
            };
        }
    }
    out
});

/// For each index's neighbour across a territory's edge, where the index stands among
/// that neighbour's three: the join seen from the other side (joins are symmetric).
/// `u8::MAX` for a neighbour inside the territory.
pub static ACROSS_BACK: LazyLock<[[u8; 3]; TRIANGLES]> = LazyLock::new(|| {
    let mut out = [[u8::MAX; 3]; TRIANGLES];
    for (i, nbs) in NEIGHBOURS.iter().enumerate() {
        for (k, nb) in nbs.iter().enumerate() {
            if let Nb::Across(d, j) = *nb {
                let back = NEIGHBOURS[j as usize]
                    .iter()
                    .position(|n| *n == Nb::Across(d.opposite(), i as u8))
                    .expect("joins are symmetric");
                out[i][k] = back as u8;
            }
        }
    }
    out
});

/// A territory's joins as [`Layout`](super::layout::Layout) lays them: each index's
/// neighbours inside the territory (`u16::MAX` across an edge), and for each direction
/// the edges across it to the territory next to it there, as (index here, which of its
/// neighbours, index there, which of that one's neighbours). Made once from
/// [`NEIGHBOURS`] and [`ACROSS_BACK`].
pub struct Joins {
    pub inside: [[u16; 3]; TRIANGLES],
    pub across: [Vec<(u8, u8, u8, u8)>; 6],
}

pub static JOINS: LazyLock<Joins> = LazyLock::new(|| {
    let mut joins = Joins {
        inside: [[u16::MAX; 3]; TRIANGLES],
        across: Default::default(),
    };
    for (i, nbs) in NEIGHBOURS.iter().enumerate() {
        for (k, nb) in nbs.iter().enumerate() {
            match *nb {
                Nb::Inside(j) => joins.inside[i][k] = u16::from(j),
                Nb::Across(d, j) => {
                    joins.across[d as usize].push((i as u8, k as u8, j, ACROSS_BACK[i][k]))
                }
            }
        }
    }
    joins
});

/// [`printed_index`] of every index, by rotation.
pub static PRINTED: LazyLock<[[u8; TRIANGLES]; 6]> = LazyLock::new(|| {
    let mut out = [[0; TRIANGLES]; 6];
    for (k, row) in out.iter_mut().enumerate() {
        for (i, p) in row.iter_mut().enumerate() {
            *p = printed_index(i as u8, k as u8);
        }
    }
    out
});

/// The layout index where the marking printed at set index `printed` lands when the
/// tile is turned `rotation` × 60° anticlockwise.
pub fn rotated_index(printed: u8, rotation: u8) -> u8 {
    let k = rotation % 6;
    if printed < 6 {
        (printed + k) % 6
    } else {
        6 + ((printed - 6) + 3 * k) % 18
    }
}

/// The set index printed on layout index `index` of a tile turned `rotation` times: the
/// inverse of [`rotated_index`].
pub fn printed_index(index: u8, rotation: u8) -> u8 {
    let k = rotation % 6;
    if index < 6 {
        (index + 6 - k) % 6
    } else {
        6 + ((index - 6) + 18 - 3 * k) % 18
    }
}

/// The lattice triangle of index `index` of the territory at `pos`.
pub fn lattice(pos: Pos, index: u8) -> LatticeTri {
    LOCAL[index as usize].shifted(centre_vertex(pos))
}

/// The corners of a triangle of the territory at `pos`, in Cartesian coordinates.
pub fn corners(pos: Pos, index: u8) -> [(f64, f64); 3] {
    lattice(pos, index).vertices().map(cartesian)
}

/// The centre of the territory at `pos`, in Cartesian coordinates: `(3q, −√3(q+2r))`.
pub fn centre(pos: Pos) -> (f64, f64) {
    cartesian(centre_vertex(pos))
}

/// The centroid of a triangle, in Cartesian coordinates.
pub fn centroid(pos: Pos, index: u8) -> (f64, f64) {
    let c = corners(pos, index);
    (
        (c[0].0 + c[1].0 + c[2].0) / 3.0,
        (c[0].1 + c[1].1 + c[2].1) / 3.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(q: i16, r: i16) -> Pos {
        Pos { q, r }
    }

    #[test]
    fn territories_are_centred_as_the_spec_says() {
        for (q, r) in [(0, 0), (1, 0), (0, -1), (-2, 3), (5, -1)] {
            let (x, y) = centre(p(q, r));
            let (q, r) = (f64::from(q), f64::from(r));
            assert!((x - 3.0 * q).abs() < 1e-9);
            assert!((y + 3f64.sqrt() * (q + 2.0 * r)).abs() < 1e-9);
        }
    }

    #[test]
    fn rings_and_angles_as_the_spec_says() {
        // Triangle 0: the centre triangle at 30°; 6: the outer one at about 10.9°; 7: the
        // outer one at 30°.
        assert!((angle(0) - 30.0).abs() < 1e-9);
        assert!((angle(6) - 10.893).abs() < 1e-3);
        assert!((angle(7) - 30.0).abs() < 1e-9);
        for i in 0..6 {
            assert!(
                LOCAL[i].vertices().contains(&(0, 0)),
                "{i} in the centre ring"
            );
            assert!((angle(i as u8) - (30.0 + 60.0 * i as f64)).abs() < 1e-9);
        }
        for i in 6..23u8 {
            assert!(!LOCAL[i as usize].vertices().contains(&(0, 0)));
            assert!(angle(i) < angle(i + 1), "outer ring by increasing angle");
        }
        for i in 0..5u8 {
            assert!(angle(i) < angle(i + 1));
        }
    }

    /// The joins of `(0,0)` at rotation 0 as the spec pins them: north 9↔20, 11↔18;
    /// north-east 6↔17, 8↔15; south-east 21↔14, 23↔12; and the opposite directions the
    /// reverse. Nothing else crosses an edge.
    #[test]
    fn every_join_of_the_spec() {
        let spec: [(Dir, u8, u8); 12] = [
            (Dir::North, 9, 20),
            (Dir::North, 11, 18),
            (Dir::NorthEast, 6, 17),
            (Dir::NorthEast, 8, 15),
            (Dir::SouthEast, 21, 14),
            (Dir::SouthEast, 23, 12),
            (Dir::South, 20, 9),
            (Dir::South, 18, 11),
            (Dir::SouthWest, 17, 6),
            (Dir::SouthWest, 15, 8),
            (Dir::NorthWest, 14, 21),
            (Dir::NorthWest, 12, 23),
        ];
        let mut found = Vec::new();
        for i in 0..24u8 {
            for nb in NEIGHBOURS[i as usize] {
                if let Nb::Across(d, j) = nb {
                    found.push((d, i, j));
                }
            }
        }
        found.sort_by_key(|&(d, i, j)| (d as u8, i, j));
        let mut want = spec.to_vec();
        want.sort_by_key(|&(d, i, j)| (d as u8, i, j));
        assert_eq!(found, want);
        // And the joins hold between real neighbours anywhere on the layout.
        for &(d, i, j) in &spec {
            let here = p(2, -1);
            let there = d.from(here).unwrap();
            assert!(lattice(here, i).neighbours().contains(&lattice(there, j)));
        }
    }

    #[test]
    fn neighbours_are_symmetric_and_three() {
        for i in 0..24u8 {
            for nb in NEIGHBOURS[i as usize] {
                match nb {
                    Nb::Inside(j) => assert!(NEIGHBOURS[j as usize].contains(&Nb::Inside(i))),
                    Nb::Across(d, j) => {
                        assert!(NEIGHBOURS[j as usize].contains(&Nb::Across(d.opposite(), i)))
                    }
                }
            }
        }
        // The centre ring is a cycle 0-1-…-5 around the centre vertex.
        for i in 0..6u8 {
            let nbs = NEIGHBOURS[i as usize];
            assert!(nbs.contains(&Nb::Inside((i + 1) % 6)));
            assert!(nbs.contains(&Nb::Inside((i + 5) % 6)));
        }
    }

    /// Rotation `k` moves the marking printed at index `i` to `(i + k) mod 6` in the
    /// centre ring and `6 + ((i − 6) + 3k) mod 18` in the outer ring — which is turning
    /// the tile `k × 60°` anticlockwise about its centre.
    #[test]
    fn rotation_moves_markings_as_the_formula_says() {
        let turn60 = |(x, y): (f64, f64)| {
            let (s, c) = 60f64.to_radians().sin_cos();
            (x * c - y * s, x * s + y * c)
        };
        let o = p(0, 0);
        for k in 0..6u8 {
            for i in 0..24u8 {
                let n = rotated_index(i, k);
                let want = if i < 6 {
                    (i + k) % 6
                } else {
                    6 + ((i - 6) + 3 * k) % 18
                };
                assert_eq!(n, want);
                assert_eq!(printed_index(n, k), i);
                // Geometrically: the centroid of i turned k times is the centroid of n.
                let mut c = centroid(o, i);
                for _ in 0..k {
                    c = turn60(c);
                }
                let d = centroid(o, n);
                assert!((c.0 - d.0).abs() < 1e-9 && (c.1 - d.1).abs() < 1e-9);
            }
        }
    }
}
