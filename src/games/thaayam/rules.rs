//! Judging and applying a turn.

use super::board::{
    pieces_at, position, square, taken_at, Ending, Reason, State, HAND, KEEP, OFF, OPPOSITE,
    SAFE_POSITIONS,
};
use super::own::Own;
use super::search::Search;
use super::series::{split, usable_throws, Unused};
use super::settings::Settings;
use super::violation::{Fault, Violation};
use crate::games::Seat;
use crate::notation::thaayam::{ActionRef, Series, Turn};

/// A turn in progress.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Work {
    pub st: State,
    pub moved: u8,
    /// The usable throws not used yet.
    pub throws: Unused,
    pub used: u16,
    pub captured: bool,
}

impl Work {
    /// The start of a turn with these usable throws.
    pub fn start(st: &State, usable: Unused) -> Work {
        Work {
            st: *st,
            moved: 0,
            throws: usable,
            used: 0,
            captured: false,
        }
    }
    fn own(&self, seat: Seat) -> Own {
        Own {
            moved: self.moved,
            ..Own::of(&self.st, seat)
        }
    }
}

/// Sends the enemy pieces on the landing square home: all of them when twins land,
/// the singles when a single lands; nothing on a marked square. A claimed capture that
/// takes nothing is a fault. The pieces there are found by their bits
/// ([`taken_at`]), as a listed turn's are.
fn land(w: &mut Work, seat: Seat, to: u8, twins: bool, claim: bool) -> Result<(), Fault> {
    if SAFE_POSITIONS & (1 << to) != 0 {
        return if claim {
            Err(Fault::SafeSquare {
                at: square(seat, to),
            })
        } else {
            Ok(())
        };
    }
    if capture(&mut w.st, seat, to, twins) {
        w.captured = true;
    } else if claim {
        // Nothing taken: a single that finds only twins there is told so.
        let at = square(seat, to);
        let twins_there = !twins && taken_at(&w.st, seat, to, true) != 0;
        return Err(if twins_there {
            Fault::SingleOnTwins { at }
        } else {
            Fault::NoCapture { at }
        });
    }
    Ok(())
}

/// Takes the written throws from the unused ones: their sum. A throw not among them is
/// refused as not thrown: only a refused turn needs to know whether the series discarded
/// it ([`discarded_told`]).
fn take(w: &mut Work, throws: &[u8]) -> Result<u16, Fault> {
    let mut sum = 0;
    for &v in throws {
        if !(1..=8).contains(&v) || w.throws.count(v) == 0 {
            return Err(Fault::NoThrow { value: v });
        }
        w.throws = Unused(w.throws.0 - Unused::one(v));
        w.used += 1;
        sum += u16::from(v);
    }
    Ok(sum)
}

/// A throw refused as not thrown that the series threw but discarded (rule 7) is told
/// so.
fn discarded_told(fault: Fault, series: &Series, on_board: bool) -> Fault {
    match fault {
        Fault::NoThrow { value } if (1..=8).contains(&value) => {
            if split(series, on_board).1[usize::from(value)] > 0 {
                Fault::Discarded { value }
            } else {
                fault
            }
        }
        _ => fault,
    }
}

