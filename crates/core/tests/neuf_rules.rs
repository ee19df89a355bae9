//! Neuf rules in the core, one piece at a time (SPEC §1, NEUF-1 … NEUF-11, decisions
//! N-1 … N-9), mirroring `tests/rules/test_neuf_rules.py`. Each test builds its situation from
//! a stacked deck (SPEC §0.3: index 0 is dealt first) or a position, and checks what the
//! cited rule says; expected values are worked out from the SPEC, not read off the core.

mod neuf_common;

use cardtable_core::cards::Card;
use cardtable_core::game::{new_game, Game, OptionValue, PlayoutRng, Stacked};
use cardtable_core::neuf::{Neuf, Phase, EXCHANGE, KEEP, NO_TRUMP};
use neuf_common::*;
use rand::SeedableRng;

const SEQUENCES: [(&str, &[&str]); 5] = [
    ("HDCS-NT", &["H", "D", "C", "S", "NT"]),
    ("SHDC-NT", &["S", "H", "D", "C", "NT"]),
    ("HDSC-NT", &["H", "D", "S", "C", "NT"]),
    ("HCDS-NT", &["H", "C", "D", "S", "NT"]),
    ("HDCS", &["H", "D", "C", "S"]),
];

fn pack_deck() -> Vec<Card> {
    (0..52).collect()
}

/// The pack's cards `start, start + 4, …` (Python's `PACK[start::4]`).
fn every_fourth(start: usize) -> Vec<String> {
    pack().into_iter().skip(start).step_by(4).collect()
}

fn trump_name(state: &Neuf) -> &'static str {
    let t = state.trump();
    if t == NO_TRUMP {
        "NT"
    } else {
        ["C", "D", "H", "S"][t as usize]
    }
}

// NEUF-2 The deal ------------------------------------------------------------------------

#[test]
fn neuf_2_3_card_i_goes_to_r_i_mod_4_with_the_spare_fourth() {
    // NEUF-2.3 with dealer 1: R = [2, 0, 1, spare]; each pile has 13 cards.
    let state = stacked_deal(&options(&[]), 1, pack_deck());
    assert_eq!(texts(state.hand(2)), every_fourth(0));
    assert_eq!(texts(state.hand(0)), every_fourth(1));
    assert_eq!(texts(state.hand(1)), every_fourth(2));
    assert_eq!(texts(state.spare()), every_fourth(3));
    let piles = field(&state.position(), "piles").unwrap().to_string();
    let expected = [1, 2, 0, 3].map(|s| every_fourth(s).join(",")).join("/");
    assert_eq!(piles, expected);
}

#[test]
fn neuf_8_4_four_players_get_13_each_from_the_dealers_left_with_no_spare() {
    // NEUF-8.4 with dealer 3: one card at a time clockwise from seat 0; no spare and no
    // exchange: the first action is a play by the dealer's left.
    let state = stacked_deal(&options(&[("players", int(4))]), 3, pack_deck());
    for seat in 0..4 {
        assert_eq!(texts(state.hand(seat)), every_fourth(seat));
    }
    assert_eq!(state.phase(), Phase::Play);
    assert!(state.deciding_order().is_empty());
    assert_eq!(state.to_move(), Some(0));
    assert_eq!(state.spare(), 0);
    assert_eq!(state.legal_mask(), u128::from(state.hand(0)));
    assert!(!is_legal(&state, "exchange") && !is_legal(&state, "keep"));
}

