//! Knockout Whist's determinizer in the core (SPEC KOW-9; `knowledge.rs`, the port of
//! `cardtable.rules.knockout_whist.knowledge`): every sample is a state the seat cannot
//! tell from the real one, its own cards and every public card stay put, the voids play
//! revealed hold (KOW-4.2), and the cards it cannot see move about. That the samples follow
//! the Python sampler's distribution is checked from Python (`tests/core/test_core_knowledge.py`).
//!
//! The views below are `state.view(state.to_move)` of states met along seeded uniformly
//! random games of the Python engine (`cardtable.make("knockout-whist", players=n)`, seeds
//! from 0, actions from `random.Random(n)`), written with `json.dumps`; each comment gives
//! the real state's position.

use std::collections::BTreeSet;

use cardtable_core::cards::{bit, parse_card, suit, CardSet, FULL_PACK, SUIT_MASKS};
use cardtable_core::game::{actions_of, Determinize, Game, PlayoutRng};
use cardtable_core::knockout_whist::{Knowledge, Options};
use cardtable_core::KnockoutWhist;
use rand::SeedableRng;
use serde_json::Value;

/// Real deal: `kow/1 players=4 hand=4 dealer=1 phase=play trump=D turned=- dog=used status=OAAA out=0@2 won=0,1,0,0 cuts=3:4H,1:7H chooser=1 hands=-/5H,6H,10H/5C,9D,AS/8D,KH,AH stock=4D,QH,AD,JH,3H,8S,9S,3D,3S,JC,6C,10D,KD,JS,4S,8C,JD,8H,2S,10S,2H,9H,2C,6D,KS,2D,6S,9C,7C,7D,5D,4C,5S,KC,AC,QS,7S,10C done=2:3C,3:QC,1:QD trick=- seed=2 chance=4,0 previous=S:1:KD,2:2S,3:4D/2:AC,3:JD,1:5S/1:AS,2:4H,3:KS/1:3D,2:QC,3:5D/3:AD,1:2H,2:9H`
const CUT_THEN_PLAY: &str = r#"{"game":"knockout-whist","options":{"players":4},"seat":1,"players":4,"hand_number":4,"hand_size":4,"dealer":1,"phase":"play","to_move":1,"statuses":["out","active","active","active"],"dog_used":true,"hand_sizes":[0,3,3,3],"tricks_won":[0,1,0,0],"trump":"D","turned":null,"cuts":[[[3,"4H"],[1,"7H"]]],"chooser":1,"trick":[],"tricks":[{"plays":[[2,"3C"],[3,"QC"],[1,"QD"]],"winner":1}],"previous_hand":{"hand_number":3,"trump":"S","tricks":[{"plays":[[1,"KD"],[2,"2S"],[3,"4D"]],"winner":2},{"plays":[[2,"AC"],[3,"JD"],[1,"5S"]],"winner":1},{"plays":[[1,"AS"],[2,"4H"],[3,"KS"]],"winner":1},{"plays":[[1,"3D"],[2,"QC"],[3,"5D"]],"winner":3},{"plays":[[3,"AD"],[1,"2H"],[2,"9H"]],"winner":3}],"tricks_won":[0,2,1,2]},"eliminated":[[0,2]],"winner":null,"hand":["5H","6H","10H"],"legal_actions":["play 5H","play 6H","play 10H"]}"#;

/// Real deal: `kow/1 players=3 hand=7 dealer=2 phase=trump trump=- turned=- dog=used status=AOA out=1@5 won=0,0,0 cuts=0:10H,2:10D/0:5S,2:10S chooser=2 hands=QD/-/3S stock=JS,9H,KD,9S,8D,9D,AC,QS,8S,4C,8H,JH,5H,3C,3D,6C,7S,7H,3H,5C,10C,4D,4H,QC,AH,JC,AS,KH,7D,8C,KS,2S,6D,KC,6H,7C,AD,5D,4S,QH,2H,9C,2D,2C,JD,6S done=- trick=- seed=19 chance=7,0 previous=S:2:3D,0:2S/0:7H,2:QH`
const CUTS: &str = r#"{"game":"knockout-whist","options":{"players":3},"seat":2,"players":3,"hand_number":7,"hand_size":1,"dealer":2,"phase":"trump","to_move":2,"statuses":["active","out","active"],"dog_used":true,"hand_sizes":[1,0,1],"tricks_won":[0,0,0],"trump":null,"turned":null,"cuts":[[[0,"10H"],[2,"10D"]],[[0,"5S"],[2,"10S"]]],"chooser":2,"trick":[],"tricks":[],"previous_hand":{"hand_number":6,"trump":"S","tricks":[{"plays":[[2,"3D"],[0,"2S"]],"winner":0},{"plays":[[0,"7H"],[2,"QH"]],"winner":2}],"tricks_won":[1,0,1]},"eliminated":[[1,5]],"winner":null,"hand":["3S"],"legal_actions":["trump C","trump D","trump H","trump S"]}"#;

