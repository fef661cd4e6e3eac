//! Hints for violations and notes on legal turns, for rulings.

use super::board::{Phase, State};
use super::rules;
use super::settings::Settings;
use super::violation::{colour_name, ContractFault, Violation};
use crate::notation::halves::Turn;

/// A list of turns for a hint: the first few, and how many in all.
fn list(turns: &[Turn]) -> String {
    const SHOWN: usize = 8;
    let mut s: Vec<String> = turns.iter().take(SHOWN).map(|t| t.to_string()).collect();
    if turns.len() > SHOWN {
        s.push(format!("… ({} in all)", turns.len()));
    }
    s.join(", ")
}

pub(crate) fn hint(s: &Settings, st: &State, v: &Violation) -> Option<String> {
    let mut legal = Vec::new();
    rules::legal_turns(s, st, &mut legal);
    let who = rules::mover(s, st);
    let places: Vec<Turn> = legal
        .iter()
        .copied()
        .filter(|t| matches!(t, Turn::Place(_)))
        .collect();
    let removes: Vec<Turn> = legal
        .iter()
        .copied()
        .filter(|t| matches!(t, Turn::Remove { .. }))
        .collect();
    let any = || {
        if legal.is_empty() {
            None
        } else {
            Some(format!("{who} can play {}", list(&legal)))
        }
    };
    match v {
        Violation::NoTileInHand { .. }
        | Violation::CellTaken { .. }
        | Violation::MustTouch { .. }
        | Violation::TouchEnemy { .. }
        | Violation::PlaceOutOfPhase { .. } => {
            if places.is_empty() {
                any()
            } else {
                Some(format!("{who} could place on {}", list(&places)))
            }
        }
        Violation::RemoveNotOwn { .. }
        | Violation::RemoveOutOfPhase { .. }
        | Violation::FreeEdges { .. } => {
            if removes.is_empty() {
                any()
            } else {
                Some(format!("{who} could remove with {}", list(&removes)))
            }
        }
        Violation::KeepMissing { cell, .. }
        | Violation::SplitKeep { cell, .. }
        | Violation::KeepNamesNoGroup { cell, .. } => {
            let same: Vec<Turn> = removes
                .iter()
                .copied()
                .filter(|t| matches!(t, Turn::Remove { cell: c, .. } if c == cell))
                .collect();
            if same.is_empty() {
                any()
            } else {
                Some(format!(
                    "the rule (keep = {}) allows {}",
                    s.keep.word(),
                    list(&same)
                ))
            }
        }
        Violation::Contract {
            fault: ContractFault::Due,
            ..
        } => Some(format!(
            "keep: white's player stays white and {} removes next; swap: the players exchange colours and white removes next",
            colour_name(s.seats.get(1).copied().unwrap_or(st.to_move))
        )),
        Violation::Contract { .. } | Violation::Pass { .. } => any(),
        Violation::GameOver | Violation::Setup(_) => None,
    }
}

fn tiles(n: u32) -> String {
    if n == 1 {
        "1 tile".into()
    } else {
        format!("{n} tiles")
    }
}

pub(crate) fn note(s: &Settings, before: &State, after: &State, turn: &Turn) -> Option<String> {
    match *turn {
        Turn::Swap => {
            let second = colour_name(s.seats.get(1).copied().unwrap_or(before.to_move));
            let tag = {
                let mut t = second.to_string();
                t[..1].make_ascii_uppercase();
                t
            };
            Some(format!(
                "the players exchange colours: the `{tag}` player now plays white and moves next, the `White` player plays {second}"
            ))
        }
        Turn::Keep => Some(format!(
            "white's player stays white; {} moves next",
            colour_name(after.to_move)
        )),
        Turn::Remove { cell, .. } if before.phase == Phase::Waning => {
            let i = before.tiles.find(cell)?;
            let sp = rules::split(
                s,
                &before.tiles,
                &before.tiles.adjacency(),
                i,
                before.to_move,
            );
            if sp.count < 2 {
                return None;
            }
            let sizes: Vec<String> = (0..sp.count)
                .map(|g| sp.groups[g].count_ones().to_string())
                .collect();
            let kept = after.tiles.len() as u32;
            let gone = before.tiles.len() as u32 - 1 - kept;
            let mut by_colour = Vec::new();
            for &seat in &s.seats {
                let d = before.tiles.count(seat)
                    - after.tiles.count(seat)
                    - u32::from(seat == before.to_move);
                if d > 0 {
                    by_colour.push(format!("{} {d}", colour_name(seat)));
                }
            }
            let held = after
                .tiles
                .iter()
                .next()
                .map(|(c, _)| format!(" (holding {c})"))
                .unwrap_or_default();
            let sizes = match sizes.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => sizes.join(", "),
            };
            Some(format!(
                "the removal splits the tiles into groups of {sizes}; the group of {kept}{held} survives and {} {} ({})",
                tiles(gone),
                if gone == 1 { "goes" } else { "go" },
                by_colour.join(", ")
            ))
        }
        _ => None,
    }
}
