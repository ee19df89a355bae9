//! The decks of the deals: seeded ones from [`crate::chance::shuffle`] (bit for bit
//! Python's `cardtable.chance.shuffled`, without touching the heap, since a playout deals
//! up to seven times), and stacked ones made fit to deal.

use crate::cards::Card;
use crate::chance::{shuffle, Seed};
use crate::game::OptionError;

/// Shuffles the set-aside cut cards as `shuffled(seed, f"cut {counter}", cards)`.
pub fn reshuffle(seed: Seed, counter: u64, cards: &mut [Card]) {
    shuffle(seed, format_args!("cut {counter}"), cards, None);
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

/// Checks a stacked reshuffle's cards (which cards it must hold, the step that draws it
/// checks); `index` names it in the message.
pub(super) fn check_reshuffle(order: &[Card], index: usize) -> Result<(), OptionError> {
    match order.iter().find(|&&c| c >= 52) {
        Some(&c) => Err(OptionError(format!(
            "reshuffle {index} holds card index {c}, outside 0-51"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chance::shuffled;

    #[test]
    fn reshuffles_of_few_cards_are_the_shared_shuffle() {
        for seed in 0..40 {
            for len in 0..=12 {
                let cards: Vec<Card> = (0..len).map(|c| c * 3 + 1).collect();
                let mut mine = cards.clone();
                reshuffle(seed, seed as u64 % 3, &mut mine);
                let label = format!("cut {}", seed % 3);
                assert_eq!(mine, shuffled(seed, &label, &cards, None));
            }
        }
    }

    #[test]
    fn a_deck_that_is_a_pack_is_dealt_as_given() {
        let mut deck = crate::chance::PACK_52;
        deck.reverse();
        assert_eq!(playable_deck(&deck), deck);
        let short = playable_deck(&[5, 5, 1]);
        assert_eq!(&short[..3], &[5, 1, 0]);
        assert_eq!(short[3], 2);
    }
}
