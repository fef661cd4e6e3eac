//! Judging a written turn: every rule checked in the spec's order, each failure a typed
//! [`Violation`]; a legal turn is then applied and the end checks run.

use super::board::{Board, FailedStep, Rank, State, UNKNOWN};
use super::geometry::{dir_index, sq, Geometry, NONE, STEP_DIR, THRONES};
use super::movegen::{capturers, Jumper};
use super::rules::{after_turn, after_winning_huff};
use super::settings::{Capture, ContinueJumps, Settings};
use super::violation::{Fault, Violation};
use super::win::wins;
use crate::games::Seat;
use crate::notation::halatafl::{Move, Promotion, Square, Turn};

impl Jumper {
    /// Checks one written hop `p`x`q`; on success the jumped point.
    fn check_hop(&self, mine: u64, p: Square, q: Square, jumped: u64) -> Result<usize, Fault> {
        let df = q.file() as i8 - p.file() as i8;
        let dr = q.rank() as i8 - p.rank() as i8;
        if !matches!(df.abs(), 0 | 2) || !matches!(dr.abs(), 0 | 2) || (df == 0 && dr == 0) {
            return Err(Fault::NotShortJump);
        }
        let Some(d) = dir_index(df / 2, dr / 2) else {
            return Err(Fault::NotShortJump);
        };
        if self.dirs & (1 << d) == 0 {
            return Err(Fault::Backward);
        }
        let over = self.g.step(p.index(), d);
        let Some(o) = over.filter(|&o| self.g.step(o, d) == Some(q.index())) else {
            return Err(Fault::NoLine);
        };
        let ob = 1u64 << o;
        if jumped & ob != 0 {
            return Err(Fault::AlreadyJumped(sq(o)));
        }
        if mine & ob != 0 {
            return Err(Fault::OwnPiece(sq(o)));
        }
        if self.enemy & ob == 0 {
            return Err(Fault::NothingToJump(sq(o)));
        }
        if self.occ & q.bit() != 0 {
            return Err(Fault::Occupied);
        }
        Ok(o)
    }
}

/// A move judged legal: the board after it and what the next turn may huff: the
/// points of `huffable`, or what the step `failed` leaves (worked out where asked for).
pub(crate) struct Judged {
    pub board: Board,
    pub failed: Option<FailedStep>,
    pub huffable: u64,
    /// Captured or promoted (resets the quiet count).
    pub eventful: bool,
}

/// Checks a man's or king's step, or an emperor's move, from `from` to `to`.
fn check_step(
    g: &Geometry,
    b: &Board,
    side: usize,
    rank: Rank,
    from: Square,
    to: Square,
) -> Result<(), Fault> {
    let occ = b.occ();
    match rank {
        Rank::Man | Rank::King => {
            let d = STEP_DIR[from.index()][to.index()];
            if d == NONE {
                return Err(Fault::NotAdjacent);
            }
            let d = d as usize;
            if rank == Rank::Man && g.man_dirs[side] & (1 << d) == 0 {
                return Err(Fault::Backward);
            }
            if g.step(from.index(), d) != Some(to.index()) {
                return Err(Fault::NoLine);
            }
        }
        Rank::Emperor => {
            let df = to.file() as i8 - from.file() as i8;
            let dr = to.rank() as i8 - from.rank() as i8;
            if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
                return Err(Fault::NotStraight);
            }
            let d = dir_index(df.signum(), dr.signum()).ok_or(Fault::NotStraight)?;
            let k = df.abs().max(dr.abs());
            let mut p = from.index();
            for n in 1..=k {
                let Some(next) = g.step(p, d) else {
                    return Err(Fault::NoLine);
                };
                if n < k && occ & (1u64 << next) != 0 {
                    return Err(Fault::Blocked(sq(next)));
                }
                p = next;
            }
        }
    }
    if occ & to.bit() != 0 {
        return Err(Fault::Occupied);
    }
    Ok(())
}

/// The violation of a bad hop (`h` 0-based) by a piece of `rank`: the shape of a king's
/// or emperor's jump is theirs; otherwise the first hop breaks `jump`, a later one
/// `multi-jump`.
fn hop_violation(
    seat: Seat,
    rank: Rank,
    h: usize,
    from: Square,
    to: Square,
    fault: Fault,
) -> Violation {
    let shape = matches!(fault, Fault::NotShortJump | Fault::NoLine | Fault::Backward);
    match (rank, shape) {
        (Rank::King, true) => Violation::KingMove {
            seat,
            from,
            to,
            jump: true,
            fault,
        },
        (Rank::Emperor, true) => Violation::EmperorMove {
            seat,
            from,
            to,
            jump: true,
            fault,
        },
        _ if h == 0 => Violation::Jump {
            seat,
            rank,
            from,
            to,
            fault,
        },
        _ => Violation::MultiJump {
            seat,
            rank,
            hop: (h + 1).min(u8::MAX as usize) as u8,
            from,
            to,
            fault,
        },
    }
}

