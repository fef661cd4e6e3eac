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

// ---------------------------------------------------------------------------------------
// step, lines, settings that change steps

fn step_targets(s: &Settings, st: &State, from: &str) -> Vec<String> {
    legal(s, st)
        .into_iter()
        .filter(|t| t.starts_with(from) && t.contains('-'))
        .collect()
}

#[test]
fn centre_point_has_5_3_8_targets() {
    let board = "Md4 mf7";
    let s = Settings::default();
    assert_eq!(
        step_targets(&s, &pos(&s, board, 'w'), "d4"),
        ["d4-c4", "d4-e4", "d4-c5", "d4-d5", "d4-e5"]
    );
    let s = with(|s| s.diagonals = Diagonals::None);
    assert_eq!(
        step_targets(&s, &pos(&s, board, 'w'), "d4"),
        ["d4-c4", "d4-e4", "d4-d5"]
    );
    let s = with(|s| s.men = Men::Any);
    assert_eq!(step_targets(&s, &pos(&s, board, 'w'), "d4").len(), 8);
    let s = with(|s| s.diagonals = Diagonals::Alquerque);
    assert_eq!(step_targets(&s, &pos(&s, board, 'w'), "d4").len(), 5);
}

#[test]
fn alquerque_diagonals_run_through_even_points() {
    let board = "Mb4 Mb3 mf7";
    let main = Settings::default();
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    // b4: file 1 + rank 3 even: diagonals only with alquerque.
    assert_eq!(
        step_targets(&main, &pos(&main, board, 'w'), "b4"),
        ["b4-a4", "b4-c4", "b4-b5"]
    );
    assert_eq!(
        step_targets(&alq, &pos(&alq, board, 'w'), "b4"),
        ["b4-a4", "b4-c4", "b4-a5", "b4-b5", "b4-c5"]
    );
    // b3: odd, no diagonal in either.
    assert_eq!(rule(&alq, &pos(&alq, board, 'w'), "b3-c4"), "step");
    assert_eq!(rule(&main, &pos(&main, board, 'w'), "b3-a4"), "step");
    // c3 lies on a1–g7: a diagonal with main too.
    let st = pos(&main, "Mc3 mf7", 'w');
    let mut st2 = st;
    ok(&main, &mut st2, "c3-d4");
    assert_eq!(rule(&main, &st, "c3-b4"), "step");
}

#[test]
fn step_rule() {
    let s = Settings::default();
    let st = pos(&s, "Md4 Me5 mb7", 'w');
    for bad in ["d4-d3", "d4-c3", "d4-d6", "d4-d4", "d4-e5", "c3-c4"] {
        assert_eq!(rule(&s, &st, bad), "step", "{bad}");
    }
    assert!(err(&s, &st, "d4-d3").to_string().contains("backward"));
    assert!(err(&s, &st, "d4-e5").to_string().contains("not vacant"));
    assert!(matches!(
        err(&s, &st, "c3-c4"),
        Violation::NoPieceToStep { .. }
    ));
    let mut st2 = st;
    ok(&s, &mut st2, "d4-c4");
    assert_eq!(piece(&st2, "c4"), Some((W, Rank::Man)));
    assert_eq!(piece(&st2, "d4"), None);
    // Black's forward is down the board.
    let st = pos(&s, "Mb1 md4", 'b');
    assert_eq!(rule(&s, &st, "d4-d5"), "step");
    assert_eq!(rule(&s, &st, "d4-e5"), "step");
    let mut st2 = st;
    ok(&s, &mut st2, "d4-c3");
    // With men = any a man may step back.
    let s = with(|s| s.men = Men::Any);
    let mut st = pos(&s, "Md4 mb7", 'w');
    ok(&s, &mut st, "d4-d3");
}

// ---------------------------------------------------------------------------------------
// jump, multi-jump

