//! Short turns, listed without the walk: at most one usable throw, and no `twin`
//! declaration possible before it. About two thirds of random play's turns.
//!
//! The walk ([`super::legal`]) visits the start, then each step from it in
//! [`super::search::each_step`]'s order; a step uses the one throw, so what follows it can only be
//! declarations (each a visit, as the walk makes them with no throw left). Every such
//! visit but the start used the most throws (one), and no two have the same outcome:
//! different steps move different pieces (identical pieces are tried once), so they leave
//! different positions, and a declaration changes the twins. So the listed turns are, in
//! order, each step followed by none, one, … of the declarations that can follow it;
//! with no step, the start followed by the declarations possible there (none with a
//! throw: that is not a short turn). With no throw at all, the start and its
//! declarations are every visit, all of them using the most (none).

use smallvec::SmallVec;

use super::own::Own;
use super::search::{declare, each_one_throw_step, Step, StepKind};
use super::series::Unused;
use super::settings::Settings;

/// A short turn's listing: the steps from the start, each with the number of
/// declarations that can follow it one after the other.
pub struct Short {
    /// Each step's kind and the pieces after it (every step uses the one throw).
    steps: SmallVec<[(StepKind, Own, u8); 6]>,
    /// With no step: the declarations that can be made from the start.
    alone: u8,
}

impl Short {
    /// The listing, if the turn is short.
    pub fn of(s: &Settings, own: &Own, throws: Unused) -> Option<Short> {
        let one = throws.single();
        if one.is_none() && !throws.is_empty() {
            return None;
        }
        let mut steps = SmallVec::new();
        if let Some(t) = one {
            if declare(s, own, throws).is_some() {
                return None;
            }
            each_one_throw_step(own, t, &mut |step| {
                steps.push((step.kind, step.own, declarations(s, step.own)));
                true
            });
        }
        let alone = if steps.is_empty() {
            declarations(s, *own)
        } else {
            0
        };
        Some(Short { steps, alone })
    }

    /// The number of turns listed.
    pub fn len(&self) -> usize {
        if self.steps.is_empty() {
            1 + usize::from(self.alone)
        } else {
            self.steps.iter().map(|&(_, _, d)| 1 + usize::from(d)).sum()
        }
    }

    /// Turn `k` of the listing: its step (none for the start) and how many declarations
    /// follow it.
    pub fn nth(&self, k: usize) -> (Option<Step>, u8) {
        let mut k = k;
        for &(kind, own, d) in &self.steps {
            if k <= usize::from(d) {
                let step = Step {
                    kind,
                    own,
                    throws: Unused(0),
                    used: 1,
                };
                return (Some(step), k as u8);
            }
            k -= 1 + usize::from(d);
        }
        (None, k as u8)
    }
}

/// How many declarations can be made one after the other with no throw left.
fn declarations(s: &Settings, own: Own) -> u8 {
    let mut own = own;
    let mut n = 0;
    while let Some(step) = declare(s, &own, Unused(0)) {
        own = step.own;
        n += 1;
    }
    n
}
