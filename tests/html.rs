//! `show --format svg` for Thaayam and `show --format html`: the picture of a position,
//! and the page that steps through a record (structure, the ruling of a disputed
//! record, escaping, no outside references).

mod common;

use common::run;

/// Writes `text` as a record file in a new temporary directory.
fn record(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.game");
    std::fs::write(&p, text).unwrap();
    let p = p.to_str().unwrap().to_string();
    (dir, p)
}

/// Three seats: twins, pieces of several seats sharing a palace, pieces in the keep,
/// in hand and borne off; west to move.
const THAAYAM_SETUP: &str = "[Game \"thaayam\"]\n[Ruleset \"thaayam-bell\"]\n\
[Seats \"south west east\"]\n\
[Setup \"south: Tc5 c5 c3; west: c5 hand=1 off=2; east: Tb3 c3 hand=1; to-move: west\"]\n\n";

#[test]
fn thaayam_svg() {
    let (_dir, p) = record(THAAYAM_SETUP);
    let (code, out, err) = run(&["show", &p, "--format", "svg"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("thaayam-svg", out);
}
