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
use std::hash::{Hash, Hasher};

use smallvec::SmallVec;

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
    #[inline]
    pub fn key(self) -> u8 {
        // Hands, pools and draws are compared by key on every turn: a table look-up.
        Domino::KEYS[(self.0 .0 as usize) << 4 | self.1 .0 as usize]
    }

    /// [`Domino::key`] of every ordered pair, by `16 × first + second`.
    const KEYS: [u8; 256] = {
        let mut out = [0u8; 256];
        let mut a = 0;
        while a < 16 {
            let mut b = 0;
            while b < 16 {
                let (i, j) = if a <= b { (a, b) } else { (b, a) };
                // Pairs before row i: 16 + 15 + … (16 - i + 1) = i*16 - i*(i-1)/2.
                let before = if i == 0 { 0 } else { i * 16 - i * (i - 1) / 2 };
                out[a << 4 | b] = (before + (j - i)) as u8;
                b += 1;
            }
            a += 1;
        }
        out
    };

    /// One set: every domino in key order ([`Domino::from_key`] of `0..KINDS`).
    pub const SET: [Domino; Domino::KINDS] = {
        let mut out = [Domino(Marking(0), Marking(0)); Domino::KINDS];
        let (mut k, mut i) = (0, 0);
        while i < 16 {
            let mut j = i;
            while j < 16 {
                out[k] = Domino(Marking(i), Marking(j));
                k += 1;
                j += 1;
            }
            i += 1;
        }
        out
    };

    /// The same domino as `other`, either way round (`RX` and `XR`): what comparing
    /// keys says, without the look-up.
    #[inline]
    pub fn same(self, other: Domino) -> bool {
        (self.0 == other.0 && self.1 == other.1) || (self.0 == other.1 && self.1 == other.0)
    }

    /// The domino with this key, written in set order.
    pub fn from_key(key: u8) -> Option<Domino> {
        Domino::SET.get(usize::from(key)).copied()
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

/// Dominos written in a bracket: a roll's draws (at most 6), a buy-in, solitaire's
/// opening four. Held in place up to 8, as a `Vec` the size of one, so that reading a
/// turn allocates nothing.
pub type DominoList = SmallVec<[Domino; 8]>;

/// A run's dominos: held in place up to 2 (most runs are of one).
pub type Run = SmallVec<[DominoAt; 2]>;

/// A territory's label (`AM1`: the capital letter of the seat whose set the tile came
/// from, then the tile's name), or a tile's name alone (`M1`, in `home M1`). At most
/// [`Label::MAX`] ASCII letters and digits, the first a capital letter.
#[derive(Copy, Clone, Eq, Ord, PartialOrd)]
pub struct Label {
    len: u8,
    /// The label's bytes, then zeros.
    bytes: [u8; Label::MAX],
}

/// Labels are compared on every address a run names: as two words, which is comparing
/// the fields (the bytes past the length are zero), without a call to compare memory.
impl PartialEq for Label {
    #[inline]
    fn eq(&self, other: &Label) -> bool {
        self.words() == other.words()
    }
}

/// As the fields are hashed, to agree with [`PartialEq`].
impl Hash for Label {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len.hash(state);
        self.bytes.hash(state);
    }
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
        // What `Label::new` takes: a capital letter first, at most `MAX` in all (the
        // name is a label already).
        let first = seat_letter.to_ascii_uppercase();
        let len = 1 + name.len as usize;
        if !first.is_ascii_uppercase() || len > Label::MAX {
            return None;
        }
        let mut bytes = [0u8; Label::MAX];
        bytes[0] = first as u8;
        bytes[1..len].copy_from_slice(&name.bytes[..name.len as usize]);
        Some(Label {
            len: len as u8,
            bytes,
        })
    }

    /// The label as two words: its first eight bytes, then its ninth and its length.
    #[inline]
    fn words(&self) -> (u64, u16) {
        let b = &self.bytes;
        let first = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        (first, u16::from_le_bytes([b[8], self.len]))
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
    pub dominos: DominoList,
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
pub struct Dominos(pub DominoList);

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
    Run(Run),
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

/// Its lists are inline but for long ones, and its routes' list owns nothing unless
/// the turn announces a route.
impl super::record::HeapFree for Turn {
    #[inline]
    fn heap_free(&self) -> bool {
        let inline = |d: &Dominos| !d.0.spilled();
        match self {
            Turn::Home { .. } => true,
            Turn::Place { buy_in, .. } => buy_in.as_ref().is_none_or(inline),
            Turn::Play {
                opening,
                draw,
                action,
                routes,
                ..
            } => {
                routes.capacity() == 0
                    && opening.as_ref().is_none_or(inline)
                    && draw.as_ref().is_none_or(|d| !d.dominos.spilled())
                    && match action {
                        Action::Run(run) => !run.spilled(),
                        Action::Territory(_) | Action::Leave | Action::Nothing => true,
                    }
            }
        }
    }
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

mod fast;
mod parse;

pub use parse::{parse_movetext, parse_movetext_into, parse_setup, parse_turn};

#[cfg(test)]
mod tests;
