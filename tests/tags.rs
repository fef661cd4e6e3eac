//! Tags the referee reads are matched exactly; a near-miss of one (another case, a slip
//! of the keyboard) is a warning with "did you mean", an error under `--strict`, so a
//! misspelt `Options` can never flip a verdict in silence (issue 34).

use crate::common;

use common::run;

/// A scratch copy of an example record with one line changed.
fn variant(name: &str, from: &str, to: &str) -> String {
    let src = common::root().join("games/halatafl/disputed-missed-capture-compulsory.game");
    let text = std::fs::read_to_string(src).expect("example");
    assert!(text.contains(from), "{from}");
    let dir = common::root().join("target/tmp/tags");
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join(name);
    std::fs::write(&path, text.replace(from, to)).expect("write");
    path.to_str().expect("utf-8").to_string()
}

#[test]
fn a_misspelt_options_tag_is_a_warning_and_under_strict_an_error() {
    // As written, the record is invalid: capture is compulsory and the step misses one.
    let exact = variant("exact.game", "[Options", "[Options");
    let (code, out, _) = run(&["check", &exact]);
    assert_eq!(code, 1, "{out}");
    for (file, written) in [("option.game", "[Option"), ("lower.game", "[options")] {
        let path = variant(file, "[Options", written);
        let name = &written[1..];
        // The tag is not read, so the step stands: valid, but said loudly.
        let (code, out, err) = run(&["check", &path]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.contains(&format!(
                "warning[header]: `{name}` is not a tag the referee reads, so it is ignored; \
                 did you mean `Options`?"
            )),
            "{out}"
        );
        assert!(
            out.contains(":3:2\n"),
            "the warning points at the name: {out}"
        );
        // --quiet keeps the warning.
        let (_, out, _) = run(&["check", "-q", &path]);
        assert!(out.contains("warning[header]"), "{out}");
        // JSON: the record is valid and the warning is in `warnings`.
        let (code, out, _) = run(&["check", "--format", "json", &path]);
        assert_eq!(code, 0);
        let doc: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
        assert_eq!(doc["valid"], true);
        assert_eq!(doc["warnings"][0]["kind"], "header");
        assert_eq!(doc["warnings"][0]["line"], 3);
        // --strict: an error, exit 1.
        let (code, out, _) = run(&["check", "--strict", &path]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("error[header]: `"), "{out}");
        // adjudicate says it too.
        let (_, out, _) = run(&["adjudicate", &path]);
        assert!(out.contains("did you mean `Options`?"), "{out}");
    }
    // A record without near-misses has no `warnings` field.
    let (_, out, _) = run(&["check", "--format", "json", &exact]);
    assert!(!out.contains("warnings"), "{out}");
}

#[test]
fn a_misspelt_first_tag_is_named_beside_the_turn_order_error() {
    let dir = common::root().join("target/tmp/tags");
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join("frist.game");
    std::fs::write(
        &path,
        "[Game \"thaayam\"]\n[Frist \"north\"]\n[Result \"*\"]\n\n1. north: [4 0 0] -\n",
    )
    .expect("write");
    let (code, out, _) = run(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("turn-order"), "{out}");
    assert!(
        out.contains(
            "`Frist` is not a tag the referee reads, so it is ignored; did you mean `First`?"
        ),
        "{out}"
    );
}

#[test]
fn a_game_tag_in_another_case_is_pointed_at() {
    let path = variant("game.game", "[Game", "[game");
    let (code, out, err) = run(&["check", &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("`game` is not `Game`"), "{out}");
}
