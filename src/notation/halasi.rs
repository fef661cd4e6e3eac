//! Halasi turn notation (`spec/halasi.md`, "Notation"): the typed AST of one turn, its
//! parser and printer.
//!
//! ```text
//! home M1                                        a seat names its home tile
//! [RX SS IO QQ] place AM1 @0,0 r0                a setup placement, with the buy-in
//! [RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5     solitaire: the opening four first
//! [3: RX KK SS] territory BT2 @1,0 r3 =0         roll and draws, buy and place a tile
//! [2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17
//! [4: RX MM SS YY] leave
//! [3: RX KK SS]                                  solitaire: nothing can be placed
//! ```
//!
//! With a seed every bracket may be left out (when written it is checked).

use std::fmt;

/// One of the sixteen markings, by its number (`I`=0 … `R`=15). The suit is the number
/// modulo 4: Soft, Hard, Plant, Animal.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Marking(u8);

impl Marking {
    /// The symbols by number, as the seed writes them.
    pub const SYMBOLS: [char; 16] = [
        'I', 'O', 'F', 'X', 'S', 'U', 'Y', 'M', '#', 'T', '4', 'K', '9', 'Q', 'P', 'R',
    ];

    /// Every marking, by number.
    pub const ALL: [Marking; 16] = {
        let mut out = [Marking(0); 16];
        let mut i = 0;
        while i < 16 {
            out[i] = Marking(i as u8);
            i += 1;
        }
        out
    };

    /// The marking with this number (0..16).
    pub const fn from_number(n: u8) -> Option<Marking> {
        if n < 16 {
            Some(Marking(n))
        } else {
            None
        }
    }

    /// The marking written as `c`.
    pub fn from_symbol(c: char) -> Option<Marking> {
        Marking::SYMBOLS
            .iter()
            .position(|&s| s == c)
            .map(|i| Marking(i as u8))
    }

    /// Its number, 0..16.
    pub const fn number(self) -> u8 {
        self.0
    }

    pub const fn symbol(self) -> char {
        Marking::SYMBOLS[self.0 as usize]
    }
}

impl fmt::Display for Marking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A domino as written: its first half, then its second (`RX`: `R` then `X`). In a hand
/// `RX` and `XR` are the same domino ([`Domino::key`]).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Domino(pub Marking, pub Marking);

impl Domino {
    /// The number of distinct dominos: every unordered pair, doubles included.
    pub const KINDS: usize = 136;

    /// The halves in set order (lower number first).
    pub fn sorted(self) -> (Marking, Marking) {
        if self.0 <= self.1 {
            (self.0, self.1)
        } else {
            (self.1, self.0)
        }
    }

    /// The domino's place in a set listed in order of marking number, `i ≤ j`
    /// (`II`=0, `IO`=1, … `RR`=135): the same for `RX` and `XR`.
    pub fn key(self) -> u8 {
        let (a, b) = self.sorted();
        let (i, j) = (a.number() as usize, b.number() as usize);
        // Pairs before row i: 16 + 15 + … (16 - i + 1) = i*16 - i*(i-1)/2.
        (i * 16 - i * (i.saturating_sub(1)) / 2 + (j - i)) as u8
    }

    /// The domino with this key, written in set order.
    pub fn from_key(key: u8) -> Option<Domino> {
        let mut k = key as usize;
        for i in 0..16u8 {
            let row = 16 - i as usize;
            if k < row {
                let a = Marking(i);
                let b = Marking(i + k as u8);
                return Some(Domino(a, b));
            }
            k -= row;
        }
        None
    }

    pub fn is_double(self) -> bool {
        self.0 == self.1
    }
}

impl fmt::Display for Domino {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.0, self.1)
    }
}

/// A territory's label (`AM1`: the capital letter of the seat whose set the tile came
/// from, then the tile's name), or a tile's name alone (`M1`, in `home M1`). At most
/// [`Label::MAX`] ASCII letters and digits, the first a capital letter.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Label {
    len: u8,
    bytes: [u8; Label::MAX],
}

impl Label {
    /// The longest label: a seat letter and a tile name of up to 8 characters.
    pub const MAX: usize = 9;

