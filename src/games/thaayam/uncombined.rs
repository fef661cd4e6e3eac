//! The full walk where throws are never combined (`combine-throws = false`, as in
//! `thaayam-bell`): the same first visit of each outcome, in the same order, as
//! [`super::legal`]'s full walk, so the same turns listed in the same order, with a
//! partial turn of a few words and a visit of 16 bytes, and fewer visits: canonically
//! (each set of steps once, [`moves_only`]) where no declaration can be made, and
//! otherwise leaving out the steps that would have come earlier ([`After`]).
//!
//! With one throw a move, a step uses one throw of one value, so the unused throws fit
//! a nibble a value (a series of at most 15 throws of each value; a longer one goes to
//! the full walk) and the values held are kept as bits beside them; the moves from a
//! piece are the values held that fit before the keep, smallest first, as
//! [`super::search::each_step`] gives them. A visit keeps its action packed in a word
//! (kind, throw, square moved from, twins, capture) and the throws used, and is written
//! out as an [`Act`] only when it is on the way to the turn chosen.
//!
//! The tests (`tests_legal.rs`) compare this walk's listing with the full walk's, the
//! pruned walk's and the reference generator's.

use super::board::{pieces_at, taken_at, State, HAND, KEEP, OFF, OPPOSITE};
use super::own::Own;
use super::search::pieces_to_try;
use super::series::Unused;
use super::walk::{land, Act, Enemies, FULL_LIMIT, START};
use crate::games::Seat;

/// A partial turn.
#[derive(Copy, Clone, Debug)]
struct Node {
    own: Own,
    /// The enemy pieces captured so far, bit `4 * seat + piece`.
    captured: u16,
    /// The unused throws, value `v` counted in bits `4 * (v - 1)..4 * v`.
    throws: u32,
    /// The values held at least once, bit `v - 1` for `v`.
    values: u8,
    used: u8,
}

impl Node {
    /// As the full walk's `Node::position`.
    fn position(&self) -> u64 {
        u64::from(u32::from_le_bytes(self.own.pos))
            | u64::from(self.own.twinned) << 32
            | u64::from(self.captured) << 40
    }
    /// The node less one throw of `v`, which it holds.
    #[inline(always)]
    fn spend(mut self, v: u8) -> Node {
        let shift = 4 * u32::from(v - 1);
        self.throws -= 1 << shift;
        let gone = (self.throws >> shift) & 15 == 0;
        self.values &= !(u8::from(gone) << (v - 1));
        self.used += 1;
        self
    }
}

/// The unused throws a nibble a value, when no value is held more than 15 times.
pub(super) fn nibbles(throws: Unused) -> Option<u32> {
    let mut out = 0u32;
    for v in 1..=8u8 {
        let c = throws.count(v);
        if c > 15 {
            return None;
        }
        out |= u32::from(c) << (4 * (v - 1));
    }
    Some(out)
}

/// A visit: the partial turn's position (as the full walk's `Visit::position`), the
/// visit it came from ([`START`] for the start of the turn) and its action and throws
/// used, packed ([`Visit::act`]).
#[derive(Copy, Clone, Debug)]
pub(super) struct Visit {
    pub position: u64,
    pub from: u32,
    /// Bits 0–1 the kind, 2 twins, 3 capture, 4–7 the throw, 8–12 the position moved
    /// from, 16–23 the throws used.
    packed: u32,
}

const ENTER: u32 = 0;
const OFF_KIND: u32 = 1;
const TWIN: u32 = 2;
const MOVE: u32 = 3;

impl Visit {
    pub fn used(&self) -> u16 {
        (self.packed >> 16 & 0xff) as u16
    }
    /// The action that reached the visit (meaningless for the start).
    pub fn act(&self) -> Act {
        let p = self.packed;
        match p & 3 {
            ENTER => Act::Enter,
            OFF_KIND => Act::Off,
            TWIN => Act::Twin,
            _ => Act::Move {
                from: (p >> 8 & 31) as u8,
                twins: p & 4 != 0,
                throws: Unused(Unused::one((p >> 4 & 15) as u8)),
                capture: p & 8 != 0,
            },
        }
    }
}

/// The move action of a throw of `v` from position `from`.
fn move_act(from: u8, v: u8, twins: bool, capture: bool) -> u32 {
    MOVE | u32::from(twins) << 2
        | u32::from(capture) << 3
        | u32::from(v) << 4
        | u32::from(from) << 8
}

