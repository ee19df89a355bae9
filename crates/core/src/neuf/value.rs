//! The learned value at the end of a trick (`rollout=learned`, three players): a small
//! network ([`crate::net`]) reads every hand of a determinized deal at the start of a trick
//! and gives each seat's share of the tricks left, in place of playing the deal out with
//! the guided policy. `benchmarks/neuf_value_net.py` trains it with PyTorch on
//! [`value_samples`] and writes `value_net.json`, compiled in here.
//!
//! The inputs are all 0 or 1, seen from the seat to lead: each seat's cards (the leader's,
//! then the next seat's, then the last's), the suits renumbered so that the trump suit
//! comes first (the others keep their order), a no-trump flag, and the tricks left, one-hot.
//! The outputs are the three seats' shares of the tricks left (a softmax); the deal's
//! expected tricks then make expected scores, valued by the guided rollout's own estimate
//! ([`Neuf::score_estimate`], NEUF-5.2).

use std::sync::OnceLock;

use super::{quota, Neuf, Phase, Trump, NO_SUIT, NO_TRUMP, TRICKS};
use crate::cards::{suit, CardSet};
use crate::game::{new_game, Returns};
use crate::net::{softmax, Mlp};
use crate::rollout::{Draw, Guided};

/// The network, as the training script wrote it.
pub const NET_JSON: &str = include_str!("value_net.json");

/// Three seats' 52 cards, the no-trump flag, then tricks left 1 … 13 one-hot.
pub const INPUTS: usize = 3 * 52 + 1 + TRICKS as usize;
const NO_TRUMP_INPUT: usize = 3 * 52;
const LEFT_INPUTS: usize = NO_TRUMP_INPUT + 1;
/// The most inputs set at once: 39 cards (the first lead), the no-trump flag, tricks left.
const MAX_SET: usize = 3 * TRICKS as usize + 2;

/// The network read once.
pub fn net() -> &'static Mlp {
    static NET: OnceLock<Mlp> = OnceLock::new();
    NET.get_or_init(|| {
        let net = Mlp::from_json(NET_JSON).expect("value_net.json is a network");
        assert!(
            net.inputs() == INPUTS && net.outputs() == 3,
            "value_net.json reads {} inputs into {} outputs, not {INPUTS} into 3",
            net.inputs(),
            net.outputs()
        );
        net
    })
}

/// A suit's place among the inputs: the trump suit first, the others in their order.
#[inline]
fn suit_place(s: u8, trump: Trump) -> usize {
    if trump == NO_TRUMP || s > trump {
        usize::from(s)
    } else if s == trump {
        0
    } else {
        usize::from(s) + 1
    }
}

impl Neuf {
    /// Whether the network values this game's deals: three players, no house rule that
    /// ends a deal mid-way (NEUF-8.3).
    fn network_applies(&self) -> bool {
        self.n() == 3 && !self.tie_avoidance
    }

    /// Cards being played and no trick begun.
    fn trick_starts(&self) -> bool {
        self.phase == Phase::Play && self.led == NO_SUIT
    }

    /// The inputs that are set, seen from the seat to lead (see the module's comment),
    /// written into `set`; how many. On the stack: the search asks at every rollout.
    fn value_inputs(&self, set: &mut [usize; MAX_SET]) -> usize {
        let mut on = 0;
        let leader = usize::from(self.to_move);
        for k in 0..3 {
            let mut cards: CardSet = self.hands[(leader + k) % 3];
            while cards != 0 {
                let card = cards.trailing_zeros() as u8;
                cards &= cards - 1;
                let place = suit_place(suit(card), self.trump);
                set[on] = 52 * k + 13 * place + usize::from(card % 13);
                on += 1;
            }
        }
        if self.trump == NO_TRUMP {
            set[on] = NO_TRUMP_INPUT;
            on += 1;
        }
        set[on] = LEFT_INPUTS + self.tricks_left() - 1;
        on + 1
    }

    fn tricks_left(&self) -> usize {
        TRICKS as usize - self.plays.done()
    }

    /// Each seat's expected tricks in the rest of the deal by the network, where it values
    /// this state (three players, the start of a trick, no NEUF-8.3); else `None`.
    pub fn learned_tricks(&self) -> Option<[f64; 3]> {
        (self.network_applies() && self.trick_starts()).then(|| self.value_tricks())
    }

    /// Each seat's expected tricks in the rest of the deal, by the network.
    fn value_tricks(&self) -> [f64; 3] {
        let mut set = [0; MAX_SET];
        let on = self.value_inputs(&mut set);
        let mut share = [0.0f32; 3];
        net().forward_set(&set[..on], &mut share);
        softmax(&mut share);
        let left = self.tricks_left() as f64;
        let leader = usize::from(self.to_move);
        let mut tricks = [0.0; 3];
        for (k, s) in share.iter().enumerate() {
            tricks[(leader + k) % 3] = f64::from(*s) * left;
        }
        tricks
    }

