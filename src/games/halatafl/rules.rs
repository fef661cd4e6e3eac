//! The end checks: a win (`win.rs`), the quiet limit and a seat left without a turn;
//! and the position after a turn, which judging and applying a listed turn share.

use super::board::{Board, Ending, Reason, State, StepCounts, UNKNOWN};
use super::movegen::{derive, has_turn};
use super::settings::{NoMoves, Settings};
use super::win::wins;
use crate::games::Seat;

/// The end checks after `mover`'s turn, in the spec's order: win, quiet-limit, no-moves.
/// `st` is the position after the turn (the other seat to move).
pub(crate) fn end_after_turn(s: &Settings, st: &State, mover: usize) -> Option<Ending> {
    if let Some(reason) = wins(s, &st.board, mover) {
        return Some(Ending {
            winner: Some(Seat(mover as u8)),
            reason,
        });
    }
    quiet_and_no_moves(s, st, mover)
}

fn quiet_and_no_moves(s: &Settings, st: &State, mover: usize) -> Option<Ending> {
    if s.quiet_limit > 0 && st.quiet >= 2 * s.quiet_limit {
        return Some(Ending {
            winner: None,
            reason: Reason::QuietLimit,
        });
    }
    let next = st.to_move as usize;
    // A known capture or step is a legal turn; otherwise ask (steps first, which is
    // cheap).
    let can_move = st.capturers != UNKNOWN && (st.capturers != 0 || st.steps.0 != 0);
    if !can_move && !has_turn(s, &st.board, next, st.huffable) {
        return Some(Ending {
            winner: match s.no_moves {
                NoMoves::Loses => Some(Seat(mover as u8)),
                NoMoves::Draw => None,
            },
            reason: Reason::NoMoves,
        });
    }
    None
}

/// The end checks of a starting position: the win condition of the seat that moved last
/// (the one not to move), then of the seat to move, then quiet-limit and no-moves.
pub(crate) fn end_at_start(s: &Settings, st: &State) -> Option<Ending> {
    let last = 1 - st.to_move as usize;
    for side in [last, 1 - last] {
        if let Some(reason) = wins(s, &st.board, side) {
            return Some(Ending {
                winner: Some(Seat(side as u8)),
                reason,
            });
        }
    }
    quiet_and_no_moves(s, st, last)
}

/// A position, its capturers and steps found; no end checks run.
pub(crate) fn position(
    s: &Settings,
    board: Board,
    to_move: u8,
    huffable: u64,
    quiet: u32,
    end: Option<Ending>,
) -> State {
    let (capturers, steps) = derive(s, &board, to_move as usize);
    State {
        board,
        to_move,
        huffable,
        quiet,
        end,
        capturers,
        steps,
    }
}

/// The position after the seat to move of `st` ended the game with a winning huff that
/// left `board`: the turn is the huff alone. Nobody moves again, so its capturers are
/// left [`UNKNOWN`].
pub(crate) fn after_winning_huff(st: &State, board: Board, reason: Reason) -> State {
    State {
        board,
        to_move: 1 - st.to_move,
        huffable: 0,
        quiet: 0,
        end: Some(Ending {
            winner: Some(Seat(st.to_move)),
            reason,
        }),
        capturers: UNKNOWN,
        steps: StepCounts(0),
    }
}

/// The position after the seat to move of `st` made a legal turn that left `board`, with
/// the end checks run. `huffable`: what the next seat may huff; `eventful`: the turn
/// huffed, captured or promoted (the quiet count starts again). `derive`: work out the
/// next seat's capturers and steps (a playout's next turn asks for them, and the
/// no-moves check then needs nothing more; judging the next written turn does not, and
/// leaves them [`UNKNOWN`]).
pub(crate) fn after_turn(
    s: &Settings,
    st: &State,
    board: Board,
    huffable: u64,
    eventful: bool,
    derive: bool,
) -> State {
    let quiet = if eventful {
        0
    } else {
        st.quiet.saturating_add(1)
    };
    let to_move = 1 - st.to_move;
    let mut next = State {
        board,
        to_move,
        huffable,
        quiet,
        end: None,
        capturers: UNKNOWN,
        steps: StepCounts(0),
    };
    if derive {
        (next.capturers, next.steps) = super::movegen::derive(s, &board, to_move as usize);
    }
    next.end = end_after_turn(s, &next, st.to_move as usize);
    next
}
