//! The state machine of SPEC §3 (KOW-1 … KOW-11, decisions W-1 … W-11), step for step as
//! `cardtable.rules.knockout_whist.state`: the automatic steps of KOW-10 (deal, turned
//! trump, cut, end of hand) run inside [`KnockoutWhist::apply`], so a player only ever
//! sees the phases `trump`, `play` and `over`.
//!
//! Seats, suits and "none" are bytes ([`NONE`]); hands are card bitmasks; seat sets are
//! bitmasks too (bit `s` for seat `s`).

use crate::cards::FULL_PACK;
use crate::game::check_deck;
use std::sync::Arc;

use rand::Rng;

use crate::cards::{bit, highest, nth_card, playable, suit, Card, CardSet};
use crate::chance::Seed;
use crate::game::{ActionMask, OptionError, PlayoutRng, Returns, Stacked, MAX_PLAYERS};

use super::deal::{check_reshuffle, playable_deck, reshuffle};
use super::options::Options;
use super::plays::{Play, Rounds, KNOCKED};
use crate::chance::seeded_deck;

/// Actions 52 … 55 name trumps C, D, H, S.
pub const TRUMP_BASE: usize = 52;
/// A dog keeps its card for a later trick (KOW-6.3).
pub const KNOCK: usize = 56;
pub const NUM_ACTIONS: usize = 57;
/// Hands 1 … 7 of 7 … 1 cards (KOW-2.2).
pub const HANDS: u8 = 7;
/// "None" for a seat, suit or card byte.
pub const NONE: u8 = 0xFF;

const TRUMP_MASK: ActionMask = 0xF << TRUMP_BASE;
/// Room for a hand's tricks: 7 tricks of at most 7 plays, and their separators.
const TRICK_ROOM: usize = 56;
/// Room for the cut rounds of almost every tie; longer cuts spill to the heap.
const CUT_ROOM: usize = 24;
/// Seats go out at most once each, and a position may list each OUT seat once more.
const ELIMINATED_ROOM: usize = 2 * MAX_PLAYERS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    Trump,
    Play,
    Over,
}

impl Phase {
    pub const fn text(self) -> &'static str {
        match self {
            Phase::Trump => "trump",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// KOW-2.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Status {
    Active,
    Dog,
    Out,
}

impl Status {
    /// The name a view writes (`KnockoutWhistState.view`'s `statuses`).
    pub const fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Dog => "dog",
            Status::Out => "out",
        }
    }

    pub const fn letter(self) -> char {
        match self {
            Status::Active => 'A',
            Status::Dog => 'D',
            Status::Out => 'O',
        }
    }
}

/// The chance events given before the seed deals: stacked decks, then recorded cut
/// reshuffles, consumed in order. Shared between clones; only the counters move.
#[derive(Debug, PartialEq, Eq)]
pub struct StackedChance {
    pub decks: Vec<Vec<Card>>,
    pub reshuffles: Vec<Vec<Card>>,
}

/// The seat after `seat` clockwise, for `n` seats.
#[inline]
fn next_seat(seat: u8, n: u8) -> u8 {
    if seat + 1 == n {
        0
    } else {
        seat + 1
    }
}

/// Whether `play` takes the trick from `best` (a card of [`NONE`] while no card is in it):
/// KOW-4.3 as `trick_winner` applies it, one play at a time. A knock takes nothing.
#[inline]
pub fn takes_over(play: Play, best: Play, trump: u8) -> bool {
    if play.is_knock() {
        return false;
    }
    let (s, b) = (suit(play.card), suit(best.card));
    best.card == NONE || (s == b && play.card > best.card) || (s == trump && b != trump)
}

/// The first seat of `seats` clockwise after `after` (`after` itself last), as
/// `CLOCKWISE[n][after]` is searched.
#[inline]
pub fn first_clockwise(seats: u8, after: u8) -> Option<u8> {
    if seats == 0 {
        return None;
    }
    let later = (u16::from(seats) >> (after + 1)) as u8;
    Some(if later != 0 {
        after + 1 + later.trailing_zeros() as u8
    } else {
        seats.trailing_zeros() as u8
    })
}

