//! The worked examples KOW-EX-1 … KOW-EX-11 of rules/EXAMPLES.md, Part 3, replayed through
//! the core as `tests/rules/test_knockout_whist_examples.py` replays them through the Python
//! engine: the same stacked decks and actions, the outcomes the examples state.
//!
//! Seats: P1 … P5 are seats 0 … 4, clockwise; X, Y, Z are seats 0 … 2. KOW-EX-1 … KOW-EX-6
//! are one continuous five-player game (dealer P1), played as a whole from one stacked deck
//! per hand, and hand by hand from constructed positions. Trick totals are read from the
//! position; they start afresh when a hand ends, so a hand's totals are checked just before
//! its last trick, and their effects (statuses, dog's life, chooser, cut) after it.

mod knockout_whist_support;

use std::collections::{BTreeMap, BTreeSet};

use cardtable_core::cards::card_text;
use cardtable_core::game::actions_of;
use cardtable_core::KnockoutWhist;
use knockout_whist_support::*;

const P1: usize = 0;
const P2: usize = 1;
const P3: usize = 2;
const P4: usize = 3;
const P5: usize = 4;
const X: usize = 0;
const Y: usize = 1;
const Z: usize = 2;

struct Trick {
    line: &'static str,
    winner: usize,
    /// Seat → the legal actions the example states, comma-separated.
    legal: &'static [(usize, &'static str)],
}

const fn t(line: &'static str, winner: usize) -> Trick {
    Trick {
        line,
        winner,
        legal: &[],
    }
}

struct Hand {
    number: u8,
    deck: &'static str,
    dealer: usize,
    status: &'static str,
    dog_used: bool,
    out: &'static str,
    hands: [&'static str; 5],
    cuts: &'static [&'static str],
    chooser: Option<usize>,
    trump: &'static str,
    leader: usize,
    tricks: &'static [Trick],
    totals: [u32; 5],
    turned: Option<&'static str>,
}

const HAND_1: Hand = Hand {
    number: 1,
    deck: "7C 9C 4C JD 10C 3H 8D 4H KH 2H 6S AS 3S 4S 5S 10S KS 7S 8S 9S QC 5C 6C 5H 8C 6H \
           2S AH 7H 8H 3C QS 2C 9H KC | 3D | JC AC 2D 4D 5D 6D 7D 9D 10D QD KD AD 10H JH QH JS",
    dealer: P1,
    status: "AAAAA",
    dog_used: false,
    out: "-",
    hands: [
        "10C 2H 5S 9S 8C 8H KC",
        "7C 3H 6S 10S QC 6H 3C",
        "9C 8D AS KS 5C 2S QS",
        "4C 4H 3S 7S 6C AH 2C",
        "JD KH 4S 8S 5H 7H 9H",
    ],
    cuts: &[],
    chooser: None,
    trump: "D",
    leader: P2,
    tricks: &[
        Trick {
            line: "P2 7C, P3 9C, P4 4C, P5 JD, P1 10C",
            winner: P5,
            legal: &[(
                P5,
                "play JD, play 5H, play 7H, play 9H, play KH, play 4S, play 8S",
            )],
        },
        Trick {
            line: "P5 KH, P1 2H, P2 3H, P3 8D, P4 4H",
            winner: P3,
            legal: &[
                (P3, "play 5C, play 8D, play 2S, play QS, play KS, play AS"),
                (P4, "play 4H, play AH"),
            ],
        },
        t("P3 AS, P4 3S, P5 4S, P1 5S, P2 6S", P3),
        t("P3 KS, P4 7S, P5 8S, P1 9S, P2 10S", P3),
        t("P3 5C, P4 6C, P5 5H, P1 8C, P2 QC", P2),
        t("P2 6H, P3 2S, P4 AH, P5 7H, P1 8H", P4),
        t("P4 2C, P5 9H, P1 KC, P2 3C, P3 QS", P1),
    ],
    totals: [1, 1, 3, 1, 1],
    turned: Some("3D"),
};