    /// The label `text`, if it is one: 1 to [`Label::MAX`] ASCII letters and digits,
    /// the first a capital letter.
    pub fn new(text: &str) -> Option<Label> {
        let b = text.as_bytes();
        let ok = !b.is_empty()
            && b.len() <= Label::MAX
            && b[0].is_ascii_uppercase()
            && b.iter().all(|c| c.is_ascii_alphanumeric());
        if !ok {
            return None;
        }
        let mut bytes = [0u8; Label::MAX];
        bytes[..b.len()].copy_from_slice(b);
        Some(Label {
            len: b.len() as u8,
            bytes,
        })
    }

    /// `seat` (`a`…) capitalised, then `name`: `AM1`.
    pub fn of(seat_letter: char, name: Label) -> Option<Label> {
        let mut s = String::with_capacity(Label::MAX + 1);
        s.push(seat_letter.to_ascii_uppercase());
        s.push_str(name.as_str());
        Label::new(&s)
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII is ever stored.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// A triangle of the layout: a territory's label and the index on the layout (after
/// rotation), 0..24. `AM1.7`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Address {
    pub label: Label,
    pub index: u8,
}

impl Address {
    /// Triangles of a territory: 0–5 the centre ring, 6–23 the outer ring.
    pub const TRIANGLES: u8 = 24;
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.label, self.index)
    }
}

/// A territory position on the flat-topped super-grid, axial `(q,r)` (`@1,-2`).
/// Positions with `|q|` and `|r|` at most [`Pos::LIMIT`] exist.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Pos {
    pub q: i16,
    pub r: i16,
}

impl Pos {
    pub const LIMIT: i16 = 99;

    pub fn new(q: i32, r: i32) -> Option<Pos> {
        let lim = i32::from(Pos::LIMIT);
        ((-lim..=lim).contains(&q) && (-lim..=lim).contains(&r)).then_some(Pos {
            q: q as i16,
            r: r as i16,
        })
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{},{}", self.q, self.r)
    }
}

/// A territory laid on the layout: `AM1 @0,0 r0` (rotation 0–5).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct TerritoryAt {
    pub label: Label,
    pub at: Pos,
    pub rotation: u8,
}

impl TerritoryAt {
    pub const ROTATIONS: u8 = 6;
}

impl fmt::Display for TerritoryAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} r{}", self.label, self.at, self.rotation)
    }
}

/// A domino placed: `RX@AM1.0/AM1.7` puts `R` on `AM1.0` and `X` on `AM1.7`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct DominoAt {
    pub domino: Domino,
    pub first: Address,
    pub second: Address,
}

impl fmt::Display for DominoAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}/{}", self.domino, self.first, self.second)
    }
}

/// The roll of a regular turn and the dominos bought with it: `[5: RX SS IO QQ FY]`
/// (`[5:]` when none could be bought).
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Draw {
    pub roll: u8,
    pub dominos: Vec<Domino>,
}

impl fmt::Display for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}:", self.roll)?;
        for d in &self.dominos {
            write!(f, " {d}")?;
        }
        f.write_str("]")
    }
}

/// Dominos received without a roll: the buy-in on a seat's first `place`, or the
/// opening four of solitaire on its first regular turn. `[RX SS IO QQ]`.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Dominos(pub Vec<Domino>);

impl fmt::Display for Dominos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str("]")
    }
}

/// A route announced: `route AM1~BM2`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Route(pub Label, pub Label);

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "route {}~{}", self.0, self.1)
    }
}

/// What a regular turn does after its roll.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub enum Action {
    /// `territory BT2 @1,0 r3`: buy the top territory and place it.
    Territory(TerritoryAt),
    /// One or more dominos, separated by commas.
    Run(Vec<DominoAt>),
    /// `leave`: pay half the fee of the dominos in hand, return them, leave the game.
    Leave,
    /// The bracket alone (solitaire: no domino can be placed; the game is lost).
    Nothing,
}

