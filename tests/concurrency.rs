//! Concurrent writers of one record (issue 9): many `move` processes started together,
//! and `move` against a record a `play --record` session holds.
//!
//! `REFEREE_TEST_TRIALS=N` runs N trials of each concurrent test instead of a few, and
//! `REFEREE_TEST_WRITERS=N` starts N processes a trial instead of 12 (at most 16).

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use common::{referee, run, Bot};
use serde_json::Value;

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn trials(default: usize) -> usize {
    env_number("REFEREE_TEST_TRIALS", default)
}

/// Processes started together in each trial.
fn writers() -> usize {
    env_number("REFEREE_TEST_WRITERS", 12).clamp(2, 16)
}

/// What one `move` process did.
struct Outcome {
    turn: String,
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `referee move FILE TURN [--expect N]` for every turn at once: each process is
/// spawned by its own thread, all released together by a barrier.
fn race(path: &Path, turns: &[String], expect: Option<usize>) -> Vec<Outcome> {
    let barrier = Arc::new(Barrier::new(turns.len()));
    let threads: Vec<_> = turns
        .iter()
        .map(|turn| {
            let barrier = Arc::clone(&barrier);
            let path = path.to_path_buf();
            let turn = turn.clone();
            std::thread::spawn(move || {
                let mut cmd = referee();
                cmd.arg("move").arg(&path).arg(&turn);
                if let Some(n) = expect {
                    cmd.args(["--expect", &n.to_string()]);
                }
                barrier.wait();
                let out = cmd.output().expect("referee runs");
                Outcome {
                    turn,
                    code: out.status.code().unwrap_or(-1),
                    stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                    stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                }
            })
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// The turns of a record written by `move`/`play`, one a line after the header, without
/// their numbers.
fn turns_of(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
        .map(|l| {
            let (number, turn) = l.split_once(' ').expect("`N. turn`");
            assert!(number.ends_with('.'), "one numbered turn a line: {l:?}");
            turn.to_string()
        })
        .collect()
}

fn moves(path: &Path) -> Vec<String> {
    let (code, out, err) = run(&["moves", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    out.lines().map(str::to_string).collect()
}

fn assert_valid(path: &Path) {
    let (code, out, err) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "the record replays valid: {out}{err}");
}

/// Only the record is left in its folder: no temporary file survives a `move`.
fn assert_alone(path: &Path) {
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, [path.file_name().unwrap()], "left behind: {names:?}");
}

fn new_record(dir: &Path, turns: &[&str]) -> PathBuf {
    let (code, header, _) = run(&["new", "halatafl"]);
    assert_eq!(code, 0);
    let path = dir.join("game.game");
    let mut text = header;
    for (i, t) in turns.iter().enumerate() {
        let n = i / 2 + 1;
        let dots = if i % 2 == 0 { "." } else { "..." };
        text.push_str(&format!("{n}{dots} {t}\n"));
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn concurrent_moves_with_expect_have_exactly_one_winner() {
    let dir = tempfile::tempdir().unwrap();
    let mut slowest = Duration::ZERO;
    let trials = trials(4);
    for trial in 0..trials {
        let path = new_record(dir.path(), &["e3-d4"]);
        let before = std::fs::read_to_string(&path).unwrap();
        let legal = moves(&path);
        assert!(legal.len() >= 2, "{legal:?}");
        // Several processes for each legal turn: duplicates race each other too.
        let turns: Vec<String> = (0..writers())
            .map(|i| legal[i % legal.len()].clone())
            .collect();
        let started = Instant::now();
        let outcomes = race(&path, &turns, Some(2));
        slowest = slowest.max(started.elapsed());
        let winners: Vec<&Outcome> = outcomes.iter().filter(|o| o.code == 0).collect();
        assert_eq!(
            winners.len(),
            1,
            "trial {trial}: exactly one writer wins turn 2: {:?}",
            outcomes
                .iter()
                .map(|o| (&o.turn, o.code, &o.stdout, &o.stderr))
                .collect::<Vec<_>>()
        );
        for o in outcomes.iter().filter(|o| o.code != 0) {
            assert_eq!(o.code, 1, "a loser exits 1: {} {}", o.stdout, o.stderr);
            assert!(
                o.stdout
                    .starts_with("refused (turn-order): the turn would be turn 3, not 2"),
                "a loser says why: {}",
                o.stdout
            );
            assert_eq!(o.stderr, "");
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{before}1... {}\n", winners[0].turn));
        assert_eq!(turns_of(&text), ["e3-d4", winners[0].turn.as_str()]);
        assert_valid(&path);
        assert_alone(&path);
    }
    eprintln!(
        "{trials} trials of {} writers: one winner each; slowest trial {slowest:?}",
        writers()
    );
}

/// The first 38 turns of a selfplay game (`selfplay halatafl --seed a`): white to move
/// with 17 legal turns, and a dozen of black's turns legal after any of them.
const MIDGAME: &str = "c3-d4 e5xc3 huff_c3_e3-d4 c5xe3xg1=K b2-c3 d5-c5 huff_b4_d3-d4 f6-e5 \
    huff_c5_b3-b4 huff_f4_g6-f6 huff_e5_g4xg6 b6-c5 d4xb6 c4-d4 huff_b5_c3-b3 huff_b3_a4xc4 \
    f3-e3 a5-b5 c2-c3 d4-d3 huff_c4_a2-b2 b5-b4 a3-a4 huff_d2_b4-b3 huff_d3_c1-c2 \
    huff_b2_b7xb5 e2-f2 huff_c3_c6-c5 g3-f3 e6-e5 huff_g1_a4-b4 f5-g5 b1-b2 huff_e4_b3xb1 \
    g6xe6 huff_e6_g5-f5 huff_b5_e1-e2 d6-e6";

#[test]
fn concurrent_moves_without_expect_lose_no_turn() {
    let dir = tempfile::tempdir().unwrap();
    let start: Vec<String> = MIDGAME
        .split_whitespace()
        .map(|t| t.replace('_', " "))
        .collect();
    let start: Vec<&str> = start.iter().map(String::as_str).collect();
    // Half the writers send white turns, half black turns legal after any white one, so
    // that several writers in turn can win.
    let path = new_record(dir.path(), &start);
    let half = writers() / 2;
    let white: Vec<String> = moves(&path).into_iter().take(half).collect();
    let mut black: Option<BTreeSet<String>> = None;
    for w in &white {
        let after = new_record(dir.path(), &[&start[..], &[w.as_str()]].concat());
        let legal: BTreeSet<String> = moves(&after).into_iter().collect();
        black = Some(match black {
            None => legal,
            Some(b) => b.intersection(&legal).cloned().collect(),
        });
    }
    let black: Vec<String> = black.unwrap().into_iter().take(half).collect();
    assert_eq!(black.len(), half, "{black:?}");
    let racers: Vec<String> = white.iter().chain(&black).cloned().collect();

    // How many trials had 0, 1, 2, … winners.
    let mut winners_seen = vec![0usize; racers.len() + 1];
    let trials = trials(4);
    for trial in 0..trials {
        let path = new_record(dir.path(), &start);
        let outcomes = race(&path, &racers, None);
        let text = std::fs::read_to_string(&path).unwrap();
        let all = turns_of(&text);
        assert_eq!(all[..start.len()], start[..], "the old turns are kept");
        let added = &all[start.len()..];
        let winners: Vec<&str> = outcomes
            .iter()
            .filter(|o| o.code == 0)
            .map(|o| o.turn.as_str())
            .collect();
        // Every writer told "ok" finds its turn in the file, and only those turns are.
        let mut sorted_added: Vec<&str> = added.iter().map(String::as_str).collect();
        sorted_added.sort_unstable();
        let mut sorted_winners = winners.clone();
        sorted_winners.sort_unstable();
        assert_eq!(
            sorted_added, sorted_winners,
            "trial {trial}: the file holds exactly the winners' turns"
        );
        for o in &outcomes {
            if o.code == 0 {
                assert!(o.stdout.contains("accepted"), "{}", o.stdout);
            } else {
                assert_eq!(o.code, 1, "a loser exits 1: {} {}", o.stdout, o.stderr);
                assert!(o.stdout.starts_with("refused"), "{}", o.stdout);
                assert_eq!(o.stderr, "");
            }
        }
        assert_valid(&path);
        winners_seen[winners.len()] += 1;
    }
    eprintln!(
        "{trials} trials of {} writers: trials by number of winners {winners_seen:?}",
        2 * half
    );
    let most = winners_seen.iter().rposition(|&n| n > 0).unwrap();
    // With six white and six black writers, some trial has more than one winner unless
    // every black writer came first each time (about 1 in 900 per trial).
    assert!(most >= 2, "more than one writer won in some trial");
}

/// A `play` session driven line by line.
/// `play halatafl --format json --record FILE`.
fn play_args(record: &Path) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = ["play", "halatafl", "--format", "json", "--record"]
        .iter()
        .map(Into::into)
        .collect();
    args.push(record.into());
    args
}

fn move_with_wait(path: &Path, turn: &str, wait: &str) -> std::process::Command {
    let mut cmd = referee();
    cmd.arg("move")
        .arg(path)
        .arg(turn)
        .env("REFEREE_LOCK_WAIT", wait);
    cmd
}

fn output(mut cmd: std::process::Command) -> (i32, String, String) {
    let out = cmd.output().expect("referee runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn move_against_a_play_session_waits_then_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.game");
    let mut bot = Bot::start(&play_args(&path));
    assert_eq!(bot.send("e3-d4")["ok"], true);
    let before = std::fs::read_to_string(&path).unwrap();

    let started = Instant::now();
    let (code, out, err) = output(move_with_wait(&path, "c5xe3", "0.3"));
    let waited = started.elapsed();
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("refused: ")
            && out.contains("is held by another referee")
            && out.contains("after 300ms"),
        "{out}"
    );
    assert!(out.contains("REFEREE_LOCK_WAIT"), "{out}");
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    let (code, out, _) = output({
        let mut c = move_with_wait(&path, "c5xe3", "0.3");
        c.args(["--format", "json"]);
        c
    });
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("is held by another referee"));

    // A second session cannot take the record either; that is a usage error (exit 2).
    let second = referee()
        .args(["play", "halatafl", "--record"])
        .arg(&path)
        .env("REFEREE_LOCK_WAIT", "0.2")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(err.contains("is held by another referee"), "{err}");
    assert!(second.stdout.is_empty());

    // The session goes on, and once it ends the record is free.
    assert_eq!(bot.send("c5xe3")["turn"], 2);
    bot.quit();
    let (code, out, err) = output(move_with_wait(&path, "d3-d4", "0.3"));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        turns_of(&std::fs::read_to_string(&path).unwrap()),
        ["e3-d4", "c5xe3", "d3-d4"]
    );
    assert_valid(&path);

    let (code, _, err) = output(move_with_wait(&path, "c5-c4", "soon"));
    assert_eq!(code, 2);
    assert!(
        err.contains("REFEREE_LOCK_WAIT takes a number of seconds"),
        "{err}"
    );
}

/// A `move` waiting for a session that rewrites the record (`:undo` renames a new file
/// over it) must not trust its lock on the old file: it reads and writes the new one.
#[test]
fn a_waiting_move_follows_the_record_renamed_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.game");
    let mut bot = Bot::start(&play_args(&path));
    assert_eq!(bot.send("e3-d4")["ok"], true);
    assert_eq!(bot.send("c5xe3")["ok"], true);
    // The mover waits on the file holding two turns, for turn 2.
    let mut mover = move_with_wait(&path, "e5xe3", "20");
    mover.args(["--expect", "2"]);
    mover.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mover = mover.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(700));
    // Undo renames a one-turn record over the file the mover waits on, which is then
    // released; the session still holds the new file until it quits.
    assert_eq!(bot.send(":undo")["ok"], true);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        turns_of(&std::fs::read_to_string(&path).unwrap()),
        ["e3-d4"],
        "the mover did not write while the session held the record"
    );
    bot.quit();
    let out = mover.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.starts_with("turn 2 accepted: 1... e5xe3"),
        "{stdout}"
    );
    assert_eq!(
        turns_of(&std::fs::read_to_string(&path).unwrap()),
        ["e3-d4", "e5xe3"]
    );
    assert_valid(&path);
    assert_alone(&path);
}

#[cfg(unix)]
#[test]
fn records_keep_their_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // `move` keeps the record's mode.
    let path = new_record(dir.path(), &[]);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, out, _) = run(&["move", path.to_str().unwrap(), "e3-d4"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(mode(&path), 0o640);
    // `play --record` creates a record as any new file is made (the umask applies),
    // and `:undo` keeps its mode.
    let plain = dir.path().join("plain");
    std::fs::write(&plain, "").unwrap();
    let fresh = dir.path().join("fresh.game");
    let mut bot = Bot::start(&play_args(&fresh));
    assert_eq!(bot.send(":status")["turn"], 0);
    assert_eq!(mode(&fresh), mode(&plain));
    std::fs::set_permissions(&fresh, std::fs::Permissions::from_mode(0o604)).unwrap();
    assert_eq!(bot.send("e3-d4")["ok"], true);
    assert_eq!(bot.send(":undo")["ok"], true);
    assert_eq!(mode(&fresh), 0o604);
    bot.quit();
}
