//! The shipped example records: `check` and `adjudicate` rulings as insta snapshots.
//! Every snapshot was read and checked by hand against the spec; a changed ruling must
//! be read again before it is accepted.

mod common;

use common::{examples, rel, run};

/// Every example record of a game ruled by `adjudicate`, as insta snapshots (text for
/// all, JSON for the disputed ones). Examples not named `disputed-*` must be valid;
/// `strict` games also require every disputed example to be ruled invalid.
fn rulings(game: &str, at_least: usize, strict: bool) {
    let files = examples(game);
    assert!(
        files.len() >= at_least,
        "at least {at_least} {game} examples"
    );
    for file in files {
        let name = rel(&file);
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let (code, text, err) = run(&["adjudicate", &name, "--color", "never"]);
        assert!(code == 0 || code == 1, "{name}: exit {code}: {err}");
        let disputed = stem.starts_with("disputed-");
        if !disputed {
            assert_eq!(code, 0, "{name} must be valid:\n{text}");
        } else if strict {
            assert_eq!(code, 1, "{name} must be ruled invalid:\n{text}");
        }
        insta::assert_snapshot!(format!("{game}-{stem}-text"), text);
        if disputed {
            let (_, json, _) = run(&["adjudicate", &name, "--format", "json"]);
            let v: serde_json::Value =
                serde_json::from_str(json.trim()).expect("one JSON document");
            insta::assert_json_snapshot!(format!("{game}-{stem}-json"), v);
        }
    }
}

/// Halatafl's disputes include legal turns under dispute (a huff, a chain through a
/// throne), so a disputed example may be ruled valid.
#[test]
fn halatafl_rulings() {
    rulings("halatafl", 12, false);
}

#[test]
fn thaayam_rulings() {
    rulings("thaayam", 10, false);
}

#[test]
fn halves_rulings() {
    rulings("halves", 10, true);
}

#[test]
fn check_all_examples_json_lines() {
    let files: Vec<String> = examples("halatafl").iter().map(|p| rel(p)).collect();
    let mut args = vec!["check", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, _) = run(&args);
    assert_eq!(code, 1, "the disputed examples are invalid");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), files.len(), "one JSON line per record");
    for (line, file) in lines.iter().zip(&files) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["file"], file.as_str());
        for key in [
            "index", "game", "ruleset", "valid", "turns", "status", "errors",
        ] {
            assert!(v.get(key).is_some(), "{file}: missing {key}");
        }
    }
}

/// halves.txt's worked example: white removes its bridging tile, the smaller (left)
/// group goes, black is then two moves from winning — and white wins next move.
#[test]
fn halves_worked_example() {
    let (code, text, err) = run(&[
        "adjudicate",
        "games/halves/worked-example.game",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{text}{err}");
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["valid"], true);
    assert_eq!(v["status"]["winners"], serde_json::json!(["white"]));
    assert_eq!(v["status"]["reason"], "first-out");
    // After turn 1 the left group is gone: white has one tile, black two.
    let (code, setup, _) = run(&[
        "show",
        "games/halves/worked-example.game",
        "--turn",
        "1",
        "--format",
        "setup",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        setup.trim(),
        "white: (0,-1); black: (0,0) (1,-1); to-move: black; phase: waning"
    );
    // Black is to move with two tiles; whichever it removes, white wins next move.
    let (_, moves, _) = run(&["moves", "games/halves/worked-example.game", "--turn", "1"]);
    let moves: Vec<&str> = moves.lines().collect();
    assert_eq!(moves, ["x(0,0)", "x(1,-1)"]);
}

/// The common rule ids in a Halves record: a seat label that does not fit the turn
/// (`turn-order`) and a cell that does not exist (`address`).
#[test]
fn halves_common_rule_ids() {
    use common::run_with_input;
    let setup = "[Game \"halves\"]\n[Setup \"white: (0,0) (1,0); black: (0,1); to-move: white; phase: waning\"]\n\n";
    for (moves, rule) in [
        ("1. black: x(0,1)", "turn-order"),
        ("2. x(0,0)", "turn-order"),
        ("1. x(1000,0)", "address"),
        ("1. x(0,0) 2. x(0,1) 3. x(1,0)", "game-over"),
    ] {
        let text = format!("{setup}{moves}\n");
        let (code, out, _) = run_with_input(&["check", "-", "--format", "json"], text.as_bytes());
        assert_eq!(code, 1, "{moves}: {out}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["errors"][0]["rule"], rule, "{moves}: {out}");
    }
}
