//! The ruleset language (`ruleset.md`): parsing `.rules` files, following `extends`,
//! checking settings against a game's [`Schema`], the record's `Options` overrides, and
//! the shipped rulesets built into the binary.
//!
//! ```text
//! let lib = Library::from_env(cli_dirs);                 // --rulesets DIRs, REFEREE_RULESETS
//! check_name(tag)?;                                      // a record's Ruleset tag: a bare name
//! let rs = lib.load("halatafl-emperor", resolver)?;      // or lib.load_file(path, resolver)
//! let overrides = [Override::from_option("win=reduce-to(5)")?]
//!     .into_iter()
//!     .chain(Override::from_options_tag(options, record_file, line, column)?);
//! let mut rs = apply_overrides(&rs, schema, &overrides.collect::<Vec<_>>())?;
//! lib.load_data(&mut rs, schema)?;                       // data settings' files, again
//! lib.list();  lib.check_all(resolver);                  // referee rules [--check]
//! ```
//!
//! `resolver` is the caller's list of games, each by its [`Schema`] ([`Schemas`]; the
//! registry `games::registry` gives it); this layer never names the game modules.
//! Positions: a setting's [`Origin::Ruleset`] is the start of the `set` line that set it
//! (the nearest in the chain); a [`RuleText`]'s location is where its quoted text starts.
//!
//! A data setting ([`Kind::Data`], Halasi's `tile-set`) names a file found on the same
//! search path (`DIR/halasi/standard.yaml`, then the shipped `rulesets/halasi/`); the
//! library reads it, the game module's pure `load` parses it, and the result rides on
//! the [`Ruleset`] ([`Ruleset::data`]).
//!
//! Submodules: [`parse`] (pest grammar `grammar/ruleset.pest` to a typed AST; the
//! common lines read by hand in `lines`),
//! [`check`] (a value against a [`Kind`]), [`load`] (the [`Library`], `extends`,
//! building a [`Ruleset`]), [`overrides`], [`shipped`] (the embedded `rulesets/`),
//! [`error`] ([`RulesetError`] and suggestions).

mod ast;
pub mod check;
pub mod error;
mod lines;
pub mod load;
pub mod overrides;
pub mod parse;
pub mod schema;
pub mod shipped;
#[cfg(test)]
pub(crate) mod testing;
pub mod value;

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

pub use error::RulesetError;
pub use load::{check_name, Library, RulesetInfo, Schemas};
pub use overrides::{apply_overrides, parse_options_tag, OptionItem, Override};
pub use parse::parse_value;
pub use schema::{Alt, DataError, DataLoad, DataValue, Kind, Schema, SettingSpec, COMMON_RULES};
pub use value::Value;

/// Where something was written: a ruleset file (as displayed, `rulesets/halatafl.rules`),
/// a line and a column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// Where an effective setting's value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The module's default: no ruleset in the chain sets it.
    Default,
    /// A `set` line of a ruleset file.
    Ruleset(Location),
    /// A command-line `--option KEY=VALUE`.
    CommandLine,
    /// The record's `Options` tag (the location points into the record).
    Options(Location),
    /// The record's `Seats` tag.
    SeatsTag(Location),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("the module's default"),
            Origin::Ruleset(loc) => write!(f, "{loc}"),
            Origin::CommandLine => f.write_str("the command line (--option)"),
            Origin::Options(loc) => write!(f, "the record's Options tag ({loc})"),
            Origin::SeatsTag(loc) => write!(f, "the record's Seats tag ({loc})"),
        }
    }
}

/// One effective setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub value: Value,
    pub origin: Origin,
}

/// The text of one rule and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleText {
    pub text: String,
    pub location: Location,
}

/// One `KEY = VALUE` of a rule text's condition: the text applies while the setting
/// `key` has this value.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    pub key: String,
    pub value: Value,
}

/// A rule text written for some settings (`rule huff when capture = compulsory "…"`):
/// it applies while every test holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Conditional {
    pub when: Vec<Test>,
    pub text: RuleText,
}

impl Conditional {
    /// `when capture = compulsory`, as written.
    pub fn condition(&self) -> String {
        Condition(&self.when).to_string()
    }
    /// Whether every test holds under `settings`.
    pub fn holds(&self, settings: &BTreeMap<String, Setting>) -> bool {
        self.when
            .iter()
            .all(|t| settings.get(&t.key).is_some_and(|s| s.value == t.value))
    }
}

/// `when capture = compulsory and continue-jumps = optional`, as written.
pub struct Condition<'a>(pub &'a [Test]);

impl fmt::Display for Condition<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            let word = if i == 0 { "when" } else { " and" };
            write!(f, "{word} {} = {}", t.key, t.value)?;
        }
        Ok(())
    }
}

/// Every text a ruleset gives one rule: the plain text, and the conditional texts in the
/// order they are tried (the nearest file of the chain first, each file's in the order
/// written). The first conditional text that holds is the text in force, else the plain
/// text.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleTexts {
    pub plain: RuleText,
    pub conditional: Vec<Conditional>,
}

