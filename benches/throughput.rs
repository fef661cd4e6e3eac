//! Throughput benchmarks for the speed targets (`cargo bench --bench throughput`):
//!
//! - random playouts per second on one core, the engine under `selfplay` without I/O:
//!   Halatafl (target ≥ 100,000 games/s), Thaayam-bell with four seats (≥ 14,000),
//!   Halves (≥ 50,000), Halasi reported;
//! - `check` of selfplay corpora, parse + replay + rulings, in MB/s and turns/s on one
//!   core (targets: ≥ 100 MB/s Halatafl, ≥ 40 MB/s Thaayam and Halves, Halasi
//!   reported); for Halasi the mean time to judge one turn too.
//!
//! Plain timing loops, no harness: the figures are printed with the machine's core
//! count so they can be compared as ratios. Arguments filter the lines by name:
//! `cargo bench --bench throughput -- thaayam` runs only lines naming thaayam.

use std::hint::black_box;
use std::time::{Duration, Instant};

use referee::dice::Dice;
use referee::games::halasi::Halasi;
use referee::games::halatafl::Halatafl;
use referee::games::halves::Halves;
use referee::games::thaayam::Thaayam;
use referee::games::{Game, Status};
use referee::notation::record::Header;
use referee::referee::{check_text, Env};
use referee::ruleset::Library;

/// Plays random legal games until `budget` runs out; returns (games, turns, elapsed).
/// Each game's random events (throws, shuffles, rolls) come from its own seed's stream,
/// as a seeded record's do.
fn playouts<G: Game>(ruleset: &str, budget: Duration, max_turns: usize) -> (u64, u64, Duration) {
    let lib = Library::new(Vec::new());
    let rs = lib
        .load(ruleset, referee::referee::schemas())
        .expect("shipped ruleset");
    let settings = G::settings(&rs);
    let tags = Header::default();
    let mut rng = Dice::from_seed("bench");
    let mut moves: Vec<G::Turn> = Vec::with_capacity(256);
    let (mut games, mut turns) = (0u64, 0u64);
    let t0 = Instant::now();
    while t0.elapsed() < budget {
        for _ in 0..10 {
            let mut dice = Dice::from_seed(&format!("bench-{games}"));
            let mut state = G::start(&settings, None, &tags, Some(&mut dice)).expect("start");
            let mut n = 0;
            while n < max_turns {
                if let Status::Over(_) = G::status(&settings, &state) {
                    break;
                }
                let chance = G::draw_chance(&settings, &mut state, &mut dice);
                moves.clear();
                G::legal_turns(&settings, &state, chance.as_ref(), &mut moves);
                let pick = &moves[rng.uniform(moves.len() as u32) as usize];
                G::apply_legal(&settings, &mut state, chance.as_ref(), pick);
                n += 1;
            }
            turns += n as u64;
            games += 1;
            black_box(&state);
        }
    }
    (games, turns, t0.elapsed())
}

fn main() {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted =
        |name: &str| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()));
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("machine: {cores} cores available; every figure is one core");
    let report = |rs: &str, (games, turns, t): (u64, u64, Duration)| {
        let secs = t.as_secs_f64();
        println!(
            "random playouts {rs:<20} {:>10.0} games/s  {:>12.0} turns/s  ({:.1} turns/game)",
            games as f64 / secs,
            turns as f64 / secs,
            turns as f64 / games as f64
        );
    };
    let budget = Duration::from_secs(3);
    type Playout = fn(&str, Duration, usize) -> (u64, u64, Duration);
    let playout_lines: [(&str, Playout); 9] = [
        ("halatafl", playouts::<Halatafl>),
        ("halatafl-emperor", playouts::<Halatafl>),
        ("halatafl-orthogonal", playouts::<Halatafl>),
        ("thaayam", playouts::<Thaayam>),
        ("thaayam-bell", playouts::<Thaayam>),
        ("halves", playouts::<Halves>),
        ("halves-3p", playouts::<Halves>),
        ("halasi", playouts::<Halasi>),
        ("halasi-solitaire", playouts::<Halasi>),
    ];
    for (rs, run) in playout_lines {
        if wanted(&format!("playouts {rs}")) {
            report(rs, run(rs, budget, 1000));
        }
    }
    // check: replay selfplay corpora, parse + replay + rulings, on one core.
    for (ruleset, games) in [
        ("halatafl", "400"),
        ("thaayam-bell", "200"),
        ("halves", "1000"),
        ("halasi", "40"),
    ] {
        if !wanted(&format!("check {ruleset}")) {
            continue;
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["selfplay", ruleset, "--games", games, "--seed", "bench"])
            .output()
            .expect("selfplay runs");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let env = Env::new(Library::new(Vec::new()));
        let t0 = Instant::now();
        let mut turns = 0usize;
        let mut rounds = 0usize;
        while t0.elapsed() < Duration::from_secs(3) {
            let reports = check_text(&env, "bench", &text);
            turns += reports.iter().map(|r| r.turns).sum::<usize>();
            rounds += 1;
        }
        let secs = t0.elapsed().as_secs_f64();
        println!(
            "check {ruleset:<13} (parse + replay + rulings) {:>7.1} MB/s {:>12.0} turns/s ({:.2} µs a turn) over {} passes of {games} selfplay records",
            (text.len() * rounds) as f64 / secs / 1e6,
            turns as f64 / secs,
            secs * 1e6 / turns as f64,
            rounds
        );
    }
}
