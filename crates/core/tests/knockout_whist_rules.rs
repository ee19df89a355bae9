//! Knockout Whist rules one piece at a time (SPEC §3, KOW-1 … KOW-11, decisions W-1 …
//! W-11), as `tests/rules/test_knockout_whist_rules.py` checks them in the Python engine: each
//! test builds its situation from a stacked deck (SPEC §0.3, index 0 dealt first) or a
//! position (SPEC §0.4 (1)) and checks what the cited rule says must happen.

mod knockout_whist_support;

use cardtable_core::cards::{card_text, parse_card, Card};
use cardtable_core::chance::shuffled;
use cardtable_core::game::{new_game, Game, OptionValue, Stacked};
use cardtable_core::KnockoutWhist;
use knockout_whist_support::*;

fn pack() -> Vec<Card> {
    (0..52).collect()
}

fn deck_after(top: &[&str]) -> Vec<Card> {
    complete_deck(&top.join(" "))
}

// KOW-2.3 The deal ---------------------------------------------------------------------------

#[test]
fn kow_2_3_hand_one_is_dealt_one_at_a_time_from_the_dealers_left() {
    // KOW-2.3 with dealer 2 of 4: deck cards go to seats 3, 0, 1, 2, 3, … seven rounds;
    // KOW-3.1: card 28 (4H) is turned for trumps; KOW-4.1: seat 3 leads.
    let state = stacked_game(4, 2, 1, &[pack()]);
    assert_eq!(
        hand_of(&state, 3),
        ["2C", "6C", "10C", "AC", "5D", "9D", "KD"]
    );
    assert_eq!(
        hand_of(&state, 0),
        ["3C", "7C", "JC", "2D", "6D", "10D", "AD"]
    );
    assert_eq!(
        hand_of(&state, 1),
        ["4C", "8C", "QC", "3D", "7D", "JD", "2H"]
    );
    assert_eq!(
        hand_of(&state, 2),
        ["5C", "9C", "KC", "4D", "8D", "QD", "3H"]
    );
    assert_eq!(field(&state, "turned"), "4H");
    assert_eq!(field(&state, "trump"), "H");
    assert_eq!(field(&state, "dealer"), "2");
    assert_eq!(field(&state, "hand"), "1");
    assert_eq!(state.to_move(), Some(3));
}

#[test]
fn seeded_deals_are_the_shared_shuffle() {
    // SPEC §0.3, W-11: a game from a seed alone draws its dealer and deals hand 1 from
    // `shuffled(seed, "deck 0", pack)` as the Python engine does (the first cards only
    // need to be random: `settle` is the cards dealt plus the turned one).
    for seed in [0i128, 7, -12, 1 << 40] {
        let options = options(4, None);
        let state: KnockoutWhist = new_game(&options, seed);
        let dealer: usize = field(&state, "dealer").parse().unwrap();
        let deck = shuffled(seed, "deck 0", &pack(), Some(29));
        let leader = (dealer + 1) % 4;
        let first: Vec<Card> = deck[..28].iter().step_by(4).copied().collect();
        let mut first: Vec<String> = first.into_iter().map(card_text).collect();
        first.sort_by_key(|c| parse_card(c).unwrap());
        assert_eq!(hand_of(&state, leader), first);
        assert_eq!(field(&state, "turned"), card_text(deck[28]));
        assert_eq!(field(&state, "chance"), "1,0");
    }
}

// A stacked three-hand game, 4 players, first dealer seat 2. Hand 1 (trump S, turned 2S):
// seat 0 holds six top spades and takes six tricks, seat 2 takes the last with AH, seats 1
// and 3 take none (both get the dog's life, W-6).
const HAND_ONE: [(usize, &str); 4] = [
    (3, "2D 3D 4D 5D 6D 7D 8D"),
    (0, "AS KS QS JS 10S 9S 2H"),
    (1, "2C 3C 4C 5C 6C 7C 8C"),
    (2, "8H 9H 10H JH QH KH AH"),
];
const HAND_ONE_PLAY: [&str; 28] = [
    "3 2D", "0 AS", "1 2C", "2 8H", "0 KS", "1 3C", "2 9H", "3 3D", "0 QS", "1 4C", "2 10H",
    "3 4D", "0 JS", "1 5C", "2 JH", "3 5D", "0 10S", "1 6C", "2 QH", "3 6D", "0 9S", "1 7C",
    "2 KH", "3 7D", "0 2H", "1 8C", "2 AH", "3 8D",
];
// Hand 2, dealer 3 (KOW-5.4), order 0, 1, 2, 3: the dogs 1 and 3 take a card in the first
// round only, then seats 0 and 2 alternate (KOW-2.3).
const HAND_TWO_DEAL: &str = "AH AC 2H 2D KH 3H QH 4H JH 5H 10H 6H 9H 7H";
// Hand 3, dealer 0, seats 2 and 3 out: seat 1, seat 0, seat 1, … (KOW-2.3).
const HAND_THREE_DEAL: &str = "2C 3C 4C 5C 6C 7C 8C 9C 10C JC";

fn hand_one_deck() -> Vec<Card> {
    let dealt: Vec<&str> = (0..7)
        .flat_map(|r| {
            HAND_ONE
                .iter()
                .map(move |(_, h)| h.split(' ').nth(r).unwrap())
        })
        .collect();
    let mut top = dealt;
    top.push("2S");
    deck_after(&top)
}

