//! The lists of a Thaayam turn held compactly: its throws, and its actions encoded a few
//! bytes each. A turn is moved several times on its way into a record's list of entries,
//! and read once: lists of inline `Action`s made a turn 176 bytes, which cost more to
//! move than the turn cost to read.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::action::{Action, Square, Throws};

/// Bytes held inline up to `N` (below 256), on the heap past that (a long series, or a
/// turn of many actions, both rare).
#[derive(Clone)]
pub(super) enum Bytes<const N: usize> {
    Inline {
        len: u8,
        bytes: [u8; N],
    },
    // Boxed, a `Vec` is one word where it would be three: the list stays two words.
    #[allow(clippy::box_collection)]
    Heap(Box<Vec<u8>>),
}

impl<const N: usize> Bytes<N> {
    pub(super) const fn new() -> Self {
        Bytes::Inline {
            len: 0,
            bytes: [0; N],
        }
    }

    /// The first `len` of `bytes`, whose bytes past `len` must be zero, as the inline
    /// bytes always are.
    #[inline(always)]
    pub(super) fn inline(len: usize, bytes: [u8; N]) -> Self {
        debug_assert!(len <= N && bytes[len..].iter().all(|&b| b == 0));
        Bytes::Inline {
            len: len as u8,
            bytes,
        }
    }

    /// Held inline (nothing on the heap)?
    #[inline]
    pub(super) fn is_inline(&self) -> bool {
        matches!(self, Bytes::Inline { .. })
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Bytes::Heap(v) => v,
        }
    }

    #[inline]
    pub(super) fn push(&mut self, b: u8) {
        self.extend_from_slice(&[b]);
    }

    #[inline]
    pub(super) fn extend_from_slice(&mut self, more: &[u8]) {
        match self {
            Bytes::Inline { len, bytes } if usize::from(*len) + more.len() <= N => {
                let at = usize::from(*len);
                bytes[at..at + more.len()].copy_from_slice(more);
                *len += more.len() as u8;
            }
            _ => self.spill(more),
        }
    }

    /// Appends `more[..n]`, where `more[n..]` is zero: while it fits inline, `more` is
    /// copied whole, a copy of a length known when compiling (the zeros land where the
    /// bytes past `len` are zero anyway).
    #[inline]
    pub(super) fn extend_padded<const M: usize>(&mut self, more: &[u8; M], n: usize) {
        match self {
            Bytes::Inline { len, bytes } if usize::from(*len) + M <= N => {
                let at = usize::from(*len);
                bytes[at..at + M].copy_from_slice(more);
                *len += n as u8;
            }
            _ => self.extend_from_slice(&more[..n]),
        }
    }

    /// [`Bytes::extend_from_slice`] past the inline bytes.
    #[cold]
    fn spill(&mut self, more: &[u8]) {
        if let Bytes::Inline { len, bytes } = self {
            let mut v = Vec::with_capacity(2 * N + more.len());
            v.extend_from_slice(&bytes[..usize::from(*len)]);
            *self = Bytes::Heap(Box::new(v));
        }
        if let Bytes::Heap(v) = self {
            v.extend_from_slice(more);
        }
    }
}

impl<const N: usize> PartialEq for Bytes<N> {
    /// Inline bytes compare as they stand: those past `len` are always zero.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Bytes::Inline { len, bytes }, Bytes::Inline { len: l, bytes: b }) => {
                len == l && bytes == b
            }
            _ => self.as_slice() == other.as_slice(),
        }
    }
}

impl<const N: usize> Eq for Bytes<N> {}

impl<const N: usize> Hash for Bytes<N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<const N: usize> fmt::Debug for Bytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// An action's first byte: its kind in the low two bits, then the flags of a move.
const ENTER: u8 = 0;
const OFF: u8 = 1;
const TWIN: u8 = 2;
const MOVE: u8 = 3;
const TWINS: u8 = 1 << 2;
const CAPTURE: u8 = 1 << 3;

/// The actions of a turn in order, encoded: `enter` and `off` a byte each, `twin c5` the
/// byte and the square, a move the byte (with its `T` and `x`), the square, the count of
/// its throws (seven bits a byte, low first, bit 7 set where more follow) and its throws.
/// The encoding of a list is unique, so equal lists are equal bytes.
#[derive(Clone, Eq, PartialEq, Hash)]
pub struct Actions(Bytes<22>);

