//! Thaayam turn notation: the typed AST of one turn, its parser and printer.
//!
//! `[1 4 2] enter, c1+4+2` (the series, then the actions), `[2] -` (no action),
//! `Tc5+8+3` (twins move), `twin c5` (a declaration), `off` (bear one piece off), an
//! optional `x` after a move claiming a capture (`b5+2x`). With a seed the bracket may be
//! left out.

use std::fmt;

mod action;
mod list;

pub use action::{Action, Square, Throws};
use list::Bytes;
pub use list::{ActionRef, Actions, Iter, Views};

/// A series of throws, in the order thrown, inline up to 14. `Display`: `[1 4 2]`.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Series(Bytes<14>);

impl Series {
    /// The series of these throws.
    pub fn new(throws: &[u8]) -> Series {
        let mut out = Series::default();
        out.0.extend_from_slice(throws);
        out
    }
    /// Adds a throw at the end.
    #[inline]
    pub fn push(&mut self, throw: u8) {
        self.0.push(throw);
    }
}

impl Default for Series {
    fn default() -> Series {
        Series(Bytes::new())
    }
}

impl std::ops::Deref for Series {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

impl fmt::Display for Series {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, t) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        f.write_str("]")
    }
}

/// One Thaayam turn as written: the series (when written) and the actions in order; no
/// action is written `-`. 40 bytes.
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Turn {
    pub series: Option<Series>,
    pub actions: Actions,
}

impl super::record::HeapFree for Turn {
    /// Its series and its actions are inline, as all but the longest are.
    #[inline]
    fn heap_free(&self) -> bool {
        self.series.as_ref().is_none_or(|s| s.0.is_inline()) && self.actions.is_inline()
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.series {
            write!(f, "{s} ")?;
        }
        if self.actions.is_empty() {
            return f.write_str("-");
        }
        for (i, a) in self.actions.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    #[grammar = "../grammar/thaayam.pest"]
    #[grammar = "../grammar/movetext.pest"]
    pub(super) struct TurnParser;
}

use grammar::{Rule, TurnParser};
use pest::Parser;

use super::TurnParse;

fn expected_text(rules: &[Rule]) -> String {
    let has = |r: Rule| rules.contains(&r);
    if has(Rule::throw) {
        "a throw such as `4`, as in `[1 4 2]` or `c1+4`"
    } else if has(Rule::use_throw) {
        "`+` and a throw, as in `c1+4+2`"
    } else if has(Rule::square) {
        "a square such as `c5`"
    } else if has(Rule::gap) && !has(Rule::action) {
        "a space and a square, as in `twin c5`"
    } else {
        "a Thaayam turn such as `[1 4 2] enter, c1+4+2` or `[2] -`"
    }
    .to_string()
}

/// Parses one Thaayam turn at the start of `input`. The turn's length never includes
/// whitespace after it.
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match super::turn_pair(TurnParser::parse(Rule::turn, input), expected_text) {
        Ok(turn) => turn_of(turn),
        Err(no_turn) => no_turn,
    }
}

super::fast_movetext!(Turn, fast_turn, turn_of, parse_turn);

