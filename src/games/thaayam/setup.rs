//! The setup notation: `south: c1 Tc5 c3; north: e5 hand=3; to-move: south`, and
//! `west: out` for a seat that has resigned and left the game (an extension of the spec).

use super::board::{position, square, State, HAND, KEEP, OFF, OPPOSITE};
use super::settings::{Settings, SEAT_NAMES};
use super::violation::{Fault, Violation};
use crate::games::Seat;
use crate::notation::thaayam::Square;

/// The word for a seat that has left the game: `west: out`.
const OUT: &str = "out";

fn bad(message: String) -> Violation {
    Violation::new(Fault::Setup(message))
}

fn seat_named(s: &Settings, name: &str) -> Result<Seat, Violation> {
    match SEAT_NAMES.iter().position(|n| *n == name) {
        Some(i) if s.mask() & (1 << i) != 0 => Ok(Seat(i as u8)),
        Some(_) => Err(bad(format!(
            "{name} does not play in this game (seats: {})",
            s.seats()
                .iter()
                .map(|x| SEAT_NAMES[x.0 as usize])
                .collect::<Vec<_>>()
                .join(" ")
        ))),
        None => Err(bad(format!(
            "`{}` is not a seat: south, west, north or east",
            crate::quote::quote(name)
        ))),
    }
}

/// Parses a setup string. Playing seats it does not mention have every piece in hand;
/// `SEAT: out` is a seat that has left the game, its pieces off the board (as
/// `Game::resign` leaves it).
pub fn parse(s: &Settings, text: &str) -> Result<State, Violation> {
    let mut st = State::start(s.mask(), s.seats()[0]);
    let mut seen = 0u8;
    let mut out = 0u8;
    let mut to_move = None;
    for part in text.split(';').map(str::trim) {
        let Some((head, rest)) = part.split_once(':') else {
            return Err(bad(format!(
                "`{}` is not `seat: pieces` or `to-move: seat` (example: `south: c1 Tc5 c3; north: e5 hand=3; to-move: south`)",
                crate::quote::quote(part)
            )));
        };
        let (head, rest) = (head.trim(), rest.trim());
        if head == "to-move" {
            if to_move.is_some() {
                return Err(bad("`to-move` is given twice".into()));
            }
            to_move = Some(seat_named(s, rest)?);
            continue;
        }
        let seat = seat_named(s, head)?;
        if seen & (1 << seat.0) != 0 {
            return Err(bad(format!("{head} is described twice")));
        }
        seen |= 1 << seat.0;
        if rest == OUT {
            out |= 1 << seat.0;
            continue;
        }
        let si = seat.0 as usize;
        let mut n = 0usize;
        let (mut hand, mut off) = (None, None);
        for item in rest.split_whitespace() {
            if item == OUT {
                return Err(bad(format!(
                    "`{}`: a seat that is out has no pieces; write `{head}: out` alone",
                    crate::quote::quote(part)
                )));
            }
            let count = |v: &str| -> Result<usize, Violation> {
                v.parse::<usize>().ok().filter(|&k| k <= 4).ok_or_else(|| {
                    bad(format!(
                        "`{}`: a count from 0 to 4",
                        crate::quote::quote(item)
                    ))
                })
            };
            if let Some(v) = item.strip_prefix("hand=") {
                hand = Some(count(v)?);
                continue;
            }
            if let Some(v) = item.strip_prefix("off=") {
                off = Some(count(v)?);
                continue;
            }
            let (twins, name) = match item.strip_prefix('T') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let Some(sq) = Square::parse(name) else {
                return Err(bad(format!(
                    "`{}` is not a square a1-e5 (T before a square for twins), `hand=N` or `off=N`",
                    crate::quote::quote(item)
                )));
            };
            let p = position(seat, sq);
            let k = if twins { 2 } else { 1 };
            if twins && !(OPPOSITE..KEEP).contains(&p) {
                return Err(bad(format!(
                    "{head}'s twins cannot stand on {sq}: twins are made on {} and become singles in the keep",
                    square(seat, OPPOSITE)
                )));
            }
            if n + k > 4 {
                return Err(bad(format!("{head} has more than 4 pieces")));
            }
            for _ in 0..k {
                st.pos[si][n] = p;
                if twins {
                    st.twinned[si] |= 1 << n;
                }
                n += 1;
            }
        }
        let (h, o) = match (hand, off) {
            (Some(h), Some(o)) if n + h + o == 4 => (h, o),
            (Some(h), None) if n + h <= 4 => (h, 4 - n - h),
            (None, Some(o)) if n + o <= 4 => (4 - n - o, o),
            (None, None) => (4 - n, 0),
            _ => {
                return Err(bad(format!(
                    "{head}'s pieces on the board, in hand and borne off do not make 4"
                )))
            }
        };
        if o == 4 {
            return Err(bad(format!(
                "{head} has borne off every piece: the game would be over"
            )));
        }
        for _ in 0..h {
            st.pos[si][n] = HAND;
            n += 1;
        }
        for _ in 0..o {
            st.pos[si][n] = OFF;
            n += 1;
        }
    }
    st.playing = s.mask() & !out;
    if out != 0 && st.playing.count_ones() < 2 {
        return Err(bad(
            "fewer than two seats are left in the game: the game would be over".into(),
        ));
    }
    match to_move {
        Some(seat) if !st.is_playing(seat) => {
            return Err(bad(format!(
                "{} is out of the game and cannot be to move",
                SEAT_NAMES[seat.0 as usize]
            )))
        }
        Some(seat) => st.to_move = seat,
        None => {
            return Err(bad(
                "the setup must end with the seat to move (`to-move: south`)".into(),
            ))
        }
    }
    Ok(st)
}

/// The setup string of a position.
pub fn write(s: &Settings, st: &State) -> String {
    let mut parts = Vec::new();
    for &seat in s.seats() {
        if !st.is_playing(seat) {
            parts.push(format!("{}: {OUT}", SEAT_NAMES[seat.0 as usize]));
            continue;
        }
        let si = seat.0 as usize;
        let mut items = Vec::new();
        let mut on: Vec<(u8, bool)> = (0..4)
            .filter(|&i| st.pos[si][i] <= KEEP)
            .map(|i| (st.pos[si][i], st.twinned[si] & (1 << i) != 0))
            .collect();
        on.sort();
        let mut twins_left = 0;
        for (p, tw) in on {
            if tw {
                if twins_left == 0 {
                    items.push(format!("T{}", square(seat, p)));
                    twins_left = 1;
                } else {
                    twins_left = 0;
                }
            } else {
                items.push(square(seat, p).to_string());
            }
        }
        let (h, o) = (st.hand(seat), st.off(seat));
        if h > 0 || items.is_empty() {
            items.push(format!("hand={h}"));
        }
        if o > 0 {
            items.push(format!("off={o}"));
        }
        parts.push(format!("{}: {}", SEAT_NAMES[si], items.join(" ")));
    }
    parts.push(format!("to-move: {}", SEAT_NAMES[st.to_move.0 as usize]));
    parts.join("; ")
}

#[cfg(test)]
#[path = "tests_setup.rs"]
mod tests;