#[test]
fn neuf_2_1_2_2_trump_and_dealer_rotate_each_deal() {
    // NEUF-2.1 / N-1 / N-2: deal n is played in seq[(n-1) mod len(seq)], the first in the
    // first entry; NEUF-2.2: the dealer passes left each deal. Checked live at every deal
    // of random games, with every preset and both player counts.
    let first = 1;
    for (name, cycle) in SEQUENCES {
        for players in [3, 4] {
            let opts = options(&[
                ("players", int(players)),
                ("dealer", int(first)),
                ("trump_sequence", text(name)),
            ]);
            let mut longest = 0;
            for seed in 0..20 {
                let mut state: Neuf = new_game(&opts, seed);
                let mut rng = PlayoutRng::seed_from_u64(seed as u64);
                let mut seen = 0;
                while state.to_move().is_some() {
                    let n = state.deal_number();
                    if n != seen {
                        seen = n;
                        assert_eq!(trump_name(&state), cycle[(n - 1) % cycle.len()]);
                        assert_eq!(
                            state.dealer_seat(),
                            (first as usize + n - 1) % players as usize
                        );
                    }
                    state.apply(state.random_action(&mut rng));
                }
                longest = longest.max(state.sheet().row_count());
            }
            assert!(
                longest > cycle.len(),
                "{name}: no game went round the cycle"
            );
        }
    }
}

// NEUF-3 Exchange ------------------------------------------------------------------------

#[test]
fn neuf_3_1_and_8_2_exchange_order() {
    // NEUF-3.1: dealer+1, dealer+2, then the dealer; NEUF-8.2: the dealer, dealer+1,
    // dealer+2. One decision each; then NEUF-4.1: dealer+1 leads in both variants.
    for dealer in 0..3usize {
        for dealer_first in [false, true] {
            let opts = options(&[
                ("dealer", int(dealer as i64)),
                ("dealer_exchanges_first", flag(dealer_first)),
            ]);
            let mut state: Neuf = new_game(&opts, 3);
            let order = if dealer_first {
                vec![dealer, (dealer + 1) % 3, (dealer + 2) % 3]
            } else {
                vec![(dealer + 1) % 3, (dealer + 2) % 3, dealer]
            };
            assert_eq!(state.deciding_order(), order);
            for (k, &seat) in order.iter().enumerate() {
                assert_eq!(state.phase(), Phase::Exchange);
                assert_eq!(legal(&state), ["exchange", "keep"]);
                act(
                    &mut state,
                    seat,
                    if k % 2 == 1 { "keep" } else { "exchange" },
                );
            }
            let decided = vec![(order[0], true), (order[1], false), (order[2], true)];
            assert_eq!(state.decisions(), decided);
            assert_eq!(state.phase(), Phase::Play);
            assert_eq!(state.to_move(), Some((dealer + 1) % 3));
        }
    }
}

#[test]
fn neuf_3_2_3_3_exchange_swaps_with_the_current_spare() {
    // NEUF-3.2: EXCHANGE swaps the whole hand for the spare, the old hand becoming the
    // spare; NEUF-3.3: a later exchange takes that current spare, not the original one.
    let mut state = stacked_deal(&options(&[]), 1, pack_deck());
    act(&mut state, 2, "exchange");
    assert_eq!(texts(state.hand(2)), every_fourth(3));
    assert_eq!(texts(state.spare()), every_fourth(0));
    act(&mut state, 0, "exchange");
    assert_eq!(texts(state.hand(0)), every_fourth(0));
    assert_eq!(texts(state.spare()), every_fourth(1));
    act(&mut state, 1, "keep");
    assert_eq!(texts(state.hand(1)), every_fourth(2));
    assert_eq!(texts(state.spare()), every_fourth(1));
    // NEUF-11 (2): the piles as dealt are unchanged by the exchange.
    assert_eq!(texts(state.pile(2)), every_fourth(0));
    assert_eq!(texts(state.pile(3)), every_fourth(3));
}

#[test]
fn neuf_3_1_one_decision_each_and_none_in_play() {
    // NEUF-3.1 / NEUF-11 (3): only EXCHANGE and KEEP during the exchange, no card; once
    // play has begun neither is legal.
    let mut state = stacked_deal(&options(&[]), 1, pack_deck());
    assert_eq!(state.legal_mask(), 1 << EXCHANGE | 1 << KEEP);
    act(&mut state, 2, "exchange");
    act(&mut state, 0, "keep");
    act(&mut state, 1, "keep");
    assert_eq!(state.phase(), Phase::Play);
    assert!(!is_legal(&state, "exchange") && !is_legal(&state, "keep"));
}

// NEUF-4 Play ----------------------------------------------------------------------------

