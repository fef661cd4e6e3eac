//! The command line's definitions (`cli.md`): every command and option as clap parses
//! them, and [`Global`], what every command reads from them (formats, rulesets, limits,
//! colour). Running a command is in the parent module.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueHint};

use std::str::FromStr;

use super::args_shared::{ruleset_names, Offering};
pub use super::args_shared::{
    ColorOpt, ColorWhen, EngineArgs, Format, LimitOpts, Plain, PlainFormat, RecordOpts,
    RulesetOpts, DEFAULT_SEED,
};
use super::guide;
use crate::notation::record::{Limits, TurnNumber};

const AFTER_HELP: &str = "\
Examples:
  referee guide                                # the guide: records, rulesets, each game
  referee guide thaayam                        # how to write a Thaayam turn
  referee check games/halatafl/opening.game    # validate a record
  referee check games/                         # every *.game under games/ (exit 1)
  referee adjudicate games/halatafl/disputed-missed-capture-huff.game
  referee moves games/halatafl/opening.game    # legal turns for the seat to move
  echo 'e3-d4' | referee play halatafl --format json
  referee rules halatafl                       # settings and rule texts
  referee completions bash > referee.bash      # a bash completion script
  referee man --out ~/.local/share/man/man1    # the manual pages

Exit codes: 0 all valid / done, 1 a record invalid or a turn refused, 2 usage or I/O error.";

/// A command-line referee for Halatafl, Thaayam, Halves and Halasi game records.
///
/// `referee guide` explains the record notation, the ruleset language and each game.
#[derive(Parser, Debug)]
#[command(name = "referee", version, about, long_about = None, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// What a command was given beyond its own arguments: where rulesets come from, the
/// limits, the output. Each command takes only the options that mean something for it
/// ([`Command::global`]); the others keep their defaults here.
#[derive(Debug, Clone)]
pub struct Global {
    pub rulesets: Vec<PathBuf>,
    pub ruleset_file: Option<PathBuf>,
    pub options: Vec<String>,
    pub format: Format,
    pub quiet: bool,
    pub color: ColorWhen,
    pub max_bytes: usize,
    pub max_turn_bytes: usize,
    pub max_turns: usize,
    pub strict: bool,
}

impl Default for Global {
    fn default() -> Global {
        let limits = Limits::default();
        Global {
            rulesets: Vec::new(),
            ruleset_file: None,
            options: Vec::new(),
            format: Format::Text,
            quiet: false,
            color: ColorWhen::Auto,
            max_bytes: limits.max_bytes,
            max_turn_bytes: limits.max_turn_bytes,
            max_turns: limits.max_turns,
            strict: false,
        }
    }
}

