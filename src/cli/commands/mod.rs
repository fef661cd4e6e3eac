//! The commands other than `play`, one file per subcommand (or tight group); this file
//! holds what they share: reading input, the one-record loader, loading a ruleset named
//! on the command line, and the helpers `move` and `play` both use.

mod adjudicate;
mod analyse;
mod bot;
mod bot_check;
mod check;
mod generate;
mod lock;
mod match_bots;
mod move_turn;
mod new;
mod position;
mod rules;
mod selfplay;
mod turn_arg;
mod walk;

use std::io::{self, Read};
use std::path::Path;

use serde_json::{json, Value as Json};

use super::diagnostics;
use super::{dispatch, Ctx, Failure, Outcome, Visitor};
use crate::games::Game;
use crate::notation::record::{self, LineIndex, RawRecord};
use crate::referee;
use crate::ruleset::{self, Origin, Override, Ruleset};

pub use adjudicate::{adjudicate, Estimate};
pub use analyse::{analyse, best_move, think};
pub use bot::bot;
pub use bot_check::bot_check;
pub use check::check;
pub use generate::{completions, man};
pub use lock::{wait_limit, LockError, RecordLock, WAIT_VAR as LOCK_WAIT_VAR};
pub use match_bots::match_bots;
pub use move_turn::move_turn;
pub use new::{fresh_seed, header_with, new_record, options_tag, NewSeed};
pub use position::{moves, score, show};
pub use rules::rules;
pub use selfplay::selfplay;

/// A single-record command given a directory stops plainly (exit 2), not with the
/// system's "Is a directory".
pub fn not_a_directory(file: &str) -> Result<(), Failure> {
    if file != "-" && Path::new(file).is_dir() {
        return Err(Failure::Usage(format!(
            "{file} is a directory: this command reads one record file (`referee check` \
             takes directories)"
        )));
    }
    Ok(())
}

/// Reads a record file (`-` is standard input), refusing what is over the size limit.
/// Text that is not UTF-8 is an input error reported like a syntax error.
pub fn read_input(ctx: &Ctx, file: &str) -> Result<Result<String, (usize, String)>, Failure> {
    let max = ctx.env.limits.max_bytes;
    let mut bytes = Vec::new();
    not_a_directory(file)?;
    let read = if file == "-" {
        io::stdin()
            .lock()
            .take(max as u64 + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(file).and_then(|f| f.take(max as u64 + 1).read_to_end(&mut bytes))
    };
    if let Err(e) = read {
        return Err(Failure::Usage(format!("cannot read {file}: {e}")));
    }
    Ok(decode_input(bytes, max))
}

/// The text of a file read (at most `max` bytes and one more), or why it is not text.
fn decode_input(bytes: Vec<u8>, max: usize) -> Result<String, (usize, String)> {
    if bytes.len() > max {
        return Err((
            0,
            format!("the file is over the limit of {max} bytes (--max-bytes)"),
        ));
    }
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..3);
            }
            Ok(s)
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let prefix = String::from_utf8_lossy(&bytes[..at]).into_owned();
            Err((
                at,
                format!(
                    "the file is not UTF-8 text: invalid byte at offset {at}{}",
                    {
                        let idx = LineIndex::new(&prefix);
                        let (l, c) = idx.line_col(&prefix, at);
                        format!(" (line {l}, column {c})")
                    }
                ),
            ))
        }
    }
}

fn display_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

/// Runs `v` for the game named `game`; a game this build does not have is a usage error.
fn visit_game<V: Visitor<Out = Outcome>>(game: &str, v: V) -> Outcome {
    dispatch(game, v).unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}

/// The record a single-record command works on: the file's last record (the game in
/// progress, where `move` appends).
struct OneRecord {
    name: String,
    text: String,
    raw: RawRecord,
    index: usize,
    game: &'static str,
}

fn load_one(ctx: &Ctx, file: &str) -> Result<OneRecord, Failure> {
    check_cli_settings(ctx)?;
    let text = read_input(ctx, file)?;
    parse_one(ctx, display_name(file).to_string(), text)
}

