//! Halasi's commonest turns read by hand, for `parse_movetext` (`docs/decisions.md`,
//! "Reading the notation"): what `selfplay` and the shipped records write — `home M1`,
//! `[RX SS IO QQ] place AM1 @0,0 r0`, `[3: RX KK SS] territory BT2 @1,0 r3`,
//! `[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17`, `[4: RX MM SS YY]
//! leave`, solitaire's `[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5` and its bracket
//! alone — with the grammar's gaps (any blanks, line breaks included) wherever
//! `grammar/halasi.pest` allows them.
//!
//! [`fast_turn`] follows the grammar's `turn` rule step by step, with its ordered choices
//! and its greedy repetitions, and gives a turn only where the rule reads exactly that
//! turn and length. Wherever the rule might read the text otherwise — a triangle,
//! position, rotation or label that does not exist (the parser reports it as rule
//! `address`), a long number, a continuation not read here (a comma, `route`, `=`, an
//! action after a roll that is not well formed) — it gives `None` and the parser reads
//! the turn.

use super::{Action, Address, Domino, DominoAt, DominoList, Dominos, Draw, Label, Marking, Pos};
use super::{Route, Run};
use super::{TerritoryAt, Turn};

/// Not a marking's symbol, in [`MARK`].
const NONE: u8 = 0xff;

/// The marking number of each byte that is a symbol (`symbol` in the grammar).
static MARK: [u8; 256] = {
    let mut out = [NONE; 256];
    let mut i = 0;
    while i < Marking::SYMBOLS.len() {
        out[Marking::SYMBOLS[i] as usize] = i as u8;
        i += 1;
    }
    out
};

fn mark(b: &[u8], i: usize) -> Option<Marking> {
    let n = MARK[*b.get(i)? as usize];
    (n != NONE).then_some(Marking(n))
}

/// Where the blanks from `i` end (the grammar's `gap`, or none).
fn gap(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\r' | b'\n') = b.get(i) {
        i += 1;
    }
    i
}

/// A domino at `i` (two symbols), exactly as rule `domino`.
fn domino(b: &[u8], i: usize) -> Option<Domino> {
    Some(Domino(mark(b, i)?, mark(b, i + 1)?))
}

/// `domino ~ (gap ~ domino)*`, optional, from `i`: the dominos and where they end. The
/// rule's greedy repetition, exactly: a gap not followed by a domino is left.
fn domino_list(b: &[u8], mut i: usize, out: &mut DominoList) -> usize {
    let Some(d) = domino(b, i) else {
        return i;
    };
    out.push(d);
    i += 2;
    loop {
        let next = gap(b, i);
        if next == i {
            return i;
        }
        match domino(b, next) {
            Some(d) => {
                out.push(d);
                i = next + 2;
            }
            None => return i,
        }
    }
}

/// The closing `gap? ~ "]"` of a bracket from `i`: where it ends.
fn close(b: &[u8], i: usize) -> Option<usize> {
    let i = gap(b, i);
    (b.get(i) == Some(&b']')).then_some(i + 1)
}

/// Rule `dominos` at `i` (`[RX SS IO QQ]`), exactly: `None` where the rule fails.
fn dominos(b: &[u8], i: usize) -> Option<(Dominos, usize)> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    let mut out = DominoList::new();
    let end = domino_list(b, gap(b, i + 1), &mut out);
    Some((Dominos(out), close(b, end)?))
}

/// Rule `draw` at `i` (`[3: RX KK SS]`), exactly: `None` where the rule fails.
fn draw(b: &[u8], i: usize) -> Option<(Draw, usize)> {
    if b.get(i) != Some(&b'[') {
        return None;
    }
    // `roll = @{ ASCII_DIGIT{1,2} ~ !ASCII_DIGIT }`
    let at = gap(b, i + 1);
    let digit = |k: usize| b.get(k).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
    let mut roll = digit(at)?;
    let mut j = at + 1;
    if let Some(d) = digit(j) {
        roll = roll * 10 + d;
        j += 1;
    }
    if digit(j).is_some() || b.get(j) != Some(&b':') {
        return None;
    }
    let mut dominos = DominoList::new();
    let end = domino_list(b, gap(b, j + 1), &mut dominos);
    Some((Draw { roll, dominos }, close(b, end)?))
}

