//! `referee` — a command-line referee for Halatafl, Thaayam, Halves and Halasi.
//!
//! The crate is layered; each layer knows only the ones listed before it:
//!
//! 0. [`quote`] — how messages quote user text (clipped, escaped).
//! 1. [`notation`] — the record frame and each game's turn notation: pest grammars
//!    (in `grammar/`) turned into a typed AST with spans.
//! 2. [`ruleset`] — the ruleset language, game schemas, effective settings, rule texts.
//! 3. [`dice`] — the version-1 derivation of random events from a seed.
//! 4. [`games`] — one pure rules module per game behind the [`games::Game`] trait.
//! 5. [`referee`] — replay of a record into a ruling; [`engine`] — a search for the
//!    best turn and the likely outcome (beside the referee: it knows only `games` and
//!    `dice`).
//! 6. [`runner`] — bot matches: the bot protocol, bot processes, games judged by the
//!    referee, resumable schedules, the statistics (it uses the referee and the engine).
//! 7. [`cli`] — the command line: clap, rendering, the stdin protocol.

pub mod cli;
pub mod dice;
pub mod engine;
pub mod fuzzing;
pub mod games;
pub mod notation;
pub mod quote;
pub mod referee;
pub mod ruleset;
pub mod runner;
