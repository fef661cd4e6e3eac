//! Halves (`spec/halves.md`): Cameron Browne's boardless hex reduction game, with every
//! option of Richard's PBeM Server.
//!
//! - [`board`]: the tiles as a sorted fixed-size array, groups as bit masks, [`State`].
//! - `layout`: the random layout from the seed, and the normal start.
//! - `rules`: the manual start and settling a start, legal turns,
//!   judging and applying a turn, turn order and the end checks.
//! - `setup`: the setup notation.
//! - [`violation`]: illegal turns, each citing one rule.
//! - `hints`: hints and notes for rulings.

pub mod board;
mod hints;
mod layout;
mod rules;
mod settings;
mod setup;
pub mod violation;

#[cfg(test)]
mod tests;

pub use board::{Ending, Phase, Reason, State, Tiles};
pub use settings::{Keep, Seats, Settings, Start, Touch, Win, SCHEMA, SEAT_NAMES};
pub use setup::parse_cell;
pub use violation::{ContractFault, Mover, SetupFault, Violation};

use crate::dice::Dice;
use crate::games::{End, Game, Seat, Standing, Status, Tags, TurnParse};
use crate::notation::halves::Turn;
use crate::notation::record::{Limits, Movetext, Sink, Span};
use crate::ruleset::{Ruleset, Schema};

/// The Halves rules module.
pub struct Halves;

impl Game for Halves {
    const NAME: &'static str = "halves";
    const SEATS: &'static [&'static str] = &SEAT_NAMES;

    type Settings = Settings;
    type State = State;
    type Turn = Turn;
    type Violation = Violation;
    type Chance = crate::games::NoChance;
    type Breakdown = crate::games::NoBreakdown;

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn parse_turn(input: &str) -> TurnParse<Turn> {
        crate::notation::halves::parse_turn(input)
    }

    fn parse_movetext_into(
        text: &str,
        span: Span,
        limits: &Limits,
        sink: Option<Sink<'_, Self::Turn>>,
    ) -> Movetext<Self::Turn> {
        crate::notation::halves::parse_movetext_into(text, span, limits, sink)
    }

    fn settings(ruleset: &Ruleset) -> Settings {
        Settings::from_ruleset(ruleset)
    }

    fn seats(settings: &Settings) -> &[Seat] {
        &settings.seats
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
        _tags: &dyn Tags,
        dice: Option<&mut Dice>,
    ) -> Result<State, Violation> {
        match setup {
            Some(mut st) => {
                rules::settle_start(settings, &mut st);
                Ok(st)
            }
            None => layout::start(settings, dice),
        }
    }

    fn has_chance(settings: &Self::Settings) -> bool {
        matches!(settings.start, settings::Start::Random)
    }

    fn status(_settings: &Settings, state: &State) -> Status {
        match state.end {
            None => Status::Playing {
                to_move: state.to_move,
            },
            Some(e) => Status::Over(End {
                winners: e.winners,
                draw: e.winners.is_empty(),
                reason: e.reason.word(),
                rule: e.reason.rule(),
            }),
        }
    }

    fn legal_turns(
        settings: &Settings,
        state: &State,
        _chance: Option<&crate::games::NoChance>,
        out: &mut Vec<Turn>,
    ) {
        rules::legal_turns(settings, state, out);
    }

    fn play(
        settings: &Settings,
        state: &mut State,
        _chance: Option<&crate::games::NoChance>,
        turn: &Turn,
    ) -> Result<(), Violation> {
        rules::play(settings, state, turn)
    }

    fn apply_legal(
        settings: &Settings,
        state: &mut State,
        _chance: Option<&crate::games::NoChance>,
        turn: &Turn,
    ) {
        rules::apply_legal(settings, state, turn);
    }

    fn resign(settings: &Settings, state: &mut State) -> Result<(), Violation> {
        rules::resign(settings, state);
        Ok(())
    }

    fn agree_draw(_settings: &Settings, state: &mut State) {
        if state.end.is_none() {
            state.end = Some(Ending {
                winners: crate::games::SeatSet::EMPTY,
                reason: Reason::Agreement,
            });
        }
    }

    fn note(settings: &Settings, before: &State, after: &State, turn: &Turn) -> Option<String> {
        hints::note(settings, before, after, turn)
    }

    fn hint(settings: &Settings, state: &State, violation: &Violation) -> Option<String> {
        hints::hint(settings, state, violation)
    }

    fn address_message(text: &str) -> String {
        format!(
            "`{text}` is not a cell that exists: coordinates run from -{lim} to {lim}",
            lim = crate::notation::halves::Cell::LIMIT
        )
    }

    fn standings(settings: &Settings, state: &State) -> Vec<Standing> {
        settings
            .seats
            .iter()
            .map(|&seat| Standing {
                seat,
                value: i64::from(state.left(seat)),
                unit: "tiles",
            })
            .collect()
    }
}
