//! Reading and writing the position notations (`kow/1 …`, `neuf/1 …`, `kryt/1 …`) as
//! `cardtable.rules.notation` does: a header, then `key=value` fields separated by spaces;
//! card lists comma-separated, plays `seat:card` (`x` for a knock), tricks separated by `/`,
//! `-` for an empty value. [`Fields`] reads one field at a time so that every error names
//! its field.

use std::collections::HashMap;
use std::fmt;

use crate::cards::{parse_card, push_card, Card};

/// Why a position text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// One play to a trick: the seat and its card, `None` for a Knockout Whist knock.
pub type Play = (u8, Option<Card>);
/// A trick's plays in the order made.
pub type Trick = Vec<Play>;

/// The text of a knock in a list of plays.
pub const KNOCK_TEXT: &str = "x";

/// Appends `c1,c2,…` (or `-` for none) to `out`.
pub fn push_cards(out: &mut String, cards: impl IntoIterator<Item = Card>) {
    let start = out.len();
    for c in cards {
        if out.len() > start {
            out.push(',');
        }
        push_card(out, c);
    }
    if out.len() == start {
        out.push('-');
    }
}

/// Appends `seat:card,…` (or `-`) to `out`; a card of `None` is a knock, `x`.
pub fn push_plays(out: &mut String, plays: impl IntoIterator<Item = (u8, Option<Card>)>) {
    let start = out.len();
    for (seat, card) in plays {
        if out.len() > start {
            out.push(',');
        }
        out.push_str(&seat.to_string());
        out.push(':');
        match card {
            Some(c) => push_card(out, c),
            None => out.push_str(KNOCK_TEXT),
        }
    }
    if out.len() == start {
        out.push('-');
    }
}

/// Appends tricks (lists of plays) separated by `/`, or `-` for none.
pub fn push_tricks<I, T>(out: &mut String, tricks: I)
where
    I: IntoIterator<Item = T>,
    T: IntoIterator<Item = (u8, Option<Card>)>,
{
    let start = out.len();
    for trick in tricks {
        if out.len() > start {
            out.push('/');
        }
        push_plays(out, trick);
    }
    if out.len() == start {
        out.push('-');
    }
}

