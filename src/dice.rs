//! Random events derived from a record's `Seed` — derivation **version 1** of `record.md`.
//!
//! This module is part of the record format: if its output ever changed, every seeded
//! record ever written would stop replaying. It therefore uses nothing but the raw
//! ChaCha20 keystream (`next_u32`), never `rand`'s samplers (which change between
//! versions), and `tests::pinned_*` fix its first outputs for several seeds.
//!
//! 1. key = SHA-256 of the seed's UTF-8 bytes; the generator is ChaCha20 keyed with it,
//!    consumed one `u32` word at a time in the order the game's random events happen.
//! 2. A uniform integer in `0..n`: draw words until one is below `n * floor(2^32 / n)`,
//!    then take it modulo `n`. A die of `n` faces shows that value plus one.
//! 3. A throw of `k` two-sided pieces: one word; piece `i` lands light side up when bit
//!    `i` is 1.
//! 4. A shuffle of `n` items: for `i` from `n-1` down to `1`, swap items `i` and `j`,
//!    `j` uniform in `0..=i` by rule 2.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// The SHA-256 of a seed's UTF-8 bytes: the generator's key, and what `SeedCommit` holds.
pub fn seed_key(seed: &str) -> [u8; 32] {
    sha256(seed.as_bytes())
}

/// The SHA-256 of some bytes.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut hasher = tape_sha256::Sha256::new();
    hasher.update(bytes);
    hasher.finish()
}

/// [`seed_key`] of many seeds at once, `keys[i]` of `seeds[i]` (their UTF-8 bytes): the
/// seeds go through SHA-256 side by side, one a SIMD lane (eight at a time with AVX2,
/// four streams with the SHA extensions), where one at a time each would run alone.
/// `check` hashes a batch's seeds so. `seeds` and `keys` have the same length.
pub fn seed_keys(seeds: &[&[u8]], keys: &mut [[u8; 32]]) {
    tape_sha256::hash_many(seeds, keys);
}

/// Lowercase hex digits, by value.
#[cfg(test)]
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Lowercase hex of [`seed_key`], as written in a `SeedCommit` tag.
pub fn seed_commit(seed: &str) -> String {
    key_hex(&seed_key(seed))
}

/// Lowercase hex of a key: the `SeedCommit` of the seed the key was made from.
pub fn key_hex(key: &[u8; 32]) -> String {
    let digits = hex_digits(key).to_vec();
    String::from_utf8(digits).expect("hex digits are ASCII")
}

/// Whether `commit` is the lowercase hex of `key`: what a record's `SeedCommit` is
/// checked for first (where it is not, [`commit_key`] says whether it is hex at all).
#[inline]
pub fn commits_to(commit: &str, key: &[u8; 32]) -> bool {
    commit.as_bytes() == hex_digits(key)
}

/// The 64 lowercase hex digits of a key, four bytes at a time ([`hex8_of`]).
#[inline]
fn hex_digits(key: &[u8; 32]) -> [u8; 64] {
    let mut out = [0u8; 64];
    for (eight, four) in out.chunks_exact_mut(8).zip(key.chunks_exact(4)) {
        let four: [u8; 4] = four.try_into().expect("four bytes");
        eight.copy_from_slice(&hex8_of(u32::from_le_bytes(four)).to_le_bytes());
    }
    out
}

/// The eight lowercase hex digits that write the four bytes of `x` (its low byte
/// first), as the bytes of one `u64`: what [`hex8`] reads back. Each byte is spread
/// into 16 bits, its high digit in the low byte; a digit becomes `0`-`9` or `a`-`f`
/// by adding `'0'`, and 39 more where it is 10 or more.
#[inline]
fn hex8_of(x: u32) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let y = u64::from(x);
    let y = (y | (y << 16)) & 0x0000_FFFF_0000_FFFF;
    let y = (y | (y << 8)) & 0x00FF_00FF_00FF_00FF;
    let nibbles = ((y >> 4) & 0x000F_000F_000F_000F) | ((y & 0x000F_000F_000F_000F) << 8);
    let letters = ((nibbles + ONES * 6) >> 4) & ONES;
    nibbles + ONES * u64::from(b'0') + letters * 39
}

