//! The shipped example records: `check` and `adjudicate` rulings as insta snapshots.
//! Every snapshot was read and checked by hand against the spec; a changed ruling must
//! be read again before it is accepted.

use crate::common;

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

/// Halasi's disputes include a legal turn under dispute (a route completed and not
/// announced is not paid, and that is all), so a disputed example may be ruled valid.
#[test]
fn halasi_rulings() {
    rulings("halasi", 18, false);
}

/// `check --format json` on one record, parsed.
fn check_json(file: &str) -> serde_json::Value {
    let (code, out, err) = run(&["check", file, "--format", "json"]);
    assert!(code == 0 || code == 1, "{file}: exit {code}: {err}");
    serde_json::from_str(out.trim()).expect("one JSON line")
}

/// Each disputed Halasi example is ruled by the rule its name says, at its last turn;
/// the unannounced route is no error at all, only a note that the route is not paid.
#[test]
fn halasi_disputes_cite_their_rules() {
    for (name, rule) in [
        ("wrong-claim", "claim"),
        ("route-existed", "route-new"),
        ("no-self-match", "self-match"),
        ("run-not-connected", "one-run"),
        ("first-domino-off-centre", "first-domino"),
        ("territory-not-adjacent", "territory-adjacent"),
        ("not-in-hand", "from-hand"),
    ] {
        let file = format!("games/halasi/disputed-{name}.game");
        let v = check_json(&file);
        assert_eq!(v["valid"], false, "{file}: {v}");
        let errors = v["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{file}: {v}");
        assert_eq!(errors[0]["kind"], "rule", "{file}: {v}");
        assert_eq!(errors[0]["rule"], rule, "{file}: {v}");
        assert_eq!(
            errors[0]["turn"], v["turns"],
            "{file}: the last turn is disputed"
        );
    }

    let file = "games/halasi/disputed-unannounced-route.game";
    let (code, out, err) = run(&["adjudicate", file, "--format", "json"]);
    assert_eq!(code, 0, "{file} is valid: {out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let last = v["verdicts"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["legal"], true);
    let note = last["note"].as_str().expect("a note on the turn");
    assert!(
        note.contains("AM1~AM2") && note.contains("not paid"),
        "{note}"
    );
    let score = &last["score"];
    assert_eq!(score["routes"], serde_json::json!([]));
    assert_eq!(score["path"]["total"], 0);
    assert_eq!(
        score["unannounced"][0]["markets"],
        serde_json::json!(["AM1", "AM2"])
    );
    assert_eq!(score["total"], score["domino_points"]);
    assert_eq!(score["total"], score["claim"]);
}

/// The three acceptance figures of halasi.md, each reached by a valid record and scored
/// by `referee score` on its turn: text and JSON snapshots, and the total the text
/// states, with the relations that make it.
#[test]
fn halasi_acceptance_figures() {
    for (stem, turn, total) in [
        ("figure-25", 7, 25),
        ("figure-0", 2, 0),
        ("figure-minus-8", 6, -8),
    ] {
        let file = format!("games/halasi/{stem}.game");
        let v = check_json(&file);
        assert_eq!(v["valid"], true, "{file}: {v}");
        assert_eq!(v["turns"], turn, "{file}: the figure is the last turn");

        let turn_arg = turn.to_string();
        let (code, text, err) = run(&["score", &file, "--turn", &turn_arg]);
        assert_eq!(code, 0, "{file}: {err}");
        insta::assert_snapshot!(format!("halasi-{stem}-score-text"), text);
        let (code, json, err) = run(&["score", &file, "--turn", &turn_arg, "--format", "json"]);
        assert_eq!(code, 0, "{file}: {err}");
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        insta::assert_json_snapshot!(format!("halasi-{stem}-score-json"), v);

        let turns = v["turns"].as_array().unwrap();
        assert_eq!(turns.len(), 1, "{file}: --turn scores one turn");
        let t = &turns[0];
        assert_eq!(t["turn"], turn, "{file}");
        assert_eq!(t["total"], total, "{file}");
        assert_eq!(t["claim"], total, "{file}: the claim is exact");
        let dominos = t["dominos"].as_array().unwrap();
        assert_eq!(dominos.len(), 1, "{file}: one domino");
        assert_eq!(dominos[0]["placement"], 1);
        assert_eq!(t["path"]["total"], 0);

        // The relations of each half: foundation, partner, adjoining halves.
        let rel = |h: &serde_json::Value| -> (String, String, Vec<String>) {
            let s = |x: &serde_json::Value| x["relation"].as_str().unwrap().to_string();
            let adjoining = h["adjoining"].as_array().unwrap().iter().map(s).collect();
            (s(&h["foundation"]), s(&h["partner"]), adjoining)
        };
        let halves: Vec<_> = dominos[0]["halves"]
            .as_array()
            .unwrap()
            .iter()
            .map(rel)
            .collect();
        let r = |f: &str, p: &str, a: &[&str]| {
            (
                f.to_string(),
                p.to_string(),
                a.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        let expected = match total {
            // A double on two foundations of its marking, four such halves around it.
            25 => vec![
                r("self", "self", &["self", "self"]),
                r("self", "self", &["self", "self"]),
            ],
            // The first domino: one self-matching foundation, the rest opposed, alone.
            0 => vec![r("self", "opposed", &[]), r("opposed", "opposed", &[])],
            // The same domino with an opposed half on each of its four other neighbours.
            _ => vec![
                r("self", "opposed", &["opposed", "opposed"]),
                r("opposed", "opposed", &["opposed", "opposed"]),
            ],
        };
        assert_eq!(halves, expected, "{file}");
    }
}

/// Every complete Halasi example is valid and ends as its comment says: the table games
/// of two to six seats when one seat is left, the solitaire games won or lost.
#[test]
fn halasi_complete_games_end_with_their_winners() {
    for (stem, turns, winners, reason) in [
        ("table-2-seats", 82, vec!["a"], "one-seat-left"),
        ("table-2-seats-options", 115, vec!["a"], "one-seat-left"),
        ("table-3-seats", 177, vec!["b"], "one-seat-left"),
        ("table-4-seats", 286, vec!["b"], "one-seat-left"),
        ("table-6-seats", 433, vec!["a"], "one-seat-left"),
        ("solitaire-win", 16, vec!["a"], "target"),
        ("solitaire-loss", 34, vec![], "no-placement"),
    ] {
        let file = format!("games/halasi/{stem}.game");
        let v = check_json(&file);
        assert_eq!(v["valid"], true, "{file}: {v}");
        assert_eq!(v["turns"], turns, "{file}");
        assert_eq!(v["status"]["over"], true, "{file}");
        assert_eq!(v["status"]["winners"], serde_json::json!(winners), "{file}");
        assert_eq!(v["status"]["reason"], reason, "{file}");
    }
}

/// The six-seat game: `check` in text says it is valid and who won.
#[test]
fn halasi_six_seats_check() {
    let (code, out, err) = run(&["check", "games/halasi/table-6-seats.game"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "games/halasi/table-6-seats.game: valid, 433 turns, a wins (one-seat-left)\n\
         1 record: 1 valid, 0 invalid\n"
    );
}

/// A record's Options tag is applied: the claims of table-2-seats-options are exact only
/// with route.market = 2 and score.placement = 2, so without the tag the first run's
/// claim is wrong by the placement point it no longer earns.
#[test]
fn halasi_options_from_the_record_change_the_scores() {
    use common::run_with_input;
    let file = "games/halasi/table-2-seats-options.game";
    let text = std::fs::read_to_string(common::root().join(file)).unwrap();
    let options = "[Options \"route.market = 2; score.placement = 2\"]\n";
    assert!(text.contains(options));
    let (code, out, _) = run_with_input(
        &["check", "-", "--format", "json"],
        text.replace(options, "").as_bytes(),
    );
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "claim", "{v}");
    let message = e["message"].as_str().unwrap();
    let (scored, claimed) = scan_scores(message);
    assert_eq!(claimed - scored, 1, "{message}");
}

/// The two numbers of "the turn scores N, not the M claimed".
fn scan_scores(message: &str) -> (i64, i64) {
    let nums: Vec<i64> = message
        .split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums.len(), 2, "{message}");
    (nums[0], nums[1])
}

/// `score` as a player reads it (issue 21): the buy-ins the deal takes are money lines
/// naming each seat; solitaire's target says how it is made when it changes; an edge
/// between two dominos of one run is marked as counted from both sides. Snapshots of
/// the whole breakdown, read by hand.
#[test]
fn halasi_scores_a_player_can_follow() {
    let (code, text, err) = run(&["score", "games/halasi/table-3-seats.game", "--turn", "4"]);
    assert_eq!(code, 0, "{err}");
    for seat in ["a", "b", "c"] {
        assert!(
            text.contains(&format!("{seat} → bank 64 (buy-in at the deal")),
            "{text}"
        );
    }
    insta::assert_snapshot!("halasi-table-3-seats-score-turn-4", text);
    let (code, text, err) = run(&["score", "games/halasi/solitaire-win.game", "--turn", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("adjoining*") && text.contains("counts from both sides"));
    // The "was" speaks of the target, not of the score (issue 34).
    assert!(text.contains(
        "score after: 70 of target 316 (6 territories × 48 + 7 dominos drawn × 4; \
         the target was 304 before this turn drew its dominos)"
    ));
    insta::assert_snapshot!("halasi-solitaire-win-score-turn-2", text);
}

/// `score --turn N` on a refused turn says so, shows what it would score without the
/// money and running score after it, and exits 1 as `adjudicate` does.
#[test]
fn score_of_a_refused_turn_is_not_counted() {
    let file = "games/halasi/disputed-wrong-claim.game";
    let (code, text, _) = run(&["score", file, "--turn", "8"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("REFUSED (rule claim: the turn scores 10, not the 12 claimed)"),
        "{text}"
    );
    assert!(!text.contains("score after"), "{text}");
    assert!(text.contains("Standings after turn 7:"), "{text}");
    let (code, json, _) = run(&["score", file, "--turn", "8", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(v["turns"][0]["counted"], false, "{v}");
    // A valid record: every turn counted, exit 0.
    let (code, _, _) = run(&["score", "games/halasi/figure-25.game"]);
    assert_eq!(code, 0);
}

/// Standings read as counts in words: one of a unit is singular (`1 piece`, `1 tile`),
/// more are plural; the JSON keeps the unit's one name.
#[test]
fn standings_say_one_piece_and_one_tile() {
    let (_, text, _) = run(&["score", "games/halatafl/disputed-continue-jumps.game"]);
    assert!(text.contains(" 1 piece\n"), "{text}");
    assert!(!text.contains(" 1 pieces"), "{text}");
    let (_, text, _) = run(&["score", "games/halves/complete-3p.game"]);
    assert!(text.contains(" 1 tile\n"), "{text}");
    assert!(!text.contains(" 1 tiles"), "{text}");
    let (_, json, _) = run(&["score", "games/halves/complete-3p.game", "--format", "json"]);
    assert!(json.contains("\"unit\":\"tiles\""), "{json}");
}

/// One record ruled under `--option capture=…` (issue 34): the ruling quotes the text the
/// ruleset writes for the value in force, in text and in JSON, not the default's text
/// ("it stands, but the opponent may huff" under a setting that refuses the turn).
#[test]
fn a_ruling_quotes_the_rule_text_for_the_option_in_force() {
    let game = "games/halatafl/disputed-missed-capture-huff.game";
    let rules = std::fs::read_to_string(common::root().join("rulesets/halatafl.rules")).unwrap();
    let written = |line: usize| {
        let l = rules.lines().nth(line - 1).unwrap();
        l[l.find('"').unwrap() + 1..l.len() - 1].to_string()
    };
    for (value, rule, line) in [
        ("compulsory", "compulsory-capture", 51),
        ("optional", "huff", 55),
    ] {
        let option = format!("capture={value}");
        let args = ["adjudicate", game, "--option", &option];
        let (code, text, err) = run(&[&args[..], &["--color", "never"]].concat());
        assert_eq!(code, 1, "{value}: {err}");
        insta::assert_snapshot!(format!("halatafl-missed-capture-huff-option-{value}"), text);
        let (_, json, _) = run(&[&args[..], &["--format", "json"]].concat());
        let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
        let violation = &v["violation"];
        assert_eq!(violation["rule"], rule, "{value}: {json}");
        assert_eq!(violation["rule_text"], written(line), "{value}");
        assert_eq!(
            violation["rule_source"],
            format!("rulesets/halatafl.rules:{line}")
        );
        assert!(rules
            .lines()
            .nth(line - 1)
            .unwrap()
            .contains(&format!("rule {rule} when capture = {value} ")));
    }
}
