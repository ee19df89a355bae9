//! The guided rollout of search, the port of `cardtable.bots.knockout_whist_rollout`: cheap
//! card sense on the hands' bitmasks. Each seat, in turn:
//!
//! - **names trumps** (KOW-3.2) in its longest suit, counting its J, Q, K and A as extra
//!   length;
//! - **leads** an ace of a plain suit when it has one; with at least half its cards in
//!   trumps, its highest trump; otherwise the lowest card of its longest plain suit;
//! - **follows** (KOW-4.2) with the lowest card that takes the trick when it can, else its
//!   lowest card of the suit led;
//! - **when void**, trumps in with the lowest trump that takes the trick, else throws its
//!   lowest plain card;
//! - **as a dog** (KOW-6.3) plays its card when it would take the trick so far (or leads a
//!   plain ace or a trump of jack or better), and otherwise knocks until the last trick,
//!   where it must play (W-3).
//!
//! One action in ten (`EXPLORE`) is uniformly random among the legal ones, so the rollouts
//! do not all follow one script.
//!
//! The rollout plays only to the end of the current hand, then estimates the returns from
//! who is left ([`KnockoutWhist::estimate`]). As in Python, the hand is played on local
//! copies of the hands and trick rather than through [`KnockoutWhist::apply`]: that skips
//! the engine's bookkeeping (the trick lists) and above all the next hand's deal, a BLAKE2b
//! shuffle the engine makes as a hand ends and that a rollout stopping there never looks
//! at (through the engine, a three-player rollout from hand 1 takes about three times as
//! long: the `rollout_speed` test measures both). The statuses the hand leaves are worked
//! out as the engine's end of hand does (KOW-5).
//!
//! Every random number is drawn at the same point and in the same order as the Python
//! policy draws it, so both choose the same actions from the same draws.

use super::plays::Play;
use super::state::{first_clockwise, takes_over, HANDS, NONE};
use super::values;
use super::{KnockoutWhist, Phase, Status, KNOCK, TRUMP_BASE};
use crate::cards::{highest, nth_card, playable, suit, Card, CardSet, SUIT_MASKS};
use crate::game::{ActionMask, Returns, MAX_PLAYERS};
use crate::rollout::{Draw, Guided};

/// The share of uniformly random actions.
const EXPLORE: f64 = 0.1;
/// A dog's chance of winning, against 1 for a player still active.
pub const DOG_CHANCE: f64 = 0.3;
/// The four aces.
const ALL_ACES: CardSet = 1 << 12 | 1 << 25 | 1 << 38 | 1 << 51;
/// One card of each suit, rank 2: shifted up by a rank, that rank in every suit.
const EVERY_SUIT: CardSet = 1 | 1 << 13 | 1 << 26 | 1 << 39;
/// J, Q, K, A of a suit, shifted down to bits 0-12.
const HONOURS: CardSet = 0x1E00;
/// A suit's thirteen cards, shifted down to bits 0-12.
const SUIT_BITS: CardSet = 0x1FFF;
/// The best play of a trick no card has been played to yet.
const NO_PLAY: Play = Play {
    seat: NONE,
    card: NONE,
};

impl Guided for KnockoutWhist {
    /// The learned prior (`prior.rs`), three players only.
    fn prior(&self, out: &mut [f32; crate::rollout::PRIOR_ACTIONS]) -> bool {
        self.learned_prior(out)
    }

    /// `choose`: the policy's action for the seat to move.
    fn guided_action<D: Draw>(&self, draw: &mut D) -> usize {
        let p = usize::from(self.to_move);
        let hand = self.hands[p];
        if self.phase == Phase::Trump {
            return TRUMP_BASE + usize::from(trump_suit(hand));
        }
        let turn = Turn {
            hand,
            trump: self.trump,
            led: self.led(),
            best: self.best.card,
            dog: self.status[p] == Status::Dog,
            last_trick: self.last_trick(),
        };
        turn.action(draw)
    }

    fn solved_returns(&self, cards: u32) -> Option<Returns> {
        let held: u32 = self.hands.iter().map(|h| h.count_ones()).sum();
        (self.phase == Phase::Play && held <= cards).then(|| self.solved_hand())
    }

    /// `rollout`: the policy plays to the end of the hand; the game's returns if the game
    /// ended there, else the estimate. The state is left as it was.
    fn guided_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        if self.to_move == NONE {
            // Nobody to move: the game is over.
            return self.returns().unwrap_or_else(|| self.estimate());
        }
        self.play_hand_out(draw, false)
    }

    /// `guided_rollout`, the estimate at the hand's end learnt ([`super::values`]).
    fn learned_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        if self.to_move == NONE {
            return self.returns().unwrap_or_else(|| self.estimate());
        }
        self.play_hand_out(draw, true)
    }
}

