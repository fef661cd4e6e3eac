//! The runner: bot matches and tournaments (`referee match`, `referee bot`, issue 33).
//!
//! It sits beside the engine, above the referee: the referee judges every turn a bot
//! plays, the engine is the bot `referee bot` runs. Its files form a ladder, each using
//! only those before it:
//!
//! 1. [`protocol`] — the bot protocol's messages, typed;
//! 2. [`stats`] — the match statistics, pure functions;
//! 3. [`ratings`] — the ratings of more than two bots and their intervals, pure
//!    functions;
//! 4. [`process`] — a bot's process: started, read, timed, killed;
//! 5. [`view`] — what a seat may know of a game, and a game rebuilt from it;
//! 6. [`bot`] — the engine as a bot (`referee bot`);
//! 7. [`game`] — one game between bots, judged turn by turn;
//! 8. [`schedule`] — which bots play which seats with which seed, game by game;
//! 9. [`report`] — the results summed up as they come: scores, Elo, SPRT, crosstable,
//!    ratings;
//! 10. [`tournament`] — the games played, written, counted, resumed and merged.

pub mod bot;
pub mod game;
pub mod process;
pub mod protocol;
pub mod ratings;
pub mod report;
pub mod schedule;
pub mod stats;
pub mod tournament;
pub mod view;
