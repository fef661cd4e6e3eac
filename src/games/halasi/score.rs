//! Scoring a run (`halasi.md`, "Scoring"): every relation each new half makes with its
//! foundation, its partner and the halves adjoining it, and the path score of the
//! announced routes.
//!
//! [`each_count`] walks every relation once in a fixed order, and the explained
//! breakdown ([`explain_run`]) is built on it; the fast total ([`run_points`]) sums the
//! same relations by look-ups without a branch, and a property test holds it to
//! `each_count`'s sum. Each half of a domino placed this turn counts its foundation,
//! its partner, and every covered neighbour as the layout stands at the end of the turn:
//! a relation between two new dominos is counted from both sides, one with an old domino
//! once, two old halves never. Nothing depends on the order the run was written in.

use serde::Serialize;

use super::layout::{Layout, Tri};
use super::markings::{Relation, RELATION};
use super::routes::Found;
use super::settings::{RoutePoints, Scores};
use crate::notation::halasi::Marking;

/// What a half is related to.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum With {
    /// The triangle beneath it.
    Foundation(Tri),
    /// The other half of its domino.
    Partner,
    /// A half of another domino, on this triangle.
    Adjoining(Tri),
}

/// One relation counted.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Count {
    /// The domino (its index on the layout) and which half (0 first as written).
    pub domino: usize,
    pub half: usize,
    pub with: With,
    /// The other marking.
    pub other: Marking,
    pub relation: Relation,
    pub points: i64,
}

/// Calls `f` for every relation of every half of the dominos `first..` of the layout, in
/// order: domino, half, then foundation, partner, adjoining halves in neighbour order.
#[inline]
pub fn each_count(layout: &Layout, first: usize, s: &Scores, mut f: impl FnMut(Count)) {
    for d in first..layout.dominos.len() {
        let placed = layout.dominos[d];
        for half in 0..2 {
            let tri = placed.halves[half];
            let mark = placed.marks[half];
            let found = layout.foundation(tri);
            let r = Relation::of(mark, found);
            f(Count {
                domino: d,
                half,
                with: With::Foundation(tri),
                other: found,
                relation: r,
                points: s.adjoining[r.index()],
            });
            let partner = placed.marks[1 - half];
            let r = Relation::of(mark, partner);
            f(Count {
                domino: d,
                half,
                with: With::Partner,
                other: partner,
                relation: r,
                points: s.same_domino[r.index()],
            });
            for n in layout.neighbours(tri) {
                if let Some((e, eh)) = layout.cover(n) {
                    if e != d {
                        let other = layout.dominos[e].marks[eh];
                        let r = Relation::of(mark, other);
                        f(Count {
                            domino: d,
                            half,
                            with: With::Adjoining(n),
                            other,
                            relation: r,
                            points: s.adjoining[r.index()],
                        });
                    }
                }
            }
        }
    }
}

/// The points of the dominos `first..` of the layout: every relation and the placement
/// points. The relations [`each_count`] walks, summed by look-ups that take no branch
/// (which half lies where is what decides them, and no branch predicts that): each
/// half's three neighbours are counted as adjoining, a neighbour without a half for 0,
/// and its partner, always one of them, moved from adjoining to same-domino.
pub fn run_points(layout: &Layout, first: usize, s: &Scores) -> i64 {
    let adjoining = [
        s.adjoining[0],
        s.adjoining[1],
        s.adjoining[2],
        s.adjoining[3],
        s.adjoining[4],
        0,
    ];
    let at = |r: u8| adjoining[r as usize];
    let mut total = s.placement * (layout.dominos.len() - first) as i64;
    for p in &layout.dominos[first..] {
        debug_assert!(layout.adjacent(p.halves[0], p.halves[1]));
        for half in 0..2 {
            let tri = p.halves[half];
            let rel = &RELATION[p.marks[half].number() as usize];
            let partner = rel[p.marks[1 - half].number() as usize];
            total += at(rel[layout.foundation(tri).number() as usize]);
            total += s.same_domino[partner as usize] - at(partner);
            for m in layout.marks_around(tri) {
                total += at(rel[m as usize]);
            }
        }
    }
    total
}