/// One Halasi turn as written.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub enum Turn {
    /// `home M1`: a seat names its home tile.
    Home { tile: Label },
    /// `place AM1 @0,0 r0`: a setup placement, optionally with the seat's buy-in
    /// (`[RX SS IO QQ] place AM1 @0,0 r0`).
    Place {
        buy_in: Option<Dominos>,
        territory: TerritoryAt,
    },
    /// A regular turn: in solitaire's first, the opening four; the roll and draws
    /// (optional with a seed); the action, routes announced, the claimed score.
    Play {
        opening: Option<Dominos>,
        draw: Option<Draw>,
        action: Action,
        routes: Vec<Route>,
        claim: Option<i64>,
    },
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Home { tile } => write!(f, "home {tile}"),
            Turn::Place { buy_in, territory } => {
                if let Some(d) = buy_in {
                    write!(f, "{d} ")?;
                }
                write!(f, "place {territory}")
            }
            Turn::Play {
                opening,
                draw,
                action,
                routes,
                claim,
            } => {
                let mut sep = "";
                if let Some(o) = opening {
                    write!(f, "{o}")?;
                    sep = " ";
                }
                if let Some(d) = draw {
                    f.write_str(sep)?;
                    write!(f, "{d}")?;
                    sep = " ";
                }
                match action {
                    Action::Territory(t) => write!(f, "{sep}territory {t}")?,
                    Action::Run(dominos) => {
                        f.write_str(sep)?;
                        for (i, d) in dominos.iter().enumerate() {
                            if i > 0 {
                                f.write_str(", ")?;
                            }
                            write!(f, "{d}")?;
                        }
                    }
                    Action::Leave => write!(f, "{sep}leave")?,
                    Action::Nothing => {}
                }
                for r in routes {
                    write!(f, " {r}")?;
                }
                if let Some(c) = claim {
                    write!(f, " ={c}")?;
                }
                Ok(())
            }
        }
    }
}

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    #[grammar = "../grammar/halasi.pest"]
    #[grammar = "../grammar/movetext.pest"]
    pub(super) struct TurnParser;
}

use grammar::{Rule, TurnParser};
use pest::iterators::Pair;
use pest::Parser;

use super::TurnParse;

fn expected_text(rules: &[Rule]) -> String {
    let has = |r: Rule| rules.contains(&r);
    let text = if has(Rule::address) || has(Rule::index) {
        "a triangle such as `AM1.7`"
    } else if has(Rule::pos) || has(Rule::coord) {
        "a territory position such as `@1,-2`"
    } else if has(Rule::rotation) {
        "a rotation `r0`…`r5`"
    } else if has(Rule::roll) {
        "a roll and the dominos bought, such as `[3: RX KK SS]`"
    } else if has(Rule::label) {
        "a territory label such as `AM1` (a tile name such as `M1` after `home`)"
    } else if has(Rule::placed) || has(Rule::domino) {
        "a domino placed, such as `RX@AM1.0/AM1.7`"
    } else if has(Rule::points) {
        "a claimed score such as `=17` or `=-8`"
    } else {
        "a turn such as `home M1`, `place AM1 @0,0 r0`, `[3: RX KK SS] RR@AM1.0/AM1.7`, \
         `territory BT2 @1,0 r3` or `leave`"
    };
    text.to_string()
}

/// The label put where a turn names one that cannot exist: the turn is reported as
/// [`TurnParse::BadAddress`], so the value is never judged.
fn filler() -> Label {
    Label {
        len: 1,
        bytes: *b"X\0\0\0\0\0\0\0\0",
    }
}

/// The first element of a turn that does not exist: (byte offset, length).
type Bad = Option<(usize, usize)>;

fn flag(bad: &mut Bad, pair: &Pair<'_, Rule>) {
    if bad.is_none() {
        let span = pair.as_span();
        *bad = Some((span.start(), span.end() - span.start()));
    }
}

fn domino(pair: Pair<'_, Rule>) -> Domino {
    let mut cs = pair.as_str().chars().filter_map(Marking::from_symbol);
    let a = cs.next().unwrap_or(Marking(0));
    let b = cs.next().unwrap_or(a);
    Domino(a, b)
}

fn dominos(pair: Pair<'_, Rule>) -> Vec<Domino> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::domino)
        .map(domino)
        .collect()
}

fn label(pair: Pair<'_, Rule>, bad: &mut Bad) -> Label {
    Label::new(pair.as_str()).unwrap_or_else(|| {
        flag(bad, &pair);
        filler()
    })
}

fn address(pair: Pair<'_, Rule>, bad: &mut Bad) -> Address {
    let whole = pair.clone();
    let mut inner = pair.into_inner();
    let l = inner.next().map(|p| label(p, bad));
    let index = inner.next().and_then(|p| p.as_str().parse::<u8>().ok());
    match (l, index) {
        (Some(label), Some(index)) if index < Address::TRIANGLES => Address { label, index },
        (l, _) => {
            flag(bad, &whole);
            Address {
                label: l.unwrap_or(filler()),
                index: 0,
            }
        }
    }
}

