//! The win conditions: has a seat met its win condition on a board.

use super::board::{Board, Reason};
use super::geometry::THRONES;
use super::settings::{Settings, Win};

/// Has `side` met the win condition on `b`? (Asked after every turn: inlined.)
#[inline]
pub(crate) fn wins(s: &Settings, b: &Board, side: usize) -> Option<Reason> {
    let opp = 1 - side;
    match s.win {
        // No piece left, asked without counting them (asked after every turn).
        Win::CaptureAll => (b.side[opp] == 0).then_some(Reason::CaptureAll),
        Win::ReduceTo(n) => (b.count(opp) <= n as u32).then_some(Reason::ReduceTo),
        Win::Thrones(n) => {
            ((b.side[side] & THRONES[opp]).count_ones() >= n as u32).then_some(Reason::Thrones)
        }
    }
}
