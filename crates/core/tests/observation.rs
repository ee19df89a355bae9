//! Observations written by hand for three positions (one per game), entry for entry, as
//! `cardtable.rl.observation` lays them out (KOW-9, NEUF-9, KRYT-9); and the rules every
//! observation keeps along random games.

use cardtable_core::cards::parse_card;
use cardtable_core::game::{new_game, Game, OptionValue, PlayoutRng};
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, Observe};
use rand::SeedableRng;

fn options<G: Game>(pairs: &[(&str, OptionValue)]) -> G::Options {
    let pairs: Vec<(String, OptionValue)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    G::options(&pairs).expect("valid options")
}

fn players<G: Game>(n: i64) -> G::Options {
    options::<G>(&[("players", OptionValue::Int(n))])
}

fn observe<G: Observe>(state: &G, seat: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; G::observation_size(state.players())];
    state.observe(seat, &mut out);
    out
}

/// A card's index in the 52-card pack.
fn card(text: &str) -> usize {
    usize::from(parse_card(text).unwrap())
}

/// A card's number in the 36-card pack (`suit * 9 + rank - 6`).
fn card36(text: &str) -> usize {
    let c = card(text);
    c / 13 * 9 + c % 13 - 4
}

/// Ones at `start + card(c)` for each card.
fn set_cards(out: &mut [f32], start: usize, cards: &str, number: fn(&str) -> usize) {
    for c in cards.split(',') {
        out[start + number(c)] = 1.0;
    }
}

#[test]
fn a_knockout_whist_trick_seen_by_the_second_seat() {
    // Hand 1, spades turned (3S); seat 0 won the first trick and leads 2C; seat 1 sees.
    let text = "kow/1 players=3 hand=1 dealer=0 phase=play trump=S turned=3S dog=unused \
        status=AAA out=- won=1,0,0 cuts=- chooser=- \
        hands=6D,2H,AH,2S,7S/8C,3D,AD,9H,8S,KS/7D,9D,3H,JH,4S,JS \
        stock=JD,QD,KD,4D,2D,8D,4H,5H,6H,7H,8H,5D,10H,QC,QH,KH,4C,9C,10D,3C,5S,6S,7C,5C,9S,\
        10S,6C,QS,10C,AS done=1:JC,2:KC,0:AC trick=0:2C seed=7 chance=1,0";
    let opts = players::<KnockoutWhist>(3);
    let state = KnockoutWhist::from_position(&opts, text).unwrap();
    let got = observe(&state, 1);
    // Rows counted from seat 1: seat 1 → 0, seat 2 → 1, seat 0 → 2.
    let mut want = vec![0.0f32; 455];
    set_cards(&mut want, 0, "8C,3D,AD,9H,8S,KS", card); // hand
    want[52 + 2 * 52 + card("2C")] = 1.0; // trick: seat 0's 2C
    want[211 + 2] = 1.0; // trick_leader: seat 0
    want[214 + card("JC")] = 1.0; // played: seat 1's JC, seat 2's KC, seat 0's AC
    want[214 + 52 + card("KC")] = 1.0;
    want[214 + 2 * 52 + card("AC")] = 1.0;
    want[370 + card("3S")] = 1.0; // turned
    want[422 + 3] = 1.0; // trump S
    want[426 + 1] = 1.0; // phase play
    want[429] = 1.0; // to_move: seat 1 itself
    want[432 + 2] = 1.0; // dealer: seat 0
    for rel in 0..3 {
        want[438 + 3 * rel] = 1.0; // statuses: all active
    }
    want[448] = (1.0f64 / 7.0) as f32; // hand_number
    want[449] = (6.0f64 / 7.0) as f32; // hand_sizes: 6, 6, 5
    want[450] = (6.0f64 / 7.0) as f32;
    want[451] = (5.0f64 / 7.0) as f32;
    want[452 + 2] = (1.0f64 / 7.0) as f32; // tricks_won: seat 0 took one
    assert_eq!(got, want);
}

#[test]
fn a_neuf_exchange_seen_by_the_seat_that_exchanged() {
    // Deal 1, hearts; seat 1 exchanged, seat 2 kept, the dealer (seat 0) decides now.
    let text = "neuf/1 players=3 sequence=HDCS-NT first=0 ledger=- phase=exchange \
        exchanges=1:e,2:k \
        piles=3C,5C,8C,9C,AC,3D,JD,AD,2H,9H,6S,9S,QS/7C,JC,6D,7D,5H,6H,JH,KH,2S,3S,4S,7S,10S/\
        2C,4C,6C,10C,QC,9D,10D,QD,3H,10H,AH,JS,AS/KC,2D,4D,5D,8D,KD,4H,7H,8H,QH,5S,8S,KS \
        done=- trick=- seed=3 chance=1";
    let opts = players::<Neuf>(3);
    let state = Neuf::from_position(&opts, text).unwrap();
    let got = observe(&state, 1);
    let spare = "KC,2D,4D,5D,8D,KD,4H,7H,8H,QH,5S,8S,KS";
    let mut want = vec![0.0f32; 505];
    set_cards(&mut want, 0, spare, card); // hand: the spare it took
    set_cards(
        &mut want,
        52,
        "7C,JC,6D,7D,5H,6H,JH,KH,2S,3S,4S,7S,10S",
        card,
    ); // held: dealt
    set_cards(&mut want, 52 + 52, spare, card); // held: then taken
    want[471 + 2] = 1.0; // trump H
    want[476] = 1.0; // phase exchange
    want[479] = 1.0; // exchanges: seat 1 (row 0) exchanged
    want[479 + 2 + 1] = 1.0; // seat 2 (row 1) kept
    want[485 + 2] = 1.0; // to_move: seat 0
    want[488 + 2] = 1.0; // dealer: seat 0
    want[491..494].fill(1.0); // scores 9 / 9
    want[497] = (4.0f64 / 13.0) as f32; // quota
    want[498] = (1.0f64 / 25.0) as f32; // deal_number
    want[499..502].fill(1.0); // hand_sizes 13 / 13
    assert_eq!(got, want);
    // The dealer sees neither seat 1's hands nor the spare: its own pile, once.
    let dealer = observe(&state, 0);
    let mut own = vec![0.0f32; 104];
    set_cards(&mut own, 0, "3C,5C,8C,9C,AC,3D,JD,AD,2H,9H,6S,9S,QS", card);
    set_cards(&mut own, 52, "3C,5C,8C,9C,AC,3D,JD,AD,2H,9H,6S,9S,QS", card);
    assert_eq!(&dealer[..52], &own[..52]);
    assert_eq!(&dealer[52..156], &[&own[52..], &[0.0; 52][..]].concat()[..]);
}

