//! Seeded chance, bit for bit as `cardtable.chance`: a shuffle is read off a BLAKE2b-512
//! digest of `"{seed}/{label}"` taken as a big-endian 512-bit number, whose digits in the
//! mixed radix `n, n-1, …, 2` drive a Fisher–Yates shuffle run from the front. Both engines
//! therefore deal the same decks from the same seed.

use std::fmt::{self, Display, Write};

use blake2::{Blake2b512, Digest};

/// A game's seed. Python seeds are unbounded integers; positions hold them within
/// `-2**63 ..= 2**63`, which an `i128` covers.
pub type Seed = i128;

/// Feeds formatted text straight into the digest, so that a label costs no allocation.
struct Hashing(Blake2b512);

impl Write for Hashing {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

/// A 512-bit number as sixteen 32-bit limbs, least significant first, with the count of
/// limbs still in use (the number shrinks as digits are taken off).
struct Wide {
    limbs: [u32; 16],
    used: usize,
}

impl Wide {
    fn of(seed: Seed, label: impl Display) -> Wide {
        let mut hashing = Hashing(Blake2b512::new());
        write!(hashing, "{seed}/{label}").expect("hashing never fails");
        let digest = hashing.0.finalize();
        let mut limbs = [0u32; 16];
        for (i, chunk) in digest.chunks_exact(4).enumerate() {
            // The digest is big-endian: its first chunk is the most significant limb.
            limbs[15 - i] = u32::from_be_bytes(chunk.try_into().expect("4-byte chunk"));
        }
        let mut wide = Wide { limbs, used: 16 };
        wide.trim();
        wide
    }

    fn trim(&mut self) {
        while self.used > 0 && self.limbs[self.used - 1] == 0 {
            self.used -= 1;
        }
    }

    /// Divides in place by `d` (below 2**32) and returns the remainder: Python's
    /// `divmod(x, d)`.
    fn divmod(&mut self, d: u64) -> u64 {
        let mut rem: u64 = 0;
        for limb in self.limbs[..self.used].iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / d) as u32;
            rem = cur % d;
        }
        self.trim();
        rem
    }
}

/// Shuffles `items` in place in the order fixed by `seed` and `label`; with `settle`, only
/// the first `settle` positions are shuffled and the rest follow in the order the seed
/// leaves them (`cardtable.chance.shuffled`).
///
/// Python takes the digits one `divmod` at a time; here several radices are taken off the
/// big number at once (their product stays below 2**32) and split apart in machine words,
/// which gives the same digits: `x = d0 + n·(d1 + (n-1)·(d2 + …))`.
pub fn shuffle<T>(seed: Seed, label: impl Display, items: &mut [T], settle: Option<usize>) {
    let n = items.len();
    let steps = n.saturating_sub(1).min(settle.unwrap_or(n));
    let mut x = Wide::of(seed, label);
    let mut i = 0;
    while i < steps {
        // The radices n-i, n-i-1, … whose product fits in 32 bits.
        let mut product: u64 = 1;
        let mut end = i;
        while end < steps && product * ((n - end) as u64) < 1 << 32 {
            product *= (n - end) as u64;
            end += 1;
        }
        let mut digits = x.divmod(product);
        for k in i..end {
            let radix = (n - k) as u64;
            items.swap(k, k + (digits % radix) as usize);
            digits /= radix;
        }
        i = end;
    }
}

/// A copy of `items` shuffled as [`shuffle`] does it.
pub fn shuffled<T: Copy>(
    seed: Seed,
    label: impl Display,
    items: &[T],
    settle: Option<usize>,
) -> Vec<T> {
    let mut order = items.to_vec();
    shuffle(seed, label, &mut order, settle);
    order
}

/// The full pack in index order.
pub const PACK_52: [u8; 52] = {
    let mut pack = [0; 52];
    let mut i = 0;
    while i < 52 {
        pack[i] = i as u8;
        i += 1;
    }
    pack
};

