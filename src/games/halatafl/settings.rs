//! The Halatafl schema and its typed settings.

use super::geometry::{Geometry, GEOMETRY};
use crate::games::Seat;
use crate::ruleset::{Alt, Kind, Ruleset, Schema, SettingSpec, COMMON_RULES};

/// Which diagonal lines the board has.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Diagonals {
    /// Only the two long diagonals a1–g7 and a7–g1.
    Main,
    /// A diagonal line through every point whose file + rank is even.
    Alquerque,
    /// No diagonal lines.
    None,
}

/// Which directions men move and capture in.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Men {
    /// Orthogonally forward or sideways, diagonally forward along diagonal lines.
    ForwardSideways,
    /// Any direction along the lines.
    Any,
}

/// What happens to a turn that fails to capture.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Capture {
    /// Legal, and the opponent may huff.
    CompulsoryHuff,
    /// Illegal.
    Compulsory,
    /// Starting a capture is optional.
    Optional,
}

/// Whether a chain must go on while the piece can still jump.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ContinueJumps {
    Compulsory,
    Optional,
}

/// The win condition.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Win {
    /// A seat with no pieces left loses.
    CaptureAll,
    /// A seat that reduces its opponent to N pieces or fewer wins.
    ReduceTo(u8),
    /// A seat with pieces on N of the enemy thrones at the end of its turn wins.
    Thrones(u8),
}

/// What a seat with no legal turn gets.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum NoMoves {
    Loses,
    Draw,
}

/// How turn numbers count.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Numbering {
    Rounds,
    Turns,
}

/// The typed settings of a Halatafl ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The seat that moves first from the normal start.
    pub first: Seat,
    pub numbering: Numbering,
    pub diagonals: Diagonals,
    pub men: Men,
    pub capture: Capture,
    pub continue_jumps: ContinueJumps,
    pub promotion: bool,
    pub emperor: bool,
    pub win: Win,
    /// Rounds without capture, huff or promotion before a draw; 0 = off.
    pub quiet_limit: u32,
    pub no_moves: NoMoves,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            first: Seat(0),
            numbering: Numbering::Rounds,
            diagonals: Diagonals::Main,
            men: Men::ForwardSideways,
            capture: Capture::CompulsoryHuff,
            continue_jumps: ContinueJumps::Compulsory,
            promotion: true,
            emperor: false,
            win: Win::CaptureAll,
            quiet_limit: 0,
            no_moves: NoMoves::Loses,
        }
    }
}

impl Settings {
    /// The lines and directions of these settings.
    #[inline]
    pub(crate) fn geo(&self) -> &'static Geometry {
        let d = match self.diagonals {
            Diagonals::Main => 0,
            Diagonals::Alquerque => 1,
            Diagonals::None => 2,
        };
        let m = match self.men {
            Men::ForwardSideways => 0,
            Men::Any => 1,
        };
        &GEOMETRY[d][m]
    }

    /// May a chain stop at any point (every prefix ending on a legal stop is a legal
    /// turn)? True when chains may stop early, or stopping early is legal but huffable.
    #[inline]
    pub(crate) fn chains_may_stop(&self) -> bool {
        self.continue_jumps == ContinueJumps::Optional || self.capture == Capture::CompulsoryHuff
    }

    /// Built from a ruleset already checked against [`SCHEMA`]; anything unexpected
    /// falls back to the default.
    pub fn from_ruleset(ruleset: &Ruleset) -> Settings {
        let d = Settings::default();
        let word = |key: &str| ruleset.value(key).and_then(|v| v.as_word());
        let flag = |key: &str| ruleset.value(key).and_then(|v| v.as_bool());
        Settings {
            first: match word("first") {
                Some("black") => Seat(1),
                Some("white") => Seat(0),
                _ => d.first,
            },
            numbering: match word("numbering") {
                Some("rounds") => Numbering::Rounds,
                Some("turns") => Numbering::Turns,
                _ => d.numbering,
            },
            diagonals: match word("diagonals") {
                Some("main") => Diagonals::Main,
                Some("alquerque") => Diagonals::Alquerque,
                Some("none") => Diagonals::None,
                _ => d.diagonals,
            },
            men: match word("men") {
                Some("forward-sideways") => Men::ForwardSideways,
                Some("any") => Men::Any,
                _ => d.men,
            },
            capture: match word("capture") {
                Some("compulsory-huff") => Capture::CompulsoryHuff,
                Some("compulsory") => Capture::Compulsory,
                Some("optional") => Capture::Optional,
                _ => d.capture,
            },
            continue_jumps: match word("continue-jumps") {
                Some("compulsory") => ContinueJumps::Compulsory,
                Some("optional") => ContinueJumps::Optional,
                _ => d.continue_jumps,
            },
            promotion: flag("promotion").unwrap_or(d.promotion),
            emperor: flag("emperor").unwrap_or(d.emperor),
            win: match ruleset.value("win").and_then(|v| v.as_choice()) {
                Some(("capture-all", None)) => Win::CaptureAll,
                Some(("reduce-to", Some(n))) if (0..=21).contains(&n) => Win::ReduceTo(n as u8),
                Some(("thrones", Some(n))) if (1..=2).contains(&n) => Win::Thrones(n as u8),
                _ => d.win,
            },
            quiet_limit: match ruleset.value("quiet-limit").and_then(|v| v.as_int()) {
                Some(n) if (0..=10_000).contains(&n) => n as u32,
                _ => d.quiet_limit,
            },
            no_moves: match word("no-moves") {
                Some("loses") => NoMoves::Loses,
                Some("draw") => NoMoves::Draw,
                _ => d.no_moves,
            },
        }
    }
}

