//! `referee check`: every record of every file judged, streaming.
//!
//! Files are read one record at a time ([`Chunks`]), so memory stays flat in the size
//! of a file, from a file or from stdin. A reader thread cuts the input into batches
//! of records while the batch before is judged on every core (rayon); each batch's
//! output is written in input order. With `--threads 1`, or files of at most 256 KiB
//! in all, no thread is started: the batches are read and judged in turn, which also
//! makes the run's instruction count exact (the instruction benchmarks use it).

use std::io::{IsTerminal, Read, Write};
use std::sync::mpsc::{channel, sync_channel, Sender};
use std::sync::Arc;

use rayon::prelude::*;

use super::walk::{self, Problem, Source};
use crate::cli::diagnostics::{self, report_json};
use crate::cli::{Ctx, Failure, Format, Outcome};
use crate::notation::record::{Chunk, Chunks, Limits, LineIndex, Spare};
use crate::referee;

/// A batch is judged once it holds this many bytes of records…
const BATCH_BYTES: usize = 4 << 20;
/// …or this many records, where they are judged on several threads…
const BATCH_RECORDS: usize = 8192;
/// …or this many, where they are judged on the reader's thread: one after another, a
/// small batch is as quick, and what its records leave ([`Spare`]) is used again at once.
const BATCH_HERE: usize = KEYED;
/// Files that hold at most this many bytes in all are judged on the main thread.
const SMALL_INPUT: u64 = 256 << 10;

/// A record waiting to be judged: its file's display name and its text.
struct Job {
    name: Arc<str>,
    chunk: Chunk,
}

/// What the reader hands over, in input order.
enum Input {
    Batch(Vec<Job>),
    /// A file that cannot be read (or stopped being readable): a message for stderr.
    Unreadable(String),
}

/// What judging a record gave: its output and its count.
struct Judged {
    out: Vec<u8>,
    valid: usize,
    invalid: usize,
}

/// Reads every file into batches of at most `most` records and hands them to `sink`,
/// with a message where a file cannot be read, until the input ends or `sink` answers
/// `false` (the output failed). After each hand-over, `spare` gives back the batches
/// judged since: their records are dropped, their headers' lists of tags kept for the
/// records to come ([`Spare`]), and one of their lists of records kept, emptied, for
/// the next batch. A list grows to a batch's size once, and a header's list of tags is
/// made once, not again for every batch.
fn read_all(
    files: Vec<Source>,
    limits: Limits,
    most: usize,
    mut sink: impl FnMut(Input) -> bool,
    spare: impl Fn() -> Vec<Vec<Job>>,
) {
    let mut batch: Vec<Job> = Vec::new();
    let mut bytes = 0usize;
    // `false` once the output failed: stop reading.
    let mut send =
        |batch: &mut Vec<Job>, bytes: &mut usize, then: Option<String>, kept: &mut Spare| {
            *bytes = 0;
            let full = std::mem::take(batch);
            let mut ok = full.is_empty() || sink(Input::Batch(full));
            if let Some(message) = then {
                ok = ok && sink(Input::Unreadable(message));
            }
            for mut spent in spare() {
                // (The records are dropped where they lie, not moved out one by one.)
                for job in &mut spent {
                    if let Some(record) = &mut job.chunk.record {
                        kept.keep(record);
                    }
                }
                spent.clear();
                *batch = spent;
            }
            ok
        };
    let mut kept = Spare::default();
    for file in &files {
        let name: Arc<str> = Arc::from(file.name.as_str());
        let reader: Box<dyn Read> = match &file.path {
            None => Box::new(std::io::stdin()),
            Some(path) => match std::fs::File::open(path) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    let message = format!("cannot read {name}: {e}");
                    if !send(&mut batch, &mut bytes, Some(message), &mut kept) {
                        return;
                    }
                    continue;
                }
            },
        };
        let mut chunks = Chunks::with_spare(reader, limits, std::mem::take(&mut kept));
        while let Some(chunk) = chunks.next() {
            match chunk {
                Ok(chunk) => {
                    bytes += chunk.bytes;
                    batch.push(Job {
                        name: name.clone(),
                        chunk,
                    });
                    if (bytes >= BATCH_BYTES || batch.len() >= most)
                        && !send(&mut batch, &mut bytes, None, chunks.spare())
                    {
                        return;
                    }
                }
                Err(e) => {
                    let message = format!("cannot read {name}: {e}");
                    if !send(&mut batch, &mut bytes, Some(message), chunks.spare()) {
                        return;
                    }
                    break;
                }
            }
        }
        kept = chunks.into_spare();
    }
    send(&mut batch, &mut bytes, None, &mut kept);
}

