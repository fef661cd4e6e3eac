//! Halasi (`spec/halasi.md`): the domino and territory game of Elyse M. Grasso's Shayana
//! encyclopedia, as the spec reconstructs it.
//!
//! The rules core — geometry, tile sets, the layout, scoring, routes and the judgement
//! of a run — is in its own modules; [`state`], [`chance`], [`turn`] and [`legal`] make
//! the table game and solitaire of it, and [`breakdown`] explains a turn's score.

pub mod breakdown;
pub mod chance;
pub mod geometry;
pub mod hand;
pub mod hints;
pub mod layout;
pub mod legal;
pub mod markings;
pub mod policy;
pub mod routes;
pub mod run;
pub mod score;
pub mod settings;
pub mod state;
pub mod tiles;
pub mod turn;
pub mod violation;

pub use chance::Chance;
pub use settings::{Mode, Settings, SCHEMA};
pub use state::State;
pub use violation::Violation;

use std::borrow::Cow;

use crate::dice::Dice;
use crate::games::{End, Game, Seat, SeatSet, Standing, Status, Tags, TurnParse};
use crate::notation::halasi::{Action, Turn};
use crate::notation::record::{Limits, Movetext, Sink, Span};
use crate::ruleset::{Ruleset, Schema};

/// The Halasi rules module.
pub struct Halasi;

/// The random outcome `turn` writes, borrowed: a buy-in, or a roll's opening four and
/// draw (either may be left out).
fn written(turn: &Turn) -> Option<chance::Written<'_>> {
    match turn {
        Turn::Place {
            buy_in: Some(d), ..
        } => Some(chance::Written::BuyIn(d)),
        Turn::Play { opening, draw, .. } if opening.is_some() || draw.is_some() => {
            Some(chance::Written::Roll {
                opening: opening.as_ref(),
                draw: draw.as_ref(),
            })
        }
        _ => None,
    }
}

