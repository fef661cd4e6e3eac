//! What the walks that list legal turns share (the full walk and the pruned walk of
//! `legal.rs`, the uncombined walk of `uncombined.rs`): a partial turn ([`Node`]), an
//! action ([`Act`]), a step taken ([`advance`]) and what it captures ([`land`],
//! [`Enemies`]), and the walks' limits.

use super::board::{square, State, KEEP, OPPOSITE, ROUTES, SAFE_POSITIONS};
use super::own::Own;
use super::search::{Step, StepKind};
use super::series::Unused;
use super::table::Key;
use crate::games::Seat;
use crate::notation::thaayam::Action;
use smallvec::SmallVec;

/// The most turns [`legal_turns`](super::legal::legal_turns) lists, and the most partial
/// turns it explores.
pub const MAX_LISTED: usize = 500;
pub const MAX_NODES: usize = 50_000;

/// A partial turn.
#[derive(Copy, Clone, Debug)]
pub(super) struct Node {
    pub(super) own: Own,
    /// The enemy pieces captured so far, bit `4 * seat + piece`.
    pub(super) captured: u16,
    pub(super) throws: Unused,
    pub(super) used: u16,
}

impl Node {
    /// Everything that tells partial turns apart.
    pub(super) fn key(&self) -> Key {
        Key::new(
            self.own.packed() | u64::from(self.captured) << 40,
            self.throws.0,
        )
    }
    /// The position a finished turn leaves, and the pieces it captured: the seat's
    /// pieces as a multiset ([`Own::placement`]), so that two orders of moves that leave
    /// the same position by moving different ones of alike pieces are one outcome. The
    /// captured pieces need no such care: enemy pieces do not move during the turn and a
    /// capture takes every piece it can on its square, so the same squares captured are
    /// the same pieces.
    pub(super) fn outcome(&self) -> u64 {
        outcome(self.position())
    }
    /// What [`Node::outcome`] is worked out from, as it stands (which piece is where):
    /// cheap to keep for every visit, of which few are listed.
    pub(super) fn position(&self) -> u64 {
        u64::from(u32::from_le_bytes(self.own.pos))
            | u64::from(self.own.twinned) << 32
            | u64::from(self.captured) << 40
    }
}

/// The outcome ([`Node::outcome`]) of a partial turn's [`Node::position`].
pub(super) fn outcome(position: u64) -> u64 {
    let own = Own {
        pos: (position as u32).to_le_bytes(),
        twinned: (position >> 32) as u8 & 15,
        moved: 0,
    };
    u64::from(own.placement()) | position >> 40 << 40
}

/// One action of a partial turn.
#[derive(Copy, Clone, Debug)]
pub(super) enum Act {
    Enter,
    Off,
    Twin,
    Move {
        from: u8,
        twins: bool,
        throws: Unused,
        capture: bool,
    },
}

impl Act {
    /// The action as written (a move's throws largest first).
    pub(super) fn action(&self, seat: Seat) -> Action {
        match *self {
            Act::Enter => Action::Enter,
            Act::Off => Action::Off,
            Act::Twin => Action::Twin(square(seat, OPPOSITE)),
            Act::Move {
                from,
                twins,
                throws,
                capture,
            } => {
                let one = throws.0.trailing_zeros();
                let list = if throws.0 == 1 << one && one % 16 == 0 {
                    // One throw, the usual move (always without combine-throws).
                    SmallVec::from_slice(&[one as u8 / 16 + 1])
                } else {
                    // Largest first, as a move writes them.
                    let mut list = SmallVec::new();
                    let mut values = throws.values();
                    while values != 0 {
                        let v = 8 - values.leading_zeros() as u8;
                        values &= !(1 << (v - 1));
                        for _ in 0..throws.count(v) {
                            list.push(v);
                        }
                    }
                    list
                };
                Action::Move {
                    from: square(seat, from),
                    twins,
                    throws: list,
                    capture,
                }
            }
        }
    }
}

/// The most visits the full walk makes before it leaves the turn to the pruned walk.
/// Below [`MAX_NODES`], so that a full walk that ends never met the pruned walk's limit
/// (which visits no partial turn the full walk does not, and each once).
pub(super) const FULL_LIMIT: usize = 4096;

/// The `from` of the start of the turn.
pub(super) const START: u32 = u32::MAX;

/// The partial turn a step leads to, and the step as an action.
#[inline(always)]
pub(super) fn advance(enemies: &Enemies, seat: Seat, node: &Node, step: Step) -> (Node, Act) {
    let mut next = Node {
        own: step.own,
        captured: node.captured,
        throws: step.throws,
        used: node.used + u16::from(step.used),
    };
    let act = match step.kind {
        StepKind::Enter => Act::Enter,
        StepKind::Off => Act::Off,
        StepKind::Twin => Act::Twin,
        StepKind::Move { piece, twins } => {
            let piece = piece as usize;
            Act::Move {
                from: node.own.pos[piece],
                twins,
                throws: node.throws.minus(step.throws),
                capture: land(
                    enemies,
                    seat,
                    &mut next.captured,
                    step.own.pos[piece],
                    twins,
                ),
            }
        }
    };
    (next, act)
}

/// A move lands on route position `to`: the enemy pieces there go home (the singles
/// only when a single lands), except on a marked square; they join `captured` (bit `4 *
/// seat + piece`). Returns whether it took any.
#[inline(always)]
pub(super) fn land(enemies: &Enemies, seat: Seat, captured: &mut u16, to: u8, twins: bool) -> bool {
    if SAFE_POSITIONS & (1 << to) != 0 {
        return false;
    }
    let sq = ROUTES[seat.0 as usize][to as usize] as usize;
    let there = enemies.taken_by(sq, twins);
    let took = there & !*captured;
    *captured |= took;
    took != 0
}

/// The square of each seat's route position, and 25 for a piece in hand or borne off.
const ON_SQUARE: [[u8; 27]; 4] = {
    let mut out = [[25u8; 27]; 4];
    let mut s = 0;
    while s < 4 {
        let mut p = 0;
        while p <= KEEP as usize {
            out[s][p] = ROUTES[s][p];
            p += 1;
        }
        s += 1;
    }
    out
};

/// The pieces of the other playing seats on each square at the start of the turn: bit
/// `4 * seat + piece` for a single, the same bit 16 higher for one of twins (and at 25,
/// never read, those off the board).
pub(super) struct Enemies([u32; 26]);

impl Enemies {
    /// No enemy piece anywhere.
    pub(super) const NONE: Enemies = Enemies([0; 26]);

    pub(super) fn of(st: &State, seat: Seat) -> Enemies {
        // Square 25 collects the pieces off the board (in hand, borne off), unread.
        let mut on = [0u32; 26];
        let mut others = st.playing & !(1 << seat.0) & 15;
        while others != 0 {
            let k = others.trailing_zeros() as usize;
            others &= others - 1;
            for i in 0..4 {
                let sq = ON_SQUARE[k][usize::from(st.pos[k][i])];
                let twin = usize::from(st.twinned[k] >> i & 1);
                on[usize::from(sq)] |= 1 << (4 * k + i + 16 * twin);
            }
        }
        Enemies(on)
    }

    /// The pieces a single (or twins) landing on square `sq` would take.
    fn taken_by(&self, sq: usize, twins: bool) -> u16 {
        let bits = self.0[sq];
        if twins {
            (bits | bits >> 16) as u16
        } else {
            bits as u16
        }
    }
}