fn after_hand_one() -> KnockoutWhist {
    let decks = [
        hand_one_deck(),
        complete_deck(HAND_TWO_DEAL),
        complete_deck(HAND_THREE_DEAL),
    ];
    let mut state = stacked_game(4, 2, 8, &decks);
    assert_eq!(field(&state, "trump"), "S");
    assert_eq!(state.to_move(), Some(3));
    play(&mut state, &HAND_ONE_PLAY);
    state
}

#[test]
fn kow_5_1_w_6_everyone_without_a_trick_gets_the_dogs_life_at_once() {
    // KOW-5.1 / W-6: seats 1 and 3 take no trick in hand 1, so both become DOG and the
    // dog's life is used. KOW-3.2: seat 0 took most (6) and chooses. KOW-5.4: seat 3 deals.
    let state = after_hand_one();
    assert_eq!(field(&state, "hand"), "2");
    assert_eq!(field(&state, "status"), "ADAD");
    assert_eq!(field(&state, "dog"), "used");
    assert_eq!(field(&state, "out"), "-");
    assert_eq!(field(&state, "dealer"), "3");
    assert_eq!(field(&state, "chooser"), "0");
    assert_eq!(field(&state, "cuts"), "-");
}

#[test]
fn kow_2_3_dogs_take_a_card_in_the_first_round_only() {
    // KOW-2.2 / KOW-2.3: hand 2 dealt by seat 3 from seat 0: round 1 gives seats 0, 1, 2,
    // 3 a card each; rounds 2-6 skip the dogs 1 and 3, so seats 0 and 2 alternate.
    let state = after_hand_one();
    assert_eq!(hand_of(&state, 0), ["9H", "10H", "JH", "QH", "KH", "AH"]);
    assert_eq!(hand_of(&state, 1), ["AC"]);
    assert_eq!(hand_of(&state, 2), ["2H", "3H", "4H", "5H", "6H", "7H"]);
    assert_eq!(hand_of(&state, 3), ["2D"]);
    assert_eq!(hand_sizes(&state), [6, 1, 6, 1]);
}

#[test]
fn w_1_trumps_are_named_after_the_deal_by_the_chooser() {
    // KOW-3.2 / KOW-3.3 / W-1: the chooser sees the new hand, then names C, D, H or S (no
    // no-trump); then KOW-4.1: the first seat after the dealer still in the game leads.
    let mut state = after_hand_one();
    assert_eq!(field(&state, "phase"), "trump");
    assert_eq!(field(&state, "trump"), "-");
    assert_eq!(state.to_move(), Some(0));
    assert_eq!(legal(&state), ["trump C", "trump D", "trump H", "trump S"]);
    play(&mut state, &["0 trump C"]);
    assert_eq!(field(&state, "trump"), "C");
    assert_eq!(field(&state, "phase"), "play");
    assert_eq!(state.to_move(), Some(0)); // dealer 3, so seat 0 leads
}

#[test]
fn dog_rules_through_a_whole_hand() {
    // Hand 2 of the stacked game, clubs trumps. KOW-6.3: a dog plays or knocks; a knock
    // covers the trick (W-4); a dog who wins is back in (KOW-6.5), its lead passing on; on
    // the last trick a dog must play (W-3).
    let mut state = after_hand_one();
    play(&mut state, &["0 trump C", "0 AH"]);
    // Dog 1 may play AC even though it holds no heart; or knock.
    assert_eq!(legal(&state), ["play AC", "knock"]);
    play(&mut state, &["1 AC", "2 2H"]);
    assert_eq!(legal(&state), ["play 2D", "knock"]);
    play(&mut state, &["3 knock"]);
    // Dog 1 trumped and won; with no card left it passes the lead to seat 2 (KOW-6.5).
    assert_eq!(field(&state, "done"), "0:AH,1:AC,2:2H,3:x");
    assert_eq!(won(&state), [0, 1, 0, 0]);
    assert_eq!(state.to_move(), Some(2));
    play(&mut state, &["2 3H"]);
    assert_eq!(legal(&state), ["play 2D", "knock"]);
    play(&mut state, &["3 knock", "0 KH"]);
    for (high, low) in [("QH", "4H"), ("JH", "5H"), ("10H", "6H")] {
        play(&mut state, &[&format!("0 {high}"), &format!("2 {low}")]);
        assert_eq!(legal(&state), ["play 2D", "knock"]);
        play(&mut state, &["3 knock"]);
    }
    // W-4: every seat holding cards acts once per trick (seat 1 has none), then it is taken.
    let done = field(&state, "done");
    let orders: Vec<String> = done
        .split('/')
        .skip(1)
        .map(|t| t.split(',').map(|p| &p[..1]).collect())
        .collect();
    assert_eq!(orders, ["230", "023", "023", "023"]);
    assert_eq!(won(&state), [4, 1, 0, 0]);
    // The last trick: seat 0 leads; the dog may no longer knock (W-3).
    play(&mut state, &["0 9H", "2 7H"]);
    assert_eq!(state.to_move(), Some(3));
    assert_eq!(legal(&state), ["play 2D"]);
    play(&mut state, &["3 2D"]);
}

fn finish_hand_two(state: &mut KnockoutWhist) {
    play(state, &["0 trump C", "0 AH", "1 AC", "2 2H", "3 knock"]);
    play(state, &["2 3H", "3 knock", "0 KH"]);
    for (lead, low) in [("QH", "4H"), ("JH", "5H"), ("10H", "6H")] {
        play(
            state,
            &[&format!("0 {lead}"), &format!("2 {low}"), "3 knock"],
        );
    }
    play(state, &["0 9H", "2 7H", "3 2D"]);
}

