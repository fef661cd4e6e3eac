//! The rules proper: the manual start, legal-turn generation, judging and applying a turn,
//! the turn order and the end checks.
//!
//! Groups are bit masks over tile indices; nothing here allocates except by pushing
//! into the caller's `out`.

use super::board::{Adjacency, Bits, Ending, Phase, Reason, State, Tiles, MAX_TILES};
use super::settings::{Keep, Settings, Touch, Win};
use super::violation::{ContractFault, Mover, Violation};
use crate::games::{Seat, SeatSet};
use crate::notation::halves::{Cell, Turn};

/// The seat to move as rulings name it.
pub(crate) fn mover(s: &Settings, st: &State) -> Mover {
    Mover {
        seat: st.to_move,
        // With two seats after a swap, the player of the other colour's tag plays it.
        swapped_with: if st.swapped && s.seats.len() == 2 {
            s.seats.iter().copied().find(|&x| x != st.to_move)
        } else {
            None
        },
    }
}

/// The seats still playing: not resigned.
pub(crate) fn playing(s: &Settings, st: &State) -> SeatSet {
    SeatSet(s.seats.set().0 & !st.resigned.0)
}

/// The seats (of all three) for which `f` holds, as a set.
#[inline]
fn seats_where(f: impl Fn(usize) -> bool) -> u8 {
    u8::from(f(0)) | u8::from(f(1)) << 1 | u8::from(f(2)) << 2
}

/// Does `seat` take turns in the current phase? Resigned seats never do; in the waxing
/// a seat with an empty hand is skipped; in the contract only white's player chooses; in
/// the waning a seat with no tiles (out, with `win = last-standing`) is skipped.
pub(crate) fn takes_turns(s: &Settings, st: &State, seat: Seat) -> bool {
    turn_takers(s, st).contains(seat)
}

/// The seats that take turns in the current phase ([`takes_turns`]), as a set.
#[inline]
fn turn_takers(s: &Settings, st: &State) -> SeatSet {
    let m = match st.phase {
        Phase::Waxing => seats_where(|i| st.hand[i] > 0),
        Phase::Contract => 1 << s.first().0,
        Phase::Waning => seats_where(|i| st.tiles.count(Seat(i as u8)) > 0),
    };
    SeatSet(m & s.seats.set().0 & !st.resigned.0)
}

/// The first seat from `from` (itself included when `inclusive`) in turn order that takes
/// turns, `from` being one of the seats. The turn order is the seats' order (white,
/// black, red), so the next seat is the lowest above `from` that takes turns, or else
/// the lowest (`from` itself last, when it alone does).
#[inline]
fn next_seat(s: &Settings, st: &State, from: Seat, inclusive: bool) -> Option<Seat> {
    let takers = u32::from(turn_takers(s, st).0);
    let above = takers & (u32::MAX << (from.0 + u8::from(!inclusive)));
    let pick = if above != 0 { above } else { takers };
    (pick != 0).then(|| Seat(pick.trailing_zeros() as u8))
}

/// How many seats take turns in the current phase.
pub(crate) fn rotation(s: &Settings, st: &State) -> u32 {
    turn_takers(s, st).len() as u32
}

/// The seats, not resigned, with no tiles left and with tiles left (on the table or in
/// hand).
#[inline]
fn out_and_in(s: &Settings, st: &State) -> (SeatSet, SeatSet) {
    let out = seats_where(|i| st.left(Seat(i as u8)) == 0);
    let live = s.seats.set().0 & !st.resigned.0;
    (SeatSet(out & live), SeatSet(live & !out))
}

/// The win checks after a move (or of a starting position). `had_tiles` is the set of
/// seats that had tiles before the move (read only under `last-standing`).
pub(crate) fn end_check(s: &Settings, st: &State, had_tiles: SeatSet) -> Option<Ending> {
    let (empty, alive) = out_and_in(s, st);
    match s.win {
        Win::FirstOut => (!empty.is_empty()).then_some(Ending {
            winners: empty,
            reason: Reason::FirstOut,
        }),
        Win::LastStanding => match alive.len() {
            1 => Some(Ending {
                winners: alive,
                reason: Reason::LastStanding,
            }),
            // Every seat emptied at once: those emptied by this move were the last.
            0 => {
                let last = SeatSet(empty.0 & had_tiles.0);
                Some(Ending {
                    winners: if last.is_empty() { empty } else { last },
                    reason: Reason::LastStanding,
                })
            }
            _ => None,
        },
    }
}

