//! Illegal turns and impossible setups, each naming the rule it breaks.

use std::fmt;

use super::board::Rank;
use crate::games::{RuleId, Seat};
use crate::notation::halatafl::{Path, Promotion, Square};

fn seat_name(seat: Seat) -> &'static str {
    match seat.0 {
        0 => "white",
        _ => "black",
    }
}

/// What is wrong with one step or one hop of a move.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Fault {
    /// A step to a point that is not next to the start (or to the start itself).
    NotAdjacent,
    /// A jump that is not over one point to the point beyond, in a straight line.
    NotShortJump,
    /// An emperor's move that is not a straight line.
    NotStraight,
    /// The points are not joined by a line of the board (a diagonal that is not a line).
    NoLine,
    /// A man moving backward (or, with `men = forward-sideways`, any disallowed way).
    Backward,
    /// The destination is not vacant.
    Occupied,
    /// An emperor's slide passes a piece on this point.
    Blocked(Square),
    /// The jumped point is empty.
    NothingToJump(Square),
    /// The jumped point holds the mover's own piece.
    OwnPiece(Square),
    /// The piece on this point was already jumped this turn.
    AlreadyJumped(Square),
}

/// What is wrong with a `Setup` string (rule `setup`).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum SetupFault {
    /// Not three fields separated by single spaces.
    Fields,
    /// Not seven ranks separated by `/`.
    RankCount { found: usize },
    /// A rank (1–7) that does not describe exactly seven points.
    RankLength { rank: u8, points: usize },
    /// A character that is no piece and no run length.
    BadChar { rank: u8, ch: char },
    /// A run written `0` or as two digits in a row.
    BadRun { rank: u8 },
    /// The seat to move is not `w` or `b`.
    SeatToMove { found: String },
    /// A huffable point that is not a point of the board.
    HuffPoint { text: String },
    /// A huffable point that does not hold a piece of the seat not to move.
    HuffPiece { at: Square, seat: Seat },
    /// Huffable points out of order or repeated.
    HuffOrder { at: Square },
    /// Huffable points although this ruleset has no huff (`capture` is not
    /// `compulsory-huff`).
    HuffDisabled,
    /// More pieces than a seat has.
    TooMany { seat: Seat, count: u32 },
    /// No pieces at all.
    Empty,
    /// A king although `promotion = false`.
    NoKings { at: Square },
    /// An emperor although `emperor = false`.
    NoEmperors { at: Square },
}

/// An illegal Halatafl turn or setup. Each variant cites one rule.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Violation {
    /// A turn after the game has ended (`game-over`).
    GameOver,
    /// A turn with neither huff nor move (`step`).
    EmptyTurn { seat: Seat },
    /// A huff when the previous turn did not fail to capture (`huff`).
    NoHuffRight { seat: Seat, at: Square },
    /// A huff of a point that may not be huffed (`huff`).
    NotHuffable { seat: Seat, at: Square },
    /// A huff alone that does not win (`huff`).
    HuffAlone { seat: Seat, at: Square },
    /// A move after a huff that already won (`huff`).
    MoveAfterWinningHuff { seat: Seat, at: Square },
    /// A step whose start holds no piece of the mover (`step`).
    NoPieceToStep { seat: Seat, at: Square },
    /// A jump whose start holds no piece of the mover (`jump`).
    NoPieceToJump { seat: Seat, at: Square },
    /// A man's step that is not one (`step`).
    Step {
        seat: Seat,
        from: Square,
        to: Square,
        fault: Fault,
    },
    /// The first hop of a jump is not one (`jump`).
    Jump {
        seat: Seat,
        rank: Rank,
        from: Square,
        to: Square,
        fault: Fault,
    },
    /// A later hop of a chain is not one, or re-jumps a piece (`multi-jump`). `hop` is
    /// 1-based.
    MultiJump {
        seat: Seat,
        rank: Rank,
        hop: u8,
        from: Square,
        to: Square,
        fault: Fault,
    },
    /// A king's step or jump of the wrong shape (`king-move`).
    KingMove {
        seat: Seat,
        from: Square,
        to: Square,
        jump: bool,
        fault: Fault,
    },
    /// An emperor's move of the wrong shape (`emperor-move`).
    EmperorMove {
        seat: Seat,
        from: Square,
        to: Square,
        jump: bool,
        fault: Fault,
    },
    /// A man ends its turn on its own throne (`own-throne`).
    OwnThrone { seat: Seat, at: Square },
    /// A step while a capture was possible, with `capture = compulsory`
    /// (`compulsory-capture`).
    CompulsoryCapture {
        seat: Seat,
        from: Square,
        to: Square,
    },
    /// A chain that stops while the piece can still jump (`continue-jumps`).
    ContinueJumps { seat: Seat, rank: Rank, path: Path },
    /// A wrong `=K` marker (`promotion`); `actual` is what the turn really made.
    KingMarker {
        seat: Seat,
        actual: Option<Promotion>,
    },
    /// A wrong `=E` marker (`emperor`).
    EmperorMarker {
        seat: Seat,
        actual: Option<Promotion>,
    },
    /// A `Setup` that cannot be a position of the game (`setup`).
    Setup(SetupFault),
}

