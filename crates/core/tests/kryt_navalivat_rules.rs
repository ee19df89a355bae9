//! Kryt'-navalivat' rules in the core, unit by unit (SPEC §2, KRYT-1 … KRYT-11, decisions
//! K-1 … K-15), as `tests/rules/test_kryt_navalivat_rules.py` checks the Python engine.
//! Seats A, B, C, D are 0 … 3. Expected facts are restated from SPEC.md, not read from the
//! engine: the beat relation and the pick-up counts are written out again in plain terms on
//! card text, and draws are recomputed from the stock before each turn.

mod kryt_navalivat_common;

use std::collections::BTreeSet;

use cardtable_core::cards::{card_text, parse_card};
use cardtable_core::chance::draw;
use cardtable_core::game::{first_dealer, Game, OptionValue, Stacked};
use cardtable_core::kryt_navalivat::beating::{
    beaters_for, beats, take_count, NO_SUIT, PERMANENT_ANTI,
};
use cardtable_core::kryt_navalivat::{action_text, parse_action, Mode, Options, TrumpMode};
use cardtable_core::options;
use cardtable_core::KrytNavalivat;
use kryt_navalivat_common::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;

const RANKS: [&str; 9] = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUITS: &str = "CDHS";

fn modes() -> Vec<(TrumpMode, char)> {
    let mut out: Vec<(TrumpMode, char)> = SUITS.chars().map(|t| (TrumpMode::Turned, t)).collect();
    out.push((TrumpMode::Permanent, 'D'));
    out
}

fn suit_of(card: &str) -> char {
    card.chars().last().unwrap()
}

fn rank_of(card: &str) -> usize {
    RANKS
        .iter()
        .position(|r| *r == &card[..card.len() - 1])
        .unwrap()
}

/// KRYT-3.1 and, in the permanent mode, KRYT-8.2, as the rules say them.
fn plain_beats(b: &str, t: &str, trump: char, permanent: bool) -> bool {
    if suit_of(b) == suit_of(t) {
        return rank_of(b) > rank_of(t);
    }
    if permanent {
        // A spade is beaten only by a higher spade, a diamond by a higher diamond; on a
        // heart or a club any diamond beats, a spade never.
        return "HC".contains(suit_of(t)) && suit_of(b) == 'D';
    }
    suit_of(t) != trump && suit_of(b) == trump
}

/// KRYT-5 and KRYT-8.3: 1 for a non-trump (a spade of the permanent mode too); the top 3
/// (or all, when 3 or fewer) for a trump other than the ace; the whole pile for its ace.
fn plain_take(pile_size: usize, top: &str, trump: char) -> usize {
    if suit_of(top) != trump {
        return 1;
    }
    if top.starts_with('A') {
        pile_size
    } else {
        pile_size.min(3)
    }
}

fn card(text: &str) -> u8 {
    parse_card(text).unwrap()
}

#[test]
fn kryt_navalivat_3_1_and_8_2_beats_agrees_with_the_rule_for_every_pair() {
    // KRYT-3.1 (each trump suit) and KRYT-8.2 (diamonds trumps, spades anti-trumps): the
    // relation and its look-up table agree with the plain rule on all 36 x 36 pairs;
    // KRYT-3.2 / KRYT-8.2: the ace of trumps (and AS, permanent) is beaten by nothing.
    for (mode, trump) in modes() {
        let permanent = mode == TrumpMode::Permanent;
        let t = SUITS.find(trump).unwrap() as u8;
        let anti = if permanent { PERMANENT_ANTI } else { NO_SUIT };
        let table = beaters_for(t, anti);
        let mut unbeatable = BTreeSet::new();
        for top in pack() {
            let expected: BTreeSet<String> = pack()
                .into_iter()
                .filter(|b| plain_beats(b, &top, trump, permanent))
                .collect();
            let got: BTreeSet<String> = pack()
                .into_iter()
                .filter(|b| beats(card(b), card(&top), t, anti))
                .collect();
            assert_eq!(got, expected, "{top}");
            let looked_up: BTreeSet<String> =
                cardtable_core::cards::cards(table[card(&top) as usize])
                    .map(card_text)
                    .collect();
            assert_eq!(looked_up, expected, "{top}");
            if expected.is_empty() {
                unbeatable.insert(top);
            }
        }
        let wanted = if permanent {
            set("AD AS")
        } else {
            set(&format!("A{trump}"))
        };
        assert_eq!(unbeatable, wanted);
    }
}