impl Game for Halasi {
    const NAME: &'static str = "halasi";
    const SEATS: &'static [&'static str] = &settings::SEAT_NAMES;

    type Settings = Settings;
    type State = State;
    type Turn = Turn;
    type Violation = Violation;
    type Chance = Chance;
    type Breakdown = breakdown::TurnScore;

    fn schema() -> &'static Schema {
        &SCHEMA
    }

    fn parse_turn(input: &str) -> TurnParse<Turn> {
        crate::notation::halasi::parse_turn(input)
    }

    fn parse_movetext_into(
        text: &str,
        span: Span,
        limits: &Limits,
        sink: Option<Sink<'_, Self::Turn>>,
    ) -> Movetext<Self::Turn> {
        crate::notation::halasi::parse_movetext_into(text, span, limits, sink)
    }

    fn settings(ruleset: &Ruleset) -> Settings {
        Settings::from_ruleset(ruleset)
    }

    fn seats(settings: &Settings) -> &[Seat] {
        &settings.seats
    }

    /// Solitaire's layout, laid after the home; the table game starts from its homes.
    fn parse_setup(settings: &Settings, text: &str) -> Result<State, Violation> {
        if settings.mode == Mode::Table {
            return Err(Violation::Setup {
                message: "the table game starts from its homes: a Halasi Setup lists \
                          solitaire's layout (`AT2 @1,0 r3, AM2 @0,1 r0`)"
                    .into(),
            });
        }
        let preset = crate::notation::halasi::parse_setup(text).map_err(|(at, message)| {
            Violation::Setup {
                message: format!("{message} (at character {})", at + 1),
            }
        })?;
        let mut st = State::new(settings, false);
        st.preset = Some(preset);
        Ok(st)
    }

    /// The territories of the layout; in solitaire those laid after the home at `@0,0`,
    /// so that the string is the `Setup` that replays the game without a seed.
    fn setup_string(settings: &Settings, state: &State) -> String {
        let skip = usize::from(settings.mode == Mode::Solitaire);
        state
            .layout
            .territories
            .iter()
            .skip(skip)
            .map(|t| format!("{} {} r{}", t.label, t.at, t.rotation))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn setup_note(settings: &Settings) -> Option<&'static str> {
        Some(match settings.mode {
            Mode::Table => {
                "a Halasi setup string lists the territories of the layout only, no dominos, \
                 hands, purses or phase; the table game has no Setup, so a record cannot start \
                 from it: replay the record to the turn instead (--turn N)"
            }
            Mode::Solitaire => {
                "a Halasi setup string lists solitaire's layout laid after the home, no \
                 dominos, hand or score: a record with it as its Setup starts before the \
                 home turn (`1. home M1`) and writes every draw"
            }
        })
    }

    fn start(
        settings: &Settings,
        setup: Option<State>,
        _tags: &dyn Tags,
        dice: Option<&mut Dice>,
    ) -> Result<State, Violation> {
        let seeded = dice.is_some();
        if settings.mode == Mode::Table && settings.seats.len() < 2 {
            return Err(Violation::TableSeats);
        }
        if let Some(named) = &settings.solitaire_seats {
            return Err(Violation::SolitaireSeats {
                named: named.clone(),
            });
        }
        if settings.mode == Mode::Solitaire && !seeded && setup.is_none() {
            return Err(Violation::Setup {
                message: "solitaire without a seed needs a Setup tag listing its layout \
                          (`[Setup \"AT2 @1,0 r3, AM2 @0,1 r0\"]`), or a Seed"
                    .into(),
            });
        }
        let mut st = setup.unwrap_or_else(|| State::new(settings, seeded));
        st.seeded = seeded;
        Ok(st)
    }

    fn has_chance(_settings: &Self::Settings) -> bool {
        true
    }

    fn status(_settings: &Settings, state: &State) -> Status {
        match state.end {
            Some(end) => Status::Over(end),
            None => Status::Playing {
                to_move: state.to_move,
            },
        }
    }

    fn draw_chance(settings: &Settings, state: &mut State, dice: &mut Dice) -> Option<Chance> {
        chance::draw(settings, state, dice)
    }

    fn written_chance(turn: &Turn) -> Option<Cow<'_, Chance>> {
        written(turn).map(|w| Cow::Owned(w.to_chance()))
    }

    fn with_outcome(turn: &Turn, chance: &Chance) -> Turn {
        let mut full = turn.clone();
        match (&mut full, chance) {
            (Turn::Place { buy_in, .. }, Chance::BuyIn(d)) => {
                buy_in.get_or_insert_with(|| d.clone());
            }
            (
                Turn::Play { opening, draw, .. },
                Chance::Roll {
                    opening: o,
                    draw: d,
                },
            ) => {
                if opening.is_none() {
                    *opening = o.clone();
                }
                if draw.is_none() {
                    *draw = d.clone();
                }
            }
            _ => {}
        }
        full
    }

    fn check_kind(settings: &Settings, state: &State, turn: &Turn) -> Result<(), Violation> {
        turn::check_kind(settings, state, turn)
    }

    fn check_chance(settings: &Settings, state: &State, chance: &Chance) -> Result<(), Violation> {
        chance::check_written(settings, state, chance)
    }

    fn written_agrees(derived: &Chance, turn: &Turn) -> bool {
        written(turn).is_none_or(|w| chance::agrees(derived, w))
    }

    fn outcome_to_write(
        settings: &Settings,
        state: &State,
    ) -> Option<(&'static str, Option<Chance>)> {
        chance::example(settings, state).map(|(what, outcome)| (what, Some(outcome)))
    }

    fn open_movers(settings: &Settings, state: &State) -> Option<SeatSet> {
        state.open(settings)
    }

    fn choose_mover(_settings: &Settings, state: &mut State, seat: Seat) {
        state.choose(seat);
    }

    fn legal_turns(
        settings: &Settings,
        state: &State,
        chance: Option<&Chance>,
        out: &mut Vec<Turn>,
    ) {
        legal::legal_turns(settings, state, chance, out);
    }

    fn playout_turn(
        settings: &Settings,
        state: &State,
        chance: Option<&Chance>,
        rng: &mut Dice,
        scratch: &mut Vec<Turn>,
    ) -> Option<Turn> {
        policy::playout_turn(settings, state, chance, rng, scratch)
    }

    /// The pools' orders dealt afresh; a game without a seed is played on as a seeded
    /// one, what its record has not yet written drawn as a seed draws it
    /// ([`policy::assume_unwritten`]).
    fn determinize(settings: &Settings, state: &mut State, seen: Option<&Chance>, rng: &mut Dice) {
        policy::determinize(state, rng);
        if !state.seeded && policy::ready(settings, state).is_ok() {
            policy::assume_unwritten(settings, state, seen, rng);
        }
    }

    fn learn_from_offered(settings: &Settings, state: &mut State, offered: &[Turn]) {
        policy::learn_from_offered(settings, state, offered);
    }

    fn engine_turns(
        settings: &Settings,
        state: &State,
        chance: Option<&Chance>,
        rng: &mut Dice,
        out: &mut Vec<Turn>,
    ) {
        policy::tree_turns(settings, state, chance, rng, out);
    }

    fn engine_ready(settings: &Settings, state: &State) -> Result<(), String> {
        policy::ready(settings, state)
    }

    fn decision(turn: &Turn) -> Turn {
        match turn {
            Turn::Play {
                action,
                routes,
                claim,
                ..
            } => Turn::Play {
                opening: None,
                draw: None,
                action: action.clone(),
                routes: routes.clone(),
                claim: *claim,
            },
            Turn::Place { territory, .. } => Turn::Place {
                buy_in: None,
                territory: *territory,
            },
            t => t.clone(),
        }
    }

    /// The tree's turns are a sample of the runs ([`policy::tree_turns`]).
    const ENGINE_SAMPLES: bool = true;

    const OUTCOME_NOUN: &'static str = "roll";

    /// By the roll: the dominos it buys (and solitaire's opening four) make nearly every
    /// outcome one of its own.
    fn outcome_group(chance: &Chance) -> String {
        match chance {
            Chance::Roll { draw: Some(d), .. } => format!("roll {}", d.roll),
            Chance::BuyIn(_) => "buy-in".to_string(),
            other => other.to_string(),
        }
    }

    /// A table game's playout is cut after 30 turns (a game runs to a hundred or more)
    /// and scored by the purses; solitaire's by how near the score is to the target.
    const PLAYOUT_CAP: usize = 30;

    fn cut_shares(settings: &Settings, state: &State, out: &mut [f64]) {
        match settings.mode {
            Mode::Table => {
                let best = state
                    .active(settings)
                    .map(|x| state.seat(x).purse)
                    .max()
                    .unwrap_or(0);
                let leaders: Vec<Seat> = state
                    .active(settings)
                    .filter(|&x| state.seat(x).purse == best)
                    .collect();
                for x in &leaders {
                    out[x.0 as usize] = 1.0 / leaders.len() as f64;
                }
            }
            Mode::Solitaire => {
                let gap = (state.score - state.target(settings)) as f64;
                out[settings.seats[0].0 as usize] = 1.0 / (1.0 + (-gap / 8.0).exp());
            }
        }
    }

    fn play(
        settings: &Settings,
        state: &mut State,
        chance: Option<&Chance>,
        turn: &Turn,
    ) -> Result<(), Violation> {
        turn::play_into(settings, state, chance, turn, true, &mut None)
    }

    fn breakdown(
        settings: &Settings,
        before: &State,
        chance: Option<&Chance>,
        turn: &Turn,
    ) -> Option<breakdown::TurnScore> {
        breakdown::breakdown(settings, before, chance, turn)
    }

    fn resign(settings: &Settings, state: &mut State) -> Result<(), Violation> {
        turn::resign(settings, state)
    }

    fn agree_draw(_settings: &Settings, state: &mut State) {
        if state.end.is_none() {
            state.end = Some(End {
                winners: SeatSet::EMPTY,
                draw: true,
                reason: "agreement",
                rule: None,
            });
        }
        state.turns += 1;
    }

    /// A run that completed routes it did not announce: they are not paid.
    fn note(_settings: &Settings, before: &State, after: &State, turn: &Turn) -> Option<String> {
        let Turn::Play {
            action: Action::Run(_),
            routes: announced,
            ..
        } = turn
        else {
            return None;
        };
        let label = |slot: usize| after.layout.territories[slot].label;
        let missed: Vec<String> =
            routes::completed_by_run(&after.layout, before.layout.dominos.len())
                .into_iter()
                .filter(|f| {
                    !announced.iter().any(|r| {
                        (r.0 == label(f.a) && r.1 == label(f.b))
                            || (r.0 == label(f.b) && r.1 == label(f.a))
                    })
                })
                .map(|f| format!("route {}~{} ({} dominos)", label(f.a), label(f.b), f.chain))
                .collect();
        (!missed.is_empty()).then(|| {
            format!(
                "completes {} without announcing it: not paid",
                missed.join(" and ")
            )
        })
    }

    fn hint(settings: &Settings, state: &State, violation: &Violation) -> Option<String> {
        hints::hint(settings, state, violation)
    }

    fn address_message(text: &str) -> String {
        format!(
            "`{text}` does not exist: a triangle is LABEL.N with N from 0 to 23, a position \
             lies within ±{lim}, a rotation is r0-r5",
            lim = crate::notation::halasi::Pos::LIMIT
        )
    }

    fn standings(settings: &Settings, state: &State) -> Vec<Standing> {
        settings
            .seats
            .iter()
            .map(|&seat| match settings.mode {
                Mode::Table => Standing {
                    seat,
                    value: state.seat(seat).purse,
                    unit: "money",
                },
                Mode::Solitaire => Standing {
                    seat,
                    value: state.score,
                    unit: "points",
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
