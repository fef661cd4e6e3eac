//! A square of the board and one action of a Thaayam turn, as written.

use std::fmt;

use smallvec::SmallVec;

/// A square of the 5×5 board: `index = rank * 5 + file`, files `a`–`e`, ranks `1`–`5`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Square(pub(super) u8);

impl Square {
    pub const COUNT: usize = 25;

    /// The square at `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 5 && rank < 5 {
            Some(Square(rank * 5 + file))
        } else {
            None
        }
    }
    /// The square with this index (0..25).
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn file(self) -> u8 {
        self.0 % 5
    }
    pub const fn rank(self) -> u8 {
        self.0 / 5
    }
    /// Parses `a1`…`e5`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        Square::new(bytes[0].wrapping_sub(b'a'), bytes[1].wrapping_sub(b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The throws of a series or of one move, held inline up to a usual count: listing the
/// legal turns makes thousands of turns a game, and a heap list in each cost a quarter of
/// a random playout's time.
pub type Throws<const N: usize> = SmallVec<[u8; N]>;

/// One action of a turn.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub enum Action {
    /// `enter`: a throw of 1 places a piece on the seat's palace.
    Enter,
    /// `c1+4+2` (a single piece) or `Tc5+8+3` (twins): the throws used, never their sum;
    /// `capture` when an `x` after it claims a capture.
    Move {
        from: Square,
        twins: bool,
        throws: Throws<6>,
        capture: bool,
    },
    /// `twin c5`: two single pieces on the opposite palace become twins.
    Twin(Square),
    /// `off`: a throw of 1 bears one piece off from the keep.
    Off,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Enter => f.write_str("enter"),
            Action::Off => f.write_str("off"),
            Action::Twin(sq) => write!(f, "twin {sq}"),
            Action::Move {
                from,
                twins,
                throws,
                capture,
            } => {
                if *twins {
                    f.write_str("T")?;
                }
                write!(f, "{from}")?;
                for t in throws {
                    write!(f, "+{t}")?;
                }
                if *capture {
                    f.write_str("x")?;
                }
                Ok(())
            }
        }
    }
}
