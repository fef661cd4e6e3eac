//! Property tests: random legal games replay valid under every shipped ruleset; records
//! printed and re-parsed are the same; no input makes the referee panic.

use crate::common;

use common::{run, run_with_input};
use proptest::prelude::*;
use referee::notation::halatafl::{parse_turn, Move, Path, Promotion, Square, Turn};
use referee::notation::TurnParse;
use referee::referee::{check_text, Env};
use referee::ruleset::Library;

fn shipped(game: &str) -> Vec<String> {
    let (code, out, err) = run(&["rules", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["game"] == game)
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect()
}

/// `games` selfplay games under every shipped ruleset of `game` (at least `at_least`
/// of them) replay valid through `check`.
fn selfplay_replays_valid(game: &str, at_least: usize, games: usize) {
    let rulesets = shipped(game);
    assert!(rulesets.len() >= at_least, "{rulesets:?}");
    let n = games.to_string();
    for rs in rulesets {
        let seed = format!("prop-{rs}");
        let (code, records, err) = run(&["selfplay", &rs, "--games", &n, "--seed", &seed]);
        assert_eq!(code, 0, "{rs}: {err}");
        assert!(
            records.contains(&format!("[Game \"{game}\"]")),
            "{rs}: {records}"
        );
        let (code, out, _) = run_with_input(&["check", "-", "--quiet"], records.as_bytes());
        assert_eq!(code, 0, "{rs}: selfplay games must replay valid:\n{out}");
        let summary = format!("{games} records: {games} valid, 0 invalid");
        assert!(out.contains(&summary), "{out}");
    }
}

#[test]
fn selfplay_games_replay_valid_under_every_halatafl_ruleset() {
    selfplay_replays_valid("halatafl", 6, 25);
}

#[test]
fn selfplay_games_replay_valid_under_every_thaayam_ruleset() {
    selfplay_replays_valid("thaayam", 3, 20);
}

#[test]
fn selfplay_games_replay_valid_under_every_halves_ruleset() {
    selfplay_replays_valid("halves", 4, 20);
}

/// `games` selfplay games under `ruleset` with `--option` settings (written into their
/// `Options` tag) replay valid through `check`; returns the records.
fn selfplay_with_options_replays_valid(
    ruleset: &str,
    options: &[String],
    games: usize,
    extra: &[&str],
) -> Result<String, TestCaseError> {
    let n = games.to_string();
    let mut args = vec!["selfplay", ruleset, "--games", &n, "--seed", "combo"];
    args.extend_from_slice(extra);
    for o in options {
        args.push("--option");
        args.push(o);
    }
    let (code, records, err) = run(&args);
    prop_assert_eq!(code, 0, "{:?}: {}", options, err);
    let (code, out, _) = run_with_input(&["check", "-", "--quiet"], records.as_bytes());
    prop_assert_eq!(code, 0, "{:?}:\n{}\n{}", options, out, records);
    let summary = format!("{games} records: {games} valid");
    prop_assert!(out.contains(&summary), "{}", out);
    Ok(records)
}

#[test]
fn selfplay_games_replay_valid_under_every_halasi_ruleset() {
    selfplay_replays_valid("halasi", 2, 8);
}

/// Random combinations of Halasi's settings: selfplay games (which write their
/// `--option` settings into an `Options` tag) replay valid.
#[test]
fn selfplay_games_replay_valid_under_random_halasi_settings() {
    let settings = (
        prop_oneof![
            Just("[a b]"),
            Just("[a c]"),
            Just("[a b c]"),
            Just("[b c d e]"),
            Just("[a b c d e f]")
        ],
        0i64..=60,
        0i64..=9,
        prop_oneof![Just(0i64), Just(120), Just(1000)],
        1u8..=2,
        (-3i64..=4, -3i64..=3, -2i64..=3),
        (0i64..=2, 0i64..=2, 0i64..=2),
        prop_oneof![Just("self"), Just("kin"), Just("any")],
    );
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(10));
    runner
        .run(
            &settings,
            |(seats, tfee, dfee, purse, sets, (same, opp, place), (rd, rm, rh), matching)| {
                let options = [
                    format!("seats={seats}"),
                    format!("territory-fee={tfee}"),
                    format!("domino-fee={dfee}"),
                    format!("purse={purse}"),
                    format!("domino-sets={sets}"),
                    format!("score.adjoining={{self: {same}, kin: 2, ally: 1, neutral: 0, opposed: {opp}}}"),
                    format!("score.same-domino={{self: {opp}, kin: 1, ally: 0, neutral: -1, opposed: {same}}}"),
                    format!("score.placement={place}"),
                    format!("route.domino={rd}"),
                    format!("route.market={rm}"),
                    format!("route.home={rh}"),
                    format!("match-required={matching}"),
                ];
                selfplay_with_options_replays_valid("halasi", &options, 3, &["--max-turns", "150"])?;
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn selfplay_is_reproducible() {
    let a = run(&["selfplay", "halatafl", "--games", "3", "--seed", "x"]).1;
    let b = run(&["selfplay", "halatafl", "--games", "3", "--seed", "x"]).1;
    // The Date tag is today's: compare everything else.
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("[Date"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&a), strip(&b));
}

fn square() -> impl Strategy<Value = Square> {
    (0u8..49).prop_map(|i| Square::from_index(i).unwrap())
}

fn turn() -> impl Strategy<Value = Turn> {
    let mv = prop_oneof![
        (square(), square()).prop_map(|(from, to)| Move::Step { from, to }),
        (square(), proptest::collection::vec(square(), 1..8)).prop_map(|(from, rest)| {
            let mut p = Path::new(from);
            for s in rest {
                p.push(s);
            }
            Move::Jump(p)
        }),
    ];
    (
        proptest::option::of(square()),
        mv,
        proptest::option::of(prop_oneof![Just(Promotion::King), Just(Promotion::Emperor)]),
    )
        .prop_map(|(huff, mv, promotion)| Turn {
            huff,
            mv: Some(mv),
            promotion,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A Halatafl turn printed and parsed back is the same turn.
    #[test]
    fn turn_print_parse_round_trip(t in turn()) {
        let text = t.to_string();
        match parse_turn(&text) {
            TurnParse::Turn(back, len) => {
                prop_assert_eq!(len, text.len());
                prop_assert_eq!(back, t);
            }
            other => prop_assert!(false, "{} did not parse: {:?}", text, other),
        }
    }

    /// No input makes the referee panic (the library entry point `check` uses).
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,300}") {
        let env = Env::new(Library::new(Vec::new()));
        let _ = check_text(&env, "fuzz", &s);
        let with_header = format!("[Game \"halatafl\"]\n{s}");
        let _ = check_text(&env, "fuzz", &with_header);
    }

    /// Arbitrary Setup, Options and Seats values never panic.
    #[test]
    fn arbitrary_tag_values_never_panic(setup in "[1-9mkeMKE/ wb,a-g\\-]{0,80}", options in "[a-z=\\-(); 0-9\\[\\]{}:,]{0,60}", seats in "[a-z ]{0,20}") {
        let env = Env::new(Library::new(Vec::new()));
        for (tag, value) in [("Setup", &setup), ("Options", &options), ("Seats", &seats)] {
            let text = format!("[Game \"halatafl\"]\n[{tag} \"{value}\"]\n\n1. e3-d4 c5xe3\n");
            let _ = check_text(&env, "fuzz", &text);
        }
    }

    /// Near-misses of real movetext never panic either.
    #[test]
    fn record_like_text_never_panics(moves in proptest::collection::vec("[a-h][0-9][-x][a-h][0-9]( |\n|x[a-h][0-9]|=K |=E |!|\\{c\\} |; c\n|[0-9]\\.{1,3} )", 0..40)) {
        let env = Env::new(Library::new(Vec::new()));
        let text = format!("[Game \"halatafl\"]\n[Setup \"1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -\"]\n\n{}", moves.concat());
        let _ = check_text(&env, "fuzz", &text);
    }
}

#[test]
fn arbitrary_bytes_through_the_binary_never_crash() {
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(24));
    runner
        .run(&proptest::collection::vec(any::<u8>(), 0..2000), |bytes| {
            let (code, _, err) = run_with_input(&["check", "-"], &bytes);
            prop_assert!(code == 0 || code == 1, "exit {} {}", code, err);
            prop_assert!(!err.contains("panicked"), "{}", err);
            Ok(())
        })
        .unwrap();
}

/// Every selfplay record printed with the record printer and parsed again gives the same
/// header and the same turns, numbers and labels.
#[test]
fn printed_records_parse_back_the_same() {
    use referee::notation::record::{parse_movetext, print, split, Limits};
    let (code, text, err) = run(&[
        "selfplay",
        "halatafl-emperor",
        "--games",
        "20",
        "--seed",
        "print",
    ]);
    assert_eq!(code, 0, "{err}");
    let limits = Limits::default();
    let file = split(&text, &limits);
    assert_eq!(file.records.len(), 20);
    let key = |m: &referee::notation::record::Movetext<Turn>| {
        m.entries
            .iter()
            .map(|e| {
                (
                    e.number.map(|n| n.0),
                    e.label().map(|l| l.0.clone()),
                    e.action.clone(),
                    e.annotations().to_vec(),
                    e.comments().to_vec(),
                )
            })
            .collect::<Vec<_>>()
    };
    for raw in &file.records {
        let mt = parse_movetext(&text, raw.movetext, &limits, parse_turn);
        assert!(mt.error.is_none());
        let printed = print(&raw.header, &mt, &text);
        let again = split(&printed, &limits);
        assert_eq!(again.records.len(), 1);
        let back = parse_movetext(&printed, again.records[0].movetext, &limits, parse_turn);
        let names = |h: &referee::notation::record::Header| {
            h.tags()
                .map(|t| (t.name.to_string(), t.value.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&raw.header), names(&again.records[0].header));
        assert_eq!(key(&mt), key(&back));
        assert!(!mt.entries.is_empty());
    }
}

/// Random combinations of every Halves setting: selfplay games (which write their
/// `--option` settings into an `Options` tag) replay valid, and so do they when the
/// same settings come from `--option` on `check` instead.
#[test]
fn selfplay_games_replay_valid_under_random_halves_settings() {
    let settings = (
        prop_oneof![Just("[white black]"), Just("[white black red]")],
        1u8..=21,
        prop_oneof![Just("random"), Just("manual")],
        any::<bool>(),
        prop_oneof![Just("first-out"), Just("last-standing")],
        1u8..=2,
        prop_oneof![Just("enemy"), Just("any")],
        0u8..=6,
        prop_oneof![Just("largest"), Just("chosen"), Just("most-friendly")],
    );
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(16));
    runner
        .run(
            &settings,
            |(seats, tiles, start, contract, win, must, touch, free, keep)| {
                let options = [
                    format!("seats={seats}"),
                    format!("tiles-each={tiles}"),
                    format!("start={start}"),
                    format!("contract={contract}"),
                    format!("win={win}"),
                    format!("must-touch={must}"),
                    format!("touch={touch}"),
                    format!("free-edges={free}"),
                    format!("keep={keep}"),
                ];
                let games = selfplay_with_options_replays_valid("halves", &options, 4, &[])?;
                // Without the Options tag, the same settings given by --option.
                let stripped: String = games
                    .lines()
                    .filter(|l| !l.starts_with("[Options"))
                    .map(|l| format!("{l}\n"))
                    .collect();
                let mut check = vec!["check", "-", "--quiet"];
                for o in &options {
                    check.push("--option");
                    check.push(o);
                }
                let (code, out, _) = run_with_input(&check, stripped.as_bytes());
                prop_assert_eq!(code, 0, "{:?}:\n{}", options, out);
                Ok(())
            },
        )
        .unwrap();
}

fn halves_cell() -> impl Strategy<Value = referee::notation::halves::Cell> {
    (-999i32..=999, -999i32..=999)
        .prop_map(|(q, r)| referee::notation::halves::Cell::new(q, r).unwrap())
}

fn halves_turn() -> impl Strategy<Value = referee::notation::halves::Turn> {
    use referee::notation::halves::Turn as H;
    prop_oneof![
        halves_cell().prop_map(H::Place),
        Just(H::Keep),
        Just(H::Swap),
        Just(H::Pass),
        (halves_cell(), proptest::option::of(halves_cell()))
            .prop_map(|(cell, keep)| H::Remove { cell, keep }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A Halves turn printed and parsed back is the same turn.
    #[test]
    fn halves_turn_print_parse_round_trip(t in halves_turn()) {
        let text = t.to_string();
        match referee::notation::halves::parse_turn(&text) {
            TurnParse::Turn(back, len) => {
                prop_assert_eq!(len, text.len());
                prop_assert_eq!(back, t);
            }
            other => prop_assert!(false, "{} did not parse: {:?}", text, other),
        }
    }

    /// Near-misses of Halves movetext never panic.
    #[test]
    fn halves_record_like_text_never_panics(moves in proptest::collection::vec("(\\+|x)\\(-?[0-9]{1,4},-?[0-9]{1,3}\\)(/\\(-?[0-9],[0-9]\\))?( |\n|keep |swap |pass |[0-9]\\. )", 0..30)) {
        let env = Env::new(Library::new(Vec::new()));
        let text = format!("[Game \"halves\"]\n[Setup \"white: (0,0) (1,0) (2,-1); black: (0,1) (1,1); to-move: white; phase: waning\"]\n\n{}", moves.concat());
        let _ = check_text(&env, "fuzz", &text);
        let manual = format!("[Game \"halves\"]\n[Options \"start=manual\"]\n\n{}", moves.concat());
        let _ = check_text(&env, "fuzz", &manual);
    }
}

mod thaayam {
    use proptest::prelude::*;
    use referee::notation::thaayam::{parse_turn, Action, Series, Square, Turn};
    use referee::notation::TurnParse;
    use referee::referee::{check_text, Env};
    use referee::ruleset::Library;

    fn square() -> impl Strategy<Value = Square> {
        (0u8..25).prop_map(|i| Square::from_index(i).unwrap())
    }

    fn action() -> impl Strategy<Value = Action> {
        prop_oneof![
            Just(Action::Enter),
            Just(Action::Off),
            square().prop_map(Action::Twin),
            (
                square(),
                any::<bool>(),
                proptest::collection::vec(0u8..100, 1..6),
                any::<bool>()
            )
                .prop_map(|(from, twins, throws, capture)| Action::Move {
                    from,
                    twins,
                    throws: throws.into_iter().collect(),
                    capture
                }),
        ]
    }

    fn turn() -> impl Strategy<Value = Turn> {
        (
            proptest::option::of(
                proptest::collection::vec(0u8..100, 0..8).prop_map(|t| Series::new(&t)),
            ),
            proptest::collection::vec(action(), 0..5),
        )
            .prop_map(|(series, actions)| Turn {
                series,
                actions: actions.into_iter().collect(),
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// A Thaayam turn printed and parsed back is the same turn.
        #[test]
        fn turn_print_parse_round_trip(t in turn()) {
            let text = t.to_string();
            match parse_turn(&text) {
                TurnParse::Turn(back, len) => {
                    prop_assert_eq!(len, text.len());
                    prop_assert_eq!(back, t);
                }
                other => prop_assert!(false, "{} did not parse: {:?}", text, other),
            }
        }

        /// No Thaayam-like movetext makes the referee panic.
        #[test]
        fn thaayam_text_never_panics(
            turns in proptest::collection::vec(
                "(\\[[0-9 ]{0,12}\\] )?(-|enter|off|twin [a-f][0-6]|T?[a-f][0-6](\\+[0-9]){1,4}x?)(, (enter|off|[a-e][1-5]\\+[1-8]))?( |\n|[0-9]{1,2}\\. |south: |north: |resign )",
                0..30
            ),
            seeded in any::<bool>(),
        ) {
            let env = Env::new(Library::new(Vec::new()));
            let head = if seeded { "[Seed \"fuzz\"]\n" } else { "[First \"south\"]\n" };
            let text = format!("[Game \"thaayam\"]\n{head}\n{}", turns.concat());
            let _ = check_text(&env, "fuzz", &text);
        }
    }
}

mod halasi {
    use proptest::prelude::*;
    use referee::referee::{check_text, Env};
    use referee::ruleset::Library;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Halasi-like movetext — homes, placements, runs with huge or missing indices,
        /// rotations out of range, brackets, routes, claims, labels — never panics,
        /// with and without a seed, at the table and in solitaire.
        #[test]
        fn halasi_record_like_text_never_panics(parts in proptest::collection::vec(
            "(home M[0-9] |home T1 |[ab]: |\\[[IOFXSMQURP#9Y4TK]{2}( [IOFXSMQURP#9Y4TK]{2}){0,4}\\] |\\[[0-9]{1,2}:( [IOFX#]{2}){0,3}\\] |place [AB][MT][0-9] @-?[0-9]{1,3},-?[0-9] r[0-9] |territory [AB]T[0-9] @[0-2],-?[0-2] r[0-7] |[IOFX#]{2}@[AB][MT][12]\\.[0-9]{1,3}/[AB][MT][12]\\.[0-9]{1,2}(, )?|route [AB]M[12]~[AB]M[12] |=-?[0-9]{1,3} |leave |resign |[0-9]{1,2}\\. |\n)",
            0..40,
        )) {
            let env = Env::new(Library::new(Vec::new()));
            let moves = parts.concat();
            for header in [
                "[Game \"halasi\"]\n",
                "[Game \"halasi\"]\n[Seed \"fuzz\"]\n",
                "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n[Setup \"AT1 @1,0 r0, AM2 @0,1 r2\"]\n",
                "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n[Seed \"fuzz\"]\n",
                "[Game \"halasi\"]\n[Options \"seats=[a b c] territory-fee=0 domino-fee=0\"]\n",
            ] {
                let _ = check_text(&env, "fuzz", &format!("{header}\n1. home M1 2. home M2 {moves}"));
            }
        }
    }
}