/// The walk of the seat to move in `st`, with `throws` unused (see [`nibbles`]): fills
/// `visits` and returns the most throws a visit used, or `None` past [`FULL_LIMIT`]
/// visits (the walk gave up).
///
/// Where no declaration can be made ([`moves_only`]), the walk is canonical: enters
/// first, then moves in piece index order only, then bearing off, so it visits each set
/// of steps once, by its first path (see [`moves_only`]); otherwise it makes the full
/// walk's visits less the steps [`After`] leaves out.
pub(super) fn walk(twins: bool, st: &State, throws: u32, visits: &mut Vec<Visit>) -> Option<u16> {
    let seat = st.to_move;
    let own = Own::of(st, seat);
    let mut values = 0u8;
    for v in 1..=8 {
        if throws >> (4 * (v - 1)) & 15 != 0 {
            values |= 1 << (v - 1);
        }
    }
    let canonical = moves_only(twins, &own, values);
    let mut w = Walk {
        twins,
        seat,
        st,
        // The canonical walk works out captures from the position, for the few moves it
        // makes (`Moves::of`); the full walk from the enemy pieces by square.
        enemies: if canonical {
            Enemies::NONE
        } else {
            Enemies::of(st, seat)
        },
        visits,
        most: 0,
        over: false,
    };
    let start = Node {
        own,
        captured: 0,
        throws,
        values,
        used: 0,
    };
    if canonical {
        w.canonical(start, START, ENTER);
    } else {
        w.dfs(start, START, ENTER, After::ANY);
    }
    (!w.over).then_some(u16::from(w.most))
}

/// Is the turn one of enters, moves and bearing off only? It is unless a declaration can
/// be made: two single pieces on the opposite palace, or able to reach it (by a throw
/// held, or from hand by a 1 and an 8; twins stay twins until the keep).
///
/// **Why the canonical walk lists the same turns.** Such a turn's steps are enters (of
/// the first piece in hand), moves (of a piece, or pair of twins, not moved yet, by one
/// throw) and bearing off (of the first piece in the keep not moved yet, once every piece
/// is in the keep or off: then no piece can move, and none is in hand, so no turn both
/// enters and bears off). The canonical walk makes the enters first, then moves pieces
/// in increasing index only, skipping alike pieces as the full walk does, then bears
/// off. Every path of the full walk has a canonical one that leaves the same outcome with
/// as many throws and comes no later in the full walk's order (which takes a node's
/// enter first, then its bearing off, then its moves by piece index and throw, an alike
/// piece of higher index never):
///
/// - a path with a move before an enter: the enter made first instead enters the same
///   piece and leaves the move possible (should the entered piece be alike to the
///   moving one and of lower index, the full walk moves it instead: alike pieces, the
///   same outcome), and the path so changed comes earlier, an enter before a move;
/// - a path of moves, then bearing off (nothing else can follow the moves, and bearing
///   off does not depend on which of alike pieces moved): the same moves by piece index
///   come earlier (where another order first differs it moves a piece of higher index),
///   and the full walk takes them (a piece skipped there would be alike to an unmoved one
///   of lower index that stands as it did in the other order, and would be skipped
///   there too);
/// - a path starting with an enter: so does its canonical one, by induction after it.
///
/// So the first visit of each outcome in the full walk (the one listed, with the path it
/// is written from) is canonical, and the canonical walk makes its visits in the full
/// walk's order. A partial turn reached again (by alike pieces, or moves landing the
/// same) is visited again, which only adds later visits of outcomes already visited; no
/// table of visits is kept. A piece moves at most once, so the walk is small.
pub(super) fn moves_only(twins: bool, own: &Own, values: u8) -> bool {
    if !twins {
        return true;
    }
    let one = values & 1 != 0;
    let mut declarable = 0;
    for (i, &p) in own.pos.iter().enumerate() {
        if own.is_twinned(i) {
            continue;
        }
        let reaches = match p {
            OPPOSITE => true,
            HAND => one && values & 0x80 != 0,
            _ => p < OPPOSITE && values >> (OPPOSITE - p - 1) & 1 != 0,
        };
        declarable += usize::from(reaches);
    }
    declarable < 2
}

/// Is a move of a single from route position `p` to `to` free: it neither leaves nor
/// reaches the opposite palace, so it changes no declaration (twins' moves always are)?
fn free(p: u8, to: u8) -> bool {
    p != OPPOSITE && to != OPPOSITE
}

