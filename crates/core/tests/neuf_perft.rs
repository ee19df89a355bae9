//! Perft counts for Neuf in the core: every count of `tests/fixtures/perft_neuf.json`
//! (written by `scripts/regenerate_perft.py` from the Python engine) recomputed at
//! every depth. A change in the generation of legal actions (the exchange NEUF-3,
//! follow-suit NEUF-4.2, the leader NEUF-4.1 and NEUF-4.4, the end of the game NEUF-6 and
//! NEUF-8.3) changes a number here.

mod neuf_common;

use cardtable_core::chance::draw;
use cardtable_core::game::{perft, Game, OptionValue, Stacked};
use cardtable_core::neuf::Neuf;
use neuf_common::deck;
use serde_json::Value;

fn fixture() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/perft_neuf.json"
    );
    let text = std::fs::read_to_string(path).expect("the perft fixture");
    serde_json::from_str(&text).expect("JSON")
}

fn entry(name: &str) -> Value {
    fixture()["positions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no entry {name}"))
}

fn option_pairs(options: &Value) -> Vec<(String, OptionValue)> {
    options
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::Bool(b) => OptionValue::Bool(*b),
                Value::Number(n) => OptionValue::Int(n.as_i64().unwrap()),
                Value::String(s) => OptionValue::Str(s.clone()),
                _ => OptionValue::None,
            };
            (k.clone(), v)
        })
        .collect()
}

/// The start of an entry as `cardtable.testing.perft_start` makes it: its position, or a
/// first deal of its deck from seed 0.
fn start(entry: &Value) -> Neuf {
    let options = Neuf::options(&option_pairs(&entry["options"])).unwrap();
    if let Some(position) = entry["position"].as_str() {
        return Neuf::from_position(&options, position).unwrap();
    }
    let dealer = options
        .dealer
        .unwrap_or_else(|| draw(0, "dealer", options.players as u64) as usize);
    let stacked = Stacked {
        decks: vec![deck(entry["deck"].as_str().unwrap())],
        reshuffles: vec![],
    };
    Neuf::begin(&options, 0, dealer, stacked).unwrap()
}

fn stored(entry: &Value) -> Vec<u64> {
    let counts = entry["counts"].as_object().unwrap();
    (1..=counts.len())
        .map(|d| counts[&d.to_string()].as_u64().unwrap())
        .collect()
}

fn counted(state: &Neuf, depth: usize) -> Vec<u64> {
    (1..=depth as u32).map(|d| perft(state, d)).collect()
}

#[test]
fn neuf_perft_counts_match_the_fixture_at_every_depth() {
    // Every stored count, recomputed (NEUF-3, NEUF-4, NEUF-10 move generation).
    let fixture = fixture();
    let entries = fixture["positions"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    for entry in entries {
        let want = stored(entry);
        assert_eq!(
            counted(&start(entry), want.len()),
            want,
            "{}",
            entry["name"]
        );
    }
}

#[test]
fn neuf_perft_exchange_small_depths_by_hand() {
    // NEUF-EX-5's deal, dealer C: depths 1-3 are one decision each for A, B, C (NEUF-3.1):
    // 2, 4, 8; depth 4: A leads from 13 cards: 104; depth 5: B may play any of 13 unless
    // A exchanged and B kept, when B follows with 4 * 5 + 4 * 4 + 5 * 4 = 56 lines:
    // 6 * 169 + 2 * 56 = 1126 (tests/rules/test_neuf_perft.py).
    let entry = entry("three-players-exchange-neuf-ex-5");
    assert_eq!(counted(&start(&entry), 5), [2, 4, 8, 104, 1126]);
}

#[test]
fn neuf_perft_ex_4_trick_10_by_hand() {
    // NEUF-EX-4 at trick 10, trump S: 4; 16; 4 * 2 + 3 * 4 * 4 = 56; then the winner leads
    // from 3 cards: 168 with the house rule off, 0 with it on (B or C takes a fifth trick
    // and wins at once, NEUF-8.3); nothing at depth 13 (NEUF-6.1).
    let off = start(&entry("three-players-trick-10-neuf-ex-4"));
    let on = start(&entry("three-players-trick-10-neuf-ex-4-tie-avoidance"));
    assert_eq!(counted(&off, 4), [4, 16, 56, 168]);
    assert_eq!(counted(&on, 4), [4, 16, 56, 0]);
    assert_eq!(perft(&off, 13), 0);
}

#[test]
fn neuf_perft_four_players_by_hand() {
    // The partnership deal, dealer 3 (NEUF-8.4): 13; 37; 123; 332; 332 * 12 = 3984.
    let entry = entry("four-players-deal-1");
    assert_eq!(counted(&start(&entry), 5), [13, 37, 123, 332, 3984]);
}