/// Each command's arguments are built only when clap needs them (`defer`): for the
/// command argv names, for its `--help`, for completions and manual pages (clap builds
/// the whole tree for them). A cold `check` of one record would otherwise build the
/// arguments of every command, the record options seven times.
///
/// The option groups a command flattens in (`RulesetOpts`, `RecordOpts`, …) are
/// described by `//` comments, not doc comments: clap makes a group's doc comment the
/// command's `about`, and with `defer` the group's arguments are added after the
/// command's own `about`, so the group's would replace it.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub enum Command {
    /// Validate records: syntax, every turn's legality, dice against the seed, the
    /// declared result.
    #[command(
        after_help = "Example:\n  referee check games/halatafl/*.game    # exit 1: the disputed-* records are illegal on purpose\n  cat games/halves/complete-3p.game | referee check - --format json\n  referee check games/ --glob '!disputed-*'\n\nA directory is walked for *.game files, sorted by path; hidden files and\ndirectories and what .gitignore or .ignore files name are skipped, symbolic links\nare not followed. A file named on the command line is checked whatever its name."
    )]
    Check {
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true, value_name = "FILE|DIR", value_hint = ValueHint::AnyPath)]
        files: Vec<String>,
        /// In directories, check the files this glob matches instead of *.game;
        /// `!GLOB` leaves files out (repeatable; ripgrep's --glob: a match overrides
        /// the hidden and ignore rules).
        #[arg(long, short = 'g', value_name = "GLOB")]
        glob: Vec<String>,
        /// Print less: only invalid records, warnings and the summary.
        #[arg(long, short)]
        quiet: bool,
        /// Judge records on N threads (1 to 256; default: the machine's cores, or
        /// RAYON_NUM_THREADS). With 1, everything runs on one thread, reading included.
        /// The output is the same for every N.
        #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// A full ruling: each turn judged, the first violation with its rule, the position
    /// before it and the legal alternatives, the result.
    #[command(
        after_help = "Example:\n  referee adjudicate games/halatafl/disputed-missed-capture-compulsory.game    # exit 1\n  referee adjudicate games/thaayam/two-seats.game --turn 3"
    )]
    Adjudicate {
        /// The record file (its last record is ruled); `-` reads standard input.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// Rule on this turn only: N counts every turn from 1, or write the turn as the
        /// record numbers it (`2.`, `2...`). The position before it, the legal turns, the
        /// verdict.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        turn: Option<TurnArg>,
        /// For an unfinished game: the engine's estimate of the outcome and how sure it
        /// is (Halasi: the expected final purses and standings).
        #[arg(long)]
        estimate: bool,
        /// The seed of the engine's own generator (with --estimate).
        #[arg(long, default_value = DEFAULT_SEED, requires = "estimate")]
        seed: String,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// The engine's view of a position: each seat's estimated chance to win with a 95 %
    /// interval, the best turns for the seat to move, the expected line of play.
    #[command(
        visible_alias = "analyze",
        after_help = "Example:\n  referee analyse games/halatafl/opening.game\n  referee analyse games/thaayam/two-seats.game --turn 20 --playouts 5000 --seed s1\n  referee analyse games/halves/worked-example.game --time 1s --format json\n\nWith a Seed the referee derives the throw or roll the seat to move faces, and the best\nturns are its choices under it. Without one that outcome is not known until written:\nthe seat's chances are listed by outcome, with the best choice under each. Every\noutcome after it is drawn by the engine (--seed), never read from the record's Seed.\nTurns of fewer than 30 visits are marked \"few visits\". With --playouts, --seed and\n--threads the answer is reproducible."
    )]
    Analyse {
        /// The record file (its last record); `-` reads standard input.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// After this many turns (default: the last), or after the turn the record
        /// numbers so (`2.`, `2...`).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        turn: Option<TurnArg>,
        /// The seed of the engine's own generator.
        #[arg(long, default_value = DEFAULT_SEED)]
        seed: String,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// An interactive game on stdin/stdout: one turn or `:command` a line, one answer to
    /// each (`:help` lists the commands).
    #[command(
        after_help = "Example:\n  printf 'e3-d4\\n:moves\\n' | referee play halatafl --format json\n  printf ':status\\n' | referee play thaayam --seed s1\n  printf 'e3-d4\\n' | referee play halatafl --record game.game\n  printf 'e3-d4\\n' | referee play halatafl --engine black --playouts 500\n\nEach line is a turn in the game's notation (`referee guide GAME` shows how to write\none) or one of :help :show :moves :undo :record :status :quit."
    )]
    Play {
        /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file.
        #[arg(value_name = "RULESET", value_parser = Offering(ruleset_names), hide_possible_values = true)]
        ruleset: String,
        /// The seed of the game's random events (throws, rolls, shuffles): any text.
        #[arg(long, value_name = "SEED")]
        seed: Option<String>,
        /// The seats that play, where the game allows a choice (`--seats south east
        /// north`).
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        seats: Vec<String>,
        /// Append every accepted turn to this record file (resumed when it exists).
        #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        record: Option<PathBuf>,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        limits: LimitOpts,
        /// The engine plays these seats: after each accepted turn it plays while one of
        /// them is to move, each of its turns answered on its own line.
        #[arg(long, num_args = 1.., value_name = "SEAT", help_heading = "Engine options")]
        engine: Vec<String>,
        /// The seed of the engine's own generator.
        #[arg(long, default_value = DEFAULT_SEED, value_name = "S", help_heading = "Engine options")]
        engine_seed: String,
        #[command(flatten)]
        engine_args: EngineArgs,
    },
    /// Append one turn to a record file after checking it.
    #[command(
        name = "move",
        after_help = "Example:\n  referee new halatafl > game.game && referee move game.game 'e3-d4' --expect 1"
    )]
    Move {
        /// The record file to append to (its last record).
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: PathBuf,
        /// The turn, in the game's notation (quote it: turns hold spaces and brackets).
        #[arg(value_name = "TURN")]
        turn: String,
        /// Refuse unless the turn would be turn N (1-based), as a play-by-mail server's
        /// move#N does.
        #[arg(long, value_name = "N")]
        expect: Option<usize>,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// The position after turn N (default: the last) as a text diagram, JSON, an SVG
    /// picture, a setup string, or an HTML page stepping through the record.
    ///
    /// A setup string of Halatafl, Thaayam or Halves is the whole position: a record
    /// with it as its Setup tag goes on from there. Halasi's lists the layout's
    /// territories only (no dominos, hands, purses or phase): in solitaire it is the
    /// Setup of a record that starts before its home turn; the table game has no Setup.
    #[command(
        after_help = "Example:\n  referee show games/halatafl/opening.game --turn 2\n  referee show games/thaayam/two-seats.game --format setup\n  referee show games/halasi/table-2-seats.game --format svg > layout.svg"
    )]
    Show {
        /// The record file (its last record); `-` reads standard input.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// After this many turns (0 = the start), or after the turn the record numbers
        /// so (`2.`, `2...`).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        turn: Option<TurnArg>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// Every legal turn for the seat to move, one a line, in the record notation.
    #[command(
        after_help = "Example:\n  referee moves games/halatafl/opening.game\n  referee moves games/halatafl/opening.game --turn 0"
    )]
    Moves {
        /// The record file (its last record); `-` reads standard input.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// After this many turns (default: the last), or after the turn the record
        /// numbers so (`2.`, `2...`).
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        turn: Option<TurnArg>,
        /// Only the engine's choice among the legal turns.
        #[arg(long)]
        best: bool,
        /// The seed of the engine's own generator (with --best).
        #[arg(long, default_value = DEFAULT_SEED, requires = "best")]
        seed: String,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        engine: EngineArgs,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// Halasi: every turn's score explained, domino by domino and route by route; for
    /// every game the standings.
    #[command(after_help = "Example:\n  referee score games/halasi/figure-25.game --turn 7")]
    Score {
        /// The record file (its last record); `-` reads standard input.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        file: String,
        /// Only this turn's score (N counts every turn from 1, or `7.` as the record
        /// numbers it), and the standings after it.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        turn: Option<TurnArg>,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        color: ColorOpt,
        #[command(flatten)]
        rulesets: RulesetOpts,
        #[command(flatten)]
        record: RecordOpts,
    },
    /// List the rulesets, or show one ruleset's settings (effective value, where set)
    /// and rule texts (the text in force under those settings, then the rule's texts
    /// for other settings, by condition).
    #[command(
        after_help = "Example:\n  referee rules\n  referee rules halatafl-emperor\n  referee rules thaayam --option twins=false\n  referee rules --check"
    )]
    Rules {
        /// The ruleset to show: a name or a path to a .rules file (none: list them all).
        #[arg(value_name = "NAME", value_parser = Offering(ruleset_names), hide_possible_values = true)]
        name: Option<String>,
        /// Check every available ruleset: syntax, schema, rule texts.
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        format: PlainFormat,
        #[command(flatten)]
        rulesets: RulesetOpts,
    },
    /// Print the header of a new record.
    #[command(
        after_help = "Example:\n  referee new halatafl-emperor > game.game\n  referee new thaayam --seats south east north --seed 'club night 3'"
    )]
    New {
        /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file.
        #[arg(value_name = "RULESET", value_parser = Offering(ruleset_names), hide_possible_values = true)]
        ruleset: String,
        /// The seed of the game's random events: any text; the header gets it and its
        /// SeedCommit. Without it, a game with random events gets a fresh seed from the
        /// operating system (its Seed tag only).
        #[arg(long, value_name = "SEED")]
        seed: Option<String>,
        /// No seed: the players throw real dice and write every outcome in the record.
        #[arg(long, conflicts_with = "seed")]
        no_seed: bool,
        /// The seats that play, where the game allows a choice (`--seats south east
        /// north`).
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        seats: Vec<String>,
        #[command(flatten)]
        rulesets: RulesetOpts,
    },
    /// Play N games of uniformly random legal turns and print them as records.
    #[command(
        after_help = "Example:\n  referee selfplay halatafl --games 10 --seed s1 > random.game\n  referee selfplay halatafl --engine white --playouts 200 --games 2\n  referee selfplay halasi --seats a b c d --engine a --playouts 200 --games 1"
    )]
    Selfplay {
        /// The ruleset: a name (`referee rules` lists them) or a path to a .rules file.
        #[arg(value_name = "RULESET", value_parser = Offering(ruleset_names), hide_possible_values = true)]
        ruleset: String,
        /// How many games to play.
        #[arg(long, value_name = "N")]
        games: usize,
        /// The seats that play, where the game allows a choice (`--seats south east
        /// north`); each record gets a Seats tag.
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        seats: Vec<String>,
        /// The seed of the random choices (and of each game's dice).
        #[arg(long, default_value = "selfplay", value_name = "SEED")]
        seed: String,
        /// Stop a game after this many turns (it is printed with Result "*").
        #[arg(long, default_value_t = 1000, value_name = "N")]
        max_turns: usize,
        /// The engine plays these seats (the others play uniformly random turns); its
        /// seed derives from --seed.
        #[arg(long, num_args = 1.., value_name = "SEAT", help_heading = "Engine options")]
        engine: Vec<String>,
        #[command(flatten)]
        engine_args: EngineArgs,
        #[command(flatten)]
        rulesets: RulesetOpts,
    },
    /// Run bots against each other: a match (two bots) or a round robin, every turn
    /// judged, forfeits ruled, records written, with Elo and its 95 % interval.
    #[command(
        after_help = "Example:\n  referee match halatafl --bot strong='referee bot halatafl --playouts 200' --bot random='referee bot halatafl --random' --games 2\n  referee match halves --bot a='referee bot halves --random' --bot b='referee bot halves --random --seed b' --out m.game --state m.state --format json\n  referee match halves --bot a='referee bot halves --random' --bot b='referee bot halves --random --seed b' --games 4 --shard 1/2 --state s1.state && referee match --merge s1.state\n\n`referee guide bots` explains the bot protocol and every option."
    )]
    Match(super::args_match::MatchArgs),
    /// The engine as a bot that speaks the bot protocol on stdin/stdout (for `match`).
    #[command(
        after_help = "Example:\n  referee bot halatafl --playouts 500\n  referee bot halves --random\n\n`referee guide bots` explains the protocol."
    )]
    Bot(super::args_match::BotArgs),
    /// Check that a bot speaks the bot protocol: its handshake, legal answers in time,
    /// and a quit that ends it, over games against the referee's random bot.
    #[command(
        name = "bot-check",
        after_help = "Example:\n  referee bot-check halatafl -- referee bot halatafl --random\n  referee bot-check thaayam-bell --games 4 -- referee bot thaayam-bell --playouts 50\n\n`referee guide bots` explains the protocol."
    )]
    BotCheck(super::args_match::BotCheckArgs),
    /// Print a page of the guide: the record notation, the ruleset language, each game's
    /// rules and how to write its turns.
    #[command(
        after_help = "Example:\n  referee guide                  # where to start, and the list of topics\n  referee guide records\n  referee guide halasi > halasi.md"
    )]
    Guide {
        /// The topic (none: where to start: the commands, a first game, the list of topics).
        #[arg(value_name = "TOPIC", value_parser = clap::builder::PossibleValuesParser::new(guide::names()))]
        topic: Option<String>,
    },
    /// Print a shell completion script for bash, zsh, fish, powershell or elvish.
    #[command(
        after_help = "Example:\n  referee completions bash > ~/.local/share/bash-completion/completions/referee\n  referee completions zsh > ~/.zfunc/_referee    # with fpath+=(~/.zfunc) before compinit\n  referee completions fish > ~/.config/fish/completions/referee.fish"
    )]
    Completions {
        /// The shell to complete for.
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Print the manual page referee(1) in roff, or write every page (one a command,
    /// one a guide topic) to a directory.
    #[command(
        after_help = "Example:\n  referee man > referee.1\n  referee man --out ~/.local/share/man/man1    # referee.1, referee-check.1, ..., referee-guide-thaayam.1"
    )]
    Man {
        /// Write referee.1, referee-COMMAND.1 for every command and referee-guide-TOPIC.1
        /// for every guide topic into DIR (created if missing) and print their paths.
        #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
        out: Option<PathBuf>,
    },
}

