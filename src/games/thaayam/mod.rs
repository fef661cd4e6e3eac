//! Thaayam (`spec/thaayam.md`): the race game of the A4 Games leaflet for two to four
//! seats on a 5×5 board, with cowrie throws, series, twins and the keep.
//!
//! - [`board`]: the routes and the position [`State`] (`Copy`).
//! - [`settings`]: the schema and typed settings.
//! - [`series`]: series of throws, thrown, checked, split into usable and discarded.
//! - [`own`]: one seat's pieces during a turn, as the searches see them.
//! - [`search`]: the steps pieces can take and the memoised use-all search.
//! - [`rules`]: judging and applying a turn.
//! - [`legal`]: listing the legal turns (the pruned walk for long series in `legal/pruned.rs`).
//! - `short`: the legal turns of a turn with at most one throw, listed without a walk.
//! - `setup`: the setup notation.
//! - `table`: the hash table of the searches, kept by the thread between turns.
//! - `uncombined`: the full walk of the legal turns when throws are never combined.
//! - `walk`: what the walks that list legal turns share.
//! - [`violation`]: illegal turns, each citing one rule.

pub mod board;
pub mod legal;
mod most;
pub mod own;
pub mod rules;
pub mod search;
pub mod series;
pub mod settings;
mod setup;
mod short;
mod table;
mod uncombined;
pub mod violation;
mod walk;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_legal;
#[cfg(test)]
mod tests_most;

pub use board::{Ending, Reason, State};
pub use settings::{Dice as Throws, First, Settings, SCHEMA, SEAT_NAMES};
pub use violation::{Fault, Violation};

use std::borrow::Cow;

use crate::dice::Dice;
use crate::games::{End, Game, Seat, SeatSet, Standing, Status, Tags, TurnParse};
use crate::notation::record::{Limits, Movetext, Sink, Span};
pub use crate::notation::thaayam::{Action, Series, Turn};
use crate::ruleset::{Ruleset, Schema};

/// The Thaayam rules module.
pub struct Thaayam;

/// The throws of the start, in order: a few a game, kept inline.
pub type StartingThrows = smallvec::SmallVec<[(Seat, u8); 8]>;

/// Rule 3: every playing seat throws once in turn order; the seats tied for highest
/// throw again, in the same order, until one is highest. Returns the starter and the
/// throws made, in order.
pub fn starting_throws(s: &Settings, dice: &mut Dice) -> (Seat, StartingThrows) {
    let mut throws = StartingThrows::new();
    let seats = s.seats();
    let mut tied = [Seat(0); 4];
    let mut n = seats.len().min(tied.len());
    tied[..n].copy_from_slice(&seats[..n]);
    loop {
        let round = throws.len();
        for &seat in &tied[..n] {
            throws.push((seat, s.dice.throw(dice)));
        }
        let high = throws[round..].iter().map(|t| t.1).max().unwrap_or(0);
        let mut kept = 0;
        for k in 0..n {
            if throws[round + k].1 == high {
                tied[kept] = tied[k];
                kept += 1;
            }
        }
        n = kept;
        if n <= 1 {
            return (tied[0], throws);
        }
    }
}

fn name(seat: Seat) -> &'static str {
    SEAT_NAMES[seat.0 as usize & 3]
}