/// [`load_one`] for a record held under its lock: read through the locked file.
fn load_locked(ctx: &Ctx, file: &str, lock: &RecordLock) -> Result<OneRecord, Failure> {
    check_cli_settings(ctx)?;
    let max = ctx.env.limits.max_bytes;
    let bytes = lock
        .read(Some(max))
        .map_err(|e| Failure::Usage(format!("cannot read {file}: {e}")))?;
    parse_one(ctx, file.to_string(), decode_input(bytes, max))
}

fn parse_one(
    ctx: &Ctx,
    name: String,
    text: Result<String, (usize, String)>,
) -> Result<OneRecord, Failure> {
    let text = match text {
        Ok(t) => t,
        Err((_, message)) => return Err(Failure::Usage(format!("{name}: {message}"))),
    };
    let split = record::split(&text, &ctx.env.limits);
    if let Some(e) = split.errors.first() {
        let d = referee::Diagnostic::new(e.kind.into(), Some(e.span), e.message.clone());
        return Err(Failure::Usage(format!(
            "{name} is not a record file\n{}",
            diagnostics::render(&name, &text, 0, &d, false)
        )));
    }
    let Some(raw) = split.records.last().cloned() else {
        return Err(Failure::Usage(format!("{name} holds no record")));
    };
    let index = split.records.len() - 1;
    let game = referee::game_of(&raw).map_err(|d| {
        Failure::Usage(
            diagnostics::render(&name, &text, 0, &d, false)
                .trim_end()
                .to_string(),
        )
    })?;
    Ok(OneRecord {
        name,
        text,
        raw,
        index,
        game,
    })
}

/// Checks what the command line sets for every record, once, before any record is read:
/// the `--ruleset FILE` must load, and each `--option KEY=VALUE` must be a setting of
/// some game (of the `--ruleset` file's game, when one is given) with a value one of the
/// games that declare it accepts. A record of a game without the key ignores it.
pub fn check_cli_settings(ctx: &Ctx) -> Result<(), Failure> {
    let env = &ctx.env;
    let usage = |e: ruleset::RulesetError| Failure::Usage(e.to_string());
    let bases: Vec<std::sync::Arc<Ruleset>> = match &env.ruleset_file {
        Some(_) => vec![env.ruleset(None).map_err(usage)?],
        None if env.options.is_empty() => return Ok(()),
        None => referee::schemas()
            .iter()
            .map(|s| env.ruleset(Some(s.game)).map_err(usage))
            .collect::<Result<_, _>>()?,
    };
    let mut said = Vec::new();
    for (key, value) in &env.options {
        let declaring: Vec<_> = bases
            .iter()
            .filter_map(|b| Some((b, referee::schema_of(&b.game)?)))
            .filter(|(_, s)| s.setting(key).is_some())
            .collect();
        let option = format!("--option {key}={value}");
        if declaring.is_empty() {
            let games: Vec<&str> = bases.iter().map(|b| b.game.as_str()).collect();
            let keys = bases
                .iter()
                .filter_map(|b| referee::schema_of(&b.game))
                .flat_map(|s| s.settings.iter().map(|x| x.key));
            let mean = ruleset::error::suggest(key, keys)
                .map(|k| format!("; did you mean `{k}`?"))
                .unwrap_or_default();
            said.push(format!(
                "{option}: `{key}` is not a setting of {}{mean}",
                games.join(" or ")
            ));
            continue;
        }
        // The value must suit at least one game that has the key; a record of a game
        // that has it and refuses the value is ruled on as before (kind `ruleset`).
        let mut refusals = Vec::new();
        for (base, schema) in declaring {
            let one: Vec<Override> = env
                .cli_overrides()
                .into_iter()
                .filter(|o| &o.key == key)
                .collect();
            // A data setting (Halasi's `tile-set`) names a file that must load too.
            let applied = ruleset::apply_overrides(base, schema, &one)
                .and_then(|mut rs| env.library.load_data(&mut rs, schema));
            match applied {
                Ok(()) => {
                    refusals.clear();
                    break;
                }
                Err(errs) => refusals.extend(errs.into_iter().map(|e| {
                    let mut m = match bases.len() {
                        1 => format!("{option}: {}", e.message),
                        _ => format!("{option} (a setting of {}): {}", base.game, e.message),
                    };
                    if let Some(s) = &e.suggestion {
                        m.push_str(&format!("; did you mean `{s}`?"));
                    }
                    m
                })),
            }
        }
        said.extend(refusals);
    }
    match said.is_empty() {
        true => Ok(()),
        false => Err(Failure::Usage(said.join("\n"))),
    }
}

