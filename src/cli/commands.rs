//! The commands other than `play`.

use std::io::{self, Read, Write};
use std::path::Path;

use serde_json::{json, Value as Json};

use super::diagnostics::{self, origin, report_json};
use super::{dispatch, Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::dice::Dice;
use crate::games::{seat_name, Game, Status};
use crate::notation::record::{self, Action, LineIndex, RawRecord};
use crate::referee::{self, judge, JudgeOptions, Session, StatusReport};
use crate::ruleset::{self, Origin, Override, Ruleset};

/// Reads a record file (`-` is standard input), refusing what is over the size limit.
/// Text that is not UTF-8 is an input error reported like a syntax error.
pub fn read_input(ctx: &Ctx, file: &str) -> Result<Result<String, (usize, String)>, Failure> {
    let max = ctx.env.limits.max_bytes;
    let mut bytes = Vec::new();
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
    if bytes.len() > max {
        return Ok(Err((
            0,
            format!("the file is over the limit of {max} bytes (--max-bytes)"),
        )));
    }
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..3);
            }
            Ok(Ok(s))
        }
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let prefix = String::from_utf8_lossy(&bytes[..at]).into_owned();
            Ok(Err((
                at,
                format!(
                    "the file is not UTF-8 text: invalid byte at offset {at}{}",
                    {
                        let idx = LineIndex::new(&prefix);
                        let (l, c) = idx.line_col(&prefix, at);
                        format!(" (line {l}, column {c})")
                    }
                ),
            )))
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

// ---------------------------------------------------------------------------------
// check

