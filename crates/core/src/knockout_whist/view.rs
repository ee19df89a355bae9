//! A Knockout Whist seat's view as `KnockoutWhistState.view(seat)` writes it (KOW-9), read
//! with serde: every field named and typed, none unknown, none missing (a spectator's view
//! lacks `hand` and `legal_actions`). What the values must mean (seats of the game, cards,
//! suits, counts that fit KOW-2.2) is checked by the reader in `knowledge.rs`.
//!
//! Python's `cardtable.rules.knockout_whist.view.KnockoutWhistView` describes the same
//! fields (tests/rules/test_view_schema.py holds the two equal).

use serde::Deserialize;

use crate::views::{absent_or, nullable};

/// A play as the view writes it: `[seat, "7D"]`, or `[seat, "knock"]` (KOW-6.3).
pub(super) type PlayView = (i64, String);

/// A seat's (or a spectator's) view of a Knockout Whist game.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    pub(super) game: String,
    pub(super) options: Rules,
    #[serde(deserialize_with = "nullable")]
    pub(super) seat: Option<i64>,
    pub(super) players: i64,
    pub(super) hand_number: i64,
    pub(super) hand_size: i64,
    pub(super) dealer: i64,
    pub(super) phase: String,
    #[serde(deserialize_with = "nullable")]
    pub(super) to_move: Option<i64>,
    pub(super) statuses: Vec<String>,
    pub(super) dog_used: bool,
    pub(super) hand_sizes: Vec<i64>,
    pub(super) tricks_won: Vec<i64>,
    #[serde(deserialize_with = "nullable")]
    pub(super) trump: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub(super) turned: Option<String>,
    /// The cut of W-2, round by round.
    pub(super) cuts: Vec<Vec<PlayView>>,
    #[serde(deserialize_with = "nullable")]
    pub(super) chooser: Option<i64>,
    pub(super) trick: Vec<PlayView>,
    pub(super) tricks: Vec<Trick>,
    #[serde(deserialize_with = "nullable")]
    pub(super) previous_hand: Option<PreviousHand>,
    /// `[seat, hand]` for each seat knocked out, in order.
    pub(super) eliminated: Vec<(i64, i64)>,
    #[serde(deserialize_with = "nullable")]
    pub(super) winner: Option<i64>,
    /// A seat's own hand; a spectator's view has none.
    #[serde(default, deserialize_with = "absent_or")]
    pub(super) hand: Option<Vec<String>>,
    #[serde(default, deserialize_with = "absent_or")]
    pub(super) legal_actions: Option<Vec<String>>,
}

/// The rules being played (`game.rules`).
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Rules {
    pub(super) players: i64,
}

/// A trick played out.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Trick {
    pub(super) plays: Vec<PlayView>,
    #[serde(deserialize_with = "nullable")]
    pub(super) winner: Option<i64>,
}

/// The hand before this one, shown to everyone.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PreviousHand {
    pub(super) hand_number: i64,
    pub(super) trump: String,
    pub(super) tricks: Vec<Trick>,
    pub(super) tricks_won: Vec<i64>,
}
