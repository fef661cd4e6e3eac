//! Halatafl turn notation: the typed AST of one turn, its parser and printer.
//!
//! `e3-d4` (step or emperor slide), `c5xe3xg1` (jump chain), `=K`/`=E` (promotion marker),
//! `huff c3 e5-e4` (a huff before the move), `huff c3` (a winning huff alone).

use std::fmt;

/// A point of the 7×7 board: `index = rank * 7 + file`, files `a`–`g`, ranks `1`–`7`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Square(u8);

impl Square {
    pub const COUNT: usize = 49;

    /// The point at `file` (0 = a) and `rank` (0 = rank 1), if both are on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 7 && rank < 7 {
            Some(Square(rank * 7 + file))
        } else {
            None
        }
    }

    /// The point with this index (0..49).
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < Self::COUNT {
            Some(Square(index))
        } else {
            None
        }
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 7
    }
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 7
    }
    /// A one-bit mask of this point, for 49-bit bitboards.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1`…`g7`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::new(file, rank)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The longest jump chain a turn can write: every landing point named. A man can capture
/// at most 22 pieces, so 23 points.
pub const MAX_PATH: usize = 24;

/// The points of a move: the start, then every landing point. Fixed size and `Copy`, so
/// legal-turn generation never allocates. Equality and hashing look at the points in use
/// only (`pop` leaves the old point behind in the array).
#[derive(Copy, Clone)]
pub struct Path {
    len: u8,
    points: [Square; MAX_PATH],
}

impl Path {
    pub fn new(from: Square) -> Path {
        let mut points = [Square(0); MAX_PATH];
        points[0] = from;
        Path { len: 1, points }
    }
    /// Appends a landing point; `false` (and no change) when the path is full.
    pub fn push(&mut self, to: Square) -> bool {
        if (self.len as usize) < MAX_PATH {
            self.points[self.len as usize] = to;
            self.len += 1;
            true
        } else {
            false
        }
    }
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }
    pub fn points(&self) -> &[Square] {
        &self.points[..self.len as usize]
    }
    pub fn from(&self) -> Square {
        self.points[0]
    }
    pub fn to(&self) -> Square {
        self.points[self.len as usize - 1]
    }
    /// Number of hops (landings).
    pub fn hops(&self) -> usize {
        self.len as usize - 1
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.points() == other.points()
    }
}

impl Eq for Path {}

impl std::hash::Hash for Path {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.points().hash(state);
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.points()).finish()
    }
}

/// The moving part of a turn.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Move {
    /// `e3-d4`: a step, a king's step, or an emperor's slide (two points only).
    Step { from: Square, to: Square },
    /// `c5xe3xg1`: one or more short jumps, every landing point named.
    Jump(Path),
}

impl Move {
    pub fn from(&self) -> Square {
        match self {
            Move::Step { from, .. } => *from,
            Move::Jump(path) => path.from(),
        }
    }
    pub fn to(&self) -> Square {
        match self {
            Move::Step { to, .. } => *to,
            Move::Jump(path) => path.to(),
        }
    }
    pub fn is_capture(&self) -> bool {
        matches!(self, Move::Jump(_))
    }
}

/// The optional marker after a move: `=K` (became a king), `=E` (became an emperor).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Promotion {
    King,
    Emperor,
}

/// One Halatafl turn as written.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Turn {
    /// `huff c3` before the move: the enemy counter removed.
    pub huff: Option<Square>,
    /// The move; `None` only for a winning huff written alone.
    pub mv: Option<Move>,
    /// The promotion marker written after the move, if any.
    pub promotion: Option<Promotion>,
}

