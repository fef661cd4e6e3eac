//! Applying a turn that [`super::movegen::legal_turns`] listed, without judging it again
//! (random playouts, `selfplay`). A listed turn is legal and its promotion marker is the
//! promotion it makes, so only what the turn does not carry is worked out here: the
//! pieces it captures and what the next seat may huff.

use super::board::{FailedStep, Rank, State};
use super::movegen::{capturers, followed, Jumper};
use super::rules::{after_turn, after_winning_huff};
use super::settings::{Capture, ContinueJumps, Settings};
use super::win::wins;
use crate::notation::halatafl::{Move, Promotion, Turn};

/// Applies `turn`, listed by `legal_turns` for `st`, and runs the end checks: the same
/// position as [`super::judge::play`] makes of it.
pub(crate) fn apply_legal(s: &Settings, st: &mut State, turn: &Turn) {
    debug_assert!(st.end.is_none(), "a turn listed after the end: {turn}");
    let side = st.to_move as usize;
    let mut b = st.board;
    if let Some(h) = turn.huff {
        b.clear(h.bit());
        if let Some(reason) = wins(s, &b, side) {
            *st = after_winning_huff(st, b, reason);
            return;
        }
    }
    let Some(mv) = turn.mv else {
        unreachable!("a listed turn moves unless its huff wins: {turn}");
    };
    let from = mv.from();
    let rank = b.rank_at(from.index());
    let (to, failed, huffable, captured) = match mv {
        Move::Step { to, .. } => {
            // A step fails to capture when a capture was possible: the pieces that could
            // have captured may be huffed, followed to where they moved. (With
            // `capture = compulsory` no step is listed then.) A playout's next turn asks
            // for them, so they are worked out now.
            if s.capture == Capture::CompulsoryHuff {
                let caps = match turn.huff {
                    None => st.capturers_of(s),
                    Some(_) => capturers(s, &b, side, false),
                };
                (
                    to,
                    Some(FailedStep { from, to, rank }),
                    followed(caps, from, to),
                    0,
                )
            } else {
                (to, None, 0, 0)
            }
        }
        Move::Jump(path) => {
            // Each hop jumps the point halfway between its ends (`index = rank * 7 + file`).
            let captured = path
                .points()
                .windows(2)
                .fold(0u64, |m, w| m | 1u64 << ((w[0].index() + w[1].index()) / 2));
            let to = path.to();
            // Only `capture = compulsory-huff` lists a chain stopped early (then only the
            // piece may be huffed); the other settings list only chains that may stop.
            let stopped_early = s.capture == Capture::CompulsoryHuff
                && s.continue_jumps == ContinueJumps::Compulsory
                && Jumper::new(s, &b, side, from.index()).can_continue(to.index(), captured);
            let huffable = if stopped_early { to.bit() } else { 0 };
            (to, None, huffable, captured)
        }
    };
    let new_rank = match turn.promotion {
        Some(Promotion::King) => Rank::King,
        Some(Promotion::Emperor) => Rank::Emperor,
        None => rank,
    };
    b.clear(captured | from.bit());
    b.put(to.index(), side, new_rank);
    let eventful = turn.huff.is_some() || captured != 0 || turn.promotion.is_some();
    after_turn(s, st, b, failed, huffable, eventful, true);
}
