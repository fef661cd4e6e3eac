//! Every record the CLI writes is complete and true to what it was told (issue 34): `new`
//! writes the `--option` settings it was given, and `move` and `play --record` leave a
//! finished game's record saying who won and how, with the turn as the user wrote it.

use crate::common;

use common::{run, run_with_input};

/// A fresh scratch directory of this file's own.
fn scratch(name: &str) -> std::path::PathBuf {
    common::scratch("written_records", name)
}

/// Writes `text` to `dir/name` and returns the path as a string.
fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.to_str().expect("utf-8 path").to_string()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("read")
}

#[test]
fn new_writes_the_options_it_was_given_and_its_record_checks() {
    let dir = scratch("new");
    // Each: the command's arguments, the Options tag it must write, and a word the
    // position must show when the option is in force.
    let cases: [(&[&str], &str, &str); 3] = [
        (
            &["new", "halatafl", "--option", "emperor=true"],
            "[Options \"emperor = true\"]",
            "",
        ),
        (
            &["new", "halves", "--option", "start=manual"],
            "[Options \"start = manual\"]",
            "",
        ),
        (
            &[
                "new",
                "thaayam",
                "--seed",
                "5",
                "--option",
                "seats=[south east north]",
            ],
            "[Options \"seats = [south east north]\"]",
            "\"east\"",
        ),
    ];
    for (i, (args, tag, shows)) in cases.iter().enumerate() {
        let (code, header, err) = run(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(header.contains(tag), "{args:?}:\n{header}");
        let path = write(&dir, &format!("{i}.game"), &header);
        let (code, out, err) = run(&["check", &path]);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        let (code, out, err) = run(&["show", &path, "--format", "json"]);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains(shows), "{args:?}: {out}");
    }
    // The option is in force in the written record: an emperor's slide is legal under
    // it and refused without it.
    let setup = "[Setup \"7/7/7/3m3/7/7/E6 w -\"]\n[Result \"*\"]\n\n";
    let with = format!("[Game \"halatafl\"]\n[Options \"emperor = true\"]\n{setup}");
    let path = write(&dir, "slide.game", &with);
    let (code, out, err) = run(&["move", &path, "a1-a4"]);
    assert_eq!(code, 0, "{out}{err}");
    let path = write(&dir, "plain.game", &format!("[Game \"halatafl\"]\n{setup}"));
    let (code, out, _) = run(&["move", &path, "a1-a4"]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn move_completes_the_record_of_a_game_it_ends() {
    let dir = scratch("move");
    // Ended by a rule: white takes black's last piece.
    let path = write(
        &dir,
        "rule.game",
        "[Game \"halatafl\"]\n[Setup \"7/7/7/3m3/3M3/7/7 w -\"]\n[Result \"*\"]\n\n",
    );
    let (code, out, err) = run(&["move", &path, "d3xd5"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        read(&path),
        "[Game \"halatafl\"]\n[Setup \"7/7/7/3m3/3M3/7/7 w -\"]\n[Result \"white\"]\n\
         [Termination \"normal\"]\n\n1. d3xd5\n"
    );
    // Ended by a resignation, with a `*` marker: it becomes the two-seat marker, and the
    // label the user wrote is kept, with no space left at the end of the line before.
    let path = write(
        &dir,
        "resign.game",
        "[Game \"halatafl\"]\n[Result \"*\"]\n\n1. e3-d4 *\n",
    );
    let (code, out, err) = run(&["move", &path, "black: resign"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        read(&path),
        "[Game \"halatafl\"]\n[Result \"white\"]\n[Termination \"resignation\"]\n\n\
         1. e3-d4\n1... black: resign 1-0\n"
    );
    // A game of three seats: a resignation that does not end it keeps the `*`; the one
    // that ends it removes it (only `*` exists there; the Result tag says the rest).
    let path = write(
        &dir,
        "three.game",
        "[Game \"thaayam\"]\n[Seats \"south east north\"]\n[Seed \"5\"]\n[Result \"*\"]\n\n*\n",
    );
    let (code, out, err) = run(&["move", &path, "resign"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(read(&path).ends_with("\n1. resign *\n"), "{}", read(&path));
    let (code, out, err) = run(&["move", &path, "resign"]);
    assert_eq!(code, 0, "{out}{err}");
    let text = read(&path);
    assert!(
        text.contains("[Result \"east\"]\n[Termination \"resignation\"]\n"),
        "{text}"
    );
    assert!(text.ends_with("\n1. resign\n2. resign\n"), "{text}");
    for name in ["rule.game", "resign.game", "three.game"] {
        let p = dir.join(name);
        let (code, out, err) = run(&["check", p.to_str().expect("utf-8")]);
        assert_eq!(code, 0, "{name}: {out}{err}");
    }
}

#[test]
fn play_record_completes_the_record_of_a_game_it_ends() {
    let dir = scratch("play");
    let path = dir.join("p.game");
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = run_with_input(
        &["play", "halatafl", "--record", p],
        b"e3-d4\nblack: draw\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let text = read(p);
    assert!(
        text.contains("[Result \"draw\"]\n[Termination \"agreement\"]\n"),
        "{text}"
    );
    assert!(text.ends_with("\n1. e3-d4\n1... black: draw\n"), "{text}");
    let (code, out, err) = run(&["check", p]);
    assert_eq!(code, 0, "{out}{err}");
    // Taking the ending turn back takes the result back with it.
    let path = dir.join("undo.game");
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = run_with_input(
        &["play", "halatafl", "--record", p],
        b"e3-d4\ndraw\n:undo\n",
    );
    assert_eq!(code, 0, "{out}{err}");
    let text = read(p);
    assert!(text.contains("[Result \"*\"]\n\n"), "{text}");
    assert!(!text.contains("Termination"), "{text}");
}

#[test]
fn play_record_resumes_an_open_record_and_appends_on_a_line_of_its_own() {
    let dir = scratch("resume");
    // A `*` marker leaves the game open: it is taken out (turns are appended at the
    // end), the comment after it kept.
    let p = write(
        &dir,
        "star.game",
        "[Game \"halatafl\"]\n[Result \"*\"]\n\n1. e3-d4 * {adjourned}\n",
    );
    let (code, out, err) = run_with_input(&["play", "halatafl", "--record", &p], b"c5xe3\n");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "ok 2: white to move\n");
    assert_eq!(
        read(&p),
        "[Game \"halatafl\"]\n[Result \"*\"]\n\n1. e3-d4 {adjourned}\n1... c5xe3\n"
    );
    let (code, out, err) = run_with_input(&["play", "halatafl", "--record", &p], b"resign\n");
    assert_eq!(code, 0, "{out}{err}");
    // The turn that ends the game is appended too, and the header then says how it
    // ended: the record is edited, not written again, so its comment stays.
    assert_eq!(
        read(&p),
        "[Game \"halatafl\"]\n[Result \"black\"]\n[Termination \"resignation\"]\n\n\
         1. e3-d4 {adjourned}\n1... c5xe3\n2. resign\n"
    );
    let (code, out, err) = run(&["check", &p]);
    assert_eq!(code, 0, "{out}{err}");
    // A last line without its line end: the turn goes on a line of its own.
    let p = write(&dir, "no-eol.game", "[Game \"halatafl\"]\n\n1. e3-d4");
    let (code, out, err) = run_with_input(&["play", "halatafl", "--record", &p], b"c5xe3\n");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(read(&p), "[Game \"halatafl\"]\n\n1. e3-d4\n1... c5xe3\n");
    let (code, out, err) = run(&["check", &p]);
    assert_eq!(code, 0, "{out}{err}");
    // A game closed by a result's marker is not resumed.
    let p = write(
        &dir,
        "closed.game",
        "[Game \"halatafl\"]\n[Result \"white\"]\n[Termination \"abandoned\"]\n\n1. e3-d4 1-0\n",
    );
    let (code, out, err) = run_with_input(&["play", "halatafl", "--record", &p], b"c5xe3\n");
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("ends with the marker `1-0`"), "{err}");
}
