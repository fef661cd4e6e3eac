//! What the ruleset layer's tests load rulesets against: the game modules' own schemas,
//! so a test can never pass against a schema the module does not declare.

use super::schema::Schema;

/// The Halatafl schema, as its module declares it.
pub(crate) use crate::games::halatafl::SCHEMA as HALATAFL;

/// The resolver tests pass to the loader: every registered game's own schema, so the
/// shipped rulesets of every game load in these tests.
pub(crate) fn schemas() -> &'static [&'static Schema] {
    crate::games::registry::schemas()
}
