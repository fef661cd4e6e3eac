//! `random_turn` against `legal_turns` + `uniform`, and the capturers a position keeps
//! (worked out after a listed turn, left unknown after a judged one).

use super::tests::{random_position, variants, NoTags, Rng};
use super::*;
use crate::games::Game;

/// Checks that `random_turn` picks `legal_turns[uniform(len)]` in `st`, drawing the same
/// words, from a few streams; returns the listed turns' count.
fn agrees(s: &Settings, st: &State, seed: u64, scratch: &mut Vec<Turn>) -> usize {
    let mut listed = Vec::new();
    Halatafl::legal_turns(s, st, None, &mut listed);
    for n in 0..3 {
        let stream = format!("{seed}-{n}");
        let mut a = Dice::from_seed(&stream);
        let mut b = a.clone();
        // Whatever the scratch list held before does not matter.
        scratch.push(Turn {
            huff: None,
            mv: None,
            promotion: None,
        });
        let got = Halatafl::random_turn(s, st, None, &mut a, scratch);
        let want = (!listed.is_empty()).then(|| listed[b.uniform(listed.len() as u32) as usize]);
        assert_eq!(
            got,
            want,
            "in {} ({s:?}), {} turns",
            Halatafl::setup_string(s, st),
            listed.len()
        );
        assert_eq!(a.words_used(), b.words_used(), "draws differ");
    }
    listed.len()
}

/// In random playouts from the start and from random positions (huffable pieces, kings
/// and emperors included), under every variant, positions made by listed turns and by
/// judged ones: `random_turn` picks exactly the turn the list and `uniform` would.
#[test]
fn random_turn_picks_what_the_list_would() {
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let mut scratch = Vec::new();
    let (mut positions, mut with_huffs, mut turns) = (0u64, 0u64, 0usize);
    for s in variants() {
        for game in 0..60 {
            let mut st = if game % 2 == 0 {
                Halatafl::start(&s, None, &NoTags, None).unwrap()
            } else {
                random_position(&s, &mut rng)
            };
            // Odd games go on by judging (capturers left unknown), even ones by applying.
            let judged = game % 4 >= 2;
            for _ in 0..300 {
                let n = agrees(&s, &st, rng.next(), &mut scratch);
                positions += 1;
                turns += n;
                with_huffs += (st.huffable != 0) as u64;
                let mut d = Dice::from_seed(&format!("{positions}"));
                let Some(t) = Halatafl::random_turn(&s, &st, None, &mut d, &mut scratch) else {
                    break;
                };
                if judged {
                    Halatafl::play(&s, &mut st, None, &t).unwrap();
                } else {
                    Halatafl::apply_legal(&s, &mut st, None, &t);
                }
            }
        }
    }
    assert!(positions > 50_000, "{positions}");
    assert!(with_huffs > 5_000, "{with_huffs}");
    assert!(turns > 500_000, "{turns}");
}

/// A position made by a listed turn keeps its seat's capturers worked out, and right; one
/// made by judging a written turn leaves them unknown, and the listing works them out.
#[test]
fn capturers_are_kept_after_applying_and_worked_out_after_judging() {
    let mut rng = Rng(0xC0FF_EE00_1234_5678);
    let mut out = Vec::new();
    let mut with_captures = 0;
    for s in variants() {
        for game in 0..20 {
            let mut st = if game % 2 == 0 {
                Halatafl::start(&s, None, &NoTags, None).unwrap()
            } else {
                random_position(&s, &mut rng)
            };
            for _ in 0..200 {
                out.clear();
                Halatafl::legal_turns(&s, &st, None, &mut out);
                if out.is_empty() {
                    break;
                }
                let t = out[rng.below(out.len())];
                let (mut applied, mut judged) = (st, st);
                Halatafl::apply_legal(&s, &mut applied, None, &t);
                Halatafl::play(&s, &mut judged, None, &t).unwrap();
                assert_eq!(applied, judged);
                let side = applied.to_move as usize;
                let truth = movegen::capturers(&s, &applied.board, side, false);
                if applied.end.is_none() {
                    assert_eq!(applied.capturers, truth, "after {t}");
                    with_captures += (truth != 0) as u32;
                }
                assert_eq!(judged.capturers, board::UNKNOWN, "after {t}");
                assert_eq!(judged.capturers_of(&s), truth);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                Halatafl::legal_turns(&s, &applied, None, &mut a);
                Halatafl::legal_turns(&s, &judged, None, &mut b);
                assert_eq!(a, b, "after {t}");
                st = if game % 4 >= 2 { judged } else { applied };
            }
        }
    }
    assert!(with_captures > 1_000, "{with_captures}");
}
