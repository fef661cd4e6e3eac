//! How the command line shows a game besides its pictures ([`super::pictures`]): the
//! position as JSON, a turn's score breakdown, what `moves` lists. Halasi's are in
//! `halasi/`; the other games' JSON positions are here.

use serde_json::Value as Json;

use super::pictures::Picture;

/// How the CLI shows a game's positions: its pictures, and the rest.
pub trait Render: Picture {
    /// The position as JSON (`:show`, `show --format json`).
    fn position_json(settings: &Self::Settings, state: &Self::State) -> Json;
    /// A turn's score breakdown as a table for people (`score`, `adjudicate`), each line
    /// indented and ended by a newline; empty for a game without scores. A turn that
    /// was refused (`counted` false) is shown as it would score, without the money,
    /// purses or running score after it: it moved none.
    fn breakdown_text(_breakdown: &Self::Breakdown, _counted: bool) -> String {
        String::new()
    }
    /// A turn's score against its claim in a few words, for a ruling's list of turns
    /// (`scores 17, as claimed`); `None` where there is nothing to say.
    fn score_line(_breakdown: &Self::Breakdown) -> Option<String> {
        None
    }
    /// What `moves` lists when it is not every legal turn (Halasi: runs of one domino).
    const MOVES_NOTE: Option<&'static str> = None;
}

mod halatafl {
    use serde_json::{json, Value as Json};

    use super::Render;
    use crate::games::halatafl::{by_name, Halatafl, Settings, State};
    use crate::games::seat_name;
    use crate::notation::halatafl::Square;

    impl Render for Halatafl {
        fn position_json(settings: &Settings, state: &State) -> Json {
            let mut points = serde_json::Map::new();
            for i in 0..49u8 {
                let sq = Square::from_index(i).expect("on the board");
                if let Some(p) = state.piece_at(sq) {
                    points.insert(
                        sq.to_string(),
                        json!({"seat": seat_name::<Halatafl>(p.seat), "rank": p.rank.name()}),
                    );
                }
            }
            json!({
                "to_move": seat_name::<Halatafl>(state.to_move()),
                "pieces": points,
                "huffable": by_name(state.huffable(settings)).map(|q| q.to_string()).collect::<Vec<_>>(),
                "quiet": state.quiet(),
            })
        }
    }
}

mod thaayam {
    use serde_json::{json, Value as Json};

    use super::Render;
    use crate::games::thaayam::board::{square, KEEP};
    use crate::games::thaayam::{Settings, State, Thaayam, SEAT_NAMES};
    use crate::games::Seat;

    impl Render for Thaayam {
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
    }
}

mod halves {
    use serde_json::{json, Value as Json};

    use super::Render;
    use crate::games::halves::{violation::colour_name, Halves, Settings, State};

    impl Render for Halves {
        fn position_json(settings: &Settings, state: &State) -> Json {
            let mut tiles = serde_json::Map::new();
            let mut hand = serde_json::Map::new();
            for &seat in &settings.seats {
                let cells: Vec<String> = state
                    .tiles
                    .iter()
                    .filter(|(_, c)| *c == seat)
                    .map(|(cell, _)| cell.to_string())
                    .collect();
                tiles.insert(colour_name(seat).into(), json!(cells));
                hand.insert(
                    colour_name(seat).into(),
                    json!(state.hand[seat.0 as usize % 3]),
                );
            }
            json!({
                "to_move": colour_name(state.to_move),
                "phase": state.phase.word(),
                "swapped": state.swapped,
                "tiles": tiles,
                "hand": hand,
            })
        }
    }
}
