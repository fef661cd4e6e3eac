//! `referee play` driven as a child process through a scripted session, one line at a
//! time (each answer must arrive before the next line is sent), and `move --expect`.

use crate::common;

use std::process::Stdio;

use common::{referee, run, Bot};
use serde_json::Value;

#[test]
fn scripted_session() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("game.game");
    let record_s = record.to_str().unwrap();
    let mut bot = Bot::start(&["play", "halatafl", "--format", "json", "--record", record_s]);

    let status = bot.send(":status");
    assert_eq!(status["ok"], true);
    assert_eq!(status["next"], "white");
    // `turn` counts the turns played, in every answer; `next_turn` numbers the next.
    assert_eq!(status["turn"], 0);
    assert_eq!(status["next_turn"], 1);

    let moves = bot.send(":moves");
    assert_eq!(
        moves["moves"],
        serde_json::json!(["c3-d4", "d3-d4", "e3-d4", "e4-d4"])
    );

    let a = bot.send("e3-d4");
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["turn"], 1);
    assert_eq!(a["next"], "black");
    assert_eq!(a["status"]["over"], false);
    // Flushed to the record before the answer.
    let on_disk = std::fs::read_to_string(&record).unwrap();
    assert!(on_disk.contains("1. e3-d4"), "{on_disk}");

    // White moving again is refused, the game unchanged.
    let r = bot.send("d3-d2");
    assert_eq!(r["ok"], false);
    assert!(r["error"]["message"].as_str().unwrap().len() > 5);

    let r = bot.send("nonsense!!");
    assert_eq!(r["ok"], false);

    let r = bot.send(":frobnicate");
    assert_eq!(r["ok"], false);

    let show = bot.send(":show");
    assert_eq!(show["ok"], true);
    assert!(show["setup"].as_str().unwrap().ends_with(" b -"), "{show}");

    let undo = bot.send(":undo");
    assert_eq!(undo["ok"], true);
    assert_eq!(undo["next"], "white");
    let on_disk = std::fs::read_to_string(&record).unwrap();
    assert!(
        !on_disk.contains("e3-d4"),
        "undo rewrites the record: {on_disk}"
    );

    let a = bot.send("1. c3-d4");
    assert_eq!(a["ok"], true, "{a}");
    let rec = bot.send(":record");
    assert!(rec["record"].as_str().unwrap().contains("1. c3-d4"));

    let q = bot.send(":quit");
    assert_eq!(q["ok"], true);
    let status = bot.child.wait().unwrap();
    assert_eq!(status.code(), Some(0));

    // Resume: the record file is replayed and play continues from it.
    let mut bot = Bot::start(&["play", "halatafl", "--format", "json", "--record", record_s]);
    let s = bot.send(":status");
    assert_eq!(s["next"], "black");
    assert_eq!(s["turn"], 1);
    assert_eq!(s["next_turn"], 2);
    drop(bot.stdin);
    assert_eq!(
        bot.child.wait().unwrap().code(),
        Some(0),
        "end of input ends with 0"
    );

    let (code, out, _) = run(&["check", record_s]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn move_with_expect() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mail.game");
    let p = path.to_str().unwrap();
    let (code, header, _) = run(&["new", "halatafl"]);
    assert_eq!(code, 0);
    std::fs::write(&path, header).unwrap();

    let (code, out, _) = run(&["move", p, "e3-d4", "--expect", "1"]);
    assert_eq!(code, 0, "{out}");
    // A move sent against a stale record is refused and nothing is written.
    let before = std::fs::read_to_string(&path).unwrap();
    let (code, out, _) = run(&["move", p, "c5xe3", "--expect", "1"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("turn 2"), "{out}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    // An illegal move is refused with its rule.
    let (code, out, _) = run(&["move", p, "c5-c6", "--expect", "2", "--format", "json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["rule"], "step");
    let (code, out, _) = run(&["move", p, "c5xe3", "--expect", "2"]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("1. e3-d4\n1... c5xe3\n"), "{text}");
    let (code, out, _) = run(&["check", p]);
    assert_eq!(code, 0, "{out}");
    // No temporary files left behind.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn broken_pipe_is_not_an_error() {
    let mut child = referee()
        .args(["selfplay", "halatafl", "--games", "200"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = [0u8; 16];
    use std::io::Read;
    stdout.read_exact(&mut buf).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A line far over the turn limit is answered by its length and the session goes on;
/// the line is not held whole (the memory bound itself is measured by hand, see
/// docs/reliability.md).
#[test]
fn an_overlong_line_is_refused_and_the_session_goes_on() {
    let mut bot = Bot::start(&["play", "halatafl", "--format", "json"]);
    let long = "e".repeat(3 << 20);
    let r = bot.send(&long);
    assert_eq!(r["ok"], false, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("a line of 3145728 bytes is over the limit of 66560 bytes"),
        "{message}"
    );
    let a = bot.send("e3-d4");
    assert_eq!(a["ok"], true, "{a}");
    assert_eq!(a["turn"], 1);
}

/// `:help` answers with the `:commands` and how to write a turn of the game, in one
/// line; the game is unchanged.
#[test]
fn help_lists_the_commands_and_how_to_write_a_turn() {
    let mut bot = Bot::start(&["play", "halatafl", "--format", "json"]);
    let h = bot.send(":help");
    assert_eq!(h["ok"], true, "{h}");
    for c in [
        ":help", ":show", ":moves", ":undo", ":record", ":status", ":quit",
    ] {
        assert!(h["commands"][c].is_string(), "{c} missing: {h}");
    }
    assert!(h["notation"].as_str().unwrap().contains("e3-d4"), "{h}");
    assert_eq!(h["example"], "c3-d4");
    assert_eq!(h["guide"], "referee guide halatafl");
    let a = bot.send("e3-d4");
    assert_eq!(a["turn"], 1, "{a}");

    let (code, out, _) = common::run_with_input(&["play", "thaayam"], b":help\n");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "one answer a line: {out}");
    assert!(
        out.contains(":moves") && out.contains("enter, c1+4+2"),
        "{out}"
    );
    assert!(out.contains("referee guide thaayam"), "{out}");
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_session_goes_on() {
    let (code, out, err) = common::run_with_input(
        &["play", "halatafl", "--format", "json"],
        b"e3\xff-d4\n:status\n",
    );
    assert_eq!(code, 0, "{err}");
    let answers: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON answer a line"))
        .collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert_eq!(answers[0]["ok"], false);
    assert_eq!(
        answers[0]["error"]["message"],
        "the line is not UTF-8 text: byte 3 (0xff) is not a character"
    );
    assert_eq!(answers[1]["ok"], true);
    assert_eq!(answers[1]["turn"], 0);
}
