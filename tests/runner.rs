//! `referee match` and `referee bot` (issue 33), through the built binary: every shipped
//! ruleset played by bots, deliberately broken bots (`tests/bots/broken.py`) losing with
//! the right reason while the match goes on, a killed match resumed, shards merged, an
//! SPRT that stops a match, and the guide's Python bot.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value as Json;

use crate::common::{referee, root, run, scratch};

const REFEREE: &str = env!("CARGO_BIN_EXE_referee");

fn bot(ruleset: &str, how: &str) -> String {
    format!("{REFEREE} bot {ruleset} {how}")
}

/// Runs `referee match ARGS --format json`; the game lines and the summary.
fn match_json(args: &[&str]) -> (i32, Vec<Json>, Json, String) {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--format", "json"]);
    let (code, out, err) = run(&all);
    let mut games = Vec::new();
    let mut summary = Json::Null;
    for line in out.lines() {
        let v: Json = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        match v.get("summary") {
            Some(s) => summary = s.clone(),
            None => games.push(v),
        }
    }
    (code, games, summary, err)
}

fn check_valid(file: &Path, records: usize) {
    let (code, out, err) = run(&["check", "-q", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("{records} records: {records} valid")),
        "{out}"
    );
}

#[test]
fn every_shipped_ruleset_of_two_to_six_seats_plays_a_match_that_checks() {
    let (_, list, _) = run(&["rules", "--format", "json"]);
    let list: Json = serde_json::from_str(&list).unwrap();
    let names: Vec<String> = list
        .as_array()
        .or_else(|| list.get("rulesets").and_then(|r| r.as_array()))
        .expect("a list of rulesets")
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    let dir = scratch("runner", "every-ruleset");
    for name in &names {
        let out = dir.join(format!("{name}.game"));
        let (code, games, summary, err) = match_json(&[
            "match",
            name,
            "--bot",
            &format!("a={}", bot(name, "--random")),
            "--bot",
            &format!("b={}", bot(name, "--random --seed other")),
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]);
        if name.contains("solitaire") {
            assert_eq!(code, 2, "{name}: {err}");
            assert!(
                err.contains("a match is for games of 2 to 6 seats"),
                "{err}"
            );
            continue;
        }
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(games.len(), 2, "{name}");
        for g in &games {
            assert_eq!(g["forfeits"], Json::Array(vec![]), "{name}: {g}");
        }
        assert_eq!(summary["games"], 2, "{name}");
        check_valid(&out, 2);
    }
}

/// (mode, the forfeit's kind, its rule, the movetime).
const BROKEN: &[(&str, &str, Option<&str>, &str)] = &[
    ("silent", "startup", None, "1s"),
    ("late-ready", "startup", None, "1s"),
    ("hang", "time", None, "1s"),
    ("late", "time", None, "1s"),
    ("exit", "crash", None, "1s"),
    ("kill", "crash", None, "1s"),
    ("fork", "crash", None, "1s"),
    ("garbage", "protocol", None, "1s"),
    ("huge", "protocol", None, "20s"),
    ("illegal", "illegal", Some("step"), "1s"),
    ("wrong-seat", "illegal", Some("turn-order"), "1s"),
];

#[test]
fn a_broken_bot_loses_each_game_with_its_reason_and_the_match_goes_on() {
    let broken = root().join("tests/bots/broken.py");
    // Four of the modes' matches at a time: most of a match is spent waiting on a limit,
    // and more at once could starve a bot's start-up on a busy machine of two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|threads| {
        for _ in 0..4 {
            threads.spawn(|| {
                while let Some(&(mode, kind, rule, movetime)) =
                    BROKEN.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                {
                    broken_bot_match(&broken, mode, kind, rule, movetime);
                }
            });
        }
    });
}

