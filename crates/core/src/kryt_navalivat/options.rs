//! The options, read and refused as `KrytNavalivat.__init__` reads them: `players` (2-6,
//! default 2, K-2), `dealer` (a seat, or drawn from the seed, KRYT-2.1) and `trump_mode`
//! (`"turned"`, KRYT-2.4, or `"permanent"`, KRYT-8).

use crate::game::{option, OptionError, OptionValue};

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
        refuse_unknown(pairs)?;
        let players = match option(pairs, "players") {
            None => 2,
            Some(OptionValue::Int(n)) if (2..=6).contains(n) => *n as usize,
            Some(other) => {
                return Err(OptionError(format!(
                    "kryt-navalivat is for 2 to 6 players (K-2), not {}",
                    python_repr(other)
                )))
            }
        };
        let dealer = match option(pairs, "dealer") {
            None | Some(OptionValue::None) => None,
            Some(OptionValue::Int(d)) if (0..players as i64).contains(d) => Some(*d as usize),
            Some(other) => {
                return Err(OptionError(format!(
                    "dealer must be a seat 0-{}, not {}",
                    players - 1,
                    python_repr(other)
                )))
            }
        };
        let trump_mode = match option(pairs, "trump_mode") {
            None => TrumpMode::Turned,
            Some(OptionValue::Str(s)) if s == "turned" => TrumpMode::Turned,
            Some(OptionValue::Str(s)) if s == "permanent" => TrumpMode::Permanent,
            Some(other) => {
                return Err(OptionError(format!(
                    "trump_mode must be 'turned' or 'permanent' (KRYT-8), not {}",
                    python_repr(other)
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

fn refuse_unknown(pairs: &[(String, OptionValue)]) -> Result<(), OptionError> {
    let mut unknown: Vec<&str> = pairs
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| !KNOWN.contains(name))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort_unstable();
    unknown.dedup();
    let names: Vec<String> = unknown.iter().map(|n| python_str_repr(n)).collect();
    Err(OptionError(format!(
        "kryt-navalivat has no option {}; its options are {}",
        names.join(", "),
        KNOWN.join(", ")
    )))
}

/// A value as Python's `repr` writes it, for messages that read as Python's do.
fn python_repr(value: &OptionValue) -> String {
    match value {
        OptionValue::None => "None".into(),
        OptionValue::Bool(true) => "True".into(),
        OptionValue::Bool(false) => "False".into(),
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Str(s) => python_str_repr(s),
    }
}

fn python_str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, OptionValue)]) -> Vec<(String, OptionValue)> {
        items
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

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