fn territory(pair: Pair<'_, Rule>, bad: &mut Bad) -> TerritoryAt {
    let mut out = TerritoryAt {
        label: filler(),
        at: Pos { q: 0, r: 0 },
        rotation: 0,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::label => out.label = label(p, bad),
            Rule::pos => {
                let coords: Vec<Option<i32>> = p
                    .clone()
                    .into_inner()
                    .map(|c| c.as_str().parse().ok())
                    .collect();
                match (
                    coords.first().copied().flatten(),
                    coords.get(1).copied().flatten(),
                ) {
                    (Some(q), Some(r)) if Pos::new(q, r).is_some() => {
                        out.at = Pos::new(q, r).expect("checked");
                    }
                    _ => flag(bad, &p),
                }
            }
            Rule::rotation => match p.as_str()[1..].parse::<u8>() {
                Ok(k) if k < TerritoryAt::ROTATIONS => out.rotation = k,
                _ => flag(bad, &p),
            },
            _ => {}
        }
    }
    out
}

fn placed(pair: Pair<'_, Rule>, bad: &mut Bad) -> DominoAt {
    let mut inner = pair.into_inner();
    let d = inner
        .next()
        .map(domino)
        .unwrap_or(Domino(Marking(0), Marking(0)));
    let first = inner.next().map(|p| address(p, bad));
    let second = inner.next().map(|p| address(p, bad));
    let none = Address {
        label: filler(),
        index: 0,
    };
    DominoAt {
        domino: d,
        first: first.unwrap_or(none),
        second: second.unwrap_or(none),
    }
}

/// Parses a `Setup` value: solitaire's layout, the territories laid after the home, in
/// order (`AT2 @1,0 r3, AM2 @0,1 r0`). An error says at which byte and why.
pub fn parse_setup(input: &str) -> Result<Vec<TerritoryAt>, (usize, String)> {
    let setup = TurnParser::parse(Rule::setup, input).map_err(|e| {
        let at = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        (
            at,
            "a Halasi Setup lists territories: `AT2 @1,0 r3, AM2 @0,1 r0`".to_string(),
        )
    })?;
    let mut bad: Bad = None;
    let mut out = Vec::new();
    for p in setup.flatten().filter(|p| p.as_rule() == Rule::territory) {
        out.push(territory(p, &mut bad));
    }
    match bad {
        Some((at, len)) => Err((
            at,
            format!(
                "`{}` does not exist (a label of at most {} characters, a position within ±{}, a rotation r0-r5)",
                crate::quote::quote(&input[at..at + len]),
                Label::MAX,
                Pos::LIMIT
            ),
        )),
        None => Ok(out),
    }
}

/// Parses one Halasi turn at the start of `input`; what follows is the caller's.
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match super::turn_pair(TurnParser::parse(Rule::turn, input), expected_text) {
        Ok(turn) => turn_of(turn),
        Err(no_turn) => no_turn,
    }
}

super::fast_movetext!(Turn, turn_of, parse_turn);

