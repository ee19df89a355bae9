//! The guided rollout policy of search (`cardtable.bots.kryt_navalivat_rollout`): its
//! choices in set positions, with the draws each one takes (the Python policy's, which
//! `tests/core/test_core_guided.py` holds the core to), and along random games of every table
//! size and trump mode, legal actions and rollouts that end the hand, zero-sum.

mod kryt_navalivat_common;

use cardtable_core::game::{new_game, Game, PlayoutRng};
use cardtable_core::kryt_navalivat::{action_text, TrumpMode};
use cardtable_core::rollout::{Guided, Script};
use cardtable_core::KrytNavalivat;
use kryt_navalivat_common::*;
use rand::SeedableRng;

/// The harness cap of KRYT-7.7: a guided hand is far shorter.
const CAP: usize = 10_000;

/// The policy's action as text, and how many of `draws` it took.
fn choose(state: &KrytNavalivat, draws: &[f64]) -> (String, usize) {
    let mut script = Script::new(draws);
    let action = state.guided_action(&mut script);
    assert!(!script.ran_out(), "more draws than {draws:?}");
    (action_text(action), script.used)
}

fn chosen(action: &str, used: usize) -> (String, usize) {
    (action.to_string(), used)
}

#[test]
fn kryt_navalivat_4_2_a_response_beats_with_the_weakest_beating_card() {
    // Clubs are trumps: 9H and 6C beat 8H, and 9H is the weaker (a plain nine against a
    // trump). One draw decides between the beat and the rare pick-up by choice.
    let state = Compose::new(&["7H 9H 6C", FILL]).pile("8H").state();
    assert_eq!(choose(&state, &[0.5]), chosen("beat 9H", 1));
    assert_eq!(choose(&state, &[0.02]), chosen("beat 9H", 1));
    assert_eq!(choose(&state, &[0.019]), chosen("take", 1));
}

#[test]
fn kryt_navalivat_4_2_with_nothing_that_beats_the_response_is_a_pick_up_without_a_draw() {
    let state = Compose::new(&["7H 6S", FILL]).pile("8H").state();
    assert_eq!(choose(&state, &[]), chosen("take", 0));
}

#[test]
fn kryt_navalivat_8_2_the_permanent_trumps_beat_with_the_weakest_diamond() {
    // Diamonds permanent: 6D beats the heart, 10H too; the plain ten is weaker. On a spade
    // only a higher spade beats.
    let state = Compose::new(&["10H 6D AD", FILL])
        .pile("9H")
        .trumps("permanent")
        .state();
    assert_eq!(choose(&state, &[0.5]), chosen("beat 10H", 1));
    let state = Compose::new(&["AS 6D AD", FILL])
        .pile("9S")
        .trumps("permanent")
        .state();
    assert_eq!(choose(&state, &[0.5]), chosen("beat AS", 1));
}

#[test]
fn a_lead_is_the_weakest_card_or_now_and_then_a_random_one_in_pack_order() {
    // Clubs are trumps: 7D is the weakest (beaten by more cards than 10S), 6C the strongest.
    let state = Compose::new(&["10S 6C 7D", FILL]).turn("lead").state();
    assert_eq!(choose(&state, &[0.5]), chosen("lead 7D", 1));
    assert_eq!(choose(&state, &[0.08]), chosen("lead 7D", 1));
    // Below 0.08 a second draw picks among 6C, 7D, 10S (pack order: clubs first).
    assert_eq!(choose(&state, &[0.05, 0.0]), chosen("lead 6C", 2));
    assert_eq!(choose(&state, &[0.05, 0.5]), chosen("lead 7D", 2));
    assert_eq!(choose(&state, &[0.05, 0.99]), chosen("lead 10S", 2));
}

#[test]
fn kryt_navalivat_4_2a_a_cover_is_the_weakest_card_or_now_and_then_a_random_one() {
    let state = Compose::new(&["KH 6S", FILL])
        .pile("7H 8H")
        .turn("cover")
        .state();
    assert_eq!(choose(&state, &[0.5]), chosen("cover 6S", 1));
    assert_eq!(choose(&state, &[0.01, 0.4]), chosen("cover KH", 2));
}

#[test]
fn kryt_navalivat_6_the_six_of_trumps_is_swapped_at_once_without_a_draw() {
    for turn in ["lead", "respond"] {
        let pile = if turn == "lead" { "" } else { "6H" };
        let state = Compose::new(&["6C 7H 8S", "8H 9H 9S"])
            .pile(pile)
            .stock(FILL)
            .faceup("AC")
            .turn(turn)
            .state();
        assert_eq!(choose(&state, &[]), chosen("swap", 0), "{turn}");
    }
}

