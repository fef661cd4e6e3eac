//! Halatafl (`spec/halatafl.md`): a checkers-like reconstruction on the 49-point
//! Ballinderry board, with huffing, thrones, kings and (optionally) emperors.
//!
//! - [`geometry`]: the board's lines for every `diagonals`/`men` setting, built at
//!   compile time.
//! - [`board`]: bitboards, the position [`State`] and its read accessors.
//! - `movegen`: legal turns, who can capture or move, and what may be huffed
//!   ([`State::huffable`], worked out from the step that may have failed to capture).
//! - `judge`: judging a written turn and applying it.
//! - `apply`: applying a listed turn without judging it again.
//! - `random`: choosing a random legal turn without listing them all.
//! - `win`: the win conditions.
//! - `rules`: the end checks.
//! - `setup`: the setup notation.
//! - [`violation`]: illegal turns, each citing one rule.
//! - `hints`: hints and notes for rulings.

mod apply;
pub mod board;
pub mod geometry;
mod hints;
mod judge;
mod movegen;
mod random;
mod rules;
mod settings;
mod setup;
pub mod violation;
mod win;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_random;

pub use board::{by_name, is_throne, thrones_of, Ending, Piece, Rank, Reason, State};
pub use settings::{
    Capture, ContinueJumps, Diagonals, Men, NoMoves, Numbering, Settings, Win, SCHEMA,
};
pub use violation::{Fault, SetupFault, Violation};

use crate::dice::Dice;
use crate::games::{End, Game, Seat, SeatSet, Standing, Status, Tags, TurnParse};
use crate::notation::halatafl::{Square, Turn};
use crate::notation::record::{Limits, Movetext, Sink, Span};
use crate::ruleset::{Ruleset, Schema};

/// The Halatafl rules module.
pub struct Halatafl;

static SEATS: [Seat; 2] = [Seat(0), Seat(1)];

impl Settings {
    /// Is there a line of the board between two adjacent points (for drawing the board)?
    pub fn joined(&self, a: Square, b: Square) -> bool {
        self.geo().joined(a, b)
    }

    /// Every line segment of the board (adjacent points joined by a line), each once.
    pub fn lines(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        let g = self.geo();
        (0..49usize).flat_map(move |p| {
            // N, E, NE, NW: each segment from its lower end.
            [0usize, 2, 4, 5]
                .into_iter()
                .filter_map(move |d| Some((geometry::sq(p), geometry::sq(g.step(p, d)?))))
        })
    }
}

impl Halatafl {
    /// The normal starting position with white to move (ignoring `first`).
    pub fn start_position() -> State {
        State {
            board: board::Board::start(),
            to_move: 0,
            failed: None,
            huffable: 0,
            quiet: 0,
            end: None,
            capturers: board::UNKNOWN,
            steps: board::StepCounts(0),
        }
    }
}

impl Game for Halatafl {
    const NAME: &'static str = "halatafl";
    const SEATS: &'static [&'static str] = &["white", "black"];

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
        crate::notation::halatafl::parse_turn(input)
    }

    fn parse_movetext_into(
        text: &str,
        span: Span,
        limits: &Limits,
        sink: Option<Sink<'_, Turn>>,
    ) -> Movetext<Turn> {
        crate::notation::halatafl::parse_movetext_into(text, span, limits, sink)
    }

    fn settings(ruleset: &Ruleset) -> Settings {
        Settings::from_ruleset(ruleset)
    }

    fn seats(_settings: &Settings) -> &[Seat] {
        &SEATS
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
        _dice: Option<&mut Dice>,
    ) -> Result<State, Violation> {
        let mut st = match setup {
            Some(st) => st,
            None => rules::position(
                settings,
                board::Board::start(),
                settings.first.0 & 1,
                0,
                0,
                None,
            ),
        };
        if st.end.is_none() {
            st.end = rules::end_at_start(settings, &st);
        }
        Ok(st)
    }

    fn status(_settings: &Settings, state: &State) -> Status {
        match state.end {
            None => Status::Playing {
                to_move: Seat(state.to_move),
            },
            Some(e) => Status::Over(End {
                winners: e.winner.map(SeatSet::only).unwrap_or(SeatSet::EMPTY),
                draw: e.winner.is_none(),
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
        movegen::legal_turns(settings, state, out);
    }

    fn random_turn(
        settings: &Settings,
        state: &State,
        _chance: Option<&crate::games::NoChance>,
        rng: &mut Dice,
        scratch: &mut Vec<Turn>,
    ) -> Option<Turn> {
        random::random_turn(settings, state, rng, scratch)
    }

    fn play(
        settings: &Settings,
        state: &mut State,
        _chance: Option<&crate::games::NoChance>,
        turn: &Turn,
    ) -> Result<(), Violation> {
        judge::play(settings, state, turn)
    }

    fn apply_legal(
        settings: &Settings,
        state: &mut State,
        _chance: Option<&crate::games::NoChance>,
        turn: &Turn,
    ) {
        apply::apply_legal(settings, state, turn);
    }

    fn resign(_settings: &Settings, state: &mut State) -> Result<(), Violation> {
        if state.end.is_none() {
            state.end = Some(Ending {
                winner: Some(Seat(1 - (state.to_move & 1))),
                reason: Reason::Resignation,
            });
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

    fn note(settings: &Settings, before: &State, after: &State, turn: &Turn) -> Option<String> {
        hints::note(settings, before, after, turn)
    }

    fn hint(settings: &Settings, state: &State, violation: &Violation) -> Option<String> {
        hints::hint(settings, state, violation)
    }

    fn standings(_settings: &Settings, state: &State) -> Vec<Standing> {
        SEATS
            .iter()
            .map(|&seat| Standing {
                seat,
                value: state.count(seat) as i64,
                unit: "pieces",
            })
            .collect()
    }
}