#[test]
fn kryt_navalivat_4_2_the_legal_beats_are_the_cards_held_that_beat_the_top() {
    // KRYT-4.2a, KRYT-10: in RESPOND mode the legal beats are exactly the held cards that
    // beat the top card, plus PICK_UP, for every top card (A holds all the rest but one).
    for (trumps, trump) in [("H", 'H'), ("permanent", 'D')] {
        let permanent = trumps == "permanent";
        for top in pack() {
            let others: Vec<String> = pack().into_iter().filter(|c| *c != top).collect();
            let (held, kept) = (others[..34].join(" "), others[34].clone());
            let state = Compose::new(&[&held, &kept])
                .pile(&top)
                .trumps(trumps)
                .state();
            let mut expected: BTreeSet<String> = others[..34]
                .iter()
                .filter(|c| plain_beats(c, &top, trump, permanent))
                .map(|c| format!("beat {c}"))
                .collect();
            expected.insert("take".into());
            assert_eq!(legal(&state), expected, "{top}");
        }
    }
}

#[test]
fn kryt_navalivat_5_and_8_3_take_count_for_every_top_card_and_pile_size() {
    // KRYT-5 / KRYT-8.3 (K-11: AS takes 1 card) for piles of 1 to 8 cards.
    for (_, trump) in modes() {
        let t = SUITS.find(trump).unwrap() as u8;
        for top in pack() {
            for size in 1..=8 {
                assert_eq!(
                    take_count(size, card(&top), t),
                    plain_take(size, &top, trump),
                    "{top} on {size}"
                );
            }
        }
    }
}

#[test]
fn kryt_navalivat_5_a_pick_up_moves_the_cards_the_rule_counts() {
    // KRYT-5: clubs trumps; a non-ace trump on top takes min(3, pile), the ace all; the
    // cards go to the taker's hand, the rest stays in order and the next player faces its
    // top card, or leads on an empty pile (KRYT-4.5).
    for (top, size) in [("9C", 1), ("9C", 2), ("9C", 3), ("9C", 4), ("AC", 6)] {
        let below: Vec<&str> = ["6H", "7H", "8H", "9H", "10H"][..size - 1].to_vec();
        let mut whole = below.clone();
        whole.push(top);
        let pile_text = whole.join(" ");
        let mut state = Compose::new(&["6S 7S 8S", "JS QS KS"])
            .pile(&pile_text)
            .stock(FILL)
            .faceup("6C")
            .state();
        let k = plain_take(size, top, 'C');
        let taken: Vec<String> = whole[size - k..].iter().map(|c| c.to_string()).collect();
        let would: Vec<String> = state.would_take().iter().map(|&c| card_text(c)).collect();
        assert_eq!(would, taken);
        play(&mut state, "take");
        let mut expected = set("6S 7S 8S");
        expected.extend(taken.iter().cloned());
        assert_eq!(hand(&state, A), expected);
        assert_eq!(pile(&state), cards(&below[..size - k].join(" ")));
        let mode = if size > k { Mode::Respond } else { Mode::Lead };
        assert_eq!((state.mode(), state.to_move()), (mode, Some(B)));
    }
}

