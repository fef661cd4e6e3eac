//! `referee match`: bots against each other (`runner::tournament` plays the games); this
//! file reads the options and prints the progress and the report.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use super::analyse::parse_duration;
use super::{apply_cli_options, load_ruleset, options_tag, visit_game};
use crate::cli::args_match::{Adjudication, MatchArgs};
use crate::cli::{Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::games::Game;
use crate::notation::record;
use crate::runner::game::{BotSpec, Opening, Table, TimeLimits};
use crate::runner::report::{Summary, Tally};
use crate::runner::schedule::Schedule;
use crate::runner::stats::{EloEstimate, Sprt, SprtModel, SprtVerdict};
use crate::runner::tournament::{self, GameResult, Listener, Plan, StateHead};

/// A turn's limit when neither --movetime nor --tc is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(10);

/// `NAME=CMD`.
fn bot_spec(text: &str) -> Result<BotSpec, Failure> {
    match text.split_once('=') {
        Some((name, cmd)) if !name.trim().is_empty() && !cmd.trim().is_empty() => Ok(BotSpec {
            name: name.trim().to_string(),
            command: cmd.trim().to_string(),
        }),
        _ => Err(Failure::Usage(format!(
            "--bot takes NAME=COMMAND (`--bot random='referee bot halatafl --random'`), got `{}`",
            crate::quote::quote(text)
        ))),
    }
}

/// `10+0.1`: seconds for the game and the increment.
fn parse_tc(text: &str) -> Result<(Duration, Duration), Failure> {
    let bad = || {
        Failure::Usage(format!(
            "--tc takes SECONDS+INCREMENT (`10+0.1`), got `{}`",
            crate::quote::quote(text)
        ))
    };
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| {
        s.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
            .map(Duration::from_secs_f64)
    };
    match (secs(base), secs(inc)) {
        (Some(b), Some(i)) if !b.is_zero() => Ok((b, i)),
        _ => Err(bad()),
    }
}

/// `--sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized|logistic]`.
fn parse_sprt(parts: &[String]) -> Result<Option<Sprt>, Failure> {
    if parts.is_empty() {
        return Ok(None);
    }
    let usage = |why: String| {
        Failure::Usage(format!(
            "--sprt {why}: write --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 [model=normalized|logistic]"
        ))
    };
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
    let mut model = SprtModel::Normalized;
    for p in parts {
        let (k, v) = p
            .split_once('=')
            .ok_or_else(|| usage(format!("`{}` is not KEY=VALUE", crate::quote::quote(p))))?;
        let num = || {
            v.parse::<f64>()
                .map_err(|_| usage(format!("`{}` is not a number", crate::quote::quote(v))))
        };
        match k {
            "elo0" => elo0 = Some(num()?),
            "elo1" => elo1 = Some(num()?),
            "alpha" => alpha = Some(num()?),
            "beta" => beta = Some(num()?),
            "model" => {
                model = match v {
                    "normalized" => SprtModel::Normalized,
                    "logistic" => SprtModel::Logistic,
                    _ => {
                        return Err(usage(format!(
                            "model `{}` is unknown",
                            crate::quote::quote(v)
                        )))
                    }
                }
            }
            _ => {
                return Err(usage(format!(
                    "`{}` is not one of its keys",
                    crate::quote::quote(k)
                )))
            }
        }
    }
    match (elo0, elo1, alpha, beta) {
        (Some(e0), Some(e1), Some(a), Some(b)) => Sprt::new(e0, e1, a, b, model)
            .map(Some)
            .map_err(|e| usage(e.to_string())),
        _ => Err(usage("needs elo0, elo1, alpha and beta".into())),
    }
}

/// `2/4`.
fn parse_shard(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || {
        Failure::Usage(format!(
            "--shard takes K/N with 1 ≤ K ≤ N (`2/4`), got `{}`",
            crate::quote::quote(text)
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    match (k.trim().parse::<usize>(), n.trim().parse::<usize>()) {
        (Ok(k), Ok(n)) if k >= 1 && k <= n => Ok((k, n)),
        _ => Err(bad()),
    }
}

/// Everything that fixes the games a match plays.
fn fingerprint(table: &Table, args: &MatchArgs, seats: usize, openings: &[Opening]) -> String {
    let settings: Vec<String> = table
        .ruleset
        .settings
        .iter()
        .map(|(k, s)| format!("{k}={}", s.value))
        .collect();
    let bots: Vec<(String, String)> = table
        .bots
        .iter()
        .map(|b| (b.name.clone(), b.command.clone()))
        .collect();
    let canon = json!({
        "ruleset": table.ruleset.name, "settings": settings, "seats": seats, "bots": bots,
        "games": args.games, "gauntlet": args.gauntlet, "seed": args.seed,
        "random_turns": args.random_turns, "limits": table.limits.tag(),
        "margin_ms": table.limits.margin.as_millis() as u64,
        "startup_ms": table.limits.startup.as_millis() as u64, "max_turns": table.max_turns,
        "estimate": table.estimate.is_some(),
        "openings": openings.iter().map(|o| (o.seed.clone(), o.turns.clone())).collect::<Vec<_>>(),
    });
    crate::dice::sha256(canon.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Prints each finished game: a progress line on a terminal, a JSON line with
/// `--format json`; stops the match when the SPRT decides.
struct Progress<'a> {
    names: &'a [String],
    sprt: Option<&'a Sprt>,
    json: bool,
    out: &'a mut dyn Write,
    terminal: bool,
    started: Instant,
    /// Games the state held before this run (known at the first game this run plays).
    done_before: Option<usize>,
    failed: Option<std::io::Error>,
}

impl Listener for Progress<'_> {
    fn finished(&mut self, r: &GameResult, tally: &Tally) -> bool {
        let before = *self.done_before.get_or_insert(tally.games() - 1);
        // The summary is made only where it is shown or tested.
        let show = !self.json && self.terminal;
        let s = (show || self.sprt.is_some()).then(|| tally.summary(self.sprt));
        if self.json {
            let line = json!({
                "game": r.index + 1, "pair": r.pair + 1,
                "bots": r.seating.iter().map(|&b| self.names[b].as_str()).collect::<Vec<_>>(),
                "result": r.result, "termination": r.termination, "reason": r.reason,
                "turns": r.turns, "forfeits": r.forfeits,
            });
            if let Err(e) = writeln!(self.out, "{line}").and_then(|()| self.out.flush()) {
                self.failed.get_or_insert(e);
                return true;
            }
        } else if let (true, Some(s)) = (show, &s) {
            eprint!(
                "\r\x1b[K{}",
                progress_line(s, self.started, tally.games() - before)
            );
        }
        s.and_then(|s| s.sprt)
            .is_some_and(|t| t.result.verdict != SprtVerdict::Continue)
    }
}

/// `12/40 games · a 7-3-2 b · Elo +85 [−20, +190] · 0:42 left`.
fn progress_line(s: &Summary, started: Instant, played_now: usize) -> String {
    let mut line = format!("{}/{} games", s.games, s.scheduled);
    if let [a, b] = &s.bots[..] {
        line.push_str(&format!(
            " · {} {}-{}-{} {}",
            a.name, a.wins, a.losses, a.draws, b.name
        ));
        if let Some(e) = &s.estimate {
            line.push_str(&format!(" · Elo {}", elo_text(e)));
        }
    }
    if played_now > 0 {
        let each = started.elapsed().as_secs_f64() / played_now as f64;
        let left = (s.scheduled.saturating_sub(s.games)) as f64 * each;
        line.push_str(&format!(
            " · {:.0}:{:02.0} left",
            (left / 60.0).floor(),
            left % 60.0
        ));
    }
    line
}

fn signed(x: f64) -> String {
    format!("{:+.1}", x + 0.0)
}

/// The Elo and its interval. An interval with both ends open is `[-inf, +inf]` where the
/// pairs' scores spread (too few of them to bound it), and none where they do not.
fn elo_text(e: &EloEstimate) -> String {
    let end = |x: Option<f64>, inf: &str| x.map_or(inf.to_string(), signed);
    // Every pair (game) scored the same (no spread, so no normalized Elo either): the
    // normal interval has nothing to go on.
    if e.nelo_interval.is_none() {
        return format!(
            "{} (no interval: every pair scored the same)",
            signed(e.elo)
        );
    }
    format!(
        "{} [{}, {}] (95 %)",
        signed(e.elo),
        end(e.elo_interval[0], "-inf"),
        end(e.elo_interval[1], "+inf")
    )
}

/// The report in text.
fn report_text(s: &Summary) -> String {
    let mut t = format!("{} of {} games played\n\n", s.games, s.scheduled);
    let width = s
        .bots
        .iter()
        .map(|b| b.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    t.push_str(&format!(
        "{:width$}  games  wins  draws  losses  score\n",
        "bot"
    ));
    for b in &s.bots {
        t.push_str(&format!(
            "{:width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>5.1}%",
            b.name,
            b.games,
            b.wins,
            b.draws,
            b.losses,
            100.0 * b.score
        ));
        if let Some(r) = &b.rating {
            t.push_str(&format!(
                "  Elo {} [{}, {}]",
                signed(r.elo),
                signed(r.elo_interval[0]),
                signed(r.elo_interval[1])
            ));
        }
        let f: Vec<String> = b.forfeits.iter().map(|(k, n)| format!("{n} {k}")).collect();
        if !f.is_empty() {
            t.push_str(&format!("  forfeits: {}", f.join(", ")));
        }
        t.push('\n');
    }
    if let (Some(p), [a, b]) = (&s.pentanomial, &s.bots[..]) {
        t.push_str(&format!(
            "\npairs ({}'s points over two games, 0 to 2): {:?}\n",
            a.name, p
        ));
        match &s.estimate {
            Some(e) => {
                t.push_str(&format!(
                    "{} against {}: Elo {}, score {:.1} %\n",
                    a.name,
                    b.name,
                    elo_text(e),
                    100.0 * e.score
                ));
                let nelo = match (e.nelo, e.nelo_interval) {
                    (Some(n), Some([lo, hi])) => {
                        format!("{} [{}, {}]", signed(n), signed(lo), signed(hi))
                    }
                    _ => "undefined (every pair scored the same)".into(),
                };
                t.push_str(&format!(
                    "normalized Elo {nelo}; likelihood of superiority {:.1} %\n",
                    100.0 * e.los
                ));
            }
            None => t.push_str("no game played: no Elo\n"),
        }
    }
    if let Some(sp) = &s.sprt {
        let verdict = match sp.result.verdict {
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::Continue => "no decision yet",
        };
        t.push_str(&format!(
            "SPRT: llr {:.2} (bounds {:.2}, {:.2}): {verdict}\n",
            sp.result.llr, sp.result.lower, sp.result.upper
        ));
    }
    if let Some(table) = &s.crosstable {
        t.push_str("\ncrosstable (row's points against column, of games met):\n");
        for (i, row) in table.iter().enumerate() {
            t.push_str(&format!("{:width$}", s.bots[i].name));
            for (j, c) in row.iter().enumerate() {
                if i == j {
                    t.push_str("        -");
                } else {
                    t.push_str(&format!("  {:>3.1}/{:<3}", c.points, c.games));
                }
            }
            t.push('\n');
        }
    }
    t
}

fn print_report(ctx: &Ctx, s: &Summary, out: &mut dyn Write) -> Outcome {
    match ctx.global.format {
        Format::Json => writeln!(out, "{}", json!({ "summary": s }))?,
        _ => write!(out, "{}", report_text(s))?,
    }
    Ok(())
}

/// The openings of `--openings FILE`: each record's turns (as written) and seed, each
/// replayed once here so a bad one is refused before any game.
fn read_openings<G: Game>(
    ctx: &Ctx,
    table: &Table,
    path: &std::path::Path,
) -> Result<Vec<Opening>, Failure> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Usage(format!("--openings {name}: cannot read it: {e}")))?;
    let limits = &ctx.env.limits;
    let file = record::split(&text, limits);
    if let Some(e) = file.errors.first() {
        return Err(Failure::Usage(format!("--openings {name}: {}", e.message)));
    }
    let mut openings = Vec::new();
    for (i, raw) in file.records.iter().enumerate() {
        let at = format!("--openings {name} (record {})", i + 1);
        if raw.header.value("Game") != Some(G::NAME) {
            return Err(Failure::Usage(format!("{at}: not a {} record", G::NAME)));
        }
        let seed = raw.header.value("Seed").map(str::to_string);
        let settings = G::settings(&table.ruleset);
        if seed.is_none() && G::has_chance(&settings) {
            return Err(Failure::Usage(format!(
                "{at}: {} has random events, so an opening needs the Seed its turns were played under",
                G::NAME
            )));
        }
        let mt = G::parse_movetext(&text, raw.movetext, limits);
        if let Some(e) = mt.error {
            return Err(Failure::Usage(format!("{at}: {}", e.message)));
        }
        let turns: Vec<String> = mt
            .entries
            .iter()
            .map(|e| text[e.span.start..e.span.end].to_string())
            .collect();
        // Replayed once: refused turns are said now.
        let check = crate::runner::game::GameSpec {
            index: 0,
            seating: Vec::new(),
            seed: seed.clone().unwrap_or_else(|| "opening".into()),
            opening: turns.clone(),
            random_turns: 0,
        };
        crate::runner::game::replay_opening::<G>(table, &check)
            .map_err(|e| Failure::Usage(format!("{at}: {e}")))?;
        openings.push(Opening { seed, turns });
    }
    if openings.is_empty() {
        return Err(Failure::Usage(format!(
            "--openings {name}: no record in it"
        )));
    }
    Ok(openings)
}

struct MatchVisit<'a> {
    ctx: &'a Ctx,
    args: &'a MatchArgs,
    table: Table,
    plan: Plan,
    sprt: Option<Sprt>,
    out: &'a mut dyn Write,
}

impl Visitor for MatchVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let MatchVisit {
            ctx,
            args,
            table,
            plan,
            sprt,
            out,
        } = self;
        let seats = G::seats(&G::settings(&table.ruleset)).len();
        if !(2..=6).contains(&seats) {
            return Err(Failure::Usage(format!(
                "a match is for games of 2 to 6 seats; {} under {} has {seats}",
                G::NAME,
                table.ruleset.name
            )));
        }
        let mut plan = plan;
        if let Some(path) = &args.openings {
            plan.openings = read_openings::<G>(ctx, &table, path)?;
        }
        let schedule = Schedule::new(
            table.bots.len(),
            seats,
            args.games,
            args.gauntlet,
            &args.seed,
        );
        let names: Vec<String> = table.bots.iter().map(|b| b.name.clone()).collect();
        let head = StateHead {
            referee_match: 1,
            fingerprint: fingerprint(&table, args, seats, &plan.openings),
            bots: names.clone(),
            ruleset: table.ruleset.name.clone(),
            scheduled: schedule.len(),
            out_start: 0,
        };
        let json = ctx.global.format == Format::Json;
        let scheduled = match plan.shard {
            Some(_) => (0..schedule.len())
                .filter(|&i| tournament::is_mine(&schedule, &plan, i))
                .count(),
            None => schedule.len(),
        };
        let mut progress = Progress {
            names: &names,
            sprt: sprt.as_ref(),
            json,
            out,
            terminal: std::io::stderr().is_terminal(),
            started: Instant::now(),
            done_before: None,
            failed: None,
        };
        let mut tally = Tally::new(&names, scheduled);
        tournament::run::<G>(&table, &plan, &schedule, &head, &mut tally, &mut progress)
            .map_err(Failure::Usage)?;
        if progress.terminal && !json {
            eprintln!();
        }
        if let Some(e) = progress.failed {
            return Err(e.into());
        }
        let summary = tally.summary(sprt.as_ref());
        print_report(ctx, &summary, progress.out)
    }
}

