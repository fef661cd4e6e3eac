//! Every example the user reads is run: the records of the guide (`docs/guide/*.md`) and
//! the README, their ruleset files, their console sessions, and the `Example:` lines of
//! `--help`. And the guide cannot drift from the code: every rule id, setting and shipped
//! ruleset of a game is on its page.
//!
//! Fences (docs/guide/index.md says the same): ```game — a record that must be valid;
//! ```game invalid=RULE — one that must be refused, its first error citing RULE (a rule
//! id, or a kind such as `dice`); ```rules — a ruleset file that must load; ```console —
//! `$ COMMAND` lines, each followed by the output it must print.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::CommandFactory;
use common::{root, run, run_with_input};

/// The guide's pages and the README.
fn documents() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("docs/guide"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files.push(root().join("README.md"));
    files
}

/// A fenced block: its info string, its text, and the line it starts on.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match open.take() {
                Some(b) => out.push(b),
                None => {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        text: String::new(),
                        line: i + 1,
                    })
                }
            }
            continue;
        }
        if let Some(b) = open.as_mut() {
            b.text.push_str(line);
            b.text.push('\n');
        }
    }
    assert!(open.is_none(), "a fence is never closed");
    out
}

fn name(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn every_record_in_the_guide_and_readme_is_ruled_as_written() {
    let mut seen = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for b in blocks(&text) {
            let mut words = b.info.split_whitespace();
            if words.next() != Some("game") {
                continue;
            }
            seen += 1;
            let want: Option<String> = words
                .find_map(|w| w.strip_prefix("invalid="))
                .map(str::to_string);
            let at = format!("{}:{}", name(&doc), b.line);
            let (code, out, err) =
                run_with_input(&["check", "-", "--format", "json"], b.text.as_bytes());
            match want {
                None => assert_eq!(code, 0, "{at}: must be valid:\n{out}{err}"),
                Some(rule) => {
                    assert_eq!(code, 1, "{at}: must be refused:\n{out}{err}");
                    let doc: serde_json::Value =
                        serde_json::from_str(out.lines().next().unwrap()).unwrap();
                    let first = &doc["errors"][0];
                    let got = first["rule"].as_str().or(first["kind"].as_str());
                    assert_eq!(got, Some(rule.as_str()), "{at}: {first}");
                }
            }
        }
    }
    assert!(seen >= 20, "only {seen} records found");
}

#[test]
fn every_ruleset_in_the_guide_loads() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for b in blocks(&text).into_iter().filter(|b| b.info == "rules") {
            seen += 1;
            let rs_name = b
                .text
                .lines()
                .find_map(|l| l.strip_prefix("ruleset "))
                .expect("a ruleset line")
                .trim()
                .to_string();
            std::fs::write(dir.path().join(format!("{rs_name}.rules")), &b.text).unwrap();
            let d = dir.path().to_str().unwrap();
            let (code, out, err) = run(&["rules", &rs_name, "--rulesets", d]);
            assert_eq!(code, 0, "{}:{}: {out}{err}", name(&doc), b.line);
        }
    }
    assert!(seen >= 1);
}

