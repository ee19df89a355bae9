//! Inference for PIMC and search: how plausible a sampled deal makes the plays the other
//! seats have made in this hand, and the trumps a seat named for it. Each deal the
//! determinizer samples fits what the seat knows (the cards it saw, the suits a seat has
//! shown void in), but not all such deals explain the play equally: a seat that led a low
//! club from A♣ K♣ Q♣ would be odd. PIMC and search weigh each deal by the likelihood of
//! the observed plays under a model of the other seats: with probability `belief` a seat
//! plays the guided policy's card (`rollout.rs`, on that deal's hands as they were then),
//! else any legal card alike. `belief` 0 weighs every deal alike. Only this hand's plays
//! count: the hands before were dealt from another shuffle.
//!
//! A seat that named trumps (KOW-3.2) named them from its dealt hand: the model gives each
//! suit the chance `exp(choice · score)` (normalised over the suits), `score` being the
//! guided policy's measure of a trump suit (its length, honours counting half a card more),
//! so that `choice` 0 tells nothing and a large `choice` is the policy's own choice.

use super::rollout::{trump_score, LocalHand};
use super::state::NONE;
use super::{KnockoutWhist, Phase, KNOCK};
use crate::inference::Inference;

impl KnockoutWhist {
    /// The likelihood of this hand's plays by every seat but `knower`, the deal's hands
    /// being as this state holds them, under the model above. A play out of turn (which a
    /// state from a view never holds) ends the count there.
    pub fn plausibility(&self, knower: usize, belief: f64) -> f64 {
        if belief == 0.0 || self.phase != Phase::Play {
            return 1.0;
        }
        let mut hand = LocalHand::from_deal(self);
        let mut likelihood = 1.0;
        for play in self.plays.plays_before(self.plays.len()) {
            if hand.to_move != play.seat {
                break;
            }
            let action = play.card().map_or(KNOCK, usize::from);
            let legal = hand.legal();
            if usize::from(play.seat) != knower && legal.count_ones() > 1 {
                let uniform = (1.0 - belief) / f64::from(legal.count_ones());
                let policy = if hand.policy_action() == action {
                    belief
                } else {
                    0.0
                };
                likelihood *= uniform + policy;
            }
            if hand.act(action).is_some() {
                break;
            }
        }
        likelihood
    }

    /// The log-likelihood of the trumps named for this hand, by the seat that named them,
    /// under the model above with sharpness `choice`: 0 when `knower` named them, when
    /// they were turned (hand 1) or when `choice` is 0.
    pub fn choice_log_likelihood(&self, knower: usize, choice: f64) -> f64 {
        let chooser = usize::from(self.chooser);
        if choice == 0.0
            || self.phase != Phase::Play
            || self.turned != NONE
            || self.chooser == NONE
            || chooser == knower
        {
            return 0.0;
        }
        let dealt = LocalHand::from_deal(self).hands[chooser];
        let logits = [0, 1, 2, 3].map(|s| choice * f64::from(trump_score(dealt, s)));
        let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = logits.iter().map(|l| (l - top).exp()).sum();
        logits[usize::from(self.trump)] - top - total.ln()
    }

    /// The search's weight of this deal ([`Inference`]), as a log-likelihood.
    pub fn log_likelihood(&self, knower: usize, inference: &Inference) -> f64 {
        self.plausibility(knower, inference.plays).ln()
            + self.choice_log_likelihood(knower, inference.choice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{new_game, Game, PlayoutRng};
    use crate::knockout_whist::Options;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_likelihood_is_the_product_over_the_others_plays() {
        // A game whose seats all play the policy's card: every deal that is the true one
        // explains each play of the others at `belief + (1 - belief) / legal`; a game of
        // random plays is explained less well than that at most plays.
        let mut rng = PlayoutRng::seed_from_u64(5);
        for _ in 0..300 {
            let players = rng.random_range(2..=5);
            let mut state: KnockoutWhist =
                new_game(&Options::players(players).unwrap(), rng.random());
            let mut expected = 1.0;
            let knower = 0;
            let stop = rng.random_range(1..12);
            for _ in 0..stop {
                if state.to_move().is_none() || state.phase != Phase::Play {
                    break;
                }
                let hand = LocalHand::new(&state);
                let action = hand.policy_action();
                let legal = state.legal_mask();
                if state.to_move() != Some(knower) && legal.count_ones() > 1 {
                    expected *= 0.6 + 0.4 / f64::from(legal.count_ones());
                }
                let hand_no = state.hand_no;
                state.apply(action);
                if state.hand_no != hand_no {
                    expected = 1.0; // a new hand: only its own plays count
                }
            }
            let got = state.plausibility(knower, 0.6);
            assert!(
                (got - expected).abs() < 1e-12,
                "{got} against {expected} in {}",
                state.position()
            );
            assert_eq!(state.plausibility(knower, 0.0), 1.0);
        }
    }
}
