//! The options of `cardtable.make("knockout-whist", …)`: `players` (2–7, default 4) and
//! `dealer` (the first dealer's seat, or `None` to draw it from the seed, W-11), refused
//! as `KnockoutWhist.__init__` refuses them, with the same messages.

use crate::game::{OptionError, OptionValue};

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
        read(&[("players".into(), OptionValue::Int(players as i64))])
    }
}

/// Reads options as `KnockoutWhist(**options)` does.
pub fn read(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
    refuse_unknown(pairs)?;
    let given = |name: &str| pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v);
    let players = match given("players") {
        None => DEFAULT_PLAYERS,
        Some(OptionValue::Int(n)) if (MIN_PLAYERS as i64..=MAX_PLAYERS as i64).contains(n) => {
            *n as usize
        }
        Some(other) => {
            return Err(OptionError(format!(
                "{NAME} is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {}",
                python_repr(other)
            )))
        }
    };
    let dealer = match given("dealer") {
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
    Ok(Options { players, dealer })
}

/// `cardtable.options.check_options`: every name must be one of the game's options.
fn refuse_unknown(pairs: &[(String, OptionValue)]) -> Result<(), OptionError> {
    let mut unknown: Vec<&str> = pairs
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !KNOWN.contains(n))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort_unstable();
    unknown.dedup();
    let names: Vec<String> = unknown.iter().map(|n| python_str_repr(n)).collect();
    Err(OptionError(format!(
        "{NAME} has no option {}; its options are {}",
        names.join(", "),
        KNOWN.join(", ")
    )))
}

/// A value as Python's `repr` writes it, so that messages read as the Python engine's.
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
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
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
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn python_reprs() {
        assert_eq!(python_str_repr("a'b"), "\"a'b\"");
        assert_eq!(python_str_repr("x\n"), "'x\\n'");
        assert_eq!(python_repr(&OptionValue::Bool(true)), "True");
    }

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
