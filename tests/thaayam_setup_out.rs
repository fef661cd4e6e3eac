//! Issue 9, finding thaayam/resigned-seat, through the binary: a three-seat game where
//! a seat resigns, `show --format setup`, and a new record starting from that setup
//! goes on without the seat that left.

use crate::common;

use common::{run, run_with_input};
use serde_json::Value;

const HEADER: &str = "[Game \"thaayam\"]\n[Seats \"south west north\"]\n";

/// South, west and north play a turn each, then south resigns.
const PLAYED: &str = "[First \"south\"]\n\n\
    1. [1 4 1 1 2] enter, enter, c1+4, c1+2+1 2. [8 8 1 3] enter, a3+3\n\
    3. [4 1 2] enter, c5+2 4. resign\n";

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn setup_of(path: &str) -> String {
    let (code, out, err) = run(&["show", path, "--format", "setup"]);
    assert_eq!(code, 0, "{err}");
    out.trim().to_string()
}

/// `check --format json` of one record: (exit code, its JSON line).
fn check(text: &str) -> (i32, Value) {
    let (code, out, err) = run_with_input(&["check", "-", "--format", "json"], text.as_bytes());
    assert!(code == 0 || code == 1, "exit {code}: {err}");
    let line = out.lines().next().expect("one record");
    (code, serde_json::from_str(line).unwrap())
}

#[test]
fn a_resigned_seat_stays_out_through_show_setup_and_a_new_record() {
    let dir = tempfile::tempdir().unwrap();
    let first = write(&dir, "first.game", &format!("{HEADER}{PLAYED}"));
    let setup = setup_of(&first);
    assert_eq!(
        setup,
        "south: out; west: b1 hand=3; north: a5 hand=3; to-move: west"
    );

    // The new record: west and north play, then it is west's turn again (south is
    // skipped); the position is the one written out, south still out.
    let moves = "1. [1 3] b1+3+1 2. [2] a5+2\n";
    let next = format!("{HEADER}[Setup \"{setup}\"]\n\n{moves}");
    let (code, v) = check(&next);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["turns"], 2);
    let second = write(&dir, "second.game", &next);
    assert_eq!(
        setup_of(&second),
        "south: out; west: e2 hand=3; north: a3 hand=3; to-move: west"
    );

    // South cannot play in it.
    let (code, v) = check(&format!("{next}3. south: [2] c1+2\n"));
    assert_eq!(code, 1);
    assert_eq!(v["errors"][0]["rule"], "turn-order", "{v}");

    // West resigning now leaves north alone: north wins, as in a game played through.
    let (code, v) = check(&format!("{next}3. resign\n"));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"]["winners"], serde_json::json!(["north"]));
    assert_eq!(v["status"]["reason"], "resignation");
    let (code, v) = check(&format!(
        "{HEADER}{PLAYED}5. [1 3] b1+3+1 6. [2] a5+2 7. resign\n"
    ));
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["status"]["winners"], serde_json::json!(["north"]));
}

#[test]
fn out_with_pieces_is_a_setup_error_at_the_tag() {
    let text = format!(
        "{HEADER}[Setup \"south: out c1; west: b1 hand=3; north: a5 hand=3; to-move: west\"]\n\n"
    );
    let (code, v) = check(&text);
    assert_eq!(code, 1);
    let e = &v["errors"][0];
    assert_eq!(
        (&e["kind"], &e["rule"]),
        (&"setup".into(), &"setup".into()),
        "{v}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("`south: out` alone"),
        "{v}"
    );
    assert_eq!(e["line"], 3, "{v}");
}