impl Default for Actions {
    fn default() -> Actions {
        Actions::new()
    }
}

impl Actions {
    pub const fn new() -> Actions {
        Actions(Bytes::new())
    }

    /// Held inline (nothing on the heap), as all but the longest lists are?
    #[inline]
    pub fn is_inline(&self) -> bool {
        self.0.is_inline()
    }

    /// No action (a turn written `-`)?
    pub fn is_empty(&self) -> bool {
        self.0.as_slice().is_empty()
    }

    /// How many actions.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// The actions in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.views())
    }

    /// Appends an action.
    pub fn push(&mut self, action: Action) {
        self.push_view(action.view());
    }

    /// Appends an action given borrowed.
    #[inline]
    pub fn push_view(&mut self, action: ActionRef<'_>) {
        match action {
            ActionRef::Enter => self.0.push(ENTER),
            ActionRef::Off => self.0.push(OFF),
            ActionRef::Twin(sq) => self.0.extend_from_slice(&[TWIN, sq.0]),
            ActionRef::Move {
                from,
                twins,
                throws,
                capture,
            } => self.push_move(from, twins, throws, capture),
        }
    }

    /// Appends a move, its throws as a slice. (Inlined where turns are read: a move of
    /// eight throws or fewer is built here, a longer one apart.)
    #[inline(always)]
    pub(super) fn push_move(&mut self, from: Square, twins: bool, throws: &[u8], capture: bool) {
        let head = MOVE | if twins { TWINS } else { 0 } | if capture { CAPTURE } else { 0 };
        let n = throws.len();
        if n <= 8 {
            // The commonest: built whole, then copied at a fixed length.
            let mut bytes = [head, from.0, n as u8, 0, 0, 0, 0, 0, 0, 0, 0];
            // Byte by byte: a move has a throw or two, and a copy of a length not known
            // when compiling is a call.
            for (k, &t) in throws.iter().enumerate() {
                bytes[3 + k] = t;
            }
            self.0.extend_padded(&bytes, 3 + n);
            return;
        }
        self.push_long_move(head, from, throws);
    }

    /// [`Actions::push_move`] of more than eight throws.
    #[cold]
    fn push_long_move(&mut self, head: u8, from: Square, throws: &[u8]) {
        let mut n = throws.len();
        if n < 128 {
            self.0.extend_from_slice(&[head, from.0, n as u8]);
        } else {
            self.0.extend_from_slice(&[head, from.0]);
            while n >= 128 {
                self.0.push(n as u8 | 128);
                n >>= 7;
            }
            self.0.push(n as u8);
        }
        self.0.extend_from_slice(throws);
    }
}

impl FromIterator<Action> for Actions {
    fn from_iter<I: IntoIterator<Item = Action>>(iter: I) -> Actions {
        let mut out = Actions::new();
        out.extend(iter);
        out
    }
}

impl Extend<Action> for Actions {
    fn extend<I: IntoIterator<Item = Action>>(&mut self, iter: I) {
        for action in iter {
            self.push(action);
        }
    }
}

impl fmt::Debug for Actions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// An action as [`Actions`] holds it, the throws of a move borrowed: what judging a
/// turn reads, without copying them.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ActionRef<'a> {
    Enter,
    Off,
    Twin(Square),
    Move {
        from: Square,
        twins: bool,
        throws: &'a [u8],
        capture: bool,
    },
}

impl Action {
    /// The action borrowed, as [`Actions::views`] gives it.
    pub fn view(&self) -> ActionRef<'_> {
        match self {
            Action::Enter => ActionRef::Enter,
            Action::Off => ActionRef::Off,
            Action::Twin(sq) => ActionRef::Twin(*sq),
            Action::Move {
                from,
                twins,
                throws,
                capture,
            } => ActionRef::Move {
                from: *from,
                twins: *twins,
                throws,
                capture: *capture,
            },
        }
    }
}

