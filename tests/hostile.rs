//! Hostile input (issue 9): huge lines, tags and names are answered with short
//! diagnostics that still point at the right line and column, in text and JSON, from
//! `check`, `adjudicate`, `move` and `play`. Ruleset names and bytes: `hostile_paths.rs`
//! and `hostile_bytes.rs`.

use crate::common;

use std::path::Path;

use common::{referee, run_with_input};
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

/// No output line of a diagnostic is longer than this, in characters or in columns.
const MAX_LINE: usize = 200;

/// Runs referee in `dir`, so that files are named briefly (a file's name is part of
/// some lines, and it is the user's to choose); returns (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = referee()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("referee runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every line of `out` is at most [`MAX_LINE`] characters and columns, not counting
/// the name of the file it names (a command line's to choose, and some messages repeat
/// it: `error[ruleset]: FILE:2:11: unknown value …`).
fn assert_short_lines(what: &str, out: &str) {
    assert_short_lines_naming(what, out, "")
}

/// [`assert_short_lines`] for output naming the file `file`.
fn assert_short_lines_naming(what: &str, out: &str, file: &str) {
    for line in out.lines() {
        let named = if file.is_empty() {
            0
        } else {
            line.matches(file).count()
        };
        let chars = line.chars().count() - named * file.chars().count();
        let width = UnicodeWidthStr::width(line) - named * UnicodeWidthStr::width(file);
        assert!(
            chars <= MAX_LINE && width <= MAX_LINE,
            "{what}: a line of {chars} characters, {width} columns: {}…",
            line.chars().take(300).collect::<String>()
        );
    }
}

/// The 1-based line and column (in characters) of byte `offset`: lines end at `\n`, at
/// `\r\n`, or at a lone `\r`. Written here on its own, to check the referee's.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let mut line = 1;
    let mut start = 0;
    for i in 0..offset {
        if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            line += 1;
            start = i + 1;
        }
    }
    (line, text[start..offset].chars().count() + 1)
}

/// The `file:line:column` of every `-->` line of a text diagnostic.
fn headers(out: &str) -> Vec<(usize, usize)> {
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|at| {
            let mut parts = at.rsplitn(3, ':');
            let col = parts.next().unwrap().parse().unwrap();
            let line = parts.next().unwrap().parse().unwrap();
            (line, col)
        })
        .collect()
}

/// The errors of every record in `check --format json` output, each message and hint
/// checked short.
fn json_errors(what: &str, out: &str) -> Vec<Value> {
    let mut errors = Vec::new();
    for line in out.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{what}: {e}"));
        for e in v["errors"].as_array().cloned().unwrap_or_default() {
            for field in ["message", "hint"] {
                if let Some(s) = e[field].as_str() {
                    assert!(
                        s.chars().count() <= MAX_LINE,
                        "{what}: a {field} of {} characters",
                        s.chars().count()
                    );
                }
            }
            errors.push(e);
        }
    }
    errors
}

struct Case {
    name: &'static str,
    text: String,
    /// Where the first error is, as a byte offset; `None` for a valid record.
    error_at: Option<usize>,
    kind: &'static str,
}

/// Writes the case's record into `dir`; returns its file name.
fn write(dir: &Path, case: &Case) -> String {
    let name = format!("{}.game", case.name);
    std::fs::write(dir.join(&name), &case.text).unwrap();
    name
}

