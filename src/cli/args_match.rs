//! The arguments of `referee match` and `referee bot` (issue 33), apart from the other
//! commands' in `args`.

use std::path::PathBuf;

use clap::{Args, ValueEnum, ValueHint};

/// How a game at the turn limit ends.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Adjudication {
    /// A draw.
    Draw,
    /// The engine's estimate decides where it is beyond doubt; a draw otherwise.
    Estimate,
}

use super::args_shared::{ruleset_names, EngineArgs, Offering, PlainFormat, RulesetOpts};

// `referee match` (a `//` comment: with `defer`, a doc comment here would be the
// command's about).
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file.
    #[arg(
        value_name = "RULESET",
        value_parser = Offering(ruleset_names),
        hide_possible_values = true,
        required_unless_present = "merge"
    )]
    pub ruleset: Option<String>,
    /// A bot: its name and the command that starts it, run by `sh -c` (repeatable; two
    /// or more): --bot 'strong=referee bot halatafl --playouts 2000'.
    #[arg(
        long = "bot",
        value_name = "NAME=CMD",
        required_unless_present = "merge"
    )]
    pub bots: Vec<String>,
    /// Games for each encounter, rounded up to whole pairs (two bots: the seats swapped;
    /// more: every rotation).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub games: usize,
    /// With more bots than the game has seats: only the encounters that hold the first
    /// bot, not every set of bots.
    #[arg(long)]
    pub gauntlet: bool,
    /// The seats that play, where the game allows a choice (`--seats south east north`).
    #[arg(long, num_args = 1.., value_name = "SEAT")]
    pub seats: Vec<String>,
    /// The seed of the whole schedule: every game's dice and opening derive from it.
    #[arg(long, default_value = "match", value_name = "SEED")]
    pub seed: String,
    /// Records whose turns open the pairs, one record a pair in turn (a record with a
    /// Seed gives its pair that seed, so its throws and rolls replay).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub openings: Option<PathBuf>,
    /// Open each pair of games with this many uniformly random legal turns (after the
    /// opening, if any).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub random_turns: usize,
    /// The most one turn may take (`100ms`, `2s`). Without it and --tc, 10 s.
    #[arg(long, value_name = "DURATION", help_heading = "Time")]
    pub movetime: Option<String>,
    /// A game clock: SECONDS+INCREMENT for each seat (`10+0.1`).
    #[arg(long, value_name = "S+I", help_heading = "Time")]
    pub tc: Option<String>,
    /// How far past its time an answer still counts (default 50ms).
    #[arg(
        long,
        default_value = "50ms",
        value_name = "DURATION",
        help_heading = "Time"
    )]
    pub timemargin: String,
    /// How long a bot may take from its start to its `ready`.
    #[arg(
        long,
        default_value = "10s",
        value_name = "DURATION",
        help_heading = "Time"
    )]
    pub startup: String,
    /// End a game still going after this many turns as a draw (or see --adjudicate).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub max_turns: usize,
    /// How a game at --max-turns ends: `draw`, or `estimate`: won by the seat the
    /// engine's estimate (2000 playouts, one thread) puts ahead beyond its 95 %
    /// interval, else a draw.
    #[arg(long, value_enum, default_value_t = Adjudication::Draw)]
    pub adjudicate: Adjudication,
    /// Games played at once (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Append each finished game's record to FILE (`referee check FILE` re-checks the
    /// whole match).
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub out: Option<PathBuf>,
    /// Keep every finished game's result in FILE; running the same command again on it
    /// continues the match where it stopped, even after a kill.
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub state: Option<PathBuf>,
    /// Play the K-th of N disjoint parts of the schedule (`--shard 2/4`); combine their
    /// states with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Combine the state files of a match's shards into one report, and play nothing.
    #[arg(long, num_args = 1.., value_name = "STATE", value_hint = ValueHint::FilePath, conflicts_with_all = ["ruleset", "bots", "state", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Stop when a sequential probability ratio test decides (two bots):
    /// --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized|logistic].
    #[arg(long, num_args = 4..=5, value_name = "K=V")]
    pub sprt: Vec<String>,
    /// The records' Event tag.
    #[arg(long, default_value = "match", value_name = "NAME")]
    pub event: String,
    #[command(flatten)]
    pub format: PlainFormat,
    #[command(flatten)]
    pub rulesets: RulesetOpts,
}

// `referee bot`.
#[derive(Args, Debug, Clone)]
pub struct BotArgs {
    /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file. The
    /// settings the runner's `hello` names are applied to it.
    #[arg(value_name = "RULESET", value_parser = Offering(ruleset_names), hide_possible_values = true)]
    pub ruleset: String,
    /// Play uniformly random legal turns instead of the engine's.
    #[arg(long, conflicts_with_all = ["playouts", "time"])]
    pub random: bool,
    /// The name the bot gives in `ready`.
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// The seed of the bot's own choices (never the game's dice, which it does not know).
    #[arg(long, default_value = "bot", value_name = "SEED")]
    pub seed: String,
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(flatten)]
    pub rulesets: RulesetOpts,
}

// `referee bot-check`.
#[derive(Args, Debug, Clone)]
pub struct BotCheckArgs {
    /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file.
    #[arg(value_name = "RULESET", value_parser = Offering(ruleset_names), hide_possible_values = true)]
    pub ruleset: String,
    /// The bot's command and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
    /// Games to play against the referee's random bot (whole pairs: the bot plays every
    /// seat).
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub games: usize,
    /// The most one turn may take.
    #[arg(long, default_value = "10s", value_name = "DURATION")]
    pub movetime: String,
    /// How long the bot may take from its start to its `ready`.
    #[arg(long, default_value = "10s", value_name = "DURATION")]
    pub startup: String,
    /// The seed of the games' dice.
    #[arg(long, default_value = "bot-check", value_name = "SEED")]
    pub seed: String,
    #[command(flatten)]
    pub rulesets: RulesetOpts,
}