/// The steps the full walk takes after a step: those that would not have come earlier,
/// in the walk's order, before it (enter, bear off, declare, then moves by piece index).
///
/// **Why leaving the others out lists the same turns.** After a move of piece `i`,
/// entering and a move of a piece of lower index were possible before the move too (a
/// move changes neither the pieces in hand nor another piece), come before it there,
/// and made first leave the same outcome (a piece alike to the moving one entered first
/// is moved in its place, as in [`moves_only`]); so does a declaration after a free
/// move ([`free`]: it changes no single on the opposite palace, so the declaration
/// pairs the same pieces either way), and entering after a declaration. So a path with
/// such a pair of steps has an earlier path to its outcome, and no first visit of an
/// outcome is left out. Bearing off (possible only once the last piece is in) is never
/// left out. As in the canonical walk, no table of visits is kept: a partial turn
/// reached again is walked again, which only adds later visits of outcomes visited
/// already (the first visit of each is on the first path to it, which the walk takes
/// first). Kept in the table, those are fewer visits but more instructions (3 % more a
/// playout).
#[derive(Copy, Clone, Debug)]
struct After {
    /// Moves of pieces of this index or more.
    first: usize,
    declare: bool,
    enter: bool,
}

impl After {
    /// Every step: at the start, after entering or bearing off.
    const ANY: After = After {
        first: 0,
        declare: true,
        enter: true,
    };
    /// After a declaration.
    const DECLARED: After = After {
        first: 0,
        declare: true,
        enter: false,
    };
    /// After a move of piece `i`, free or not.
    fn moved(i: usize, free: bool) -> After {
        After {
            first: i + 1,
            declare: !free,
            enter: false,
        }
    }
}

/// Are all the pieces in the keep or borne off?
fn all_in(own: &Own) -> bool {
    pieces_at(own.pos, KEEP) | pieces_at(own.pos, OFF) == 15
}

struct Walk<'a> {
    twins: bool,
    seat: Seat,
    st: &'a State,
    enemies: Enemies,
    visits: &'a mut Vec<Visit>,
    most: u8,
    over: bool,
}