const HALATAFL: &str = "[Game \"halatafl\"]\n[Ruleset \"halatafl\"]\n[Result \"*\"]\n\n";

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    // A 200 KB turn: a Halasi run of 12,000 dominos, over --max-turn-bytes (a `limit`
    // error).
    let won =
        std::fs::read_to_string(common::root().join("games/halasi/solitaire-win.game")).unwrap();
    let opening = &won[..won.find("2. ").unwrap()];
    let run = "I9@AM1.0/AM1.1, ".repeat(12_000);
    let text = format!("{opening}2. [SK Y9 49 FK] [3: FU F9 I9] {run}I9@AM1.0/AM1.1 =70\n");
    out.push(Case {
        error_at: Some(text.find("[SK").unwrap()),
        name: "long-turn",
        text,
        kind: "limit",
    });
    // A 200 KB run of letters where a turn belongs (a `syntax` error).
    let text = format!("{HALATAFL}1. e3-d4 {}\n", "c5".repeat(100_000));
    out.push(Case {
        error_at: Some(text.find("c5c5").unwrap() + 2),
        name: "long-token",
        text,
        kind: "syntax",
    });
    // 100,000 tiles in a Halves setup.
    let tiles: Vec<String> = (0..100_000).map(|i| format!("({i},0)")).collect();
    let text = format!(
        "[Game \"halves\"]\n[Ruleset \"halves\"]\n[Setup \"white: {}; black: (0,1); to-move: \
         white; phase: waning\"]\n[Result \"*\"]\n\n1. pass\n",
        tiles.join(" ")
    );
    out.push(Case {
        error_at: Some(text.find("white:").unwrap()),
        name: "halves-setup",
        text,
        kind: "setup",
    });
    // 100,000 territories in a Halasi solitaire setup.
    let tiles: Vec<String> = (0..100_000).map(|i| format!("AT2 @{i},0 r3")).collect();
    let text = format!(
        "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n[Setup \"{}\"]\n[Result \"*\"]\n\n\
         1. home M1\n",
        tiles.join(", ")
    );
    out.push(Case {
        error_at: Some(text.find("AT2").unwrap()),
        name: "halasi-setup",
        text,
        kind: "setup",
    });
    // A huge value of an unknown tag is no error, and is not echoed.
    out.push(Case {
        text: format!(
            "[Game \"halatafl\"]\n[Annotator \"{}\"]\n[Result \"*\"]\n\n1. e3-d4\n",
            "x".repeat(300_000)
        ),
        error_at: None,
        name: "huge-tag",
        kind: "",
    });
    // Huge Game, Ruleset, Result and Options values, and a huge unknown Options key.
    for (name, tag, value, kind) in [
        ("huge-game", "Game", "q".repeat(300_000), "header"),
        (
            "huge-ruleset-name",
            "Ruleset",
            "a".repeat(300_000),
            "ruleset",
        ),
        (
            "huge-ruleset-path",
            "Ruleset",
            "../".repeat(100_000),
            "ruleset",
        ),
        ("huge-result", "Result", "w".repeat(300_000), "header"),
        (
            "huge-termination",
            "Termination",
            "t".repeat(300_000),
            "header",
        ),
        (
            "huge-option-key",
            "Options",
            format!("{}=1", "k".repeat(300_000)),
            "ruleset",
        ),
        (
            "huge-option-value",
            "Options",
            format!("win={}", "v".repeat(300_000)),
            "ruleset",
        ),
    ] {
        let game = if tag == "Game" {
            ""
        } else {
            "[Game \"halatafl\"]\n"
        };
        let text = format!("{game}[{tag} \"{value}\"]\n\n1. e3-d4\n");
        out.push(Case {
            error_at: Some(text.find(value.as_str()).unwrap()),
            name,
            text,
            kind,
        });
    }
    // Setup strings and tags read by the game modules.
    let z = "z".repeat(100_000);
    for (name, text) in [
        ("thaayam-setup-square", format!("[Game \"thaayam\"]\n[Setup \"south: {z}; to-move: south\"]\n\n")),
        ("thaayam-setup-part", format!("[Game \"thaayam\"]\n[Setup \"{z}\"]\n\n")),
        ("thaayam-setup-seat", format!("[Game \"thaayam\"]\n[Setup \"{z}: c1\"]\n\n")),
        ("halves-to-move", format!("[Game \"halves\"]\n[Setup \"white: (0,0); black: (0,1); to-move: {z}; phase: waning\"]\n\n")),
        ("halves-phase", format!("[Game \"halves\"]\n[Setup \"white: (0,0); black: (0,1); to-move: white; phase: {z}\"]\n\n")),
        ("halves-field", format!("[Game \"halves\"]\n[Setup \"white: (0,0); black: (0,1); {z}\"]\n\n")),
        ("thaayam-first", format!("[Game \"thaayam\"]\n[Seed \"x\"]\n[First \"{z}\"]\n\n")),
    ] {
        let value = text.rfind("[").unwrap();
        out.push(Case {
            error_at: Some(value + text[value..].find('"').unwrap() + 1),
            name,
            text,
            kind: "setup",
        });
    }
    // A long line of multi-byte characters, the error far along it: clipped on
    // characters, the column counted in characters.
    let text = format!(
        "{HALATAFL}1. e3-d4 {{{}}} c5xe3xg1=K {{{}}} 2. zz9\n",
        "é中😀".repeat(700),
        "ü".repeat(3000)
    );
    out.push(Case {
        error_at: Some(text.find("zz9").unwrap()),
        name: "multi-byte",
        text,
        kind: "syntax",
    });
    // Control characters on the line shown: an escape sequence never reaches the
    // terminal.
    let text = format!("{HALATAFL}1. e3-d4 {{\u{1b}[2J\u{1b}]0;pwned\u{7}\0}} 1... zz9\n");
    out.push(Case {
        error_at: Some(text.find("zz9").unwrap()),
        name: "escapes",
        text,
        kind: "syntax",
    });
    out
}

