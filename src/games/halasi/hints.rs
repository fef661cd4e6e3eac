//! Hints for Halasi rulings: what would have been right where the message alone does not
//! say (a home's centre markings, the free positions, what each half of an unmatched
//! domino meets, how a wrong claim is made up).

use super::layout::PlaceFault;
use super::markings::Relation;
use super::settings::{Mode, Settings};
use super::state::State;
use super::violation::{BuyFault, Violation};
use crate::notation::halasi::Address;

pub fn hint(s: &Settings, st: &State, v: &Violation) -> Option<String> {
    let lay = &st.layout;
    match v {
        Violation::FirstDomino { home, .. } => {
            let centre: Vec<String> = (0..6u8)
                .filter_map(|i| {
                    let a = Address {
                        label: *home,
                        index: i,
                    };
                    lay.tri(&a).map(|t| format!("{a} {}", lay.foundation(t)))
                })
                .collect();
            Some(format!(
                "{home}'s centre prints {}: a half with one of these markings goes on its triangle",
                centre.join(", ")
            ))
        }
        Violation::Territory {
            fault: PlaceFault::NotAdjacent | PlaceFault::Taken(_),
            ..
        } => {
            let free: Vec<String> = lay.free_positions().iter().map(|p| p.to_string()).collect();
            Some(format!(
                "the free positions next to the layout: {}",
                free.join(" ")
            ))
        }
        Violation::NoMatch { domino, required } => {
            let mut parts = Vec::new();
            for (a, m) in [
                (domino.first, domino.domino.0),
                (domino.second, domino.domino.1),
            ] {
                let t = lay.tri(&a)?;
                let mut meets = vec![format!(
                    "its foundation {} ({})",
                    lay.foundation(t),
                    Relation::of(m, lay.foundation(t))
                )];
                for nb in lay.neighbours(t) {
                    if let Some(o) = lay.half_marking(nb) {
                        meets.push(format!(
                            "{o} on {} ({})",
                            lay.address(nb),
                            Relation::of(m, o)
                        ));
                    }
                }
                parts.push(format!("{m} on {a} meets {}", meets.join(", ")));
            }
            Some(format!("{}; none is a {required} match", parts.join("; ")))
        }
        Violation::Claim { scored, .. } => Some(format!(
            "the turn scores {scored}: `referee score FILE --turn {}` explains every point",
            st.turns + 1
        )),
        // Solitaire has no purse and no territory pool to buy from: it draws.
        Violation::Buy { why, .. } if s.mode == Mode::Solitaire => Some(match why {
            BuyFault::DrawCount { roll, due, .. } => format!(
                "solitaire has no purse: it draws as many dominos as the roll shows, fewer \
                 only when the pool runs short; this roll of {roll} draws {due}"
            ),
            _ => format!("the domino pool holds {} dominos", st.dominos.len()),
        }),
        Violation::TerritoryBuy { .. } | Violation::Buy { .. } => {
            let seat = st.seat(st.to_move);
            Some(format!(
                "{} has {} in its purse; the pools hold {} territories and {} dominos",
                super::violation::seat_name(st.to_move),
                seat.purse,
                st.tiles.len(),
                st.dominos.len()
            ))
        }
        _ => None,
    }
}
