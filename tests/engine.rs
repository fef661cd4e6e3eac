//! The engine through the binary: `analyse`, `adjudicate --estimate`, `moves --best`,
//! `play --engine` and `selfplay --engine` on every shipped ruleset, reproducibility with
//! `--seed` and `--playouts`, and that the engine never reads the dice to come from a
//! record's seed. Budgets are tiny: these test behaviour, not strength.

use crate::common;

use std::io::BufRead;

use common::{run, run_with_input, Bot};
use serde_json::Value;

const RULESETS: [&str; 15] = [
    "halasi",
    "halasi-solitaire",
    "halatafl",
    "halatafl-emperor",
    "halatafl-free",
    "halatafl-orthogonal",
    "halatafl-short",
    "halatafl-thrones",
    "halves",
    "halves-3p",
    "halves-inverted",
    "halves-manual",
    "thaayam",
    "thaayam-bell",
    "thaayam-spinner",
];

/// A record of `turns` random turns of a ruleset, in a temporary file.
fn unfinished(dir: &std::path::Path, ruleset: &str, turns: usize) -> String {
    let (code, out, err) = run(&[
        "selfplay",
        ruleset,
        "--games",
        "1",
        "--seed",
        "engine-test",
        "--max-turns",
        &turns.to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join(format!("{ruleset}.game"));
    std::fs::write(&path, out).unwrap();
    path.to_str().unwrap().to_string()
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("not JSON: {out}: {e}"))
}

#[test]
fn every_command_works_on_every_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    for rs in RULESETS {
        // Halasi: past the homes and setup, into regular turns.
        let turns = if rs.starts_with("halasi") { 8 } else { 6 };
        let file = unfinished(dir.path(), rs, turns);
        let small = ["--playouts", "40", "--threads", "2"];
        let args = [&["analyse", &file, "--format", "json"][..], &small].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{rs}: {err}");
        let a = json(&out);
        assert_eq!(a["playouts"], 40, "{rs}: {a}");
        let seats = a["seats"].as_array().unwrap();
        assert!(!seats.is_empty(), "{rs}: {a}");
        let total: f64 = seats.iter().map(|s| s["win"].as_f64().unwrap()).sum();
        assert!(total <= 1.0001, "{rs}: shares sum to {total}");
        for s in seats {
            let (lo, w, hi) = (
                s["low"].as_f64().unwrap(),
                s["win"].as_f64().unwrap(),
                s["high"].as_f64().unwrap(),
            );
            assert!(lo <= w && w <= hi, "{rs}: {s}");
        }
        assert!(!a["best"].as_array().unwrap().is_empty(), "{rs}: {a}");
        // The alias and the text form.
        let args = [&["analyze", &file][..], &small].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{rs}: {err}");
        assert!(out.contains("Estimate (40 playouts"), "{rs}: {out}");
        assert!(out.contains("Best turns for"), "{rs}: {out}");

        let args = [
            &["adjudicate", &file, "--estimate", "--format", "json"][..],
            &small,
        ]
        .concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{rs}: {err}");
        let e = &json(&out)["estimate"];
        assert!(e["verdict"].is_string(), "{rs}: {out}");
        if rs == "halasi" {
            assert_eq!(
                e["expected_standings"].as_array().unwrap().len(),
                2,
                "{out}"
            );
            assert_eq!(e["expected_standings"][0]["unit"], "money");
        }
        let args = [&["adjudicate", &file, "--estimate"][..], &small].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{rs}: {err}");
        assert!(out.contains("Estimated outcome: "), "{rs}: {out}");

        // --best is one of the legal turns.
        let (_, legal, _) = run(&["moves", &file]);
        let args = [&["moves", &file, "--best"][..], &small].concat();
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{rs}: {err}");
        let best = out.trim();
        // (For Halasi `moves` lists runs of one domino; the engine's turn is one of them.)
        assert!(
            legal.lines().any(|l| l == best),
            "{rs}: {best} not in\n{legal}"
        );

        // selfplay with the engine in the first seat: a valid record.
        let (code, out, err) = run(&[
            "selfplay",
            rs,
            "--games",
            "1",
            "--engine",
            first_seat(rs),
            "--playouts",
            "10",
            "--threads",
            "1",
            "--max-turns",
            "12",
        ]);
        assert_eq!(code, 0, "{rs}: {err}");
        let (code, checked, _) = run_with_input(&["check", "-"], out.as_bytes());
        assert_eq!(code, 0, "{rs}: {checked}\n{out}");
    }
}