impl Command {
    /// The options this command was given, the others at their defaults.
    pub fn global(&self) -> Global {
        let mut g = Global::default();
        let take_rulesets = |g: &mut Global, r: &RulesetOpts| {
            g.rulesets = r.rulesets.clone();
            g.options = r.options.clone();
        };
        let take_limits = |g: &mut Global, l: &LimitOpts| {
            g.max_bytes = l.max_bytes;
            g.max_turn_bytes = l.max_turn_bytes;
            g.max_turns = l.max_turns;
        };
        let take_record = |g: &mut Global, r: &RecordOpts| {
            g.ruleset_file = r.ruleset_file.clone();
            g.strict = r.strict;
            take_limits(g, &r.limits);
        };
        match self {
            Command::Check {
                quiet,
                format,
                color,
                rulesets,
                record,
                ..
            } => {
                g.quiet = *quiet;
                g.format = format.format.into();
                g.color = color.color;
                take_rulesets(&mut g, rulesets);
                take_record(&mut g, record);
            }
            Command::Adjudicate {
                format,
                color,
                rulesets,
                record,
                ..
            }
            | Command::Analyse {
                format,
                color,
                rulesets,
                record,
                ..
            }
            | Command::Moves {
                format,
                color,
                rulesets,
                record,
                ..
            }
            | Command::Score {
                format,
                color,
                rulesets,
                record,
                ..
            } => {
                g.format = format.format.into();
                g.color = color.color;
                take_rulesets(&mut g, rulesets);
                take_record(&mut g, record);
            }
            Command::Show {
                format,
                color,
                rulesets,
                record,
                ..
            } => {
                g.format = *format;
                g.color = color.color;
                take_rulesets(&mut g, rulesets);
                take_record(&mut g, record);
            }
            Command::Move {
                format,
                rulesets,
                record,
                ..
            } => {
                g.format = format.format.into();
                take_rulesets(&mut g, rulesets);
                take_record(&mut g, record);
            }
            Command::Play {
                format,
                rulesets,
                limits,
                ..
            } => {
                g.format = format.format.into();
                take_rulesets(&mut g, rulesets);
                take_limits(&mut g, limits);
            }
            Command::Rules {
                format, rulesets, ..
            } => {
                g.format = format.format.into();
                take_rulesets(&mut g, rulesets);
            }
            Command::New { rulesets, .. } | Command::Selfplay { rulesets, .. } => {
                take_rulesets(&mut g, rulesets);
            }
            Command::Match(m) => {
                g.format = m.format.format.into();
                take_rulesets(&mut g, &m.rulesets);
            }
            Command::Bot(b) => take_rulesets(&mut g, &b.rulesets),
            Command::BotCheck(b) => take_rulesets(&mut g, &b.rulesets),
            Command::Guide { .. } | Command::Completions { .. } | Command::Man { .. } => {}
        }
        g
    }
}

/// A position asked for with `--turn`: by how many turns were played (`3`),
/// or by the turn the record numbers so (`2.`, `2...`: after white's and after black's
/// move 2 where turns are numbered by rounds; `7.` is turn 7 elsewhere).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TurnArg {
    /// After this many turns, every turn of every seat counted (0: the start).
    Index(usize),
    /// After the turn the record numbers so.
    Number(TurnNumber),
}

impl FromStr for TurnArg {
    type Err = String;
    fn from_str(s: &str) -> Result<TurnArg, String> {
        let bad = || {
            format!(
                "`{s}` is no turn: write how many turns were played (`3`), or the turn as \
                 the record numbers it (`2.` or `2...`)"
            )
        };
        let (digits, ellipsis) = match s.strip_suffix("...") {
            Some(d) => (d, Some(true)),
            None => match s.strip_suffix('.') {
                Some(d) => (d, Some(false)),
                None => (s, None),
            },
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: usize = digits.parse().map_err(|_| bad())?;
        Ok(match ellipsis {
            None => TurnArg::Index(n),
            Some(ellipsis) => TurnArg::Number(TurnNumber {
                n: u32::try_from(n).map_err(|_| bad())?,
                ellipsis,
            }),
        })
    }
}
