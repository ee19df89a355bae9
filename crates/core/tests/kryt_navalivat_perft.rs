//! Perft counts for Kryt'-navalivat': `tests/fixtures/perft_kryt_navalivat.json` (written by
//! `scripts/regenerate_perft.py` from the Python engine) reproduced by the core at every
//! depth. A beat is two actions (KRYT-4.6); the fixture's starts cover both trump modes
//! (KRYT-8), 2 and 3 players (KRYT-2.3), an open swap (KRYT-6) and a free turn with the end
//! of the hand in reach (KRYT-4.3, KRYT-7.2, KRYT-7.3).

use cardtable_core::cards::parse_card;
use cardtable_core::game::{perft, Game, Stacked};
use cardtable_core::kryt_navalivat::{Options, TrumpMode};
use cardtable_core::KrytNavalivat;
use serde_json::Value;

fn fixture() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/perft_kryt_navalivat.json"
    );
    let text = std::fs::read_to_string(path).expect("the perft fixture");
    let data: Value = serde_json::from_str(&text).expect("JSON");
    data["positions"].as_array().expect("positions").clone()
}

/// The start of an entry as `cardtable.testing.perft_start` makes it: the position, or a
/// first deal of the stacked deck with seed 0.
fn start(entry: &Value) -> KrytNavalivat {
    let o = &entry["options"];
    let options = Options {
        players: o["players"].as_u64().unwrap() as usize,
        dealer: o["dealer"].as_u64().map(|d| d as usize),
        trump_mode: match o["trump_mode"].as_str() {
            Some("permanent") => TrumpMode::Permanent,
            _ => TrumpMode::Turned,
        },
    };
    if let Some(text) = entry["position"].as_str() {
        return KrytNavalivat::from_position(&options, text).expect("a valid position");
    }
    let deck = entry["deck"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|c| parse_card(c).unwrap())
        .collect();
    let stacked = Stacked {
        decks: vec![deck],
        reshuffles: vec![],
    };
    KrytNavalivat::begin(&options, 0, options.dealer.unwrap(), stacked).expect("a deal")
}

#[test]
fn kryt_navalivat_perft_counts_match_the_fixture_at_every_depth() {
    // KRYT-3, KRYT-4, KRYT-5, KRYT-6, KRYT-7, KRYT-8, KRYT-10: all depths, 12 and 14 the
    // deepest, take well under a second unoptimised.
    for entry in fixture() {
        let name = entry["name"].as_str().unwrap();
        let state = start(&entry);
        for (depth, count) in entry["counts"].as_object().unwrap() {
            let depth: u32 = depth.parse().unwrap();
            let expected = count.as_u64().unwrap();
            assert_eq!(perft(&state, depth), expected, "{name} at depth {depth}");
        }
    }
}
