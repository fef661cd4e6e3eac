//! Instruction counts of whole `referee` processes under valgrind (gungraun binary
//! benchmarks), for the guard of `.ci/instructions` (docs/performance.md, "Instruction
//! counts and the guard"). The library calls are in `benches/instructions_library.rs`:
//! gungraun keeps binary and library benchmarks in separate files.
//!
//! - `check/RULESET`: `referee check -q -j 1 CORPUS` of a selfplay corpus of about 5 MB.
//!   With `-j 1` no thread is started, so the count is the same on every run.
//! - `cold/check_one_record`: `referee check games/halatafl/opening.game` from the
//!   repository's root, as a user runs it: the start of the process, loading the
//!   ruleset, one short record.
//!
//! The corpora are made once by the release-built `referee selfplay` into
//! `target/instruction-corpora/`, and pinned by their SHA-256: a corpus already there with
//! the pinned hash is used as it is; otherwise it is made again, and a corpus whose hash
//! differs from the pin stops the bench (selfplay's output changed, so the counts of
//! `check` would change for a reason other than `check`'s speed).
//!
//! Run by `cargo bench --features instructions --bench instructions` (gungraun-runner of gungraun's version on the
//! PATH, and valgrind); `.ci/instructions` runs both files and compares with the baseline.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use gungraun::{binary_benchmark, binary_benchmark_group, main, BinaryBenchmarkConfig, Callgrind};

/// The release-built binary under test.
const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

/// (ruleset, games, SHA-256 of `referee selfplay RULESET --games GAMES --seed perf`).
const CORPORA: [(&str, usize, &str); 4] = [
    (
        "halatafl",
        1600,
        "9c45c19a891aa231ad75f239323654c5a2bbcf397152bc0438fa62bec5e3ae0a",
    ),
    (
        "thaayam-bell",
        1250,
        "f381f12dbc0dec25a4a2187e25ad967e96297d4e0843f7401b039e38c67ac3aa",
    ),
    (
        "halves",
        13500,
        "73cf372de2db48d8cbf40a0e0e0aa66afed98498a25516a5a8c4f9bd0668decd",
    ),
    (
        "halasi",
        1100,
        "ce2c1604f22532c55bc72d61b4d4206413e1efd0d1c635830fa1c1e129fe5606",
    ),
];

/// `target/instruction-corpora`, beside the profile folder that holds the binary.
fn corpora_dir() -> PathBuf {
    let bin = Path::new(REFEREE);
    let target = bin
        .parent()
        .and_then(Path::parent)
        .expect("the binary lies in target/PROFILE/");
    target.join("instruction-corpora")
}

fn corpus_path(ruleset: &str) -> PathBuf {
    corpora_dir().join(format!("{ruleset}.game"))
}

fn sha256_hex(bytes: &[u8]) -> String {
    referee::dice::sha256(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Makes the corpus of `ruleset` unless it is there with its pinned hash (the setup of
/// each `check` benchmark; not measured).
fn make_corpus(ruleset: &str) {
    let &(_, games, pinned) = CORPORA
        .iter()
        .find(|(r, _, _)| *r == ruleset)
        .expect("a ruleset of CORPORA");
    let path = corpus_path(ruleset);
    if let Ok(text) = std::fs::read(&path) {
        if sha256_hex(&text) == pinned {
            return;
        }
    }
    std::fs::create_dir_all(corpora_dir()).expect("target/instruction-corpora");
    let out = std::process::Command::new(REFEREE)
        .args(["selfplay", ruleset, "--games", &games.to_string()])
        .args(["--seed", "perf"])
        .stderr(Stdio::inherit())
        .output()
        .expect("referee selfplay runs");
    assert!(out.status.success(), "referee selfplay {ruleset} failed");
    let corpus = fixed_dates(&out.stdout);
    let hash = sha256_hex(&corpus);
    // Written whole through a temporary file, so an interrupted run leaves no half corpus.
    let part = path.with_extension("part");
    std::fs::write(&part, &corpus).expect("corpus written");
    std::fs::rename(&part, &path).expect("corpus renamed");
    assert_eq!(
        hash,
        pinned,
        "the selfplay corpus of {ruleset} ({} bytes) is not the one pinned in \
         benches/instructions.rs: selfplay's output changed. Pin the new hash and take a new \
         baseline (docs/performance.md, \"Instruction counts and the guard\").",
        corpus.len()
    );
}

/// The corpus with every `[Date "…"]` tag set to one day: selfplay writes the day it
/// runs, and the corpus must be the same every day. The value keeps its length.
fn fixed_dates(text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(text.to_vec()).expect("selfplay writes UTF-8");
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line.strip_prefix("[Date \"") {
            Some(rest) if rest.len() >= 10 => {
                out.push_str("[Date \"2026.11.28");
                out.push_str(&rest[10..]);
            }
            _ => out.push_str(line),
        }
    }
    out.into_bytes()
}

#[binary_benchmark]
#[bench::halatafl(args = ("halatafl"), setup = make_corpus)]
#[bench::thaayam_bell(args = ("thaayam-bell"), setup = make_corpus)]
#[bench::halves(args = ("halves"), setup = make_corpus)]
#[bench::halasi(args = ("halasi"), setup = make_corpus)]
fn corpus(ruleset: &str) -> gungraun::Command {
    // Run in the corpora's folder with a relative path, so the command line is the same
    // wherever the repository lies.
    gungraun::Command::new(REFEREE)
        .current_dir(corpora_dir())
        .args(["check", "-q", "-j", "1", &format!("{ruleset}.game")])
        .build()
}

// As a user runs it. A small input is judged on the main thread, with no thread
// started, so the count is the same on every run.
#[binary_benchmark]
fn check_one_record() -> gungraun::Command {
    gungraun::Command::new(REFEREE)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "games/halatafl/opening.game"])
        .build()
}

// A benchmark's id is GROUP/BENCH (`check/halatafl`), or GROUP/FUNCTION where the function
// has no `#[bench]` (`cold/check_one_record`).
binary_benchmark_group!(name = check, benchmarks = corpus);
binary_benchmark_group!(name = cold, benchmarks = check_one_record);

main!(
    // Instructions only: no cache simulation (it costs time, and Ir is all the guard reads).
    config = BinaryBenchmarkConfig::default().tool(Callgrind::with_args(["--cache-sim=no"])),
    binary_benchmark_groups = [check, cold]
);