    /// Every seat's return with the network's tricks for the rest of the deal: the
    /// expected scores after it, valued as the guided rollout values a deal's end.
    fn value_returns(&self) -> Returns {
        let left = self.value_tricks();
        let need = f64::from(quota(3));
        let mut scores = [0.0; 3];
        for (seat, (score, &now)) in scores.iter_mut().zip(self.sheet.scores()).enumerate() {
            *score = f64::from(now) - (f64::from(self.tricks_won[seat]) + left[seat] - need);
        }
        self.estimate_from_scores(&scores)
    }

    /// The guided policy to the end of the current trick, then the network's value
    /// ([`Guided::learned_rollout`]); the guided rollout where the network does not apply.
    pub(super) fn value_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        if !self.network_applies() {
            return self.guided_rollout(draw);
        }
        while self.phase != Phase::Over {
            if self.trick_starts() {
                return self.value_returns();
            }
            if self.step_guided(draw) {
                return self.score_estimate();
            }
        }
        self.final_returns()
    }
}

/// Self-play by the guided policy for training the network: `games` first deals of the
/// options' game (dealt from seeds `seed`, `seed + 1`, …), and at the start of each trick
/// (the first included) the inputs that are set and, as the target, each seat's mean share
/// of the tricks left over `rollouts` guided playouts of the rest of the deal from there
/// (seen from the seat to lead, as the inputs are). Positions are appended to `set` (one
/// list a position) and `target` (three numbers a position).
pub fn value_samples(
    options: &super::Options,
    games: usize,
    seed: i128,
    rollouts: usize,
    set: &mut Vec<Vec<usize>>,
    target: &mut Vec<[f32; 3]>,
) {
    use rand::SeedableRng;
    let mut rng = crate::game::PlayoutRng::seed_from_u64(seed as u64);
    let mut inputs = [0; MAX_SET];
    for g in 0..games {
        let mut state: Neuf = new_game(options, seed + g as i128);
        let deal = state.sheet.row_count();
        if !state.network_applies() {
            return;
        }
        while state.phase != Phase::Over && state.sheet.row_count() == deal {
            if state.trick_starts() {
                let on = state.value_inputs(&mut inputs);
                set.push(inputs[..on].to_vec());
                target.push(mean_shares(&state, rollouts, &mut rng));
            }
            state.step_guided(&mut rng);
        }
    }
}

/// The mean share of the tricks left each seat takes (from the seat to lead) over
/// `rollouts` guided playouts of the rest of the deal.
fn mean_shares(state: &Neuf, rollouts: usize, rng: &mut crate::game::PlayoutRng) -> [f32; 3] {
    let before = state.tricks_won;
    let leader = usize::from(state.to_move);
    let left = state.tricks_left() as f64;
    let mut shares = [0.0f64; 3];
    for _ in 0..rollouts {
        let mut s = state.clone();
        while !s.step_guided(rng) && s.phase != Phase::Over {}
        let taken = s.sheet.last_row().expect("a played-out deal is scored");
        for (k, share) in shares.iter_mut().enumerate() {
            let seat = (leader + k) % 3;
            *share += f64::from(taken[seat] - before[seat]) / left;
        }
    }
    shares.map(|x| (x / rollouts as f64) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn the_trump_suit_comes_first_and_the_others_keep_their_order() {
        // Hearts (2) trumps: hearts, clubs, diamonds, spades.
        assert_eq!(
            (0..4).map(|s| suit_place(s, 2)).collect::<Vec<_>>(),
            [1, 2, 0, 3]
        );
        // Clubs (0) trumps: the order unchanged.
        assert_eq!(
            (0..4).map(|s| suit_place(s, 0)).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        // No trump: the order unchanged.
        assert_eq!(
            (0..4).map(|s| suit_place(s, NO_TRUMP)).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn the_learned_tricks_are_the_tricks_left_shared_at_each_trick_start() {
        let options = Neuf::options(&[]).unwrap();
        let mut state: Neuf = new_game(&options, 5);
        let mut rng = <crate::game::PlayoutRng as rand::SeedableRng>::seed_from_u64(5);
        let mut starts = 0;
        while state.sheet.row_count() == 0 {
            match state.learned_tricks() {
                Some(tricks) => {
                    starts += 1;
                    assert!(tricks.iter().all(|&t| t >= 0.0));
                    let left = tricks.iter().sum::<f64>();
                    assert!(
                        (left - state.tricks_left() as f64).abs() < 1e-4,
                        "{tricks:?}"
                    );
                }
                None => assert!(state.phase == Phase::Exchange || state.led != NO_SUIT),
            }
            state.step_guided(&mut rng);
        }
        assert_eq!(starts, 13);
    }
}