/// A turn is a few words, `Copy`: it owns nothing.
impl super::record::HeapFree for Turn {}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        if let Some(h) = self.huff {
            write!(f, "huff {h}")?;
            sep = " ";
        }
        if let Some(mv) = &self.mv {
            f.write_str(sep)?;
            match mv {
                Move::Step { from, to } => write!(f, "{from}-{to}")?,
                Move::Jump(path) => {
                    for (i, p) in path.points().iter().enumerate() {
                        if i > 0 {
                            f.write_str("x")?;
                        }
                        write!(f, "{p}")?;
                    }
                }
            }
            match self.promotion {
                Some(Promotion::King) => f.write_str("=K")?,
                Some(Promotion::Emperor) => f.write_str("=E")?,
                None => {}
            }
        }
        Ok(())
    }
}

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    #[grammar = "../grammar/halatafl.pest"]
    #[grammar = "../grammar/movetext.pest"]
    pub(super) struct TurnParser;
}

use grammar::{Rule, TurnParser};
use pest::Parser;

use super::TurnParse;

/// What the parser wanted where it stopped, for [`TurnParse::NoTurn`].
fn expected_text(rules: &[Rule]) -> String {
    let has = |r: Rule| rules.contains(&r);
    let text = if has(Rule::huff) || has(Rule::turn) || has(Rule::r#move) {
        "a move such as `e3-d4` or `c5xe3`, or a huff such as `huff c3`"
    } else if has(Rule::step_to) || has(Rule::jump_to) {
        "`-` or `x` and the next point, as in `e3-d4` or `c5xe3`"
    } else if has(Rule::gap) {
        "a space and the point to huff, as in `huff c3`"
    } else if has(Rule::square) {
        "a point such as `d4`"
    } else {
        "a move such as `e3-d4` or `c5xe3`"
    };
    text.to_string()
}

/// Parses one Halatafl turn at the start of `input`. The turn's length never includes
/// whitespace after it; what follows is the caller's business.
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match super::turn_pair(TurnParser::parse(Rule::turn, input), expected_text) {
        Ok(turn) => turn_of(turn),
        Err(no_turn) => no_turn,
    }
}

super::fast_movetext!(Turn, fast_turn, turn_of, parse_turn);

/// A square at the start of `b` as the `square` rule reads it (a letter, a digit, a
/// second digit if there is one), when it is a point of the board.
fn fast_square(b: &[u8]) -> Option<(Square, usize)> {
    match b {
        [f @ b'a'..=b'z', r @ b'0'..=b'9', rest @ ..] => {
            let two = rest.first().is_some_and(u8::is_ascii_digit);
            let len = if two { 3 } else { 2 };
            // A two-digit rank (`a10`) is no point of the board: the parser reports it.
            if two {
                return None;
            }
            Some((Square::new(f - b'a', r.wrapping_sub(b'1'))?, len))
        }
        _ => None,
    }
}

/// A move at the start of `b` (`e3-d4`, `c5xe3xg1`, with `=K` or `=E`), read by hand
/// only where the `move` rule reads exactly it. (Read for nearly every turn: inlined,
/// the move is built where the turn is.)
#[inline(always)]
fn fast_move(b: &[u8]) -> Option<(Move, Option<Promotion>, usize)> {
    let (from, mut i) = fast_square(b)?;
    let mv = match b.get(i) {
        Some(b'-') => {
            let (to, n) = fast_square(&b[i + 1..])?;
            i += 1 + n;
            Move::Step { from, to }
        }
        Some(b'x') => {
            let mut path = Path::new(from);
            while b.get(i) == Some(&b'x') {
                let (to, n) = fast_square(&b[i + 1..])?;
                if !path.push(to) {
                    return None;
                }
                i += 1 + n;
            }
            Move::Jump(path)
        }
        _ => return None,
    };
    let promotion = match b.get(i) {
        Some(b'=') => {
            let p = match b.get(i + 1) {
                Some(b'K') => Promotion::King,
                Some(b'E') => Promotion::Emperor,
                _ => return None,
            };
            i += 2;
            Some(p)
        }
        _ => None,
    };
    Some((mv, promotion, i))
}

