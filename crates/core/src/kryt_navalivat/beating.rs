//! What beats what, how much a pick-up takes, and the 36-card pack's numbering (KRYT-1.2,
//! KRYT-3, KRYT-5, KRYT-8.2, KRYT-8.3), as `cardtable.rules.kryt_navalivat.beating` and the
//! tables of its `state.py`.
//!
//! Both trump modes are one rule with two suits in it: `trump` beats any plain card, and
//! `anti` (the spades of the permanent mode, or no suit at all) is beaten only by its own
//! suit.

use crate::cards::{Card, CardSet};

/// "No suit": the anti-trump of the turned mode (Python's `NO_SUIT = -1`).
pub const NO_SUIT: u8 = 4;
/// Diamonds, the permanent mode's trumps (KRYT-8.1).
pub const PERMANENT_TRUMP: u8 = 1;
/// Spades, the permanent mode's anti-trumps (KRYT-8.1).
pub const PERMANENT_ANTI: u8 = 3;
/// A six's offset within its suit (rank 6 - 2).
pub const SIX: u8 = 4;
/// An ace's offset within its suit.
pub const ACE: u8 = 12;

/// The ranks 6 to ace of one suit, at the suit's low bits.
const SUIT_36: CardSet = 0x1FF0;

/// The 36-card pack as a card set.
pub const PACK_36_SET: CardSet = SUIT_36 | SUIT_36 << 13 | SUIT_36 << 26 | SUIT_36 << 39;

/// The 36-card pack in index order: a card's number is its place here.
pub const PACK_36: [Card; 36] = pack_36();

const fn pack_36() -> [Card; 36] {
    let mut pack = [0; 36];
    let mut n = 0;
    while n < 36 {
        pack[n] = card_of(n);
        n += 1;
    }
    pack
}

/// The card an action's card number (`suit * 9 + rank - 6`) names.
#[inline]
pub const fn card_of(number: usize) -> Card {
    ((number / 9) * 13 + number % 9 + SIX as usize) as Card
}

/// A pack card's number, `suit * 9 + rank - 6`.
#[inline]
pub const fn number_of(card: Card) -> usize {
    (card / 13) as usize * 9 + (card % 13) as usize - SIX as usize
}

/// The numbers of the pack cards in `set`, as bits: four shifts that turn a hand into the
/// lead, beat or cover rows of the action mask.
#[inline]
pub const fn numbers(set: CardSet) -> u64 {
    (set >> 4 & 0x1FF)
        | (set >> 17 & 0x1FF) << 9
        | (set >> 30 & 0x1FF) << 18
        | (set >> 43 & 0x1FF) << 27
}

/// Whether `card` beats `top`: a higher card of its suit, or a trump on a card that is
/// neither a trump nor an anti-trump (KRYT-3.1, KRYT-8.2).
#[inline]
pub const fn beats(card: Card, top: Card, trump: u8, anti: u8) -> bool {
    let (suit, top_suit) = (card / 13, top / 13);
    if suit == top_suit {
        return card > top;
    }
    suit == trump && top_suit != anti
}

/// For every card index, the set of pack cards that beat it.
pub type Beaters = [CardSet; 52];

const fn beaters(trump: u8, anti: u8) -> Beaters {
    let mut table = [0; 52];
    let mut top = 0;
    while top < 52 {
        let mut mask = 0;
        let mut n = 0;
        while n < 36 {
            let card = card_of(n);
            if beats(card, top as Card, trump, anti) {
                mask |= 1 << card;
            }
            n += 1;
        }
        table[top] = mask;
        top += 1;
    }
    table
}

/// The five rule sets: trumps clubs … spades turned (0 … 3), then permanent (4).
pub const RULE_SETS: usize = 5;

/// The rule set of `trump` and `anti`: its index into the tables kept per rule set.
#[inline]
pub const fn rule_set(trump: u8, anti: u8) -> usize {
    if anti == NO_SUIT {
        trump as usize
    } else {
        4
    }
}

/// The beat tables of the rule sets, in [`rule_set`]'s order.
static BEATERS: [Beaters; RULE_SETS] = [
    beaters(0, NO_SUIT),
    beaters(1, NO_SUIT),
    beaters(2, NO_SUIT),
    beaters(3, NO_SUIT),
    beaters(PERMANENT_TRUMP, PERMANENT_ANTI),
];

/// The beat table of the rules with `trump` and `anti`.
#[inline]
pub fn beaters_for(trump: u8, anti: u8) -> &'static Beaters {
    &BEATERS[rule_set(trump, anti)]
}

/// How many cards a pick-up takes from a pile of `pile` cards with `top` on top: 1 for a
/// plain card (an anti-trump included), the top three (or all, when fewer) for a trump,
/// the whole pile for the ace of trumps (KRYT-5, KRYT-8.3).
#[inline]
pub const fn take_count(pile: usize, top: Card, trump: u8) -> usize {
    if top / 13 != trump {
        return 1;
    }
    if top % 13 == ACE {
        return pile;
    }
    if pile < 3 {
        pile
    } else {
        3
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_card;

    fn c(text: &str) -> Card {
        parse_card(text).unwrap()
    }

    #[test]
    fn numbers_run_six_to_ace_clubs_to_spades() {
        // docs/kryt-navalivat.md: 0 = 6C, 8 = AC, 9 = 6D, 35 = AS.
        assert_eq!(
            [card_of(0), card_of(8), card_of(9), card_of(35)],
            [c("6C"), c("AC"), c("6D"), c("AS")]
        );
        for (n, &card) in PACK_36.iter().enumerate() {
            assert_eq!(number_of(card), n);
            assert_eq!(numbers(1 << card), 1 << n);
        }
        assert_eq!(numbers(PACK_36_SET), (1 << 36) - 1);
        assert_eq!(numbers(!PACK_36_SET & crate::cards::FULL_PACK), 0);
    }

    #[test]
    fn kryt_navalivat_3_2_only_the_ace_of_trumps_is_unbeatable_when_turned() {
        for trump in 0..4 {
            let table = beaters_for(trump, NO_SUIT);
            let unbeatable: Vec<Card> = PACK_36
                .iter()
                .copied()
                .filter(|&t| table[t as usize] == 0)
                .collect();
            assert_eq!(unbeatable, vec![13 * trump + ACE]);
        }
    }

    #[test]
    fn kryt_navalivat_8_2_ad_and_as_are_unbeatable_when_permanent() {
        let table = beaters_for(PERMANENT_TRUMP, PERMANENT_ANTI);
        let unbeatable: Vec<Card> = PACK_36
            .iter()
            .copied()
            .filter(|&t| table[t as usize] == 0)
            .collect();
        assert_eq!(unbeatable, vec![c("AD"), c("AS")]);
        assert!(!beats(c("AD"), c("9S"), PERMANENT_TRUMP, PERMANENT_ANTI));
        assert!(!beats(c("AS"), c("9H"), PERMANENT_TRUMP, PERMANENT_ANTI));
        assert!(beats(c("6D"), c("9H"), PERMANENT_TRUMP, PERMANENT_ANTI));
    }
}
