//! Each problem said once, in the user's terms (issue 34): a ruleset error's place, a
//! file that cannot be read, a record file in a directory that is not there, a rulesets
//! directory that is not there, a negative `--turn`, the source a ruleset reads.

use crate::common::{run, run_with_input};

#[test]
fn each_problem_is_said_once_in_the_users_terms() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.game");
    std::fs::write(
        &typo,
        "[Game \"halatafl\"]\n[Options \"emperer = true\"]\n\n1. e3-d4\n",
    )
    .unwrap();
    let typo = typo.to_str().unwrap();
    let (code, out, _) = run(&["check", typo]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "error[ruleset]: unknown setting `emperer` for `halatafl`; did you mean `emperor`?"
        ),
        "{out}"
    );
    assert_eq!(
        out.matches("typo.game:2:11").count(),
        1,
        "the place once: {out}"
    );

    let (code, out, err) = run(&["check", "no-such-file.game"]);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "said once: {err}");
    assert!(
        err.starts_with("referee: cannot read no-such-file.game"),
        "{err}"
    );

    let missing = dir.path().join("nowhere").join("game.game");
    let (code, _, err) = run_with_input(
        &["play", "halatafl", "--record", missing.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("the directory") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!err.contains("at path"), "no temporary file named: {err}");

    let (code, _, err) = run(&[
        "check",
        "--rulesets",
        "/no/such/dir",
        "games/halatafl/opening.game",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--rulesets /no/such/dir: no such directory"),
        "{err}"
    );

    let (code, _, err) = run(&["show", "games/halatafl/opening.game", "--turn", "-1"]);
    assert_eq!(code, 2);
    assert!(err.contains("`-1` is no turn"), "{err}");
    assert!(!err.contains("-- -1"), "no tip that does not work: {err}");

    let (_, out, _) = run(&["rules", "halatafl"]);
    assert!(
        out.contains("source: the rule text halatafl.txt (the original, not shipped with referee)"),
        "{out}"
    );
}