#[test]
fn neuf_4_3_trick_winner() {
    // NEUF-4.3: the highest trump wins, else the highest card of the suit led; in an NT
    // deal (deal 5 of HDCS-NT) nothing is trump. NEUF-4.4: the winner leads next.
    let cases: [(usize, &str, [&str; 3], usize); 5] = [
        (0, "H", ["KS", "2S", "AS"], 2),
        (0, "H", ["KS", "2H", "AS"], 1),
        (0, "H", ["KS", "2H", "3H"], 2),
        (4, "NT", ["KS", "AH", "2S"], 0),
        (1, "D", ["5C", "AC", "2D"], 2),
    ];
    for (rows, trump, played, winner) in cases {
        let plays: Vec<(usize, Card)> = played
            .iter()
            .enumerate()
            .map(|(s, c)| (s, card(c)))
            .collect();
        assert_eq!(
            winner_of(&plays, trump),
            winner,
            "the formula agrees with 4.3"
        );
        let extra = if played[0].ends_with('C') {
            ["10H", "JH", "QH"]
        } else {
            ["10D", "JD", "QD"]
        };
        let hands: Vec<Vec<&str>> = (0..3).map(|s| vec![played[s], extra[s]]).collect();
        let hands: Vec<&[&str]> = hands.iter().map(|h| h.as_slice()).collect();
        let ledger = vec![&[5u8, 4, 4][..]; rows];
        let before = [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 0];
        let text = Constructed {
            players: 3,
            ledger: &ledger,
            hands: &hands,
            winners: &before,
            trick: &[],
            first: 0,
            sequence: "HDCS-NT",
        }
        .position();
        let mut state = from_position(&options(&[]), &text);
        assert_eq!(trump_name(&state), trump);
        assert_eq!(state.to_move(), Some(0));
        for (s, c) in played.iter().enumerate() {
            act(&mut state, s, &format!("play {c}"));
        }
        let won_before = before.iter().filter(|&&w| w == winner).count();
        assert_eq!(state.tricks_won()[winner] as usize, won_before + 1);
        assert_eq!(state.to_move(), Some(winner));
    }
}

fn follow_suit_position() -> Neuf {
    let hands: [&[&str]; 3] = [&["KS", "2C"], &["3S", "AH"], &["4H", "5D"]];
    let text = Constructed {
        players: 3,
        ledger: &[],
        hands: &hands,
        winners: &[1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 0],
        trick: &[],
        first: 0,
        sequence: "HDCS-NT",
    }
    .position();
    from_position(&options(&[]), &text)
}

#[test]
fn neuf_4_2_must_follow_suit_and_may_play_anything_when_void() {
    // NEUF-4.2: the leader may play any card; a player holding the suit led must follow
    // (holding 3S, with KS led, AH is illegal); a player void in it may play any card.
    let mut state = follow_suit_position();
    assert_eq!(legal(&state), ["play 2C", "play KS"]);
    assert!(!is_legal(&state, "play 4H"), "a card not held");
    play(&mut state, &["0 KS"]);
    assert_eq!(legal(&state), ["play 3S"]);
    play(&mut state, &["1 3S"]);
    assert_eq!(legal(&state), ["play 5D", "play 4H"]);
}

#[test]
fn neuf_4_1_the_dealers_left_leads_the_first_trick() {
    // NEUF-4.1 in both exchange orders and with four players.
    for (pairs, players) in [
        (vec![], 3),
        (vec![("dealer_exchanges_first", flag(true))], 3),
        (vec![("players", int(4))], 4),
    ] {
        for dealer in 0..players {
            let mut pairs = pairs.clone();
            pairs.push(("dealer", int(dealer as i64)));
            let mut state: Neuf = new_game(&options(&pairs), 11);
            while state.phase() == Phase::Exchange {
                state.apply(KEEP);
            }
            assert_eq!(state.to_move(), Some((dealer + 1) % players));
        }
    }
}

// NEUF-5 Scoring -------------------------------------------------------------------------

