//! The guided rollout policy of Neuf in the core (`cardtable.bots.neuf_rollout`): its
//! action is always legal, a rollout plays exactly to the end of the deal (or of the game)
//! and returns zero-sum values, and the policy plays as the Python one's rules say on
//! positions written by hand. (That it equals the Python policy draw for draw is
//! `tests/core/test_core_guided.py`'s.)

mod neuf_common;

use cardtable_core::cards::Card;
use cardtable_core::game::{new_game, Game, PlayoutRng};
use cardtable_core::neuf::{Neuf, Options, Phase, EXCHANGE, KEEP};
use cardtable_core::rollout::{Guided, Script};
use neuf_common::*;
use rand::{Rng, SeedableRng};

/// The states met along seeded games of `options` in which each move is the policy's or,
/// one time in three, a uniformly random one (so that play strays from the policy's own).
fn states_along_games(options: &Options, games: i128) -> Vec<Neuf> {
    let mut states = Vec::new();
    for seed in 0..games {
        let mut state: Neuf = new_game(options, seed * 31 + 7);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        while state.to_move().is_some() {
            states.push(state.clone());
            let action = if rng.random::<f64>() < 1.0 / 3.0 {
                state.random_action(&mut rng)
            } else {
                state.guided_action(&mut rng)
            };
            state.apply(action);
        }
    }
    states
}