#[test]
fn check_clips_long_lines_and_quotes_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let p = &write(dir.path(), &case);
        let (code, out, err) = run_in(dir.path(), &["check", p]);
        let what = case.name;
        assert_short_lines_naming(what, &out, p);
        assert_short_lines_naming(what, &err, p);
        assert!(
            !out.contains('\u{1b}') && !out.contains('\0'),
            "{what}: {out}"
        );
        let (jcode, jout, _) = run_in(dir.path(), &["check", "--format", "json", p]);
        let errors = json_errors(what, &jout);
        assert_eq!(code, jcode, "{what}");
        let Some(at) = case.error_at else {
            assert_eq!(code, 0, "{what}: {out}");
            assert!(out.len() < 200, "{what}: {out}");
            continue;
        };
        assert_eq!(code, 1, "{what}: {out}{err}");
        assert_eq!(errors[0]["kind"], case.kind, "{what}: {}", errors[0]);
        // The text and the JSON name the same place, and it is where the error is.
        let expected = line_col(&case.text, at);
        let from_json: Vec<(usize, usize)> = errors
            .iter()
            .map(|e| {
                (
                    e["line"].as_u64().unwrap() as usize,
                    e["column"].as_u64().unwrap() as usize,
                )
            })
            .collect();
        assert_eq!(headers(&out), from_json, "{what}: {out}");
        assert_eq!(from_json[0], expected, "{what}: {out}");
        // The output stays small however big the input.
        assert!(out.len() < 4_000, "{what}: {} bytes", out.len());
    }
}

#[test]
fn a_clipped_line_shows_the_error_with_marks_where_it_was_cut() {
    let dir = tempfile::tempdir().unwrap();
    let cases = cases();
    let multi = cases.iter().find(|c| c.name == "multi-byte").unwrap();
    let path = write(dir.path(), multi);
    let (_, out, _) = run_in(dir.path(), &["check", &path]);
    let shown = out
        .lines()
        .find(|l| l.contains("zz9"))
        .unwrap_or_else(|| panic!("the bad turn is shown: {out}"));
    assert!(shown.contains("| …"), "cut at the start: {shown}");
    assert!(shown.contains("ü"), "the context before it: {shown}");
    // The underline is under `zz9`, counted in columns.
    let carets = out
        .lines()
        .skip_while(|l| !l.contains("zz9"))
        .nth(1)
        .unwrap();
    let col = |s: &str, at: usize| UnicodeWidthStr::width(&s[..at]);
    assert_eq!(
        col(carets, carets.find('^').unwrap()),
        col(shown, shown.find("zz9").unwrap()),
        "{shown}\n{carets}"
    );
    // A long turn: the cut at the end is underlined too.
    let long = cases.iter().find(|c| c.name == "long-turn").unwrap();
    let path = write(dir.path(), long);
    let (_, out, _) = run_in(dir.path(), &["check", &path]);
    let shown = out.lines().find(|l| l.starts_with("16 |")).unwrap();
    assert!(
        shown.starts_with("16 | 2. [SK Y9") && shown.ends_with('…'),
        "{shown}"
    );
    let carets = out.lines().find(|l| l.contains('^')).unwrap();
    assert_eq!(
        UnicodeWidthStr::width(carets.trim_end_matches(" turn 2")),
        UnicodeWidthStr::width(shown),
        "{shown}\n{carets}"
    );
    // The escapes are shown as replacement characters, one for one.
    let esc = cases.iter().find(|c| c.name == "escapes").unwrap();
    let path = write(dir.path(), esc);
    let (_, out, _) = run_in(dir.path(), &["check", "--color", "always", &path]);
    assert!(
        out.contains("{\u{fffd}[2J\u{fffd}]0;pwned\u{fffd}\u{fffd}}"),
        "{out}"
    );
    assert!(!out.contains("\u{1b}]0"), "{out}");
}

