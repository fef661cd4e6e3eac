//! Illegal turns and impossible setups, each naming the rule it breaks.

use std::fmt;

use super::board::Phase;
use super::settings::{Keep, SEAT_NAMES};
use crate::games::{RuleId, Seat};
use crate::notation::halves::Cell;

/// A colour's name.
pub fn colour_name(seat: Seat) -> &'static str {
    SEAT_NAMES.get(seat.0 as usize).copied().unwrap_or("?")
}

/// The seat making a turn, as rulings name it: its colour, and after a swap in the
/// contract the player too (the `White`/`Black` tags name the players as they sat at
/// the start).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Mover {
    pub seat: Seat,
    /// After a swap in the contract: the colour whose tag names the player now playing
    /// `seat`.
    pub swapped_with: Option<Seat>,
}

impl fmt::Display for Mover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = colour_name(self.seat);
        if let Some(other) = self.swapped_with {
            let start = colour_name(other);
            write!(
                f,
                "{c} (played since the swap by the `{}` player, who started as {start})",
                capitalised(start)
            )
        } else {
            f.write_str(c)
        }
    }
}

fn capitalised(w: &str) -> String {
    let mut cs = w.chars();
    match cs.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + cs.as_str(),
        None => String::new(),
    }
}

/// What is wrong with a `Setup` string (rule `setup`).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum SetupFault {
    /// A field that is not `name: value`, or a name that is no field.
    Field { text: String },
    /// A field written twice.
    Repeated { name: String },
    /// A field missing.
    Missing { name: &'static str },
    /// A cell that is not `(q,r)` or does not exist.
    BadCell { text: String },
    /// Two tiles on one cell.
    Twice { cell: Cell },
    /// More tiles of a colour than it has.
    TooMany { seat: Seat, count: u32, max: u8 },
    /// The seat to move is not one of the seats that play.
    SeatToMove { found: String },
    /// Not `waxing`, `contract` or `waning`.
    Phase { found: String },
    /// The tiles do not form one group.
    NotConnected,
    /// A waxing position with every tile placed.
    NothingToPlace,
    /// A contract position without a contract, or not white to move.
    NoContract,
    /// Too many tiles in all.
    Full,
    /// `start = random` with neither a seed nor a `Setup`.
    RandomWithoutSeed,
    /// `resigned` written after a colour's first cell.
    ResignedPlace { seat: Seat },
    /// The seat to move has resigned.
    ResignedToMove { seat: Seat },
    /// Fewer than two seats still playing: the game would be over.
    TooFewPlaying,
    /// `passes:` not a number below the seats taking turns.
    Passes { found: String, max: u8 },
}

/// What a turn in the contract phase is, or a contract outside it.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ContractFault {
    /// `keep`/`swap` in the waxing or waning phase.
    OutOfPlace { phase: Phase },
    /// `keep`/`swap` in a game without a contract (three seats or `contract = false`).
    NoContract { three_seats: bool },
    /// A turn other than `keep`/`swap` while the contract is due.
    Due,
}

/// An illegal Halves turn or setup. Each variant cites one rule.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Violation {
    /// A turn after the game has ended (`game-over`).
    GameOver,
    /// A placement with no tile left in hand (`place`).
    NoTileInHand { mover: Mover },
    /// A placement on a taken cell (`place`).
    CellTaken { mover: Mover, cell: Cell, by: Seat },
    /// A placement outside the waxing phase (`place`).
    PlaceOutOfPhase { mover: Mover, phase: Phase },
    /// A placement touching too few tiles (`must-touch`).
    MustTouch {
        mover: Mover,
        cell: Cell,
        touched: u32,
        need: u8,
    },
    /// A placement touching no enemy tile (`touch-enemy`).
    TouchEnemy { mover: Mover, cell: Cell },
    /// A contract turn out of place or by the wrong seat, or another turn during the
    /// contract (`contract`).
    Contract { mover: Mover, fault: ContractFault },
    /// A removal of a cell without a tile of the mover (`remove-own`).
    RemoveNotOwn {
        mover: Mover,
        cell: Cell,
        holder: Option<Seat>,
    },
    /// A removal outside the waning phase (`remove-own`).
    RemoveOutOfPhase { mover: Mover, phase: Phase },
    /// A removal of a tile with too few empty neighbours (`free-edges`).
    FreeEdges {
        mover: Mover,
        cell: Cell,
        free: u32,
        need: u8,
    },
    /// A split where the mover chooses, written without a choice (`keep-choice`).
    KeepMissing {
        mover: Mover,
        cell: Cell,
        options: u8,
    },
    /// A choice naming no group that remains (`keep-choice`).
    KeepNamesNoGroup {
        mover: Mover,
        /// The tile removed.
        cell: Cell,
        keep: Cell,
    },
    /// A choice naming a group the rule does not let survive (`split-keep`).
    SplitKeep {
        mover: Mover,
        /// The tile removed.
        cell: Cell,
        keep: Cell,
        rule: Keep,
        /// The named group's size and mover's tiles in it.
        size: u32,
        friendly: u32,
        /// What the surviving group(s) have.
        best_size: u32,
        best_friendly: u32,
    },
    /// A pass although a legal turn exists (`pass`).
    Pass { mover: Mover },
    /// A `Setup` that cannot be a position of the game (`setup`).
    Setup(SetupFault),
}

