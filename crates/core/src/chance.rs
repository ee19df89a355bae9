//! Seeded chance, bit for bit as `cardtable.chance`: a shuffle is read off a BLAKE2b-512
//! digest of `"{seed}/{label}"` taken as a big-endian 512-bit number, whose digits in the
//! mixed radix `n, n-1, …, 2` drive a Fisher–Yates shuffle run from the front. Both engines
//! therefore deal the same decks from the same seed.

use blake2::{Blake2b512, Digest};

/// A game's seed. Python seeds are unbounded integers; positions hold them within
/// `-2**63 ..= 2**63`, which an `i128` covers.
pub type Seed = i128;

/// A 512-bit number as eight 64-bit limbs, least significant first.
struct Wide([u64; 8]);

impl Wide {
    fn of(seed: Seed, label: &str) -> Wide {
        let digest = Blake2b512::new()
            .chain_update(format!("{seed}/{label}").as_bytes())
            .finalize();
        let mut limbs = [0u64; 8];
        for (i, chunk) in digest.chunks_exact(8).enumerate() {
            // The digest is big-endian: its first chunk is the most significant limb.
            limbs[7 - i] = u64::from_be_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        Wide(limbs)
    }

    /// Divides in place by `d` and returns the remainder (Python's `divmod(x, d)`).
    fn divmod(&mut self, d: u64) -> u64 {
        let mut rem: u128 = 0;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        rem as u64
    }
}

/// `items` in an order fixed by `seed` and `label`; with `settle`, only the first `settle`
/// positions are shuffled and the rest follow in the order the seed leaves them
/// (`cardtable.chance.shuffled`).
pub fn shuffled<T: Copy>(seed: Seed, label: &str, items: &[T], settle: Option<usize>) -> Vec<T> {
    let mut order = items.to_vec();
    let n = order.len();
    let mut x = Wide::of(seed, label);
    let steps = n.saturating_sub(1).min(settle.unwrap_or(n));
    for i in 0..steps {
        let j = i + x.divmod((n - i) as u64) as usize;
        order.swap(i, j);
    }
    order
}

/// A number in `0 … n-1` fixed by `seed` and `label` (`cardtable.chance.draw`).
pub fn draw(seed: Seed, label: &str, n: u64) -> u64 {
    Wide::of(seed, label).divmod(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffle_is_a_permutation_fixed_by_seed_and_label() {
        let pack: Vec<u8> = (0..52).collect();
        let a = shuffled(17, "deck 0", &pack, None);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, pack);
        assert_eq!(a, shuffled(17, "deck 0", &pack, None));
        assert_ne!(a, shuffled(17, "deck 1", &pack, None));
        assert_ne!(a, shuffled(18, "deck 0", &pack, None));
    }

    #[test]
    fn settling_fixes_the_front_only() {
        let pack: Vec<u8> = (0..52).collect();
        let full = shuffled(5, "deck 2", &pack, None);
        let part = shuffled(5, "deck 2", &pack, Some(8));
        assert_eq!(full[..8], part[..8]);
    }

    #[test]
    fn draw_is_in_range() {
        for seed in 0..200 {
            assert!(draw(seed, "dealer", 5) < 5);
        }
    }
}