/// Eight lowercase hex digits, as the four bytes they write, or `None` where one of them
/// is not a lowercase hex digit: all eight at once, as the bytes of one `u64` (a record's
/// `SeedCommit` is read for every record, where a table look-up a digit costs twice as
/// many instructions).
#[inline]
fn hex8(digits: [u8; 8]) -> Option<u32> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let x = u64::from_le_bytes(digits);
    // The high bit of each byte from `lo` to `hi`: true where every byte is below 0x80,
    // since then no sum carries into the next byte (checked below).
    let within = |lo: u8, hi: u8| {
        let at_least = x.wrapping_add(ONES * u64::from(0x80 - lo));
        let above = x.wrapping_add(ONES * u64::from(0x7F - hi));
        at_least & !above & HIGH
    };
    let (numbers, letters) = (within(b'0', b'9'), within(b'a', b'f'));
    if x & HIGH != 0 || numbers | letters != HIGH {
        return None;
    }
    // Each digit's value: its low four bits, and 9 more for a letter (`a` is 0x61).
    let v = (x & (ONES * 0x0F)) + (letters >> 7) * 9;
    // Each pair of digits into the low byte of its 16 bits, then the four bytes together.
    let pairs = ((v << 4) | (v >> 8)) & 0x00FF_00FF_00FF_00FF;
    let quads = (pairs | (pairs >> 8)) & 0x0000_FFFF_0000_FFFF;
    Some((quads | (quads >> 16)) as u32)
}

/// The key a `SeedCommit` value writes, where it is 64 lowercase hex digits (read
/// in one pass, where checking the form and then the key would read it twice).
pub fn commit_key(commit: &str) -> Option<[u8; 32]> {
    let c: &[u8; 64] = commit.as_bytes().try_into().ok()?;
    let mut key = [0u8; 32];
    for (k, eight) in key.chunks_exact_mut(4).zip(c.chunks_exact(8)) {
        let eight: [u8; 8] = eight.try_into().ok()?;
        k.copy_from_slice(&hex8(eight)?.to_le_bytes());
    }
    Some(key)
}

/// The stream of random events of one game.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha20Rng,
    words: u64,
}

impl Dice {
    /// The generator of a seed (rule 1).
    pub fn from_seed(seed: &str) -> Dice {
        Dice::from_key(seed_key(seed))
    }

    /// The generator of the seed whose [`seed_key`] is `key`: a caller that has hashed
    /// the seed already (to check its `SeedCommit`) does not hash it again.
    pub fn from_key(key: [u8; 32]) -> Dice {
        Dice {
            rng: ChaCha20Rng::from_seed(key),
            words: 0,
        }
    }

    /// The next raw word of the keystream.
    #[inline]
    pub fn word(&mut self) -> u32 {
        self.words += 1;
        self.rng.next_u32()
    }

    /// How many words have been consumed so far.
    pub fn words_used(&self) -> u64 {
        self.words
    }

    /// A uniform integer in `0..n` (rule 2). `n` must be at least 1.
    pub fn uniform(&mut self, n: u32) -> u32 {
        assert!(n > 0, "uniform(0) has no value");
        // n * floor(2^32 / n), computed in 64 bits: for n = 1 it is 2^32, so every word
        // is accepted.
        let limit = u64::from(n) * ((1u64 << 32) / u64::from(n));
        loop {
            let w = self.word();
            if u64::from(w) < limit {
                return w % n;
            }
        }
    }

    /// A die of `faces` faces: `1..=faces` (rule 2).
    pub fn die(&mut self, faces: u32) -> u32 {
        self.uniform(faces) + 1
    }

    /// A throw of `k` two-sided pieces (rule 3): bit `i` set when piece `i` lands light
    /// side up. Only the low `k` bits are meaningful; the others are cleared.
    pub fn throw(&mut self, k: u32) -> u32 {
        let w = self.word();
        if k >= 32 {
            w
        } else {
            w & ((1u32 << k) - 1)
        }
    }

