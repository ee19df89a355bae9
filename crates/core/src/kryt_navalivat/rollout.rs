//! The guided rollout of search, as `cardtable.bots.kryt_navalivat_rollout` plays it.
//!
//! Uniformly random play hardly ever sheds: it picks up as often as it beats, and a hand
//! lasts hundreds of turns. This policy plays the way the game is won (KRYT-12): beat
//! whenever a card beats the top card, with the weakest such card, and pick up only when
//! nothing beats it (KRYT-4.2, and a rare pick-up by choice); lead and cover with the
//! weakest card; swap the six of trumps at once (KRYT-6); in the free turn of KRYT-4.3,
//! beat when possible, else lead the weakest card. A small share of leads and covers is a
//! random card, so that two players who would otherwise pass the same cards to and fro for
//! ever (K-14) end the hand.
//!
//! It draws at the same points as the Python policy, and picks the same cards: the
//! strength order below is Python's `_weakest_first`, tie-breaks included.

use super::beating::{
    beats, card_of, number_of, rule_set, NO_SUIT, PERMANENT_ANTI, PERMANENT_TRUMP, RULE_SETS,
};
use super::{KrytNavalivat, Mode, BEAT, COVER, LEAD, NONE, SWAP, TAKE};
use crate::cards::{nth_card, Card, CardSet, SUIT_MASKS};
use crate::game::{Game, Returns};
use crate::rollout::{Draw, Guided};

/// A pick-up although a card beats the top card: rare, as the source plays it ("cannot,
/// or does not want to", KRYT-4.2b), and it keeps every line of play possible.
const TAKE_ANYWAY: f64 = 0.02;
/// A lead or cover of a random card instead of the weakest: breaks endless exchanges.
const RANDOM_CARD: f64 = 0.08;

/// Per card index, its place in a rule set's strength order, weakest first (0 … 35; cards
/// outside the 36-card pack are never asked about).
type Places = [u8; 52];

/// The strength orders of the rule sets, in `rule_set`'s order: built once, at compile
/// time, since they depend on the trump and anti-trump suits alone.
static PLACES: [Places; RULE_SETS] = [
    places(0, NO_SUIT),
    places(1, NO_SUIT),
    places(2, NO_SUIT),
    places(3, NO_SUIT),
    places(PERMANENT_TRUMP, PERMANENT_ANTI),
];

/// A card's strength: the pack cards it beats less the pack cards that beat it (KRYT-3,
/// KRYT-8.2), so plain low cards are weakest and the ace of trumps strongest.
const fn strength(card: Card, trump: u8, anti: u8) -> i32 {
    let mut strength = 0;
    let mut n = 0;
    while n < 36 {
        let other = card_of(n);
        if beats(card, other, trump, anti) {
            strength += 1;
        }
        if beats(other, card, trump, anti) {
            strength -= 1;
        }
        n += 1;
    }
    strength
}

/// Python's `sorted(PACK_36, key=(strength, rank))` as places: a card's place is the number
/// of cards before it, those with a smaller key, and those with an equal key earlier in the
/// pack (Python's sort is stable).
const fn places(trump: u8, anti: u8) -> Places {
    let mut keys = [0i32; 36];
    let mut n = 0;
    while n < 36 {
        let card = card_of(n);
        // The rank (4 … 12) is below 16: one number sorts by strength, then by rank.
        keys[n] = strength(card, trump, anti) * 16 + (card % 13) as i32;
        n += 1;
    }
    let mut places = [u8::MAX; 52];
    let mut n = 0;
    while n < 36 {
        let mut before = 0;
        let mut m = 0;
        while m < 36 {
            if keys[m] < keys[n] || (keys[m] == keys[n] && m < n) {
                before += 1;
            }
            m += 1;
        }
        places[card_of(n) as usize] = before;
        n += 1;
    }
    places
}

/// The weakest card of a non-empty set, in the strength order `places`.
///
/// Within a suit a higher card beats every card a lower one beats, and the lower one too,
/// and fewer cards beat it: each suit's lowest card is its weakest, so the weakest of the
/// set is the weakest of at most four.
#[inline]
fn weakest(cards: CardSet, places: &Places) -> Card {
    debug_assert!(cards != 0, "no card in an empty set");
    let mut weakest = NONE;
    let mut place = u8::MAX;
    for suit in SUIT_MASKS {
        let in_suit = cards & suit;
        if in_suit != 0 {
            let lowest = in_suit.trailing_zeros() as Card;
            if places[lowest as usize] < place {
                (weakest, place) = (lowest, places[lowest as usize]);
            }
        }
    }
    weakest
}

/// A card of a non-empty set chosen uniformly with one draw, in pack order (Python's
/// `_any`; a card's index order is its pack order).
#[inline]
fn any<D: Draw>(cards: CardSet, draw: &mut D) -> Card {
    let k = draw.index(cards.count_ones() as usize);
    nth_card(cards, k as u32)
}

