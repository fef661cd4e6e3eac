//! The Halves schema and its typed settings.

use crate::games::Seat;
use crate::ruleset::{Alt, Kind, Ruleset, Schema, SettingSpec, COMMON_RULES};

/// The seats of a Halves game: white, black and red at most.
pub type Seats = crate::games::Seats<3>;

/// Every seat the game knows, in turn order.
pub const SEAT_NAMES: [&str; 3] = ["white", "black", "red"];

/// How the tiles come onto the table.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Start {
    /// All tiles laid at random in one group (from the seed, or written in `Setup`).
    Random,
    /// One tile each to start, then the seats place tiles in turn.
    Manual,
}

/// Which tiles a placement must touch besides the count.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Touch {
    /// At least one touched tile is an enemy's.
    Enemy,
    /// Any colour will do.
    Any,
}

/// The win rule.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Win {
    /// The first seat with no tiles left wins.
    FirstOut,
    /// A seat with no tiles left is out; the last seat with tiles wins.
    LastStanding,
}

/// Which group survives a split.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Keep {
    /// The largest; the mover chooses among equal largest.
    Largest,
    /// The mover chooses.
    Chosen,
    /// The one with most of the mover's tiles; the mover chooses among ties.
    MostFriendly,
}

impl Keep {
    pub fn word(self) -> &'static str {
        match self {
            Keep::Largest => "largest",
            Keep::Chosen => "chosen",
            Keep::MostFriendly => "most-friendly",
        }
    }
}

/// The most tiles one seat can have (three seats of 21 fill the 63 tiles a position
/// holds).
pub const MAX_TILES_EACH: u8 = 21;

/// The typed settings of a Halves ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The seats that play, in turn order (white, black, red).
    pub seats: Seats,
    pub tiles_each: u8,
    pub start: Start,
    /// A contract after the waxing (only ever applied with two seats).
    pub contract: bool,
    pub win: Win,
    /// How many tiles a placed tile must touch (1 or 2).
    pub must_touch: u8,
    pub touch: Touch,
    /// How many empty neighbouring cells a removed tile must have (0-6).
    pub free_edges: u8,
    pub keep: Keep,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seats: Seats::of(&[Seat(0), Seat(1)]),
            tiles_each: 12,
            start: Start::Random,
            contract: true,
            win: Win::FirstOut,
            must_touch: 1,
            touch: Touch::Enemy,
            free_edges: 0,
            keep: Keep::Largest,
        }
    }
}

impl Settings {
    /// Is there a contract in this game (two seats and `contract = true`)?
    pub fn has_contract(&self) -> bool {
        self.contract && self.seats.len() == 2
    }

    /// The first seat in turn order (white).
    pub fn first(&self) -> Seat {
        self.seats.first().copied().unwrap_or(Seat(0))
    }

    /// Built from a ruleset already checked against [`SCHEMA`]; anything unexpected
    /// falls back to the default.
    pub fn from_ruleset(ruleset: &Ruleset) -> Settings {
        let d = Settings::default();
        let word = |key: &str| ruleset.value(key).and_then(|v| v.as_word());
        let int = |key: &str| ruleset.value(key).and_then(|v| v.as_int());
        // The game fixes the turn order: white, black, red.
        let mut seats = ruleset
            .value("seats")
            .and_then(|v| v.as_words())
            .map(|ws| {
                let named: Vec<Seat> = ws
                    .iter()
                    .filter_map(|w| SEAT_NAMES.iter().position(|n| n == w))
                    .map(|i| Seat(i as u8))
                    .collect();
                Seats::of(&named)
            })
            .unwrap_or(d.seats);
        if seats.len() < 2 {
            seats = d.seats;
        }
        Settings {
            seats,
            tiles_each: match int("tiles-each") {
                Some(n) if (1..=i64::from(MAX_TILES_EACH)).contains(&n) => n as u8,
                _ => d.tiles_each,
            },
            start: match word("start") {
                Some("manual") => Start::Manual,
                Some("random") => Start::Random,
                _ => d.start,
            },
            contract: ruleset
                .value("contract")
                .and_then(|v| v.as_bool())
                .unwrap_or(d.contract),
            win: match word("win") {
                Some("first-out") => Win::FirstOut,
                Some("last-standing") => Win::LastStanding,
                _ => d.win,
            },
            must_touch: match int("must-touch") {
                Some(n @ 1..=2) => n as u8,
                _ => d.must_touch,
            },
            touch: match word("touch") {
                Some("enemy") => Touch::Enemy,
                Some("any") => Touch::Any,
                _ => d.touch,
            },
            free_edges: match int("free-edges") {
                Some(n @ 0..=6) => n as u8,
                _ => d.free_edges,
            },
            keep: match word("keep") {
                Some("largest") => Keep::Largest,
                Some("chosen") => Keep::Chosen,
                Some("most-friendly") => Keep::MostFriendly,
                _ => d.keep,
            },
        }
    }
}

