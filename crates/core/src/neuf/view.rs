//! A Neuf seat's view as `NeufState.view(seat)` writes it (NEUF-9), read with serde: every
//! field named and typed, none unknown, none missing (a spectator's view lacks `hand`,
//! `held` and `legal_actions`; a 4-player view lacks `held`). What the values must mean
//! is checked by the reader in `knowledge.rs`, which also holds the whole view equal to the
//! view of a sample of it.
//!
//! Python's `cardtable.rules.neuf.view.NeufView` describes the same fields
//! (tests/rules/test_view_schema.py holds the two equal).

use serde::{Deserialize, Serialize};

use crate::views::{absent_or, nullable, Pair};

/// A play as the view writes it: `[seat, "7D"]`.
pub(super) type PlayView = Pair<i64, String>;

/// A seat's (or a spectator's) view of a Neuf game.
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
    pub(super) deal_number: i64,
    pub(super) dealer: i64,
    pub(super) trump: String,
    pub(super) trump_sequence: String,
    pub(super) phase: String,
    #[serde(deserialize_with = "nullable")]
    pub(super) to_move: Option<i64>,
    pub(super) exchange_order: Vec<i64>,
    /// `[seat, "exchange" | "keep"]` for each decision of the exchange (NEUF-3).
    pub(super) exchanges: Vec<Pair<i64, String>>,
    pub(super) quota: i64,
    pub(super) scores: Vec<i64>,
    pub(super) ledger: Vec<LedgerRow>,
    pub(super) hand_sizes: Vec<i64>,
    pub(super) tricks_won: Vec<i64>,
    pub(super) trick: Vec<PlayView>,
    pub(super) tricks: Vec<Trick>,
    #[serde(deserialize_with = "nullable")]
    pub(super) previous_deal: Option<PreviousDeal>,
    pub(super) winners: Vec<i64>,
    /// A seat's own hand; a spectator's view has none.
    #[serde(
        default,
        deserialize_with = "absent_or",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) hand: Option<Vec<String>>,
    /// Every 13-card hand the seat has held this deal (the 3-player game's alone).
    #[serde(
        default,
        deserialize_with = "absent_or",
        skip_serializing_if = "Option::is_none"
    )]
    pub(super) held: Option<Vec<Vec<String>>>,
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
    pub(super) trump_sequence: String,
    pub(super) dealer_exchanges_first: bool,
    pub(super) tie_avoidance: bool,
}

/// A row of the score sheet: one deal's tricks and the scores after it (NEUF-5).
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LedgerRow {
    pub(super) deal: i64,
    pub(super) trump: String,
    pub(super) dealer: i64,
    pub(super) tricks: Vec<i64>,
    pub(super) scores: Vec<i64>,
    pub(super) total: i64,
}

/// A trick played out.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Trick {
    pub(super) plays: Vec<PlayView>,
    #[serde(deserialize_with = "nullable")]
    pub(super) winner: Option<i64>,
}

/// The deal before, with its final spare shown once it is over (N-5; `null` with four
/// players).
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PreviousDeal {
    pub(super) tricks: Vec<Trick>,
    #[serde(deserialize_with = "nullable")]
    pub(super) spare: Option<Vec<String>>,
}
