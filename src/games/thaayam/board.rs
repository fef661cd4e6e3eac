//! The board, the routes and the position.

use crate::games::Seat;
use crate::notation::thaayam::Square;

/// A piece not yet entered (or captured and not yet entered again).
pub const HAND: u8 = 25;
/// A piece borne off.
pub const OFF: u8 = 26;
/// The keep's route position.
pub const KEEP: u8 = 24;
/// The route position of the palace opposite a seat's own.
pub const OPPOSITE: u8 = 8;

/// South's route as (file, rank): the outer ring anticlockwise from c1, the inner ring
/// clockwise, then the keep (`thaayam.md`, "Route").
const SOUTH: [(i8, i8); 25] = [
    (2, 0),
    (3, 0),
    (4, 0),
    (4, 1),
    (4, 2),
    (4, 3),
    (4, 4),
    (3, 4),
    (2, 4),
    (1, 4),
    (0, 4),
    (0, 3),
    (0, 2),
    (0, 1),
    (0, 0),
    (1, 0),
    (1, 1),
    (1, 2),
    (1, 3),
    (2, 3),
    (3, 3),
    (3, 2),
    (3, 1),
    (2, 1),
    (2, 2),
];

/// Every seat's route, square indices by position; built by turning south's route about
/// the keep (west three quarter-turns anticlockwise, north two, east one).
pub const ROUTES: [[u8; 25]; 4] = {
    let mut out = [[0u8; 25]; 4];
    let turns = [0, 3, 2, 1];
    let mut s = 0;
    while s < 4 {
        let mut p = 0;
        while p < 25 {
            let (mut x, mut y) = (SOUTH[p].0 - 2, SOUTH[p].1 - 2);
            let mut t = 0;
            while t < turns[s] {
                let nx = -y;
                y = x;
                x = nx;
                t += 1;
            }
            out[s][p] = ((y + 2) * 5 + (x + 2)) as u8;
            p += 1;
        }
        s += 1;
    }
    out
};

/// Every seat's route positions by square index: the inverse of [`ROUTES`].
const POSITIONS: [[u8; 25]; 4] = {
    let mut out = [[0u8; 25]; 4];
    let mut s = 0;
    while s < 4 {
        let mut p = 0;
        while p < 25 {
            out[s][ROUTES[s][p] as usize] = p as u8;
            p += 1;
        }
        s += 1;
    }
    out
};

/// Which of four pieces (bit `i` for `pos[i]`) stand at route position `p`: the bytes
/// compared side by side (positions are at most 26, so no byte carries into the next),
/// then bit 7 of byte `i` moved to bit `i` by one multiply.
#[inline]
pub fn pieces_at(pos: [u8; 4], p: u8) -> u8 {
    const LOW: u32 = 0x0101_0101;
    let apart = (u32::from_le_bytes(pos) ^ (u32::from(p) * LOW)) + 0x7f * LOW;
    let there = (!apart >> 7) & LOW;
    (u64::from(there).wrapping_mul(1 << 21 | 1 << 14 | 1 << 7 | 1) >> 21) as u8 & 15
}

/// The route position of a square index for a seat.
#[inline]
pub fn position_of(seat: usize, square: u8) -> u8 {
    POSITIONS[seat][usize::from(square)]
}

/// The pieces of the other playing seats (bit `4 * seat + piece`) that a single (or
/// twins) of `seat` landing on its route position `to` takes: those on the square (only
/// the singles when a single lands), none on a marked square.
#[inline]
pub fn taken_at(st: &State, seat: Seat, to: u8, twins: bool) -> u16 {
    if SAFE_POSITIONS & (1 << to) != 0 {
        return 0;
    }
    let sq = ROUTES[seat.0 as usize][usize::from(to)];
    let mut taken = 0u16;
    let mut others = st.playing & !(1 << seat.0) & 15;
    while others != 0 {
        let e = others.trailing_zeros() as usize;
        others &= others - 1;
        let mut there = pieces_at(st.pos[e], position_of(e, sq));
        if !twins {
            there &= !st.twinned[e];
        }
        taken |= u16::from(there) << (4 * e);
    }
    taken
}