impl crate::games::Violation for Violation {
    fn rule(&self) -> RuleId {
        match self {
            Violation::GameOver => "game-over",
            Violation::EmptyTurn { .. } => "step",
            Violation::NoHuffRight { .. }
            | Violation::NotHuffable { .. }
            | Violation::HuffAlone { .. }
            | Violation::MoveAfterWinningHuff { .. } => "huff",
            Violation::NoPieceToStep { .. } => "step",
            Violation::NoPieceToJump { .. } => "jump",
            Violation::Step { .. } => "step",
            Violation::Jump { .. } => "jump",
            Violation::MultiJump { .. } => "multi-jump",
            Violation::KingMove { .. } => "king-move",
            Violation::EmperorMove { .. } => "emperor-move",
            Violation::OwnThrone { .. } => "own-throne",
            Violation::CompulsoryCapture { .. } => "compulsory-capture",
            Violation::ContinueJumps { .. } => "continue-jumps",
            Violation::KingMarker { .. } => "promotion",
            Violation::EmperorMarker { .. } => "emperor",
            Violation::Setup(_) => "setup",
        }
    }
}

fn marker_text(p: Option<Promotion>) -> &'static str {
    match p {
        None => "promotes nobody",
        Some(Promotion::King) => "makes a king (=K)",
        Some(Promotion::Emperor) => "makes an emperor (=E)",
    }
}

/// The message of a hop fault: `rank` moving from `from` to `to` by a jump.
fn hop_fault(
    f: &mut fmt::Formatter<'_>,
    seat: Seat,
    rank: Rank,
    from: Square,
    to: Square,
    fault: Fault,
) -> fmt::Result {
    let r = rank.name();
    match fault {
        Fault::NotShortJump if rank == Rank::Emperor => write!(
            f,
            "an emperor captures only by the short jump: {from}x{to} is not one"
        ),
        Fault::NotShortJump | Fault::NotAdjacent | Fault::NotStraight => write!(
            f,
            "{from}x{to} is not a jump: a jump goes over the next point to the point just beyond, in a straight line"
        ),
        Fault::NoLine => write!(f, "no line of the board runs from {from} to {to}"),
        Fault::Backward => write!(f, "the {r} on {from} cannot jump backward to {to}"),
        Fault::Occupied => write!(f, "the {r} cannot land on {to}: it is not vacant"),
        Fault::NothingToJump(o) => write!(f, "{from}x{to} jumps nothing: {o} is empty"),
        Fault::OwnPiece(o) => write!(
            f,
            "{from}x{to} would jump {}'s own piece on {o}",
            seat_name(seat)
        ),
        Fault::AlreadyJumped(o) => write!(
            f,
            "{from}x{to} jumps the piece on {o} a second time; a piece is jumped once"
        ),
        Fault::Blocked(b) => write!(f, "{from}x{to} is blocked at {b}"),
    }
}

