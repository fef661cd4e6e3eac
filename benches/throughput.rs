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
/// Each turn is [`Game::random_turn`], as in `selfplay`.
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
                let pick = G::random_turn(&settings, &state, chance.as_ref(), &mut rng, &mut moves)
                    .expect("a legal turn while the game is on");
                G::apply_legal(&settings, &mut state, chance.as_ref(), &pick);
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
    println!("machine: {cores} cores available; every figure is one core unless it says otherwise");
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
    // check: selfplay corpora, as a user makes them.
    // (ruleset, games in the corpus, MB it is repeated to for the whole-process lines:
    // 100 MB, Halasi 20 MB, ~4 s on one thread)
    let corpora = [
        ("halatafl", 2000, 100),
        ("thaayam-bell", 2000, 100),
        ("halves", 2000, 100),
        ("halasi", 200, 20),
    ];
    for (ruleset, games, large_mb) in corpora {
        let name = format!("check {ruleset}");
        if wanted(&name) {
            check_lines(ruleset, games, large_mb, cores);
        }
    }
    if wanted("check cold") {
        cold_check();
    }
    if wanted("check memory") {
        memory();
    }
    if wanted("match turns") {
        match_line(200, None);
    }
    if wanted("match movetime") {
        match_line(1000, Some("10ms"));
    }
}

/// `referee match` of two `referee bot halatafl --random` at concurrency 2: turns a
/// second through the runner, the runner's own CPU time a turn (its utime and stime from
/// `/proc`, its bots' not counted), and with a per-turn limit the games lost on time.
fn match_line(games: usize, movetime: Option<&str>) {
    let bot = |seed: &str| {
        format!(
            "{} bot halatafl --random --seed {seed}",
            env!("CARGO_BIN_EXE_referee")
        )
    };
    let mut cmd = referee_bin();
    cmd.args([
        "match",
        "halatafl",
        "--concurrency",
        "2",
        "--format",
        "json",
    ])
    .arg("--bot")
    .arg(format!("a={}", bot("a")))
    .arg("--bot")
    .arg(format!("b={}", bot("b")))
    .arg("--games")
    .arg(games.to_string())
    .stdout(std::process::Stdio::piped());
    if let Some(m) = movetime {
        cmd.args(["--movetime", m]);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("referee match runs");
    // Read as it comes: a full pipe would stop the runner.
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut out = String::new();
        stdout.read_to_string(&mut out).expect("output");
        out
    });
    // The runner's own CPU time, sampled until it ends (ticks of 10 ms).
    let stat = format!("/proc/{}/stat", child.id());
    let mut ticks = 0u64;
    while child.try_wait().expect("wait").is_none() {
        if let Ok(s) = std::fs::read_to_string(&stat) {
            let fields: Vec<&str> = s.rsplit(") ").next().unwrap_or("").split(' ').collect();
            // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
            let t = |i: usize| {
                fields
                    .get(i)
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            ticks = ticks.max(t(11) + t(12));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let wall = started.elapsed().as_secs_f64();
    let out = reader.join().expect("the reader");
    let (mut turns, mut time_forfeits) = (0u64, 0usize);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON lines");
        if let Some(t) = v.get("turns").and_then(|t| t.as_u64()) {
            turns += t;
            time_forfeits += v["forfeits"]
                .as_array()
                .map_or(0, |f| f.iter().filter(|f| f["kind"] == "time").count());
        }
    }
    let runner_ms = ticks as f64 * 10.0;
    println!(
        "match halatafl random bots {games} games{}: {:.0} turns/s through the runner on 2 games at once; the runner's own CPU {:.1} µs a turn; {time_forfeits} games lost on time",
        movetime.map(|m| format!(" at --movetime {m}")).unwrap_or_default(),
        turns as f64 / wall,
        runner_ms * 1000.0 / turns.max(1) as f64,
    );
}

fn referee_bin() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_referee"))
}

