//! A Knockout Whist seat's view as `KnockoutWhistState.view(seat)` writes it (KOW-9): written
//! by [`KnockoutWhist::view`], and read with serde: every field named and typed, none
//! unknown, none missing (a spectator's view lacks `hand` and `legal_actions`). What the
//! values must mean (seats of the game, cards, suits, counts that fit KOW-2.2) is checked by
//! the reader in `knowledge.rs`.
//!
//! Python's `cardtable.rules.knockout_whist.view.KnockoutWhistView` describes the same
//! fields (tests/rules/test_view_schema.py holds the two equal).

use serde::Deserialize;
use serde_json::{json, Value};

use super::plays::{Group, Play};
use super::state::{takes_over, KnockoutWhist, Status, HANDS, NONE};
use crate::cards::{card_text, cards};
use crate::game::{actions_of, Game};
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

// The view written -------------------------------------------------------------------------

const SUIT_LETTERS: [&str; 4] = ["C", "D", "H", "S"];

fn play_view(play: Play) -> Value {
    let card = play.card().map_or_else(|| "knock".to_string(), card_text);
    json!([play.seat, card])
}

/// The seat whose card takes a trick (KOW-4.3); a knock takes nothing; `-1` for a trick of
/// knocks alone, as Python's `trick_winner` answers.
fn winner_of(group: Group<'_>, trump: u8) -> i64 {
    let nobody = Play {
        seat: NONE,
        card: NONE,
    };
    let best = group.plays().fold(nobody, |best, play| {
        if takes_over(play, best, trump) {
            play
        } else {
            best
        }
    });
    if best.card == NONE {
        -1
    } else {
        i64::from(best.seat)
    }
}

fn trick_view(group: Group<'_>, trump: u8) -> Value {
    json!({
        "plays": group.plays().map(play_view).collect::<Vec<_>>(),
        "winner": winner_of(group, trump),
    })
}

fn nullable_seat(seat: u8) -> Value {
    if seat == NONE {
        Value::Null
    } else {
        json!(seat)
    }
}

impl KnockoutWhist {
    /// KOW-9: what `seat` sees (a spectator's view for `None`), as
    /// `KnockoutWhistState.view` writes it: the public facts, and a seat's own hand and
    /// legal actions.
    pub fn view(&self, seat: Option<usize>) -> Value {
        let n = self.n();
        let status_name = |s: &Status| match s {
            Status::Active => "active",
            Status::Dog => "dog",
            Status::Out => "out",
        };
        let suit = |s: u8| SUIT_LETTERS.get(usize::from(s)).copied();
        let previous = (self.previous_trump != NONE).then(|| {
            let tricks: Vec<Group<'_>> = self.previous.groups().collect();
            let mut won = vec![0u32; n];
            for &group in &tricks {
                if let Ok(s) = usize::try_from(winner_of(group, self.previous_trump)) {
                    won[s] += 1;
                }
            }
            json!({
                "hand_number": self.hand_no - 1,
                "trump": suit(self.previous_trump),
                "tricks": tricks.iter().map(|&g| trick_view(g, self.previous_trump)).collect::<Vec<_>>(),
                "tricks_won": won,
            })
        });
        let mut view = json!({
            "game": Self::NAME,
            "options": {"players": n},
            "seat": seat,
            "players": n,
            "hand_number": self.hand_no,
            "hand_size": HANDS + 1 - self.hand_no,
            "dealer": self.dealer,
            "phase": self.phase.text(),
            "to_move": self.to_move(),
            "statuses": self.status[..n].iter().map(status_name).collect::<Vec<_>>(),
            "dog_used": self.dog_used,
            "hand_sizes": self.hands[..n].iter().map(|h| h.count_ones()).collect::<Vec<_>>(),
            "tricks_won": &self.tricks_won[..n],
            "trump": suit(self.trump),
            "turned": (self.turned != NONE).then(|| card_text(self.turned)),
            "cuts": self
                .cuts
                .groups()
                .map(|g| g.plays().map(play_view).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
            "chooser": nullable_seat(self.chooser),
            "trick": self.trick().map(play_view).collect::<Vec<_>>(),
            "tricks": self
                .plays
                .groups_before(self.trick_start)
                .map(|g| trick_view(g, self.trump))
                .collect::<Vec<_>>(),
            "previous_hand": previous,
            "eliminated": self.eliminated().iter().map(|&(s, h)| json!([s, h])).collect::<Vec<_>>(),
            "winner": self.winner(),
        });
        if let (Some(seat), Value::Object(map)) = (seat, &mut view) {
            let hand: Vec<Value> = cards(self.hands[seat])
                .map(|c| card_text(c).into())
                .collect();
            map.insert("hand".into(), Value::Array(hand));
            let legal = if Some(seat) == self.to_move() {
                actions_of(self.legal_mask())
            } else {
                Vec::new()
            };
            let legal: Vec<Value> = legal
                .into_iter()
                .map(|a| Self::action_text(a).into())
                .collect();
            map.insert("legal_actions".into(), Value::Array(legal));
        }
        view
    }
}
