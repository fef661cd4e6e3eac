//! `referee check`: every record of every file judged, streaming.
//!
//! Files are read one record at a time ([`Chunks`]), so memory stays flat in the size
//! of a file, from a file or from stdin. Records are judged in batches on every core
//! (rayon), and each batch's output is written in input order before the next batch
//! is read.

use std::io::{IsTerminal, Read, Write};

use rayon::prelude::*;

use super::walk::{self, Problem, Source};
use crate::cli::diagnostics::{self, report_json};
use crate::cli::{Ctx, Failure, Format, Outcome};
use crate::notation::record::{Chunk, Chunks, LineIndex};
use crate::referee;

/// A batch is judged once it holds this many bytes of records…
const BATCH_BYTES: usize = 4 << 20;
/// …or this many records.
const BATCH_RECORDS: usize = 8192;

/// A record waiting to be judged: its file's display name and its text.
struct Job<'a> {
    name: &'a str,
    chunk: Chunk,
}

/// What judging a record gave: its output and its count.
struct Judged {
    out: Vec<u8>,
    valid: usize,
    invalid: usize,
}

/// The running totals, and where output goes.
struct Run<'a> {
    ctx: &'a Ctx,
    json: bool,
    out: &'a mut dyn Write,
    progress: Option<indicatif::ProgressBar>,
    valid: usize,
    invalid: usize,
    batch: Vec<Job<'a>>,
    batch_bytes: usize,
}

impl<'a> Run<'a> {
    fn push(&mut self, job: Job<'a>) -> std::io::Result<()> {
        self.batch_bytes += job.chunk.bytes;
        self.batch.push(job);
        if self.batch_bytes >= BATCH_BYTES || self.batch.len() >= BATCH_RECORDS {
            self.flush()?;
        }
        Ok(())
    }

    /// Judges the batch on every core and writes its output in input order.
    fn flush(&mut self) -> std::io::Result<()> {
        let (ctx, json) = (self.ctx, self.json);
        let judged: Vec<Judged> = self
            .batch
            .par_iter()
            .map(|job| judge(ctx, json, job))
            .collect();
        let bytes: usize = self.batch.iter().map(|j| j.chunk.bytes).sum();
        self.batch.clear();
        self.batch_bytes = 0;
        for j in &judged {
            self.valid += j.valid;
            self.invalid += j.invalid;
        }
        let out = &mut *self.out;
        let mut write = || -> std::io::Result<()> {
            for j in &judged {
                out.write_all(&j.out)?;
            }
            Ok(())
        };
        match &self.progress {
            Some(pb) => {
                pb.suspend(write)?;
                pb.inc(bytes as u64);
            }
            None => write()?,
        }
        Ok(())
    }

    /// A message on stderr, after the output of the records before it.
    fn warn(&mut self, message: &str) -> std::io::Result<()> {
        self.flush()?;
        self.out.flush()?;
        match &self.progress {
            Some(pb) => pb.suspend(|| eprintln!("referee: {message}")),
            None => eprintln!("referee: {message}"),
        }
        Ok(())
    }
}

/// Judges one record and renders what `check` prints of it.
fn judge(ctx: &Ctx, json: bool, job: &Job<'_>) -> Judged {
    let (name, chunk) = (job.name, &job.chunk);
    let text = chunk.text.as_str();
    let reports = referee::check_chunk(&ctx.env, name, chunk);
    let lines = std::cell::OnceCell::new();
    let mut judged = Judged {
        out: Vec::new(),
        valid: 0,
        invalid: 0,
    };
    for r in &reports {
        if r.valid {
            judged.valid += 1;
        } else {
            judged.invalid += 1;
        }
        // Writing to a Vec cannot fail.
        let buf = &mut judged.out;
        if json {
            let lines = lines.get_or_init(|| LineIndex::new(text));
            let _ = writeln!(buf, "{}", report_json(name, text, lines, chunk.line, r));
            continue;
        }
        let label = if chunk.several {
            format!("{name} (record {})", r.index + 1)
        } else {
            name.to_string()
        };
        if r.valid {
            if !ctx.global.quiet {
                let status = r.status.as_ref().map(|s| s.describe()).unwrap_or_default();
                let s = if r.turns == 1 { "" } else { "s" };
                let _ = writeln!(buf, "{label}: valid, {} turn{s}, {status}", r.turns);
            }
        } else {
            let _ = writeln!(buf, "{label}: invalid");
            for d in &r.errors {
                let _ = write!(
                    buf,
                    "{}",
                    diagnostics::render(name, text, chunk.line, d, ctx.color)
                );
            }
        }
    }
    judged
}