impl Walk<'_> {
    /// The `twin` declaration from a node, as [`super::search::declare`] makes it.
    #[inline(always)]
    fn declare(&self, node: &Node) -> Option<Node> {
        if !self.twins {
            return None;
        }
        let (a, b) = node.own.declaration()?;
        let mut next = *node;
        let pair = (1 << a) | (1 << b);
        next.own.twinned |= pair;
        if node.own.moved & pair != 0 {
            next.own.moved |= pair;
        }
        Some(next)
    }

    /// Visits a partial turn reached from visit `from` by action `act` (packed, without
    /// the throws used), and every step from it, as the full walk's `Full::dfs` does —
    /// but only the steps `after` allows: those that would have come earlier before the
    /// last step are left out, since no first visit follows them (see [`After`]).
    fn dfs(&mut self, node: Node, from: u32, act: u32, after: After) {
        if self.visits.len() >= FULL_LIMIT {
            self.over = true;
            return;
        }
        let me = self.visits.len() as u32;
        self.most = self.most.max(node.used);
        let visit = Visit {
            position: node.position(),
            from,
            packed: act | u32::from(node.used) << 16,
        };
        if node.throws == 0 {
            self.visits.push(visit);
            if after.declare {
                if let Some(next) = self.declare(&node) {
                    self.dfs(next, me, TWIN, After::DECLARED);
                }
            }
            return;
        }
        self.visits.push(visit);
        // The steps in `each_step`'s order: enter, bear off, declare, each piece's moves.
        let own = &node.own;
        if node.throws & 15 != 0 {
            if after.enter {
                if let Some(i) = own.pos.iter().position(|&p| p == HAND) {
                    let mut next = node.spend(1);
                    next.own.pos[i] = 0;
                    self.dfs(next, me, ENTER, After::ANY);
                    if self.over {
                        return;
                    }
                }
            }
            if own.pos.iter().all(|&p| p == KEEP || p == OFF) {
                if let Some(i) = (0..4).find(|&i| own.pos[i] == KEEP && !own.is_moved(i)) {
                    let mut next = node.spend(1);
                    next.own.pos[i] = OFF;
                    next.own.moved |= 1 << i;
                    self.dfs(next, me, OFF_KIND, After::ANY);
                    if self.over {
                        return;
                    }
                }
            }
        }
        if after.declare {
            if let Some(next) = self.declare(&node) {
                self.dfs(next, me, TWIN, After::DECLARED);
                if self.over {
                    return;
                }
            }
        }
        for i in pieces_to_try(own).filter(|&i| i >= after.first) {
            let p = own.pos[i];
            let left = KEEP - p;
            if own.is_twinned(i) {
                let Some(j) = own.partner(i) else { continue };
                // Twins move by half the throw: throws of 2 to 2 * left + 1.
                let mut fit = node.values & !1 & mask(2 * left + 1);
                while fit != 0 {
                    let v = fit.trailing_zeros() as u8 + 1;
                    fit &= fit - 1;
                    let to = p + v / 2;
                    let mut next = node.spend(v);
                    next.own.pos[i] = to;
                    next.own.pos[j] = to;
                    next.own.moved |= (1 << i) | (1 << j);
                    if to == KEEP {
                        next.own.twinned &= !((1 << i) | (1 << j));
                    }
                    let capture = land(&self.enemies, self.seat, &mut next.captured, to, true);
                    // Twins are never declared: their move is free.
                    self.step(
                        next,
                        me,
                        move_act(p, v, true, capture),
                        After::moved(i, true),
                    );
                    if self.over {
                        return;
                    }
                }
            } else {
                let mut fit = node.values & mask(left);
                while fit != 0 {
                    let v = fit.trailing_zeros() as u8 + 1;
                    fit &= fit - 1;
                    let to = p + v;
                    let mut next = node.spend(v);
                    next.own.pos[i] = to;
                    next.own.moved |= 1 << i;
                    let capture = land(&self.enemies, self.seat, &mut next.captured, to, false);
                    let then = After::moved(i, free(p, to));
                    self.step(next, me, move_act(p, v, false, capture), then);
                    if self.over {
                        return;
                    }
                }
            }
        }
    }

    /// [`Walk::dfs`] for a step's partial turn, visited in place when it used every
    /// throw and no declaration can follow (the commonest visit).
    #[inline(always)]
    fn step(&mut self, next: Node, me: u32, act: u32, after: After) {
        if next.throws == 0 && (!after.declare || self.declare(&next).is_none()) {
            self.leaf(&next, me, act);
        } else {
            self.dfs(next, me, act, after);
        }
    }

    /// Visits a partial turn with no step from it.
    #[inline(always)]
    fn leaf(&mut self, node: &Node, from: u32, act: u32) {
        if self.visits.len() >= FULL_LIMIT {
            self.over = true;
            return;
        }
        self.most = self.most.max(node.used);
        self.visits.push(Visit {
            position: node.position(),
            from,
            packed: act | u32::from(node.used) << 16,
        });
    }

    /// The canonical walk ([`moves_only`]) from a partial turn of enters only: visits it,
    /// then walks on from entering one more piece, from bearing off (when all the pieces
    /// are in: then there is nothing else), or from each move.
    fn canonical(&mut self, node: Node, from: u32, act: u32) {
        if self.visits.len() >= FULL_LIMIT {
            self.over = true;
            return;
        }
        let me = self.visits.len() as u32;
        self.leaf(&node, from, act);
        if node.throws == 0 {
            return;
        }
        if node.throws & 15 != 0 {
            if let Some(i) = node.own.pos.iter().position(|&p| p == HAND) {
                let mut next = node.spend(1);
                next.own.pos[i] = 0;
                self.canonical(next, me, ENTER);
                if self.over {
                    return;
                }
            }
        }
        if all_in(&node.own) {
            self.offs(node, me);
            return;
        }
        let moves = Moves::of(self.st, &node.own, node.values);
        self.moves(&moves, node, me, 0);
    }

    /// The canonical walk from a visited partial turn with every piece in the keep or off:
    /// bearing off the first unmoved piece in the keep with a 1, as long as there are
    /// both (each a visit, from which nothing else can follow).
    fn offs(&mut self, node: Node, me: u32) {
        let (mut node, mut from) = (node, me);
        while node.throws & 15 != 0 {
            let Some(i) = (0..4).find(|&i| node.own.pos[i] == KEEP && !node.own.is_moved(i)) else {
                return;
            };
            let mut next = node.spend(1);
            next.own.pos[i] = OFF;
            next.own.moved |= 1 << i;
            if self.visits.len() >= FULL_LIMIT {
                self.over = true;
                return;
            }
            let at = self.visits.len() as u32;
            self.leaf(&next, from, OFF_KIND);
            (node, from) = (next, at);
        }
    }

    /// The canonical walk's moves from a partial turn (visited) of pieces `first` on, as
    /// [`Walk::dfs`] makes them in that order: a piece not moved, not alike to an unmoved
    /// one of lower index, by each throw held that fits, smallest first.
    fn moves(&mut self, m: &Moves, node: Node, me: u32, first: usize) {
        let moved = node.own.moved;
        // The pieces to try: from `first` on, not moved, with a throw that fits, and no
        // unmoved alike piece of lower index (worked out without a branch a piece).
        let mut tried = 0u8;
        for i in 0..4 {
            let can = m.fit[i] & node.values != 0 && m.lower[i] & !moved == 0;
            tried |= u8::from(can) << i;
        }
        tried &= !moved & (0xf0 >> (4 - first)) & 15;
        while tried != 0 {
            let i = tried.trailing_zeros() as usize;
            tried &= tried - 1;
            let bit = 1u8 << i;
            let fit = m.fit[i] & node.values;
            // Twins move with the first unmoved piece alike of higher index; `bytes` are
            // the bytes of the pieces that move.
            let (pair, bytes) = if m.twins & bit != 0 {
                let others = m.higher[i] & !moved;
                if others == 0 {
                    continue;
                }
                let j = others.trailing_zeros() as usize;
                (bit | 1 << j, 0xffu32 << (8 * i) | 0xffu32 << (8 * j))
            } else {
                (bit, 0xffu32 << (8 * i))
            };
            let p = node.own.pos[i];
            let mut fit = fit;
            while fit != 0 {
                let k = fit.trailing_zeros() as usize;
                fit &= fit - 1;
                let v = k as u8 + 1;
                let to = m.to[i][k];
                let mut next = node.spend(v);
                let pos = u32::from_le_bytes(next.own.pos) & !bytes
                    | bytes & (u32::from(to) * 0x0101_0101);
                next.own.pos = pos.to_le_bytes();
                next.own.moved |= pair;
                if to == KEEP {
                    next.own.twinned &= !pair;
                }
                let takes = m.takes[i][k];
                let capture = takes & !node.captured != 0;
                next.captured |= takes;
                let act = move_act(p, v, m.twins & bit != 0, capture);
                if next.throws == 0 {
                    self.leaf(&next, me, act);
                } else {
                    if self.visits.len() >= FULL_LIMIT {
                        self.over = true;
                        return;
                    }
                    let at = self.visits.len() as u32;
                    self.leaf(&next, me, act);
                    if all_in(&next.own) {
                        self.offs(next, at);
                    } else {
                        self.moves(m, next, at, i + 1);
                    }
                }
                if self.over {
                    return;
                }
            }
        }
    }
}