/// The commonest turns read by hand, for [`parse_movetext`]: a move, or a huff with or
/// without a move. `None` wherever the grammar might read the text otherwise (a point
/// that does not exist, a chain too long, what follows a huff that could start a move
/// but is not read here): the parser decides there.
fn fast_turn(b: &[u8]) -> Option<(Turn, usize)> {
    let gap = |from: usize| {
        from + b[from..]
            .iter()
            .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
            .count()
    };
    if b.starts_with(b"huff") {
        let at = gap(4);
        if at == 4 {
            return None;
        }
        let (huff, n) = fast_square(&b[at..])?;
        let end = at + n;
        let next = gap(end);
        let mut turn = Turn {
            huff: Some(huff),
            mv: None,
            promotion: None,
        };
        if next > end {
            if let Some((mv, promotion, n)) = fast_move(&b[next..]) {
                turn.mv = Some(mv);
                turn.promotion = promotion;
                return Some((turn, next + n));
            }
            // Anything that starts as a square might still be a move to the parser.
            if matches!(b[next..], [b'a'..=b'z', b'0'..=b'9', ..]) {
                return None;
            }
        }
        return Some((turn, end));
    }
    let (mv, promotion, len) = fast_move(b)?;
    Some((
        Turn {
            huff: None,
            mv: Some(mv),
            promotion,
        },
        len,
    ))
}