impl KnockoutWhist {
    /// Expected returns between hands: the players still in share the chance of winning,
    /// a dog (KOW-6) at [`DOG_CHANCE`] of an active player's; a win returns 1 and a loss
    /// `-1/(n-1)`, as the result does (zero-sum).
    pub fn estimate(&self) -> Returns {
        share(&self.status[..self.n()])
    }

    /// The rest of this hand played by the policy, and the returns at its end
    /// ([`Self::after_hand`]).
    fn play_hand_out<D: Draw>(&self, draw: &mut D, learned: bool) -> Returns {
        let mut hand = LocalHand::new(self);
        let last_winner = hand.play_out(draw);
        self.after_hand(&hand.won, last_winner, learned)
    }

    /// `_after_hand`: the returns once this hand ends with `won` tricks a seat, the last
    /// taken by `last_winner`. The statuses of KOW-5 are worked out as the engine's end of
    /// hand does, then the game's returns or the estimate (`learned`: the learnt one).
    pub(super) fn after_hand(
        &self,
        won: &[u32; MAX_PLAYERS],
        last_winner: u8,
        learned: bool,
    ) -> Returns {
        let n = self.n();
        if self.hand_no == HANDS {
            return won_by(usize::from(last_winner), n); // W-7: hand 7's trick decides
        }
        // KOW-5.1.2-3, KOW-6.1, W-6: the players dealt in who took no trick all become dogs
        // at once if the dog's life is unused; once it is used they are out (KOW-6.7).
        let blanked = if self.dog_used {
            Status::Out
        } else {
            Status::Dog
        };
        let mut status = self.status;
        let mut dog_used = self.dog_used;
        for s in 0..n {
            if won[s] > 0 {
                status[s] = Status::Active; // KOW-5.1.1, KOW-6.5: a dog who scores is back
            } else if self.dealt_in >> s & 1 == 1 {
                status[s] = blanked;
                dog_used = true; // a seat made a dog spends the dog's life (KOW-6.7)
            }
        }
        let mut left = (0..n).filter(|&s| status[s] != Status::Out);
        match (left.next(), left.next()) {
            (Some(winner), None) => won_by(winner, n), // KOW-5.2: one player left wins
            _ if learned => {
                let fallback = share_chances(&status[..n]);
                let cards = HANDS - self.hand_no; // the next hand's, one fewer (KOW-2.1)
                let chance =
                    values::learned_chances(&status[..n], &won[..n], cards, dog_used, &fallback);
                as_returns(&chance[..n])
            }
            _ => share(&status[..n]),
        }
    }
}

/// The returns of a game `winner` has won, as its result gives them (KOW-7).
fn won_by(winner: usize, n: usize) -> Returns {
    let loss = -1.0 / (n - 1) as f64;
    let mut returns = [0.0; MAX_PLAYERS];
    for (s, r) in returns.iter_mut().enumerate().take(n) {
        *r = if s == winner { 1.0 } else { loss };
    }
    returns
}

/// `_share`: each seat's chance of winning in proportion to its weight (active 1, dog
/// [`DOG_CHANCE`], out 0), as a return.
fn share(status: &[Status]) -> Returns {
    as_returns(&share_chances(status)[..status.len()])
}

/// Each seat's chance of winning, as [`share`] weighs it.
fn share_chances(status: &[Status]) -> [f64; MAX_PLAYERS] {
    let weight = |s: Status| match s {
        Status::Active => 1.0,
        Status::Dog => DOG_CHANCE,
        Status::Out => 0.0,
    };
    // Summed in seat order, as Python's `sum` adds them.
    let total: f64 = status.iter().map(|&s| weight(s)).sum();
    let mut chances = [0.0; MAX_PLAYERS];
    for (c, &s) in chances.iter_mut().zip(status) {
        *c = weight(s) / total;
    }
    chances
}

/// Each seat's return from its chance of winning: a win 1 and a loss `-1/(n-1)`, as the
/// result gives them (KOW-7), the seats' chances summing to 1.
fn as_returns(chances: &[f64]) -> Returns {
    let loss = -1.0 / (chances.len() - 1) as f64;
    let mut returns = [0.0; MAX_PLAYERS];
    for (r, &chance) in returns.iter_mut().zip(chances) {
        *r = chance + (1.0 - chance) * loss;
    }
    returns
}

