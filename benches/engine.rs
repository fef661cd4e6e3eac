//! The engine's figures (`cargo bench --bench engine -- WHAT`), plain loops, no harness:
//!
//! - `speed [RULESET…]`: engine iterations a second from a mid-game position, one thread
//!   and every thread (the ratio is the parallel gain);
//! - `strength --games G --playouts N [RULESET…]`: the engine in each seat in turn against
//!   players choosing uniformly among legal turns; its share of the wins with a 95 %
//!   interval;
//! - `more --games G [--playouts N] [--base B] [RULESET…]`: N playouts a turn (4,000)
//!   against B (1,000) in every other seat; `--playouts 1000` measures what the seats
//!   alone give two equal engines.
//!
//! Games run in parallel, one search thread each. A ruleset is written `NAME` or
//! `NAME:SEATS` (`halasi:a,b,c,d`). `--from F` plays games `F..F+G` of each seat
//! assignment (each game's seeds are named by its number), so a long protocol can be
//! run in parts: the parts' wins (printed as `wins W of games F..F+G`) add up to the
//! whole run's. `--seat NAME` (repeatable) runs only the assignments with that seat under
//! test, with the seeds the whole run gives them, so parts can also be split by seat.
//! Each game's share is also written to stderr as the game ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use referee::dice::Dice;
use referee::engine::{self, stats, Budget, Config};
use referee::games::halasi::Halasi;
use referee::games::halatafl::Halatafl;
use referee::games::halves::Halves;
use referee::games::thaayam::Thaayam;
use referee::games::{Game, Seat, Status};
use referee::notation::record::Header;
use referee::ruleset::{apply_overrides, Library, Origin, Override};

#[path = "common/position.rs"]
mod common_position;
use common_position::position;

fn settings<G: Game>(spec: &str) -> G::Settings {
    let (name, seats) = match spec.split_once(':') {
        Some((n, s)) => (n, Some(s.replace(',', " "))),
        None => (spec, None),
    };
    let lib = Library::new(Vec::new());
    let mut rs = lib
        .load(name, referee::referee::schemas())
        .unwrap_or_else(|e| usage(&format!("{spec}: {}", e.message)));
    if let Some(seats) = seats {
        let o = Override {
            key: "seats".into(),
            value: format!("[{seats}]"),
            origin: Origin::CommandLine,
            file: "--seats".into(),
            line: 1,
            column: 1,
            value_column: 1,
        };
        let schema = referee::referee::schema_of(&rs.game).expect("game");
        rs = apply_overrides(&rs, schema, &[o]).expect("seats");
    }
    G::settings(&rs)
}

fn speed<G: Game>(spec: &str, turns: usize, secs: f64) {
    let s = settings::<G>(spec);
    let st = position::<G>(&s, turns);
    let cores = engine::search::default_threads();
    let mut line = format!("engine speed {spec:<22}");
    let mut one = 0.0;
    for threads in [1, cores] {
        let cfg = Config {
            budget: Budget::Time(Duration::from_secs_f64(secs)),
            seed: "speed".into(),
            threads,
        };
        let a = engine::search::<G>(&s, &st, None, &cfg).expect("search");
        let rate = a.iterations as f64 / a.elapsed.as_secs_f64();
        if threads == 1 {
            one = rate;
        }
        line += &format!(
            "  {threads} thread{}: {rate:>9.0} it/s ({:.0} turns/it)",
            if threads == 1 { "" } else { "s" },
            a.turns as f64 / a.iterations.max(1) as f64
        );
        if threads > 1 {
            line += &format!("  ×{:.2}", rate / one);
        }
    }
    println!("{line}");
}

/// One game; `playouts[seat]` is the engine's budget for that seat, 0 for a uniformly
/// random player. Returns each seat's share of the win.
fn game<G: Game>(s: &G::Settings, playouts: &[u64], seed: &str) -> stats::Reward {
    let mut dice = Dice::from_seed(&format!("{seed}/dice"));
    let mut chooser = Dice::from_seed(&format!("{seed}/random"));
    let mut scratch = Vec::new();
    let mut st = G::start(s, None, &Header::default(), Some(&mut dice)).expect("start");
    for n in 0..3000 {
        let seat = match G::status(s, &st) {
            Status::Over(_) => break,
            Status::Playing { to_move } => to_move,
        };
        let c = G::draw_chance(s, &mut st, &mut dice);
        let p = playouts.get(seat.0 as usize).copied().unwrap_or(0);
        let t = if p > 0 {
            let cfg = Config {
                budget: Budget::Playouts(p),
                seed: format!("{seed}/engine/{n}"),
                threads: 1,
            };
            let a = engine::search::<G>(s, &st, c.as_ref(), &cfg).expect("search");
            scratch.clear();
            G::legal_turns(s, &st, c.as_ref(), &mut scratch);
            a.best_of(&scratch).expect("a turn")
        } else {
            G::random_turn(s, &st, c.as_ref(), &mut chooser, &mut scratch).expect("turn")
        };
        G::apply_legal(s, &mut st, c.as_ref(), &t);
    }
    stats::of_position::<G>(s, &st)
}