const RULES: &[&str] = &[
    "step",
    "jump",
    "multi-jump",
    "continue-jumps",
    "compulsory-capture",
    "huff",
    "own-throne",
    "promotion",
    "king-move",
    "emperor",
    "emperor-move",
    "win-capture-all",
    "win-reduce-to",
    "win-thrones",
    "no-moves",
    "quiet-limit",
    COMMON_RULES[0],
    COMMON_RULES[1],
    COMMON_RULES[2],
    COMMON_RULES[3],
];

/// The Halatafl module's declaration.
pub static SCHEMA: Schema = Schema {
    game: "halatafl",
    settings: &[
        SettingSpec {
            key: "seats",
            kind: Kind::WordList {
                allowed: &["white", "black"],
                min: 2,
                max: 2,
            },
            default: "[white black]",
            description: "The seats that play: always white and black.",
        },
        SettingSpec {
            key: "first",
            kind: Kind::Choice(&[Alt::Word("white"), Alt::Word("black")]),
            default: "white",
            description: "The seat that moves first from the normal start.",
        },
        SettingSpec {
            key: "numbering",
            kind: Kind::Choice(&[Alt::Word("rounds"), Alt::Word("turns")]),
            default: "rounds",
            description: "Turn numbers count rounds (`7...` for black) or every turn.",
        },
        SettingSpec {
            key: "diagonals",
            kind: Kind::Choice(&[Alt::Word("main"), Alt::Word("alquerque"), Alt::Word("none")]),
            default: "main",
            description: "Diagonal lines: the two long diagonals, alquerque's, or none.",
        },
        SettingSpec {
            key: "men",
            kind: Kind::Choice(&[Alt::Word("forward-sideways"), Alt::Word("any")]),
            default: "forward-sideways",
            description: "Men move and capture forward or sideways only, or in any direction.",
        },
        SettingSpec {
            key: "capture",
            kind: Kind::Choice(&[
                Alt::Word("compulsory-huff"),
                Alt::Word("compulsory"),
                Alt::Word("optional"),
            ]),
            default: "compulsory-huff",
            description: "A turn that fails to capture may be huffed, is illegal, or is allowed.",
        },
        SettingSpec {
            key: "continue-jumps",
            kind: Kind::Choice(&[Alt::Word("compulsory"), Alt::Word("optional")]),
            default: "compulsory",
            description: "A chain must go on while the piece can still jump, or may stop.",
        },
        SettingSpec {
            key: "promotion",
            kind: Kind::Bool,
            default: "true",
            description: "A man landing on an enemy throne becomes a king.",
        },
        SettingSpec {
            key: "emperor",
            kind: Kind::Bool,
            default: "false",
            description: "A king landing on its own throne becomes an emperor that slides.",
        },
        SettingSpec {
            key: "win",
            kind: Kind::Choice(&[
                Alt::Word("capture-all"),
                Alt::Call {
                    name: "reduce-to",
                    min: 0,
                    max: 21,
                },
                Alt::Call {
                    name: "thrones",
                    min: 1,
                    max: 2,
                },
            ]),
            default: "capture-all",
            description:
                "Win by taking every piece, reducing the opponent to N, or holding N enemy thrones.",
        },
        SettingSpec {
            key: "quiet-limit",
            kind: Kind::Int {
                min: 0,
                max: 10_000,
            },
            default: "0",
            description:
                "A draw after this many rounds without capture, huff or promotion (0 = off).",
        },
        SettingSpec {
            key: "no-moves",
            kind: Kind::Choice(&[Alt::Word("loses"), Alt::Word("draw")]),
            default: "loses",
            description: "A seat with no legal turn loses, or the game is drawn.",
        },
    ],
    rules: RULES,
    rule_settings: &[
        ("compulsory-capture", "capture"),
        ("huff", "capture"),
        ("continue-jumps", "continue-jumps"),
        ("step", "men"),
        ("jump", "men"),
        ("king-move", "promotion"),
        ("promotion", "promotion"),
        ("emperor", "emperor"),
        ("emperor-move", "emperor"),
        ("win-capture-all", "win"),
        ("win-reduce-to", "win"),
        ("win-thrones", "win"),
        ("quiet-limit", "quiet-limit"),
        ("no-moves", "no-moves"),
    ],
};