#[test]
fn jump_rule() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    for bad in ["d4xd2", "d4xf4", "d4xf6", "d4xd7", "c4xc6"] {
        assert_eq!(rule(&s, &st, bad), "jump", "{bad}");
    }
    assert!(matches!(
        err(&s, &st, "c4xc6"),
        Violation::NoPieceToJump { .. }
    ));
    ok(&s, &mut st, "d4xd6");
    assert_eq!(piece(&st, "d5"), None, "the jumped piece is removed");
    assert_eq!(piece(&st, "d6"), Some((W, Rank::Man)));
    assert_eq!(st.count(Seat(B)), 1);
    // Backward jumps only with men = any.
    let st = pos(&s, "Md4 md3 mb7", 'w');
    assert!(err(&s, &st, "d4xd2").to_string().contains("backward"));
    let any = with(|s| s.men = Men::Any);
    let mut st = pos(&any, "Md4 md3 mb7", 'w');
    ok(&any, &mut st, "d4xd2");
    // Own piece, occupied landing.
    let st = pos(&s, "Md4 Md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "d4xd6"), "jump");
    let st = pos(&s, "Md4 md5 Md6 mb7", 'w');
    assert_eq!(rule(&s, &st, "d4xd6"), "jump");
    // A diagonal jump needs a diagonal line: c4-d5-e6 is none with main.
    let st = pos(&s, "Mc4 md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "c4xe6"), "jump");
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    let mut st = pos(&alq, "Mc5 md6 mb7", 'w');
    ok(&alq, &mut st, "c5xe7");
}

#[test]
fn captured_kings_and_emperors_leave_nothing_behind() {
    let e = with(|s| s.emperor = true);
    let mut st = pos(&e, "Md4 Mc5 kd5 ef7 mb7", 'w');
    ok(&e, &mut st, "d4xd6");
    assert_eq!(st.kings(), 0);
    assert_eq!(piece(&st, "d5"), None);
    ok(&e, &mut st, "f7-f5");
    ok(&e, &mut st, "c5-d5");
    assert_eq!(piece(&st, "d5"), Some((W, Rank::Man)));
    // An emperor captured by the short jump.
    let mut st = pos(&e, "Me4 Md2 ee5 mb7", 'w');
    ok(&e, &mut st, "e4xe6");
    assert_eq!(st.emperors(), 0);
    assert_eq!(piece(&st, "e5"), None);
}

#[test]
fn multi_jump_rule() {
    let s = Settings::default();
    let st = pos(&s, "Md2 md3 md5 mf4 mb7", 'w');
    let mut st2 = st;
    ok(&s, &mut st2, "d2xd4xd6");
    assert_eq!(st2.count(Seat(B)), 2);
    // Direction may change: d4 over e4? there is f4: d4xf4 needs e4.
    let st = pos(&s, "Md2 md3 me4 mb7", 'w');
    let mut st2 = st;
    ok(&s, &mut st2, "d2xd4xf4");
    // A later hop that is not a jump.
    let st = pos(&s, "Md2 md3 md5 mb7", 'w');
    assert_eq!(rule(&s, &st, "d2xd4xd2"), "multi-jump");
    assert_eq!(rule(&s, &st, "d2xd4xf4"), "multi-jump");
    assert_eq!(rule(&s, &st, "d2xd4xd7"), "multi-jump");
    // Re-jumping a piece: a king back over d3.
    let st = pos(&s, "Kd2 md3 mb7", 'w');
    let v = err(&s, &st, "d2xd4xd2");
    assert_eq!(v.rule(), "multi-jump");
    assert!(matches!(
        v,
        Violation::MultiJump {
            fault: Fault::AlreadyJumped(_),
            ..
        }
    ));
}

#[test]
fn start_counts_as_empty_and_points_may_be_revisited() {
    let s = Settings::default();
    let mut st = pos(&s, "Kb2 mc2 md3 mc4 mb3 mf7", 'w');
    assert!(legal(&s, &st).contains(&"b2xd2xd4xb4xb2".to_string()));
    ok(&s, &mut st, "b2xd2xd4xb4xb2");
    assert_eq!(st.count(Seat(B)), 1);
    assert_eq!(piece(&st, "b2"), Some((W, Rank::King)));
}

// ---------------------------------------------------------------------------------------
// capture obligations: compulsory-capture, continue-jumps, huff

#[test]
fn compulsory_capture_rule() {
    let board = "Md4 Mg2 md5 mb7";
    let comp = with(|s| s.capture = Capture::Compulsory);
    let st = pos(&comp, board, 'w');
    assert_eq!(rule(&comp, &st, "g2-g3"), "compulsory-capture");
    assert_eq!(legal(&comp, &st), ["d4xd6"]);
    // optional: the step is legal and nothing may be huffed.
    let opt = with(|s| s.capture = Capture::Optional);
    let mut st = pos(&opt, board, 'w');
    assert!(legal(&opt, &st).contains(&"g2-g3".to_string()));
    assert!(legal(&opt, &st).contains(&"d4xd6".to_string()));
    ok(&opt, &mut st, "g2-g3");
    assert_eq!(st.huffable(), 0);
    // compulsory-huff: legal, listed, and huffable.
    let s = Settings::default();
    let mut st = pos(&s, board, 'w');
    assert!(legal(&s, &st).contains(&"g2-g3".to_string()));
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(), sq("d4").bit());
}

#[test]
fn a_dead_end_jump_into_own_throne_is_no_capture() {
    let comp = with(|s| s.capture = Capture::Compulsory);
    // c1xa1 would end on white's own throne with no jump onward.
    let st = pos(&comp, "Mc1 mb1 mf7", 'w');
    assert!(!legal(&comp, &st).iter().any(|t| t.contains('x')));
    let mut st2 = st;
    ok(&comp, &mut st2, "c1-c2");
    assert_eq!(rule(&comp, &st, "c1xa1"), "own-throne");
    // With a jump onward it is a capture, and compulsory.
    let st = pos(&comp, "Mc1 mb1 ma2 mf7", 'w');
    assert_eq!(legal(&comp, &st), ["c1xa1xa3"]);
    assert_eq!(rule(&comp, &st, "c1-c2"), "compulsory-capture");
}

#[test]
fn continue_jumps_rule() {
    let board = "Md2 md3 md5 Mf4 mf5 mb7";
    // capture = compulsory: stopping early is illegal.
    let comp = with(|s| s.capture = Capture::Compulsory);
    let st = pos(&comp, board, 'w');
    let v = err(&comp, &st, "d2xd4");
    assert_eq!(v.rule(), "continue-jumps");
    assert_eq!(legal(&comp, &st), ["d2xd4xd6", "f4xf6"]);
    // capture = optional still requires the chain to go on.
    let opt = with(|s| s.capture = Capture::Optional);
    assert_eq!(
        rule(&opt, &pos(&opt, board, 'w'), "d2xd4"),
        "continue-jumps"
    );
    // continue-jumps = optional: any chain may stop.
    let free = with(|s| {
        s.capture = Capture::Compulsory;
        s.continue_jumps = ContinueJumps::Optional;
    });
    let mut st = pos(&free, board, 'w');
    assert_eq!(legal(&free, &st), ["d2xd4", "d2xd4xd6", "f4xf6"]);
    ok(&free, &mut st, "d2xd4");
    assert_eq!(st.huffable(), 0);
    // compulsory-huff: legal, and only the chain's piece may be huffed (not f4).
    let s = Settings::default();
    let before = pos(&s, board, 'w');
    let mut st = before;
    ok(&s, &mut st, "d2xd4");
    assert_eq!(st.huffable(), sq("d4").bit());
}

#[test]
fn huffable_set_is_the_capturers_followed() {
    let s = Settings::default();
    let board = "Md4 Mg2 Mf4 md5 mf5 mb7";
    let before = pos(&s, board, 'w');
    let mut st = before;
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(), sq("d4").bit() | sq("f4").bit());
    // A capturer that stepped is followed to where it went.
    let mut st = before;
    ok(&s, &mut st, "d4-c4");
    assert_eq!(st.huffable(), sq("c4").bit() | sq("f4").bit());
    // A turn that captures fails nothing, whichever piece captured.
    let mut st = before;
    ok(&s, &mut st, "f4xf6");
    assert_eq!(st.huffable(), 0);
}

