//! The rule modules, one per game, behind the [`Game`] trait.
//!
//! A module is pure rules: state, turns, legal-turn generation, applying a turn, status.
//! No I/O, no printing. The referee drives any module the same way:
//!
//! ```text
//! settings = G::settings(ruleset)
//! state    = G::start(settings, setup, header, dice)
//! loop: chance = draw_chance / written_chance   (random events between turns, and
//!                                                the one that opens the turn)
//!       G::play(settings, &mut state, chance, turn)  -> Ok, or a typed Violation
//!       G::status(&state)                             -> over? who won?
//! ```
//!
//! Seats are small indices into the game's [`Game::SEATS`]; who moves next is the
//! module's answer ([`Game::status`]), so extra turns, phases and seats that have left
//! need nothing from the referee.

pub mod halasi;
pub mod halatafl;
pub mod halves;
pub mod registry;
pub mod thaayam;

use std::borrow::Cow;
use std::fmt;

use crate::dice::Dice;
use crate::notation::record::{Limits, Movetext, Sink, Span};
pub use crate::notation::{Tags, TurnParse};
use crate::ruleset::{Ruleset, Schema};

/// A rule id, kebab-case, as defined in the ruleset (`compulsory-capture`).
pub type RuleId = &'static str;

/// A seat: an index into [`Game::SEATS`].
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Seat(pub u8);

/// The chance of a game whose turns open with no random event: it has no values.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum NoChance {}

impl fmt::Display for NoChance {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {}
    }
}

/// A set of seats, as a bit mask (bit `i` = seat `i`). At most 8 seats.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default, Debug)]
pub struct SeatSet(pub u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);
    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }
    pub fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | (1 << seat.0))
    }
    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
}

/// The seats that play a game, in turn order (the order of their indices), each once:
/// at most `N`, the seats the game has. Kept inline with their set, so settings copy
/// without an allocation (every record's game holds its own) and turn-order checks are
/// bit operations on [`Seats::set`].
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Seats<const N: usize> {
    list: [Seat; N],
    n: u8,
    set: SeatSet,
}

impl<const N: usize> Seats<N> {
    /// The seats among `seats` that the game has (below `N`), in turn order, each once.
    pub fn of(seats: &[Seat]) -> Seats<N> {
        let set = seats
            .iter()
            .filter(|s| usize::from(s.0) < N)
            .fold(SeatSet::EMPTY, |m, &s| m.with(s));
        let mut list = [Seat(0); N];
        let mut n = 0;
        for seat in set.iter() {
            list[n] = seat;
            n += 1;
        }
        Seats {
            list,
            n: n as u8,
            set,
        }
    }
    /// The seats as a set.
    #[inline]
    pub fn set(&self) -> SeatSet {
        self.set
    }
}

impl<const N: usize> std::ops::Deref for Seats<N> {
    type Target = [Seat];
    #[inline]
    fn deref(&self) -> &[Seat] {
        &self.list[..usize::from(self.n)]
    }
}

impl<'a, const N: usize> IntoIterator for &'a Seats<N> {
    type Item = &'a Seat;
    type IntoIter = std::slice::Iter<'a, Seat>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<const N: usize> fmt::Debug for Seats<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Why a game ended. `reason` is a short kebab-case word shown in rulings and JSON
/// (`capture-all`, `no-moves`, `resignation`, `agreement`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct End {
    /// The seats that won: one, several sharing a win, or none (a draw or a lost game).
    pub winners: SeatSet,
    /// A draw: nobody won, by a draw rule or agreement.
    pub draw: bool,
    pub reason: &'static str,
    /// The rule that ended the game (`win-capture-all`), if a rule did.
    pub rule: Option<RuleId>,
}

/// The state of play after a turn.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Status {
    /// The game goes on; this seat is to move.
    Playing {
        to_move: Seat,
    },
    Over(End),
}

impl Status {
    pub fn is_over(&self) -> bool {
        matches!(self, Status::Over(_))
    }
}

/// An illegal turn: a typed value naming the rule it breaks. Its `Display` is the
/// message of the ruling ("the man on c3 cannot step backward to c2").
pub trait Violation: fmt::Display + fmt::Debug + Clone {
    /// The rule id cited.
    fn rule(&self) -> RuleId;