/// Judges and applies one action of the seat's turn. On a fault `w` is left part-way:
/// the turn is refused as a whole.
pub fn apply(s: &Settings, w: &mut Work, seat: Seat, action: ActionRef<'_>) -> Result<(), Fault> {
    let si = seat.0 as usize;
    match action {
        ActionRef::Enter => {
            if w.throws.count(1) == 0 {
                return Err(Fault::EnterNoOne);
            }
            let Some(i) = (0..4).find(|&i| w.st.pos[si][i] == HAND) else {
                return Err(Fault::NothingToEnter);
            };
            take(w, &[1])?;
            w.st.pos[si][i] = 0;
            Ok(())
        }
        ActionRef::Off => {
            if w.throws.count(1) == 0 {
                return Err(Fault::OffNoOne);
            }
            let outside = (0..4)
                .filter(|&i| w.st.pos[si][i] != KEEP && w.st.pos[si][i] != OFF)
                .count();
            if outside > 0 {
                return Err(Fault::OffTooEarly { outside });
            }
            let Some(i) = (0..4).find(|&i| w.st.pos[si][i] == KEEP && w.moved & (1 << i) == 0)
            else {
                return Err(Fault::OffMoved);
            };
            take(w, &[1])?;
            w.st.pos[si][i] = OFF;
            w.moved |= 1 << i;
            Ok(())
        }
        ActionRef::Twin(sq) => {
            if !s.twins {
                return Err(Fault::TwinsOff);
            }
            let palace = square(seat, OPPOSITE);
            if sq != palace {
                return Err(Fault::TwinWrongSquare { at: sq, palace });
            }
            let own = w.own(seat);
            let Some((a, b)) = own.declaration() else {
                return Err(Fault::TwinTooFew { at: sq });
            };
            w.st.twinned[si] |= (1 << a) | (1 << b);
            if own.is_moved(a) || own.is_moved(b) {
                w.moved |= (1 << a) | (1 << b);
            }
            Ok(())
        }
        ActionRef::Move {
            from,
            twins,
            throws,
            capture,
        } => {
            // The pieces before the throws are taken: what they were decides the faults.
            let own = w.own(seat);
            let sum = take(w, throws)?;
            if throws.len() > 1 && !s.combine {
                return Err(Fault::Combined);
            }
            let p = position(seat, from);
            // The seat's pieces of the kind named on the square, as a bit set.
            let kind = if twins { own.twinned } else { !own.twinned };
            let here = pieces_at(own.pos, p) & kind;
            if twins {
                if p == KEEP {
                    return Err(Fault::TwinsInKeep);
                }
                if here == 0 {
                    return Err(Fault::NoTwins { at: from });
                }
                if sum < 2 {
                    return Err(Fault::TwinsTooShort { sum: sum as u8 });
                }
            } else if here == 0 {
                return Err(Fault::NoPiece { at: from });
            }
            if p == KEEP {
                return Err(Fault::InKeep);
            }
            let by = if twins { sum / 2 } else { sum };
            if u16::from(p) + by > u16::from(KEEP) {
                return Err(Fault::PastKeep {
                    from,
                    by: by.min(255) as u8,
                    left: KEEP - p,
                });
            }
            let free = here & !own.moved;
            if free == 0 {
                return Err(Fault::MovedTwice { at: from });
            }
            let i = free.trailing_zeros() as usize;
            let to = p + by as u8;
            let mut mask = 1u8 << i;
            if twins {
                let Some(j) = own.partner(i) else {
                    return Err(Fault::MovedTwice { at: from });
                };
                mask |= 1 << j;
            }
            for k in 0..4 {
                if mask & (1 << k) != 0 {
                    w.st.pos[si][k] = to;
                }
            }
            w.moved |= mask;
            if to == KEEP {
                w.st.twinned[si] &= !mask;
            }
            land(w, seat, to, twins, capture)
        }
    }
}

/// Ends a turn: a seat with every piece borne off wins; after a capture (with
/// `capture-bonus`) the seat plays again; otherwise the next seat clockwise.
pub fn finish(s: &Settings, st: &mut State, seat: Seat, captured: bool) {
    if st.off(seat) == 4 {
        st.end = Some(Ending {
            winner: Some(seat),
            reason: Reason::Win,
        });
    } else if !(captured && s.capture_bonus) {
        st.to_move = st.next_after(seat);
    }
}

