//! Notation: the record frame shared by every game (`record.md`) and each game's turn
//! notation, parsed with the pest grammars in `grammar/` into a typed AST with spans.
//! Nothing outside this module touches pest pairs.

pub mod halatafl;
pub mod halves;
pub mod record;
pub mod thaayam;

/// The record header as a game sees it: the tags, for the few games that read one
/// (Thaayam's `First`).
pub trait Tags {
    fn tag(&self, name: &str) -> Option<&str>;
}

/// The result of parsing one turn at the start of an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnParse<T> {
    /// A turn `len` bytes long.
    Turn(T, usize),
    /// A well-formed turn (`len` bytes) naming a point that does not exist, at byte
    /// `at` for `address_len` bytes (`h9`): rule `address`.
    BadAddress {
        len: usize,
        at: usize,
        address_len: usize,
    },
    /// No turn of this game starts here; `at` is how far the parser got and `expected`
    /// says what it wanted there.
    NoTurn { at: usize, expected: String },
}
