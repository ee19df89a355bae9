//! Knockout Whist's learned policy prior for search (`prior=W` in `bots.ismcts`): a small
//! network that gives each legal action of the seat to move the chance that a searcher
//! (`hard`, `expert`) would choose it, learnt from their recorded decisions
//! (`benchmarks/knockout_whist_prior.py`). Search adds it to a node's score as a
//! progressive bias, `W · prior / (1 + visits)`, and tries a node's untried actions in the
//! prior's order: it steers the first visits and fades as the visits grow.
//!
//! The inputs are the 0/1 blocks of the mover's own observation (`observation.rs`, all its
//! entries before the hand number): its hand, the trick, this hand's finished tricks, the
//! turned card, the trump, the phase, the seats and statuses. In a sampled deal the mover's
//! hand is the sample's, which is what that seat would see there. Three players only: the
//! network was trained on three-player games.

use std::sync::OnceLock;

use super::observation::Layout;
use super::state::KnockoutWhist;
use crate::game::Game;
use crate::net::{softmax, Mlp};
use crate::observation::Observe;
use crate::rollout::PRIOR_ACTIONS;

/// The network, as the training script wrote it.
pub const NET_JSON: &str = include_str!("prior_net.json");

const PLAYERS: usize = 3;
const LAYOUT: Layout = Layout::new(PLAYERS);
/// The observation's 0/1 entries: everything before the hand number.
pub const INPUTS: usize = LAYOUT.hand_number;
/// Knockout Whist's actions: 52 cards, the knock, the four trump suits.
pub const ACTIONS: usize = 57;

/// The network read once.
pub fn net() -> &'static Mlp {
    static NET: OnceLock<Mlp> = OnceLock::new();
    NET.get_or_init(|| {
        let net = Mlp::from_json(NET_JSON).expect("prior_net.json is a network");
        assert!(
            net.inputs() == INPUTS && net.outputs() == ACTIONS,
            "prior_net.json reads {} inputs into {} outputs, not {INPUTS} into {ACTIONS}",
            net.inputs(),
            net.outputs()
        );
        net
    })
}

impl KnockoutWhist {
    /// The prior over the legal actions of the seat to move, into `out` (0 for the others);
    /// `false`, `out` untouched, where the network does not apply (not three players, or
    /// nobody to move).
    pub fn learned_prior(&self, out: &mut [f32; PRIOR_ACTIONS]) -> bool {
        let Some(mover) = Game::to_move(self) else {
            return false;
        };
        if self.n() != PLAYERS {
            return false;
        }
        let mut seen = [0.0f32; LAYOUT.size];
        self.observe(mover, &mut seen);
        let mut set = [0usize; INPUTS];
        let mut count = 0;
        for (i, &x) in seen[..INPUTS].iter().enumerate() {
            if x != 0.0 {
                set[count] = i;
                count += 1;
            }
        }
        let mut logits = [0.0f32; ACTIONS];
        net().forward_set(&set[..count], &mut logits);
        let legal = Game::legal_mask(self);
        let mut legal_logits = [0.0f32; ACTIONS];
        let mut k = 0;
        for (a, &logit) in logits.iter().enumerate() {
            if legal >> a & 1 == 1 {
                legal_logits[k] = logit;
                k += 1;
            }
        }
        softmax(&mut legal_logits[..k]);
        k = 0;
        for (a, p) in out[..ACTIONS].iter_mut().enumerate() {
            if legal >> a & 1 == 1 {
                *p = legal_logits[k];
                k += 1;
            } else {
                *p = 0.0;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{new_game, PlayoutRng};
    use crate::knockout_whist::Options;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_prior_is_a_distribution_over_the_legal_actions_of_three_players() {
        let mut rng = PlayoutRng::seed_from_u64(3);
        for players in 2..=5 {
            let mut state: KnockoutWhist =
                new_game(&Options::players(players).unwrap(), rng.random());
            let mut out = [0.0f32; PRIOR_ACTIONS];
            while Game::to_move(&state).is_some() {
                let legal = Game::legal_mask(&state);
                let applies = state.learned_prior(&mut out);
                assert_eq!(applies, players == 3);
                if applies {
                    let total: f32 = out.iter().sum();
                    assert!((total - 1.0).abs() < 1e-4, "{total}");
                    for (a, &p) in out.iter().enumerate() {
                        assert_eq!(p > 0.0, legal >> a & 1 == 1, "action {a}: {p}");
                    }
                }
                let k = rng.random_range(0..legal.count_ones());
                state.apply(crate::game::nth_action(legal, k));
            }
        }
    }
}
