//! The learned estimate between hands (`rollout=learned`): each seat's chance of winning the
//! game from the start of the next hand, read from a table learnt by self-play
//! (`benchmarks/knockout_whist_values.py` writes `values.json`, compiled in here), in place
//! of the built-in share ([`super::rollout`]'s `share`, which sees only who is still in).
//!
//! A cell is (players at the table, cards dealt next hand, the seat's status, whether it
//! names the next trumps, the other active seats, the other dogs, whether the dog's life
//! is spent); its value is the rate at which a seat so placed went on to win. A seat tied
//! for the most tricks names the trumps with the chance the cut gives it (KOW-3.2). A cell
//! the games never met falls back to the share's chance. The chances are scaled to sum to 1
//! (one seat wins); the rollout turns them into returns as the share's are.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Status;
use crate::game::MAX_PLAYERS;

/// The table, as the script wrote it.
pub const VALUES_JSON: &str = include_str!("values.json");

/// (players, cards, status, named, active others, dog others, dog's life spent).
type Cell = [u8; 7];

/// The table read once: each cell's rate.
pub fn table() -> &'static HashMap<Cell, f64> {
    static TABLE: OnceLock<HashMap<Cell, f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let parsed: serde_json::Value =
            serde_json::from_str(VALUES_JSON).expect("values.json is JSON");
        let cells = parsed["cells"].as_array().expect("values.json has cells");
        cells
            .iter()
            .map(|row| {
                let row = row.as_array().expect("a cell is a list");
                let mut cell = [0u8; 7];
                for (c, v) in cell.iter_mut().zip(row) {
                    *c = v.as_u64().expect("a cell's key is a small number") as u8;
                }
                (cell, row[7].as_f64().expect("a cell's rate is a number"))
            })
            .collect()
    })
}

/// Each seat's chance of winning from the start of the next hand, `cards` a seat, from the
/// statuses after this hand, the tricks each seat won in it and whether the dog's life is
/// spent; `fallback`, a seat's chance where the table lacks its cells.
pub(super) fn learned_chances(
    status: &[Status],
    won: &[u32],
    cards: u8,
    dog_used: bool,
    fallback: &[f64],
) -> [f64; MAX_PLAYERS] {
    let n = status.len();
    let most = won.iter().copied().max().unwrap_or(0);
    let tied = won.iter().filter(|&&w| w == most).count() as f64;
    let table = table();
    let mut chance = [0.0; MAX_PLAYERS];
    for s in 0..n {
        if status[s] == Status::Out {
            continue;
        }
        let others = || (0..n).filter(move |&o| o != s).map(|o| status[o]);
        let active = others().filter(|&o| o == Status::Active).count() as u8;
        let dogs = others().filter(|&o| o == Status::Dog).count() as u8;
        let cell = |named: u8| {
            let key = [
                n as u8,
                cards,
                status[s] as u8, // Active, Dog, Out: 0, 1, 2, as Python numbers them
                named,
                active,
                dogs,
                u8::from(dog_used),
            ];
            table.get(&key).copied()
        };
        let names = if won[s] == most { 1.0 / tied } else { 0.0 };
        chance[s] = match (cell(1), cell(0)) {
            (Some(named), Some(not)) => names * named + (1.0 - names) * not,
            (Some(named), None) if names == 1.0 => named,
            (None, Some(not)) if names == 0.0 => not,
            _ => fallback[s],
        };
    }
    let total: f64 = chance[..n].iter().sum();
    chance[..n].iter_mut().for_each(|c| *c /= total);
    chance
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_loads_and_its_rates_are_chances() {
        let table = table();
        // Three players, the tables of record, at every hand after the first.
        for cards in 1..=6 {
            assert!(
                table.keys().any(|c| c[0] == 3 && c[1] == cards),
                "{cards} cards"
            );
        }
        assert!(table.values().all(|&p| (0.0..=1.0).contains(&p)));
    }

    #[test]
    fn the_seat_that_names_the_last_hands_trumps_is_the_favourite() {
        // KOW-3.2: two players left after hand 5 (two cards each next): the one with more
        // tricks in it names the trumps, and self-play says that wins most games.
        let status = [Status::Active, Status::Active, Status::Out];
        let fallback = [0.5, 0.5, 0.0];
        let chances = learned_chances(&status, &[2, 1, 0], 2, true, &fallback);
        assert!(chances[0] - chances[1] > 1.0 / 3.0, "{chances:?}");
        let sum: f64 = chances[..3].iter().sum();
        assert!((sum - 1.0).abs() < 1e-12 && chances[2] == 0.0);
        // Tied, each names them half the time (the cut): an even game.
        let even = learned_chances(&status, &[1, 1, 0], 2, true, &fallback);
        assert!((even[0] - even[1]).abs() < 1e-12, "{even:?}");
    }
}
