//! Tests of the Halatafl rules: one or more per rule id, every setting, the end checks
//! and their order, the setup notation, and random playouts that check the legal-turn
//! generator against the judge.

use std::collections::BTreeMap;

use super::*;
use crate::games::{Game, Violation as _};
use crate::notation::halatafl::{parse_turn, Move, Path, Promotion, Square, Turn};
use crate::ruleset::{Origin, Setting, Value};

// ---------------------------------------------------------------------------------------
// Helpers

fn sq(name: &str) -> Square {
    Square::parse(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// A setup string from pieces written `Md4 mb7 Ka1` (an independent writer, so round
/// trips test something).
fn setup(pieces: &str, to_move: char, huffs: &str) -> String {
    let mut grid = [['.'; 7]; 7];
    for item in pieces.split_whitespace() {
        let (c, name) = item.split_at(1);
        let at = sq(name);
        grid[at.rank() as usize][at.file() as usize] = c.chars().next().unwrap();
    }
    let mut text = String::new();
    for r in (0..7).rev() {
        let mut run = 0;
        for &c in &grid[r] {
            if c == '.' {
                run += 1;
            } else {
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(c);
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        if r > 0 {
            text.push('/');
        }
    }
    format!("{text} {to_move} {huffs}")
}

fn pos(s: &Settings, pieces: &str, to_move: char) -> State {
    pos_h(s, pieces, to_move, "-")
}

fn pos_h(s: &Settings, pieces: &str, to_move: char, huffs: &str) -> State {
    let text = setup(pieces, to_move, huffs);
    Halatafl::parse_setup(s, &text).unwrap_or_else(|v| panic!("setup {text}: {v}"))
}

fn turn(text: &str) -> Turn {
    match parse_turn(text) {
        TurnParse::Turn(t, len) if len == text.len() => t,
        other => panic!("{text:?} is not one whole turn: {other:?}"),
    }
}

fn ok(s: &Settings, st: &mut State, text: &str) {
    if let Err(v) = Halatafl::play(s, st, None, &turn(text)) {
        panic!("{text} refused: {v} ({})", v.rule());
    }
}

fn err(s: &Settings, st: &State, text: &str) -> Violation {
    let mut copy = *st;
    match Halatafl::play(s, &mut copy, None, &turn(text)) {
        Ok(()) => panic!("{text} accepted"),
        Err(v) => {
            assert_eq!(copy, *st, "a refused turn changed the state");
            v
        }
    }
}

fn rule(s: &Settings, st: &State, text: &str) -> &'static str {
    err(s, st, text).rule()
}

fn legal(s: &Settings, st: &State) -> Vec<String> {
    let mut out = Vec::new();
    Halatafl::legal_turns(s, st, None, &mut out);
    out.iter().map(|t| t.to_string()).collect()
}

fn end(s: &Settings, st: &State) -> Option<End> {
    match Halatafl::status(s, st) {
        Status::Over(e) => Some(e),
        Status::Playing { .. } => None,
    }
}

fn won(s: &Settings, st: &State, seat: u8, reason: &str, rule: &str) {
    let e = end(s, st).unwrap_or_else(|| panic!("game not over: {st:?}"));
    assert_eq!(e.winners, SeatSet::only(Seat(seat)), "{e:?}");
    assert!(!e.draw);
    assert_eq!(e.reason, reason);
    assert_eq!(e.rule, Some(rule));
}

fn drawn(s: &Settings, st: &State, reason: &str, rule: &str) {
    let e = end(s, st).unwrap_or_else(|| panic!("game not over: {st:?}"));
    assert!(e.draw, "{e:?}");
    assert!(e.winners.is_empty());
    assert_eq!(e.reason, reason);
    assert_eq!(e.rule, Some(rule));
}

fn piece(st: &State, at: &str) -> Option<(u8, Rank)> {
    st.piece_at(sq(at)).map(|p| (p.seat.0, p.rank))
}

const W: u8 = 0;
const B: u8 = 1;

fn with(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::default();
    f(&mut s);
    s
}

// ---------------------------------------------------------------------------------------
// Start, schema, settings

#[test]
fn start_position_legal_turns() {
    let s = Settings::default();
    let st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(legal(&s, &st), ["c3-d4", "d3-d4", "e3-d4", "e4-d4"]);
    assert_eq!(
        Halatafl::setup_string(&s, &st),
        "1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -"
    );
    assert_eq!(st.count(Seat(W)), 22);
    assert_eq!(st.count(Seat(B)), 22);
    assert_eq!(
        Halatafl::standings(&s, &st),
        vec![
            Standing {
                seat: Seat(0),
                value: 22,
                unit: "pieces"
            },
            Standing {
                seat: Seat(1),
                value: 22,
                unit: "pieces"
            }
        ]
    );
    assert_eq!(Halatafl::seats(&s), &[Seat(0), Seat(1)]);
}

pub(super) struct NoTags;
impl Tags for NoTags {
    fn tag(&self, _name: &str) -> Option<&str> {
        None
    }
}

#[test]
fn turn_order_alternates_and_first_decides() {
    let s = Settings::default();
    let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(
        Halatafl::status(&s, &st),
        Status::Playing { to_move: Seat(W) }
    );
    // Black cannot move while white is to move: c5 holds no white piece.
    assert_eq!(rule(&s, &st, "c5-d4"), "step");
    ok(&s, &mut st, "e3-d4");
    assert_eq!(
        Halatafl::status(&s, &st),
        Status::Playing { to_move: Seat(B) }
    );
    assert_eq!(rule(&s, &st, "d3-e3"), "step");

    let s = with(|s| s.first = Seat(B));
    let st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(
        Halatafl::status(&s, &st),
        Status::Playing { to_move: Seat(B) }
    );
    assert_eq!(legal(&s, &st), ["c4-d4", "c5-d4", "d5-d4", "e5-d4"]);
}

fn ruleset(values: &[(&str, Value)]) -> Ruleset {
    let mut settings = BTreeMap::new();
    for (k, v) in values {
        settings.insert(
            k.to_string(),
            Setting {
                value: v.clone(),
                origin: Origin::Default,
            },
        );
    }
    Ruleset {
        name: "test".into(),
        game: "halatafl".into(),
        title: None,
        source: None,
        file: "test.rules".into(),
        chain: vec!["test".into()],
        settings,
        rules: BTreeMap::new(),
        texts: BTreeMap::new(),
        data: BTreeMap::new(),
    }
}

fn word(w: &str) -> Value {
    Value::Word(w.into())
}

fn call(name: &str, n: i64) -> Value {
    Value::Call {
        name: name.into(),
        args: vec![Value::Int(n)],
    }
}

#[test]
fn schema_declares_every_setting_and_rule() {
    let schema = Halatafl::schema();
    assert_eq!(schema.game, "halatafl");
    let keys: Vec<&str> = schema.settings.iter().map(|s| s.key).collect();
    assert_eq!(
        keys,
        [
            "seats",
            "first",
            "numbering",
            "diagonals",
            "men",
            "capture",
            "continue-jumps",
            "promotion",
            "emperor",
            "win",
            "quiet-limit",
            "no-moves"
        ]
    );
    for spec in schema.settings {
        assert!(!spec.description.is_empty());
        assert!(!spec.description.contains('\n'));
    }
    for id in [
        "step",
        "jump",
        "multi-jump",
        "continue-jumps",
        "compulsory-capture",
        "huff",
        "own-throne",
        "promotion",
        "king-move",
        "emperor",
        "emperor-move",
        "win-capture-all",
        "win-reduce-to",
        "win-thrones",
        "no-moves",
        "quiet-limit",
        "turn-order",
        "game-over",
        "setup",
        "address",
    ] {
        assert!(schema.rules.contains(&id), "{id}");
    }
    assert_eq!(schema.setting_for_rule("huff"), Some("capture"));
    assert_eq!(schema.setting_for_rule("win-thrones"), Some("win"));
    assert_eq!(schema.setting_for_rule("emperor-move"), Some("emperor"));
    assert_eq!(schema.setting_for_rule("address"), None);
    for (rule, key) in schema.rule_settings {
        assert!(schema.rules.contains(rule), "{rule}");
        assert!(schema.setting(key).is_some(), "{key}");
    }
}

#[test]
fn settings_from_ruleset_defaults_and_values() {
    // Written defaults give Settings::default().
    let defaults = ruleset(&[
        ("seats", Value::List(vec![word("white"), word("black")])),
        ("first", word("white")),
        ("numbering", word("rounds")),
        ("diagonals", word("main")),
        ("men", word("forward-sideways")),
        ("capture", word("compulsory-huff")),
        ("continue-jumps", word("compulsory")),
        ("promotion", Value::Bool(true)),
        ("emperor", Value::Bool(false)),
        ("win", word("capture-all")),
        ("quiet-limit", Value::Int(0)),
        ("no-moves", word("loses")),
    ]);
    assert_eq!(Halatafl::settings(&defaults), Settings::default());
    // Every schema default is what Settings::default() holds.
    for spec in Halatafl::schema().settings {
        let v = match spec.default {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            "0" => Value::Int(0),
            "[white black]" => Value::List(vec![word("white"), word("black")]),
            w => word(w),
        };
        let r = ruleset(&[(spec.key, v)]);
        assert_eq!(Halatafl::settings(&r), Settings::default(), "{}", spec.key);
    }
    let r = ruleset(&[
        ("first", word("black")),
        ("numbering", word("turns")),
        ("diagonals", word("alquerque")),
        ("men", word("any")),
        ("capture", word("optional")),
        ("continue-jumps", word("optional")),
        ("promotion", Value::Bool(false)),
        ("emperor", Value::Bool(true)),
        ("win", call("thrones", 2)),
        ("quiet-limit", Value::Int(40)),
        ("no-moves", word("draw")),
    ]);
    assert_eq!(
        Halatafl::settings(&r),
        Settings {
            first: Seat(1),
            numbering: Numbering::Turns,
            diagonals: Diagonals::Alquerque,
            men: Men::Any,
            capture: Capture::Optional,
            continue_jumps: ContinueJumps::Optional,
            promotion: false,
            emperor: true,
            win: Win::Thrones(2),
            quiet_limit: 40,
            no_moves: NoMoves::Draw,
        }
    );
    let r = ruleset(&[
        ("win", call("reduce-to", 5)),
        ("diagonals", word("none")),
        ("capture", word("compulsory")),
    ]);
    let s = Halatafl::settings(&r);
    assert_eq!(s.win, Win::ReduceTo(5));
    assert_eq!(s.diagonals, Diagonals::None);
    assert_eq!(s.capture, Capture::Compulsory);
    // Anything unexpected falls back to the default, never panics.
    let r = ruleset(&[
        ("win", call("reduce-to", 99)),
        ("diagonals", Value::Int(3)),
        ("quiet-limit", Value::Int(-1)),
        ("promotion", word("yes")),
    ]);
    assert_eq!(Halatafl::settings(&r), Settings::default());
}

mod ends;
mod moves;
mod playouts;

pub(super) use playouts::{random_position, variants, Rng};
