//! The state machine of SPEC §2: the deal (KRYT-2), the legal actions of each turn mode
//! (KRYT-4, KRYT-10), and the end of a turn: drawing, going out, the end of the hand and
//! the next turn (KRYT-4.4, KRYT-4.5, KRYT-7), as `KrytNavalivatState` does them.

use super::beating::{
    beaters_for, card_of, number_of, numbers, take_count, Beaters, NO_SUIT, PACK_36, PACK_36_SET,
    PERMANENT_ANTI, PERMANENT_TRUMP, SIX,
};
use super::{
    KrytNavalivat, Mode, Options, TrumpMode, BEAT, COVER, HAND_SIZE, LEAD, MAX_SEATS, NONE, SWAP,
    TAKE,
};
use crate::cards::{bit, card_text, nth_card, parse_card, Card, CardSet};
use crate::chance::{shuffled, Seed};
use crate::game::{check_deck, ActionError, ActionMask, OptionError, PlayoutRng, Stacked};
use rand::Rng;

const TAKE_BIT: ActionMask = 1 << TAKE;
const SWAP_BIT: ActionMask = 1 << SWAP;

impl KrytNavalivat {
    /// KRYT-2: three cards each, one at a time clockwise from the dealer's left (K-15); the
    /// next card turned for trumps (K-3), or none in the permanent mode (KRYT-8.1); the rest
    /// is the stock. The deck is the stacked one, else `shuffled(seed, "deck 0", pack)`.
    pub(super) fn deal(
        options: &Options,
        seed: Seed,
        dealer: usize,
        stacked: Stacked,
    ) -> Result<Self, OptionError> {
        if stacked.decks.len() > 1 || !stacked.reshuffles.is_empty() {
            return Err(OptionError(
                "a kryt-navalivat game is one hand and deals one deck; play hands in a row \
                 with a Session"
                    .into(),
            ));
        }
        let n = options.players;
        if dealer >= n {
            return Err(OptionError(format!(
                "dealer must be a seat 0-{}, not {dealer}",
                n - 1
            )));
        }
        let deck = match stacked.decks.into_iter().next() {
            Some(deck) => {
                check_deck(&deck, 0, PACK_36_SET)?;
                deck
            }
            None => shuffled(seed, "deck 0", &PACK_36, None),
        };
        let mut state = KrytNavalivat {
            hands: [0; MAX_SEATS],
            known: [0; MAX_SEATS],
            seed,
            table: [0; 36],
            pile_len: 0,
            stock_len: 0,
            faceup: NONE,
            players: n as u8,
            dealer: dealer as u8,
            trump: PERMANENT_TRUMP,
            anti: PERMANENT_ANTI,
            mode: Mode::Lead,
            to_move: ((dealer + 1) % n) as u8,
            loser: NONE,
        };
        let dealt = HAND_SIZE as usize * n;
        for (i, &card) in deck[..dealt].iter().enumerate() {
            state.hands[(dealer + 1 + i) % n] |= bit(card);
        }
        let mut rest = &deck[dealt..];
        if options.trump_mode == TrumpMode::Turned {
            state.faceup = rest[0];
            state.trump = rest[0] / 13;
            state.anti = NO_SUIT;
            rest = &rest[1..];
        }
        state.stock_len = rest.len() as u8;
        state.table[36 - rest.len()..].copy_from_slice(rest);
        Ok(state)
    }