const HAND_2: Hand = Hand {
    number: 2,
    deck: "AH 2H 3H 4H 5H 2C AC 3C 4C 5C 5S AS 2S 3S 4S 9S KS 6S 7S 8S 5D AD 2D 3D 4D 9D 6D \
           KD 7D 8D 6C 7C 8C 9C 10C JC QC KC 10D JD QD 6H 7H 8H 9H 10H JH QH KH 10S JS QS",
    dealer: P2,
    status: "AAAAA",
    dog_used: false,
    out: "-",
    hands: [
        "4H 4C 3S 7S 3D 7D",
        "5H 5C 4S 8S 4D 8D",
        "AH 2C 5S 9S 5D 9D",
        "2H AC AS KS AD 6D",
        "3H 3C 2S 6S 2D KD",
    ],
    cuts: &[],
    chooser: Some(P3),
    trump: "H",
    leader: P3,
    tricks: &[
        t("P3 AH, P4 2H, P5 3H, P1 4H, P2 5H", P3),
        t("P3 2C, P4 AC, P5 3C, P1 4C, P2 5C", P4),
        t("P4 AS, P5 2S, P1 3S, P2 4S, P3 5S", P4),
        t("P4 KS, P5 6S, P1 7S, P2 8S, P3 9S", P4),
        t("P4 AD, P5 2D, P1 3D, P2 4D, P3 5D", P4),
        t("P4 6D, P5 KD, P1 7D, P2 8D, P3 9D", P5),
    ],
    totals: [0, 0, 1, 4, 1],
    turned: None,
};

const HAND_3: Hand = Hand {
    number: 3,
    deck: "AH JH JC 2D 6H 3S 4S AS 5S 6S KS KH 4H 3H AC 7D 5C",
    dealer: P3,
    status: "DDAAA",
    dog_used: true,
    out: "-",
    hands: [
        "JC",
        "2D",
        "6H AS KS 3H 5C",
        "AH 3S 5S KH AC",
        "JH 4S 6S 4H 7D",
    ],
    cuts: &[],
    chooser: Some(P4),
    trump: "C",
    leader: P4,
    tricks: &[
        Trick {
            line: "P4 AH, P5 JH, P1 JC, P2 knock, P3 6H",
            winner: P1,
            legal: &[(P1, "play JC, knock"), (P2, "play 2D, knock")],
        },
        // P1 won with his only card: the lead passes to P2 (a dog), who knocks, then to
        // P3, who must lead (KOW-6.4, KOW-6.5).
        Trick {
            line: "P2 knock, P3 AS, P4 3S, P5 4S",
            winner: P3,
            legal: &[
                (P2, "play 2D, knock"),
                (P3, "play 5C, play 3H, play KS, play AS"),
            ],
        },
        t("P3 KS, P4 5S, P5 6S, P2 knock", P3),
        t("P3 3H, P4 KH, P5 4H, P2 knock", P4),
        // W-3: no knock on the last trick.
        Trick {
            line: "P4 AC, P5 7D, P2 2D, P3 5C",
            winner: P4,
            legal: &[(P2, "play 2D")],
        },
    ],
    totals: [1, 0, 2, 2, 0],
    turned: None,
};

const HAND_4: Hand = Hand {
    number: 4,
    deck: "2H AH 3H 3C 2C AC 2S 3S AS 2D 3D KD | 5H QD",
    dealer: P4,
    status: "AOAAO",
    dog_used: true,
    out: "1@3,4@3",
    hands: ["2H 3C 2S 2D", "", "AH 2C 3S 3D", "3H AC AS KD", ""],
    cuts: &["P3 5H, P4 QD"],
    chooser: Some(P4),
    trump: "S",
    leader: P1,
    tricks: &[
        t("P1 2H, P3 AH, P4 3H", P3),
        t("P3 2C, P4 AC, P1 3C", P4),
        t("P4 AS, P1 2S, P3 3S", P4),
        t("P4 KD, P1 2D, P3 3D", P4),
    ],
    totals: [0, 0, 1, 3, 0],
    turned: None,
};

const HAND_5: Hand = Hand {
    number: 5,
    deck: "AC KC AS KS 2H AH",
    dealer: P1,
    status: "OOAAO",
    dog_used: true,
    out: "1@3,4@3,0@4",
    hands: ["", "", "AC AS 2H", "KC KS AH", ""],
    cuts: &[],
    chooser: Some(P4),
    trump: "D",
    leader: P3,
    tricks: &[
        t("P3 AC, P4 KC", P3),
        t("P3 AS, P4 KS", P3),
        t("P3 2H, P4 AH", P4),
    ],
    totals: [0, 0, 2, 1, 0],
    turned: None,
};

const HAND_6: Hand = Hand {
    number: 6,
    deck: "AH KH 2S AS",
    dealer: P3,
    status: "OOAAO",
    dog_used: true,
    out: "1@3,4@3,0@4",
    hands: ["", "", "KH AS", "AH 2S", ""],
    cuts: &[],
    chooser: Some(P3),
    trump: "C",
    leader: P4,
    tricks: &[t("P4 AH, P3 KH", P4), t("P4 2S, P3 AS", P3)],
    totals: [0, 0, 1, 1, 0],
    turned: None,
};