#[test]
fn neuf_5_2_and_5_4_every_row_scores_the_tricks_played() {
    // NEUF-5.2: score -= t - quota (4, or 6 a team); NEUF-5.4: the total falls by one a
    // deal from 27 (18 for teams). Each row is checked against its deal's tricks, read
    // from the position's `previous` (N-5) and won by the independent NEUF-4.3 formula.
    for players in [3usize, 4] {
        let quota: i16 = if players == 3 { 4 } else { 6 };
        let start: i16 = if players == 3 { 27 } else { 18 };
        let opts = options(&[("players", int(players as i64))]);
        for seed in 0..3 {
            let mut state: Neuf = new_game(&opts, seed);
            let mut rng = PlayoutRng::seed_from_u64(seed as u64);
            let mut scores = vec![9i16; if players == 3 { 3 } else { 2 }];
            let mut rows = 0;
            while state.to_move().is_some() {
                let trump = trump_name(&state);
                let dealer = state.dealer_seat();
                state.apply(state.random_action(&mut rng));
                if state.sheet().row_count() == rows {
                    continue;
                }
                rows += 1;
                let position = state.position();
                let previous = field(&position, "previous").expect("the deal before");
                let tricks_text = previous.split(':').skip(1).collect::<Vec<_>>();
                let tricks_text = tricks_text[..tricks_text.len() - 1].join(":");
                let mut won = vec![0u8; players];
                let mut leader = (dealer + 1) % players;
                let tricks: Vec<&str> = tricks_text.split('/').collect();
                assert_eq!(tricks.len(), 13);
                for t in tricks {
                    let plays: Vec<(usize, Card)> = t
                        .split(',')
                        .map(|p| {
                            let (s, c) = p.split_once(':').unwrap();
                            (s.parse().unwrap(), card(c))
                        })
                        .collect();
                    assert_eq!(plays.len(), players);
                    assert_eq!(plays[0].0, leader, "NEUF-4.4: the winner leads");
                    leader = winner_of(&plays, trump);
                    won[leader] += 1;
                }
                let side: Vec<u8> = if players == 3 {
                    won
                } else {
                    vec![won[0] + won[2], won[1] + won[3]]
                };
                for (s, t) in scores.iter_mut().zip(&side) {
                    *s -= i16::from(*t) - quota;
                }
                assert_eq!(state.sheet().rows().last().unwrap(), side.as_slice());
                assert_eq!(state.sheet().scores(), scores.as_slice());
                assert_eq!(scores.iter().sum::<i16>(), start - rows as i16);
            }
            assert_eq!(state.scores(), scores);
        }
    }
}

// NEUF-6 End of game ---------------------------------------------------------------------

fn late_deal(winners: &[usize], hands: [&[&str]; 3]) -> Neuf {
    late_deal_with(&options(&[]), winners, hands)
}

fn late_deal_with(
    opts: &cardtable_core::neuf::Options,
    winners: &[usize],
    hands: [&[&str]; 3],
) -> Neuf {
    let ledger = ledger_3_1_1();
    let text = Constructed {
        players: 3,
        ledger: &ledger,
        hands: &hands,
        winners,
        trick: &[],
        first: 0,
        sequence: "HDCS-NT",
    }
    .position();
    from_position(opts, &text)
}

#[test]
fn neuf_6_3_two_at_zero_with_equal_scores_share_the_win() {
    // NEUF-6.3: from 3/1/1, tricks 3/5/5 give 4/0/0: B and C share the win; returns +1
    // to each winner and -2 to A, summing to zero.
    let winners = [1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 1, 2];
    let mut state = late_deal(&winners, [&["2S"], &["3S"], &["AS"]]);
    assert_eq!(state.to_move(), Some(2));
    play(&mut state, &["2 AS", "0 2S", "1 3S"]);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.legal_mask(), 0);
    assert_eq!(state.scores(), [4, 0, 0]);
    assert_eq!(state.winning_seats(), [1, 2]);
    assert_eq!(state.sheet().row_count(), 23);
    assert_eq!(state.returns().unwrap()[..3], [-2.0, 1.0, 1.0]);
}

