//! `play --record` killed with SIGKILL at random moments (issue 9, "Crashes"): after
//! every kill the record replays valid and holds every turn that was answered `ok` —
//! and at most the one command that was sent but not answered — and the next session
//! resumes it.
//!
//! Seeded, so a failure reproduces: `REFEREE_CRASH_SEED=S` (default 1) and
//! `REFEREE_CRASH_SESSIONS=N` (default 30) for a longer run.
#![cfg(unix)]

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use common::{referee, run};
use serde_json::Value;

/// SplitMix64: a small seeded generator, so every session's choices and kill time
/// reproduce from the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The turns of a record `play` wrote, one a line after the header, without numbers.
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

/// The command sent and not (yet) answered when the session died.
#[derive(Clone, Debug)]
enum InFlight {
    Nothing,
    Turn(String),
    Undo,
}

#[derive(Default, Debug)]
struct Tally {
    sessions: u64,
    killed: u64,
    games_finished: u64,
    turns_answered: u64,
    undos_answered: u64,
    /// Kills after a turn was written and before its answer was read.
    written_unanswered: u64,
    /// Kills before the record file first existed.
    before_the_file: u64,
}

/// One session on `path`, killed after `delay` unless the game ends first. `turns` is
/// what the record held before it, and becomes what it holds after.
fn session(path: &Path, rng: &mut Rng, delay: Duration, turns: &mut Vec<String>, t: &mut Tally) {
    let mut child = referee()
        .args(["play", "halatafl", "--format", "json", "--record"])
        .arg(path)
        // A lock a killed session left would make the next one fail in 5 s, not hang.
        .env("REFEREE_LOCK_WAIT", "5")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("referee play starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let (done, stop) = mpsc::channel::<()>();
    let (decided, kill_decided) = mpsc::channel::<()>();
    let killer = std::thread::spawn(move || {
        let killed = stop.recv_timeout(delay).is_err();
        if killed {
            child.kill().expect("SIGKILL");
        }
        let _ = decided.send(());
        let status = child.wait().unwrap();
        let mut err = String::new();
        stderr.read_to_string(&mut err).unwrap();
        (killed, status, err)
    });

    let mut answered = turns.clone();
    let mut in_flight = InFlight::Nothing;
    let mut over = false;
    let mut first = true;
    loop {
        let (line, sent) = if first {
            (":status".to_string(), InFlight::Nothing)
        } else {
            // Ask for the legal turns, then play one of them or take one back.
            match ask(&mut stdin, &mut stdout, ":moves") {
                None => break,
                Some(a) => {
                    let legal: Vec<String> = a["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap().to_string())
                        .collect();
                    if legal.is_empty() {
                        over = true;
                        break;
                    }
                    if !answered.is_empty() && rng.below(8) == 0 {
                        (":undo".to_string(), InFlight::Undo)
                    } else {
                        let turn = legal[rng.below(legal.len() as u64) as usize].clone();
                        (turn.clone(), InFlight::Turn(turn))
                    }
                }
            }
        };
        in_flight = sent.clone();
        let Some(a) = ask(&mut stdin, &mut stdout, &line) else {
            break;
        };
        assert_eq!(a["ok"], true, "`{line}` answered {a}");
        match sent {
            InFlight::Nothing => {
                // The session resumed the record as it was.
                assert_eq!(a["turn"], answered.len(), "resumed at the record's end");
                first = false;
            }
            InFlight::Turn(turn) => {
                answered.push(turn);
                t.turns_answered += 1;
            }
            InFlight::Undo => {
                answered.pop();
                t.undos_answered += 1;
            }
        }
        in_flight = InFlight::Nothing;
    }
    // The session ends at end of input, so stdin stays open until the timer has stopped
    // or its kill has landed: a kill after the end would find a process that had already
    // exited with 0.
    if over {
        let _ = done.send(());
    }
    let _ = kill_decided.recv();
    drop(stdin);
    let (killed, status, err) = killer.join().unwrap();
    t.sessions += 1;
    if killed {
        t.killed += 1;
        assert_eq!(status.signal(), Some(9), "killed, not ended: {err}");
    } else {
        assert_eq!(status.code(), Some(0), "a finished game ends with 0: {err}");
        t.games_finished += 1;
    }

    if !path.exists() {
        assert!(answered.is_empty(), "the record vanished: {answered:?}");
        t.before_the_file += 1;
        turns.clear();
        return;
    }
    let (code, out, err) = run(&["check", path.to_str().unwrap()]);
    assert_eq!(
        code, 0,
        "the record replays valid after the kill: {out}{err}"
    );
    let on_disk = turns_of(&std::fs::read_to_string(path).unwrap());
    let mut allowed = vec![answered.clone()];
    match &in_flight {
        InFlight::Nothing => {}
        InFlight::Turn(turn) => allowed.push([&answered[..], std::slice::from_ref(turn)].concat()),
        InFlight::Undo => allowed.push(answered[..answered.len() - 1].to_vec()),
    }
    assert!(
        allowed.contains(&on_disk),
        "the record holds every answered turn, and at most the unanswered {in_flight:?}: \
         on disk {on_disk:?}, answered {answered:?}"
    );
    if matches!(in_flight, InFlight::Turn(_)) && on_disk.len() > answered.len() {
        t.written_unanswered += 1;
    }
    *turns = on_disk;
}

/// Sends a line and reads its answer; `None` once the session is dead.
fn ask(
    stdin: &mut std::process::ChildStdin,
    stdout: &mut BufReader<std::process::ChildStdout>,
    line: &str,
) -> Option<Value> {
    writeln!(stdin, "{line}").ok()?;
    stdin.flush().ok()?;
    let mut answer = String::new();
    match stdout.read_line(&mut answer) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(
            serde_json::from_str(&answer)
                .unwrap_or_else(|e| panic!("one JSON line: {answer:?}: {e}")),
        ),
    }
}

#[test]
fn sigkilled_play_sessions_lose_no_answered_turn() {
    let seed = env_number("REFEREE_CRASH_SEED", 1);
    let sessions = env_number("REFEREE_CRASH_SESSIONS", 30);
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let mut game = 0;
    let mut path = dir.path().join("game-0.game");
    let mut turns = Vec::new();
    let mut tally = Tally::default();
    for n in 0..sessions {
        // Mostly within a few hundred turns' time; one in four within the start-up, when
        // the record is being created or resumed.
        let delay = if rng.below(4) == 0 {
            rng.below(15)
        } else {
            rng.below(300)
        };
        let before = tally.games_finished;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            session(
                &path,
                &mut rng,
                Duration::from_millis(delay),
                &mut turns,
                &mut tally,
            )
        }));
        if let Err(e) = result {
            eprintln!("failed in session {n} (REFEREE_CRASH_SEED={seed}, killed after {delay} ms)");
            std::panic::resume_unwind(e);
        }
        if tally.games_finished > before {
            game += 1;
            path = dir.path().join(format!("game-{game}.game"));
            turns.clear();
        }
    }
    eprintln!("seed {seed}: {tally:?}");
    assert_eq!(tally.sessions, sessions);
    assert!(tally.turns_answered > 0 && tally.killed > 0, "{tally:?}");
}
