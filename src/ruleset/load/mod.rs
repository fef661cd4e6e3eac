//! Finding and loading rulesets: the search path ([`Library`], in `library.rs`), and
//! `extends` chains, the schema check and building the effective [`Ruleset`] (in
//! `resolve.rs`); the tests in `tests.rs`.
//!
//! The ruleset layer sits below the game modules, so it never names them: callers pass a
//! resolver from a game name to its [`Schema`] ([`Schemas`]).
//!
//! [`Ruleset`]: crate::ruleset::Ruleset

mod library;
mod resolve;
#[cfg(test)]
mod tests;

use super::schema::Schema;

pub(crate) use library::is_name;
pub use library::{check_name, Library, RulesetInfo, ENV_VAR};

/// A game name to its schema (`None` for a game this build does not have).
pub type Schemas<'a> = &'a dyn Fn(&str) -> Option<&'static Schema>;

/// The games of the spec, for suggesting a misspelt `game` line.
const GAMES: &[&str] = &["halatafl", "thaayam", "halves", "halasi"];