/// What the policy looks at for the seat to move once trumps are named.
#[derive(Clone, Copy)]
struct Turn {
    hand: CardSet,
    trump: u8,
    led: Option<u8>,
    /// The card taking the trick so far (KOW-4.3), [`NONE`] while none.
    best: Card,
    dog: bool,
    last_trick: bool,
}

impl Turn {
    /// The policy's card, or a dog's knock.
    fn action<D: Draw>(self, draw: &mut D) -> usize {
        if self.dog {
            return self.dog_action(draw);
        }
        if draw.draw() < EXPLORE {
            let cards = playable(self.hand, self.led);
            let k = draw.index(cards.count_ones() as usize);
            return usize::from(nth_card(cards, k as u32));
        }
        usize::from(match self.led {
            None => lead(self.hand, self.trump),
            Some(led) => follow(self.hand, self.trump, led, self.best),
        })
    }

    /// KOW-6.3: a dog plays its one card when it would take the trick, or leads it when it
    /// is a plain ace or a trump of jack or better; otherwise it knocks, keeping the card
    /// for a later trick, except on the last trick, where it must play (W-3).
    fn dog_action<D: Draw>(self, draw: &mut D) -> usize {
        if self.hand == 0 {
            return KNOCK; // only a hand-written position has a dog without its card
        }
        let card = highest(self.hand);
        if self.last_trick {
            return usize::from(card);
        }
        let play = if draw.draw() < EXPLORE {
            draw.draw() < 0.5
        } else {
            self.dog_plays(card)
        };
        if play {
            usize::from(card)
        } else {
            KNOCK
        }
    }

    /// The dog's rule, on what every seat sees: lead a plain ace or a trump of jack or
    /// better, follow when the card would take the trick so far.
    fn dog_plays(self, card: Card) -> bool {
        if self.led.is_none() {
            let rank = card % 13;
            rank == 12 || (suit(card) == self.trump && rank >= 9)
        } else {
            beats(card, self.best, self.trump)
        }
    }
}

/// Draws that never reach the policy's exploring branch (`draw() < EXPLORE`), so the
/// policy plays by its rules alone; its only draws are those checks.
struct NeverExplore;

impl Draw for NeverExplore {
    fn draw(&mut self) -> f64 {
        1.0
    }
}

/// KOW-4.3: whether `card` takes the trick from `best` ([`NONE`] while no card is in it).
#[inline]
fn beats(card: Card, best: Card, trump: u8) -> bool {
    let play = |card| Play { seat: NONE, card };
    takes_over(play(card), play(best), trump)
}

/// The lowest card of a non-empty set.
#[inline]
fn lowest(set: CardSet) -> Card {
    set.trailing_zeros() as Card
}

/// The cards above `card` (of any suit: callers keep to `card`'s suit).
#[inline]
fn above(card: Card) -> CardSet {
    !((2 << card) - 1)
}

/// The thirteen cards of suit `s` in `hand`, shifted down to bits 0-12.
#[inline]
fn suit_bits(hand: CardSet, s: u8) -> CardSet {
    hand >> (13 * s) & SUIT_BITS
}

/// How good a trump suit `s` would make of `hand`, in half cards: its length, each J, Q,
/// K and A counting as half a card more.
pub(super) fn trump_score(hand: CardSet, s: u8) -> i32 {
    let cards = suit_bits(hand, s);
    2 * cards.count_ones() as i32 + (cards & HONOURS).count_ones() as i32
}

/// KOW-3.2: the suit of the best [`trump_score`]; ties go to the first suit.
fn trump_suit(hand: CardSet) -> u8 {
    let (mut best, mut best_score) = (0, -1);
    for s in 0..4 {
        let score = trump_score(hand, s);
        if score > best_score {
            (best, best_score) = (s, score);
        }
    }
    best
}

/// KOW-4.1: a plain ace (the first suit's), else the highest trump with at least half the
/// hand in trumps, else the lowest card of the longest plain suit (ties: the first suit).
fn lead(hand: CardSet, trump: u8) -> Card {
    let trumps = hand & SUIT_MASKS[usize::from(trump)];
    let plain = hand ^ trumps;
    let aces = plain & ALL_ACES;
    if aces != 0 {
        return lowest(aces);
    }
    if plain == 0 || 2 * trumps.count_ones() >= hand.count_ones() {
        return highest(trumps);
    }
    let (mut longest, mut length) = (0, 0);
    for s in 0..4 {
        let cards = suit_bits(plain, s);
        if cards.count_ones() > length {
            (longest, length) = (13 * s + lowest(cards), cards.count_ones());
        }
    }
    longest
}