pub fn check(ctx: &Ctx, files: &[String], out: &mut dyn Write) -> Outcome {
    let json = match ctx.global.format {
        Format::Text => false,
        Format::Json => true,
        f => {
            return Err(Failure::Usage(
                format!("check prints text or json, not {f:?}").to_lowercase(),
            ))
        }
    };
    let progress = if files.len() >= 20 && !ctx.global.quiet {
        let pb = indicatif::ProgressBar::with_draw_target(
            Some(files.len() as u64),
            indicatif::ProgressDrawTarget::stderr(),
        );
        pb.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} files {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(pb)
    } else {
        None
    };
    let (mut valid, mut invalid, mut unreadable) = (0usize, 0usize, 0usize);
    for file in files {
        let name = display_name(file);
        let text = match read_input(ctx, file) {
            Ok(t) => t,
            Err(Failure::Usage(msg)) => {
                let msg = format!("referee: {msg}");
                match &progress {
                    Some(pb) => pb.suspend(|| eprintln!("{msg}")),
                    None => eprintln!("{msg}"),
                }
                unreadable += 1;
                continue;
            }
            Err(other) => return Err(other),
        };
        let mut buf: Vec<u8> = Vec::new();
        match text {
            Err((_, message)) => {
                invalid += 1;
                if json {
                    let line = json!({"file": name, "index": 0, "game": null, "ruleset": null,
                        "valid": false, "turns": 0, "status": null,
                        "errors": [{"kind": "syntax", "turn": null, "line": null, "column": null,
                                    "rule": null, "message": message, "hint": null}]});
                    writeln!(buf, "{line}")?;
                } else {
                    writeln!(buf, "{name}: invalid\nerror[syntax]: {message}")?;
                }
            }
            Ok(text) => {
                let reports = referee::check_text(&ctx.env, name, &text);
                let lines = LineIndex::new(&text);
                let several = reports.len() > 1;
                for r in &reports {
                    if r.valid {
                        valid += 1;
                    } else {
                        invalid += 1;
                    }
                    if json {
                        writeln!(buf, "{}", report_json(name, &text, &lines, r))?;
                        continue;
                    }
                    let label = if several {
                        format!("{name} (record {})", r.index + 1)
                    } else {
                        name.to_string()
                    };
                    if r.valid {
                        if !ctx.global.quiet {
                            let status =
                                r.status.as_ref().map(|s| s.describe()).unwrap_or_default();
                            writeln!(
                                buf,
                                "{label}: valid, {} turn{}, {status}",
                                r.turns,
                                if r.turns == 1 { "" } else { "s" }
                            )?;
                        }
                    } else {
                        writeln!(buf, "{label}: invalid")?;
                        for d in &r.errors {
                            write!(buf, "{}", diagnostics::render(name, &text, d, ctx.color))?;
                        }
                    }
                }
            }
        }
        match &progress {
            Some(pb) => {
                pb.suspend(|| out.write_all(&buf))?;
                pb.inc(1);
            }
            None => out.write_all(&buf)?,
        }
    }
    if let Some(pb) = progress {
        pb.finish_and_clear();
    }
    if !json {
        let total = valid + invalid;
        writeln!(
            out,
            "{total} record{}: {valid} valid, {invalid} invalid",
            if total == 1 { "" } else { "s" }
        )?;
    }
    if unreadable > 0 {
        out.flush()?;
        return Err(Failure::Usage(format!(
            "{unreadable} file{} could not be read",
            if unreadable == 1 { "" } else { "s" }
        )));
    }
    if invalid > 0 {
        return Err(Failure::Invalid);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// One record: adjudicate, show, moves, score

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
    let name = display_name(file).to_string();
    let text = match read_input(ctx, file)? {
        Ok(t) => t,
        Err((_, message)) => return Err(Failure::Usage(format!("{name}: {message}"))),
    };
    let split = record::split(&text, &ctx.env.limits);
    if let Some(e) = split.errors.first() {
        let d = referee::Diagnostic::new(e.kind.into(), Some(e.span), e.message.clone());
        return Err(Failure::Usage(format!(
            "{name} is not a record file\n{}",
            diagnostics::render(&name, &text, &d, false)
        )));
    }
    let Some(raw) = split.records.last().cloned() else {
        return Err(Failure::Usage(format!("{name} holds no record")));
    };
    let index = split.records.len() - 1;
    let game = referee::game_of(&raw).map_err(|d| {
        Failure::Usage(
            diagnostics::render(&name, &text, &d, false)
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

#[derive(Copy, Clone)]
enum One {
    Adjudicate,
    Show,
    Moves,
    Score,
}

struct OneVisit<'a> {
    ctx: &'a Ctx,
    rec: &'a OneRecord,
    turn: Option<usize>,
    what: One,
    out: &'a mut dyn Write,
}

impl Visitor for OneVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        match self.what {
            One::Adjudicate => adjudicate_game::<G>(self.ctx, self.rec, self.turn, self.out),
            One::Show | One::Moves | One::Score => {
                position_game::<G>(self.ctx, self.rec, self.turn, self.what, self.out)
            }
        }
    }
}

fn one(ctx: &Ctx, file: &str, turn: Option<usize>, what: One, out: &mut dyn Write) -> Outcome {
    let rec = load_one(ctx, file)?;
    let game = rec.game;
    dispatch(
        game,
        OneVisit {
            ctx,
            rec: &rec,
            turn,
            what,
            out,
        },
    )
    .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}

pub fn adjudicate(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    match ctx.global.format {
        Format::Text | Format::Json => one(ctx, file, turn, One::Adjudicate, out),
        f => Err(Failure::Usage(
            format!("adjudicate prints text or json, not {f:?}").to_lowercase(),
        )),
    }
}

pub fn show(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    one(ctx, file, turn, One::Show, out)
}

pub fn moves(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    one(ctx, file, turn, One::Moves, out)
}

pub fn score(ctx: &Ctx, file: &str, turn: Option<usize>, out: &mut dyn Write) -> Outcome {
    one(ctx, file, turn, One::Score, out)
}

fn adjudicate_game<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    out: &mut dyn Write,
) -> Outcome {
    let opts = JudgeOptions {
        detail: true,
        stop_after: turn,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let r = &j.report;
    let lines = LineIndex::new(&rec.text);
    // With --turn N: the position before turn N and the legal turns there.
    let before_n = turn.and_then(|n| {
        if n == 0 {
            return None;
        }
        let o = JudgeOptions {
            detail: false,
            stop_after: Some(n - 1),
        };
        judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, o).session
    });
    let legal_at = |s: &Session<G>| {
        let mut turns = Vec::new();
        s.legal_turns(&mut turns);
        let mut v: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
        v.sort();
        v
    };
    let verdicts: Vec<_> = match turn {
        Some(n) => j.verdicts.iter().filter(|v| v.turn == n).collect(),
        None => j.verdicts.iter().collect(),
    };
    if ctx.global.format == Format::Json {
        let mut doc = report_json(&rec.name, &rec.text, &lines, r);
        doc["verdicts"] = verdicts
            .iter()
            .map(|v| json!({"turn": v.turn, "seat": v.seat, "text": v.text, "legal": v.legal, "note": v.note}))
            .collect();
        doc["violation"] = match &j.violation {
            None => Json::Null,
            Some(v) => json!({
                "turn": v.turn,
                "rule": v.refusal.rule(),
                "message": v.refusal.to_string(),
                "rule_text": v.rule_text.as_ref().map(|t| &t.text),
                "rule_source": v.rule_text.as_ref().map(|t| t.location.to_string()),
                "setting": v.setting.as_ref().map(|(k, s)| json!({"key": k, "value": s.value.to_string(), "set_at": origin(&s.origin)})),
                "before": {
                    "setup": G::setup_string(&v.before.settings, &v.before.state),
                    "status": StatusReport::of::<G>(&v.before.status()),
                },
                "legal": v.legal,
            }),
        };
        if let (Some(n), Some(s)) = (turn, &before_n) {
            doc["turn"] = json!({
                "turn": n,
                "before": {"setup": G::setup_string(&s.settings, &s.state), "status": StatusReport::of::<G>(&s.status())},
                "legal": legal_at(s),
            });
        }
        writeln!(out, "{doc}")?;
        return if r.valid {
            Ok(())
        } else {
            Err(Failure::Invalid)
        };
    }
    // Text, built whole so blank lines between its blocks can be evened out.
    let final_out = out;
    let mut text: Vec<u8> = Vec::new();
    let out: &mut dyn Write = &mut text;
    let ruleset_file = j
        .session
        .as_ref()
        .map(|s| s.ruleset.file.clone())
        .unwrap_or_default();
    writeln!(out, "Ruling on {} (record {})", rec.name, rec.index + 1)?;
    writeln!(
        out,
        "Game {}, ruleset {}{}",
        G::NAME,
        r.ruleset.as_deref().unwrap_or("?"),
        if ruleset_file.is_empty() {
            String::new()
        } else {
            format!(" ({ruleset_file})")
        }
    )?;
    if !verdicts.is_empty() {
        writeln!(out)?;
    }
    for v in &verdicts {
        let verdict = if v.legal {
            "legal".to_string()
        } else {
            let rule = j
                .violation
                .as_ref()
                .and_then(|x| x.refusal.rule())
                .unwrap_or("dice");
            format!("ILLEGAL ({rule})")
        };
        writeln!(
            out,
            "  {:>4}  {:<6} {:<22} {verdict}",
            v.turn, v.seat, v.text
        )?;
        if let Some(note) = &v.note {
            writeln!(out, "              note: {note}")?;
        }
    }
    if let (Some(n), Some(s)) = (turn, &before_n) {
        if j.violation.as_ref().is_none_or(|v| v.turn == n) {
            writeln!(
                out,
                "\nPosition before turn {n} ({}):",
                StatusReport::of::<G>(&s.status()).describe()
            )?;
            write!(out, "{}", G::diagram(&s.settings, &s.state))?;
            writeln!(out, "setup: {}", G::setup_string(&s.settings, &s.state))?;
            let legal = legal_at(s);
            writeln!(out, "Legal turns ({}): {}", legal.len(), legal.join(" "))?;
        }
    }
    if !r.errors.is_empty() {
        writeln!(out)?;
    }
    for d in &r.errors {
        write!(
            out,
            "{}",
            diagnostics::render(&rec.name, &rec.text, d, ctx.color)
        )?;
    }
    if let Some(v) = &j.violation {
        if turn.is_none() {
            writeln!(
                out,
                "Position before turn {} ({}):",
                v.turn,
                StatusReport::of::<G>(&v.before.status()).describe()
            )?;
            write!(out, "{}", G::diagram(&v.before.settings, &v.before.state))?;
            writeln!(
                out,
                "setup: {}",
                G::setup_string(&v.before.settings, &v.before.state)
            )?;
            writeln!(
                out,
                "Legal turns ({}): {}",
                v.legal.len(),
                v.legal.join(" ")
            )?;
        } else if turn != Some(v.turn) {
            writeln!(
                out,
                "The replay stopped at turn {}, before turn {}.",
                v.turn,
                turn.unwrap_or(0)
            )?;
        }
        if r.turns > v.turn {
            writeln!(
                out,
                "Turns {}-{} follow the illegal turn and were not judged.",
                v.turn + 1,
                r.turns
            )?;
        }
    }
    writeln!(out)?;
    let status = r
        .status
        .as_ref()
        .map(|s| s.describe())
        .unwrap_or_else(|| "the game could not start".into());
    let declared = rec.raw.header.value("Result").unwrap_or("*");
    let stopped = j.violation.as_ref().map(|v| v.turn);
    match (turn, stopped) {
        (Some(_), Some(t)) => writeln!(out, "The replay stops before turn {t}: {status}")?,
        (None, Some(t)) => writeln!(
            out,
            "The replay stops before turn {t} ({status}); declared \"{declared}\""
        )?,
        (Some(n), None) => writeln!(out, "After turn {n}: {status}")?,
        (None, None) => writeln!(out, "Result: {status}; declared \"{declared}\"")?,
    }
    let n = r.errors.len();
    let scope = match turn {
        Some(t) => format!(" on turns 1-{t}"),
        None => String::new(),
    };
    writeln!(
        out,
        "Verdict{scope}: {}",
        if r.valid {
            "valid".to_string()
        } else {
            format!("invalid ({n} error{})", if n == 1 { "" } else { "s" })
        }
    )?;
    let mut text = String::from_utf8_lossy(&text).into_owned();
    while text.contains("\n\n\n") {
        text = text.replace("\n\n\n", "\n\n");
    }
    final_out.write_all(text.as_bytes())?;
    if r.valid {
        Ok(())
    } else {
        Err(Failure::Invalid)
    }
}

fn position_game<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    turn: Option<usize>,
    what: One,
    out: &mut dyn Write,
) -> Outcome {
    let opts = JudgeOptions {
        detail: false,
        stop_after: turn,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let Some(session) = &j.session else {
        for d in &j.report.errors {
            write!(
                out,
                "{}",
                diagnostics::render(&rec.name, &rec.text, d, ctx.color)
            )?;
        }
        return Err(Failure::Invalid);
    };
    // A violation before the asked position: say where the replay stopped.
    let played = session.turns;
    if let Some(n) = turn {
        if played < n {
            eprintln!(
                "referee: the replay stops after turn {played} (the record {}); showing that position",
                if j.report.turns < n { "is shorter" } else { "has an error there" }
            );
        }
    } else if !j.report.valid {
        eprintln!("referee: the record is invalid; showing the position after turn {played}, where the replay stops");
    }
    let status = StatusReport::of::<G>(&session.status());
    match (what, ctx.global.format) {
        (One::Show, Format::Text) => {
            write!(out, "{}", G::diagram(&session.settings, &session.state))?;
            writeln!(out, "{}", status.describe())?;
        }
        (One::Show, Format::Setup) => writeln!(
            out,
            "{}",
            G::setup_string(&session.settings, &session.state)
        )?,
        (One::Show, Format::Json) => {
            let doc = json!({
                "turn": played,
                "position": G::position_json(&session.settings, &session.state),
                "setup": G::setup_string(&session.settings, &session.state),
                "status": status,
            });
            writeln!(out, "{doc}")?;
        }
        (One::Show, Format::Svg) => match G::svg(&session.settings, &session.state) {
            Some(svg) => write!(out, "{svg}")?,
            None => {
                return Err(Failure::Usage(format!(
                    "SVG output is not available for {} yet",
                    G::NAME
                )))
            }
        },
        (One::Moves, Format::Text | Format::Json) => {
            let mut turns = Vec::new();
            session.legal_turns(&mut turns);
            let mut legal: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
            legal.sort();
            if ctx.global.format == Format::Json {
                writeln!(
                    out,
                    "{}",
                    json!({"turn": played + 1, "to_move": status.to_move, "moves": legal})
                )?;
            } else {
                for m in legal {
                    writeln!(out, "{m}")?;
                }
            }
        }
        (One::Score, Format::Text | Format::Json) => {
            let standings = G::standings(&session.settings, &session.state);
            if ctx.global.format == Format::Json {
                let rows: Vec<Json> = standings
                    .iter()
                    .map(|s| json!({"seat": seat_name::<G>(s.seat), "value": s.value, "unit": s.unit}))
                    .collect();
                writeln!(
                    out,
                    "{}",
                    json!({"turn": played, "standings": rows, "status": status})
                )?;
            } else {
                writeln!(out, "Standings after turn {played}:")?;
                for s in &standings {
                    writeln!(
                        out,
                        "  {:<8} {:>4} {}",
                        seat_name::<G>(s.seat),
                        s.value,
                        s.unit
                    )?;
                }
                writeln!(out, "{}", status.describe())?;
            }
        }
        (_, f) => {
            return Err(Failure::Usage(
                format!("this command does not print {f:?}").to_lowercase(),
            ))
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------
// rules

pub fn rules(ctx: &Ctx, name: Option<&str>, check: bool, out: &mut dyn Write) -> Outcome {
    let lib = &ctx.env.library;
    if check {
        let errors = lib.check_all(&referee::schema_of);
        let list = lib.list();
        for e in &errors {
            writeln!(out, "{e}")?;
        }
        writeln!(
            out,
            "{} rulesets checked: {} error{}",
            list.len(),
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        )?;
        return if errors.is_empty() {
            Ok(())
        } else {
            Err(Failure::Invalid)
        };
    }
    let Some(name) = name else {
        let list = lib.list();
        if ctx.global.format == Format::Json {
            let rows: Vec<Json> = list
                .iter()
                .map(|r| json!({"name": r.name, "game": r.game, "title": r.title, "file": r.file}))
                .collect();
            writeln!(out, "{}", Json::Array(rows))?;
        } else {
            for r in &list {
                writeln!(
                    out,
                    "{:<22} {:<9} {}",
                    r.name,
                    r.game.as_deref().unwrap_or("?"),
                    r.title.as_deref().unwrap_or("")
                )?;
            }
        }
        return Ok(());
    };
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, &[])?;
    let schema = referee::schema_of(&rs.game)
        .ok_or_else(|| Failure::Usage(format!("unknown game {}", rs.game)))?;
    if ctx.global.format == Format::Json {
        let settings: Vec<Json> = rs
            .settings
            .iter()
            .map(|(k, s)| {
                json!({"key": k, "value": s.value.to_string(), "set_at": origin(&s.origin),
                       "description": schema.setting(k).map(|d| d.description)})
            })
            .collect();
        let rules: Vec<Json> = rs
            .rules
            .iter()
            .map(|(id, t)| json!({"id": id, "text": t.text, "source": t.location.to_string()}))
            .collect();
        let doc = json!({"name": rs.name, "game": rs.game, "title": rs.title, "source": rs.source,
                         "file": rs.file, "chain": rs.chain, "settings": settings, "rules": rules});
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    writeln!(out, "{} — {}", rs.name, rs.title.as_deref().unwrap_or(""))?;
    writeln!(
        out,
        "game {}; file {}; chain {}",
        rs.game,
        rs.file,
        rs.chain.join(" -> ")
    )?;
    if let Some(src) = &rs.source {
        writeln!(out, "source {src}")?;
    }
    writeln!(out, "\nSettings:")?;
    for (k, s) in &rs.settings {
        let desc = schema.setting(k).map(|d| d.description).unwrap_or("");
        writeln!(
            out,
            "  {:<16} = {:<18} {}",
            k,
            s.value.to_string(),
            origin(&s.origin)
        )?;
        if !desc.is_empty() {
            writeln!(out, "  {:<16}   {desc}", "")?;
        }
    }
    writeln!(out, "\nRules:")?;
    for (id, t) in &rs.rules {
        writeln!(out, "  {id} ({})\n    {}", t.location, t.text)?;
    }
    Ok(())
}

/// A ruleset named on the command line: a path when it has a `/` or ends in `.rules`,
/// else a name in the library.
pub fn load_ruleset(ctx: &Ctx, name: &str) -> Result<Ruleset, Failure> {
    let lib = &ctx.env.library;
    let r = if name.contains('/') || name.contains('\\') || name.ends_with(".rules") {
        lib.load_file(Path::new(name), &referee::schema_of)
    } else {
        lib.load(name, &referee::schema_of)
    };
    r.map_err(|e| {
        Failure::Usage(match &e.suggestion {
            Some(s) => format!("{e} ({s})"),
            None => e.to_string(),
        })
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
    ruleset::apply_overrides(rs, schema, &overrides).map_err(|errs| {
        Failure::Usage(
            errs.iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })
}

// ---------------------------------------------------------------------------------
// new, selfplay

/// Today's date as `YYYY.MM.DD` (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Days to civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The header of a new record for a ruleset.
pub fn header_for<G: Game>(
    rs: &Ruleset,
    settings: &G::Settings,
    seed: Option<&str>,
    seats_tag: bool,
    event: Option<&str>,
) -> String {
    let mut h = String::new();
    h.push_str(&format!("[Game \"{}\"]\n", G::NAME));
    h.push_str(&format!("[Ruleset \"{}\"]\n", record::escape(&rs.name)));
    if let Some(e) = event {
        h.push_str(&format!("[Event \"{}\"]\n", record::escape(e)));
    }
    h.push_str(&format!("[Date \"{}\"]\n", today()));
    let seats = G::seats(settings);
    if seats_tag {
        let names: Vec<&str> = seats.iter().map(|s| seat_name::<G>(*s)).collect();
        h.push_str(&format!("[Seats \"{}\"]\n", names.join(" ")));
    }
    for s in seats {
        let name = seat_name::<G>(*s);
        let mut cap = name.to_string();
        if let Some(first) = cap.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        h.push_str(&format!("[{cap} \"?\"]\n"));
    }
    if let Some(seed) = seed {
        h.push_str(&format!("[Seed \"{}\"]\n", record::escape(seed)));
        h.push_str(&format!(
            "[SeedCommit \"{}\"]\n",
            crate::dice::seed_commit(seed)
        ));
    }
    h.push_str("[Result \"*\"]\n");
    h
}

struct NewVisit<'a> {
    rs: &'a Ruleset,
    seed: Option<&'a str>,
    seats_tag: bool,
    out: &'a mut dyn Write,
}

impl Visitor for NewVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let settings = G::settings(self.rs);
        write!(
            self.out,
            "{}",
            header_for::<G>(self.rs, &settings, self.seed, self.seats_tag, None)
        )?;
        writeln!(self.out)?;
        Ok(())
    }
}

pub fn new_record(
    ctx: &Ctx,
    name: &str,
    seed: Option<&str>,
    seats: &[String],
    out: &mut dyn Write,
) -> Outcome {
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, seats)?;
    let game = rs.game.clone();
    dispatch(
        &game,
        NewVisit {
            rs: &rs,
            seed,
            seats_tag: !seats.is_empty(),
            out,
        },
    )
    .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}

/// The numbered text of a turn about to be played (`12.`, `12...`, `7.`).
pub fn numbered<G: Game>(session: &Session<G>, turn: &str) -> String {
    format!("{} {turn}", session.expected_number())
}

struct SelfplayVisit<'a> {
    rs: &'a Ruleset,
    /// The `--option` settings, written into each record's `Options` tag so the record
    /// replays on its own.
    options: Option<String>,
    games: usize,
    seed: &'a str,
    max_turns: usize,
    out: &'a mut dyn Write,
}

impl Visitor for SelfplayVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let mut chooser = Dice::from_seed(self.seed);
        let mut turns: Vec<G::Turn> = Vec::new();
        let no_tags = record::Header::default();
        for g in 0..self.games {
            let game_seed = format!("{}-{}", self.seed, g + 1);
            let mut session =
                Session::<G>::start(self.rs.clone(), None, &no_tags, Some(&game_seed))
                    .map_err(|v| Failure::Usage(format!("the game cannot start: {v}")))?;
            let mut moves = String::new();
            let mut line_len = 0;
            while session.turns < self.max_turns && session.to_move().is_some() {
                turns.clear();
                session.legal_turns(&mut turns);
                if turns.is_empty() {
                    return Err(Failure::Usage(format!(
                        "internal error: {} has no legal turn but the game is not over",
                        session.to_move().map(seat_name::<G>).unwrap_or("?")
                    )));
                }
                let pick = turns[chooser.uniform(turns.len() as u32) as usize].clone();
                let text = numbered(&session, &pick.to_string());
                session.play(&Action::Play(pick), "").map_err(|r| {
                    Failure::Usage(format!("internal error: a generated turn was refused: {r}"))
                })?;
                if line_len + text.len() > 78 {
                    moves.push('\n');
                    line_len = 0;
                } else if line_len > 0 {
                    moves.push(' ');
                    line_len += 1;
                }
                moves.push_str(&text);
                line_len += text.len();
            }
            let result = match session.status() {
                Status::Over(end) if end.draw => "draw".to_string(),
                Status::Over(end) if end.winners.is_empty() => "none".to_string(),
                Status::Over(end) => end
                    .winners
                    .iter()
                    .map(seat_name::<G>)
                    .collect::<Vec<_>>()
                    .join(" "),
                Status::Playing { .. } => "*".to_string(),
            };
            let header = header_for::<G>(
                self.rs,
                &session.settings,
                Some(&game_seed),
                false,
                Some("selfplay"),
            );
            let mut header = header.replace(
                "[Result \"*\"]",
                &format!("[Round \"{}\"]\n[Result \"{result}\"]", g + 1),
            );
            if let Some(options) = &self.options {
                let ruleset_line = format!("[Ruleset \"{}\"]\n", record::escape(&self.rs.name));
                header = header.replacen(
                    &ruleset_line,
                    &format!("{ruleset_line}[Options \"{}\"]\n", record::escape(options)),
                    1,
                );
            }
            writeln!(self.out, "{header}\n{moves}\n")?;
        }
        Ok(())
    }
}

