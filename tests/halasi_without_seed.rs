//! Halasi played without a seed, as a new user meets it (issue 34, item 7): while the
//! order of a round is not rolled, every status says which seats may move and that the
//! turn needs a label; `moves` says what the seat writes first and shows a whole turn
//! that the referee then accepts. And solitaire's roll errors speak of no purse.

use crate::common;

use common::{run, run_with_input};
use serde_json::Value;

/// What every status says after the homes of a two-seat game without a seed.
const OPEN: &str = "the order of this round is not rolled: a or b may move; label the turn \
                    with the seat that takes it (`a:`)";

/// A new record without a seed for `seats` (none: the default two), its homes named:
/// (its folder, its path).
fn after_homes(seats: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.game").to_str().unwrap().to_string();
    let mut args = vec!["new", "halasi", "--no-seed"];
    if !seats.is_empty() {
        args.push("--seats");
        args.extend(seats);
    }
    let (code, header, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&path, header).unwrap();
    for i in 0..seats.len().max(2) {
        let home = ["home M1", "home M2"][i % 2];
        let (code, out, err) = run(&["move", &path, home]);
        assert_eq!(code, 0, "{out}{err}");
    }
    (dir, path)
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    serde_json::from_str(out.lines().next().unwrap_or_else(|| panic!("{err}"))).unwrap()
}

/// The turn a `moves` note shows between "e.g. `" and "`".
fn example(note: &str) -> String {
    let start = note
        .find("e.g. `")
        .unwrap_or_else(|| panic!("no example: {note}"))
        + 6;
    let len = note[start..].find('`').unwrap();
    note[start..start + len].to_string()
}

#[test]
fn the_status_says_who_may_move_while_the_order_is_open() {
    let (_dir, path) = after_homes(&[]);
    let (_, show, _) = run(&["show", &path]);
    assert_eq!(show.lines().last(), Some(OPEN), "{show}");
    let (_, check, _) = run(&["check", &path]);
    assert!(
        check.starts_with(&format!("{path}: valid, 2 turns, {OPEN}\n")),
        "{check}"
    );
    let v = json(&["show", &path, "--format", "json"]);
    assert_eq!(
        v["status"]["may_move"],
        serde_json::json!(["a", "b"]),
        "{v}"
    );
    assert_eq!(v["status"]["to_move"], "a", "{v}");
    // play's :status, after the same homes.
    let (_, out, _) = run_with_input(&["play", "halasi"], b"home M1\nhome M2\n:status\n");
    assert_eq!(
        out.lines().nth(2),
        Some(format!("2 turns played; turn 3: {OPEN}").as_str()),
        "{out}"
    );
    // One seat has moved: the other is to move, its label optional.
    let (code, out, _) = run(&["move", &path, "b: [XF OI UY 9S] place BM2 @0,0 r0"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.trim_end().ends_with("; a to move"), "{out}");
    let v = json(&["show", &path, "--format", "json"]);
    assert!(v["status"].get("may_move").is_none(), "{v}");
}

/// The ruling and the HTML page name the seat that played each turn of an open round:
/// the one its label chose, not the first that could have.
#[test]
fn a_ruling_names_the_seat_a_label_chose() {
    let file = "games/halasi/table-no-seed.game";
    let v = json(&["adjudicate", file, "--format", "json"]);
    let seats: Vec<&str> = v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["seat"].as_str().unwrap())
        .collect();
    assert_eq!(
        seats,
        ["a", "b", "b", "a", "b", "a", "a", "b", "a", "b"],
        "{v}"
    );
    let (code, page, _) = run(&["show", file, "--format", "html"]);
    assert_eq!(code, 0);
    assert!(
        page.contains("After turn 3 (b: [XF OI UY 9S] place BM2 @0,0 r0)"),
        "{page}"
    );
}