/// `referee selfplay RULESET --games N` as a string.
fn corpus(ruleset: &str, games: usize) -> String {
    let out = referee_bin()
        .args([
            "selfplay",
            ruleset,
            "--games",
            &games.to_string(),
            "--seed",
            "bench",
        ])
        .output()
        .expect("selfplay runs");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The best wall time of `runs` runs of `referee check -q FILE`, confined to one core
/// (`taskset -c 0`: the reader thread shares it with the judging, so the figure is what
/// one core does) or free to use every core.
fn time_check(file: &std::path::Path, one_core: bool, runs: usize) -> Duration {
    (0..runs)
        .map(|_| {
            let mut cmd = if one_core {
                let mut c = std::process::Command::new("taskset");
                c.args(["-c", "0", env!("CARGO_BIN_EXE_referee")]);
                c
            } else {
                referee_bin()
            };
            let t0 = Instant::now();
            let status = cmd
                .args(["check", "-q"])
                .arg(file)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("check runs");
            assert!(status.success(), "the corpus checks valid");
            t0.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The check figures of one corpus: in-process on one core (parse + replay + rulings),
/// then the whole `referee check -q` process on one core and on every core, on the
/// corpus repeated to `large_mb` MB (a large corpus: start-up and the last batch do not
/// weigh, as they do on a few MB).
fn check_lines(ruleset: &str, games: usize, large_mb: usize, cores: usize) {
    let text = corpus(ruleset, games);
    let mb = text.len() as f64 / 1e6;
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
        "check {ruleset:<13} in process, one core   {:>7.1} MB/s {:>11.0} turns/s ({:.2} µs a turn), {games} selfplay records, {mb:.1} MB",
        mb * rounds as f64 / secs,
        turns as f64 / secs,
        secs * 1e6 / turns as f64,
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join(format!("{ruleset}.game"));
    let copies = (large_mb * 1_000_000).div_ceil(text.len());
    {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).expect("corpus file"));
        for _ in 0..copies {
            out.write_all(text.as_bytes()).expect("corpus written");
        }
        out.flush().expect("corpus written");
    }
    let large = mb * copies as f64;
    if !std::path::Path::new("/usr/bin/taskset").exists() {
        println!("check {ruleset:<13} referee check -q: skipped, taskset is not installed");
        return;
    }
    // Best of five and of three: on a shared host one run in three or four can lose a
    // tenth to other work, and the figure is what the program does, not the host.
    let one = time_check(&file, true, 5).as_secs_f64();
    let all = time_check(&file, false, 3).as_secs_f64();
    println!(
        "check {ruleset:<13} referee check -q       {:>7.1} MB/s on 1 core, {:>7.1} MB/s on {cores} ({:.2}x), {large:.0} MB (the corpus {copies} times)",
        large / one,
        large / all,
        one / all
    );
}

/// A cold `referee check` of one small record, whole process: the best of 20 runs.
fn cold_check() {
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/games/halatafl/opening.game");
    let best = (0..20)
        .map(|_| {
            let t0 = Instant::now();
            let status = referee_bin()
                .args(["check", "-q", record])
                .stdout(std::process::Stdio::null())
                .status()
                .expect("check runs");
            assert!(status.success());
            t0.elapsed()
        })
        .min()
        .unwrap_or_default();
    println!(
        "check cold one small record, whole process: {:.2} ms (best of 20)",
        best.as_secs_f64() * 1e3
    );
}

/// Peak memory of checking 1 GB of records from stdin (`/usr/bin/time -f %M`, where
/// it is installed).
fn memory() {
    use std::io::Write;
    if !std::path::Path::new("/usr/bin/time").exists() {
        println!("check memory: skipped, /usr/bin/time is not installed");
        return;
    }
    let text = corpus("halatafl", 500);
    let copies = (1usize << 30) / text.len() + 1;
    let mut child = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_referee"))
        .args(["check", "-q", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("check runs");
    let t0 = Instant::now();
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for _ in 0..copies {
            stdin.write_all(text.as_bytes()).expect("fed");
        }
    }
    let out = child.wait_with_output().expect("check ends");
    let secs = t0.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kb: u64 = stderr
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    println!(
        "check memory {:.2} GB of halatafl records from stdin: {:.0} MB peak resident, {:.1} MB/s",
        (copies * text.len()) as f64 / 1e9,
        kb as f64 / 1024.0,
        (copies * text.len()) as f64 / 1e6 / secs
    );
}
