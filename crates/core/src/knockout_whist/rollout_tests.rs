//! The guided policy's own tests: its hand played out as the engine plays it from the same
//! draws, its rules of thumb on hand-made hands, its shares, and its speed (run by hand).

use super::*;
use crate::cards::parse_card;
use crate::game::{new_game, Game, PlayoutRng};
use crate::knockout_whist::Options;
use rand::{Rng, SeedableRng};

/// Draws from a generator, counted.
struct Counted(PlayoutRng, usize);

impl Draw for Counted {
    fn draw(&mut self) -> f64 {
        self.1 += 1;
        self.0.random()
    }
}

/// States met along seeded random games of every table size, finished ones included.
fn states(games: u64) -> Vec<KnockoutWhist> {
    let mut found = Vec::new();
    for seed in 0..games {
        let players = 2 + seed as usize % 6;
        let mut state: KnockoutWhist =
            new_game(&Options::players(players).unwrap(), i128::from(seed));
        let mut rng = PlayoutRng::seed_from_u64(seed);
        loop {
            found.push(state.clone());
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
    }
    found
}

/// `rollout_through_engine`: the policy's actions applied through the engine to the
/// end of the hand, then the result or the estimate. The reference the local hand must
/// agree with, draw for draw.
fn rollout_through_engine<D: Draw>(state: &mut KnockoutWhist, draw: &mut D) -> Returns {
    let hand = state.hand_no;
    while state.to_move != NONE && state.hand_no == hand {
        let action = state.guided_action(draw);
        state.apply(action);
    }
    state.returns().unwrap_or_else(|| state.estimate())
}

#[test]
fn the_local_hand_ends_as_the_engine_ends_it_from_the_same_draws() {
    for (i, state) in states(120).into_iter().enumerate() {
        for explore in [1.0, 0.15] {
            // Scaled draws make half the actions the random ones, and dogs knock more.
            let seed = i as u64 * 2 + (explore < 1.0) as u64;
            let draws: Vec<f64> = {
                let mut rng = PlayoutRng::seed_from_u64(seed);
                (0..400).map(|_| rng.random::<f64>() * explore).collect()
            };
            let mut local = state.clone();
            let mut script = crate::rollout::Script::new(&draws);
            let returns = local.guided_rollout(&mut script);
            assert_eq!(
                local.position(),
                state.position(),
                "the state is left alone"
            );
            let mut engine = state.clone();
            let mut reference = crate::rollout::Script::new(&draws);
            let expected = rollout_through_engine(&mut engine, &mut reference);
            assert!(!script.ran_out());
            assert_eq!(script.used, reference.used, "{}", state.position());
            assert_eq!(returns, expected, "{}", state.position());
            let n = state.players();
            assert!(returns[..n].iter().sum::<f64>().abs() < 1e-12);
            assert!(returns[n..].iter().all(|&r| r == 0.0));
            // The engine's hand did end: a new hand, or the game's end.
            assert!(engine.to_move == NONE || engine.hand_no > state.hand_no);
        }
    }
}

#[test]
fn a_rollout_from_a_finished_game_is_its_result_and_draws_nothing() {
    let finished: Vec<_> = states(30)
        .into_iter()
        .filter(|s| s.to_move == NONE)
        .collect();
    assert_eq!(finished.len(), 30);
    for state in finished {
        let mut draw = Counted(PlayoutRng::seed_from_u64(0), 0);
        let returns = state.clone().guided_rollout(&mut draw);
        assert_eq!(Some(returns), state.returns());
        assert_eq!(draw.1, 0);
    }
}

/// Microseconds a rollout from hand-1 positions of 3 players, played locally and
/// through the engine (which deals the next hand): `cargo test --release -p
/// cardtable-core -- --ignored --nocapture rollout_speed`.
#[test]
#[ignore = "a measurement, not a check: run it with --release"]
fn rollout_speed() {
    let mut starts = Vec::new();
    for seed in 0..200 {
        let mut state: KnockoutWhist = new_game(&Options::players(3).unwrap(), seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        for _ in 0..(seed % 9) {
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
        assert_eq!(state.hand_no, 1);
        starts.push(state);
    }
    let rounds = 2_000;
    let mut draw = Counted(PlayoutRng::seed_from_u64(1), 0);
    let mut check = 0.0;
    let time = |f: &mut dyn FnMut(&KnockoutWhist) -> Returns| {
        let began = std::time::Instant::now();
        let mut sum = 0.0;
        for _ in 0..rounds {
            for state in &starts {
                sum += f(state)[0];
            }
        }
        let micros = began.elapsed().as_secs_f64() * 1e6 / (rounds * starts.len()) as f64;
        (micros, sum)
    };
    let (local, sum) = time(&mut |s| s.clone().guided_rollout(&mut draw));
    check += sum;
    let (engine, sum) = time(&mut |s| rollout_through_engine(&mut s.clone(), &mut draw));
    check += sum;
    println!(
        "3 players, hand 1: {local:.3} µs a rollout played locally, {engine:.3} µs \
         through the engine ({} rollouts each; checksum {check:.1})",
        rounds * starts.len()
    );
}

fn hand(text: &str) -> CardSet {
    text.split_whitespace()
        .map(|c| 1 << parse_card(c).unwrap())
        .fold(0, |h, b| h | b)
}

fn card(text: &str) -> Card {
    parse_card(text).unwrap()
}

#[test]
fn trumps_go_to_the_longest_suit_with_honours_as_extra_length() {
    // Clubs 3 cards (score 6) against spades 2 honours (2*2 + 2 = 6): the first wins.
    assert_eq!(trump_suit(hand("2C 3C 4C KS AS")), 0);
    assert_eq!(trump_suit(hand("2C 3C 4C KS AS QS")), 3);
    assert_eq!(trump_suit(0), 0);
}

#[test]
fn a_lead_is_a_plain_ace_then_a_high_trump_then_the_longest_plain_suit() {
    assert_eq!(lead(hand("AD AS 2C 3H"), 2), card("AD"));
    assert_eq!(lead(hand("KH 2H 5C"), 2), card("KH"));
    assert_eq!(lead(hand("KH 5C 6C 7D"), 2), card("5C"));
    assert_eq!(lead(hand("KH 5C 6D 7D"), 2), card("6D"));
}

#[test]
fn a_follower_takes_the_trick_cheaply_or_throws_its_lowest() {
    // Following suit: the lowest card above the best, else the lowest.
    assert_eq!(follow(hand("3C 9C QC"), 2, 0, card("8C")), card("9C"));
    assert_eq!(follow(hand("3C 9C"), 2, 0, card("10C")), card("3C"));
    // Trumped already: the lowest of the suit led.
    assert_eq!(follow(hand("3C 9C"), 2, 0, card("2H")), card("3C"));
    // Void: the lowest trump that takes it, else the lowest plain card.
    assert_eq!(follow(hand("2H 5H 4D"), 2, 0, card("3H")), card("5H"));
    assert_eq!(follow(hand("2H 4D 4S 3S"), 2, 0, card("3H")), card("3S"));
    assert_eq!(follow(hand("4D 4S"), 2, 0, card("3C")), card("4D"));
    assert_eq!(follow(hand("2H 3H"), 2, 0, card("AH")), card("2H"));
}

#[test]
fn shares_are_zero_sum() {
    let r = share(&[Status::Active, Status::Dog, Status::Out]);
    assert!((r[0] - (1.0 / 1.3 - 0.3 / 1.3 * 0.5)).abs() < 1e-15);
    assert!(r[..3].iter().sum::<f64>().abs() < 1e-12);
    assert_eq!(won_by(1, 3)[..3], [-0.5, 1.0, -0.5]);
}