/// One match of the random bot against a broken one: the broken bot loses every game
/// with its reason, within its limits plus the margin.
fn broken_bot_match(
    broken: &std::path::Path,
    mode: &str,
    kind: &str,
    rule: Option<&str>,
    movetime: &str,
) {
    let dir = scratch("runner", &format!("broken-{mode}"));
    let out = dir.join("match.game");
    let started = Instant::now();
    let (code, games, summary, err) = match_json(&[
        "match",
        "halatafl",
        "--bot",
        &format!("good={}", bot("halatafl", "--random")),
        "--bot",
        &format!("bad=python3 {} {mode}", broken.display()),
        "--games",
        "4",
        "--movetime",
        movetime,
        "--startup",
        "4s",
        "--concurrency",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{mode}: {err}");
    assert_eq!(games.len(), 4, "{mode}: every game is accounted for");
    for g in &games {
        let f = &g["forfeits"].as_array().unwrap()[..];
        assert_eq!(f.len(), 1, "{mode}: {g}");
        assert_eq!(f[0]["kind"], kind, "{mode}: {g}");
        assert_eq!(f[0]["bot"], 1, "{mode}: {g}");
        if let Some(r) = rule {
            // An illegal turn names the rule it breaks (which rule depends on the
            // position: a man's step or a king's move).
            let cited = f[0]["rule"].as_str().unwrap();
            assert!(
                cited == r || (r == "step" && cited == "king-move"),
                "{mode}: {g}"
            );
        }
        assert_eq!(g["termination"], "adjudication", "{mode}: {g}");
    }
    assert_eq!(summary["bots"][0]["wins"], 4, "{mode}: {summary}");
    assert_eq!(summary["bots"][1]["forfeits"][kind], 4, "{mode}: {summary}");
    // Within the limits plus the margin: four games, two at a time.
    assert!(
        started.elapsed() < Duration::from_secs(if mode == "huge" { 60 } else { 30 }),
        "{mode}: {:?}",
        started.elapsed()
    );
    check_valid(&out, 4);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains(&format!(" {kind}\"]")),
        "{mode}: a Forfeit tag: {text}"
    );
}

#[test]
fn a_bot_flooding_stderr_plays_on() {
    let broken = root().join("tests/bots/broken.py");
    let (code, games, _, err) = match_json(&[
        "match",
        "halatafl",
        "--bot",
        &format!("good={}", bot("halatafl", "--random")),
        "--bot",
        &format!("noisy=python3 {} stderr", broken.display()),
        "--games",
        "2",
        "--movetime",
        "5s",
    ]);
    assert_eq!(code, 0, "{err}");
    for g in &games {
        assert_eq!(g["forfeits"], Json::Array(vec![]), "{g}");
        assert_eq!(g["termination"], "normal", "{g}");
    }
}

#[test]
fn the_python_random_bot_of_the_guide_plays_every_game() {
    let python = root().join("examples/bots/random_bot.py");
    for ruleset in ["halatafl", "thaayam-bell", "halves", "halasi"] {
        let (code, games, summary, err) = match_json(&[
            "match",
            ruleset,
            "--bot",
            &format!("python=python3 {}", python.display()),
            "--bot",
            &format!("engine={}", bot(ruleset, "--playouts 20")),
            "--games",
            "2",
        ]);
        assert_eq!(code, 0, "{ruleset}: {err}");
        for g in &games {
            assert_eq!(g["forfeits"], Json::Array(vec![]), "{ruleset}: {g}");
        }
        assert_eq!(summary["bots"][0]["name"], "python");
        assert_eq!(summary["games"], 2);
    }
}

#[test]
fn a_killed_match_resumes_without_losing_or_repeating_a_game() {
    let dir = scratch("runner", "resume");
    let (out, state) = (dir.join("m.game"), dir.join("m.state"));
    let args: Vec<String> = [
        "match",
        "halatafl",
        "--bot",
        &format!("a={}", bot("halatafl", "--random")),
        "--bot",
        &format!("b={}", bot("halatafl", "--random --seed b")),
        "--games",
        "30",
        "--concurrency",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut first = referee()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed (SIGKILL) once a few games are written.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let lines = std::fs::read_to_string(&state).map_or(0, |s| s.lines().count());
        if lines >= 4 || Instant::now() > until {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    let (code, _, err) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut rounds: Vec<u32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .map(|r| r.trim_end_matches("\"]").parse().unwrap())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=30).collect::<Vec<u32>>(), "each game once");
    check_valid(&out, 30);
    // The state holds each game once too, and a third run plays nothing more.
    let (code, out2, _) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0);
    assert!(out2.starts_with("30 of 30 games played"), "{out2}");
}

