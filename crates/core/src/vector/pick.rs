//! A uniformly random legal action for every game's acting seat, drawn in the core: the
//! random agent of a learning loop, without a pass over the masks in NumPy.

use rand::Rng;

use super::{Agents, Batch, Guided, Observe};
use crate::game::{mask_actions, Game};

impl<G: Game + Observe + Guided> Batch<G> {
    /// Writes into `out` one action per game: uniformly random among the legal actions of
    /// the seat that acts (the agent's seat, or in self-play the seat to move), drawn from
    /// the game's own pick generator (seeded by [`Batch::reset`] from the game's seed, and
    /// apart from the game's chance); 0 where that seat has none (a game over, waiting for
    /// its next-step reset, or cut short before the agent's turn).
    pub fn sample(&mut self, out: &mut [i64]) -> Result<(), super::BatchError> {
        if out.len() != self.len() {
            return Err(super::BatchError::Buffer(format!(
                "{} actions for {} games",
                out.len(),
                self.len()
            )));
        }
        let one_agent = matches!(self.config.agents, Agents::One { .. });
        for (slot, action) in self.slots.iter_mut().zip(out.iter_mut()) {
            *action = 0;
            let Some(seat) = slot.state.to_move() else {
                continue;
            };
            if slot.done || (one_agent && seat != slot.seat) {
                continue;
            }
            let mut legal = mask_actions(slot.state.legal_mask());
            if legal.len() == 0 {
                continue;
            }
            // The k-th legal action, k uniform below their count.
            let k = slot.pick.random_range(0..legal.len() as u32) as usize;
            *action = legal.nth(k).expect("k is below the count") as i64;
        }
        Ok(())
    }
}