#[test]
fn neuf_6_3_the_lower_of_two_scores_at_zero_wins_alone() {
    // NEUF-6.2/6.3: from 3/1/1, tricks 2/6/5 give 5/-1/0: B, further below, wins alone.
    let winners = [1, 2, 0, 1, 2, 0, 1, 2, 1, 2, 2, 1];
    let mut state = late_deal(&winners, [&["2S"], &["AS"], &["3S"]]);
    assert_eq!(state.to_move(), Some(1));
    play(&mut state, &["1 AS", "2 3S", "0 2S"]);
    assert_eq!(state.scores(), [5, -1, 0]);
    assert_eq!(state.winning_seats(), [1]);
    let returns = state.returns().unwrap();
    assert_eq!(returns[..3], [-0.5, 1.0, -0.5]);
    assert_eq!(returns[..3].iter().sum::<f64>(), 0.0);
}

#[test]
fn neuf_6_1_nobody_at_zero_the_next_deal_starts() {
    // NEUF-6.1 / NEUF-7: from 3/1/1, tricks 5/4/4 give 2/1/1: deal 24 starts, dealt by
    // seat 2, trump S (HDCS-NT index 23 mod 5 = 3), 13 cards each, exchange first.
    let mut state = late_deal(
        &[1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0],
        [&["AS"], &["2S"], &["3S"]],
    );
    play(&mut state, &["0 AS", "1 2S", "2 3S"]);
    assert!(state.to_move().is_some());
    assert_eq!(state.returns(), None);
    assert_eq!(state.scores(), [2, 1, 1]);
    assert_eq!((state.deal_number(), state.dealer_seat()), (24, 2));
    assert_eq!(trump_name(&state), "S");
    assert!((0..3).all(|s| state.hand(s).count_ones() == 13));
    assert_eq!(state.phase(), Phase::Exchange);
    assert_eq!(state.to_move(), Some(0));
    // NEUF-7: the next deal comes from the seed: deck number `chance` (23 decks drawn
    // before the position, whose deal was the 23rd), so `chance` is now 24.
    assert_eq!(field(&state.position(), "chance"), Some("24"));
}

// NEUF-8.3 The house rule ----------------------------------------------------------------

fn house_rule_position(tie_avoidance: bool) -> Neuf {
    // Scores 3/1/1 at the start of deal 23 (trump C); 9 tricks won A 1, B 4, C 4, C last.
    let hands: [&[&str]; 3] = [
        &["AH", "2D", "3D", "4D"],
        &["KC", "5H", "6H", "7H"],
        &["2H", "3H", "4H", "8D"],
    ];
    let opts = options(&[("tie_avoidance", flag(tie_avoidance))]);
    late_deal_with(&opts, &[1, 1, 2, 2, 1, 2, 1, 0, 2], hands)
}

#[test]
fn neuf_8_3_a_fifth_trick_ends_the_game_at_once_and_shortfalls_wait() {
    // NEUF-8.3 / N-7, house rule on: A taking trick 10 is still short and A's score is not
    // raised mid-hand; B's fifth trick gives 1 - 1 = 0 and B wins at once: no more plays,
    // no ledger row, reported scores B 0, A and C keep 3 and 1.
    let mut state = house_rule_position(true);
    assert_eq!(state.tricks_won(), [1, 4, 4]);
    play(&mut state, &["2 2H", "0 AH", "1 5H"]);
    assert!(state.to_move().is_some());
    assert_eq!(state.tricks_won(), [2, 4, 4]);
    assert_eq!(state.scores(), [3, 1, 1]);
    play(&mut state, &["0 2D", "1 KC", "2 8D"]);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.legal_mask(), 0);
    assert_eq!(state.scores(), [3, 0, 1]);
    assert_eq!(state.winning_seats(), [1]);
    assert_eq!(state.sheet().row_count(), 22);
    assert_eq!(state.returns().unwrap()[..3], [-0.5, 1.0, -0.5]);
    assert_eq!(field(&state.position(), "phase"), Some("over"));
}

