//! Illegal Halasi turns, each naming the rule it breaks. The `Display` is the ruling's
//! message.

use std::fmt;

use super::layout::PlaceFault;
use crate::games::{RuleId, Seat};
use crate::notation::halasi::{Address, Domino, DominoAt, Label, Pos, Route};

/// A seat's name (`a`…`f`).
pub fn seat_name(seat: Seat) -> &'static str {
    super::settings::SEAT_NAMES
        .get(seat.0 as usize)
        .copied()
        .unwrap_or("?")
}

/// An illegal Halasi turn or setup.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Violation {
    // -- address
    /// A triangle of a territory that is not on the layout.
    NoSuchTerritory {
        address: Address,
    },
    // -- not-adjacent
    NotAdjacent {
        domino: DominoAt,
    },
    // -- covered
    Covered {
        domino: DominoAt,
        at: Address,
    },
    /// Two dominos of the run on one triangle.
    TwiceInRun {
        at: Address,
    },
    // -- from-hand
    NotInHand {
        seat: Seat,
        domino: Domino,
        hand: Vec<Domino>,
    },
    // -- first-domino
    FirstDomino {
        seat: Seat,
        domino: DominoAt,
        home: Label,
    },
    // -- one-run
    NotOneRun {
        apart: DominoAt,
    },
    // -- adjoin
    NoAdjoin,
    // -- self-match
    NoMatch {
        domino: DominoAt,
        required: &'static str,
    },
    // -- route
    RouteNotMarket {
        route: Route,
        label: Label,
    },
    RouteNotLinked {
        route: Route,
    },
    RouteTwice {
        route: Route,
    },
    // -- route-new
    RouteNotNew {
        route: Route,
    },
    // -- claim
    Claim {
        claimed: i64,
        scored: i64,
    },
    // -- territory-adjacent
    Territory {
        label: Label,
        at: Pos,
        fault: PlaceFault,
    },
}

impl crate::games::Violation for Violation {
    fn rule(&self) -> RuleId {
        match self {
            Violation::NoSuchTerritory { .. } => "address",
            Violation::NotAdjacent { .. } => "not-adjacent",
            Violation::Covered { .. } | Violation::TwiceInRun { .. } => "covered",
            Violation::NotInHand { .. } => "from-hand",
            Violation::FirstDomino { .. } => "first-domino",
            Violation::NotOneRun { .. } => "one-run",
            Violation::NoAdjoin => "adjoin",
            Violation::NoMatch { .. } => "self-match",
            Violation::RouteNotMarket { .. }
            | Violation::RouteNotLinked { .. }
            | Violation::RouteTwice { .. } => "route",
            Violation::RouteNotNew { .. } => "route-new",
            Violation::Claim { .. } => "claim",
            Violation::Territory { .. } => "territory-adjacent",
        }
    }
}

fn list(ds: &[Domino]) -> String {
    if ds.is_empty() {
        return "nothing".into();
    }
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NoSuchTerritory { address } => write!(
                f,
                "`{address}`: no territory labelled `{}` is on the layout",
                address.label
            ),
            Violation::NotAdjacent { domino } => write!(
                f,
                "{domino}: {} and {} do not share an edge, so no domino covers both",
                domino.first, domino.second
            ),
            Violation::Covered { domino, at } => {
                write!(f, "{domino}: {at} is covered already")
            }
            Violation::TwiceInRun { at } => {
                write!(f, "two dominos of the run cover {at}")
            }
            Violation::NotInHand { seat, domino, hand } => write!(
                f,
                "{domino} is not in {}'s hand (it holds {})",
                seat_name(*seat),
                list(hand)
            ),
            Violation::FirstDomino { seat, domino, home } => write!(
                f,
                "{domino} is {}'s first domino: one of its halves must lie on a centre \
                 triangle of its home {home} ({home}.0-{home}.5) with the same marking",
                seat_name(*seat)
            ),
            Violation::NotOneRun { apart } => write!(
                f,
                "{apart} shares no edge with the rest of the run: the dominos of a turn form \
                 one group"
            ),
            Violation::NoAdjoin => {
                f.write_str("the run shares no edge with a domino already on the layout")
            }
            Violation::NoMatch { domino, required } => write!(
                f,
                "{domino} has no {required} match between a half and its foundation or an \
                 adjoining half"
            ),
            Violation::RouteNotMarket { route, label } => {
                write!(f, "{route}: `{label}` is not a market on the layout")
            }
            Violation::RouteNotLinked { route } => write!(
                f,
                "{route}: no chain of dominos links {} and {}",
                route.0, route.1
            ),
            Violation::RouteTwice { route } => {
                write!(f, "{route} is announced twice")
            }
            Violation::RouteNotNew { route } => write!(
                f,
                "{route}: {} and {} were linked before this turn, so it is no new route",
                route.0, route.1
            ),
            Violation::Claim { claimed, scored } => {
                write!(f, "the turn scores {scored}, not the {claimed} claimed")
            }
            Violation::Territory { label, at, fault } => match fault {
                PlaceFault::FirstAtOrigin => write!(
                    f,
                    "{label} {at}: the first territory of the layout lies at @0,0"
                ),
                PlaceFault::Taken(by) => {
                    write!(f, "{label} {at}: {by} lies there already")
                }
                PlaceFault::NotAdjacent => write!(
                    f,
                    "{label} {at}: no territory of the layout is next to that position"
                ),
            },
        }
    }
}
