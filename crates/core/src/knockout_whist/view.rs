//! A Knockout Whist seat's view as `KnockoutWhistState.view(seat)` writes it (KOW-9): written
//! by [`KnockoutWhist::view`], and read with serde: every field named and typed, none
//! unknown, none missing (a spectator's view lacks `hand` and `legal_actions`). What the
//! values must mean (seats of the game, cards, suits, counts that fit KOW-2.2) is checked by
//! the reader in `knowledge.rs`.
//!
//! Python's `cardtable.rules.knockout_whist.view.KnockoutWhistView` describes the same
//! fields (tests/rules/test_view_schema.py holds the two equal).

use serde::{Deserialize, Serialize};

use super::plays::{Group, Play};
use super::state::{KnockoutWhist, HANDS, NONE};
use crate::cards::{card_text, trick_winner, Card, SUIT_LETTERS};
use crate::game::Game;
use crate::views::{absent_or, hand_sizes, nullable, own_part, Pair};

/// A play as the view writes it: `[seat, "7D"]`, or `[seat, "knock"]` (KOW-6.3).
pub(super) type PlayView = Pair<i64, String>;

/// A seat's (or a spectator's) view of a Knockout Whist game.
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
    pub(super) eliminated: Vec<Pair<i64, i64>>,
    #[serde(deserialize_with = "nullable")]
    pub(super) winner: Option<i64>,
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

/// The hand before this one, shown to everyone.
// Some fields are read for their shape alone: the reader names them all, uses some.
#[allow(dead_code)]
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PreviousHand {
    pub(super) hand_number: i64,
    pub(super) trump: String,
    pub(super) tricks: Vec<Trick>,
    pub(super) tricks_won: Vec<i64>,
}

// The view written -------------------------------------------------------------------------

fn play_view(play: Play) -> PlayView {
    let card = play.card().map_or_else(|| "knock".to_string(), card_text);
    Pair(i64::from(play.seat), card)
}

/// A trick played out with its winner (KOW-4.3, `cards::trick_winner`: a knock takes
/// nothing); `-1` for a trick of knocks alone, as Python's `trick_winner` answers.
fn trick_view(group: Group<'_>, trump: u8) -> Trick {
    let plays: Vec<(u8, Option<Card>)> = group.plays().map(|p| (p.seat, p.card())).collect();
    let trump = (trump != NONE).then_some(trump);
    Trick {
        plays: group.plays().map(play_view).collect(),
        winner: Some(trick_winner(&plays, trump).map_or(-1, i64::from)),
    }
}

fn seat_of(seat: u8) -> Option<i64> {
    (seat != NONE).then_some(i64::from(seat))
}

fn suit_of(suit: u8) -> Option<String> {
    SUIT_LETTERS.get(usize::from(suit)).map(char::to_string)
}

impl KnockoutWhist {
    /// KOW-9: what `seat` sees (a spectator's view for `None`), as
    /// `KnockoutWhistState.view` writes it: the public facts, and a seat's own hand and
    /// legal actions.
    pub fn view(&self, seat: Option<usize>) -> View {
        let n = self.n();
        let previous_hand = (self.previous_trump != NONE).then(|| {
            let tricks: Vec<Trick> = self
                .previous
                .groups()
                .map(|g| trick_view(g, self.previous_trump))
                .collect();
            let mut won = vec![0; n];
            for trick in &tricks {
                if let Some(Ok(s)) = trick.winner.map(usize::try_from) {
                    won[s] += 1;
                }
            }
            PreviousHand {
                hand_number: i64::from(self.hand_no) - 1,
                trump: suit_of(self.previous_trump).unwrap_or_default(),
                tricks,
                tricks_won: won,
            }
        });
        let (hand, legal_actions) = own_part(self, seat, |s| self.hands[s]);
        View {
            game: Self::NAME.to_string(),
            options: Rules { players: n as i64 },
            seat: seat.map(|s| s as i64),
            players: n as i64,
            hand_number: i64::from(self.hand_no),
            hand_size: i64::from(HANDS + 1 - self.hand_no),
            dealer: i64::from(self.dealer),
            phase: self.phase.text().to_string(),
            to_move: self.to_move().map(|s| s as i64),
            statuses: self.status[..n]
                .iter()
                .map(|s| s.name().to_string())
                .collect(),
            dog_used: self.dog_used,
            hand_sizes: hand_sizes(&self.hands[..n]),
            tricks_won: self.tricks_won[..n].iter().map(|&t| i64::from(t)).collect(),
            trump: suit_of(self.trump),
            turned: (self.turned != NONE).then(|| card_text(self.turned)),
            cuts: self
                .cuts
                .groups()
                .map(|g| g.plays().map(play_view).collect())
                .collect(),
            chooser: seat_of(self.chooser),
            trick: self.trick().map(play_view).collect(),
            tricks: self
                .plays
                .groups_before(self.trick_start)
                .map(|g| trick_view(g, self.trump))
                .collect(),
            previous_hand,
            eliminated: self
                .eliminated()
                .iter()
                .map(|&(s, h)| Pair(i64::from(s), i64::from(h)))
                .collect(),
            winner: self.winner().map(|s| s as i64),
            hand,
            legal_actions,
        }
    }
}