/// A Knockout Whist game in progress (`KnockoutWhistState`).
#[derive(Clone, Debug)]
pub struct KnockoutWhist {
    pub(super) players: u8,
    pub(super) hand_no: u8,
    pub(super) dealer: u8,
    pub(super) phase: Phase,
    pub(super) trump: u8,
    pub(super) turned: Card,
    pub(super) chooser: u8,
    pub(super) to_move: u8,
    pub(super) dog_used: bool,
    /// The suit of the trick's first card, [`NONE`] until one is played.
    pub(super) led_suit: u8,
    /// Seats that played or knocked in this trick.
    pub(super) acted: u8,
    /// Seats holding cards.
    pub(super) holders: u8,
    /// Seats dealt cards this hand (KOW-5.4 counts them).
    pub(super) dealt_in: u8,
    /// The play now taking the trick, by KOW-4.3 ([`NONE`] card while none).
    pub(super) best: Play,
    pub(super) status: [Status; MAX_PLAYERS],
    pub(super) hands: [CardSet; MAX_PLAYERS],
    pub(super) tricks_won: [u32; MAX_PLAYERS],
    /// Tricks finished since this state was made (counting on past the hands), and the
    /// seat that took the last of them ([`NONE`] for a trick of knocks alone): what a
    /// step did, for whoever shows it.
    pub(super) taken: u32,
    pub(super) taker: u8,
    /// `(seat, hand)` in the order players went out.
    pub(super) eliminated: [(u8, u8); ELIMINATED_ROOM],
    pub(super) eliminated_len: u8,
    /// This hand's finished tricks (closed groups), then the trick in progress.
    pub(super) plays: Rounds<TRICK_ROOM>,
    pub(super) done: u32,
    /// Where the trick in progress starts in `plays`.
    pub(super) trick_start: u32,
    /// The hand before's trump ([`NONE`] before hand 2) and tricks, kept on view (KOW-9).
    pub(super) previous_trump: u8,
    pub(super) previous: Rounds<TRICK_ROOM>,
    pub(super) cuts: Rounds<CUT_ROOM>,
    /// The undealt remainder, top first: `stock[stock_start..stock_end]`.
    pub(super) stock: [Card; 52],
    pub(super) stock_start: u8,
    pub(super) stock_end: u8,
    pub(super) seed: Seed,
    pub(super) decks_drawn: u64,
    pub(super) reshuffles_drawn: u64,
    pub(super) stacked: Option<Arc<StackedChance>>,
    pub(super) stacked_decks_used: u32,
    pub(super) stacked_reshuffles_used: u32,
}

impl KnockoutWhist {
    /// A state with nothing dealt: the common ground of [`KnockoutWhist::begin`] and the
    /// position parser.
    pub(super) fn blank(players: u8, seed: Seed) -> KnockoutWhist {
        KnockoutWhist {
            players,
            hand_no: 1,
            dealer: 0,
            phase: Phase::Play,
            trump: NONE,
            turned: NONE,
            chooser: NONE,
            to_move: NONE,
            dog_used: false,
            led_suit: NONE,
            acted: 0,
            holders: 0,
            dealt_in: 0,
            best: Play {
                seat: NONE,
                card: NONE,
            },
            status: [Status::Active; MAX_PLAYERS],
            hands: [0; MAX_PLAYERS],
            tricks_won: [0; MAX_PLAYERS],
            taken: 0,
            taker: NONE,
            eliminated: [(0, 0); ELIMINATED_ROOM],
            eliminated_len: 0,
            plays: Rounds::default(),
            done: 0,
            trick_start: 0,
            previous_trump: NONE,
            previous: Rounds::default(),
            cuts: Rounds::default(),
            stock: [0; 52],
            stock_start: 0,
            stock_end: 0,
            seed,
            decks_drawn: 0,
            reshuffles_drawn: 0,
            stacked: None,
            stacked_decks_used: 0,
            stacked_reshuffles_used: 0,
        }
    }

    /// A new game: hand 1 dealt, its trump turned (KOW-3.1), as `KnockoutWhistState.begin`.
    pub fn begin(
        options: &Options,
        seed: Seed,
        dealer: usize,
        stacked: Stacked,
    ) -> Result<KnockoutWhist, OptionError> {
        let players = options.players;
        if dealer >= players {
            return Err(OptionError(format!(
                "dealer must be a seat 0-{}, not {dealer}",
                players - 1
            )));
        }
        for (i, deck) in stacked.decks.iter().enumerate() {
            check_deck(deck, i, FULL_PACK)?;
        }
        for (i, order) in stacked.reshuffles.iter().enumerate() {
            check_reshuffle(order, i)?;
        }
        let mut state = KnockoutWhist::blank(players as u8, seed);
        state.dealer = dealer as u8;
        state.set_stacked(stacked.decks, stacked.reshuffles);
        state.deal(None);
        Ok(state)
    }

