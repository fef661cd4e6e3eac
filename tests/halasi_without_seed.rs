//! Halasi played without a seed, as a new user meets it (issue 34): solitaire's roll
//! errors speak of no purse.

use crate::common;

use common::{run, run_with_input};
use serde_json::Value;

/// A new record without a seed for `seats` (none: the default two), its homes named:
/// (its folder, its path).
fn after_homes(seats: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.game").to_str().unwrap().to_string();
    let mut args = vec!["new", "halasi", "--no-seed"];
    if !seats.is_empty() {
        args.push("--seats");
        args.extend(seats);
    }
    let (code, header, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    std::fs::write(&path, header).unwrap();
    for i in 0..seats.len().max(2) {
        let home = ["home M1", "home M2"][i % 2];
        let (code, out, err) = run(&["move", &path, home]);
        assert_eq!(code, 0, "{out}{err}");
    }
    (dir, path)
}

/// A solitaire roll that draws the wrong number of dominos is ruled without a purse,
/// which solitaire does not have; the table game's names the purse that limits it.
#[test]
fn a_solitaire_roll_error_speaks_of_no_purse() {
    let text = "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n\
                [Setup \"AT1 @1,0 r0, AM2 @0,1 r0\"]\n\n\
                1. home M1\n2. [IO QQ RX SS] [2: XS] XS@AM1.3/AM1.16\n";
    let (code, out, _) = run_with_input(&["check", "-", "--format", "json"], text.as_bytes());
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let e = &v["errors"][0];
    assert_eq!(e["rule"], "roll-and-buy", "{v}");
    assert_eq!(
        e["message"], "a: a roll of 2 draws 2 dominos (268 in the pool), not 1",
        "{v}"
    );
    assert_eq!(
        e["hint"],
        "solitaire has no purse: it draws as many dominos as the roll shows, fewer only \
         when the pool runs short; this roll of 2 draws 2",
        "{v}"
    );
    // The table game: the purse is what limits a purchase.
    let (_dir, path) = after_homes(&[]);
    for t in [
        "b: [XF OI UY 9S] place BM2 @0,0 r0",
        "a: [IS OU FY XM] place AM1 @1,0 r0",
        "place AT1 @0,1 r0",
        "place BT2 @1,-1 r0",
    ] {
        assert_eq!(run(&["move", &path, t]).0, 0, "{t}");
    }
    let (code, out, _) = run(&[
        "move",
        &path,
        "a: [2: II] XM@AM1.3/AM1.16",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("a roll of 2 buys 2 dominos (purse 888, 264 in the pool), not 1"),
        "{out}"
    );
    assert!(out.contains("a has 888 in its purse"), "{out}");
}