impl ActionRef<'_> {
    /// The action owned.
    pub fn to_action(self) -> Action {
        match self {
            ActionRef::Enter => Action::Enter,
            ActionRef::Off => Action::Off,
            ActionRef::Twin(sq) => Action::Twin(sq),
            ActionRef::Move {
                from,
                twins,
                throws,
                capture,
            } => Action::Move {
                from,
                twins,
                throws: Throws::<6>::from_slice(throws),
                capture,
            },
        }
    }
}

impl Actions {
    /// The actions in order, borrowed.
    pub fn views(&self) -> Views<'_> {
        Views(self.0.as_slice())
    }
}

/// The actions of [`Actions`], decoded one at a time.
pub struct Iter<'a>(Views<'a>);

impl Iterator for Iter<'_> {
    type Item = Action;

    #[inline]
    fn next(&mut self) -> Option<Action> {
        self.0.next().map(ActionRef::to_action)
    }
}

/// The actions of [`Actions`], decoded one at a time, borrowed.
pub struct Views<'a>(&'a [u8]);

impl<'a> Iterator for Views<'a> {
    type Item = ActionRef<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<ActionRef<'a>> {
        let (&head, rest) = self.0.split_first()?;
        let (action, rest) = match head & 3 {
            ENTER => (ActionRef::Enter, rest),
            OFF => (ActionRef::Off, rest),
            TWIN => (ActionRef::Twin(Square(rest[0])), &rest[1..]),
            // The commonest: fewer than 128 throws, their count in one byte.
            _ => match rest {
                [from, n @ 0..=127, tail @ ..] if usize::from(*n) <= tail.len() => {
                    let (throws, rest) = tail.split_at(usize::from(*n));
                    (move_of(head, *from, throws), rest)
                }
                _ => long_move(head, rest),
            },
        };
        self.0 = rest;
        Some(action)
    }
}

/// A move's action from its head byte, square and throws.
#[inline(always)]
fn move_of(head: u8, from: u8, throws: &[u8]) -> ActionRef<'_> {
    ActionRef::Move {
        from: Square(from),
        twins: head & TWINS != 0,
        throws,
        capture: head & CAPTURE != 0,
    }
}

/// A move whose count of throws takes more than a byte (128 or more), and what follows
/// it.
#[cold]
fn long_move(head: u8, rest: &[u8]) -> (ActionRef<'_>, &[u8]) {
    let (mut n, mut at, mut shift) = (0usize, 1, 0);
    loop {
        let b = rest[at];
        at += 1;
        n |= usize::from(b & 127) << shift;
        if b < 128 {
            break;
        }
        shift += 7;
    }
    (move_of(head, rest[0], &rest[at..at + n]), &rest[at + n..])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of action comes back as it was appended, moves of every length of
    /// series among them: none, a few (built whole), more than eight, and counts that take
    /// one byte, two and three; the list goes to the heap on the way.
    #[test]
    fn actions_come_back_as_appended() {
        let sq = |i| Square::from_index(i).unwrap();
        let mut want = vec![Action::Enter, Action::Off, Action::Twin(sq(7))];
        for (k, n) in [0usize, 1, 2, 8, 9, 127, 128, 300, 16_383, 16_384, 20_000]
            .into_iter()
            .enumerate()
        {
            want.push(Action::Move {
                from: sq(k as u8 % 25),
                twins: k % 2 == 1,
                throws: (0..n).map(|i| (i % 8) as u8 + 1).collect(),
                capture: k % 3 == 0,
            });
            want.push(Action::Enter);
        }
        let mut actions = Actions::new();
        for a in &want {
            actions.push(a.clone());
        }
        assert_eq!(actions.iter().collect::<Vec<_>>(), want);
        assert_eq!(actions.len(), want.len());
    }

    /// A list is inline until it outgrows its room, and then on the heap: only an
    /// inline list may be let go without its drop (`record::HeapFree`).
    #[test]
    fn a_list_is_inline_until_it_outgrows_its_room() {
        let mut actions = Actions::new();
        let mut grew = false;
        for k in 0..40 {
            let before = actions.0.as_slice().len();
            actions.push(Action::Enter);
            let inline = matches!(actions.0, Bytes::Inline { .. });
            assert_eq!(actions.is_inline(), inline);
            grew |= !inline;
            assert_eq!(inline, before < 22, "{k} actions");
        }
        assert!(grew);
    }
}
