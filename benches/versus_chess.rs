//! `check` side by side with the chess validator (`cargo bench --bench versus_chess`):
//! `referee check -q -j 1` on each game's corpus against `chess-validator validate`
//! (pgn-reader + shakmaty, `benches/chess-validator/`) on a chess corpus of the same
//! size, both as whole processes on one thread. It prints, per game:
//!
//! - instructions per byte, counted by valgrind (`cachegrind`), and their ratio to the
//!   validator's: the same on every machine (issue 32's targets: at most 0.5× for
//!   Halatafl, Thaayam-bell and Halves, 2.5× for Halasi);
//! - MB/s, the best of seven runs of each, and their ratio, measured in the same run on
//!   the processor it names: a figure of this machine only.
//!
//! And the cold start: the instructions of `referee check games/halatafl/opening.game`
//! against the validator on one game. The corpora are made once under
//! `target/bench-corpora/`: `referee selfplay RULESET --seed perf` (about 5 MB each),
//! `chess-validator generate --seed perf --bytes 5000000`. Arguments filter the lines
//! by name (`-- halves`, `-- cold`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Each game's corpus: ruleset and games, about 5 MB.
const CORPORA: [(&str, usize, f64); 4] = [
    ("halatafl", 1600, 0.5),
    ("thaayam-bell", 1250, 0.5),
    ("halves", 13500, 0.5),
    ("halasi", 1100, 2.5),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpora_dir() -> PathBuf {
    let dir = root().join("target/bench-corpora");
    std::fs::create_dir_all(&dir).expect("target/bench-corpora");
    dir
}

/// Runs a command to its end; its stdout.
fn output(cmd: &mut Command) -> Vec<u8> {
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .expect("the command runs");
    assert!(out.status.success(), "{cmd:?} failed: {}", out.status);
    out.stdout
}

/// The chess validator, built from its own crate.
fn validator() -> PathBuf {
    let dir = root().join("benches/chess-validator");
    output(
        Command::new(env!("CARGO"))
            .args([
                "build",
                "--release",
                "--locked",
                "--quiet",
                "--manifest-path",
            ])
            .arg(dir.join("Cargo.toml")),
    );
    dir.join("target/release/chess-validator")
}

/// A corpus file, made by `make` the first time.
fn corpus(name: &str, make: impl FnOnce() -> Vec<u8>) -> PathBuf {
    let path = corpora_dir().join(name);
    if !path.exists() {
        std::fs::write(&path, make()).expect("corpus written");
    }
    path
}

/// The instructions a whole process executes, by `valgrind --tool=cachegrind`.
fn instructions(program: &Path, args: &[&str]) -> Option<u64> {
    let out = Command::new("valgrind")
        .args([
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
        ])
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.contains("I refs:") || l.contains("I   refs:"))?;
    line.rsplit(':')
        .next()?
        .trim()
        .replace(',', "")
        .parse()
        .ok()
}

/// The best wall time of seven runs.
fn best_time(program: &Path, args: &[&str]) -> Duration {
    (0..7)
        .map(|_| {
            let t0 = Instant::now();
            Command::new(program)
                .args(args)
                .stdout(Stdio::null())
                .status()
                .expect("runs");
            t0.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The processor, as `/proc/cpuinfo` names it.
fn processor() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "an unknown processor".into())
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted =
        |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    let referee = PathBuf::from(env!("CARGO_BIN_EXE_referee"));
    let chess = validator();
    let chess_corpus = corpus("chess-perf.pgn", || {
        output(Command::new(&chess).args(["generate", "--seed", "perf", "--bytes", "5000000"]))
    });
    let counted = instructions(&chess, &["validate", "-"]).is_some();
    println!("processor: {}", processor());
    if !counted {
        println!("valgrind is not installed: wall-clock figures only");
    }
    let chess_path = chess_corpus.to_str().expect("a UTF-8 path");
    let chess_bytes = std::fs::metadata(&chess_corpus).expect("corpus").len() as f64;
    let chess_ipb = instructions(&chess, &["validate", chess_path]).map(|n| n as f64 / chess_bytes);
    let chess_time = best_time(&chess, &["validate", chess_path]).as_secs_f64();
    let chess_mbs = chess_bytes / 1e6 / chess_time;
    match chess_ipb {
        Some(ipb) => println!(
            "chess validator: {ipb:.1} instructions a byte, {chess_mbs:.1} MB/s, {:.1} MB",
            chess_bytes / 1e6
        ),
        None => println!("chess validator: {chess_mbs:.1} MB/s"),
    }
    for (ruleset, games, target) in CORPORA {
        if !wanted(ruleset) {
            continue;
        }
        let file = corpus(&format!("{ruleset}-perf.game"), || {
            output(Command::new(&referee).args([
                "selfplay",
                ruleset,
                "--games",
                &games.to_string(),
                "--seed",
                "perf",
            ]))
        });
        let path = file.to_str().expect("a UTF-8 path");
        let bytes = std::fs::metadata(&file).expect("corpus").len() as f64;
        let args = ["check", "-q", "-j", "1", path];
        let mbs = bytes / 1e6 / best_time(&referee, &args).as_secs_f64();
        let ipb = instructions(&referee, &args).map(|n| n as f64 / bytes);
        let counts = match (ipb, chess_ipb) {
            (Some(ipb), Some(chess)) => format!(
                "{ipb:>7.1} instructions a byte, {:.2}x the validator's (target at most {target}x); ",
                ipb / chess
            ),
            _ => String::new(),
        };
        println!(
            "check {ruleset:<13} {counts}{mbs:>6.1} MB/s, {:.2}x the validator's speed, {:.1} MB",
            mbs / chess_mbs,
            bytes / 1e6
        );
    }
    if wanted("cold") && counted {
        let one = corpus("chess-one.pgn", || {
            output(Command::new(&chess).args(["generate", "--seed", "one", "--bytes", "1"]))
        });
        let record = root().join("games/halatafl/opening.game");
        let ours = instructions(&referee, &["check", record.to_str().expect("UTF-8")]);
        let theirs = instructions(&chess, &["validate", one.to_str().expect("UTF-8")]);
        if let (Some(ours), Some(theirs)) = (ours, theirs) {
            println!(
                "cold start, whole process: referee check of one record {:.2} M instructions, the validator on one game {:.2} M ({:.2}x; target at most 2x)",
                ours as f64 / 1e6,
                theirs as f64 / 1e6,
                ours as f64 / theirs as f64
            );
        }
    }
}
