//! The guided rollout of search, as `cardtable.bots.neuf_rollout`: cheap card play that
//! still takes tricks, and the estimate of every seat's return at the end of a deal.
//!
//! Every trick counts in Neuf (NEUF-5.2: a side's score falls by one for each trick over
//! its quota and rises by one for each short), so the policy simply tries to take tricks,
//! the partnership game (NEUF-8.4) leaving a trick its partner has safely won:
//!
//! * **Exchange or keep** (NEUF-3.2): a table estimate of the hand's tricks in this deal's
//!   trump; below the quota it exchanges, wanting a weaker hand still when an earlier
//!   player has exchanged (the spare is then a hand put down as weak, NEUF-3.3).
//! * **Leading**: a side-suit card that no card left in the other hands beats, else a boss
//!   trump, else the lowest card of its longest side suit.
//! * **Following** (NEUF-4.2, 4.3): the lowest card that beats the trick and every card of
//!   the suit the players still to come hold; a ruff with the lowest trump that wins; else
//!   the lowest card (side suits before trumps).
//! * A small share of moves is uniformly random, so that search sees some variety.
//!
//! The policy draws at the points the Python one calls `rng.random()`, in the same order
//! (one draw per decision, a second for a random card), and picks a random card by the
//! same ascending card order (`SLICES[led][follow]` or `bits(hand)`): given the same draws
//! both play the same game. It reads the determinized hands (all of them, as a playout in
//! a sampled deal may): it is a rollout for search, not a player.

use super::tricks::winning_place;
use super::{Neuf, Phase, Trump, EXCHANGE, KEEP, NO_SUIT, NO_TRUMP};
use crate::cards::{nth_card, suit, Card, CardSet, SUIT_MASKS};
use crate::game::{Game, Returns, MAX_PLAYERS};
use crate::rollout::{Draw, Guided};

/// The share of moves played uniformly at random.
const RANDOM_SHARE: f64 = 0.05;
/// One suit's 13 rank bits.
const LOW: CardSet = 0x1FFF;
/// One bit per suit at rank 0 (the 2s); shifted by a rank, that rank in every suit.
const RANK_COLUMN: CardSet = 1 | 1 << 13 | 1 << 26 | 1 << 39;

/// How many points of score make a side e times less likely to win, by players (Python's
/// `_SCORE_SCALE`, fitted to the winners of games of this policy against itself).
fn score_scale(players: u8) -> f64 {
    if players == 3 {
        4.0
    } else {
        5.5
    }
}

/// Suit `s`'s cards of `cards`, shifted down to ranks 0 … 12.
#[inline]
fn ranks(cards: CardSet, s: u8) -> CardSet {
    cards >> (13 * u32::from(s)) & LOW
}

/// The cards of the trump suit, none in a no-trump deal.
#[inline]
fn trump_mask(trump: Trump) -> CardSet {
    if trump == NO_TRUMP {
        0
    } else {
        SUIT_MASKS[trump as usize]
    }
}

/// The card of suit `s` at rank index `rank` (0 … 12), as an action number.
#[inline]
fn card_of(s: u8, rank: u32) -> usize {
    13 * s as usize + rank as usize
}

/// The lowest rank index of a non-empty rank slice.
#[inline]
fn low(ranks: CardSet) -> u32 {
    ranks.trailing_zeros()
}

/// The highest rank index of a non-empty rank slice.
#[inline]
fn top(ranks: CardSet) -> u32 {
    63 - ranks.leading_zeros()
}

/// Rank slice `ranks` without the ranks up to `rank` (index 0 … 12): the cards above it.
#[inline]
fn above(ranks: CardSet, rank: u32) -> CardSet {
    ranks >> (rank + 1) << (rank + 1)
}

// Exchange or keep (NEUF-3.2) ------------------------------------------------------------

/// Likely tricks from one suit's honours (a rank slice): an ace, a king with one more
/// card, a queen with two more, a jack with three more (the heuristic bot's
/// `expected_tricks`). Quarters only, so every sum is exact, as Python's table is.
fn honours(ranks: CardSet) -> f64 {
    let length = ranks.count_ones();
    let has = |rank: u32| ranks >> rank & 1 == 1;
    let mut value = 0.0;
    if has(12) {
        value += 1.0;
    }
    if has(11) && length >= 2 {
        value += 0.75;
    }
    if has(10) && length >= 3 {
        value += 0.5;
    }
    if has(9) && length >= 4 {
        value += 0.25;
    }
    value
}

/// The hand's likely tricks: its honours, and a trick for each trump past the third.
fn expected_tricks(hand: CardSet, trump: Trump) -> f64 {
    let mut total = (0..4).map(|s| honours(ranks(hand, s))).sum::<f64>();
    if trump != NO_TRUMP {
        total += f64::from(ranks(hand, trump).count_ones().saturating_sub(3));
    }
    total
}