/// A label at `i` (a capital letter, then letters and digits, as many as there are),
/// when it exists (at most [`Label::MAX`] characters).
fn label(b: &[u8], i: usize) -> Option<(Label, usize)> {
    let first = *b.get(i)?;
    if !first.is_ascii_uppercase() {
        return None;
    }
    // Copied byte by byte as it is read: a label is a few bytes, too few for a call to
    // copy memory.
    let mut bytes = [0u8; Label::MAX];
    bytes[0] = first;
    let mut len = 1;
    while let Some(&c) = b.get(i + len).filter(|c| c.is_ascii_alphanumeric()) {
        if len == Label::MAX {
            return None;
        }
        bytes[len] = c;
        len += 1;
    }
    Some((
        Label {
            len: len as u8,
            bytes,
        },
        i + len,
    ))
}

/// One or two digits at `i`, and no third (a longer number is left to the parser).
fn small_number(b: &[u8], i: usize) -> Option<(u8, usize)> {
    let digit = |k: usize| b.get(k).filter(|c| c.is_ascii_digit()).map(|c| c - b'0');
    let mut n = digit(i)?;
    let mut j = i + 1;
    if let Some(d) = digit(j) {
        n = n * 10 + d;
        j += 1;
    }
    if digit(j).is_some() {
        return None;
    }
    Some((n, j))
}

/// An address at `i` (`AM1.7`), when its triangle exists.
fn address(b: &[u8], i: usize) -> Option<(Address, usize)> {
    let (label, j) = label(b, i)?;
    if b.get(j) != Some(&b'.') {
        return None;
    }
    let (index, j) = small_number(b, j + 1)?;
    (index < Address::TRIANGLES).then_some((Address { label, index }, j))
}

/// A domino placed at `i` (`RX@AM1.0/AM1.7`), when both triangles exist.
fn placed(b: &[u8], i: usize) -> Option<(DominoAt, usize)> {
    let d = domino(b, i)?;
    if b.get(i + 2) != Some(&b'@') {
        return None;
    }
    let (first, j) = address(b, i + 3)?;
    if b.get(j) != Some(&b'/') {
        return None;
    }
    let (second, j) = address(b, j + 1)?;
    Some((
        DominoAt {
            domino: d,
            first,
            second,
        },
        j,
    ))
}

/// A coordinate at `i` (`-12`), of at most two digits.
fn coord(b: &[u8], i: usize) -> Option<(i16, usize)> {
    let minus = b.get(i) == Some(&b'-');
    let (n, j) = small_number(b, i + usize::from(minus))?;
    let n = i16::from(n);
    Some((if minus { -n } else { n }, j))
}

/// A territory laid at `i` (`BT2 @1,0 r3`), when it exists: a position of one- or
/// two-digit coordinates, a rotation of one digit (0 to 5) that no letter or digit
/// follows.
fn territory(b: &[u8], i: usize) -> Option<(TerritoryAt, usize)> {
    let (label, j) = label(b, i)?;
    let j2 = gap(b, j);
    if j2 == j || b.get(j2) != Some(&b'@') {
        return None;
    }
    let (q, j) = coord(b, j2 + 1)?;
    if b.get(j) != Some(&b',') {
        return None;
    }
    let (r, j) = coord(b, j + 1)?;
    let j2 = gap(b, j);
    if j2 == j || b.get(j2) != Some(&b'r') {
        return None;
    }
    let rotation = match b.get(j2 + 1) {
        Some(&c @ b'0'..=b'5') => c - b'0',
        _ => return None,
    };
    let end = j2 + 2;
    if b.get(end).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    let territory = TerritoryAt {
        label,
        at: Pos { q, r },
        rotation,
    };
    Some((territory, end))
}

/// `literal ~ gap` at `i`: where the gap ends, if there is one.
fn word_then_gap(b: &[u8], i: usize, literal: &[u8]) -> Option<usize> {
    if !b[i.min(b.len())..].starts_with(literal) {
        return None;
    }
    let j = gap(b, i + literal.len());
    (j > i + literal.len()).then_some(j)
}