#[test]
fn three_seats_are_listed_with_or() {
    let (_dir, path) = after_homes(&["a", "b", "c"]);
    let (_, show, _) = run(&["show", &path]);
    assert!(
        show.contains("the order of this round is not rolled: a, b or c may move"),
        "{show}"
    );
    // An unlabelled turn is refused, naming the same seats.
    let (code, out, _) = run(&["move", &path, "[XF OI UY 9S] place BM2 @0,0 r0"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the turn needs a seat label, a, b or c"),
        "{out}"
    );
}

/// From the homes into play, a new user plays what `moves` lists, or where it lists
/// nothing the turn its note shows: every one is accepted. During the setup the note
/// shows a placement with its buy-in, in play a roll and its dominos; in an open round
/// it speaks as the status does and labels the turn.
#[test]
fn a_new_user_follows_the_hints_from_the_homes_into_play() {
    let (_dir, path) = after_homes(&[]);
    let mut shown = Vec::new();
    for turn in 3..=12 {
        let v = json(&["moves", &path, "--format", "json"]);
        assert_eq!(v["turn"], turn, "{v}");
        let moves = v["moves"].as_array().unwrap();
        let next = match moves.first() {
            Some(m) => m.as_str().unwrap().to_string(),
            None => {
                let note = v["note"].as_str().expect("a note where nothing is listed");
                let shown_turn = example(note);
                let open = v["to_move"] == "a" && note.starts_with(OPEN);
                if note.contains("may move") {
                    assert!(note.starts_with(OPEN), "{note}");
                    assert!(shown_turn.starts_with("a: "), "{note}");
                }
                shown.push((turn, open, shown_turn.clone()));
                shown_turn
            }
        };
        let (code, out, err) = run(&["move", &path, &next]);
        assert_eq!(code, 0, "turn {turn}: `{next}` refused:\n{out}{err}");
    }
    let texts: Vec<&str> = shown.iter().map(|(_, _, t)| t.as_str()).collect();
    // Both setup placements of the first round show a buy-in; both first turns of play
    // and the rest a roll.
    assert_eq!(texts[0], "a: [II IO IF IX] place AM1 @0,0 r0", "{shown:?}");
    assert!(
        texts[1].starts_with("[IS IU IY IM] place BM2 "),
        "{shown:?}"
    );
    assert!(texts[2].starts_with("a: [3: "), "{shown:?}");
    assert!(
        shown.iter().filter(|(_, open, _)| *open).count() == 2,
        "{shown:?}"
    );
    assert!(shown.len() >= 6, "{shown:?}");
}

/// Solitaire without a seed: the first turn's note shows the opening four, the roll and
/// the draw, and the turn is accepted; so is the next one's.
#[test]
fn a_solitaire_without_a_seed_follows_its_hints() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.game").to_str().unwrap().to_string();
    std::fs::write(
        &path,
        "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n\
         [Setup \"AT1 @1,0 r0, AM2 @0,1 r0\"]\n\n1. home M1\n",
    )
    .unwrap();
    for (turn, starts) in [(2, "[II IO IF IX] [3: IS IU IY] "), (3, "[3: ")] {
        let v = json(&["moves", &path, "--format", "json"]);
        let note = v["note"].as_str().unwrap();
        let shown = example(note);
        assert!(shown.starts_with(starts), "turn {turn}: {note}");
        assert!(!note.contains("purse") && !note.contains("buys"), "{note}");
        let (code, out, err) = run(&["move", &path, &shown]);
        assert_eq!(code, 0, "turn {turn}: `{shown}`:\n{out}{err}");
    }
}

/// A solitaire roll that draws the wrong number of dominos is ruled without a purse,
/// which solitaire does not have; the table game's names the purse that limits it.
#[test]
fn a_solitaire_roll_error_speaks_of_no_purse() {
    let text = "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n\
                [Setup \"AT1 @1,0 r0, AM2 @0,1 r0\"]\n\n\
                1. home M1\n2. [IO QQ RX SS] [2: XS] XS@AM1.3/AM1.16\n";
    let (code, out, _) = run_with_input(&["check", "-", "--format", "json"], text.as_bytes());
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "roll-and-buy", "{v}");
    assert_eq!(
        e["message"], "a: a roll of 2 draws 2 dominos (268 in the pool), not 1",
        "{v}"
    );
    assert_eq!(
        e["hint"],
        "solitaire has no purse: it draws as many dominos as the roll shows, fewer only \
         when the pool runs short; this roll of 2 draws 2",
        "{v}"
    );
    // The table game: the purse is what limits a purchase.
    let (_dir, path) = after_homes(&[]);
    for t in [
        "b: [XF OI UY 9S] place BM2 @0,0 r0",
        "a: [IS OU FY XM] place AM1 @1,0 r0",
        "place AT1 @0,1 r0",
        "place BT2 @1,-1 r0",
    ] {
        assert_eq!(run(&["move", &path, t]).0, 0, "{t}");
    }
    let (code, out, _) = run(&[
        "move",
        &path,
        "a: [2: II] XM@AM1.3/AM1.16",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a roll of 2 buys 2 dominos (purse 888, 264 in the pool), not 1"),
        "{out}"
    );
    assert!(out.contains("a has 888 in its purse"), "{out}");
}