/// Judges a turn and, when legal, applies it.
pub fn play(
    s: &Settings,
    st: &mut State,
    series: Option<&Series>,
    turn: &Turn,
) -> Result<(), Violation> {
    let Some(series) = series else {
        return Err(Violation::new(Fault::NoSeries));
    };
    let seat = st.to_move;
    let on_board = st.on_board(seat);
    let fail = |fault| Violation {
        fault: discarded_told(fault, series, on_board),
        series: series.clone(),
    };
    let usable = usable_throws(series, on_board);
    let mut w = Work::start(st, usable);
    for action in turn.actions.views() {
        apply(s, &mut w, seat, action).map_err(fail)?;
    }
    // A turn that used every usable throw used the most (no search); otherwise the
    // search says how many could have been.
    if !w.throws.is_empty() {
        let possible = u16::from(Search::with(|search| {
            search.best(s, Own::of(st, seat), usable)
        }));
        if w.used < possible {
            return Err(fail(Fault::UseAll {
                used: w.used as usize,
                possible: possible as usize,
            }));
        }
    }
    finish(s, &mut w.st, seat, w.captured);
    *st = w.st;
    Ok(())
}

/// Applies a turn that [`legal_turns`](super::legal::legal_turns) listed for this state
/// and series, as [`play`] would: its actions are legal as they stand, so they are
/// applied without the checks of [`apply`] and without the use-all search.
pub fn apply_listed(s: &Settings, st: &mut State, series: Option<&Series>, turn: &Turn) {
    if series.is_none() {
        return;
    }
    let seat = st.to_move;
    let mut own = Own::of(st, seat);
    let mut captured = false;
    for action in turn.actions.views() {
        match action {
            ActionRef::Enter => {
                if let Some(i) = (0..4).find(|&i| own.pos[i] == HAND) {
                    own.pos[i] = 0;
                }
            }
            ActionRef::Off => {
                if let Some(i) = (0..4).find(|&i| own.pos[i] == KEEP && !own.is_moved(i)) {
                    own.pos[i] = OFF;
                    own.moved |= 1 << i;
                }
            }
            ActionRef::Twin(_) => {
                if let Some((a, b)) = own.declaration() {
                    let pair = (1 << a) | (1 << b);
                    own.twinned |= pair;
                    if own.moved & pair != 0 {
                        own.moved |= pair;
                    }
                }
            }
            ActionRef::Move {
                from,
                twins,
                throws,
                ..
            } => {
                let p = position(seat, from);
                let twinned = if twins { own.twinned } else { !own.twinned };
                let alike = pieces_at(own.pos, p) & twinned & !own.moved;
                if alike == 0 {
                    continue;
                }
                let i = alike.trailing_zeros() as usize;
                let mut pieces = 1u8 << i;
                if twins {
                    pieces |= own.partner(i).map_or(0, |j| 1 << j);
                }
                let sum: u16 = throws.iter().map(|&t| u16::from(t)).sum();
                let to = p + (if twins { sum / 2 } else { sum }) as u8;
                for k in 0..4 {
                    if pieces & (1 << k) != 0 {
                        own.pos[k] = to;
                    }
                }
                own.moved |= pieces;
                if to == KEEP {
                    own.twinned &= !pieces;
                }
                captured |= capture(st, seat, to, twins);
            }
        }
    }
    st.pos[seat.0 as usize] = own.pos;
    st.twinned[seat.0 as usize] = own.twinned;
    finish(s, st, seat, captured);
}

/// A move of `seat` lands on route position `to`: the enemy pieces there go home (only
/// the singles when a single lands), except on a marked square. Returns whether any did.
#[inline]
fn capture(st: &mut State, seat: Seat, to: u8, twins: bool) -> bool {
    let taken = taken_at(st, seat, to, twins);
    let mut left = taken;
    while left != 0 {
        let bit = left.trailing_zeros() as usize;
        left &= left - 1;
        let (e, i) = (bit / 4, bit % 4);
        st.pos[e][i] = HAND;
        st.twinned[e] &= !(1 << i);
    }
    taken != 0
}
