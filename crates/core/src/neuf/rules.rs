//! The play of Neuf: the deal (NEUF-2.3, NEUF-8.4), the exchange (NEUF-3, NEUF-8.2),
//! the tricks (NEUF-4), the scoring and the end of the game (NEUF-5, NEUF-6, NEUF-8.3),
//! as `NeufState` does them.

use crate::game::check_deck;
use rand::Rng;

use super::ledger::{quota, winning_sides, Sheet, TRICKS};
use super::tricks::{next_seat, trick_winner};
use super::{Neuf, Options, Phase, Plays, Previous, NOBODY, NO_SUIT};
use crate::cards::{bit, nth_card, suit, Card, CardSet, FULL_PACK, SUIT_MASKS};
use crate::chance::seeded_deck;
use crate::chance::Seed;
use crate::game::{OptionError, PlayoutRng, Returns, Stacked, MAX_PLAYERS};

/// The spare's place among the 3-player game's four piles.
pub(super) const SPARE: usize = 3;

/// NEUF-3.1 (left of the dealer first, the dealer last) or NEUF-8.2 (dealer first); none
/// with four players.
pub(super) fn exchange_order(players: u8, dealer: u8, dealer_first: bool) -> ([u8; 3], usize) {
    if players == 4 {
        return ([0; 3], 0);
    }
    let d = dealer;
    let order = if dealer_first {
        [d, (d + 1) % 3, (d + 2) % 3]
    } else {
        [(d + 1) % 3, (d + 2) % 3, d]
    };
    (order, 3)
}

/// Card `i` of the deck to pile `receivers[i mod 4]`, each pile added up as Python's
/// `sum(map(BIT.__getitem__, deck[i::4]))` does (the same as a union for a real pack).
fn piles_of(deck: &[Card], receivers: &[usize; 4]) -> [CardSet; 4] {
    let mut piles = [0 as CardSet; 4];
    for (i, &c) in deck.iter().enumerate() {
        let pile = &mut piles[receivers[i % 4]];
        *pile = pile.wrapping_add(bit(c));
    }
    piles
}

impl Neuf {
    /// A new game, as `NeufState.begin`: the first deal done, from the first stacked deck
    /// if any, else from the seed.
    pub(super) fn begin(
        options: &Options,
        seed: Seed,
        dealer: usize,
        stacked: Stacked,
    ) -> Result<Neuf, OptionError> {
        if !stacked.reshuffles.is_empty() {
            return Err(OptionError(
                "neuf shuffles only whole decks: a record has no reshuffles".into(),
            ));
        }
        if dealer >= options.players {
            return Err(OptionError(format!(
                "dealer must be a seat 0-{}, not {dealer}",
                options.players - 1
            )));
        }
        for (i, deck) in stacked.decks.iter().enumerate() {
            check_deck(deck, i, FULL_PACK)?;
        }
        let players = options.players as u8;
        let mut state = Neuf::empty(
            Sheet::new(players, dealer as u8, options.trump_sequence),
            options,
            seed,
        );
        if !stacked.decks.is_empty() {
            state.stacked = Some(stacked.decks.into());
        }
        state.deal_hands();
        Ok(state)
    }

    /// A state with no deal yet, for [`Neuf::begin`] and the position reader to fill.
    pub(super) fn empty(sheet: Sheet, options: &Options, seed: Seed) -> Neuf {
        Neuf {
            sheet,
            dealer_first: options.dealer_exchanges_first,
            tie_avoidance: options.tie_avoidance,
            phase: Phase::Exchange,
            to_move: NOBODY,
            trump: sheet.trump_of(sheet.deal()),
            led: NO_SUIT,
            piles: [0; 4],
            hands: [0; 4],
            spare: 0,
            decided: 0,
            exchanged: 0,
            plays: Plays::EMPTY,
            tricks_won: [0; 4],
            taken: 0,
            taker: NOBODY,
            previous: Previous::None,
            seed,
            decks_drawn: 0,
            stacked: None,
            stacked_next: 0,
        }
    }

    // What follows from the sheet ----------------------------------------------------------

    /// This deal's number; once the sheet has a winner, the deal that ended the game.
    #[inline]
    pub fn deal_number(&self) -> usize {
        let rows = self.sheet.row_count();
        if self.sheet.is_over() {
            rows
        } else {
            rows + 1
        }
    }

    #[inline]
    pub(super) fn dealer(&self) -> u8 {
        self.sheet.dealer_of(self.deal_number())
    }

    #[inline]
    pub(super) fn exchange_order(&self) -> ([u8; 3], usize) {
        exchange_order(self.sheet.players(), self.dealer(), self.dealer_first)
    }

    #[inline]
    pub(super) fn n(&self) -> u8 {
        self.sheet.players()
    }

    // The automatic steps of NEUF-10 -------------------------------------------------------