/// The words of an action's text as the Python games split them: trimmed, lower case,
/// split on whitespace.
pub fn action_words(text: &str) -> Vec<String> {
    text.trim()
        .to_lowercase()
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// ASCII digits only (Python's `is_count`).
pub fn is_count(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The fields of one position, checked as they are read.
pub struct Fields<'a> {
    fields: HashMap<&'a str, &'a str>,
}

impl<'a> Fields<'a> {
    /// Splits `text` into fields after checking the header and that exactly the `required`
    /// fields, and no others but `optional` ones, are present, each once.
    pub fn new(
        text: &'a str,
        header: &str,
        game: &str,
        required: &[&str],
        optional: &[&str],
    ) -> Result<Self, PositionError> {
        let mut words = text.split_whitespace();
        if words.next() != Some(header) {
            return Err(PositionError(format!(
                "a {game} position starts with '{header}'"
            )));
        }
        let mut fields = HashMap::new();
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(PositionError(format!(
                    "position item '{word}' is not a new key=value"
                )));
            };
            if fields.insert(key, value).is_some() {
                return Err(PositionError(format!(
                    "position item '{word}' is not a new key=value"
                )));
            }
        }
        let missing: Vec<&str> = required
            .iter()
            .copied()
            .filter(|k| !fields.contains_key(k))
            .collect();
        let mut extra: Vec<&str> = fields
            .keys()
            .copied()
            .filter(|k| !required.contains(k) && !optional.contains(k))
            .collect();
        extra.sort_unstable();
        if !missing.is_empty() || !extra.is_empty() {
            return Err(PositionError(format!(
                "position fields missing: {missing:?}; unknown: {extra:?}"
            )));
        }
        Ok(Fields { fields })
    }

    /// The raw value of a field that [`Fields::new`] made sure is present (or `""`).
    pub fn get(&self, key: &str) -> &'a str {
        self.fields.get(key).copied().unwrap_or("")
    }

    /// An optional field's value.
    pub fn optional(&self, key: &str) -> Option<&'a str> {
        self.fields.get(key).copied()
    }

    /// An error naming `key` and its value.
    pub fn fail(&self, key: &str, why: impl fmt::Display) -> PositionError {
        PositionError(format!(
            "position field {key}={:?}: {why}",
            self.fields.get(key).copied().unwrap_or("")
        ))
    }

    /// A whole number within `low ..= high`.
    pub fn number(&self, key: &str, low: i128, high: i128) -> Result<i128, PositionError> {
        let text = self.get(key);
        let digits = text.strip_prefix('-').unwrap_or(text);
        match text.parse::<i128>() {
            Ok(v) if is_count(digits) && (low..=high).contains(&v) => Ok(v),
            _ => Err(self.fail(key, format!("expected a whole number {low}-{high}"))),
        }
    }

    /// A seat or count within `low ..= high`.
    pub fn small(&self, key: &str, low: usize, high: usize) -> Result<usize, PositionError> {
        Ok(self.number(key, low as i128, high as i128)? as usize)
    }

    /// `-` for none, else a number within `low ..= high`.
    pub fn optional_small(
        &self,
        key: &str,
        low: usize,
        high: usize,
    ) -> Result<Option<usize>, PositionError> {
        if self.get(key) == "-" {
            Ok(None)
        } else {
            self.small(key, low, high).map(Some)
        }
    }

    /// Comma-separated cards from `text` (a part of field `key`); `-` is none.
    pub fn cards_in(&self, key: &str, text: &str) -> Result<Vec<Card>, PositionError> {
        if text == "-" {
            return Ok(Vec::new());
        }
        text.split(',')
            .map(|c| parse_card(c).map_err(|e| self.fail(key, e)))
            .collect()
    }

    /// The cards of field `key`.
    pub fn cards(&self, key: &str) -> Result<Vec<Card>, PositionError> {
        self.cards_in(key, self.get(key))
    }

    /// `seat:card` items from `text` (part of field `key`); with `knocks`, `x` is a knock.
    pub fn plays_in(
        &self,
        key: &str,
        text: &str,
        players: usize,
        knocks: bool,
    ) -> Result<Vec<(u8, Option<Card>)>, PositionError> {
        if text == "-" {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for item in text.split(',') {
            let (seat, card) = item.split_once(':').unwrap_or((item, ""));
            let seat_ok = is_count(seat) && seat.parse::<usize>().is_ok_and(|s| s < players);
            if !seat_ok || card.is_empty() {
                return Err(self.fail(key, format!("'{item}' is not seat:card")));
            }
            let seat = seat.parse::<u8>().expect("checked seat");
            if knocks && card == KNOCK_TEXT {
                out.push((seat, None));
                continue;
            }
            out.push((seat, Some(parse_card(card).map_err(|e| self.fail(key, e))?)));
        }
        Ok(out)
    }

    /// Tricks separated by `/` from `text` (part of field `key`); `-` is none.
    pub fn tricks_in(
        &self,
        key: &str,
        text: &str,
        players: usize,
        knocks: bool,
    ) -> Result<Vec<Trick>, PositionError> {
        if text == "-" {
            return Ok(Vec::new());
        }
        text.split('/')
            .map(|t| self.plays_in(key, t, players, knocks))
            .collect()
    }

    /// The tricks of field `key`.
    pub fn tricks(
        &self,
        key: &str,
        players: usize,
        knocks: bool,
    ) -> Result<Vec<Trick>, PositionError> {
        self.tricks_in(key, self.get(key), players, knocks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_use_dash_for_empty() {
        let mut s = String::new();
        push_cards(&mut s, []);
        s.push(' ');
        push_cards(&mut s, [0, 47]);
        s.push(' ');
        push_tricks(&mut s, [vec![(0, Some(12)), (1, None)], vec![(2, Some(0))]]);
        assert_eq!(s, "- 2C,10S 0:AC,1:x/2:2C");
    }

    #[test]
    fn fields_name_their_errors() {
        let r = Fields::new("kow/1 a=1 b=x", "kow/1", "knockout-whist", &["a", "b"], &[]).unwrap();
        assert_eq!(r.small("a", 0, 3), Ok(1));
        assert!(r.small("b", 0, 3).unwrap_err().0.contains("b=\"x\""));
        assert!(Fields::new("kow/1 a=1", "kow/1", "kow", &["a", "b"], &[]).is_err());
        assert!(Fields::new("kow/1 a=1 a=2", "kow/1", "kow", &["a"], &[]).is_err());
        assert!(Fields::new("neuf/1 a=1", "kow/1", "kow", &["a"], &[]).is_err());
    }
}
