//! One game in progress: the ruleset, the position, the dice and the turn count, and
//! the checks every game shares (turn order, numbering, seat labels, game over, dice).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::dice::Dice;
use crate::games::{seat_name, End, Game, Seat, SeatSet, Status, Violation};
use crate::notation::record::{Action, TurnNumber};
use crate::notation::Tags;
use crate::quote::quote;
use crate::ruleset::Ruleset;

use super::ErrorKind;

/// How turns are numbered (`numbering`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Numbering {
    /// As in PGN: `12.` before the first seat's turn, `12...` before another seat's turn.
    Rounds,
    /// Every turn has its own number.
    Turns,
}

impl Numbering {
    /// The `numbering` setting of a ruleset (`turns` where it has none).
    pub fn of(ruleset: &Ruleset) -> Numbering {
        match ruleset.value("numbering").and_then(|v| v.as_word()) {
            Some("rounds") => Numbering::Rounds,
            _ => Numbering::Turns,
        }
    }
}

/// Why a turn was refused.
#[derive(Debug)]
pub enum Refusal<G: Game> {
    /// The game is over; nothing more may be played.
    GameOver(End),
    /// A turn number that does not fit.
    Number {
        written: TurnNumber,
        expected: TurnNumber,
    },
    /// A seat label that names another seat than the one to move.
    Label {
        written: String,
        expected: &'static str,
    },
    /// A seat label refused by a rule of the game's own about who moves (Thaayam's
    /// `extra-turn`), not by plain turn order.
    LabelRule(G::Violation),
    /// A turn of a round whose order is open (no seed) without a label naming one of
    /// the seats that may move, or with one naming another seat.
    Open {
        written: Option<String>,
        open: Vec<&'static str>,
    },
    /// A square, cell or triangle that does not exist.
    Address { text: String },
    /// A written random outcome that differs from the seed's.
    Dice { written: String, derived: String },
    /// The game's own rules.
    Rule(G::Violation),
}

/// A refusal as the session hands it out: boxed, so that the result of a turn played is
/// one word (a refusal holds the game's violation, 40 to 72 bytes, which every legal
/// turn's result would otherwise carry through each layer).
pub type Refused<G> = Box<Refusal<G>>;

impl<G: Game> Refusal<G> {
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Refusal::GameOver(_) => Some("game-over"),
            Refusal::Number { .. } | Refusal::Label { .. } | Refusal::Open { .. } => {
                Some("turn-order")
            }
            Refusal::Address { .. } => Some("address"),
            Refusal::Dice { .. } => None,
            Refusal::Rule(v) | Refusal::LabelRule(v) => Some(v.rule()),
        }
    }
    pub fn kind(&self) -> ErrorKind {
        match self {
            Refusal::Dice { .. } => ErrorKind::Dice,
            _ => ErrorKind::Rule,
        }
    }
}

impl<G: Game> fmt::Display for Refusal<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver(end) => write!(
                f,
                "the game is already over ({}): no turn may follow",
                super::StatusReport::of::<G>(&Status::Over(*end)).describe()
            ),
            Refusal::Number { written, expected } => write!(
                f,
                "the turn is numbered `{written}` but it is turn `{expected}` (a move written against a stale position?)"
            ),
            Refusal::Label { written, expected } => {
                let written = quote(written);
                write!(f, "the turn is labelled `{written}:` but it is {expected}'s turn")
            }
            Refusal::Open { written, open } => {
                let seats = super::or_list(open);
                match written {
                    Some(w) => write!(
                        f,
                        "the turn is labelled `{}:` but the seat to move is {seats}, who have not moved this round",
                        quote(w)
                    ),
                    None => write!(
                        f,
                        "without a seed the order of this round is not rolled: the turn needs a seat label, {seats}"
                    ),
                }
            }
            Refusal::Address { text } => {
                f.write_str(&G::address_message(&quote(text).to_string()))
            }
            Refusal::Dice { written, derived } => {
                write!(f, "{} written, the seed gives {derived}", quote(written))
            }
            Refusal::Rule(v) | Refusal::LabelRule(v) => write!(f, "{v}"),
        }
    }
}