/// The path score of the announced routes: per domino on each, per distinct market
/// linked, and once if the mover's home is one of them.
pub fn path_points(routes: &[Found], home: Option<usize>, p: &RoutePoints) -> PathScore {
    let mut markets: Vec<usize> = Vec::new();
    let mut dominos = 0;
    for r in routes {
        dominos += r.chain as i64;
        for m in [r.a, r.b] {
            if !markets.contains(&m) {
                markets.push(m);
            }
        }
    }
    markets.sort_unstable();
    let home_linked = home.is_some_and(|h| markets.contains(&h));
    let domino_points = dominos * p.domino;
    let market_points = markets.len() as i64 * p.market;
    let home_points = if home_linked { p.home } else { 0 };
    PathScore {
        markets,
        home_linked,
        domino_points,
        market_points,
        home_points,
        total: domino_points + market_points + home_points,
    }
}

/// The path score, part by part.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct PathScore {
    /// The distinct markets linked (slots), in layout order.
    pub markets: Vec<usize>,
    pub home_linked: bool,
    pub domino_points: i64,
    pub market_points: i64,
    pub home_points: i64,
    pub total: i64,
}

// ---------------------------------------------------------------------------------
// The breakdown `referee score` explains (its JSON field names are an interface).

/// One relation of a half, explained.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct LinkScore {
    /// Where the other marking is (`AM1.7`); the partner has none.
    pub at: Option<String>,
    pub marking: String,
    pub relation: &'static str,
    pub points: i64,
    /// An adjoining half of another domino of the same run: the edge they share counts
    /// from both sides, once for each domino.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub same_run: bool,
}

/// One half of a domino placed, explained.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct HalfScore {
    pub at: String,
    pub marking: String,
    pub foundation: LinkScore,
    pub partner: LinkScore,
    pub adjoining: Vec<LinkScore>,
    /// The sum of this half's relations.
    pub points: i64,
}

/// One domino placed, explained.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct DominoScore {
    /// As written: `RX@AM1.0/AM1.7`.
    pub domino: String,
    pub halves: [HalfScore; 2],
    pub placement: i64,
    /// Both halves and the placement point.
    pub points: i64,
}

/// The dominos `first..` of the layout, explained in the order they were placed.
pub fn explain_run(layout: &Layout, first: usize, s: &Scores) -> Vec<DominoScore> {
    let mut out: Vec<DominoScore> = Vec::new();
    let sym = |m: Marking| m.symbol().to_string();
    let at = |t: Tri| layout.address(t).to_string();
    for d in first..layout.dominos.len() {
        let p = layout.dominos[d];
        let half = |h: usize| HalfScore {
            at: at(p.halves[h]),
            marking: sym(p.marks[h]),
            foundation: LinkScore {
                at: None,
                marking: String::new(),
                relation: "",
                points: 0,
                same_run: false,
            },
            partner: LinkScore {
                at: None,
                marking: String::new(),
                relation: "",
                points: 0,
                same_run: false,
            },
            adjoining: Vec::new(),
            points: 0,
        };
        out.push(DominoScore {
            domino: format!(
                "{}{}@{}/{}",
                p.marks[0],
                p.marks[1],
                at(p.halves[0]),
                at(p.halves[1])
            ),
            halves: [half(0), half(1)],
            placement: s.placement,
            points: s.placement,
        });
    }
    each_count(layout, first, s, |c| {
        let link = LinkScore {
            at: match c.with {
                With::Foundation(t) | With::Adjoining(t) => Some(at(t)),
                With::Partner => None,
            },
            marking: sym(c.other),
            relation: c.relation.word(),
            points: c.points,
            same_run: match c.with {
                With::Adjoining(t) => layout.cover(t).is_some_and(|(e, _)| e >= first),
                _ => false,
            },
        };
        let ds = &mut out[c.domino - first];
        let h = &mut ds.halves[c.half];
        match c.with {
            With::Foundation(_) => h.foundation = link,
            With::Partner => h.partner = link,
            With::Adjoining(_) => h.adjoining.push(link),
        }
        h.points += c.points;
        ds.points += c.points;
    });
    out
}
