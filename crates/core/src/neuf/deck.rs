//! The seeded deck of a deal, bit for bit `chance::shuffled(seed, "deck {k}", PACK, None)`
//! (so bit for bit Python's `cardtable.chance.shuffled`), built without the heap and
//! without 128-bit divisions: the deal of a new hand is most of the cost of a random game.
//!
//! The shuffle reads the digits of a 512-bit number in the mixed radix 52, 51, …, 2.
//! Dividing by a product of consecutive radices gives a remainder that holds the next
//! few digits, so a few divisions of the whole number replace one per digit; each
//! product is below 2^32, so every step divides a `u64` by a constant.

use blake2::{Blake2b512, Digest};
use std::io::Write;

use crate::cards::Card;
use crate::chance::Seed;

/// The digest as sixteen 32-bit limbs, most significant first.
type Wide = [u32; 16];

fn digest(seed: Seed, deck_number: u32) -> Wide {
    // "-170141183460469231731687303715884105728/deck 4294967295" is 56 bytes.
    let mut text = [0u8; 64];
    let mut rest: &mut [u8] = &mut text;
    write!(rest, "{seed}/deck {deck_number}").expect("the label fits");
    let len = 64 - rest.len();
    let digest = Blake2b512::new().chain_update(&text[..len]).finalize();
    std::array::from_fn(|k| {
        u32::from_be_bytes(digest[4 * k..4 * k + 4].try_into().expect("4 bytes"))
    })
}

/// Divides the whole number by `D` in place and returns the remainder.
#[inline(always)]
fn divmod<const D: u64>(x: &mut Wide) -> u64 {
    let mut rem = 0u64;
    for limb in x.iter_mut() {
        let cur = rem << 32 | u64::from(*limb);
        *limb = (cur / D) as u32;
        rem = cur % D;
    }
    rem
}

/// Fisher–Yates steps `I … I + COUNT - 1` of the 52-card shuffle, whose radices
/// `52 - I, …` multiply to `D`.
#[inline(always)]
fn steps<const D: u64, const I: usize, const COUNT: usize>(x: &mut Wide, deck: &mut [Card; 52]) {
    let mut digits = divmod::<D>(x);
    for k in 0..COUNT {
        let radix = (52 - I - k) as u64;
        let j = I + k + (digits % radix) as usize;
        digits /= radix;
        deck.swap(I + k, j);
    }
}

/// Deck `deck_number` of the game seeded `seed`, top first.
pub(super) fn seeded_deck(seed: Seed, deck_number: u32) -> [Card; 52] {
    let mut x = digest(seed, deck_number);
    let mut deck: [Card; 52] = std::array::from_fn(|i| i as Card);
    steps::<{ 52 * 51 * 50 * 49 * 48 }, 0, 5>(&mut x, &mut deck);
    steps::<{ 47 * 46 * 45 * 44 * 43 }, 5, 5>(&mut x, &mut deck);
    steps::<{ 42 * 41 * 40 * 39 * 38 * 37 }, 10, 6>(&mut x, &mut deck);
    steps::<{ 36 * 35 * 34 * 33 * 32 * 31 }, 16, 6>(&mut x, &mut deck);
    steps::<{ 30 * 29 * 28 * 27 * 26 * 25 }, 22, 6>(&mut x, &mut deck);
    steps::<{ 24 * 23 * 22 * 21 * 20 * 19 * 18 }, 28, 7>(&mut x, &mut deck);
    steps::<{ 17 * 16 * 15 * 14 * 13 * 12 * 11 * 10 }, 35, 8>(&mut x, &mut deck);
    steps::<{ 9 * 8 * 7 * 6 * 5 * 4 * 3 * 2 }, 43, 8>(&mut x, &mut deck);
    deck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::shuffled;

    #[test]
    fn every_radix_product_fits_a_32_bit_limb_step() {
        // rem < D and rem << 32 | limb must fit a u64: D below 2^32.
        let groups: [&[u64]; 8] = [
            &[52, 51, 50, 49, 48],
            &[47, 46, 45, 44, 43],
            &[42, 41, 40, 39, 38, 37],
            &[36, 35, 34, 33, 32, 31],
            &[30, 29, 28, 27, 26, 25],
            &[24, 23, 22, 21, 20, 19, 18],
            &[17, 16, 15, 14, 13, 12, 11, 10],
            &[9, 8, 7, 6, 5, 4, 3, 2],
        ];
        let radices: Vec<u64> = groups.iter().flat_map(|g| g.iter().copied()).collect();
        assert_eq!(radices, (2..=52).rev().collect::<Vec<_>>());
        assert!(groups.iter().all(|g| g.iter().product::<u64>() < 1 << 32));
    }

    #[test]
    fn the_same_decks_as_the_shared_shuffle() {
        // SPEC §0.3: the seed fixes every deck; both engines deal the same ones.
        let pack: Vec<Card> = (0..52).collect();
        let seeds = (-300..300)
            .chain([
                i128::from(i64::MIN),
                i128::from(i64::MAX),
                1 << 63,
                -(1 << 63),
            ])
            .chain([i128::MIN, i128::MAX]);
        for seed in seeds {
            for number in [0, 1, 7, 24, 1_000_000, u32::MAX] {
                let label = format!("deck {number}");
                let expected = shuffled(seed, &label, &pack, None);
                assert_eq!(
                    seeded_deck(seed, number).to_vec(),
                    expected,
                    "{seed} {number}"
                );
            }
        }
    }
}
