//! Hints for violations and notes on legal turns: computed on demand, never during a
//! plain replay, so they may allocate.

use super::board::{by_name, State};
use super::geometry::sq;
use super::movegen::{chains_from, legal_turns, Jumper};
use super::settings::Settings;
use super::violation::Violation;
use crate::notation::halatafl::{Move, Promotion, Square, Turn};

fn seat_name(side: u8) -> &'static str {
    if side == 0 {
        "white"
    } else {
        "black"
    }
}

/// "a", "a or b", "a, b or c", at most `max` items then "… (N more)".
fn or_list<T: std::fmt::Display>(items: &[T], max: usize) -> String {
    let shown: Vec<String> = items.iter().take(max).map(|t| t.to_string()).collect();
    let mut text = match shown.len() {
        0 => String::new(),
        1 => shown[0].clone(),
        n => format!("{} or {}", shown[..n - 1].join(", "), shown[n - 1]),
    };
    if items.len() > max {
        text.push_str(&format!(" ({} more)", items.len() - max));
    }
    text
}

/// The legal turns of the seat to move whose move starts on `from`.
fn turns_of_piece(s: &Settings, st: &State, from: Square) -> Vec<Turn> {
    let mut all = Vec::new();
    legal_turns(s, st, &mut all);
    all.retain(|t| t.mv.is_some_and(|m| m.from() == from));
    all
}

/// The capture chains of `side` on the position's board with `huff` removed first.
fn captures(s: &Settings, st: &State, huff: Option<Square>) -> Vec<Turn> {
    let mut b = st.board;
    if let Some(h) = huff {
        b.clear(h.bit());
    }
    let side = st.to_move as usize;
    let mut out = Vec::new();
    for i in super::geometry::Bits(b.side[side]) {
        chains_from(s, &b, side, i, None, &mut out);
    }
    out
}

pub(crate) fn hint(s: &Settings, st: &State, v: &Violation) -> Option<String> {
    let me = seat_name(st.to_move);
    let huffs: Vec<Square> = by_name(st.huffable(s)).collect();
    match *v {
        Violation::NotHuffable { .. } | Violation::NoHuffRight { .. } if !huffs.is_empty() => {
            Some(format!("{me} may huff {}", or_list(&huffs, 8)))
        }
        Violation::NoHuffRight { .. } => Some("write the move without a huff".to_string()),
        Violation::NotHuffable { .. } => None,
        Violation::HuffAlone { at, .. } => {
            let mut all = Vec::new();
            legal_turns(s, st, &mut all);
            all.retain(|t| t.huff == Some(at));
            let examples: Vec<String> = all.iter().map(|t| format!("`{t}`")).collect();
            (!examples.is_empty()).then(|| {
                format!(
                    "write a move after the huff, such as {}",
                    or_list(&examples, 3)
                )
            })
        }
        Violation::MoveAfterWinningHuff { at, .. } => Some(format!("write `huff {at}` alone")),
        Violation::CompulsoryCapture { .. } => {
            let caps = captures(s, st, None);
            (!caps.is_empty()).then(|| format!("{me} could capture with {}", or_list(&caps, 6)))
        }
        Violation::ContinueJumps { ref path, .. } => {
            let mut all = Vec::new();
            legal_turns(s, st, &mut all);
            let written = path.points();
            let longer: Vec<Turn> = all
                .into_iter()
                .filter(|t| match t.mv {
                    Some(Move::Jump(p)) => {
                        p.points().len() > written.len() && p.points().starts_with(written)
                    }
                    _ => false,
                })
                .collect();
            (!longer.is_empty()).then(|| format!("the chain could go on: {}", or_list(&longer, 6)))
        }
        Violation::OwnThrone { .. } => Some(
            "a man may land on its own throne only during a chain, and must jump on from it"
                .to_string(),
        ),
        Violation::KingMarker { actual, .. } | Violation::EmperorMarker { actual, .. } => {
            Some(match actual {
                None => "leave the marker out: nobody is promoted".to_string(),
                Some(Promotion::King) => "write =K, or no marker".to_string(),
                Some(Promotion::Emperor) => "write =E, or no marker".to_string(),
            })
        }
        Violation::Step { from, .. }
        | Violation::Jump { from, .. }
        | Violation::KingMove { from, .. }
        | Violation::EmperorMove { from, .. } => {
            // `from` is the start of the move unless a king's or emperor's later hop is
            // at fault; either way, list what the piece there can do, if anything.
            let turns = turns_of_piece(s, st, from);
            (!turns.is_empty()).then(|| {
                let piece = st
                    .board
                    .piece_at(from)
                    .map(|p| p.rank.name())
                    .unwrap_or("piece");
                format!("the {piece} on {from} can play {}", or_list(&turns, 6))
            })
        }
        Violation::NoPieceToStep { .. }
        | Violation::NoPieceToJump { .. }
        | Violation::MultiJump { .. }
        | Violation::GameOver
        | Violation::EmptyTurn { .. }
        | Violation::Setup(_) => None,
    }
}

/// For a legal turn that failed to capture under `capture = compulsory-huff`: what was
/// possible and what the opponent may huff.
pub(crate) fn note(s: &Settings, before: &State, after: &State, turn: &Turn) -> Option<String> {
    if after.huffable(s) == 0 {
        return None;
    }
    let me = seat_name(before.to_move);
    let them = seat_name(after.to_move);
    let mv = turn.mv?;
    let what = match mv {
        Move::Step { .. } => {
            let caps = captures(s, before, turn.huff);
            let caps: Vec<Turn> = caps.into_iter().take(3).collect();
            format!(
                "{me} failed to capture ({} was possible)",
                or_list(&caps, 3)
            )
        }
        Move::Jump(path) => {
            let mut b = before.board;
            if let Some(h) = turn.huff {
                b.clear(h.bit());
            }
            let side = before.to_move as usize;
            let from = path.from().index();
            let j = Jumper::new(s, &b, side, from);
            let mut jumped = 0u64;
            for w in path.points().windows(2) {
                let mid = ((w[0].index() + w[1].index()) / 2) as u8;
                jumped |= 1u64 << mid;
            }
            let end = path.to();
            let next: Vec<String> = j
                .continuations(end.index(), jumped)
                .map(|(_, l)| format!("{end}x{}", sq(l)))
                .collect();
            format!(
                "{me} stopped the chain on {end} though it could jump on ({} was possible)",
                or_list(&next, 3)
            )
        }
    };
    if after.end.is_some() {
        return Some(what);
    }
    let huffs: Vec<Square> = by_name(after.huffable(s)).collect();
    Some(format!("{what}; {them} may huff {}", or_list(&huffs, 8)))
}
