//! How the command line shows Halasi besides its pictures: the position as JSON, and a
//! turn's score breakdown as a table ([`score`]).

mod score;

use serde_json::{json, Value as Json};

use super::pictures::halasi_phase as phase;
use super::Render;
use crate::games::halasi::violation::seat_name;
use crate::games::halasi::{Halasi, Settings, State};

impl Render for Halasi {
    fn breakdown_text(b: &crate::games::halasi::breakdown::TurnScore, counted: bool) -> String {
        score::text(b, counted)
    }

    fn score_line(b: &crate::games::halasi::breakdown::TurnScore) -> Option<String> {
        score::summary(b)
    }

    const MOVES_NOTE: Option<&'static str> = Some(
        "only runs of one domino are listed (a run may hold more); each line is a whole legal turn",
    );

    fn position_json(settings: &Settings, state: &State) -> Json {
        let seats: Vec<Json> = settings
            .seats
            .iter()
            .map(|&x| {
                let seat = state.seat(x);
                json!({
                    "seat": seat_name(x),
                    "purse": seat.purse,
                    "home": seat.home.map(|h| h.label(settings).to_string()),
                    "hand": seat.hand.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
                    "left": seat.left,
                })
            })
            .collect();
        json!({
            "phase": phase(state),
            "to_move": seat_name(state.to_move),
            "seats": seats,
            "bank": state.bank,
            "score": state.score,
            "target": state.target(settings),
            "pools": {"territories": state.tiles.len(), "dominos": state.dominos.len()},
            "territories": state.layout.territories.iter().map(|t| json!({
                "label": t.label.to_string(), "q": t.at.q, "r": t.at.r,
                "rotation": t.rotation, "market": t.market,
            })).collect::<Vec<_>>(),
            "dominos": state.layout.dominos.iter().map(|d| json!({
                "domino": format!("{}{}", d.marks[0], d.marks[1]),
                "at": [state.layout.address(d.halves[0]).to_string(), state.layout.address(d.halves[1]).to_string()],
                "seat": seat_name(d.seat),
                "turn": d.turn,
            })).collect::<Vec<_>>(),
        })
    }
}
