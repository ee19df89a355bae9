//! The stacks: the chance events given before the seed deals (decks and cut reshuffles),
//! given as the game begins or stacked while it is played (a web table's fair deals), and
//! consumed in order. Shared between clones; only the counters move.

use std::sync::Arc;

use super::deal::check_reshuffle;
use super::state::{KnockoutWhist, StackedChance};
use crate::cards::{Card, FULL_PACK};
use crate::game::{check_deck, OptionError};

impl KnockoutWhist {
    pub(super) fn set_stacked(&mut self, decks: Vec<Vec<Card>>, reshuffles: Vec<Vec<Card>>) {
        self.stacked_decks_used = 0;
        self.stacked_reshuffles_used = 0;
        self.stacked = (!decks.is_empty() || !reshuffles.is_empty())
            .then(|| Arc::new(StackedChance { decks, reshuffles }));
    }

    /// The stacked decks and recorded reshuffles not yet used.
    pub(super) fn chances_stacked(&self) -> (usize, usize) {
        (self.stacked_decks().len(), self.stacked_reshuffles().len())
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
        check_reshuffle(&order, self.stacked_reshuffles().len())?;
        let (decks, mut reshuffles) = self.stacks_left();
        reshuffles.push(order);
        self.set_stacked(decks, reshuffles);
        Ok(())
    }

    /// Copies of the stacked decks and reshuffles not yet used.
    fn stacks_left(&self) -> (Vec<Vec<Card>>, Vec<Vec<Card>>) {
        (
            self.stacked_decks().to_vec(),
            self.stacked_reshuffles().to_vec(),
        )
    }

    /// The stacked decks not yet dealt.
    pub(super) fn stacked_decks(&self) -> &[Vec<Card>] {
        match &self.stacked {
            Some(s) => &s.decks[(self.stacked_decks_used as usize).min(s.decks.len())..],
            None => &[],
        }
    }

    /// The recorded reshuffles not yet drawn.
    fn stacked_reshuffles(&self) -> &[Vec<Card>] {
        match &self.stacked {
            Some(s) => {
                &s.reshuffles[(self.stacked_reshuffles_used as usize).min(s.reshuffles.len())..]
            }
            None => &[],
        }
    }
}