    /// NEUF-2.3: card i to R[i mod 4], R = [dealer+1, dealer+2, dealer, spare]; or, with
    /// four players, one card each clockwise from the dealer's left (NEUF-8.4).
    fn deal_hands(&mut self) {
        let d = self.dealer();
        let n = self.n();
        let receivers: [usize; 4] = if n == 3 {
            [
                (d as usize + 1) % 3,
                (d as usize + 2) % 3,
                d as usize,
                SPARE,
            ]
        } else {
            std::array::from_fn(|i| (d as usize + 1 + i) % 4)
        };
        let piles = match self.stacked_left().first() {
            Some(deck) => piles_of(deck, &receivers),
            None => piles_of(
                &seeded_deck(self.seed, u64::from(self.decks_drawn), None),
                &receivers,
            ),
        };
        self.take_stacked_deck();
        self.decks_drawn += 1;
        self.piles = piles;
        self.hands = piles;
        if n == 3 {
            self.hands[SPARE] = 0;
            self.spare = piles[SPARE];
        } else {
            self.spare = 0;
        }
        self.decided = 0;
        self.exchanged = 0;
        self.trump = self.sheet.trump_of(self.sheet.deal());
        self.led = NO_SUIT;
        self.plays = Plays::EMPTY;
        self.tricks_won = [0; 4];
        if n == 3 {
            self.phase = Phase::Exchange;
            self.to_move = self.exchange_order().0[0];
        } else {
            self.phase = Phase::Play;
            self.to_move = (d + 1) % 4;
            self.plays.set_leader(self.to_move);
        }
    }

    /// The stacked decks not yet dealt.
    pub(super) fn stacked_left(&self) -> &[Vec<Card>] {
        match &self.stacked {
            Some(decks) => &decks[self.stacked_next as usize..],
            None => &[],
        }
    }

    /// Stacks `deck` beneath the decks still stacked (`Game::stack_deck`); the stacks are
    /// shared between clones, so the unused ones are copied into new ones.
    pub(super) fn stack_deck(&mut self, deck: Vec<Card>) -> Result<(), OptionError> {
        let left = self.stacked_left();
        check_deck(&deck, left.len(), FULL_PACK)?;
        let mut decks = left.to_vec();
        decks.push(deck);
        self.stacked = Some(decks.into());
        self.stacked_next = 0;
        Ok(())
    }

    /// Moves past the stacked deck just dealt, if there was one; the stack is let go once
    /// its last deck is dealt.
    fn take_stacked_deck(&mut self) {
        if let Some(decks) = &self.stacked {
            self.stacked_next += 1;
            if self.stacked_next as usize >= decks.len() {
                self.stacked = None;
                self.stacked_next = 0;
            }
        }
    }

    // The protocol -------------------------------------------------------------------------

    /// The cards the seat to move may play: the led suit when it holds it, else any
    /// (NEUF-4.2).
    #[inline]
    pub(super) fn playable(&self) -> CardSet {
        let hand = self.hands[self.to_move as usize];
        if self.led != NO_SUIT {
            let follow = hand & SUIT_MASKS[self.led as usize];
            if follow != 0 {
                return follow;
            }
        }
        hand
    }

    /// NEUF-3.2: exchange (swap hands with the current spare) or keep; after the last
    /// decision the dealer's left leads (NEUF-4.1).
    #[inline]
    pub(super) fn decide(&mut self, exchange: bool) {
        let p = self.to_move as usize;
        if exchange {
            std::mem::swap(&mut self.hands[p], &mut self.spare);
            self.exchanged |= 1 << self.decided;
        }
        self.decided += 1;
        let (order, len) = self.exchange_order();
        if (self.decided as usize) < len {
            self.to_move = order[self.decided as usize];
        } else {
            self.phase = Phase::Play;
            self.to_move = (self.dealer() + 1) % 3;
            self.plays.set_leader(self.to_move);
        }
    }

    /// NEUF-4.2: a card to the trick; the last card of a trick settles it, and the last
    /// of a deal whose game goes on brings the next deal (NEUF-7).
    #[inline]
    pub(super) fn play(&mut self, card: Card) {
        if self.play_in_deal(card) {
            self.deal_hands();
        }
    }

    /// [`Neuf::play`] short of the next deal: whether the card ended a deal and the game
    /// goes on, the next deal left undealt. The state is then between deals, scored but
    /// with no cards, good only for reading the scores: a rollout that stops at the end of
    /// the deal spares the seeded shuffle of a deal it will not play.
    #[inline]
    pub(super) fn play_in_deal(&mut self, card: Card) -> bool {
        let p = self.to_move;
        self.hands[p as usize] ^= bit(card);
        if self.led == NO_SUIT {
            self.led = suit(card);
        }
        self.plays.push(card);
        let n = self.n();
        if self.plays.current_cards(n).len() < n as usize {
            self.to_move = next_seat(p, n);
            false
        } else {
            self.finish_trick()
        }
    }

