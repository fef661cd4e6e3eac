//! The setup notation (`halves.md`, "Setup notation"):
//! `white: (0,0) (1,0) (2,-1); black: (0,1) (1,1); to-move: black; phase: waning`.
//! A seat that has resigned is written `red: resigned (1,0)`, its tiles still on the
//! table, and `passes: N` (written when N > 0) counts the passes in succession just made
//! (extensions of the spec's notation, docs/decisions.md).

use std::fmt::Write;

use super::board::{Phase, State, MAX_TILES};
use super::settings::{Settings, SEAT_NAMES};
use super::violation::{colour_name, SetupFault, Violation};
use crate::games::Seat;
use crate::notation::halves::Cell;

/// Parses `(q,r)` with integer coordinates; `None` unless it is a cell that exists.
pub fn parse_cell(text: &str) -> Option<Cell> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let (q, r) = inner.split_once(',')?;
    let num = |t: &str| -> Option<i32> {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    Cell::new(num(q)?, num(r)?)
}

/// The setup string of a position.
pub fn write(s: &Settings, st: &State) -> String {
    let mut out = String::new();
    for &seat in &s.seats {
        let _ = write!(out, "{}:", colour_name(seat));
        if st.resigned.contains(seat) {
            out.push_str(" resigned");
        }
        for (cell, c) in st.tiles.iter() {
            if c == seat {
                let _ = write!(out, " {cell}");
            }
        }
        out.push_str("; ");
    }
    let _ = write!(
        out,
        "to-move: {}; phase: {}",
        colour_name(st.to_move),
        st.phase.word()
    );
    if st.passes > 0 {
        let _ = write!(out, "; passes: {}", st.passes);
    }
    out
}

fn fault(f: SetupFault) -> Violation {
    Violation::Setup(f)
}

/// Parses a setup string: checks its structure (fields, cells, counts, one group), not
/// whether play could have reached it.
pub fn parse(s: &Settings, text: &str) -> Result<State, Violation> {
    let mut st = State::empty();
    let mut seen_seat = [false; 3];
    let mut to_move: Option<Seat> = None;
    let mut phase: Option<Phase> = None;
    let mut passes: Option<u8> = None;
    for part in text.split(';') {
        let part = part.trim();
        let Some((name, value)) = part.split_once(':') else {
            return Err(fault(SetupFault::Field { text: part.into() }));
        };
        let (name, value) = (name.trim(), value.trim());
        let seat = SEAT_NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Seat(i as u8))
            .filter(|seat| s.seats.contains(seat));
        if let Some(seat) = seat {
            if std::mem::replace(&mut seen_seat[seat.0 as usize], true) {
                return Err(fault(SetupFault::Repeated { name: name.into() }));
            }
            let mut count = 0u32;
            let mut words = value.split_whitespace().peekable();
            if words.next_if_eq(&"resigned").is_some() {
                st.resigned = st.resigned.with(seat);
            }
            for word in words {
                if word == "resigned" {
                    return Err(fault(SetupFault::ResignedPlace { seat }));
                }
                let cell = parse_cell(word)
                    .ok_or_else(|| fault(SetupFault::BadCell { text: word.into() }))?;
                if st.tiles.at(cell).is_some() {
                    return Err(fault(SetupFault::Twice { cell }));
                }
                count += 1;
                if count > u32::from(s.tiles_each) {
                    return Err(fault(SetupFault::TooMany {
                        seat,
                        count: value
                            .split_whitespace()
                            .filter(|w| *w != "resigned")
                            .count() as u32,
                        max: s.tiles_each,
                    }));
                }
                if st.tiles.len() >= MAX_TILES || !st.tiles.insert(cell, seat) {
                    return Err(fault(SetupFault::Full));
                }
            }
            continue;
        }
        match name {
            "to-move" => {
                if to_move.is_some() {
                    return Err(fault(SetupFault::Repeated { name: name.into() }));
                }
                let seat = SEAT_NAMES
                    .iter()
                    .position(|n| *n == value)
                    .map(|i| Seat(i as u8))
                    .filter(|seat| s.seats.contains(seat))
                    .ok_or_else(|| {
                        fault(SetupFault::SeatToMove {
                            found: value.into(),
                        })
                    })?;
                to_move = Some(seat);
            }
            "passes" => {
                if passes.is_some() {
                    return Err(fault(SetupFault::Repeated { name: name.into() }));
                }
                passes = Some(value.parse::<u8>().map_err(|_| {
                    fault(SetupFault::Passes {
                        found: value.into(),
                        max: s.seats.len() as u8 - 1,
                    })
                })?);
            }
            "phase" => {
                if phase.is_some() {
                    return Err(fault(SetupFault::Repeated { name: name.into() }));
                }
                phase = Some(match value {
                    "waxing" => Phase::Waxing,
                    "contract" => Phase::Contract,
                    "waning" => Phase::Waning,
                    _ => {
                        return Err(fault(SetupFault::Phase {
                            found: value.into(),
                        }))
                    }
                });
            }
            _ => return Err(fault(SetupFault::Field { text: part.into() })),
        }
    }
    for &seat in &s.seats {
        if !seen_seat[seat.0 as usize] {
            return Err(fault(SetupFault::Missing {
                name: colour_name(seat),
            }));
        }
    }
    let to_move = to_move.ok_or(fault(SetupFault::Missing { name: "to-move" }))?;
    let phase = phase.ok_or(fault(SetupFault::Missing { name: "phase" }))?;
    if !st.tiles.connected() {
        return Err(fault(SetupFault::NotConnected));
    }
    if st.resigned.contains(to_move) {
        return Err(fault(SetupFault::ResignedToMove { seat: to_move }));
    }
    if super::rules::playing(s, &st).len() < 2 {
        return Err(fault(SetupFault::TooFewPlaying));
    }
    st.to_move = to_move;
    st.phase = phase;
    st.passes = passes.unwrap_or(0);
    match phase {
        Phase::Waxing => {
            for &seat in &s.seats {
                st.hand[seat.0 as usize] = s.tiles_each - st.tiles.count(seat) as u8;
            }
            // A resigned seat's tiles in hand are never placed.
            if s.seats
                .iter()
                .all(|&x| st.resigned.contains(x) || st.hand[x.0 as usize] == 0)
            {
                return Err(fault(SetupFault::NothingToPlace));
            }
        }
        Phase::Contract => {
            if !s.has_contract() || to_move != s.first() {
                return Err(fault(SetupFault::NoContract));
            }
        }
        Phase::Waning => {}
    }
    // As many passes as seats taking turns would have ended the game (dead-position).
    let rotation = super::rules::rotation(s, &st);
    if u32::from(st.passes) >= rotation {
        return Err(fault(SetupFault::Passes {
            found: st.passes.to_string(),
            max: rotation.saturating_sub(1) as u8,
        }));
    }
    Ok(st)
}