#[test]
fn kryt_navalivat_4_3_the_free_turn_beats_when_it_can_else_leads_the_weakest_without_a_draw() {
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "KH 7S", "9D 10D"])
        .pile(&pile_text)
        .state();
    play(&mut state, "beat QH");
    assert_eq!(choose(&state, &[]), chosen("beat KH", 0));
    let mut state = Compose::new(&["QH", "10H 7S", "9D 10D"])
        .pile(&pile_text)
        .state();
    play(&mut state, "beat QH");
    assert_eq!(choose(&state, &[]), chosen("lead 7S", 0));
}

/// KRYT-7.2 / KRYT-7.3: everyone 0 in a draw, else the fool -1 and every other seat
/// `1 / (n - 1)`; zero-sum either way.
fn assert_returns(returns: &[f64]) {
    let n = returns.len();
    assert!(returns.iter().sum::<f64>().abs() < 1e-12, "{returns:?}");
    if returns.iter().all(|&r| r == 0.0) {
        return;
    }
    let fools = returns.iter().filter(|&&r| r == -1.0).count();
    let share = 1.0 / (n as f64 - 1.0);
    let winners = returns.iter().filter(|&&r| r == share).count();
    assert_eq!((fools, winners), (1, n - 1), "{returns:?}");
}

/// Every variant: 2 … 6 players, both trump modes.
fn variants() -> Vec<(usize, TrumpMode)> {
    (2..=6)
        .flat_map(|n| [(n, TrumpMode::Turned), (n, TrumpMode::Permanent)])
        .collect()
}

#[test]
fn the_policy_s_action_is_legal_along_random_games_of_every_variant() {
    // Ordinary draws, and the extremes: every lead and cover random and every beat refused
    // (all 0), or never (all just under 1).
    let low = [0.0; 2];
    let high = [1.0 - f64::EPSILON; 2];
    for (players, mode) in variants() {
        for seed in 0..12 {
            let mut rng = PlayoutRng::seed_from_u64(seed);
            for state in random_states(players, mode, seed, 600) {
                if state.to_move().is_none() {
                    continue;
                }
                let legal = state.legal_mask();
                for action in [
                    state.guided_action(&mut rng),
                    state.guided_action(&mut Script::new(&low)),
                    state.guided_action(&mut Script::new(&high)),
                ] {
                    assert!(
                        legal >> action & 1 == 1,
                        "{} is not legal in {}",
                        action_text(action),
                        state.position()
                    );
                }
            }
        }
    }
}

#[test]
fn kryt_navalivat_7_guided_rollouts_end_the_hand_zero_sum_from_the_deal_and_midgame() {
    for (players, mode) in variants() {
        for seed in 0..40u64 {
            let mut rng = PlayoutRng::seed_from_u64(seed);
            let mut state: KrytNavalivat = new_game(&options(players, mode), seed.into());
            let mut steps = 0;
            while state.to_move().is_some() {
                assert!(steps < CAP, "{players} players, seed {seed}: no end");
                let action = state.guided_action(&mut rng);
                state.apply(action);
                steps += 1;
            }
            assert_returns(&state.returns().unwrap()[..players]);
            // From points along a random game, a whole rollout.
            for start in random_states(players, mode, seed, 200).iter().step_by(25) {
                let mut rollout = start.clone();
                let returns = rollout.guided_rollout(&mut rng);
                assert!(rollout.to_move().is_none());
                assert_eq!(Some(returns), rollout.returns());
                assert_returns(&returns[..players]);
            }
        }
    }
}

#[test]
fn a_rollout_is_the_policy_s_actions_to_the_end_and_takes_their_draws() {
    // The same draws give the same hand, one action at a time or as a rollout, and the
    // rollout takes exactly the draws its actions took.
    let draws: Vec<f64> = (0..50_000)
        .map(|i| ((i as f64) * 0.618_033_988_749_895).fract())
        .collect();
    for (players, mode) in variants() {
        let start: KrytNavalivat = new_game(&options(players, mode), 7);
        let mut stepped = start.clone();
        let mut script = Script::new(&draws);
        while stepped.to_move().is_some() {
            let action = stepped.guided_action(&mut script);
            stepped.apply(action);
        }
        let mut rolled = start.clone();
        let mut again = Script::new(&draws);
        let returns = rolled.guided_rollout(&mut again);
        assert!(!again.ran_out());
        assert_eq!((rolled == stepped, again.used), (true, script.used));
        assert_eq!(Some(returns), stepped.returns());
    }
}