// Card play (NEUF-4) ---------------------------------------------------------------------

/// The lowest-ranked card of a non-empty `hand`, outside suit `avoid` when it can be (no
/// suit is avoided when `avoid` is [`NO_TRUMP`]); among equal ranks the lowest suit, as
/// Python's strict `<` over the suits in order keeps it.
fn lowest(hand: CardSet, avoid: Trump) -> usize {
    let allowed = hand & !trump_mask(avoid);
    if allowed == 0 {
        // Only the avoided suit is left.
        return hand.trailing_zeros() as usize;
    }
    let all_suits = (0..4).fold(0, |m, s| m | ranks(allowed, s));
    (allowed & RANK_COLUMN << low(all_suits)).trailing_zeros() as usize
}

/// NEUF-4.1 leading: a side-suit card that no card left in the other hands beats, else a
/// boss trump, else the lowest card of the longest side suit.
fn lead(hand: CardSet, others: CardSet, trump: Trump) -> usize {
    let mut longest = NO_SUIT;
    let mut longest_len = i32::MIN;
    let mut boss_trump = None;
    for s in 0..4 {
        let mine = ranks(hand, s);
        if mine == 0 {
            continue;
        }
        let top = top(mine);
        if ranks(others, s) >> top == 0 {
            // Nobody holds a higher card of this suit.
            if s != trump {
                return card_of(s, top);
            }
            boss_trump = Some(card_of(s, top));
        }
        // Side suits first: a trump suit counts as shorter than any of them.
        let length = mine.count_ones() as i32 - if s == trump { 13 } else { 0 };
        if length > longest_len {
            longest = s;
            longest_len = length;
        }
    }
    boss_trump.unwrap_or_else(|| card_of(longest, low(ranks(hand, longest))))
}

impl Neuf {
    /// NEUF-3.2: exchange when the hand looks like fewer tricks than the quota; after an
    /// earlier exchange the spare is a hand someone put down as weak (NEUF-3.3), so only a
    /// weaker hand still is given up for it. One draw blurs the estimate by ±½.
    pub(super) fn exchange_choice<D: Draw>(&self, draw: &mut D) -> usize {
        let estimate = expected_tricks(self.hands[self.to_move as usize], self.trump);
        let bar = if self.exchanged != 0 { 2.5 } else { 3.5 };
        if estimate + draw.draw() - 0.5 < bar {
            EXCHANGE
        } else {
            KEEP
        }
    }

    /// The cards of every seat but `p` (the spare is nobody's).
    fn others(&self, p: usize) -> CardSet {
        (0..self.players())
            .filter(|&s| s != p)
            .fold(0, |m, s| m | self.hands[s])
    }

    /// NEUF-4.2, 4.3 following: take the trick as cheaply as is safe from the players
    /// still to come, ruff low when void, else throw the lowest card (side suits first).
    /// With partners (NEUF-8.4), a trick the partner holds safe is left to it.
    fn follow_card(&self, p: usize, hand: CardSet) -> usize {
        let n = self.sheet.players();
        let trump = self.trump;
        let led = self.led;
        let trick = self.plays.current_cards(n);
        let place = winning_place(trick, trump);
        let best = trick[place];
        let (best_suit, best_rank) = (suit(best), u32::from(best % 13));
        let best_seat = (self.plays.leader(self.plays.done()) as usize + place) % n as usize;
        let to_come = n as usize - 1 - trick.len();
        let later = (1..=to_come).fold(0, |m, i| m | self.hands[(p + i) % n as usize]);
        let follow = ranks(hand, led);
        if n == 4 && best_seat == (p + 2) % 4 {
            // The partner wins unless a later player beats its card (in its suit): then
            // play low.
            if above(ranks(later, best_suit), best_rank) == 0 {
                return if follow != 0 {
                    card_of(led, low(follow))
                } else {
                    lowest(hand, trump)
                };
            }
        }
        if follow != 0 {
            if best_suit != led {
                // Already ruffed: follow low.
                return card_of(led, low(follow));
            }
            let beaters = above(follow, best_rank);
            if beaters != 0 {
                // Beat the trick and every card of the suit still to come, as cheaply as
                // can be.
                let their_top = match ranks(later, led) {
                    0 => 0,
                    theirs => top(theirs) + 1,
                };
                let safe = beaters >> their_top << their_top;
                if safe != 0 {
                    return card_of(led, low(safe));
                }
            }
            return card_of(led, low(follow));
        }
        let trumps = if trump == NO_TRUMP {
            0
        } else {
            ranks(hand, trump)
        };
        if trumps != 0 {
            if best_suit != trump {
                return card_of(trump, low(trumps));
            }
            // Overruff with the lowest trump that does it.
            let over = above(trumps, best_rank);
            if over != 0 {
                return card_of(trump, low(over));
            }
        }
        lowest(hand, trump)
    }

