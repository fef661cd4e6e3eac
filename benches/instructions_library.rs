//! Instruction counts of `referee` library calls under valgrind (gungraun library
//! benchmarks), for the guard of `.ci/instructions` (docs/performance.md, "Instruction
//! counts and the guard"). Whole processes are in `benches/instructions.rs`.
//!
//! - `playouts/RULESET`: a fixed number of random games, each turn `Game::random_turn`
//!   then `Game::apply_legal`, as `benches/throughput.rs` plays them (each game's random
//!   events from its own seed `bench-N`, the turns from one stream `bench`, at most 1000
//!   turns a game).
//! - `engine/RULESET`: one search of a fixed number of playouts on one thread (seed
//!   `guard`) from the position after 10 random turns (Halasi 40), as `benches/engine.rs`
//!   `speed` starts.
//!
//! Loading the ruleset and reaching the position are the setup, not counted. Every
//! benchmark is single-threaded and seeded, so its count is the same on every run.

use std::hint::black_box;

use gungraun::{
    library_benchmark, library_benchmark_group, main, Callgrind, LibraryBenchmarkConfig,
};
use referee::dice::Dice;
use referee::engine::{Budget, Config};
use referee::games::halasi::Halasi;
use referee::games::halatafl::Halatafl;
use referee::games::halves::Halves;
use referee::games::thaayam::Thaayam;
use referee::games::{Game, Status};
use referee::notation::record::Header;
use referee::ruleset::Library;

#[path = "common/position.rs"]
mod common_position;
use common_position::position;

/// The work a benchmark counts, made by its setup.
type Work = Box<dyn FnMut() -> u64>;

fn settings<G: Game>(ruleset: &str) -> G::Settings {
    let lib = Library::new(Vec::new());
    let rs = lib
        .load(ruleset, referee::referee::schemas())
        .expect("a shipped ruleset");
    G::settings(&rs)
}

/// Calls `f::<G>` with the game of `ruleset`.
macro_rules! by_game {
    ($ruleset:expr, $f:ident ( $($arg:expr),* )) => {{
        let r: &str = $ruleset;
        if r.starts_with("halatafl") {
            $f::<Halatafl>($($arg),*)
        } else if r.starts_with("thaayam") {
            $f::<Thaayam>($($arg),*)
        } else if r.starts_with("halves") {
            $f::<Halves>($($arg),*)
        } else if r.starts_with("halasi") {
            $f::<Halasi>($($arg),*)
        } else {
            panic!("{r}: not a ruleset of the four games")
        }
    }};
}

/// `games` random games of `ruleset`; the work returns the turns played.
fn playouts_of(ruleset: &str, games: u64) -> Work {
    by_game!(ruleset, playouts_work(ruleset, games))
}

fn playouts_work<G: Game + 'static>(ruleset: &str, games: u64) -> Work {
    let settings = settings::<G>(ruleset);
    Box::new(move || playouts::<G>(&settings, games))
}

/// As `playouts` in `benches/throughput.rs`, for a number of games instead of a time.
fn playouts<G: Game>(settings: &G::Settings, games: u64) -> u64 {
    let tags = Header::default();
    let mut rng = Dice::from_seed("bench");
    let mut moves: Vec<G::Turn> = Vec::with_capacity(256);
    let mut turns = 0u64;
    for game in 0..games {
        let mut dice = Dice::from_seed(&format!("bench-{game}"));
        let mut state = G::start(settings, None, &tags, Some(&mut dice)).expect("start");
        let mut n = 0;
        while n < 1000 {
            if let Status::Over(_) = G::status(settings, &state) {
                break;
            }
            let chance = G::draw_chance(settings, &mut state, &mut dice);
            let pick = G::random_turn(settings, &state, chance.as_ref(), &mut rng, &mut moves)
                .expect("a legal turn while the game is on");
            G::apply_legal(settings, &mut state, chance.as_ref(), &pick);
            n += 1;
        }
        turns += n;
        black_box(&state);
    }
    turns
}

/// A search of `playouts` playouts of `ruleset`, one thread, from the position after
/// `turns` random turns; the work returns the iterations run.
fn engine_of(ruleset: &str, turns: usize, playouts: u64) -> Work {
    by_game!(ruleset, engine_work(ruleset, turns, playouts))
}

fn engine_work<G: Game + 'static>(ruleset: &str, turns: usize, playouts: u64) -> Work {
    let settings = settings::<G>(ruleset);
    let state = position::<G>(&settings, turns);
    let config = Config {
        budget: Budget::Playouts(playouts),
        seed: "guard".into(),
        threads: 1,
    };
    Box::new(move || {
        referee::engine::search::<G>(&settings, &state, None, &config)
            .expect("search")
            .iterations
    })
}

#[library_benchmark]
#[bench::halatafl(args = ("halatafl", 200), setup = playouts_of)]
#[bench::thaayam_bell(args = ("thaayam-bell", 100), setup = playouts_of)]
#[bench::halves(args = ("halves", 1000), setup = playouts_of)]
#[bench::halasi(args = ("halasi", 5), setup = playouts_of)]
fn random_games(mut work: Work) -> u64 {
    black_box(work())
}

#[library_benchmark]
#[bench::halatafl(args = ("halatafl", 10, 2000), setup = engine_of)]
#[bench::thaayam_bell(args = ("thaayam-bell", 10, 1000), setup = engine_of)]
#[bench::halves_manual(args = ("halves-manual", 10, 1000), setup = engine_of)]
#[bench::halasi(args = ("halasi", 40, 500), setup = engine_of)]
fn fixed_playouts(mut work: Work) -> u64 {
    black_box(work())
}

// A benchmark's id is GROUP/BENCH: `playouts/halatafl`, `engine/halves_manual`.
library_benchmark_group!(name = playouts, benchmarks = random_games);
library_benchmark_group!(name = engine, benchmarks = fixed_playouts);

main!(
    // Instructions only: no cache simulation (it costs time, and Ir is all the guard reads).
    config = LibraryBenchmarkConfig::default().tool(Callgrind::with_args(["--cache-sim=no"])),
    library_benchmark_groups = [playouts, engine]
);
