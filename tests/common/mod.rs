//! Helpers shared by the integration tests: run the built `referee` binary.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn referee() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_referee"));
    c.current_dir(root());
    c.env_remove("REFEREE_RULESETS");
    c.env("NO_COLOR", "1");
    c
}

/// A fresh, empty directory `target/tmp/AREA/NAME`, for a test that leaves its files to
/// be looked at.
pub fn scratch(area: &str, name: &str) -> PathBuf {
    let dir = root().join("target").join("tmp").join(area).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs referee with arguments; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = referee().args(args).output().expect("referee runs");
    decode(out)
}

/// Runs referee with `input` on stdin.
pub fn run_with_input(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = referee()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("referee runs");
    // Fed from a thread while the output is read: `check` streams, so it writes
    // output before it has read all its input, and a full pipe each way would block.
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        // A closed pipe (the referee stopped reading) is fine here.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("referee ends");
    feeder.join().expect("the feeder ends");
    decode(out)
}

fn decode(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The example records of a game, sorted.
pub fn examples(game: &str) -> Vec<PathBuf> {
    let dir = root().join("games").join(game);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("games folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files
}

/// A path relative to the crate root, with forward slashes (stable in snapshots).
pub fn rel(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// A `referee play` session driven one line at a time: each answer arrives before the
/// next line is sent.
pub struct Bot {
    pub child: std::process::Child,
    pub stdin: std::process::ChildStdin,
    pub stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Bot {
    pub fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Bot {
        let mut child = referee()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("referee play starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        Bot {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line and reads exactly one answer line, which must be JSON.
    pub fn send(&mut self, line: &str) -> serde_json::Value {
        use std::io::BufRead;
        writeln!(self.stdin, "{line}").expect("the session reads");
        self.stdin.flush().expect("the session reads");
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .expect("the session answers");
        serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("not one JSON line: {answer:?}: {e}"))
    }

    /// Ends the session with `:quit`, which must answer ok and exit 0.
    pub fn quit(mut self) {
        assert_eq!(self.send(":quit")["ok"], true);
        assert_eq!(self.child.wait().expect("the session ends").code(), Some(0));
    }
}