/// Where records are judged.
enum Judges {
    /// On this thread, one after another (`--threads 1`).
    Here,
    /// On rayon's global pool: every core, or `RAYON_NUM_THREADS`.
    Global,
    /// On a pool of `--threads N`.
    Pool(rayon::ThreadPool),
}

impl Judges {
    fn new(threads: Option<usize>) -> Result<Judges, Failure> {
        match threads {
            None => Ok(Judges::Global),
            Some(1) => Ok(Judges::Here),
            Some(n) => rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Judges::Pool)
                .map_err(|e| Failure::Usage(format!("cannot start {n} threads: {e}"))),
        }
    }

    fn judge(&self, ctx: &Ctx, json: bool, batch: &[Job]) -> Vec<Judged> {
        let par = || {
            batch
                .par_chunks(KEYED)
                .flat_map_iter(|jobs| {
                    let mut judged = Vec::with_capacity(jobs.len());
                    judge_keyed(ctx, json, jobs, &mut judged);
                    judged
                })
                .collect()
        };
        match self {
            Judges::Here => {
                let mut judged = Vec::with_capacity(batch.len());
                for jobs in batch.chunks(KEYED) {
                    judge_keyed(ctx, json, jobs, &mut judged);
                }
                judged
            }
            Judges::Global => par(),
            Judges::Pool(pool) => pool.install(par),
        }
    }
}

/// Records whose seeds are hashed together before they are judged.
const KEYED: usize = 64;

/// Judges up to [`KEYED`] records into `judged`, in order, their seeds hashed together
/// first ([`crate::dice::seed_keys`]: SHA-256 on SIMD lanes, several seeds at a time).
fn judge_keyed(ctx: &Ctx, json: bool, jobs: &[Job], judged: &mut Vec<Judged>) {
    debug_assert!(jobs.len() <= KEYED);
    let mut seeds: [&[u8]; KEYED] = [&[]; KEYED];
    // Which of the jobs has each seed, in order.
    let mut of = [0usize; KEYED];
    let mut n = 0;
    for (i, job) in jobs.iter().enumerate() {
        if let Some(seed) = referee::chunk_seed(&job.chunk) {
            (seeds[n], of[n]) = (seed.as_bytes(), i);
            n += 1;
        }
    }
    let mut keys = [[0u8; 32]; KEYED];
    crate::dice::seed_keys(&seeds[..n], &mut keys[..n]);
    let mut next = 0;
    for (i, job) in jobs.iter().enumerate() {
        let key = (next < n && of[next] == i).then(|| {
            next += 1;
            keys[next - 1]
        });
        judged.push(judge(ctx, json, job, key));
    }
}

/// The running totals, and where output goes.
struct Run<'a> {
    ctx: &'a Ctx,
    judges: Judges,
    /// Where a judged batch goes to be freed, and its list used again: the reader.
    spent: Sender<Vec<Job>>,
    json: bool,
    out: &'a mut dyn Write,
    progress: Option<indicatif::ProgressBar>,
    valid: usize,
    invalid: usize,
    unreadable: usize,
}

impl Run<'_> {
    /// Judges a batch and writes its output in input order.
    fn judge(&mut self, batch: Vec<Job>) -> std::io::Result<()> {
        let judged = self.judges.judge(self.ctx, self.json, &batch);
        let bytes: usize = batch.iter().map(|j| j.chunk.bytes).sum();
        // The reader drops its records, and uses its list again, at its next hand-over.
        let _ = self.spent.send(batch);
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

    /// Takes what the reader handed over.
    fn take(&mut self, input: Input) -> std::io::Result<()> {
        match input {
            Input::Batch(batch) => self.judge(batch),
            Input::Unreadable(message) => {
                self.unreadable += 1;
                self.warn(&message)
            }
        }
    }

    /// A message on stderr, after the output of the records before it.
    fn warn(&mut self, message: &str) -> std::io::Result<()> {
        self.out.flush()?;
        match &self.progress {
            Some(pb) => pb.suspend(|| eprintln!("referee: {message}")),
            None => eprintln!("referee: {message}"),
        }
        Ok(())
    }
}