/// The seats with tiles left.
pub(crate) fn with_tiles(s: &Settings, st: &State) -> SeatSet {
    SeatSet(seats_where(|i| st.left(Seat(i as u8)) > 0) & s.seats.set().0)
}

/// After a move by `mover`: the end checks, then the phase and the seat to move.
#[inline(always)]
pub(crate) fn advance(s: &Settings, st: &mut State, mover: Seat, had_tiles: SeatSet) {
    if let Some(e) = end_check(s, st, had_tiles) {
        st.end = Some(e);
        return;
    }
    if st.phase == Phase::Waxing && rotation(s, st) == 0 {
        end_waxing(s, st);
        return;
    }
    match next_seat(s, st, mover, false) {
        Some(seat) => st.to_move = seat,
        None => {
            // Nobody can take a turn (cannot happen with a seat still playing).
            st.end = Some(Ending {
                winners: SeatSet::EMPTY,
                reason: Reason::DeadPosition,
            });
        }
    }
}

/// Every tile is placed: the contract, or the waning with white first.
fn end_waxing(s: &Settings, st: &mut State) {
    st.passes = 0;
    if s.has_contract() && st.resigned.is_empty() {
        st.phase = Phase::Contract;
        st.to_move = s.first();
    } else {
        st.phase = Phase::Waning;
        match next_seat(s, st, s.first(), true) {
            Some(seat) => st.to_move = seat,
            None => {
                st.end = Some(Ending {
                    winners: SeatSet::EMPTY,
                    reason: Reason::DeadPosition,
                })
            }
        }
    }
}

/// A starting position made playable: a seat that takes no turns is not to move, and a
/// decided position is over.
pub(crate) fn settle_start(s: &Settings, st: &mut State) {
    if st.end.is_some() {
        return;
    }
    if let Some(e) = end_check(s, st, with_tiles(s, st)) {
        st.end = Some(e);
        return;
    }
    if st.phase == Phase::Waxing && rotation(s, st) == 0 {
        end_waxing(s, st);
        return;
    }
    if !takes_turns(s, st, st.to_move) {
        match next_seat(s, st, st.to_move, true) {
            Some(seat) => st.to_move = seat,
            None => {
                st.end = Some(Ending {
                    winners: SeatSet::EMPTY,
                    reason: Reason::DeadPosition,
                })
            }
        }
    }
}

/// The manual start: white on (0,0), black on (0,1), red on (1,0); white to place.
pub(crate) fn manual_start(s: &Settings) -> State {
    let mut st = State::empty();
    for &seat in &s.seats {
        let cell = match seat.0 {
            0 => Cell { q: 0, r: 0 },
            1 => Cell { q: 0, r: 1 },
            _ => Cell { q: 1, r: 0 },
        };
        st.tiles.insert(cell, seat);
        st.hand[usize::from(seat.0)] = s.tiles_each - 1;
    }
    st.to_move = s.first();
    settle_start(s, &mut st);
    st
}

// ---------------------------------------------------------------------------------
// Placing

/// Judges a placement by the seat to move, in the spec's order: `place`, `must-touch`,
/// `touch-enemy`.
pub(crate) fn judge_place(s: &Settings, st: &State, cell: Cell) -> Result<(), Violation> {
    let mover = mover(s, st);
    let seat = st.to_move;
    if st.phase != Phase::Waxing {
        return Err(Violation::PlaceOutOfPhase {
            mover,
            phase: st.phase,
        });
    }
    if st.hand[usize::from(seat.0)] == 0 {
        return Err(Violation::NoTileInHand { mover });
    }
    if let Some(by) = st.tiles.at(cell) {
        return Err(Violation::CellTaken { mover, cell, by });
    }
    place_rules(s, &st.tiles, seat, cell, mover)
}

