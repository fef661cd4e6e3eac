//! What a game module declares about itself: its settings (key, kind, default, allowed
//! values, description) and the rule ids it can cite. Rulesets are checked against this.

use std::any::Any;
use std::sync::Arc;

/// One alternative of a [`Kind::Choice`] setting: a bare word (`capture-all`) or a call
/// with one integer argument in a range (`reduce-to(5)`, N in `min..=max`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Alt {
    Word(&'static str),
    Call {
        name: &'static str,
        min: i64,
        max: i64,
    },
}

/// The kind of value a setting takes.
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// One of a fixed set of words or calls.
    Choice(&'static [Alt]),
    /// A list of distinct words drawn from `allowed` (for example seats), with a length
    /// in `min..=max`.
    WordList {
        allowed: &'static [&'static str],
        min: usize,
        max: usize,
    },
    /// A list of integers, each in `min..=max`.
    IntList { min: i64, max: i64 },
    /// A map from the given keys to integers (Halasi's score tables).
    IntMap { keys: &'static [&'static str] },
    /// A free string.
    Str,
    /// The bare name of a data file found on the ruleset search path: `FOLDER/NAME.EXT`
    /// in each `--rulesets` directory in order, then among the shipped `rulesets/`
    /// (Halasi's `tile-set = standard` is `halasi/standard.yaml`). The value is checked
    /// like a ruleset name: never a path. The library finds and reads the file; `load`,
    /// the game module's pure parser, turns its text into the value the module takes
    /// back with [`Ruleset::data`](super::Ruleset::data).
    Data {
        folder: &'static str,
        ext: &'static str,
        load: DataLoad,
    },
}

/// A data file's parsed value, the game module's own type behind `Any`.
pub type DataValue = Arc<dyn Any + Send + Sync>;

/// A game module's parser of a data file: `name` is the file's stem, `text` its text.
/// Pure: no I/O.
pub type DataLoad = fn(name: &str, text: &str) -> Result<DataValue, DataError>;

/// What is wrong with a data file, and where (1-based line and column; 0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// One setting a game module offers.
#[derive(Copy, Clone, Debug)]
pub struct SettingSpec {
    pub key: &'static str,
    pub kind: Kind,
    /// The default, written as it would be in a `set` line (`main`, `[white black]`, `0`).
    pub default: &'static str,
    /// One line shown by `referee rules`.
    pub description: &'static str,
}

/// A game module's declaration.
#[derive(Copy, Clone, Debug)]
pub struct Schema {
    /// The module name, as in `game halatafl`.
    pub game: &'static str,
    pub settings: &'static [SettingSpec],
    /// Every rule id the module can cite (the common ids of `record.md` included).
    pub rules: &'static [&'static str],
    /// For each rule id, the setting whose value makes the rule apply (a ruling cites where
    /// that setting was set). Rules that always apply are not listed.
    pub rule_settings: &'static [(&'static str, &'static str)],
}

impl Schema {
    pub fn setting(&self, key: &str) -> Option<&'static SettingSpec> {
        self.settings.iter().find(|s| s.key == key)
    }
    pub fn setting_for_rule(&self, rule: &str) -> Option<&'static str> {
        self.rule_settings
            .iter()
            .find(|(r, _)| *r == rule)
            .map(|(_, k)| *k)
    }
}

/// The rule ids every game cites (`record.md`, "Common rule ids").
pub const COMMON_RULES: &[&str] = &["turn-order", "game-over", "setup", "address"];