/// Runs `games` games for each assignment in parallel; prints the share of `hero` seats.
/// With `only`, just the assignments whose seat under test it names (each game's seed
/// stays the one the whole run gives it).
fn matches<G: Game>(
    spec: &str,
    label: &str,
    games: std::ops::Range<usize>,
    assignments: Vec<(Seat, Vec<u64>)>,
    only: &[String],
) {
    let s = settings::<G>(spec);
    let names: Vec<&str> = assignments
        .iter()
        .map(|(hero, _)| G::SEATS[hero.0 as usize])
        .collect();
    if let Some(o) = only.iter().find(|o| !names.contains(&o.as_str())) {
        usage(&format!(
            "--seat {o}: not a seat of {spec} (its seats: {})",
            names.join(", ")
        ));
    }
    let chosen: Vec<usize> = (0..assignments.len())
        .filter(|&a| only.is_empty() || only.iter().any(|o| o == names[a]))
        .collect();
    let jobs: Vec<(usize, usize)> = chosen
        .iter()
        .flat_map(|&a| games.clone().map(move |g| (a, g)))
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![0.0f64; assignments.len()]);
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..engine::search::default_threads() {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(a, g)) = jobs.get(i) else { return };
                let (hero, playouts) = &assignments[a];
                let r = game::<G>(&s, playouts, &format!("{spec}/{label}/{a}/{g}"));
                results.lock().unwrap()[a] += r[hero.0 as usize];
                // Each game as it ends, so a run stopped early still tells its games.
                eprintln!(
                    "{label} {spec} seat {} game {g}: {:.2} ({:.0} s)",
                    G::SEATS[hero.0 as usize],
                    r[hero.0 as usize],
                    t0.elapsed().as_secs_f64()
                );
            });
        }
    });
    let results = results.into_inner().unwrap();
    let first = games.start;
    let games = games.len();
    let mut total = 0.0;
    for &a in &chosen {
        let hero = assignments[a].0;
        let p = results[a] / games as f64;
        let (lo, hi) = stats::wilson(p, games as u64);
        total += results[a];
        println!(
            "{label} {spec:<22} seat {:<6} {:>5.1} %  [{:.1}, {:.1}]  over {games} games \
             (wins {:.2} of games {first}..{})",
            G::SEATS[hero.0 as usize],
            100.0 * p,
            100.0 * lo,
            100.0 * hi,
            results[a],
            first + games
        );
    }
    let n = games * chosen.len();
    let p = total / n as f64;
    let (lo, hi) = stats::wilson(p, n as u64);
    println!(
        "{label} {spec:<22} all    {:>5.1} %  [{:.1}, {:.1}]  over {n} games  ({:.0} s)",
        100.0 * p,
        100.0 * lo,
        100.0 * hi,
        t0.elapsed().as_secs_f64()
    );
}

/// Each seat in turn under test with `playouts` a turn, every other seat with `others`
/// (0: a uniformly random player).
fn each_seat<G: Game>(
    spec: &str,
    label: &str,
    games: std::ops::Range<usize>,
    playouts: u64,
    others: u64,
    only: &[String],
) {
    let s = settings::<G>(spec);
    let assignments = G::seats(&s)
        .iter()
        .map(|&hero| {
            let mut p = vec![others; 8];
            p[hero.0 as usize] = playouts;
            (hero, p)
        })
        .collect();
    matches::<G>(spec, label, games, assignments, only);
}

fn strength<G: Game>(spec: &str, games: std::ops::Range<usize>, playouts: u64, only: &[String]) {
    let label = format!("strength@{playouts}");
    each_seat::<G>(spec, &label, games, playouts, 0, only);
}

