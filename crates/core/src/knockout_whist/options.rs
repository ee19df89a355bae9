//! The options of `cardtable.make("knockout-whist", …)`: `players` (2–7, default 4) and
//! `dealer` (the first dealer's seat, or `None` to draw it from the seed, W-11), refused
//! as `KnockoutWhist.__init__` refuses them, with the same messages.

use crate::game::{OptionError, OptionValue};
use crate::options;

pub const NAME: &str = "knockout-whist";
pub const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 7;
const DEFAULT_PLAYERS: usize = 4;
const KNOWN: [&str; 2] = ["dealer", "players"];

/// The rules being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub players: usize,
    pub dealer: Option<usize>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: DEFAULT_PLAYERS,
            dealer: None,
        }
    }
}

impl Options {
    /// Options for `players` seats, the first dealer drawn from the seed.
    pub fn players(players: usize) -> Result<Options, OptionError> {
        read(&options::pairs(&[(
            "players",
            OptionValue::Int(players as i64),
        )]))
    }
}

/// Reads options as `KnockoutWhist(**options)` does.
pub fn read(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
    options::refuse_unknown(NAME, &KNOWN, pairs)?;
    let players = options::players(
        pairs,
        DEFAULT_PLAYERS,
        |n| (MIN_PLAYERS as i64..=MAX_PLAYERS as i64).contains(&n),
        &format!("{NAME} is for {MIN_PLAYERS} to {MAX_PLAYERS} players"),
    )?;
    let dealer = options::dealer(pairs, players)?;
    Ok(Options { players, dealer })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::pairs;

    #[test]
    fn unknown_names_are_listed_sorted() {
        let e = read(&pairs(&[
            ("seats", OptionValue::Int(3)),
            ("colour", OptionValue::None),
        ]))
        .unwrap_err();
        assert_eq!(
            e.0,
            "knockout-whist has no option 'colour', 'seats'; its options are dealer, players"
        );
    }
}