#[test]
fn kryt_navalivat_2_3_to_2_5_the_deal_from_a_stacked_deck() {
    // KRYT-2.3 / K-15: three rounds, one card at a time, clockwise from the dealer's left;
    // KRYT-2.4 / K-3: the next card is turned and names trumps; KRYT-2.5: the stock is the
    // rest, 36 - 3N cards with the turned card. KRYT-8.1: the permanent mode turns
    // nothing, so its stock is the 36 - 3N face-down cards. KRYT-4: the dealer's left
    // leads first.
    for players in 2..=6 {
        for mode in [TrumpMode::Turned, TrumpMode::Permanent] {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(players as u64);
            for dealer in 0..players {
                let mut deck = pack();
                deck.shuffle(&mut rng);
                let state = dealt(players, dealer, mode, &deck, 3);
                for seat in 0..players {
                    let dealt: BTreeSet<String> = (0..3 * players)
                        .filter(|i| (dealer + 1 + i) % players == seat)
                        .map(|i| deck[i].clone())
                        .collect();
                    assert_eq!(dealt.len(), 3);
                    assert_eq!(hand(&state, seat), dealt);
                }
                assert_eq!(state.stock_count(), 36 - 3 * players);
                if mode == TrumpMode::Turned {
                    let turned = &deck[3 * players];
                    assert_eq!(state.faceup().map(card_text).as_ref(), Some(turned));
                    assert_eq!(
                        SUITS.as_bytes()[state.trump() as usize] as char,
                        suit_of(turned)
                    );
                    assert_eq!(stock(&state), deck[3 * players + 1..]);
                } else {
                    assert_eq!((state.faceup(), state.trump()), (None, 1));
                    assert!(state.permanent());
                    assert_eq!(stock(&state), deck[3 * players..]);
                }
                assert_eq!(state.to_move(), Some((dealer + 1) % players));
                assert_eq!(state.mode(), Mode::Lead);
                assert!(pile(&state).is_empty());
            }
        }
    }
}

#[test]
fn kryt_navalivat_2_1_without_a_dealer_option_the_seed_picks_one_every_seat_possible() {
    // KRYT-2.1: anyone may deal the first hand; the seed decides it (`draw(seed, "dealer",
    // n)`, as `resolved_dealer`), reproducibly.
    let options = options(3, TrumpMode::Turned);
    let dealers: BTreeSet<usize> = (0..30)
        .map(|s| first_dealer::<KrytNavalivat>(&options, s))
        .collect();
    assert_eq!(dealers, BTreeSet::from([0, 1, 2]));
    for seed in 0..30 {
        assert_eq!(
            first_dealer::<KrytNavalivat>(&options, seed) as u64,
            draw(seed, "dealer", 3)
        );
    }
    let given = Options {
        dealer: Some(2),
        ..options.clone()
    };
    assert_eq!(first_dealer::<KrytNavalivat>(&given, 5), 2);
    let a: KrytNavalivat = cardtable_core::game::new_game(&options, 7);
    let b: KrytNavalivat = cardtable_core::game::new_game(&options, 7);
    assert_eq!(a.position(), b.position());
}

/// KRYT-4.4: from the top of the face-down stock while fewer than 3 are held, the turned
/// card when nothing else is left.
fn expected_draw(before: &KrytNavalivat, size: usize) -> Vec<String> {
    let mut source = stock(before);
    source.extend(before.faceup().map(card_text));
    source.truncate(3usize.saturating_sub(size));
    source
}