    /// Shuffles a list in place (rule 4).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.uniform(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first raw words for a few seeds, pinned. If a dependency upgrade changes
    /// these, every seeded record breaks: do not "fix" this test, fix the dependency.
    #[test]
    fn pinned_raw_words() {
        let mut d = Dice::from_seed("");
        let words: Vec<u32> = (0..4).map(|_| d.word()).collect();
        assert_eq!(words, PINNED_EMPTY);
        let mut d = Dice::from_seed("halatafl-1");
        let words: Vec<u32> = (0..4).map(|_| d.word()).collect();
        assert_eq!(words, PINNED_HALATAFL_1);
    }

    const PINNED_EMPTY: [u32; 4] = [444384152, 1173045877, 2379522266, 3772652188];
    const PINNED_HALATAFL_1: [u32; 4] = [2009091235, 2891519778, 1377759549, 3009907593];

    /// `thaayam.md`: for seed `thaayam-1` the first ten cowrie throws (four cowries, the
    /// number of mouths up, none up counting 8) are 2 3 2 1 1 1 2 1 1 2.
    #[test]
    fn thaayam_1_cowries_match_the_spec() {
        let mut d = Dice::from_seed("thaayam-1");
        let throws: Vec<u32> = (0..10)
            .map(|_| match d.throw(4).count_ones() {
                0 => 8,
                n => n,
            })
            .collect();
        assert_eq!(throws, [2, 3, 2, 1, 1, 1, 2, 1, 1, 2]);
    }

    /// The seeds' keys, one at a time and many at once, are the SHA-256 that RustCrypto's
    /// `sha2` gives: every length around the one block (55 bytes) and two blocks, and
    /// batches of every size up to two rounds of the widest lanes, seeds of different
    /// lengths side by side.
    #[test]
    fn seed_keys_are_sha2s_one_at_a_time_and_many_at_once() {
        use sha2::Digest;
        let reference = |b: &[u8]| -> [u8; 32] { sha2::Sha256::digest(b).into() };
        let text: Vec<u8> = (0..300u32).map(|i| b'a' + (i * 7 % 26) as u8).collect();
        for len in 0..=140 {
            assert_eq!(sha256(&text[..len]), reference(&text[..len]), "{len} bytes");
        }
        assert_eq!(sha256(&text), reference(&text));
        let seeds: Vec<String> = (0..40)
            .map(|i| match i % 4 {
                0 => format!("perf-{i}"),
                1 => format!("{}é{i}", "x".repeat(i * 3)),
                2 => String::new(),
                _ => format!("halves-{}", "y".repeat(50 + i)),
            })
            .collect();
        for n in 0..=seeds.len() {
            for start in [0, 1, 3] {
                let batch: Vec<&[u8]> = seeds[start.min(n)..n]
                    .iter()
                    .map(|s| s.as_bytes())
                    .collect();
                let mut keys = vec![[0u8; 32]; batch.len()];
                seed_keys(&batch, &mut keys);
                for (seed, key) in batch.iter().zip(&keys) {
                    assert_eq!(*key, reference(seed), "{n} seeds from {start}");
                }
            }
        }
        assert_eq!(seed_key("perf-1"), reference(b"perf-1"));
    }

    /// Four bytes are written as a byte at a time writes them, and read back: every
    /// byte value at each place.
    #[test]
    fn eight_digits_written_at_once_are_written_as_one_at_a_time() {
        for at in 0..4 {
            for b in 0..=255u8 {
                let mut four = [0x5Au8, 0x0F, 0xF0, 0x93];
                four[at] = b;
                let mut plain = [0u8; 8];
                for (i, &x) in four.iter().enumerate() {
                    plain[2 * i] = HEX[usize::from(x >> 4)];
                    plain[2 * i + 1] = HEX[usize::from(x & 15)];
                }
                let x = u32::from_le_bytes(four);
                assert_eq!(hex8_of(x).to_le_bytes(), plain, "{four:?}");
                assert_eq!(hex8(plain), Some(x));
            }
        }
    }

