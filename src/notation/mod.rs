//! Notation: the record frame shared by every game (`record.md`) and each game's turn
//! notation, parsed with the pest grammars in `grammar/` into a typed AST with spans.
//! Nothing outside this module touches pest pairs.

pub mod halasi;
pub mod halatafl;
pub mod halves;
pub mod record;
pub mod thaayam;

#[cfg(test)]
mod fast_tests;

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

/// A game's `parse_movetext`: its record's movetext read fast, with the same result as
/// [`record::parse_movetext`] reading it one parser run a token. `$fast_turn` reads the
/// game's commonest turns by hand (only where its `turn` rule would read them the same);
/// from the first token it leaves, the rest is one pass of the game's `TurnParser`
/// (composed of `record.pest`, the game's grammar and `movetext.pest`); `$turn_of` turns
/// a `turn` pair into a [`TurnParse`] whose offsets count from the pair's start.
macro_rules! fast_movetext {
    ($turn:ty, $turn_of:path, $parse_turn:path) => {
        $crate::notation::fast_movetext!($turn, |_: &[u8]| None, $turn_of, $parse_turn);
    };
    ($turn:ty, $fast_turn:expr, $turn_of:path, $parse_turn:path) => {
        /// Reads a record's movetext (`span` of `text`): by hand, then in one pass of the
        /// parser from the first token not read by hand.
        pub fn parse_movetext(
            text: &str,
            span: $crate::notation::record::Span,
            limits: &$crate::notation::record::Limits,
        ) -> $crate::notation::record::Movetext<$turn> {
            parse_movetext_into(text, span, limits, None)
        }

        /// [`parse_movetext`], each entry handed to `sink` as it is read where one is
        /// given.
        pub fn parse_movetext_into(
            text: &str,
            span: $crate::notation::record::Span,
            limits: &$crate::notation::record::Limits,
            sink: Option<$crate::notation::record::Sink<'_, $turn>>,
        ) -> $crate::notation::record::Movetext<$turn> {
            use $crate::notation::record::FrameRule;
            let frame = |rule: Rule| match rule {
                Rule::brace_comment => Some(FrameRule::BraceComment),
                Rule::line_comment => Some(FrameRule::LineComment),
                Rule::termination => Some(FrameRule::Termination),
                Rule::turn_number => Some(FrameRule::TurnNumber),
                Rule::seat_label => Some(FrameRule::SeatLabel),
                Rule::common_action => Some(FrameRule::CommonAction),
                Rule::nag => Some(FrameRule::Nag),
                Rule::annotation => Some(FrameRule::Annotation),
                _ => None,
            };
            let one_pass =
                |rest| <TurnParser as pest::Parser<Rule>>::parse(Rule::movetext, rest).ok();
            $crate::notation::record::parse_movetext_fast(
                text,
                span,
                limits,
                $fast_turn,
                one_pass,
                frame,
                $turn_of,
                $parse_turn,
                sink,
            )
        }
    };
}
pub(crate) use fast_movetext;

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