/// One game in progress.
#[derive(Debug)]
pub struct Session<G: Game> {
    /// Shared: every record of a corpus played under one ruleset holds the same one.
    pub ruleset: Arc<Ruleset>,
    pub settings: G::Settings,
    pub state: G::State,
    /// The seed's stream, when the game has a seed.
    pub dice: Option<Dice>,
    /// The random outcome that opens the turn now due, drawn from the seed.
    pub chance: Option<G::Chance>,
    /// Turns played so far (resignations and draws included).
    pub turns: usize,
    /// The current round (`rounds` numbering).
    pub round: u32,
    pub numbering: Numbering,
    /// The seat the last turn's label chose where the order is open ([`Game::open_movers`]),
    /// for the next [`Session::play`].
    chosen: Option<Seat>,
    /// The seat that played the last turn: a game may rule on a label by it
    /// ([`Game::label_violation`]).
    last_mover: Option<Seat>,
}

impl<G: Game> Clone for Session<G> {
    fn clone(&self) -> Self {
        Session {
            ruleset: self.ruleset.clone(),
            settings: self.settings.clone(),
            state: self.state.clone(),
            dice: self.dice.clone(),
            chance: self.chance.clone(),
            turns: self.turns,
            round: self.round,
            numbering: self.numbering,
            chosen: self.chosen,
            last_mover: self.last_mover,
        }
    }
}

impl<G: Game> Session<G> {
    /// Starts a game: the setup position if given (already parsed), else the normal
    /// start; a seed makes the dice.
    pub fn start(
        ruleset: Arc<Ruleset>,
        setup: Option<G::State>,
        tags: &dyn Tags,
        seed: Option<&str>,
    ) -> Result<Session<G>, G::Violation> {
        let settings = G::settings(&ruleset);
        let numbering = Numbering::of(&ruleset);
        let dice = seed.map(Dice::from_seed);
        Session::start_with(ruleset, numbering, settings, setup, tags, dice)
    }

    /// [`Session::start`] with the ruleset's numbering and the game module's settings of
    /// it already derived (once for a file of many records), and the seed's generator
    /// already made (`None`: no seed).
    pub fn start_with(
        ruleset: Arc<Ruleset>,
        numbering: Numbering,
        settings: G::Settings,
        setup: Option<G::State>,
        tags: &dyn Tags,
        mut dice: Option<Dice>,
    ) -> Result<Session<G>, G::Violation> {
        let state = G::start(&settings, setup, tags, dice.as_mut())?;
        Ok(Session::started(ruleset, numbering, settings, state, dice))
    }

    /// The game from `state`, the position [`Game::start`] gave, with the dice that
    /// start read from (if any).
    #[inline(always)]
    pub fn started(
        ruleset: Arc<Ruleset>,
        numbering: Numbering,
        settings: G::Settings,
        state: G::State,
        dice: Option<Dice>,
    ) -> Session<G> {
        let mut session = Session {
            ruleset,
            settings,
            state,
            dice,
            chance: None,
            turns: 0,
            round: 1,
            numbering,
            chosen: None,
            last_mover: None,
        };
        session.draw_chance();
        session
    }

    fn draw_chance(&mut self) {
        // Without a seed (most records) the status is not asked: nothing is drawn.
        self.chance = match &mut self.dice {
            Some(dice)
                if matches!(
                    G::status(&self.settings, &self.state),
                    Status::Playing { .. }
                ) =>
            {
                G::draw_chance(&self.settings, &mut self.state, dice)
            }
            _ => None,
        };
    }

    pub fn status(&self) -> Status {
        G::status(&self.settings, &self.state)
    }

    /// Where play stands, for people and programs: the seat to move, or the seats that
    /// may move where the round's order is open, or how the game ended.
    pub fn status_report(&self) -> super::StatusReport {
        super::StatusReport::of_position::<G>(&self.settings, &self.state)
    }

    /// The seat that played the last turn (where a round's order is open, the one its
    /// label chose); `None` before the first.
    pub fn last_mover(&self) -> Option<Seat> {
        self.last_mover
    }

