//! One deal's play on local bitmasks (NEUF-4, NEUF-8.3), for the exact solver: the hands,
//! the trick in progress and the tricks taken, copied in a few words, with none of the
//! state's score sheet or record of plays. The solver's tests hold it to the engine step
//! by step.

use super::ledger::{quota, TRICKS};
use super::tricks::{next_seat, winning_place};
use super::{Neuf, Phase, Trump, NO_SUIT};
use crate::cards::{bit, suit, Card, CardSet, SUIT_MASKS};

/// The rest of one deal's play, every hand known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Deal {
    /// Each seat's cards; the fourth is empty with three players (the spare is out of play).
    pub(super) hands: [CardSet; 4],
    pub(super) players: u8,
    pub(super) trump: Trump,
    /// The suit led to the trick in progress, [`NO_SUIT`] while it is empty.
    pub(super) led: u8,
    /// The trick in progress in playing order, `trick_len` cards of it.
    trick: [Card; 4],
    pub(super) trick_len: u8,
    /// The seat that led the trick in progress.
    pub(super) leader: u8,
    /// The cards of the trick in progress, as a set.
    pub(super) trick_cards: CardSet,
    /// Tricks each seat has taken this deal.
    pub(super) won: [u8; 4],
    /// Finished tricks.
    pub(super) done: u8,
    pub(super) to_move: u8,
    /// NEUF-8.3 (the house rule, 3 players only): each seat's score at the start of the
    /// deal, when the rule is on.
    crossing: Option<[i16; 3]>,
    /// The seat whose trick crossed to 0 or below under NEUF-8.3, ending the game.
    pub(super) crossed: Option<u8>,
}

impl Deal {
    /// The deal as `state` holds it, in the play phase.
    pub(super) fn new(state: &Neuf) -> Deal {
        debug_assert_eq!(state.phase, Phase::Play);
        let n = state.sheet.players();
        let cards = state.plays.current_cards(n);
        let mut trick = [0; 4];
        trick[..cards.len()].copy_from_slice(cards);
        let mut hands = state.hands;
        if n == 3 {
            hands[3] = 0;
        }
        let crossing = state.tie_avoidance.then(|| {
            let mut scores = [0; 3];
            scores.copy_from_slice(&state.sheet.scores()[..3]);
            scores
        });
        Deal {
            hands,
            players: n,
            trump: state.trump,
            led: state.led,
            trick,
            trick_len: cards.len() as u8,
            leader: state.plays.leader(state.plays.done()),
            trick_cards: cards.iter().fold(0, |m, &c| m | bit(c)),
            won: state.tricks_won,
            done: state.plays.done() as u8,
            to_move: state.to_move,
            crossing,
            crossed: None,
        }
    }

    /// Whether the deal (or, under NEUF-8.3, the game) is over.
    #[inline]
    pub(super) fn over(&self) -> bool {
        self.done == TRICKS || self.crossed.is_some()
    }

    /// Tricks still to be finished, the one in progress included.
    #[inline]
    pub(super) fn left(&self) -> u8 {
        TRICKS - self.done
    }

    /// Whether the house rule of NEUF-8.3 is on.
    #[inline]
    pub(super) fn house_rule(&self) -> bool {
        self.crossing.is_some()
    }

    /// NEUF-4.2: the cards the seat to move may play.
    #[inline]
    pub(super) fn legal(&self) -> CardSet {
        let hand = self.hands[self.to_move as usize];
        if self.led != NO_SUIT {
            let follow = hand & SUIT_MASKS[self.led as usize];
            if follow != 0 {
                return follow;
            }
        }
        hand
    }

    /// The card taking the trick in progress so far (NEUF-4.3), and its seat; the trick
    /// holds a card.
    #[inline]
    pub(super) fn best(&self) -> (Card, u8) {
        let place = winning_place(&self.trick[..self.trick_len as usize], self.trump);
        let seat = (self.leader as usize + place) % self.players as usize;
        (self.trick[place], seat as u8)
    }

    /// Plays `card` for the seat to move; the seat taking the trick when the card ends it.
    #[inline]
    pub(super) fn play(&mut self, card: Card) -> Option<u8> {
        let p = self.to_move;
        self.hands[p as usize] ^= bit(card);
        if self.trick_len == 0 {
            self.led = suit(card);
        }
        self.trick[self.trick_len as usize] = card;
        self.trick_len += 1;
        self.trick_cards |= bit(card);
        if self.trick_len < self.players {
            self.to_move = next_seat(p, self.players);
            return None;
        }
        let (_, taker) = self.best();
        self.won[taker as usize] += 1;
        self.done += 1;
        self.trick_len = 0;
        self.trick_cards = 0;
        self.led = NO_SUIT;
        self.leader = taker;
        self.to_move = taker;
        if let Some(scores) = self.crossing {
            // NEUF-8.3: surplus tricks count the moment they are won.
            let surplus = self.won[taker as usize].saturating_sub(quota(self.players));
            if scores[taker as usize] - i16::from(surplus) <= 0 {
                self.crossed = Some(taker);
            }
        }
        Some(taker)
    }
}
