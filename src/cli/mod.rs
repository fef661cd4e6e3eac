//! The command line (`cli.md`): clap definitions, exit codes, output formats.
//!
//! Exit codes: 0 — every record valid / done; 1 — a record invalid or a turn refused
//! (the answer is on stdout); 2 — usage error, unreadable file, unknown ruleset,
//! internal error (the message is on stderr). A closed stdout (`| head`) is not an error.

mod commands;
mod diagnostics;
mod halasi;
mod html;
mod play;
mod render;
mod render_halves;
mod render_thaayam;
mod svg_thaayam;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::notation::record::Limits;
use crate::referee::Env;
use crate::ruleset::Library;

pub use play::play_from;
pub use render::Render;

const AFTER_HELP: &str = "\
Examples:
  referee check games/halatafl/*.game          validate records
  referee check games/                         the *.game files under games/
  referee adjudicate games/halatafl/missed-capture.game
  referee moves games/halatafl/opening.game    legal turns for the seat to move
  echo 'e3-d4' | referee play halatafl --format json
  referee rules halatafl                       settings and rule texts
  referee completions bash > referee.bash      a bash completion script
  referee man --out ~/.local/share/man/man1    the manual pages

Exit codes: 0 all valid / done, 1 a record invalid or a turn refused, 2 usage or I/O error.";

/// A command-line referee for Halatafl, Thaayam, Halves and Halasi game records.
#[derive(Parser, Debug)]
#[command(name = "referee", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Args, Debug, Clone)]
pub struct Global {
    /// A directory of rulesets searched before the shipped ones (repeatable); the
    /// REFEREE_RULESETS variable adds more.
    #[arg(long, global = true, value_name = "DIR")]
    pub rulesets: Vec<PathBuf>,
    /// Use this ruleset file for every record instead of its Ruleset tag.
    #[arg(
        long = "ruleset",
        id = "ruleset_file",
        global = true,
        value_name = "FILE"
    )]
    pub ruleset_file: Option<PathBuf>,
    /// Override a setting (repeatable): --option emperor=true. Applied after the
    /// ruleset, before the record's Options tag.
    #[arg(long = "option", global = true, value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Output format: text or json (show also takes svg, setup and html).
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print less: only invalid records and the summary.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Colour: auto (only on a terminal), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,
    /// Refuse record files larger than this many bytes.
    #[arg(long, global = true, default_value_t = Limits::default().max_bytes, hide_default_value = true, value_name = "BYTES")]
    pub max_bytes: usize,
    /// Refuse turn texts longer than this many bytes.
    #[arg(long, global = true, default_value_t = Limits::default().max_turn_bytes, hide_default_value = true, value_name = "BYTES")]
    pub max_turn_bytes: usize,
    /// Refuse records of more than this many turns.
    #[arg(long, global = true, default_value_t = Limits::default().max_turns, hide_default_value = true, value_name = "N")]
    pub max_turns: usize,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Svg,
    Setup,
    Html,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Validate records: syntax, every turn's legality, dice against the seed, the
    /// declared result.
    #[command(
        after_help = "Example:\n  referee check games/halatafl/*.game\n  cat game.game | referee check - --format json\n  referee check games/ --glob '!disputed-*'\n\nA directory is walked for *.game files, sorted by path; hidden files and\ndirectories and what .gitignore or .ignore files name are skipped, symbolic links\nare not followed. A file named on the command line is checked whatever its name."
    )]
    Check {
        /// Record files or directories; `-` reads standard input.
        #[arg(required = true, value_name = "FILE|DIR")]
        files: Vec<String>,
        /// In directories, check the files this glob matches instead of *.game;
        /// `!GLOB` leaves files out (repeatable; ripgrep's --glob: a match overrides
        /// the hidden and ignore rules).
        #[arg(long, short = 'g', value_name = "GLOB")]
        glob: Vec<String>,
    },
    /// A full ruling: each turn judged, the first violation with its rule, the position
    /// before it and the legal alternatives, the result.
    #[command(
        after_help = "Example:\n  referee adjudicate games/halatafl/missed-capture.game\n  referee adjudicate game.game --turn 31"
    )]
    Adjudicate {
        #[arg(value_name = "FILE")]
        file: String,
        /// Rule on this turn only (1-based): the position before it, the legal turns,
        /// the verdict.
        #[arg(long, value_name = "N")]
        turn: Option<usize>,
        /// For an unfinished game: the engine's estimate of the outcome and how sure it
        /// is (Halasi: the expected final purses and standings).
        #[arg(long)]
        estimate: bool,
        /// The seed of the engine's own generator (with --estimate).
        #[arg(long, default_value = commands::DEFAULT_SEED, requires = "estimate")]
        seed: String,
        #[command(flatten)]
        engine: commands::EngineArgs,
    },
    /// The engine's view of a position: each seat's estimated chance to win with a 95 %
    /// interval, the best turns for the seat to move, the expected line of play.
    #[command(
        visible_alias = "analyze",
        after_help = "Example:\n  referee analyse game.game\n  referee analyse game.game --turn 20 --playouts 5000 --seed s1\n  referee analyse game.game --time 2s --format json\n\nThe dice and draws to come are never read from the record's Seed: the engine draws\nthem from its own generator (--seed). With --playouts, --seed and --threads the\nanswer is reproducible."
    )]
    Analyse {
        #[arg(value_name = "FILE")]
        file: String,
        /// After this many turns (default: the last).
        #[arg(long, value_name = "N")]
        turn: Option<usize>,
        /// The seed of the engine's own generator.
        #[arg(long, default_value = commands::DEFAULT_SEED)]
        seed: String,
        #[command(flatten)]
        engine: commands::EngineArgs,
    },
    /// An interactive game on stdin/stdout: one turn or `:command` a line, one answer a
    /// line (`:show :moves :undo :record :status :quit`).
    #[command(
        after_help = "Example:\n  printf 'e3-d4\\n:moves\\n' | referee play halatafl --format json\n  referee play halatafl --record game.game"
    )]
    Play {
        /// A ruleset name, or a path to a .rules file.
        #[arg(value_name = "RULESET")]
        ruleset: String,
        /// The seed of the game's random events.
        #[arg(long)]
        seed: Option<String>,
        /// The seats that play (where the game allows a choice).
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        seats: Vec<String>,
        /// Append every accepted turn to this record file (resumed when it exists).
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// The engine plays these seats: after each accepted turn it plays while one of
        /// them is to move, each of its turns answered on its own line.
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        engine: Vec<String>,
        /// The seed of the engine's own generator.
        #[arg(long, default_value = commands::DEFAULT_SEED, value_name = "S")]
        engine_seed: String,
        #[command(flatten)]
        engine_args: commands::EngineArgs,
    },
    /// Append one turn to a record file after checking it.
    #[command(
        name = "move",
        after_help = "Example:\n  referee move game.game 'e3-d4' --expect 1"
    )]
    Move {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The turn, in the game's notation.
        #[arg(value_name = "TURN")]
        turn: String,
        /// Refuse unless the turn would be turn N (1-based), as a play-by-mail server's
        /// move#N does.
        #[arg(long, value_name = "N")]
        expect: Option<usize>,
    },
    /// The position after turn N (default: the last), as a text diagram or a setup string.
    #[command(
        after_help = "Example:\n  referee show game.game --turn 12\n  referee show game.game --format setup"
    )]
    Show {
        #[arg(value_name = "FILE")]
        file: String,
        /// After this many turns (0 = the start).
        #[arg(long, value_name = "N")]
        turn: Option<usize>,
    },
    /// Every legal turn for the seat to move, one a line, in the record notation.
    #[command(
        after_help = "Example:\n  referee moves game.game\n  referee moves game.game --turn 0"
    )]
    Moves {
        #[arg(value_name = "FILE")]
        file: String,
        /// After this many turns (default: the last).
        #[arg(long, value_name = "N")]
        turn: Option<usize>,
        /// Only the engine's choice among the legal turns.
        #[arg(long)]
        best: bool,
        /// The seed of the engine's own generator (with --best).
        #[arg(long, default_value = commands::DEFAULT_SEED, requires = "best")]
        seed: String,
        #[command(flatten)]
        engine: commands::EngineArgs,
    },
    /// Score breakdowns: for every game the standings.
    #[command(after_help = "Example:\n  referee score game.game")]
    Score {
        #[arg(value_name = "FILE")]
        file: String,
        #[arg(long, value_name = "N")]
        turn: Option<usize>,
    },
    /// List the rulesets, or show one ruleset's settings (effective value, where set)
    /// and rule texts.
    #[command(
        after_help = "Example:\n  referee rules\n  referee rules halatafl-emperor\n  referee rules --check"
    )]
    Rules {
        #[arg(value_name = "NAME")]
        name: Option<String>,
        /// Check every available ruleset: syntax, schema, rule texts.
        #[arg(long)]
        check: bool,
    },
    /// Print the header of a new record.
    #[command(after_help = "Example:\n  referee new halatafl-emperor > game.game")]
    New {
        #[arg(value_name = "RULESET")]
        ruleset: String,
        #[arg(long)]
        seed: Option<String>,
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        seats: Vec<String>,
    },
    /// Play N games of uniformly random legal turns and print them as records.
    #[command(
        after_help = "Example:\n  referee selfplay halatafl --games 10 --seed s1 > random.game\n  referee selfplay halatafl --engine white --playouts 1000 --games 20"
    )]
    Selfplay {
        #[arg(value_name = "RULESET")]
        ruleset: String,
        #[arg(long, value_name = "N")]
        games: usize,
        /// The seed of the random choices (and of each game's dice).
        #[arg(long, default_value = "selfplay")]
        seed: String,
        /// Stop a game after this many turns (it is printed with Result "*").
        #[arg(long, default_value_t = 1000, value_name = "N")]
        max_turns: usize,
        /// The engine plays these seats (the others play uniformly random turns); its
        /// seed derives from --seed.
        #[arg(long, num_args = 1.., value_name = "SEAT")]
        engine: Vec<String>,
        #[command(flatten)]
        engine_args: commands::EngineArgs,
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
    /// Print the manual page referee(1) in roff, or write one page a command to a
    /// directory.
    #[command(
        after_help = "Example:\n  referee man > ~/.local/share/man/man1/referee.1\n  referee man --out ~/.local/share/man/man1    # referee.1, referee-check.1, ...\n  referee man | man -l -"
    )]
    Man {
        /// Write referee.1 and referee-COMMAND.1 for every command into DIR (created if
        /// missing) and print their paths.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

/// How a command ended.
#[derive(Debug)]
pub enum Failure {
    /// Exit 1: the answer is on stdout.
    Invalid,
    /// Exit 2: usage, I/O, unknown ruleset, internal; the message goes to stderr.
    Usage(String),
    /// Standard output was closed: stop quietly.
    BrokenPipe,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Usage(format!("output error: {e}"))
        }
    }
}

pub type Outcome = Result<(), Failure>;

/// What every command needs.
pub struct Ctx {
    pub env: Env,
    pub global: Global,
    pub color: bool,
}

impl Ctx {
    fn new(global: Global) -> Result<Ctx, Failure> {
        let library = Library::from_env(global.rulesets.clone());
        let mut env = Env::new(library);
        env.ruleset_file = global.ruleset_file.clone();
        env.limits = Limits {
            max_bytes: global.max_bytes,
            max_turn_bytes: global.max_turn_bytes,
            max_turns: global.max_turns,
        };
        for opt in &global.options {
            match opt.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => env
                    .options
                    .push((k.trim().to_string(), v.trim().to_string())),
                _ => {
                    return Err(Failure::Usage(format!(
                        "--option takes KEY=VALUE (as in a ruleset's set line), got `{}`",
                        crate::quote::quote(opt)
                    )))
                }
            }
        }
        let color = match global.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => {
                use std::io::IsTerminal;
                io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Ok(Ctx { env, global, color })
    }
}

/// Runs the command line; returns the exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = Ctx::new(cli.global.clone()).and_then(|ctx| run(&ctx, cli.command, &mut out));
    let flushed = out.flush();
    match result {
        Ok(()) => match flushed {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                eprintln!("referee: output error: {e}");
                ExitCode::from(2)
            }
            _ => ExitCode::SUCCESS,
        },
        Err(Failure::Invalid) => ExitCode::from(1),
        Err(Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("referee: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Runs one command, writing its answer to `out`.
pub fn run(ctx: &Ctx, command: Command, out: &mut dyn Write) -> Outcome {
    match command {
        Command::Check { files, glob } => commands::check(ctx, &files, &glob, out),
        Command::Adjudicate {
            file,
            turn,
            estimate,
            seed,
            engine,
        } => {
            let estimate = estimate.then_some(commands::Estimate {
                seed: &seed,
                engine: &engine,
            });
            commands::adjudicate(ctx, &file, turn, estimate, out)
        }
        Command::Analyse {
            file,
            turn,
            seed,
            engine,
        } => commands::analyse(ctx, &file, turn, &seed, &engine, out),
        Command::Show { file, turn } => commands::show(ctx, &file, turn, out),
        Command::Moves {
            file,
            turn,
            best,
            seed,
            engine,
        } => match best {
            true => commands::best_move(ctx, &file, turn, &seed, &engine, out),
            false => commands::moves(ctx, &file, turn, out),
        },
        Command::Score { file, turn } => commands::score(ctx, &file, turn, out),
        Command::Rules { name, check } => commands::rules(ctx, name.as_deref(), check, out),
        Command::New {
            ruleset,
            seed,
            seats,
        } => commands::new_record(ctx, &ruleset, seed.as_deref(), &seats, out),
        Command::Selfplay {
            ruleset,
            games,
            seed,
            max_turns,
            engine,
            engine_args,
        } => commands::selfplay(
            ctx,
            &ruleset,
            games,
            &seed,
            max_turns,
            &engine,
            &engine_args,
            out,
        ),
        Command::Move { file, turn, expect } => commands::move_turn(ctx, &file, &turn, expect, out),
        Command::Completions { shell } => commands::completions(shell, out),
        Command::Man { out: dir } => commands::man(dir.as_deref(), out),
        Command::Play {
            ruleset,
            seed,
            seats,
            record,
            engine,
            engine_seed,
            engine_args,
        } => play::play(
            ctx,
            (!engine.is_empty()).then_some(play::EnginePlay {
                seats: &engine,
                seed: &engine_seed,
                args: &engine_args,
            }),
            &ruleset,
            seed.as_deref(),
            &seats,
            record.as_deref(),
            out,
        ),
    }
}

/// Calls `V::visit::<G>()` for the game named `game`.
pub trait Visitor {
    type Out;
    fn visit<G: Render>(self) -> Self::Out;
}

/// `v.visit::<G>()` for the registered game named `game` (`games::registry`); `None`
/// for a name this build does not have.
pub fn dispatch<V: Visitor>(game: &str, v: V) -> Option<V::Out> {
    use crate::games::Game;
    macro_rules! visit_named {
        ($($g:ty),* $(,)?) => {
            match game {
                $(<$g as Game>::NAME => Some(v.visit::<$g>()),)*
                _ => None,
            }
        };
    }
    crate::games::registry::for_each_game!(visit_named)
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