    pub fn to_move(&self) -> Option<Seat> {
        match self.status() {
            Status::Playing { to_move } => Some(to_move),
            Status::Over(_) => None,
        }
    }

    /// The number the next turn carries.
    pub fn expected_number(&self) -> TurnNumber {
        match self.numbering {
            Numbering::Turns => TurnNumber {
                n: (self.turns + 1) as u32,
                ellipsis: false,
            },
            Numbering::Rounds => {
                let first = G::seats(&self.settings).first().copied();
                TurnNumber {
                    n: self.round,
                    ellipsis: self.to_move() != first,
                }
            }
        }
    }

    /// The turn now due as the record numbers it: its number as written (`2...`), and
    /// its name for people: `move 2, black` where turns are numbered by rounds, `turn 3`
    /// where every turn has its number (equal to its index). Once the game is over no
    /// seat is due, so a turn written after the end is numbered and named by its index
    /// (`4`, `turn 4`) under either numbering, never by the round it would have been in.
    pub fn turn_name(&self) -> (String, String) {
        let number = self.expected_number();
        match (self.numbering, self.to_move()) {
            (Numbering::Rounds, Some(seat)) => (
                number.to_string(),
                format!("move {}, {}", number.n, seat_name::<G>(seat)),
            ),
            (_, None) => {
                let index = self.turns + 1;
                (index.to_string(), format!("turn {index}"))
            }
            (Numbering::Turns, Some(_)) => (number.to_string(), format!("turn {}", number.n)),
        }
    }

    /// Checks the number and seat label written before a turn, and that the game is
    /// still on. Where the order is open ([`Game::open_movers`]) the label chooses the
    /// seat that plays the next turn given to [`Session::play`]. (Asked before every
    /// turn: inlined into the replay.)
    #[inline(always)]
    pub fn check_frame(
        &mut self,
        number: Option<TurnNumber>,
        label: Option<&str>,
    ) -> Result<(), Refused<G>> {
        self.chosen = None;
        let to_move = match self.status() {
            Status::Playing { to_move } => to_move,
            Status::Over(end) => return Err(Refusal::GameOver(end).into()),
        };
        if let Some(written) = number {
            let expected = self.expected_number();
            if written != expected {
                return Err(Refusal::Number { written, expected }.into());
            }
        }
        if let Some(open) = G::open_movers(&self.settings, &self.state) {
            return self.choose(open, label);
        }
        if let Some(written) = label {
            let expected = seat_name::<G>(to_move);
            if written != expected {
                let seat = G::SEATS.iter().position(|s| *s == written);
                if let Some(v) = seat.and_then(|i| {
                    G::label_violation(&self.settings, &self.state, self.last_mover, Seat(i as u8))
                }) {
                    return Err(Refusal::LabelRule(v).into());
                }
                return Err(Refusal::Label {
                    written: written.to_string(),
                    expected,
                }
                .into());
            }
        }
        Ok(())
    }

    /// The seat a label chooses among the open movers.
    fn choose(&mut self, open: SeatSet, label: Option<&str>) -> Result<(), Refused<G>> {
        let names = || open.iter().map(seat_name::<G>).collect::<Vec<_>>();
        let chosen = label.and_then(|w| open.iter().find(|s| seat_name::<G>(*s) == w));
        match (label, chosen) {
            (_, Some(seat)) => {
                self.chosen = Some(seat);
                Ok(())
            }
            // One seat left to move: the order is no longer open.
            (None, None) if open.len() == 1 => Ok(()),
            (written, _) => Err(Refusal::Open {
                written: written.map(str::to_string),
                open: names(),
            }
            .into()),
        }
    }

