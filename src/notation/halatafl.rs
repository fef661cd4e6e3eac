//! Halatafl turn notation: the typed AST of one turn, its parser and printer.
//!
//! `e3-d4` (step or emperor slide), `c5xe3xg1` (jump chain), `=K`/`=E` (promotion marker),
//! `huff c3 e5-e4` (a huff before the move), `huff c3` (a winning huff alone).

use std::fmt;

/// A point of the 7×7 board: `index = rank * 7 + file`, files `a`–`g`, ranks `1`–`7`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 49;

    /// The point at `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 7 && rank < 7 {
            Some(Square(rank * 7 + file))
        } else {
            None
        }
    }

    /// The point with this index (0..49).
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 7
    }
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 7
    }
    /// A one-bit mask of this point, for 49-bit bitboards.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1`…`g7`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::new(file, rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The longest jump chain a turn can write: every landing point named. A man can capture
/// at most 22 pieces, so 23 points.
pub const MAX_PATH: usize = 24;

/// The points of a move: the start, then every landing point. Fixed size and `Copy`, so
/// legal-turn generation never allocates.
#[derive(Copy, Clone, Eq, PartialEq, Hash)]
pub struct Path {
    len: u8,
    points: [Square; MAX_PATH],
}

impl Path {
    pub fn new(from: Square) -> Path {
        let mut points = [Square(0); MAX_PATH];
        points[0] = from;
        Path { len: 1, points }
    }
    /// Appends a landing point; `false` (and no change) when the path is full.
    pub fn push(&mut self, to: Square) -> bool {
        if (self.len as usize) < MAX_PATH {
            self.points[self.len as usize] = to;
            self.len += 1;
            true
        } else {
            false
        }
    }
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }
    pub fn points(&self) -> &[Square] {
        &self.points[..self.len as usize]
    }
    pub fn from(&self) -> Square {
        self.points[0]
    }
    pub fn to(&self) -> Square {
        self.points[self.len as usize - 1]
    }
    /// Number of hops (landings).
    pub fn hops(&self) -> usize {
        self.len as usize - 1
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.points()).finish()
    }
}

/// The moving part of a turn.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Move {
    /// `e3-d4`: a step, a king's step, or an emperor's slide (two points only).
    Step { from: Square, to: Square },
    /// `c5xe3xg1`: one or more short jumps, every landing point named.
    Jump(Path),
}

impl Move {
    pub fn from(&self) -> Square {
        match self {
            Move::Step { from, .. } => *from,
            Move::Jump(path) => path.from(),
        }
    }
    pub fn to(&self) -> Square {
        match self {
            Move::Step { to, .. } => *to,
            Move::Jump(path) => path.to(),
        }
    }
    pub fn is_capture(&self) -> bool {
        matches!(self, Move::Jump(_))
    }
}

/// The optional marker after a move: `=K` (became a king), `=E` (became an emperor).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Promotion {
    King,
    Emperor,
}

/// One Halatafl turn as written.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Turn {
    /// `huff c3` before the move: the enemy counter removed.
    pub huff: Option<Square>,
    /// The move; `None` only for a winning huff written alone.
    pub mv: Option<Move>,
    /// The promotion marker written after the move, if any.
    pub promotion: Option<Promotion>,
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(h) = self.huff {
            write!(f, "huff {h}")?;
            sep = " ";
        }
        if let Some(mv) = &self.mv {
            f.write_str(sep)?;
            match mv {
                Move::Step { from, to } => write!(f, "{from}-{to}")?,
                Move::Jump(path) => {
                    for (i, p) in path.points().iter().enumerate() {
                        if i > 0 {
                            f.write_str("x")?;
                        }
                        write!(f, "{p}")?;
                    }
                }
            }
            match self.promotion {
                Some(Promotion::King) => f.write_str("=K")?,
                Some(Promotion::Emperor) => f.write_str("=E")?,
                None => {}
            }
        }
        Ok(())
    }
}
