//! Drawing Halasi positions: the text (the seats, purses, hands, the bank, the pools,
//! then the layout) and the picture of the layout with a panel on the state of the game
//! ([`layout`]).

mod layout;

use std::fmt::Write;

use super::Picture;
use crate::games::halasi::state::Phase;
use crate::games::halasi::violation::seat_name;
use crate::games::halasi::{Halasi, Mode, Settings, State};
use layout::{layout_svg, layout_text, Panel};

/// The phase in words, as the text, the picture's title and the JSON position say it.
pub(crate) fn phase(state: &State) -> &'static str {
    match state.phase {
        Phase::Homes => "homes",
        Phase::Setup { round: 0 } => "setup, first round",
        Phase::Setup { .. } => "setup, second round",
        Phase::Play => "play",
    }
}

/// A finished game's status with its reason in words: `a wins (bank-broken)` →
/// `a wins: the bank could not pay a score in full`.
fn why_over(described: &str) -> String {
    const REASONS: [(&str, &str); 6] = [
        (
            "(bank-broken)",
            ": the bank could not pay a score in full, or was left empty",
        ),
        ("(one-seat-left)", ": the only seat left, it took the bank"),
        ("(target)", ": the score reached the target"),
        ("(no-placement)", ": no domino could be placed"),
        ("(resignation)", ": by resignation"),
        ("(agreement)", ": by agreement"),
    ];
    for (code, words) in REASONS {
        if let Some(head) = described.strip_suffix(code) {
            return format!("{}{words}", head.trim_end());
        }
    }
    described.to_string()
}

/// The lines beside a picture's layout: the money (table) or the score (solitaire),
/// the hands and pools, and which turn's dominos are marked as the last.
fn panel(settings: &Settings, state: &State) -> Panel {
    let mut lines = Vec::new();
    match settings.mode {
        Mode::Table => {
            let seats: Vec<String> = settings
                .seats
                .iter()
                .map(|&x| {
                    let seat = state.seat(x);
                    let marker = if state.end.is_none() && x == state.to_move {
                        "▶ "
                    } else {
                        ""
                    };
                    format!(
                        "{marker}{} {} (hand {}{})",
                        seat_name(x),
                        seat.purse,
                        seat.hand.len(),
                        if seat.left { ", left" } else { "" }
                    )
                })
                .collect();
            for (i, chunk) in seats.chunks(3).enumerate() {
                let head = if i == 0 { "purses: " } else { "        " };
                lines.push(format!("{head}{}", chunk.join(" · ")));
            }
            lines.push(format!(
                "bank {} · pools: {} territories, {} dominos",
                state.bank,
                state.tiles.len(),
                state.dominos.len()
            ));
        }
        Mode::Solitaire => {
            lines.push(format!(
                "score {} of target {} · hand {} · pools: {} territories, {} dominos",
                state.score,
                state.target(settings),
                state.seats[0].hand.len(),
                state.tiles.len(),
                state.dominos.len()
            ));
        }
    }
    let last_turn = state
        .layout
        .dominos
        .last()
        .map(|d| d.turn)
        .filter(|&t| t == state.turns);
    if let Some(t) = last_turn {
        let n = state.layout.dominos.iter().filter(|d| d.turn == t).count();
        lines.push(format!(
            "turn {t}, the last, placed the {} on a gold halo",
            if n == 1 {
                "domino".to_string()
            } else {
                format!("{n} dominos")
            }
        ));
    }
    Panel { lines, last_turn }
}

impl Picture for Halasi {
    fn diagram(settings: &Settings, state: &State) -> String {
        let mut s = String::new();
        let status = crate::referee::StatusReport::of_position::<Halasi>(settings, state);
        let _ = writeln!(
            s,
            "Halasi ({}), {}",
            if settings.mode == Mode::Table {
                "table"
            } else {
                "solitaire"
            },
            match state.end {
                Some(_) => format!("over: {}", why_over(&status.describe())),
                None => format!("{}; {}", phase(state), status.describe()),
            }
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

    /// The last turn's dominos are known from the layout (each carries its turn).
    fn svg(settings: &Settings, state: &State, _before: Option<&State>) -> Option<String> {
        let status = crate::referee::StatusReport::of_position::<Halasi>(settings, state);
        let title = match state.end {
            Some(_) => format!("Halasi: {}", why_over(&status.describe())),
            None => format!("Halasi ({}), {}", phase(state), status.describe()),
        };
        Some(layout_svg(&state.layout, &title, &panel(settings, state)))
    }
}
