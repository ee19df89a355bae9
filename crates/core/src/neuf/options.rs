//! Neuf's options, read and refused exactly as `cardtable.rules.neuf.game.Neuf.__init__`
//! reads them (NEUF-1.1, NEUF-8.1 … NEUF-8.4, N-3).

use crate::game::{OptionError, OptionValue};
use crate::options::{self, given, repr};

/// A suit index, or [`NO_TRUMP`] in an `NT` deal.
pub type Trump = u8;
/// The trump of an `NT` deal (NEUF-2.1): no suit index.
pub const NO_TRUMP: Trump = 4;

/// The trump sequence presets of NEUF-8.1 / N-1, named after their cycles.
pub const SEQUENCE_NAMES: [&str; 5] = ["HDCS-NT", "SHDC-NT", "HDSC-NT", "HCDS-NT", "HDCS"];
const H: Trump = 2;
const D: Trump = 1;
const C: Trump = 0;
const S: Trump = 3;
const SEQUENCES: [&[Trump]; 5] = [
    &[H, D, C, S, NO_TRUMP],
    &[S, H, D, C, NO_TRUMP],
    &[H, D, S, C, NO_TRUMP],
    &[H, C, D, S, NO_TRUMP],
    &[H, D, C, S],
];

/// NEUF-2.1: the trump of deal `deal` (from 1) in preset `sequence`.
#[inline]
pub fn trump_of(sequence: u8, deal: usize) -> Trump {
    let cycle = SEQUENCES[sequence as usize];
    cycle[(deal - 1) % cycle.len()]
}

/// The rules of one game of Neuf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// 3, or 4 in two partnerships (NEUF-8.4).
    pub players: usize,
    /// The first dealer; drawn from the seed when absent (N-3).
    pub dealer: Option<usize>,
    /// An index into [`SEQUENCE_NAMES`] (NEUF-8.1).
    pub trump_sequence: u8,
    /// NEUF-8.2: the dealer decides first.
    pub dealer_exchanges_first: bool,
    /// NEUF-8.3: surplus tricks count the moment they are won.
    pub tie_avoidance: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 3,
            dealer: None,
            trump_sequence: 0,
            dealer_exchanges_first: false,
            tie_avoidance: false,
        }
    }
}

impl Options {
    /// The preset's name, as positions and options write it.
    pub fn sequence_name(&self) -> &'static str {
        SEQUENCE_NAMES[self.trump_sequence as usize]
    }
}

const KNOWN: [&str; 5] = [
    "dealer",
    "dealer_exchanges_first",
    "players",
    "tie_avoidance",
    "trump_sequence",
];

/// Reads options in the order Python checks them, so the first fault found is the one
/// Python names.
pub fn read(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
    options::refuse_unknown("neuf", &KNOWN, pairs)?;
    let players = options::players(
        pairs,
        3,
        |n| n == 3 || n == 4,
        "neuf is for 3 players, or 4 in partnership",
    )?;
    let dealer = options::dealer(pairs, players)?;
    let trump_sequence = match given(pairs, "trump_sequence") {
        None => 0,
        Some(value) => sequence_index(value)?,
    };
    let dealer_exchanges_first = three_player_flag(pairs, "dealer_exchanges_first", players)?;
    let tie_avoidance = three_player_flag(pairs, "tie_avoidance", players)?;
    Ok(Options {
        players,
        dealer,
        trump_sequence,
        dealer_exchanges_first,
        tie_avoidance,
    })
}

/// NEUF-8.1 / N-1: a preset's index; anything else is refused with the presets listed.
pub fn sequence_index(value: &OptionValue) -> Result<u8, OptionError> {
    if let OptionValue::Str(name) = value {
        if let Some(i) = SEQUENCE_NAMES.iter().position(|s| s == name) {
            return Ok(i as u8);
        }
    }
    Err(OptionError(format!(
        "unknown trump_sequence {}; choose one of {}",
        repr(value),
        SEQUENCE_NAMES.join(", ")
    )))
}

/// A flag of the 3-player game: NEUF-8.4's partnership game has no exchange (NEUF-8.2) and
/// cannot tie (NEUF-8.3).
fn three_player_flag(
    pairs: &[(String, OptionValue)],
    flag: &str,
    players: usize,
) -> Result<bool, OptionError> {
    let on = match given(pairs, flag) {
        None => false,
        Some(OptionValue::Bool(b)) => *b,
        Some(other) => {
            return Err(OptionError(format!(
                "{flag} must be True or False, not {}",
                repr(other)
            )))
        }
    };
    if on && players == 4 {
        let why = if flag == "dealer_exchanges_first" {
            "has no exchange (NEUF-8.4)"
        } else {
            "cannot tie (NEUF-8.4)"
        };
        return Err(OptionError(format!(
            "{flag} is a rule of the 3-player game; the 4-player partnership game {why}"
        )));
    }
    Ok(on)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neuf_2_1_every_preset_cycles_from_its_first_entry() {
        // NEUF-2.1, N-1, N-2: deal n plays seq[(n-1) mod len(seq)].
        assert_eq!(
            (1..=6).map(|d| trump_of(0, d)).collect::<Vec<_>>(),
            [H, D, C, S, NO_TRUMP, H]
        );
        assert_eq!(
            (1..=5).map(|d| trump_of(4, d)).collect::<Vec<_>>(),
            [H, D, C, S, H]
        );
        assert_eq!(trump_of(1, 1), S);
        assert_eq!(trump_of(2, 3), S);
        assert_eq!(trump_of(3, 2), C);
    }
}
