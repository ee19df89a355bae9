//! A seat's observation of a Neuf state (NEUF-9): the layout of `cardtable.rl.observation`
//! for Neuf, entry for entry. A "side" is a player, or with four players a team, the
//! observer's first.
//!
//! ```text
//! hand 52 · held 2·52 · trick n·52 · trick_leader n · played n·52 · trump 5 · phase 3 ·
//! exchanges 2·n · to_move n · dealer n · scores sides · last_deal sides · quota 1 ·
//! deal_number 1 · hand_sizes n · tricks_won n
//! ```
//!
//! It reads the observer's hand, the hands it has held this deal (its pile as dealt, and
//! the spare it took if it exchanged), and the public facts: the tricks, the decisions, the
//! score sheet and the counts. No other hand, pile or spare is read but for its size.

use super::ledger::quota;
use super::rules::SPARE;
use super::{Neuf, Phase};
use crate::game::Game;
use crate::observation::{fraction, ones, Observe, Seats};

/// Cards in the pack.
const P: usize = 52;

/// Where each block starts, for `n` seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hand: usize,
    pub held: usize,
    pub trick: usize,
    pub trick_leader: usize,
    pub played: usize,
    pub trump: usize,
    pub phase: usize,
    pub exchanges: usize,
    pub to_move: usize,
    pub dealer: usize,
    pub scores: usize,
    pub last_deal: usize,
    pub quota: usize,
    pub deal_number: usize,
    pub hand_sizes: usize,
    pub tricks_won: usize,
    /// The vector's length.
    pub size: usize,
}

/// Sides: the players, or the two teams of four.
const fn sides(n: usize) -> usize {
    if n == 4 {
        2
    } else {
        n
    }
}

impl Layout {
    pub const fn new(n: usize) -> Layout {
        let hand = 0;
        let held = hand + P;
        let trick = held + 2 * P;
        let trick_leader = trick + n * P;
        let played = trick_leader + n;
        let trump = played + n * P;
        let phase = trump + 5;
        let exchanges = phase + 3;
        let to_move = exchanges + 2 * n;
        let dealer = to_move + n;
        let scores = dealer + n;
        let last_deal = scores + sides(n);
        let quota = last_deal + sides(n);
        let deal_number = quota + 1;
        let hand_sizes = deal_number + 1;
        let tricks_won = hand_sizes + n;
        Layout {
            hand,
            held,
            trick,
            trick_leader,
            played,
            trump,
            phase,
            exchanges,
            to_move,
            dealer,
            scores,
            last_deal,
            quota,
            deal_number,
            hand_sizes,
            tricks_won,
            size: tricks_won + n,
        }
    }
}

const LAYOUT_3: Layout = Layout::new(3);
const LAYOUT_4: Layout = Layout::new(4);

#[inline]
fn layout(n: usize) -> &'static Layout {
    if n == 4 {
        &LAYOUT_4
    } else {
        &LAYOUT_3
    }
}

/// Writes the cards of one trick (led by `leader`) into the per-seat block at `start`: the
/// `k`-th card is the row of the seat `k` places after the leader (`Plays::seated`).
#[inline]
fn seated_cards(out: &mut [f32], start: usize, cards: &[u8], leader: u8, n: usize, seats: Seats) {
    let mut row = seats.rel(usize::from(leader));
    for &card in cards {
        out[start + row * P + usize::from(card)] = 1.0;
        row += 1;
        if row == n {
            row = 0;
        }
    }
}

impl Observe for Neuf {
    fn observation_size(players: usize) -> usize {
        layout(players).size
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let n = self.players();
        let n8 = n as u8;
        let at = layout(n);
        assert!(seat < n, "seat {seat} is not one of {n}");
        assert_eq!(out.len(), at.size, "an observation has {} entries", at.size);
        out.fill(0.0);
        let seats = Seats::new(seat, n);
        ones(out, at.hand, self.hands[seat]);
        let (order, _) = self.exchange_order();
        if n == 3 {
            // The hands this seat has held: its pile, then the spare it took (NEUF-9). The
            // exchanges are replayed on the piles; only this seat's hands are written.
            ones(out, at.held, self.piles[seat]);
            let mut spare = self.piles[SPARE];
            let mut hands = self.piles;
            for (k, &s) in order.iter().enumerate().take(usize::from(self.decided)) {
                if self.exchanged >> k & 1 == 1 {
                    let s = usize::from(s);
                    std::mem::swap(&mut hands[s], &mut spare);
                    if s == seat {
                        ones(out, at.held + P, hands[s]);
                    }
                }
            }
        }
        // The trick in progress and its leader; this deal's finished tricks.
        let done = self.plays.done();
        let current = self.plays.current_cards(n8);
        if !current.is_empty() {
            let leader = self.plays.leader(done);
            seats.one_hot(out, at.trick_leader, usize::from(leader));
            seated_cards(out, at.trick, current, leader, n, seats);
        }
        for t in 0..done {
            let cards = self.plays.trick_cards(t, n8);
            seated_cards(out, at.played, cards, self.plays.leader(t), n, seats);
        }
        out[at.trump + usize::from(self.trump)] = 1.0;
        out[at.phase + self.phase as usize] = 1.0;
        for (k, &s) in order.iter().enumerate().take(usize::from(self.decided)) {
            let kept = usize::from(self.exchanged >> k & 1 == 0);
            out[at.exchanges + seats.rel(usize::from(s)) * 2 + kept] = 1.0;
        }
        if let Some(to_move) = Game::to_move(self) {
            seats.one_hot(out, at.to_move, to_move);
        }
        seats.one_hot(out, at.dealer, usize::from(self.dealer()));
        // Sides counted from the observer's: its own, or its team (seat % 2).
        let side_count = sides(n);
        let first = if n == 4 { seat % 2 } else { seat };
        let side_rel = |side: usize| (side + side_count - first) % side_count;
        let final_scores;
        let scores = if self.phase == Phase::Over {
            final_scores = self.final_scores();
            &final_scores[..side_count]
        } else {
            self.sheet.scores()
        };
        for (side, &score) in scores.iter().enumerate() {
            out[at.scores + side_rel(side)] = fraction(f64::from(score), 9.0);
        }
        if let Some(row) = self.sheet.last_row() {
            for (side, &tricks) in row.iter().enumerate() {
                out[at.last_deal + side_rel(side)] = fraction(f64::from(tricks), 13.0);
            }
        }
        out[at.quota] = fraction(f64::from(quota(n8)), 13.0);
        out[at.deal_number] = fraction(self.deal_number() as f64, 25.0);
        for s in 0..n {
            let rel = seats.rel(s);
            out[at.hand_sizes + rel] = fraction(f64::from(self.hands[s].count_ones()), 13.0);
            out[at.tricks_won + rel] = fraction(f64::from(self.tricks_won[s]), 13.0);
        }
    }
}

// The phases' discriminants are the Python encoder's indices.
const _: () = assert!(
    Phase::Exchange as usize == 0 && Phase::Play as usize == 1 && Phase::Over as usize == 2
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_player_count() {
        assert_eq!(Neuf::observation_size(3), 505);
        assert_eq!(Neuf::observation_size(4), 614);
        let at = Layout::new(4);
        assert_eq!((at.scores, at.last_deal, at.quota), (600, 602, 604));
    }
}
