//! Halves turn notation: the typed AST of one turn, its parser and printer.
//!
//! `+(2,-1)` (place), `keep`/`swap` (the contract), `x(2,-1)` (remove),
//! `x(2,-1)/(0,3)` (remove and keep the group holding `(0,3)`), `pass`.

use std::fmt;

/// A cell of the boardless hex plane in axial coordinates `(q,r)` (flat-topped hexes).
/// Cells with `|q|` and `|r|` at most [`Cell::LIMIT`] exist; no game can reach further.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Cell {
    pub q: i16,
    pub r: i16,
}

/// The six neighbour offsets, in the spec's order: north, north-east, south-east,
/// south, south-west, north-west.
pub const NEIGHBOURS: [(i16, i16); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];

impl Cell {
    /// The largest coordinate (in absolute value) of a cell that exists.
    pub const LIMIT: i16 = 999;

    /// The cell `(q,r)`, if it exists.
    pub fn new(q: i32, r: i32) -> Option<Cell> {
        let lim = i32::from(Cell::LIMIT);
        ((-lim..=lim).contains(&q) && (-lim..=lim).contains(&r)).then_some(Cell {
            q: q as i16,
            r: r as i16,
        })
    }

    /// The neighbours of this cell that exist, in the spec's order.
    #[inline]
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        NEIGHBOURS.into_iter().filter_map(move |(dq, dr)| {
            Cell::new(
                i32::from(self.q) + i32::from(dq),
                i32::from(self.r) + i32::from(dr),
            )
        })
    }

    /// Are the two cells edge to edge?
    pub fn touches(self, other: Cell) -> bool {
        let (dq, dr) = (other.q - self.q, other.r - self.r);
        NEIGHBOURS.contains(&(dq, dr))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.q, self.r)
    }
}

/// One Halves turn as written.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Turn {
    /// `+(q,r)`: place a tile of the mover's colour.
    Place(Cell),
    /// `keep`: the contract; white's player stays white.
    Keep,
    /// `swap`: the contract; the players exchange colours.
    Swap,
    /// `x(q,r)` or `x(q,r)/(q,r)`: remove a tile, optionally naming the group that
    /// survives by one of its cells.
    Remove { cell: Cell, keep: Option<Cell> },
    /// `pass`: no legal turn.
    Pass,
}

/// A turn is a few words, `Copy`: it owns nothing.
impl super::record::HeapFree for Turn {}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Place(c) => write!(f, "+{c}"),
            Turn::Keep => f.write_str("keep"),
            Turn::Swap => f.write_str("swap"),
            Turn::Remove { cell, keep: None } => write!(f, "x{cell}"),
            Turn::Remove {
                cell,
                keep: Some(k),
            } => write!(f, "x{cell}/{k}"),
            Turn::Pass => f.write_str("pass"),
        }
    }
}

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    #[grammar = "../grammar/halves.pest"]
    #[grammar = "../grammar/movetext.pest"]
    pub(super) struct TurnParser;
}

use grammar::{Rule, TurnParser};
use pest::Parser;

use super::TurnParse;

fn expected_text(rules: &[Rule]) -> String {
    let has = |r: Rule| rules.contains(&r);
    let text = if has(Rule::cell) {
        "a cell such as `(2,-1)`"
    } else if has(Rule::coord) {
        "a coordinate (an integer such as `-1`)"
    } else {
        "a turn such as `+(2,-1)`, `x(2,-1)`, `x(2,-1)/(0,3)`, `keep`, `swap` or `pass`"
    };
    text.to_string()
}

/// Parses one Halves turn at the start of `input`; what follows is the caller's.
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match super::turn_pair(TurnParser::parse(Rule::turn, input), expected_text) {
        Ok(turn) => turn_of(turn),
        Err(no_turn) => no_turn,
    }
}

super::fast_movetext!(Turn, fast_turn, turn_of, parse_turn);