const RULES: &[&str] = &[
    "place",
    "must-touch",
    "touch-enemy",
    "contract",
    "remove-own",
    "free-edges",
    "split-keep",
    "keep-choice",
    "pass",
    "dead-position",
    "win-first-out",
    "win-last-standing",
    COMMON_RULES[0],
    COMMON_RULES[1],
    COMMON_RULES[2],
    COMMON_RULES[3],
];

/// The Halves module's declaration.
pub static SCHEMA: Schema = Schema {
    game: "halves",
    settings: &[
        SettingSpec {
            key: "seats",
            kind: Kind::WordList {
                allowed: &["white", "black", "red"],
                min: 2,
                max: 3,
            },
            default: "[white black]",
            description: "The seats that play; turn order is always white, black, red.",
        },
        SettingSpec {
            key: "first",
            kind: Kind::Choice(&[Alt::Word("white")]),
            default: "white",
            description: "White places and removes first (the rules fix it).",
        },
        SettingSpec {
            key: "numbering",
            kind: Kind::Choice(&[Alt::Word("turns")]),
            default: "turns",
            description: "Every turn has its own number, the contract included.",
        },
        SettingSpec {
            key: "tiles-each",
            kind: Kind::Int {
                min: 1,
                max: MAX_TILES_EACH as i64,
            },
            default: "12",
            description: "How many tiles each seat has (-tiles_each).",
        },
        SettingSpec {
            key: "start",
            kind: Kind::Choice(&[Alt::Word("random"), Alt::Word("manual")]),
            default: "random",
            description:
                "All tiles laid at random, or placed in turn from one each (-manual_start).",
        },
        SettingSpec {
            key: "contract",
            kind: Kind::Bool,
            default: "true",
            description:
                "With two seats, white's player chooses a colour after the waxing (-no_contract).",
        },
        SettingSpec {
            key: "win",
            kind: Kind::Choice(&[Alt::Word("first-out"), Alt::Word("last-standing")]),
            default: "first-out",
            description: "The first seat with no tiles wins, or the last with tiles (-invert_win).",
        },
        SettingSpec {
            key: "must-touch",
            kind: Kind::Int { min: 1, max: 2 },
            default: "1",
            description: "A placed tile touches at least this many tiles (-must_touch).",
        },
        SettingSpec {
            key: "touch",
            kind: Kind::Choice(&[Alt::Word("enemy"), Alt::Word("any")]),
            default: "enemy",
            description:
                "A placed tile must touch an enemy tile, or any tile (-touch_enemy, -touch_any).",
        },
        SettingSpec {
            key: "free-edges",
            kind: Kind::Int { min: 0, max: 6 },
            default: "0",
            description:
                "A removed tile has at least this many empty neighbouring cells (-free_edges).",
        },
        SettingSpec {
            key: "keep",
            kind: Kind::Choice(&[
                Alt::Word("largest"),
                Alt::Word("chosen"),
                Alt::Word("most-friendly"),
            ]),
            default: "largest",
            description:
                "Which group survives a split (-keep_largest, -keep_chosen, -keep_most_friendly).",
        },
    ],
    rules: RULES,
    rule_settings: &[
        ("place", "start"),
        ("must-touch", "must-touch"),
        ("touch-enemy", "touch"),
        ("contract", "contract"),
        ("free-edges", "free-edges"),
        ("split-keep", "keep"),
        ("keep-choice", "keep"),
        ("win-first-out", "win"),
        ("win-last-standing", "win"),
    ],
};