#[test]
fn neuf_8_3_off_by_default_the_deal_is_played_out() {
    // NEUF-8.3 is off by default: the same fifth trick does not end the game; tricks
    // 2/7/4 give A 5, B -2, C 1 and B wins (NEUF-5.2).
    let mut state = house_rule_position(false);
    play(
        &mut state,
        &["2 2H", "0 AH", "1 5H", "0 2D", "1 KC", "2 8D"],
    );
    assert_eq!(state.to_move(), Some(1));
    assert_eq!(state.tricks_won(), [2, 5, 4]);
    play(
        &mut state,
        &["1 6H", "2 3H", "0 3D", "1 7H", "2 4H", "0 4D"],
    );
    assert_eq!(state.sheet().rows().last().unwrap(), [2, 7, 4]);
    assert_eq!(state.scores(), [5, -2, 1]);
    assert_eq!(state.winning_seats(), [1]);
}

#[test]
fn neuf_8_3_with_the_house_rule_no_game_ends_at_a_deals_scoring() {
    // NEUF-8.3 / N-7 (docs/neuf.md): any score that would reach 0 at the scoring has
    // already crossed on a trick, so every game ends mid-deal with no ledger row for it,
    // and one winner only.
    let opts = options(&[("tie_avoidance", flag(true))]);
    for seed in 0..100 {
        let mut state: Neuf = new_game(&opts, seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        cardtable_core::game::playout(&mut state, &mut rng);
        assert!(!state.sheet().is_over(), "seed {seed}");
        assert_eq!(state.winning_seats().len(), 1);
        let winner = state.winning_seats()[0];
        assert!(state.scores()[winner] <= 0);
        let sheet = state.sheet().scores();
        for (s, (&now, &before)) in state.scores().iter().zip(sheet).enumerate() {
            if s != winner {
                assert_eq!(now, before, "the others keep their scores");
            }
        }
    }
}

// NEUF-8.4 Four players in partnership -------------------------------------------------

#[test]
fn neuf_8_4_team_tricks_score_together_and_a_team_wins() {
    // NEUF-8.4: team scores 1 / 9 after 8 deals of 7 / 6; deal 9 (trump S, dealer 0).
    // After 12 tricks each team has 6; the seat holding AS takes trick 13. Seat 2: team 0
    // has 7, 1 - 1 = 0, and wins: both its seats +1, the others -1. Seat 3: team 1 has 7,
    // nobody is at zero, and deal 10 starts (dealer 1, trump NT, seat 2 leads).
    let ledger = vec![&[7u8, 6][..]; 8];
    for (spade, team_wins) in [(2, true), (3, false)] {
        let mut others = ["2C", "2D", "2H"].into_iter();
        let hands: Vec<Vec<&str>> = (0..4)
            .map(|s| {
                vec![if s == spade {
                    "AS"
                } else {
                    others.next().unwrap()
                }]
            })
            .collect();
        let hands_ref: Vec<&[&str]> = hands.iter().map(|h| h.as_slice()).collect();
        let text = Constructed {
            players: 4,
            ledger: &ledger,
            hands: &hands_ref,
            winners: &[0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3],
            trick: &[],
            first: 0,
            sequence: "HDCS-NT",
        }
        .position();
        let mut state = from_position(&options(&[("players", int(4))]), &text);
        assert_eq!(trump_name(&state), "S");
        assert_eq!(state.scores(), [1, 9]);
        assert_eq!(state.to_move(), Some(3));
        for k in 0..4 {
            let seat = (3 + k) % 4;
            act(&mut state, seat, &format!("play {}", hands[seat][0]));
        }
        assert_eq!(state.sheet().scores().iter().sum::<i16>(), 18 - 9);
        if team_wins {
            assert_eq!(state.sheet().rows().last().unwrap(), [7, 6]);
            assert_eq!(state.scores(), [0, 9]);
            assert_eq!(state.winning_seats(), [0, 2]);
            assert_eq!(state.returns().unwrap()[..4], [1.0, -1.0, 1.0, -1.0]);
        } else {
            assert_eq!(state.sheet().rows().last().unwrap(), [6, 7]);
            assert_eq!(state.scores(), [1, 8]);
            assert!(state.winning_seats().is_empty());
            assert_eq!((state.deal_number(), state.dealer_seat()), (10, 1));
            assert_eq!(trump_name(&state), "NT");
            assert_eq!(state.to_move(), Some(2));
        }
    }
}

// NEUF-11 Invariants in random play ----------------------------------------------------

#[test]
fn neuf_11_invariants_hold_at_every_step_of_random_games() {
    // NEUF-11 (1) card conservation, (2) the piles make the pack and the exchange moves
    // whole hands, (4) 13 tricks a deal, (7) the total falls by one a deal, (8) at most 25
    // (17) deals and at most 2 (exactly 1) winners.
    for (pairs, players) in [
        (vec![], 3usize),
        (
            vec![
                ("dealer_exchanges_first", flag(true)),
                ("tie_avoidance", flag(true)),
            ],
            3,
        ),
        (vec![("players", int(4))], 4),
    ] {
        let mut pairs = pairs;
        pairs.push(("players", int(players as i64)));
        pairs.dedup_by(|a, b| a.0 == b.0);
        let opts = options(&pairs);
        for seed in 0..30 {
            let mut state: Neuf = new_game(&opts, seed);
            let mut rng = PlayoutRng::seed_from_u64(seed as u64 + 1000);
            loop {
                let piles = (0..4).fold(0u64, |m, i| {
                    assert_eq!(m & state.pile(i), 0);
                    m | state.pile(i)
                });
                assert_eq!(piles, (1 << 52) - 1);
                let mut held = state.spare();
                for s in 0..players {
                    assert_eq!(held & state.hand(s), 0);
                    held |= state.hand(s);
                }
                let played = 52 - held.count_ones();
                let trick = state.current_trick().len() as u32;
                assert_eq!(
                    played,
                    state.finished_tricks() as u32 * players as u32 + trick
                );
                let won: u32 = state.tricks_won().iter().map(|&t| u32::from(t)).sum();
                assert_eq!(won as usize, state.finished_tricks());
                let rows = state.sheet().row_count() as i16;
                let start = if players == 3 { 27 } else { 18 };
                assert_eq!(state.sheet().scores().iter().sum::<i16>(), start - rows);
                assert!(rows <= if players == 3 { 25 } else { 17 });
                if state.to_move().is_none() {
                    break;
                }
                state.apply(state.random_action(&mut rng));
            }
            let winners = state.winning_seats().len();
            if players == 3 {
                assert!((1..=2).contains(&winners));
            } else {
                assert_eq!(winners, 2, "one team of two seats");
            }
        }
    }
}

#[test]
fn random_actions_are_uniform_over_the_legal_ones() {
    // The fast draw covers exactly the legal actions, each about equally often.
    let mut state: Neuf = new_game(&options(&[]), 2);
    for a in [KEEP, KEEP, KEEP] {
        state.apply(a);
    }
    let mask = state.legal_mask();
    let mut rng = PlayoutRng::seed_from_u64(9);
    let mut counts = [0u32; 54];
    for _ in 0..13_000 {
        counts[state.random_action(&mut rng)] += 1;
    }
    for (a, &c) in counts.iter().enumerate() {
        if mask >> a & 1 == 1 {
            assert!((800..1200).contains(&c), "action {a}: {c}");
        } else {
            assert_eq!(c, 0);
        }
    }
}

// Options --------------------------------------------------------------------------------

fn refused(pairs: &[(&str, OptionValue)]) -> String {
    Neuf::options(&cardtable_core::options::pairs(pairs))
        .expect_err("refused")
        .0
}

#[test]
fn neuf_1_1_bad_options_are_refused() {
    // NEUF-1.1 / NEUF-8.4: 3 or 4 players only; the dealer is a seat; the flags are
    // booleans; unknown options are refused.
    for pairs in [
        vec![("players", int(2))],
        vec![("players", int(5))],
        vec![("players", text("3"))],
        vec![("players", flag(true))],
        vec![("players", OptionValue::None)],
        vec![("dealer", int(3))],
        vec![("dealer", int(-1))],
        vec![("dealer", text("0"))],
        vec![("dealer", flag(false))],
        vec![("players", int(4)), ("dealer", int(4))],
        vec![("dealer_exchanges_first", text("yes"))],
        vec![("tie_avoidance", int(1))],
        vec![("trumps", text("HDCS"))],
    ] {
        refused(&pairs);
    }
    assert_eq!(
        refused(&[("players", int(5))]),
        "neuf is for 3 players, or 4 in partnership, not 5"
    );
    assert_eq!(
        refused(&[("dealer", int(3))]),
        "dealer must be a seat 0-2, not 3"
    );
    assert_eq!(
        refused(&[("trumps", text("HDCS"))]),
        "neuf has no option 'trumps'; its options are dealer, dealer_exchanges_first, \
         players, tie_avoidance, trump_sequence"
    );
    assert_eq!(
        refused(&[("tie_avoidance", int(1))]),
        "tie_avoidance must be True or False, not 1"
    );
}

#[test]
fn neuf_8_1_an_unknown_trump_sequence_names_the_presets() {
    // NEUF-8.1 / N-1: only the presets are accepted; the error lists them.
    for bad in [
        text("CDHS-NT"),
        text("hdcs-nt"),
        text(""),
        int(5),
        OptionValue::None,
    ] {
        let why = refused(&[("trump_sequence", bad)]);
        for (name, _) in SEQUENCES {
            assert!(why.contains(name), "{why}");
        }
    }
    for (i, (name, _)) in SEQUENCES.iter().enumerate() {
        assert_eq!(
            options(&[("trump_sequence", text(name))]).trump_sequence as usize,
            i
        );
    }
}

#[test]
fn neuf_8_4_three_player_rules_are_refused_with_four() {
    // NEUF-8.4: no exchange (so no NEUF-8.2) and no tie (so no NEUF-8.3) with 4 players.
    for flag_name in ["dealer_exchanges_first", "tie_avoidance"] {
        let why = refused(&[("players", int(4)), (flag_name, flag(true))]);
        assert!(why.contains(flag_name), "{why}");
        assert_eq!(
            options(&[("players", int(4)), (flag_name, flag(false))]).players,
            4
        );
    }
}

#[test]
fn neuf_defaults_and_the_dealer_from_the_seed() {
    // docs/neuf.md's defaults; N-3: with no dealer option the first dealer is drawn from
    // the seed (`draw(seed, "dealer", players)`), so the same seed deals the same game.
    let opts = options(&[]);
    assert_eq!(opts.players, 3);
    assert_eq!(opts.dealer, None);
    assert_eq!(opts.trump_sequence, 0);
    assert!(!opts.dealer_exchanges_first && !opts.tie_avoidance);
    let a: Neuf = new_game(&opts, 77);
    let b: Neuf = new_game(&opts, 77);
    assert_eq!(a.position(), b.position());
    let dealer = cardtable_core::chance::draw(77, "dealer", 3) as usize;
    assert_eq!(a.dealer_seat(), dealer);
}

#[test]
fn begin_refuses_reshuffles_and_decks_that_are_not_the_pack() {
    // Neuf shuffles whole decks only; a stacked deck is the 52-card pack (SPEC §0.3).
    let opts = options(&[]);
    let with_reshuffle = Stacked {
        decks: vec![],
        reshuffles: vec![vec![0]],
    };
    assert!(Neuf::begin(&opts, 1, 0, with_reshuffle).is_err());
    let short = Stacked {
        decks: vec![(0..51).collect()],
        reshuffles: vec![],
    };
    assert!(Neuf::begin(&opts, 1, 0, short).is_err());
    let twice = Stacked {
        decks: vec![(0..51).chain([0]).collect()],
        reshuffles: vec![],
    };
    assert!(Neuf::begin(&opts, 1, 0, twice).is_err());
    assert!(Neuf::begin(&opts, 1, 3, Stacked::default()).is_err());
}