const HAND_7: Hand = Hand {
    number: 7,
    deck: "AS 2H | 9C KD",
    dealer: P4,
    status: "OOAAO",
    dog_used: true,
    out: "1@3,4@3,0@4",
    hands: ["", "", "AS", "2H", ""],
    cuts: &["P3 9C, P4 KD"],
    chooser: Some(P4),
    trump: "H",
    leader: P3,
    tricks: &[Trick {
        line: "P3 AS, P4 2H",
        winner: P4,
        legal: &[(P4, "play 2H")],
    }],
    totals: [0, 0, 0, 1, 0],
    turned: None,
};

const GAME: [&Hand; 7] = [
    &HAND_1, &HAND_2, &HAND_3, &HAND_4, &HAND_5, &HAND_6, &HAND_7,
];

fn set(items: impl IntoIterator<Item = String>) -> BTreeSet<String> {
    items.into_iter().collect()
}

fn set_of(text: &str) -> BTreeSet<String> {
    set(text.split(", ").map(String::from))
}

fn cuts_text(hand: &Hand) -> String {
    if hand.cuts.is_empty() {
        "-".into()
    } else {
        hand.cuts
            .iter()
            .map(|l| seat_cards(l))
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The public facts of `hand` at its deal, and each seat's cards (KOW-2, KOW-3, KOW-5.3).
fn check_deal(state: &KnockoutWhist, hand: &Hand) {
    let size = 8 - usize::from(hand.number);
    assert_eq!(field(state, "hand"), hand.number.to_string());
    assert_eq!(field(state, "dealer"), hand.dealer.to_string());
    assert_eq!(field(state, "status"), hand.status);
    let dog = if hand.dog_used { "used" } else { "unused" };
    assert_eq!(field(state, "dog"), dog);
    assert_eq!(field(state, "out"), hand.out);
    let sizes: Vec<usize> = hand
        .status
        .chars()
        .map(|c| match c {
            'A' => size,
            'D' => 1,
            _ => 0,
        })
        .collect();
    assert_eq!(hand_sizes(state), sizes);
    assert_eq!(won(state), vec![0; 5]);
    assert_eq!(field(state, "cuts"), cuts_text(hand));
    for seat in 0..5 {
        assert_eq!(
            hand_of(state, seat),
            by_index(hand.hands[seat]),
            "seat {seat}"
        );
    }
    assert_eq!(field(state, "turned"), hand.turned.unwrap_or("-"));
    if hand.number == 1 {
        assert_eq!(field(state, "chooser"), "-");
        assert_eq!(field(state, "trump"), hand.trump);
    } else {
        assert_eq!(field(state, "phase"), "trump");
        assert_eq!(field(state, "trump"), "-");
        assert_eq!(state.to_move(), hand.chooser);
        // KOW-3.2: any of the four suits, never no-trump.
        assert_eq!(legal(state), ["trump C", "trump D", "trump H", "trump S"]);
    }
}

/// Trumps named after the deal (W-1); then the leader of KOW-4.1 is to move.
fn open_play(state: &mut KnockoutWhist, hand: &Hand) {
    if hand.number > 1 {
        act(
            state,
            hand.chooser.unwrap(),
            &format!("trump {}", hand.trump),
        );
    }
    assert_eq!(field(state, "phase"), "play");
    assert_eq!(field(state, "trump"), hand.trump);
    assert_eq!(state.to_move(), Some(hand.leader));
}

/// The hand's tricks: whose turn at every step, the legal actions the example states, each
/// trick's cards and winner (KOW-4), and the hand's totals.
fn play_tricks(state: &mut KnockoutWhist, hand: &Hand) {
    let mut tally = [0u32; 5];
    for (number, trick) in hand.tricks.iter().enumerate() {
        let last = number + 1 == hand.tricks.len();
        if last {
            assert_eq!(won(state), tally);
            tally[trick.winner] += 1;
            assert_eq!(tally, hand.totals, "hand {} totals", hand.number);
        }
        let stated: BTreeMap<usize, &str> = trick.legal.iter().copied().collect();
        for (seat, action) in named_plays(trick.line) {
            if let Some(listed) = stated.get(&seat) {
                assert_eq!(set(legal(state)), set_of(listed), "{action}");
            }
            act(state, seat, &action);
        }
        if !last {
            tally[trick.winner] += 1;
            assert_eq!(
                won(state),
                tally,
                "hand {} trick {}",
                hand.number,
                number + 1
            );
            let done = field(state, "done");
            assert_eq!(
                done.split('/').next_back(),
                Some(seat_cards(trick.line).as_str())
            );
        }
    }
}

fn play_hand(state: &mut KnockoutWhist, hand: &Hand) {
    check_deal(state, hand);
    open_play(state, hand);
    play_tricks(state, hand);
}

fn base(hand: &Hand) -> Compose {
    let mut c = Compose::new(&hand.hands, hand.number, hand.dealer);
    c.status = Some(hand.status);
    c.dog_used = hand.dog_used;
    c.out = hand.out;
    c.chooser = hand.chooser;
    c.seed = 5;
    c
}

/// A constructed state at `hand`'s trump choice; `later` hands' decks stacked.
fn start_of_hand(hand: &Hand, later: &[&Hand]) -> KnockoutWhist {
    let mut c = base(hand);
    c.phase = "trump";
    c.cuts = cuts_text(hand);
    c.stacked = later.iter().map(|h| complete_deck(h.deck)).collect();
    from_position(5, &c.text())
}

/// A constructed state in `hand`'s last trick with one card left to play.
fn before_last_card(hand: &Hand, later: &[&Hand]) -> KnockoutWhist {
    let (earlier, last) = hand.tricks.split_at(hand.tricks.len() - 1);
    let plays = named_plays(last[0].line);
    let (final_seat, final_action) = plays.last().unwrap().clone();
    let card = final_action.split(' ').nth(1).unwrap();
    let mut held = vec![String::new(); 5];
    held[final_seat] = card.to_string();
    let mut won = vec![0; 5];
    for trick in earlier {
        won[trick.winner] += 1;
    }
    let played: Vec<String> = plays[..plays.len() - 1]
        .iter()
        .map(|(s, a)| {
            let c = if a == "knock" {
                "x"
            } else {
                a.split(' ').nth(1).unwrap()
            };
            format!("{s}:{c}")
        })
        .collect();
    let done: Vec<String> = earlier.iter().map(|t| seat_cards(t.line)).collect();
    let mut c = base(hand);
    c.hands = held;
    c.trump = Some(hand.trump);
    c.turned = hand.turned;
    c.won = Some(won);
    c.cuts = cuts_text(hand);
    c.done = done.join("/");
    c.trick = played.join(",");
    c.stacked = later.iter().map(|h| complete_deck(h.deck)).collect();
    from_position(5, &c.text())
}

/// KOW-EX-6 expected: P4 wins after hand 7 (KOW-5.2, W-7), the others knocked out in
/// hands 3, 4 and 7 (KOW-7); +1 to the winner, -1/4 to the rest.
fn assert_game_won_by_p4(state: &KnockoutWhist) {
    assert_eq!(state.to_move(), None);
    assert_eq!(field(state, "phase"), "over");
    assert_eq!(state.legal_mask(), 0);
    assert_eq!(field(state, "status"), "OOOAO");
    assert_eq!(field(state, "out"), "1@3,4@3,0@4,2@7");
    let r = state.returns().expect("over");
    assert_eq!(&r[..5], &[-0.25, -0.25, -0.25, 1.0, -0.25]);
}

#[test]
fn kow_ex_1_to_6_the_whole_walkthrough_game() {
    // KOW-EX-1 … KOW-EX-6 as one game from a stacked deck per hand: deal order (KOW-2.3),
    // trumps (KOW-3), trick play (KOW-4), end of hand (KOW-5), dog's life (KOW-6), cuts
    // (W-2), dealer and leader rotation (KOW-5.4, W-5), the winner (KOW-5.2, W-7).
    let decks: Vec<_> = GAME.iter().map(|h| complete_deck(h.deck)).collect();
    let mut state = stacked_game(5, P1, 11, &decks);
    let (mut dealers, mut leaders, mut sizes) = (vec![], vec![], vec![]);
    for hand in GAME {
        check_deal(&state, hand);
        dealers.push(field(&state, "dealer").parse::<usize>().unwrap());
        sizes.push(8 - hand.number);
        open_play(&mut state, hand);
        leaders.push(state.to_move().unwrap());
        play_tricks(&mut state, hand);
    }
    assert_game_won_by_p4(&state);
    assert_eq!(sizes, [7, 6, 5, 4, 3, 2, 1]);
    assert_eq!(dealers, [P1, P2, P3, P4, P1, P3, P4]);
    assert_eq!(leaders, [P2, P3, P4, P1, P3, P4, P3]);
    assert_eq!(field(&state, "chance"), "7,0");
}

#[test]
fn kow_ex_1_turned_card_sets_trumps_and_dealers_left_leads() {
    // KOW-EX-1, KOW-3.1, KOW-4.1: the top undealt card 3D is turned (diamonds trump) and is
    // in no hand; P2, the dealer's left, leads from the hand the deal gave.
    let state = stacked_game(5, P1, 3, &[complete_deck(HAND_1.deck)]);
    check_deal(&state, &HAND_1);
    assert_eq!(field(&state, "turned"), "3D");
    assert!((0..5).all(|s| !hand_of(&state, s).contains(&"3D".to_string())));
    assert_eq!(state.to_move(), Some(P2));
    let leads: Vec<String> = by_index(HAND_1.hands[P2])
        .iter()
        .map(|c| format!("play {c}"))
        .collect();
    assert_eq!(legal(&state), leads);
}

#[test]
fn kow_ex_1_hand_one_tricks_totals_and_chooser() {
    // KOW-EX-1: tricks P1 1, P2 1, P3 3, P4 1, P5 1; P5 may trump with JD, P3 with 8D, P4
    // must follow hearts (KOW-4.2); nobody out, the dog's life unused (KOW-5.1); P3 chooses
    // (KOW-5.3); P2 deals hand 2 of 6 cards and P3 leads (KOW-5.4).
    let decks = [complete_deck(HAND_1.deck), complete_deck(HAND_2.deck)];
    let mut state = stacked_game(5, P1, 3, &decks);
    play_hand(&mut state, &HAND_1);
    check_deal(&state, &HAND_2);
    assert_eq!(hand_sizes(&state), [6; 5]);
    open_play(&mut state, &HAND_2);
}

#[test]
fn kow_ex_2_two_players_take_the_dogs_life_at_once() {
    // KOW-EX-2: P3 names hearts after the deal (W-1) and leads; tricks P3 1, P4 4, P5 1,
    // P1 0, P2 0; P1 and P2 both become dogs and the dog's life is used (KOW-5.1, W-6); P4
    // chooses; P3 deals hand 3, the dogs one card, the others 5 (KOW-2.2).
    let mut state = start_of_hand(&HAND_2, &[&HAND_3]);
    play_hand(&mut state, &HAND_2);
    check_deal(&state, &HAND_3);
    assert_eq!(field(&state, "status"), "DDAAA");
}

#[test]
fn kow_ex_2_deal_order_from_the_dealers_left() {
    // KOW-EX-2, KOW-2.3: dealer P2 deals one card at a time starting with P3.
    let mut state = before_last_card(&HAND_1, &[&HAND_2]);
    act(&mut state, P3, "play QS");
    check_deal(&state, &HAND_2);
}

#[test]
fn kow_ex_3_hand_three_with_two_dogs() {
    // KOW-EX-3: P1 (dog) may play JC or knock and wins trick 1 with it; P2 (dog) may lead 2D
    // or knock at the start of trick 2, knocks, and P3 must lead (KOW-6.3 … KOW-6.5, W-4);
    // P2 must play 2D on the last trick (W-3). Tricks P1 1, P2 0, P3 2, P4 2, P5 0.
    let mut state = start_of_hand(&HAND_3, &[&HAND_4]);
    check_deal(&state, &HAND_3);
    open_play(&mut state, &HAND_3);
    play_tricks(&mut state, &HAND_3);
}

#[test]
fn kow_ex_3_knock_outs_tie_and_next_dealer() {
    // KOW-EX-3 expected: P1 active again, P2 and P5 out as the dog's life is used (KOW-5.1,
    // KOW-6.6, KOW-6.7); P3 and P4 tied and cut (KOW-5.3); P4 played hand 3 and deals hand
    // 4 (KOW-5.4); P1 leads, as P5 is out (KOW-4.1).
    let mut state = start_of_hand(&HAND_3, &[&HAND_4]);
    play_hand(&mut state, &HAND_3);
    assert_eq!(field(&state, "status"), "AOAAO");
    assert_eq!(field(&state, "out"), "1@3,4@3");
    assert_eq!(field(&state, "cuts"), "2:5H,3:QD");
    check_deal(&state, &HAND_4);
    open_play(&mut state, &HAND_4);
}

#[test]
fn kow_ex_3_a_knock_gives_no_second_turn_in_the_trick() {
    // KOW-EX-3 trick 1, KOW-6.3, W-4: after P2 knocks, P3 plays and the trick is taken
    // without P2 acting again.
    let mut state = start_of_hand(&HAND_3, &[]);
    open_play(&mut state, &HAND_3);
    for (seat, action) in named_plays("P4 AH, P5 JH, P1 JC, P2 knock") {
        act(&mut state, seat, &action);
    }
    assert_eq!(state.to_move(), Some(P3));
    act(&mut state, P3, "play 6H");
    assert_eq!(field(&state, "done"), "3:AH,4:JH,0:JC,1:x,2:6H");
    assert_eq!(won(&state), [1, 0, 0, 0, 0]);
    assert_eq!(hand_sizes(&state), [0, 1, 4, 4, 4]);
    assert_eq!(state.to_move(), Some(P2));
}

#[test]
fn kow_ex_3_an_active_player_cannot_knock() {
    // KOW-EX-3, KOW-6.4: the knock is for dogs; P4 (active) must lead a card.
    let mut state = start_of_hand(&HAND_3, &[]);
    open_play(&mut state, &HAND_3);
    assert!(!legal(&state).contains(&"knock".to_string()));
}

#[test]
fn kow_ex_4_the_cut_decides_the_chooser() {
    // KOW-EX-4, KOW-5.3, W-2: after hand 4 is dealt, P3 then P4 (clockwise from the dealer's
    // left) cut 5H and QD from the remainder; ranks only, so P4 chooses. The cut cards are
    // public, in no hand, and set aside.
    let mut state = before_last_card(&HAND_3, &[&HAND_4]);
    act(&mut state, P3, "play 5C");
    check_deal(&state, &HAND_4);
    assert_eq!(field(&state, "cuts"), "2:5H,3:QD");
    let stock = field(&state, "stock");
    let stock: Vec<&str> = stock.split(',').collect();
    assert!(!stock.contains(&"5H") && !stock.contains(&"QD"));
    assert_eq!(stock.len(), 52 - 12 - 2);
}

#[test]
fn kow_ex_4_knocked_out_player_still_deals() {
    // KOW-EX-4, KOW-5.4, KOW-6.7, KOW-8.2, W-5: P1 takes no trick in hand 4 and is out, yet
    // deals hand 5 (P5 did not play hand 4 and is skipped); P3 leads hand 5.
    let mut state = before_last_card(&HAND_3, &[&HAND_4, &HAND_5]);
    act(&mut state, P3, "play 5C");
    play_hand(&mut state, &HAND_4);
    assert_eq!(field(&state, "status"), "OOAAO");
    assert!(field(&state, "out").ends_with("0@4"));
    check_deal(&state, &HAND_5);
    open_play(&mut state, &HAND_5);
}

#[test]
fn kow_ex_5_hands_five_and_six() {
    // KOW-EX-5: hand 5 dealt by P1 (out), led by P3; P3 takes 2 and chooses; P3 deals hand
    // 6, P4 leads; hand 6 ends 1-1, so P4 deals hand 7 after a cut (KOW-5.3, KOW-5.4).
    let mut state = start_of_hand(&HAND_5, &[&HAND_6, &HAND_7]);
    play_hand(&mut state, &HAND_5);
    play_hand(&mut state, &HAND_6);
    check_deal(&state, &HAND_7);
}

#[test]
fn kow_ex_6_the_final_hand() {
    // KOW-EX-6: P3 cuts 9C, P4 KD, so P4 names hearts; P3 leads AS, P4 has no spades and
    // wins with 2H (KOW-4.3). Hand 7 ends the game: P4 wins (KOW-5.2, W-7).
    let mut state = before_last_card(&HAND_6, &[&HAND_7]);
    act(&mut state, P3, "play AS");
    play_hand(&mut state, &HAND_7);
    assert_game_won_by_p4(&state);
}

#[test]
fn kow_ex_7_recut_when_cut_ranks_tie() {
    // KOW-EX-7, KOW-5.3, W-2: P3 and P4 tie hand 4 (P1 and P2 go out, dealer P1), so P2
    // deals hand 5. The remainder begins 9C 9D 4S JH: P3 9C and P4 9D tie on rank (suits
    // never count), they cut again, P3 4S and P4 JH, and P4 chooses; four cut cards public.
    let mut c = Compose::new(&["", "", "6D", "", ""], 4, P1);
    c.status = Some("AAAAO");
    c.dog_used = true;
    c.out = "4@3";
    c.trump = Some("H");
    c.chooser = Some(P2);
    c.won = Some(vec![0, 0, 2, 1, 0]);
    c.done = "1:2D,2:AD,3:7D,0:2C/2:AC,3:7C,0:3C,1:3D/2:6C,3:AH,0:4C,1:4D".into();
    c.trick = "3:KH,0:5C,1:5D".into();
    c.seed = 5;
    c.stacked = vec![complete_deck("AS KS QS JS 10S 9S | 9C 9D 4S JH")];
    let mut state = from_position(5, &c.text());
    act(&mut state, P3, "play 6D");
    assert_eq!(field(&state, "status"), "OOAAO");
    assert_eq!(field(&state, "dealer"), P2.to_string());
    assert_eq!(field(&state, "cuts"), "2:9C,3:9D/2:4S,3:JH");
    assert_eq!(field(&state, "chooser"), P4.to_string());
    assert_eq!(state.to_move(), Some(P4));
    assert_eq!(hand_of(&state, P3), ["10S", "QS", "AS"]);
    assert_eq!(hand_of(&state, P4), ["9S", "JS", "KS"]);
    let stock = field(&state, "stock");
    assert_eq!(stock.split(',').count(), 52 - 6 - 4);
    assert!(["9C", "9D", "4S", "JH"]
        .iter()
        .all(|c| !stock.split(',').any(|s| s == *c)));
    act(&mut state, P4, "trump S");
    assert_eq!(state.to_move(), Some(P3));
}

#[test]
fn kow_ex_8_seven_players_turn_card_49() {
    // KOW-EX-8, KOW-3.1, KOW-2.3: with 7 players 49 cards are dealt from seat 1, card 49
    // (5S) is turned and makes spades trumps; it is in no hand; the 2 cards below it (KS, AS
    // here) stay undealt.
    let others: Vec<u8> = complete_deck("")
        .into_iter()
        .filter(|&c| card_text(c) != "5S")
        .collect();
    let mut deck = others[..49].to_vec();
    deck.push(cards("5S")[0]);
    deck.extend_from_slice(&others[49..]);
    let state = stacked_game(7, 0, 2, std::slice::from_ref(&deck));
    assert_eq!(field(&state, "trump"), "S");
    assert_eq!(field(&state, "turned"), "5S");
    assert_eq!(field(&state, "stock"), "KS,AS");
    assert_eq!(hand_sizes(&state), [7; 7]);
    assert_eq!(state.to_move(), Some(1));
    for seat in 0..7 {
        let expected: Vec<u8> = deck[(seat + 6) % 7..49]
            .iter()
            .step_by(7)
            .copied()
            .collect();
        let mut expected: Vec<String> = expected.into_iter().map(card_text).collect();
        expected.sort_by_key(|c| cards(c)[0]);
        assert_eq!(hand_of(&state, seat), expected, "seat {seat}");
    }
}

fn kow_ex_9_start(stacked: Vec<Vec<u8>>) -> KnockoutWhist {
    // KOW-EX-9's start: hand 6 of three players, dealer Z, X a dog with AD, clubs trump.
    let mut c = Compose::new(&["AD", "2C 3C", "KC 4H"], 6, Z);
    c.status = Some("DAA");
    c.dog_used = true;
    c.trump = Some("C");
    c.chooser = Some(Y);
    c.seed = 5;
    c.stacked = stacked;
    from_position(3, &c.text())
}

#[test]
fn kow_ex_9_dog_declines_the_lead_and_must_play_last() {
    // KOW-EX-9, KOW-6.3, KOW-6.4, W-3, W-4: X (dog, dealer's left) may lead AD or knock, and
    // knocks; Y must lead; Z must follow with KC; X gets no further turn and Z wins. On the
    // last trick X must play AD; Y trumps with 3C and wins. X is out (KOW-6.6).
    let mut state = kow_ex_9_start(vec![complete_deck("AS KD | QC 2H")]);
    assert_eq!(state.to_move(), Some(X));
    assert_eq!(legal(&state), ["play AD", "knock"]);
    act(&mut state, X, "knock");
    assert_eq!(legal(&state), ["play 2C", "play 3C"]);
    act(&mut state, Y, "play 2C");
    assert_eq!(legal(&state), ["play KC"]);
    act(&mut state, Z, "play KC");
    assert_eq!(field(&state, "done"), "0:x,1:2C,2:KC");
    assert_eq!(state.to_move(), Some(Z));
    act(&mut state, Z, "play 4H");
    assert_eq!(state.to_move(), Some(X));
    assert_eq!(legal(&state), ["play AD"]);
    assert_eq!(won(&state), [0, 0, 1]);
    act(&mut state, X, "play AD");
    assert_eq!(legal(&state), ["play 3C"]);
    act(&mut state, Y, "play 3C");
    // Tricks X 0, Y 1, Z 1: X goes out; Y and Z play hand 7, dealt by X (KOW-5.4).
    assert_eq!(field(&state, "hand"), "7");
    assert_eq!(field(&state, "status"), "OAA");
    assert_eq!(field(&state, "out"), "0@6");
    assert_eq!(field(&state, "dealer"), X.to_string());
    assert_eq!(hand_sizes(&state), [0, 1, 1]);
    assert_eq!(field(&state, "cuts"), "1:QC,2:2H"); // the 1-1 tie is cut (KOW-5.3)
    assert_eq!(field(&state, "chooser"), Y.to_string());
    assert_eq!(field(&state, "previous"), "C:0:x,1:2C,2:KC/2:4H,0:AD,1:3C");
}

#[test]
fn kow_ex_10_dog_wins_and_the_lead_passes_to_the_next_holder() {
    // KOW-EX-10, KOW-4.4, KOW-6.5 (variant of KOW-EX-3): P2 (dog) plays 2D in trick 1; P1
    // (dog) wins trick 2 with JC. Neither P1 nor P2, the next seat, holds a card, so the
    // lead skips to P3.
    let mut state = start_of_hand(&HAND_3, &[]);
    open_play(&mut state, &HAND_3);
    for (seat, action) in named_plays("P4 AH, P5 JH, P1 knock, P2 2D, P3 6H") {
        act(&mut state, seat, &action);
    }
    assert_eq!(won(&state), [0, 0, 0, 1, 0]);
    for (seat, action) in named_plays("P4 3S, P5 4S, P1 JC, P3 AS") {
        act(&mut state, seat, &action);
    }
    assert_eq!(won(&state), [1, 0, 0, 1, 0]);
    assert_eq!(hand_sizes(&state)[P1], 0);
    assert_eq!(hand_sizes(&state)[P2], 0);
    assert_eq!(state.to_move(), Some(P3));
    assert_eq!(legal(&state), ["play 5C", "play 3H", "play KS"]);
}

#[test]
fn kow_ex_10_dog_wins_the_opening_lead_trick() {
    // KOW-EX-10, KOW-6.4, KOW-6.5: hand 3 dealt by P5, so that P1 (dog) is first to lead.
    // P1 leads AC (trump) and wins; P2 (dog) is offered the lead and may knock; the next
    // holder, P3, must lead.
    let hands = [
        "AC",
        "2D",
        "6H AS KS 3H 5C",
        "AH 3S 5S KH JC",
        "JH 4S 6S 4H 7D",
    ];
    let mut c = Compose::new(&hands, 3, P5);
    c.status = Some("DDAAA");
    c.dog_used = true;
    c.phase = "trump";
    c.chooser = Some(P4);
    c.seed = 5;
    let mut state = from_position(5, &c.text());
    act(&mut state, P4, "trump C");
    assert_eq!(state.to_move(), Some(P1));
    assert_eq!(legal(&state), ["play AC", "knock"]);
    for (seat, action) in named_plays("P1 AC, P2 knock, P3 5C, P4 JC, P5 JH") {
        act(&mut state, seat, &action);
    }
    assert_eq!(won(&state), [1, 0, 0, 0, 0]);
    assert_eq!(state.to_move(), Some(P2));
    assert_eq!(legal(&state), ["play 2D", "knock"]);
    act(&mut state, P2, "knock");
    assert_eq!(state.to_move(), Some(P3));
    assert!(!legal(&state).contains(&"knock".to_string()));
}

/// The states reached after `actions` actions (or at the game's end) when the seats in
/// `free` try all their legal actions and the others take their first one.
fn all_lines(state: &KnockoutWhist, free: &[usize], actions: u32, out: &mut Vec<KnockoutWhist>) {
    let Some(mover) = state.to_move() else {
        out.push(state.clone());
        return;
    };
    if actions == 0 {
        out.push(state.clone());
        return;
    }
    let mut numbers = actions_of(state.legal_mask());
    if !free.contains(&mover) {
        numbers.truncate(1);
    }
    for n in numbers {
        let mut child = state.clone();
        child.apply(n);
        all_lines(&child, free, actions - 1, out);
    }
}

#[test]
fn kow_ex_11_game_ends_before_hand_seven() {
    // KOW-EX-11, KOW-5.2, KOW-7: with the dog's life used, Y holding AH KH QH JH 10H and
    // hearts trump takes all 5 tricks whatever X and Z play; X and Z are out and Y wins
    // after hand 3, with no hand 4 dealt.
    let mut c = Compose::new(
        &["9H AC AS AD 2C", "AH KH QH JH 10H", "8H KC KS KD 2S"],
        3,
        Z,
    );
    c.dog_used = true;
    c.phase = "trump";
    c.chooser = Some(Y);
    let mut state = from_position(3, &c.text());
    act(&mut state, Y, "trump H");
    let mut endings = vec![];
    all_lines(&state, &[X, Z], 15, &mut endings);
    assert!(endings.len() > 500, "many lines of play by X and Z");
    for end in &endings {
        assert_eq!(end.to_move(), None);
        assert_eq!(field(end, "hand"), "3");
        assert_eq!(won(end), [0, 5, 0]);
        assert_eq!(field(end, "status"), "OAO");
        assert_eq!(field(end, "out"), "0@3,2@3");
        assert_eq!(field(end, "chance"), "3,0", "nothing dealt after hand 3");
        assert_eq!(&end.returns().unwrap()[..3], &[-0.5, 1.0, -0.5]);
    }
}
