//! What the record of a finished game declares: the `Result` tag, the `Termination` tag
//! and, in a two-seat game, the PGN termination marker. Every command that writes a
//! record (`move`, `play --record`, `selfplay`) completes it with these when the game is
//! over, so the record it leaves says who won and how.

use crate::games::{seat_name, End, Game, SeatSet, Status};
use crate::notation::record::Termination;

/// A finished game's declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The `Result` tag's value: the winning seats, `draw` or `none`.
    pub result: String,
    /// The `Termination` tag's value: `resignation`, `agreement`, or `normal` for a game
    /// a rule ended.
    pub termination: &'static str,
    /// The marker a two-seat game's movetext may end with; `None` with more seats, where
    /// only `*` exists and the `Result` tag says the rest.
    pub marker: Option<Termination>,
}

impl Finish {
    /// The header tags that declare it: `Result` and `Termination`.
    pub fn tags(&self) -> [(&'static str, &str); 2] {
        [
            ("Result", self.result.as_str()),
            ("Termination", self.termination),
        ]
    }

    /// The declarations of a game with this status; `None` while it is played.
    pub fn of<G: Game>(settings: &G::Settings, status: &Status) -> Option<Finish> {
        let Status::Over(end) = status else {
            return None;
        };
        Some(Finish::of_end::<G>(settings, end))
    }

    fn of_end<G: Game>(settings: &G::Settings, end: &End) -> Finish {
        let seats = G::seats(settings);
        let result = if end.draw {
            "draw".to_string()
        } else if end.winners.is_empty() {
            "none".to_string()
        } else {
            end.winners
                .iter()
                .map(seat_name::<G>)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let termination = match end.reason {
            "resignation" => "resignation",
            "agreement" => "agreement",
            _ => "normal",
        };
        let marker = match seats[..] {
            [_, _] if end.draw => Some(Termination::Draw),
            [first, _] if end.winners == SeatSet::only(first) => Some(Termination::FirstWins),
            [_, second] if end.winners == SeatSet::only(second) => Some(Termination::SecondWins),
            _ => None,
        };
        Finish {
            result,
            termination,
            marker,
        }
    }
}