#[test]
fn kryt_navalivat_4_4_k_1_draws_after_the_whole_turn_only_the_actor_up_to_three() {
    // KRYT-4.4, K-1, KRYT-11.3: no draw between a beat and its cover; at the end of a turn
    // only the actor draws, from the top, up to 3 cards and never above, the turned card
    // last (KRYT-2.5); a pick-up leaves 4 or more, so draws nothing; the swap draws nothing.
    for (players, mode, seed) in games() {
        let states = random_states(players, mode, seed, 5000);
        let end = states.last().unwrap();
        assert!(end.to_move().is_none() && end.stock_count() == 0);
        for pair in states.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let actor = before.to_move().unwrap();
            let action = replayed_action(before, after);
            let held = hand(before, actor);
            for seat in (0..players).filter(|&s| s != actor) {
                assert_eq!(hand(after, seat), hand(before, seat), "{action}");
            }
            let (verb, played) = action.split_once(' ').unwrap_or((&action, ""));
            if verb == "swap" || (verb == "beat" && after.mode() == Mode::Cover) {
                assert_eq!(after.stock_count(), before.stock_count(), "{action}");
                continue;
            }
            let rest: BTreeSet<String> = if verb == "take" {
                let mut rest = held.clone();
                rest.extend(before.would_take().iter().map(|&c| card_text(c)));
                assert!(rest.len() >= 4 || before.stock_count() == 0);
                rest
            } else {
                held.iter().filter(|c| *c != played).cloned().collect()
            };
            let drawn = expected_draw(before, rest.len());
            let mut expected = rest.clone();
            expected.extend(drawn.iter().cloned());
            assert_eq!(hand(after, actor), expected, "{action}");
            assert_eq!(after.stock_count(), before.stock_count() - drawn.len());
            if before.stock_count() > 0 {
                // KRYT-11.3: 3 at least, unless the stock ran out.
                assert!(hand(after, actor).len() >= 3 || after.stock_count() == 0);
            }
        }
    }
}

/// The action that leads from `before` to `after` (the one legal action that does).
fn replayed_action(before: &KrytNavalivat, after: &KrytNavalivat) -> String {
    let found: Vec<String> = legal(before)
        .into_iter()
        .filter(|a| {
            let mut s = before.clone();
            s.apply(parse_action(a).unwrap());
            s == *after
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].clone()
}

#[test]
fn kryt_navalivat_7_1_a_player_out_of_cards_is_skipped() {
    // KRYT-7.1, KRYT-4.5, KRYT-11.6: B has gone out; A leads his last card and goes out
    // too; play passes over A and B, who never act again, while C and D play on.
    let mut state = Compose::new(&["7H", "", "8S 9S", FILL])
        .turn("lead")
        .state();
    assert!(state.is_out(B) && !state.is_out(A));
    play(&mut state, "lead 7H");
    assert!(state.is_out(A) && state.is_out(B));
    assert_eq!((state.to_move(), state.mode()), (Some(C), Mode::Respond));
    play(&mut state, "take");
    assert_eq!((state.to_move(), state.mode()), (Some(D), Mode::Lead));
    let first = legal(&state).into_iter().next().unwrap();
    play(&mut state, &first);
    assert_eq!(state.to_move(), Some(C));
    assert_ne!(state.mode(), Mode::Over);
    assert_eq!((state.hand(A), state.hand(B)), (0, 0));
}

#[test]
fn kryt_navalivat_4_3_no_free_mode_with_one_other_player_left() {
    // KRYT-4.3: B is already out; A beats with his last card, leaving only C: no FREE
    // mode, the hand is over and C is the fool (KRYT-7.3).
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "", "7S 8S"]).pile(&pile_text).state();
    play(&mut state, "beat QH");
    assert_eq!((state.mode(), state.loser()), (Mode::Over, Some(C)));
}

#[test]
fn kryt_navalivat_4_3_k_6_free_mode_allows_lead_beat_and_cover_or_pick_up() {
    // K-6: in FREE mode the player may lead any card, beat (then cover) or pick up.
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "KH 7S", "9D 10D"])
        .pile(&pile_text)
        .state();
    play(&mut state, "beat QH");
    assert_eq!(state.mode(), Mode::Free);
    assert_eq!(
        legal(&state),
        ["lead KH", "lead 7S", "beat KH", "take"]
            .map(String::from)
            .into_iter()
            .collect()
    );
    play(&mut state, "beat KH");
    assert_eq!((state.to_move(), state.mode()), (Some(B), Mode::Cover));
    assert_eq!(legal(&state), set_of(&["cover 7S"]));
}

