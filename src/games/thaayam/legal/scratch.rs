//! The walks' room ([`Scratch`]), kept by the thread between turns, and the full
//! walk's record of the partial turns it visited ([`Visit`]).

use super::super::table::Table;
use super::super::uncombined;
use super::super::walk::{Act, START};
use crate::games::Seat;
use crate::notation::thaayam::{Actions, Series, Turn};

/// The most room, in slots, the walk's tables keep from one turn to the next.
const ROOM_KEPT: usize = 1 << 12;

/// A partial turn the full walk reached: the visit it came from and by which action
/// ([`START`] and no action for the start of the turn), the throws used, its position
/// ([`Node::position`](super::super::walk::Node::position)).
#[derive(Copy, Clone, Debug)]
pub(super) struct Visit {
    pub(super) from: u32,
    pub(super) act: Act,
    pub(super) used: u16,
    pub(super) position: u64,
}

/// The generator's room, kept by the thread between turns.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) visited: Table<()>,
    pub(super) outcomes: Table<()>,
    /// The actions from the start of the turn to the node being walked (the pruned
    /// walk), or of the turn being written out (backwards).
    pub(super) acts: Vec<Act>,
    /// The full walk's visits, in order.
    pub(super) visits: Vec<Visit>,
    /// The uncombined walk's visits, in order.
    pub(super) compact: Vec<uncombined::Visit>,
    /// Did the uncombined walk, not the full walk, list the turns?
    pub(super) uncombined: bool,
    /// The visits listed, in order.
    pub(super) listed: Vec<u32>,
}

impl Scratch {
    pub(super) fn clear(&mut self) {
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
    pub(super) fn turn(&mut self, seat: Seat, series: &Series, v: u32) -> Turn {
        let mut turn = Turn {
            series: Some(series.clone()),
            actions: Actions::new(),
        };
        self.write(seat, v, &mut turn.actions);
        turn
    }

    /// Visit `v`'s actions, written out into `actions` (in place, as the turn's
    /// series is already).
    pub(super) fn write(&mut self, seat: Seat, v: u32, actions: &mut Actions) {
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
