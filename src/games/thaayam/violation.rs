//! Illegal turns, impossible series and setups, each naming the rule it breaks.

use std::fmt;

use super::settings::SEAT_NAMES;
use crate::games::{RuleId, Seat};
use crate::notation::thaayam::Series;
use crate::notation::thaayam::Square;

fn name(seat: Seat) -> &'static str {
    SEAT_NAMES[seat.0 as usize & 3]
}

/// What is wrong.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Fault {
    /// Without a seed, a turn that does not write its series (`throws`).
    NoSeries,
    /// An empty written series (`throws`).
    EmptySeries,
    /// A value the dice cannot show (`throws`).
    Impossible { value: u8 },
    /// A series that goes on after a throw that ends it (`throws`).
    EndsEarly { at: usize, value: u8 },
    /// A series whose last throw calls for another (`throws`).
    Unfinished { value: u8 },
    /// A throw used that the series does not hold unused (`move`).
    NoThrow { value: u8 },
    /// A throw used that was discarded (`discard`).
    Discarded { value: u8 },
    /// `enter` with no unused 1 (`enter`).
    EnterNoOne,
    /// `enter` with every piece on the board or borne off (`enter`).
    NothingToEnter,
    /// Several throws for one move (`combine-throws`).
    Combined,
    /// No single piece of the seat on the square (`move`).
    NoPiece { at: Square },
    /// `T` with no twins of the seat on the square (`twins`).
    NoTwins { at: Square },
    /// Twins named in the keep, where they are singles (`twins-keep`).
    TwinsInKeep,
    /// Twins moved by less than one square (`twins`).
    TwinsTooShort { sum: u8 },
    /// Moving within or out of the keep (`keep-exact`).
    InKeep,
    /// Past the keep (`keep-exact`).
    PastKeep { from: Square, by: u8, left: u8 },
    /// Every matching piece on the square already moved this turn (`one-move`).
    MovedTwice { at: Square },
    /// `twin` where this ruleset has no twins (`twins`).
    TwinsOff,
    /// `twin` on a square that is not the seat's opposite palace (`twins`).
    TwinWrongSquare { at: Square, palace: Square },
    /// `twin` with fewer than two single pieces there (`twins`).
    TwinTooFew { at: Square },
    /// `off` without an unused 1 (`bear-off`).
    OffNoOne,
    /// `off` before every remaining piece is in the keep (`bear-off`).
    OffTooEarly { outside: usize },
    /// `off` with every piece in the keep already moved this turn (`one-move`).
    OffMoved,
    /// Fewer throws used than possible (`use-all`).
    UseAll { used: usize, possible: usize },
    /// A capture claimed on a safe square (`safe-square`).
    SafeSquare { at: Square },
    /// A single claiming to capture twins (`twins-capture`).
    SingleOnTwins { at: Square },
    /// A capture claimed where nothing is taken (`capture`).
    NoCapture { at: Square },
    /// A `First` tag that names no playing seat, or disagrees with the seed (`first`).
    First {
        written: String,
        derived: Option<String>,
    },
    /// A turn labelled for another seat while the seat that captured on the last turn
    /// plays again (`extra-turn`).
    ExtraTurn { captured: Seat, written: Seat },
    /// A turn labelled for the seat that moved last, which captured nothing and so does
    /// not play again (`extra-turn`).
    NoExtraTurn { last: Seat, to_move: Seat },
    /// A `Setup` that cannot be a position (`setup`).
    Setup(String),
}

/// An illegal Thaayam turn, series, start or setup. `series` is the series in force
/// (for hints), empty where there is none.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct Violation {
    pub fault: Fault,
    pub series: Series,
}

impl Violation {
    pub fn new(fault: Fault) -> Violation {
        Violation {
            fault,
            series: Series::default(),
        }
    }
}