/// Runs `line` with `sh` in `dir`, `referee` first on the PATH, the user's home in the
/// directory; the parents of files written with `>` are made first.
fn shell(dir: &Path, line: &str) -> (i32, String, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for pair in words.windows(2) {
        if pair[0] == ">" || pair[0] == ">>" {
            let target = pair[1].replacen('~', dir.to_str().unwrap(), 1);
            if let Some(parent) = Path::new(&target).parent() {
                std::fs::create_dir_all(dir.join(parent)).unwrap();
            }
        }
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .env_remove("REFEREE_RULESETS")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A directory holding a copy of the example records, where commands may write.
fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for game in ["halatafl", "thaayam", "halves", "halasi"] {
        let to = dir.path().join("games").join(game);
        std::fs::create_dir_all(&to).unwrap();
        for f in common::examples(game) {
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// Every record file a command names exists in the project.
fn files_exist(at: &str, line: &str) {
    for word in line.split_whitespace() {
        let word = word.trim_matches(|c| c == '\'' || c == '"');
        if word.starts_with("games/") && !word.contains('*') && !word.ends_with('/') {
            assert!(root().join(word).is_file(), "{at}: {word} does not exist");
        }
    }
}

fn trimmed(s: &str) -> String {
    s.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

#[test]
fn every_console_session_runs_as_shown() {
    let mut seen = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for b in blocks(&text).into_iter().filter(|b| b.info == "console") {
            let dir = sandbox();
            // Each `$ ` line with the lines under it, up to the next `$ ` line.
            let mut steps: Vec<(usize, String, String)> = Vec::new();
            for (i, line) in b.text.lines().enumerate() {
                if let Some(cmd) = line.strip_prefix("$ ") {
                    steps.push((b.line + 1 + i, cmd.to_string(), String::new()));
                } else if let Some(step) = steps.last_mut() {
                    step.2.push_str(line);
                    step.2.push('\n');
                }
            }
            for (line, cmd, want) in steps {
                seen += 1;
                let at = format!("{}:{line}", name(&doc));
                files_exist(&at, &cmd);
                let (code, out, err) = shell(dir.path(), &cmd);
                // 0 or 1 (a record invalid on purpose: the output shows it).
                assert!(code == 0 || code == 1, "{at}: `{cmd}` exit {code}: {err}");
                assert_eq!(trimmed(&out), trimmed(&want), "{at}: `{cmd}`");
            }
        }
    }
    assert!(seen >= 10, "only {seen} commands found");
}

/// The `Example:` lines of an after-help text: (command, expected exit code).
fn examples_of(after_help: &str) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in after_help.lines() {
        if line.starts_with("Example") {
            inside = true;
            continue;
        }
        if line.trim().is_empty() {
            inside = false;
        }
        if !inside {
            continue;
        }
        let (cmd, comment) = match line.find(" # ") {
            Some(i) => (&line[..i], &line[i + 3..]),
            None => (line, ""),
        };
        let exit = comment
            .split_once("exit ")
            .and_then(|(_, n)| n.chars().next())
            .and_then(|c| c.to_digit(10))
            .map_or(0, |n| n as i32);
        out.push((cmd.trim().to_string(), exit));
    }
    out
}

#[test]
fn every_help_example_runs() {
    let cli = referee::cli::Cli::command();
    let mut texts = vec![(
        "referee".to_string(),
        cli.get_after_help().map(|s| s.to_string()),
    )];
    for sub in cli.get_subcommands() {
        texts.push((
            format!("referee {}", sub.get_name()),
            sub.get_after_help().map(|s| s.to_string()),
        ));
    }
    let mut seen = 0;
    for (command, text) in texts {
        if command == "referee help" {
            continue;
        }
        let text = text.unwrap_or_else(|| panic!("`{command} --help` has no example"));
        let examples = examples_of(&text);
        assert!(!examples.is_empty(), "`{command} --help` has no example");
        for (cmd, exit) in examples {
            seen += 1;
            assert!(cmd.contains("referee "), "{command}: `{cmd}`");
            files_exist(&command, &cmd);
            let dir = sandbox();
            let (code, out, err) = shell(dir.path(), &cmd);
            assert_eq!(code, exit, "{command}: `{cmd}`:\n{out}{err}");
        }
    }
    assert!(seen >= 25, "only {seen} examples");
}

/// Every rule id a game's schema declares, every setting, and every shipped ruleset of
/// the game are named on its page, in backquotes.
#[test]
fn every_rule_setting_and_ruleset_is_on_its_game_page() {
    let (_, list, _) = run(&["rules", "--format", "json"]);
    let list: serde_json::Value = serde_json::from_str(list.trim()).unwrap();
    for schema in referee::games::registry::schemas() {
        let page = referee::cli::guide::page(schema.game)
            .unwrap_or_else(|| panic!("no guide page for {}", schema.game));
        for id in schema.rules {
            assert!(
                page.contains(&format!("- `{id}`")) || page.contains(&format!(", `{id}`")),
                "rule {id} is not in the rule list of `referee guide {}`",
                schema.game
            );
        }
        for s in schema.settings {
            assert!(
                page.contains(&format!("`{}`", s.key)),
                "setting {} is not on `referee guide {}`",
                s.key,
                schema.game
            );
        }
        for r in list.as_array().unwrap() {
            if r["game"] == schema.game {
                let n = r["name"].as_str().unwrap();
                assert!(
                    page.contains(&format!("| `{n}` |")),
                    "ruleset {n} is not in the table of `referee guide {}`",
                    schema.game
                );
            }
        }
    }
}

#[test]
fn guide_lists_and_prints_every_topic() {
    let (code, index, _) = run(&["guide"]);
    assert_eq!(code, 0);
    for topic in referee::cli::guide::names() {
        let (code, page, _) = run(&["guide", topic]);
        assert_eq!(code, 0);
        let text = referee::cli::guide::page(topic).unwrap();
        assert_eq!(page, referee::cli::guide::for_readers(text));
        assert!(
            !page.contains("<!--"),
            "{topic}: a maintainers' comment shown"
        );
        if topic != "index" {
            assert!(
                index.contains(&format!("`referee guide {topic}`")),
                "the index page does not point to {topic}"
            );
        }
    }
    let (code, _, err) = run(&["guide", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("thaayam"), "{err}");
}

#[test]
fn man_writes_a_page_per_guide_topic() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, out, err) = run(&["man", "--out", d]);
    assert_eq!(code, 0, "{err}");
    for topic in referee::cli::guide::names() {
        let page = dir.path().join(format!("referee-guide-{topic}.1"));
        assert!(out.contains(&page.display().to_string()), "{out}");
        let text = std::fs::read_to_string(page).unwrap();
        // The first line asks `man` for tbl (the guide's tables).
        assert!(
            text.starts_with(&format!("'\\\" t\n.TH referee-guide-{topic} 1 ")),
            "{topic}"
        );
    }
}

#[test]
fn bash_completion_offers_ruleset_names_and_guide_topics() {
    let (code, script, _) = run(&["completions", "bash"]);
    assert_eq!(code, 0);
    for name in [
        "halatafl-emperor",
        "thaayam-spinner",
        "halves-3p",
        "halasi-solitaire",
    ] {
        assert!(script.contains(name), "{name} is not offered");
    }
    assert!(script.contains("records"), "guide topics are not offered");
}

/// Each command shows only the options that mean something for it.
#[test]
fn commands_take_only_their_options() {
    let (code, _, err) = run(&["completions", "bash", "--max-turns", "3"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run(&["guide", "--format", "json"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["new", "halatafl", "--ruleset", "x.rules"]);
    assert_eq!(code, 2, "one way to name the ruleset");
    let (_, help, _) = run(&["completions", "--help"]);
    assert!(!help.contains("--max-turns"), "{help}");
    assert!(!help.contains("--color"), "{help}");
    // Every argument and option of every command is described (built first: a
    // command's arguments are added only when clap builds it).
    let mut cli = referee::cli::Cli::command();
    cli.build();
    let mut described = 0;
    for sub in cli.get_subcommands() {
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" {
                continue;
            }
            assert!(
                arg.get_help().is_some(),
                "{} {id} has no description",
                sub.get_name()
            );
            described += 1;
        }
    }
    assert!(described > 50, "only {described} arguments seen");
}

#[test]
fn new_with_an_unknown_ruleset_lists_the_rulesets() {
    let (code, _, err) = run(&["new", "nosuch"]);
    assert_eq!(code, 2);
    for name in [
        "halatafl",
        "thaayam-bell",
        "halves-manual",
        "halasi-solitaire",
    ] {
        assert!(err.contains(name), "{err}");
    }
}
