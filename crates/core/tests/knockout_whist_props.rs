//! Properties over random games: the position notation round-trips at every step (SPEC
//! §0.4 (1)), a state read from its position plays on identically, seeded deals included
//! (SPEC §0.3), random actions are legal, and every game ends with one winner and returns
//! that sum to zero (KOW-7, KOW-11.8).

mod knockout_whist_support;

use cardtable_core::game::{
    new_game, playout, playouts_from, random_games, Game, PlayoutRng, Stacked, MAX_PLAYERS,
};
use cardtable_core::KnockoutWhist;
use knockout_whist_support::options;
use proptest::prelude::*;
use rand::SeedableRng;

fn read_back(state: &KnockoutWhist) -> KnockoutWhist {
    let options = options(state.players(), None);
    KnockoutWhist::from_position(&options, &state.position())
        .unwrap_or_else(|e| panic!("{e}: {}", state.position()))
}

fn assert_same(a: &KnockoutWhist, b: &KnockoutWhist) {
    assert_eq!(a.position(), b.position());
    assert_eq!(a.to_move(), b.to_move());
    assert_eq!(a.legal_mask(), b.legal_mask());
    assert_eq!(a.returns(), b.returns());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// SPEC §0.4 (1): every state along a random game reads back from its position as the
    /// same state: text, seat to move, legal actions, returns.
    #[test]
    fn positions_round_trip_along_random_games(
        players in 2usize..=7,
        seed in any::<i64>(),
        dealer in proptest::option::of(0usize..7),
        moves in any::<u64>(),
    ) {
        let dealer = dealer.map(|d| d % players);
        let state: KnockoutWhist = new_game(&options(players, dealer), i128::from(seed));
        let mut state = state;
        let mut rng = PlayoutRng::seed_from_u64(moves);
        loop {
            assert_same(&read_back(&state), &state);
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
    }

    /// SPEC §0.3: the position holds the seed and the chance counters, so a state read back
    /// at any point deals the same hands as the original from then on.
    #[test]
    fn a_state_read_from_its_position_plays_on_identically(
        players in 2usize..=7,
        seed in any::<i64>(),
        moves in any::<u64>(),
        stop in 0usize..40,
    ) {
        let mut state: KnockoutWhist = new_game(&options(players, None), i128::from(seed));
        let mut rng = PlayoutRng::seed_from_u64(moves);
        for _ in 0..stop {
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
        let mut copy = read_back(&state);
        while state.to_move().is_some() {
            let action = state.random_action(&mut rng);
            state.apply(action);
            copy.apply(action);
            assert_same(&copy, &state);
        }
    }
}

#[test]
fn random_actions_are_legal_and_every_legal_action_is_drawn() {
    // The fast draw is uniform over the legal actions: each is drawn, and nothing else.
    let mut rng = PlayoutRng::seed_from_u64(9);
    for seed in 0..40 {
        let mut state: KnockoutWhist = new_game(&options(2 + seed as usize % 6, None), seed);
        while state.to_move().is_some() {
            let mask = state.legal_mask();
            assert_ne!(mask, 0, "a seat to move has a legal action");
            let mut drawn = 0;
            for _ in 0..64 {
                let a = state.random_action(&mut rng);
                assert!(
                    mask >> a & 1 == 1,
                    "{a} is not legal in {}",
                    state.position()
                );
                drawn |= 1 << a;
            }
            if mask.count_ones() <= 4 {
                assert_eq!(drawn, mask, "{}", state.position());
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
        assert_eq!(state.legal_mask(), 0);
    }
}

fn check_returns(returns: &[f64], players: usize) {
    // KOW-7 / KOW-11.8: exactly one winner with +1, the others -1/(n-1), summing to zero.
    let loss = -1.0 / (players - 1) as f64;
    assert_eq!(returns.iter().filter(|&&r| r == 1.0).count(), 1);
    assert!(returns.iter().all(|&r| r == 1.0 || r == loss));
    assert!(returns.iter().sum::<f64>().abs() < 1e-12);
}

#[test]
fn random_games_end_with_one_winner_and_returns_summing_to_zero() {
    // KOW-5.2 / KOW-7 / KOW-11.8: every game ends, within 7 hands, with one winner.
    for players in 2..=7 {
        let seeds: Vec<i128> = (0..150).map(|s| s * 7919 + players as i128).collect();
        let batch = random_games::<KnockoutWhist>(&options(players, None), &seeds);
        assert_eq!(batch.returns.len(), seeds.len() * players);
        for row in batch.returns.chunks(players) {
            check_returns(row, players);
        }
        // At most 7 + 6 + … + 1 = 28 tricks of 7 plays, and 6 trump choices.
        assert!(batch.decisions <= seeds.len() as u64 * (28 * 7 + 6));
    }
}

#[test]
fn playouts_from_a_mid_game_state_end_too() {
    let mut state: KnockoutWhist = new_game(&options(5, Some(2)), 31);
    let mut rng = PlayoutRng::seed_from_u64(1);
    for _ in 0..12 {
        let action = state.random_action(&mut rng);
        state.apply(action);
    }
    let batch = playouts_from(&state, 200, 5);
    for row in batch.returns.chunks(5) {
        check_returns(row, 5);
    }
    let mut again = state.clone();
    playout(&mut again, &mut rng);
    assert!(again.returns().is_some());
    assert!(
        state.returns().is_none(),
        "a clone plays on without touching the original"
    );
    assert!(again.returns().unwrap()[5..MAX_PLAYERS]
        .iter()
        .all(|&r| r == 0.0));
}

#[test]
fn begin_with_the_drawn_dealer_is_new_game() {
    // W-11: without a `dealer` option the first dealer is drawn from the seed.
    let o = options(6, None);
    for seed in [0i128, 1, -5, 1 << 62] {
        let dealer = cardtable_core::game::first_dealer::<KnockoutWhist>(&o, seed);
        let begun = KnockoutWhist::begin(&o, seed, dealer, Stacked::default()).unwrap();
        let fresh: KnockoutWhist = new_game(&o, seed);
        assert_eq!(begun.position(), fresh.position());
    }
}
