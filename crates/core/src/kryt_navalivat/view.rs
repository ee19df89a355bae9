//! A Kryt'-navalivat' seat's view as `KrytState.view(seat)` writes it (KRYT-9), read with
//! serde: every field named and typed, none unknown, none missing (a spectator's view lacks
//! `hand` and `legal_actions`). What the values must mean is checked by the reader in
//! `knowledge.rs`, which also holds every field equal to the view of a sample of it.
//!
//! Python's `cardtable.rules.kryt_navalivat.view.KrytNavalivatView` describes the same
//! fields (tests/rules/test_view_schema.py holds the two equal).

use serde::{Deserialize, Serialize};

use crate::views::{absent_or, nullable};

/// A seat's (or a spectator's) view of a hand of Kryt'-navalivat'. The fields are in the
/// order the view writes them, the order the reader compares them in.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    pub(super) game: String,
    pub(super) options: Rules,
    #[serde(deserialize_with = "nullable")]
    pub(super) seat: Option<i64>,
    pub(super) players: i64,
    pub(super) dealer: i64,
    pub(super) trump_mode: String,
    pub(super) trump: String,
    #[serde(deserialize_with = "nullable")]
    pub(super) anti_trump: Option<String>,
    /// The turned card under the stock, while it lies there.
    #[serde(deserialize_with = "nullable")]
    pub(super) trump_card: Option<String>,
    /// The cards in the stock, the turned card among them.
    pub(super) stock: i64,
    pub(super) hand_sizes: Vec<i64>,
    /// Per seat, the cards it is publicly known to hold (K-10).
    pub(super) known: Vec<Vec<String>>,
    pub(super) out: Vec<i64>,
    pub(super) pile: Vec<String>,
    pub(super) would_take: Vec<String>,
    /// The turn's phase (the state's mode), as every game's view names it.
    pub(super) phase: String,
    #[serde(deserialize_with = "nullable")]
    pub(super) to_move: Option<i64>,
    #[serde(deserialize_with = "nullable")]
    pub(super) loser: Option<i64>,
    pub(super) draw: bool,
    /// A seat's own hand; a spectator's view has none.
    #[serde(
        default,
        deserialize_with = "absent_or",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) hand: Option<Vec<String>>,
    #[serde(
        default,
        deserialize_with = "absent_or",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) legal_actions: Option<Vec<String>>,
}

/// The rules being played (`game.rules`).
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Rules {
    pub(super) players: i64,
    pub(super) trump_mode: String,
}