    // Facts ---------------------------------------------------------------------------------

    #[inline]
    pub(super) fn n(&self) -> usize {
        usize::from(self.players)
    }

    /// Seats not OUT.
    #[inline]
    pub(super) fn alive(&self) -> u8 {
        (0..self.players)
            .filter(|&s| self.status[usize::from(s)] != Status::Out)
            .fold(0, |m, s| m | 1 << s)
    }

    #[inline]
    fn size(&self) -> u32 {
        u32::from(HANDS + 1 - self.hand_no)
    }

    /// Whether the trick in progress is the hand's last (W-3).
    #[inline]
    pub(super) fn last_trick(&self) -> bool {
        self.done + 1 == self.size()
    }

    pub(super) fn stock(&self) -> &[Card] {
        &self.stock[usize::from(self.stock_start)..usize::from(self.stock_end)]
    }

    pub(super) fn eliminated(&self) -> &[(u8, u8)] {
        &self.eliminated[..usize::from(self.eliminated_len)]
    }

    /// The trick in progress.
    pub(super) fn trick(&self) -> impl Iterator<Item = Play> + '_ {
        self.plays.plays_from(self.trick_start)
    }

    /// The winner once the game is over: the one seat not OUT.
    pub fn winner(&self) -> Option<usize> {
        if self.phase != Phase::Over {
            return None;
        }
        (0..self.n()).find(|&s| self.status[s] != Status::Out)
    }

    pub fn to_move(&self) -> Option<usize> {
        (self.to_move != NONE).then_some(usize::from(self.to_move))
    }

    /// `state.result.returns`: +1 to the winner, -1/(n-1) to everyone else (KOW-7).
    pub fn returns(&self) -> Option<Returns> {
        let winner = self.winner()?;
        let loss = -1.0 / (self.n() - 1) as f64;
        let mut returns = [0.0; MAX_PLAYERS];
        for (s, r) in returns.iter_mut().enumerate().take(self.n()) {
            *r = if s == winner { 1.0 } else { loss };
        }
        Some(returns)
    }

    // Legal actions -------------------------------------------------------------------------

    /// A dog may play its card or knock, but not knock on the last trick (KOW-6.3, W-3).
    #[inline]
    fn dog_may_knock(&self) -> bool {
        cfg!(feature = "broken-rule") || !self.last_trick()
    }

    pub fn legal_mask(&self) -> ActionMask {
        if self.to_move == NONE {
            return 0;
        }
        if self.phase == Phase::Trump {
            return TRUMP_MASK;
        }
        let p = usize::from(self.to_move);
        let hand = self.hands[p];
        if self.status[p] == Status::Dog {
            let card = if hand == 0 { 0 } else { 1 << highest(hand) };
            let knock = if self.dog_may_knock() { 1 << KNOCK } else { 0 };
            return card | knock;
        }
        ActionMask::from(playable(hand, self.led()))
    }

    #[inline]
    pub(super) fn led(&self) -> Option<u8> {
        (self.led_suit != NONE).then_some(self.led_suit)
    }

    /// One uniformly random legal action, without building the mask.
    pub fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        if self.phase == Phase::Trump {
            return TRUMP_BASE + rng.random_range(0..4);
        }
        let p = usize::from(self.to_move);
        let hand = self.hands[p];
        if self.status[p] == Status::Dog {
            // A dog without its card (only a hand-written position has one) can only knock.
            if hand == 0 || (self.dog_may_knock() && rng.random_bool(0.5)) {
                return KNOCK;
            }
            return usize::from(highest(hand));
        }
        let cards = playable(hand, self.led());
        let k = rng.random_range(0..cards.count_ones());
        usize::from(nth_card(cards, k))
    }

    // Actions -------------------------------------------------------------------------------

    /// Applies a legal action, unchecked (`apply_id`), with the automatic steps it sets off.
    pub fn apply(&mut self, action: usize) {
        let p = self.to_move;
        if action < TRUMP_BASE {
            self.play_card(p, action as Card);
        } else if action == KNOCK {
            self.plays.push(Play {
                seat: p,
                card: KNOCKED,
            });
        } else {
            self.trump = (action - TRUMP_BASE) as u8;
            self.phase = Phase::Play;
            let leader = self.first_leader();
            self.open_trick(leader);
            return;
        }
        self.acted |= 1 << p;
        match first_clockwise(self.holders & !self.acted, p) {
            Some(next) => self.to_move = next,
            None => self.finish_trick(),
        }
    }

    #[inline]
    fn play_card(&mut self, p: u8, card: Card) {
        let hand = &mut self.hands[usize::from(p)];
        *hand ^= bit(card);
        if *hand == 0 {
            self.holders &= !(1 << p);
        }
        self.plays.push(Play { seat: p, card });
        if self.led_suit == NONE {
            self.led_suit = suit(card);
        }
        self.consider_for_trick(Play { seat: p, card });
    }

    /// KOW-4.3, one play at a time: the highest trump, else the highest card of the suit
    /// led (`trick_winner`).
    #[inline]
    pub(super) fn consider_for_trick(&mut self, play: Play) {
        if takes_over(play, self.best, self.trump) {
            self.best = play;
        }
    }

    /// KOW-4.1: the first seat clockwise from the dealer still in the game.
    pub(super) fn first_leader(&self) -> u8 {
        // Only a position can have nobody left to lead (Python fails an assertion there);
        // the dealer's left stands in.
        first_clockwise(self.alive(), self.dealer).unwrap_or(next_seat(self.dealer, self.players))
    }

    fn open_trick(&mut self, candidate: u8) {
        self.plays.truncate(self.trick_start);
        self.led_suit = NONE;
        self.acted = 0;
        self.best = Play {
            seat: NONE,
            card: NONE,
        };
        self.to_move = candidate;
    }

    fn finish_trick(&mut self) {
        // A trick of knocks alone has no winner: Python's -1 then indexes the last seat.
        // Only a position can hold one.
        let winner = if self.best.card == NONE {
            self.players - 1
        } else {
            self.best.seat
        };
        self.tricks_won[usize::from(winner)] += 1;
        self.taken = self.taken.wrapping_add(1);
        self.taker = if self.best.card == NONE { NONE } else { winner };
        self.plays.close();
        self.done += 1;
        self.trick_start = self.plays.len();
        if self.done == self.size() {
            self.finish_hand(winner);
            return;
        }
        // KOW-4.4 / KOW-6.5: a winner with no cards passes the lead on.
        let leader = if self.hands[usize::from(winner)] != 0 {
            Some(winner)
        } else {
            first_clockwise(self.holders, winner)
        };
        match leader {
            Some(seat) => self.open_trick(seat),
            // Only a position whose tricks broke the order of play can run out of cards
            // before its last trick (Python fails an assertion there); the hand ends.
            None => self.finish_hand(winner),
        }
    }

    /// KOW-5: knock-outs and the dog's life, the winner, the chooser, the next dealer.
    fn finish_hand(&mut self, last_winner: u8) {
        let n = self.players;
        let k = self.hand_no;
        if k == HANDS {
            // W-7: hand 7's single trick decides the game; a dog who takes it is back in
            // (KOW-5.1.1), so the winner always ends ACTIVE (KOW-11.6).
            for s in 0..n {
                if s != last_winner && self.status[usize::from(s)] != Status::Out {
                    self.knock_out(s, k);
                }
            }
            self.status[usize::from(last_winner)] = Status::Active;
            self.game_over();
            return;
        }
        let won = self.tricks_won;
        let blanked: Vec7 = (0..n)
            .filter(|&s| self.dealt_in >> s & 1 == 1 && won[usize::from(s)] == 0)
            .collect();
        for (status, &won) in self.status.iter_mut().zip(&won) {
            if *status == Status::Dog && won > 0 {
                *status = Status::Active;
            }
        }
        if !blanked.is_empty() {
            if !self.dog_used {
                for &s in blanked.iter() {
                    self.status[usize::from(s)] = Status::Dog;
                }
                self.dog_used = true;
            } else {
                for &s in blanked.iter() {
                    self.knock_out(s, k);
                }
            }
        }
        if self.alive().count_ones() == 1 {
            self.game_over();
            return;
        }
        let most = won[..self.n()].iter().copied().max().unwrap_or(0);
        let tied = (0..n)
            .filter(|&s| won[usize::from(s)] == most)
            .fold(0u8, |m, s| m | 1 << s);
        // KOW-5.4 / W-5: the next seat clockwise that was dealt cards in this hand.
        self.dealer = first_clockwise(self.dealt_in, self.dealer).unwrap_or(self.dealer);
        self.hand_no = k + 1;
        // The finished hand stays on view until the next one ends (KOW-9).
        self.previous_trump = self.trump;
        std::mem::swap(&mut self.previous, &mut self.plays);
        self.deal(Some(tied));
    }

    fn knock_out(&mut self, seat: u8, hand: u8) {
        self.status[usize::from(seat)] = Status::Out;
        let i = usize::from(self.eliminated_len);
        if i < ELIMINATED_ROOM {
            self.eliminated[i] = (seat, hand);
            self.eliminated_len += 1;
        }
    }

    fn game_over(&mut self) {
        self.phase = Phase::Over;
        self.to_move = NONE;
    }

    // The deal and the cut ------------------------------------------------------------------

    /// Deals hand `hand_no` (KOW-2.3), then turns the trump (hand 1) or settles the chooser
    /// among the `tied` seats (a seat mask).
    fn deal(&mut self, tied: Option<u8>) {
        let n = self.players;
        let size = usize::from(HANDS + 1 - self.hand_no);
        let mut order = [0u8; MAX_PLAYERS];
        let mut m = 0;
        let mut s = self.dealer;
        for _ in 0..n {
            s = next_seat(s, n);
            if self.status[usize::from(s)] != Status::Out {
                order[m] = s;
                m += 1;
            }
        }
        let order = &order[..m];
        let dogs = self.status[..self.n()]
            .iter()
            .filter(|&&st| st == Status::Dog)
            .count();
        let dealt = dogs + (m - dogs) * size;
        // Random cards needed: the hand, then hand 1's turned card; a cut may draw deep
        // into the remainder, so a tie takes a fully shuffled deck.
        let single = tied.is_none_or(|t| t.count_ones() == 1);
        let deck = self.next_deck(if single { dealt + 1 } else { 52 });
        let mut hands = [0; MAX_PLAYERS];
        let mut pos = 0;
        if dogs > 0 {
            // Dogs take a card in the first round only (KOW-2.3).
            for round in 0..size {
                for &s in order {
                    if round == 0 || self.status[usize::from(s)] != Status::Dog {
                        hands[usize::from(s)] |= bit(deck[pos]);
                        pos += 1;
                    }
                }
            }
        } else {
            pos = size * m;
            for (i, &s) in order.iter().enumerate() {
                hands[usize::from(s)] = deck[i..pos].iter().step_by(m).fold(0, |h, &c| h | bit(c));
            }
        }
        self.hands = hands;
        self.holders = (0..n)
            .filter(|&s| hands[usize::from(s)] != 0)
            .fold(0, |mask, s| mask | 1 << s);
        self.dealt_in = self.alive();
        self.stock = deck;
        self.stock_start = pos as u8;
        self.stock_end = 52;
        self.cuts.clear();
        self.tricks_won = [0; MAX_PLAYERS];
        self.plays.clear();
        self.done = 0;
        self.trick_start = 0;
        self.turned = NONE;
        self.trump = NONE;
        self.chooser = NONE;
        match tied {
            None => {
                self.turned = self.pop_stock();
                self.trump = suit(self.turned);
                self.phase = Phase::Play;
                let leader = self.first_leader();
                self.open_trick(leader);
            }
            Some(tied) => {
                self.chooser = if tied.count_ones() == 1 {
                    tied.trailing_zeros() as u8
                } else {
                    self.cut(tied)
                };
                self.phase = Phase::Trump;
                self.open_trick(self.chooser);
            }
        }
    }

    /// The next hand's deck: stacked, else shuffled from the seed; only the first `settle`
    /// cards need to be random.
    fn next_deck(&mut self, settle: usize) -> [Card; 52] {
        let stacked = self
            .stacked
            .as_ref()
            .and_then(|s| s.decks.get(self.stacked_decks_used as usize));
        let deck = match stacked {
            Some(deck) => {
                self.stacked_decks_used += 1;
                playable_deck(deck)
            }
            None => seeded_deck(self.seed, self.decks_drawn, Some(settle)),
        };
        self.decks_drawn += 1;
        deck
    }

    fn pop_stock(&mut self) -> Card {
        debug_assert!(self.stock_start < self.stock_end, "the remainder is empty");
        let card = self.stock[usize::from(self.stock_start)];
        self.stock_start += 1;
        card
    }

    /// KOW-5.3 / W-2: cut from the remainder, clockwise from the dealer's left, ranks only,
    /// re-cutting ties; the set-aside cut cards are shuffled in beneath the remainder if it
    /// would run out.
    fn cut(&mut self, tied: u8) -> u8 {
        let n = self.players;
        let mut cutters = [0u8; MAX_PLAYERS];
        let mut count = 0;
        let mut s = self.dealer;
        for _ in 0..n {
            s = next_seat(s, n);
            if tied >> s & 1 == 1 {
                cutters[count] = s;
                count += 1;
            }
        }
        let mut aside = [0 as Card; 52];
        let mut aside_len = 0;
        loop {
            if usize::from(self.stock_end - self.stock_start) < count {
                self.reshuffle_under_stock(&mut aside[..aside_len]);
                aside_len = 0;
                if usize::from(self.stock_end - self.stock_start) < count {
                    // Unreachable from a whole pack: the remainder and the cut cards
                    // together always outnumber the cutters.
                    return cutters[0];
                }
            }
            let mut best = 0;
            for &seat in &cutters[..count] {
                let card = self.pop_stock();
                self.cuts.push(Play { seat, card });
                aside[aside_len] = card;
                aside_len += 1;
                best = best.max(card % 13);
            }
            self.cuts.close();
            let round = &aside[aside_len - count..aside_len];
            let mut still = 0;
            for i in 0..count {
                if round[i] % 13 == best {
                    cutters[still] = cutters[i];
                    still += 1;
                }
            }
            count = still;
            if count == 1 {
                return cutters[0];
            }
        }
    }

    /// Puts the set-aside cut cards, shuffled (or in their recorded order), beneath the
    /// remainder.
    fn reshuffle_under_stock(&mut self, aside: &mut [Card]) {
        let recorded = self
            .stacked
            .as_ref()
            .and_then(|s| s.reshuffles.get(self.stacked_reshuffles_used as usize));
        if let Some(order) = recorded {
            // The cut cards are distinct, so the same count and the same set mean the same
            // cards, as Python's comparison of the sorted lists.
            let set = |cards: &[Card]| cards.iter().fold(0u64, |m, &c| m | bit(c));
            // Python raises InvalidRecordError here; `apply` cannot refuse, so this is the
            // one place the core panics, naming the record's mistake.
            assert!(
                order.len() == aside.len() && set(order) == set(aside),
                "recorded reshuffle {} is not the set-aside cut cards {}",
                cards_text(order),
                cards_text(aside)
            );
            aside.copy_from_slice(order);
            self.stacked_reshuffles_used += 1;
        } else {
            reshuffle(self.seed, self.reshuffles_drawn, aside);
        }
        self.reshuffles_drawn += 1;
        let start = usize::from(self.stock_start);
        let end = usize::from(self.stock_end);
        self.stock.copy_within(start..end, 0);
        let len = end - start;
        self.stock[len..len + aside.len()].copy_from_slice(aside);
        self.stock_start = 0;
        self.stock_end = (len + aside.len()) as u8;
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|&c| crate::cards::card_text(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Up to seven seats, in order, without the heap.
#[derive(Default)]
struct Vec7 {
    seats: [u8; MAX_PLAYERS],
    len: usize,
}

impl Vec7 {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn iter(&self) -> std::slice::Iter<'_, u8> {
        self.seats[..self.len].iter()
    }
}

impl FromIterator<u8> for Vec7 {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> Self {
        let mut v = Vec7::default();
        for s in iter {
            v.seats[v.len] = s;
            v.len += 1;
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_search_ends_with_the_seat_itself() {
        // CLOCKWISE[n][p]: the other seats clockwise after p, then p itself.
        assert_eq!(first_clockwise(0b1011, 1), Some(3));
        assert_eq!(first_clockwise(0b0011, 1), Some(0));
        assert_eq!(first_clockwise(0b0010, 1), Some(1));
        assert_eq!(first_clockwise(0b1000000, 6), Some(6));
        assert_eq!(first_clockwise(0, 3), None);
    }
}
