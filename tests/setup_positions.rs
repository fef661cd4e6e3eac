//! `show --format setup` against what the guides say of it, game by game (issue 34,
//! item 8): for Halatafl, Thaayam and Halves the string is a whole position, so a record
//! with it as its `Setup` and the turns that followed goes on to the same end; Halasi's
//! lists the layout only — solitaire's `Setup` of a record that starts before the home
//! turn, and in the table game no `Setup` at all — and the command says so.

use crate::common;

use common::{run, run_with_input};
use serde_json::Value;

/// The tags of a record that say which game is played and by whom; the seed, the
/// setup, the result and the first seat are left out (a `Setup` replaces them).
fn game_tags(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::root().join(file)).unwrap();
    text.lines()
        .take_while(|l| l.starts_with('['))
        .filter(|l| {
            ["[Game ", "[Ruleset ", "[Options ", "[Seats "]
                .iter()
                .any(|t| l.starts_with(t))
        })
        .map(str::to_string)
        .collect()
}

/// Each turn of a valid record as its seat and text, from `adjudicate`.
fn turns(file: &str) -> Vec<(String, String)> {
    let (code, out, err) = run(&["adjudicate", file, "--format", "json"]);
    assert_eq!(code, 0, "{file}: {out}{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["seat"].as_str().unwrap().to_string(),
                t["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `show --format setup` of a file or (with `-`) of `input`: (stdout trimmed, stderr).
fn setup_of(file: &str, turn: Option<usize>, input: &str) -> (String, String) {
    let n = turn.map(|t| t.to_string());
    let mut args = vec!["show", file, "--format", "setup"];
    if let Some(n) = &n {
        args.extend(["--turn", n]);
    }
    let (code, out, err) = run_with_input(&args, input.as_bytes());
    assert_eq!(code, 0, "{file}: {err}");
    (out.trim().to_string(), err)
}

/// A record of the game of `file` starting from `setup`, then `turns` labelled with
/// their seats.
fn from_setup(file: &str, setup: &str, turns: &[(String, String)]) -> String {
    let mut text = game_tags(file).join("\n");
    text.push_str(&format!("\n[Setup \"{setup}\"]\n\n"));
    for (seat, turn) in turns {
        text.push_str(&format!("{seat}: {turn}\n"));
    }
    text
}

/// `check --format json` of a record given as text.
fn check(text: &str) -> Value {
    let (_, out, err) = run_with_input(&["check", "-", "--format", "json"], text.as_bytes());
    serde_json::from_str(out.lines().next().unwrap_or_else(|| panic!("{err}"))).unwrap()
}

/// After every `step`-th turn of `file`: the setup string, a record from it with the
/// turns that followed, valid, ending on the same position as `file`, with no note that
/// the string is less than a position.
fn round_trips(file: &str, step: usize) {
    let turns = turns(file);
    let (end, note) = setup_of(file, None, "");
    assert_eq!(note, "", "{file}: a whole position needs no note");
    for cut in (0..turns.len()).step_by(step) {
        let (setup, _) = setup_of(file, Some(cut), "");
        let text = from_setup(file, &setup, &turns[cut..]);
        let v = check(&text);
        assert_eq!(v["valid"], true, "{file} from turn {cut}: {v}\n{text}");
        assert_eq!(setup_of("-", None, &text).0, end, "{file} from turn {cut}");
    }
}

#[test]
fn a_halatafl_setup_string_is_a_position_a_record_goes_on_from() {
    round_trips("games/halatafl/complete-emperor.game", 1);
    round_trips("games/halatafl/disputed-promotion-in-passing.game", 1);
}

/// A record without a seed: the throws that follow the position are written.
#[test]
fn a_thaayam_setup_string_is_a_position_a_record_goes_on_from() {
    round_trips("games/thaayam/physical-throws.game", 3);
}

/// A game whose layout was random, and one where a seat resigns.
#[test]
fn a_halves_setup_string_is_a_position_a_record_goes_on_from() {
    round_trips("games/halves/complete-random.game", 1);
    round_trips("games/halves/complete-3p-resign.game", 1);
}

/// Solitaire's setup string is its layout, at any turn: the record that starts from it
/// names its home and writes every draw, and replays the seeded game to the same end.
#[test]
fn a_halasi_solitaire_setup_string_is_the_layout_a_record_starts_from_before_its_home() {
    let file = "games/halasi/solitaire-win.game";
    let turns = turns(file);
    let (end, note) = setup_of(file, None, "");
    assert!(
        note.contains("solitaire's layout laid after the home")
            && note.contains("starts before the home turn"),
        "{note}"
    );
    for cut in [1, 5, turns.len()] {
        assert_eq!(
            setup_of(file, Some(cut), "").0,
            end,
            "the layout of turn {cut}"
        );
    }
    let text = from_setup(file, &end, &turns);
    let v = check(&text);
    assert_eq!(v["valid"], true, "{v}\n{text}");
    assert_eq!(v["status"]["winners"], serde_json::json!(["a"]), "{v}");
    // From a later turn, without the home turn, it is no position to go on from.
    let v = check(&from_setup(file, &end, &turns[1..]));
    assert_eq!(v["valid"], false, "{v}");
}

/// The table game has no `Setup`: its setup string lists the layout, the command says
/// what it is, and a record given it as a `Setup` is refused.
#[test]
fn a_halasi_table_setup_string_is_the_layout_only_and_says_so() {
    let file = "games/halasi/table-2-seats.game";
    let (layout, note) = setup_of(file, None, "");
    assert!(layout.starts_with("AT4 @0,0 r0, AT1 @1,-1 r1"), "{layout}");
    assert!(
        note.contains("the territories of the layout only")
            && note.contains("a record cannot start from it"),
        "{note}"
    );
    let (code, out, _) = run(&["show", file, "--format", "json"]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["setup"], layout.as_str());
    assert!(
        v["setup_note"].as_str().unwrap().contains("layout only"),
        "{v}"
    );
    let v = check(&from_setup(file, &layout, &[]));
    assert_eq!(v["valid"], false, "{v}");
    assert_eq!(v["errors"][0]["rule"], "setup", "{v}");
}
