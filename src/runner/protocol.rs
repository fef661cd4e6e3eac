//! The bot protocol, version 1: the messages between the runner and a bot, one JSON
//! object a line each way (`docs/guide/bots.md` is the reference for bot writers).
//!
//! The runner writes [`ToBot`] messages on the bot's standard input; the bot answers
//! [`FromBot`] messages on its standard output. Every message has a `type`. Fields a
//! side does not know are ignored, so a later version may add fields without breaking a
//! bot written for this one; a change that would break one raises [`VERSION`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The protocol's version, sent in every `hello`.
pub const VERSION: u32 = 1;

/// The longest line the runner reads from a bot; a longer one is a protocol error (the
/// runner does not hold it in memory).
pub const MAX_LINE: usize = 64 * 1024;

/// A message from the runner to a bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToBot {
    /// The first message of a game: what is played and which seat the bot has. The bot
    /// answers `ready`.
    Hello(Hello),
    /// The bot's seat is to move: the bot answers one `turn`.
    Play(Play),
    /// The game is over (or the bot forfeited it): no answer is expected.
    Over(Over),
    /// The bot should exit now; it is killed after a grace period.
    Quit,
    /// The bot's last line was not understood; the message says why. The bot has
    /// forfeited the game, and an `over` follows.
    Error { message: String },
}

/// `hello`: the game a bot is about to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hello {
    /// [`VERSION`].
    pub protocol: u32,
    /// The game module: `halatafl`, `thaayam`, `halves` or `halasi`.
    pub game: String,
    /// The ruleset's name (`halatafl-emperor`).
    pub ruleset: String,
    /// Every setting of the ruleset in force, by key, its value as a ruleset writes it.
    pub settings: BTreeMap<String, String>,
    /// The seats that play, in turn order.
    pub seats: Vec<String>,
    /// The bot's seat.
    pub seat: String,
    /// The start position in the game's setup notation, where it is not the game's
    /// normal start (a layout or first seat drawn from the game's seed); `null` otherwise.
    /// With it and the turns of each `play`, a record without a seed replays the game.
    pub setup: Option<String>,
    /// The SHA-256 of the game's seed (lowercase hex): the seed itself comes only in
    /// `over`, inside the record, so the dice can be checked afterwards.
    pub seed_commit: String,
    /// The clock: how long the bot may think.
    pub clock: Clock,
}

/// How long a bot may think, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Time left on the bot's clock for the rest of the game, before this turn's
    /// increment; `null` without a game clock.
    pub left_ms: Option<u64>,
    /// Added to the bot's clock after each of its turns.
    pub increment_ms: u64,
    /// The most one turn may take; `null` without a limit per turn.
    pub movetime_ms: Option<u64>,
}

/// `play`: the bot's seat is to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Play {
    /// Every turn played so far, in order, each as `seat: turn`, written in full (with
    /// its random outcome), as a record without a seed writes it.
    pub turns: Vec<String>,
    /// The seat to move (the bot's).
    pub seat: String,
    /// The random outcome opening this turn (Thaayam's throws, Halasi's roll and draw or
    /// buy-in), as the notation writes it; `null` where the turn opens with none.
    pub random: Option<String>,
    /// Every legal turn, written in full, when the bot asked for them in `ready`;
    /// `null` otherwise.
    pub legal: Option<Vec<String>>,
    /// Whether `legal` holds every legal turn (false where a listing is bounded, as
    /// Halasi's runs are: then `legal` holds the first [`LEGAL_LISTED`] in the game's
    /// order, and other legal turns are accepted too).
    pub legal_complete: Option<bool>,
    /// The clock now.
    pub clock: Clock,
}

/// The most legal turns a `play` lists.
pub const LEGAL_LISTED: usize = 2000;