/// The message of a step fault: `rank` moving from `from` to `to` without capture.
fn step_fault(
    f: &mut fmt::Formatter<'_>,
    rank: Rank,
    from: Square,
    to: Square,
    fault: Fault,
) -> fmt::Result {
    let r = rank.name();
    match fault {
        Fault::NotAdjacent if rank == Rank::Man => write!(
            f,
            "the man on {from} can only step to an adjacent point, not to {to}"
        ),
        Fault::NotAdjacent => write!(
            f,
            "a king moves one point at a time: {from}-{to} is not a step"
        ),
        Fault::NotStraight | Fault::NotShortJump => write!(
            f,
            "the {r} on {from} moves in a straight line along the board's lines; {to} is not on one"
        ),
        Fault::NoLine => write!(f, "no line of the board runs from {from} to {to}"),
        Fault::Backward => write!(f, "the man on {from} cannot step backward to {to}"),
        Fault::Occupied => write!(f, "the {r} on {from} cannot move to {to}: it is not vacant"),
        Fault::Blocked(b) => write!(
            f,
            "the emperor's slide from {from} to {to} is blocked at {b}"
        ),
        Fault::NothingToJump(_) | Fault::OwnPiece(_) | Fault::AlreadyJumped(_) => {
            write!(f, "{from}-{to} is not a move of a {r}")
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Violation::GameOver => f.write_str("the game is already over"),
            Violation::EmptyTurn { seat } => write!(
                f,
                "{} must move a piece (a turn without a move is only a winning huff)",
                seat_name(seat)
            ),
            Violation::NoHuffRight { seat, at } => write!(
                f,
                "{} cannot huff {at}: the last turn did not fail to capture, so there is nothing to huff",
                seat_name(seat)
            ),
            Violation::NotHuffable { seat, at } => write!(
                f,
                "{} cannot huff {at}: only a piece that failed to capture may be huffed",
                seat_name(seat)
            ),
            Violation::HuffAlone { at, .. } => write!(
                f,
                "huff {at} does not win the game, so a move must follow it"
            ),
            Violation::MoveAfterWinningHuff { at, .. } => write!(
                f,
                "huff {at} wins the game at once: no move may follow it"
            ),
            Violation::NoPieceToStep { seat, at } => {
                write!(f, "{} has no piece on {at} to move", seat_name(seat))
            }
            Violation::NoPieceToJump { seat, at } => {
                write!(f, "{} has no piece on {at} to jump with", seat_name(seat))
            }
            Violation::Step {
                from, to, fault, ..
            } => step_fault(f, Rank::Man, from, to, fault),
            Violation::Jump {
                seat,
                rank,
                from,
                to,
                fault,
            } => hop_fault(f, seat, rank, from, to, fault),
            Violation::MultiJump {
                seat,
                rank,
                hop,
                from,
                to,
                fault,
            } => {
                write!(f, "jump {hop} of the chain: ")?;
                hop_fault(f, seat, rank, from, to, fault)
            }
            Violation::KingMove {
                seat,
                from,
                to,
                jump,
                fault,
            } => {
                if jump {
                    hop_fault(f, seat, Rank::King, from, to, fault)
                } else {
                    step_fault(f, Rank::King, from, to, fault)
                }
            }
            Violation::EmperorMove {
                seat,
                from,
                to,
                jump,
                fault,
            } => {
                if jump {
                    hop_fault(f, seat, Rank::Emperor, from, to, fault)
                } else {
                    step_fault(f, Rank::Emperor, from, to, fault)
                }
            }
            Violation::OwnThrone { seat, at } => write!(
                f,
                "a man cannot end its turn on {at}, {}'s own throne",
                seat_name(seat)
            ),
            Violation::CompulsoryCapture { seat, from, to } => write!(
                f,
                "{} can capture, so it must: {from}-{to} captures nothing",
                seat_name(seat)
            ),
            Violation::ContinueJumps { rank, ref path, .. } => write!(
                f,
                "the {} must jump on from {}: the chain may not stop while another jump is possible",
                rank.name(),
                path.to()
            ),
            Violation::KingMarker { actual, .. } => {
                write!(f, "=K is wrong: this turn {}", marker_text(actual))
            }
            Violation::EmperorMarker { actual, .. } => {
                write!(f, "=E is wrong: this turn {}", marker_text(actual))
            }
            Violation::Setup(ref fault) => match fault {
                SetupFault::Fields => f.write_str(
                    "a setup is three fields separated by single spaces: the ranks, the seat to move (w or b), and the huffable points (or -)",
                ),
                SetupFault::RankCount { found } => write!(
                    f,
                    "a setup has 7 ranks separated by '/', not {found}"
                ),
                SetupFault::RankLength { rank, points } => write!(
                    f,
                    "rank {rank} of the setup describes {points} points instead of 7"
                ),
                SetupFault::BadChar { rank, ch } => write!(
                    f,
                    "rank {rank} of the setup holds {ch:?}, which is neither a piece (M K E m k e) nor a run of empty points (1-7)"
                ),
                SetupFault::BadRun { rank } => write!(
                    f,
                    "rank {rank} of the setup writes a run of empty points as 0 or as two digits; write one digit 1-7"
                ),
                SetupFault::SeatToMove { found } => write!(
                    f,
                    "the seat to move is w or b, not {found:?}"
                ),
                SetupFault::HuffPoint { text } => write!(
                    f,
                    "{text:?} in the huffable points is not a point of the board"
                ),
                SetupFault::HuffPiece { at, seat } => write!(
                    f,
                    "the huffable point {at} does not hold a piece of {}, the seat not to move",
                    seat_name(*seat)
                ),
                SetupFault::HuffOrder { at } => write!(
                    f,
                    "the huffable points must be sorted by name without repeats; {at} is out of place"
                ),
                SetupFault::HuffDisabled => f.write_str(
                    "this ruleset has no huff (capture is not compulsory-huff), so no point can be huffable",
                ),
                SetupFault::TooMany { seat, count } => write!(
                    f,
                    "{} has {count} pieces in the setup; a seat has at most 22",
                    seat_name(*seat)
                ),
                SetupFault::Empty => f.write_str("the setup has no pieces at all"),
                SetupFault::NoKings { at } => write!(
                    f,
                    "the setup has a king on {at}, but this ruleset has no promotion"
                ),
                SetupFault::NoEmperors { at } => write!(
                    f,
                    "the setup has an emperor on {at}, but this ruleset has no emperors"
                ),
            },
        }
    }
}
