//! The integration tests, one binary (linking one test binary instead of one per file
//! is most of what `cargo test` spends compiling them). Each module is one area; each
//! drives the built `referee` binary, or the library, as its header says.

mod common;

mod adversarial;
mod browser;
mod cli_play;
mod concurrency;
mod crash;
mod engine;
mod examples;
mod exit_codes;
mod first_try;
mod fuzz_regressions;
mod generate;
mod guide;
mod halasi_rules;
mod halasi_without_seed;
mod hostile;
mod hostile_bytes;
mod hostile_paths;
mod html;
mod ladders;
mod pictures;
mod properties;
mod records;
mod runner;
mod said_once;
mod setup_positions;
mod tags;
mod thaayam_setup_out;
mod walk;
mod written_records;
