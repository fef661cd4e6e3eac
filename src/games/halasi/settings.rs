//! The Halasi schema and its typed settings. Every value of the spec's reconstruction is
//! a setting.

use std::sync::{Arc, LazyLock};

use super::markings::Relation;
use super::tiles::{self, TileSet};
use crate::games::Seat;
use crate::ruleset::{Alt, Kind, Origin, Ruleset, Schema, SettingSpec, COMMON_RULES};

/// Seats `a`…`f`.
pub const SEAT_NAMES: [&str; 6] = ["a", "b", "c", "d", "e", "f"];

/// The table game or solitaire.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Mode {
    Table,
    Solitaire,
}

/// What a domino of a run must match (`match-required`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum MatchRequired {
    /// The same symbol.
    Same,
    /// The same symbol or the same suit.
    Kin,
    /// Anything: no match is needed.
    Any,
}

impl MatchRequired {
    /// Does a relation satisfy the requirement?
    pub fn met_by(self, r: Relation) -> bool {
        match self {
            MatchRequired::Same => r == Relation::Same,
            MatchRequired::Kin => r <= Relation::Kin,
            MatchRequired::Any => true,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            MatchRequired::Same => "self",
            MatchRequired::Kin => "kin",
            MatchRequired::Any => "any",
        }
    }
}

/// The scoring table: points by relation, for a foundation or adjoining half, and for
/// the other half of the same domino; and the points for each domino placed.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Scores {
    pub adjoining: [i64; 5],
    pub same_domino: [i64; 5],
    pub placement: i64,
}

/// The path score: per domino on an announced route, per distinct market linked, and
/// once when the mover's home is among them.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct RoutePoints {
    pub domino: i64,
    pub market: i64,
    pub home: i64,
}

/// The typed settings of a Halasi ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub mode: Mode,
    /// The seats that play, in seat order (`a` first). Solitaire: `a` alone.
    pub seats: Vec<Seat>,
    pub tiles: Arc<TileSet>,
    pub territory_fee: i64,
    pub domino_fee: i64,
    pub purse: i64,
    /// Domino sets per seat (solitaire: in all).
    pub domino_sets: u8,
    pub score: Scores,
    pub route: RoutePoints,
    pub match_required: MatchRequired,
    /// Solitaire with seats other than `a` alone named by the record or the command
    /// line (a `Seats` tag, `Options`, `--option`, `new --seats`): the seats as named,
    /// for the refusal. A ruleset file's or the default `seats` is overridden quietly.
    pub solitaire_seats: Option<String>,
}

/// The shipped standard tile set, built into the binary.
pub static STANDARD: LazyLock<Arc<TileSet>> = LazyLock::new(|| {
    Arc::new(
        tiles::parse(
            "standard",
            include_str!("../../../rulesets/halasi/standard.yaml"),
        )
        .expect("the shipped standard tile set parses (a test checks it)"),
    )
});

/// Dominos bought at the buy-in, and drawn to open solitaire.
pub const OPENING: usize = 4;
/// Faces of the die.
pub const DIE: u32 = 6;

impl Default for Settings {
    /// The spec's defaults: the table game for `a` and `b` with the standard set.
    fn default() -> Settings {
        Settings::from_ruleset(&Ruleset {
            name: "halasi".into(),
            game: "halasi".into(),
            title: None,
            source: None,
            file: String::new(),
            chain: Vec::new(),
            settings: Default::default(),
            rules: Default::default(),
            texts: Default::default(),
            data: Default::default(),
        })
    }
}