#[test]
fn huff_rule() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    // No huff right at the start.
    assert_eq!(rule(&s, &st, "huff d5 d4xd6"), "huff");
    ok(&s, &mut st, "g2-g3");
    // Wrong piece; a huff alone that does not win.
    assert_eq!(rule(&s, &st, "huff g3 b7-b6"), "huff");
    assert_eq!(rule(&s, &st, "huff d4"), "huff");
    // The huff comes first: a bad huff with a bad move cites huff.
    assert_eq!(rule(&s, &st, "huff g3 b7-b5"), "huff");
    // The legal turns list the huff variants.
    let l = legal(&s, &st);
    assert!(l.contains(&"huff d4 b7-b6".to_string()));
    assert!(l.contains(&"b7-b6".to_string()));
    assert!(!l.contains(&"huff d4".to_string()));
    ok(&s, &mut st, "huff d4 b7-b6");
    assert_eq!(piece(&st, "d4"), None);
    assert_eq!(st.count(Seat(W)), 1);
    assert_eq!(
        st.quiet(),
        0,
        "a huff counts as a capture for the quiet count"
    );
    // Declining the huff: the right lapses after one turn.
    let mut st = pos(&s, "Mb2 Mb3 Mg2 mb4 mf7", 'w');
    ok(&s, &mut st, "g2-g3");
    assert_eq!(st.huffable(), sq("b3").bit());
    assert!(legal(&s, &st).contains(&"huff b3 b4-c4".to_string()));
    ok(&s, &mut st, "b4-c4");
    assert_eq!(st.huffable(), 0);
    ok(&s, &mut st, "g3-g4");
    assert_eq!(st.huffable(), 0);
    assert_eq!(piece(&st, "b3"), Some((W, Rank::Man)));
    assert_eq!(rule(&s, &st, "huff b3 c4-c3"), "huff");
    assert!(!legal(&s, &st).iter().any(|t| t.starts_with("huff")));
}

#[test]
fn huffer_capture_is_judged_after_the_huff() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    // Black's d5 could capture d4; huffing d4 removes that capture.
    let mut huffed = st;
    ok(&s, &mut huffed, "huff d4 b7-b6");
    assert_eq!(huffed.huffable(), 0);
    // Without the huff the step fails to capture and white may huff d5.
    let mut plain = st;
    ok(&s, &mut plain, "b7-b6");
    assert_eq!(plain.huffable(), sq("d5").bit());
}

#[test]
fn a_winning_huff_is_alone_and_ends_the_game() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4-c4");
    assert_eq!(st.huffable(), sq("c4").bit());
    let l = legal(&s, &st);
    assert!(l.contains(&"huff c4".to_string()));
    assert!(!l.iter().any(|t| t.starts_with("huff c4 ")));
    assert_eq!(rule(&s, &st, "huff c4 b7-b6"), "huff");
    assert!(matches!(
        err(&s, &st, "huff c4 b7-b6"),
        Violation::MoveAfterWinningHuff { .. }
    ));
    assert_eq!(rule(&s, &st, "huff d4"), "huff");
    ok(&s, &mut st, "huff c4");
    won(&s, &st, B, "capture-all", "win-capture-all");
    // Under reduce-to the huff wins when it reduces enough.
    let r = with(|s| s.win = Win::ReduceTo(1));
    let mut st = pos(&r, "Md4 Mg2 md5 mb7", 'w');
    ok(&r, &mut st, "g2-g3");
    ok(&r, &mut st, "huff d4");
    won(&r, &st, B, "reduce-to", "win-reduce-to");
}

// ---------------------------------------------------------------------------------------
// thrones, promotion, kings, emperors