/// A progress bar by bytes, on a terminal only, for runs long enough to want one.
fn progress(ctx: &Ctx, files: &[Source]) -> Option<indicatif::ProgressBar> {
    if ctx.global.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let sizes: Option<u64> = files
        .iter()
        .map(|f| {
            std::fs::metadata(f.path.as_ref()?)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum();
    let total = sizes?;
    if files.len() < 20 && total < 16 << 20 {
        return None;
    }
    let pb = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    Some(pb)
}

/// `check FILE…`: `args` are files, directories (walked for record files, `globs`
/// picking the names) and `-`.
pub fn check(ctx: &Ctx, args: &[String], globs: &[String], out: &mut dyn Write) -> Outcome {
    let json = match ctx.global.format {
        Format::Text => false,
        Format::Json => true,
        f => {
            return Err(Failure::Usage(
                format!("check prints text or json, not {f:?}").to_lowercase(),
            ))
        }
    };
    let expanded = walk::expand(args, globs)?;
    let files = &expanded.sources;
    let mut run = Run {
        ctx,
        json,
        out,
        progress: progress(ctx, files),
        valid: 0,
        invalid: 0,
        batch: Vec::new(),
        batch_bytes: 0,
    };
    for w in &expanded.warnings {
        run.warn(w)?;
    }
    let (mut unreadable, mut empty) = (0usize, 0usize);
    for p in &expanded.problems {
        run.warn(p.message())?;
        match p {
            Problem::Unreadable(_) => unreadable += 1,
            Problem::Empty(_) => empty += 1,
        }
    }
    for file in files {
        let name = file.name.as_str();
        let reader: Box<dyn Read> = match &file.path {
            None => Box::new(std::io::stdin().lock()),
            Some(path) => match std::fs::File::open(path) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    run.warn(&format!("cannot read {name}: {e}"))?;
                    unreadable += 1;
                    continue;
                }
            },
        };
        for chunk in Chunks::new(reader, ctx.env.limits) {
            match chunk {
                Ok(chunk) => run.push(Job { name, chunk })?,
                Err(e) => {
                    run.warn(&format!("cannot read {name}: {e}"))?;
                    unreadable += 1;
                    break;
                }
            }
        }
    }
    run.flush()?;
    if let Some(pb) = run.progress.take() {
        pb.finish_and_clear();
    }
    let (valid, invalid) = (run.valid, run.invalid);
    if !json {
        let total = valid + invalid;
        writeln!(
            run.out,
            "{total} record{}: {valid} valid, {invalid} invalid",
            if total == 1 { "" } else { "s" }
        )?;
    }
    if unreadable + empty > 0 {
        run.out.flush()?;
        let mut said = Vec::new();
        if unreadable > 0 {
            let s = if unreadable == 1 { "" } else { "s" };
            said.push(format!("{unreadable} file{s} could not be read"));
        }
        if empty > 0 {
            let (s, have) = if empty == 1 {
                ("y", "has")
            } else {
                ("ies", "have")
            };
            said.push(format!("{empty} director{s} {have} no file to check"));
        }
        return Err(Failure::Usage(said.join("; ")));
    }
    if invalid > 0 {
        return Err(Failure::Invalid);
    }
    Ok(())
}