impl crate::games::Violation for Violation {
    fn rule(&self) -> RuleId {
        match self {
            Violation::GameOver => "game-over",
            Violation::NoTileInHand { .. }
            | Violation::CellTaken { .. }
            | Violation::PlaceOutOfPhase { .. } => "place",
            Violation::MustTouch { .. } => "must-touch",
            Violation::TouchEnemy { .. } => "touch-enemy",
            Violation::Contract { .. } => "contract",
            Violation::RemoveNotOwn { .. } | Violation::RemoveOutOfPhase { .. } => "remove-own",
            Violation::FreeEdges { .. } => "free-edges",
            Violation::KeepMissing { .. } | Violation::KeepNamesNoGroup { .. } => "keep-choice",
            Violation::SplitKeep { .. } => "split-keep",
            Violation::Pass { .. } => "pass",
            Violation::Setup(_) => "setup",
        }
    }
}

fn phase_text(p: Phase) -> &'static str {
    match p {
        Phase::Waxing => "the waxing phase (tiles are being placed)",
        Phase::Contract => "the contract (white's player chooses a colour)",
        Phase::Waning => "the waning phase (tiles are being removed)",
    }
}

fn tiles(n: u32) -> String {
    if n == 1 {
        "1 tile".into()
    } else {
        format!("{n} tiles")
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::GameOver => f.write_str("the game is already over"),
            Violation::NoTileInHand { mover } => {
                write!(f, "{mover} has no tile left in hand to place")
            }
            Violation::CellTaken { mover, cell, by } => write!(
                f,
                "{mover} cannot place on {cell}: a {} tile is already there",
                colour_name(*by)
            ),
            Violation::PlaceOutOfPhase { mover, phase } => write!(
                f,
                "{mover} cannot place a tile in {}",
                phase_text(*phase)
            ),
            Violation::MustTouch {
                mover,
                cell,
                touched,
                need,
            } => write!(
                f,
                "{mover}'s tile on {cell} would touch {} but must touch at least {}",
                tiles(*touched),
                tiles(u32::from(*need))
            ),
            Violation::TouchEnemy { mover, cell } => write!(
                f,
                "{mover}'s tile on {cell} would touch no enemy tile; a placed tile must touch at least one"
            ),
            Violation::Contract { mover, fault } => match fault {
                ContractFault::OutOfPlace { phase } => write!(
                    f,
                    "{mover} cannot choose colours now: the contract comes once, when every tile is placed, and is white's player's; the game is in {}",
                    phase_text(*phase)
                ),
                ContractFault::NoContract { three_seats: true } => write!(
                    f,
                    "{mover} cannot choose colours: there is no contract with three seats"
                ),
                ContractFault::NoContract { three_seats: false } => write!(
                    f,
                    "{mover} cannot choose colours: this game is played without a contract"
                ),
                ContractFault::Due => write!(
                    f,
                    "the contract is due: {mover}'s player must write keep or swap"
                ),
            },
            Violation::RemoveNotOwn {
                mover,
                cell,
                holder,
            } => match holder {
                None => write!(f, "{mover} cannot remove {cell}: there is no tile there"),
                Some(h) => write!(
                    f,
                    "{mover} cannot remove {cell}: it is a {} tile, and a seat removes only its own",
                    colour_name(*h)
                ),
            },
            Violation::RemoveOutOfPhase { mover, phase } => write!(
                f,
                "{mover} cannot remove a tile in {}",
                phase_text(*phase)
            ),
            Violation::FreeEdges {
                mover,
                cell,
                free,
                need,
            } => write!(
                f,
                "{mover} cannot remove {cell}: it has {free} empty neighbouring cell{} but needs at least {need}",
                if *free == 1 { "" } else { "s" }
            ),
            Violation::KeepMissing {
                mover,
                cell,
                options,
            } => write!(
                f,
                "removing {cell} splits the tiles and {mover} must choose which of {options} groups survives: write it as x{cell}/(q,r) with a cell of that group"
            ),
            Violation::KeepNamesNoGroup { mover, keep, .. } => write!(
                f,
                "{mover} names {keep} as the group to keep, but no remaining tile is there"
            ),
            Violation::SplitKeep {
                mover,
                keep,
                rule,
                size,
                friendly,
                best_size,
                best_friendly,
                ..
            } => match rule {
                Keep::MostFriendly => write!(
                    f,
                    "{mover} cannot keep the group holding {keep}: it has {} of {}'s, but a group with {} survives (keep = most-friendly)",
                    tiles(*friendly),
                    colour_name(mover.seat),
                    tiles(*best_friendly)
                ),
                _ => write!(
                    f,
                    "{mover} cannot keep the group holding {keep}: it has {} and the largest has {} (keep = largest)",
                    tiles(*size),
                    best_size
                ),
            },
            Violation::Pass { mover } => write!(
                f,
                "{mover} cannot pass: a seat passes only when it has no legal turn"
            ),
            Violation::Setup(fault) => match fault {
                SetupFault::Field { text } => write!(
                    f,
                    "\"{}\" is not a field of a Halves setup: write each colour's cells, `to-move:` and `phase:`, separated by `;`",
                    crate::quote::quote(text)
                ),
                SetupFault::Repeated { name } => write!(f, "the setup gives `{name}:` twice"),
                SetupFault::Missing { name } => write!(f, "the setup has no `{name}:` field"),
                SetupFault::BadCell { text } => write!(
                    f,
                    "\"{}\" is not a cell: write (q,r) with integers of at most three digits",
                    crate::quote::quote(text)
                ),
                SetupFault::Twice { cell } => write!(f, "the setup puts two tiles on {cell}"),
                SetupFault::TooMany { seat, count, max } => write!(
                    f,
                    "the setup gives {} {count} tiles, but each seat has {max}",
                    colour_name(*seat)
                ),
                SetupFault::SeatToMove { found } => {
                    write!(
                        f,
                        "`{}` is not a seat of this game, so it cannot be to move",
                        crate::quote::quote(found)
                    )
                }
                SetupFault::Phase { found } => write!(
                    f,
                    "`{}` is not a phase: write waxing, contract or waning",
                    crate::quote::quote(found)
                ),
                SetupFault::NotConnected => {
                    f.write_str("the tiles of the setup do not form one group")
                }
                SetupFault::NothingToPlace => f.write_str(
                    "every tile is placed, so the phase is not waxing: write contract or waning",
                ),
                SetupFault::NoContract => f.write_str(
                    "a contract position needs two seats, a contract, and white to move",
                ),
                SetupFault::Full => f.write_str("the setup holds more tiles than a game can"),
                SetupFault::RandomWithoutSeed => f.write_str(
                    "with start = random the layout comes from a Seed, or is written in a Setup tag; neither is given",
                ),
                SetupFault::ResignedPlace { seat } => write!(
                    f,
                    "`resigned` comes first in {}'s field, before its cells",
                    colour_name(*seat)
                ),
                SetupFault::ResignedToMove { seat } => write!(
                    f,
                    "{} has resigned, so it cannot be to move",
                    colour_name(*seat)
                ),
                SetupFault::TooFewPlaying => f.write_str(
                    "fewer than two seats are still playing, so the game would be over",
                ),
                SetupFault::Passes { found, max } => write!(
                    f,
                    "`passes: {}` is not a count of passes just made: write 0 to {max}, fewer than the seats taking turns (as many would have ended the game)",
                    crate::quote::quote(found)
                ),
            },
        }
    }
}
