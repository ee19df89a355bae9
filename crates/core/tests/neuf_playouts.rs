//! Whole random games and playouts of Neuf in the core: every one ends, within the bounds
//! of NEUF-6.5 and NEUF-8.4, with returns as `state.result.returns` makes them (+1 to each
//! winner, `-w / (n - w)` to the others, so they sum to zero; docs/neuf.md "Rewards").

mod neuf_common;

use cardtable_core::game::{new_game, playouts_from, random_games, Game, PlayoutRng};
use cardtable_core::neuf::{Neuf, Options};
use neuf_common::*;
use rand::SeedableRng;

fn rule_sets() -> Vec<(Options, usize)> {
    let mut out = Vec::new();
    for sequence in ["HDCS-NT", "SHDC-NT", "HDSC-NT", "HCDS-NT", "HDCS"] {
        for dealer_first in [false, true] {
            for tie in [false, true] {
                let opts = options(&[
                    ("trump_sequence", text(sequence)),
                    ("dealer_exchanges_first", flag(dealer_first)),
                    ("tie_avoidance", flag(tie)),
                ]);
                out.push((opts, 3));
            }
        }
        out.push((
            options(&[("players", int(4)), ("trump_sequence", text(sequence))]),
            4,
        ));
    }
    out
}

/// What Python's returns satisfy: zero-sum; one or two winners at +1 with 3 players (the
/// others -1/2 each, or -2), a team of two at +1 with 4 (the others -1).
fn check_returns(returns: &[f64], players: usize) {
    assert_eq!(returns.iter().sum::<f64>(), 0.0, "{returns:?}");
    let winners = returns.iter().filter(|&&r| r == 1.0).count();
    let share = -(winners as f64) / (players - winners) as f64;
    assert!(
        returns.iter().all(|&r| r == 1.0 || r == share),
        "{returns:?}"
    );
    if players == 3 {
        assert!((1..=2).contains(&winners), "{returns:?}");
    } else {
        assert_eq!(winners, 2);
        assert_eq!(returns[0], returns[2], "partners share the result");
        assert_eq!(returns[1], returns[3]);
    }
}

#[test]
fn random_games_end_with_zero_sum_returns_in_every_rule_set() {
    // NEUF-6, NEUF-8.3, NEUF-8.4: whole games dealt from their seeds end; at most 1050
    // decisions with 3 players (25 deals of 3 + 39), 884 with 4 (17 of 52).
    let seeds: Vec<i128> = (0..40).map(|s| s * 7919 - 100).collect();
    for (opts, players) in rule_sets() {
        let batch = random_games::<Neuf>(&opts, &seeds);
        assert_eq!(batch.returns.len(), seeds.len() * players);
        for returns in batch.returns.chunks(players) {
            check_returns(returns, players);
        }
        let most = if players == 3 { 1050 } else { 884 };
        assert!(batch.decisions <= most * seeds.len() as u64);
    }
}

#[test]
fn random_games_are_fixed_by_their_seeds() {
    // The same seeds deal and play the same games.
    let opts = options(&[]);
    let seeds = [1, 2, 3];
    let a = random_games::<Neuf>(&opts, &seeds);
    let b = random_games::<Neuf>(&opts, &seeds);
    assert_eq!(a.returns, b.returns);
    assert_eq!(a.decisions, b.decisions);
}

#[test]
fn playouts_from_any_point_end_with_the_same_kind_of_returns() {
    // Playouts from states part-way through games (exchange and play, later deals).
    for (opts, players) in rule_sets() {
        let mut state: Neuf = new_game(&opts, 31);
        let mut rng = PlayoutRng::seed_from_u64(31);
        for step in 0..200 {
            if state.to_move().is_none() {
                break;
            }
            if step % 50 == 0 {
                let batch = playouts_from(&state, 5, step);
                for returns in batch.returns.chunks(players) {
                    check_returns(returns, players);
                }
            }
            state.apply(state.random_action(&mut rng));
        }
    }
}

#[test]
fn finished_games_report_the_winners_their_scores_make() {
    // NEUF-6.2 / 6.3 / N-6: the winners are the lowest of the sides at or below zero; the
    // returns give them +1.
    for (opts, players) in rule_sets() {
        for seed in 0..10 {
            let mut state: Neuf = new_game(&opts, seed);
            cardtable_core::game::playout(&mut state, &mut PlayoutRng::seed_from_u64(7));
            let scores = state.scores();
            let best = *scores.iter().min().unwrap();
            assert!(best <= 0);
            let sides: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
            let seats: Vec<usize> = if players == 3 {
                sides
            } else {
                let mut seats: Vec<usize> = sides.iter().flat_map(|&s| [s, s + 2]).collect();
                seats.sort_unstable();
                seats
            };
            assert_eq!(state.winning_seats(), seats);
            let returns = state.returns().unwrap();
            for (s, r) in returns.iter().enumerate().take(players) {
                assert_eq!(*r == 1.0, seats.contains(&s));
            }
        }
    }
}
