//! Suits and relations between markings (`halasi.md`, "Markings").

use std::fmt;

use crate::notation::halasi::Marking;

/// The four suits; a marking's suit is its number modulo 4.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Suit {
    Soft,
    Hard,
    Plant,
    Animal,
}

impl Suit {
    pub fn of(m: Marking) -> Suit {
        match m.number() % 4 {
            0 => Suit::Soft,
            1 => Suit::Hard,
            2 => Suit::Plant,
            _ => Suit::Animal,
        }
    }
}

/// The relation of two markings, best first.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub enum Relation {
    /// The same symbol.
    Same,
    /// The same suit, another symbol.
    Kin,
    /// Hard–Soft, Plant–Animal.
    Ally,
    /// Hard–Animal, Soft–Plant.
    Neutral,
    /// Hard–Plant, Soft–Animal.
    Opposed,
}

impl Relation {
    pub const ALL: [Relation; 5] = [
        Relation::Same,
        Relation::Kin,
        Relation::Ally,
        Relation::Neutral,
        Relation::Opposed,
    ];

    /// The relation of `a` and `b` (symmetric): a look-up in [`RELATION`].
    #[inline]
    pub fn of(a: Marking, b: Marking) -> Relation {
        Relation::ALL[RELATION[a.number() as usize][b.number() as usize] as usize]
    }

    /// The relation of two marking numbers, worked out (`RELATION` is made of it).
    const fn between(a: u8, b: u8) -> Relation {
        if a == b {
            return Relation::Same;
        }
        let (x, y) = (a % 4, b % 4);
        if x == y {
            return Relation::Kin;
        }
        // Suits 0 Soft, 1 Hard, 2 Plant, 3 Animal.
        let (lo, hi) = if x < y { (x, y) } else { (y, x) };
        match (lo, hi) {
            (0, 1) | (2, 3) => Relation::Ally,
            (1, 3) | (0, 2) => Relation::Neutral,
            _ => Relation::Opposed,
        }
    }

    /// The word of the spec and of the score tables' keys (`self`, `kin`, …).
    pub fn word(self) -> &'static str {
        match self {
            Relation::Same => "self",
            Relation::Kin => "kin",
            Relation::Ally => "ally",
            Relation::Neutral => "neutral",
            Relation::Opposed => "opposed",
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// No marking: an uncovered triangle, or none next to an edge of the layout, as a
/// column of [`RELATION`].
pub const NO_MARK: u8 = 16;

/// Where no marking is, [`RELATION`]'s entry: past the relations, an index whose points
/// are 0 in a table of points by relation with one more entry.
pub const NO_RELATION: u8 = 5;

/// The relation of every two marking numbers, as [`Relation::index`], and
/// [`NO_RELATION`] against [`NO_MARK`]: relations are looked up on every half of every
/// run, and a look-up takes no branch.
pub const RELATION: [[u8; 17]; 16] = {
    let mut out = [[NO_RELATION; 17]; 16];
    let mut a = 0;
    while a < 16 {
        let mut b = 0;
        while b < 16 {
            out[a][b] = Relation::between(a as u8, b as u8) as u8;
            b += 1;
        }
        a += 1;
    }
    out
};

impl fmt::Display for Relation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(c: char) -> Marking {
        Marking::from_symbol(c).unwrap()
    }

    #[test]
    fn suits_follow_the_table() {
        for (symbols, suit) in [
            ("IS#9", Suit::Soft),
            ("OUTQ", Suit::Hard),
            ("FY4P", Suit::Plant),
            ("XMKR", Suit::Animal),
        ] {
            for c in symbols.chars() {
                assert_eq!(Suit::of(m(c)), suit, "{c}");
            }
        }
    }

    /// The recovered table of seeds/README.md, row by row.
    #[test]
    fn relations_follow_the_recovered_table() {
        // (suit representative, ally, neutral, opposed)
        let rows = [
            ('O', 'I', 'X', 'F'), // Hard: Soft, Animal, Plant
            ('I', 'O', 'F', 'X'), // Soft: Hard, Plant, Animal
            ('F', 'X', 'I', 'O'), // Plant: Animal, Soft, Hard
            ('X', 'F', 'O', 'I'), // Animal: Plant, Hard, Soft
        ];
        for (s, ally, neutral, opposed) in rows {
            assert_eq!(Relation::of(m(s), m(ally)), Relation::Ally, "{s}-{ally}");
            assert_eq!(Relation::of(m(s), m(neutral)), Relation::Neutral);
            assert_eq!(Relation::of(m(s), m(opposed)), Relation::Opposed);
        }
        assert_eq!(Relation::of(m('R'), m('R')), Relation::Same);
        assert_eq!(Relation::of(m('R'), m('X')), Relation::Kin);
        for a in Marking::ALL {
            for b in Marking::ALL {
                assert_eq!(Relation::of(a, b), Relation::of(b, a));
            }
            // No marking is no relation, worth nothing.
            assert_eq!(RELATION[a.number() as usize][NO_MARK as usize], NO_RELATION);
        }
        assert_eq!(NO_RELATION as usize, Relation::ALL.len());
    }
}
