//! The pruned walk: the legal turns of a turn the full walk gives up on (more than
//! `FULL_LIMIT` partial turns: long series), following only the steps that can still use
//! the most throws (the use-all search says which).

use super::super::board::State;
use super::super::own::Own;
use super::super::search::{declare, each_step, Search, Step};
use super::super::series::Unused;
use super::super::settings::Settings;
use super::super::table::Key;
use super::super::walk::{advance, Enemies, Node, MAX_LISTED, MAX_NODES};
use super::scratch::Scratch;
use crate::games::Seat;
use crate::notation::thaayam::{Series, Turn};

/// The pruned walk, appending to `out`.
pub(super) fn pruned_walk(
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
        if node.used == self.max
            && self
                .scratch
                .outcomes
                .insert(Key::new(node.outcome(), 0), ())
        {
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
        let (next, act) = advance(&self.enemies, self.seat, node, step);
        self.scratch.acts.push(act);
        self.dfs(next);
        self.scratch.acts.pop();
    }
}