/// What the canonical walk's moves from a partial turn of enters only need, per piece:
/// the throws that fit, where each lands and what it takes, and which pieces are alike.
struct Moves {
    /// The throws held that fit before the keep (bit `v - 1` for `v`); none for a piece
    /// off the route (in hand, in the keep, borne off).
    fit: [u8; 4],
    /// Where a throw of `v` lands, at `[piece][v - 1]`.
    to: [[u8; 8]; 4],
    /// The enemy pieces a throw of `v` takes, at `[piece][v - 1]`.
    takes: [[u16; 8]; 4],
    /// The pieces alike to each (same square, both single or both twinned) of lower and
    /// of higher index.
    lower: [u8; 4],
    higher: [u8; 4],
    /// The twinned pieces.
    twins: u8,
}

impl Moves {
    /// The moves of `own`'s pieces by the throws `values` held (bit `v - 1` for `v`):
    /// throws that fit but are not held are left out.
    fn of(st: &State, own: &Own, values: u8) -> Moves {
        let seat = st.to_move;
        let mut m = Moves {
            fit: [0; 4],
            to: [[0; 8]; 4],
            takes: [[0; 8]; 4],
            lower: [0; 4],
            higher: [0; 4],
            twins: own.twinned & 15,
        };
        for i in 0..4 {
            let p = own.pos[i];
            if p >= KEEP {
                continue;
            }
            let twin = own.is_twinned(i);
            let left = KEEP - p;
            m.fit[i] = values
                & if twin {
                    !1 & mask(2 * left + 1)
                } else {
                    mask(left)
                };
            let mut fit = m.fit[i];
            while fit != 0 {
                let k = fit.trailing_zeros() as u8;
                fit &= fit - 1;
                let v = k + 1;
                let to = if twin { p + v / 2 } else { p + v };
                m.to[i][usize::from(k)] = to;
                m.takes[i][usize::from(k)] = taken_at(st, seat, to, twin);
            }
            let flags = if twin { own.twinned } else { !own.twinned };
            let alike = pieces_at(own.pos, p) & flags & !(1 << i);
            m.lower[i] = alike & ((1 << i) - 1);
            m.higher[i] = alike & !((1 << i) - 1);
        }
        m
    }
}

/// The values `1..=most` (at most 8) as bits, bit `v - 1` for `v`.
#[inline(always)]
fn mask(most: u8) -> u8 {
    (((1u16 << most.min(8)) - 1) & 0xff) as u8
}