impl KrytNavalivat {
    /// The strength order of the hand's rule set.
    #[inline]
    fn places(&self) -> &'static Places {
        &PLACES[rule_set(self.trump, self.anti)]
    }

    /// A lead or a cover: mostly the weakest card of `hand`, now and then a random one
    /// (one draw to choose which, and one more for the random card).
    #[inline]
    fn put_card<D: Draw>(&self, hand: CardSet, draw: &mut D) -> usize {
        let card = if draw.draw() < RANDOM_CARD {
            any(hand, draw)
        } else {
            weakest(hand, self.places())
        };
        number_of(card)
    }

    /// The cards of `hand` that beat the top card (KRYT-3).
    #[inline]
    fn beating_cards(&self, hand: CardSet) -> CardSet {
        hand & self.beaters()[self.top() as usize]
    }
}

impl Guided for KrytNavalivat {
    fn guided_action<D: Draw>(&self, draw: &mut D) -> usize {
        debug_assert!(self.to_move != NONE, "no action once the hand is over");
        let p = self.to_move as usize;
        let hand = self.hands[p];
        match self.mode {
            // KRYT-4.2a: the cover of one's own beat.
            Mode::Cover => COVER + self.put_card(hand, draw),
            Mode::Lead => {
                // KRYT-6: the six of trumps is swapped at once.
                if self.can_swap(p) {
                    SWAP
                } else {
                    LEAD + self.put_card(hand, draw)
                }
            }
            // KRYT-4.3: the stock is empty, so a beat sheds two cards and a lead one.
            Mode::Free => match self.beating_cards(hand) {
                0 => LEAD + number_of(weakest(hand, self.places())),
                beats => BEAT + number_of(weakest(beats, self.places())),
            },
            Mode::Respond => {
                if self.can_swap(p) {
                    return SWAP;
                }
                // KRYT-4.2: beat when a card can, with the weakest; a pick-up otherwise,
                // or by choice now and then (the draw is made only when a card beats).
                let beats = self.beating_cards(hand);
                if beats != 0 && draw.draw() >= TAKE_ANYWAY {
                    BEAT + number_of(weakest(beats, self.places()))
                } else {
                    TAKE
                }
            }
            Mode::Over => unreachable!("no action once the hand is over"),
        }
    }

    /// A game is one hand: the policy plays it to its end, and the returns are exact.
    fn guided_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        while self.to_move != NONE {
            let action = self.guided_action(draw);
            self.play(action);
        }
        self.returns().expect("the hand is played to its end")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{bit, parse_card};
    use crate::kryt_navalivat::beating::{beaters_for, PACK_36, PACK_36_SET};

    fn c(text: &str) -> Card {
        parse_card(text).unwrap()
    }

    /// Every rule set's (trump, anti).
    fn rule_sets() -> [(u8, u8); RULE_SETS] {
        [
            (0, NO_SUIT),
            (1, NO_SUIT),
            (2, NO_SUIT),
            (3, NO_SUIT),
            (PERMANENT_TRUMP, PERMANENT_ANTI),
        ]
    }

    /// Python's `_weakest_first` as it is written: counts read from the beat table, and a
    /// stable sort of the pack by (strength, rank).
    fn python_order(trump: u8, anti: u8) -> Vec<Card> {
        let beaters = beaters_for(trump, anti);
        let beaten = |c: Card| {
            PACK_36
                .iter()
                .filter(|&&t| beaters[t as usize] >> c & 1 == 1)
                .count() as i32
        };
        let mut ranked = PACK_36.to_vec();
        ranked.sort_by_key(|&c| (beaten(c) - beaters[c as usize].count_ones() as i32, c % 13));
        ranked
    }

    #[test]
    fn the_strength_orders_are_python_s_weakest_first() {
        for (trump, anti) in rule_sets() {
            let places = &PLACES[rule_set(trump, anti)];
            for (place, &card) in python_order(trump, anti).iter().enumerate() {
                assert_eq!(places[card as usize] as usize, place, "trump {trump}");
            }
        }
    }

    #[test]
    fn kryt_navalivat_3_plain_sixes_are_weakest_and_the_ace_of_trumps_strongest() {
        // Clubs turned: the sixes of diamonds, hearts and spades are beaten by the most
        // cards and beat the fewest; the ace of clubs beats every plain card.
        let places = &PLACES[rule_set(0, NO_SUIT)];
        let mut sixes: Vec<u8> = ["6D", "6H", "6S"]
            .iter()
            .map(|t| places[c(t) as usize])
            .collect();
        sixes.sort();
        assert_eq!(sixes, [0, 1, 2]);
        assert_eq!(places[c("AC") as usize], 35);
        // Permanent (KRYT-8.2): the ace of diamonds is strongest; the ace of spades, which
        // nothing beats but which beats spades only, is not.
        let places = &PLACES[rule_set(PERMANENT_TRUMP, PERMANENT_ANTI)];
        assert_eq!(places[c("AD") as usize], 35);
        assert!(places[c("AS") as usize] < places[c("6D") as usize]);
    }

    #[test]
    fn the_weakest_card_is_the_first_of_the_set_in_strength_order() {
        // Every set of every suit's lowest cards and many random sets, against a look at
        // every card of the set.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for (trump, anti) in rule_sets() {
            let places = &PLACES[rule_set(trump, anti)];
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let set = x & PACK_36_SET;
                if set == 0 {
                    continue;
                }
                let expected = crate::cards::cards(set)
                    .min_by_key(|&card| places[card as usize])
                    .unwrap();
                assert_eq!(weakest(set, places), expected);
            }
            for &card in &PACK_36 {
                assert_eq!(weakest(bit(card), places), card);
            }
        }
    }
}
