//! The core's Neuf determinizer (NEUF-9; DESIGN.md "Bots"): knowledge read from a seat's
//! view, samples that keep that view, respect every constraint play revealed (voids,
//! NEUF-4.2; hands held, NEUF-3.2/3.3; hand sizes), never move the seat's own cards, vary
//! where the seat cannot see, and views that are not one refused. Its distribution is
//! checked against Python's `NeufKnowledge` in `tests/core/test_core_knowledge.py`.

use std::collections::HashSet;

use cardtable_core::cards::{parse_card, CardSet, SUIT_MASKS};
use cardtable_core::game::{new_game, Determinize, Game, PlayoutRng};
use cardtable_core::neuf::{Neuf, Options, Phase};
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A view the core wrote, as JSON.
fn written<T: serde::Serialize>(view: &T) -> serde_json::Value {
    serde_json::to_value(view).expect("a view is JSON")
}

// Views written by the Python engine (`state.view(seat)`, as `json.dumps` gives it).

/// `cardtable.make("neuf", **{'players': 3, 'dealer': 0})`, `new_state(seed=0)`, random play by
/// `random.Random(0)`: seat 1's view after 5 tricks, a void shown.
const THREE: &str = r#"{"game":"neuf","options":{"players":3,"trump_sequence":"HDCS-NT","dealer_exchanges_first":false,"tie_avoidance":false},"seat":1,"players":3,"deal_number":1,"dealer":0,"trump":"H","trump_sequence":"HDCS-NT","phase":"play","to_move":1,"exchange_order":[1,2,0],"exchanges":[[1,"keep"],[2,"keep"],[0,"exchange"]],"quota":4,"scores":[9,9,9],"ledger":[],"hand_sizes":[7,8,8],"tricks_won":[1,2,2],"trick":[[0,"2H"]],"tricks":[{"plays":[[1,"AC"],[2,"9C"],[0,"10C"]],"winner":1},{"plays":[[1,"9D"],[2,"KD"],[0,"7D"]],"winner":2},{"plays":[[2,"5S"],[0,"2S"],[1,"KS"]],"winner":1},{"plays":[[1,"8C"],[2,"5H"],[0,"7C"]],"winner":2},{"plays":[[2,"5D"],[0,"AD"],[1,"JD"]],"winner":0}],"previous_deal":null,"winners":[],"hand":["2C","6C","QC","10D","KH","AH","6S","7S"],"held":[["2C","6C","8C","QC","AC","9D","10D","JD","KH","AH","6S","7S","KS"]],"legal_actions":["play KH","play AH"]}"#;
/// `cardtable.make("neuf", **{'players': 4, 'dealer': 1})`, `new_state(seed=0)`, random play by
/// `random.Random(0)`: seat 0's view after 5 tricks, a void shown.
const FOUR: &str = r#"{"game":"neuf","options":{"players":4,"trump_sequence":"HDCS-NT","dealer_exchanges_first":false,"tie_avoidance":false},"seat":0,"players":4,"deal_number":1,"dealer":1,"trump":"H","trump_sequence":"HDCS-NT","phase":"play","to_move":0,"exchange_order":[],"exchanges":[],"quota":6,"scores":[9,9],"ledger":[],"hand_sizes":[8,8,7,7],"tricks_won":[0,1,2,2],"trick":[[2,"6C"],[3,"4S"]],"tricks":[{"plays":[[2,"10D"],[3,"KD"],[0,"8D"],[1,"7D"]],"winner":3},{"plays":[[3,"3S"],[0,"10S"],[1,"QS"],[2,"7S"]],"winner":1},{"plays":[[1,"7H"],[2,"AH"],[3,"5H"],[0,"QH"]],"winner":2},{"plays":[[2,"8C"],[3,"9C"],[0,"4C"],[1,"7C"]],"winner":3},{"plays":[[3,"6H"],[0,"9H"],[1,"3H"],[2,"KH"]],"winner":2}],"previous_deal":null,"winners":[],"hand":["3C","5C","JC","KC","QD","JH","9S","JS"],"legal_actions":["play 3C","play 5C","play JC","play KC"]}"#;

