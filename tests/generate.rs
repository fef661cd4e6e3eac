//! `referee completions SHELL` and `referee man`: generated from the clap definitions,
//! they name every command; the scripts parse in their shells where those are here.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use clap::CommandFactory;
use common::run;
use referee::cli::Cli;

/// The names of the commands, from the clap definitions.
fn commands() -> Vec<String> {
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in ["check", "adjudicate", "completions", "man"] {
        assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
    }
    names
}

fn completions(shell: &str) -> String {
    let (code, stdout, stderr) = run(&["completions", shell]);
    assert_eq!(code, 0, "{shell}: {stderr}");
    assert_eq!(stderr, "", "{shell}");
    stdout
}

#[test]
fn every_shell_gets_a_script_naming_every_command_and_option() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = completions(shell);
        for name in commands() {
            assert!(script.contains(&name), "{shell} lacks {name}");
        }
        // fish names a long option `-l NAME`, the others `--NAME`.
        for option in ["glob", "turn", "out"] {
            let spelt = if shell == "fish" {
                format!("-l {option}")
            } else {
                format!("--{option}")
            };
            assert!(script.contains(&spelt), "{shell} lacks {spelt}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let (code, stdout, stderr) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(stderr.contains("invalid value 'tcsh'"), "{stderr}");
}

/// Runs `shell ARGS` on `script` (its syntax check); `None` when the shell is not here.
fn syntax_check(shell: &str, args: &[&str], script: &str) -> Option<(bool, String)> {
    let mut child = match Command::new(shell)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("{shell}: {e}"),
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

#[test]
fn the_scripts_parse_in_their_shells() {
    // A script that does not parse is caught: the check below is not a formality.
    if let Some((ok, _)) = syntax_check("bash", &["-n"], "complete -F _f referee\nif then\n") {
        assert!(!ok, "bash -n accepts a broken script");
    }
    for (shell, args, name) in [
        ("bash", &["-n"][..], "bash"),
        ("zsh", &["-n"], "zsh"),
        ("fish", &["--no-execute"], "fish"),
    ] {
        let script = completions(name);
        match syntax_check(shell, args, &script) {
            Some((ok, stderr)) => assert!(ok, "{shell} {args:?}: {stderr}"),
            None => eprintln!("{shell} is not installed: its completion script is not parsed"),
        }
    }
}

#[test]
fn bash_is_here_to_check_its_script() {
    // The one shell the test machine always has; without it the test above proves
    // nothing for bash.
    assert!(syntax_check("bash", &["-n"], "true\n").is_some_and(|(ok, _)| ok));
}

/// The lines of a roff page after the string definitions clap_mangen puts first.
fn roff_body(page: &str) -> Vec<&str> {
    page.lines()
        .skip_while(|l| l.starts_with(".ie ") || l.starts_with(".el ") || *l == "'\\\" t")
        .collect()
}

#[test]
fn man_prints_referee_1_naming_every_command() {
    let (code, page, stderr) = run(&["man"]);
    assert_eq!(code, 0, "{stderr}");
    let body = roff_body(&page);
    assert!(body[0].starts_with(".TH referee 1 "), "{}", body[0]);
    assert!(page.contains(".SH SYNOPSIS"));
    assert!(page.contains(".SH SUBCOMMANDS"));
    for name in commands() {
        // roff escapes the hyphen.
        let reference = format!("referee\\-{}(1)", name.replace('-', "\\-"));
        assert!(page.contains(&reference), "{reference} in the page");
    }
    assert!(
        !page.contains("referee\\-help(1)"),
        "no page is written for help"
    );
    // The examples are in the page.
    assert!(page.contains("referee check games/"));
}

/// The lines of the page's EXTRA section (the help's examples and notes) that roff
/// sets filled, outside `.nf` … `.fi`.
fn filled_extra_lines(page: &str) -> Vec<&str> {
    let (mut extra, mut unfilled) = (false, false);
    let mut filled = Vec::new();
    for line in page.lines() {
        match line {
            ".nf" => unfilled = true,
            ".fi" => unfilled = false,
            l if l.starts_with(".SH ") => extra = l == ".SH EXTRA",
            l if extra && !unfilled => filled.push(l),
            _ => {}
        }
    }
    filled
}

#[test]
fn man_pages_set_the_examples_as_written() {
    // Filled, an example ran on into the next and its spaces were stretched.
    let (code, page, stderr) = run(&["man"]);
    assert_eq!(code, 0, "{stderr}");
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(&["man", "--out", tmp.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let check = std::fs::read_to_string(tmp.path().join("referee-check.1")).unwrap();
    for (name, page) in [("referee.1", &page), ("referee-check.1", &check)] {
        let filled = filled_extra_lines(page);
        assert!(
            filled.iter().all(|l| !l.starts_with("  ")),
            "{name}: an example line is filled: {filled:#?}"
        );
        // The prose after the examples is still filled, and the examples are there.
        assert!(!filled.is_empty(), "{name}");
        assert!(page.contains("\n  referee check games/"), "{name}");
    }
}

#[test]
fn man_out_writes_one_page_a_command() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("man1");
    let (code, stdout, stderr) = run(&["man", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let mut pages = vec!["referee".to_string()];
    pages.extend(commands().iter().map(|c| format!("referee-{c}")));
    // The guide, one page a topic.
    pages.extend(
        referee::cli::guide::names()
            .iter()
            .map(|t| format!("referee-guide-{t}")),
    );
    let listed: Vec<&str> = stdout.lines().collect();
    assert_eq!(listed.len(), pages.len(), "{stdout}");
    for page in &pages {
        let path = dir.join(format!("{page}.1"));
        assert!(
            listed.contains(&path.to_str().unwrap()),
            "{} listed",
            path.display()
        );
        let text = std::fs::read_to_string(&path).expect("the page is written");
        let title = format!(".TH {page} 1 ");
        assert!(roff_body(&text)[0].starts_with(&title), "{page}: {title}");
    }
    let check = std::fs::read_to_string(dir.join("referee-check.1")).unwrap();
    assert!(
        check.contains("\\-\\-glob"),
        "check's page documents --glob"
    );
    let entries = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(entries, pages.len());
}

#[test]
fn help_explains_the_new_commands_with_an_example_each() {
    let (code, help, _) = run(&["--help"]);
    assert_eq!(code, 0);
    for line in [
        "completions  Print a shell completion script",
        "man          Print the manual page",
        "referee check games/ ",
        "referee completions bash",
        "referee man --out",
    ] {
        assert!(help.contains(line), "--help lacks {line:?}:\n{help}");
    }
    for (command, example) in [
        ("completions", "referee completions zsh"),
        ("man", "referee man > "),
        ("check", "referee check games/ --glob"),
    ] {
        let (code, help, _) = run(&["help", command]);
        assert_eq!(code, 0);
        assert!(help.contains("Example:"), "{command}");
        assert!(help.contains(example), "help {command} lacks {example:?}");
    }
}

/// Asks bash's completion function, as bash would on TAB, for `words` (the cursor at
/// the end of the last).
fn bash_complete(words: &[&str]) -> Vec<String> {
    let script = completions("bash");
    let cword = words.len() - 1;
    let line = words.join(" ");
    let program = format!(
        "source /dev/stdin <<'SCRIPT'\n{script}\nSCRIPT\n\
         COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{line}'; COMP_POINT={point}\n\
         _referee referee '{cur}' '{prev}'\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        words = words.join(" "),
        point = line.len(),
        cur = words[cword],
        prev = words[cword - 1],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_bash_script_completes_commands_options_and_values() {
    assert_eq!(bash_complete(&["referee", "com"]), ["completions"]);
    assert_eq!(bash_complete(&["referee", "check", "--gl"]), ["--glob"]);
    assert_eq!(bash_complete(&["referee", "completions", "fi"]), ["fish"]);
    // Ruleset names and guide topics (`referee play hal<TAB>`).
    assert_eq!(
        bash_complete(&["referee", "play", "halatafl-e"]),
        ["halatafl-emperor"]
    );
    assert_eq!(
        bash_complete(&["referee", "new", "thaayam-s"]),
        ["thaayam-spinner"]
    );
    assert_eq!(
        bash_complete(&["referee", "rules", "halves-3"]),
        ["halves-3p"]
    );
    assert_eq!(bash_complete(&["referee", "guide", "thaa"]), ["thaayam"]);
    // Settings with a few values, tile sets among them (`--option tile<TAB>`).
    assert_eq!(
        bash_complete(&["referee", "check", "x.game", "--option", "tile-s"]),
        ["tile-set=standard"]
    );
    assert_eq!(
        bash_complete(&["referee", "show", "x.game", "--option", "emperor="]),
        ["emperor=false", "emperor=true"]
    );
}