/// Where a run of blanks (the `gap` rule) starting at `i` ends.
fn gap(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// A throw at the start of `b` as the `throw` rule reads it: one or two digits, not
/// followed by a third.
fn fast_throw(b: &[u8]) -> Option<(u8, usize)> {
    let (value, len) = match b {
        [d @ b'0'..=b'9', e @ b'0'..=b'9', ..] => ((d - b'0') * 10 + (e - b'0'), 2),
        [d @ b'0'..=b'9', ..] => (d - b'0', 1),
        _ => return None,
    };
    (!b.get(len).is_some_and(u8::is_ascii_digit)).then_some((value, len))
}

/// A square at the start of `b`, when it is a point of the board (`a1`…`e5`).
fn fast_square(b: &[u8]) -> Option<(Square, usize)> {
    match b {
        [f @ b'a'..=b'z', r @ b'0'..=b'9', rest @ ..] => {
            // A second digit (`a10`) is grammatically a square but no point: the parser
            // reports it.
            if rest.first().is_some_and(u8::is_ascii_digit) {
                return None;
            }
            Some((Square::new(f - b'a', r.wrapping_sub(b'1'))?, 2))
        }
        _ => None,
    }
}

/// The series at the start of `b` (`[1 4 2]`): the commonest form, throws of one digit
/// a space apart, in one pass; any other by [`series_by_parts`].
#[inline(always)]
fn fast_series(b: &[u8]) -> Option<(Series, usize)> {
    let mut throws = [0u8; 14];
    let mut n = 0;
    let mut i = 1;
    while let Some(&c) = b.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 || n == throws.len() {
            break;
        }
        throws[n] = d;
        n += 1;
        match b.get(i + 1) {
            Some(b' ') => i += 2,
            Some(b']') => return Some((Series(Bytes::inline(n, throws)), i + 2)),
            _ => break,
        }
    }
    series_by_parts(b)
}

/// The series at the start of `b`, throw by throw and blank by blank.
fn series_by_parts(b: &[u8]) -> Option<(Series, usize)> {
    let mut i = gap(b, 1);
    let mut series = Series::default();
    if let Some((t, n)) = fast_throw(&b[i..]) {
        series.push(t);
        i += n;
        loop {
            let j = gap(b, i);
            match fast_throw(&b[j..]) {
                Some((t, n)) if j > i => {
                    series.push(t);
                    i = j + n;
                }
                _ => break,
            }
        }
    }
    i = gap(b, i);
    (b.get(i) == Some(&b']')).then_some((series, i + 1))
}

/// The most throws of one move read by hand; a longer move is left to the parser.
const FAST_MOVE_THROWS: usize = 8;

/// One action at the start of `b`, read by hand only where the `action` rule reads
/// exactly it, appended to `actions`: its length.
fn fast_action(b: &[u8], actions: &mut Actions) -> Option<usize> {
    let word_ends = |n: usize| !b.get(n).is_some_and(u8::is_ascii_alphanumeric);
    match b.first()? {
        b'e' if b.starts_with(b"enter") => {
            actions.push_view(ActionRef::Enter);
            return word_ends(5).then_some(5);
        }
        b'o' if b.starts_with(b"off") => {
            actions.push_view(ActionRef::Off);
            return word_ends(3).then_some(3);
        }
        b't' if b.starts_with(b"twin") => {
            let at = gap(b, 4);
            let (sq, n) = fast_square(&b[at..])?;
            actions.push_view(ActionRef::Twin(sq));
            return (at > 4).then_some(at + n);
        }
        _ => {}
    }
    let twins = b.first() == Some(&b'T');
    let mut i = usize::from(twins);
    let (from, n) = fast_square(&b[i..])?;
    i += n;
    let mut throws = [0u8; FAST_MOVE_THROWS];
    let mut count = 0;
    while b.get(i) == Some(&b'+') {
        let (t, n) = fast_throw(&b[i + 1..])?;
        *throws.get_mut(count)? = t;
        count += 1;
        i += 1 + n;
    }
    if count == 0 {
        return None;
    }
    let capture = b.get(i) == Some(&b'x');
    if capture {
        if !word_ends(i + 1) {
            return None;
        }
        i += 1;
    }
    actions.push_move(from, twins, &throws[..count], capture);
    Some(i)
}