/// `must-touch` and `touch-enemy` for a tile of `seat` on the empty `cell`.
fn place_rules(
    s: &Settings,
    tiles: &Tiles,
    seat: Seat,
    cell: Cell,
    mover: Mover,
) -> Result<(), Violation> {
    let touched = tiles.neighbours_of(cell);
    let n = touched.count_ones();
    if n < u32::from(s.must_touch) {
        return Err(Violation::MustTouch {
            mover,
            cell,
            touched: n,
            need: s.must_touch,
        });
    }
    if s.touch == Touch::Enemy && touched & !tiles.mask_of(seat) == 0 {
        return Err(Violation::TouchEnemy { mover, cell });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// Removing

/// What a removal does: the groups it leaves and which of them the rule lets survive.
pub(crate) struct Split {
    /// The groups left, in order of their lowest tile.
    pub groups: [u64; 6],
    pub count: usize,
    /// Bit `g` set: group `g` may survive.
    pub allowed: u8,
}

impl Split {
    /// Does the mover have a choice to write?
    pub fn choice_needed(&self) -> bool {
        self.allowed.count_ones() > 1
    }
    /// The group the rule keeps where the mover has no choice: the first that may
    /// survive.
    pub fn kept(&self) -> Option<usize> {
        (0..self.count).find(|&g| self.allowed & (1 << g) != 0)
    }
    /// The group index holding tile `j`.
    pub fn group_of(&self, j: usize) -> Option<usize> {
        (0..self.count).find(|&g| self.groups[g] & (1u64 << j) != 0)
    }
    /// Size and mover's tiles (`own`) of the groups that may survive (of the last, for
    /// a ruling).
    pub fn best(&self, own: u64) -> (u32, u32) {
        (0..self.count)
            .rev()
            .find(|&g| self.allowed & (1 << g) != 0)
            .map(|g| {
                (
                    self.groups[g].count_ones(),
                    (self.groups[g] & own).count_ones(),
                )
            })
            .unwrap_or((0, 0))
    }
}

/// Does removing a tile whose neighbours holding tiles are `ring` ([`Tiles::ring`])
/// leave one group? A position in play is one group (a setup must be, a placement
/// touches a tile, a removal keeps one group), so every tile left is joined to one of
/// those neighbours; where they go round the tile in one unbroken run, or all the way
/// round, they are joined to each other. Elsewhere the groups are searched.
#[inline]
pub(super) fn leaves_one_group(ring: u8) -> bool {
    ONE_GROUP >> (ring & 0x3F) & 1 != 0
}

/// Where in a ring (six bits, as [`Tiles::ring`] gives them) a run of neighbours starts:
/// at each neighbour with none before it, going round.
#[inline]
const fn run_starts(ring: u8) -> u8 {
    let before = ((ring << 1) | (ring >> 5)) & 0x3F;
    ring & !before
}

/// Bit `ring` set: [`leaves_one_group`] says yes for `ring` (one run, or all six).
const ONE_GROUP: u64 = {
    let mut table = 0u64;
    let mut ring = 0u8;
    while ring < 64 {
        if ring == 0x3F || run_starts(ring).count_ones() == 1 {
            table |= 1 << ring;
        }
        ring += 1;
    }
    table
};

/// How many neighbours a ring holds.
#[inline]
fn ring_len(ring: u8) -> u8 {
    // Two bits a cell: the counts of each pair of neighbours, then of the three pairs.
    let pairs = (ring & 0x15) + ((ring >> 1) & 0x15);
    (pairs & 3) + ((pairs >> 2) & 3) + (pairs >> 4)
}

/// The free edges of a tile on `cell` with `tiles` neighbouring tiles: its empty
/// neighbouring cells.
#[inline]
fn free_edges(cell: Cell, tiles: u32) -> u32 {
    let inside = Cell::LIMIT - 1;
    if cell.q.abs() <= inside && cell.r.abs() <= inside {
        6 - tiles
    } else {
        cell.neighbours().count() as u32 - tiles
    }
}

/// The split made by removing tile `i` of `seat`.
pub(crate) fn split(s: &Settings, tiles: &Tiles, adj: &Adjacency, i: usize, seat: Seat) -> Split {
    let within = tiles.all() & !(1u64 << i);
    let mut groups = [0u64; 6];
    let count = Tiles::pieces(adj, within, adj[i], &mut groups);
    keep_rule(s, tiles, seat, groups, count)
}

/// [`split`] of a tile whose neighbours are `ring`, which does not leave one group
/// ([`leaves_one_group`]). Where they form two runs, the pieces are searched from the
/// runs ([`Tiles::two_pieces`]); elsewhere from every tile's neighbours.
pub(crate) fn split_ring(s: &Settings, tiles: &Tiles, i: usize, ring: u8, seat: Seat) -> Split {
    let starts = run_starts(ring & 0x3F);
    if starts.count_ones() != 2 {
        return split(s, tiles, &tiles.adjacency(), i, seat);
    }
    let a = tiles.neighbour_in(i, starts.trailing_zeros());
    let b = tiles.neighbour_in(i, 7 - starts.leading_zeros());
    let within = tiles.all() & !(1u64 << i);
    let mut groups = [0u64; 6];
    let count = match tiles.two_pieces(i, a, b) {
        None => {
            groups[0] = within;
            1
        }
        Some(piece) => {
            let other = within & !piece;
            // In order of the lowest tile.
            (groups[0], groups[1]) = if piece.trailing_zeros() < other.trailing_zeros() {
                (piece, other)
            } else {
                (other, piece)
            };
            2
        }
    };
    keep_rule(s, tiles, seat, groups, count)
}

/// Which of the `count` groups left the keep rule lets survive.
fn keep_rule(s: &Settings, tiles: &Tiles, seat: Seat, groups: [u64; 6], count: usize) -> Split {
    let own = tiles.mask_of(seat);
    let mut scores = [0u32; 6];
    for g in 0..count {
        scores[g] = match s.keep {
            Keep::Largest => groups[g].count_ones(),
            Keep::MostFriendly => (groups[g] & own).count_ones(),
            Keep::Chosen => 0,
        };
    }
    let best = scores[..count].iter().copied().max().unwrap_or(0);
    let mut allowed = 0u8;
    for (g, &score) in scores[..count].iter().enumerate() {
        if score == best {
            allowed |= 1 << g;
        }
    }
    Split {
        groups,
        count,
        allowed,
    }
}

/// Judges a removal by the seat to move, in the spec's order: `remove-own`,
/// `free-edges`, `keep-choice`, `split-keep`. On success, the tiles to take off (the
/// removed tile and every group that does not survive).
pub(crate) fn judge_remove(
    s: &Settings,
    st: &State,
    cell: Cell,
    keep: Option<Cell>,
) -> Result<u64, Violation> {
    let seat = st.to_move;
    if st.phase != Phase::Waning {
        return Err(Violation::RemoveOutOfPhase {
            mover: mover(s, st),
            phase: st.phase,
        });
    }
    let tiles = &st.tiles;
    let i = match tiles.find(cell) {
        Some(i) if tiles.colour(i) == seat => i,
        Some(i) => {
            return Err(Violation::RemoveNotOwn {
                mover: mover(s, st),
                cell,
                holder: Some(tiles.colour(i)),
            })
        }
        None => {
            return Err(Violation::RemoveNotOwn {
                mover: mover(s, st),
                cell,
                holder: None,
            })
        }
    };
    let ring = tiles.ring(i);
    if s.free_edges > 0 {
        let free = free_edges(cell, u32::from(ring_len(ring)));
        if free < u32::from(s.free_edges) {
            return Err(Violation::FreeEdges {
                mover: mover(s, st),
                cell,
                free,
                need: s.free_edges,
            });
        }
    }
    // Most removals leave one group: known from the tile's neighbours alone.
    if leaves_one_group(ring) {
        debug_assert!(tiles.connected(), "a position in play is one group");
        if let Some(k) = keep.filter(|&k| tiles.find(k).is_none_or(|j| j == i)) {
            return Err(Violation::KeepNamesNoGroup {
                mover: mover(s, st),
                cell,
                keep: k,
            });
        }
        return Ok(1u64 << i);
    }
    let sp = split_ring(s, tiles, i, ring, seat);
    let survivor = match keep {
        Some(k) => {
            let g = tiles
                .find(k)
                .filter(|&j| j != i)
                .and_then(|j| sp.group_of(j))
                .ok_or(Violation::KeepNamesNoGroup {
                    mover: mover(s, st),
                    cell,
                    keep: k,
                })?;
            if sp.allowed & (1 << g) == 0 {
                let own = tiles.mask_of(seat);
                let (best_size, best_friendly) = sp.best(own);
                return Err(Violation::SplitKeep {
                    mover: mover(s, st),
                    cell,
                    keep: k,
                    rule: s.keep,
                    size: sp.groups[g].count_ones(),
                    friendly: (sp.groups[g] & own).count_ones(),
                    best_size,
                    best_friendly,
                });
            }
            sp.groups[g]
        }
        None if sp.choice_needed() => {
            return Err(Violation::KeepMissing {
                mover: mover(s, st),
                cell,
                options: sp.allowed.count_ones() as u8,
            })
        }
        None => sp.kept().map_or(0, |g| sp.groups[g]),
    };
    Ok(tiles.all() & !survivor)
}

// ---------------------------------------------------------------------------------
// Legal turns

/// Appends every legal placement or removal of the seat to move (not `pass`, not the
/// contract). With `first_only` it stops after the first.
fn moves(s: &Settings, st: &State, out: &mut Vec<Turn>, first_only: bool) {
    let seat = st.to_move;
    let mover = mover(s, st);
    match st.phase {
        Phase::Waxing => {
            if st.hand[usize::from(seat.0)] == 0 {
                return;
            }
            let mut buf = [Cell { q: 0, r: 0 }; MAX_TILES * 6];
            let m = st.tiles.frontier(&mut buf);
            for &cell in &buf[..m] {
                if place_rules(s, &st.tiles, seat, cell, mover).is_ok() {
                    out.push(Turn::Place(cell));
                    if first_only {
                        return;
                    }
                }
            }
        }
        Phase::Waning => {
            let tiles = &st.tiles;
            let adj = tiles.adjacency();
            // Only a cut tile leaves two groups or more, and so maybe a choice to write.
            let cut = Tiles::cut_tiles(&adj, tiles.all());
            for i in Bits(tiles.mask_of(seat)) {
                if s.free_edges > 0
                    && free_edges(tiles.cell(i), adj[i].count_ones()) < u32::from(s.free_edges)
                {
                    continue;
                }
                let cell = tiles.cell(i);
                let sp = (cut & (1u64 << i) != 0).then(|| split(s, tiles, &adj, i, seat));
                match sp {
                    Some(sp) if sp.choice_needed() => {
                        for g in 0..sp.count {
                            if sp.allowed & (1 << g) != 0 {
                                let lowest = sp.groups[g].trailing_zeros() as usize;
                                out.push(Turn::Remove {
                                    cell,
                                    keep: Some(tiles.cell(lowest)),
                                });
                            }
                        }
                    }
                    _ => out.push(Turn::Remove { cell, keep: None }),
                }
                if first_only {
                    return;
                }
            }
        }
        Phase::Contract => {}
    }
}

/// Every legal turn of the seat to move.
pub(crate) fn legal_turns(s: &Settings, st: &State, out: &mut Vec<Turn>) {
    if st.end.is_some() {
        return;
    }
    if st.phase == Phase::Contract {
        out.push(Turn::Keep);
        out.push(Turn::Swap);
        return;
    }
    let before = out.len();
    moves(s, st, out, false);
    if out.len() == before {
        out.push(Turn::Pass);
    }
}

/// Has the seat to move a placement or removal?
pub(crate) fn has_move(s: &Settings, st: &State) -> bool {
    let mut v = Vec::with_capacity(1);
    moves(s, st, &mut v, true);
    !v.is_empty()
}

// ---------------------------------------------------------------------------------
// Playing

/// Judges a turn and, when legal, applies it. On a violation `st` is unchanged.
pub(crate) fn play(s: &Settings, st: &mut State, turn: &Turn) -> Result<(), Violation> {
    if st.end.is_some() {
        return Err(Violation::GameOver);
    }
    let contract_turn = matches!(turn, Turn::Keep | Turn::Swap);
    if st.phase == Phase::Contract && !contract_turn {
        return Err(Violation::Contract {
            mover: mover(s, st),
            fault: ContractFault::Due,
        });
    }
    let off = match *turn {
        Turn::Keep | Turn::Swap => {
            if st.phase != Phase::Contract {
                let fault = if s.seats.len() > 2 {
                    ContractFault::NoContract { three_seats: true }
                } else if !s.contract {
                    ContractFault::NoContract { three_seats: false }
                } else {
                    ContractFault::OutOfPlace { phase: st.phase }
                };
                return Err(Violation::Contract {
                    mover: mover(s, st),
                    fault,
                });
            }
            0
        }
        Turn::Place(cell) => {
            judge_place(s, st, cell)?;
            0
        }
        Turn::Remove { cell, keep } => judge_remove(s, st, cell, keep)?,
        Turn::Pass => {
            if has_move(s, st) {
                return Err(Violation::Pass {
                    mover: mover(s, st),
                });
            }
            0
        }
    };
    apply(s, st, turn, off);
    Ok(())
}

/// Applies a turn that `legal_turns` listed, without judging it again: the same
/// position [`play`] makes of it.
pub(crate) fn apply_legal(s: &Settings, st: &mut State, turn: &Turn) {
    debug_assert!(st.end.is_none(), "a turn listed after the end: {turn}");
    let off = match *turn {
        Turn::Remove { cell, keep } => removed_tiles(s, &st.tiles, cell, keep, st.to_move),
        _ => 0,
    };
    apply(s, st, turn, off);
}

/// The tiles a listed removal of `cell` by `seat` takes off: the tile itself and every
/// group that does not survive (the one holding `keep`, else the one the rule keeps).
fn removed_tiles(s: &Settings, tiles: &Tiles, cell: Cell, keep: Option<Cell>, seat: Seat) -> u64 {
    let Some(i) = tiles.find(cell) else {
        unreachable!("a listed removal of {cell} names no tile");
    };
    let ring = tiles.ring(i);
    if leaves_one_group(ring) {
        return 1u64 << i;
    }
    let sp = split_ring(s, tiles, i, ring, seat);
    let kept = match keep.and_then(|k| tiles.find(k)) {
        Some(j) => sp.group_of(j),
        None => sp.kept(),
    };
    tiles.all() & !kept.map_or(0, |g| sp.groups[g])
}

/// Applies a turn already found legal; `off` holds the tiles a removal takes off.
/// (Once a turn, after judging it: inlined.)
#[inline(always)]
fn apply(s: &Settings, st: &mut State, turn: &Turn, off: u64) {
    let seat = st.to_move;
    // Only the last-standing rule asks who had tiles before the move.
    let had = if s.win == Win::LastStanding {
        with_tiles(s, st)
    } else {
        SeatSet::EMPTY
    };
    match *turn {
        Turn::Keep | Turn::Swap => {
            st.phase = Phase::Waning;
            st.passes = 0;
            if *turn == Turn::Swap {
                // The players exchange colours; white (now the other player) moves.
                st.swapped = !st.swapped;
                st.to_move = s.first();
            } else {
                st.to_move = next_seat(s, st, s.first(), false).unwrap_or(s.first());
            }
            return;
        }
        Turn::Place(cell) => {
            st.tiles.insert(cell, seat);
            st.hand[usize::from(seat.0)] -= 1;
            st.passes = 0;
        }
        Turn::Remove { .. } => {
            st.tiles.remove(off);
            st.passes = 0;
        }
        Turn::Pass => {
            st.passes = st.passes.saturating_add(1);
            if u32::from(st.passes) >= rotation(s, st) {
                st.end = Some(Ending {
                    winners: SeatSet::EMPTY,
                    reason: Reason::DeadPosition,
                });
                return;
            }
        }
    }
    advance(s, st, seat, had);
}

/// The seat to move resigns: it leaves; the last seat still playing wins.
pub(crate) fn resign(s: &Settings, st: &mut State) {
    if st.end.is_some() {
        return;
    }
    let seat = st.to_move;
    let had = with_tiles(s, st);
    st.resigned = st.resigned.with(seat);
    st.passes = 0;
    let left = playing(s, st);
    if left.len() <= 1 {
        st.end = Some(Ending {
            winners: left,
            reason: Reason::Resignation,
        });
        return;
    }
    advance(s, st, seat, had);
}