#[test]
fn kow_5_1_a_winning_dog_returns_a_failed_dog_goes_out_and_the_life_is_not_renewed() {
    // KOW-5.1: dog 1 took a trick, so is ACTIVE again with a full share; dog 3 took none
    // and is OUT (KOW-6.6); seat 2, never a dog, took none after the dog's life was used
    // and is OUT at once (KOW-6.7, KOW-5.1.4).
    let mut state = after_hand_one();
    finish_hand_two(&mut state);
    assert_eq!(field(&state, "hand"), "3");
    assert_eq!(field(&state, "status"), "AAOO");
    assert_eq!(field(&state, "out"), "2@2,3@2");
    assert_eq!(field(&state, "dog"), "used");
    assert_eq!(field(&state, "chooser"), "0");
    assert!(state.to_move().is_some());
    assert_eq!(
        field(&state, "previous"),
        "C:0:AH,1:AC,2:2H,3:x/2:3H,3:x,0:KH/0:QH,2:4H,3:x/0:JH,2:5H,3:x/0:10H,2:6H,3:x/0:9H,2:7H,3:2D"
    );
}

#[test]
fn kow_2_3_out_players_are_skipped_in_the_deal() {
    // KOW-2.3 / KOW-5.4: hand 3 is dealt by seat 0 (first seat after dealer 3 that played
    // hand 2); seats 2 and 3 are OUT and get nothing, so seat 1 and seat 0 alternate, and
    // seat 1, back from the dog's life, gets a full share of 5 (KOW-5.1).
    let mut state = after_hand_one();
    finish_hand_two(&mut state);
    assert_eq!(field(&state, "dealer"), "0");
    assert_eq!(hand_of(&state, 1), ["2C", "4C", "6C", "8C", "10C"]);
    assert_eq!(hand_of(&state, 0), ["3C", "5C", "7C", "9C", "JC"]);
    assert_eq!(hand_sizes(&state), [5, 5, 0, 0]);
    play(&mut state, &["0 trump D"]);
    assert_eq!(state.to_move(), Some(1)); // KOW-4.1
}

// KOW-3.1 The turned trump --------------------------------------------------------------------

#[test]
fn kow_3_1_kow_ex_8_with_seven_players_card_49_is_turned() {
    // KOW-EX-8: 7 players, dealer 0, 49 cards dealt; card 49 (5S) is turned, so spades are
    // trumps, though the two cards below it are aces; they stay undealt.
    let mut top: Vec<String> = (0..52u8)
        .map(card_text)
        .filter(|c| !["5S", "AH", "AD"].contains(&c.as_str()))
        .collect();
    top.extend(["5S", "AH", "AD"].map(String::from));
    let deck = cards(&top.join(" "));
    let state = stacked_game(7, 0, 1, &[deck]);
    assert_eq!(field(&state, "trump"), "S");
    assert_eq!(field(&state, "turned"), "5S");
    assert_eq!(field(&state, "stock"), "AH,AD");
    let held: usize = hand_sizes(&state).iter().sum();
    assert_eq!(held, 49);
    assert_eq!(hand_of(&state, 1)[0], "2C"); // seat 1, the dealer's left, got card 0
    assert_eq!(state.to_move(), Some(1));
}

// KOW-4 Trick play -----------------------------------------------------------------------------

/// Hand 6 (two tricks) of three players, dealer 2, so seat 0 leads (KOW-4.1).
fn three_players_hand_six(trump: &'static str, hands: [&str; 3]) -> KnockoutWhist {
    let mut c = Compose::new(&hands, 6, 2);
    c.trump = Some(trump);
    c.dog_used = true;
    c.chooser = Some(0);
    from_position(3, &c.text())
}

