//! The games this build referees.
//!
//! `for_each_game!` is the **only place a game is registered**. Every layer derives
//! what it needs from it, each expanding the same list with its own bound:
//!
//! - here: the names ([`NAMES`]) and the schema resolver ([`schemas`], [`schema_of`])
//!   that the ruleset layer is given (it sits below the games and never names them);
//! - `referee`: the dispatch of a record to `judge::<G>` by its `Game` tag;
//! - `cli`: the generic `Visitor` dispatch, which also needs each game's `Render`.
//!
//! Adding a game is one line in the list below (once its module implements [`Game`],
//! and the command line's `Render`).

use std::sync::LazyLock;

use super::Game;
use crate::ruleset::Schema;

/// Calls the macro `$callback` with the type of every registered game, in the order
/// they are listed to users (`halatafl, thaayam, halves, halasi`):
///
/// ```text
/// macro_rules! names { ($($game:ty),* $(,)?) => { &[$(<$game as Game>::NAME),*] }; }
/// const NAMES: &[&str] = for_each_game!(names);
/// ```
///
/// This list is the only place a game is registered: the names, the schema resolver,
/// the record dispatch in `referee` and the `Visitor` dispatch in `cli` all expand it.
macro_rules! for_each_game {
    ($callback:ident) => {
        $callback! {
            $crate::games::halatafl::Halatafl,
            $crate::games::thaayam::Thaayam,
            $crate::games::halves::Halves,
            $crate::games::halasi::Halasi,
        }
    };
}
pub(crate) use for_each_game;

macro_rules! names {
    ($($game:ty),* $(,)?) => {
        &[$(<$game as Game>::NAME),*]
    };
}

/// The names of the registered games, as in `game NAME` and `[Game "NAME"]`.
pub const NAMES: &[&str] = for_each_game!(names);

macro_rules! schema_list {
    ($($game:ty),* $(,)?) => {
        vec![$(<$game as Game>::schema()),*]
    };
}

/// The schema of every registered game, in [`NAMES`] order: the resolver the ruleset
/// layer loads rulesets against.
pub fn schemas() -> &'static [&'static Schema] {
    static ALL: LazyLock<Vec<&'static Schema>> = LazyLock::new(|| for_each_game!(schema_list));
    &ALL
}

/// The schema of the registered game `game`.
pub fn schema_of(game: &str) -> Option<&'static Schema> {
    schemas().iter().copied().find(|s| s.game == game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_schemas_agree() {
        let games: Vec<&str> = schemas().iter().map(|s| s.game).collect();
        assert_eq!(games, NAMES);
        for name in NAMES {
            assert_eq!(schema_of(name).map(|s| s.game), Some(*name));
        }
    }
}
