//! This deal's tricks (NEUF-4): the cards in playing order with each trick's leader, and
//! who takes a trick (NEUF-4.3), as `rules/tricks.py` decides it.

use super::ledger::TRICKS;
use super::Trump;
use crate::cards::{suit, Card};

/// The cards of one deal's tricks in playing order, with each trick's leader; a play's
/// seat is its trick's leader plus its place in the trick, clockwise. Every card played
/// was held, so a deal never holds more than 52.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plays {
    cards: [Card; 52],
    leaders: [u8; TRICKS as usize + 1],
    len: u8,
    done: u8,
}

impl Plays {
    pub(super) const EMPTY: Plays = Plays {
        cards: [0; 52],
        leaders: [0; TRICKS as usize + 1],
        len: 0,
        done: 0,
    };

    /// The finished tricks.
    #[inline]
    pub(super) fn done(&self) -> usize {
        self.done as usize
    }

    /// Cards played to finished tricks, with `players` seats.
    #[inline]
    fn done_len(&self, players: u8) -> usize {
        self.done as usize * players as usize
    }

    /// The cards of finished trick `t`, in playing order.
    #[inline]
    pub(super) fn trick_cards(&self, t: usize, players: u8) -> &[Card] {
        let n = players as usize;
        &self.cards[t * n..(t + 1) * n]
    }

    /// The cards of the trick in progress, in playing order.
    #[inline]
    pub(super) fn current_cards(&self, players: u8) -> &[Card] {
        &self.cards[self.done_len(players)..self.len as usize]
    }

    #[inline]
    pub(super) fn leader(&self, t: usize) -> u8 {
        self.leaders[t]
    }

    /// `(seat, card)` of each play of a trick led by `leader`.
    pub(super) fn seated(
        cards: &[Card],
        leader: u8,
        players: u8,
    ) -> impl Iterator<Item = (u8, Card)> + '_ {
        cards
            .iter()
            .enumerate()
            .map(move |(k, &c)| ((leader as usize + k) as u8 % players, c))
    }

    #[inline]
    pub(super) fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    #[inline]
    pub(super) fn set_leader(&mut self, leader: u8) {
        self.leaders[self.done as usize] = leader;
    }

    /// Closes the trick in progress; `next` leads the one after.
    #[inline]
    pub(super) fn close_trick(&mut self, next: u8) {
        self.done += 1;
        if (self.done as usize) < self.leaders.len() {
            self.leaders[self.done as usize] = next;
        }
    }
}

/// NEUF-4.3: the place in the trick of the highest trump, else of the highest card of the
/// suit led (`trick_winner` of `rules/tricks.py`, card by card).
#[inline]
pub(super) fn winning_place(cards: &[Card], trump: Trump) -> usize {
    let mut best = 0;
    for (k, &card) in cards.iter().enumerate().skip(1) {
        let b = cards[best];
        let beats = suit(card) == suit(b) && card > b;
        let ruffs = suit(card) == trump && suit(b) != trump;
        if beats || ruffs {
            best = k;
        }
    }
    best
}

/// The seat that takes a trick led by `leader`.
#[inline]
pub(super) fn trick_winner(cards: &[Card], leader: u8, players: u8, trump: Trump) -> u8 {
    let seat = leader + winning_place(cards, trump) as u8;
    if seat >= players {
        seat - players
    } else {
        seat
    }
}

/// The seat to the left of `seat` (SPEC §0.1), without a division: play's hot path.
#[inline]
pub(super) fn next_seat(seat: u8, players: u8) -> u8 {
    if seat + 1 == players {
        0
    } else {
        seat + 1
    }
}
