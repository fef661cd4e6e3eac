//! The command line (`cli.md`): running the commands (their clap definitions are in
//! `args`), exit codes, output formats.
//!
//! Exit codes: 0 — every record valid / done; 1 — a record invalid or a turn refused
//! (the answer is on stdout); 2 — usage error, unreadable file, unknown ruleset,
//! internal error (the message is on stderr). A closed stdout (`| head`) is not an error.

pub(crate) mod args;
mod args_match;
mod args_shared;
mod commands;
mod diagnostics;
pub mod guide;
mod halasi;
mod html;
mod pictures;
mod play;
mod play_input;
mod render;
mod roff;

use std::io::{self, Write};
use std::process::ExitCode;

use crate::notation::record::Limits;
use crate::referee::Env;
use crate::ruleset::Library;

pub use args::{Cli, ColorWhen, Command, Format, Global, Plain};
pub use commands::NewSeed;
pub use pictures::Picture;
pub use play::play_from;
pub use render::Render;

/// How a command ended.
#[derive(Debug)]
pub enum Failure {
    /// Exit 1: the answer is on stdout.
    Invalid,
    /// Exit 2: usage, I/O, unknown ruleset, internal; the message goes to stderr.
    Usage(String),
    /// Exit 2, the message already said on stderr (a file `check` could not read).
    Said,
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
        // A house-rules directory that is not there would be searched in silence.
        if let Some(d) = global.rulesets.iter().find(|d| !d.is_dir()) {
            return Err(Failure::Usage(format!(
                "--rulesets {}: no such directory",
                d.display()
            )));
        }
        let library = Library::from_env(global.rulesets.clone());
        let mut env = Env::new(library);
        env.ruleset_file = global.ruleset_file.clone();
        env.strict = global.strict;
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
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    // The context, with the rulesets it loaded, is left for the process's end to free,
    // as the clap command is: taking the base ruleset's texts apart one by one cost a
    // cold `check` as much as building its conditional texts.
    let result = Ctx::new(cli.command.global())
        .and_then(|ctx| run(Box::leak(Box::new(ctx)), cli.command, &mut out));
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
        Err(Failure::Said) => ExitCode::from(2),
        Err(Failure::Usage(msg)) => {
            eprintln!("referee: {msg}");
            ExitCode::from(2)
        }
    }
}

/// The command line, as `Cli::try_parse` reads it. The clap command it is read with is
/// left for the process's end to free: taking it apart costs more instructions than a
/// cold `check` of a small record spends on its ruleset.
fn parse_args() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Box::leak(Box::new(Cli::command()));
    let mut matches = command.try_get_matches_from_mut(std::env::args_os())?;
    Cli::from_arg_matches_mut(&mut matches)
}

/// Runs one command, writing its answer to `out`.
pub fn run(ctx: &Ctx, command: Command, out: &mut dyn Write) -> Outcome {
    match command {
        Command::Check {
            files,
            glob,
            threads,
            ..
        } => commands::check(ctx, &files, &glob, threads.map(usize::from), out),
        Command::Adjudicate {
            file,
            turn,
            estimate,
            seed,
            engine,
            ..
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
            ..
        } => commands::analyse(ctx, &file, turn, &seed, &engine, out),
        Command::Show { file, turn, .. } => commands::show(ctx, &file, turn, out),
        Command::Moves {
            file,
            turn,
            best,
            seed,
            engine,
            ..
        } => match best {
            true => commands::best_move(ctx, &file, turn, &seed, &engine, out),
            false => commands::moves(ctx, &file, turn, out),
        },
        Command::Score { file, turn, .. } => commands::score(ctx, &file, turn, out),
        Command::Rules { name, check, .. } => commands::rules(ctx, name.as_deref(), check, out),
        Command::New {
            ruleset,
            seed,
            no_seed,
            seats,
            ..
        } => {
            let seed = match (seed, no_seed) {
                (Some(s), _) => commands::NewSeed::Given(s),
                (None, true) => commands::NewSeed::Written,
                (None, false) => commands::NewSeed::Fresh,
            };
            commands::new_record(ctx, &ruleset, &seed, &seats, out)
        }
        Command::Selfplay {
            ruleset,
            games,
            seats,
            seed,
            max_turns,
            engine,
            engine_args,
            ..
        } => commands::selfplay(
            ctx,
            &ruleset,
            games,
            &seats,
            &seed,
            max_turns,
            &engine,
            &engine_args,
            out,
        ),
        Command::Move {
            file, turn, expect, ..
        } => commands::move_turn(ctx, &file, &turn, expect, out),
        Command::Match(m) => commands::match_bots(ctx, &m, out),
        Command::Bot(b) => commands::bot(ctx, &b),
        Command::BotCheck(b) => commands::bot_check(ctx, &b, out),
        Command::Guide { topic } => guide::print(topic.as_deref(), out),
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
            ..
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