/// KOW-4.2: the lowest card of the suit led that takes the trick, else the lowest of the
/// suit led; void, the lowest trump that takes it, else the lowest plain card (the lowest
/// rank, in the first suit holding it), else the lowest trump.
fn follow(hand: CardSet, trump: u8, led: u8, best: Card) -> Card {
    let followers = hand & SUIT_MASKS[usize::from(led)];
    if followers != 0 {
        // Not trumped yet: take the trick as cheaply as possible.
        let higher = if suit(best) == led {
            followers & above(best)
        } else {
            0
        };
        return lowest(if higher != 0 { higher } else { followers });
    }
    let trumps = hand & SUIT_MASKS[usize::from(trump)];
    if trumps != 0 {
        let higher = if suit(best) == trump {
            trumps & above(best)
        } else {
            trumps
        };
        if higher != 0 {
            return lowest(higher);
        }
    }
    let plain = hand ^ trumps;
    if plain == 0 {
        return lowest(trumps);
    }
    let ranks = (plain | plain >> 13 | plain >> 26 | plain >> 39) & SUIT_BITS;
    lowest(plain & EVERY_SUIT << ranks.trailing_zeros())
}

/// The rest of a hand, played on local copies of the state's numbers: the hands, the trick
/// in progress and the tricks won, and no trick lists or deals. The rollout plays it out
/// and the exact solver searches it ([`super::solver`]).
#[derive(Clone, Copy)]
pub(super) struct LocalHand<'a> {
    pub(super) state: &'a KnockoutWhist,
    pub(super) hands: [CardSet; MAX_PLAYERS],
    /// Seats holding cards.
    holders: u8,
    pub(super) trump: u8,
    led: Option<u8>,
    /// Seats that played or knocked in this trick.
    acted: u8,
    /// The play taking the trick so far (KOW-4.3).
    best: Play,
    /// The cards of the trick in progress.
    pub(super) trick_cards: CardSet,
    /// The hand's finished tricks.
    done: u32,
    /// Finished tricks before the hand's last one (W-3).
    last: u32,
    pub(super) won: [u32; MAX_PLAYERS],
    /// The seat to move.
    pub(super) to_move: u8,
}

