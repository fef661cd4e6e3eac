//! Random playouts (the generator and the judge agree), hints and notes.

use super::*;

// ---------------------------------------------------------------------------------------
// Random playouts: the generator and the judge agree.

pub(in crate::games::halatafl) struct Rng(pub(in crate::games::halatafl) u64);
impl Rng {
    pub(in crate::games::halatafl) fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(in crate::games::halatafl) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub(in crate::games::halatafl) fn variants() -> Vec<Settings> {
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
                huffs.extend(st.huffable_squares(&s).map(Some));
                // A huff of a piece that may not be huffed.
                if let Some(other) = by_name(st.pieces(Seat(1 - me.0)) & !st.huffable(&s)).next() {
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
pub(in crate::games::halatafl) fn random_position(s: &Settings, rng: &mut Rng) -> State {
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