impl Settings {
    /// Built from a ruleset already checked against [`SCHEMA`]; a key it lacks takes
    /// the spec's default.
    pub fn from_ruleset(ruleset: &Ruleset) -> Settings {
        let int = |key: &str, d: i64| ruleset.value(key).and_then(|v| v.as_int()).unwrap_or(d);
        let word = |key: &str| ruleset.value(key).and_then(|v| v.as_word());
        let table = |key: &str, d: [i64; 5]| {
            let mut out = d;
            if let Some(map) = ruleset.value(key).and_then(|v| v.as_int_map()) {
                for (k, v) in map {
                    if let Some(r) = Relation::ALL.iter().find(|r| r.word() == k) {
                        out[r.index()] = v;
                    }
                }
            }
            out
        };
        let mode = match word("mode") {
            Some("solitaire") => Mode::Solitaire,
            _ => Mode::Table,
        };
        let mut seats: Vec<Seat> = ruleset
            .value("seats")
            .and_then(|v| v.as_words())
            .map(|ws| {
                ws.iter()
                    .filter_map(|w| SEAT_NAMES.iter().position(|n| n == w))
                    .map(|i| Seat(i as u8))
                    .collect()
            })
            .unwrap_or_else(|| vec![Seat(0), Seat(1)]);
        // The game fixes the seat order: a, b, c, …
        seats.sort();
        seats.dedup();
        let named_here = matches!(
            ruleset.origin("seats"),
            Some(Origin::CommandLine | Origin::Options(_) | Origin::SeatsTag(_))
        );
        let solitaire_seats = (mode == Mode::Solitaire && named_here && seats != [Seat(0)])
            .then(|| ruleset.value("seats").map(|v| v.to_string()))
            .flatten();
        if mode == Mode::Solitaire {
            seats = vec![Seat(0)];
        }
        Settings {
            mode,
            seats,
            tiles: ruleset
                .data::<TileSet>("tile-set")
                .unwrap_or_else(|| STANDARD.clone()),
            territory_fee: int("territory-fee", 48),
            domino_fee: int("domino-fee", 4),
            purse: int("purse", 1000),
            domino_sets: int("domino-sets", 1).clamp(1, 4) as u8,
            score: Scores {
                adjoining: table("score.adjoining", [3, 2, 1, 0, -2]),
                same_domino: table("score.same-domino", [3, 2, 1, 0, -1]),
                placement: int("score.placement", 1),
            },
            route: RoutePoints {
                domino: int("route.domino", 1),
                market: int("route.market", 1),
                home: int("route.home", 1),
            },
            match_required: match word("match-required") {
                Some("kin") => MatchRequired::Kin,
                Some("any") => MatchRequired::Any,
                _ => MatchRequired::Same,
            },
            solitaire_seats,
        }
    }
}

const RULES: &[&str] = &[
    "phase",
    "home",
    "setup-place",
    "territory-adjacent",
    "territory-buy",
    "roll-and-buy",
    "not-adjacent",
    "covered",
    "from-hand",
    "first-domino",
    "one-run",
    "adjoin",
    "self-match",
    "route",
    "route-new",
    "claim",
    "leave",
    "bank-broken",
    "solitaire-end",
    COMMON_RULES[0],
    COMMON_RULES[1],
    COMMON_RULES[2],
    COMMON_RULES[3],
];

const RELATIONS: &[&str] = &["self", "kin", "ally", "neutral", "opposed"];

/// Parses a tile set file found on the ruleset search path (`halasi/NAME.yaml`) for the
/// `tile-set` setting; the ruleset layer finds and reads the file.
fn load_tile_set(
    name: &str,
    text: &str,
) -> Result<crate::ruleset::DataValue, crate::ruleset::DataError> {
    match tiles::parse(name, text) {
        Ok(set) => Ok(Arc::new(set)),
        Err(e) => Err(crate::ruleset::DataError {
            line: e.line,
            column: e.column,
            message: e.message,
        }),
    }
}