fn set_of(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

#[test]
fn kryt_navalivat_4_3_free_mode_only_with_the_stock_empty_and_two_others_holding() {
    // KRYT-4.3: in random play FREE mode comes only after a beat with the last card, with
    // the stock empty and at least two other players still holding cards; no swap in it.
    // KRYT-7.7: every game ends well within the harness cap.
    let mut free = 0;
    let mut all = games();
    all.extend((3..=6).map(|n| (n, TrumpMode::Turned, 100 + n as u64)));
    for (players, mode, seed) in all {
        let states = random_states(players, mode, seed, 5000);
        assert!(states.last().unwrap().to_move().is_none());
        for pair in states.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            if after.mode() == Mode::Free {
                free += 1;
                let actor = before.to_move().unwrap();
                assert!(after.is_out(actor));
                assert!(replayed_action(before, after).starts_with("beat"));
                assert_eq!(after.stock_count(), 0);
                assert!((0..players).filter(|&s| after.hand(s) != 0).count() >= 2);
                assert!(!is_legal(after, "swap"));
            }
        }
    }
    assert!(free > 0);
}

/// (why, hands, top of the pile, script, the fool or `None` for a draw)
type DrawCase = (
    &'static str,
    &'static [&'static str],
    &'static str,
    &'static [&'static str],
    Option<usize>,
);

#[test]
fn kryt_navalivat_7_3_k_7_draw_rule() {
    // KRYT-7.3 / K-7 in each branch: a draw only when P's last card was a lead (a free
    // lead included) or a cover, and L holds exactly one card, which beats it; otherwise L
    // loses. Trumps diamonds, stock empty; settled at once, with no action from L.
    let table: [DrawCase; 8] = [
        (
            "cover, one card that beats",
            &["JH 8C", "KC"],
            "9H",
            &["beat JH", "cover 8C"],
            None,
        ),
        (
            "cover, one that cannot beat",
            &["JH 8C", "7C"],
            "9H",
            &["beat JH", "cover 8C"],
            Some(B),
        ),
        (
            "cover, L holds two cards",
            &["JH 8C", "KC AC"],
            "9H",
            &["beat JH", "cover 8C"],
            Some(B),
        ),
        (
            "P out by beating, L could beat",
            &["QH", "KH"],
            "JH",
            &["beat QH"],
            Some(B),
        ),
        (
            "free lead, one that beats",
            &["QH", "7S", "8S"],
            "JH",
            &["beat QH", "lead 7S"],
            None,
        ),
        (
            "free lead, one that cannot",
            &["QH", "7S", "6S"],
            "JH",
            &["beat QH", "lead 7S"],
            Some(C),
        ),
        (
            "free lead, L holds two",
            &["QH", "7S", "8S 9S"],
            "JH",
            &["beat QH", "lead 7S"],
            Some(C),
        ),
        (
            "free beat-out, L could beat",
            &["QH", "KH", "AH"],
            "JH",
            &["beat QH", "beat KH"],
            Some(C),
        ),
    ];
    for (why, hands, top, script, loser) in table {
        let pile_text = format!("{FILL} {top}");
        let mut state = Compose::new(hands).pile(&pile_text).trumps("D").state();
        for action in script {
            assert_ne!(state.mode(), Mode::Over, "{why}");
            play(&mut state, action);
        }
        assert_eq!((state.mode(), state.legal_mask()), (Mode::Over, 0), "{why}");
        assert_eq!(state.loser(), loser, "{why}");
        assert_eq!(state.drawn(), loser.is_none(), "{why}");
    }
}

#[test]
fn kryt_navalivat_7_3_a_lead_of_the_last_card_leaves_l_the_fool() {
    // KRYT-7.3, lead branch: A leads his last card on an empty pile; B, the only player
    // left, is the fool (with the stock empty he holds the other 35 cards).
    let mut state = Compose::new(&["6C", FILL]).turn("lead").state();
    play(&mut state, "lead 6C");
    assert_eq!((state.mode(), state.loser()), (Mode::Over, Some(B)));
    assert_eq!(hand(&state, B).len(), 35);
}

