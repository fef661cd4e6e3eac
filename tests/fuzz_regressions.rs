//! Replays every fuzz finding kept under `tests/fuzz-regressions/<target>/` through the
//! entry point its fuzz target calls (`referee::fuzzing`), and the shipped examples
//! through every entry point, so the entry points' own cross-checks run on known-good
//! input in every `cargo test`.

use std::path::{Path, PathBuf};

use referee::fuzzing;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && (ext.is_empty() || p.extension().is_some_and(|x| x == ext)))
            .collect(),
        Err(_) => Vec::new(),
    };
    out.sort();
    out
}

/// Every finding, through its target's entry point: none may panic.
#[test]
fn every_finding_replays_without_a_panic() {
    let base = root().join("tests/fuzz-regressions");
    let mut replayed = 0;
    for dir in std::fs::read_dir(&base).expect("tests/fuzz-regressions exists") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let target = dir.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            fuzzing::TARGETS.contains(&target.as_str()),
            "tests/fuzz-regressions/{target}: no fuzz target of that name"
        );
        for file in files(&dir, "") {
            let data = std::fs::read(&file).unwrap();
            // On a stack the size of the binary's main thread (8 MiB), not a test
            // thread's 2 MiB: how deep pest's stack guard lets a value nest depends on
            // the room it has, and the overflow it hid came after a deep parse.
            let t = target.clone();
            let replayed_ok = std::thread::Builder::new()
                .stack_size(8 << 20)
                .spawn(move || fuzzing::run(&t, &data))
                .unwrap()
                .join();
            assert!(
                matches!(replayed_ok, Ok(true)),
                "tests/fuzz-regressions/{target}/{} panicked",
                file.file_name().unwrap().to_string_lossy()
            );
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no finding was replayed");
}

/// The file's text without its `Game` tag line (the game targets add it themselves).
fn without_game_tag(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("[Game "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Every shipped record through the record target and its game's target, and its tag
/// values through the `Options`/`Setup` targets: the entry points' cross-checks (fast
/// and token by token movetext readers, turns and setup strings read back) hold on them.
#[test]
fn the_shipped_examples_pass_every_entry_point() {
    let mut n = 0;
    for game in ["halatafl", "thaayam", "halves", "halasi"] {
        for file in files(&root().join("games").join(game), "game") {
            let text = std::fs::read_to_string(&file).unwrap();
            fuzzing::record(text.as_bytes());
            assert!(fuzzing::run(game, without_game_tag(&text).as_bytes()));
            let setup = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("[Setup \""))
                .map(|v| v.trim_end_matches("\"]"));
            if let Some(setup) = setup {
                let body = text.split("\n\n").nth(1).unwrap_or("");
                fuzzing::tag_value("Setup", format!("{game}\n{setup}\n{body}").as_bytes());
            }
            n += 1;
        }
    }
    assert!(n >= 70, "only {n} shipped records found");
    for file in files(&root().join("rulesets"), "rules") {
        fuzzing::ruleset(&std::fs::read(&file).unwrap());
    }
    for file in files(&root().join("rulesets/halasi"), "yaml") {
        fuzzing::tiles(&std::fs::read(&file).unwrap());
    }
}

/// The stdin protocol entry point plays: one JSON answer a line, a refusal for a bad
/// turn, and it stops at `:quit`.
#[test]
fn the_play_entry_point_plays() {
    let input = "halatafl\ne3-d4\n:undo\nzz9\n:quit\n:show\n";
    let out = fuzzing::play(input.as_bytes());
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let ok: Vec<bool> = answers.iter().map(|a| a["ok"] == true).collect();
    assert_eq!(ok, [true, true, false, true], "{out}");
    assert_eq!(answers[3]["quit"], true);
}

/// Every position of random games of every shipped ruleset whose setup notation holds a
/// whole position (not Halasi's table game) goes through the fuzzers' setup round trip:
/// the setup string reads back to itself, lists as many legal turns and plays on alike.
/// (Finding thaayam/alike-pieces-one-outcome would have failed here at once.) At each,
/// near misses of the listed turns are judged: one accepted must lead where a listed turn
/// leads (some are accepted without being written as a listed turn: other orders of the
/// same moves, other paths of a chain).
#[test]
fn setup_round_trips_over_random_games() {
    use referee::games::{halatafl::Halatafl, halves::Halves, thaayam::Thaayam};
    let mut totals = Vec::new();
    for ruleset in [
        "halatafl",
        "halatafl-emperor",
        "halatafl-short",
        "halatafl-thrones",
        "halatafl-orthogonal",
        "halatafl-free",
    ] {
        totals.push(fuzzing::selfplay_round_trips::<Halatafl>(
            ruleset,
            5,
            "round-trip",
        ));
    }
    for ruleset in ["thaayam", "thaayam-bell", "thaayam-spinner"] {
        totals.push(fuzzing::selfplay_round_trips::<Thaayam>(
            ruleset,
            20,
            "round-trip",
        ));
    }
    for ruleset in ["halves", "halves-3p", "halves-inverted", "halves-manual"] {
        totals.push(fuzzing::selfplay_round_trips::<Halves>(
            ruleset,
            60,
            "round-trip",
        ));
    }
    let sum = |games: std::ops::Range<usize>, f: fn(&(usize, usize)) -> usize| -> usize {
        totals[games].iter().map(f).sum()
    };
    let checked = sum(0..totals.len(), |t| t.0);
    assert!(checked > 15_000, "{checked} positions");
    // The judged near misses reach turns the listing writes otherwise, in every game.
    let unlisted = [sum(0..6, |t| t.1), sum(6..9, |t| t.1), sum(9..13, |t| t.1)];
    assert!(
        unlisted[0] > 10 && unlisted[1] > 1_000 && unlisted[2] > 5,
        "{unlisted:?}"
    );
}
