//! Judging and laying a run of dominos (`halasi.md`, "Placement rules"), its routes and
//! its claim. When a run breaks several rules the first in the spec's order is cited:
//! `address`, `not-adjacent`, `covered`, `from-hand`, `first-domino`, `one-run`,
//! `adjoin`, `self-match`, `route`, `route-new`, `claim` — each rule is checked for the
//! whole run before the next.

use smallvec::SmallVec;

use super::hand::Hand;
use super::layout::{Layout, Placed, Tri};
use super::markings::Relation;
use super::routes::{self, Found};
use super::score::{self, PathScore};
use super::settings::Settings;
use super::violation::Violation;
use crate::games::Seat;
use crate::notation::halasi::{Address, Domino, DominoAt, Label, Route};

/// Who places the run, and what the rules need to know about them.
#[derive(Copy, Clone, Debug)]
pub struct Mover<'a> {
    pub seat: Seat,
    /// The seat's home territory (its slot), once on the layout.
    pub home: Option<usize>,
    /// The seat has placed no domino yet: the run holds its first, which lies on the
    /// home's centre. Then the home's label, which the rule's message names.
    pub first: Option<Label>,
    pub hand: Held<'a>,
    /// The turn's number, kept with each domino placed.
    pub turn: u32,
}

/// The dominos a mover holds for its run: its hand, and those the turn adds to it, lent
/// apart so that a turn judged is not a hand copied.
#[derive(Copy, Clone, Debug)]
pub struct Held<'a> {
    pub hand: &'a Hand,
    /// What the turn acquires: the opening four, then the dominos bought.
    pub acquired: [&'a [Domino]; 2],
}

impl<'a> Held<'a> {
    /// A hand with nothing acquired.
    pub fn of(hand: &'a Hand) -> Held<'a> {
        Held {
            hand,
            acquired: [&[], &[]],
        }
    }

    /// The dominos in the order acquired.
    pub fn to_vec(self) -> Vec<Domino> {
        let mut out = self.hand.to_vec();
        for a in self.acquired {
            out.extend_from_slice(a);
        }
        out
    }

    /// How many dominos of kind `key` ([`Domino::key`]) are held.
    fn count(self, key: u8) -> usize {
        let acquired = self.acquired.into_iter().flatten();
        usize::from(self.hand.kinds()[usize::from(key)])
            + acquired.filter(|d| d.key() == key).count()
    }
}

/// What a legal run scored.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct RunScore {
    /// The index of the run's first domino on the layout.
    pub first: usize,
    /// The dominos' points, placement included.
    pub dominos: i64,
    /// The routes announced (all completed by this turn).
    pub routes: Vec<Found>,
    pub path: PathScore,
    /// Routes the turn completed that were not announced (not paid).
    pub unannounced: Vec<Found>,
    pub total: i64,
}

fn is_market(layout: &Layout, label: Label) -> Option<usize> {
    layout
        .slot_of(&label)
        .filter(|&s| layout.territories[s].market)
}

/// Judges `run` with its announced `routes` and `claim` and, when legal, lays it on
/// `layout` and writes what it scored to `score`. On a violation the layout is
/// unchanged. (The score is written where the caller keeps it: a result this size,
/// moved out through the calls and read back at once in other widths than it was
/// written, stalls.)
#[allow(clippy::too_many_arguments)]
pub fn play_run_into(
    layout: &mut Layout,
    s: &Settings,
    m: &Mover<'_>,
    run: &[DominoAt],
    announced: &[Route],
    claim: Option<i64>,
    score: &mut RunScore,
) -> Result<(), Violation> {
    // address
    let mut tris: SmallVec<[[Tri; 2]; 8]> = SmallVec::with_capacity(run.len());
    // (Each address read where the turn holds it: a copy of it read back as the words
    // its label is compared by costs a stall.)
    let tri = |a: &Address| {
        layout
            .tri(a)
            .ok_or_else(|| Violation::NoSuchTerritory { address: *a })
    };
    for d in run {
        tris.push([tri(&d.first)?, tri(&d.second)?]);
    }
    // not-adjacent
    for (d, t) in run.iter().zip(&tris) {
        if !layout.adjacent(t[0], t[1]) {
            return Err(Violation::NotAdjacent { domino: *d });
        }
    }
    // covered
    for (i, (d, t)) in run.iter().zip(&tris).enumerate() {
        for (k, &tri) in t.iter().enumerate() {
            if layout.cover(tri).is_some() {
                let at = if k == 0 { d.first } else { d.second };
                return Err(Violation::Covered { domino: *d, at });
            }
            if tris[..i].iter().any(|u| u.contains(&tri)) {
                return Err(Violation::TwiceInRun {
                    at: layout.address(tri),
                });
            }
        }
    }
    // from-hand: the run's dominos as a multiset within the hand. The first domino of
    // the run (in order) the hand runs out of is cited.
    for (i, d) in run.iter().enumerate() {
        let key = d.domino.key();
        let wanted = run[..=i].iter().filter(|e| e.domino.key() == key).count();
        if m.hand.count(key) < wanted {
            return Err(Violation::NotInHand {
                seat: m.seat,
                domino: d.domino,
                hand: m.hand.to_vec(),
            });
        }
    }
    // first-domino: the first written lies with a half on its home's centre, matching.
    if let Some(home_label) = m.first {
        let (d, t) = (run[0], tris[0]);
        let halves = [(t[0], d.domino.0), (t[1], d.domino.1)];
        let ok = halves.iter().any(|&(tri, mark)| {
            Some(tri.slot()) == m.home && tri.is_centre() && layout.foundation(tri) == mark
        });
        if !ok {
            return Err(Violation::FirstDomino {
                seat: m.seat,
                domino: d,
                home: home_label,
            });
        }
    }
    // Lay the run; the remaining rules look at the layout as it ends the turn.
    let first = layout.dominos.len();
    for (d, t) in run.iter().zip(&tris) {
        layout.place(Placed {
            halves: *t,
            marks: [d.domino.0, d.domino.1],
            seat: m.seat,
            turn: m.turn,
        });
    }
    let result = judge_laid(layout, s, m, run, first, announced, claim, score);
    if result.is_err() {
        while layout.dominos.len() > first {
            layout.unplace();
        }
    }
    result
}