/// Real deal: `kow/1 players=3 hand=4 dealer=2 phase=play trump=S turned=- dog=used status=DAA out=- won=0,0,0 cuts=- chooser=2 hands=8D/5C,7H,2S,7S/7C,3D,JD,3S stock=JS,QC,KC,AC,2D,4C,4D,5D,6D,7D,2C,9D,10D,10C,QD,KD,AD,2H,3H,4H,5H,6H,8C,8H,9H,10H,JH,QH,KH,AH,3C,6C,4S,5S,6S,9C,8S,9S,10S,JC,QS,KS,AS done=- trick=0:x seed=1 chance=4,0 previous=C:2:8H,0:9H,1:JC/1:7D,2:9C,0:5D/2:5S,0:7S,1:AS/1:JD,2:QC,0:6S/2:KS,0:QH,1:AD`
const DOG: &str = r#"{"game":"knockout-whist","options":{"players":3},"seat":1,"players":3,"hand_number":4,"hand_size":4,"dealer":2,"phase":"play","to_move":1,"statuses":["dog","active","active"],"dog_used":true,"hand_sizes":[1,4,4],"tricks_won":[0,0,0],"trump":"S","turned":null,"cuts":[],"chooser":2,"trick":[[0,"knock"]],"tricks":[],"previous_hand":{"hand_number":3,"trump":"C","tricks":[{"plays":[[2,"8H"],[0,"9H"],[1,"JC"]],"winner":1},{"plays":[[1,"7D"],[2,"9C"],[0,"5D"]],"winner":2},{"plays":[[2,"5S"],[0,"7S"],[1,"AS"]],"winner":1},{"plays":[[1,"JD"],[2,"QC"],[0,"6S"]],"winner":2},{"plays":[[2,"KS"],[0,"QH"],[1,"AD"]],"winner":2}],"tricks_won":[0,2,3]},"eliminated":[],"winner":null,"hand":["5C","7H","2S","7S"],"legal_actions":["play 5C","play 7H","play 2S","play 7S"]}"#;

/// Real deal: `kow/1 players=3 hand=1 dealer=2 phase=play trump=S turned=8S dog=unused status=AAA out=- won=0,0,0 cuts=- chooser=- hands=AC,2D,AD,4H,9H,KH,JS/4C,9C,10C,10D,3S,7S,AS/3C,6C,7C,JC,QC,4D,4S stock=JD,QD,KD,5C,2H,3H,9D,5H,6H,7H,8H,8C,10H,JH,QH,2C,AH,2S,3D,6D,5S,6S,8D,5D,9S,10S,7D,QS,KS,KC done=- trick=- seed=0 chance=1,0`
const START: &str = r#"{"game":"knockout-whist","options":{"players":3},"seat":0,"players":3,"hand_number":1,"hand_size":7,"dealer":2,"phase":"play","to_move":0,"statuses":["active","active","active"],"dog_used":false,"hand_sizes":[7,7,7],"tricks_won":[0,0,0],"trump":"S","turned":"8S","cuts":[],"chooser":null,"trick":[],"tricks":[],"previous_hand":null,"eliminated":[],"winner":null,"hand":["AC","2D","AD","4H","9H","KH","JS"],"legal_actions":["play AC","play 2D","play AD","play 4H","play 9H","play KH","play JS"]}"#;

/// Real deal: `kow/1 players=5 hand=1 dealer=3 phase=play trump=H turned=10H dog=unused status=AAAAA out=- won=0,0,0,0,1 cuts=- chooser=- hands=7C,9H,JH,3S,8S/2C,JC,AC,QH,4S/6C,9C,AD,6S,JS,QS/3C,10C,4H,6H,AH,7S/4C,QC,2D,KH,9S stock=JD,8H,5C,2S,3H,6D,5S,9D,8D,8C,5H,2H,7D,QD,KS,KC done=4:KD,0:10D,1:3D,2:5D,3:10S trick=4:4D,0:7H,1:AS seed=0 chance=1,0`
const VOIDS: &str = r#"{"game":"knockout-whist","options":{"players":5},"seat":2,"players":5,"hand_number":1,"hand_size":7,"dealer":3,"phase":"play","to_move":2,"statuses":["active","active","active","active","active"],"dog_used":false,"hand_sizes":[5,5,6,6,5],"tricks_won":[0,0,0,0,1],"trump":"H","turned":"10H","cuts":[],"chooser":null,"trick":[[4,"4D"],[0,"7H"],[1,"AS"]],"tricks":[{"plays":[[4,"KD"],[0,"10D"],[1,"3D"],[2,"5D"],[3,"10S"]],"winner":4}],"previous_hand":null,"eliminated":[],"winner":null,"hand":["6C","9C","AD","6S","JS","QS"],"legal_actions":["play AD"]}"#;