#[test]
fn shards_merged_give_the_report_of_the_whole_match() {
    let dir = scratch("runner", "shards");
    let common = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "match",
            "thaayam-bell",
            "--bot",
            &format!("a={}", bot("thaayam-bell", "--random")),
            "--bot",
            &format!("b={}", bot("thaayam-bell", "--random --seed b")),
            "--games",
            "8",
            "--seed",
            "shards",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let whole = dir.join("whole.state");
    let (code, _, err) = run(&common(&["--state", whole.to_str().unwrap()])
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let mut parts = Vec::new();
    for k in 1..=3 {
        let p = dir.join(format!("shard{k}.state"));
        let shard = format!("{k}/3");
        let (code, _, err) = run(
            &common(&["--state", p.to_str().unwrap(), "--shard", &shard])
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        );
        assert_eq!(code, 0, "{err}");
        parts.push(p.to_str().unwrap().to_string());
    }
    let merged = |states: &[&str]| {
        let mut a = vec!["match", "--merge"];
        a.extend(states);
        a.extend(["--format", "json"]);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{err}");
        out
    };
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    assert_eq!(merged(&parts), merged(&[whole.to_str().unwrap()]));
    let m: Json = serde_json::from_str(&merged(&parts)).unwrap();
    assert_eq!(m["summary"]["games"], 8);
}

#[test]
fn an_sprt_stops_the_match_once_it_decides() {
    let (code, games, summary, err) = match_json(&[
        "match",
        "halatafl",
        "--bot",
        &format!("engine={}", bot("halatafl", "--playouts 100")),
        "--bot",
        &format!("random={}", bot("halatafl", "--random")),
        "--games",
        "200",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "alpha=0.05",
        "beta=0.05",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(games.len() < 200, "stopped early: {}", games.len());
    assert_eq!(summary["sprt"]["verdict"], "H1", "{summary}");
    let llr = summary["sprt"]["llr"].as_f64().unwrap();
    assert!(
        llr >= summary["sprt"]["upper"].as_f64().unwrap(),
        "{summary}"
    );
    assert!(summary["elo"].as_f64().unwrap() > 100.0, "{summary}");
}

#[test]
fn three_bots_meet_in_a_round_robin_with_a_crosstable() {
    let (code, games, summary, err) = match_json(&[
        "match",
        "halves",
        "--bot",
        &format!("a={}", bot("halves", "--random --seed a")),
        "--bot",
        &format!("b={}", bot("halves", "--random --seed b")),
        "--bot",
        &format!("c={}", bot("halves", "--random --seed c")),
        "--games",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    // Three encounters of one pair each.
    assert_eq!(games.len(), 6);
    let table = summary["crosstable"].as_array().unwrap();
    assert_eq!(table.len(), 3);
    assert_eq!(table[0][1]["games"], 2);
    for b in summary["bots"].as_array().unwrap() {
        assert_eq!(b["games"], 4, "{b}");
        assert!(b["rating"]["elo_interval"].is_array(), "{b}");
    }
}

#[test]
fn match_usage_errors_exit_2_with_a_message() {
    for (args, says) in [
        (
            vec!["match", "halatafl", "--bot", "a=x"],
            "two bots or more",
        ),
        (
            vec!["match", "halatafl", "--bot", "a=x", "--bot", "a=y"],
            "two bots are named `a`",
        ),
        (
            vec!["match", "halatafl", "--bot", "nameless", "--bot", "b=y"],
            "--bot takes NAME=COMMAND",
        ),
        (
            vec![
                "match", "halatafl", "--bot", "a=x", "--bot", "b=y", "--tc", "fast",
            ],
            "--tc takes SECONDS+INCREMENT",
        ),
        (
            vec![
                "match", "halatafl", "--bot", "a=x", "--bot", "b=y", "--shard", "3/2",
            ],
            "--shard takes K/N",
        ),
        (
            vec![
                "match",
                "halatafl",
                "--bot",
                "a=x",
                "--bot",
                "b=y",
                "--sprt",
                "elo0=5",
                "elo1=0",
                "alpha=0.05",
                "beta=0.05",
            ],
            "elo0 must be below its elo1",
        ),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_guide_shows_the_shipped_python_bot_as_it_is() {
    let guide = std::fs::read_to_string(root().join("docs/guide/bots.md")).unwrap();
    let shipped = std::fs::read_to_string(root().join("examples/bots/random_bot.py")).unwrap();
    let block = guide
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a python block");
    assert_eq!(block, shipped);
    assert!(shipped.lines().count() < 40);
}

#[test]
fn referee_bot_answers_the_protocol() {
    let hello = r#"{"type":"hello","protocol":1,"game":"halatafl","ruleset":"halatafl","settings":{"capture":"compulsory"},"seats":["white","black"],"seat":"white","setup":null,"seed_commit":"ab","clock":{"left_ms":null,"increment_ms":0,"movetime_ms":1000}}"#;
    let play = r#"{"type":"play","turns":[],"seat":"white","random":null,"legal":["c3-d4","d3-d4","e3-d4","e4-d4"],"legal_complete":true,"clock":{"left_ms":null,"increment_ms":0,"movetime_ms":1000}}"#;
    let input = format!("{hello}\n{play}\n{{\"type\":\"quit\"}}\n");
    let (code, out, err) =
        crate::common::run_with_input(&["bot", "halatafl", "--random"], input.as_bytes());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Json> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["type"], "ready");
    assert_eq!(lines[0]["legal"], true);
    assert_eq!(lines[1]["type"], "turn");
    let turn = lines[1]["turn"].as_str().unwrap();
    assert!(
        ["c3-d4", "d3-d4", "e3-d4", "e4-d4"].contains(&turn),
        "{turn}"
    );
    // A game of another module is refused with a message, not played.
    let input = hello.replace("\"game\":\"halatafl\"", "\"game\":\"halves\"") + "\n";
    let (code, _, err) = crate::common::run_with_input(&["bot", "halatafl"], input.as_bytes());
    assert_eq!(code, 2);
    assert!(
        err.contains("this bot plays halatafl, the runner asks for halves"),
        "{err}"
    );
}

#[test]
fn bot_check_passes_a_compliant_bot_and_names_what_a_broken_one_breaks() {
    let python = root().join("examples/bots/random_bot.py");
    let (code, out, err) = run(&[
        "bot-check",
        "thaayam-bell",
        "--",
        "python3",
        python.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("ok  ")).count(),
        4,
        "{out}"
    );
    let broken = root().join("tests/bots/broken.py");
    let (code, out, _) = run(&[
        "bot-check",
        "halatafl",
        "--movetime",
        "1s",
        "--",
        "python3",
        broken.to_str().unwrap(),
        "illegal",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("FAIL  turns: game 1: `a1-a2` is refused"),
        "{out}"
    );
    // A bot that outlives its `quit` is named, and killed.
    let (code, out, _) = run(&[
        "bot-check",
        "halatafl",
        "--",
        "sh",
        "-c",
        &format!("python3 {} | cat; sleep 5", python.display()),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL  quit:"), "{out}");
}

#[test]
fn the_turn_limit_ends_a_game_as_a_draw_or_by_the_engines_estimate() {
    let dir = scratch("runner", "turn-limit");
    for (how, out) in [
        ("draw", dir.join("draw.game")),
        ("estimate", dir.join("estimate.game")),
    ] {
        let (code, games, _, err) = match_json(&[
            "match",
            "halatafl",
            "--bot",
            &format!("a={}", bot("halatafl", "--random")),
            "--bot",
            &format!("b={}", bot("halatafl", "--random --seed b")),
            "--games",
            "2",
            "--max-turns",
            "30",
            "--adjudicate",
            how,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        for g in &games {
            assert_eq!(g["turns"], 30, "{g}");
            assert_eq!(g["termination"], "adjudication", "{g}");
            let reason = g["reason"].as_str().unwrap();
            assert!(reason.starts_with("the turn limit: 30 turns played"), "{g}");
            match how {
                "draw" => assert_eq!(g["result"], "draw", "{g}"),
                // A winner only where the estimate's interval is clear of the other's.
                _ => assert!(
                    g["result"] == "draw" || reason.contains("the engine's estimate:"),
                    "{g}"
                ),
            }
        }
        check_valid(&out, 2);
    }
}

#[test]
fn two_bots_written_from_the_guide_alone_play_a_match() {
    // greedy_bot.py was written from `referee guide bots` alone, without the source.
    let greedy = root().join("examples/bots/greedy_bot.py");
    let random = root().join("examples/bots/random_bot.py");
    for ruleset in ["halatafl", "halasi"] {
        let (code, games, summary, err) = match_json(&[
            "match",
            ruleset,
            "--bot",
            &format!("greedy=python3 {}", greedy.display()),
            "--bot",
            &format!("random=python3 {}", random.display()),
            "--games",
            "2",
        ]);
        assert_eq!(code, 0, "{ruleset}: {err}");
        for g in &games {
            assert_eq!(g["forfeits"], Json::Array(vec![]), "{ruleset}: {g}");
        }
        assert_eq!(summary["games"], 2, "{ruleset}");
        // An even match is Elo 0, never -0.
        if summary["score"] == 0.5 {
            assert_eq!(summary["elo"].to_string(), "0.0", "{summary}");
        }
    }
}

/// A bot that resigns every game whose seed commitment starts with a digit 0–7 (`low`)
/// or 8–f (`high`), and otherwise plays the first legal turn: the two never both resign,
/// so every pair goes wholly to one of them.
const RESIGNER: &str = r#"import json, sys
side = sys.argv[1]
resign = False
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        low = m["seed_commit"][0] in "01234567"
        resign = low if side == "low" else not low
        print(json.dumps({"type": "ready", "name": side, "legal": True}), flush=True)
    elif m["type"] == "play":
        turn = "resign" if resign else m["legal"][0]
        print(json.dumps({"type": "turn", "turn": turn}), flush=True)
    elif m["type"] == "quit":
        break
"#;

#[test]
fn pairs_that_scored_differently_are_never_said_to_have_scored_the_same() {
    let dir = scratch("runner", "open-interval");
    let script = dir.join("resigner.py");
    std::fs::write(&script, RESIGNER).unwrap();
    let a = format!("a=python3 {} low", script.display());
    let b = format!("b=python3 {} high", script.display());
    // With the seed `b` one pair goes to each bot: too few pairs to bound the interval
    // on either side, though their scores spread.
    let args = [
        "match", "halatafl", "--bot", &a, "--bot", &b, "--games", "4",
    ];
    let args = [&args[..], &["--seed", "b"]].concat();
    let (code, _, summary, err) = match_json(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(summary["pentanomial"], serde_json::json!([1, 0, 0, 0, 1]));
    assert_eq!(summary["elo_interval"], serde_json::json!([null, null]));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("a against b: Elo +0.0 [-inf, +inf] (95 %)"),
        "{out}"
    );
    assert!(!out.contains("every pair scored the same"), "{out}");
}
