//! The decks of the deals: seeded ones from [`crate::chance::shuffle`] (bit for bit
//! Python's `cardtable.chance.shuffled`, without touching the heap, since a playout deals
//! up to seven times), and stacked ones made fit to deal, given as the game begins or
//! stacked while it is played (a web table's fair deals).

use std::sync::Arc;

use super::state::{KnockoutWhist, StackedChance};
use crate::cards::{Card, FULL_PACK};
use crate::chance::{shuffle, Seed};
use crate::game::{check_deck, OptionError};

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

/// The stacks: chance events given before the seed deals, consumed in order.
impl KnockoutWhist {
    pub(super) fn set_stacked(&mut self, decks: Vec<Vec<Card>>, reshuffles: Vec<Vec<Card>>) {
        self.stacked_decks_used = 0;
        self.stacked_reshuffles_used = 0;
        self.stacked = (!decks.is_empty() || !reshuffles.is_empty())
            .then(|| Arc::new(StackedChance { decks, reshuffles }));
    }

    /// The stacked decks and recorded reshuffles not yet used.
    pub(super) fn chances_stacked(&self) -> (usize, usize) {
        match &self.stacked {
            Some(s) => (
                s.decks
                    .len()
                    .saturating_sub(self.stacked_decks_used as usize),
                s.reshuffles
                    .len()
                    .saturating_sub(self.stacked_reshuffles_used as usize),
            ),
            None => (0, 0),
        }
    }

    /// Stacks `deck` beneath the decks still stacked (`Game::stack_deck`). The stacks are
    /// shared between clones, so the unused ones are copied into new ones.
    pub(super) fn stack_deck(&mut self, deck: Vec<Card>) -> Result<(), OptionError> {
        check_deck(&deck, self.stacked_decks().len(), FULL_PACK)?;
        let (mut decks, reshuffles) = self.stacks_left();
        decks.push(deck);
        self.set_stacked(decks, reshuffles);
        Ok(())
    }

    /// Stacks a reshuffle's order beneath those still stacked (`Game::stack_reshuffle`).
    pub(super) fn stack_reshuffle(&mut self, order: Vec<Card>) -> Result<(), OptionError> {
        if let Some(&c) = order.iter().find(|&&c| c >= 52) {
            return Err(OptionError(format!(
                "a reshuffle holds card index {c}, outside 0-51"
            )));
        }
        let (decks, mut reshuffles) = self.stacks_left();
        reshuffles.push(order);
        self.set_stacked(decks, reshuffles);
        Ok(())
    }

    /// Copies of the stacked decks and reshuffles not yet used.
    fn stacks_left(&self) -> (Vec<Vec<Card>>, Vec<Vec<Card>>) {
        match &self.stacked {
            Some(s) => (
                s.decks[(self.stacked_decks_used as usize).min(s.decks.len())..].to_vec(),
                s.reshuffles[(self.stacked_reshuffles_used as usize).min(s.reshuffles.len())..]
                    .to_vec(),
            ),
            None => (Vec::new(), Vec::new()),
        }
    }

    /// The stacked decks not yet dealt.
    pub(super) fn stacked_decks(&self) -> &[Vec<Card>] {
        match &self.stacked {
            Some(s) => &s.decks[(self.stacked_decks_used as usize).min(s.decks.len())..],
            None => &[],
        }
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