const ALL: [&str; 5] = [START, VOIDS, DOG, CUTS, CUT_THEN_PLAY];
const SAMPLES: u64 = 300;

fn view(text: &str) -> Value {
    serde_json::from_str(text).expect("the views here are JSON")
}

fn options_of(view: &Value) -> Options {
    Options::players(view["players"].as_u64().unwrap() as usize).unwrap()
}

fn knowledge(view: &Value) -> Knowledge {
    KnockoutWhist::knowledge(&options_of(view), view).expect("a seat's view is read")
}

fn refusal(view: &Value) -> String {
    KnockoutWhist::knowledge(&options_of(view), view)
        .expect_err("the view is refused")
        .0
}

fn card(value: &Value) -> CardSet {
    bit(parse_card(value.as_str().unwrap()).unwrap())
}

fn set_of(cards: &Value) -> CardSet {
    cards.as_array().unwrap().iter().fold(0, |m, c| m | card(c))
}

/// This hand's plays, tricks done then the trick in progress: (seat, card or None).
fn plays(view: &Value) -> Vec<Vec<(usize, Option<CardSet>)>> {
    let trick = |t: &Value| -> Vec<(usize, Option<CardSet>)> {
        t.as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let seat = p[0].as_u64().unwrap() as usize;
                (seat, (p[1] != "knock").then(|| card(&p[1])))
            })
            .collect()
    };
    let mut all: Vec<_> = view["tricks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| trick(&t["plays"]))
        .collect();
    all.push(trick(&view["trick"]));
    all
}

/// KOW-4.2, worked out here from the view, not by the module under test: per seat, the
/// suits it showed it lacks by playing another suit to a trick of this hand.
fn voids(view: &Value) -> Vec<CardSet> {
    let mut barred = vec![0; view["players"].as_u64().unwrap() as usize];
    for trick in plays(view) {
        let cards: Vec<(usize, CardSet)> =
            trick.iter().filter_map(|&(s, c)| Some((s, c?))).collect();
        let Some(&(_, first)) = cards.first() else {
            continue;
        };
        let led = suit(first.trailing_zeros() as u8);
        for (s, c) in cards {
            if suit(c.trailing_zeros() as u8) != led {
                barred[s] |= SUIT_MASKS[usize::from(led)];
            }
        }
    }
    barred
}

/// Every card the seat sees: its hand, the turned card, the cards played, the cut cards.
fn seen(view: &Value) -> CardSet {
    let mut seen = set_of(&view["hand"]);
    if !view["turned"].is_null() {
        seen |= card(&view["turned"]);
    }
    for trick in plays(view) {
        seen |= trick.iter().filter_map(|&(_, c)| c).fold(0, |m, c| m | c);
    }
    for round in view["cuts"].as_array().unwrap() {
        seen |= round
            .as_array()
            .unwrap()
            .iter()
            .fold(0, |m, p| m | card(&p[1]));
    }
    seen
}

/// A field of a position text (`hands=…`).
fn field<'a>(position: &'a str, name: &str) -> &'a str {
    position
        .split(' ')
        .find_map(|f| f.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("no {name} in {position}"))
}

fn cards_in(text: &str) -> CardSet {
    if text == "-" {
        return 0;
    }
    text.split(',')
        .fold(0, |m, c| m | bit(parse_card(c).unwrap()))
}

/// The hands and the stock of a sample, read back from its position text.
fn deal_of(sample: &KnockoutWhist) -> (Vec<CardSet>, CardSet) {
    let text = sample.position();
    let hands = field(&text, "hands").split('/').map(cards_in).collect();
    (hands, cards_in(field(&text, "stock")))
}

fn samples(view: &Value, count: u64, seed: u64) -> Vec<KnockoutWhist> {
    let knowledge = knowledge(view);
    let mut rng = PlayoutRng::seed_from_u64(seed);
    (0..count)
        .map(|_| KnockoutWhist::sample(&knowledge, &mut rng))
        .collect()
}

