//! A small hash table for the searches of a turn: the use-all memo, the partial turns
//! already explored and the outcomes already listed.
//!
//! Keys are packed integers hashed by two folded multiplies, and the table is emptied
//! in O(1) by moving to a new epoch (a slot belongs to the table only while its stamp is
//! the current epoch). A thread keeps its tables from one turn to the next, so a turn's
//! search allocates nothing once they have grown. (A `HashMap` with SipHash, made afresh
//! for every turn, was half of a random playout's time.)

/// A packed key: a word for the pieces, two for the unused throws (kept as words, not a
/// `u128`, so that a slot is 32 bytes, not 48).
#[derive(Copy, Clone, Eq, PartialEq, Default, Debug)]
pub struct Key(u64, u64, u64);

impl Key {
    pub fn new(pieces: u64, throws: u128) -> Key {
        Key(pieces, throws as u64, (throws >> 64) as u64)
    }

    fn hash(self) -> u64 {
        const K0: u64 = 0x9e37_79b9_7f4a_7c15;
        const K1: u64 = 0xc2b2_ae3d_27d4_eb4f;
        fold(fold(self.0 ^ K0, self.1 ^ K1) ^ self.2, K0)
    }
}

/// The folded 128-bit product of two words: a fast, well-mixed hash step.
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

#[derive(Copy, Clone, Default, Debug)]
struct Slot<V> {
    /// The slot holds an entry when this is the table's epoch.
    epoch: u32,
    key: Key,
    value: V,
}

/// An open-addressing map from [`Key`] to a small `Copy` value (`()` for a set),
/// linear probing, at most half full.
#[derive(Clone, Debug)]
pub struct Table<V> {
    /// A power of two long.
    slots: Vec<Slot<V>>,
    /// Never 0, the epoch of a fresh slot.
    epoch: u32,
    len: usize,
}

/// The room of a new table, in slots.
const ROOM: usize = 64;

impl<V: Copy + Default> Default for Table<V> {
    fn default() -> Self {
        Table {
            slots: vec![Slot::default(); ROOM],
            epoch: 1,
            len: 0,
        }
    }
}

impl<V: Copy + Default> Table<V> {
    /// Empties the table, keeping its room up to `keep` slots: past it, it starts again
    /// from [`ROOM`], so that after one huge turn the next small ones do not scatter over
    /// megabytes (a cache miss each).
    pub fn reset(&mut self, keep: usize) {
        if self.slots.len() > keep {
            *self = Table::default();
        } else {
            self.clear();
        }
    }

    /// Empties the table, keeping its room.
    pub fn clear(&mut self) {
        self.len = 0;
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for slot in &mut self.slots {
                slot.epoch = 0;
            }
            self.epoch = 1;
        }
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The slot holding `key`, or the free slot where it would go.
    #[inline]
    fn find(&self, key: Key) -> (bool, usize) {
        let mask = self.slots.len() - 1;
        let mut i = key.hash() as usize & mask;
        loop {
            let slot = &self.slots[i];
            if slot.epoch != self.epoch {
                return (false, i);
            }
            if slot.key == key {
                return (true, i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`, if the table holds it.
    #[inline]
    pub fn get(&self, key: Key) -> Option<V> {
        match self.find(key) {
            (true, i) => Some(self.slots[i].value),
            (false, _) => None,
        }
    }

    /// Adds `key` with `value` unless the table holds it already (its value is then kept).
    /// Returns whether it was added.
    ///
    /// `get` and `insert` are marked `#[inline]`: they are a search's inner step, and
    /// the compiler's choice to inline them or not moved with unrelated changes (a call
    /// each costs about 2 % of `check`).
    #[inline]
    pub fn insert(&mut self, key: Key, value: V) -> bool {
        let (found, i) = self.find(key);
        if found {
            return false;
        }
        self.slots[i] = Slot {
            epoch: self.epoch,
            key,
            value,
        };
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        true
    }

    /// Doubles the room and puts the current entries back.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let room = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); room]);
        for slot in old {
            if slot.epoch == self.epoch {
                let (_, i) = self.find(slot.key);
                self.slots[i] = slot;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_what_was_inserted_across_growth_and_clears() {
        let mut t: Table<u8> = Table::default();
        for round in 0..3u64 {
            for i in 0..1000u64 {
                assert!(t.insert(Key::new(i * 7 + round, u128::from(i) << 70), i as u8));
                assert!(!t.insert(Key::new(i * 7 + round, u128::from(i) << 70), 0));
            }
            assert_eq!(t.len(), 1000);
            for i in 0..1000u64 {
                assert_eq!(
                    t.get(Key::new(i * 7 + round, u128::from(i) << 70)),
                    Some(i as u8)
                );
                assert_eq!(t.get(Key::new(i * 7 + round, 1)), None);
            }
            t.clear();
            assert_eq!(t.len(), 0);
            assert_eq!(t.get(Key::new(round, 0)), None);
        }
    }

    #[test]
    fn a_reset_gives_back_room_past_what_it_keeps() {
        let mut t: Table<()> = Table::default();
        for i in 0..100 {
            t.insert(Key::new(i, 0), ());
        }
        t.reset(1 << 10);
        assert_eq!((t.len(), t.slots.len()), (0, 256));
        for i in 0..1000 {
            t.insert(Key::new(i, 0), ());
        }
        t.reset(1 << 10);
        assert_eq!((t.len(), t.slots.len()), (0, ROOM));
        assert!(t.insert(Key::new(1, 0), ()));
    }

    #[test]
    fn a_wrapped_epoch_forgets_old_entries() {
        let mut t: Table<()> = Table::default();
        t.insert(Key::new(1, 2), ());
        t.epoch = u32::MAX;
        t.insert(Key::new(3, 4), ());
        t.clear();
        assert_eq!(t.epoch, 1);
        assert_eq!(t.get(Key::new(1, 2)), None);
        assert_eq!(t.get(Key::new(3, 4)), None);
    }
}
