//! `referee bot-check RULESET -- CMD…`: a bot's compliance with the protocol, checked
//! over a few games against the referee's random bot (as fastchess's `--compliance`):
//! the handshake, every answer a legal turn in time, a quit that ends it, and records
//! that check.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use super::analyse::parse_duration;
use super::{apply_cli_options, load_ruleset, options_tag, visit_game};
use crate::cli::args_match::BotCheckArgs;
use crate::cli::{Ctx, Failure, Outcome, Render, Visitor};
use crate::runner::game::{self, BotSpec, ForfeitKind, GameSpec, Played, Table, TimeLimits};
use crate::runner::schedule;

/// A word of the command as `sh` reads it back.
fn shell_word(w: &str) -> String {
    let plain = !w.is_empty()
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b));
    match plain {
        true => w.to_string(),
        false => format!("'{}'", w.replace('\'', r"'\''")),
    }
}

struct CheckVisit<'a> {
    args: &'a BotCheckArgs,
    table: Table,
    out: &'a mut dyn Write,
}

impl Visitor for CheckVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let CheckVisit { args, table, out } = self;
        let seats = G::seats(&G::settings(&table.ruleset)).len();
        if !(2..=6).contains(&seats) {
            return Err(Failure::Usage(format!(
                "bot-check plays games of 2 to 6 seats; {} under {} has {seats}",
                G::NAME,
                table.ruleset.name
            )));
        }
        let slots = schedule::schedule(2, seats, args.games.max(1), false, &args.seed);
        let mut played: Vec<(Played, Vec<usize>)> = Vec::new();
        for slot in &slots {
            let spec = GameSpec {
                index: slot.index,
                seating: slot.seating.clone(),
                seed: slot.seed.clone(),
                opening: Vec::new(),
                random_turns: 0,
            };
            let p = game::play::<G>(&table, &spec).map_err(Failure::Usage)?;
            played.push((p, slot.seating.clone()));
        }
        // The checked bot is bot 0; its seats in each game.
        let mine = |seating: &[usize]| -> Vec<usize> {
            seating
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == 0)
                .map(|(s, _)| s)
                .collect()
        };
        let forfeits = |kinds: &[ForfeitKind]| -> Vec<String> {
            played
                .iter()
                .flat_map(|(p, seating)| {
                    p.forfeits
                        .iter()
                        .filter(|f| seating[f.seat] == 0 && kinds.contains(&f.kind))
                        .map(|f| {
                            format!("game {}: {} ({})", p.index + 1, f.message, f.kind.as_str())
                        })
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let mut lines: Vec<(bool, String)> = Vec::new();
        let slowest_ready = played
            .iter()
            .flat_map(|(p, s)| mine(s).into_iter().filter_map(|i| p.answers[i].ready))
            .max();
        let startup = forfeits(&[ForfeitKind::Startup]);
        lines.push(match (startup.first(), slowest_ready) {
            (Some(f), _) => (false, format!("handshake: {f}")),
            (None, Some(r)) => (
                true,
                format!(
                    "handshake: `ready` in every game, the slowest after {}",
                    ms(r)
                ),
            ),
            (None, None) => (false, "handshake: no game was started".into()),
        });
        let turns: u32 = played
            .iter()
            .flat_map(|(p, s)| mine(s).into_iter().map(|i| p.answers[i].turns))
            .sum();
        let wrong = forfeits(&[
            ForfeitKind::Protocol,
            ForfeitKind::Illegal,
            ForfeitKind::Crash,
        ]);
        lines.push(match wrong.first() {
            Some(f) => (false, format!("turns: {f}")),
            None => (
                true,
                format!("turns: {turns} answered, each a legal turn in the protocol"),
            ),
        });
        let late = forfeits(&[ForfeitKind::Time]);
        let slowest = played
            .iter()
            .flat_map(|(p, s)| mine(s).into_iter().map(|i| p.answers[i].slowest))
            .max()
            .unwrap_or_default();
        let limit = table.limits.movetime.unwrap_or_default();
        lines.push(match late.first() {
            Some(f) => (false, format!("time: {f}")),
            None => (
                true,
                format!(
                    "time: the slowest answer took {} (the limit {})",
                    ms(slowest),
                    ms(limit)
                ),
            ),
        });
        let quit_ok = played.iter().all(|(p, s)| {
            mine(s)
                .into_iter()
                .all(|i| p.answers[i].quit || p.forfeits.iter().any(|f| f.seat == i))
        });
        lines.push(match quit_ok {
            true => (
                true,
                "quit: it ended by itself on `quit` in every game".into(),
            ),
            false => (
                false,
                "quit: it did not end within half a second of `quit` (it was killed)".into(),
            ),
        });
        writeln!(
            out,
            "bot-check of `{}` at {} ({} games against the referee's random bot):",
            table.bots[0].command,
            table.ruleset.name,
            played.len()
        )?;
        for (ok, line) in &lines {
            writeln!(out, "{}  {line}", if *ok { "ok  " } else { "FAIL" })?;
        }
        for (p, seating) in &played {
            let seats: Vec<&str> = mine(seating)
                .into_iter()
                .map(|i| crate::games::seat_name::<G>(G::seats(&G::settings(&table.ruleset))[i]))
                .collect();
            writeln!(
                out,
                "      game {}, the bot at {}: {} turns, result {} ({}{})",
                p.index + 1,
                seats.join(" "),
                p.turns,
                p.result,
                p.termination,
                p.reason
                    .as_deref()
                    .map(|r| format!(": {r}"))
                    .unwrap_or_default()
            )?;
        }
        match lines.iter().all(|(ok, _)| *ok) {
            true => Ok(()),
            false => Err(Failure::Invalid),
        }
    }
}

fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

pub fn bot_check(ctx: &Ctx, args: &BotCheckArgs, out: &mut dyn Write) -> Outcome {
    let rs = load_ruleset(ctx, &args.ruleset)?;
    let rs = apply_cli_options(ctx, &rs, &[])?;
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Usage(format!("cannot find the referee's own program: {e}")))?;
    let command: Vec<String> = args.command.iter().map(|w| shell_word(w)).collect();
    let sparring = format!(
        "{} bot {} --random --seed bot-check",
        shell_word(&exe.display().to_string()),
        shell_word(&rs.name)
    );
    let table = Table {
        ruleset: Arc::new(rs.clone()),
        options: options_tag(ctx),
        seats_tag: false,
        bots: vec![
            BotSpec {
                name: "checked".into(),
                command: command.join(" "),
            },
            BotSpec {
                name: "referee-random".into(),
                command: sparring,
            },
        ],
        limits: TimeLimits {
            startup: parse_duration(&args.startup)?,
            movetime: Some(parse_duration(&args.movetime)?),
            clock: None,
            margin: Duration::from_millis(50),
        },
        max_turns: 1000,
        estimate: None,
        notation: ctx.env.limits,
        event: "bot-check".into(),
        dir: None,
    };
    let game = rs.game.clone();
    visit_game(&game, CheckVisit { args, table, out })
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn words_are_quoted_for_sh_only_where_needed() {
        assert_eq!(shell_word("python3"), "python3");
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
