//! Seeded chance, bit for bit as `cardtable.chance`: a shuffle is read off a BLAKE2b-512
//! digest of `"{seed}/{label}"` taken as a big-endian 512-bit number, whose digits in the
//! mixed radix `n, n-1, …, 2` drive a Fisher–Yates shuffle run from the front. Both engines
//! therefore deal the same decks from the same seed.

use std::fmt::{self, Display, Write};

/// A game's seed. Python seeds are unbounded integers; positions hold them within
/// `-2**63 ..= 2**63`, which an `i128` covers.
pub type Seed = i128;

/// Feeds formatted text straight into the digest, so that a label costs no allocation.
struct Hashing(blake2b_simd::State);

impl Write for Hashing {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.update(s.as_bytes());
        Ok(())
    }
}

/// A 512-bit number as eight 64-bit limbs, least significant first, with the count of
/// limbs still in use (the number shrinks as digits are taken off).
struct Wide {
    limbs: [u64; 8],
    used: usize,
}

impl Wide {
    fn of(seed: Seed, label: impl Display) -> Wide {
        // BLAKE2b with its defaults (a 64-byte digest, no key), as Python's hashlib.blake2b.
        let mut hashing = Hashing(blake2b_simd::State::new());
        write!(hashing, "{seed}/{label}").expect("hashing never fails");
        let digest = hashing.0.finalize();
        let mut limbs = [0u64; 8];
        for (i, chunk) in digest.as_bytes().chunks_exact(8).enumerate() {
            // The digest is big-endian: its first chunk is the most significant limb.
            limbs[7 - i] = u64::from_be_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        let mut wide = Wide { limbs, used: 8 };
        wide.trim();
        wide
    }

    fn trim(&mut self) {
        while self.used > 0 && self.limbs[self.used - 1] == 0 {
            self.used -= 1;
        }
    }

    /// Divides in place by `d` (at least 1) and returns the remainder: Python's
    /// `divmod(x, d)`.
    ///
    /// A shuffle divides by the same word down every limb, so the word is divided once, for
    /// its reciprocal, and each limb costs two multiplications instead of a hardware
    /// division (Möller and Granlund, "Improved division by invariant integers", 2011,
    /// algorithm 4). The divisor is first shifted until its top bit is set, and the number
    /// with it, which leaves the quotient as it was and shifts the remainder.
    fn divmod(&mut self, d: u64) -> u64 {
        let shift = d.leading_zeros();
        let divisor = d << shift;
        let reciprocal = (u128::MAX / u128::from(divisor) - (1 << 64)) as u64;
        let used = self.used;
        // The bits the shift pushes above the top limb: below 2**shift, so below `divisor`.
        let mut rem = if shift == 0 || used == 0 {
            0
        } else {
            self.limbs[used - 1] >> (64 - shift)
        };
        for i in (0..used).rev() {
            let mut limb = self.limbs[i] << shift;
            if shift > 0 && i > 0 {
                limb |= self.limbs[i - 1] >> (64 - shift);
            }
            let (quotient, r) = divide_two_words(rem, limb, divisor, reciprocal);
            self.limbs[i] = quotient;
            rem = r;
        }
        self.trim();
        rem >> shift
    }
}

/// `(high·2**64 + low) / divisor` and its remainder, for `high < divisor`, `divisor`'s top
/// bit set and `reciprocal = ⌊(2**128 − 1) / divisor⌋ − 2**64` (Möller and Granlund's
/// algorithm 4: the estimate is off by at most two, and the two corrections fix it).
fn divide_two_words(high: u64, low: u64, divisor: u64, reciprocal: u64) -> (u64, u64) {
    let estimate = (u128::from(reciprocal) * u128::from(high))
        .wrapping_add((u128::from(high) << 64) | u128::from(low));
    let mut quotient = ((estimate >> 64) as u64).wrapping_add(1);
    let mut rem = low.wrapping_sub(quotient.wrapping_mul(divisor));
    if rem > estimate as u64 {
        quotient = quotient.wrapping_sub(1);
        rem = rem.wrapping_add(divisor);
    }
    if rem >= divisor {
        quotient += 1;
        rem -= divisor;
    }
    (quotient, rem)
}

/// Shuffles `items` in place in the order fixed by `seed` and `label`; with `settle`, only
/// the first `settle` positions are shuffled and the rest follow in the order the seed
/// leaves them (`cardtable.chance.shuffled`).
///
/// Python takes the digits one `divmod` at a time; here several radices are taken off the
/// big number at once (their product stays below 2**64) and split apart in a machine word,
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
        while end < steps {
            match product.checked_mul((n - end) as u64) {
                Some(wider) => product = wider,
                None => break,
            }
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
    assert!(n > 0, "a draw needs at least one outcome");
    Wide::of(seed, label).divmod(n)
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

    /// The remainder of `x` (limbs least significant first) by `d`, one 32-bit half-limb
    /// at a time with the hardware's division: the plain long division `divmod` replaces.
    fn plain_divmod(limbs: &mut [u64; 8], d: u64) -> u64 {
        let mut rem: u128 = 0;
        for limb in limbs.iter_mut().rev() {
            let mut quotient = 0u64;
            for half in [*limb >> 32, *limb & 0xFFFF_FFFF] {
                let cur = (rem << 32) | u128::from(half);
                quotient = (quotient << 32) | (cur / u128::from(d)) as u64;
                rem = cur % u128::from(d);
            }
            *limb = quotient;
        }
        rem as u64
    }

    #[test]
    fn division_by_an_invariant_word_is_long_division() {
        let divisors = [
            1,
            2,
            3,
            7,
            52,
            311_875_200,
            (1 << 32) - 1,
            1 << 32,
            (1 << 63) + 9,
            u64::MAX,
        ];
        for seed in -40..40 {
            let start = Wide::of(seed, "deck 3");
            for &d in &divisors {
                let mut fast = Wide {
                    limbs: start.limbs,
                    used: start.used,
                };
                let mut plain = start.limbs;
                for _ in 0..6 {
                    let (a, b) = (fast.divmod(d), plain_divmod(&mut plain, d));
                    assert_eq!((a, fast.limbs), (b, plain), "seed {seed}, divisor {d}");
                }
            }
        }
        // The hardest cases for the estimate: every limb at its largest.
        for &d in &divisors {
            let mut fast = Wide {
                limbs: [u64::MAX; 8],
                used: 8,
            };
            let mut plain = [u64::MAX; 8];
            assert_eq!(fast.divmod(d), plain_divmod(&mut plain, d));
            assert_eq!(fast.limbs, plain);
        }
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