    /// Each seat's expected return from the scores alone (lower is better, NEUF-5): a
    /// side's chance of winning falls off exponentially with its score; a win returns 1
    /// and a loss `-1/(n-1)` as in the result (each seat of a team alike), so the
    /// estimate is zero-sum (Python's `estimate`).
    pub fn score_estimate(&self) -> Returns {
        let sides = self.sheet.scores();
        let mut scores = [0.0; 3];
        for (x, &s) in scores.iter_mut().zip(sides) {
            *x = f64::from(s);
        }
        self.estimate_from_scores(&scores[..sides.len()])
    }

    /// [`Neuf::score_estimate`] from the sides' scores given (expected ones, fractional).
    pub(super) fn estimate_from_scores(&self, scores: &[f64]) -> Returns {
        let n = self.sheet.players();
        let scale = score_scale(n);
        let mut weights = [0.0; 3];
        for (w, &s) in weights.iter_mut().zip(scores) {
            *w = (-s / scale).exp();
        }
        // Added in order, as Python's `sum`.
        let total: f64 = weights[..scores.len()].iter().sum();
        let loss = if n == 3 { -1.0 / 2.0 } else { -1.0 };
        let mut returns = [0.0; MAX_PLAYERS];
        for (seat, r) in returns.iter_mut().enumerate().take(n as usize) {
            // With four, seats 0 and 2 are side 0 and seats 1 and 3 side 1.
            let chance = weights[seat % scores.len()] / total;
            *r = chance + (1.0 - chance) * loss;
        }
        returns
    }

    /// One move of the guided policy; whether it ended the deal with the game going on
    /// (the state is then left between deals, scored, with nobody to move).
    pub(super) fn step_guided<D: Draw>(&mut self, draw: &mut D) -> bool {
        let action = self.guided_action(draw);
        if action >= EXCHANGE {
            self.decide(action == EXCHANGE);
            false
        } else {
            self.play_in_deal(action as Card)
        }
    }
}

impl Guided for Neuf {
    fn guided_action<D: Draw>(&self, draw: &mut D) -> usize {
        debug_assert!(self.phase != Phase::Over, "the game is over");
        if self.phase == Phase::Exchange {
            return self.exchange_choice(draw);
        }
        if draw.draw() < RANDOM_SHARE {
            // A legal card at random, in ascending card order (Python's `SLICES[led]
            // [follow]` or `bits(hand)`).
            let cards = self.playable();
            return nth_card(cards, draw.index(cards.count_ones() as usize) as u32) as usize;
        }
        let p = self.to_move as usize;
        let hand = self.hands[p];
        if self.led == NO_SUIT {
            lead(hand, self.others(p), self.trump)
        } else {
            self.follow_card(p, hand)
        }
    }

    /// The policy to the end of the current deal (or of the game, should the house rule
    /// end it mid-deal, NEUF-8.3); the game's returns if it ended, else
    /// [`Neuf::score_estimate`]'s from the scores after the deal. The next deal is not
    /// dealt: the estimate needs only the scores, and the seeded shuffle (a BLAKE2b
    /// digest) costs about as much as playing a whole deal with the policy. The state is
    /// left between deals, scored, with nobody to move: one to drop, not to play on.
    fn guided_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        while self.phase != Phase::Over {
            if self.step_guided(draw) {
                return self.score_estimate();
            }
        }
        self.final_returns()
    }

    /// Each deal is scored on its own (NEUF-5.2).
    const DEAL_HORIZON: bool = true;

    /// The policy to the end of `root`'s deal (or of the game, should it end inside it);
    /// each seat's return is the fall of its side's score since `root`: its tricks over the
    /// quota this deal (NEUF-5.2), the unit Neuf's advice speaks in. A state already past
    /// that deal (a search's tree may reach into the next) has nothing left to play.
    fn deal_rollout<D: Draw>(&mut self, draw: &mut D, root: &Self) -> Returns {
        let deal = root.sheet.row_count();
        while self.phase != Phase::Over && self.sheet.row_count() == deal {
            if self.step_guided(draw) {
                break;
            }
        }
        let (before, after) = (root.sheet.scores(), self.sheet.scores());
        let mut returns = [0.0; MAX_PLAYERS];
        for (seat, r) in returns.iter_mut().enumerate().take(self.players()) {
            let side = seat % before.len();
            *r = f64::from(before[side] - after[side]);
        }
        returns
    }

    /// The guided policy to the end of the current trick, then the learned value of the
    /// rest of the deal ([`Neuf::value_rollout`]).
    fn learned_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        self.value_rollout(draw)
    }
}