impl Game for Thaayam {
    const NAME: &'static str = "thaayam";
    const SEATS: &'static [&'static str] = &SEAT_NAMES;
    const TAGS: &'static [&'static str] = &["First"];

    type Settings = Settings;
    type State = State;
    type Turn = Turn;
    type Violation = Violation;
    type Chance = Series;
    type Breakdown = crate::games::NoBreakdown;

    const OUTCOME_NOUN: &'static str = "throw";

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn parse_turn(input: &str) -> TurnParse<Turn> {
        crate::notation::thaayam::parse_turn(input)
    }

    fn parse_movetext_into(
        text: &str,
        span: Span,
        limits: &Limits,
        sink: Option<Sink<'_, Self::Turn>>,
    ) -> Movetext<Self::Turn> {
        crate::notation::thaayam::parse_movetext_into(text, span, limits, sink)
    }

    fn settings(ruleset: &Ruleset) -> Settings {
        Settings::from_ruleset(ruleset)
    }

    fn seats(settings: &Settings) -> &[Seat] {
        settings.seats()
    }

    fn parse_setup(settings: &Settings, text: &str) -> Result<State, Violation> {
        setup::parse(settings, text)
    }

    fn setup_string(settings: &Settings, state: &State) -> String {
        setup::write(settings, state)
    }

    fn start(
        settings: &Settings,
        setup: Option<State>,
        tags: &dyn Tags,
        dice: Option<&mut Dice>,
    ) -> Result<State, Violation> {
        if let Some(st) = setup {
            return Ok(st);
        }
        let derived = match (settings.first, dice) {
            (First::HighestThrow, Some(d)) => Some(starting_throws(settings, d)),
            _ => None,
        };
        let tag = tags.tag("First").map(str::trim);
        let playing = |w: &str| settings.seats().iter().copied().find(|&x| name(x) == w);
        let first = match (derived, tag) {
            (Some((d, throws)), Some(t)) if t != name(d) => {
                let list: Vec<String> = throws
                    .iter()
                    .map(|(x, v)| format!("{} {v}", name(*x)))
                    .collect();
                return Err(Violation::new(Fault::First {
                    written: t.to_string(),
                    derived: Some(format!("{} (throws: {})", name(d), list.join(", "))),
                }));
            }
            (Some((d, _)), _) => d,
            (None, Some(t)) => playing(t).ok_or_else(|| {
                Violation::new(Fault::First {
                    written: t.to_string(),
                    derived: None,
                })
            })?,
            (None, None) => match settings.first {
                First::Seat(x) if settings.mask() & (1 << x.0) != 0 => x,
                First::Seat(x) => State::start(settings.mask(), x).next_after(x),
                First::HighestThrow => settings.seats()[0],
            },
        };
        Ok(State::start(settings.mask(), first))
    }

    fn has_chance(_settings: &Self::Settings) -> bool {
        true
    }

    fn status(_settings: &Settings, state: &State) -> Status {
        match state.end {
            None => Status::Playing {
                to_move: state.to_move,
            },
            Some(e) => Status::Over(End {
                winners: e.winner.map(SeatSet::only).unwrap_or(SeatSet::EMPTY),
                draw: e.reason == Reason::Agreement,
                reason: match e.reason {
                    Reason::Win => "bore-off-all",
                    Reason::Resignation => "resignation",
                    Reason::Agreement => "agreement",
                },
                rule: match e.reason {
                    Reason::Win => Some("win"),
                    _ => None,
                },
            }),
        }
    }

    fn draw_chance(settings: &Settings, _state: &mut State, dice: &mut Dice) -> Option<Series> {
        Some(series::throw_series(settings, dice))
    }

    fn address_message(text: &str) -> String {
        format!("`{text}` is not a square of the board: the squares are a1 to e5")
    }

    fn outcome_to_write(
        settings: &Settings,
        _state: &State,
    ) -> Option<(&'static str, Option<Series>)> {
        Some((
            "throws first: write the throws in brackets",
            series::example(settings),
        ))
    }

    fn written_chance(turn: &Turn) -> Option<Cow<'_, Series>> {
        turn.series.as_ref().map(Cow::Borrowed)
    }

    fn with_outcome(turn: &Turn, chance: &Series) -> Turn {
        let mut full = turn.clone();
        full.series.get_or_insert_with(|| chance.clone());
        full
    }

    /// A series the dice cannot make is no series in force: its violation carries none,
    /// so no hint lists turns with it (they would be as illegal as the one written, and
    /// with values no die shows the listing took 0.17 s: finding 9).
    fn check_chance(settings: &Settings, _state: &State, chance: &Series) -> Result<(), Violation> {
        series::check_series(settings, chance).map_err(Violation::new)
    }

    fn legal_turns(
        settings: &Settings,
        state: &State,
        chance: Option<&Series>,
        out: &mut Vec<Turn>,
    ) {
        legal::legal_turns(settings, state, chance, out);
    }

    /// Walks the turns as [`Game::legal_turns`] does but writes out only the one chosen.
    fn random_turn(
        settings: &Settings,
        state: &State,
        chance: Option<&Series>,
        rng: &mut Dice,
        _scratch: &mut Vec<Turn>,
    ) -> Option<Turn> {
        legal::random_turn(settings, state, chance, rng)
    }

    fn play(
        settings: &Settings,
        state: &mut State,
        chance: Option<&Series>,
        turn: &Turn,
    ) -> Result<(), Violation> {
        rules::play(settings, state, chance, turn)
    }

    /// Applies a listed turn as [`Game::play`] does, without judging its use of the
    /// throws again.
    fn apply_legal(settings: &Settings, state: &mut State, chance: Option<&Series>, turn: &Turn) {
        rules::apply_listed(settings, state, chance, turn);
    }

    fn resign(_settings: &Settings, state: &mut State) -> Result<(), Violation> {
        if state.end.is_some() {
            return Ok(());
        }
        let seat = state.to_move;
        let si = seat.0 as usize;
        state.playing &= !(1 << seat.0);
        state.pos[si] = [board::HAND; 4];
        state.twinned[si] = 0;
        if state.playing.count_ones() <= 1 {
            let winner = state.playing_seats().next();
            state.end = Some(Ending {
                winner,
                reason: Reason::Resignation,
            });
        } else {
            state.to_move = state.next_after(seat);
        }
        Ok(())
    }

    fn agree_draw(_settings: &Settings, state: &mut State) {
        if state.end.is_none() {
            state.end = Some(Ending {
                winner: None,
                reason: Reason::Agreement,
            });
        }
    }

    fn label_violation(
        settings: &Settings,
        state: &State,
        last: Option<Seat>,
        written: Seat,
    ) -> Option<Violation> {
        // The same seat moves twice in a row only after its capture (`extra-turn`);
        // without the bonus, turns simply pass on.
        let last = last.filter(|_| settings.capture_bonus)?;
        let fault = if state.to_move == last && written != last {
            Fault::ExtraTurn {
                captured: last,
                written,
            }
        } else if written == last && state.to_move != last {
            Fault::NoExtraTurn {
                last,
                to_move: state.to_move,
            }
        } else {
            return None;
        };
        Some(Violation::new(fault))
    }

    fn note(_settings: &Settings, before: &State, after: &State, _turn: &Turn) -> Option<String> {
        if after.end.is_none() && after.to_move == before.to_move {
            Some(format!(
                "{} captured and plays another turn (extra-turn)",
                name(before.to_move)
            ))
        } else {
            None
        }
    }

    fn hint(settings: &Settings, state: &State, violation: &Violation) -> Option<String> {
        if matches!(violation.fault, violation::Fault::NoSeries) {
            // A whole turn this seat could play with a series the settings allow.
            let example = series::example(settings)?;
            let mut turns = Vec::new();
            legal::legal_turns(settings, state, Some(&example), &mut turns);
            return turns.first().map(|t| format!("for example `{t}`"));
        }
        if violation.series.is_empty() {
            return None;
        }
        let mut turns = Vec::new();
        legal::legal_turns(settings, state, Some(&violation.series), &mut turns);
        let shown: Vec<String> = turns.iter().take(3).map(|t| format!("`{t}`")).collect();
        match shown.len() {
            0 => None,
            _ if turns.len() > 3 => Some(format!(
                "legal turns include {} ({} in all)",
                shown.join(", "),
                turns.len()
            )),
            1 => Some(format!("the legal turn is {}", shown[0])),
            _ => Some(format!("the legal turns are {}", shown.join(", "))),
        }
    }

    fn standings(settings: &Settings, state: &State) -> Vec<Standing> {
        settings
            .seats()
            .iter()
            .map(|&seat| Standing {
                seat,
                value: state.off(seat) as i64,
                unit: "borne off",
            })
            .collect()
    }
}