/// A coordinate of at most four digits at `b[i..]`, and where it ends. Longer ones are
/// left to the parser, which reports a cell too far out.
#[inline]
fn fast_coord(b: &[u8], i: usize) -> Option<(i32, usize)> {
    let minus = b.get(i) == Some(&b'-');
    let start = i + usize::from(minus);
    let mut at = start;
    let mut value = 0i32;
    while let Some(&c) = b.get(at) {
        let digit = c.wrapping_sub(b'0');
        if digit > 9 {
            break;
        }
        if at - start == 4 {
            return None;
        }
        value = value * 10 + i32::from(digit);
        at += 1;
    }
    if at == start {
        return None;
    }
    Some((if minus { -value } else { value }, at))
}

/// A cell at the start of `b` (`(2,-1)`), read by hand when it exists and its
/// coordinates are short. (Read for every turn: inlined.)
#[inline(always)]
fn fast_cell(b: &[u8]) -> Option<(Cell, usize)> {
    if b.first() != Some(&b'(') {
        return None;
    }
    let (q, i) = fast_coord(b, 1)?;
    if b.get(i) != Some(&b',') {
        return None;
    }
    let (r, i) = fast_coord(b, i + 1)?;
    if b.get(i) != Some(&b')') {
        return None;
    }
    Some((Cell::new(q, r)?, i + 1))
}

/// The commonest turns read by hand, for [`parse_movetext`]: a placement, a removal
/// (with the group kept), `keep`, `swap`, `pass`. `None` wherever the grammar might
/// read the text otherwise: the parser decides there.
fn fast_turn(b: &[u8]) -> Option<(Turn, usize)> {
    match b.first()? {
        b'+' => {
            let (cell, n) = fast_cell(&b[1..])?;
            Some((Turn::Place(cell), 1 + n))
        }
        b'x' => {
            let (cell, n) = fast_cell(&b[1..])?;
            let end = 1 + n;
            if b.get(end) != Some(&b'/') {
                return Some((Turn::Remove { cell, keep: None }, end));
            }
            let (keep, m) = fast_cell(&b[end + 1..])?;
            let turn = Turn::Remove {
                cell,
                keep: Some(keep),
            };
            Some((turn, end + 1 + m))
        }
        _ => {
            let turn = match b.get(..4)? {
                b"keep" => Turn::Keep,
                b"swap" => Turn::Swap,
                b"pass" => Turn::Pass,
                _ => return None,
            };
            let after = b.get(4);
            let ends =
                !after.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'));
            ends.then_some((turn, 4))
        }
    }
}