/// An action at `i`: `Some(None)` where no action can start there (rule `action` fails),
/// `None` where one might and is not read here.
fn action(b: &[u8], i: usize) -> Option<Option<(Action, usize)>> {
    let rest = &b[i.min(b.len())..];
    if rest.starts_with(b"territory") {
        let j = word_then_gap(b, i, b"territory")?;
        let (t, end) = territory(b, j)?;
        return Some(Some((Action::Territory(t), end)));
    }
    if rest.starts_with(b"leave") {
        // `leave = @{ "leave" ~ !(ASCII_ALPHANUMERIC | "-" | "_") }`
        let after = rest.get(5);
        if after.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_')) {
            return None;
        }
        return Some(Some((Action::Leave, i + 5)));
    }
    // A run's first domino placed: two symbols, then `@`; nothing else starts one.
    if domino(b, i).is_none() || b.get(i + 2) != Some(&b'@') {
        return Some(None);
    }
    let (first, mut end) = placed(b, i)?;
    let mut run = Run::new();
    run.push(first);
    loop {
        let comma = gap(b, end);
        if b.get(comma) != Some(&b',') {
            return Some(Some((Action::Run(run), end)));
        }
        let (next, j) = placed(b, gap(b, comma + 1))?;
        run.push(next);
        end = j;
    }
}

/// The routes and claim that may end a regular turn, from `i` (after its action, or its
/// roll alone): `(gap ~ route)* ~ (gap? ~ claim)?`.
fn routes_and_claim(b: &[u8], mut i: usize) -> Option<(Vec<Route>, Option<i64>, usize)> {
    let mut routes = Vec::new();
    loop {
        let j = gap(b, i);
        if j == i || !b[j..].starts_with(b"route") {
            break;
        }
        let k = word_then_gap(b, j, b"route")?;
        let (from, k) = label(b, k)?;
        if b.get(k) != Some(&b'~') {
            return None;
        }
        let (to, k) = label(b, k + 1)?;
        routes.push(Route(from, to));
        i = k;
    }
    let j = gap(b, i);
    if b.get(j) != Some(&b'=') {
        return Some((routes, None, i));
    }
    // `points = @{ "-"? ~ ASCII_DIGIT+ }`, short enough to fit in 64 bits.
    let minus = b.get(j + 1) == Some(&b'-');
    let start = j + 1 + usize::from(minus);
    let digits = b[start.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 || digits > 18 {
        return None;
    }
    let n = b[start..start + digits]
        .iter()
        .fold(0i64, |n, d| n * 10 + i64::from(d - b'0'));
    Some((routes, Some(if minus { -n } else { n }), start + digits))
}

/// The commonest turns read by hand, for [`super::parse_movetext`]: the turn and its
/// length where the grammar's `turn` rule reads exactly those, `None` wherever it might
/// read the text otherwise (the parser decides there).
pub(super) fn fast_turn(b: &[u8]) -> Option<(Turn, usize)> {
    match *b.first()? {
        // `home = ${ "home" ~ gap ~ label }`
        b'h' => {
            let j = word_then_gap(b, 0, b"home")?;
            let (tile, end) = label(b, j)?;
            Some((Turn::Home { tile }, end))
        }
        // `place = ${ (dominos ~ gap?)? ~ "place" ~ gap ~ territory }` without the buy-in.
        b'p' => {
            let j = word_then_gap(b, 0, b"place")?;
            let (territory, end) = territory(b, j)?;
            let turn = Turn::Place {
                buy_in: None,
                territory,
            };
            Some((turn, end))
        }
        _ => play(b),
    }
}

/// A turn that is not a home: `place` after a buy-in, or `play`.
fn play(b: &[u8]) -> Option<(Turn, usize)> {
    // `(dominos ~ gap?)?`, in `place` as in `play`.
    let (opening, mut i) = match dominos(b, 0) {
        Some((d, end)) => (Some(d), gap(b, end)),
        None => (None, 0),
    };
    if opening.is_some() && b[i..].starts_with(b"place") {
        let j = word_then_gap(b, i, b"place")?;
        let (territory, end) = territory(b, j)?;
        let turn = Turn::Place {
            buy_in: opening,
            territory,
        };
        return Some((turn, end));
    }
    // `(draw ~ (gap? ~ action)? | action)`
    let (draw, action) = match draw(b, i) {
        Some((draw, end)) => {
            i = end;
            match action(b, gap(b, end))? {
                Some((action, end)) => {
                    i = end;
                    (Some(draw), action)
                }
                None => (Some(draw), Action::Nothing),
            }
        }
        // A bracket that is neither: the parser says why.
        None if b.get(i) == Some(&b'[') => return None,
        None => {
            let (action, end) = action(b, i)??;
            i = end;
            (None, action)
        }
    };
    let (routes, claim, end) = routes_and_claim(b, i)?;
    let turn = Turn::Play {
        opening,
        draw,
        action,
        routes,
        claim,
    };
    Some((turn, end))
}

#[cfg(test)]
#[path = "fast_tests.rs"]
mod tests;
