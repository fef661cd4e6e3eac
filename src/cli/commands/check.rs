//! `referee check`: every record of every file judged.

use std::io::Write;

use serde_json::json;

use super::{display_name, read_input};
use crate::cli::diagnostics::{self, report_json};
use crate::cli::{Ctx, Failure, Format, Outcome};
use crate::notation::record::LineIndex;
use crate::referee;

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
