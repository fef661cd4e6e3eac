//! Legal-turn generation: a depth-first walk over the partial turns, one listed turn per
//! distinct outcome of those that use as many throws as possible, in the order the walk
//! first reaches them.
//!
//! A partial turn is kept small ([`Node`]): during a turn only the seat's own pieces move
//! and enemy pieces only leave for their hand, so the seat's pieces, the set of enemy
//! pieces captured so far and the unused throws say everything. The actions of the walk
//! are `Copy` ([`Act`]) and are written out as notation only for the turns listed.
//!
//! Two walks list the same turns in the same order:
//!
//! - the **full walk** ([`Full`]) visits every partial turn once, remembers how it first
//!   got there ([`Visit`]) and the most throws any of them used; the turns are then the
//!   partial turns that used that many, first of their outcome, in the order visited;
//! - the **pruned walk** (`pruned.rs`) knows the most throws usable beforehand (the use-all
//!   search) and follows only the steps that can still use them, so it visits fewer
//!   partial turns at a higher cost each. It lists the turns the full walk gives up on
//!   (more than [`FULL_LIMIT`] partial turns: long series).
//!
//! They agree because whether a partial turn can still use the most throws depends on
//! the partial turn alone (its pieces and unused throws), so every partial turn on the
//! way to one that used the most can too: the full walk's extra partial turns are never
//! on the way to a listed one, and visiting them changes no first visit of one that is.
//!
//! A turn with at most one usable throw and no declaration before it is listed by neither:
//! its listing is worked out directly ([`Short`], `short.rs`, which says why it is the
//! full walk's).
//!
//! Where throws are never combined (`thaayam-bell`), the full walk is made by
//! `uncombined.rs` instead: the same first visits in the same order with smaller partial
//! turns, canonically (each set of steps once) where no declaration can be made.

use std::cell::RefCell;

use super::board::{square, taken_at, State, KEEP, OPPOSITE, ROUTES, SAFE_POSITIONS};
use super::search::{declare, each_one_throw_step, each_step, Own, Search, Step, StepKind};
use super::series::{usable_throws, Unused};
use super::settings::Settings;
use super::short::Short;
use super::table::{Key, Table};
use super::uncombined;
use crate::games::Seat;
use crate::notation::thaayam::{Action, Series, Turn};
use smallvec::SmallVec;

mod pruned;

use pruned::pruned_walk;

/// The most turns [`legal_turns`] lists, and the most partial turns it explores.
pub const MAX_LISTED: usize = 500;
pub const MAX_NODES: usize = 50_000;

/// A partial turn.
#[derive(Copy, Clone, Debug)]
struct Node {
    own: Own,
    /// The enemy pieces captured so far, bit `4 * seat + piece`.
    captured: u16,
    throws: Unused,
    used: u16,
}