/// The commonest turns read by hand, for [`parse_movetext`]: a series or not, then `-`
/// or actions separated by commas. `None` wherever the grammar might read the text
/// otherwise (a square that does not exist, a comma not followed by an action read
/// here): the parser decides there.
fn fast_turn(b: &[u8]) -> Option<(Turn, usize)> {
    let mut turn = Turn::default();
    let mut i = 0;
    if b.first() == Some(&b'[') {
        let (series, n) = fast_series(b)?;
        turn.series = Some(series);
        i = gap(b, n);
    }
    if b.get(i) == Some(&b'-') {
        let next = b.get(i + 1);
        if next.is_some_and(|c| *c == b'-' || c.is_ascii_alphanumeric()) {
            return None;
        }
        return Some((turn, i + 1));
    }
    i = action_at(b, i, &mut turn.actions)?;
    loop {
        // `, ` then an action, the commonest separator; any other blanks by `gap`.
        let at = match (b.get(i), b.get(i + 1), b.get(i + 2)) {
            (Some(b','), Some(b' '), Some(c)) if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') => {
                i + 2
            }
            _ => {
                let comma = gap(b, i);
                if b.get(comma) != Some(&b',') {
                    return Some((turn, i));
                }
                gap(b, comma + 1)
            }
        };
        i = action_at(b, at, &mut turn.actions)?;
    }
}

/// The action at `b[i..]`, appended to `actions`: where it ends. `enter` and a single
/// piece's move by throws of one digit (`c1+4+2x`), the commonest, in one pass; any
/// other by [`fast_action`].
#[inline(always)]
fn action_at(b: &[u8], i: usize, actions: &mut Actions) -> Option<usize> {
    let byte = |k: usize| b.get(k).copied().unwrap_or(0);
    let ends_word = |k: usize| !byte(k).is_ascii_alphanumeric();
    let (file, rank) = (byte(i).wrapping_sub(b'a'), byte(i + 1).wrapping_sub(b'1'));
    if file == 4 && b[i..].starts_with(b"enter") && ends_word(i + 5) {
        actions.push_view(ActionRef::Enter);
        return Some(i + 5);
    }
    if let (Some(from), b'+') = (Square::new(file, rank), byte(i + 2)) {
        let mut throws = [0u8; FAST_MOVE_THROWS];
        let (mut count, mut k) = (0, i + 2);
        while byte(k) == b'+' && count < FAST_MOVE_THROWS {
            let d = byte(k + 1).wrapping_sub(b'0');
            if d > 9 || byte(k + 2).is_ascii_digit() {
                break;
            }
            throws[count] = d;
            count += 1;
            k += 2;
        }
        let capture = byte(k) == b'x';
        if byte(k) != b'+' && (!capture || ends_word(k + 1)) {
            actions.push_move(from, false, &throws[..count], capture);
            return Some(k + usize::from(capture));
        }
    }
    Some(i + fast_action(&b[i..], actions)?)
}