/// The turn a `turn` pair holds; offsets count from the pair's start.
fn turn_of(turn: pest::iterators::Pair<'_, Rule>) -> TurnParse<Turn> {
    let base = turn.as_span().start();
    let len = turn.as_span().end() - base;
    let mut bad: Bad = None;
    let Some(part) = turn.into_inner().next() else {
        return TurnParse::NoTurn {
            at: 0,
            expected: expected_text(&[]),
        };
    };
    let out = match part.as_rule() {
        Rule::home => {
            let tile = part
                .into_inner()
                .find(|p| p.as_rule() == Rule::label)
                .map(|p| label(p, &mut bad))
                .unwrap_or(filler());
            Turn::Home { tile }
        }
        Rule::place => {
            let mut buy_in = None;
            let mut at = None;
            for p in part.into_inner() {
                match p.as_rule() {
                    Rule::dominos => buy_in = Some(Dominos(dominos(p))),
                    Rule::territory => at = Some(territory(p, &mut bad)),
                    _ => {}
                }
            }
            Turn::Place {
                buy_in,
                territory: at.unwrap_or(TerritoryAt {
                    label: filler(),
                    at: Pos { q: 0, r: 0 },
                    rotation: 0,
                }),
            }
        }
        _ => {
            let (mut opening, mut draw, mut action, mut routes, mut claim) =
                (None, None, Action::Nothing, Vec::new(), None);
            for p in part.into_inner() {
                match p.as_rule() {
                    Rule::dominos => opening = Some(Dominos(dominos(p))),
                    Rule::draw => {
                        let mut roll = 0;
                        let mut ds = Vec::new();
                        for q in p.into_inner() {
                            match q.as_rule() {
                                Rule::roll => roll = q.as_str().parse().unwrap_or(0),
                                Rule::domino => ds.push(domino(q)),
                                _ => {}
                            }
                        }
                        draw = Some(Draw { roll, dominos: ds });
                    }
                    Rule::action => {
                        if let Some(a) = p.into_inner().next() {
                            action = match a.as_rule() {
                                Rule::buy => match a.into_inner().next() {
                                    Some(t) => Action::Territory(territory(t, &mut bad)),
                                    None => Action::Nothing,
                                },
                                Rule::leave => Action::Leave,
                                _ => Action::Run(
                                    a.into_inner()
                                        .filter(|q| q.as_rule() == Rule::placed)
                                        .map(|q| placed(q, &mut bad))
                                        .collect(),
                                ),
                            };
                        }
                    }
                    Rule::route => {
                        let mut ls = p.into_inner().map(|q| label(q, &mut bad));
                        let a = ls.next();
                        let b = ls.next();
                        if let (Some(a), Some(b)) = (a, b) {
                            routes.push(Route(a, b));
                        }
                    }
                    Rule::claim => {
                        let text = p.as_str()[1..].to_string();
                        match text.parse::<i64>() {
                            Ok(n) => claim = Some(n),
                            Err(_) => {
                                return TurnParse::NoTurn {
                                    at: p.as_span().start() - base,
                                    expected: "a claimed score that fits in 64 bits".into(),
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            Turn::Play {
                opening,
                draw,
                action,
                routes,
                claim,
            }
        }
    };
    TurnParse::finish(out, len, bad.map(|(at, n)| (at - base, n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(input: &str) -> (Turn, usize) {
        match parse_turn(input) {
            TurnParse::Turn(t, len) => (t, len),
            other => panic!("{input:?} did not parse: {other:?}"),
        }
    }

    #[test]
    fn every_form_parses_and_prints_back() {
        for text in [
            "home M1",
            "place AM1 @0,0 r0",
            "[RX SS IO QQ] place BT2 @-1,2 r5",
            "[3: RX KK SS] territory BT2 @1,0 r3 =0",
            "[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17",
            "[4: RX MM SS YY] leave",
            "[3: RX KK SS]",
            "[5:]",
            "[RX SS IO QQ] [3: KK SS YY] KK@AM1.4/AM1.5",
            "RR@AM1.0/AM1.7",
            "leave",
            "territory CM2 @-3,-4 r1",
            "9#@AT1.23/AT1.6 route AM1~BM1 route AM1~CM1 =-8",
            "44@BT3.1/BT3.2",
        ] {
            let (t, len) = turn(text);
            assert_eq!(len, text.len(), "{text}");
            assert_eq!(t.to_string(), text, "prints back");
        }
    }

    #[test]
    fn the_tree_is_what_was_written() {
        let (t, _) = turn("[2: IO YY] RR@AM1.0/AM1.7 route AM1~BM2 =17");
        let Turn::Play {
            opening: None,
            draw: Some(draw),
            action: Action::Run(run),
            routes,
            claim: Some(17),
        } = t
        else {
            panic!("{t:?}")
        };
        assert_eq!(draw.roll, 2);
        assert_eq!(draw.dominos.len(), 2);
        assert_eq!(run[0].first.to_string(), "AM1.0");
        assert_eq!(run[0].second.index, 7);
        assert_eq!(routes[0].1.as_str(), "BM2");
        assert!(matches!(
            turn("[3: RX]").0,
            Turn::Play {
                action: Action::Nothing,
                ..
            }
        ));
    }

    #[test]
    fn spaces_and_line_breaks_inside_a_turn() {
        let (t, len) = turn("[2:IO YY]\n  RR@AM1.0/AM1.7 ,\n RS@AM1.8/AM1.9\nroute AM1~BM2\n=17");
        assert_eq!(len, 62, "the whole text");
        assert_eq!(
            t.to_string(),
            "[2: IO YY] RR@AM1.0/AM1.7, RS@AM1.8/AM1.9 route AM1~BM2 =17"
        );
    }

    #[test]
    fn a_turn_ends_where_its_notation_ends() {
        assert_eq!(turn("RR@AM1.0/AM1.7 12. b: leave").1, 14);
        assert_eq!(turn("leave {c}").1, 5);
        assert_eq!(turn("leave ; c").1, 5);
        assert_eq!(turn("[3: RX] =0 \n").1, 10);
        assert_eq!(turn("home M1\n2. home M1").1, 7);
        assert_eq!(turn("place AM1 @0,0 r0 b: place").1, 17);
        assert!(matches!(parse_turn("leaver"), TurnParse::NoTurn { .. }));
        assert!(matches!(parse_turn("homeM1"), TurnParse::NoTurn { .. }));
        assert!(
            matches!(parse_turn("[RX SS] leave"), TurnParse::Turn(..)),
            "opening brackets parse; the game judges them"
        );
        assert!(matches!(
            parse_turn("[3: RX] home M1"),
            TurnParse::NoTurn { .. } | TurnParse::Turn(_, 7)
        ));
        assert!(matches!(parse_turn("RR@AM1.0"), TurnParse::NoTurn { .. }));
        assert!(matches!(
            parse_turn("ZZ@AM1.0/AM1.1"),
            TurnParse::NoTurn { .. }
        ));
        assert!(matches!(parse_turn(""), TurnParse::NoTurn { .. }));
    }

    #[test]
    fn what_does_not_exist_is_a_bad_address() {
        let bad = |text: &str| match parse_turn(text) {
            TurnParse::BadAddress {
                len,
                at,
                address_len,
            } => (len, at, address_len),
            other => panic!("{text:?}: {other:?}"),
        };
        assert_eq!(bad("RR@AM1.24/AM1.7"), (15, 3, 6));
        assert_eq!(bad("RR@AM1.0/AM1.99999999999"), (24, 9, 15));
        assert_eq!(bad("place AM1 @100,0 r0"), (19, 10, 6));
        assert_eq!(bad("territory BT2 @1,0 r7"), (21, 19, 2));
        assert_eq!(bad("home ABCDEFGHIJK"), (16, 5, 11));
        assert_eq!(bad("RR@AM1.0/AM1.1 route AM1~ABCDEFGHIJK"), (36, 25, 11));
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        fn marking() -> impl Strategy<Value = Marking> {
            (0u8..16).prop_map(|n| Marking::from_number(n).unwrap())
        }
        fn domino() -> impl Strategy<Value = Domino> {
            (marking(), marking()).prop_map(|(a, b)| Domino(a, b))
        }
        fn label() -> impl Strategy<Value = Label> {
            "[A-Z][A-Za-z0-9]{0,8}".prop_map(|s| Label::new(&s).unwrap())
        }
        fn address() -> impl Strategy<Value = Address> {
            (label(), 0u8..24).prop_map(|(label, index)| Address { label, index })
        }
        fn territory() -> impl Strategy<Value = TerritoryAt> {
            (label(), -99i32..=99, -99i32..=99, 0u8..6).prop_map(|(label, q, r, rotation)| {
                TerritoryAt {
                    label,
                    at: Pos::new(q, r).unwrap(),
                    rotation,
                }
            })
        }
        fn bracket() -> impl Strategy<Value = Dominos> {
            prop::collection::vec(domino(), 0..6).prop_map(Dominos)
        }
        fn action() -> impl Strategy<Value = Action> {
            prop_oneof![
                territory().prop_map(Action::Territory),
                Just(Action::Leave),
                prop::collection::vec(
                    (domino(), address(), address()).prop_map(|(domino, first, second)| {
                        DominoAt {
                            domino,
                            first,
                            second,
                        }
                    }),
                    1..5
                )
                .prop_map(Action::Run),
            ]
        }
        fn turn() -> impl Strategy<Value = Turn> {
            prop_oneof![
                label().prop_map(|tile| Turn::Home { tile }),
                (prop::option::of(bracket()), territory())
                    .prop_map(|(buy_in, territory)| Turn::Place { buy_in, territory }),
                (
                    prop::option::of(bracket()),
                    prop::option::of((1u8..=99, prop::collection::vec(domino(), 0..7))),
                    prop::option::of(action()),
                    prop::collection::vec((label(), label()).prop_map(|(a, b)| Route(a, b)), 0..3),
                    prop::option::of(any::<i64>()),
                )
                    .prop_map(|(opening, draw, action, routes, claim)| {
                        let draw = draw.map(|(roll, dominos)| Draw { roll, dominos });
                        // An action is needed unless a roll bracket stands alone.
                        let action = match (action, &draw) {
                            (Some(a), _) => a,
                            (None, Some(_)) => Action::Nothing,
                            (None, None) => Action::Leave,
                        };
                        Turn::Play {
                            opening,
                            draw,
                            action,
                            routes,
                            claim,
                        }
                    }),
            ]
        }

        proptest! {
            #[test]
            fn a_printed_turn_parses_back(t in turn()) {
                let text = t.to_string();
                match parse_turn(&text) {
                    TurnParse::Turn(back, len) => {
                        prop_assert_eq!(back, t);
                        prop_assert_eq!(len, text.len());
                    }
                    other => prop_assert!(false, "{:?} did not parse: {:?}", text, other),
                }
            }

            #[test]
            fn no_input_panics(text in "\\PC{0,60}|[\\[\\]0-9: RXIO#94@AM.,/~=rle-]{0,60}") {
                match parse_turn(&text) {
                    TurnParse::Turn(_, len) | TurnParse::BadAddress { len, .. } => {
                        prop_assert!(len <= text.len())
                    }
                    TurnParse::NoTurn { at, .. } => prop_assert!(at <= text.len()),
                }
            }
        }
    }

    #[test]
    fn a_movetext_through_the_record_frame() {
        use crate::notation::record::{parse_movetext, Action as Frame, Limits, Span};
        let text = "1. home M1 2. home M1 {both homes}\n\
                    3. a: [RX SS IO QQ] place AM1 @0,0 r0\n\
                    4. b: place BM1 @0,-1 r2 ; the first round\n\
                    5. [2: IO YY] RR@AM1.0/AM1.7,\n   RS@AM1.8/AM1.9 route AM1~BM1 =17!?\n\
                    6. resign *";
        let mt = parse_movetext(
            text,
            Span::new(0, text.len()),
            &Limits::default(),
            parse_turn,
        );
        assert!(mt.error.is_none(), "{:?}", mt.error);
        assert_eq!(mt.entries.len(), 6);
        assert_eq!(
            mt.entries[2].label.as_ref().map(|l| l.0.as_str()),
            Some("a")
        );
        let Frame::Play(Turn::Play {
            action: Action::Run(run),
            ..
        }) = &mt.entries[4].action
        else {
            panic!("{:?}", mt.entries[4].action)
        };
        assert_eq!(run.len(), 2, "a run over two lines");
        assert_eq!(mt.entries[4].annotations, ["!?"]);
        assert!(matches!(mt.entries[5].action, Frame::Resign));
        assert!(mt.termination.is_some());
    }

    #[test]
    fn markings_by_number_and_symbol() {
        assert_eq!(Marking::from_symbol('I').unwrap().number(), 0);
        assert_eq!(Marking::from_symbol('#').unwrap().number(), 8);
        assert_eq!(Marking::from_symbol('R').unwrap().number(), 15);
        assert_eq!(Marking::from_symbol('Z'), None);
        for m in Marking::ALL {
            assert_eq!(Marking::from_symbol(m.symbol()), Some(m));
        }
    }

    #[test]
    fn domino_keys_run_through_the_set_in_order() {
        let mut k = 0u8;
        for i in 0..16u8 {
            for j in i..16u8 {
                let d = Domino(Marking(i), Marking(j));
                assert_eq!(d.key(), k, "{d}");
                assert_eq!(Domino(d.1, d.0).key(), k, "reversed {d}");
                assert_eq!(Domino::from_key(k), Some(d));
                k = k.wrapping_add(1);
            }
        }
        assert_eq!(k as usize, Domino::KINDS);
        assert_eq!(Domino::from_key(136), None);
    }

    #[test]
    fn labels() {
        assert_eq!(Label::new("AM1").unwrap().as_str(), "AM1");
        assert!(Label::new("am1").is_none());
        assert!(Label::new("").is_none());
        assert!(Label::new("ABCDEFGHIJ").is_none());
        assert!(Label::new("A.1").is_none());
        let m1 = Label::new("M1").unwrap();
        assert_eq!(Label::of('b', m1).unwrap().as_str(), "BM1");
    }
}