    /// Plays an action of the record; on a refusal nothing changes.
    #[inline(always)]
    pub fn play(&mut self, action: &Action<G::Turn>, address: &str) -> Result<(), Refused<G>> {
        let to_move = match self.status() {
            Status::Over(end) => return Err(Refusal::GameOver(end).into()),
            Status::Playing { to_move } => to_move,
        };
        // The seat a label chose in an open round moves; a refusal restores the order.
        // (The state saved is boxed: a state of a few hundred bytes or more would
        // otherwise be moved on every turn, chosen or not.)
        let (mover, restore) = match self.chosen.take() {
            Some(seat) => {
                let saved = Box::new(self.state.clone());
                G::choose_mover(&self.settings, &mut self.state, seat);
                (seat, Some(saved))
            }
            None => (to_move, None),
        };
        let played = self.play_action(action, address);
        match (&played, restore) {
            (Err(_), Some(saved)) => self.state = *saved,
            (Err(_), None) => {}
            (Ok(()), _) => self.last_mover = Some(mover),
        }
        played
    }

    fn play_action(&mut self, action: &Action<G::Turn>, address: &str) -> Result<(), Refused<G>> {
        match action {
            Action::Play(turn) => self.play_turn(turn)?,
            Action::BadAddress(_) => {
                return Err(Refusal::Address {
                    text: address.to_string(),
                }
                .into())
            }
            Action::Resign => G::resign(&self.settings, &mut self.state).map_err(Refusal::Rule)?,
            Action::Draw => G::agree_draw(&self.settings, &mut self.state),
        }
        self.advance();
        Ok(())
    }

    fn play_turn(&mut self, turn: &G::Turn) -> Result<(), Refused<G>> {
        G::check_kind(&self.settings, &self.state, turn).map_err(Refusal::Rule)?;
        // The outcome in force, borrowed: the derived one, else the written one. The
        // written one is compared with the derived where the turn holds it.
        let written;
        let chance = match &self.chance {
            Some(derived) if !G::written_agrees(derived, turn) => {
                return Err(Refusal::Dice {
                    written: G::written_chance(turn)
                        .map(|w| w.to_string())
                        .unwrap_or_default(),
                    derived: derived.to_string(),
                }
                .into())
            }
            Some(derived) => Some(derived),
            None => {
                written = G::written_chance(turn);
                match &written {
                    Some(w) => {
                        G::check_chance(&self.settings, &self.state, w).map_err(Refusal::Rule)?;
                        Some(w.as_ref())
                    }
                    None => None,
                }
            }
        };
        G::play(&self.settings, &mut self.state, chance, turn)
            .map_err(|v| Box::new(Refusal::Rule(v)))
    }

    /// Counts a turn played and prepares the next.
    fn advance(&mut self) {
        self.turns += 1;
        let first = G::seats(&self.settings).first().copied();
        let to_move = self.to_move();
        if to_move.is_some() && to_move == first {
            self.round += 1;
        }
        self.draw_chance();
    }

    /// How `turn` would score here, point by point, its claim ignored (a game without
    /// scores, or a turn illegal for another reason: `None`). Call it after
    /// [`Session::check_frame`], before [`Session::play`].
    pub fn breakdown(&self, turn: &G::Turn) -> Option<G::Breakdown> {
        let chance = self
            .chance
            .clone()
            .or_else(|| G::written_chance(turn).map(Cow::into_owned));
        match self.chosen {
            Some(seat) => {
                let mut state = self.state.clone();
                G::choose_mover(&self.settings, &mut state, seat);
                G::breakdown(&self.settings, &state, chance.as_ref(), turn)
            }
            None => G::breakdown(&self.settings, &self.state, chance.as_ref(), turn),
        }
    }

    /// Every legal turn for the seat to move.
    pub fn legal_turns(&self, out: &mut Vec<G::Turn>) {
        self.legal_turns_for(None, out);
    }

    /// Every legal turn for the seat to move, for the random outcome in force: the
    /// seed's, else (a record without a seed) the one a turn writes, when it is possible.
    pub fn legal_turns_for(&self, written: Option<&G::Chance>, out: &mut Vec<G::Turn>) {
        if self.to_move().is_none() {
            return;
        }
        let chance = match (&self.chance, written) {
            (Some(derived), _) => Some(derived),
            (None, Some(w)) if G::check_chance(&self.settings, &self.state, w).is_ok() => Some(w),
            _ => None,
        };
        G::legal_turns(&self.settings, &self.state, chance, out);
    }
}