/// A ruleset named on the command line: a path when it has a `/` or ends in `.rules`,
/// else a name in the library.
pub fn load_ruleset(ctx: &Ctx, name: &str) -> Result<Ruleset, Failure> {
    let lib = &ctx.env.library;
    let path = name.contains('/') || name.contains('\\') || name.ends_with(".rules");
    let r = if path {
        lib.load_file(Path::new(name), referee::schemas())
    } else {
        lib.load(name, referee::schemas())
    };
    r.map_err(|e| {
        let mut message = e.to_string();
        let names = lib.names();
        if !path && !names.iter().any(|n| n == name) {
            message.push_str(&format!(
                "\nthe rulesets are: {} (`referee rules` describes them; a path to a \
                 .rules file works too)",
                names.join(", ")
            ));
        }
        Failure::Usage(message)
    })
}

/// Applies `--option` (and `--seats`) to a ruleset named on the command line.
pub fn apply_cli_options(ctx: &Ctx, rs: &Ruleset, seats: &[String]) -> Result<Ruleset, Failure> {
    let mut overrides: Vec<Override> = ctx.env.cli_overrides();
    if !seats.is_empty() {
        overrides.push(Override {
            key: "seats".into(),
            value: format!("[{}]", seats.join(" ")),
            origin: Origin::CommandLine,
            file: "--seats".into(),
            line: 1,
            column: 1,
            value_column: 1,
        });
    }
    if overrides.is_empty() {
        return Ok(rs.clone());
    }
    let schema = referee::schema_of(&rs.game)
        .ok_or_else(|| Failure::Usage(format!("unknown game {}", rs.game)))?;
    let usage = |errs: Vec<ruleset::RulesetError>| {
        Failure::Usage(
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    };
    let mut rs = ruleset::apply_overrides(rs, schema, &overrides).map_err(usage)?;
    // A data setting the options changed (Halasi's `tile-set`) names another file.
    ctx.env.library.load_data(&mut rs, schema).map_err(usage)?;
    Ok(rs)
}

pub use crate::notation::record::parse_single;

/// Why the seat to move has no turn listed in a record without a seed: its turn opens
/// with a random outcome that the players make and write. Where the game gives an
/// outcome it could write, the note shows a whole turn with it that the referee accepts
/// (the first legal one), labelled where the round's order is open. `None` where turns
/// are listed (or the game is over).
pub fn written_chance_note<G: Game>(session: &referee::Session<G>) -> Option<String> {
    let seat = crate::games::seat_name::<G>(session.to_move()?);
    if session.dice.is_some() || !G::has_chance(&session.settings) {
        return None;
    }
    let status = session.status_report();
    let how = match G::outcome_to_write(&session.settings, &session.state) {
        Some((what, Some(outcome))) => {
            let mut turns = Vec::new();
            session.legal_turns_for(Some(&outcome), &mut turns);
            let label = match status.may_move {
                Some(_) => format!("{seat}: "),
                None => String::new(),
            };
            match turns.first() {
                Some(t) => format!("{what}; e.g. `{label}{t}`"),
                None => what.to_string(),
            }
        }
        Some((what, None)) => what.to_string(),
        None => "makes a random event first: write its outcome in the turn".into(),
    };
    let who = match status.may_move {
        Some(_) => format!("{}; the seat that moves", status.describe()),
        None => seat.to_string(),
    };
    Some(format!(
        "{who} {how} (without a seed the players make and write every random event)"
    ))
}

pub fn refusal_json(rule: Option<&str>, message: &str, hint: Option<&str>) -> Json {
    json!({"ok": false, "error": {"rule": rule, "message": message, "hint": hint}})
}
