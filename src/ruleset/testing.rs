//! The Halatafl schema as the game module declares it (`halatafl.md`), for tests of the
//! ruleset layer, which may not import `crate::games`.

use super::schema::{Alt, Kind, Schema, SettingSpec};

const SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        key: "seats",
        kind: Kind::WordList {
            allowed: &["white", "black"],
            min: 2,
            max: 2,
        },
        default: "[white black]",
        description: "the seats that play, in turn order",
    },
    SettingSpec {
        key: "first",
        kind: Kind::Choice(&[Alt::Word("white"), Alt::Word("black")]),
        default: "white",
        description: "the seat that starts",
    },
    SettingSpec {
        key: "numbering",
        kind: Kind::Choice(&[Alt::Word("rounds"), Alt::Word("turns")]),
        default: "rounds",
        description: "turn numbers count rounds or turns",
    },
    SettingSpec {
        key: "diagonals",
        kind: Kind::Choice(&[Alt::Word("main"), Alt::Word("alquerque"), Alt::Word("none")]),
        default: "main",
        description: "which diagonal lines the board has",
    },
    SettingSpec {
        key: "men",
        kind: Kind::Choice(&[Alt::Word("forward-sideways"), Alt::Word("any")]),
        default: "forward-sideways",
        description: "the directions a man steps and jumps",
    },
    SettingSpec {
        key: "capture",
        kind: Kind::Choice(&[
            Alt::Word("compulsory-huff"),
            Alt::Word("compulsory"),
            Alt::Word("optional"),
        ]),
        default: "compulsory-huff",
        description: "what happens to a turn that fails to capture",
    },
    SettingSpec {
        key: "continue-jumps",
        kind: Kind::Choice(&[Alt::Word("compulsory"), Alt::Word("optional")]),
        default: "compulsory",
        description: "whether a chain must go on while the piece can jump",
    },
    SettingSpec {
        key: "promotion",
        kind: Kind::Bool,
        default: "true",
        description: "a man on an enemy throne becomes a king",
    },
    SettingSpec {
        key: "emperor",
        kind: Kind::Bool,
        default: "false",
        description: "a king on its own throne becomes an emperor",
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
        description: "how a seat wins",
    },
    SettingSpec {
        key: "quiet-limit",
        kind: Kind::Int { min: 0, max: 10000 },
        default: "0",
        description: "a draw after this many rounds without capture (0: off)",
    },
    SettingSpec {
        key: "no-moves",
        kind: Kind::Choice(&[Alt::Word("loses"), Alt::Word("draw")]),
        default: "loses",
        description: "a seat with no legal turn loses, or the game is drawn",
    },
];

pub(crate) const RULE_IDS: &[&str] = &[
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
    "turn-order",
    "game-over",
    "setup",
    "address",
];

pub(crate) static HALATAFL: Schema = Schema {
    game: "halatafl",
    settings: SETTINGS,
    rules: RULE_IDS,
    rule_settings: &[
        ("step", "men"),
        ("compulsory-capture", "capture"),
        ("huff", "capture"),
        ("continue-jumps", "continue-jumps"),
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

/// The resolver tests pass to the loader: Halatafl (this module's copy) and the other
/// shipped games' own schemas, so the shipped rulesets all load.
pub(crate) fn schemas(game: &str) -> Option<&'static Schema> {
    match game {
        "halatafl" => Some(&HALATAFL),
        "thaayam" => Some(&crate::games::thaayam::SCHEMA),
        _ => None,
    }
}