#[test]
fn adjudicate_and_move_answer_briefly() {
    let dir = tempfile::tempdir().unwrap();
    for case in cases() {
        let p = &write(dir.path(), &case);
        let what = case.name;
        for args in [
            vec!["adjudicate", p],
            vec!["adjudicate", "--format", "json", p],
            vec!["move", p, "e3-d4"],
            vec!["move", "--format", "json", p, "e3-d4"],
        ] {
            let (code, out, err) = run_in(dir.path(), &args);
            // 2: a game or ruleset that cannot be found is no record to rule on.
            assert!((0..=2).contains(&code), "{what} {args:?}: {code} {err}");
            if args.contains(&"json") && !out.is_empty() {
                let v: Value = serde_json::from_str(&out)
                    .unwrap_or_else(|e| panic!("{what} {args:?}: {e}: {out}"));
                let errors = v["errors"].as_array().cloned().unwrap_or_default();
                let messages = errors.iter().map(|e| &e["message"]);
                for m in messages.chain([&v["error"]["message"]]) {
                    if let Some(m) = m.as_str() {
                        assert_short_lines_naming(&format!("{what} {args:?}"), m, p);
                    }
                }
            } else {
                assert_short_lines_naming(&format!("{what} {args:?}"), &out, p);
            }
            assert_short_lines_naming(&format!("{what} {args:?}"), &err, p);
        }
    }
}

#[test]
fn a_huge_turn_sent_to_move_or_play_is_refused_briefly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.game");
    std::fs::write(&path, HALATAFL).unwrap();
    let p = "game.game";
    for turn in [
        // An argument is at most 128 KiB on Linux.
        format!("e3-d4{}", "x".repeat(100_000)),
        "é中😀".repeat(10_000),
        format!("{}e3-d4", "\u{1b}[2J".repeat(1_000)),
    ] {
        for format in ["text", "json"] {
            let (code, out, err) = run_in(dir.path(), &["move", "--format", format, p, &turn]);
            assert_eq!(code, 1, "{out}{err}");
            if format == "json" {
                let v: Value = serde_json::from_str(&out).unwrap();
                let m = v["error"]["message"].as_str().unwrap();
                assert!(m.chars().count() <= MAX_LINE, "{m}");
            } else {
                assert_short_lines("move", &out);
            }
            assert_short_lines("move", &err);
            assert!(!out.contains('\u{1b}'), "{out}");
        }
        let input = format!("{turn}\n:quit\n");
        let (code, out, _) =
            run_with_input(&["play", "halatafl", "--format", "json"], input.as_bytes());
        assert_eq!(code, 0);
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers.len(), 2, "one answer a line: {out}");
        let refusal: Value = serde_json::from_str(answers[0]).unwrap();
        assert_eq!(refusal["ok"], false);
        let m = refusal["error"]["message"].as_str().unwrap();
        assert!(m.chars().count() <= MAX_LINE, "{m}");
        assert!(!m.contains('\u{1b}'), "{m}");
    }
    // The record is unchanged by the refusals.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), HALATAFL);
}

#[test]
fn a_huge_record_from_stdin_answers_briefly() {
    for case in cases().into_iter().filter(|c| c.error_at.is_some()) {
        let (code, out, err) = run_with_input(&["check", "-"], case.text.as_bytes());
        assert_eq!(code, 1, "{}: {err}", case.name);
        assert_short_lines_naming(case.name, &out, "<stdin>");
        let expected = line_col(&case.text, case.error_at.unwrap());
        assert_eq!(headers(&out)[0], expected, "{}: {out}", case.name);
    }
}

/// The legal turns of a ruling on every shipped example come in short lines: packed, or
/// one a line where a turn has spaces (they were one line of up to 4,220 characters).
/// (The ruling's table of turns shows each turn as written, whatever its length, and a
/// `setup:` line is copied whole into a `Setup` tag: neither is checked here.)
#[test]
fn adjudicate_lists_legal_turns_in_short_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lists = 0;
    for game in ["halatafl", "thaayam", "halves", "halasi"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join("games").join(game))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "game"))
            .collect();
        files.sort();
        for f in files {
            let (_, out, _) = run_in(root, &["adjudicate", f.to_str().unwrap()]);
            let mut in_list = false;
            let mut list = String::new();
            for line in out.lines() {
                if line.starts_with("Legal turns (") {
                    in_list = true;
                    lists += 1;
                } else if !line.starts_with("  ") {
                    in_list = false;
                }
                if in_list {
                    list.push_str(line);
                    list.push('\n');
                }
            }
            assert_short_lines(&f.display().to_string(), &list);
        }
    }
    assert!(lists > 20, "{lists} lists of legal turns");
}