#[test]
fn kryt_navalivat_7_2_result_of_a_loss_with_three_players() {
    // KRYT-7.2, SPEC §0.4 (5): the fool -1, the others share +1; the returns sum to zero.
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "7S", "6S"])
        .pile(&pile_text)
        .trumps("D")
        .state();
    assert_eq!(state.returns(), None);
    play(&mut state, "beat QH");
    play(&mut state, "lead 7S");
    assert_eq!(state.returns().unwrap()[..3], [0.5, 0.5, -1.0]);
}

#[test]
fn kryt_navalivat_7_3_result_of_a_draw_is_zero_for_everyone() {
    // KRYT-7.3: a draw has no winner and no fool: zero returns.
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "7S", "8S"])
        .pile(&pile_text)
        .trumps("D")
        .state();
    play(&mut state, "beat QH");
    play(&mut state, "lead 7S");
    assert!(state.drawn());
    assert_eq!(state.returns().unwrap()[..3], [0.0; 3]);
}

#[test]
fn kryt_navalivat_7_2_the_share_of_each_winner_is_one_over_n_minus_one() {
    // KRYT-7.2 with 4 players: -1 to the fool, 1/3 to each other seat (Python's
    // `1.0 / (n - 1)`, the same float).
    let pile_text = format!("{FILL} JH");
    let mut state = Compose::new(&["QH", "", "7S", "6S"])
        .pile(&pile_text)
        .trumps("D")
        .state();
    play(&mut state, "beat QH");
    play(&mut state, "lead 7S");
    let third = 1.0 / 3.0;
    assert_eq!(state.returns().unwrap()[..4], [third, third, third, -1.0]);
}

#[test]
fn kryt_navalivat_4_6_after_a_beat_only_a_cover_is_legal() {
    // KRYT-4.2a, K-4, K-9: after `beat 6S` with cards left the cover is compulsory; a take,
    // a lead, another beat or a swap is not legal then; a cover is legal only then.
    let mut state = Compose::new(&["7H 8H 6S", FILL])
        .pile("7D")
        .stock("9C 10C JC")
        .faceup("10S")
        .trumps("S")
        .state();
    assert_eq!(legal(&state), set_of(&["beat 6S", "take", "swap"]));
    assert!(!is_legal(&state, "cover 7H"));
    play(&mut state, "beat 6S");
    assert_eq!(legal(&state), set_of(&["cover 7H", "cover 8H"]));
    assert!(state.would_take().is_empty()); // K-1: nothing to pick up in between
    for action in ["take", "lead 7H", "beat 7H", "swap"] {
        assert!(!is_legal(&state, action), "{action}");
    }
}

#[test]
fn kryt_navalivat_4_1_on_an_empty_pile_only_leads_and_the_swap() {
    // KRYT-4.1, KRYT-6: on an empty pile the actions are leads, and the swap for the
    // holder of the six of trumps; nothing to pick up.
    let state = dealt(3, C, TrumpMode::Turned, &ex_1_deck(), 1);
    assert_eq!(legal(&state), set_of(&["lead 7D", "lead 9S", "lead 10D"]));
    assert!(state.would_take().is_empty());
}

