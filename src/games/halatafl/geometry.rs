//! The board's lines, computed once at compile time for every combination of the
//! `diagonals` and `men` settings.
//!
//! Bit `i` of a bitboard is the point with [`Square::index`] `i` (`rank * 7 + file`).

use crate::notation::halatafl::Square;

/// Every point of the board.
pub const FULL: u64 = (1u64 << 49) - 1;

/// `NONE` in a neighbour table: no line in that direction.
pub const NONE: u8 = u8::MAX;

/// The eight directions as (file delta, rank delta): N, S, E, W, NE, NW, SE, SW.
/// "North" is towards rank 7 (white's forward).
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// Directions (as a bit mask over [`DIRS`]) a white man may use: N, E, W, NE, NW.
pub const WHITE_MAN: u8 = 0b0011_1101;
/// Directions a black man may use: S, E, W, SE, SW.
pub const BLACK_MAN: u8 = 0b1100_1110;
/// Every direction.
pub const ALL_DIRS: u8 = 0xFF;

/// `MAN_THRONE_DIRS[men][side]` (men 0 = forward-sideways, 1 = any): the directions in
/// which a man of `side` may jump onto one of its own thrones, whatever the diagonals
/// (a test checks them against every geometry's `man_jump_throne`). White's thrones are
/// on rank 1, so it lands there going east, west or (men any) south; black's mirror them.
pub const MAN_THRONE_DIRS: [[u8; 2]; 2] = [[0b0000_1100, 0b0000_1100], [0b1100_1110, 0b0011_1101]];

/// The thrones of each seat (white a1 g1, black a7 g7).
pub const THRONES: [u64; 2] = [(1 << 0) | (1 << 6), (1 << 42) | (1 << 48)];

/// `DIR_OF[(df + 1) * 3 + (dr + 1)]`: the direction index of a (file, rank) delta with
/// components in `-1..=1`, or 8 for (0, 0).
const DIR_OF: [u8; 9] = {
    let mut t = [8u8; 9];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        t[((df + 1) * 3 + (dr + 1)) as usize] = d as u8;
        d += 1;
    }
    t
};

/// The direction index of a (file, rank) delta whose components are in `-1..=1`.
#[inline]
pub const fn dir_index(df: i8, dr: i8) -> Option<usize> {
    if df < -1 || df > 1 || dr < -1 || dr > 1 {
        return None;
    }
    let d = DIR_OF[((df + 1) * 3 + (dr + 1)) as usize];
    if d < 8 {
        Some(d as usize)
    } else {
        None
    }
}

/// `STEP_DIR[from][to]`: the direction from point `from` to point `to` where they are
/// next to each other on the grid (a file and a rank apart at most, lines ignored), else
/// [`NONE`]. Judging a step looks it up instead of dividing both points' indices by 7.
pub static STEP_DIR: [[u8; 49]; 49] = {
    let mut t = [[NONE; 49]; 49];
    let mut from = 0;
    while from < 49 {
        let mut to = 0;
        while to < 49 {
            let df = (to % 7) as i8 - (from % 7) as i8;
            let dr = (to / 7) as i8 - (from / 7) as i8;
            if let Some(d) = dir_index(df, dr) {
                t[from][to] = d as u8;
            }
            to += 1;
        }
        from += 1;
    }
    t
};

/// The lines of one `diagonals` setting and the directions of men under one `men`
/// setting.
#[derive(Debug)]
pub struct Geometry {
    /// `nb[point][dir]`: the neighbour joined to `point` by a line in direction `dir`,
    /// or [`NONE`].
    pub nb: [[u8; 8]; 49],
    /// The directions a man of each seat may step and jump in (mask over [`DIRS`]).
    pub man_dirs: [u8; 2],
    /// The points a man of each seat may step to from each point (ignoring occupancy
    /// and its own thrones).
    pub man_step: [[u64; 49]; 2],
    /// The points a king may step to from each point.
    pub king_step: [u64; 49],
    /// `jump_from[dir]`: the points from which a short jump in direction `dir` runs
    /// along a line (the jumped point and the landing both joined in that direction).
    /// From such a point `p` the jumped point is `p + DELTA[dir]` and the landing
    /// `p + 2 * DELTA[dir]`.
    pub jump_from: [u64; 8],
    /// `jump_dirs[point]`: the directions (mask over [`DIRS`]) of the short jumps from
    /// `point` that run along a line.
    pub jump_dirs: [u8; 49],
    /// `man_step_from[side][dir]`: the points from which a man of `side` may step in
    /// direction `dir` along a line (to `p + DELTA[dir]`).
    pub man_step_from: [[u64; 8]; 2],
    /// `man_jump_from[side][dir]`: the points of `jump_from[dir]` from which a man of
    /// `side` may jump in direction `dir` and land off its own thrones.
    pub man_jump_from: [[u64; 8]; 2],
    /// `man_jump_throne[side][dir]`: the same, for the jumps that land on one of its own
    /// thrones (they count only if the man can jump on from there).
    pub man_jump_throne: [[u64; 8]; 2],
}

