//! A seat's observation as a fixed-size `f32` vector: the Rust form of
//! `cardtable.rl.observation`, entry for entry, for the batch environments.
//!
//! Each game writes the layout its Python encoder documents (`src/cardtable/rl/observation.py`,
//! the tables of `docs/research.md`): named blocks one after another, per-seat blocks
//! counted from the observer (row 0 the observer, row 1 the seat on its left, …), cards
//! numbered within the game's pack. The writers read only what the seat's view holds
//! (KOW-9, NEUF-9, KRYT-9): the seat's own cards and the public facts, never another seat's
//! hidden cards, so two states the seat cannot tell apart give the same vector.
//!
//! [`Observe::observe`] writes into a caller's buffer and never allocates: it clears the
//! buffer, then sets the ones bit by bit from the card masks and the few fractions (counts
//! over a scale). A fraction is computed in `f64` and rounded once to `f32`, as NumPy
//! stores Python's `value / scale`, so that the two encoders give equal arrays, bit for bit.

use crate::cards::CardSet;
use crate::game::Game;

/// A game whose states can be observed by a seat (the research interfaces' vectors).
pub trait Observe: Game {
    /// The observation's length with `players` seats (the layout depends on the number of
    /// players only: `layout(game).size` in Python). Panics for a count the game has not.
    fn observation_size(players: usize) -> usize;

    /// Writes `seat`'s observation of this state into `out`, overwriting all of it.
    ///
    /// Panics unless `out.len()` is `observation_size(self.players())` and `seat` is one
    /// of the seats; the bindings check both first.
    fn observe(&self, seat: usize, out: &mut [f32]);
}

/// Writes 1 at `out[start + c]` for every bit `c` of `set` (the other entries are left).
#[inline]
pub(crate) fn ones(out: &mut [f32], start: usize, set: CardSet) {
    let mut m = set;
    while m != 0 {
        out[start + m.trailing_zeros() as usize] = 1.0;
        m &= m - 1;
    }
}

/// `value / scale` as Python computes it (a double) and NumPy stores it (one rounding to
/// `f32`).
#[inline]
pub(crate) fn fraction(value: f64, scale: f64) -> f32 {
    (value / scale) as f32
}

/// Seats counted from an observer: `seat`'s row in a per-seat block.
#[derive(Clone, Copy)]
pub(crate) struct Seats {
    me: usize,
    n: usize,
}

impl Seats {
    #[inline]
    pub(crate) fn new(me: usize, n: usize) -> Seats {
        Seats { me, n }
    }

    /// `(seat - me) mod n`, for a seat below `n`.
    #[inline]
    pub(crate) fn rel(self, seat: usize) -> usize {
        if seat >= self.me {
            seat - self.me
        } else {
            seat + self.n - self.me
        }
    }

    /// Sets the one-hot entry of `seat` in the block of one entry a seat at `start`.
    #[inline]
    pub(crate) fn one_hot(self, out: &mut [f32], start: usize, seat: usize) {
        out[start + self.rel(seat)] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_set_each_bit_and_leave_the_rest() {
        let mut out = [0.5f32; 8];
        ones(&mut out, 2, 0b1001);
        assert_eq!(out, [0.5, 0.5, 1.0, 0.5, 0.5, 1.0, 0.5, 0.5]);
    }

    #[test]
    fn seats_count_from_the_observer() {
        let seats = Seats::new(2, 4);
        assert_eq!(
            (0..4).map(|s| seats.rel(s)).collect::<Vec<_>>(),
            vec![2, 3, 0, 1]
        );
    }

    #[test]
    fn fractions_round_once_as_numpy_stores_them() {
        // 1/7 as a double then rounded to f32, not 1f32/7f32 (equal here, but the path is
        // the point: the test of the bindings compares the arrays bit for bit).
        assert_eq!(fraction(1.0, 7.0), (1.0f64 / 7.0) as f32);
        assert_eq!(fraction(-1.0, 9.0), (-1.0f64 / 9.0) as f32);
    }
}
