//! The Thaayam schema and its typed settings.

use crate::games::Seat;
use crate::ruleset::{Alt, Kind, Ruleset, Schema, SettingSpec, COMMON_RULES};

/// The seats of a Thaayam game: the four at most.
pub type Seats = crate::games::Seats<4>;

/// Seat names in the fixed turn order (clockwise seen from above): the index is the
/// [`Seat`].
pub const SEAT_NAMES: [&str; 4] = ["south", "west", "north", "east"];

/// The dice thrown.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Dice {
    /// `cowries(N)`: N cowries, the throw is the number of mouths up, none counting 8.
    Cowries(u8),
    /// `spinner`: a five-sided spinner 0–4, 0 counting 8.
    Spinner,
}

impl Dice {
    /// Can these dice show `value`?
    pub fn can_show(self, value: u8) -> bool {
        match self {
            Dice::Cowries(n) => value == 8 || (1..=n).contains(&value),
            Dice::Spinner => value == 8 || (1..=4).contains(&value),
        }
    }
    /// One throw from the seed (`record.md` rules 2 and 3).
    pub fn throw(self, dice: &mut crate::dice::Dice) -> u8 {
        let v = match self {
            Dice::Cowries(n) => {
                // By table: the target's baseline has no instruction that counts bits,
                // and its replacement cost a dozen a throw.
                let w = dice.throw(u32::from(n));
                MOUTHS_UP
                    .get(w as usize)
                    .map_or_else(|| w.count_ones(), |&k| u32::from(k))
            }
            Dice::Spinner => dice.uniform(5),
        };
        if v == 0 {
            8
        } else {
            v as u8
        }
    }
}

/// The bits set in each number below 128: the mouths up of up to seven cowries.
const MOUTHS_UP: [u8; 128] = {
    let mut out = [0u8; 128];
    let mut w = 0;
    while w < 128 {
        out[w] = (w as u32).count_ones() as u8;
        w += 1;
    }
    out
};

/// Who starts from the normal start (`first`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum First {
    /// Rule 3: every seat throws once, the highest starts.
    HighestThrow,
    /// This seat starts (or the first playing seat after it).
    Seat(Seat),
}

/// The longest series the seed may throw before it is cut short: only reached when
/// `extra-throws` lists every face the dice can show.
pub const MAX_SERIES: usize = 1000;

/// The typed settings of a Thaayam ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The seats that play, in turn order.
    pub seats: Seats,
    pub first: First,
    pub dice: Dice,
    /// Bit `v` set: a throw of `v` is thrown again after.
    pub extra: u16,
    pub combine: bool,
    pub capture_bonus: bool,
    pub twins: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seats: Seats::of(&[Seat(0), Seat(2)]),
            first: First::HighestThrow,
            dice: Dice::Cowries(4),
            extra: (1 << 1) | (1 << 4) | (1 << 8),
            combine: true,
            capture_bonus: true,
            twins: true,
        }
    }
}

impl Settings {
    /// The playing seats, in turn order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }
    /// The playing seats as a bit mask.
    pub fn mask(&self) -> u8 {
        self.seats.set().0
    }
    /// Does a throw of `value` call for another throw?
    pub fn is_extra(&self, value: u8) -> bool {
        value < 16 && self.extra & (1 << value) != 0
    }

