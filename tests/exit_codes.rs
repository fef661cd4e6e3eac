//! One rule for exit codes across the commands that read a record (issue 34): 0 when the
//! replay finds the record valid, 1 when it finds it invalid (after printing what was
//! asked, at the position where the replay stops), 2 for a `--turn` that is not in the
//! record, past its end or a number it never reaches.

use crate::common::run;

const VALID: &str = "games/halatafl/opening.game";
const INVALID: &str = "games/halatafl/disputed-missed-capture-compulsory.game";

/// Each command that reads a record, with what it needs to answer quickly.
fn commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["show"],
        vec!["show", "--format", "svg"],
        vec!["show", "--format", "html"],
        vec!["moves"],
        vec!["score"],
        vec!["adjudicate"],
        vec![
            "analyse",
            "--playouts",
            "50",
            "--seed",
            "s",
            "--threads",
            "1",
        ],
        vec![
            "moves",
            "--best",
            "--playouts",
            "50",
            "--seed",
            "s",
            "--threads",
            "1",
        ],
    ]
}

fn with(args: &[&str], file: &str, more: &[&str]) -> (i32, String, String) {
    let mut all: Vec<&str> = vec![args[0], file];
    all.extend(&args[1..]);
    all.extend(more);
    run(&all)
}

#[test]
fn every_command_that_reads_a_record_exits_by_one_rule() {
    let (_, out, _) = run(&["check", "--format", "json", VALID]);
    let turns = serde_json::from_str::<serde_json::Value>(&out).expect("json")["turns"]
        .as_u64()
        .expect("turns") as usize;
    let past = (turns + 1).to_string();
    for args in commands() {
        let (code, _, err) = with(&args, VALID, &[]);
        assert_eq!(code, 0, "{args:?} on a valid record: {err}");
        let (code, _, err) = with(&args, INVALID, &[]);
        assert_eq!(code, 1, "{args:?} on an invalid record: {err}");
        // The last turn is there; one past it is not.
        let (code, _, err) = with(&args, VALID, &["--turn", &turns.to_string()]);
        assert_eq!(code, 0, "{args:?} --turn {turns}: {err}");
        let (code, out, err) = with(&args, VALID, &["--turn", &past]);
        assert_eq!(code, 2, "{args:?} --turn {past}: {out}");
        assert!(
            err.contains(&format!(
                "--turn {past} is past the end: the record has {turns} turns"
            )),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?}: nothing on stdout: {out}");
        let (code, _, err) = with(&args, VALID, &["--turn", "99."]);
        assert_eq!(code, 2, "{args:?} --turn 99.: {err}");
        assert!(err.contains("no turn numbered 99."), "{args:?}: {err}");
    }
}
