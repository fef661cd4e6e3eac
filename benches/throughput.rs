//! Throughput benchmarks for the speed targets (`cargo bench`):
//!
//! - random playouts per second on one core: Halatafl (target ≥ 150,000 games/s, 100×
//!   Ludii's random playouts), Thaayam-bell (target ≥ 14,000 games/s), Halasi (table
//!   and solitaire);
//! - `check` turns per second over selfplay records (target ≥ 1 M turns/s), Halatafl
//!   and Halasi; for Halasi also the mean time to judge one turn, routes and claims
//!   included (target: under a millisecond on a full layout).
//!
//! Plain timing loops, no harness: the figures are printed with the machine's core
//! count so they can be compared as ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

use referee::dice::Dice;
use referee::games::halasi::Halasi;
use referee::games::halatafl::Halatafl;
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
                G::play(&settings, &mut state, chance.as_ref(), pick).expect("a legal turn");
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
    for rs in ["halatafl", "halatafl-emperor", "halatafl-orthogonal"] {
        report(rs, playouts::<Halatafl>(rs, budget, 1000));
    }
    report(
        "thaayam-bell",
        playouts::<Thaayam>("thaayam-bell", budget, 1000),
    );
    for rs in ["halasi", "halasi-solitaire"] {
        report(rs, playouts::<Halasi>(rs, budget, 1000));
    }
    // check: replay selfplay records.
    for (ruleset, games) in [("halatafl", "200"), ("halasi", "40")] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["selfplay", ruleset, "--games", games, "--seed", "bench"])
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
            "check {ruleset:<9} (parse + replay + rulings) {:>12.0} turns/s ({:.1} µs a turn) over {} passes of {games} selfplay records",
            turns as f64 / secs,
            secs * 1e6 / turns as f64,
            rounds
        );
    }
}