/// `over`: how the game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Over {
    /// As the record's `Result` tag: the winning seats, `draw`, or `none`.
    pub result: String,
    /// As the record's `Termination` tag.
    pub termination: String,
    /// Why, in words, where the game did not end by its rules (a forfeit, the turn
    /// limit).
    pub reason: Option<String>,
    /// The whole record, its seed included.
    pub record: String,
}

/// A message from a bot to the runner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FromBot {
    /// The answer to `hello`.
    Ready {
        /// The bot's name, for the records and reports (the runner names it by its
        /// `--bot NAME=` in any case).
        name: String,
        /// Send the legal turns in every `play`.
        #[serde(default)]
        legal: bool,
    },
    /// The answer to `play`: one turn in the game's notation (`resign` and `draw` are
    /// turns too), without a number; a seat label, if written, must be the bot's.
    Turn { turn: String },
}

impl ToBot {
    /// The message as one line, without the newline.
    pub fn line(&self) -> String {
        serde_json::to_string(self).expect("protocol messages serialize")
    }
}

impl FromBot {
    /// Reads a bot's line, or says why it is not a message.
    pub fn read(line: &str) -> Result<FromBot, String> {
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("not a JSON object: {e} (the line: {})", clip(line)))?;
        if !value.is_object() {
            return Err(format!("not a JSON object: {}", clip(line)));
        }
        let kind = value
            .get("type")
            .and_then(|t| t.as_str())
            .map(str::to_string);
        match kind.as_deref() {
            None => Err("a message needs a \"type\" (\"ready\" or \"turn\")".into()),
            Some(t @ ("ready" | "turn")) => serde_json::from_value(value)
                .map_err(|e| format!("a \"{t}\" message that does not fit: {e}")),
            Some(other) => Err(format!(
                "unknown message type \"{}\" (a bot sends \"ready\" or \"turn\")",
                clip(other)
            )),
        }
    }
}

/// A bot's text as an error message quotes it: clipped and escaped.
pub fn clip(text: &str) -> String {
    crate::quote::quote(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_tagged_by_type_in_kebab_case() {
        let over = ToBot::Over(Over {
            result: "white".into(),
            termination: "normal".into(),
            reason: None,
            record: "[Game \"halatafl\"]\n".into(),
        });
        assert_eq!(
            over.line(),
            r#"{"type":"over","result":"white","termination":"normal","reason":null,"record":"[Game \"halatafl\"]\n"}"#
        );
        assert_eq!(ToBot::Quit.line(), r#"{"type":"quit"}"#);
    }

    #[test]
    fn a_bot_message_is_read_leniently_but_never_guessed() {
        assert_eq!(
            FromBot::read(r#"{"type":"ready","name":"rb","extra":1}"#),
            Ok(FromBot::Ready {
                name: "rb".into(),
                legal: false
            })
        );
        assert_eq!(
            FromBot::read(r#"{"type":"turn","turn":"e3-d4"}"#),
            Ok(FromBot::Turn {
                turn: "e3-d4".into()
            })
        );
        let e = FromBot::read("e3-d4").unwrap_err();
        assert!(e.starts_with("not a JSON object"), "{e}");
        let e = FromBot::read(r#"{"turn":"e3-d4"}"#).unwrap_err();
        assert!(e.contains("needs a \"type\""), "{e}");
        let e = FromBot::read(r#"{"type":"move","turn":"e3-d4"}"#).unwrap_err();
        assert!(e.contains("unknown message type \"move\""), "{e}");
        let e = FromBot::read(r#"{"type":"turn"}"#).unwrap_err();
        assert!(e.contains("\"turn\" message that does not fit"), "{e}");
        let e = FromBot::read("[1,2]").unwrap_err();
        assert!(e.starts_with("not a JSON object"), "{e}");
    }

    #[test]
    fn long_text_is_clipped_in_messages() {
        let long = "x".repeat(500);
        let clipped = clip(&long);
        assert!(
            clipped.chars().count() < 100 && clipped.contains('…'),
            "{clipped}"
        );
        assert_eq!(clip("short"), "short");
    }
}