    /// The setting whose value refuses the start (Halasi's table game given one seat):
    /// such a refusal is an error of the settings, placed where that setting was set,
    /// and cites no rule. `None` for every violation of a turn or a setup.
    fn setting(&self) -> Option<&'static str> {
        None
    }
}

/// The breakdown of a game whose turns are not scored: it has no values.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum NoBreakdown {}

impl serde::Serialize for NoBreakdown {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

/// A line of a standings table (`referee score`): a seat's figure and what it counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub seat: Seat,
    pub value: i64,
    /// What `value` counts ("pieces", "points", "money").
    pub unit: &'static str,
}

/// A game module.
pub trait Game: Sized + 'static {
    /// The module name, as in `game halatafl` and `[Game "halatafl"]`.
    const NAME: &'static str;
    /// Every seat the game knows, in its fixed turn order (`white`, `black`).
    const SEATS: &'static [&'static str];
    /// The tags of its own a game's records may hold, besides those of every game
    /// (Thaayam's `First`).
    const TAGS: &'static [&'static str] = &[];

    /// Typed settings built once from a ruleset.
    type Settings: Clone + fmt::Debug + Send + Sync + 'static;
    /// A position. Cheap to clone (`Copy` where it fits): no histories inside.
    type State: Clone + fmt::Debug + PartialEq + Send + Sync;
    /// One turn as written in the notation; its `Display` is the notation. Hashable, so
    /// the engine's tree finds a turn's child by it.
    type Turn: Clone
        + fmt::Debug
        + Eq
        + std::hash::Hash
        + fmt::Display
        + Send
        + Sync
        + crate::notation::record::HeapFree;
    /// An illegal turn (or an impossible `Setup`/start), naming its rule id.
    type Violation: Violation;
    /// A random outcome that opens a turn (Thaayam's series, Halasi's roll and draw);
    /// [`NoChance`] for a game without one.
    type Chance: Clone + fmt::Debug + PartialEq + fmt::Display + Send + Sync;
    /// How a turn scored, point by point (Halasi); [`NoBreakdown`] for a game whose turns
    /// are not scored.
    type Breakdown: Clone + fmt::Debug + serde::Serialize;

    /// The settings and rule ids this module declares.
    fn schema() -> &'static Schema;

    /// Parses one turn at the start of `input` in the game's notation (the game's pest
    /// rule decides where the turn ends).
    fn parse_turn(input: &str) -> TurnParse<Self::Turn>;

    /// Reads a record's movetext (`span` of `text`): [`Game::parse_movetext_into`]
    /// keeping every entry.
    fn parse_movetext(text: &str, span: Span, limits: &Limits) -> Movetext<Self::Turn> {
        Self::parse_movetext_into(text, span, limits, None)
    }

    /// Reads a record's movetext (`span` of `text`); with a `sink`, each entry is handed
    /// to it as it is read and none kept, and reading stops where it answers `false`.
    /// The default reads token by token with [`Game::parse_turn`]; a game's notation
    /// reads in one pass.
    fn parse_movetext_into(
        text: &str,
        span: Span,
        limits: &Limits,
        sink: Option<Sink<'_, Self::Turn>>,
    ) -> Movetext<Self::Turn> {
        let mut movetext =
            crate::notation::record::parse_movetext(text, span, limits, Self::parse_turn);
        if let Some(sink) = sink {
            for entry in std::mem::take(&mut movetext.entries) {
                if !sink(&entry) {
                    break;
                }
            }
        }
        movetext
    }

    /// The typed settings of a ruleset already checked against [`Game::schema`].
    fn settings(ruleset: &Ruleset) -> Self::Settings;

    /// The seats that play, in turn order.
    fn seats(settings: &Self::Settings) -> &[Seat];

    /// The ruling on a seat label that names `written` where another seat is to move,
    /// when a rule of the game's own, not plain turn order, decides who moves: Thaayam's
    /// `extra-turn` (the seat that captured plays again; one that did not, does not).
    /// `last` is the seat that played the last turn. `None`: plain turn order.
    fn label_violation(
        _settings: &Self::Settings,
        _state: &Self::State,
        _last: Option<Seat>,
        _written: Seat,
    ) -> Option<Self::Violation> {
        None
    }

    /// Parses a `Setup` string in the game's setup notation.
    fn parse_setup(settings: &Self::Settings, text: &str) -> Result<Self::State, Self::Violation>;

    /// The setup string of a position (`referee show --format setup`).
    fn setup_string(settings: &Self::Settings, state: &Self::State) -> String;

    /// What [`Game::setup_string`] holds where it is less than a whole position a record
    /// can start from (Halasi: the layout only); `None` where it is a whole position.
    fn setup_note(_settings: &Self::Settings) -> Option<&'static str> {
        None
    }

    /// The position play starts from: `setup` when the record gives one, else the normal
    /// start, laid from `dice` where the game lays it at random.
    fn start(
        settings: &Self::Settings,
        setup: Option<Self::State>,
        tags: &dyn Tags,
        dice: Option<&mut Dice>,
    ) -> Result<Self::State, Self::Violation>;

    /// Does a game under these settings have random events (throws, rolls, shuffles, a
    /// random layout), which come from a seed or are written by the players?
    fn has_chance(_settings: &Self::Settings) -> bool {
        false
    }

    /// Where play stands: who is to move, or how it ended.
    fn status(settings: &Self::Settings, state: &Self::State) -> Status;

    /// The random outcome opening the turn now due, derived from the seed; `None` when
    /// the game's turns open with none. Random events that happen between turns (Halasi's
    /// shuffles, order rolls, deal) are applied to `state` here, as they happen.
    fn draw_chance(
        _settings: &Self::Settings,
        _state: &mut Self::State,
        _dice: &mut Dice,
    ) -> Option<Self::Chance> {
        None
    }

    /// Does the outcome `turn` writes, if any ([`Game::written_chance`]), agree with the
    /// one derived from the seed? A game whose notation may write part of an outcome
    /// compares only what is written, and may compare it where the turn holds it.
    fn written_agrees(derived: &Self::Chance, turn: &Self::Turn) -> bool {
        Self::written_chance(turn).is_none_or(|w| *derived == *w)
    }

    /// Where the players make the random events (no seed) and the turn now due opens
    /// with one that is not written yet: what the seat to move writes first, worded to
    /// follow the seat's name ("throws first: write …"), and, where the game has one for
    /// these settings, an outcome it could write, for a hint whose example turn the
    /// referee accepts. `None` where the turn opens with no outcome to write.
    fn outcome_to_write(
        _settings: &Self::Settings,
        _state: &Self::State,
    ) -> Option<(&'static str, Option<Self::Chance>)> {
        None
    }

    /// The seats any of which may take the turn now due, the turn's seat label choosing
    /// (Halasi's first rounds without a seed, whose order rolls are not written); `None`
    /// when the seat to move is fixed.
    fn open_movers(_settings: &Self::Settings, _state: &Self::State) -> Option<SeatSet> {
        None
    }

    /// Makes `seat`, one of [`Game::open_movers`], the seat to move.
    fn choose_mover(_settings: &Self::Settings, _state: &mut Self::State, _seat: Seat) {}

    /// How `turn` would score from `before`, point by point, judged with any claimed
    /// score ignored (so a wrong claim is explained); `None` for a game without scores or
    /// a turn illegal for another reason.
    fn breakdown(
        _settings: &Self::Settings,
        _before: &Self::State,
        _chance: Option<&Self::Chance>,
        _turn: &Self::Turn,
    ) -> Option<Self::Breakdown> {
        None
    }

    /// The random outcome a turn's text writes, if any (borrowed where the turn holds it
    /// as it is: judging a turn does not copy it).
    fn written_chance(_turn: &Self::Turn) -> Option<Cow<'_, Self::Chance>> {
        None
    }

    /// The turn written in full: with the random outcome in force (`chance`, drawn from
    /// the seed) written into it where the notation lets a turn leave it out (Thaayam's
    /// throws, Halasi's roll and draw or buy-in), so that it replays without the seed.
    /// The default, for a game whose turns write no outcome, is the turn itself.
    fn with_outcome(turn: &Self::Turn, _chance: &Self::Chance) -> Self::Turn {
        turn.clone()
    }

    /// Is `turn` of a kind the position takes at all (Halasi: a home, a place or a
    /// regular turn, by phase)? Asked before a written outcome is compared with the
    /// seed's or checked, so that a turn of the wrong kind is refused for its kind, not
    /// for the bracket it writes. Judging in [`Game::play`] still refuses it too.
    fn check_kind(
        _settings: &Self::Settings,
        _state: &Self::State,
        _turn: &Self::Turn,
    ) -> Result<(), Self::Violation> {
        Ok(())
    }

    /// Without a seed: checks that a written outcome is possible.
    fn check_chance(
        _settings: &Self::Settings,
        _state: &Self::State,
        _chance: &Self::Chance,
    ) -> Result<(), Self::Violation> {
        Ok(())
    }

    /// Every legal turn for the seat to move, appended to `out` (which the caller
    /// reuses, so generation does not allocate once it has grown).
    fn legal_turns(
        settings: &Self::Settings,
        state: &Self::State,
        chance: Option<&Self::Chance>,
        out: &mut Vec<Self::Turn>,
    );

    /// A uniformly random legal turn for the seat to move (random playouts, `selfplay`),
    /// `None` when there is none. It must pick exactly the turn
    /// `legal_turns[rng.uniform(len)]` would, drawing from `rng` (the chooser's stream,
    /// not the game's dice) the same way. The default lists the turns into `scratch` (a
    /// list the caller reuses) and picks; a module that can count its turns more cheaply
    /// than it lists them overrides it.
    fn random_turn(
        settings: &Self::Settings,
        state: &Self::State,
        chance: Option<&Self::Chance>,
        rng: &mut crate::dice::Dice,
        scratch: &mut Vec<Self::Turn>,
    ) -> Option<Self::Turn> {
        scratch.clear();
        Self::legal_turns(settings, state, chance, scratch);
        if scratch.is_empty() {
            return None;
        }
        let i = rng.uniform(scratch.len() as u32) as usize;
        Some(scratch.swap_remove(i))
    }

    /// The engine's playout policy: a legal turn for the seat to move, `None` when there
    /// is none. The default is [`Game::random_turn`]; a game where uniformly random turns
    /// play poorly or cost too much to list (Halasi's runs) supplies its own. Unlike
    /// `random_turn` it need not match any listing's order.
    fn playout_turn(
        settings: &Self::Settings,
        state: &Self::State,
        chance: Option<&Self::Chance>,
        rng: &mut crate::dice::Dice,
        scratch: &mut Vec<Self::Turn>,
    ) -> Option<Self::Turn> {
        Self::random_turn(settings, state, chance, rng, scratch)
    }

    /// The turns the engine's tree considers at a position: by default every legal
    /// turn. A game whose listing is costly (Halasi's runs, each scored) may give a
    /// sample of legal turns, drawn from `rng`; the tree counts how often each was on
    /// offer, as it does under chance.
    fn engine_turns(
        settings: &Self::Settings,
        state: &Self::State,
        chance: Option<&Self::Chance>,
        _rng: &mut Dice,
        out: &mut Vec<Self::Turn>,
    ) {
        Self::legal_turns(settings, state, chance, out);
    }

    /// Does [`Game::engine_turns`] give a sample of the legal turns rather than all of
    /// them? The tree then widens a node by the children it holds, and revisits one by
    /// checking it again ([`Game::play`]) under the iteration's chance, since a sample
    /// cannot say which of them are legal.
    const ENGINE_SAMPLES: bool = false;

    /// What the random outcome opening a turn is called in `analyse` ("throw").
    const OUTCOME_NOUN: &'static str = "outcome";

    /// The outcome as `analyse` groups the seat's chances when the outcome opening its
    /// turn is not known yet: by default the whole outcome; a game whose outcomes are too
    /// many to list one by one groups them coarser (Halasi: by the roll, not the
    /// dominos it buys).
    fn outcome_group(chance: &Self::Chance) -> String {
        chance.to_string()
    }

    /// Makes `state` one the seats cannot tell from it: what no seat has seen (Halasi's
    /// pool orders, and without a seed the orders and buy-ins the record has not yet
    /// written) is dealt afresh from `rng`, the engine's generator, never the record's
    /// seed. `seen` is the outcome opening the turn now due where the seat to move has
    /// seen it. It must give the same result for states that differ only in what is
    /// hidden. The default, for a game with nothing hidden, changes nothing.
    fn determinize(
        _settings: &Self::Settings,
        _state: &mut Self::State,
        _seen: Option<&Self::Chance>,
        _rng: &mut Dice,
    ) {
    }

    /// What the seat to move learns from the turns it is offered that its position does
    /// not say, set into `state` before a search (Halasi without a seed: the territory
    /// a seed dealt at the buy-in, which only the offered placements name). The
    /// default: nothing.
    fn learn_from_offered(
        _settings: &Self::Settings,
        _state: &mut Self::State,
        _offered: &[Self::Turn],
    ) {
    }

    /// The decision a turn makes, without the random outcome it writes: the engine's
    /// tree keys a turn by it, so the same decision under different rolls is one branch
    /// (Halasi's `[4: QQ O# 9R YR] XR@CM1.3/CM1.16 =8` is `XR@CM1.3/CM1.16 =8`). The
    /// default is the turn itself (Thaayam's moves are told apart by their throws).
    fn decision(turn: &Self::Turn) -> Self::Turn {
        turn.clone()
    }

    /// The longest playout the engine runs before it stops and scores the position by
    /// [`Game::cut_shares`].
    const PLAYOUT_CAP: usize = 1000;

    /// What a position a playout was cut at is worth to each seat (by seat index, into
    /// `out`, summing to at most 1). The default: the seats leading the standings share
    /// the win.
    fn cut_shares(settings: &Self::Settings, state: &Self::State, out: &mut [f64]) {
        let standings = Self::standings(settings, state);
        let Some(best) = standings.iter().map(|s| s.value).max() else {
            return;
        };
        let leaders = standings.iter().filter(|s| s.value == best).count();
        for s in standings.iter().filter(|s| s.value == best) {
            out[s.seat.0 as usize] = 1.0 / leaders as f64;
        }
    }

    /// Can the engine search from this position? `Err` says why not (Halasi's
    /// solitaire without a seed before its opening four are written). The default:
    /// always.
    fn engine_ready(_settings: &Self::Settings, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }

    /// Judges a turn and, when legal, applies it. On a violation `state` is unchanged.
    fn play(
        settings: &Self::Settings,
        state: &mut Self::State,
        chance: Option<&Self::Chance>,
        turn: &Self::Turn,
    ) -> Result<(), Self::Violation>;

    /// Applies a turn that [`Game::legal_turns`] listed for this `state` and `chance`,
    /// without judging it again as a written turn is judged (random playouts and
    /// `selfplay`). A module whose generated turns carry what applying them needs
    /// overrides this; the default plays the turn through [`Game::play`].
    fn apply_legal(
        settings: &Self::Settings,
        state: &mut Self::State,
        chance: Option<&Self::Chance>,
        turn: &Self::Turn,
    ) {
        let applied = Self::play(settings, state, chance, turn);
        debug_assert!(applied.is_ok(), "a listed turn was refused: {turn}");
    }

    /// The seat to move resigns. In a two-seat game the other wins; with more seats the
    /// resigning seat leaves and play goes on. A game whose rules allow a resignation
    /// only at some turns (Halasi: in the play rounds) refuses it elsewhere, and then
    /// `state` is unchanged.
    fn resign(settings: &Self::Settings, state: &mut Self::State) -> Result<(), Self::Violation>;

    /// All seats still playing agree a draw; the game ends.
    fn agree_draw(settings: &Self::Settings, state: &mut Self::State);

    /// A note on a legal turn that a ruling should show (Halatafl: "fails to capture;
    /// black may huff c3"). Computed on demand, never during plain replay.
    fn note(
        _settings: &Self::Settings,
        _before: &Self::State,
        _after: &Self::State,
        _turn: &Self::Turn,
    ) -> Option<String> {
        None
    }

    /// A hint for a violation, where one helps ("black could capture with c5xc3 or
    /// c5xe3"). `state` is the position before the illegal turn.
    fn hint(
        _settings: &Self::Settings,
        _state: &Self::State,
        _violation: &Self::Violation,
    ) -> Option<String> {
        None
    }

    /// The message for a written square, cell or triangle that does not exist (rule
    /// `address`): `text` is the address as written.
    fn address_message(text: &str) -> String {
        format!("`{text}` is not a point of the board")
    }

    /// The standings (`referee score`): one line a seat.
    fn standings(settings: &Self::Settings, state: &Self::State) -> Vec<Standing>;
}

/// The seat names of a game, by index.
pub fn seat_name<G: Game>(seat: Seat) -> &'static str {
    G::SEATS.get(seat.0 as usize).copied().unwrap_or("?")
}
