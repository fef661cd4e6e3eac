//! Pieces on the board, as bitboards, and the position ([`State`]).

use super::geometry::{sq, Bits, THRONES};
use crate::games::Seat;
use crate::notation::halatafl::Square;

/// A piece's rank in the spec's sense ("a piece keeps its rank for the whole turn"):
/// man, king or emperor. Not to be confused with a board rank ([`Square::rank`]).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Rank {
    Man,
    King,
    Emperor,
}

impl Rank {
    pub fn name(self) -> &'static str {
        match self {
            Rank::Man => "man",
            Rank::King => "king",
            Rank::Emperor => "emperor",
        }
    }
}

/// A piece as a diagram draws it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Piece {
    /// `Seat(0)` white, `Seat(1)` black.
    pub seat: Seat,
    /// Man, king or emperor.
    pub rank: Rank,
}

/// The pieces: one bitboard per seat, and the kings and emperors among them (disjoint).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Board {
    pub(crate) side: [u64; 2],
    pub(crate) kings: u64,
    pub(crate) emperors: u64,
}

impl Board {
    #[inline]
    pub(crate) fn occ(&self) -> u64 {
        self.side[0] | self.side[1]
    }

    /// The rank of the piece on point `i` (a man where there is none).
    #[inline]
    pub(crate) fn rank_at(&self, i: usize) -> Rank {
        let b = 1u64 << i;
        if self.emperors & b != 0 {
            Rank::Emperor
        } else if self.kings & b != 0 {
            Rank::King
        } else {
            Rank::Man
        }
    }

    #[inline]
    pub(crate) fn owner(&self, i: usize) -> Option<usize> {
        let b = 1u64 << i;
        if self.side[0] & b != 0 {
            Some(0)
        } else if self.side[1] & b != 0 {
            Some(1)
        } else {
            None
        }
    }

    /// Removes every piece on the points of `mask`.
    #[inline]
    pub(crate) fn clear(&mut self, mask: u64) {
        self.side[0] &= !mask;
        self.side[1] &= !mask;
        self.kings &= !mask;
        self.emperors &= !mask;
    }

    #[inline]
    pub(crate) fn put(&mut self, i: usize, side: usize, rank: Rank) {
        let b = 1u64 << i;
        self.clear(b);
        self.side[side] |= b;
        match rank {
            Rank::Man => {}
            Rank::King => self.kings |= b,
            Rank::Emperor => self.emperors |= b,
        }
    }

    #[inline]
    pub(crate) fn count(&self, side: usize) -> u32 {
        self.side[side].count_ones()
    }

    /// The men of a seat.
    #[inline]
    pub(crate) fn men(&self, side: usize) -> u64 {
        self.side[side] & !(self.kings | self.emperors)
    }

    /// The piece on a point.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let i = square.index();
        self.owner(i).map(|s| Piece {
            seat: Seat(s as u8),
            rank: self.rank_at(i),
        })
    }

    /// The normal start: white on ranks 1–3 but a1 and g1, and e4 f4 g4; black on ranks
    /// 5–7 but a7 and g7, and a4 b4 c4.
    pub(crate) fn start() -> Board {
        let rank = |r: u32| 0x7Fu64 << (7 * r);
        let white = (rank(0) | rank(1) | rank(2) | (0b111_0000 << 21)) & !THRONES[0];
        let black = (rank(4) | rank(5) | rank(6) | (0b000_0111 << 21)) & !THRONES[1];
        Board {
            side: [white, black],
            kings: 0,
            emperors: 0,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Reason {
    CaptureAll,
    ReduceTo,
    Thrones,
    QuietLimit,
    NoMoves,
    Resignation,
    Agreement,
}

impl Reason {
    /// The reason word of [`crate::games::End`].
    pub fn word(self) -> &'static str {
        match self {
            Reason::CaptureAll => "capture-all",
            Reason::ReduceTo => "reduce-to",
            Reason::Thrones => "thrones",
            Reason::QuietLimit => "quiet-limit",
            Reason::NoMoves => "no-moves",
            Reason::Resignation => "resignation",
            Reason::Agreement => "agreement",
        }
    }

    /// The rule that ended the game, if a rule did.
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Reason::CaptureAll => Some("win-capture-all"),
            Reason::ReduceTo => Some("win-reduce-to"),
            Reason::Thrones => Some("win-thrones"),
            Reason::QuietLimit => Some("quiet-limit"),
            Reason::NoMoves => Some("no-moves"),
            Reason::Resignation | Reason::Agreement => None,
        }
    }
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Ending {
    pub winner: Option<Seat>,
    pub reason: Reason,
}

/// The steps of a seat counted by the byte of the board (points `8j..8j+8`) their piece
/// stands on: byte `j` is how many steps the pieces there have, at most 192 (8 pieces
/// with up to 24 slides each). The total is what `movegen::steps` would list; the bytes find the
/// `k`-th step without counting piece by piece from the first.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StepCounts(pub(crate) u64);

const M8: u64 = 0x00FF_00FF_00FF_00FF;
const LANES: u64 = 0x0001_0001_0001_0001;

impl StepCounts {
    /// How many steps in all.
    #[inline]
    pub(crate) fn total(self) -> u32 {
        // Bytes into 16-bit fields (at most 384 each), then the four summed by a multiply.
        let x = (self.0 & M8) + ((self.0 >> 8) & M8);
        (x.wrapping_mul(LANES) >> 48) as u32
    }

