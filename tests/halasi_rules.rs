//! Halasi's rule ids (`halasi.md`, `record.md`), each broken by a small record and ruled
//! through the binary: the first error names the rule. The placement rules of a run
//! (`not-adjacent` … `claim`) are also tested on raw layouts in the rules module.

use crate::common;

use common::run_with_input;
use serde_json::Value;

/// A seedless table game: homes, the setup (buy-ins written, first round labelled),
/// then a's first domino and b's.
const BASE: &str = "[Game \"halasi\"]

1. home M1 2. home M1
3. a: [II OO FF XX] place AM1 @0,0 r0
4. b: [SS MM QQ UU] place BM1 @1,0 r0
5. place AT1 @0,-1 r0
6. place BT1 @1,-1 r0
7. a: [1: IS] II@AM1.0/AM1.1 =11
8. b: [2: SI OI] SS@BM1.4/BM1.5 =8
";

/// `check --format json` of `record` with extra arguments: its one JSON line.
fn check(record: &str, args: &[&str]) -> Value {
    let mut all = vec!["check", "-", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = run_with_input(&all, record.as_bytes());
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    serde_json::from_str(out.lines().next().expect("a JSON line")).expect("JSON")
}

/// The first error's rule and turn, or `None` for a valid record.
fn first_error(record: &str) -> Option<(String, Option<u64>)> {
    let v = check(record, &[]);
    let e = v["errors"].as_array()?.first()?;
    Some((
        e["rule"]
            .as_str()
            .unwrap_or(e["kind"].as_str().unwrap())
            .to_string(),
        e["turn"].as_u64(),
    ))
}

/// BASE's first `n` turns (by line: the first two hold two turns), then `more`.
fn base_then(lines: usize, more: &str) -> String {
    let keep: Vec<&str> = BASE.lines().take(2 + lines).collect();
    format!("{}\n{more}\n", keep.join("\n"))
}

fn ruled(record: &str, rule: &str, turn: u64) {
    assert_eq!(
        first_error(record),
        Some((rule.to_string(), Some(turn))),
        "{record}"
    );
}

#[test]
fn the_base_record_is_valid() {
    assert_eq!(first_error(BASE), None);
}

#[test]
fn phase() {
    ruled("[Game \"halasi\"]\n\n1. place AM1 @0,0 r0\n", "phase", 1);
    ruled(&base_then(1, "3. a: [1: II] II@AM1.0/AM1.1"), "phase", 3);
}

#[test]
fn home() {
    ruled("[Game \"halasi\"]\n\n1. home T1\n", "home", 1);
    ruled("[Game \"halasi\"]\n\n1. home Z9\n", "home", 1);
}

#[test]
fn setup_place() {
    // BM1 is b's home, not a's, and not in the pool.
    ruled(
        &base_then(1, "3. a: [II OO FF XX] place BM1 @0,0 r0"),
        "setup-place",
        3,
    );
}

#[test]
fn territory_adjacent() {
    ruled(
        &base_then(2, "4. b: [SS MM QQ UU] place BM1 @3,3 r0"),
        "territory-adjacent",
        4,
    );
    ruled(
        &base_then(1, "3. a: [II OO FF XX] place AM1 @1,0 r0"),
        "territory-adjacent",
        3,
    );
}

#[test]
fn roll_and_buy() {
    // Without a seed the first place writes the buy-in …
    ruled(&base_then(1, "3. a: place AM1 @0,0 r0"), "roll-and-buy", 3);
    // … and a roll of 2 buys two dominos, not one.
    ruled(
        &base_then(5, "7. a: [2: IS] II@AM1.0/AM1.1"),
        "roll-and-buy",
        7,
    );
    // A table turn does one of three actions.
    ruled(&base_then(5, "7. a: [1: IS]"), "roll-and-buy", 7);
}

#[test]
fn territory_buy() {
    // A purse of 100 pays the home and the buy-in (112) and is then below the fee.
    let record = base_then(5, "7. a: [1:] territory AT2 @-1,0 r0").replace(
        "[Game \"halasi\"]",
        "[Game \"halasi\"]\n[Options \"purse=100\"]",
    );
    ruled(&record, "territory-buy", 7);
    // With the default purse the same turn is legal (it buys a pool tile).
    let fine = base_then(5, "7. a: [1: IS] territory AT2 @-1,0 r0");
    assert_eq!(first_error(&fine), None, "{fine}");
}

#[test]
fn run_rules_in_a_record() {
    ruled(
        &base_then(5, "7. a: [1: IS] II@AM1.0/AM1.3"),
        "not-adjacent",
        7,
    );
    ruled(&base_then(5, "7. a: [1: IS] II@AM1.0/AM1.24"), "address", 7);
    ruled(
        &base_then(5, "7. a: [1: IS] RR@AM1.0/AM1.1"),
        "from-hand",
        7,
    );
    ruled(
        &base_then(5, "7. a: [1: IS] II@AM1.6/AM1.7"),
        "first-domino",
        7,
    );
    ruled(&base_then(6, "8. b: [1: SI] SS@AM1.1/AM1.2"), "covered", 8);
    ruled(&base_then(6, "8. b: [1: SI] SS@BM1.4/BM1.5 =9"), "claim", 8);
}

#[test]
fn turn_order_in_open_rounds() {
    // Without a seed the first setup round needs seat labels …
    ruled(
        &base_then(1, "3. [II OO FF XX] place AM1 @0,0 r0"),
        "turn-order",
        3,
    );
    // … and a label chooses who moves: b may place first.
    let b_first = "[Game \"halasi\"]\n\n1. home M1 2. home M1\n\
                   3. b: [SS MM QQ UU] place BM1 @0,0 r0\n\
                   4. a: [II OO FF XX] place AM1 @1,0 r0\n\
                   5. b: place BT1 @0,-1 r0\n";
    assert_eq!(first_error(b_first), None);
    // The second round follows the first round's order: b again.
    ruled(
        &format!(
            "{}5. a: place AT1 @0,-1 r0\n",
            &b_first[..b_first.find("5. b").unwrap()]
        ),
        "turn-order",
        5,
    );
}

#[test]
fn leave_pays_half_and_the_last_seat_takes_the_bank() {
    let record = base_then(6, "8. b: [1: SI] leave");
    let v = check(&record, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["status"]["reason"], "one-seat-left");
    assert_eq!(v["status"]["winners"], serde_json::json!(["a"]));
    // a: 1000 − 48 − 64 − 4 + 11 = 895, then takes the bank; b: 1000 − 48 − 64 − 4
    // (its domino) − 10 (half the fee of the five dominos in hand) = 874.
    assert_eq!(purse(&record, "b"), 874);
    assert_eq!(
        purse(&record, "a") + purse(&record, "b"),
        2000,
        "money is conserved"
    );
}

/// A seat's purse at the end of `record`, from `score --format json`.
fn purse(record: &str, seat: &str) -> i64 {
    let (_, out, _) = run_with_input(&["score", "-", "--format", "json"], record.as_bytes());
    let s: Value = serde_json::from_str(out.trim()).unwrap();
    s["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["seat"] == seat)
        .unwrap()["value"]
        .as_i64()
        .unwrap()
}

#[test]
fn a_leave_pays_half_the_hands_total_fee_rounded_down_once() {
    // b leaves holding five dominos (its buy-in four and the one it bought): it pays
    // 5 × fee / 2, rounded down once: 2 at fee 1 (not 5 × 0), 7 at fee 3 (not 5 × 1).
    for (fee, paid) in [(1, 2), (3, 7), (4, 10)] {
        let record = base_then(6, "8. b: [1: SI] leave").replace(
            "[Game \"halasi\"]",
            &format!("[Game \"halasi\"]\n[Options \"domino-fee={fee}\"]"),
        );
        assert_eq!(first_error(&record), None, "{record}");
        let buy_in = 48 + 4 * fee;
        assert_eq!(
            purse(&record, "b"),
            1000 - 48 - buy_in - fee - paid,
            "domino-fee = {fee}"
        );
    }
}

#[test]
fn leave_and_resign_belong_to_the_play_rounds() {
    // Home turns.
    ruled("[Game \"halasi\"]\n\n1. resign\n", "leave", 1);
    ruled("[Game \"halasi\"]\n\n1. leave\n", "leave", 1);
    ruled("[Game \"halasi\"]\n\n1. home M1 2. resign\n", "leave", 2);
    // Setup turns: the first round (open, labelled) and the second.
    ruled(&base_then(1, "3. a: resign"), "leave", 3);
    ruled(&base_then(1, "3. a: [1: II] leave"), "leave", 3);
    ruled(&base_then(3, "5. resign"), "leave", 5);
    ruled(&base_then(3, "5. leave"), "leave", 5);
    // With a seed too: the kind of turn is judged before its written roll.
    let seeded = "[Game \"halasi\"]\n[Seed \"t2-4-1\"]\n\n1. home M1 2. home M1\n";
    ruled(&format!("{seeded}3. resign\n"), "leave", 3);
    ruled(&format!("{seeded}3. [5: II OO] leave\n"), "leave", 3);
    // In the play rounds both are turns: b is left, and wins.
    for exit in ["7. a: resign", "7. a: [1: IS] leave"] {
        let v = check(&base_then(5, exit), &[]);
        assert_eq!(v["valid"], true, "{exit}: {v}");
        assert_eq!(v["status"]["winners"], serde_json::json!(["b"]), "{exit}");
    }
}

#[test]
fn bank_broken_ends_the_game() {
    // With no fees the bank is empty: the first positive score breaks it, and the
    // purses (equal) share the win.
    let record = base_then(5, "7. a: [1: IS] II@AM1.0/AM1.1").replace(
        "[Game \"halasi\"]",
        "[Game \"halasi\"]\n[Options \"territory-fee=0 domino-fee=0\"]",
    );
    let v = check(&record, &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["status"]["reason"], "bank-broken");
    assert_eq!(v["status"]["winners"], serde_json::json!(["a", "b"]));
    // No turn may follow.
    ruled(&format!("{record}8. b: [1: SI] leave\n"), "game-over", 8);
}

#[test]
fn setup_tag() {
    ruled_setup("[Game \"halasi\"]\n[Setup \"AT1 @1,0 r0\"]\n\n1. home M1\n");
    ruled_setup("[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n\n1. home M1\n");
    // A seat count the mode cannot take is an error of the setting `seats`, placed at
    // the tag that set it, citing no rule.
    ruled_seats("[Game \"halasi\"]\n[Seats \"a\"]\n\n1. home M1\n", 2, 9);
    // Solitaire is a's alone: a record naming other seats is refused, not played as a.
    let solitaire = "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n[Seed \"x\"]\n";
    ruled_seats(&format!("{solitaire}[Seats \"a b\"]\n\n1. home M1\n"), 4, 9);
    ruled_seats(
        &format!("{solitaire}[Options \"purse = 10; seats=[b]\"]\n\n1. home M1\n"),
        4,
        23,
    );
    // Set on the command line, it is said so (the place is the ruleset's name).
    let (code, out, _) = common::run(&[
        "check",
        "--option",
        "seats=[a]",
        "games/halasi/table-2-seats.game",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("; `seats` was set by --option\n  --> games/halasi/table-2-seats.game:2:11"),
        "{out}"
    );
    let v = check(&format!("{solitaire}[Seats \"a\"]\n\n1. home M1\n"), &[]);
    assert_eq!(v["valid"], true, "{v}");
    let (code, _, err) = common::run(&["new", "halasi-solitaire", "--seats", "a", "b"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("solitaire is played by one seat, a, not [a b]"),
        "{err}"
    );
}

fn ruled_seats(record: &str, line: u64, column: u64) {
    let v = check(record, &[]);
    let e = &v["errors"][0];
    assert_eq!(e["kind"], "ruleset", "{v}");
    assert_eq!(e["rule"], Value::Null, "{v}");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(line), Some(column)),
        "{v}"
    );
}

fn ruled_setup(record: &str) {
    let v = check(record, &[]);
    assert_eq!(v["errors"][0]["kind"], "setup", "{v}");
    assert_eq!(v["errors"][0]["rule"], "setup", "{v}");
}

/// Solitaire without a seed: the layout from `Setup`, the opening four written.
const SOLITAIRE: &str = "[Game \"halasi\"]
[Ruleset \"halasi-solitaire\"]
[Setup \"AT1 @1,0 r0, AM2 @0,1 r0\"]

1. home M1
2. [II OO FF XX] [1: SS] II@AM1.0/AM1.1 =11
";

#[test]
fn solitaire_end() {
    assert_eq!(first_error(SOLITAIRE), None);
    // The bracket alone while a domino can be placed.
    ruled(&format!("{SOLITAIRE}3. [1: MM]\n"), "solitaire-end", 3);
    // A territory is no solitaire turn.
    ruled(
        &format!("{SOLITAIRE}3. [1: MM] territory BT1 @-1,0 r0\n"),
        "phase",
        3,
    );
    // Nor is a leave: rule `leave`, whose solitaire text says so; resign ends it lost.
    ruled(&format!("{SOLITAIRE}3. [1: MM] leave\n"), "leave", 3);
    let v = check(&format!("{SOLITAIRE}3. resign\n"), &[]);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["status"]["winners"], serde_json::json!([]), "{v}");
}

#[test]
fn a_written_draw_must_match_the_seed() {
    let (_, record, _) = common::run(&["selfplay", "halasi", "--games", "1", "--seed", "d"]);
    // Change the first written roll: a `dice` error, not a rule.
    let at = record.find("[").and_then(|_| record.find(". [")).unwrap();
    let roll_at = record[at..].find(": ").map(|i| at + i).unwrap();
    let mut changed = record.clone();
    let digit = &record[roll_at - 1..roll_at];
    let other = if digit == "6" { "1" } else { "6" };
    changed.replace_range(roll_at - 1..roll_at, other);
    let v = check(&changed, &[]);
    assert_eq!(v["errors"][0]["kind"], "dice", "{v}");
}

#[test]
fn bad_input_gets_a_ruling_never_a_hang() {
    // A run of 600 dominos: ruled at once (two dominos of the run on one triangle).
    let run: Vec<&str> = std::iter::repeat_n("II@AM1.0/AM1.1", 600).collect();
    let started = std::time::Instant::now();
    ruled(
        &base_then(5, &format!("7. a: [1: IS] {}", run.join(", "))),
        "covered",
        7,
    );
    assert!(started.elapsed().as_secs() < 10);
    // Triangles, positions and rotations that cannot exist; unknown tiles.
    ruled(&base_then(5, "7. a: [1: IS] II@AM1.99/AM1.1"), "address", 7);
    ruled(&base_then(5, "7. a: [1: IS] II@ZZ9.0/ZZ9.1"), "address", 7);
    ruled(
        &base_then(1, "3. a: [II OO FF XX] place AM1 @0,0 r9"),
        "address",
        3,
    );
    ruled(
        &base_then(1, "3. a: [II OO FF XX] place AM1 @100,0 r0"),
        "address",
        3,
    );
    ruled("[Game \"halasi\"]\n\n1. home MARKETTILE1\n", "address", 1);
}

/// A `resign` in the play rounds still draws the turn's roll (the seat saw it) and buys
/// nothing, then is a leave. With purses at 0 a `leave` buys nothing either, so after a
/// resignation and after a leave on the same turn the game must be the same, down to
/// the next seat's roll and draw: the legal turns listed next are the same.
#[test]
fn a_resignation_draws_the_turns_roll_and_buys_nothing() {
    let (code, record, err) = common::run(&[
        "selfplay",
        "halasi",
        "--games",
        "1",
        "--seed",
        "rs",
        "--option",
        "purse=0",
        "--option",
        "seats=[a b c]",
    ]);
    assert_eq!(code, 0, "{err}");
    // Three homes and six setup turns, then the first play turn, 10.
    let cut = record.find("\n10. ").expect("a tenth turn") + 1;
    let head = record[..cut].replace("[Result \"c\"]", "[Result \"*\"]");
    let head = head
        .lines()
        .filter(|l| !l.starts_with("[Result"))
        .collect::<Vec<_>>()
        .join("\n");
    let moves = |last: &str| {
        let text = format!("{head}\n{last}\n");
        assert_eq!(first_error(&text), None, "{text}");
        let (code, out, err) = run_with_input(&["moves", "-"], text.as_bytes());
        assert_eq!(code, 0, "{err}");
        out
    };
    let after_leave = moves("10. leave");
    let after_resign = moves("10. resign");
    assert!(after_leave.starts_with('['), "{after_leave}");
    assert_eq!(after_resign, after_leave);
}

/// A route's chain is made of dominos only: a market is no link of it. a's chain links
/// AM1 to AM2's centre and b's links BM1 to AM2's centre, apart: AM1~BM1 is no route
/// (rule `route`) until a domino across AM2's centre joins the two chains.
#[test]
fn a_market_is_no_link_of_a_chain() {
    const CHAINS: &str = "[Game \"halasi\"]

1. home M1 2. home M1
3. a: [OU SM XU II] place AM1 @0,0 r0
4. b: [SF YU SI MM] place BT1 @1,-1 r0
5. place AM2 @0,-1 r0
6. place BM1 @0,-2 r0
7. a: [1: FF] OU@AM1.1/AM1.10, SM@AM1.9/AM2.20, XU@AM2.19/AM2.4 route AM1~AM2
8. b: [1: QQ] SF@BM1.4/BM1.19, YU@BM1.20/AM2.9, SI@AM2.10/AM2.1 route AM2~BM1";
    assert_eq!(first_error(&format!("{CHAINS}\n")), None);
    ruled(&format!("{CHAINS} route AM1~BM1\n"), "route", 8);
    // Joined across AM2's centre: now AM1~BM1 is a route, of 7 dominos.
    let joined = format!("{CHAINS}\n9. a: [1: YO] YO@AM2.5/AM2.0 route AM1~BM1\n");
    assert_eq!(first_error(&joined), None);
    let (_, out, _) = run_with_input(&["score", "-", "--turn", "9"], joined.as_bytes());
    assert!(
        out.contains("route AM1~BM1: shortest chain 7 dominos"),
        "{out}"
    );
}