/// The square at a route position of a seat (`pos` in `0..=24`).
pub fn square(seat: Seat, pos: u8) -> Square {
    Square::from_index(ROUTES[seat.0 as usize][pos as usize]).expect("on the board")
}

/// The route position of a square for a seat.
pub fn position(seat: Seat, sq: Square) -> u8 {
    POSITIONS[seat.0 as usize][sq.index()]
}

/// Is the square with this index marked: one of the four palaces or the keep?
const fn is_marked(index: u8) -> bool {
    matches!(index, 2 | 10 | 12 | 14 | 22)
}

/// The marked squares: the four palaces and the keep.
pub fn is_safe(sq: Square) -> bool {
    is_marked(sq.index() as u8)
}

/// The route positions of marked squares, as bits: the same for every seat, whose
/// route is south's turned about the keep (its palace, the next two palaces round, the
/// keep).
pub const SAFE_POSITIONS: u32 = {
    let mut bits = 0u32;
    let mut p = 0;
    while p < 25 {
        if is_marked(ROUTES[0][p]) {
            bits |= 1 << p;
        }
        p += 1;
    }
    bits
};

/// Why a game ended.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Reason {
    /// Rule 29: a seat bore off all four pieces.
    Win,
    /// The other seats resigned.
    Resignation,
    Agreement,
}

/// How the game ended: the winner, if any.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Ending {
    pub winner: Option<Seat>,
    pub reason: Reason,
}

/// A position: every seat's four pieces by route position ([`HAND`], [`OFF`]), which
/// are twinned, who plays, who is to move. `Copy`, 30 bytes.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct State {
    pub pos: [[u8; 4]; 4],
    /// Per seat, bit `i` set: piece `i` is one of a pair of twins (twinned pieces on a
    /// square always come in pairs).
    pub twinned: [u8; 4],
    /// The seats still playing (bit mask).
    pub playing: u8,
    pub to_move: Seat,
    pub end: Option<Ending>,
}

impl State {
    /// The start: every piece off the board, `to_move` to play.
    pub fn start(playing: u8, to_move: Seat) -> State {
        State {
            pos: [[HAND; 4]; 4],
            twinned: [0; 4],
            playing,
            to_move,
            end: None,
        }
    }

    pub fn is_playing(&self, seat: Seat) -> bool {
        self.playing & (1 << seat.0) != 0
    }

    /// The seats still playing, in turn order.
    pub fn playing_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..4u8).map(Seat).filter(|s| self.is_playing(*s))
    }

    /// The next playing seat after `seat`, clockwise.
    pub fn next_after(&self, seat: Seat) -> Seat {
        for k in 1..=4u8 {
            let s = Seat((seat.0 + k) % 4);
            if self.is_playing(s) {
                return s;
            }
        }
        seat
    }

    /// Pieces of a seat in hand / borne off.
    pub fn hand(&self, seat: Seat) -> usize {
        self.pos[seat.0 as usize]
            .iter()
            .filter(|&&p| p == HAND)
            .count()
    }
    pub fn off(&self, seat: Seat) -> usize {
        self.pos[seat.0 as usize]
            .iter()
            .filter(|&&p| p == OFF)
            .count()
    }

    /// Does the seat have a piece on the board (the keep included)?
    pub fn on_board(&self, seat: Seat) -> bool {
        self.pos[seat.0 as usize].iter().any(|&p| p <= KEEP)
    }

    /// The pieces on a square, by seat: (singles, twinned pieces).
    pub fn at(&self, sq: Square) -> [(u8, u8); 4] {
        let mut out = [(0, 0); 4];
        for seat in self.playing_seats() {
            let s = seat.0 as usize;
            for i in 0..4 {
                let p = self.pos[s][i];
                if p <= KEEP && square(seat, p) == sq {
                    if self.twinned[s] & (1 << i) != 0 {
                        out[s].1 += 1;
                    } else {
                        out[s].0 += 1;
                    }
                }
            }
        }
        out
    }
}