/// Judges the move of `side` on `b` (any huff already applied) and its marker, in the
/// spec's order: the move's shape, own-throne, compulsory-capture, continue-jumps, the
/// marker. On success, the board after it.
pub(crate) fn judge_move(
    s: &Settings,
    b: &Board,
    side: usize,
    mv: &Move,
    marker: Option<Promotion>,
) -> Result<Judged, Violation> {
    let seat = Seat(side as u8);
    let from = mv.from();
    let fi = from.index();
    if b.side[side] & from.bit() == 0 {
        return Err(match mv {
            Move::Step { .. } => Violation::NoPieceToStep { seat, at: from },
            Move::Jump(_) => Violation::NoPieceToJump { seat, at: from },
        });
    }
    let rank = b.rank_at(fi);
    let (to, promo, failed, huffable, captured) = match mv {
        Move::Step { to, .. } => {
            let to = *to;
            if let Err(fault) = check_step(s.geo(), b, side, rank, from, to) {
                return Err(match rank {
                    Rank::Man => Violation::Step {
                        seat,
                        from,
                        to,
                        fault,
                    },
                    Rank::King => Violation::KingMove {
                        seat,
                        from,
                        to,
                        jump: false,
                        fault,
                    },
                    Rank::Emperor => Violation::EmperorMove {
                        seat,
                        from,
                        to,
                        jump: false,
                        fault,
                    },
                });
            }
            if rank == Rank::Man && THRONES[side] & to.bit() != 0 {
                return Err(Violation::OwnThrone { seat, at: to });
            }
            // A step that fails to capture: refused under `capture = compulsory`; under
            // `compulsory-huff` the next seat may huff, and what is worked out only where
            // it is asked for (most turns huff nothing).
            let failed = match s.capture {
                Capture::Compulsory if capturers(s, b, side, true) != 0 => {
                    return Err(Violation::CompulsoryCapture { seat, from, to });
                }
                Capture::CompulsoryHuff => Some(FailedStep { from, to, rank }),
                _ => None,
            };
            let promo = match rank {
                Rank::Man if s.promotion && THRONES[1 - side] & to.bit() != 0 => {
                    Some(Promotion::King)
                }
                Rank::King if s.emperor && THRONES[side] & to.bit() != 0 => {
                    Some(Promotion::Emperor)
                }
                _ => None,
            };
            (to, promo, failed, 0, 0u64)
        }
        Move::Jump(path) => {
            let j = Jumper::new(s, b, side, fi);
            let mine = b.side[side] & !from.bit();
            let points = path.points();
            if points.len() < 2 {
                return Err(Violation::Jump {
                    seat,
                    rank,
                    from,
                    to: from,
                    fault: Fault::NotShortJump,
                });
            }
            let mut jumped = 0u64;
            let mut promoted = false;
            for (h, w) in points.windows(2).enumerate() {
                match j.check_hop(mine, w[0], w[1], jumped) {
                    Ok(o) => {
                        jumped |= 1u64 << o;
                        promoted |= j.promo_at & w[1].bit() != 0;
                    }
                    Err(fault) => return Err(hop_violation(seat, rank, h, w[0], w[1], fault)),
                }
            }
            let end = path.to();
            if j.no_stop & end.bit() != 0 {
                return Err(Violation::OwnThrone { seat, at: end });
            }
            let mut huffable = 0;
            if s.continue_jumps == ContinueJumps::Compulsory && j.can_continue(end.index(), jumped)
            {
                if s.capture == Capture::CompulsoryHuff {
                    // Stopped early: only this piece may be huffed.
                    huffable = end.bit();
                } else {
                    return Err(Violation::ContinueJumps {
                        seat,
                        rank,
                        path: *path,
                    });
                }
            }
            let promo = if promoted { j.promo } else { None };
            (end, promo, None, huffable, jumped)
        }
    };
    if let Some(m) = marker {
        if Some(m) != promo {
            return Err(match m {
                Promotion::King => Violation::KingMarker {
                    seat,
                    actual: promo,
                },
                Promotion::Emperor => Violation::EmperorMarker {
                    seat,
                    actual: promo,
                },
            });
        }
    }
    let mut board = *b;
    board.clear(captured | from.bit());
    let new_rank = match promo {
        Some(Promotion::King) => Rank::King,
        Some(Promotion::Emperor) => Rank::Emperor,
        None => rank,
    };
    board.put(to.index(), side, new_rank);
    Ok(Judged {
        board,
        failed,
        huffable,
        eventful: captured != 0 || promo.is_some(),
    })
}

/// Judges a whole turn (huff, then move) and, when legal, applies it and runs the end
/// checks. On a violation `st` is unchanged.
pub(crate) fn play(s: &Settings, st: &mut State, turn: &Turn) -> Result<(), Violation> {
    if st.end.is_some() {
        return Err(Violation::GameOver);
    }
    let side = st.to_move as usize;
    let seat = Seat(st.to_move);
    let mut b = st.board;
    let huffed = turn.huff.is_some();
    if let Some(h) = turn.huff {
        let huffable = st.huffable(s);
        if huffable == 0 {
            return Err(Violation::NoHuffRight { seat, at: h });
        }
        if huffable & h.bit() == 0 {
            return Err(Violation::NotHuffable { seat, at: h });
        }
        b.clear(h.bit());
        if let Some(reason) = wins(s, &b, side) {
            // A huff that wins ends the game at once: the turn is the huff alone.
            if turn.mv.is_some() {
                return Err(Violation::MoveAfterWinningHuff { seat, at: h });
            }
            match turn.promotion {
                Some(Promotion::King) => return Err(Violation::KingMarker { seat, actual: None }),
                Some(Promotion::Emperor) => {
                    return Err(Violation::EmperorMarker { seat, actual: None })
                }
                None => {}
            }
            *st = after_winning_huff(st, b, reason);
            return Ok(());
        }
        if turn.mv.is_none() {
            return Err(Violation::HuffAlone { seat, at: h });
        }
    }
    let Some(mv) = &turn.mv else {
        return Err(Violation::EmptyTurn { seat });
    };
    let judged = judge_move(s, &b, side, mv, turn.promotion)?;
    after_turn(
        s,
        st,
        judged.board,
        judged.failed,
        if judged.failed.is_some() {
            UNKNOWN
        } else {
            judged.huffable
        },
        huffed || judged.eventful,
        false,
    );
    Ok(())
}
