//! How the command line shows Halasi: the position (the seats, purses, hands, the bank,
//! the pools, then the layout), the layout as a picture ([`layout`]), and a turn's score
//! breakdown as a table ([`score`]).

mod layout;
mod score;

use std::fmt::Write;

use serde_json::{json, Value as Json};

use super::Render;
use crate::games::halasi::state::Phase;
use crate::games::halasi::violation::seat_name;
use crate::games::halasi::{Halasi, Mode, Settings, State};
use layout::{layout_svg, layout_text};

fn phase(state: &State) -> &'static str {
    match state.phase {
        Phase::Homes => "homes",
        Phase::Setup { round: 0 } => "setup, first round",
        Phase::Setup { .. } => "setup, second round",
        Phase::Play => "play",
    }
}

impl Render for Halasi {
    fn diagram(settings: &Settings, state: &State) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Halasi ({}), {}; {} to move",
            if settings.mode == Mode::Table {
                "table"
            } else {
                "solitaire"
            },
            phase(state),
            seat_name(state.to_move)
        );
        for &x in &settings.seats {
            let seat = state.seat(x);
            let hand: Vec<String> = seat.hand.iter().map(|d| d.to_string()).collect();
            let home = seat
                .home
                .map(|h| h.label(settings).to_string())
                .unwrap_or_else(|| "-".into());
            match settings.mode {
                Mode::Table => {
                    let _ = writeln!(
                        s,
                        "  {}: purse {:>5}  home {home}{}  hand [{}]",
                        seat_name(x),
                        seat.purse,
                        if seat.left { "  (left)" } else { "" },
                        hand.join(" ")
                    );
                }
                Mode::Solitaire => {
                    let _ = writeln!(
                        s,
                        "  {}: score {} of target {}  home {home}  hand [{}]",
                        seat_name(x),
                        state.score,
                        state.target(settings),
                        hand.join(" ")
                    );
                }
            }
        }
        if settings.mode == Mode::Table {
            let _ = writeln!(s, "  bank {}", state.bank);
        }
        let _ = writeln!(
            s,
            "  pools: {} territories, {} dominos",
            state.tiles.len(),
            state.dominos.len()
        );
        s.push('\n');
        s.push_str(&layout_text(&state.layout));
        s
    }

    fn breakdown_text(b: &crate::games::halasi::breakdown::TurnScore, counted: bool) -> String {
        score::text(b, counted)
    }

    fn score_line(b: &crate::games::halasi::breakdown::TurnScore) -> Option<String> {
        score::summary(b)
    }

    const MOVES_NOTE: Option<&'static str> = Some(
        "only runs of one domino are listed (a run may hold more); each line is a whole legal turn",
    );

    fn svg(settings: &Settings, state: &State) -> Option<String> {
        let title = match state.end {
            Some(_) => "Halasi, the game is over".to_string(),
            None => format!(
                "Halasi ({}), {} to move{}",
                phase(state),
                seat_name(state.to_move),
                if settings.mode == Mode::Solitaire {
                    format!(", score {} of {}", state.score, state.target(settings))
                } else {
                    String::new()
                }
            ),
        };
        Some(layout_svg(&state.layout, &title))
    }

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