pub fn match_bots(ctx: &Ctx, args: &MatchArgs, out: &mut dyn Write) -> Outcome {
    if !args.merge.is_empty() {
        let (_, tally) = tournament::merge(&args.merge).map_err(Failure::Usage)?;
        let sprt = parse_sprt(&args.sprt)?;
        let summary = tally.summary(sprt.as_ref());
        return print_report(ctx, &summary, out);
    }
    let name = args
        .ruleset
        .as_deref()
        .expect("clap requires a ruleset without --merge");
    let bots: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|b| bot_spec(b))
        .collect::<Result<_, _>>()?;
    if bots.len() < 2 {
        return Err(Failure::Usage(
            "a match needs two bots or more (--bot NAME=CMD, twice)".into(),
        ));
    }
    for (i, b) in bots.iter().enumerate() {
        if bots[..i].iter().any(|o| o.name == b.name) {
            return Err(Failure::Usage(format!(
                "two bots are named `{}`: give each its own name",
                b.name
            )));
        }
    }
    if args.games == 0 {
        return Err(Failure::Usage("--games must be at least 1".into()));
    }
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, &args.seats)?;
    let clock = args.tc.as_deref().map(parse_tc).transpose()?;
    let movetime = match (args.movetime.as_deref(), clock) {
        (Some(m), _) => Some(parse_duration(m)?),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_MOVETIME),
    };
    let limits = TimeLimits {
        startup: parse_duration(&args.startup)?,
        movetime,
        clock,
        margin: match args.timemargin.trim() {
            "0" | "0ms" | "0s" => Duration::ZERO,
            m => parse_duration(m)?,
        },
    };
    let concurrency = match args.concurrency {
        Some(0) => return Err(Failure::Usage("--concurrency must be at least 1".into())),
        Some(n) => n,
        None => crate::engine::search::default_threads(),
    };
    let plan = Plan {
        games: args.games,
        gauntlet: args.gauntlet,
        seed: args.seed.clone(),
        openings: Vec::new(),
        random_turns: args.random_turns,
        concurrency,
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
        out: args.out.clone(),
        state: args.state.clone(),
    };
    let table = Table {
        ruleset: Arc::new(rs.clone()),
        options: options_tag(ctx),
        seats_tag: !args.seats.is_empty(),
        bots,
        limits,
        max_turns: args.max_turns.max(1),
        estimate: match args.adjudicate {
            Adjudication::Draw => None,
            Adjudication::Estimate => {
                let mut c = crate::engine::Config::new(
                    crate::engine::Budget::Playouts(super::analyse::DEFAULT_PLAYOUTS),
                    &format!("{}/estimate", args.seed),
                );
                c.threads = 1;
                Some(c)
            }
        },
        notation: ctx.env.limits,
        event: args.event.clone(),
        dir: None,
    };
    let sprt = parse_sprt(&args.sprt)?;
    if sprt.is_some() && table.bots.len() != 2 {
        return Err(Failure::Usage("--sprt is a test between two bots".into()));
    }
    let game = rs.game.clone();
    visit_game(
        &game,
        MatchVisit {
            ctx,
            args,
            table,
            plan,
            sprt,
            out,
        },
    )
}