impl Node {
    /// Everything that tells partial turns apart.
    fn key(&self) -> Key {
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
    fn outcome(&self) -> u64 {
        outcome(self.position())
    }
    /// What [`Node::outcome`] is worked out from, as it stands (which piece is where):
    /// cheap to keep for every visit, of which few are listed.
    fn position(&self) -> u64 {
        u64::from(u32::from_le_bytes(self.own.pos))
            | u64::from(self.own.twinned) << 32
            | u64::from(self.captured) << 40
    }
}

/// The outcome ([`Node::outcome`]) of a partial turn's [`Node::position`].
fn outcome(position: u64) -> u64 {
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
    fn action(&self, seat: Seat) -> Action {
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

/// The most room, in slots, the walk's tables keep from one turn to the next.
const ROOM_KEPT: usize = 1 << 12;

/// The most visits the full walk makes before it leaves the turn to the pruned walk.
/// Below [`MAX_NODES`], so that a full walk that ends never met the pruned walk's limit
/// (which visits no partial turn the full walk does not, and each once).
pub(super) const FULL_LIMIT: usize = 4096;

/// A partial turn the full walk reached: the visit it came from and by which action
/// ([`START`] and no action for the start of the turn), the throws used, its position
/// ([`Node::position`]).
#[derive(Copy, Clone, Debug)]
struct Visit {
    from: u32,
    act: Act,
    used: u16,
    position: u64,
}

/// The `from` of the start of the turn.
pub(super) const START: u32 = u32::MAX;

/// The generator's room, kept by the thread between turns.
#[derive(Default)]
struct Scratch {
    visited: Table<()>,
    outcomes: Table<()>,
    /// The actions from the start of the turn to the node being walked (the pruned
    /// walk), or of the turn being written out (backwards).
    acts: Vec<Act>,
    /// The full walk's visits, in order.
    visits: Vec<Visit>,
    /// The uncombined walk's visits, in order.
    compact: Vec<uncombined::Visit>,
    /// Did the uncombined walk, not the full walk, list the turns?
    uncombined: bool,
    /// The visits listed, in order.
    listed: Vec<u32>,
}

impl Scratch {
    fn clear(&mut self) {
        self.visited.reset(ROOM_KEPT);
        self.outcomes.reset(ROOM_KEPT);
        self.acts.clear();
        if self.visits.capacity() > ROOM_KEPT {
            self.visits = Vec::new();
        }
        self.visits.clear();
        if self.compact.capacity() > ROOM_KEPT {
            self.compact = Vec::new();
        }
        self.compact.clear();
        self.uncombined = false;
        self.listed.clear();
    }

    /// Visit `v`'s turn, written out.
    fn turn(&mut self, seat: Seat, series: &Series, v: u32) -> Turn {
        let mut turn = Turn {
            series: Some(series.clone()),
            actions: SmallVec::new(),
        };
        self.write(seat, v, &mut turn.actions);
        turn
    }

    /// Visit `v`'s actions, written out into `actions` (in place: a `Turn` is 176
    /// bytes, and each move of one cost a call of `memcpy`).
    fn write(&mut self, seat: Seat, v: u32, actions: &mut SmallVec<[Action; 4]>) {
        self.acts.clear();
        if self.uncombined {
            let mut visit = self.compact[v as usize];
            while visit.from != START {
                self.acts.push(visit.act());
                visit = self.compact[visit.from as usize];
            }
        } else {
            let mut visit = self.visits[v as usize];
            while visit.from != START {
                self.acts.push(visit.act);
                visit = self.visits[visit.from as usize];
            }
        }
        actions.extend(self.acts.iter().rev().map(|a| a.action(seat)));
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The legal turns for the series in force, one per distinct outcome, in a fixed
/// order. Without a series (no seed, nothing written) there is nothing to list.
pub fn legal_turns(s: &Settings, st: &State, series: Option<&Series>, out: &mut Vec<Turn>) {
    let Some(series) = series else { return };
    if st.end.is_some() {
        return;
    }
    let seat = st.to_move;
    let usable = usable_throws(series, st.on_board(seat));
    if let Some(short) = Short::of(s, &Own::of(st, seat), usable) {
        let room = MAX_LISTED.saturating_sub(out.len());
        for k in 0..short.len().min(room) {
            let mut turn = Turn {
                series: Some(series.clone()),
                actions: SmallVec::new(),
            };
            short_actions(st, usable, short.nth(k), &mut turn.actions);
            out.push(turn);
        }
        return;
    }
    with_scratch(|scratch| {
        let room = MAX_LISTED.saturating_sub(out.len());
        if full_walk(s, st, usable, scratch, room) {
            for k in 0..scratch.listed.len() {
                let v = scratch.listed[k];
                out.push(scratch.turn(seat, series, v));
            }
        } else {
            scratch.clear();
            Search::with(|search| pruned_walk(s, st, series, usable, search, scratch, out));
        }
    });
}

/// A uniformly random legal turn: exactly `legal_turns[rng.uniform(len)]`, drawn from
/// `rng` the same way, but only the chosen turn is written out. `None` when nothing is
/// listed.
pub fn random_turn(
    s: &Settings,
    st: &State,
    series: Option<&Series>,
    rng: &mut crate::dice::Dice,
) -> Option<Turn> {
    let series = series?;
    if st.end.is_some() {
        return None;
    }
    let seat = st.to_move;
    let usable = usable_throws(series, st.on_board(seat));
    // The turn is written in place, where it is returned.
    let mut out = Some(Turn {
        series: Some(series.clone()),
        actions: SmallVec::new(),
    });
    let turn = out.as_mut().expect("just made");
    if let Some(short) = Short::of(s, &Own::of(st, seat), usable) {
        let k = rng.uniform(short.len() as u32) as usize;
        short_actions(st, usable, short.nth(k), &mut turn.actions);
        return out;
    }
    let found = with_scratch(|scratch| {
        if full_walk(s, st, usable, scratch, MAX_LISTED) {
            if scratch.listed.is_empty() {
                return false;
            }
            let i = rng.uniform(scratch.listed.len() as u32) as usize;
            let v = scratch.listed[i];
            scratch.write(seat, v, &mut turn.actions);
        } else {
            scratch.clear();
            let mut listed = Vec::new();
            Search::with(|search| pruned_walk(s, st, series, usable, search, scratch, &mut listed));
            if listed.is_empty() {
                return false;
            }
            let i = rng.uniform(listed.len() as u32) as usize;
            *turn = listed.swap_remove(i);
        }
        true
    });
    if found {
        out
    } else {
        None
    }
}

/// The actions of a turn of a [`Short`] listing, written out into `actions`: its step
/// (none for the start) and how many declarations follow it.
fn short_actions(
    st: &State,
    usable: Unused,
    (step, twins): (Option<Step>, u8),
    actions: &mut SmallVec<[Action; 4]>,
) {
    let seat = st.to_move;
    if let Some(step) = step {
        let act = match step.kind {
            StepKind::Enter => Act::Enter,
            StepKind::Off => Act::Off,
            StepKind::Twin => Act::Twin,
            StepKind::Move { piece, twins } => {
                let to = step.own.pos[usize::from(piece)];
                Act::Move {
                    from: st.pos[seat.0 as usize][usize::from(piece)],
                    twins,
                    throws: usable,
                    capture: taken_at(st, seat, to, twins) != 0,
                }
            }
        };
        actions.push(act.action(seat));
    }
    for _ in 0..twins {
        actions.push(Act::Twin.action(seat));
    }
}

/// The turns the full walk lists (or `None` where it gives up), whether or not the turn
/// is short (tests).
#[cfg(test)]
pub fn full_turns(s: &Settings, st: &State, series: &Series) -> Option<Vec<Turn>> {
    let usable = usable_throws(series, st.on_board(st.to_move));
    with_scratch(|scratch| {
        full_walk(s, st, usable, scratch, MAX_LISTED).then(|| {
            let listed = std::mem::take(&mut scratch.listed);
            listed
                .iter()
                .map(|&v| scratch.turn(st.to_move, series, v))
                .collect()
        })
    })
}

/// The turns the full walk lists without the uncombined walk (or `None` where it gives
/// up), whether or not the turn is short (tests).
#[cfg(test)]
pub fn generic_full_turns(s: &Settings, st: &State, series: &Series) -> Option<Vec<Turn>> {
    let usable = usable_throws(series, st.on_board(st.to_move));
    with_scratch(|scratch| {
        walk_all(s, st, usable, scratch, MAX_LISTED, false).then(|| {
            let listed = std::mem::take(&mut scratch.listed);
            listed
                .iter()
                .map(|&v| scratch.turn(st.to_move, series, v))
                .collect()
        })
    })
}

/// Is the turn short, listed without a walk (tests)?
#[cfg(test)]
pub fn is_short(s: &Settings, st: &State, series: &Series) -> bool {
    let usable = usable_throws(series, st.on_board(st.to_move));
    Short::of(s, &Own::of(st, st.to_move), usable).is_some()
}

/// The pruned walk's turns alone, whatever the full walk would do (tests).
#[cfg(test)]
pub fn pruned_turns(s: &Settings, st: &State, series: &Series) -> Vec<Turn> {
    let usable = usable_throws(series, st.on_board(st.to_move));
    let mut out = Vec::new();
    with_scratch(|scratch| {
        Search::with(|search| pruned_walk(s, st, series, usable, search, scratch, &mut out));
    });
    out
}

/// Does the full walk list this turn, or leave it to the pruned walk (tests)?
#[cfg(test)]
pub fn full_walk_lists(s: &Settings, st: &State, series: &Series) -> bool {
    let usable = usable_throws(series, st.on_board(st.to_move));
    with_scratch(|scratch| full_walk(s, st, usable, scratch, MAX_LISTED))
}

/// Runs `f` with the thread's emptied scratch (or a new one, should the thread's be in
/// use).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            scratch.clear();
            f(&mut scratch)
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// The full walk: fills the scratch's `listed` with the visits to list (at most
/// `room`). Returns false, having given up, past [`FULL_LIMIT`] partial turns. Where
/// throws are never combined and the series is not huge, the uncombined walk makes the
/// same visits more cheaply.
fn full_walk(s: &Settings, st: &State, usable: Unused, scratch: &mut Scratch, room: usize) -> bool {
    walk_all(s, st, usable, scratch, room, true)
}

/// [`full_walk`], with or without the uncombined walk.
fn walk_all(
    s: &Settings,
    st: &State,
    usable: Unused,
    scratch: &mut Scratch,
    room: usize,
    uncombined: bool,
) -> bool {
    let seat = st.to_move;
    if let (true, false, Some(throws)) = (uncombined, s.combine, uncombined::nibbles(usable)) {
        let Some(most) = uncombined::walk(s.twins, st, throws, &mut scratch.compact) else {
            return false;
        };
        scratch.uncombined = true;
        let visits = scratch.compact.iter().map(|v| (v.used(), v.position));
        list(
            visits,
            most,
            room,
            &mut scratch.outcomes,
            &mut scratch.listed,
        );
        return true;
    }
    let own = Own::of(st, seat);
    let mut full = Full {
        s,
        seat,
        enemies: Enemies::of(st, seat),
        scratch,
        most: 0,
        over: false,
    };
    let start = Node {
        own,
        captured: 0,
        throws: usable,
        used: 0,
    };
    full.dfs(start, START, Act::Enter);
    if full.over {
        return false;
    }
    let most = full.most;
    let scratch = full.scratch;
    let visits = scratch.visits.iter().map(|v| (v.used, v.position));
    list(
        visits,
        most,
        room,
        &mut scratch.outcomes,
        &mut scratch.listed,
    );
    true
}

/// Lists (into `listed`, at most `room`) the visits, given as their throws used and
/// position, that used `most` throws and are the first of their outcome.
fn list(
    visits: impl Iterator<Item = (u16, u64)>,
    most: u16,
    room: usize,
    outcomes: &mut Table<()>,
    listed: &mut Vec<u32>,
) {
    // The outcomes listed: looked for in `seen` while there are few (most turns list a
    // handful), all of it compared without a branch (`NONE` is no outcome), then in the
    // `outcomes` table.
    const NONE: u64 = u64::MAX;
    let mut seen = [NONE; FEW];
    for (k, (used, position)) in visits.enumerate() {
        if used != most {
            continue;
        }
        if listed.len() >= room {
            break;
        }
        let n = listed.len();
        let outcome = outcome(position);
        let new = if n < FEW {
            !seen.iter().fold(false, |found, &o| found | (o == outcome))
        } else {
            if outcomes.len() == 0 {
                for &o in &seen {
                    outcomes.insert(Key::new(o, 0), ());
                }
            }
            outcomes.insert(Key::new(outcome, 0), ())
        };
        if new {
            if n < FEW {
                seen[n] = outcome;
            }
            listed.push(k as u32);
        }
    }
}

/// How many outcomes the full walk looks for in a list before it uses a table.
const FEW: usize = 16;

struct Full<'a> {
    s: &'a Settings,
    seat: Seat,
    enemies: Enemies,
    scratch: &'a mut Scratch,
    /// The most throws a visit used.
    most: u16,
    /// Past [`FULL_LIMIT`]: the walk gave up.
    over: bool,
}

impl Full<'_> {
    /// Visits a partial turn, reached from visit `from` by `act`, and every step from it.
    ///
    /// A partial turn that used every throw is not looked up in `visited`: reached again
    /// (by the same moves in another order), it is visited again, which costs less than
    /// the look-up. Its outcome is the same, so the second visit is never listed, and
    /// all it can step to is a declaration, itself such a partial turn.
    fn dfs(&mut self, node: Node, from: u32, act: Act) {
        if self.scratch.visits.len() >= FULL_LIMIT {
            self.over = true;
            return;
        }
        let (s, seat) = (self.s, self.seat);
        let me = self.scratch.visits.len() as u32;
        let visit = Visit {
            from,
            act,
            used: node.used,
            position: node.position(),
        };
        self.most = self.most.max(node.used);
        if node.throws.is_empty() {
            self.scratch.visits.push(visit);
            if let Some(step) = declare(s, &node.own, node.throws) {
                let (next, act) = advance(&self.enemies, seat, &node, step);
                self.dfs(next, me, act);
            }
            return;
        }
        if !self.scratch.visited.insert(node.key(), ()) {
            return;
        }
        self.scratch.visits.push(visit);
        let mut visit_step = |step| {
            let (next, act) = advance(&self.enemies, seat, &node, step);
            self.dfs(next, me, act);
            !self.over
        };
        // With one throw left and no declaration to make first (the commonest node), the
        // steps without the sub-multisets.
        match node.throws.single() {
            Some(t) if declare(s, &node.own, node.throws).is_none() => {
                each_one_throw_step(&node.own, t, &mut |step| {
                    let (next, act) = advance(&self.enemies, seat, &node, step);
                    if declare(s, &next.own, next.throws).is_some() {
                        self.dfs(next, me, act);
                    } else {
                        // A partial turn that used every throw, with nothing to follow:
                        // visited here, as `dfs` would.
                        self.leaf(next, me, act);
                    }
                    !self.over
                })
            }
            _ => each_step(s, &node.own, node.throws, &mut visit_step),
        }
    }

    /// Visits a partial turn with no step from it, as [`Full::dfs`] does.
    #[inline(always)]
    fn leaf(&mut self, node: Node, from: u32, act: Act) {
        if self.scratch.visits.len() >= FULL_LIMIT {
            self.over = true;
            return;
        }
        self.most = self.most.max(node.used);
        self.scratch.visits.push(Visit {
            from,
            act,
            used: node.used,
            position: node.position(),
        });
    }
}

/// The partial turn a step leads to, and the step as an action.
#[inline(always)]
fn advance(enemies: &Enemies, seat: Seat, node: &Node, step: Step) -> (Node, Act) {
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