#[test]
fn the_policy_chooses_a_legal_action_taking_one_draw_or_two() {
    // One draw a decision; a card play takes a second when the first chose a random card.
    let mut rng = PlayoutRng::seed_from_u64(11);
    let mut checked = 0;
    for options in rule_sets() {
        for state in states_along_games(&options, 12) {
            let draws: [f64; 2] = [rng.random(), rng.random()];
            let mut script = Script::new(&draws);
            let action = state.guided_action(&mut script);
            assert!(
                state.legal_mask() >> action & 1 == 1,
                "{} is not legal in {}",
                action_text(action),
                state.position()
            );
            let random_card = state.phase() == Phase::Play && draws[0] < 0.05;
            assert_eq!(script.used, if random_card { 2 } else { 1 });
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn a_random_card_is_the_drawn_one_of_the_legal_cards_in_ascending_order() {
    // Python picks `cards[int(random() * len(cards))]` of `SLICES[led][follow]` or
    // `bits(hand)`, both ascending.
    let options = options(&[("players", int(4))]);
    for state in states_along_games(&options, 3) {
        let legal: Vec<usize> = (0..52)
            .filter(|&c| state.legal_mask() >> c & 1 == 1)
            .collect();
        for (k, &card) in legal.iter().enumerate() {
            let at = (k as f64 + 0.5) / legal.len() as f64;
            let draws = [0.01, at];
            assert_eq!(state.guided_action(&mut Script::new(&draws)), card);
        }
    }
}

#[test]
fn a_rollout_ends_the_deal_or_the_game_with_zero_sum_returns() {
    let mut rng = PlayoutRng::seed_from_u64(5);
    for options in rule_sets() {
        let n = options.players;
        for (k, state) in states_along_games(&options, 6).into_iter().enumerate() {
            if k % 5 != 0 {
                continue;
            }
            let rows = state.sheet().row_count();
            let mut rolled = state.clone();
            let returns = rolled.guided_rollout(&mut rng);
            let position = state.position();
            assert!(
                returns[..n].iter().sum::<f64>().abs() < 1e-12,
                "{returns:?} {position}"
            );
            assert!(returns[n..].iter().all(|&r| r == 0.0));
            if n == 4 {
                assert_eq!(returns[0], returns[2], "partners share: {position}");
                assert_eq!(returns[1], returns[3], "partners share: {position}");
            }
            match rolled.returns() {
                // The game ended in the deal: its own returns.
                Some(result) => assert_eq!(returns, result, "{position}"),
                // Else the deal was played out and scored, and its estimate returned.
                None => {
                    assert_eq!(rolled.sheet().row_count(), rows + 1, "{position}");
                    assert_eq!(returns, rolled.score_estimate(), "{position}");
                    let loss = if n == 3 { -0.5 } else { -1.0 };
                    assert!(returns[..n].iter().all(|&r| r > loss && r < 1.0));
                }
            }
        }
    }
}

#[test]
fn a_rollout_plays_as_the_policy_does_action_by_action() {
    // The rollout skips the next deal's shuffle, nothing else: the same draws give the
    // same scores as the policy's actions applied one by one.
    for options in rule_sets() {
        for (k, state) in states_along_games(&options, 2).into_iter().enumerate() {
            if k % 7 != 0 {
                continue;
            }
            let seed = k as u64;
            let mut rolled = state.clone();
            let returns = rolled.guided_rollout(&mut PlayoutRng::seed_from_u64(seed));
            let mut stepped = state.clone();
            let mut rng = PlayoutRng::seed_from_u64(seed);
            let rows = stepped.sheet().row_count();
            while stepped.to_move().is_some() && stepped.sheet().row_count() == rows {
                let action = stepped.guided_action(&mut rng);
                stepped.apply(action);
            }
            let expected = stepped
                .returns()
                .unwrap_or_else(|| stepped.score_estimate());
            assert_eq!(returns, expected, "{}", state.position());
            assert_eq!(rolled.sheet(), stepped.sheet());
        }
    }
}

#[test]
fn a_rollout_from_a_finished_game_returns_its_result_without_a_draw() {
    for options in rule_sets() {
        let mut state: Neuf = new_game(&options, 3);
        let mut rng = PlayoutRng::seed_from_u64(3);
        while state.to_move().is_some() {
            let action = state.guided_action(&mut rng);
            state.apply(action);
        }
        let result = state.returns().expect("the game is over");
        let mut script = Script::new(&[]);
        assert_eq!(state.clone().guided_rollout(&mut script), result);
        assert_eq!(script.used, 0);
    }
}

#[test]
fn the_estimate_at_equal_scores_is_zero_for_everyone() {
    // Equal chances: 1/n of a win (+1) against the loss.
    for players in [3, 4] {
        let state: Neuf = new_game(&options(&[("players", int(players))]), 1);
        let estimate = state.score_estimate();
        assert!(estimate.iter().all(|r| r.abs() < 1e-15), "{estimate:?}");
    }
}

#[test]
fn the_estimate_weighs_each_side_by_its_score() {
    // NEUF-5: lower is better; a side's weight is exp(-score / scale), scale 4 with three
    // players and 5.5 with four (Python's `_SCORE_SCALE`).
    let ledger = ledger_3_1_1();
    let text = Constructed {
        players: 3,
        ledger: &ledger,
        hands: &[&["2C"], &["3C"], &["4C"]],
        winners: &[2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1],
        trick: &[],
        first: 0,
        sequence: "HDCS-NT",
    }
    .position();
    let state = from_position(&options(&[]), &text);
    assert_eq!(state.sheet().scores(), &[3, 1, 1]);
    let weights = [(-3.0f64 / 4.0).exp(), (-0.25f64).exp(), (-0.25f64).exp()];
    let total: f64 = weights.iter().sum();
    let estimate = state.score_estimate();
    for seat in 0..3 {
        let chance = weights[seat] / total;
        assert!((estimate[seat] - (chance - (1.0 - chance) / 2.0)).abs() < 1e-15);
    }
    assert!(estimate[0] < estimate[1] && estimate[1] == estimate[2]);
}

/// A deal whose piles are whole suits: hearts to the dealer's left, clubs to the next
/// seat, diamonds to the dealer, spades to the spare (NEUF-2.3's order, dealer 0).
fn one_suit_piles(options: &Options) -> Neuf {
    let deck: Vec<Card> = (0..13u8)
        .flat_map(|k| [26 + k, k, 13 + k, 39 + k])
        .collect();
    stacked_deal(options, 0, deck)
}

#[test]
fn the_exchange_keeps_a_strong_hand_and_lowers_the_bar_after_an_exchange() {
    // NEUF-3.2: deal 1 of HDCS-NT is hearts. Seat 1's thirteen hearts (12.5 tricks) keep
    // whatever the draw; seat 2's clubs (2.5 tricks of honours) fall below the quota's
    // 3.5 and exchange; the dealer's diamonds (2.5) then face the bar of 2.5, a spare put
    // down as weak (NEUF-3.3), and exchange only on a low draw.
    let mut state = one_suit_piles(&options(&[]));
    assert_eq!(state.to_move(), Some(1));
    assert_eq!(state.guided_action(&mut Script::new(&[0.99])), KEEP);
    assert_eq!(state.guided_action(&mut Script::new(&[0.0])), KEEP);
    state.apply(KEEP);
    assert_eq!(state.guided_action(&mut Script::new(&[0.99])), EXCHANGE);
    state.apply(EXCHANGE);
    assert_eq!(state.to_move(), Some(0));
    assert_eq!(state.guided_action(&mut Script::new(&[0.5])), KEEP);
    assert_eq!(state.guided_action(&mut Script::new(&[0.49])), EXCHANGE);

    // Had nobody exchanged before, the same diamonds face 3.5 and exchange.
    let mut state = one_suit_piles(&options(&[]));
    state.apply(KEEP);
    state.apply(KEEP);
    assert_eq!(state.guided_action(&mut Script::new(&[0.5])), EXCHANGE);
}

/// Deal 1 of HDCS-NT (hearts), ten tricks done, the last won by `leader`, who has led
/// `trick` (the cards played to the eleventh so far).
fn late_in_deal_one(
    players: usize,
    leader: usize,
    hands: &[&[&str]],
    trick: &[(usize, &str)],
) -> Neuf {
    let winners: Vec<usize> = (0..9).map(|k| (k + 1) % players).chain([leader]).collect();
    let text = Constructed {
        players,
        ledger: &[],
        hands,
        winners: &winners,
        trick,
        first: 0,
        sequence: "HDCS-NT",
    }
    .position();
    from_position(&options(&[("players", int(players as i64))]), &text)
}

/// The policy's card, with a draw that does not play at random.
fn policy_card(state: &Neuf) -> String {
    action_text(state.guided_action(&mut Script::new(&[0.5])))
}

#[test]
fn a_follower_beats_the_trick_and_every_card_still_to_come_as_cheaply_as_can_be() {
    // NEUF-4.2, 4.3: seat 1 led 9S; seat 2's 10S would lose to seat 0's JS, so KS.
    let state = late_in_deal_one(
        3,
        1,
        &[&["JS", "3C", "4C"], &["5C", "6C"], &["10S", "KS", "2C"]],
        &[(1, "9S")],
    );
    assert_eq!(state.to_move(), Some(2));
    assert_eq!(policy_card(&state), "play KS");
}

#[test]
fn a_follower_leaves_a_trick_its_partner_holds_safe() {
    // NEUF-8.4: seat 0's KS leads the trick and seat 3 holds no higher spade, so seat 2
    // plays its lowest spade rather than the ace.
    let state = late_in_deal_one(
        4,
        0,
        &[
            &["2C", "3C"],
            &["4C", "5C"],
            &["AS", "4S", "6C"],
            &["6S", "2D", "2H"],
        ],
        &[(0, "KS"), (1, "3S")],
    );
    assert_eq!(state.to_move(), Some(2));
    assert_eq!(policy_card(&state), "play 4S");
}

#[test]
fn a_void_follower_ruffs_low_or_throws_its_lowest_side_card() {
    // Seat 1 led 9S; seat 2 has no spade: the lowest heart (trump) takes it.
    let ruff = late_in_deal_one(
        3,
        1,
        &[&["JS", "3C", "4C"], &["5C", "6C"], &["10H", "5H", "2C"]],
        &[(1, "9S")],
    );
    assert_eq!(policy_card(&ruff), "play 5H");
    // Seat 0 has ruffed with QH: seat 1 cannot overruff with 10H, so throws its lowest
    // side card: 3D, before 10H (side suits before trumps) and 4C (a higher rank).
    let throw = late_in_deal_one(
        3,
        2,
        &[&["2C", "5C"], &["10H", "4C", "3D"], &["7S", "8C"]],
        &[(2, "9S"), (0, "QH")],
    );
    assert_eq!(throw.to_move(), Some(1));
    assert_eq!(policy_card(&throw), "play 3D");
}

#[test]
fn a_leader_cashes_a_side_boss_then_a_boss_trump_else_leads_low_in_its_longest_suit() {
    // Seat 1 leads (it won trick 10). Its AS beats every spade left: it leads it, though
    // it holds the boss trump too.
    let boss = late_in_deal_one(
        3,
        1,
        &[
            &["KS", "3C", "4C"],
            &["AS", "AH", "5C"],
            &["QS", "6C", "7C"],
        ],
        &[],
    );
    assert_eq!(boss.to_move(), Some(1));
    assert_eq!(policy_card(&boss), "play AS");
    // No side boss: the boss trump.
    let trump = late_in_deal_one(
        3,
        1,
        &[
            &["KS", "3C", "4C"],
            &["QS", "AH", "5C"],
            &["AS", "6C", "7C"],
        ],
        &[],
    );
    assert_eq!(policy_card(&trump), "play AH");
    // Neither: the lowest card of the longest side suit (clubs over the single spade).
    let low = late_in_deal_one(
        3,
        1,
        &[
            &["KS", "AC", "4D"],
            &["QS", "8C", "5C"],
            &["AS", "6C", "7D"],
        ],
        &[],
    );
    assert_eq!(policy_card(&low), "play 5C");
}