#[test]
fn selfplay_takes_the_seats_as_new_and_play_do() {
    // Four Halasi seats with the engine in the third: each record names its seats, and
    // the engine's seat plays.
    let (code, out, err) = run(&[
        "selfplay",
        "halasi",
        "--seats",
        "a",
        "b",
        "c",
        "d",
        "--engine",
        "c",
        "--playouts",
        "10",
        "--threads",
        "1",
        "--games",
        "2",
        "--max-turns",
        "12",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("[Seats \"a b c d\"]").count(), 2, "{out}");
    assert!(out.contains("3. home") && out.contains("4. home"), "{out}");
    let (code, checked, _) = run_with_input(&["check", "-"], out.as_bytes());
    assert_eq!(code, 0, "{checked}\n{out}");
    // A seat the game does not have is a usage error.
    let (code, _, err) = run(&[
        "selfplay", "thaayam", "--seats", "south", "up", "--games", "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("up"), "{err}");
}

fn first_seat(rs: &str) -> &'static str {
    match rs {
        r if r.starts_with("halasi") => "a",
        r if r.starts_with("halatafl") || r.starts_with("halves") => "white",
        _ => "south",
    }
}

/// A finished game has nothing to search: `analyse` says so and gives the result as it
/// stands, not an estimate of no playouts.
#[test]
fn analyse_of_a_finished_game_gives_its_outcome() {
    let (code, out, err) = run(&["analyse", "games/halatafl/complete-default.game"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("black wins (capture-all)\nOutcome (the game is over: nothing to search):\n"),
        "{out}"
    );
    assert!(out.contains("black    100.0 %  [100.0, 100.0]"), "{out}");
    assert!(!out.contains("Best turns"), "{out}");
}

#[test]
fn seed_and_playouts_make_the_answer_reproducible() {
    let file = "games/thaayam/two-seats.game";
    let args = [
        "analyse",
        file,
        "--turn",
        "20",
        "--seed",
        "s1",
        "--playouts",
        "300",
        "--threads",
        "2",
        "--format",
        "json",
    ];
    let (c1, a, _) = run(&args);
    let (c2, b, _) = run(&args);
    assert_eq!((c1, c2), (0, 0));
    assert_eq!(a, b);
    let (_, best1, _) = run(&[
        "moves",
        file,
        "--turn",
        "20",
        "--best",
        "--seed",
        "s1",
        "--playouts",
        "200",
    ]);
    let (_, best2, _) = run(&[
        "moves",
        file,
        "--turn",
        "20",
        "--best",
        "--seed",
        "s1",
        "--playouts",
        "200",
    ]);
    assert_eq!(best1, best2);
}

/// The seeded record and the same turns written with their throws, without a seed, reach
/// the same position. With the seed the referee derives the throw the seat to move
/// faces (`moves` lists its turns under it): the best turns are under that throw only.
/// Without it the throw is not known, and the analysis says so, by throw, listing no
/// turn as the seat's to choose.
#[test]
fn the_throw_the_seat_faces_is_known_only_from_the_seed() {
    let seeded =
        std::fs::read_to_string(common::root().join("games/thaayam/two-seats.game")).unwrap();
    let unseeded: String = seeded
        .lines()
        .filter(|l| !l.starts_with("[Seed") && !l.starts_with("[SeedCommit"))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("seeded.game");
    let b = dir.path().join("written.game");
    std::fs::write(&a, &seeded).unwrap();
    std::fs::write(&b, &unseeded).unwrap();
    let analyse = |f: &std::path::Path, turn: &str, seed: &str| {
        let (code, out, err) = run(&[
            "analyse",
            f.to_str().unwrap(),
            "--turn",
            turn,
            "--seed",
            seed,
            "--playouts",
            "200",
            "--threads",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    for turn in ["7", "30"] {
        // The throw `moves` lists the turns under.
        let (_, legal, _) = run(&["moves", a.to_str().unwrap(), "--turn", turn]);
        let first = legal.lines().next().unwrap();
        let throw = &first[..=first.find(']').unwrap()];
        assert!(legal.lines().all(|l| l.starts_with(throw)), "{legal}");
        let x = analyse(&a, turn, "same");
        assert!(x.contains(&format!(", throw {throw}:\n")), "{x}");
        let best: Vec<&str> = x
            .lines()
            .skip_while(|l| !l.starts_with("Best turns for"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect();
        assert!(!best.is_empty(), "{x}");
        for l in best {
            assert!(l.trim_start().starts_with(throw), "{l}\n{x}");
        }
        assert!(!x.contains("not known"), "{x}");
        let y = analyse(&b, turn, "same");
        assert!(!y.contains("Best turns"), "{y}");
        assert!(
            y.contains("The throw is not known (no seed, and not written yet): "),
            "{y}"
        );
    }
    // Another seed for the engine does change its sampling.
    assert_ne!(analyse(&a, "30", "other"), analyse(&a, "30", "same"));
}

/// `analyse FILE --turn TURN` with a fixed seed, `playouts` and one thread, in text and
/// JSON, each checked against its snapshot `NAME` and `NAME-json`.
fn analyse_snapshots(name: &str, file: &str, turn: &str, playouts: &str) {
    let args = [
        "analyse",
        file,
        "--turn",
        turn,
        "--seed",
        "s1",
        "--playouts",
        playouts,
        "--threads",
        "1",
    ];
    let (code, text, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(name, text);
    let (code, out, err) = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(format!("{name}-json"), pretty(&out));
}

/// `analyse` of a seeded Thaayam position: the best turns are the seat's choices under
/// the throw it faces, no other throw listed.
#[test]
fn analyse_snapshot_thaayam_seeded() {
    analyse_snapshots(
        "analyse-thaayam-seeded",
        "games/thaayam/two-seats.game",
        "6",
        "2000",
    );
}

/// `analyse` of a seedless Thaayam position whose next throw is not written: the throw
/// is said not to be known, the seat's chances listed by throw.
#[test]
fn analyse_snapshot_thaayam_seedless() {
    analyse_snapshots(
        "analyse-thaayam-seedless",
        "games/thaayam/physical-throws.game",
        "6",
        "2000",
    );
}

/// `analyse` of a Halasi position of hundreds of turns: the search widens progressively,
/// and best turns of too few visits are marked.
#[test]
fn analyse_snapshot_halasi() {
    analyse_snapshots(
        "analyse-halasi",
        "games/halasi/table-2-seats.game",
        "10",
        "400",
    );
}

fn pretty(out: &str) -> String {
    serde_json::to_string_pretty(&json(out)).unwrap()
}

#[test]
fn play_answers_the_person_then_plays_its_turns_as_the_record_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.game");
    let mut bot = Bot::start(&[
        "play",
        "halatafl",
        "--engine",
        "black",
        "--playouts",
        "50",
        "--format",
        "json",
        "--record",
        record.to_str().unwrap(),
    ]);
    let a = bot.send("e3-d4");
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["next"], "black");
    let mut line = String::new();
    bot.stdout.read_line(&mut line).unwrap();
    let e: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(e["engine"], "black", "{e}");
    let played = e["played"].as_str().unwrap().to_string();
    assert!(played.starts_with("1... "), "{played}");
    assert_eq!(e["next"], "white");
    // The record holds both turns, as written.
    let on_disk = std::fs::read_to_string(&record).unwrap();
    assert!(on_disk.contains("1. e3-d4"), "{on_disk}");
    assert!(on_disk.contains(&played), "{on_disk}");
    // :undo takes back the engine's reply and the person's turn.
    let u = bot.send(":undo");
    assert_eq!(u["ok"], true, "{u}");
    assert_eq!(u["next"], "white");
    assert_eq!(u["turn"], 0);
    bot.quit();
    let (code, out, _) = run(&["check", record.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn two_engines_play_a_whole_game_through_play() {
    let (code, out, err) = run_with_input(
        &[
            "play",
            "halves",
            "--seed",
            "e1",
            "--engine",
            "white",
            "black",
            "--playouts",
            "20",
            "--threads",
            "1",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.contains("wins"), "{out}");
    assert!(out.lines().all(|l| l.starts_with("engine ")), "{out}");
}

#[test]
fn engine_options_are_checked() {
    let (code, _, err) = run(&["analyse", "games/halatafl/opening.game", "--time", "soon"]);
    assert_eq!(code, 2);
    assert!(err.contains("--time takes a duration"), "{err}");
    let (code, _, err) = run(&["play", "halatafl", "--engine", "red"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a seat"), "{err}");
    // Without a seed the players write Thaayam's throws: the engine is refused at
    // once, before the person's first turn is answered.
    let (code, out, err) = run_with_input(
        &["play", "thaayam", "--engine", "north", "--playouts", "20"],
        b"[2] -\n",
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("no seed") && err.contains("--seed"), "{err}");
    // No budget, no threads, or more threads than the system gives: a usage error.
    for (flag, value, says) in [
        ("--playouts", "0", "--playouts must be at least 1"),
        ("--threads", "0", "--threads must be from 1 to 256, got 0"),
        (
            "--threads",
            "100000",
            "--threads must be from 1 to 256, got 100000",
        ),
    ] {
        let (code, _, err) = run(&["analyse", "games/halatafl/opening.game", flag, value]);
        assert_eq!(code, 2, "{flag} {value}: {err}");
        assert!(err.contains(says), "{flag} {value}: {err}");
    }
    // A finished game has no turn to choose.
    let (code, _, err) = run(&["moves", "games/halatafl/complete-default.game", "--best"]);
    assert_eq!(code, 2, "{err}");
    // --time works and reports the seconds.
    let (code, out, err) = run(&[
        "analyse",
        "games/halatafl/opening.game",
        "--time",
        "200ms",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(json(&out)["seconds"].as_f64().unwrap() >= 0.2, "{out}");
}