    /// A key's commitment is its hex, and nothing else: not with a digit changed, in
    /// capitals, cut short or made longer.
    #[test]
    fn a_key_commits_to_its_hex_only() {
        for seed in ["", "abc", "perf-1", "halves-1"] {
            let key = seed_key(seed);
            let hex = seed_commit(seed);
            assert!(commits_to(&hex, &key), "{seed}");
            assert!(hex.bytes().any(|b| b.is_ascii_alphabetic()), "{seed}");
            assert!(!commits_to(&hex.to_uppercase(), &key), "{seed}");
            assert!(!commits_to(&hex[..63], &key));
            assert!(!commits_to(&format!("{hex}0"), &key));
            assert!(!commits_to(&seed_commit("other"), &key));
            for i in 0..64 {
                let mut v = hex.clone().into_bytes();
                v[i] = if v[i] == b'0' { b'1' } else { b'0' };
                assert!(
                    !commits_to(&String::from_utf8(v).unwrap(), &key),
                    "{seed}: {i}"
                );
            }
        }
    }

    #[test]
    fn seed_commit_is_sha256_hex() {
        assert_eq!(
            seed_commit("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    /// Eight digits are read as a digit at a time reads them, whatever byte stands at
    /// any place: every byte value at each place, among digits of every value.
    #[test]
    fn eight_digits_read_at_once_are_read_as_one_at_a_time() {
        let digit = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            _ => None,
        };
        let plain = |d: [u8; 8]| -> Option<u32> {
            let mut bytes = [0u8; 4];
            for (i, pair) in d.chunks_exact(2).enumerate() {
                bytes[i] = digit(pair[0])? << 4 | digit(pair[1])?;
            }
            Some(u32::from_le_bytes(bytes))
        };
        for fill in HEX {
            for at in 0..8 {
                for b in 0..=255u8 {
                    let mut d = [*fill; 8];
                    // The other places hold every digit in turn.
                    for (i, x) in d.iter_mut().enumerate() {
                        if i != at {
                            *x = HEX[(usize::from(*fill) + i * 5) % 16];
                        }
                    }
                    d[at] = b;
                    assert_eq!(hex8(d), plain(d), "{d:?}");
                }
            }
        }
    }

    /// A commitment is read back into the key it writes, only where it is 64 lowercase
    /// hex digits, and the key makes the same stream as the seed.
    #[test]
    fn a_commitment_reads_back_into_its_key_and_the_key_makes_the_seeds_stream() {
        for seed in ["", "abc", "perf-1", "thaayam-1"] {
            let key = seed_key(seed);
            let hex = seed_commit(seed);
            assert_eq!(key_hex(&key), hex);
            assert_eq!(commit_key(&hex), Some(key));
            for i in 0..64 {
                let with = |b: u8| {
                    let mut v = hex.clone().into_bytes();
                    v[i] = b;
                    commit_key(&String::from_utf8(v).unwrap())
                };
                let other = if hex.as_bytes()[i] == b'0' {
                    b'1'
                } else {
                    b'0'
                };
                assert!(with(other).is_some_and(|k| k != key), "{seed}: digit {i}");
                for not_hex in [b'g', b'G', b'A', b'F', b' ', b'/', b':', b'`'] {
                    assert_eq!(with(not_hex), None, "{seed}: {} at {i}", not_hex as char);
                }
            }
            assert_eq!(commit_key(&hex[..63]), None);
            assert_eq!(commit_key(&format!("{hex}0")), None);
            assert_eq!(commit_key(&format!("é{}", &hex[2..])), None);
            let (mut a, mut b) = (Dice::from_seed(seed), Dice::from_key(key));
            for _ in 0..20 {
                assert_eq!(a.word(), b.word());
            }
        }
    }

    #[test]
    fn uniform_stays_in_range_and_rejects_above_the_limit() {
        let mut d = Dice::from_seed("range");
        for n in 1..=40 {
            for _ in 0..50 {
                assert!(d.uniform(n) < n);
            }
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut d = Dice::from_seed("shuffle");
        let mut items: Vec<u32> = (0..50).collect();
        d.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(items, sorted, "50 items left in order by a shuffle");
    }
}
