//! A seat's hand: its dominos in the order acquired, and how many of each kind it holds.
//!
//! A hand grows by the dominos each turn buys and may hold a hundred or more. Rule
//! `from-hand` asks whether it holds a run's dominos; the counts answer that without
//! looking through it, and without copying it to add the turn's purchases.

use std::fmt;
use std::ops::Deref;

use crate::notation::halasi::Domino;

/// The dominos of a hand in the order acquired (which a `leave` returns them in), with
/// the count of each kind ([`Domino::key`]) kept beside them. Every domino in play is one
/// of at most 4 sets for each of 6 seats, so a count fits a byte.
#[derive(Clone, Eq, PartialEq)]
pub struct Hand {
    dominos: Vec<Domino>,
    /// Each domino's key, in the same order: a domino is found in the hand by a search
    /// for one byte.
    keys: Vec<u8>,
    kinds: [u8; Domino::KINDS],
}

/// The dominos a hand first makes room for.
const ROOM: usize = 64;

impl Default for Hand {
    fn default() -> Hand {
        Hand {
            dominos: Vec::new(),
            keys: Vec::new(),
            kinds: [0; Domino::KINDS],
        }
    }
}

impl Deref for Hand {
    type Target = [Domino];

    fn deref(&self) -> &[Domino] {
        &self.dominos
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.dominos).finish()
    }
}

impl From<&[Domino]> for Hand {
    fn from(dominos: &[Domino]) -> Hand {
        let mut hand = Hand::default();
        hand.extend(dominos);
        hand
    }
}

impl Hand {
    /// Adds dominos acquired, after those held.
    pub fn extend(&mut self, dominos: &[Domino]) {
        if self.dominos.capacity() == 0 {
            // Room for most of a game's hand at once.
            self.dominos.reserve(ROOM);
            self.keys.reserve(ROOM);
        }
        self.dominos.extend_from_slice(dominos);
        for d in dominos {
            self.keys.push(d.key());
            let k = &mut self.kinds[d.key() as usize];
            *k = k.saturating_add(1);
        }
    }

    /// How many of each kind the hand holds, by [`Domino::key`].
    pub fn kinds(&self) -> &[u8; Domino::KINDS] {
        &self.kinds
    }

    /// Takes dominos the hand holds out of it, each from its first occurrence.
    pub fn take(&mut self, dominos: impl IntoIterator<Item = Domino>) {
        for d in dominos {
            let key = d.key();
            if let Some(i) = memchr::memchr(key, &self.keys) {
                self.dominos.remove(i);
                self.keys.remove(i);
                self.kinds[key as usize] -= 1;
            }
        }
    }

    /// Empties the hand, giving back its dominos in the order acquired.
    pub fn take_all(&mut self) -> Vec<Domino> {
        self.kinds = [0; Domino::KINDS];
        self.keys.clear();
        std::mem::take(&mut self.dominos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::halasi::Marking;

    fn dominos(text: &str) -> Vec<Domino> {
        let m = |c| Marking::from_symbol(c).unwrap();
        text.split(' ')
            .map(|w| {
                let mut c = w.chars();
                Domino(m(c.next().unwrap()), m(c.next().unwrap()))
            })
            .collect()
    }

    /// The counts as looking through the dominos gives them (and the keys kept beside
    /// the dominos are theirs).
    fn counted(h: &Hand) -> [u8; Domino::KINDS] {
        assert!(h.keys.iter().copied().eq(h.dominos.iter().map(|d| d.key())));
        let mut out = [0; Domino::KINDS];
        for d in h.iter() {
            out[d.key() as usize] += 1;
        }
        out
    }

    #[test]
    fn a_hands_counts_follow_its_dominos_and_takes_are_from_first_occurrences() {
        let mut h = Hand::from(&dominos("RX SS XR IO")[..]);
        assert_eq!(h.kinds(), &counted(&h));
        assert_eq!(h.kinds()[dominos("XR")[0].key() as usize], 2);
        h.extend(&dominos("SS QQ"));
        assert_eq!(h.kinds(), &counted(&h));
        // `XR` takes the first `RX`, and the two `SS` both.
        h.take(dominos("XR SS SS"));
        assert_eq!(&h[..], &dominos("XR IO QQ")[..]);
        assert_eq!(h.kinds(), &counted(&h));
        assert_eq!(h.take_all(), dominos("XR IO QQ"));
        assert!(h.is_empty() && h.kinds().iter().all(|&k| k == 0));
        let rx = dominos("RX SS");
        assert_eq!(format!("{:?}", Hand::from(&rx[..])), format!("{rx:?}"));
    }
}