    #[inline]
    pub(super) fn beaters(&self) -> &'static Beaters {
        beaters_for(self.trump, self.anti)
    }

    /// The top card of the pile (which is not empty).
    #[inline]
    pub(super) fn top(&self) -> Card {
        self.table[self.pile_len as usize - 1]
    }

    #[inline]
    fn stock_left(&self) -> bool {
        self.stock_len > 0 || self.faceup != NONE
    }

    /// KRYT-6.2 and K-9: `seat` holds the six of trumps, the turned card is still under the
    /// stock and is not the six itself (never in the permanent mode: nothing is turned).
    pub fn can_swap(&self, seat: usize) -> bool {
        let six = 13 * self.trump + SIX;
        self.faceup != NONE && self.faceup != six && self.hands[seat] & bit(six) != 0
    }

    /// The cards a pick-up would take now, bottom first (KRYT-5): none when nobody may pick
    /// up (on an empty pile, and between a beat and its cover).
    pub fn would_take(&self) -> &[Card] {
        if self.pile_len == 0 || !matches!(self.mode, Mode::Respond | Mode::Free) {
            return &[];
        }
        let pile = self.pile();
        &pile[pile.len() - take_count(pile.len(), self.top(), self.trump)..]
    }

    /// The legal actions as a mask: each row is the hand's card numbers shifted into place.
    #[inline]
    pub(super) fn legal(&self) -> ActionMask {
        if self.to_move == NONE {
            return 0;
        }
        let p = self.to_move as usize;
        let hand = self.hands[p];
        let row = |set: CardSet, base: usize| ActionMask::from(numbers(set)) << base;
        match self.mode {
            Mode::Respond => {
                let beats = row(hand & self.beaters()[self.top() as usize], BEAT);
                beats | TAKE_BIT | self.swap_bit(p)
            }
            Mode::Cover => row(hand, COVER),
            Mode::Lead => row(hand, LEAD) | self.swap_bit(p),
            // KRYT-4.3, K-6: any card as a lead, a beat, or a pick-up.
            Mode::Free => {
                row(hand, LEAD) | row(hand & self.beaters()[self.top() as usize], BEAT) | TAKE_BIT
            }
            Mode::Over => 0,
        }
    }

    /// One uniformly random legal action, drawn from the card sets without building the
    /// mask: within a row, the k-th card by index is the k-th action by number.
    #[inline]
    pub(super) fn random_legal(&self, rng: &mut PlayoutRng) -> usize {
        let p = self.to_move as usize;
        let hand = self.hands[p];
        let pick = |set: CardSet, k: u32, base: usize| base + number_of(nth_card(set, k));
        match self.mode {
            Mode::Respond => {
                let beats = hand & self.beaters()[self.top() as usize];
                let n = beats.count_ones();
                let swap = u32::from(self.can_swap(p));
                match rng.random_range(0..n + 1 + swap) {
                    k if k < n => pick(beats, k, BEAT),
                    k if k == n => TAKE,
                    _ => SWAP,
                }
            }
            Mode::Cover => pick(hand, rng.random_range(0..hand.count_ones()), COVER),
            Mode::Lead => {
                let n = hand.count_ones();
                match rng.random_range(0..n + u32::from(self.can_swap(p))) {
                    k if k < n => pick(hand, k, LEAD),
                    _ => SWAP,
                }
            }
            Mode::Free => {
                let beats = hand & self.beaters()[self.top() as usize];
                let (n, m) = (hand.count_ones(), beats.count_ones());
                match rng.random_range(0..n + m + 1) {
                    k if k < n => pick(hand, k, LEAD),
                    k if k < n + m => pick(beats, k - n, BEAT),
                    _ => TAKE,
                }
            }
            Mode::Over => unreachable!("no action once the hand is over"),
        }
    }

    #[inline]
    fn swap_bit(&self, seat: usize) -> ActionMask {
        if self.can_swap(seat) {
            SWAP_BIT
        } else {
            0
        }
    }

    /// Applies a legal action, unchecked (`apply_id`).
    #[inline]
    pub(super) fn play(&mut self, number: usize) {
        debug_assert!(self.legal() >> number & 1 == 1, "illegal action {number}");
        let p = self.to_move as usize;
        if number < TAKE {
            self.put(p, number);
        } else if number == TAKE {
            self.take(p);
        } else {
            self.swap(p);
        }
    }

    /// A lead, a beat or a cover: the card goes onto the pile.
    fn put(&mut self, p: usize, number: usize) {
        let card = card_of(number % 36);
        let b = bit(card);
        self.hands[p] ^= b;
        self.known[p] &= !b;
        self.table[self.pile_len as usize] = card;
        self.pile_len += 1;
        if !(BEAT..COVER).contains(&number) {
            self.end_turn(p, number < BEAT, false);
        } else if self.hands[p] != 0 {
            self.mode = Mode::Cover; // K-1: the cover comes before any draw
        } else {
            self.end_turn(p, false, true);
        }
    }

    /// KRYT-5: the top cards go into the hand, in everybody's sight.
    fn take(&mut self, p: usize) {
        let len = self.pile_len as usize;
        let k = take_count(len, self.top(), self.trump);
        let taken = self.table[len - k..len]
            .iter()
            .fold(0, |set, &card| set | bit(card));
        self.pile_len = (len - k) as u8;
        self.hands[p] |= taken;
        self.known[p] |= taken;
        self.end_turn(p, false, false);
    }

    /// KRYT-6.1: the turned card comes into the hand, in public; the turn goes on.
    fn swap(&mut self, p: usize) {
        let six = 13 * self.trump + SIX;
        self.hands[p] ^= bit(six) | bit(self.faceup);
        self.known[p] = (self.known[p] & !bit(six)) | bit(self.faceup);
        self.faceup = six;
    }

    /// KRYT-10's end of turn: draw, go out, the end of the hand, the next turn. `led` says
    /// the turn put a card for the next player to beat (a lead, free or not); a cover does
    /// too, told apart from a pick-up by the mode still being `Cover`.
    fn end_turn(&mut self, p: usize, led: bool, beat_last: bool) {
        self.draw(p);
        if self.hands[p] == 0 && !self.stock_left() {
            if let Some(last) = self.only_other_holder(p) {
                self.finish(last, !beat_last);
                return;
            }
        }
        self.to_move = self.next_holder(p) as u8;
        self.mode = if beat_last {
            Mode::Free // KRYT-4.3: at least two others still hold cards
        } else if led || self.mode == Mode::Cover || self.pile_len > 0 {
            Mode::Respond
        } else {
            Mode::Lead // a pick-up that emptied the pile
        };
    }

    /// KRYT-4.4: up to three cards from the top of the stock, the turned card last and in
    /// everybody's sight (KRYT-2.5).
    fn draw(&mut self, p: usize) {
        let mut hand = self.hands[p];
        if !self.stock_left() || holds_three(hand) {
            return;
        }
        let short = HAND_SIZE - hand.count_ones();
        for _ in 0..short {
            if self.stock_len > 0 {
                hand |= bit(self.table[36 - self.stock_len as usize]);
                self.stock_len -= 1;
            } else if self.faceup != NONE {
                hand |= bit(self.faceup);
                self.known[p] |= bit(self.faceup);
                self.faceup = NONE;
                break;
            } else {
                break;
            }
        }
        self.hands[p] = hand;
    }

    /// The one other seat still holding cards, if exactly one does.
    fn only_other_holder(&self, p: usize) -> Option<usize> {
        let n = self.players as usize;
        let mut found = None;
        for s in (1..n).map(|i| (p + i) % n) {
            if self.hands[s] != 0 {
                if found.is_some() {
                    return None;
                }
                found = Some(s);
            }
        }
        found
    }

    /// The next seat clockwise after `p` that holds cards, `p` itself last.
    fn next_holder(&self, p: usize) -> usize {
        let n = self.players as usize;
        (1..=n)
            .map(|i| (p + i) % n)
            .find(|&s| self.hands[s] != 0)
            .unwrap_or(p)
    }

    /// KRYT-7.2, KRYT-7.3 (K-7): `last` is the only player left holding cards. A draw when
    /// the player who went out put a card for `last` to beat, and `last` holds one card
    /// only, which beats it; otherwise `last` is the fool.
    fn finish(&mut self, last: usize, put_to_beat: bool) {
        let hand = self.hands[last];
        let drawn = put_to_beat
            && hand.count_ones() == 1
            && self.beaters()[self.top() as usize] & hand != 0;
        self.loser = if drawn { NONE } else { last as u8 };
        self.mode = Mode::Over;
        self.to_move = NONE;
    }
}

