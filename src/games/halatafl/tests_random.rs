//! `random_turn` against `legal_turns` + `uniform`, and the capturers a position keeps
//! (worked out after a listed turn, left unknown after a judged one).

use super::tests::{random_position, variants, NoTags, Rng};
use super::*;
use crate::games::Game;
use crate::notation::halatafl::Move;

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
                // Judging leaves what may be huffed after a step to be worked out; it is
                // what applying the listed turn works out at once.
                assert_eq!(applied.huffable(&s), judged.huffable(&s), "after {t}");
                assert_ne!(applied.huffable, board::UNKNOWN, "after {t}");
                let side = applied.to_move as usize;
                let truth = movegen::capturers(&s, &applied.board, side, false);
                if applied.end.is_none() {
                    assert_eq!(applied.capturers, truth, "after {t}");
                    with_captures += (truth != 0) as u32;
                    // The steps counted are the steps listed without a huff.
                    let mut listed = Vec::new();
                    let plain = State {
                        failed: None,
                        huffable: 0,
                        ..applied
                    };
                    Halatafl::legal_turns(&s, &plain, None, &mut listed);
                    let steps = listed
                        .iter()
                        .filter(|t| matches!(t.mv, Some(Move::Step { .. })))
                        .count();
                    if truth == 0 || s.capture != Capture::Compulsory {
                        assert_eq!(applied.steps.total() as usize, steps, "after {t}");
                    }
                    assert_eq!(judged.derived(&s), (truth, applied.steps));
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

/// The steps counted after a huff from the steps before it are the steps counted on the
/// board the huff leaves, for every huffable point of random positions without emperors
/// of the seat to move, under every variant.
#[test]
fn counts_after_huff_are_the_counts_of_the_board_left() {
    let mut rng = Rng(0x5EED_0F4A_FF00_0001);
    let mut checked = 0;
    for s in variants() {
        for _ in 0..2_000 {
            let st = random_position(&s, &mut rng);
            let side = st.to_move as usize;
            if st.board.side[side] & st.board.emperors != 0 {
                continue;
            }
            let before = movegen::count_steps(&s, &st.board, side);
            // Any enemy piece will do, not only the huffable ones.
            for h in geometry::Bits(st.board.side[1 - side]) {
                let mut b = st.board;
                b.clear(1u64 << h);
                let h = geometry::sq(h);
                assert_eq!(
                    random::counts_after_huff(&s, &b, side, h, before),
                    movegen::count_steps(&s, &b, side),
                    "huff {h} in {}",
                    Halatafl::setup_string(&s, &st)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

/// `count_captures` counts the chains `captures` lists, for every piece of either seat
/// (with or without a capture) in random positions, under every variant (chains that
/// may stop and chains that must go on).
#[test]
fn count_captures_counts_the_chains_listed() {
    let mut rng = Rng(0xC4A1_25C0_0A7E_0001);
    let (mut pieces, mut chains, mut long) = (0u64, 0usize, 0u64);
    let mut out = Vec::new();
    for s in variants() {
        for _ in 0..1_500 {
            let st = random_position(&s, &mut rng);
            for side in 0..2 {
                for i in geometry::Bits(st.board.side[side]) {
                    out.clear();
                    movegen::captures(&s, &st.board, side, None, 1u64 << i, &mut out);
                    assert_eq!(
                        movegen::count_captures(&s, &st.board, side, 1u64 << i) as usize,
                        out.len(),
                        "piece on {} of side {side} in {}",
                        geometry::sq(i),
                        Halatafl::setup_string(&s, &st)
                    );
                    pieces += 1;
                    chains += out.len();
                    long += out.iter().any(|t| match t.mv {
                        Some(Move::Jump(p)) => p.hops() > 2,
                        _ => false,
                    }) as u64;
                }
            }
        }
    }
    assert!(pieces > 100_000, "{pieces}");
    assert!(chains > 20_000, "{chains}");
    assert!(long > 500, "{long}");
}

/// The directions in which men may jump onto their own thrones, which `hop_sources`
/// relies on, are right for every geometry.
#[test]
fn man_throne_dirs_cover_every_geometry() {
    for men in 0..2 {
        for side in 0..2 {
            let mut union = 0u8;
            for row in &geometry::GEOMETRY {
                let g = &row[men];
                for d in 0..8 {
                    if g.man_jump_throne[side][d] != 0 {
                        union |= 1 << d;
                    }
                }
            }
            // Exactly: wider would only cost shifts, narrower would miss jumps.
            assert_eq!(
                union,
                geometry::MAN_THRONE_DIRS[men][side],
                "men {men}, side {side}"
            );
        }
    }
}

/// `byte_counts` counts the bits of eight words by byte, whatever they hold (up to a
/// full board in every word).
#[test]
fn byte_counts_count_every_bit() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for round in 0..20_000 {
        let words: [u64; 8] = std::array::from_fn(|_| match round % 3 {
            0 => rng.next() & geometry::FULL,
            1 => rng.next() & rng.next() & geometry::FULL,
            _ => geometry::FULL,
        });
        let got = movegen::byte_counts(words);
        for j in 0..8 {
            let want: u32 = words
                .iter()
                .map(|w| ((w >> (8 * j)) & 0xFF).count_ones())
                .sum();
            assert_eq!((got >> (8 * j)) & 0xFF, u64::from(want), "{words:x?}");
        }
        let total: u32 = words.iter().map(|w| w.count_ones()).sum();
        assert_eq!(board::StepCounts(got).total(), total);
    }
}

/// `StepCounts::locate` finds the byte of the `k`-th step and the steps before it there,
/// for every `k`, with counts up to 192 a byte; over 255 in all it declines.
#[test]
fn step_counts_locate_every_step() {
    let mut rng = Rng(0x0BAD_CAFE_F00D_0001);
    for round in 0..5_000 {
        let limit = [4, 20, 193][round % 3];
        let bytes: [u64; 7] = std::array::from_fn(|_| rng.next() % limit);
        let counts = board::StepCounts(bytes.iter().enumerate().map(|(j, c)| c << (8 * j)).sum());
        let total: u64 = bytes.iter().sum();
        assert_eq!(counts.total() as u64, total);
        let mut k = 0;
        for (j, &c) in bytes.iter().enumerate() {
            for within in 0..c {
                let got = counts.locate(k as u32);
                if total > 255 {
                    assert_eq!(got, None);
                } else {
                    assert_eq!(got, Some((j as u32, within as u32)), "{bytes:?} k {k}");
                }
                k += 1;
            }
        }
    }
}