fn opts(players: usize) -> Options {
    Options {
        players,
        ..Options::default()
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

fn mask(cards: &Value) -> CardSet {
    cards
        .as_array()
        .unwrap()
        .iter()
        .map(|c| 1u64 << parse_card(c.as_str().unwrap()).unwrap())
        .sum()
}

fn seat_of(view: &Value) -> usize {
    view["seat"].as_u64().unwrap() as usize
}

/// Per seat, the suits it has shown it lacks (NEUF-4.2), read off the view's tricks.
fn voids(view: &Value) -> Vec<CardSet> {
    let mut shown = vec![0; view["players"].as_u64().unwrap() as usize];
    let tricks = view["tricks"].as_array().unwrap();
    let plays = tricks.iter().map(|t| &t["plays"]).chain([&view["trick"]]);
    for trick in plays {
        let trick = trick.as_array().unwrap();
        let Some(lead) = trick.first() else { continue };
        let led = parse_card(lead[1].as_str().unwrap()).unwrap() / 13;
        for play in &trick[1..] {
            let card = parse_card(play[1].as_str().unwrap()).unwrap();
            if card / 13 != led {
                shown[play[0].as_u64().unwrap() as usize] |= SUIT_MASKS[led as usize];
            }
        }
    }
    shown
}

fn samples(options: &Options, view: &Value, count: u64) -> Vec<Neuf> {
    let knowledge = Neuf::knowledge(options, view).expect("a seat's view is read");
    assert_eq!(Neuf::knower(&knowledge), seat_of(view));
    (0..count)
        .map(|i| Neuf::sample(&knowledge, &mut PlayoutRng::seed_from_u64(i)))
        .collect()
}

/// NEUF-9: every sample of a Python view shows the seat that very view (hand, hands held,
/// hand sizes, scores, tricks, legal actions), so the seat cannot tell it from the real one.
#[test]
fn every_sample_of_a_python_view_shows_the_seat_that_view() {
    for (players, text) in [(3, THREE), (4, FOUR)] {
        let view = parse(text);
        for sample in samples(&opts(players), &view, 300) {
            assert_eq!(written(&sample.view(Some(seat_of(&view)))), view);
            assert_eq!(sample.to_move(), Some(seat_of(&view)));
        }
    }
}

/// NEUF-9, NEUF-3.3: the seat's own cards, and every hand it has held, stay where they are.
#[test]
fn the_seats_own_cards_never_move() {
    for (players, text) in [(3, THREE), (4, FOUR)] {
        let view = parse(text);
        let seat = seat_of(&view);
        let hand = mask(&view["hand"]);
        for sample in samples(&opts(players), &view, 300) {
            assert_eq!(sample.hand(seat), hand);
            if players == 3 {
                let held: Vec<CardSet> =
                    view["held"].as_array().unwrap().iter().map(mask).collect();
                assert_eq!(sample.held_hands(seat), held);
            }
        }
    }
}

/// NEUF-4.2: no sample gives a seat a card of a suit it has shown it lacks; and every hand
/// keeps its size (NEUF-9: hand sizes are public).
#[test]
fn no_sample_breaks_a_void_or_a_hand_size() {
    for (players, text) in [(3, THREE), (4, FOUR)] {
        let view = parse(text);
        let shown = voids(&view);
        assert!(shown.iter().any(|&v| v != 0), "the view shows a void");
        let sizes: Vec<u64> = view["hand_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        for sample in samples(&opts(players), &view, 500) {
            for seat in 0..players {
                assert_eq!(sample.hand(seat) & shown[seat], 0, "seat {seat} revoked");
                assert_eq!(u64::from(sample.hand(seat).count_ones()), sizes[seat]);
            }
        }
    }
}

/// The cards the seat cannot see are dealt anew: hands vary between samples, every unseen
/// card lands in more than one place, and the seed differs (the deals to come are new
/// chance).
#[test]
fn samples_vary_where_the_seat_cannot_see() {
    for (players, text) in [(3, THREE), (4, FOUR)] {
        let view = parse(text);
        let seat = seat_of(&view);
        let all = samples(&opts(players), &view, 400);
        let layouts: HashSet<Vec<CardSet>> = all
            .iter()
            .map(|s| (0..players).map(|p| s.hand(p)).collect())
            .collect();
        assert!(layouts.len() > 300, "{} layouts", layouts.len());
        let seeds: HashSet<String> = all.iter().map(|s| field(&s.position(), "seed")).collect();
        assert!(seeds.len() > 390);
        // Each card no seat has shown it must go to one place can be found in two.
        let mut places_of = [0u8; 52];
        for s in &all {
            // Seat `players` stands for the spare of the 3-player game.
            let mut holders: Vec<(usize, CardSet)> = (0..players)
                .filter(|&p| p != seat)
                .map(|p| (p, s.hand(p)))
                .collect();
            if players == 3 {
                holders.push((3, s.spare()));
            }
            for (p, hand) in holders {
                for (c, places) in places_of.iter_mut().enumerate() {
                    if hand >> c & 1 == 1 {
                        *places |= 1 << p;
                    }
                }
            }
        }
        let shown = voids(&view);
        let unseen = (0..52).filter(|&c| places_of[c] != 0);
        for c in unseen {
            let open = (0..players)
                .filter(|&p| p != seat && shown[p] >> c & 1 == 0)
                .count()
                + usize::from(players == 3);
            if open > 1 {
                assert!(places_of[c].count_ones() > 1, "card {c} never moves");
            }
        }
    }
}

fn field(position: &str, key: &str) -> String {
    let prefix = format!("{key}=");
    position
        .split(' ')
        .find_map(|f| f.strip_prefix(&prefix))
        .unwrap()
        .to_string()
}

/// NEUF-9 across whole games, with the core's own views: from states met in random play
/// (exchanges, voids, later deals with the last deal's spare shown, N-5), the knowledge is
/// read and its samples keep the view; when the seat was the last to put its hand down for
/// the spare, it knows the spare card for card (NEUF-3.2, NEUF-3.3).
#[test]
fn states_met_in_random_games_sample_to_their_own_view() {
    for players in [3, 4] {
        let options = opts(players);
        let mut rng = PlayoutRng::seed_from_u64(players as u64);
        let mut checked = 0;
        for seed in 0..6 {
            let mut state: Neuf = new_game(&options, seed);
            while let Some(seat) = state.to_move() {
                if rng.random_range(0..20) == 0 {
                    let view = written(&state.view(Some(seat)));
                    // The spare is the seat's own pile while nobody has exchanged since.
                    let last = state.decisions().into_iter().rfind(|&(_, e)| e);
                    let exchanged = last == Some((seat, true));
                    for sample in samples(&options, &view, 10) {
                        assert_eq!(
                            written(&sample.view(Some(seat))),
                            view,
                            "{}",
                            state.position()
                        );
                        assert_eq!(sample.legal_mask(), state.legal_mask());
                        if exchanged {
                            assert_eq!(sample.spare(), state.spare());
                        }
                    }
                    checked += 1;
                }
                let action = state.random_action(&mut rng);
                state.apply(action);
            }
        }
        assert!(checked > 50, "{checked} states checked");
    }
}

fn refused(options: &Options, view: &Value) -> String {
    match Neuf::knowledge(options, view) {
        Ok(_) => panic!("accepted {view}"),
        Err(e) => e.0,
    }
}

/// A view that is not a Neuf seat's view, or whose parts disagree, is refused, naming what
/// is wrong (Python's `InvalidPositionError`).
#[test]
fn views_that_are_not_a_seats_view_are_refused() {
    let three = opts(3);
    let view = parse(THREE);
    let with = |key: &str, value: Value| {
        let mut v = view.clone();
        v[key] = value;
        v
    };
    assert!(refused(&three, &Value::Null).contains("not a view of a neuf game"));
    assert!(refused(&three, &with("game", "knockout-whist".into())).contains("neuf game"));
    assert!(refused(&three, &with("seat", Value::Null)).contains("not seat None's"));
    assert!(refused(&three, &with("seat", 3.into())).contains("not seat 3's"));
    assert!(refused(&opts(4), &view).contains("other options"));
    let mut other_sequence = three.clone();
    other_sequence.trump_sequence = 1;
    assert!(refused(&other_sequence, &view).contains("other options"));
    let mut no_hand = view.clone();
    no_hand.as_object_mut().unwrap().remove("hand");
    assert!(refused(&three, &no_hand).contains("not a neuf seat's view"));
    // A field no Neuf view has, or one the view needs, missing: refused by name.
    assert!(refused(&three, &with("bid", 1.into())).contains("unknown field `bid`"));
    let mut no_quota = view.clone();
    no_quota.as_object_mut().unwrap().remove("quota");
    assert!(refused(&three, &no_quota).contains("missing field `quota`"));
    // A hand that is not the held hand less its plays.
    let mut hand = view["hand"].clone();
    hand.as_array_mut().unwrap()[0] = "3C".into();
    assert!(refused(&three, &with("hand", hand)).contains("the hand is not"));
    assert!(
        refused(&three, &with("hand_sizes", serde_json::json!([7, 8, 9])))
            .contains("hand size does not add up")
    );
    // Held hands for exchanges the view does not show.
    let held = serde_json::json!([view["held"][0], view["held"][0]]);
    assert!(refused(&three, &with("held", held)).contains("held hands do not match"));
    // Scores that the ledger does not give, a trick winner that did not win: the sample's
    // view differs.
    assert!(
        refused(&three, &with("scores", serde_json::json!([9, 9, 8])))
            .contains("not one that a neuf state shows")
    );
    let mut tricks = view["tricks"].clone();
    tricks[0]["winner"] = 0.into();
    assert!(refused(&three, &with("tricks", tricks)).contains("not one that a neuf state shows"));
    assert!(refused(&three, &with("phase", "bidding".into())).contains("no phase 'bidding'"));
    assert!(refused(
        &three,
        &with(
            "ledger",
            serde_json::json!([{"deal": 1, "trump": "H", "dealer": 0, "tricks": [4, 4, 4],
                                "scores": [9, 9, 9], "total": 27}])
        )
    )
    .contains("13 tricks"));
    // A card the seat itself played, also in another seat's play.
    let mut trick = view["trick"].clone();
    trick[0][1] = "AC".into();
    assert!(!refused(&three, &with("trick", trick)).is_empty());
    // No layout gives the spade-void seat of the 4-player view its cards once every unseen
    // card is a spade: its hand size no longer adds up, or the voids cannot be met.
    let four = parse(FOUR);
    let mut sizes = four["hand_sizes"].clone();
    sizes[3] = 9.into();
    let mut bad = four.clone();
    bad["hand_sizes"] = sizes;
    assert!(refused(&opts(4), &bad).contains("hand size does not add up"));
}

/// A state's phase survives sampling: a sample of a view in the exchange is in the
/// exchange too.
#[test]
fn a_view_in_the_exchange_samples_to_the_exchange() {
    let options = opts(3);
    let state: Neuf = new_game(&options, 11);
    assert_eq!(state.phase(), Phase::Exchange);
    let seat = state.to_move().unwrap();
    for sample in samples(&options, &written(&state.view(Some(seat))), 50) {
        assert_eq!(sample.phase(), Phase::Exchange);
        assert_eq!(sample.hand(seat), state.hand(seat));
        assert_eq!(
            written(&sample.view(Some(seat))),
            written(&state.view(Some(seat)))
        );
    }
}
