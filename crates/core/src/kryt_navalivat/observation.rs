//! A seat's observation of a Kryt'-navalivat' state (KRYT-9): the layout of
//! `cardtable.rl.observation` for Kryt'-navalivat', entry for entry. Cards are numbered in
//! the 36-card pack (`suit * 9 + rank - 6`).
//!
//! ```text
//! hand 36 · known n·36 · pile 36 · pile_top 36 · would_take 36 · pile_beneath 36 ·
//! trump_card 36 · trump 4 · anti_trump 4 · mode 5 · to_move n · dealer n · out n ·
//! loser n · draw 1 · stock 1 · pile_size 1 · hand_sizes n
//! ```
//!
//! It reads the observer's hand and the public facts: the cards each seat is known to hold
//! (K-10), the pile, the turned card, the counts. No other hand is read but for its size
//! (and whether it is empty once the stock is: a seat that has gone out, KRYT-7.1).

use super::beating::{number_of, numbers};
use super::{KrytNavalivat, Mode, NONE};
use crate::observation::{fraction, ones, Observe, Seats};

/// Cards in the pack.
const P: usize = 36;

/// Where each block starts, for `n` seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub hand: usize,
    pub known: usize,
    pub pile: usize,
    pub pile_top: usize,
    pub would_take: usize,
    pub pile_beneath: usize,
    pub trump_card: usize,
    pub trump: usize,
    pub anti_trump: usize,
    pub mode: usize,
    pub to_move: usize,
    pub dealer: usize,
    pub out: usize,
    pub loser: usize,
    pub draw: usize,
    pub stock: usize,
    pub pile_size: usize,
    pub hand_sizes: usize,
    /// The vector's length.
    pub size: usize,
}

impl Layout {
    pub const fn new(n: usize) -> Layout {
        let hand = 0;
        let known = hand + P;
        let pile = known + n * P;
        let pile_top = pile + P;
        let would_take = pile_top + P;
        let pile_beneath = would_take + P;
        let trump_card = pile_beneath + P;
        let trump = trump_card + P;
        let anti_trump = trump + 4;
        let mode = anti_trump + 4;
        let to_move = mode + 5;
        let dealer = to_move + n;
        let out = dealer + n;
        let loser = out + n;
        let draw = loser + n;
        let stock = draw + 1;
        let pile_size = stock + 1;
        let hand_sizes = pile_size + 1;
        Layout {
            hand,
            known,
            pile,
            pile_top,
            would_take,
            pile_beneath,
            trump_card,
            trump,
            anti_trump,
            mode,
            to_move,
            dealer,
            out,
            loser,
            draw,
            stock,
            pile_size,
            hand_sizes,
            size: hand_sizes + n,
        }
    }
}

/// The layout for each player count (index `n`; 0 and 1 unused).
const LAYOUTS: [Layout; 7] = {
    let mut table = [Layout::new(0); 7];
    let mut n = 2;
    while n < 7 {
        table[n] = Layout::new(n);
        n += 1;
    }
    table
};

impl Observe for KrytNavalivat {
    fn observation_size(players: usize) -> usize {
        LAYOUTS[players].size
    }

    fn observe(&self, seat: usize, out: &mut [f32]) {
        let n = usize::from(self.players);
        let at = &LAYOUTS[n];
        assert!(seat < n, "seat {seat} is not one of {n}");
        assert_eq!(out.len(), at.size, "an observation has {} entries", at.size);
        out.fill(0.0);
        let seats = Seats::new(seat, n);
        ones(out, at.hand, numbers(self.hands[seat]));
        for s in 0..n {
            let known = self.known[s];
            if known != 0 {
                ones(out, at.known + seats.rel(s) * P, numbers(known));
            }
        }
        let pile = self.pile();
        if let Some(&top) = pile.last() {
            for &card in pile {
                out[at.pile + number_of(card)] = 1.0;
            }
            out[at.pile_top + number_of(top)] = 1.0;
            let taken = self.would_take();
            if !taken.is_empty() {
                for &card in taken {
                    out[at.would_take + number_of(card)] = 1.0;
                }
                if pile.len() > taken.len() {
                    let beneath = pile[pile.len() - taken.len() - 1];
                    out[at.pile_beneath + number_of(beneath)] = 1.0;
                }
            }
        }
        if self.faceup != NONE {
            out[at.trump_card + number_of(self.faceup)] = 1.0;
        }
        out[at.trump + usize::from(self.trump)] = 1.0;
        if self.permanent() {
            out[at.anti_trump + usize::from(self.anti)] = 1.0;
        }
        out[at.mode + self.mode as usize] = 1.0;
        if self.to_move != NONE {
            seats.one_hot(out, at.to_move, usize::from(self.to_move));
        }
        seats.one_hot(out, at.dealer, usize::from(self.dealer));
        let stock = self.stock_count();
        if stock == 0 {
            // KRYT-7.1: out once the stock is empty and the hand too.
            for s in 0..n {
                if self.hands[s] == 0 {
                    seats.one_hot(out, at.out, s);
                }
            }
        }
        if self.loser != NONE {
            seats.one_hot(out, at.loser, usize::from(self.loser));
        }
        if self.drawn() {
            out[at.draw] = 1.0;
        }
        out[at.stock] = fraction(stock as f64, 36.0);
        out[at.pile_size] = fraction(pile.len() as f64, 36.0);
        for s in 0..n {
            out[at.hand_sizes + seats.rel(s)] =
                fraction(f64::from(self.hands[s].count_ones()), 36.0);
        }
    }
}

// The modes' discriminants are the Python encoder's indices (`MODES`).
const _: () = {
    assert!(Mode::Lead as usize == 0 && Mode::Respond as usize == 1);
    assert!(Mode::Cover as usize == 2 && Mode::Free as usize == 3 && Mode::Over as usize == 4);
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_player_count() {
        // 232 + 41·n: the Python layout's size.
        for n in 2..=6usize {
            assert_eq!(KrytNavalivat::observation_size(n), 232 + 41 * n);
        }
        let at = Layout::new(2);
        assert_eq!(
            (at.pile, at.trump, at.mode, at.hand_sizes),
            (108, 288, 296, 312)
        );
    }
}