#[test]
fn kryt_navalivat_10_all_110_actions_are_numbered_densely_both_ways() {
    // KRYT-10, docs/kryt-navalivat.md: 0-35 lead, 36-71 beat, 72-107 cover (card number
    // suit * 9 + rank - 6, suits C D H S), 108 take, 109 swap.
    assert_eq!(KrytNavalivat::NUM_ACTIONS, 110);
    let pack = pack();
    for number in 0..110 {
        let text = match number {
            108 => "take".to_string(),
            109 => "swap".to_string(),
            _ => format!(
                "{} {}",
                ["lead", "beat", "cover"][number / 36],
                pack[number % 36]
            ),
        };
        assert_eq!(action_text(number), text);
        assert_eq!(parse_action(&text), Ok(number));
        assert_eq!(
            parse_action(&format!("  {}  ", text.to_uppercase())),
            Ok(number)
        );
    }
    assert_eq!(parse_action("beat T♥"), parse_action("beat 10H"));
    for bad in [
        "lead 2C",
        "beat 5H",
        "lead 1X",
        "lead",
        "jump 7D",
        "beat 7D 8D",
        "",
    ] {
        assert!(parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn kryt_navalivat_1_1_k_2_and_8_options_read_and_refused_as_python() {
    // K-2: 2 to 6 players (default 2); KRYT-8: trump_mode turned (default) or permanent;
    // KRYT-2.1: a dealer is a seat or None; unknown names are refused.
    use OptionValue::{Bool, Int, None as Nothing, Str};
    assert_eq!(KrytNavalivat::options(&[]).unwrap(), Options::default());
    let good = KrytNavalivat::options(&options::pairs(&[
        ("players", Int(5)),
        ("dealer", Int(4)),
        ("trump_mode", Str("permanent".into())),
    ]))
    .unwrap();
    assert_eq!(
        good,
        Options {
            players: 5,
            dealer: Some(4),
            trump_mode: TrumpMode::Permanent
        }
    );
    let none = KrytNavalivat::options(&options::pairs(&[("dealer", Nothing)])).unwrap();
    assert_eq!(none.dealer, None);
    let refused: [&[(&str, OptionValue)]; 11] = [
        &[("players", Int(7))],
        &[("players", Int(1))],
        &[("players", Str("3".into()))],
        &[("players", Bool(true))],
        &[("trump_mode", Str("fixed".into()))],
        &[("trump_mode", Nothing)],
        &[("players", Int(3)), ("dealer", Int(3))],
        &[("dealer", Int(-1))],
        &[("dealer", Str("0".into()))],
        &[("dealer", Bool(false))],
        &[("colour", Str("red".into()))],
    ];
    for pairs in refused {
        assert!(
            KrytNavalivat::options(&options::pairs(pairs)).is_err(),
            "{pairs:?}"
        );
    }
}

#[test]
fn kryt_navalivat_1_2_bad_stacked_decks_are_refused() {
    // KRYT-1.2: a stacked deck is the 36-card pack once; a game is one hand, one deck.
    let options = options(2, TrumpMode::Turned);
    let pack: Vec<u8> = pack().iter().map(|c| card(c)).collect();
    let begin = |decks: Vec<Vec<u8>>| {
        let stacked = Stacked {
            decks,
            reshuffles: vec![],
        };
        KrytNavalivat::begin(&options, 1, 0, stacked)
            .map(|_| ())
            .map_err(|e| e.0)
    };
    let mut with_2c = pack.clone();
    with_2c[0] = card("2C");
    assert!(begin(vec![with_2c]).unwrap_err().contains("2C"));
    assert!(begin(vec![pack[1..].to_vec()])
        .unwrap_err()
        .contains("35 cards"));
    let mut repeated = pack.clone();
    repeated[0] = pack[1];
    assert!(begin(vec![repeated]).unwrap_err().contains("repeats"));
    assert!(begin(vec![pack.clone(), pack.clone()])
        .unwrap_err()
        .contains("one deck"));
    let with_reshuffle = Stacked {
        decks: vec![],
        reshuffles: vec![pack.clone()],
    };
    assert!(KrytNavalivat::begin(&options, 1, 0, with_reshuffle).is_err());
    assert!(begin(vec![pack]).is_ok());
}

#[test]
fn a_state_is_small_and_owns_no_heap() {
    // The core's state is a flat value: cloning it is one copy, and nothing needs freeing.
    assert!(std::mem::size_of::<KrytNavalivat>() <= 160);
    assert!(!std::mem::needs_drop::<KrytNavalivat>());
}