    /// NEUF-4.3, NEUF-4.4; after the 13th trick NEUF-5.2 and NEUF-6; with the house rule,
    /// NEUF-8.3 after every trick. Whether the deal is over and the game goes on, so that
    /// the next deal is due (NEUF-7).
    fn finish_trick(&mut self) -> bool {
        let n = self.n();
        let leader = self.plays.leader(self.plays.done());
        let winner = trick_winner(self.plays.current_cards(n), leader, n, self.trump);
        self.tricks_won[winner as usize] += 1;
        self.taken = self.taken.wrapping_add(1);
        self.taker = winner;
        self.plays.close_trick(winner);
        self.led = NO_SUIT;
        if self.tie_avoidance && self.crosses(winner) {
            // NEUF-8.3 / N-7: the winner is out at once; the deal is abandoned unscored.
            self.phase = Phase::Over;
            self.to_move = NOBODY;
            return false;
        }
        if self.plays.done() < TRICKS as usize {
            self.to_move = winner;
            return false;
        }
        self.previous = Previous::Deal {
            trump: self.trump,
            plays: self.plays,
            spare: self.spare,
        };
        self.sheet.record(self.side_tricks());
        if self.sheet.is_over() {
            self.phase = Phase::Over;
            self.to_move = NOBODY;
            return false;
        }
        // Nobody moves until the next deal is dealt.
        self.to_move = NOBODY;
        true
    }

    /// Tricks per side: the seats', or each team's two seats' added (NEUF-8.4).
    fn side_tricks(&self) -> [u8; 3] {
        let t = self.tricks_won;
        if self.n() == 3 {
            [t[0], t[1], t[2]]
        } else {
            [t[0] + t[2], t[1] + t[3], 0]
        }
    }

    /// NEUF-8.3: surplus tricks count the moment they are won; shortfalls wait.
    #[inline]
    pub(super) fn crosses(&self, seat: u8) -> bool {
        let surplus = self.tricks_won[seat as usize].saturating_sub(quota(self.n()));
        self.sheet.scores()[seat as usize] - i16::from(surplus) <= 0
    }

    /// A uniformly random legal action, drawn from the card set itself (the game is not
    /// over).
    #[inline]
    pub(super) fn random_legal(&self, rng: &mut PlayoutRng) -> usize {
        match self.phase {
            Phase::Exchange => {
                if rng.random::<bool>() {
                    super::EXCHANGE
                } else {
                    super::KEEP
                }
            }
            _ => {
                let cards = self.playable();
                nth_card(cards, rng.random_range(0..cards.count_ones())) as usize
            }
        }
    }

    // Results ------------------------------------------------------------------------------

    /// Each side's score: after the last completed deal, or, when the house rule ended the
    /// game mid-deal, the winner's running score with the others' left as they were.
    pub(super) fn final_scores(&self) -> [i16; 3] {
        let mut scores = [0; 3];
        let sides = self.sheet.sides();
        scores[..sides].copy_from_slice(self.sheet.scores());
        let done = self.plays.done();
        // A position written by hand may say `over` before any trick, or name a team's
        // seat as the winner; Python's `final_scores` fails there, and the sheet's scores
        // stand here.
        if self.phase == Phase::Over && !self.sheet.is_over() && done > 0 {
            let n = self.n();
            let last = done - 1;
            let winner = trick_winner(
                self.plays.trick_cards(last, n),
                self.plays.leader(last),
                n,
                self.trump,
            ) as usize;
            let surplus = self.tricks_won[winner].saturating_sub(quota(n));
            if winner < sides {
                scores[winner] -= i16::from(surplus);
            }
        }
        scores
    }

    /// The winning seats as a mask: one player, two sharing the win (NEUF-6.3), or a
    /// team's two seats.
    pub(super) fn winners(&self) -> u8 {
        let scores = self.final_scores();
        let sides = winning_sides(&scores[..self.sheet.sides()]);
        if self.n() == 3 {
            sides
        } else {
            sides | sides << 2
        }
    }

    /// `result.returns`: +1 to each winner, `-w / (n - w)` to the others.
    pub(super) fn final_returns(&self) -> Returns {
        let n = self.n() as usize;
        let winners = self.winners();
        let w = winners.count_ones() as i32;
        // Python divides by zero when every seat wins, which no game reaches.
        let share = if n as i32 > w {
            f64::from(-w) / f64::from(n as i32 - w)
        } else {
            0.0
        };
        let mut returns = [0.0; MAX_PLAYERS];
        for (seat, r) in returns.iter_mut().enumerate().take(n) {
            *r = if winners >> seat & 1 == 1 { 1.0 } else { share };
        }
        returns
    }
}
