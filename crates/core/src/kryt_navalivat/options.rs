//! The options, read and refused as `KrytNavalivat.__init__` reads them: `players` (2-6,
//! default 2, K-2), `dealer` (a seat, or drawn from the seed, KRYT-2.1) and `trump_mode`
//! (`"turned"`, KRYT-2.4, or `"permanent"`, KRYT-8).

use crate::game::{OptionError, OptionValue};
use crate::options::{self, given, repr};

/// Where trumps come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TrumpMode {
    /// The card turned after the deal names trumps (KRYT-2.4).
    #[default]
    Turned,
    /// Diamonds trumps, spades anti-trumps, nothing turned (KRYT-8).
    Permanent,
}

/// The rules being played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub players: usize,
    pub dealer: Option<usize>,
    pub trump_mode: TrumpMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 2,
            dealer: None,
            trump_mode: TrumpMode::Turned,
        }
    }
}

const KNOWN: [&str; 3] = ["dealer", "players", "trump_mode"];

impl Options {
    /// The options of `make("kryt-navalivat", **pairs)`, checked in Python's order.
    pub fn read(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
        options::refuse_unknown("kryt-navalivat", &KNOWN, pairs)?;
        let players = options::players(
            pairs,
            2,
            |n| (2..=6).contains(&n),
            "kryt-navalivat is for 2 to 6 players (K-2)",
        )?;
        let dealer = options::dealer(pairs, players)?;
        let trump_mode = match given(pairs, "trump_mode") {
            None => TrumpMode::Turned,
            Some(OptionValue::Str(s)) if s == "turned" => TrumpMode::Turned,
            Some(OptionValue::Str(s)) if s == "permanent" => TrumpMode::Permanent,
            Some(other) => {
                return Err(OptionError(format!(
                    "trump_mode must be 'turned' or 'permanent' (KRYT-8), not {}",
                    repr(other)
                )))
            }
        };
        Ok(Options {
            players,
            dealer,
            trump_mode,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::pairs;

    #[test]
    fn k_2_defaults_and_messages() {
        assert_eq!(Options::read(&[]).unwrap(), Options::default());
        let e = Options::read(&pairs(&[("players", OptionValue::Str("3".into()))])).unwrap_err();
        assert_eq!(e.0, "kryt-navalivat is for 2 to 6 players (K-2), not '3'");
        let e = Options::read(&pairs(&[("colour", OptionValue::Str("red".into()))])).unwrap_err();
        assert_eq!(
            e.0,
            "kryt-navalivat has no option 'colour'; its options are dealer, players, trump_mode"
        );
        let e = Options::read(&pairs(&[("trump_mode", OptionValue::None)])).unwrap_err();
        assert_eq!(
            e.0,
            "trump_mode must be 'turned' or 'permanent' (KRYT-8), not None"
        );
    }
}
