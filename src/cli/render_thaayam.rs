//! Drawing Thaayam positions: a 5×5 text diagram readable without colour, JSON, and an
//! SVG picture ([`super::svg_thaayam`]).

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::Render;
use crate::games::thaayam::board::{is_safe, square, KEEP};
use crate::games::thaayam::{Settings, State, Thaayam, SEAT_NAMES};
use crate::games::Seat;
use crate::notation::thaayam::Square;

const INITIALS: [char; 4] = ['S', 'W', 'N', 'E'];

/// A square's contents: `+` for a marked square, then each seat's singles by initial
/// and twins in brackets (`+S(NN)`), `.` for an empty plain square.
fn cell(state: &State, sq: Square) -> String {
    let mut s = String::new();
    if is_safe(sq) {
        s.push('+');
    }
    for (i, (singles, twinned)) in state.at(sq).iter().enumerate() {
        for _ in 0..*singles {
            s.push(INITIALS[i]);
        }
        for _ in 0..twinned / 2 {
            s.push('(');
            s.push(INITIALS[i]);
            s.push(INITIALS[i]);
            s.push(')');
        }
    }
    if s.is_empty() {
        s.push('.');
    }
    s
}

impl Render for Thaayam {
    fn diagram(settings: &Settings, state: &State) -> String {
        let cells: Vec<String> = (0..25u8)
            .map(|i| cell(state, Square::from_index(i).expect("on the board")))
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1).max(4) + 1;
        let mut s = String::from("    ");
        for f in 0..5u8 {
            let _ = write!(s, "{:<width$}", (b'a' + f) as char);
        }
        s = s.trim_end().to_string();
        s.push('\n');
        for rank in (0..5u8).rev() {
            let _ = write!(s, " {}  ", rank + 1);
            for file in 0..5u8 {
                let sq = Square::new(file, rank).expect("on the board");
                let _ = write!(s, "{:<width$}", cells[sq.index()]);
            }
            let _ = writeln!(s, "{}", rank + 1);
        }
        s.push_str("+ marked square (palace or keep) · S W N E a single piece · (SS) twins\n");
        for &seat in settings.seats() {
            let name = SEAT_NAMES[seat.0 as usize];
            if state.is_playing(seat) {
                let _ = writeln!(
                    s,
                    "{name} ({}): in hand {}, borne off {}",
                    INITIALS[seat.0 as usize],
                    state.hand(seat),
                    state.off(seat)
                );
            } else {
                let _ = writeln!(s, "{name}: left the game");
            }
        }
        // Who is to move is the status line every caller prints after the diagram.
        s
    }

    fn position_json(settings: &Settings, state: &State) -> Json {
        let mut seats = serde_json::Map::new();
        for &seat in settings.seats() {
            let si = seat.0 as usize;
            let mut singles = Vec::new();
            let mut twins = Vec::new();
            for i in 0..4 {
                let p = state.pos[si][i];
                if p > KEEP {
                    continue;
                }
                let sq = square(Seat(seat.0), p).to_string();
                if state.twinned[si] & (1 << i) != 0 {
                    twins.push(sq);
                } else {
                    singles.push(sq);
                }
            }
            // Twinned pieces on a square come in pairs: one entry a pair.
            twins.sort();
            let twins: Vec<String> = twins.into_iter().step_by(2).collect();
            singles.sort();
            seats.insert(
                SEAT_NAMES[si].to_string(),
                json!({
                    "playing": state.is_playing(seat),
                    "singles": singles,
                    "twins": twins,
                    "hand": state.hand(seat),
                    "off": state.off(seat),
                }),
            );
        }
        json!({
            "to_move": state.end.is_none().then(|| SEAT_NAMES[state.to_move.0 as usize]),
            "seats": seats,
        })
    }

    fn svg(settings: &Settings, state: &State, before: Option<&State>) -> Option<String> {
        Some(super::svg_thaayam::svg(settings, state, before))
    }
}
