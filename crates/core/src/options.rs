//! What every game's options share (`cardtable.options.check_options` and the checks each
//! `Game.__init__` repeats): unknown names refused, the seat count, the first dealer, and
//! values quoted as Python's `repr` quotes them, so that a refusal reads the same from
//! either engine.

use crate::game::{OptionError, OptionValue};

/// Options as `(name, value)` pairs owned, from borrowed names: the form
/// [`Game::options`](crate::game::Game::options) reads, for callers in Rust.
pub fn pairs(items: &[(&str, OptionValue)]) -> Vec<(String, OptionValue)> {
    items
        .iter()
        .map(|(name, value)| (name.to_string(), value.clone()))
        .collect()
}

/// The value given for option `name`, if any.
pub fn given<'a>(pairs: &'a [(String, OptionValue)], name: &str) -> Option<&'a OptionValue> {
    pairs.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// Refuses any name not in `known` (sorted, as Python lists them), naming them all.
pub fn refuse_unknown(
    game: &str,
    known: &[&str],
    pairs: &[(String, OptionValue)],
) -> Result<(), OptionError> {
    let mut unknown: Vec<&str> = pairs
        .iter()
        .map(|(name, _)| name.as_str())
        .filter(|name| !known.contains(name))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort_unstable();
    unknown.dedup();
    let names: Vec<String> = unknown.iter().map(|n| repr_str(n)).collect();
    Err(OptionError(format!(
        "{game} has no option {}; its options are {}",
        names.join(", "),
        known.join(", ")
    )))
}

/// The `players` option: `default` when absent, else a whole number `allowed` accepts;
/// anything else is refused with `refusal` and the value.
pub fn players(
    pairs: &[(String, OptionValue)],
    default: usize,
    allowed: impl Fn(i64) -> bool,
    refusal: &str,
) -> Result<usize, OptionError> {
    match given(pairs, "players") {
        None => Ok(default),
        Some(OptionValue::Int(n)) if allowed(*n) => Ok(*n as usize),
        Some(other) => Err(OptionError(format!("{refusal}, not {}", repr(other)))),
    }
}

/// The `dealer` option: the first dealer's seat, or `None` (absent or `None`) to draw it
/// from the seed.
pub fn dealer(
    pairs: &[(String, OptionValue)],
    players: usize,
) -> Result<Option<usize>, OptionError> {
    match given(pairs, "dealer") {
        None | Some(OptionValue::None) => Ok(None),
        Some(OptionValue::Int(d)) if (0..players as i64).contains(d) => Ok(Some(*d as usize)),
        Some(other) => Err(OptionError(format!(
            "dealer must be a seat 0-{}, not {}",
            players - 1,
            repr(other)
        ))),
    }
}

/// An option value as Python's `repr` writes it.
pub fn repr(value: &OptionValue) -> String {
    match value {
        OptionValue::None => "None".into(),
        OptionValue::Bool(true) => "True".into(),
        OptionValue::Bool(false) => "False".into(),
        OptionValue::Int(n) => n.to_string(),
        OptionValue::Str(s) => repr_str(s),
    }
}

/// A string as Python's `repr` writes it: single quotes unless the text holds one and no
/// double quote, with backslash escapes for quotes and control characters.
pub fn repr_str(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for ch in text.chars() {
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

    #[test]
    fn repr_quotes_as_python_does() {
        assert_eq!(repr_str("HDCS"), "'HDCS'");
        assert_eq!(repr_str("it's"), "\"it's\"");
        assert_eq!(repr_str("a\nb\x01"), "'a\\nb\\x01'");
        assert_eq!(repr(&OptionValue::Bool(true)), "True");
        assert_eq!(repr(&OptionValue::None), "None");
        assert_eq!(repr(&OptionValue::Int(-3)), "-3");
    }

    #[test]
    fn unknown_names_are_listed_sorted_once() {
        let given = pairs(&[
            ("seats", OptionValue::Int(3)),
            ("colour", OptionValue::None),
            ("players", OptionValue::Int(3)),
        ]);
        let e = refuse_unknown("game", &["dealer", "players"], &given).unwrap_err();
        assert_eq!(
            e.0,
            "game has no option 'colour', 'seats'; its options are dealer, players"
        );
    }

    #[test]
    fn seats_and_dealers_are_checked() {
        let three = pairs(&[("players", OptionValue::Int(3))]);
        assert_eq!(players(&three, 2, |n| n == 3, "x"), Ok(3));
        assert_eq!(players(&[], 2, |n| n == 3, "x"), Ok(2));
        let e = players(&three, 2, |n| n == 4, "g is for 4").unwrap_err();
        assert_eq!(e.0, "g is for 4, not 3");
        let d = pairs(&[("dealer", OptionValue::Int(3))]);
        assert_eq!(dealer(&d, 4), Ok(Some(3)));
        assert_eq!(
            dealer(&d, 3).unwrap_err().0,
            "dealer must be a seat 0-2, not 3"
        );
        assert_eq!(
            dealer(&pairs(&[("dealer", OptionValue::None)]), 3),
            Ok(None)
        );
    }
}