/// Whether a hand holds three cards or more: with its two lowest cards taken out, some
/// card is left (cheaper than a count where `popcnt` is not in the target's instructions).
#[inline]
const fn holds_three(hand: CardSet) -> bool {
    let one_fewer = hand & hand.wrapping_sub(1);
    let two_fewer = one_fewer & one_fewer.wrapping_sub(1);
    two_fewer != 0
}

const VERBS: [&str; 3] = ["lead", "beat", "cover"];

/// An action's text: `lead 7D`, `beat 10S`, `cover QH`, `take`, `swap`.
pub fn action_text(number: usize) -> String {
    match number {
        TAKE => "take".into(),
        SWAP => "swap".into(),
        _ => format!("{} {}", VERBS[number / 36], card_text(card_of(number % 36))),
    }
}

/// An action's number from its text, as `KrytNavalivat.parse_action` reads it.
pub fn parse_action(text: &str) -> Result<usize, ActionError> {
    let words = crate::notation::action_words(text);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["take"] => Ok(TAKE),
        ["swap"] => Ok(SWAP),
        [verb, card] if VERBS.contains(verb) => {
            let card = parse_card(card)?;
            if PACK_36_SET & bit(card) == 0 {
                return Err(ActionError::Action(format!(
                    "{} is not in kryt-navalivat's 36-card pack (6 to ace)",
                    card_text(card)
                )));
            }
            let base = VERBS.iter().position(|v| v == verb).unwrap_or(0) * 36;
            Ok(base + number_of(card))
        }
        _ => Err(ActionError::Action(format!(
            "invalid kryt-navalivat action {text:?}: expected 'lead <card>', 'beat <card>', \
             'cover <card>', 'take' or 'swap'"
        ))),
    }
}