/// Deck `number` of the game seeded `seed`, top first: `shuffled(seed, f"deck {number}",
/// PACK, settle)`, the deal of a trick game's hand, on the stack (a playout deals often).
pub fn seeded_deck(seed: Seed, number: u64, settle: Option<usize>) -> [u8; 52] {
    let mut deck = PACK_52;
    shuffle(seed, format_args!("deck {number}"), &mut deck, settle);
    deck
}

/// A number in `0 … n-1` fixed by `seed` and `label` (`cardtable.chance.draw`).
pub fn draw(seed: Seed, label: impl Display, n: u64) -> u64 {
    let mut x = Wide::of(seed, label);
    if n < 1 << 32 {
        return x.divmod(n);
    }
    // Wider moduli (Kryt'-navalivat' sessions draw below 2**63): long division by 2**32
    // digits of the divisor is not needed; take the remainder limb by limb in 128 bits.
    let mut rem: u128 = 0;
    for &limb in x.limbs[..x.used].iter().rev() {
        rem = ((rem << 32) | u128::from(limb)) % u128::from(n);
    }
    rem as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    // Reference values from `cardtable.chance` (the Python engine) for the same arguments.
    const DECK_17: [u8; 52] = [
        38, 22, 43, 13, 20, 8, 46, 32, 10, 24, 33, 30, 5, 34, 7, 11, 15, 14, 21, 25, 40, 42, 49,
        18, 37, 26, 12, 35, 28, 39, 36, 50, 45, 31, 0, 9, 27, 44, 4, 41, 48, 47, 3, 6, 1, 2, 29,
        19, 16, 51, 23, 17,
    ];

    #[test]
    fn shuffles_equal_the_python_engine() {
        let pack: Vec<u8> = (0..52).collect();
        assert_eq!(shuffled(17, "deck 0", &pack, None), DECK_17);
        assert_eq!(
            shuffled(-5, "cut 2", &pack, Some(9))[..9],
            [13, 7, 29, 39, 37, 23, 34, 38, 16]
        );
        let short: Vec<u8> = (0..36).collect();
        assert_eq!(
            shuffled(1 << 63, format_args!("deck {}", 6), &short, None),
            [
                16, 15, 17, 32, 8, 22, 10, 5, 30, 13, 12, 23, 11, 35, 21, 19, 0, 6, 3, 7, 26, 2,
                28, 4, 34, 24, 14, 20, 25, 29, 1, 18, 33, 31, 27, 9
            ]
        );
        let dealers: Vec<u64> = (0..10).map(|s| draw(s, "dealer", 7)).collect();
        assert_eq!(dealers, [2, 4, 2, 3, 4, 5, 6, 2, 2, 2]);
    }

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_seed_and_label() {
        let pack: Vec<u8> = (0..52).collect();
        let a = shuffled(17, "deck 0", &pack, None);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, pack);
        assert_ne!(a, shuffled(17, "deck 1", &pack, None));
        assert_ne!(a, shuffled(18, "deck 0", &pack, None));
    }

    #[test]
    fn settling_fixes_the_front_only() {
        let pack: Vec<u8> = (0..52).collect();
        for settle in 0..52 {
            let full = shuffled(5, "deck 2", &pack, None);
            let part = shuffled(5, "deck 2", &pack, Some(settle));
            assert_eq!(full[..settle], part[..settle]);
        }
    }

    #[test]
    fn seeded_decks_are_the_shuffled_pack() {
        for seed in [0, 5, -3, 1 << 63, -(1i128 << 63)] {
            for number in [0u64, 6, 123_456_789] {
                for settle in [None, Some(1), Some(15), Some(52)] {
                    let label = format!("deck {number}");
                    let expected = shuffled(seed, &label, &PACK_52, settle);
                    assert_eq!(seeded_deck(seed, number, settle).to_vec(), expected);
                }
            }
        }
    }

    #[test]
    fn draw_is_in_range() {
        for seed in 0..200 {
            assert!(draw(seed, "dealer", 5) < 5);
            assert!(draw(seed, "hand 1", 1 << 63) < 1 << 63);
        }
    }
}
