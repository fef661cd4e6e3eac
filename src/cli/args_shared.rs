//! The option groups and value parsers that several commands share (`args` and
//! `args_match` flatten them in): where rulesets come from, how records are read, the
//! output formats, the engine's budget, and the completion lists of RULESET and
//! `--option`.

use clap::{Args, ValueEnum, ValueHint};
use std::path::PathBuf;

use crate::notation::record::Limits;

// Where rulesets are looked up, and settings changed: every command that loads one.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Ruleset options")]
pub struct RulesetOpts {
    /// A directory of rulesets searched before the shipped ones (repeatable); the
    /// REFEREE_RULESETS variable adds more.
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub rulesets: Vec<PathBuf>,
    /// Override a setting (repeatable): --option emperor=true. Applied after the
    /// ruleset, before a record's Options tag.
    #[arg(
        long = "option",
        value_name = "KEY=VALUE",
        value_parser = Offering(setting_values),
        hide_possible_values = true
    )]
    pub options: Vec<String>,
}

// How a record file is read: every command that reads one.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Record options")]
pub struct RecordOpts {
    /// Use this ruleset file for every record instead of its Ruleset tag.
    #[arg(
        long = "ruleset",
        id = "ruleset_file",
        value_name = "FILE",
        value_hint = ValueHint::FilePath
    )]
    pub ruleset_file: Option<PathBuf>,
    /// Treat warnings as errors: a tag whose name is a near-miss of one the referee
    /// reads ([Option …], [options …], [Frist …]) makes the record invalid.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub limits: LimitOpts,
}

// The size limits on what is read.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Record options")]
pub struct LimitOpts {
    /// Refuse record files larger than this many bytes (default 64 MiB).
    #[arg(long, default_value_t = Limits::default().max_bytes, hide_default_value = true, value_name = "BYTES")]
    pub max_bytes: usize,
    /// Refuse turn texts longer than this many bytes (default 64 KiB).
    #[arg(long, default_value_t = Limits::default().max_turn_bytes, hide_default_value = true, value_name = "BYTES")]
    pub max_turn_bytes: usize,
    /// Refuse records of more than this many turns (default 1,000,000).
    #[arg(long, default_value_t = Limits::default().max_turns, hide_default_value = true, value_name = "N")]
    pub max_turns: usize,
}

// Text or JSON output.
#[derive(Args, Debug, Clone)]
pub struct PlainFormat {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Plain::Text)]
    pub format: Plain,
}

// The colour of diagnostics.
#[derive(Args, Debug, Clone)]
pub struct ColorOpt {
    /// Colour: auto (only on a terminal, and not when NO_COLOR is set), always, never.
    #[arg(long, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A text diagram
    Text,
    /// One JSON document
    Json,
    /// An SVG picture of the position
    Svg,
    /// The setup string, for a record's Setup tag (Halasi: the layout only)
    Setup,
    /// One HTML page stepping through the whole record
    Html,
}

/// The output formats of every command but `show`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Plain {
    /// Text for people
    Text,
    /// JSON for programs
    Json,
}

impl From<Plain> for Format {
    fn from(p: Plain) -> Format {
        match p {
            Plain::Text => Format::Text,
            Plain::Json => Format::Json,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

/// An argument that takes any text but offers shell completion a list: the shipped
/// ruleset names for a RULESET (a path or a club's ruleset is just as welcome), every
/// setting with a few values as `KEY=VALUE` for `--option` (`emperor=true`,
/// `capture=compulsory`, each shipped Halasi tile set as `tile-set=standard`). The list
/// is hidden from `--help`.
#[derive(Clone, Debug)]
pub(super) struct Offering(pub(super) fn() -> Vec<&'static str>);

impl clap::builder::TypedValueParser for Offering {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            (self.0)()
                .into_iter()
                .map(clap::builder::PossibleValue::new),
        ))
    }
}

/// The shipped ruleset names, offered for a RULESET.
pub(super) fn ruleset_names() -> Vec<&'static str> {
    crate::ruleset::shipped::names().collect()
}

/// Every `KEY=VALUE` `--option` offers, made once (clap's completion takes `'static`
/// strings).
fn setting_values() -> Vec<&'static str> {
    use crate::ruleset::schema::{Alt, Kind};
    static VALUES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    VALUES
        .get_or_init(|| {
            let mut all: Vec<String> = Vec::new();
            for schema in crate::games::registry::schemas() {
                for s in schema.settings {
                    let values: Vec<String> = match s.kind {
                        Kind::Bool => vec!["true".into(), "false".into()],
                        Kind::Choice(alts) => alts
                            .iter()
                            .filter_map(|a| match a {
                                Alt::Word(w) => Some(w.to_string()),
                                Alt::Call { .. } => None,
                            })
                            .collect(),
                        Kind::Data { folder, ext, .. } => {
                            crate::ruleset::shipped::data_names(folder, ext)
                                .map(str::to_string)
                                .collect()
                        }
                        _ => Vec::new(),
                    };
                    all.extend(values.into_iter().map(|v| format!("{}={v}", s.key)));
                }
            }
            all.sort();
            all.dedup();
            all.into_iter()
                .map(|v| &*Box::leak(v.into_boxed_str()))
                .collect()
        })
        .clone()
}

// The engine's budget and threads (every engine command takes them).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Engine options")]
pub struct EngineArgs {
    /// Think for this many playouts in all (default 2000).
    #[arg(long, value_name = "N", conflicts_with = "time")]
    pub playouts: Option<u64>,
    /// Think for this long (`500ms`, `2s`, `1m`; a plain number is seconds).
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    /// Search threads, one tree each (1 to 256; default: the machine's cores, and one
    /// for `bot`, whose match shares the machine). With --playouts and the engine's
    /// seed (--seed; in play, --engine-seed) the answer depends on these three only.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The engine's seed when none is given.
pub const DEFAULT_SEED: &str = "engine";
