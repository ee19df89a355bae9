//! The perft fixture of the Python engine (`tests/fixtures/perft_knockout_whist.json`,
//! written by `scripts/regenerate_perft.py`) reproduced by the core: the number of action
//! sequences of exactly each depth, chance steps inside the actions. A change in the
//! generation of legal actions (follow-suit KOW-4.2, knocks KOW-6.3 / W-3, leads KOW-4.1 /
//! KOW-6.4, trump choices KOW-3.2, the order of play KOW-10) changes a count.

use cardtable_core::cards::parse_card;
use cardtable_core::game::{perft, Game, OptionValue, Stacked};
use cardtable_core::KnockoutWhist;
use serde_json::Value;

fn fixture() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/perft_knockout_whist.json"
    );
    let text = std::fs::read_to_string(path).expect("the perft fixture");
    let data: Value = serde_json::from_str(&text).expect("JSON");
    data["positions"].as_array().expect("positions").clone()
}

/// `cardtable.testing.perft_start`: the position, else a first deal of the deck (seed 0).
fn start(entry: &Value) -> KnockoutWhist {
    let pairs: Vec<(String, OptionValue)> = entry["options"]
        .as_object()
        .expect("options")
        .iter()
        .map(|(k, v)| (k.clone(), OptionValue::Int(v.as_i64().expect("int option"))))
        .collect();
    let options = KnockoutWhist::options(&pairs).expect("fixture options");
    if let Some(text) = entry["position"].as_str() {
        return KnockoutWhist::from_position(&options, text).expect("fixture position");
    }
    let deck: Vec<u8> = entry["deck"]
        .as_str()
        .expect("deck")
        .split_whitespace()
        .map(|c| parse_card(c).expect("card"))
        .collect();
    let dealer = options.dealer.expect("fixture dealer");
    let stacked = Stacked {
        decks: vec![deck],
        reshuffles: vec![],
    };
    KnockoutWhist::begin(&options, 0, dealer, stacked).expect("fixture deal")
}

/// The counts at depths `1 ..= up_to` (all depths when `None`) against the fixture's.
fn check(name: &str, up_to: Option<u32>) {
    let entry = fixture()
        .into_iter()
        .find(|e| e["name"] == name)
        .expect("fixture entry");
    let state = start(&entry);
    let counts = entry["counts"].as_object().expect("counts");
    let deepest = counts.len() as u32;
    for depth in 1..=up_to.unwrap_or(deepest).min(deepest) {
        let want = counts[&depth.to_string()].as_u64().expect("count");
        assert_eq!(perft(&state, depth), want, "{name} at depth {depth}");
    }
}

#[test]
fn fixture_names_the_four_starts() {
    let names: Vec<String> = fixture()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        names,
        [
            "three-players-hand-1",
            "five-players-hand-1-kow-ex-1",
            "five-players-hand-3-two-dogs-kow-ex-3",
            "three-players-hand-6-dog-to-game-end-kow-ex-9",
        ]
    );
}

/// KOW-4.1, KOW-4.2: three players, 4C turned; the deepest depth is half a million leaves,
/// a few seconds in a debug build.
#[test]
fn three_players_hand_one() {
    check("three-players-hand-1", None);
}

/// KOW-EX-1's deal, KOW-4.2 follow-suit over two tricks of five players.
#[test]
fn five_players_kow_ex_1() {
    check("five-players-hand-1-kow-ex-1", None);
}

/// KOW-EX-3: two dogs that play or knock (KOW-6.3, KOW-6.4, W-3, W-4), trump choice KOW-3.2.
#[test]
fn five_players_two_dogs_kow_ex_3() {
    check("five-players-hand-3-two-dogs-kow-ex-3", None);
}

/// KOW-EX-9 to the end of the game: a failed dog goes out (KOW-6.6), the 1-1 tie is cut
/// (KOW-5.3, W-2), the knocked-out seat deals hand 7 (KOW-5.4), hand 7 ends it (W-7).
#[test]
fn three_players_dog_to_game_end_kow_ex_9() {
    check("three-players-hand-6-dog-to-game-end-kow-ex-9", None);
}