/// The turn a `turn` pair holds; offsets count from the pair's start.
fn turn_of(turn: pest::iterators::Pair<'_, Rule>) -> TurnParse<Turn> {
    let base = turn.as_span().start();
    let len = turn.as_span().end() - base;
    let mut out = Turn {
        huff: None,
        mv: None,
        promotion: None,
    };
    // The first point that does not exist, if any: (byte offset, length).
    let mut bad: Option<(usize, usize)> = None;
    let mut square = |pair: pest::iterators::Pair<'_, Rule>| -> Square {
        let span = pair.as_span();
        // `a07` or `a10` is grammatically a square, but no point of the board.
        match Square::parse(span.as_str()) {
            Some(sq) => sq,
            None => {
                if bad.is_none() {
                    bad = Some((span.start() - base, span.end() - span.start()));
                }
                Square(0)
            }
        }
    };
    for part in turn.into_inner() {
        match part.as_rule() {
            Rule::huff => {
                if let Some(sq) = part.into_inner().find(|p| p.as_rule() == Rule::square) {
                    out.huff = Some(square(sq));
                }
            }
            Rule::r#move => {
                let mut inner = part.into_inner();
                let Some(first) = inner.next() else { continue };
                let from = square(first);
                let mut path = Path::new(from);
                let mut step_to = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::step_to => {
                            if let Some(sq) = p.into_inner().next() {
                                step_to = Some(square(sq));
                            }
                        }
                        Rule::jump_to => {
                            let at = p.as_span().start() - base;
                            if let Some(sq) = p.into_inner().next() {
                                let to = square(sq);
                                if !path.push(to) {
                                    return TurnParse::NoTurn {
                                        at,
                                        expected: format!(
                                            "the end of the chain (a chain names at most {MAX_PATH} points)"
                                        ),
                                    };
                                }
                            }
                        }
                        Rule::marker => {
                            out.promotion = match p.as_str() {
                                "=K" => Some(Promotion::King),
                                _ => Some(Promotion::Emperor),
                            };
                        }
                        _ => {}
                    }
                }
                out.mv = Some(match step_to {
                    Some(to) => Move::Step { from, to },
                    None => Move::Jump(path),
                });
            }
            _ => {}
        }
    }
    TurnParse::finish(out, len, bad)
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

    #[test]
    fn step_and_display() {
        let (t, len) = turn("e3-d4");
        assert_eq!(len, 5);
        assert_eq!(t.huff, None);
        assert_eq!(
            t.mv,
            Some(Move::Step {
                from: sq("e3"),
                to: sq("d4")
            })
        );
        assert_eq!(t.promotion, None);
        assert_eq!(t.to_string(), "e3-d4");
    }

    #[test]
    fn jump_chain_with_marker() {
        let (t, len) = turn("c5xe3xg1=K {comment}");
        assert_eq!(len, 10);
        let Some(Move::Jump(path)) = t.mv else {
            panic!("not a jump: {t:?}")
        };
        assert_eq!(path.points(), &[sq("c5"), sq("e3"), sq("g1")]);
        assert_eq!(t.promotion, Some(Promotion::King));
        assert_eq!(t.to_string(), "c5xe3xg1=K");
        let (t, _) = turn("a1-a6=E");
        assert_eq!(t.promotion, Some(Promotion::Emperor));
    }

    #[test]
    fn huff_then_move_over_any_whitespace() {
        for (input, len) in [
            ("huff c3 e5-e4", 13),
            ("huff\tc3\n e5-e4  ", 14),
            ("huff c3\r\ne5-e4", 14),
        ] {
            let (t, l) = turn(input);
            assert_eq!(l, len, "{input:?}");
            assert_eq!(t.huff, Some(sq("c3")));
            assert_eq!(t.to_string(), "huff c3 e5-e4");
        }
    }

    #[test]
    fn huff_alone_excludes_trailing_whitespace() {
        let (t, len) = turn("huff c3   ");
        assert_eq!(len, 7);
        assert_eq!(t.huff, Some(sq("c3")));
        assert_eq!(t.mv, None);
        assert_eq!(t.to_string(), "huff c3");
        // What follows and is not a move belongs to the caller.
        let (t, len) = turn("huff c3 2. e3-d4");
        assert_eq!((t.mv, len), (None, 7));
    }

    #[test]
    fn a_prefix_only() {
        assert_eq!(turn("e3-d4!? 2... c5xe3").1, 5);
        assert_eq!(turn("e3-d4=Q").1, 5);
        assert_eq!(turn("c5xe3x").1, 5);
    }

    #[test]
    fn bad_addresses() {
        assert_eq!(
            parse_turn("h9-a1"),
            TurnParse::BadAddress {
                len: 5,
                at: 0,
                address_len: 2
            }
        );
        assert_eq!(
            parse_turn("a1xa0"),
            TurnParse::BadAddress {
                len: 5,
                at: 3,
                address_len: 2
            }
        );
        assert_eq!(
            parse_turn("huff c3 e5xe10"),
            TurnParse::BadAddress {
                len: 14,
                at: 11,
                address_len: 3
            }
        );
        assert_eq!(
            parse_turn("huff z3"),
            TurnParse::BadAddress {
                len: 7,
                at: 5,
                address_len: 2
            }
        );
    }

    #[test]
    fn no_turn() {
        let no = |input: &str| match parse_turn(input) {
            TurnParse::NoTurn { at, expected } => (at, expected),
            other => panic!("{input:?} parsed: {other:?}"),
        };
        let (at, expected) = no("");
        assert_eq!(at, 0);
        assert!(expected.contains("e3-d4"), "{expected}");
        assert_eq!(no("E3-d4").0, 0);
        assert_eq!(no("{x}").0, 0);
        let (at, expected) = no("e3");
        assert_eq!(at, 2);
        assert!(expected.contains('-'), "{expected}");
        assert_eq!(no("e3-").0, 3);
        let (at, expected) = no("huff");
        assert_eq!(at, 4);
        assert!(expected.contains("huff c3"), "{expected}");
        assert_eq!(no("huff ").0, 5);
    }

    #[test]
    fn path_equality_ignores_popped_points() {
        let mut a = Path::new(sq("c3"));
        a.push(sq("c5"));
        a.push(sq("e5"));
        a.pop();
        let mut b = Path::new(sq("c3"));
        b.push(sq("c5"));
        assert_eq!(a, b);
        a.pop();
        assert_ne!(a, b);
    }

    #[test]
    fn overlong_chain_is_refused() {
        let mut text = String::from("a1");
        for _ in 0..MAX_PATH {
            text.push_str("xa3xa1");
        }
        assert!(matches!(parse_turn(&text), TurnParse::NoTurn { .. }));
        let mut ok = String::from("a1");
        for i in 0..(MAX_PATH - 1) {
            ok.push_str(if i % 2 == 0 { "xa3" } else { "xa1" });
        }
        assert!(matches!(parse_turn(&ok), TurnParse::Turn(..)));
    }
}