#[test]
fn own_throne_rule() {
    let s = Settings::default();
    let st = pos(&s, "Mb1 mf7", 'w');
    assert_eq!(rule(&s, &st, "b1-a1"), "own-throne");
    assert!(!legal(&s, &st).contains(&"b1-a1".to_string()));
    // Landing there in passing and jumping on is legal; ending there is not.
    let st = pos(&s, "Mc1 mb1 ma2 mb2 mf7", 'w');
    assert_eq!(rule(&s, &st, "c1xa1"), "own-throne");
    let l = legal(&s, &st);
    assert!(l.contains(&"c1xa1xa3".to_string()), "{l:?}");
    assert!(l.contains(&"c1xa1xc3".to_string()), "{l:?}");
    assert!(!l.contains(&"c1xa1".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "c1xa1xa3");
    assert_eq!(st2.count(Seat(B)), 2);
    // A king may stop on its own throne.
    let mut st = pos(&s, "Kb1 mf7", 'w');
    ok(&s, &mut st, "b1-a1");
    // Black's thrones are a7 and g7.
    let st = pos(&s, "Mb1 mb7", 'b');
    assert_eq!(rule(&s, &st, "b7-a7"), "own-throne");
}

#[test]
fn promotion_rule() {
    let s = Settings::default();
    let st = pos(&s, "Mf6 mb6", 'w');
    assert!(legal(&s, &st).contains(&"f6-g7=K".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "f6-g7=K");
    assert_eq!(piece(&st2, "g7"), Some((W, Rank::King)));
    let mut st2 = st;
    ok(&s, &mut st2, "f6-g7");
    assert_eq!(
        piece(&st2, "g7"),
        Some((W, Rank::King)),
        "the marker is optional"
    );
    assert_eq!(rule(&s, &st, "f6-f7=K"), "promotion");
    assert_eq!(rule(&s, &st, "f6-g7=E"), "emperor");
    // promotion = false: no king, and =K is wrong.
    let np = with(|s| s.promotion = false);
    let st = pos(&np, "Mf6 mb6", 'w');
    assert!(legal(&np, &st).contains(&"f6-g7".to_string()));
    assert_eq!(rule(&np, &st, "f6-g7=K"), "promotion");
    let mut st2 = st;
    ok(&np, &mut st2, "f6-g7");
    assert_eq!(piece(&st2, "g7"), Some((W, Rank::Man)));
    // Black promotes on a1 / g1.
    let mut st = pos(&s, "Mf5 mb2", 'b');
    ok(&s, &mut st, "b2-a1=K");
    assert_eq!(piece(&st, "a1"), Some((B, Rank::King)));
}

#[test]
fn promotion_in_passing_keeps_the_rank_for_the_turn() {
    let s = Settings::default();
    // e5xg7 lands on black's throne, then jumps on sideways as a man.
    let st = pos(&s, "Me5 mf6 mf7 mb7", 'w');
    assert!(legal(&s, &st).contains(&"e5xg7xe7=K".to_string()));
    let mut st2 = st;
    ok(&s, &mut st2, "e5xg7xe7=K");
    assert_eq!(piece(&st2, "e7"), Some((W, Rank::King)));
    // As a man it cannot jump backward from g7, although a king could.
    let st = pos(&s, "Me5 mf6 mg6 mb7", 'w');
    assert_eq!(rule(&s, &st, "e5xg7xg5"), "multi-jump");
    let comp = with(|s| s.capture = Capture::Compulsory);
    let mut st = pos(&comp, "Me5 mf6 mg6 mb7", 'w');
    assert_eq!(legal(&comp, &st), ["e5xg7=K"]);
    ok(&comp, &mut st, "e5xg7=K");
    assert_eq!(st.huffable(), 0);
}

#[test]
fn king_move_rule() {
    let s = Settings::default();
    let st = pos(&s, "Kd4 md3 mb7", 'w');
    let l = legal(&s, &st);
    for t in ["d4xd2", "d4-c3", "d4-e3", "d4-c4", "d4-d5"] {
        assert!(l.contains(&t.to_string()), "{t} in {l:?}");
    }
    for bad in ["d4-d6", "d4-b2", "d4xd1", "d4-c2"] {
        assert_eq!(rule(&s, &st, bad), "king-move", "{bad}");
    }
    let mut st2 = st;
    ok(&s, &mut st2, "d4xd2");
    assert_eq!(piece(&st2, "d2"), Some((W, Rank::King)));
    // Diagonally only along the lines.
    let st = pos(&s, "Kc4 mb7", 'w');
    assert_eq!(rule(&s, &st, "c4-d5"), "king-move");
    let none = with(|s| s.diagonals = Diagonals::None);
    let st = pos(&none, "Kd4 mb7", 'w');
    assert_eq!(rule(&none, &st, "d4-c3"), "king-move");
    // A king steps onto any throne.
    let mut st = pos(&s, "Kf6 mb6", 'w');
    ok(&s, &mut st, "f6-g7");
}

#[test]
fn emperor_rule() {
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Kb2 mf7", 'w');
    assert!(legal(&e, &st).contains(&"b2-a1=E".to_string()));
    assert_eq!(rule(&e, &st, "b2-a1=K"), "promotion");
    assert_eq!(rule(&e, &st, "b2-c3=E"), "emperor");
    let mut st2 = st;
    ok(&e, &mut st2, "b2-a1=E");
    assert_eq!(piece(&st2, "a1"), Some((W, Rank::Emperor)));
    // Also in passing.
    let mut st = pos(&e, "Kc3 mb2 ma2 mf7", 'w');
    ok(&e, &mut st, "c3xa1xa3=E");
    assert_eq!(piece(&st, "a3"), Some((W, Rank::Emperor)));
    // A man promoted in passing finishes as a man: no emperor the same turn.
    let mut st = pos(&e, "Me5 mf6 mf7 mb7", 'w');
    ok(&e, &mut st, "e5xg7xe7=K");
    assert_eq!(piece(&st, "e7"), Some((W, Rank::King)));
    // emperor = false: kings stay kings, =E is wrong.
    let s = Settings::default();
    let st = pos(&s, "Kb2 mf7", 'w');
    assert_eq!(rule(&s, &st, "b2-a1=E"), "emperor");
    let mut st2 = st;
    ok(&s, &mut st2, "b2-a1");
    assert_eq!(piece(&st2, "a1"), Some((W, Rank::King)));
}

#[test]
fn emperor_move_rule() {
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Ea1 ma4 mb2 me7", 'w');
    for bad in ["a1-a6", "a1-c3", "a1-b3", "a1xa5"] {
        assert_eq!(rule(&e, &st, bad), "emperor-move", "{bad}");
    }
    assert!(err(&e, &st, "a1-a6").to_string().contains("blocked at a4"));
    let l = legal(&e, &st);
    for t in ["a1-a2", "a1-a3", "a1-g1", "a1-b1", "a1xc3"] {
        assert!(l.contains(&t.to_string()), "{t} in {l:?}");
    }
    let st = pos(&e, "Ea1 me6", 'w');
    let mut st2 = st;
    ok(&e, &mut st2, "a1-g7");
    let mut st2 = st;
    ok(&e, &mut st2, "a1-a7");
    let mut st2 = st;
    ok(&e, &mut st2, "a1-g1");
    // A slide captures nothing.
    let st = pos(&e, "Ea1 ma3 me6", 'w');
    assert_eq!(rule(&e, &st, "a1-a4"), "emperor-move");
    // Emperors are not pieces of rulesets without them.
    assert_eq!(
        Halatafl::parse_setup(&Settings::default(), &setup("Ea1 me6", 'w', "-"))
            .unwrap_err()
            .rule(),
        "setup"
    );
}

// ---------------------------------------------------------------------------------------
// End checks

#[test]
fn win_capture_all() {
    let s = Settings::default();
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4xd6");
    assert_eq!(end(&s, &st), None);
    let mut st = pos(&s, "Md4 md5", 'w');
    ok(&s, &mut st, "d4xd6");
    // Black also has no moves, but the win is checked first.
    won(&s, &st, W, "capture-all", "win-capture-all");
    let v = err(&s, &st, "d6-d7");
    assert_eq!(v.rule(), "game-over");
    assert!(legal(&s, &st).is_empty());
}

#[test]
fn win_reduce_to() {
    let s = with(|s| s.win = Win::ReduceTo(2));
    let mut st = pos(&s, "Md4 Mb1 Mc1 md5 mb7 mf7 mg6", 'w');
    ok(&s, &mut st, "d4xd6");
    assert_eq!(end(&s, &st), None);
    let mut st = pos(&s, "Md4 Mb1 Mc1 md5 mb7 mf7", 'w');
    ok(&s, &mut st, "d4xd6");
    won(&s, &st, W, "reduce-to", "win-reduce-to");
}

#[test]
fn win_thrones() {
    let s = with(|s| {
        s.win = Win::Thrones(1);
        s.promotion = false;
    });
    let mut st = pos(&s, "Mf6 mb5", 'w');
    ok(&s, &mut st, "f6-g7");
    won(&s, &st, W, "thrones", "win-thrones");
    let s2 = with(|s| {
        s.win = Win::Thrones(2);
        s.promotion = false;
    });
    let mut st = pos(&s2, "Mf6 mb5", 'w');
    ok(&s2, &mut st, "f6-g7");
    assert_eq!(end(&s2, &st), None);
    let mut st = pos(&s2, "Mf6 Ma7 mb5", 'w');
    ok(&s2, &mut st, "f6-g7");
    won(&s2, &st, W, "thrones", "win-thrones");
    // Standing on an own throne counts for nothing (kings may stand there).
    let s3 = with(|s| s.win = Win::Thrones(1));
    let mut st = pos(&s3, "Kb1 mb5", 'w');
    ok(&s3, &mut st, "b1-a1");
    assert_eq!(end(&s3, &st), None);
}

/// Black's only man on c1 is shut in; white's g3 moves freely.
const SHUT_IN: &str = "Ka1 Mb1 Md1 Me1 Mg3 mc1";

#[test]
fn no_moves_rule() {
    let s = Settings::default();
    let mut st = pos(&s, SHUT_IN, 'w');
    assert_eq!(end(&s, &st), None);
    ok(&s, &mut st, "g3-g4");
    won(&s, &st, W, "no-moves", "no-moves");
    let d = with(|s| s.no_moves = NoMoves::Draw);
    let mut st = pos(&d, SHUT_IN, 'w');
    ok(&d, &mut st, "g3-g4");
    drawn(&d, &st, "no-moves", "no-moves");
    // A seat whose only turns start with a huff has a turn.
    let mut st = pos_h(&s, "Ka1 Mb1 Md1 Me1 Mg3 mc1", 'b', "b1");
    assert_eq!(end(&s, &st), None);
    assert_eq!(legal(&s, &st), ["huff b1 c1-b1"]);
    ok(&s, &mut st, "huff b1 c1-b1");
}

#[test]
fn quiet_limit_rule() {
    let s = with(|s| s.quiet_limit = 2);
    let mut st = pos(&s, "Md2 Mg2 mb6 mf6", 'w');
    for t in ["d2-d3", "b6-b5", "d3-c3"] {
        ok(&s, &mut st, t);
        assert_eq!(end(&s, &st), None, "after {t}");
    }
    assert_eq!(st.quiet(), 3);
    ok(&s, &mut st, "f6-f5");
    drawn(&s, &st, "quiet-limit", "quiet-limit");
    // 0 = off.
    let off = Settings::default();
    let mut st = pos(&off, "Md2 Mg2 mb6 mf6", 'w');
    for t in ["d2-d3", "b6-b5", "d3-c3", "f6-f5", "c3-c4"] {
        ok(&off, &mut st, t);
    }
    assert_eq!(end(&off, &st), None);
    // A capture or a promotion resets the count.
    let mut st = pos(&s, "Md2 Mf6 md4 mb6 mb3", 'w');
    ok(&s, &mut st, "d2-e2");
    ok(&s, &mut st, "b6-b5");
    assert_eq!(st.quiet(), 2);
    ok(&s, &mut st, "f6-g7=K");
    assert_eq!(st.quiet(), 0);
    ok(&s, &mut st, "b5-b4");
    ok(&s, &mut st, "e2-e3");
    assert_eq!(st.quiet(), 2);
    ok(&s, &mut st, "d4xf2");
    assert_eq!(st.quiet(), 0);
    assert_eq!(end(&s, &st), None);
}

#[test]
fn end_checks_in_order() {
    // quiet-limit before no-moves: the turn that reaches the limit also shuts black in.
    let q = with(|s| s.quiet_limit = 1);
    let mut st = pos(&q, "Ka1 Mb1 Md1 Me1 Mg3 mc2", 'b');
    ok(&q, &mut st, "c2-c1");
    assert_eq!(end(&q, &st), None);
    ok(&q, &mut st, "g3-g4");
    drawn(&q, &st, "quiet-limit", "quiet-limit");
    // The same without the limit: no-moves.
    let s = Settings::default();
    let mut st = pos(&s, "Ka1 Mb1 Md1 Me1 Mg3 mc2", 'b');
    ok(&s, &mut st, "c2-c1");
    ok(&s, &mut st, "g3-g4");
    won(&s, &st, W, "no-moves", "no-moves");
    // The win before quiet-limit: a quiet step onto an enemy throne.
    let tq = with(|s| {
        s.quiet_limit = 1;
        s.win = Win::Thrones(1);
        s.promotion = false;
    });
    let mut st = pos(&tq, "Mf6 mb5", 'b');
    ok(&tq, &mut st, "b5-b4");
    ok(&tq, &mut st, "f6-g7");
    won(&tq, &st, W, "thrones", "win-thrones");
}

#[test]
fn a_decided_setup_ends_before_turn_1() {
    let s = Settings::default();
    let st = pos(&s, "Md4", 'b');
    won(&s, &st, W, "capture-all", "win-capture-all");
    let st = Halatafl::start(&s, Some(st), &NoTags, None).unwrap();
    assert!(end(&s, &st).is_some());
    assert!(legal(&s, &st).is_empty());
    let st = pos(&s, SHUT_IN, 'b');
    won(&s, &st, W, "no-moves", "no-moves");
    let t = with(|s| s.win = Win::Thrones(1));
    let st = pos(&t, "Mg7 mb5", 'b');
    won(&t, &st, W, "thrones", "win-thrones");
    let st = pos(&t, "Mg7 mb5", 'w');
    won(&t, &st, W, "thrones", "win-thrones");
}

#[test]
fn game_over_rule_and_common_actions() {
    let s = Settings::default();
    let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    Halatafl::resign(&s, &mut st);
    let e = end(&s, &st).unwrap();
    assert_eq!(e.winners, SeatSet::only(Seat(B)));
    assert_eq!(e.reason, "resignation");
    assert_eq!(e.rule, None);
    assert_eq!(rule(&s, &st, "e3-d4"), "game-over");
    let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    ok(&s, &mut st, "e3-d4");
    Halatafl::agree_draw(&s, &mut st);
    let e = end(&s, &st).unwrap();
    assert!(e.draw);
    assert_eq!(e.reason, "agreement");
    assert_eq!(rule(&s, &st, "c5-c4"), "game-over");
}

// ---------------------------------------------------------------------------------------
// Rule precedence

#[test]
fn rule_precedence() {
    let comp = with(|s| s.capture = Capture::Compulsory);
    // own-throne before compulsory-capture.
    let st = pos(&comp, "Mb1 Md4 md5 mb7", 'w');
    assert_eq!(rule(&comp, &st, "b1-a1"), "own-throne");
    // compulsory-capture before the marker.
    let st = pos(&comp, "Md4 Mf6 md5 mb7", 'w');
    assert_eq!(rule(&comp, &st, "f6-g7=K"), "compulsory-capture");
    assert_eq!(rule(&comp, &st, "f6-f7=K"), "compulsory-capture");
    // continue-jumps before the marker.
    let st = pos(&comp, "Me5 mf6 mf7 mb7", 'w');
    assert_eq!(rule(&comp, &st, "e5xg7=K"), "continue-jumps");
    assert_eq!(rule(&comp, &st, "e5xg7=E"), "continue-jumps");
    // the shape before own-throne.
    let st = pos(&comp, "Mc1 mb7", 'w');
    assert_eq!(rule(&comp, &st, "c1-a1"), "step");
    // huff before the shape.
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 md5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    assert_eq!(rule(&s, &st, "huff g3 b7-b5"), "huff");
    // A winning huff followed by a move breaks huff whatever the move.
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4-c4");
    assert_eq!(rule(&s, &st, "huff c4 b7-b1"), "huff");
}

// ---------------------------------------------------------------------------------------
// Setup notation

#[test]
fn setup_round_trip() {
    let e = with(|s| s.emperor = true);
    for text in [
        "1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -",
        "7/7/7/3M3/3m3/7/7 b -",
        "k5E/7/2m4/3M3/1K5/7/M5e w -",
        "1mmmmm1/mmmmmmm/mmmmmmm/mmmMMM1/MMMMMM1/MMMMMMM/1MMMMM1 b d4,f4",
    ] {
        let st = Halatafl::parse_setup(&e, text).unwrap_or_else(|v| panic!("{text}: {v}"));
        assert_eq!(Halatafl::setup_string(&e, &st), text);
    }
    // Huffable points sort by name: a7 before c3 before c4.
    let st = pos_h(&e, "Ma7 Mc3 Mc4 me5", 'b', "a7,c3,c4");
    assert_eq!(
        Halatafl::setup_string(&e, &st),
        setup("Ma7 Mc3 Mc4 me5", 'b', "a7,c3,c4")
    );
    assert_eq!(
        st.huffable_squares().collect::<Vec<_>>(),
        [sq("a7"), sq("c3"), sq("c4")]
    );
    // A position reached by play prints and reads back the same.
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mg2 Mf4 md5 mf5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    let text = Halatafl::setup_string(&s, &st);
    assert!(text.ends_with(" b d4,f4"), "{text}");
    assert_eq!(
        Halatafl::parse_setup(&s, &text).unwrap().huffable(),
        st.huffable()
    );
}

#[test]
fn setup_errors() {
    let s = Settings::default();
    let bad = [
        "",
        "7/7/7/3M3/3m3/7/7",
        "7/7/7/3M3/3m3/7/7 w",
        "7/7/7/3M3/3m3/7/7  w -",
        "7/7/7/3M3/3m3/7/7 w - ",
        "7/7/7/3M3/3m3/7 w -",
        "7/7/7/3M3/3m3/7/7/7 w -",
        "7/7/7/3M4/3m3/7/7 w -",
        "7/7/7/3M2/3m3/7/7 w -",
        "7/7/7/3X3/3m3/7/7 w -",
        "7/7/7/3M03/3m3/7/7 w -",
        "7/7/7/3M12/3m3/7/7 w -",
        "7/7/7/3M3/3m3/7/7 x -",
        "7/7/7/3M3/3m3/7/7 white -",
        "7/7/7/7/7/7/7 w -",
        "7/7/7/3M3/3m3/7/7 b h9",
        "7/7/7/3M3/3m3/7/7 b d5",
        "7/7/7/3M3/3m3/7/7 w d5",
        "7/7/7/3M3/3m3/7/7 b d4,d4",
        "7/7/7/2MM3/3m3/7/7 b d4,c4",
        "7/7/7/2MM3/3m3/7/7 b c4,",
        "MMMMMMM/MMMMMMM/MMMMMMM/MMMMMMM/3m3/7/7 w -",
    ];
    for text in bad {
        let v = Halatafl::parse_setup(&s, text).expect_err(text);
        assert_eq!(v.rule(), "setup", "{text}");
        assert!(!v.to_string().is_empty());
    }
    // Kings need promotion; huffable points need compulsory-huff.
    let np = with(|s| s.promotion = false);
    assert!(Halatafl::parse_setup(&np, "7/7/7/3K3/3m3/7/7 w -").is_err());
    assert!(Halatafl::parse_setup(&s, "7/7/7/3K3/3m3/7/7 w -").is_ok());
    let comp = with(|s| s.capture = Capture::Compulsory);
    assert!(Halatafl::parse_setup(&comp, "7/7/7/2MM3/3m3/7/7 b c4,d4").is_err());
    assert!(Halatafl::parse_setup(&s, "7/7/7/2MM3/3m3/7/7 b c4,d4").is_ok());
}

#[test]
fn address_rule_from_parse_turn() {
    assert_eq!(
        Halatafl::parse_turn("h9-a1"),
        TurnParse::BadAddress {
            len: 5,
            at: 0,
            address_len: 2
        }
    );
    assert!(matches!(
        Halatafl::parse_turn("Qd4"),
        TurnParse::NoTurn { at: 0, .. }
    ));
}

#[test]
fn board_drawing_accessors() {
    let s = Settings::default();
    let st = Halatafl::start(&s, None, &NoTags, None).unwrap();
    assert_eq!(
        st.piece_at(sq("b1")),
        Some(Piece {
            seat: Seat(0),
            rank: Rank::Man
        })
    );
    assert_eq!(st.piece_at(sq("a1")), None);
    assert_eq!(st.piece_at(sq("d4")), None);
    assert_eq!(st.piece_at(sq("c4")).map(|p| p.seat), Some(Seat(1)));
    assert!(is_throne(sq("g7")) && !is_throne(sq("d4")));
    assert_eq!(thrones_of(Seat(1)), sq("a7").bit() | sq("g7").bit());
    // Lines: 42 orthogonal segments, plus 12 on the two long diagonals.
    assert_eq!(s.lines().count(), 84 + 12);
    assert!(s.joined(sq("c3"), sq("d4")));
    assert!(!s.joined(sq("c4"), sq("d5")));
    let none = with(|s| s.diagonals = Diagonals::None);
    assert_eq!(none.lines().count(), 84);
    let alq = with(|s| s.diagonals = Diagonals::Alquerque);
    assert_eq!(alq.lines().count(), 84 + 36);
}

#[test]
fn messages_are_specific() {
    let s = Settings::default();
    let st = pos(&s, "Me3 mb7", 'w');
    assert_eq!(
        err(&s, &st, "e3-e2").to_string(),
        "the man on e3 cannot step backward to e2"
    );
    let st = pos(&s, "Mb1 mb7", 'w');
    assert_eq!(
        err(&s, &st, "b1-a1").to_string(),
        "a man cannot end its turn on a1, white's own throne"
    );
    let e = with(|s| s.emperor = true);
    let st = pos(&e, "Ea1 ma4 me7", 'w');
    assert_eq!(
        err(&e, &st, "a1-a6").to_string(),
        "the emperor's slide from a1 to a6 is blocked at a4"
    );
    let st = pos(&s, "Md2 md3 md5 mb7", 'w');
    assert_eq!(
        err(&s, &st, "d2xd4xd2").to_string(),
        "jump 2 of the chain: the man on d4 cannot jump backward to d2"
    );
}

// ---------------------------------------------------------------------------------------
// Random playouts: the generator and the judge agree.

pub(super) struct Rng(pub(super) u64);
impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub(super) fn variants() -> Vec<Settings> {
    vec![
        Settings::default(),
        with(|s| s.emperor = true),
        with(|s| s.capture = Capture::Compulsory),
        with(|s| {
            s.capture = Capture::Optional;
            s.continue_jumps = ContinueJumps::Optional;
        }),
        with(|s| {
            s.capture = Capture::Compulsory;
            s.continue_jumps = ContinueJumps::Optional;
            s.emperor = true;
        }),
        with(|s| {
            s.diagonals = Diagonals::Alquerque;
            s.men = Men::Any;
        }),
        with(|s| s.diagonals = Diagonals::None),
        with(|s| {
            s.win = Win::Thrones(1);
            s.promotion = false;
        }),
        with(|s| {
            s.win = Win::ReduceTo(5);
            s.quiet_limit = 15;
            s.no_moves = NoMoves::Draw;
        }),
        with(|s| {
            s.men = Men::Any;
            s.emperor = true;
            s.first = Seat(1);
        }),
    ]
}

/// Plays random games; every turn offered must be accepted.
#[test]
fn random_playouts_accept_every_offered_turn() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = Vec::new();
    let mut ended = 0;
    for s in variants() {
        for _ in 0..40 {
            let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
            for _ in 0..600 {
                out.clear();
                Halatafl::legal_turns(&s, &st, None, &mut out);
                if end(&s, &st).is_some() {
                    assert!(out.is_empty());
                    ended += 1;
                    break;
                }
                assert!(!out.is_empty(), "playing but no legal turn: {st:?}");
                for t in &out {
                    let mut copy = st;
                    if let Err(v) = Halatafl::play(&s, &mut copy, None, t) {
                        panic!(
                            "{t} offered but refused ({v}) in {}",
                            Halatafl::setup_string(&s, &st)
                        );
                    }
                    // The printed turn parses back to itself.
                    assert_eq!(turn(&t.to_string()), *t);
                }
                let t = out[rng.below(out.len())];
                Halatafl::play(&s, &mut st, None, &t).unwrap();
            }
        }
    }
    assert!(ended > 100, "only {ended} games ended");
}

/// Every hop of distance 2 from `p` (in the 8 directions), on the board.
fn hops_from(p: Square) -> impl Iterator<Item = Square> {
    [
        (0i8, 2i8),
        (0, -2),
        (2, 0),
        (-2, 0),
        (2, 2),
        (-2, 2),
        (2, -2),
        (-2, -2),
    ]
    .into_iter()
    .filter_map(move |(df, dr)| {
        let f = p.file() as i8 + df;
        let r = p.rank() as i8 + dr;
        if (0..7).contains(&f) && (0..7).contains(&r) {
            Square::new(f as u8, r as u8)
        } else {
            None
        }
    })
}

/// In random positions, a turn is accepted exactly when the generator lists it (a turn
/// without a marker standing for the listed turn with or without one).
#[test]
fn judge_accepts_exactly_the_generated_turns() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut out = Vec::new();
    let mut checked = 0u64;
    for s in variants() {
        for _ in 0..6 {
            let mut st = Halatafl::start(&s, None, &NoTags, None).unwrap();
            for _ in 0..300 {
                out.clear();
                Halatafl::legal_turns(&s, &st, None, &mut out);
                if out.is_empty() {
                    break;
                }
                let mut candidates: Vec<Turn> = Vec::new();
                let me = st.to_move();
                let mut huffs: Vec<Option<Square>> = vec![None];
                huffs.extend(st.huffable_squares().map(Some));
                // A huff of a piece that may not be huffed.
                if let Some(other) = by_name(st.pieces(Seat(1 - me.0)) & !st.huffable()).next() {
                    huffs.push(Some(other));
                }
                let mine: Vec<Square> = by_name(st.pieces(me)).collect();
                for &huff in &huffs {
                    candidates.push(Turn {
                        huff,
                        mv: None,
                        promotion: None,
                    });
                    for &from in &mine {
                        for i in 0..49u8 {
                            let to = Square::from_index(i).unwrap();
                            candidates.push(Turn {
                                huff,
                                mv: Some(Move::Step { from, to }),
                                promotion: None,
                            });
                        }
                        for to in hops_from(from) {
                            let mut p = Path::new(from);
                            p.push(to);
                            candidates.push(Turn {
                                huff,
                                mv: Some(Move::Jump(p)),
                                promotion: None,
                            });
                        }
                    }
                }
                // Every listed chain, cut short and extended by a hop.
                for t in &out {
                    if let Some(Move::Jump(path)) = t.mv {
                        let pts = path.points();
                        for n in 2..pts.len() {
                            let mut p = Path::new(pts[0]);
                            for &q in &pts[1..n] {
                                p.push(q);
                            }
                            candidates.push(Turn {
                                huff: t.huff,
                                mv: Some(Move::Jump(p)),
                                promotion: None,
                            });
                        }
                        for q in hops_from(path.to()) {
                            let mut p = path;
                            p.push(q);
                            candidates.push(Turn {
                                huff: t.huff,
                                mv: Some(Move::Jump(p)),
                                promotion: None,
                            });
                        }
                    }
                }
                // Each with no marker, =K and =E.
                let plain = candidates.len();
                for i in 0..plain {
                    if candidates[i].mv.is_some() {
                        for m in [Promotion::King, Promotion::Emperor] {
                            let mut t = candidates[i];
                            t.promotion = Some(m);
                            candidates.push(t);
                        }
                    }
                }
                for c in &candidates {
                    let expected = out.iter().any(|l| {
                        l.huff == c.huff
                            && l.mv == c.mv
                            && (c.promotion.is_none() || l.promotion == c.promotion)
                    });
                    let mut copy = st;
                    let got = Halatafl::play(&s, &mut copy, None, c);
                    assert_eq!(
                        got.is_ok(),
                        expected,
                        "{c} in {} ({s:?}): judge says {got:?}",
                        Halatafl::setup_string(&s, &st)
                    );
                    checked += 1;
                }
                let t = out[rng.below(out.len())];
                Halatafl::play(&s, &mut st, None, &t).unwrap();
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

/// A random position: up to 22 pieces a seat, kings and emperors where the settings have
/// them, either seat to move, random huffable pieces where huffing exists; ended as a
/// setup would end it.
pub(super) fn random_position(s: &Settings, rng: &mut Rng) -> State {
    let mut board = board::Board::default();
    let sparse = 2 + rng.below(4);
    for i in 0..49 {
        let side = rng.below(2);
        if rng.below(sparse) != 0 || board.count(side) >= 22 {
            continue;
        }
        let rank = match rng.below(6) {
            0 if s.promotion => Rank::King,
            1 if s.emperor => Rank::Emperor,
            _ => Rank::Man,
        };
        board.put(i, side, rank);
    }
    let to_move = rng.below(2) as u8;
    let huffable = match s.capture {
        Capture::CompulsoryHuff => board.side[1 - to_move as usize] & rng.next() & rng.next(),
        _ => 0,
    };
    let mut st = rules::position(s, board, to_move, huffable, rng.below(40) as u32, None);
    st.end = rules::end_at_start(s, &st);
    st
}

/// `apply_legal` makes of every listed turn exactly the position `play` makes, and `play`
/// accepts every listed turn: in random playouts from the start and from random
/// positions, under every variant.
#[test]
fn apply_legal_makes_the_position_play_makes() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut out = Vec::new();
    let mut checked = 0u64;
    for s in variants() {
        for game in 0..40 {
            let mut st = if game % 2 == 0 {
                Halatafl::start(&s, None, &NoTags, None).unwrap()
            } else {
                random_position(&s, &mut rng)
            };
            for _ in 0..300 {
                out.clear();
                Halatafl::legal_turns(&s, &st, None, &mut out);
                if out.is_empty() {
                    break;
                }
                for t in &out {
                    let mut judged = st;
                    if let Err(v) = Halatafl::play(&s, &mut judged, None, t) {
                        panic!("{t} listed but refused ({v}) in {st:?} ({s:?})");
                    }
                    let mut applied = st;
                    Halatafl::apply_legal(&s, &mut applied, None, t);
                    assert_eq!(applied, judged, "{t} in {st:?} ({s:?})");
                    checked += 1;
                }
                let t = out[rng.below(out.len())];
                Halatafl::apply_legal(&s, &mut st, None, &t);
            }
        }
    }
    assert!(checked > 200_000, "{checked}");
}

// ---------------------------------------------------------------------------------------
// Hints and notes

#[test]
fn hints_say_what_was_possible() {
    let comp = with(|s| s.capture = Capture::Compulsory);
    let st = pos(&comp, "Md4 Mf4 Mg2 md5 mf5 mb7", 'w');
    assert_eq!(
        Halatafl::hint(&comp, &st, &err(&comp, &st, "g2-g3")).as_deref(),
        Some("white could capture with d4xd6 or f4xf6")
    );
    let st = pos(&comp, "Md2 md3 md5 mb7", 'w');
    assert_eq!(
        Halatafl::hint(&comp, &st, &err(&comp, &st, "d2xd4")).as_deref(),
        Some("the chain could go on: d2xd4xd6")
    );
    let s = Settings::default();
    let mut st = pos(&s, "Md4 Mf4 Mg2 md5 mf5 mb7", 'w');
    ok(&s, &mut st, "g2-g3");
    assert_eq!(
        Halatafl::hint(&s, &st, &err(&s, &st, "huff g3 b7-b6")).as_deref(),
        Some("black may huff d4 or f4")
    );
    assert_eq!(
        Halatafl::hint(&s, &st, &err(&s, &st, "huff d4")).as_deref(),
        Some("write a move after the huff, such as `huff d4 f5xf3`, `huff d4 d5-d4` or `huff d4 d5-c5` (5 more)")
    );
    let mut st = pos(&s, "Md4 md5 mb7", 'w');
    ok(&s, &mut st, "d4-c4");
    assert_eq!(
        Halatafl::hint(&s, &st, &err(&s, &st, "huff c4 b7-b6")).as_deref(),
        Some("write `huff c4` alone")
    );
    let st = pos(&s, "Me3 mb7", 'w');
    assert_eq!(
        Halatafl::hint(&s, &st, &err(&s, &st, "e3-e2")).as_deref(),
        Some("the man on e3 can play e3-d3, e3-f3, e3-d4 or e3-e4")
    );
    let st = pos(&s, "Mf6 mb6", 'w');
    assert_eq!(
        Halatafl::hint(&s, &st, &err(&s, &st, "f6-g7=E")).as_deref(),
        Some("write =K, or no marker")
    );
}

#[test]
fn notes_on_turns_that_fail_to_capture() {
    let s = Settings::default();
    let before = pos(&s, "Md4 Mg2 Mf4 md5 mf5 mb7", 'w');
    let mut st = before;
    ok(&s, &mut st, "g2-g3");
    assert_eq!(
        Halatafl::note(&s, &before, &st, &turn("g2-g3")).as_deref(),
        Some("white failed to capture (d4xd6 or f4xf6 was possible); black may huff d4 or f4")
    );
    let mut st = before;
    ok(&s, &mut st, "f4xf6");
    assert_eq!(Halatafl::note(&s, &before, &st, &turn("f4xf6")), None);
    let before = pos(&s, "Md2 md3 md5 Mf4 mf5 mb7", 'w');
    let mut st = before;
    ok(&s, &mut st, "d2xd4");
    assert_eq!(
        Halatafl::note(&s, &before, &st, &turn("d2xd4")).as_deref(),
        Some("white stopped the chain on d4 though it could jump on (d4xd6 was possible); black may huff d4")
    );
    // No huff to offer once the failing turn has ended the game.
    let q = with(|s| s.quiet_limit = 1);
    let mut before = pos(&q, "Md3 Md4 Mg2 md5 mb7", 'b');
    ok(&q, &mut before, "b7-b6");
    let mut st = before;
    ok(&q, &mut st, "g2-g3");
    drawn(&q, &st, "quiet-limit", "quiet-limit");
    assert_eq!(
        Halatafl::note(&q, &before, &st, &turn("g2-g3")).as_deref(),
        Some("white failed to capture (d4xd6 was possible)")
    );
}