/// Judges one record and renders what `check` prints of it; `seed_key` is the SHA-256
/// of its seed ([`referee::chunk_seed`]), where hashed already.
fn judge(ctx: &Ctx, json: bool, job: &Job, seed_key: Option<[u8; 32]>) -> Judged {
    let (name, chunk) = (&*job.name, &job.chunk);
    let text = chunk.text.as_str();
    let reports = referee::check_chunk(&ctx.env, name, chunk, seed_key);
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
        // Written only for a line that is printed: `-q` prints nothing of a valid record.
        let label = Label {
            name,
            record: chunk.several.then_some(r.index + 1),
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
        // Warnings show under --quiet too: they are what a reader has to look at.
        for d in &r.warnings {
            let _ = write!(
                buf,
                "{}",
                diagnostics::render_warning(name, text, chunk.line, d, ctx.color)
            );
        }
    }
    judged
}

/// How a report names its record: the file, and which record where it holds several.
struct Label<'a> {
    name: &'a str,
    record: Option<usize>,
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.record {
            Some(n) => write!(f, "{} (record {n})", self.name),
            None => f.write_str(self.name),
        }
    }
}

/// The size of all the files, where every one is a regular file (not stdin).
fn known_size(files: &[Source]) -> Option<u64> {
    files
        .iter()
        .map(|f| {
            std::fs::metadata(f.path.as_ref()?)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len())
        })
        .sum()
}

/// A progress bar by bytes, on a terminal only, for runs long enough to want one.
fn progress(ctx: &Ctx, files: &[Source]) -> Option<indicatif::ProgressBar> {
    if ctx.global.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let total = known_size(files)?;
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
/// picking the names) and `-`; `threads` judge them (`None`: every core).
pub fn check(
    ctx: &Ctx,
    args: &[String],
    globs: &[String],
    threads: Option<usize>,
    out: &mut dyn Write,
) -> Outcome {
    let json = match ctx.global.format {
        Format::Text => false,
        Format::Json => true,
        f => {
            return Err(Failure::Usage(
                format!("check prints text or json, not {f:?}").to_lowercase(),
            ))
        }
    };
    super::check_cli_settings(ctx)?;
    let expanded = walk::expand(args, globs)?;
    let files = expanded.sources;
    // A small input is judged here: starting threads would cost more than they save.
    let threads = match threads {
        None if known_size(&files).is_some_and(|n| n <= SMALL_INPUT) => Some(1),
        t => t,
    };
    let judges = Judges::new(threads)?;
    let here = matches!(judges, Judges::Here);
    let (spent, spent_rx) = channel();
    let mut run = Run {
        ctx,
        judges,
        spent,
        json,
        out,
        progress: progress(ctx, &files),
        valid: 0,
        invalid: 0,
        unreadable: 0,
    };
    // The reader owns its input, so an output that fails (a closed pipe) ends the run
    // at once even while the reader waits on stdin. One batch waits ahead at most.
    for w in &expanded.warnings {
        run.warn(w)?;
    }
    let mut empty = 0usize;
    for p in &expanded.problems {
        run.warn(p.message())?;
        match p {
            Problem::Unreadable(_) => run.unreadable += 1,
            Problem::Empty(_) => empty += 1,
        }
    }
    let limits = ctx.env.limits;
    // The batches judged since the last hand-over.
    let spare = move || spent_rx.try_iter().collect::<Vec<_>>();
    if here {
        let mut failed = None;
        read_all(
            files,
            limits,
            BATCH_HERE,
            |input| match run.take(input) {
                Ok(()) => true,
                Err(e) => {
                    failed = Some(e);
                    false
                }
            },
            spare,
        );
        if let Some(e) = failed {
            return Err(e.into());
        }
    } else {
        let (tx, rx) = sync_channel(1);
        std::thread::spawn(move || {
            read_all(
                files,
                limits,
                BATCH_RECORDS,
                |input| tx.send(input).is_ok(),
                spare,
            )
        });
        for input in rx {
            run.take(input)?;
        }
    }
    if let Some(pb) = run.progress.take() {
        pb.finish_and_clear();
    }
    let unreadable = run.unreadable;
    let (valid, invalid) = (run.valid, run.invalid);
    let total = valid + invalid;
    // One file that could not be read, and nothing else: its error, said once, is all.
    if total == 0 && unreadable + empty == 1 && unreadable == 1 {
        return Err(Failure::Said);
    }
    if !json {
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
