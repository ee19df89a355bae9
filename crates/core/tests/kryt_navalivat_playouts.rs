//! Random play in the core: games and playouts always end (KRYT-7.7, K-14: the rules have
//! no move limit, yet uniformly random play ends a hand, in the Python engine as here),
//! with returns as Python's `result.returns` gives them (KRYT-7.2, KRYT-7.3), and the
//! invariants of KRYT-11 hold after every action.

mod kryt_navalivat_common;

use cardtable_core::game::{new_game, playouts_from, random_games, Game, PlayoutRng};
use cardtable_core::kryt_navalivat::{beating::take_count, Mode, TrumpMode};
use cardtable_core::KrytNavalivat;
use kryt_navalivat_common::*;
use rand::SeedableRng;

/// The harness cap of KRYT-7.7 (`cardtable.testing.DEFAULT_MAX_ACTIONS`).
const CAP: usize = 10_000;

/// KRYT-7.2 / KRYT-7.3: a draw gives everyone 0; otherwise the fool -1 and every other
/// seat `1 / (n - 1)`.
fn assert_returns(returns: &[f64]) {
    let n = returns.len();
    if returns.iter().all(|&r| r == 0.0) {
        return;
    }
    let fools = returns.iter().filter(|&&r| r == -1.0).count();
    let share = 1.0 / (n as f64 - 1.0);
    let winners = returns.iter().filter(|&&r| r == share).count();
    assert_eq!((fools, winners), (1, n - 1), "{returns:?}");
    assert!(returns.iter().sum::<f64>().abs() < 1e-12);
}

#[test]
fn kryt_navalivat_7_7_random_games_end_with_python_s_returns() {
    // `random_games`: one uniformly random game per seed, dealt as `new_state(seed=…)`.
    for players in 2..=6 {
        for mode in [TrumpMode::Turned, TrumpMode::Permanent] {
            let seeds: Vec<i128> = (0..40).collect();
            let batch = random_games::<KrytNavalivat>(&options(players, mode), &seeds);
            assert_eq!(batch.returns.len(), seeds.len() * players);
            for row in batch.returns.chunks(players) {
                assert_returns(row);
            }
            assert!(batch.decisions > 0);
        }
    }
}

#[test]
fn kryt_navalivat_7_7_uniform_random_play_ends_well_within_the_cap() {
    // Every game of uniformly random actions ends before the harness cap, from the deal
    // and from points along the way (`playouts_from`).
    for players in 2..=6 {
        for mode in [TrumpMode::Turned, TrumpMode::Permanent] {
            for seed in 0..30u64 {
                let mut state: KrytNavalivat = new_game(&options(players, mode), seed.into());
                let mut rng = PlayoutRng::seed_from_u64(seed);
                let mut steps = 0;
                while state.to_move().is_some() {
                    assert!(steps < CAP, "{players} players, seed {seed}: no end");
                    let action = state.random_action(&mut rng);
                    state.apply(action);
                    steps += 1;
                    if steps == 50 {
                        let batch = playouts_from(&state, 3, seed);
                        for row in batch.returns.chunks(players) {
                            assert_returns(row);
                        }
                    }
                }
                assert_returns(&state.returns().unwrap()[..players]);
            }
        }
    }
}

#[test]
fn kryt_navalivat_random_actions_are_legal_and_cover_every_legal_action() {
    // `random_action` draws among the legal actions only, each of them in time.
    let mut state: KrytNavalivat = new_game(&options(3, TrumpMode::Turned), 4);
    let mut rng = PlayoutRng::seed_from_u64(4);
    let first = state.legal_mask();
    let mut seen = 0;
    for _ in 0..200 {
        let action = state.random_action(&mut rng);
        assert!(first >> action & 1 == 1);
        seen |= 1u128 << action;
    }
    assert_eq!(seen, first);
    while state.to_move().is_some() {
        let action = state.random_action(&mut rng);
        assert!(state.legal_mask() >> action & 1 == 1);
        state.apply(action);
    }
}

/// KRYT-11, after each action of a random game.
fn check_invariants(before: &KrytNavalivat, action: usize, after: &KrytNavalivat) {
    let n = before.players();
    // KRYT-11.1: conservation.
    assert_conserved(after);
    // KRYT-11.2: the stock only shrinks; KRYT-11.7: the trump suit never changes.
    assert!(after.stock_count() <= before.stock_count());
    assert_eq!(after.trump(), before.trump());
    // KRYT-11.4 per action: a card put on the pile, or a pick-up of KRYT-5's count.
    let (p, q) = (before.pile().len(), after.pile().len());
    if action == cardtable_core::kryt_navalivat::TAKE {
        let top = *before.pile().last().unwrap();
        assert_eq!(p - q, take_count(p, top, before.trump()));
    } else if action == cardtable_core::kryt_navalivat::SWAP {
        assert_eq!(p, q);
    } else {
        assert_eq!(q, p + 1);
    }
    // KRYT-11.6: a player with no cards never acts; one who is out never gets cards again.
    if let Some(seat) = after.to_move() {
        assert_ne!(after.hand(seat), 0);
    }
    for seat in 0..n {
        if before.is_out(seat) {
            assert!(after.is_out(seat));
        }
    }
    // KRYT-11.3: while the stock lasts, every hand holds 3 or more at the start of a turn.
    if after.stock_count() > 0 && after.mode() != Mode::Cover {
        for seat in 0..n {
            assert!(after.hand(seat).count_ones() >= 3);
        }
    }
    // KRYT-11.8: the hand ends only with an empty stock and one holder left.
    if after.mode() == Mode::Over {
        assert_eq!(after.stock_count(), 0);
        assert_eq!((0..n).filter(|&s| after.hand(s) != 0).count(), 1);
        assert_eq!(after.to_move(), None);
    }
}

#[test]
fn kryt_navalivat_11_invariants_hold_after_every_action_of_random_games() {
    for (players, mode, seed) in games() {
        let mut state: KrytNavalivat = new_game(&options(players, mode), seed.into());
        let mut rng = PlayoutRng::seed_from_u64(seed);
        while state.to_move().is_some() {
            let before = state.clone();
            let action = state.random_action(&mut rng);
            state.apply(action);
            check_invariants(&before, action, &state);
        }
    }
}