    /// Built from a ruleset already checked against [`SCHEMA`]; anything unexpected
    /// falls back to the default.
    pub fn from_ruleset(ruleset: &Ruleset) -> Settings {
        let d = Settings::default();
        let word = |key: &str| ruleset.value(key).and_then(|v| v.as_word());
        let flag = |key: &str| ruleset.value(key).and_then(|v| v.as_bool());
        let mut seats = d.seats;
        if let Some(words) = ruleset.value("seats").and_then(|v| v.as_words()) {
            let chosen: Vec<Seat> = (0..4u8)
                .filter(|&i| words.contains(&SEAT_NAMES[i as usize]))
                .map(Seat)
                .collect();
            if (2..=4).contains(&chosen.len()) {
                seats = Seats::of(&chosen);
            }
        }
        Settings {
            seats,
            first: match word("first") {
                Some("highest-throw") => First::HighestThrow,
                Some(w) => match SEAT_NAMES.iter().position(|s| *s == w) {
                    Some(i) => First::Seat(Seat(i as u8)),
                    None => d.first,
                },
                None => d.first,
            },
            dice: match ruleset.value("dice").and_then(|v| v.as_choice()) {
                Some(("spinner", None)) => Dice::Spinner,
                Some(("cowries", Some(k))) if (2..=7).contains(&k) => Dice::Cowries(k as u8),
                _ => d.dice,
            },
            extra: match ruleset.value("extra-throws").and_then(|v| v.as_ints()) {
                Some(list) => list
                    .into_iter()
                    .filter(|v| (1..=8).contains(v))
                    .fold(0, |m, v| m | (1 << v)),
                None => d.extra,
            },
            combine: flag("combine-throws").unwrap_or(d.combine),
            capture_bonus: flag("capture-bonus").unwrap_or(d.capture_bonus),
            twins: flag("twins").unwrap_or(d.twins),
        }
    }
}

/// Every rule id the module cites, in the spec's order, then its own, then the common ids.
const RULES: &[&str] = &[
    "enter",
    "move",
    "combine-throws",
    "keep-exact",
    "discard",
    "use-all",
    "one-move",
    "capture",
    "safe-square",
    "extra-turn",
    "twins",
    "twins-capture",
    "twins-keep",
    "bear-off",
    "win",
    "throws",
    "first",
    COMMON_RULES[0],
    COMMON_RULES[1],
    COMMON_RULES[2],
    COMMON_RULES[3],
];

/// The Thaayam module's declaration.
pub static SCHEMA: Schema = Schema {
    game: "thaayam",
    settings: &[
        SettingSpec {
            key: "seats",
            kind: Kind::WordList {
                allowed: &["south", "east", "north", "west"],
                min: 2,
                max: 4,
            },
            default: "[south north]",
            description: "The seats that play (2 to 4); they always play clockwise: south, west, north, east.",
        },
        SettingSpec {
            key: "first",
            kind: Kind::Choice(&[
                Alt::Word("highest-throw"),
                Alt::Word("south"),
                Alt::Word("west"),
                Alt::Word("north"),
                Alt::Word("east"),
            ]),
            default: "highest-throw",
            description: "Who starts: the highest starting throw (rule 3), or a seat.",
        },
        SettingSpec {
            key: "numbering",
            kind: Kind::Choice(&[Alt::Word("turns")]),
            default: "turns",
            description: "Every turn, extra turns included, has its own number.",
        },
        SettingSpec {
            key: "dice",
            kind: Kind::Choice(&[
                Alt::Call {
                    name: "cowries",
                    min: 2,
                    max: 7,
                },
                Alt::Word("spinner"),
            ]),
            default: "cowries(4)",
            description: "N cowries (mouths up; none counts 8), or a spinner 0-4 (0 counts 8).",
        },
        SettingSpec {
            key: "extra-throws",
            kind: Kind::IntList { min: 1, max: 8 },
            default: "[1 4 8]",
            description: "Throws after which the seat throws again; a series ends with any other.",
        },
        SettingSpec {
            key: "combine-throws",
            kind: Kind::Bool,
            default: "true",
            description: "A piece may move by the sum of several throws (false: one throw a move).",
        },
        SettingSpec {
            key: "capture-bonus",
            kind: Kind::Bool,
            default: "true",
            description: "A seat that captured plays another whole turn.",
        },
        SettingSpec {
            key: "twins",
            kind: Kind::Bool,
            default: "true",
            description: "Two pieces on the opposite palace may be declared twins.",
        },
    ],
    rules: RULES,
    rule_settings: &[
        ("combine-throws", "combine-throws"),
        ("extra-turn", "capture-bonus"),
        ("twins", "twins"),
        ("twins-capture", "twins"),
        ("twins-keep", "twins"),
        ("throws", "extra-throws"),
        ("first", "first"),
    ],
};
