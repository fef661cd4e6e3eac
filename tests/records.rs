//! Record-level rules of `record.md`, `ruleset.md` and `cli.md`, checked through the
//! binary: common rule ids, resign/draw, results, seeds, rulesets, limits, exit codes.

use crate::common;

use common::{referee, run, run_with_input};
use serde_json::Value;

/// `check --format json` on one record text; returns (exit code, the JSON lines).
fn check(text: &str, extra: &[&str]) -> (i32, Vec<Value>) {
    let mut args = vec!["check", "-", "--format", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run_with_input(&args, text.as_bytes());
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let lines = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    (code, lines)
}

/// The first error of the only record: (kind, rule).
fn first_error(text: &str, extra: &[&str]) -> (String, Option<String>, Value) {
    let (code, lines) = check(text, extra);
    assert_eq!(code, 1, "expected an invalid record: {lines:?}");
    let e = lines[0]["errors"][0].clone();
    (
        e["kind"].as_str().unwrap().to_string(),
        e["rule"].as_str().map(str::to_string),
        e,
    )
}

fn valid(text: &str, extra: &[&str]) -> Value {
    let (code, lines) = check(text, extra);
    assert_eq!(code, 0, "expected a valid record: {lines:?}");
    lines[0].clone()
}

const LONE: &str = "[Setup \"7/7/7/2m4/2M4/7/7 w -\"]";

#[test]
fn game_over_rule() {
    let (kind, rule, e) = first_error(
        &format!("[Game \"halatafl\"]\n{LONE}\n\n1. c3xc5 1... resign\n"),
        &[],
    );
    assert_eq!(
        (kind.as_str(), rule.as_deref()),
        ("rule", Some("game-over"))
    );
    assert_eq!(e["turn"], 2);
}

/// A turn after the end is named by its place in the record, as the JSON `turn` counts
/// it, not by the round the game stopped in: `1. c3xc5` wins, so `1... resign` is the
/// second turn written, and no round-1 name may point at it.
#[test]
fn a_turn_after_the_end_is_named_by_its_place() {
    let text = format!("[Game \"halatafl\"]\n{LONE}\n\n1. c3xc5 1... resign 2. e3-e4\n");
    let (code, out, _) = run_with_input(&["check", "-"], text.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("^^^^^^ turn 2\n"), "{out}");
    let (code, out, _) = run_with_input(&["adjudicate", "-"], text.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Position before turn 2 ("), "{out}");
    assert!(!out.contains("turn 1"), "{out}");
    // Its number in JSON is that place too, not the round's `1...`.
    let (kind, _, e) = first_error(&text, &[]);
    assert_eq!((kind.as_str(), e["turn"].as_u64()), ("rule", Some(2)));
    assert_eq!(e["number"], "2", "{e}");
}

#[test]
fn address_rule_points_at_the_point() {
    let (kind, rule, e) = first_error("[Game \"halatafl\"]\n\n1. h9-d4\n", &[]);
    assert_eq!((kind.as_str(), rule.as_deref()), ("rule", Some("address")));
    assert_eq!(
        (e["line"].clone(), e["column"].clone()),
        (Value::from(3), Value::from(4))
    );
    assert!(e["message"].as_str().unwrap().contains("h9"));
}

#[test]
fn setup_rule() {
    let (kind, rule, _) = first_error("[Game \"halatafl\"]\n[Setup \"7/7/7 w -\"]\n", &[]);
    assert_eq!((kind.as_str(), rule.as_deref()), ("setup", Some("setup")));
}

#[test]
fn turn_order_by_seat_label() {
    let (kind, rule, _) = first_error("[Game \"halatafl\"]\n\nblack: e3-d4\n", &[]);
    assert_eq!(
        (kind.as_str(), rule.as_deref()),
        ("rule", Some("turn-order"))
    );
    valid(
        "[Game \"halatafl\"]\n\nwhite: e3-d4 black: c5xe3xg1=K\n",
        &[],
    );
}

#[test]
fn resign_and_draw() {
    let r = valid(
        "[Game \"halatafl\"]\n[Result \"white\"]\n\n1. e3-d4 resign\n",
        &[],
    );
    assert_eq!(r["status"]["winners"], serde_json::json!(["white"]));
    assert_eq!(r["status"]["reason"], "resignation");
    let r = valid(
        "[Game \"halatafl\"]\n[Result \"draw\"]\n\n1. e3-d4 draw 1/2-1/2\n",
        &[],
    );
    assert_eq!(r["status"]["reason"], "agreement");
    let (kind, _, _) = first_error(
        "[Game \"halatafl\"]\n[Result \"black\"]\n\n1. e3-d4 resign\n",
        &[],
    );
    assert_eq!(kind, "result");
}

#[test]
fn result_consistency() {
    // Not over, a result declared, nothing to explain it.
    let (kind, _, _) = first_error("[Game \"halatafl\"]\n[Result \"white\"]\n\n1. e3-d4\n", &[]);
    assert_eq!(kind, "result");
    // A Termination other than normal explains it.
    valid(
        "[Game \"halatafl\"]\n[Result \"white\"]\n[Termination \"adjudication\"]\n\n1. e3-d4\n",
        &[],
    );
    // `*` never contradicts.
    valid(
        &format!("[Game \"halatafl\"]\n{LONE}\n[Result \"*\"]\n\n1. c3xc5\n"),
        &[],
    );
    // The marker must agree with the Result tag.
    let (kind, _, _) = first_error(
        &format!("[Game \"halatafl\"]\n{LONE}\n[Result \"white\"]\n\n1. c3xc5 0-1\n"),
        &[],
    );
    assert_eq!(kind, "result");
    valid(
        &format!("[Game \"halatafl\"]\n{LONE}\n\n1. c3xc5 1-0\n"),
        &[],
    );
    // A marker alone is the declared result.
    let (kind, _, _) = first_error(
        &format!("[Game \"halatafl\"]\n{LONE}\n\n1. c3xc5 0-1\n"),
        &[],
    );
    assert_eq!(kind, "result");
    // `none`: nobody won, which is not this game.
    let (kind, _, _) = first_error(
        &format!("[Game \"halatafl\"]\n{LONE}\n[Result \"none\"]\n\n1. c3xc5\n"),
        &[],
    );
    assert_eq!(kind, "result");
    let (kind, _, _) = first_error("[Game \"halatafl\"]\n[Result \"purple\"]\n", &[]);
    assert_eq!(kind, "header");
}

#[test]
fn quiet_limit_draws() {
    let text = "[Game \"halatafl\"]\n[Options \"quiet-limit=1\"]\n[Setup \"7/3m3/7/7/3M3/7/7 w -\"]\n[Result \"draw\"]\n\n1. d3-d4 d6-d5\n";
    let r = valid(text, &[]);
    assert_eq!(r["status"]["reason"], "quiet-limit");
}

#[test]
fn several_records_in_one_file() {
    let text =
        "[Game \"halatafl\"]\n\n1. e3-d4\n\n[Game \"halatafl\"]\n[Event \"second\"]\n\n1. e3-e2\n";
    let (code, lines) = check(text, &[]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 2);
    assert_eq!(
        (lines[0]["index"].clone(), lines[0]["valid"].clone()),
        (Value::from(0), Value::from(true))
    );
    assert_eq!(
        (lines[1]["index"].clone(), lines[1]["valid"].clone()),
        (Value::from(1), Value::from(false))
    );
    assert_eq!(lines[1]["errors"][0]["line"], 8);
}

/// A later record of a file is read from the stream in its own text; what its messages
/// say of places counts the file's lines, as `adjudicate` does (an `Options` tag's
/// setting in an error and in a rule's note), and the text after a termination marker
/// is named by the marker, not by an offset in the record.
#[test]
fn messages_of_a_later_record_name_the_files_lines() {
    let records = "[Game \"halatafl\"]\n\n1. e3-d4 *\n\n\
                   [Game \"halatafl\"]\n[Options \"capture=bogus\"]\n\n1. e3-d4 *\n\n\
                   [Game \"halatafl\"]\n\n1. e3-d4 * 2. d4-d5\n\n";
    // Its `Options` tag is on its line 3.
    let disputed = std::fs::read_to_string(
        common::root().join("games/halatafl/disputed-missed-capture-compulsory.game"),
    )
    .unwrap();
    assert!(disputed.lines().nth(2).unwrap().starts_with("[Options"));
    let text = &format!("{records}{disputed}");
    let options_line = records.lines().count() + 3;
    let (code, lines) = check(text, &[]);
    assert_eq!(code, 1);
    let error = |i: usize| {
        lines[i]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // The place is in `line` and `column`, not again in the message.
    assert!(
        error(1).starts_with("unknown value `bogus` for `capture`"),
        "{}",
        error(1)
    );
    assert_eq!(lines[1]["errors"][0]["line"], 6);
    assert_eq!(lines[1]["errors"][0]["column"], 11);
    assert_eq!(
        error(2),
        "nothing but comments may follow the termination marker `*`"
    );
    let (code, out, _) = run_with_input(&["check", "-"], text.as_bytes());
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "(set by the record's Options tag (<stdin>:{options_line}))"
        )),
        "{out}"
    );
}

#[test]
fn header_errors() {
    let (kind, _, _) = first_error("[Event \"no game\"]\n\n1. e3-d4\n", &[]);
    assert_eq!(kind, "header");
    let (kind, _, e) = first_error("[Game \"halataf\"]\n", &[]);
    assert_eq!(kind, "header");
    assert!(e["hint"].as_str().unwrap().contains("halatafl"), "{e}");
    let (kind, _, _) = first_error("[Game \"halatafl\"]\n[Game \"halatafl\"]\n", &[]);
    assert_eq!(kind, "header");
}

#[test]
fn ruleset_tag_is_a_bare_name() {
    for bad in [
        "../rulesets/halatafl",
        "/etc/passwd",
        "sub/halatafl",
        "a\\\\b",
    ] {
        let (kind, _, _) = first_error(&format!("[Game \"halatafl\"]\n[Ruleset \"{bad}\"]\n"), &[]);
        assert_eq!(kind, "ruleset", "{bad}");
    }
    let (kind, _, e) = first_error(
        "[Game \"halatafl\"]\n[Ruleset \"halatafl-emperors\"]\n",
        &[],
    );
    assert_eq!(kind, "ruleset");
    let all = e.to_string();
    assert!(all.contains("halatafl-emperor"), "a suggestion: {all}");
}

#[test]
fn options_are_checked_with_suggestions() {
    let (kind, _, e) = first_error("[Game \"halatafl\"]\n[Options \"emprer=true\"]\n", &[]);
    assert_eq!(kind, "ruleset");
    assert!(e.to_string().contains("emperor"), "{e}");
    let (kind, _, _) = first_error(
        "[Game \"halatafl\"]\n[Options \"win=reduce-to(40)\"]\n",
        &[],
    );
    assert_eq!(kind, "ruleset");
    // --option applies too, and the record's Options tag wins over it.
    let text = "[Game \"halatafl\"]\n[Setup \"7/5m1/7/2m4/2M4/4M2/7 w -\"]\n\n1. e2-e3\n";
    valid(text, &[]);
    let (_, rule, _) = first_error(text, &["--option", "capture=compulsory"]);
    assert_eq!(rule.as_deref(), Some("compulsory-capture"));
    let with_tag = text.replace("[Setup", "[Options \"capture=compulsory-huff\"]\n[Setup");
    valid(&with_tag, &["--option", "capture=compulsory"]);
}

#[test]
fn seeds_and_commitments() {
    let commit = "2a4ee5d7e8d4e5c8ec2cc3f4e1be0b7c1d9b3b6e0ef6c7f1a1f0b0f5d5f3b1c7";
    let (kind, _, _) = first_error(
        &format!("[Game \"halatafl\"]\n[Seed \"s\"]\n[SeedCommit \"{commit}\"]\n"),
        &[],
    );
    assert_eq!(kind, "dice");
    let real = referee::dice::seed_commit("s");
    valid(
        &format!("[Game \"halatafl\"]\n[Seed \"s\"]\n[SeedCommit \"{real}\"]\n\n1. e3-d4\n"),
        &[],
    );
    // A commitment without the seed: a game in progress, fine.
    valid(
        &format!("[Game \"halatafl\"]\n[SeedCommit \"{real}\"]\n\n1. e3-d4\n"),
        &[],
    );
    let (kind, _, _) = first_error("[Game \"halatafl\"]\n[SeedCommit \"ABC\"]\n", &[]);
    assert_eq!(kind, "header");
}

#[test]
fn house_rulesets_from_a_directory_and_by_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("club.rules"),
        "ruleset club\nextends halatafl\ntitle \"Club rules\"\nset capture = compulsory\n",
    )
    .unwrap();
    let text = "[Game \"halatafl\"]\n[Ruleset \"club\"]\n[Setup \"7/5m1/7/2m4/2M4/4M2/7 w -\"]\n\n1. e2-e3\n";
    let d = dir.path().to_str().unwrap();
    let (_, rule, _) = first_error(text, &["--rulesets", d]);
    assert_eq!(rule.as_deref(), Some("compulsory-capture"));
    // The same through REFEREE_RULESETS.
    let mut cmd = referee();
    cmd.env("REFEREE_RULESETS", d).args(["rules", "club"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("capture") && shown.contains("club.rules"),
        "{shown}"
    );
    // Unknown without the directory: exit 1 with a ruleset error.
    let (kind, _, _) = first_error(text, &[]);
    assert_eq!(kind, "ruleset");
    // --ruleset FILE replaces the tag.
    let file = dir.path().join("club.rules");
    let (_, rule, _) = first_error(
        &text.replace("[Ruleset \"club\"]\n", ""),
        &["--ruleset", file.to_str().unwrap(), "--rulesets", d],
    );
    assert_eq!(rule.as_deref(), Some("compulsory-capture"));
}