pub fn selfplay(
    ctx: &Ctx,
    name: &str,
    games: usize,
    seed: &str,
    max_turns: usize,
    out: &mut dyn Write,
) -> Outcome {
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, &[])?;
    let game = rs.game.clone();
    dispatch(
        &game,
        SelfplayVisit {
            rs: &rs,
            options: (!ctx.env.options.is_empty()).then(|| {
                ctx.env
                    .options
                    .iter()
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
            games,
            seed,
            max_turns,
            out,
        },
    )
    .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}

// ---------------------------------------------------------------------------------
// move

struct MoveVisit<'a> {
    ctx: &'a Ctx,
    path: &'a Path,
    rec: &'a OneRecord,
    turn: &'a str,
    expect: Option<usize>,
    out: &'a mut dyn Write,
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Parses one turn given on its own (a command-line argument or a `play` line): the
/// game's notation, `resign` or `draw`, optionally with a number and a seat label.
pub fn parse_single<G: Game>(
    text: &str,
    limits: &record::Limits,
) -> Result<record::Entry<G::Turn>, String> {
    let mt = record::parse_movetext(
        text,
        record::Span::new(0, text.len()),
        limits,
        G::parse_turn,
    );
    if let Some(e) = mt.error {
        return Err(e.message);
    }
    if mt.termination.is_some() {
        return Err("a termination marker is not a turn".into());
    }
    let mut entries = mt.entries;
    match entries.len() {
        1 => Ok(entries.remove(0)),
        0 => Err("no turn given".into()),
        n => Err(format!("one turn at a time, please ({n} given)")),
    }
}

pub fn refusal_json(rule: Option<&str>, message: &str, hint: Option<&str>) -> Json {
    json!({"ok": false, "error": {"rule": rule, "message": message, "hint": hint}})
}

impl Visitor for MoveVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let MoveVisit {
            ctx,
            path,
            rec,
            turn,
            expect,
            out,
        } = self;
        let json = ctx.global.format == Format::Json;
        let refuse = |out: &mut dyn Write,
                      rule: Option<&str>,
                      message: String,
                      hint: Option<String>|
         -> Outcome {
            if json {
                writeln!(out, "{}", refusal_json(rule, &message, hint.as_deref()))?;
            } else {
                let rule = rule.map(|r| format!(" ({r})")).unwrap_or_default();
                writeln!(out, "refused{rule}: {message}")?;
                if let Some(h) = hint {
                    writeln!(out, "hint: {h}")?;
                }
            }
            Err(Failure::Invalid)
        };
        let j = judge::<G>(
            &ctx.env,
            &rec.name,
            &rec.text,
            &rec.raw,
            rec.index,
            JudgeOptions::default(),
        );
        if !j.report.valid {
            let first = &j.report.errors[0];
            return refuse(
                out,
                first.rule.as_deref(),
                format!("the record is not valid: {}", first.message),
                Some(format!("run `referee check {}`", rec.name)),
            );
        }
        let mut session = j.session.expect("a valid record has a session");
        let next = session.turns + 1;
        if let Some(n) = expect {
            if n != next {
                return refuse(out, Some("turn-order"), format!("the turn would be turn {next}, not {n}: the record has changed since (a stale move)"), None);
            }
        }
        let entry = match parse_single::<G>(turn.trim(), &ctx.env.limits) {
            Ok(e) => e,
            Err(m) => return refuse(out, None, format!("`{turn}` is not a turn: {m}"), None),
        };
        let number_text = session.expected_number().to_string();
        if let Err(r) = session.check_frame(
            entry.number.map(|(n, _)| n),
            entry.label.as_ref().map(|(l, _)| l.as_str()),
        ) {
            return refuse(out, r.rule(), r.to_string(), None);
        }
        let bad = match &entry.action {
            Action::BadAddress(s) => turn.trim()[s.start..s.end].to_string(),
            _ => String::new(),
        };
        let before = session.state.clone();
        if let Err(r) = session.play(&entry.action, &bad) {
            let hint = match &r {
                referee::Refusal::Rule(v) => G::hint(&session.settings, &before, v),
                _ => None,
            };
            return refuse(out, r.rule(), r.to_string(), hint);
        }
        // Append: the turn goes before a termination marker, if the record has one.
        let written = entry.action.written().expect("refused above");
        let line = format!("{number_text} {written}");
        let mt = j.movetext.as_ref();
        let insert_at = mt
            .and_then(|m| m.termination.map(|(_, s)| s.start))
            .unwrap_or(rec.raw.span.end);
        let mut text = rec.text.clone();
        let before_text = &text[..insert_at];
        let sep = if before_text.ends_with('\n') || before_text.is_empty() {
            ""
        } else {
            "\n"
        };
        let tail = if insert_at < text.len() { " " } else { "\n" };
        text.insert_str(insert_at, &format!("{sep}{line}{tail}"));
        // Refuse if someone else changed the file meanwhile.
        let now = std::fs::read_to_string(path)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        let now = now.strip_prefix('\u{feff}').unwrap_or(&now);
        if now != rec.text {
            return refuse(
                out,
                Some("turn-order"),
                "the record changed while the turn was checked; try again".into(),
                None,
            );
        }
        write_atomically(path, &text)
            .map_err(|e| Failure::Usage(format!("cannot write {}: {e}", path.display())))?;
        let status = StatusReport::of::<G>(&session.status());
        if json {
            writeln!(
                out,
                "{}",
                json!({"ok": true, "turn": next, "next": status.to_move, "status": status})
            )?;
        } else {
            writeln!(out, "turn {next} accepted: {line}; {}", status.describe())?;
        }
        Ok(())
    }
}

pub fn move_turn(
    ctx: &Ctx,
    path: &Path,
    turn: &str,
    expect: Option<usize>,
    out: &mut dyn Write,
) -> Outcome {
    let file = path.to_string_lossy().to_string();
    let rec = load_one(ctx, &file)?;
    let game = rec.game;
    dispatch(
        game,
        MoveVisit {
            ctx,
            path,
            rec: &rec,
            turn,
            expect,
            out,
        },
    )
    .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}