impl crate::games::Violation for Violation {
    fn rule(&self) -> RuleId {
        use Fault::*;
        match self.fault {
            NoSeries | EmptySeries | Impossible { .. } | EndsEarly { .. } | Unfinished { .. } => {
                "throws"
            }
            NoThrow { .. } | NoPiece { .. } => "move",
            Discarded { .. } => "discard",
            EnterNoOne | NothingToEnter => "enter",
            Combined => "combine-throws",
            NoTwins { .. }
            | TwinsTooShort { .. }
            | TwinsOff
            | TwinWrongSquare { .. }
            | TwinTooFew { .. } => "twins",
            TwinsInKeep => "twins-keep",
            InKeep | PastKeep { .. } => "keep-exact",
            MovedTwice { .. } | OffMoved => "one-move",
            OffNoOne | OffTooEarly { .. } => "bear-off",
            UseAll { .. } => "use-all",
            SafeSquare { .. } => "safe-square",
            SingleOnTwins { .. } => "twins-capture",
            NoCapture { .. } => "capture",
            First { .. } => "first",
            ExtraTurn { .. } | NoExtraTurn { .. } => "extra-turn",
            Setup(_) => "setup",
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Fault::*;
        let s = &self.series;
        match &self.fault {
            NoSeries => f.write_str("the record has no seed, so the turn must write its series of throws in brackets before its actions: `[2] …`, `[1 4 2] …`"),
            EmptySeries => write!(f, "the series `[]` holds no throw: a turn throws at least once"),
            Impossible { value: 0 } => f.write_str(
                "a throw is never written 0: no mouth up (a spinner's 0) counts 8, so write 8",
            ),
            Impossible { value } => write!(f, "the dice cannot show {value}"),
            EndsEarly { at, value } => write!(f, "the series goes on after throw {} ({value}), but a {value} ends a series", at + 1),
            Unfinished { value } => write!(f, "the series ends with {value}, but a {value} is thrown again: a series ends with its first throw that is not an extra throw"),
            NoThrow { value } => write!(f, "the series {s} has no unused throw of {value}"),
            Discarded { value } => write!(f, "the throw of {value} in {s} was discarded: with no piece on the board, the throws before the first 1 cannot be used"),
            EnterNoOne => write!(f, "entering a piece needs an unused throw of 1, and {s} has none left"),
            NothingToEnter => write!(f, "no piece is left to enter: all are on the board or borne off"),
            Combined => write!(f, "a move uses one throw under this ruleset (combine-throws = false)"),
            NoPiece { at } => write!(f, "the seat has no single piece on {at}"),
            NoTwins { at } => write!(f, "the seat has no twins on {at}"),
            TwinsInKeep => write!(f, "twins that reach the keep are two single pieces: there are no twins in the keep"),
            TwinsTooShort { sum } => write!(f, "twins move half the throws used, rounded down: {sum} moves them no square"),
            InKeep => write!(f, "a piece in the keep has finished its course: it can only bear off"),
            PastKeep { from, by, left } => write!(f, "the piece on {from} cannot move {by}: the keep is {left} squares on and is entered only by an exact count"),
            MovedTwice { at } => write!(f, "the piece on {at} has already moved this turn: a piece moves once a turn"),
            TwinsOff => write!(f, "this ruleset has no twins (twins = false)"),
            TwinWrongSquare { at, palace } => write!(f, "twins are declared only on the palace opposite the seat's own ({palace}), not on {at}"),
            TwinTooFew { at } => write!(f, "declaring twins needs two single pieces of the seat on {at}"),
            OffNoOne => write!(f, "bearing off needs an unused throw of 1, and {s} has none left"),
            OffTooEarly { outside } => write!(f, "a piece bears off only once all the seat's pieces are in the keep ({outside} not there yet)"),
            OffMoved => write!(f, "every piece in the keep has moved this turn; a piece that moved does not also bear off"),
            UseAll { used, possible } => write!(f, "the turn uses {used} of the throws {s}, but {possible} could be used: every throw must be used if possible"),
            SafeSquare { at } => write!(f, "{at} is a marked square: pieces there are safe and cannot be captured"),
            SingleOnTwins { at } => write!(f, "a single piece cannot capture the twins on {at}: only twins capture twins"),
            NoCapture { at } => write!(f, "the move claims a capture, but no enemy piece on {at} can be taken"),
            First { written, derived: Some(d) } => write!(f, "the First tag names {}, but the starting throws give {d}", crate::quote::quote(written)),
            First { written, derived: None } => write!(f, "the First tag names `{}`, which is not a seat in this game", crate::quote::quote(written)),
            ExtraTurn { captured, written } => write!(f, "the turn is labelled `{}:`, but {} captured on its last turn and plays again", name(*written), name(*captured)),
            NoExtraTurn { last, to_move } => write!(f, "the turn is labelled `{}:`, but {} captured nothing on its last turn, so it does not play again: it is {}'s turn", name(*last), name(*last), name(*to_move)),
            Setup(m) => write!(f, "{m}"),
        }
    }
}
