//! A newcomer's first try of every command: `new` then every command for every shipped
//! ruleset, usage errors said once, turns named as the record numbers them, and records
//! that keep their line endings.

use crate::common;

use common::run;

/// A fresh scratch directory of this file's own.
fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("first_try", name)
}

#[test]
fn move_keeps_the_line_endings() {
    let dir = scratch("line_endings");
    for (name, eol) in [("crlf", "\r\n"), ("cr", "\r"), ("lf", "\n")] {
        let path = dir.join(format!("{name}.game"));
        let text = format!("[Game \"halatafl\"]{eol}[Result \"*\"]{eol}{eol}1. e3-d4{eol}");
        std::fs::write(&path, &text).expect("write");
        let p = path.to_str().expect("utf-8 path");
        let (code, out, err) = run(&["move", p, "c5xe3xg1=K"]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let after = std::fs::read_to_string(&path).expect("read");
        assert_eq!(after, format!("{text}1... c5xe3xg1=K{eol}"), "{name}");
        let (code, out, err) = run(&["check", p]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        // A record without a line break at its end gets one of its own kind first.
        let text = format!("[Game \"halatafl\"]{eol}{eol}1. e3-d4");
        std::fs::write(&path, &text).expect("write");
        let (code, out, err) = run(&["move", p, "c5xe3xg1=K"]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let after = std::fs::read_to_string(&path).expect("read");
        assert_eq!(after, format!("{text}{eol}1... c5xe3xg1=K{eol}"), "{name}");
    }
}

/// Every shipped ruleset's name, as `referee rules` lists them.
fn shipped() -> Vec<String> {
    let (code, out, err) = run(&["rules"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_accepts_a_new_record() {
    let dir = scratch("new");
    let names = shipped();
    assert!(names.len() >= 15, "{names:?}");
    for name in &names {
        let (code, header, err) = run(&["new", name]);
        assert_eq!(code, 0, "new {name}: {err}");
        let chance = name.starts_with("thaayam")
            || name.starts_with("halasi")
            || (name.starts_with("halves") && name != "halves-manual");
        // A game with chance gets a fresh seed, and only its Seed tag.
        assert_eq!(header.contains("[Seed \""), chance, "new {name}:\n{header}");
        assert!(!header.contains("SeedCommit"), "new {name}:\n{header}");
        let path = dir.join(format!("{name}.game"));
        std::fs::write(&path, &header).expect("write");
        let p = path.to_str().expect("utf-8 path");
        for args in [
            vec!["check", p],
            vec!["show", p],
            vec!["show", p, "--format", "json"],
            vec!["score", p],
            vec!["adjudicate", p],
        ] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{args:?}: {out}{err}");
        }
        let (code, moves, err) = run(&["moves", p]);
        assert_eq!(code, 0, "moves {name}: {err}");
        let first = moves.lines().next();
        assert!(first.is_some(), "moves {name} lists nothing: {err}");
        // play resumes the record and plays its first legal turn; check accepts it.
        let input = format!(":moves\n{}\n:quit\n", first.unwrap_or_default());
        let (code, out, err) =
            common::run_with_input(&["play", name, "--record", p], input.as_bytes());
        assert_eq!(code, 0, "play {name}: {out}{err}");
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers.len(), 3, "play {name}: {out}");
        assert!(answers[1].starts_with("ok"), "play {name}: {out}");
        let (code, out, err) = run(&["check", p]);
        assert_eq!(code, 0, "check {name} after play: {out}{err}");
        // Two new records of a game with chance get different seeds.
        if chance {
            let (_, again, _) = run(&["new", name]);
            let seed = |h: &str| {
                h.lines()
                    .find(|l| l.starts_with("[Seed "))
                    .map(str::to_string)
            };
            assert_ne!(seed(&header), seed(&again), "{name}");
        }
    }
}

#[test]
fn new_with_a_chosen_seed_or_none() {
    let (code, out, _) = run(&["new", "thaayam", "--seed", "club night"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("[Seed \"club night\"]\n[SeedCommit \""),
        "{out}"
    );
    // Players who throw real cowries write every series: moves says so.
    let dir = scratch("no_seed");
    let (code, out, _) = run(&["new", "thaayam", "--no-seed"]);
    assert_eq!(code, 0);
    assert!(!out.contains("Seed"), "{out}");
    let path = dir.join("t.game");
    std::fs::write(&path, &out).expect("write");
    let p = path.to_str().expect("utf-8 path");
    let (code, out, err) = run(&["moves", p]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(
        err.contains(
            "south throws first: write the throws in brackets; e.g. `[1 4 2] enter, c1+4+2`"
        ),
        "{err}"
    );
    let (code, out, _) = run(&["moves", p, "--format", "json"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\"moves\":[],\"note\":\"south throws first"),
        "{out}"
    );
    let (code, out, _) = common::run_with_input(&["play", "thaayam"], b":moves\n[2] -\n:moves\n");
    assert_eq!(code, 0);
    let answers: Vec<&str> = out.lines().collect();
    assert!(answers[0].starts_with("south throws first"), "{out}");
    assert!(answers[2].starts_with("north throws first"), "{out}");
    // The example is a turn the seat to move could play: north enters on its own palace.
    assert!(answers[2].contains("e.g. `[1 4 2] enter, c5+4+2`"), "{out}");
    // Settings that make [1 4 2] impossible get a series they allow.
    let (code, out, _) = common::run_with_input(
        &["play", "thaayam", "--option", "extra-throws=[1]"],
        b":moves\n",
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("south throws first"), "{out}");
    assert!(out.contains("e.g. `[1 2] enter, c1+2`"), "{out}");
    // Settings no short series fits (every value but 8 an extra throw) still get the
    // game's own words, without an example.
    let (code, out, _) = common::run_with_input(
        &["play", "thaayam", "--option", "extra-throws=[1 2 3 4]"],
        b":moves\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.starts_with("south throws first: write the throws in brackets (without a seed"),
        "{out}"
    );
    // A game that cannot start without a seed says so, as a usage error.
    let (code, out, err) = run(&["new", "halves", "--no-seed"]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("without a seed cannot start"), "{err}");
    // With a seed given, the reason is another, and the message does not blame the seed.
    let (code, out, err) = run(&["new", "halasi", "--seats", "a", "--seed", "x"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("a record of halasi cannot start: the table game is for two to six seats"),
        "{err}"
    );
}

#[test]
fn usage_errors_are_said_once_before_any_record() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["check", "games/halatafl", "--option", "emperor=maybe"],
            "--option emperor=maybe (a setting of halatafl): `emperor` takes `true` or `false`, not `maybe`",
        ),
        (
            &["check", "games", "--option", "emperr=true"],
            "did you mean `emperor`?",
        ),
        (
            &["check", "games/halatafl", "--ruleset", "no-such-file.rules"],
            "no-such-file.rules: cannot read the file",
        ),
        (
            &["check", "games/halatafl", "--ruleset", "rulesets/thaayam.rules", "--option", "emperor=true"],
            "`emperor` is not a setting of thaayam",
        ),
        (
            &["show", "games/halatafl/opening.game", "--option", "emperor=maybe"],
            "not `maybe`",
        ),
        (
            &["adjudicate", "games/halatafl/opening.game", "--ruleset", "nope.rules"],
            "nope.rules: cannot read the file",
        ),
    ];
    for (args, said) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(out, "", "{args:?}: nothing about any record");
        assert_eq!(err.matches(said).count(), 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn an_option_applies_to_the_games_that_declare_it() {
    // `emperor` is Halatafl's: the other games' records ignore it and stay valid.
    let (code, out, err) = run(&["check", "games", "--option", "emperor=true", "--quiet"]);
    assert_eq!(code, 1, "{err}");
    let (_, plain, _) = run(&["check", "games", "--quiet"]);
    let invalid = |text: &str| {
        text.lines()
            .filter(|l| l.ends_with(": invalid"))
            .filter(|l| !l.contains("/halatafl/"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(invalid(&out), invalid(&plain));
    assert!(!out.contains("unknown setting"), "{out}");
}

#[test]
fn turns_are_named_as_the_record_numbers_them() {
    let file = "games/halatafl/disputed-man-steps-back.game";
    let (code, out, _) = run(&["check", file]);
    assert_eq!(code, 1);
    assert!(out.contains("^^^^^ move 2, white"), "{out}");
    let (_, out, _) = run(&["check", file, "--format", "json"]);
    assert!(out.contains("\"turn\":3,\"number\":\"2.\""), "{out}");
    let (_, out, _) = run(&["adjudicate", file]);
    assert!(out.contains("  1...  black  g5-g4"), "{out}");
    assert!(out.contains("Position before move 2, white"), "{out}");
    let (_, out, _) = run(&["show", file, "--format", "html"]);
    assert!(out.contains("<span class=\"n\">1...</span>"), "{out}");
    assert!(
        out.contains("\"counters\":[\"start\",\"1. / 1...\",\"1... / 1...\",\"ruling\"]"),
        "{out}"
    );
    // Games that number every turn keep the index as the number.
    let (_, out, _) = run(&[
        "check",
        "games/thaayam/disputed-unused-throw.game",
        "--format",
        "json",
    ]);
    assert!(out.contains("\"number\":\""), "{out}");
}

#[test]
fn a_value_some_games_accept_is_ruled_per_record() {
    // `seats` is every game's: white and black suit Halatafl and Halves, not Thaayam.
    let (code, out, err) = run(&[
        "check",
        "games/halatafl/opening.game",
        "games/thaayam/two-seats.game",
        "--option",
        "seats=[white black]",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("opening.game: valid"), "{out}");
    assert!(out.contains("two-seats.game: invalid"), "{out}");
    let (code, _, err) = run(&["check", "games", "--option", "seats=[nobody]"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.matches("seats=[nobody]").count(),
        4,
        "one line a game: {err}"
    );
}