/// The index difference of one step in each direction of [`DIRS`] (`file + 7 * rank`).
pub const DELTA: [i8; 8] = [7, -7, 1, -1, 8, 6, -6, -8];

/// The bitboard whose bit `p` is bit `p + k` of `x`: `x` shifted back by `k` points.
#[inline(always)]
pub const fn back(x: u64, k: i8) -> u64 {
    if k >= 0 {
        x >> k
    } else {
        x << -k
    }
}

/// Is there a diagonal line from (`f`, `r`) to (`f + df`, `r + dr`)? `diagonals`:
/// 0 = main, 1 = alquerque, 2 = none. Both points are on the board.
const fn diagonal_line(diagonals: u8, f: i8, r: i8, df: i8, dr: i8) -> bool {
    match diagonals {
        // a1–g7 (file = rank) and a7–g1 (file + rank = 6), and only along them.
        0 => (f == r && df == dr) || (f + r == 6 && df == -dr),
        // Through every point whose file + rank is even (its diagonal neighbours are
        // then even too).
        1 => (f + r) % 2 == 0,
        _ => false,
    }
}

const fn build(diagonals: u8, men_any: bool) -> Geometry {
    let mut nb = [[NONE; 8]; 49];
    let mut p = 0;
    while p < 49 {
        let f = (p % 7) as i8;
        let r = (p / 7) as i8;
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRS[d];
            assert!(DELTA[d] == df + 7 * dr);
            let (nf, nr) = (f + df, r + dr);
            let on_board = nf >= 0 && nf < 7 && nr >= 0 && nr < 7;
            let line = df == 0 || dr == 0 || diagonal_line(diagonals, f, r, df, dr);
            if on_board && line {
                nb[p][d] = (nr * 7 + nf) as u8;
            }
            d += 1;
        }
        p += 1;
    }
    let man_dirs = if men_any {
        [ALL_DIRS, ALL_DIRS]
    } else {
        [WHITE_MAN, BLACK_MAN]
    };
    let mut man_step = [[0u64; 49]; 2];
    let mut king_step = [0u64; 49];
    let mut jump_from = [0u64; 8];
    let mut jump_dirs = [0u8; 49];
    let mut man_step_from = [[0u64; 8]; 2];
    let mut man_jump_from = [[0u64; 8]; 2];
    let mut man_jump_throne = [[0u64; 8]; 2];
    let mut p = 0;
    while p < 49 {
        let mut d = 0;
        while d < 8 {
            let n = nb[p][d];
            if n != NONE && nb[n as usize][d] != NONE {
                jump_from[d] |= 1u64 << p;
                jump_dirs[p] |= 1 << d;
                let land = nb[n as usize][d] as usize;
                let mut s = 0;
                while s < 2 {
                    if man_dirs[s] & (1 << d) != 0 {
                        if THRONES[s] & (1u64 << land) != 0 {
                            man_jump_throne[s][d] |= 1u64 << p;
                        } else {
                            man_jump_from[s][d] |= 1u64 << p;
                        }
                    }
                    s += 1;
                }
            }
            if n != NONE {
                king_step[p] |= 1u64 << n;
                let mut s = 0;
                while s < 2 {
                    if man_dirs[s] & (1 << d) != 0 {
                        man_step[s][p] |= 1u64 << n;
                        man_step_from[s][d] |= 1u64 << p;
                    }
                    s += 1;
                }
            }
            d += 1;
        }
        p += 1;
    }
    Geometry {
        nb,
        man_dirs,
        man_step,
        king_step,
        jump_from,
        jump_dirs,
        man_step_from,
        man_jump_from,
        man_jump_throne,
    }
}

/// `GEOMETRY[diagonals][men]`: diagonals 0 = main, 1 = alquerque, 2 = none; men 0 =
/// forward-sideways, 1 = any.
pub static GEOMETRY: [[Geometry; 2]; 3] = [
    [build(0, false), build(0, true)],
    [build(1, false), build(1, true)],
    [build(2, false), build(2, true)],
];

impl Geometry {
    /// The neighbour of `p` along a line in direction `d`.
    #[inline]
    pub fn step(&self, p: usize, d: usize) -> Option<usize> {
        let n = self.nb[p][d];
        (n != NONE).then_some(n as usize)
    }

    /// Are `a` and `b` adjacent along a line of the board?
    pub fn joined(&self, a: Square, b: Square) -> bool {
        self.king_step[a.index()] & b.bit() != 0
    }
}

/// Iterates the set bits of a bitboard as point indices, lowest first.
#[derive(Copy, Clone)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

/// The point of an index known to be on the board.
#[inline]
pub fn sq(i: usize) -> Square {
    Square::from_index(i as u8).unwrap_or_else(|| unreachable!("point index {i} off the board"))
}