#[test]
fn kow_4_3_kow_1_2_trick_winners() {
    // KOW-4.3 / KOW-1.2: the highest trump wins, else the highest card of the suit led;
    // KOW-4.4: the winner leads next.
    type Case = (
        &'static str,
        &'static str,
        [&'static str; 3],
        [&'static str; 3],
        usize,
    );
    let cases: [Case; 6] = [
        (
            "KOW-1.2: with clubs trumps 9C beats AH",
            "C",
            ["AH 2S", "9C 3S", "KH 4S"],
            ["AH", "9C", "KH"],
            1,
        ),
        (
            "KOW-4.3: no trump, the highest of the suit led",
            "C",
            ["2D 2S", "AS 3S", "3D 4S"],
            ["2D", "AS", "3D"],
            2,
        ),
        (
            "KOW-4.3: an off-suit ace that is not a trump never wins",
            "H",
            ["10S 2C", "AD 3C", "9S 4C"],
            ["10S", "AD", "9S"],
            0,
        ),
        (
            "KOW-4.3: the highest trump wins an over-trumped trick",
            "H",
            ["KS 2C", "2H 3C", "3H 4C"],
            ["KS", "2H", "3H"],
            2,
        ),
        (
            "KOW-4.3: a trump led is beaten only by a higher trump",
            "C",
            ["2C 2S", "AS 3S", "3C 4S"],
            ["2C", "AS", "3C"],
            2,
        ),
        (
            "KOW-4.3: ranks within a suit, A high, 10 above 9",
            "D",
            ["9S 2C", "10S 3C", "2S 4C"],
            ["9S", "10S", "2S"],
            1,
        ),
    ];
    for (rule, trump, hands, plays, winner) in cases {
        let mut state = three_players_hand_six(trump, hands);
        for (seat, card) in plays.iter().enumerate() {
            act(&mut state, seat, &format!("play {card}"));
        }
        assert_eq!(won(&state)[winner], 1, "{rule}");
        assert_eq!(state.to_move(), Some(winner), "KOW-4.4: {rule}");
    }
}

#[test]
fn kow_4_2_must_follow_suit_when_able() {
    // KOW-4.2: an ACTIVE player holding the suit led may play only that suit; without it,
    // any card, trump or not; the leader may lead anything.
    let mut state = three_players_hand_six("S", ["5H 2C", "9H 8C", "2S KD"]);
    assert_eq!(legal(&state), ["play 2C", "play 5H"]);
    play(&mut state, &["0 5H"]);
    assert_eq!(legal(&state), ["play 9H"]);
    play(&mut state, &["1 9H"]);
    assert_eq!(legal(&state), ["play KD", "play 2S"]);
}

// KOW-6 The dog's life: knocking and the lead -------------------------------------------------

/// Hand 2 of 4, dealer 3, hearts trumps; seats 0 and 1 are dogs, so dog 0 is first to lead
/// (KOW-4.1) and dog 1 comes next.
fn dogs_on_lead() -> KnockoutWhist {
    let hands = ["9C", "2D", "5C 6C 7C 8C 9D 10D", "2C 3C 4C AD KD QD"];
    let mut c = Compose::new(&hands, 2, 3);
    c.trump = Some("H");
    c.status = Some("DDAA");
    c.dog_used = true;
    c.chooser = Some(2);
    from_position(4, &c.text())
}

#[test]
fn kow_6_4_dogs_may_decline_the_lead_and_an_active_player_must_lead() {
    // KOW-6.4: dog 0 knocks, the lead passes to dog 1, who knocks too; seat 2 (ACTIVE) must
    // lead. W-4: the knocks cover the trick, so it ends after seats 2 and 3.
    let mut state = dogs_on_lead();
    assert_eq!(state.to_move(), Some(0));
    assert_eq!(legal(&state), ["play 9C", "knock"]);
    play(&mut state, &["0 knock"]);
    assert_eq!(state.to_move(), Some(1));
    assert_eq!(legal(&state), ["play 2D", "knock"]);
    play(&mut state, &["1 knock"]);
    assert_eq!(state.to_move(), Some(2));
    assert!(!legal(&state).contains(&"knock".to_string()));
    assert_eq!(legal(&state).len(), 6);
    play(&mut state, &["2 5C", "3 2C"]);
    assert_eq!(field(&state, "trick"), "-");
    assert_eq!(field(&state, "done"), "0:x,1:x,2:5C,3:2C");
    assert_eq!(won(&state), [0, 0, 1, 0]);
    assert_eq!(hand_sizes(&state), [1, 1, 5, 5]);
}

#[test]
fn kow_6_3_a_dog_may_knock_though_it_holds_the_suit_led() {
    // KOW-6.3: dog 0 holds 9C when clubs are led, and may still knock; the trick then goes
    // on without it (W-4).
    let mut state = dogs_on_lead();
    play(
        &mut state,
        &["0 knock", "1 knock", "2 5C", "3 2C", "2 6C", "3 3C"],
    );
    assert_eq!(state.to_move(), Some(0));
    assert_eq!(legal(&state), ["play 9C", "knock"]);
    play(&mut state, &["0 knock", "1 knock"]);
    assert_eq!(field(&state, "trick"), "-");
    assert_eq!(won(&state), [0, 0, 2, 0]);
}

#[test]
fn kow_ex_10_a_winning_dogs_lead_skips_seats_without_cards() {
    // KOW-EX-10 variant / KOW-6.5: dog 1 leads AS and wins; dog 2 played its only card in
    // that trick, so the lead goes past both to seat 3, the next seat holding cards.
    let hands = ["4S 5D 6D 7D 8D", "AS", "2S", "3S 2H 3H 4H 5H"];
    let mut c = Compose::new(&hands, 3, 0);
    c.trump = Some("C");
    c.status = Some("ADDA");
    c.dog_used = true;
    c.chooser = Some(0);
    let mut state = from_position(4, &c.text());
    assert_eq!(state.to_move(), Some(1));
    play(&mut state, &["1 AS", "2 2S", "3 3S", "0 4S"]);
    assert_eq!(won(&state), [0, 1, 0, 0]);
    assert_eq!(hand_sizes(&state), [4, 0, 0, 4]);
    assert_eq!(state.to_move(), Some(3));
}

#[test]
fn kow_6_5_dog_on_the_last_seat_wins_and_the_lead_wraps_round() {
    // KOW-6.5 across the end of the table: dog 3 wins with a trump, seat 0 leads next.
    let hands = ["2S 3S 4S 5S", "6S 7S 8S 9S", "10S JS QS KS", "2D"];
    let mut c = Compose::new(&hands, 4, 0);
    c.trump = Some("D");
    c.status = Some("AAAD");
    c.dog_used = true;
    c.chooser = Some(2);
    let mut state = from_position(4, &c.text());
    assert_eq!(state.to_move(), Some(1));
    play(&mut state, &["1 9S", "2 KS", "3 2D", "0 5S"]);
    assert_eq!(won(&state), [0, 0, 0, 1]);
    assert_eq!(state.to_move(), Some(0));
}

// KOW-5.4 The next dealer ---------------------------------------------------------------------

#[test]
fn kow_5_4_kow_8_2_a_player_knocked_out_still_deals_and_their_left_leads() {
    // KOW-8.2 / KOW-EX-4: hand 4, dealer P4, P2 and P5 out since hand 3. P1 takes no trick
    // and goes out, yet deals hand 5 (P5 is skipped, not having played hand 4); P3, the
    // first seat after P1 still in the game, leads hand 5.
    let hands = ["2H 3C 2S 2D", "", "AH 2C 3S 3D", "3H AC AS KD", ""];
    let mut c = Compose::new(&hands, 4, 3);
    c.trump = Some("S");
    c.status = Some("AOAAO");
    c.dog_used = true;
    c.out = "1@3,4@3";
    c.cuts = "2:5H,3:QD".into();
    c.chooser = Some(3);
    c.stacked = vec![complete_deck("AC KC AS KS 2H AH")];
    let mut state = from_position(5, &c.text());
    assert_eq!(state.to_move(), Some(0));
    play(
        &mut state,
        &["0 2H", "2 AH", "3 3H", "2 2C", "3 AC", "0 3C"],
    );
    play(
        &mut state,
        &["3 AS", "0 2S", "2 3S", "3 KD", "0 2D", "2 3D"],
    );
    assert_eq!(field(&state, "hand"), "5");
    assert_eq!(field(&state, "status"), "OOAAO");
    assert_eq!(field(&state, "out"), "1@3,4@3,0@4");
    assert_eq!(field(&state, "dealer"), "0");
    assert_eq!(field(&state, "chooser"), "3");
    assert_eq!(hand_of(&state, 2), ["AC", "2H", "AS"]);
    assert_eq!(hand_of(&state, 3), ["KC", "AH", "KS"]);
    assert_eq!(hand_sizes(&state), [0, 0, 3, 3, 0]);
    play(&mut state, &["3 trump D"]);
    assert_eq!(state.to_move(), Some(2));
}

// KOW-5.2 / KOW-7 The end of the game ---------------------------------------------------------

#[test]
fn w_7_hand_7_ends_the_game_and_gives_no_dogs_life() {
    // KOW-5.2 / W-7: hand 7's one trick decides the game, even with the dog's life still
    // unused: the two losers are OUT (not DOG), eliminated in hand 7.
    let mut c = Compose::new(&["KS", "AS", "2H"], 7, 0);
    c.trump = Some("H");
    c.chooser = Some(2);
    let mut state = from_position(3, &c.text());
    play(&mut state, &["1 AS", "2 2H", "0 KS"]);
    assert_eq!(state.to_move(), None);
    assert_eq!(state.legal_mask(), 0);
    assert_eq!(field(&state, "status"), "OOA");
    assert_eq!(field(&state, "out"), "0@7,1@7");
    assert_eq!(field(&state, "dog"), "unused");
    assert_eq!(&state.returns().unwrap()[..3], &[-0.5, -0.5, 1.0]);
}

#[test]
fn kow_7_returns_are_one_for_the_winner_and_an_even_share_of_minus_one() {
    // KOW-7 / docs: +1 to the winner, -1/(n-1) to everyone else; none before the end.
    let mut c = Compose::new(&["KS", "AS", "2H", "3H", "4H"], 7, 0);
    c.trump = Some("C");
    c.chooser = Some(2);
    let mut state = from_position(5, &c.text());
    assert_eq!(state.returns(), None);
    play(&mut state, &["1 AS", "2 2H", "3 3H", "4 4H", "0 KS"]);
    assert_eq!(
        &state.returns().unwrap()[..5],
        &[-0.25, 1.0, -0.25, -0.25, -0.25]
    );
}

// KOW-5.3 / W-2 Cutting for the chooser -------------------------------------------------------

/// Hand 6 of 5 players, dealer P1 (seat 0), dog's life used; after its two tricks the two
/// trick-winners are tied, the rest go out, and P2 (seat 1) deals hand 7 (KOW-5.4).
fn hand_six_tie(hands: [&str; 5], plays: &[&str], hand_seven: &str) -> KnockoutWhist {
    let mut c = Compose::new(&hands, 6, 0);
    c.trump = Some("S");
    c.dog_used = true;
    c.chooser = Some(0);
    c.stacked = vec![complete_deck(hand_seven)];
    let mut state = from_position(5, &c.text());
    play(&mut state, plays);
    state
}

#[test]
fn kow_ex_7_w_2_re_cut_when_cut_ranks_tie() {
    // KOW-EX-7 / W-2: tie {P3, P4}, dealer P2; the remainder begins 9C 9D 4S JH. P3 9C and
    // P4 9D tie on rank (suits never count), so they cut again: P3 4S, P4 JH, P4 chooses.
    let state = hand_six_tie(
        ["5C 4D", "2C 5D", "AC 2D", "3C AD", "4C 3D"],
        &[
            "1 2C", "2 AC", "3 3C", "4 4C", "0 5C", "2 2D", "3 AD", "4 3D", "0 4D", "1 5D",
        ],
        "KS QS 9C 9D 4S JH",
    );
    assert_eq!(field(&state, "hand"), "7");
    assert_eq!(field(&state, "dealer"), "1");
    assert_eq!(field(&state, "status"), "OOAAO");
    assert_eq!(hand_of(&state, 2), ["KS"]);
    assert_eq!(hand_of(&state, 3), ["QS"]);
    assert_eq!(field(&state, "cuts"), "2:9C,3:9D/2:4S,3:JH");
    assert_eq!(field(&state, "chooser"), "3");
    assert_eq!(state.to_move(), Some(3));
    // KOW-11.1: dealt + remainder + cut cards set aside = the whole pack.
    assert_eq!(field(&state, "stock").split(',').count(), 52 - 2 - 4);
}

#[test]
fn w_2_cut_order_is_clockwise_from_the_new_dealers_left() {
    // W-2: tie {P1, P4} with P2 dealing hand 7: P4 (seat 3) is first clockwise from the
    // dealer's left, so P4 gets the deal's first card and cuts first, before P1 (seat 0).
    let mut state = hand_six_tie(
        ["5C AD", "2C 4D", "3C 5D", "AC 2D", "4C 3D"],
        &[
            "1 2C", "2 3C", "3 AC", "4 4C", "0 5C", "3 2D", "4 3D", "0 AD", "1 4D", "2 5D",
        ],
        "KS QS 9C 9D 4S JH",
    );
    assert_eq!(field(&state, "status"), "AOOAO");
    assert_eq!(hand_of(&state, 3), ["KS"]);
    assert_eq!(hand_of(&state, 0), ["QS"]);
    assert_eq!(field(&state, "cuts"), "3:9C,0:9D/3:4S,0:JH");
    assert_eq!(field(&state, "chooser"), "0");
    play(&mut state, &["0 trump S"]);
    assert_eq!(state.to_move(), Some(3)); // KOW-4.1
}

// Dealer 6, so seat 0 leads; trumps spades (JS turned). Each seat takes exactly one trick.
const SEVEN_HANDS: [&str; 7] = [
    "AC 8C 7D QD 5H 10H 6S",
    "2C 2S 2D KD 6H JH 7S",
    "3C 9C AD 8D 7H QH 8S",
    "4C 10C 3D 3S 2H KH 9S",
    "5C JC 4D 9D AH 8H 10S",
    "6C QC 5D 10D 3H 4S 5S",
    "7C KC 6D JD 4H 9H AS",
];
const SEVEN_PLAY: [&str; 49] = [
    "0 AC", "1 2C", "2 3C", "3 4C", "4 5C", "5 6C", "6 7C", "0 8C", "1 2S", "2 9C", "3 10C",
    "4 JC", "5 QC", "6 KC", "1 2D", "2 AD", "3 3D", "4 4D", "5 5D", "6 6D", "0 7D", "2 8D", "3 3S",
    "4 9D", "5 10D", "6 JD", "0 QD", "1 KD", "3 2H", "4 AH", "5 3H", "6 4H", "0 5H", "1 6H",
    "2 7H", "4 8H", "5 4S", "6 9H", "0 10H", "1 JH", "2 QH", "3 KH", "5 5S", "6 AS", "0 6S",
    "1 7S", "2 8S", "3 9S", "4 10S",
];
// Hand 2 (dealer 0) deals 42 cards; the remainder's top seven are cut by seats 1 … 6, 0.
// Four aces tie (seats 1-4); only three cards remain, so the seven cut cards are shuffled
// in beneath them before the next round.
const FIRST_CUT: &str = "AS AH AD AC 2C 3C 4C";
const LAST_THREE: &str = "KS KH 5C";

fn seven_player_game(seed: i128, reshuffles: Vec<Vec<Card>>) -> KnockoutWhist {
    let dealt: Vec<&str> = (0..7)
        .flat_map(|r| {
            SEVEN_HANDS
                .iter()
                .map(move |h| h.split(' ').nth(r).unwrap())
        })
        .collect();
    let hand_one = deck_after(&[&dealt.join(" "), "JS QS KS"]);
    let cut = cards(&format!("{FIRST_CUT} {LAST_THREE}"));
    let mut hand_two: Vec<Card> = (0..52).filter(|c| !cut.contains(c)).collect();
    hand_two.extend(cut);
    let stacked = Stacked {
        decks: vec![hand_one, hand_two],
        reshuffles,
    };
    let mut state = KnockoutWhist::begin(&options(7, Some(6)), seed, 6, stacked).unwrap();
    play(&mut state, &SEVEN_PLAY);
    state
}

#[test]
fn kow_5_3_all_seven_tie_and_cut_from_the_dealers_left() {
    // KOW-5.3 / W-2: one trick each, so all seven cut, in the order 1 … 6, 0 (dealer 0);
    // four aces tie and re-cut. Nobody took no trick, so nobody is a dog (KOW-5.1).
    let state = seven_player_game(3, vec![]);
    assert_eq!(field(&state, "hand"), "2");
    assert_eq!(field(&state, "dealer"), "0");
    assert_eq!(field(&state, "status"), "AAAAAAA");
    assert_eq!(field(&state, "dog"), "unused");
    let cuts = field(&state, "cuts");
    let rounds: Vec<&str> = cuts.split('/').collect();
    assert_eq!(rounds[0], "1:AS,2:AH,3:AD,4:AC,5:2C,6:3C,0:4C");
    let second: Vec<&str> = rounds[1].split(',').map(|p| &p[..1]).collect();
    assert_eq!(second, ["1", "2", "3", "4"]);
    let chooser: usize = field(&state, "chooser").parse().unwrap();
    assert!((1..=4).contains(&chooser));
}

#[test]
fn kow_5_3_when_the_remainder_runs_out_the_cut_cards_are_reshuffled_from_the_seed() {
    // KOW-5.3: "if the remainder runs out, the cut cards are shuffled and used as the
    // remainder". The second round needs four cards and three remain: the seven set-aside
    // cut cards go, shuffled as `shuffled(seed, "cut 0", cards)` (SPEC §0.3), beneath KS
    // KH 5C, and the reshuffle is counted in `chance`.
    for seed in 0..6 {
        let state = seven_player_game(seed, vec![]);
        let order = shuffled(seed, "cut 0", &cards(FIRST_CUT), None);
        let cuts = field(&state, "cuts");
        let second = cuts.split('/').nth(1).unwrap();
        assert_eq!(second, format!("1:KS,2:KH,3:5C,4:{}", card_text(order[0])));
        assert_eq!(field(&state, "chance"), "2,1");
    }
}

#[test]
fn kow_5_3_a_recorded_reshuffle_decides_the_cut() {
    // With the reshuffle recorded as 4C 2C AC AS AH AD 3C: round 2 is 1:KS 2:KH 3:5C 4:4C,
    // kings tie, round 3 is 1:2C 2:AC, so seat 2 chooses; AS AH AD 3C are left undealt.
    let state = seven_player_game(3, vec![cards("4C 2C AC AS AH AD 3C")]);
    let cuts = field(&state, "cuts");
    assert_eq!(
        cuts.split('/').skip(1).collect::<Vec<_>>(),
        ["1:KS,2:KH,3:5C,4:4C", "1:2C,2:AC"]
    );
    assert_eq!(field(&state, "chooser"), "2");
    assert_eq!(state.to_move(), Some(2));
    assert_eq!(field(&state, "stock"), "AS,AH,AD,3C");
}

#[test]
#[should_panic(expected = "is not the set-aside cut cards")]
fn kow_5_3_a_recorded_reshuffle_of_other_cards_does_not_replay() {
    // KOW-5.3 / SPEC §0.4 (3): a recorded reshuffle must be an order of the set-aside cut
    // cards; Python refuses the record, and the core, which cannot refuse an action, panics.
    seven_player_game(3, vec![cards("AS AH AD AC 2C 3C 5C")]);
}

// Options -----------------------------------------------------------------------------------

fn read(pairs: &[(&str, OptionValue)]) -> Result<(usize, Option<usize>), String> {
    KnockoutWhist::options(&cardtable_core::options::pairs(pairs))
        .map(|o| (o.players, o.dealer))
        .map_err(|e| e.0)
}

#[test]
fn kow_1_1_w_11_options_as_python_reads_them() {
    // KOW-1.1: 2 to 7 players, 4 by default; W-11: the first dealer given or drawn.
    assert_eq!(read(&[]), Ok((4, None)));
    assert_eq!(read(&[("players", OptionValue::Int(7))]), Ok((7, None)));
    assert_eq!(
        read(&[
            ("players", OptionValue::Int(2)),
            ("dealer", OptionValue::Int(1))
        ]),
        Ok((2, Some(1)))
    );
    assert_eq!(read(&[("dealer", OptionValue::None)]), Ok((4, None)));
}

#[test]
fn kow_1_1_options_out_of_range_are_refused() {
    // KOW-1.1: fewer than 2 or more than 7 players, a bool or text for a count, a dealer
    // who is not a seat, and options the game has not are refused with Python's messages.
    let refused = [
        (
            vec![("players", OptionValue::Int(1))],
            "knockout-whist is for 2 to 7 players, not 1",
        ),
        (
            vec![("players", OptionValue::Int(8))],
            "knockout-whist is for 2 to 7 players, not 8",
        ),
        (
            vec![("players", OptionValue::Bool(true))],
            "knockout-whist is for 2 to 7 players, not True",
        ),
        (
            vec![("players", OptionValue::Str("4".into()))],
            "knockout-whist is for 2 to 7 players, not '4'",
        ),
        (
            vec![("players", OptionValue::None)],
            "knockout-whist is for 2 to 7 players, not None",
        ),
        (
            vec![("dealer", OptionValue::Int(4))],
            "dealer must be a seat 0-3, not 4",
        ),
        (
            vec![("dealer", OptionValue::Int(-1))],
            "dealer must be a seat 0-3, not -1",
        ),
        (
            vec![
                ("players", OptionValue::Int(3)),
                ("dealer", OptionValue::Bool(false)),
            ],
            "dealer must be a seat 0-2, not False",
        ),
        (
            vec![("seats", OptionValue::Int(3))],
            "knockout-whist has no option 'seats'; its options are dealer, players",
        ),
    ];
    for (pairs, message) in refused {
        assert_eq!(read(&pairs), Err(message.to_string()));
    }
}

#[test]
fn begin_refuses_a_dealer_or_deck_python_would_not_deal() {
    // SPEC §0.3: a stacked deck holds each card of the pack once (`read_deck`).
    let o = options(3, None);
    let deck = |d: Vec<Card>| Stacked {
        decks: vec![d],
        reshuffles: vec![],
    };
    assert!(KnockoutWhist::begin(&o, 1, 3, Stacked::default()).is_err());
    let mut repeated = pack();
    repeated[5] = 4;
    let e = KnockoutWhist::begin(&o, 1, 0, deck(repeated)).unwrap_err();
    assert_eq!(e.0, "deck 0 repeats 6C");
    let e = KnockoutWhist::begin(&o, 1, 0, deck(pack()[..50].to_vec())).unwrap_err();
    assert_eq!(e.0, "deck 0 has 50 cards, not 52; missing KS AS");
}

// The position notation -------------------------------------------------------------------------

const EX3_DEALT: &str = "AH JH JC 2D 6H 3S 4S AS 5S 6S KS KH 4H 3H AC 7D 5C";

/// KOW-EX-3 after trick 1 (P1 won it with JC, his only card) and P2's knock on the lead
/// (KOW-6.4, KOW-6.5): P3 (seat 2) is to lead trick 2.
fn ex3_trick_2() -> String {
    let dealt = cards(EX3_DEALT);
    let stock: Vec<String> = (0..52)
        .filter(|c| !dealt.contains(c))
        .map(card_text)
        .collect();
    format!(
        "kow/1 players=5 hand=3 dealer=2 phase=play trump=C turned=- dog=used status=DDAAA \
         out=- won=1,0,0,0,0 cuts=- chooser=3 hands=-/2D/5C,3H,KS,AS/AC,KH,3S,5S/7D,4H,4S,6S \
         stock={} done=3:AH,4:JH,0:JC,1:x,2:6H trick=1:x seed=17 chance=3,0",
        stock.join(",")
    )
}

#[test]
fn hand_written_position_gives_the_expected_state() {
    // KOW-EX-3, trick 2: P2 (a dog) has knocked on the lead, so P3 must lead; cards may be
    // listed in any order and spelt any way, and are written back canonically (SPEC §0.2).
    let text = ex3_trick_2();
    let mut state = from_position(5, &text);
    assert_eq!(state.position(), text);
    let scrambled = text.replace("AC,KH,3S,5S", "5s,3S,K♥,AC");
    assert_eq!(from_position(5, &scrambled).position(), text);
    assert_eq!(state.to_move(), Some(2));
    assert_eq!(legal(&state), ["play 5C", "play 3H", "play KS", "play AS"]);
    play(&mut state, &["2 AS", "3 3S", "4 4S"]);
    assert_eq!(won(&state), [1, 0, 1, 0, 0]);
    assert_eq!(field(&state, "trick"), "-");
    assert_eq!(state.to_move(), Some(2));
}

#[test]
fn every_prefix_of_a_position_is_refused() {
    let text = ex3_trick_2();
    for end in 0..text.len() {
        if text.is_char_boundary(end) {
            assert!(KnockoutWhist::from_position(&options(5, None), &text[..end]).is_err());
        }
    }
}

fn refused(text: &str) -> String {
    KnockoutWhist::from_position(&options(5, None), text)
        .err()
        .unwrap_or_else(|| panic!("accepted: {text}"))
        .0
}

#[test]
fn position_errors_name_their_field() {
    // Errors say what is wrong and where, as the Python parser's do.
    let text = ex3_trick_2();
    assert_eq!(
        refused(&text.replace("kow/1", "kow/2")),
        "a knockout-whist position starts with 'kow/1'"
    );
    assert!(refused(&text.replace("players=5", "players=4")).contains("this game has 5 players"));
    assert!(refused(&text.replace(" chance=3,0", "")).contains("missing: [\"chance\"]"));
    assert!(refused(&text.replace("status=DDAAA", "status=DDAAX"))
        .starts_with("position field status="));
    // KOW-11.1: a card twice, a card missing.
    assert!(refused(&text.replace("hands=-/2D", "hands=2D/2D")).contains("a card appears twice"));
    assert!(refused(&text.replace("hands=-/2D", "hands=-/-")).contains("cards are missing: 2D"));
    // KOW-6.3: only a dog knocks.
    assert!(refused(&text.replace("1:x,2:6H", "2:x,1:6H")).contains("knocks but is not a dog"));
    // KOW-11.3 / KOW-11.2: trick counts and hand sizes add up.
    assert!(refused(&text.replace("won=1,0", "won=0,0")).contains("add up to 0, not 1"));
    assert!(refused(&text.replace("trick=1:x", "trick=1:x,2:5C")).contains("position field hands="));
    // KOW-3.1: hand 1's trump is the turned card's suit.
    let hand_one = "kow/1 players=2 hand=1 dealer=0 phase=play trump=C turned=2D";
    assert!(KnockoutWhist::from_position(&options(2, None), hand_one).is_err());
}

#[test]
fn position_keeps_decks_stacked_for_later_hands() {
    // SPEC §0.3: stacked decks are dealt in order; a position written before hand 2 still
    // deals hand 2's stacked deck when read back.
    let reversed: Vec<Card> = (0..52).rev().collect();
    let mut state = stacked_game(2, 0, 1, &[reversed, pack()]);
    let all: Vec<String> = (0..52).map(card_text).collect();
    assert!(state
        .position()
        .ends_with(&format!("stacked={}", all.join(","))));
    let mut copy = KnockoutWhist::from_position(&options(2, None), &state.position()).unwrap();
    while field(&state, "hand") == "1" {
        let first = state.legal_mask().trailing_zeros() as usize;
        state.apply(first);
        copy.apply(first);
    }
    assert_eq!(copy.position(), state.position());
    assert!(!state.position().contains("stacked="));
}