    /// For the `k`-th step (from 0; `k` below the total): the byte of the board its piece
    /// stands on and how many steps of that byte's pieces come before it. `None` when the
    /// total is over 255 (kept in one byte here; only emperors reach it).
    #[inline]
    pub(crate) fn locate(self, k: u32) -> Option<(u32, u32)> {
        const H: u64 = 0x8000_8000_8000_8000;
        if self.total() > 255 {
            return None;
        }
        // Byte j of `prefix` counts the steps of bytes 0..=j.
        let prefix = self.0.wrapping_mul(0x0101_0101_0101_0101);
        // The bytes whose prefix is above k, counted in 16-bit fields (no borrow crosses
        // a field: each is at least 0x8000 before k + 1 ≤ 256 is taken off).
        let kk = u64::from(k + 1).wrapping_mul(LANES);
        let even = ((prefix & M8) | H).wrapping_sub(kk) & H;
        let odd = (((prefix >> 8) & M8) | H).wrapping_sub(kk) & H;
        let above = (((even >> 15) + (odd >> 15)).wrapping_mul(LANES) >> 48) as u32;
        let j = 8 - above;
        let before = ((prefix << 8) >> (8 * j)) & 0xFF;
        Some((j, k - before as u32))
    }
}

/// [`State::capturers`] (and [`State::steps`], or [`State::huffable`]) not worked out:
/// the position was made by judging a written turn, which has no use for them. No board
/// has this set: bits 49–63 are off the board.
pub(crate) const UNKNOWN: u64 = u64::MAX;

/// A step that may have failed to capture (`capture = compulsory-huff`): `from`-`to` by
/// a piece of `rank` (its rank before the step). The pieces of the seat that stepped
/// that had a capture before it may be huffed, followed to where they moved; they are
/// worked out where they are asked for ([`State::huffable`]), as `check` judges the
/// next turn without them unless it huffs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FailedStep {
    pub from: Square,
    pub to: Square,
    pub rank: Rank,
}

/// A Halatafl position: pieces, the seat to move, what it may huff, the quiet count,
/// once the game is over how it ended, and (derived from the board, where it was worked
/// out) which pieces of the seat to move can capture and the points it may huff after a
/// step. Equality and hashing ignore the derived part: two positions are equal when
/// their pieces, seat to move, quiet count and end are, and what may be huffed is said
/// the same way (a list of points, or the step that may have failed to capture).
#[derive(Copy, Clone, Debug)]
pub struct State {
    pub(crate) board: Board,
    /// 0 white, 1 black.
    pub(crate) to_move: u8,
    /// The last turn's step, where it may have failed to capture: what may be huffed is
    /// then derived from it.
    pub(crate) failed: Option<FailedStep>,
    /// Pieces of the seat not to move that the seat to move may huff this turn: where
    /// [`State::failed`] is `None`, these (none, the piece of a chain stopped early, or a
    /// setup's list); after a step, derived from it, or [`UNKNOWN`] where that was not
    /// worked out.
    pub(crate) huffable: u64,
    /// Turns in a row without capture, huff or promotion.
    pub(crate) quiet: u32,
    pub(crate) end: Option<Ending>,
    /// The pieces of the seat to move that have a capture (a jump that counts) when it
    /// huffs nothing, or [`UNKNOWN`]. Derived from the board: a position made by a listed
    /// turn (playouts) has it worked out, because choosing the next turn and applying a
    /// step ask for it; one made by judging a written turn (`check`) leaves it
    /// [`UNKNOWN`], and [`State::capturers_of`] works it out where it is asked for.
    pub(crate) capturers: u64,
    /// The steps (moves that capture nothing) the seat to move has when it huffs
    /// nothing, counted by byte of the board, where [`State::capturers`] is known (none
    /// where it is not): derived like it.
    pub(crate) steps: StepCounts,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.board == other.board
            && self.to_move == other.to_move
            && self.failed == other.failed
            && (self.failed.is_some() || self.huffable == other.huffable)
            && self.quiet == other.quiet
            && self.end == other.end
    }
}

impl Eq for State {}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let huffable = if self.failed.is_some() {
            0
        } else {
            self.huffable
        };
        (
            self.board,
            self.to_move,
            self.failed,
            huffable,
            self.quiet,
            self.end,
        )
            .hash(h);
    }
}

impl State {
    /// The piece on a point, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board.piece_at(square)
    }
    /// The seat to move (also after the game ended: the seat that would have moved).
    pub fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    /// Bitboard of a seat's pieces (bit = [`Square::index`]).
    pub fn pieces(&self, seat: Seat) -> u64 {
        self.board.side[(seat.0 & 1) as usize]
    }
    /// Bitboard of the kings of both seats.
    pub fn kings(&self) -> u64 {
        self.board.kings
    }
    /// Bitboard of the emperors of both seats.
    pub fn emperors(&self) -> u64 {
        self.board.emperors
    }
    /// How many pieces a seat has on the board.
    pub fn count(&self, seat: Seat) -> u32 {
        self.pieces(seat).count_ones()
    }
    /// Turns in a row without capture, huff or promotion.
    pub fn quiet(&self) -> u32 {
        self.quiet
    }
    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.end
    }
}

/// Is this point a throne (a corner)?
pub fn is_throne(square: Square) -> bool {
    (THRONES[0] | THRONES[1]) & square.bit() != 0
}

/// The own thrones of a seat (white a1 g1, black a7 g7), as a bitboard.
pub fn thrones_of(seat: Seat) -> u64 {
    THRONES[(seat.0 & 1) as usize]
}

/// The points of a bitboard sorted by name: by file, then rank (`a7` before `c3`).
pub fn by_name(mask: u64) -> impl Iterator<Item = Square> {
    // One file's points, lowest rank first, are its bits in index order.
    const FILE_A: u64 = 0x0408_1020_4081;
    (0..7u32).flat_map(move |f| Bits(mask & (FILE_A << f)).map(sq))
}
