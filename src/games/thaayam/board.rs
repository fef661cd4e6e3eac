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
/// then bit 7 of byte `i` moved to bit `i` ([`high_bits`]).
#[inline]
pub fn pieces_at(pos: [u8; 4], p: u8) -> u8 {
    const LOW: u32 = 0x0101_0101;
    let apart = (u32::from_le_bytes(pos) ^ (u32::from(p) * LOW)) + 0x7f * LOW;
    high_bits(u64::from(!apart))
}

/// The route position of a square index for a seat.
#[inline]
pub fn position_of(seat: usize, square: u8) -> u8 {
    POSITIONS[seat][usize::from(square)]
}

/// For a seat and one of its route positions: the position of that square on each
/// seat's route, repeated in the four bytes of that seat's pieces (byte `4 * seat +
/// piece`), to compare with a [`State`]'s sixteen positions at once.
const LANDING: [[u128; 25]; 4] = {
    let mut out = [[0u128; 25]; 4];
    let mut s = 0;
    while s < 4 {
        let mut p = 0;
        while p < 25 {
            let sq = ROUTES[s][p] as usize;
            let mut e = 0;
            while e < 4 {
                out[s][p] |= (POSITIONS[e][sq] as u128 * 0x0101_0101) << (32 * e);
                e += 1;
            }
            p += 1;
        }
        s += 1;
    }
    out
};

/// Bit 7 of each byte of `bytes` gathered into bit `i` of a byte (byte `i`'s): one
/// multiply moves bit `8 i` of the shifted word to bit `56 + i`, and the other products
/// land below bit 56 without carrying into it, or above 63.
#[inline]
fn high_bits(bytes: u64) -> u8 {
    ((bytes >> 7 & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Bit `i` of a four-bit mask to bits `4 i..4 i + 4`: a seat's bit to its pieces' bits.
const PIECES_OF_SEATS: [u16; 16] = {
    let mut out = [0u16; 16];
    let mut m = 0;
    while m < 16 {
        let mut e = 0;
        while e < 4 {
            if m & (1 << e) != 0 {
                out[m] |= 0xf << (4 * e);
            }
            e += 1;
        }
        m += 1;
    }
    out
};

/// The pieces of the other playing seats (bit `4 * seat + piece`) that a single (or
/// twins) of `seat` landing on its route position `to` takes: those on the square (only
/// the singles when a single lands), none on a marked square. Every piece's position is
/// compared with the square's position on its own seat's route side by side, a byte
/// each (positions are at most 26, so no byte carries into the next).
#[inline]
pub fn taken_at(st: &State, seat: Seat, to: u8, twins: bool) -> u16 {
    const LOW: u128 = u128::from_le_bytes([1; 16]);
    if SAFE_POSITIONS & (1 << to) != 0 {
        return 0;
    }
    let bytes: [u8; 16] = st
        .pos
        .as_flattened()
        .try_into()
        .expect("four seats of four pieces");
    let pos = u128::from_le_bytes(bytes);
    let apart = (pos ^ LANDING[usize::from(seat.0 & 3)][usize::from(to)]) + 0x7f * LOW;
    let there = !apart & (0x80 * LOW);
    let mut taken =
        u16::from(high_bits(there as u64)) | u16::from(high_bits((there >> 64) as u64)) << 8;
    taken &= PIECES_OF_SEATS[usize::from(st.playing & !(1 << seat.0) & 15)];
    if !twins {
        let twinned = st.twinned.map(|t| t & 15);
        taken &= !(u16::from(twinned[0])
            | u16::from(twinned[1]) << 4
            | u16::from(twinned[2]) << 8
            | u16::from(twinned[3]) << 12);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_bits_gathers_every_pattern() {
        for m in 0..=255u8 {
            let bytes = (0..8).fold(0u64, |w, i| w | u64::from(m >> i & 1) << (8 * i + 7));
            // Low bits set too: only bit 7 of each byte counts.
            assert_eq!(high_bits(bytes | 0x7f7f_7f7f_7f7f_7f7f), m);
            assert_eq!(high_bits(bytes), m);
        }
    }

    /// The pieces taken, seat by seat and piece by piece.
    fn taken_plainly(st: &State, seat: Seat, to: u8, twins: bool) -> u16 {
        if SAFE_POSITIONS & (1 << to) != 0 {
            return 0;
        }
        let sq = ROUTES[usize::from(seat.0)][usize::from(to)];
        let mut taken = 0u16;
        for e in 0..4 {
            if e == usize::from(seat.0) || st.playing & (1 << e) == 0 {
                continue;
            }
            for i in 0..4 {
                let twinned = st.twinned[e] & (1 << i) != 0;
                if st.pos[e][i] == position_of(e, sq) && (twins || !twinned) {
                    taken |= 1 << (4 * e + i);
                }
            }
        }
        taken
    }

    #[test]
    fn taken_at_is_the_plain_count() {
        let mut dice = crate::dice::Dice::from_seed("taken");
        for _ in 0..20_000 {
            let mut st = State::start(dice.uniform(16) as u8, Seat(0));
            for e in 0..4 {
                for i in 0..4 {
                    // Often on a few squares, so that pieces meet.
                    st.pos[e][i] = match dice.uniform(3) {
                        0 => dice.uniform(27) as u8,
                        _ => dice.uniform(4) as u8 * 6,
                    };
                }
                st.twinned[e] = dice.uniform(16) as u8;
            }
            let seat = Seat(dice.uniform(4) as u8);
            for to in 0..25 {
                for twins in [false, true] {
                    assert_eq!(
                        taken_at(&st, seat, to, twins),
                        taken_plainly(&st, seat, to, twins),
                        "{st:?} {seat:?} {to} {twins}"
                    );
                }
            }
        }
    }
}