fn more<G: Game>(
    spec: &str,
    games: std::ops::Range<usize>,
    playouts: u64,
    base: u64,
    only: &[String],
) {
    let label = format!("{playouts}-vs-{base}");
    each_seat::<G>(spec, &label, games, playouts, base, only);
}

fn dispatch(spec: &str, f: &dyn Fn(&str, &str)) {
    let name = spec.split(':').next().unwrap_or(spec);
    let game = if name.starts_with("halatafl") {
        "halatafl"
    } else if name.starts_with("thaayam") {
        "thaayam"
    } else if name.starts_with("halves") {
        "halves"
    } else {
        "halasi"
    };
    f(game, spec);
}

/// How the bench's command line is written.
const USAGE: &str = "usage: cargo bench --bench engine -- [speed | strength | more] [--games G] \
    [--from F] [--playouts N] [--base B] [--secs S] [--seat NAME]... [RULESET[:SEATS]]...\n\
    (the first lines of benches/engine.rs say what each figure is)";

/// Says what is wrong with the command line and how it is written; exits with 2.
fn usage(problem: &str) -> ! {
    eprintln!("engine bench: {problem}\n{USAGE}");
    std::process::exit(2)
}

/// The number after the flag `flag`.
fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> T {
    match value {
        Some(v) => v
            .parse()
            .unwrap_or_else(|_| usage(&format!("{flag} {v}: not a number"))),
        None => usage(&format!("{flag} needs a number")),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut what = "speed".to_string();
    let mut games = 20usize;
    let mut from = 0usize;
    let mut playouts = None;
    let mut base = 1000u64;
    let mut secs = 3.0f64;
    let mut specs: Vec<String> = Vec::new();
    let mut only: Vec<String> = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "speed" | "strength" | "more" => what = a,
            "--games" => games = number("--games", it.next()),
            "--from" => from = number("--from", it.next()),
            "--playouts" => playouts = Some(number("--playouts", it.next())),
            "--base" => base = number("--base", it.next()),
            "--secs" => secs = number("--secs", it.next()),
            "--seat" => match it.next() {
                Some(seat) => only.push(seat),
                None => usage("--seat needs a seat's name"),
            },
            "--help" | "-h" => {
                println!("{USAGE}");
                return;
            }
            _ if a.starts_with('-') => usage(&format!("{a}: not a flag of this bench")),
            _ => specs.push(a),
        }
    }
    if specs.is_empty() {
        specs = [
            "halatafl",
            "halatafl-emperor",
            "halatafl-free",
            "halatafl-orthogonal",
            "halatafl-short",
            "halatafl-thrones",
            "thaayam",
            "thaayam-bell",
            "thaayam-spinner",
            "halves",
            "halves-3p",
            "halves-inverted",
            "halves-manual",
            "halasi",
            "halasi:a,b,c,d",
            "halasi-solitaire",
        ]
        .map(String::from)
        .to_vec();
    }
    println!(
        "machine: {} cores available",
        engine::search::default_threads()
    );
    let games = from..from + games;
    let hero_playouts = playouts.unwrap_or(if what == "more" { 4000 } else { 1000 });
    for spec in &specs {
        dispatch(spec, &|game, spec| match (what.as_str(), game) {
            ("speed", "halatafl") => speed::<Halatafl>(spec, 10, secs),
            ("speed", "thaayam") => speed::<Thaayam>(spec, 10, secs),
            ("speed", "halves") => speed::<Halves>(spec, 10, secs),
            ("speed", _) => speed::<Halasi>(spec, 40, secs),
            ("strength", "halatafl") => {
                strength::<Halatafl>(spec, games.clone(), hero_playouts, &only)
            }
            ("strength", "thaayam") => {
                strength::<Thaayam>(spec, games.clone(), hero_playouts, &only)
            }
            ("strength", "halves") => strength::<Halves>(spec, games.clone(), hero_playouts, &only),
            ("strength", _) => strength::<Halasi>(spec, games.clone(), hero_playouts, &only),
            ("more", "halatafl") => {
                more::<Halatafl>(spec, games.clone(), hero_playouts, base, &only)
            }
            ("more", "thaayam") => more::<Thaayam>(spec, games.clone(), hero_playouts, base, &only),
            ("more", "halves") => more::<Halves>(spec, games.clone(), hero_playouts, base, &only),
            (_, _) => more::<Halasi>(spec, games.clone(), hero_playouts, base, &only),
        });
    }
}