/// `referee rules NAME` shows each rule's text in force under the settings (a variant,
/// `--option`) and lists its other texts by condition; `--check` checks conditions.
#[test]
fn rules_show_the_text_in_force_and_every_other_text() {
    let section = |out: &str, id: &str| -> String {
        let start = out.find(&format!("\n  {id} (")).expect(id);
        let mut lines = out[start + 1..].lines();
        let mut section = format!("{}\n", lines.next().unwrap());
        for l in lines.take_while(|l| l.starts_with("    ")) {
            section.push_str(l);
            section.push('\n');
        }
        section
    };
    let (code, out, err) = run(&["rules", "halatafl", "--option", "capture=compulsory"]);
    assert_eq!(code, 0, "{err}");
    let huff = section(&out, "huff");
    let lines: Vec<&str> = huff.lines().collect();
    assert_eq!(
        lines[0],
        "  huff (rulesets/halatafl.rules:54; in force when capture = compulsory)"
    );
    assert!(lines[1].starts_with("    There is no huffing: a turn that fails"));
    assert_eq!(
        lines[2],
        "    when capture = optional (rulesets/halatafl.rules:55):"
    );
    assert_eq!(lines[4], "    otherwise (rulesets/halatafl.rules:53):");
    assert!(lines[5].starts_with("      Right after a turn that failed to capture"));
    // The default: the plain text in force, the conditional ones listed.
    let (_, out, _) = run(&["rules", "halatafl"]);
    let huff = section(&out, "huff");
    assert!(
        huff.starts_with("  huff (rulesets/halatafl.rules:53)\n"),
        "{huff}"
    );
    assert!(huff.contains("    when capture = compulsory (rulesets/halatafl.rules:54):\n"));
    assert!(!huff.contains("otherwise"), "{huff}");
    // A rule with one text only.
    assert_eq!(section(&out, "jump").lines().count(), 2);
    // JSON: the text in force, its condition, and every text.
    let (_, json, _) = run(&["rules", "halatafl-orthogonal", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let step = v["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "step")
        .unwrap();
    assert_eq!(step["when"], "when diagonals = none");
    assert!(step["text"]
        .as_str()
        .unwrap()
        .contains("The board's diagonal lines are not used"));
    let texts = step["texts"].as_array().unwrap();
    assert_eq!(texts.len(), 6, "five conditional texts and the plain one");
    assert_eq!(texts[5]["when"], serde_json::Value::Null);

    // `rules --check` checks a house ruleset's conditions, with file, line and column.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("club.rules"),
        "ruleset club\nextends halatafl\nrule huff when capture = compulsary \"x\"\n",
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, _) = run(&["rules", "--check", "--rulesets", d]);
    assert_eq!(code, 1, "{out}");
    let file = dir.path().join("club.rules").display().to_string();
    assert!(
        out.contains(&format!(
            "{file}:3:26: unknown value `compulsary` for `capture`; expected \
             `compulsory-huff`, `compulsory` or `optional`; did you mean `compulsory`?"
        )),
        "{out}"
    );
}

/// A ruling cites the setting its rule's text was written for: under `diagonals = none`
/// the `step` text in force is the one for no diagonals, so the reason given is that
/// setting and the tag that set it, not `men`'s default.
#[test]
fn a_ruling_cites_the_setting_of_the_text_in_force() {
    let text = "[Game \"halatafl\"]\n[Options \"diagonals=none\"]\n\n1. e3-d4\n";
    let (code, out, _) = run_with_input(&["check", "-"], text.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("The board's diagonal lines are not used"),
        "{out}"
    );
    assert!(
        out.contains("it applies because diagonals = none (set by the record's Options tag"),
        "{out}"
    );
    let (code, out, _) = run_with_input(&["adjudicate", "-", "--format", "json"], text.as_bytes());
    assert_eq!(code, 1, "{out}");
    let v: Value = serde_json::from_str(&out).expect("one JSON document");
    assert_eq!(v["violation"]["setting"]["key"], "diagonals", "{out}");
    assert_eq!(v["violation"]["setting"]["value"], "none", "{out}");
    // Where the text in force is the plain one, the rule's own setting is cited.
    let text = "[Game \"halatafl\"]\n\n1. e3-e4\n";
    let (_, out, _) = run_with_input(&["check", "-"], text.as_bytes());
    assert!(
        out.contains("it applies because men = forward-sideways"),
        "{out}"
    );
}

#[test]
fn limits() {
    let text = "[Game \"halatafl\"]\n\n1. e3-d4 c5xe3xg1=K 2. c3xc5xa7=K\n";
    let (kind, _, _) = first_error(text, &["--max-turns", "2"]);
    assert_eq!(kind, "limit");
    // The size limit is per record (record.md), and its error is a `limit` one.
    let (kind, _, _) = first_error(text, &["--max-bytes", "10"]);
    assert_eq!(
        kind, "limit",
        "an oversized record is refused with a clear error"
    );
    // A limit smaller than the first tag line still quotes it, and names the game.
    let (code, out, _) = run_with_input(&["check", "--max-bytes", "10", "-"], text.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 | [Game \"halatafl\"]\n"), "{out}");
    let (_, out, _) = run_with_input(
        &["check", "--max-bytes", "10", "--format", "json", "-"],
        text.as_bytes(),
    );
    assert!(out.contains("\"game\":\"halatafl\""), "{out}");
    let two = format!("{text}\n{text}");
    let (code, out, _) = run_with_input(&["check", "--max-bytes", "60", "-"], two.as_bytes());
    assert_eq!(code, 0, "each record is within the limit: {out}");
}

#[test]
fn text_encoding() {
    // A byte-order mark and CRLF line ends are fine.
    valid("\u{feff}[Game \"halatafl\"]\r\n\r\n1. e3-d4\r\n", &[]);
    // Not UTF-8: invalid, with where.
    let (code, out, _) = run_with_input(&["check", "-"], b"[Game \"halatafl\"]\n\n1. e3-d4 \xff\n");
    assert_eq!(code, 1);
    assert!(out.contains("<stdin>:3:10"), "{out}");
}

#[test]
fn exit_codes_and_messages() {
    let (code, _, err) = run(&["check", "no/such/file.game"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.game"), "{err}");
    let (code, _, err) = run(&["play", "no-such-ruleset"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-ruleset"), "{err}");
    let (code, _, _) = run(&["check"]);
    assert_eq!(code, 2, "usage error");
    let (code, out, _) = run(&["help", "check"]);
    assert_eq!(code, 0);
    assert!(out.contains("Example"), "{out}");
    let (code, out, _) = run(&["rules", "--check"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn show_and_moves() {
    let (code, header, _) = run(&["new", "halatafl"]);
    assert_eq!(code, 0);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.game");
    std::fs::write(&p, header).unwrap();
    let p = p.to_str().unwrap();
    let (_, out, _) = run(&["moves", p]);
    assert_eq!(out, "c3-d4\nd3-d4\ne3-d4\ne4-d4\n");
    let (_, out, _) = run(&["show", p, "--format", "setup"]);
    assert_eq!(
        out.trim(),
        "1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -"
    );
    let (code, out, _) = run(&["show", p, "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<svg") && out.trim_end().ends_with("</svg>"));
    let (_, out, _) = run(&["show", p]);
    assert!(out.contains(" 4  m m m . M M M  4"), "{out}");
    let (_, out, _) = run(&["score", p, "--format", "json"]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["standings"][0]["value"], 22);
}

#[test]
fn text_before_the_first_header_is_the_first_records_error() {
    let (code, lines) = check("stray words\n[Game \"halatafl\"]\n\n1. e3-d4\n", &[]);
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 1, "one record, one report");
    assert_eq!(lines[0]["index"], 0);
    assert_eq!(lines[0]["turns"], 1);
    assert_eq!(lines[0]["errors"][0]["kind"], "syntax");
    assert_eq!(lines[0]["errors"][0]["line"], 1);
    let (code, lines) = check("no record at all\n", &[]);
    assert_eq!(code, 1);
    assert_eq!(lines[0]["game"], Value::Null);
}

// ---------------------------------------------------------------------------------
// Thaayam through the binary: the common rule ids, seats, seeds and results.

const THAAYAM: &str = "[Game \"thaayam\"]\n";

#[test]
fn thaayam_common_rule_ids() {
    // address: a square off the 5×5 board.
    let (kind, rule, e) = first_error(
        &format!("{THAAYAM}[First \"south\"]\n\n1. [1 2] enter, f1+2\n"),
        &[],
    );
    assert_eq!((kind.as_str(), rule.as_deref()), ("rule", Some("address")));
    assert_eq!(e["column"], 17);
    // A Thaayam board has squares, not points.
    assert_eq!(
        e["message"],
        "`f1` is not a square of the board: the squares are a1 to e5"
    );
    // turn-order: a seat label or number that does not fit.
    let (_, rule, _) = first_error(
        &format!("{THAAYAM}[First \"south\"]\n\n1. north: [2] -\n"),
        &[],
    );
    assert_eq!(rule.as_deref(), Some("turn-order"));
    let (_, rule, _) = first_error(
        &format!("{THAAYAM}[First \"south\"]\n\n1. [2] - 3. [2] -\n"),
        &[],
    );
    assert_eq!(rule.as_deref(), Some("turn-order"));
    // game-over: a turn after the last piece is borne off.
    let setup = "[Setup \"south: c3 off=3; north: hand=4; to-move: south\"]\n";
    let (_, rule, e) = first_error(
        &format!("{THAAYAM}{setup}\n1. south: [1 2] off 2. north: [2] -\n"),
        &[],
    );
    assert_eq!(rule.as_deref(), Some("game-over"));
    assert_eq!(e["turn"], 2);
    let v = valid(
        &format!("{THAAYAM}{setup}[Result \"south\"]\n\n1. south: [1 2] off\n"),
        &[],
    );
    assert_eq!(v["status"]["winners"][0], "south");
    // setup: a square that does not exist in the setup.
    let (kind, rule, _) = first_error(
        &format!("{THAAYAM}[Setup \"south: f1; to-move: south\"]\n\n"),
        &[],
    );
    assert_eq!((kind.as_str(), rule.as_deref()), ("setup", Some("setup")));
}

/// A spinner's 0 (or no mouth up) counts 8 and is written 8: a written 0 says so.
#[test]
fn thaayam_a_written_zero_is_told_to_write_eight() {
    let (_, rule, e) = first_error(
        "[Game \"thaayam\"]\n[Ruleset \"thaayam-spinner\"]\n[First \"south\"]\n\n1. [0 2] -\n",
        &[],
    );
    assert_eq!(rule.as_deref(), Some("throws"));
    assert_eq!(
        e["message"],
        "a throw is never written 0: no mouth up (a spinner's 0) counts 8, so write 8"
    );
    valid(
        "[Game \"thaayam\"]\n[Ruleset \"thaayam-spinner\"]\n[First \"south\"]\n\n1. [8 2] -\n",
        &[],
    );
}

/// Without a seed a turn without its throws is refused; the hint is a whole turn the
/// seat to move could play (north enters on its own palace, c5).
#[test]
fn thaayam_a_turn_without_throws_gets_a_turn_of_its_seat() {
    let (_, rule, e) = first_error(
        "[Game \"thaayam\"]\n[First \"north\"]\n\n1. enter, c5+2\n",
        &[],
    );
    assert_eq!(rule.as_deref(), Some("throws"));
    assert_eq!(e["hint"], "for example `[1 4 2] enter, c5+4+2`", "{e}");
}

#[test]
fn thaayam_seats_tag_and_resignations() {
    // Three seats listed in any order play clockwise: south, north, east.
    let text = format!(
        "{THAAYAM}[Seats \"east north south\"]\n[First \"south\"]\n\n\
         1. south: [2] - 2. north: [3] - 3. east: [2] - 4. south: resign 5. north: resign\n"
    );
    let v = valid(&text, &[]);
    assert_eq!(v["status"]["winners"][0], "east");
    assert_eq!(v["status"]["reason"], "resignation");
    let (kind, _, _) = first_error(
        &format!("{THAAYAM}[Seats \"south up\"]\n[First \"south\"]\n\n1. [2] -\n"),
        &[],
    );
    assert_eq!(kind, "ruleset");
}

#[test]
fn thaayam_seed_drives_throws_and_first() {
    // thaayam-1: south throws 2, north 3: north starts with [2].
    let v = valid(
        &format!("{THAAYAM}[Seed \"thaayam-1\"]\n\n1. north: [2] -\n"),
        &[],
    );
    assert_eq!(
        (v["turns"].clone(), v["status"]["over"].clone()),
        (1.into(), false.into())
    );
    let (kind, _, e) = first_error(
        &format!("{THAAYAM}[Seed \"thaayam-1\"]\n\n1. north: [3] -\n"),
        &[],
    );
    assert_eq!(kind, "dice");
    assert!(e["message"].as_str().unwrap().contains("[2]"), "{e}");
    let (_, rule, _) = first_error(
        &format!("{THAAYAM}[Seed \"thaayam-1\"]\n[First \"south\"]\n\n1. south: [2] -\n"),
        &[],
    );
    assert_eq!(rule.as_deref(), Some("first"));
    // Without a seed the series must be written and possible.
    let (_, rule, _) = first_error(&format!("{THAAYAM}[First \"south\"]\n\n1. -\n"), &[]);
    assert_eq!(rule.as_deref(), Some("throws"));
    let (_, rule, _) = first_error(&format!("{THAAYAM}[First \"south\"]\n\n1. [2 1] -\n"), &[]);
    assert_eq!(rule.as_deref(), Some("throws"));
    // A declared result the replay contradicts.
    let (kind, _, _) = first_error(
        &format!("{THAAYAM}[First \"south\"]\n[Result \"north\"]\n\n1. [2] -\n"),
        &[],
    );
    assert_eq!(kind, "result");
}

#[test]
fn records_far_into_a_large_stream_point_at_their_lines_in_order() {
    // Many records, read and judged in batches on every core: the output keeps input
    // order and each diagnostic names the line of the whole input.
    let valid = "[Game \"halatafl\"]\n\n1. e3-d4\n\n";
    let mut text = valid.repeat(20_000);
    text.push_str("[Game \"halatafl\"]\n[Event \"last\"]\n\n1. e3-e2\n");
    let (code, out, _) = run_with_input(&["check", "-"], text.as_bytes());
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "<stdin> (record 1): valid, 1 turn, black to move");
    assert_eq!(
        lines[19_999],
        "<stdin> (record 20000): valid, 1 turn, black to move"
    );
    assert_eq!(lines[20_000], "<stdin> (record 20001): invalid");
    assert!(
        out.contains("<stdin>:80004:4"),
        "{}",
        &out[out.len() - 600..]
    );
}

/// `--turn` names a position by how many turns were played, or by the turn as the
/// record numbers it (`2...`: after black's move 2 in Halatafl), for every command
/// that takes it (issue 22).
#[test]
fn turn_as_the_record_numbers_it() {
    let file = "games/halatafl/opening.game";
    let (_, by_index, _) = run(&["show", file, "--turn", "4", "--format", "json"]);
    let (code, by_number, err) = run(&["show", file, "--turn", "2...", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(by_number, by_index);
    let (_, white, _) = run(&["show", file, "--turn", "3.", "--format", "json"]);
    let (_, five, _) = run(&["show", file, "--turn", "5", "--format", "json"]);
    assert_eq!(white, five);
    let (code, ruling, _) = run(&["adjudicate", file, "--turn", "2...", "--color", "never"]);
    assert_eq!(code, 0);
    assert!(ruling.contains("Position before move 2, black"), "{ruling}");
    let (code, _, err) = run(&["moves", file, "--turn", "9..."]);
    assert_eq!(code, 2);
    assert!(err.contains("no turn numbered 9..."), "{err}");
    let (code, _, err) = run(&["show", file, "--turn", "2.."]);
    assert_eq!(code, 2, "{err}");
}

/// The dealer's way of `referee guide records`: a Thaayam record handed out with its
/// `SeedCommit` only, and the `First` tag the seed's starting throws give, replays the
/// same game before the seed is revealed and after.
#[test]
fn a_record_dealt_under_a_commitment_names_the_first_seat() {
    let seeded = std::fs::read_to_string(common::root().join("games/thaayam/four-seats.game"))
        .expect("the example");
    let (seed_line, seed) = seeded
        .lines()
        .find_map(|l| Some((l, l.strip_prefix("[Seed \"")?.strip_suffix("\"]")?)))
        .expect("a Seed tag");
    let dealt = seeded.replace(&format!("{seed_line}\n"), "");
    // The seed names another first seat than the one a record without it starts with.
    let (_, status, _) = run_with_input(
        &[
            "play", "thaayam", "--seats", "south", "west", "north", "east", "--seed", seed,
        ],
        b":status\n",
    );
    let first = status
        .trim()
        .rsplit(": ")
        .next()
        .unwrap()
        .trim_end_matches(" to move");
    assert_ne!(first, "south", "{status}");
    assert_eq!(
        check(&dealt, &[]).0,
        1,
        "without First the turns fall to other seats"
    );
    let dealt = dealt.replace("[SeedCommit", &format!("[First \"{first}\"]\n[SeedCommit"));
    assert_eq!(check(&dealt, &[]).0, 0, "{dealt}");
    let revealed = dealt.replace("[SeedCommit", &format!("{seed_line}\n[SeedCommit"));
    let (code, lines) = check(&revealed, &[]);
    assert_eq!(code, 0, "{lines:?}");
}

/// A start refused cites its rule with the rule's text, as a refused turn does: the
/// setup string's rule (a malformed `Setup`) and a rule the start checks (Thaayam's
/// `First` naming no seat that plays).
#[test]
fn a_refused_start_quotes_its_rule() {
    let bad_setup = "[Game \"halatafl\"]\n[Setup \"7/7/7/7/7/7/8 w -\"]\n\n1. e3-d4\n";
    let (code, out, err) = run_with_input(&["check", "-"], bad_setup.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("error[setup]"), "{out}");
    assert!(
        out.contains("= rule setup: A `Setup` tag must give a Halatafl position"),
        "{out}"
    );
    let bad_first = "[Game \"thaayam\"]\n[First \"west\"]\n\n1. [1] enter\n";
    let (code, out, err) = run_with_input(&["check", "-"], bad_first.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("= rule "), "{out}");
}
