//! A seat's observation of a Knockout Whist state (KOW-9): the layout of
//! `cardtable.rl.observation` for Knockout Whist, entry for entry.
//!
//! ```text
//! hand 52 · trick n·52 · trick_knocks n · trick_leader n · played n·52 · turned 52 ·
//! trump 4 · phase 3 · to_move n · dealer n · chooser n · statuses 3·n · dog_used 1 ·
//! hand_number 1 · hand_sizes n · tricks_won n
//! ```
//!
//! It reads the observer's hand and the public facts of the view: the trick in progress,
//! this hand's finished tricks, the turned card, the trump, the seats, the statuses and the
//! counts. No other hand is read but for its size.

use super::state::{KnockoutWhist, Phase, Status, NONE};
use crate::observation::{fraction, ones, Observe, Seats};

/// Cards in the pack.
const P: usize = 52;

/// Where each block starts, for `n` seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hand: usize,
    pub trick: usize,
    pub trick_knocks: usize,
    pub trick_leader: usize,
    pub played: usize,
    pub turned: usize,
    pub trump: usize,
    pub phase: usize,
    pub to_move: usize,
    pub dealer: usize,
    pub chooser: usize,
    pub statuses: usize,
    pub dog_used: usize,
    pub hand_number: usize,
    pub hand_sizes: usize,
    pub tricks_won: usize,
    /// The vector's length.
    pub size: usize,
}

impl Layout {
    pub const fn new(n: usize) -> Layout {
        let hand = 0;
        let trick = hand + P;
        let trick_knocks = trick + n * P;
        let trick_leader = trick_knocks + n;
        let played = trick_leader + n;
        let turned = played + n * P;
        let trump = turned + P;
        let phase = trump + 4;
        let to_move = phase + 3;
        let dealer = to_move + n;
        let chooser = dealer + n;
        let statuses = chooser + n;
        let dog_used = statuses + 3 * n;
        let hand_number = dog_used + 1;
        let hand_sizes = hand_number + 1;
        let tricks_won = hand_sizes + n;
        Layout {
            hand,
            trick,
            trick_knocks,
            trick_leader,
            played,
            turned,
            trump,
            phase,
            to_move,
            dealer,
            chooser,
            statuses,
            dog_used,
            hand_number,
            hand_sizes,
            tricks_won,
            size: tricks_won + n,
        }
    }
}

/// The layout for each player count (index `n`; 0 and 1 unused).
const LAYOUTS: [Layout; 8] = {
    let mut table = [Layout::new(0); 8];
    let mut n = 2;
    while n < 8 {
        table[n] = Layout::new(n);
        n += 1;
    }
    table
};

impl Observe for KnockoutWhist {
    fn observation_size(players: usize) -> usize {
        LAYOUTS[players].size
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let n = self.n();
        let at = &LAYOUTS[n];
        assert!(seat < n, "seat {seat} is not one of {n}");
        assert_eq!(out.len(), at.size, "an observation has {} entries", at.size);
        out.fill(0.0);
        let seats = Seats::new(seat, n);
        ones(out, at.hand, self.hands[seat]);
        // The trick in progress: each seat's card, or its knock; who led it.
        let mut first = true;
        for play in self.trick() {
            let rel = seats.rel(usize::from(play.seat));
            if first {
                out[at.trick_leader + rel] = 1.0;
                first = false;
            }
            if play.is_knock() {
                out[at.trick_knocks + rel] = 1.0;
            } else {
                out[at.trick + rel * P + usize::from(play.card)] = 1.0;
            }
        }
        // This hand's finished tricks: the cards each seat played (knocks show nothing).
        for play in self.plays.plays_before(self.trick_start) {
            if !play.is_knock() {
                let rel = seats.rel(usize::from(play.seat));
                out[at.played + rel * P + usize::from(play.card)] = 1.0;
            }
        }
        if self.turned != NONE {
            out[at.turned + usize::from(self.turned)] = 1.0;
        }
        if self.trump != NONE {
            out[at.trump + usize::from(self.trump)] = 1.0;
        }
        out[at.phase + self.phase as usize] = 1.0;
        if self.to_move != NONE {
            seats.one_hot(out, at.to_move, usize::from(self.to_move));
        }
        seats.one_hot(out, at.dealer, usize::from(self.dealer));
        if self.chooser != NONE {
            seats.one_hot(out, at.chooser, usize::from(self.chooser));
        }
        for (s, &status) in self.status[..n].iter().enumerate() {
            out[at.statuses + seats.rel(s) * 3 + status as usize] = 1.0;
        }
        if self.dog_used {
            out[at.dog_used] = 1.0;
        }
        out[at.hand_number] = fraction(f64::from(self.hand_no), 7.0);
        for s in 0..n {
            let rel = seats.rel(s);
            out[at.hand_sizes + rel] = fraction(f64::from(self.hands[s].count_ones()), 7.0);
            out[at.tricks_won + rel] = fraction(f64::from(self.tricks_won[s]), 7.0);
        }
    }
}

// The enums' discriminants are the Python encoder's indices.
const _: () = {
    assert!(Phase::Trump as usize == 0 && Phase::Play as usize == 1 && Phase::Over as usize == 2);
    assert!(Status::Active as usize == 0 && Status::Dog as usize == 1 && Status::Out as usize == 2);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_player_count() {
        // 113 + 114·n: the Python layout's size (455 with three players).
        for n in 2..=7usize {
            assert_eq!(KnockoutWhist::observation_size(n), 113 + 114 * n);
        }
        assert_eq!(KnockoutWhist::observation_size(3), 455);
        let at = Layout::new(3);
        assert_eq!(
            (at.trick, at.played, at.turned, at.statuses, at.tricks_won),
            (52, 214, 370, 438, 452)
        );
    }
}
