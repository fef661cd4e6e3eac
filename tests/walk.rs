//! `check` given directories: which files a walk picks (hidden, ignored, symbolic links,
//! `--glob`), in which order, and what the single-record commands say to a directory.

use crate::common;

use std::fs;
use std::path::Path;

use common::{referee, root, run};

/// A valid Halatafl record.
fn record() -> String {
    fs::read_to_string(root().join("games/halatafl/opening.game")).expect("example record")
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// Runs `referee check ARGS` in `dir`; returns the exit code, the names of the files
/// checked in output order, and stderr.
fn checked(dir: &Path, args: &[&str]) -> (i32, Vec<String>, String) {
    let out = referee()
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .expect("referee runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let names = stdout
        .lines()
        .filter_map(|l| {
            l.strip_suffix(": invalid")
                .or_else(|| l.split_once(": valid,").map(|(n, _)| n))
        })
        .map(str::to_string)
        .collect();
    (
        out.status.code().unwrap_or(-1),
        names,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A tree with a file of every kind the walk has to decide on.
fn tree() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let r = record();
    for f in [
        "tree/a.game",
        "tree/b.game",
        "tree/b/c.game",
        "tree/b/a.game",
        "tree/b/deeper/z.game",
        "tree/.hidden.game",
        "tree/.hid/x.game",
        "tree/notes.txt",
        "tree/ignored.game",
        "tree/junk/old.game",
        "tree/sub/kept.game",
        "tree/sub/skip.game",
    ] {
        write(t, f, &r);
    }
    // No `.git` directory anywhere: `.gitignore` holds all the same.
    write(t, "tree/.gitignore", "ignored.game\njunk/\n");
    write(t, "tree/sub/.ignore", "skip.game\n");
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink("a.game", t.join("tree/link.game")).unwrap();
        symlink("b", t.join("tree/linkdir")).unwrap();
    }
    tmp
}

#[test]
fn a_directory_gives_its_game_files_sorted_by_path_skipping_hidden_ignored_and_links() {
    let tmp = tree();
    let (code, names, stderr) = checked(tmp.path(), &["tree"]);
    assert_eq!(code, 0, "{stderr}");
    // Sorted by path component by component: the directory `b` before `b.game`.
    assert_eq!(
        names,
        [
            "tree/a.game",
            "tree/b/a.game",
            "tree/b/c.game",
            "tree/b/deeper/z.game",
            "tree/b.game",
            "tree/sub/kept.game"
        ]
    );
    assert_eq!(stderr, "");
}

#[test]
fn a_trailing_slash_is_kept_in_the_names() {
    let tmp = tree();
    let (code, names, _) = checked(tmp.path(), &["tree/b/"]);
    assert_eq!(code, 0);
    assert_eq!(
        names,
        ["tree/b/a.game", "tree/b/c.game", "tree/b/deeper/z.game"]
    );
}

#[test]
fn arguments_are_taken_in_the_order_given() {
    let tmp = tree();
    let (code, names, _) = checked(tmp.path(), &["tree/sub", "tree/a.game", "tree/b/deeper"]);
    assert_eq!(code, 0);
    assert_eq!(
        names,
        ["tree/sub/kept.game", "tree/a.game", "tree/b/deeper/z.game"]
    );
}

#[test]
fn a_file_named_explicitly_is_checked_whatever_its_name() {
    let tmp = tree();
    let (code, names, _) = checked(
        tmp.path(),
        &[
            "tree/.hidden.game",
            "tree/notes.txt",
            "tree/ignored.game",
            "tree/sub/skip.game",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(
        names,
        [
            "tree/.hidden.game",
            "tree/notes.txt",
            "tree/ignored.game",
            "tree/sub/skip.game"
        ]
    );
}

#[test]
fn a_hidden_or_ignored_directory_named_explicitly_is_walked() {
    let tmp = tree();
    let (code, names, _) = checked(tmp.path(), &["tree/.hid", "tree/junk"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/.hid/x.game", "tree/junk/old.game"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_named_explicitly_is_followed() {
    let tmp = tree();
    let (code, names, _) = checked(tmp.path(), &["tree/linkdir", "tree/link.game"]);
    assert_eq!(code, 0);
    assert_eq!(
        names,
        [
            "tree/linkdir/a.game",
            "tree/linkdir/c.game",
            "tree/linkdir/deeper/z.game",
            "tree/link.game"
        ]
    );
}

#[test]
fn glob_picks_other_names_and_bang_leaves_files_out() {
    let tmp = tree();
    // A picking glob replaces *.game.
    let (code, names, _) = checked(tmp.path(), &["tree", "--glob", "*.txt"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/notes.txt"]);
    // Only `!` globs: still the *.game files, less those.
    let (code, names, _) = checked(tmp.path(), &["tree", "-g", "!b/**", "-g", "!a.game"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/b.game", "tree/sub/kept.game"]);
    // Globs with a `/` are matched below the directory argument.
    let (code, names, _) = checked(tmp.path(), &["tree", "-g", "b/*.game"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/b/a.game", "tree/b/c.game"]);
    // As in ripgrep, a glob's match overrides the ignore files (and hidden files).
    let (code, names, _) = checked(tmp.path(), &["tree", "-g", "ignored.game"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/ignored.game"]);
    // A file named explicitly is checked whatever the globs say.
    let (code, names, _) = checked(tmp.path(), &["tree/a.game", "-g", "*.txt"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/a.game"]);
}

#[test]
fn a_bad_glob_is_a_usage_error_before_anything_is_read() {
    let tmp = tree();
    let (code, names, stderr) = checked(tmp.path(), &["tree", "-g", "[ab"]);
    assert_eq!(code, 2);
    assert!(names.is_empty());
    assert!(stderr.contains("--glob [ab"), "{stderr}");
}

#[test]
fn a_directory_with_nothing_to_check_is_exit_2_after_the_other_arguments() {
    let tmp = tree();
    fs::create_dir_all(tmp.path().join("empty/.hid")).unwrap();
    write(tmp.path(), "empty/.hid/h.game", &record());
    write(tmp.path(), "empty/readme.txt", "not a record");
    let (code, names, stderr) = checked(tmp.path(), &["empty", "tree/a.game"]);
    assert_eq!(code, 2);
    assert_eq!(names, ["tree/a.game"]);
    assert!(
        stderr.contains("referee: no *.game file under empty (hidden and ignored files"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("referee: 1 directory has no file to check\n"),
        "{stderr}"
    );
    let (code, _, stderr) = checked(tmp.path(), &["tree", "-g", "*.pgn"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no file under tree matches --glob"),
        "{stderr}"
    );
}

#[test]
fn an_invalid_record_in_a_directory_is_exit_1() {
    let tmp = tree();
    write(
        tmp.path(),
        "tree/b/bad.game",
        &record().replace("2. c3xc5xa7=K", "2. c3-c4"),
    );
    let (code, names, _) = checked(tmp.path(), &["tree/b"]);
    assert_eq!(code, 1);
    assert_eq!(
        names,
        [
            "tree/b/a.game",
            "tree/b/bad.game",
            "tree/b/c.game",
            "tree/b/deeper/z.game"
        ]
    );
}

/// The shipped examples through the directory and as the shell's list give the same
/// output, byte for byte, in the same order (sorted by path).
#[test]
fn the_shipped_games_directory_rules_as_its_files_do() {
    let mut files: Vec<std::path::PathBuf> = ["halasi", "halatafl", "halves", "thaayam"]
        .iter()
        .flat_map(|g| common::examples(g))
        .collect();
    files.sort();
    let names: Vec<String> = files.iter().map(|p| common::rel(p)).collect();
    assert!(names.len() > 50, "{} example records", names.len());
    for format in ["text", "json"] {
        let mut args = vec!["check", "--format", format];
        args.extend(names.iter().map(String::as_str));
        let explicit = run(&args);
        let walked = run(&["check", "--format", format, "games"]);
        assert_eq!(walked, explicit, "{format}");
        assert_eq!(walked.0, 1, "the examples include disputed records");
    }
}

#[test]
fn every_thread_count_rules_and_prints_alike() {
    // Between the examples, a file that cannot be read: its warning keeps its place.
    for format in ["text", "json"] {
        let args = |threads: Option<&'static str>| {
            let mut args = vec!["check", "--format", format, "games/halves", "missing.game"];
            args.extend(["games/halatafl", "games/thaayam", "games/halasi"]);
            if let Some(n) = threads {
                args.extend(["--threads", n]);
            }
            args
        };
        let every_core = run(&args(None));
        assert_eq!(every_core.0, 2, "a file could not be read");
        for n in ["1", "2", "3"] {
            assert_eq!(run(&args(Some(n))), every_core, "{format}, --threads {n}");
        }
        let short = run(&["check", "--format", format, "-j", "1", "games/halves"]);
        assert_eq!(short.0, 1, "{format}: the disputed Halves records");
    }
    for bad in ["0", "257", "two"] {
        let (code, _, err) = run(&["check", "--threads", bad, "games"]);
        assert_eq!(code, 2, "--threads {bad}: {err}");
        assert!(err.contains("--threads"), "{err}");
    }
}

#[test]
fn single_record_commands_refuse_a_directory_plainly() {
    for args in [
        &["adjudicate", "games"][..],
        &["show", "games/halatafl"],
        &["moves", "games/"],
        &["score", "games"],
        &["move", "games/halatafl", "e3-d4"],
    ] {
        refused_plainly(args, args[1], run(args));
    }
    // `play --record` too, before it reads a line.
    let args = ["play", "halatafl", "--record", "games/halatafl"];
    refused_plainly(&args, args[3], common::run_with_input(&args, b":quit\n"));
}

/// A single-record command given the directory `dir` stopped with exit 2 and a plain
/// message, not the system's error.
fn refused_plainly(args: &[&str], dir: &str, (code, stdout, stderr): (i32, String, String)) {
    assert_eq!(code, 2, "{args:?}");
    assert_eq!(stdout, "", "{args:?}");
    assert!(
        stderr.starts_with(&format!(
            "referee: {dir} is a directory: this command reads one record file (`referee check` takes directories)"
        )),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("os error"), "{stderr}");
}

#[test]
fn a_bad_line_in_an_ignore_file_is_a_warning_and_the_other_lines_apply() {
    let tmp = tree();
    write(tmp.path(), "tree/b/.gitignore", "a{b\nc.game\n");
    let (code, names, stderr) = checked(tmp.path(), &["tree/b"]);
    assert_eq!(code, 0);
    assert_eq!(names, ["tree/b/a.game", "tree/b/deeper/z.game"]);
    assert!(
        stderr.starts_with("referee: tree/b/.gitignore: line 1: error parsing glob 'a{b'"),
        "{stderr}"
    );
}