impl RuleTexts {
    /// The text in force under `settings`.
    pub fn in_force(&self, settings: &BTreeMap<String, Setting>) -> &RuleText {
        self.conditional
            .iter()
            .find(|c| c.holds(settings))
            .map_or(&self.plain, |c| &c.text)
    }
}

/// A loaded ruleset: its `extends` chain followed to the base, every setting of the
/// game's schema present (defaults filled in), every rule id with its text.
#[derive(Clone, Debug)]
pub struct Ruleset {
    pub name: String,
    /// The game module (`halatafl`).
    pub game: String,
    pub title: Option<String>,
    pub source: Option<String>,
    /// Where the ruleset was loaded from, as displayed (`rulesets/halatafl.rules`).
    pub file: String,
    /// The names of the chain, this ruleset first, its base last.
    pub chain: Vec<String>,
    pub settings: BTreeMap<String, Setting>,
    /// Every rule id with its text in force under `settings`: the plain text, or for a
    /// rule with conditional texts the one chosen from `texts` when the ruleset is built
    /// and again by [`apply_overrides`] ([`Ruleset::choose_texts`]), so a ruling only
    /// looks its rule up.
    pub rules: BTreeMap<String, RuleText>,
    /// Every text of each rule that has conditional texts (`rule ID when …`), the
    /// plain one included; a rule missing here has its plain text only.
    pub texts: BTreeMap<String, RuleTexts>,
    /// The files of the data settings ([`Kind::Data`]), by key, as loaded for their
    /// current values. Filled by the [`Library`] when it loads a ruleset and by
    /// [`Library::load_data`] after overrides; [`apply_overrides`] drops what it changes.
    pub data: BTreeMap<String, Data>,
}

/// A data setting's file, loaded: the name the setting gives, where the file was found,
/// and what the game module's parser made of it.
#[derive(Clone)]
pub struct Data {
    /// The setting's value (`standard`).
    pub name: String,
    /// The file as displayed (`rulesets/halasi/standard.yaml`, or its path in a
    /// `--rulesets` directory).
    pub file: String,
    pub value: DataValue,
}

impl fmt::Debug for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Data")
            .field("name", &self.name)
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl Ruleset {
    /// The effective value of a setting of the schema. Every schema key is present once
    /// the ruleset is loaded, so this only returns `None` for a key the schema lacks.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.settings.get(key).map(|s| &s.value)
    }
    pub fn origin(&self, key: &str) -> Option<&Origin> {
        self.settings.get(key).map(|s| &s.origin)
    }
    /// The text of rule `id` in force under the ruleset's settings.
    pub fn rule(&self, id: &str) -> Option<&RuleText> {
        self.rules.get(id)
    }
    /// Chooses the text in force of every rule that has conditional texts, under the
    /// current settings (after the settings change: once per ruleset, never per turn).
    pub fn choose_texts(&mut self) {
        for (id, all) in &self.texts {
            let chosen = all.in_force(&self.settings);
            match self.rules.get_mut(id) {
                Some(slot) if slot.location == chosen.location => {}
                Some(slot) => *slot = chosen.clone(),
                None => {
                    self.rules.insert(id.clone(), chosen.clone());
                }
            }
        }
    }
    /// Where the setting that makes rule `id` apply was set (the schema's
    /// `rule_settings`), for a ruling's citation; `None` for a rule that always applies.
    pub fn rule_origin(&self, schema: &Schema, id: &str) -> Option<&Origin> {
        self.cited_setting(schema, id)
            .and_then(|key| self.origin(key))
    }
    /// The setting a ruling on rule `id` cites as the reason it applies. Where the text
    /// in force is one written for some settings (`when diagonals = none`), a setting
    /// of its condition: the schema's own for the rule when the condition names it,
    /// else the condition's first. Otherwise the schema's (`rule_settings`); `None` for
    /// a rule that always applies.
    pub fn cited_setting<'a>(&'a self, schema: &Schema, id: &str) -> Option<&'a str> {
        let own = schema.setting_for_rule(id);
        let written_for = self
            .texts
            .get(id)
            .and_then(|all| all.conditional.iter().find(|c| c.holds(&self.settings)));
        match written_for {
            None => own
                .and_then(|k| self.settings.get_key_value(k))
                .map(|(k, _)| k.as_str()),
            Some(c) => c
                .when
                .iter()
                .find(|t| Some(t.key.as_str()) == own)
                .or(c.when.first())
                .map(|t| t.key.as_str()),
        }
    }
    /// The loaded value of the data setting `key` (a Halasi tile set), when it is loaded
    /// and of type `T`.
    pub fn data<T: Any + Send + Sync>(&self, key: &str) -> Option<Arc<T>> {
        self.data.get(key)?.value.clone().downcast::<T>().ok()
    }
}
