//! The engine: a Monte Carlo tree search for every game behind [`Game`], used to
//! analyse a position, estimate an unfinished game and play.
//!
//! It knows [`crate::games`] and [`crate::dice`] only. Its files form a ladder, each
//! using only those before it:
//!
//! 1. [`stats`] — a playout's reward per seat, the Wilson interval;
//! 2. [`playout`] — a playout by the game's policy, cut and scored where the game says;
//! 3. [`tree`] — one open-loop search tree (chance drawn afresh each iteration);
//! 4. [`search`](mod@search) — trees on threads, merged at the root into an [`Analysis`].
//!
//! The future is unknown to the engine: every random event below the root comes from
//! its own generator, seeded by the caller (never by a record's `Seed`), and what no
//! seat has seen is dealt afresh ([`Game::determinize`]) on every iteration.
//!
//! [`Game`]: crate::games::Game
//! [`Game::determinize`]: crate::games::Game::determinize

pub mod playout;
pub mod search;
pub mod stats;
pub mod tree;

pub use search::{
    search, Analysis, Budget, Choice, Config, ExpectedStanding, OutcomeChoice, SeatEstimate,
    FEW_VISITS,
};

#[cfg(test)]
mod tests;
