//! Throughput benchmarks for the speed targets (`cargo bench`):
//!
//! - Halatafl random playouts per second on one core (target ≥ 150,000 games/s, 100×
//!   Ludii's random playouts);
//! - `check` turns per second over selfplay records (target ≥ 1 M turns/s).
//!
//! Plain timing loops, no harness: the figures are printed with the machine's core
//! count so they can be compared as ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

use referee::dice::Dice;
use referee::games::halatafl::Halatafl;
use referee::games::{Game, Status};
use referee::notation::record::Header;
use referee::referee::{check_text, Env};
use referee::ruleset::Library;

/// Plays random legal games until `budget` runs out; returns (games, turns, elapsed).
fn playouts<G: Game>(ruleset: &str, budget: Duration, max_turns: usize) -> (u64, u64, Duration) {
    let lib = Library::new(Vec::new());
    let rs = lib
        .load(ruleset, referee::referee::schemas())
        .expect("shipped ruleset");
    let settings = G::settings(&rs);
    let tags = Header::default();
    let start = G::start(&settings, None, &tags, None).expect("start");
    let mut rng = Dice::from_seed("bench");
    let mut moves: Vec<G::Turn> = Vec::with_capacity(256);
    let (mut games, mut turns) = (0u64, 0u64);
    let t0 = Instant::now();
    while t0.elapsed() < budget {
        for _ in 0..100 {
            let mut state = start.clone();
            let mut n = 0;
            while n < max_turns {
                if let Status::Over(_) = G::status(&settings, &state) {
                    break;
                }
                moves.clear();
                G::legal_turns(&settings, &state, None, &mut moves);
                let pick = &moves[rng.uniform(moves.len() as u32) as usize];
                G::play(&settings, &mut state, None, pick).expect("a legal turn");
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
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!("machine: {cores} cores available; every figure is one core");
    for rs in ["halatafl", "halatafl-emperor", "halatafl-orthogonal"] {
        let (games, turns, t) = playouts::<Halatafl>(rs, Duration::from_secs(3), 1000);
        let secs = t.as_secs_f64();
        println!(
            "random playouts {rs:<20} {:>10.0} games/s  {:>12.0} turns/s  ({:.1} turns/game)",
            games as f64 / secs,
            turns as f64 / secs,
            turns as f64 / games as f64
        );
    }
    // check: replay selfplay records.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
        .args(["selfplay", "halatafl", "--games", "200", "--seed", "bench"])
        .output()
        .expect("selfplay runs");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let env = Env::new(Library::new(Vec::new()));
    let t0 = Instant::now();
    let mut turns = 0usize;
    let mut rounds = 0;
    while t0.elapsed() < Duration::from_secs(3) {
        let reports = check_text(&env, "bench", &text);
        turns += reports.iter().map(|r| r.turns).sum::<usize>();
        rounds += 1;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "check (parse + replay + rulings) {:>12.0} turns/s over {} passes of 200 selfplay records",
        turns as f64 / secs,
        rounds
    );
}