/// The Halasi module's declaration.
pub static SCHEMA: Schema = Schema {
    game: "halasi",
    settings: &[
        SettingSpec {
            key: "seats",
            kind: Kind::WordList {
                allowed: &SEAT_NAMES,
                min: 1,
                max: 6,
            },
            default: "[a b]",
            description: "The seats that play (two to six at the table; solitaire is `a` alone).",
        },
        SettingSpec {
            key: "first",
            kind: Kind::Choice(&[Alt::Word("roll")]),
            default: "roll",
            description: "Setup and play orders come from die rolls (the rules fix it).",
        },
        SettingSpec {
            key: "numbering",
            kind: Kind::Choice(&[Alt::Word("turns")]),
            default: "turns",
            description: "Every turn has its own number, setup turns included.",
        },
        SettingSpec {
            key: "mode",
            kind: Kind::Choice(&[Alt::Word("table"), Alt::Word("solitaire")]),
            default: "table",
            description: "The table game for two to six seats, or solitaire.",
        },
        SettingSpec {
            key: "tile-set",
            kind: Kind::Data {
                folder: "halasi",
                ext: "yaml",
                load: load_tile_set,
            },
            default: "standard",
            description: "The tile set every seat uses (a YAML file in a halasi/ folder).",
        },
        SettingSpec {
            key: "territory-fee",
            kind: Kind::Int { min: 0, max: 1_000_000 },
            default: "48",
            description: "The price of a territory (and the home fee).",
        },
        SettingSpec {
            key: "domino-fee",
            kind: Kind::Int { min: 0, max: 1_000_000 },
            default: "4",
            description: "The price of one domino.",
        },
        SettingSpec {
            key: "purse",
            kind: Kind::Int {
                min: 0,
                max: 1_000_000_000,
            },
            default: "1000",
            description: "Each seat's money at the start (purses may go negative).",
        },
        SettingSpec {
            key: "domino-sets",
            kind: Kind::Int { min: 1, max: 4 },
            default: "1",
            description: "Full domino sets (136 each) per seat; solitaire: in all.",
        },
        SettingSpec {
            key: "score.adjoining",
            kind: Kind::IntMap { keys: RELATIONS },
            default: "{self: 3, kin: 2, ally: 1, neutral: 0, opposed: -2}",
            description: "Points by relation for a half's foundation and adjoining halves.",
        },
        SettingSpec {
            key: "score.same-domino",
            kind: Kind::IntMap { keys: RELATIONS },
            default: "{self: 3, kin: 2, ally: 1, neutral: 0, opposed: -1}",
            description: "Points by relation for the other half of the same domino.",
        },
        SettingSpec {
            key: "score.placement",
            kind: Kind::Int {
                min: -100,
                max: 100,
            },
            default: "1",
            description: "Points for each domino placed.",
        },
        SettingSpec {
            key: "route.domino",
            kind: Kind::Int {
                min: -100,
                max: 100,
            },
            default: "1",
            description: "Points for each domino on an announced route.",
        },
        SettingSpec {
            key: "route.market",
            kind: Kind::Int {
                min: -100,
                max: 100,
            },
            default: "1",
            description: "Points for each distinct market the announced routes link.",
        },
        SettingSpec {
            key: "route.home",
            kind: Kind::Int {
                min: -100,
                max: 100,
            },
            default: "1",
            description: "Points when the mover's home is among the linked markets.",
        },
        SettingSpec {
            key: "match-required",
            kind: Kind::Choice(&[Alt::Word("self"), Alt::Word("kin"), Alt::Word("any")]),
            default: "self",
            description: "Each domino of a run needs a match of this kind with a foundation or an adjoining half.",
        },
        SettingSpec {
            key: "bank-broken",
            kind: Kind::Choice(&[Alt::Word("end")]),
            default: "end",
            description: "When the bank cannot pay in full it pays what it has and the game ends.",
        },
    ],
    rules: RULES,
    rule_settings: &[
        ("self-match", "match-required"),
        ("territory-buy", "territory-fee"),
        ("leave", "domino-fee"),
        ("bank-broken", "bank-broken"),
        ("home", "mode"),
        ("solitaire-end", "mode"),
    ],
};