#[test]
fn a_kryt_navalivat_response_seen_by_the_seat_to_move() {
    let text = "kryt/1 players=3 trumps=C dealer=0 hands=JC,AC,AD,10S/9C,8D,JD,9S,QS/QD,8H,JS \
        known=10S/9C,8D/- pile=7S faceup=KC \
        stock=JH,7H,KH,AS,10D,KS,7C,QC,9H,QH,7D,6D,6S,6C,8S,10C,10H,AH,9D,8C,KD,6H \
        turn=respond to_move=0 result=- seed=2";
    let opts = options::<KrytNavalivat>(&[
        ("players", OptionValue::Int(3)),
        ("trump_mode", OptionValue::Str("turned".into())),
    ]);
    let state = KrytNavalivat::from_position(&opts, text).unwrap();
    let got = observe(&state, 0);
    let mut want = vec![0.0f32; 355];
    set_cards(&mut want, 0, "JC,AC,AD,10S", card36); // hand
    set_cards(&mut want, 36, "10S", card36); // known: its own 10S, seat 1's 9C and 8D
    set_cards(&mut want, 36 + 36, "9C,8D", card36);
    want[144 + card36("7S")] = 1.0; // pile
    want[180 + card36("7S")] = 1.0; // pile_top
    want[216 + card36("7S")] = 1.0; // would_take; nothing beneath it
    want[288 + card36("KC")] = 1.0; // trump_card
    want[324] = 1.0; // trump C; no anti-trump
    want[332 + 1] = 1.0; // mode respond
    want[337] = 1.0; // to_move: itself
    want[340] = 1.0; // dealer: itself
    want[350] = (23.0f64 / 36.0) as f32; // stock (the turned card counted)
    want[351] = (1.0f64 / 36.0) as f32; // pile_size
    want[352] = (4.0f64 / 36.0) as f32; // hand_sizes: 4, 5, 3
    want[353] = (5.0f64 / 36.0) as f32;
    want[354] = (3.0f64 / 36.0) as f32;
    assert_eq!(got, want);
}

/// Along random games: the vector is whole (no entry left unwritten), in range, the same
/// whatever the buffer held before, and a one-hot of the observer's own hand.
fn keeps_its_rules<G: Observe>(opts: &G::Options, low: f32, high: f32) {
    for seed in 0..12 {
        let mut state: G = new_game(opts, seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        let size = G::observation_size(state.players());
        let mut a = vec![0.0f32; size];
        let mut b = vec![f32::NAN; size];
        loop {
            for seat in 0..state.players() {
                a.fill(7.0);
                state.observe(seat, &mut a);
                state.observe(seat, &mut b);
                assert_eq!(a, b);
                assert!(a.iter().all(|&x| (low..=high).contains(&x)), "{a:?}");
            }
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
    }
}

#[test]
fn every_observation_is_whole_and_in_range() {
    for n in 2..=7 {
        keeps_its_rules::<KnockoutWhist>(&players::<KnockoutWhist>(n), 0.0, 1.0);
    }
    keeps_its_rules::<Neuf>(&players::<Neuf>(3), -1.0, 4.0);
    keeps_its_rules::<Neuf>(&players::<Neuf>(4), -1.0, 4.0);
    for n in 2..=6 {
        for mode in ["turned", "permanent"] {
            let opts = options::<KrytNavalivat>(&[
                ("players", OptionValue::Int(n)),
                ("trump_mode", OptionValue::Str(mode.into())),
            ]);
            keeps_its_rules::<KrytNavalivat>(&opts, 0.0, 1.0);
        }
    }
}

#[test]
#[should_panic(expected = "an observation has 455 entries")]
fn a_buffer_of_the_wrong_length_is_refused() {
    let state: KnockoutWhist = new_game(&players::<KnockoutWhist>(3), 1);
    state.observe(0, &mut [0.0; 454]);
}

#[test]
#[should_panic(expected = "seat 3 is not one of 3")]
fn a_seat_not_of_the_game_is_refused() {
    let state: Neuf = new_game(&players::<Neuf>(3), 1);
    state.observe(3, &mut [0.0; 505]);
}