/// The turn a `turn` pair holds; offsets count from the pair's start.
fn turn_of(turn: pest::iterators::Pair<'_, Rule>) -> TurnParse<Turn> {
    let base = turn.as_span().start();
    let len = turn.as_span().end() - base;
    let mut out = Turn::default();
    let mut bad: Option<(usize, usize)> = None;
    let mut square = |pair: pest::iterators::Pair<'_, Rule>| -> Square {
        let span = pair.as_span();
        match Square::parse(span.as_str()) {
            Some(sq) => sq,
            None => {
                if bad.is_none() {
                    bad = Some((span.start(), span.end() - span.start()));
                }
                Square(0)
            }
        }
    };
    let throw =
        |pair: pest::iterators::Pair<'_, Rule>| -> u8 { pair.as_str().parse().unwrap_or(0) };
    for part in turn.into_inner() {
        match part.as_rule() {
            Rule::series => {
                let mut series = Series::default();
                for t in part.into_inner().filter(|p| p.as_rule() == Rule::throw) {
                    series.push(throw(t));
                }
                out.series = Some(series);
            }
            Rule::body => {
                for action in part.into_inner().filter(|p| p.as_rule() == Rule::action) {
                    let Some(inner) = action.into_inner().next() else {
                        continue;
                    };
                    let a = match inner.as_rule() {
                        Rule::enter => Action::Enter,
                        Rule::off => Action::Off,
                        Rule::twin => {
                            match inner.into_inner().find(|p| p.as_rule() == Rule::square) {
                                Some(sq) => Action::Twin(square(sq)),
                                None => continue,
                            }
                        }
                        _ => {
                            let mut from = Square(0);
                            let mut twins = false;
                            let mut throws = Throws::new();
                            let mut capture = false;
                            for p in inner.into_inner() {
                                match p.as_rule() {
                                    Rule::twins => twins = true,
                                    Rule::square => from = square(p),
                                    Rule::use_throw => {
                                        if let Some(t) = p.into_inner().next() {
                                            throws.push(throw(t));
                                        }
                                    }
                                    Rule::capture => capture = true,
                                    _ => {}
                                }
                            }
                            Action::Move {
                                from,
                                twins,
                                throws,
                                capture,
                            }
                        }
                    };
                    out.actions.push(a);
                }
            }
            _ => {}
        }
    }
    TurnParse::finish(out, len, bad.map(|(at, n)| (at - base, n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    fn turn(input: &str) -> (Turn, usize) {
        match parse_turn(input) {
            TurnParse::Turn(t, len) => (t, len),
            other => panic!("{input:?} did not parse: {other:?}"),
        }
    }

    /// A turn owns nothing on the heap unless its series or its actions outgrew their
    /// room: only then must an entry handed on run its drop.
    #[test]
    fn a_turn_is_heap_free_while_its_lists_are_inline() {
        use crate::notation::record::HeapFree;
        let long_series = format!("[{}2] enter", "1 ".repeat(20));
        let many = vec!["enter"; 30].join(", ");
        for (input, free) in [
            ("[1 4 2] enter, c1+4+2", true),
            ("-", true),
            ("enter", true),
            (long_series.as_str(), false),
            (many.as_str(), false),
        ] {
            assert_eq!(turn(input).0.heap_free(), free, "{input}");
        }
    }

    #[test]
    fn series_and_actions() {
        let (t, len) = turn("[1 4 2] enter, c1+4+2 ; comment");
        assert_eq!(len, 21);
        assert_eq!(t.series, Some(Series::new(&[1, 4, 2])));
        assert_eq!(
            t.actions.iter().collect::<Vec<_>>(),
            [
                Action::Enter,
                Action::Move {
                    from: sq("c1"),
                    twins: false,
                    throws: [4, 2].into_iter().collect(),
                    capture: false
                }
            ]
        );
        assert_eq!(t.to_string(), "[1 4 2] enter, c1+4+2");
    }

    #[test]
    fn none_twins_off_and_capture_claim() {
        let (t, len) = turn("[2] -\n2. north:");
        assert_eq!(len, 5);
        assert!(t.actions.is_empty());
        assert_eq!(t.to_string(), "[2] -");
        let (t, _) = turn("Tc5+8+3, twin c5 ,off,b5+2x");
        assert_eq!(t.series, None);
        assert_eq!(t.to_string(), "Tc5+8+3, twin c5, off, b5+2x");
        let actions: Vec<Action> = t.actions.iter().collect();
        assert!(matches!(actions[0], Action::Move { twins: true, .. }));
        assert_eq!(actions[1], Action::Twin(sq("c5")));
        assert_eq!(actions[2], Action::Off);
        assert!(matches!(actions[3], Action::Move { capture: true, .. }));
        let (t, _) = turn("-");
        assert_eq!(t, Turn::default());
    }

    #[test]
    fn a_prefix_only() {
        assert_eq!(turn("[2] - 3. south: [3] e5+3").1, 5);
        assert_eq!(turn("enter!? 2.").1, 5);
        assert_eq!(turn("c1+4,").1, 4);
    }

    #[test]
    fn bad_addresses() {
        assert_eq!(
            parse_turn("[1 3] enter, f1+3"),
            TurnParse::BadAddress {
                len: 17,
                at: 13,
                address_len: 2
            }
        );
        assert_eq!(
            parse_turn("twin c6"),
            TurnParse::BadAddress {
                len: 7,
                at: 5,
                address_len: 2
            }
        );
    }

    #[test]
    fn no_turn() {
        for input in ["", "[1 2", "c1", "c1+", "twin", "[2]", "--"] {
            assert!(
                matches!(parse_turn(input), TurnParse::NoTurn { .. }),
                "{input:?} parsed"
            );
        }
    }
}
