//! Turns and series as the rules hold them: the notation's
//! ([`crate::notation::thaayam`]), with their lists held inline up to a few items.
//!
//! Every listed turn carries the series and its actions, and a random playout lists
//! every outcome of every turn: with `Vec`s, allocating and freeing them was a quarter of
//! a playout's time. Parsing goes through the notation's types; printing converts back
//! to them, so the text is the notation's by construction.

use std::fmt;
use std::ops::Deref;

use crate::notation::thaayam as notation;
use crate::notation::thaayam::Square;
use crate::notation::TurnParse;

/// A list held inline up to `N` items, on the heap past them; compared as a slice.
#[derive(Clone, Debug)]
pub enum Few<T, const N: usize> {
    Inline(u8, [T; N]),
    Heap(Vec<T>),
}

impl<T: Clone + Default, const N: usize> Few<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        Few::Inline(0, std::array::from_fn(|_| T::default()))
    }

    /// The list of `f` of each of `items`.
    pub fn map<S>(items: &[S], f: impl Fn(&S) -> T) -> Self {
        if items.len() <= N {
            let all = std::array::from_fn(|k| items.get(k).map_or_else(T::default, &f));
            Few::Inline(items.len() as u8, all)
        } else {
            Few::Heap(items.iter().map(f).collect())
        }
    }

    /// Adds an item at the end.
    pub fn push(&mut self, item: T) {
        match self {
            Few::Inline(len, items) if usize::from(*len) < N => {
                items[usize::from(*len)] = item;
                *len += 1;
            }
            Few::Inline(_, items) => {
                let mut all = items.to_vec();
                all.push(item);
                *self = Few::Heap(all);
            }
            Few::Heap(all) => all.push(item),
        }
    }
}

impl<T: Clone + Default, const N: usize> Default for Few<T, N> {
    fn default() -> Self {
        Few::new()
    }
}

impl<T, const N: usize> Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Few::Inline(len, items) => &items[..usize::from(*len)],
            Few::Heap(all) => all,
        }
    }
}

impl<T: PartialEq, const N: usize> PartialEq for Few<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq, const N: usize> Eq for Few<T, N> {}

impl<T: Clone + Default, const N: usize> FromIterator<T> for Few<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Few::new();
        for item in iter {
            out.push(item);
        }
        out
    }
}

/// A series of throws, in the order thrown. `Display`: `[1 4 2]`.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct Series(pub Few<u8, 15>);

impl Series {
    /// The series of these throws.
    pub fn new(throws: &[u8]) -> Series {
        Series(throws.iter().copied().collect())
    }
}

impl Deref for Series {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl From<&notation::Series> for Series {
    fn from(series: &notation::Series) -> Series {
        Series::new(&series.0)
    }
}

impl fmt::Display for Series {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        notation::Series(self.to_vec()).fmt(f)
    }
}

/// One action of a turn (see [`notation::Action`]).
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub enum Action {
    /// `enter`.
    #[default]
    Enter,
    /// `c1+4+2` or `Tc5+8+3`, `x` when `capture`.
    Move {
        from: Square,
        twins: bool,
        throws: Few<u8, 6>,
        capture: bool,
    },
    /// `twin c5`.
    Twin(Square),
    /// `off`.
    Off,
}

impl From<&notation::Action> for Action {
    fn from(action: &notation::Action) -> Action {
        match action {
            notation::Action::Enter => Action::Enter,
            notation::Action::Off => Action::Off,
            notation::Action::Twin(sq) => Action::Twin(*sq),
            notation::Action::Move {
                from,
                twins,
                throws,
                capture,
            } => Action::Move {
                from: *from,
                twins: *twins,
                throws: throws.iter().copied().collect(),
                capture: *capture,
            },
        }
    }
}

impl Action {
    fn to_notation(&self) -> notation::Action {
        match self {
            Action::Enter => notation::Action::Enter,
            Action::Off => notation::Action::Off,
            Action::Twin(sq) => notation::Action::Twin(*sq),
            Action::Move {
                from,
                twins,
                throws,
                capture,
            } => notation::Action::Move {
                from: *from,
                twins: *twins,
                throws: throws.to_vec(),
                capture: *capture,
            },
        }
    }
}

/// One turn: the series (when written) and the actions in order.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct Turn {
    pub series: Option<Series>,
    pub actions: Few<Action, 4>,
}

impl From<&notation::Turn> for Turn {
    fn from(turn: &notation::Turn) -> Turn {
        Turn {
            series: turn.series.as_ref().map(Series::from),
            actions: turn.actions.iter().map(Action::from).collect(),
        }
    }
}

impl Turn {
    /// The turn in the notation's types.
    pub fn to_notation(&self) -> notation::Turn {
        notation::Turn {
            series: self.series.as_ref().map(|s| notation::Series(s.to_vec())),
            actions: self.actions.iter().map(Action::to_notation).collect(),
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_notation().fmt(f)
    }
}

/// Parses one turn at the start of `input` (the notation's parser).
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match notation::parse_turn(input) {
        TurnParse::Turn(turn, len) => TurnParse::Turn(Turn::from(&turn), len),
        TurnParse::BadAddress {
            len,
            at,
            address_len,
        } => TurnParse::BadAddress {
            len,
            at,
            address_len,
        },
        TurnParse::NoTurn { at, expected } => TurnParse::NoTurn { at, expected },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn few_spills_past_its_room_and_compares_as_a_slice() {
        let mut a: Few<u8, 2> = Few::new();
        let b: Few<u8, 2> = [1, 2, 3].into_iter().collect();
        for v in [1, 2] {
            a.push(v);
        }
        assert!(matches!(a, Few::Inline(2, _)));
        assert_ne!(a, b);
        a.push(3);
        assert!(matches!(a, Few::Heap(_)));
        assert_eq!(a, b);
        assert_eq!(&a[..], &[1, 2, 3]);
    }

    #[test]
    fn turns_print_as_the_notation_and_parse_back() {
        for text in [
            "[1 4 2] enter, c1+4+2",
            "[2] -",
            "Tc5+8+3, twin c5, off, b5+2x",
            "[1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 3] enter, enter, c1+1+1+1+1+1+1+1+1x, a1+1, d1+1",
        ] {
            let TurnParse::Turn(turn, len) = parse_turn(text) else {
                panic!("{text}");
            };
            assert_eq!(len, text.len());
            assert_eq!(turn.to_string(), text);
        }
    }
}
