//! Seeded shuffles for the deals and the cut reshuffles, bit for bit
//! [`crate::chance::shuffled`] (Python's `cardtable.chance.shuffled`) but without touching
//! the heap, since a playout deals up to seven times.
//!
//! The BLAKE2b digest of `"{seed}/{kind} {counter}"` is a 512-bit number whose digits in
//! the mixed radix `n, n-1, …` drive the Fisher–Yates swaps. Dividing it by one radix at a
//! time is 52 passes over 512 bits; here several radices whose product stays below 2^32
//! are taken in one pass, and that remainder is split into its digits with machine words.

use blake2::{Blake2b512, Digest};

use crate::cards::Card;
use crate::chance::Seed;

/// The pack in index order (`cardtable.rules.tricks.PACK`).
pub const PACK: [Card; 52] = {
    let mut pack = [0; 52];
    let mut i = 0;
    while i < 52 {
        pack[i] = i as Card;
        i += 1;
    }
    pack
};

/// A 512-bit number as sixteen 32-bit halves, most significant first.
struct Wide {
    halves: [u32; 16],
    /// Halves before this one are zero.
    lead: usize,
}

impl Wide {
    fn of(seed: Seed, kind: &str, counter: u64) -> Wide {
        let mut text = Text::default();
        text.number(seed);
        text.push(b"/");
        text.push(kind.as_bytes());
        text.push(b" ");
        text.number(i128::from(counter));
        let digest = Blake2b512::new().chain_update(text.bytes()).finalize();
        let mut halves = [0u32; 16];
        for (half, chunk) in halves.iter_mut().zip(digest.chunks_exact(4)) {
            *half = u32::from_be_bytes(chunk.try_into().expect("4-byte chunk"));
        }
        Wide { halves, lead: 0 }
    }

    /// Divides in place by `d` (2 ≤ d < 2^32) and returns the remainder.
    fn divmod(&mut self, d: u64) -> u64 {
        // Each step divides `rem·2^32 + half` (below d·2^32) by d. With m = ⌊(2^64-1)/d⌋,
        // ⌊cur·m / 2^64⌋ falls short of the quotient by at most one, so one correction
        // replaces a hardware division.
        let m = u128::from(u64::MAX / d);
        let mut rem = 0u64;
        for half in &mut self.halves[self.lead..] {
            let cur = rem << 32 | u64::from(*half);
            let mut q = ((u128::from(cur) * m) >> 64) as u64;
            let mut r = cur - q * d;
            if r >= d {
                q += 1;
                r -= d;
            }
            *half = q as u32;
            rem = r;
        }
        while self.lead < 16 && self.halves[self.lead] == 0 {
            self.lead += 1;
        }
        rem
    }
}

/// The text that is hashed, written without allocating: a seed (at most 40 characters), a
/// label and a counter fit easily.
struct Text {
    buf: [u8; 96],
    len: usize,
}

impl Default for Text {
    fn default() -> Self {
        Text {
            buf: [0; 96],
            len: 0,
        }
    }
}

impl Text {
    fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }

    fn number(&mut self, value: i128) {
        if value < 0 {
            self.push(b"-");
        }
        let mut digits = [0u8; 40];
        let mut n = value.unsigned_abs();
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.push(&digits[i..]);
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Shuffles `items` in place as `shuffled(seed, f"{kind} {counter}", items, settle)` orders
/// them: with `settle`, only the first `settle` positions are drawn.
pub fn shuffle(seed: Seed, kind: &str, counter: u64, items: &mut [Card], settle: Option<usize>) {
    let n = items.len();
    let steps = n.saturating_sub(1).min(settle.unwrap_or(n));
    let mut x = Wide::of(seed, kind, counter);
    let mut i = 0;
    while i < steps {
        // Radices n-i, n-i-1, … taken together while their product stays below 2^32.
        let mut product = (n - i) as u64;
        let mut end = i + 1;
        while end < steps && product * ((n - end) as u64) < 1 << 32 {
            product *= (n - end) as u64;
            end += 1;
        }
        let mut rem = x.divmod(product) as u32;
        for k in i..end {
            let radix = (n - k) as u32;
            items.swap(k, k + (rem % radix) as usize);
            rem /= radix;
        }
        i = end;
    }
}

/// The first `settle` cards of a seeded deck (`shuffled(seed, f"deck {counter}", PACK,
/// settle)`); the rest follow in the order the seed leaves them.
pub fn seeded_deck(seed: Seed, counter: u64, settle: usize) -> [Card; 52] {
    let mut deck = PACK;
    shuffle(seed, "deck", counter, &mut deck, Some(settle));
    deck
}

/// A stacked deck as the deal can use it: the cards it holds, first copies only, then any
/// card of the pack it lacks in index order. A deck that holds each card once (every deck
/// a record or `begin` gives, and every position the core writes) is returned unchanged;
/// the Python engine cannot deal other decks at all (it fails or builds corrupt hands).
pub fn playable_deck(stacked: &[Card]) -> [Card; 52] {
    let mut deck = [0; 52];
    let mut seen = 0u64;
    let mut len = 0;
    for &c in stacked {
        if c < 52 && seen >> c & 1 == 0 {
            seen |= 1 << c;
            deck[len] = c;
            len += 1;
        }
    }
    for c in 0..52 {
        if seen >> c & 1 == 0 {
            deck[len] = c;
            len += 1;
        }
    }
    deck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::shuffled;

    #[test]
    fn decks_are_the_shared_shuffle() {
        // SPEC §0.3: both engines deal the same decks from the same seed.
        for seed in [0, 1, 5, 17, -3, 1 << 62, -(1i128 << 63), 1i128 << 63] {
            for counter in [0u64, 1, 6, 12, 123_456_789] {
                for settle in [1, 8, 15, 29, 50, 52] {
                    let label = format!("deck {counter}");
                    let expected = shuffled(seed, &label, &PACK, Some(settle));
                    assert_eq!(seeded_deck(seed, counter, settle).to_vec(), expected);
                }
            }
        }
    }

    #[test]
    fn reshuffles_of_few_cards_are_the_shared_shuffle() {
        for seed in 0..40 {
            for len in 0..=12 {
                let cards: Vec<Card> = (0..len).map(|c| c * 3 + 1).collect();
                let mut mine = cards.clone();
                shuffle(seed, "cut", seed as u64 % 3, &mut mine, None);
                let label = format!("cut {}", seed % 3);
                assert_eq!(mine, shuffled(seed, &label, &cards, None));
            }
        }
    }

    #[test]
    fn a_deck_that_is_a_pack_is_dealt_as_given() {
        let mut deck = PACK;
        deck.reverse();
        assert_eq!(playable_deck(&deck), deck);
        let short = playable_deck(&[5, 5, 1]);
        assert_eq!(&short[..3], &[5, 1, 0]);
        assert_eq!(short[3], 2);
    }
}