impl<'a> LocalHand<'a> {
    pub(super) fn new(state: &'a KnockoutWhist) -> LocalHand<'a> {
        let hands = state.hands;
        let mut hand = LocalHand {
            state,
            hands,
            holders: (0..state.players)
                .filter(|&s| hands[usize::from(s)] != 0)
                .fold(0, |m, s| m | 1 << s),
            trump: state.trump,
            led: state.led(),
            acted: state.acted,
            best: state.best,
            trick_cards: state
                .trick()
                .filter_map(Play::card)
                .fold(0, |m, c| m | 1 << c),
            done: state.done,
            last: u32::from(HANDS - state.hand_no),
            won: state.tricks_won,
            to_move: state.to_move,
        };
        if state.phase == Phase::Trump {
            // KOW-3.2, then KOW-4.1: the first seat clockwise from the dealer still in leads.
            hand.trump = trump_suit(hands[usize::from(state.to_move)]);
            hand.to_move = state.first_leader();
            hand.led = None;
            hand.acted = 0;
            hand.best = NO_PLAY;
            hand.trick_cards = 0;
        }
        hand
    }

    /// Plays the hand out with the policy; the seat taking its last trick.
    fn play_out<D: Draw>(&mut self, draw: &mut D) -> u8 {
        loop {
            let action = self.turn(self.to_move).action(draw);
            if let Some(taker) = self.act(action) {
                return taker;
            }
        }
    }

    /// The hand as it was dealt: every card played in it back in its player's hand, and its
    /// first trick not yet begun, the first seat clockwise from the dealer still in to lead
    /// (KOW-4.1). For a state whose trumps are named.
    pub(super) fn from_deal(state: &'a KnockoutWhist) -> LocalHand<'a> {
        let mut hand = LocalHand::new(state);
        for play in state.plays.plays_before(state.plays.len()) {
            if let Some(card) = play.card() {
                hand.hands[usize::from(play.seat)] |= 1 << card;
            }
        }
        hand.holders = (0..state.players)
            .filter(|&s| hand.hands[usize::from(s)] != 0)
            .fold(0, |m, s| m | 1 << s);
        hand.won = [0; MAX_PLAYERS];
        hand.done = 0;
        hand.open_trick(state.first_leader());
        hand
    }

    /// The guided policy's action for the seat to move, without exploring: what the policy
    /// plays by its rules alone.
    pub(super) fn policy_action(&self) -> usize {
        self.turn(self.to_move).action(&mut NeverExplore)
    }

    /// The legal actions of the seat to move, as the engine's mask gives them (KOW-4.2,
    /// KOW-6.3: a dog plays its card or knocks, and may not knock on the last trick).
    pub(super) fn legal(&self) -> ActionMask {
        let p = usize::from(self.to_move);
        let hand = self.hands[p];
        if self.state.status[p] == Status::Dog {
            let card = if hand == 0 { 0 } else { 1 << highest(hand) };
            let knock = if self.done == self.last {
                0
            } else {
                1 << KNOCK
            };
            return card | knock;
        }
        ActionMask::from(playable(hand, self.led))
    }

    /// Whether the seat to move is a dog still holding its card (KOW-6.3).
    pub(super) fn dog_to_move(&self) -> bool {
        let p = usize::from(self.to_move);
        self.state.status[p] == Status::Dog && self.hands[p] != 0
    }

    /// A dog's action by its rule, without exploring: its card when the rule plays it or
    /// on the last trick (W-3), else a knock.
    pub(super) fn dog_rule(&self) -> usize {
        let turn = self.turn(self.to_move);
        let card = highest(turn.hand);
        if turn.last_trick || turn.dog_plays(card) {
            usize::from(card)
        } else {
            KNOCK
        }
    }

    /// Whether the seat to move is leading: nobody has played to the trick.
    pub(super) fn leading(&self) -> bool {
        self.led.is_none()
    }

    /// Whether nobody has played or knocked in this trick yet.
    pub(super) fn at_trick_start(&self) -> bool {
        self.acted == 0
    }

    /// The play taking the trick so far.
    pub(super) fn best(&self) -> Play {
        self.best
    }

    /// The seat to move plays `action` (a card or [`KNOCK`]); the seat taking the hand's
    /// last trick once the hand is over, else `None`.
    pub(super) fn act(&mut self, action: usize) -> Option<u8> {
        let p = self.to_move;
        if action != KNOCK {
            self.play(p, action as Card);
        }
        self.acted |= 1 << p;
        // The next seat clockwise holding cards and yet to act; none ends the trick.
        if let Some(next) = first_clockwise(self.holders & !self.acted, p) {
            self.to_move = next;
            return None;
        }
        let taker = self.finish_trick();
        if self.done == self.last {
            return Some(taker);
        }
        self.done += 1;
        // KOW-4.4 / KOW-6.5: a winner with no cards passes the lead on clockwise.
        let leader = if self.hands[usize::from(taker)] != 0 {
            Some(taker)
        } else {
            first_clockwise(self.holders, taker)
        };
        match leader {
            Some(seat) => {
                self.open_trick(seat);
                None
            }
            // Only a position whose tricks broke the order of play runs out of cards
            // before its last trick; the hand ends, as in the engine.
            None => Some(taker),
        }
    }

    fn turn(&self, p: u8) -> Turn {
        let p = usize::from(p);
        Turn {
            hand: self.hands[p],
            trump: self.trump,
            led: self.led,
            best: self.best.card,
            dog: self.state.status[p] == Status::Dog,
            last_trick: self.done == self.last,
        }
    }

    fn play(&mut self, p: u8, card: Card) {
        let hand = &mut self.hands[usize::from(p)];
        *hand ^= 1 << card;
        if *hand == 0 {
            self.holders &= !(1 << p);
        }
        self.trick_cards |= 1 << card;
        // KOW-4.1: the first card leads (a knock before it does not).
        self.led.get_or_insert(suit(card));
        let play = Play { seat: p, card };
        if takes_over(play, self.best, self.trump) {
            self.best = play; // KOW-4.3
        }
    }

    /// Counts the trick to its taker and returns the taker.
    fn finish_trick(&mut self) -> u8 {
        // A trick of knocks alone has no winner; only a position can hold one, and the
        // engine gives it to the last seat, as Python's -1 indexes it.
        let taker = if self.best.card == NONE {
            self.state.players - 1
        } else {
            self.best.seat
        };
        self.won[usize::from(taker)] += 1;
        taker
    }

    fn open_trick(&mut self, leader: u8) {
        self.to_move = leader;
        self.led = None;
        self.acted = 0;
        self.best = NO_PLAY;
        self.trick_cards = 0;
    }
}

#[cfg(test)]
#[path = "rollout_tests.rs"]
mod tests;