/// The turn a `turn` pair holds; offsets count from the pair's start.
fn turn_of(turn: pest::iterators::Pair<'_, Rule>) -> TurnParse<Turn> {
    let base = turn.as_span().start();
    let len = turn.as_span().end() - base;
    // The first cell that does not exist: (byte offset, length).
    let mut bad: Option<(usize, usize)> = None;
    let mut cell = |pair: pest::iterators::Pair<'_, Rule>| -> Cell {
        let span = pair.as_span();
        let mut coords = pair
            .into_inner()
            .map(|c| c.as_str().parse::<i32>().unwrap_or(i32::MAX));
        let q = coords.next().unwrap_or(i32::MAX);
        let r = coords.next().unwrap_or(i32::MAX);
        match Cell::new(q, r) {
            Some(c) => c,
            None => {
                if bad.is_none() {
                    bad = Some((span.start(), span.end() - span.start()));
                }
                Cell { q: 0, r: 0 }
            }
        }
    };
    let Some(part) = turn.into_inner().next() else {
        return TurnParse::NoTurn {
            at: 0,
            expected: expected_text(&[]),
        };
    };
    let out = match part.as_rule() {
        Rule::place => match part.into_inner().next() {
            Some(c) => Turn::Place(cell(c)),
            None => Turn::Pass,
        },
        Rule::remove => {
            let mut inner = part.into_inner();
            let first = inner.next().map(&mut cell).unwrap_or(Cell { q: 0, r: 0 });
            let keep = inner.next().map(&mut cell);
            Turn::Remove { cell: first, keep }
        }
        _ => match part.as_str() {
            "keep" => Turn::Keep,
            "swap" => Turn::Swap,
            _ => Turn::Pass,
        },
    };
    TurnParse::finish(out, len, bad.map(|(at, n)| (at - base, n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(q: i32, r: i32) -> Cell {
        Cell::new(q, r).unwrap()
    }

    fn turn(input: &str) -> (Turn, usize) {
        match parse_turn(input) {
            TurnParse::Turn(t, len) => (t, len),
            other => panic!("{input:?} did not parse: {other:?}"),
        }
    }

    #[test]
    fn every_form_parses_and_prints_back() {
        for (text, t) in [
            ("+(2,-1)", Turn::Place(c(2, -1))),
            ("keep", Turn::Keep),
            ("swap", Turn::Swap),
            ("pass", Turn::Pass),
            (
                "x(2,-1)",
                Turn::Remove {
                    cell: c(2, -1),
                    keep: None,
                },
            ),
            (
                "x(-12,0)/(0,3)",
                Turn::Remove {
                    cell: c(-12, 0),
                    keep: Some(c(0, 3)),
                },
            ),
        ] {
            let (back, len) = turn(text);
            assert_eq!(back, t, "{text}");
            assert_eq!(len, text.len());
            assert_eq!(t.to_string(), text);
        }
    }

    #[test]
    fn a_turn_ends_where_its_notation_ends() {
        assert_eq!(turn("+(0,1) x(0,0)").1, 6);
        assert_eq!(turn("keep {c}").1, 4);
        assert!(matches!(parse_turn("keeper"), TurnParse::NoTurn { .. }));
        assert!(matches!(parse_turn("passx"), TurnParse::NoTurn { .. }));
        assert!(matches!(parse_turn("+(1, 2)"), TurnParse::NoTurn { .. }));
        assert!(matches!(parse_turn("(1,2)"), TurnParse::NoTurn { .. }));
    }

    #[test]
    fn a_cell_too_far_out_is_a_bad_address() {
        assert_eq!(
            parse_turn("x(0,0)/(1000,2) "),
            TurnParse::BadAddress {
                len: 15,
                at: 7,
                address_len: 8
            }
        );
        assert!(matches!(
            parse_turn("+(99999999999999999999,0)"),
            TurnParse::BadAddress { at: 1, .. }
        ));
        assert_eq!(turn("+(-999,999)").0, Turn::Place(c(-999, 999)));
    }

    /// Wherever the hand reader reads a turn, the parser reads the same turn of the same
    /// length: over random strings of the notation's pieces, and every turn written
    /// the usual way is read by hand.
    #[test]
    fn the_hand_reader_agrees_with_the_parser() {
        let pieces = [
            "+", "x", "(", ")", ",", "-", "0", "1", "7", "9", "12", "999", "1000", "99999", "/",
            " ", "keep", "swap", "pass", "k", "_", "a",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut below = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut read = 0;
        for _ in 0..200_000 {
            let mut text = String::new();
            // Mostly well-formed turns, bent at random.
            match below(3) {
                0 => text.push_str(&format!(
                    "x({},{})",
                    below(2001) as i32 - 1000,
                    below(21) as i32 - 10
                )),
                1 => text.push_str(&format!(
                    "+({},{})",
                    below(31) as i32 - 15,
                    below(31) as i32 - 15
                )),
                _ => {}
            }
            for _ in 0..below(8) {
                text.push_str(pieces[below(pieces.len())]);
            }
            if let Some((turn, len)) = fast_turn(text.as_bytes()) {
                read += 1;
                assert_eq!(parse_turn(&text), TurnParse::Turn(turn, len), "{text:?}");
            }
        }
        assert!(read > 50_000, "{read}");
        for q in -12..=12 {
            for r in [-999, -10, -1, 0, 3, 45, 999] {
                for text in [format!("+({q},{r})"), format!("x({r},{q})/({q},{q})")] {
                    let (turn, len) = fast_turn(text.as_bytes()).expect(&text);
                    assert_eq!(len, text.len());
                    assert_eq!(turn.to_string(), text);
                }
            }
        }
    }

    #[test]
    fn neighbours_follow_the_spec() {
        let n: Vec<Cell> = c(0, 0).neighbours().collect();
        assert_eq!(
            n,
            [c(0, -1), c(1, -1), c(1, 0), c(0, 1), c(-1, 1), c(-1, 0)]
        );
        assert!(c(2, -1).touches(c(1, 0)));
        assert!(!c(2, -1).touches(c(1, 1)));
        assert_eq!(c(999, 0).neighbours().count(), 4);
    }
}
