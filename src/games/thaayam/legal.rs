//! Legal-turn generation: a depth-first walk over the partial turns that can still use
//! as many throws as possible, one listed turn per distinct outcome.
//!
//! A partial turn is kept small ([`Node`]): during a turn only the seat's own pieces move
//! and enemy pieces only leave for their hand, so the seat's pieces, the set of enemy
//! pieces captured so far and the unused throws say everything. The actions of the walk
//! are `Copy` ([`Act`]) and are written out as notation only for the turns listed.

use std::cell::RefCell;

use super::board::{square, State, KEEP, OPPOSITE, ROUTES, SAFE_POSITIONS};
use super::search::{declare, each_step, Own, Search, Step, StepKind};
use super::series::{split, Unused};
use super::settings::Settings;
use super::table::{Key, Table};
use crate::games::Seat;
use crate::notation::thaayam::{Action, Series, Turn};
use smallvec::SmallVec;

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
    /// The position a finished turn leaves, and whether it captured.
    fn outcome(&self) -> Key {
        let own = Own {
            moved: 0,
            ..self.own
        };
        Key::new(own.packed() | u64::from(self.captured) << 40, 0)
    }
}

/// One action of a partial turn.
#[derive(Copy, Clone, Debug)]
enum Act {
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

/// The generator's room, kept by the thread between turns.
#[derive(Default)]
struct Scratch {
    visited: Table<()>,
    outcomes: Table<()>,
    /// The actions from the start of the turn to the node being walked.
    acts: Vec<Act>,
}

impl Scratch {
    fn clear(&mut self) {
        self.visited.reset(ROOM_KEPT);
        self.outcomes.reset(ROOM_KEPT);
        self.acts.clear();
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
    let usable = Unused::of(&split(series, st.on_board(seat)).0);
    Search::with(|search| {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                scratch.clear();
                walk(s, st, series, usable, search, &mut scratch, out);
            }
            Err(_) => walk(s, st, series, usable, search, &mut Scratch::default(), out),
        })
    });
}

fn walk(
    s: &Settings,
    st: &State,
    series: &Series,
    usable: Unused,
    search: &mut Search,
    scratch: &mut Scratch,
    out: &mut Vec<Turn>,
) {
    let seat = st.to_move;
    let own = Own::of(st, seat);
    let max = u16::from(search.best(s, own, usable));
    let mut gen = Gen {
        s,
        seat,
        max,
        series,
        enemies: Enemies::of(st, seat),
        search,
        scratch,
        out,
    };
    gen.dfs(Node {
        own,
        captured: 0,
        throws: usable,
        used: 0,
    });
}

/// The pieces of the other playing seats on each square at the start of the turn: bit
/// `4 * seat + piece` for a single, the same bit 16 higher for one of twins.
struct Enemies([u32; 25]);

impl Enemies {
    fn of(st: &State, seat: Seat) -> Enemies {
        let mut on = [0u32; 25];
        for (k, route) in ROUTES.iter().enumerate() {
            for i in 0..4 {
                let p = st.pos[k][i];
                let bit =
                    u32::from(p <= KEEP) << (4 * k + i + 16 * usize::from(st.twinned[k] >> i & 1));
                on[usize::from(route[usize::from(p.min(KEEP))])] |= bit;
            }
        }
        let mut others = st
            .playing_seats()
            .filter(|&x| x != seat)
            .fold(0u32, |m, x| m | 0xf << (4 * x.0));
        others |= others << 16;
        Enemies(on.map(|bits| bits & others))
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

struct Gen<'a> {
    s: &'a Settings,
    seat: Seat,
    max: u16,
    series: &'a Series,
    enemies: Enemies,
    search: &'a mut Search,
    scratch: &'a mut Scratch,
    out: &'a mut Vec<Turn>,
}

impl Gen<'_> {
    fn dfs(&mut self, node: Node) {
        if self.out.len() >= MAX_LISTED || self.scratch.visited.len() >= MAX_NODES {
            return;
        }
        if !self.scratch.visited.insert(node.key(), ()) {
            return;
        }
        if node.used == self.max && self.scratch.outcomes.insert(node.outcome(), ()) {
            self.out.push(Turn {
                series: Some(self.series.clone()),
                actions: self
                    .scratch
                    .acts
                    .iter()
                    .map(|a| a.action(self.seat))
                    .collect(),
            });
        }
        if node.used == self.max {
            // Every other step would use a throw more than the most that can be used.
            if let Some(step) = declare(self.s, &node.own, node.throws) {
                self.follow(&node, step);
            }
            return;
        }
        // A step keeps to the most throws when what it leaves can still use the rest of
        // them (it can never use more: `max` is the most of all).
        let s = self.s;
        each_step(s, &node.own, node.throws, &mut |step| {
            let keeps = match self.max.checked_sub(node.used + u16::from(step.used)) {
                None => false,
                Some(0) => true,
                Some(rest) => u16::from(self.search.best(s, step.own, step.throws)) >= rest,
            };
            if keeps {
                self.follow(&node, step);
            }
            true
        });
    }

    /// Takes a step that keeps to the most throws, and walks on from there.
    fn follow(&mut self, node: &Node, step: Step) {
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
                    capture: self.land(&mut next, step.own.pos[piece], twins),
                }
            }
        };
        self.scratch.acts.push(act);
        self.dfs(next);
        self.scratch.acts.pop();
    }

    /// A move lands on route position `to`: the enemy pieces there go home (the singles
    /// only when a single lands), except on a marked square. Returns whether it took any.
    fn land(&self, node: &mut Node, to: u8, twins: bool) -> bool {
        if SAFE_POSITIONS & (1 << to) != 0 {
            return false;
        }
        let sq = ROUTES[self.seat.0 as usize][to as usize] as usize;
        let there = self.enemies.taken_by(sq, twins);
        let took = there & !node.captured;
        node.captured |= took;
        took != 0
    }
}
