//! The end checks: a win (`win.rs`), the quiet limit and a seat left without a turn;
//! and the position after a turn, which judging and applying a listed turn share.

use super::board::{Board, Ending, FailedStep, Reason, State, StepCounts, UNKNOWN};
use super::movegen::{derive, has_step, has_turn};
use super::settings::{NoMoves, Settings};
use super::win::wins;
use crate::games::Seat;

/// The end checks after `mover`'s turn, in the spec's order: win, quiet-limit, no-moves.
/// `st` is the position after the turn (the other seat to move). (Run after every turn:
/// inlined.)
#[inline(always)]
pub(crate) fn end_after_turn(s: &Settings, st: &State, mover: usize) -> Option<Ending> {
    if let Some(reason) = wins(s, &st.board, mover) {
        return Some(Ending {
            winner: Some(Seat(mover as u8)),
            reason,
        });
    }
    quiet_and_no_moves(s, st, mover)
}

/// Asked after every turn: inlined, down to a step, which a seat almost always has (the
/// rest is [`no_moves`]).
#[inline(always)]
fn quiet_and_no_moves(s: &Settings, st: &State, mover: usize) -> Option<Ending> {
    if s.quiet_limit > 0 && st.quiet >= 2 * s.quiet_limit {
        return Some(Ending {
            winner: None,
            reason: Reason::QuietLimit,
        });
    }
    let next = st.to_move as usize;
    // A known capture or step is a legal turn, and so is any step.
    let can_move = st.capturers != UNKNOWN && (st.capturers != 0 || st.steps.0 != 0);
    if can_move || has_step(s.geo(), &st.board, next) {
        return None;
    }
    no_moves(s, st, mover)
}

/// The no-moves check where no man of the seat to move can step: its kings' and
/// emperors' moves, its captures, and its turns after each huff are asked.
#[inline(never)]
fn no_moves(s: &Settings, st: &State, mover: usize) -> Option<Ending> {
    let next = st.to_move as usize;
    if !has_turn(s, &st.board, next, st.huffable(s)) {
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

/// A position that may huff the points of `huffable`, its capturers and steps found; no
/// end checks run.
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
        failed: None,
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
        failed: None,
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
/// the end checks run, made in `st` (a copy of the whole position each turn is what
/// `check` would pay otherwise). What the next seat may huff: the points of `huffable`,
/// or what the step `failed` leaves (`huffable` then holds them, or [`UNKNOWN`] where
/// they were not worked out); `eventful`:
/// the turn huffed, captured or promoted (the quiet count starts again). `derive`: work
/// out the next seat's capturers and steps (a playout's next turn asks for them, and the
/// no-moves check then needs nothing more; judging the next written turn does not, and
/// leaves them [`UNKNOWN`]). (Run after every turn: inlined.)
#[inline(always)]
pub(crate) fn after_turn(
    s: &Settings,
    st: &mut State,
    board: Board,
    failed: Option<FailedStep>,
    huffable: u64,
    eventful: bool,
    derive: bool,
) {
    let mover = st.to_move;
    st.quiet = if eventful {
        0
    } else {
        st.quiet.saturating_add(1)
    };
    st.board = board;
    st.to_move = 1 - mover;
    st.failed = failed;
    st.huffable = huffable;
    (st.capturers, st.steps) = if derive {
        super::movegen::derive(s, &board, st.to_move as usize)
    } else {
        (UNKNOWN, StepCounts(0))
    };
    st.end = end_after_turn(s, st, mover as usize);
}