#[test]
fn kow_9_a_sample_is_a_state_the_seat_cannot_tell_from_the_real_one() {
    for text in ALL {
        let view = view(text);
        let seat = view["seat"].as_u64().unwrap() as usize;
        assert_eq!(KnockoutWhist::knower(&knowledge(&view)), seat);
        let options = options_of(&view);
        let legal: Vec<&str> = view["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        for sample in samples(&view, 50, 1) {
            assert_eq!(sample.to_move(), Some(seat));
            let actions: Vec<String> = actions_of(sample.legal_mask())
                .into_iter()
                .map(KnockoutWhist::action_text)
                .collect();
            assert_eq!(actions, legal);
            // The sample is a whole state: its position reads back to itself.
            let position = sample.position();
            let back = KnockoutWhist::from_position(&options, &position).expect(&position);
            assert_eq!(back.position(), position);
            // No stacked decks; one deck drawn per hand so far, and no reshuffle (KOW-11.1).
            assert!(!position.contains("stacked="));
            let hand = view["hand_number"].as_u64().unwrap();
            assert_eq!(field(&position, "chance"), format!("{hand},0"));
        }
    }
}

#[test]
fn kow_2_2_samples_keep_the_seats_own_hand_every_public_card_and_the_hand_sizes() {
    for text in ALL {
        let view = view(text);
        let seat = view["seat"].as_u64().unwrap() as usize;
        let own = set_of(&view["hand"]);
        let seen = seen(&view);
        let sizes: Vec<u32> = view["hand_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap() as u32)
            .collect();
        for sample in samples(&view, SAMPLES, 2) {
            let (hands, stock) = deal_of(&sample);
            assert_eq!(hands[seat], own, "the seat's own cards never move");
            let sample_sizes: Vec<u32> = hands.iter().map(|h| h.count_ones()).collect();
            assert_eq!(sample_sizes, sizes);
            let mut dealt = stock;
            for (s, &hand) in hands.iter().enumerate() {
                assert_eq!(dealt & hand, 0, "a card dealt twice");
                dealt |= hand;
                if s != seat {
                    assert_eq!(hand & seen, 0, "seat {s} was dealt a card the seat sees");
                }
            }
            // What the seat cannot see is all dealt: every card is in a hand, the stock,
            // or seen (W-2: cut cards set aside are in neither).
            assert_eq!(dealt | seen, FULL_PACK);
        }
    }
}

#[test]
fn kow_4_2_no_sample_deals_a_seat_a_suit_it_showed_void_in() {
    let view = view(VOIDS);
    let barred = voids(&view);
    // Seats 0, 1 and 3 did not follow diamonds: three seats with voids, dealt first.
    assert!([0, 1, 3].iter().all(|&s| barred[s] == SUIT_MASKS[1]));
    assert_eq!(barred[4], 0);
    let mut diamonds_of_seat_4 = BTreeSet::new();
    for sample in samples(&view, SAMPLES, 3) {
        let (hands, _) = deal_of(&sample);
        for (s, &hand) in hands.iter().enumerate() {
            assert_eq!(
                hand & barred[s],
                0,
                "seat {s} was dealt a suit it showed void in"
            );
        }
        diamonds_of_seat_4.insert((hands[4] & SUIT_MASKS[1]).count_ones());
    }
    // Seat 4, void in nothing, may still hold diamonds or not.
    assert!(diamonds_of_seat_4.len() > 1);
}

#[test]
fn kow_6_3_a_dogs_knock_reveals_nothing() {
    // Seat 0, a dog, knocked as the trick's first play: its one card may be of any suit.
    let view = view(DOG);
    assert_eq!(view["statuses"][0], "dog");
    let suits: BTreeSet<u8> = samples(&view, SAMPLES, 4)
        .iter()
        .map(|sample| suit(deal_of(sample).0[0].trailing_zeros() as u8))
        .collect();
    assert_eq!(suits.len(), 4);
}

#[test]
fn w_2_cut_cards_set_aside_are_dealt_to_nobody() {
    for text in [CUTS, CUT_THEN_PLAY] {
        let view = view(text);
        let cut = view["cuts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|round| round.as_array().unwrap().iter().map(|p| card(&p[1])))
            .fold(0, |m, c| m | c);
        assert_ne!(cut, 0);
        for sample in samples(&view, 50, 5) {
            let (hands, stock) = deal_of(&sample);
            let dealt = hands.iter().fold(stock, |m, &h| m | h);
            assert_eq!(dealt & cut, 0);
        }
    }
}

#[test]
fn kow_9_samples_vary_where_the_seat_cannot_see() {
    for text in ALL {
        let view = view(text);
        let seat = view["seat"].as_u64().unwrap() as usize;
        let unseen = FULL_PACK & !seen(&view);
        let players = view["players"].as_u64().unwrap() as usize;
        let others: usize = (0..players)
            .filter(|&s| s != seat)
            .map(|s| view["hand_sizes"][s].as_u64().unwrap() as usize)
            .sum();
        // Where each unseen card lands: a seat, or the stock (`players`).
        let mut places = vec![BTreeSet::new(); 52];
        let mut seeds = BTreeSet::new();
        let all = samples(&view, SAMPLES, 6);
        for sample in &all {
            let (hands, _) = deal_of(sample);
            for c in 0..52u8 {
                if unseen & bit(c) != 0 {
                    let place = (0..players).find(|&s| hands[s] & bit(c) != 0);
                    places[usize::from(c)].insert(place.unwrap_or(players));
                }
            }
            seeds.insert(field(&sample.position(), "seed").to_string());
        }
        assert_eq!(seeds.len(), all.len(), "each sample has a fresh seed");
        if others > 0 {
            let moving = (0..52).filter(|&c| places[c].len() > 1).count();
            assert!(moving > 0, "nothing the seat cannot see moves");
            // Where the other hands take a tenth of the unseen cards or more, every unseen
            // card turns up in more than one place (missing by chance: under 1e-13).
            let unseen_count = unseen.count_ones() as usize;
            for c in 0..52u8 {
                if unseen & bit(c) != 0 && unseen_count > others && others * 10 >= unseen_count {
                    assert!(places[usize::from(c)].len() > 1, "card {c} never moves");
                }
            }
        }
    }
}

#[test]
fn the_same_generator_gives_the_same_samples() {
    let view = view(VOIDS);
    let a: Vec<String> = samples(&view, 20, 7).iter().map(|s| s.position()).collect();
    let b: Vec<String> = samples(&view, 20, 7).iter().map(|s| s.position()).collect();
    assert_eq!(a, b);
}

#[test]
fn kow_9_a_view_that_is_not_a_seats_view_of_this_game_is_refused() {
    let good = view(VOIDS);
    let with = |key: &str, value: Value| {
        let mut v = good.clone();
        v[key] = value;
        v
    };
    let spectator = with("seat", Value::Null);
    assert!(refusal(&spectator).contains("spectator"));
    let mut no_hand = good.clone();
    no_hand.as_object_mut().unwrap().remove("hand");
    assert!(refusal(&no_hand).contains("spectator"));
    let other_game = with("game", "neuf".into());
    assert!(refusal(&other_game).contains("not a view of knockout-whist"));
    // A view of five players read with the options of four.
    let err = KnockoutWhist::knowledge(&Options::players(4).unwrap(), &good).unwrap_err();
    assert!(err.0.contains("for 4 players"));
    let rules = with("options", serde_json::json!({"players": 5, "extra": 1}));
    assert!(refusal(&rules).starts_with("a view of"));
    let bad_card = with(
        "hand",
        serde_json::json!(["6C", "9C", "AD", "6S", "JS", "1S"]),
    );
    assert!(refusal(&bad_card).contains("bad card"));
    let short_hand = with("hand", serde_json::json!(["6C", "9C", "AD", "6S", "JS"]));
    assert!(refusal(&short_hand).contains("hand size"));
    // 10H is the turned card (KOW-3.1); no hand holds it too.
    let twice = with(
        "hand",
        serde_json::json!(["6C", "9C", "AD", "6S", "JS", "10H"]),
    );
    assert!(refusal(&twice).contains("two places"));
    let hand_eight = with("hand_number", 8.into());
    assert!(refusal(&hand_eight).contains("KOW-2.2"));
    // KOW-2.2: seat 4 has played two cards and holds five, its seven.
    let mut sizes = good["hand_sizes"].clone();
    sizes[4] = 4.into();
    assert!(refusal(&with("hand_sizes", sizes)).contains("KOW-2.2"));
    let missing = {
        let mut v = good.clone();
        v.as_object_mut().unwrap().remove("tricks");
        v
    };
    assert!(refusal(&missing).contains("not a knockout-whist seat's view"));
    assert!(refusal(&missing).contains("missing field `tricks`"));
    let extra = with("bid", 1.into());
    assert!(refusal(&extra).contains("unknown field `bid`"));
    // A field that may be null must still be there.
    let mut no_winner = good.clone();
    no_winner.as_object_mut().unwrap().remove("winner");
    assert!(refusal(&no_winner).contains("missing field `winner`"));
    let bad_seat = with("dealer", 9.into());
    assert!(refusal(&bad_seat).contains("expected a seat"));
    let phase = with("phase", "bidding".into());
    assert!(refusal(&phase).contains("phase"));
}
