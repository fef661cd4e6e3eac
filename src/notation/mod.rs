//! Notation: the record frame shared by every game (`record.md`) and each game's turn
//! notation, parsed with the pest grammars in `grammar/` into a typed AST with spans.
//! Nothing outside this module touches pest pairs.

pub mod halasi;
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

/// The pair of a game's `turn` rule at the start of an input, or the
/// [`TurnParse::NoTurn`] that says where parsing stopped and what it expected there
/// (`expected` words the rules pest wanted).
pub(crate) fn turn_pair<'i, R: pest::RuleType, T>(
    parsed: Result<pest::iterators::Pairs<'i, R>, pest::error::Error<R>>,
    expected: impl Fn(&[R]) -> String,
) -> Result<pest::iterators::Pair<'i, R>, TurnParse<T>> {
    match parsed {
        Ok(mut pairs) => pairs.next().ok_or_else(|| TurnParse::NoTurn {
            at: 0,
            expected: expected(&[]),
        }),
        Err(err) => {
            let at = match err.location {
                pest::error::InputLocation::Pos(p) => p,
                pest::error::InputLocation::Span((s, _)) => s,
            };
            let expected = match &err.variant {
                pest::error::ErrorVariant::ParsingError { positives, .. } => expected(positives),
                pest::error::ErrorVariant::CustomError { .. } => expected(&[]),
            };
            Err(TurnParse::NoTurn { at, expected })
        }
    }
}

impl<T> TurnParse<T> {
    /// A parsed turn `len` bytes long, or a `BadAddress` when `bad` names the first
    /// address that does not exist (its byte offset and length).
    pub(crate) fn finish(turn: T, len: usize, bad: Option<(usize, usize)>) -> TurnParse<T> {
        match bad {
            Some((at, address_len)) => TurnParse::BadAddress {
                len,
                at,
                address_len,
            },
            None => TurnParse::Turn(turn, len),
        }
    }
}
