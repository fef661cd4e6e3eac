//! Finding and loading rulesets, bottom-up: the search path ([`Library`], in
//! `library.rs`); the files of data settings on the same search path (in `data.rs`);
//! `extends` chains, the schema check and building the effective [`Ruleset`] (in
//! `resolve.rs`); loading by name or by path, listing and checking every ruleset (in
//! `entry.rs`). The tests are in `tests.rs`, `text_tests.rs` (conditional rule texts) and
//! `data_tests.rs`.
//!
//! The ruleset layer sits below the game modules, so it never names them: callers pass
//! the games they know, each by its [`Schema`] ([`Schemas`]), which also gives the names
//! a misspelt `game` line is matched against.
//!
//! [`Ruleset`]: crate::ruleset::Ruleset

mod data;
#[cfg(test)]
mod data_tests;
mod entry;
mod library;
mod resolve;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod text_tests;

use super::schema::Schema;

pub(crate) use library::is_name;
pub use library::{check_name, Library, RulesetInfo, ENV_VAR};

/// The games a caller knows, each by its [`Schema`] (whose `game` is its name), in the
/// order they are listed to users. Rulesets are checked against these; a `game` line
/// naming another game is an error suggesting one of them.
pub type Schemas<'a> = &'a [&'static Schema];

/// The schema of `game` among `schemas`.
fn schema_in(schemas: Schemas<'_>, game: &str) -> Option<&'static Schema> {
    schemas.iter().copied().find(|s| s.game == game)
}