/// [`play_run_into`], its score returned.
pub fn play_run(
    layout: &mut Layout,
    s: &Settings,
    m: &Mover<'_>,
    run: &[DominoAt],
    announced: &[Route],
    claim: Option<i64>,
) -> Result<RunScore, Violation> {
    let mut score = RunScore::default();
    play_run_into(layout, s, m, run, announced, claim, &mut score).map(|()| score)
}

/// The rules that look at the run laid: one-run, adjoin, self-match, routes, claim.
#[allow(clippy::too_many_arguments)]
fn judge_laid(
    layout: &Layout,
    s: &Settings,
    m: &Mover<'_>,
    run: &[DominoAt],
    first: usize,
    announced: &[Route],
    claim: Option<i64>,
    score: &mut RunScore,
) -> Result<(), Violation> {
    let n = run.len();
    // Each domino's neighbours on the layout (a neighbour may come twice): the run's
    // own, then those laid before.
    let touching = |d: usize| layout.next_to(d);
    // one-run: the new dominos are one edge-connected group (most runs are of one
    // domino, which is).
    if n > 1 {
        let mut reached: SmallVec<[bool; 16]> = smallvec::smallvec![false; n];
        let mut stack: SmallVec<[usize; 16]> = smallvec::smallvec![0];
        reached[0] = true;
        while let Some(i) = stack.pop() {
            for e in touching(first + i) {
                if e >= first && !reached[e - first] {
                    reached[e - first] = true;
                    stack.push(e - first);
                }
            }
        }
        if let Some(i) = reached.iter().position(|r| !r) {
            return Err(Violation::NotOneRun { apart: run[i] });
        }
    }
    // adjoin: the run touches a domino already on the layout, unless it holds the
    // seat's first domino.
    if m.first.is_none() {
        let adjoins = (first..first + n).any(|d| touching(d).any(|e| e < first));
        if !adjoins {
            return Err(Violation::NoAdjoin);
        }
    }
    // self-match: each domino has a half matching its foundation or an adjoining half
    // of another domino (the partner never counts).
    for (i, d) in run.iter().enumerate() {
        let p = layout.dominos[first + i];
        let matched = (0..2).any(|h| {
            let tri = p.halves[h];
            let mark = p.marks[h];
            s.match_required
                .met_by(Relation::of(mark, layout.foundation(tri)))
                || layout.neighbours(tri).any(|nb| {
                    layout.cover(nb).is_some_and(|(e, eh)| {
                        e != first + i
                            && s.match_required
                                .met_by(Relation::of(mark, layout.dominos[e].marks[eh]))
                    })
                })
        });
        if !matched {
            return Err(Violation::NoMatch {
                domino: *d,
                required: s.match_required.word(),
            });
        }
    }
    // route, then route-new (the run is one group: one-run held).
    let completed = routes::completed_by_run(layout, first);
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(announced.len());
    for (i, r) in announced.iter().enumerate() {
        let a = is_market(layout, r.0).ok_or_else(|| Violation::RouteNotMarket {
            route: *r,
            label: r.0,
        })?;
        let b = is_market(layout, r.1).ok_or_else(|| Violation::RouteNotMarket {
            route: *r,
            label: r.1,
        })?;
        let pair = (a.min(b), a.max(b));
        if a == b || pairs.contains(&pair) {
            return Err(if a == b {
                Violation::RouteNotLinked { route: *r }
            } else {
                Violation::RouteTwice { route: *r }
            });
        }
        if !completed.iter().any(|f| (f.a, f.b) == pair)
            && routes::shortest_chain(layout, a, b).is_none()
        {
            return Err(Violation::RouteNotLinked {
                route: announced[i],
            });
        }
        pairs.push(pair);
    }
    let mut paid = Vec::with_capacity(pairs.len());
    for (r, pair) in announced.iter().zip(&pairs) {
        match completed.iter().find(|f| (f.a, f.b) == *pair) {
            Some(f) => paid.push(*f),
            None => return Err(Violation::RouteNotNew { route: *r }),
        }
    }
    let unannounced: Vec<Found> = completed
        .iter()
        .filter(|f| !pairs.contains(&(f.a, f.b)))
        .copied()
        .collect();
    let dominos = score::run_points(layout, first, &s.score);
    let path = score::path_points(&paid, m.home, &s.route);
    let total = dominos + path.total;
    if let Some(c) = claim {
        if c != total {
            return Err(Violation::Claim {
                claimed: c,
                scored: total,
            });
        }
    }
    *score = RunScore {
        first,
        dominos,
        routes: paid,
        path,
        unannounced,
        total,
    };
    Ok(())
}
