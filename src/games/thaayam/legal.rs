//! Legal-turn generation: a depth-first walk over the partial turns, one listed turn per
//! distinct outcome of those that use as many throws as possible, in the order the walk
//! first reaches them.
//!
//! A partial turn is kept small (`Node`): during a turn only the seat's own pieces move
//! and enemy pieces only leave for their hand, so the seat's pieces, the set of enemy
//! pieces captured so far and the unused throws say everything. The actions of the walk
//! are `Copy` (`Act`) and are written out as notation only for the turns listed.
//!
//! Two walks list the same turns in the same order:
//!
//! - the **full walk** (`Full`) visits every partial turn once, remembers how it first
//!   got there (`Visit`) and the most throws any of them used; the turns are then the
//!   partial turns that used that many, first of their outcome, in the order visited;
//! - the **pruned walk** (`pruned.rs`) knows the most throws usable beforehand (the use-all
//!   search) and follows only the steps that can still use them, so it visits fewer
//!   partial turns at a higher cost each. It lists the turns the full walk gives up on
//!   (more than `FULL_LIMIT` partial turns: long series).
//!
//! They agree because whether a partial turn can still use the most throws depends on
//! the partial turn alone (its pieces and unused throws), so every partial turn on the
//! way to one that used the most can too: the full walk's extra partial turns are never
//! on the way to a listed one, and visiting them changes no first visit of one that is.
//!
//! A turn with at most one usable throw and no declaration before it is listed by neither:
//! its listing is worked out directly (`Short`, `short.rs`, which says why it is the
//! full walk's).
//!
//! Where throws are never combined (`thaayam-bell`), the full walk is made by
//! `uncombined.rs` instead: the same first visits in the same order with smaller partial
//! turns, canonically (each set of steps once) where no declaration can be made.

use std::cell::RefCell;

use super::board::{taken_at, State};
use super::own::Own;
use super::search::{declare, each_one_throw_step, each_step, Search, Step, StepKind};
use super::series::{usable_throws, Unused};
use super::settings::Settings;
use super::short::Short;
use super::table::{Key, Table};
use super::uncombined;
use super::walk::{advance, outcome, Act, Enemies, Node, FULL_LIMIT, START};
use crate::games::Seat;
use crate::notation::thaayam::{Actions, Series, Turn};

mod pruned;
mod scratch;

use pruned::pruned_walk;
use scratch::{Scratch, Visit};

pub use super::walk::{MAX_LISTED, MAX_NODES};

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
                actions: Actions::new(),
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
        actions: Actions::new(),
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
    actions: &mut Actions,
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
