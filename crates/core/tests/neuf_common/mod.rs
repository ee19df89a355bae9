//! Helpers for the Neuf tests: options, cards and actions as text, stacked deals, and
//! positions written by hand (the same builder as `tests/rules/test_neuf_rules.py`'s
//! `constructed`).

#![allow(dead_code)]

use cardtable_core::cards::{card_text, cards, parse_card, suit, Card, CardSet};
use cardtable_core::game::{actions_of, Game, OptionValue, Stacked};
use cardtable_core::neuf::{Neuf, Options, EXCHANGE, KEEP};
use cardtable_core::notation::push_cards;

pub const A: usize = 0;
pub const B: usize = 1;
pub const C: usize = 2;

pub const SUITS: &str = "CDHS";
pub const RANKS: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// The pack in index order as text: 2C … AC, 2D … AS.
pub fn pack() -> Vec<String> {
    SUITS
        .chars()
        .flat_map(|s| RANKS.iter().map(move |r| format!("{r}{s}")))
        .collect()
}

pub fn int(v: i64) -> OptionValue {
    OptionValue::Int(v)
}

pub fn text(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

pub fn flag(v: bool) -> OptionValue {
    OptionValue::Bool(v)
}

/// The `piles=` field of a position: each pile's cards, piles separated by `/`.
pub fn piles_field(piles: &[Vec<Card>]) -> String {
    let mut out = String::new();
    for (i, pile) in piles.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_cards(&mut out, pile.iter().copied());
    }
    out
}

/// Options as `cardtable.make("neuf", **pairs)` reads them.
pub fn options(pairs: &[(&str, OptionValue)]) -> Options {
    Neuf::options(&cardtable_core::options::pairs(pairs)).expect("valid options")
}

pub fn card(text: &str) -> Card {
    parse_card(text).expect("a card")
}

/// A card set from space-separated cards.
pub fn set(text: &str) -> CardSet {
    text.split_whitespace().fold(0, |m, c| m | 1 << card(c))
}

/// The cards of a set as text, in index order.
pub fn texts(set: CardSet) -> Vec<String> {
    cards(set).map(card_text).collect()
}

/// A deck from space-separated cards, top first.
pub fn deck(text: &str) -> Vec<Card> {
    text.split_whitespace().map(card).collect()
}

/// The first deal of `deck` (seed 5, as the Python example tests use), dealt by `dealer`.
pub fn stacked_deal(options: &Options, dealer: usize, deck: Vec<Card>) -> Neuf {
    let stacked = Stacked {
        decks: vec![deck],
        reshuffles: vec![],
    };
    Neuf::begin(options, 5, dealer, stacked).expect("a stacked deal")
}

pub fn from_position(options: &Options, text: &str) -> Neuf {
    Neuf::from_position(options, text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// An action's number from its text (`docs/neuf.md`).
pub fn action(text: &str) -> usize {
    match text {
        "exchange" => EXCHANGE,
        "keep" => KEEP,
        _ => card(text.strip_prefix("play ").expect("play <card>")) as usize,
    }
}

/// An action's text from its number.
pub fn action_text(number: usize) -> String {
    match number {
        EXCHANGE => "exchange".into(),
        KEEP => "keep".into(),
        _ => format!("play {}", card_text(number as Card)),
    }
}

/// The legal actions as text, in number order.
pub fn legal(state: &Neuf) -> Vec<String> {
    actions_of(state.legal_mask())
        .into_iter()
        .map(action_text)
        .collect()
}

pub fn is_legal(state: &Neuf, text: &str) -> bool {
    state.legal_mask() >> action(text) & 1 == 1
}

/// Applies `text` for `seat`, checking first that it is that seat's turn and that the
/// action is legal (the checked path of the Python engine's `apply`).
pub fn act(state: &mut Neuf, seat: usize, text: &str) {
    assert_eq!(state.to_move(), Some(seat), "{text}: whose turn");
    assert!(
        is_legal(state, text),
        "{text} is not legal: {:?}",
        legal(state)
    );
    state.apply(action(text));
}

/// Moves written `seat card`, each checked.
pub fn play(state: &mut Neuf, moves: &[&str]) {
    for m in moves {
        let (seat, c) = m.split_once(' ').expect("seat card");
        act(state, seat.parse().expect("a seat"), &format!("play {c}"));
    }
}

/// A field of a position text.
pub fn field<'a>(position: &'a str, key: &str) -> Option<&'a str> {
    position
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
}

/// NEUF-4.3 written independently of the core: the highest trump, else the highest card
/// of the suit led. Plays are `(seat, card)`; `trump` is a suit letter or `NT`.
pub fn winner_of(plays: &[(usize, Card)], trump: &str) -> usize {
    let trump = SUITS.find(trump).map(|s| s as u8);
    let led = suit(plays[0].1);
    let trumps: Vec<_> = plays.iter().filter(|p| Some(suit(p.1)) == trump).collect();
    let pool: Vec<_> = if trumps.is_empty() {
        plays.iter().filter(|p| suit(p.1) == led).collect()
    } else {
        trumps
    };
    pool.iter().max_by_key(|p| p.1).expect("a card").0
}

/// A `neuf/1` position late in a deal, written by hand (docs/neuf.md), as
/// `tests/rules/test_neuf_rules.py`'s `constructed` writes it.
///
/// `ledger` gives the completed deals' trick counts, so the scores, deal number, dealer and
/// trump follow from it; everyone kept (3 players). `hands` are the cards each seat holds
/// now. The finished tricks are filled in from the other cards, one suit per trick (so
/// every card follows suit), taking suits C, D, H, S in turn; trick `k` is won by
/// `winners[k]` (it gets the highest card) and each trick is led by the previous winner,
/// the first by the dealer's left (NEUF-4.1, 4.4). With 3 players, the cards left over
/// are the spare.
pub struct Constructed<'a> {
    pub players: usize,
    pub ledger: &'a [&'a [u8]],
    pub hands: &'a [&'a [&'a str]],
    pub winners: &'a [usize],
    pub trick: &'a [(usize, &'a str)],
    pub first: usize,
    pub sequence: &'a str,
}

impl Constructed<'_> {
    pub fn position(&self) -> String {
        let n = self.players;
        let deal = self.ledger.len() + 1;
        let dealer = (self.first + deal - 1) % n;
        let mut held: CardSet = 0;
        for h in self.hands {
            for c in *h {
                held |= 1 << card(c);
            }
        }
        for (_, c) in self.trick {
            held |= 1 << card(c);
        }
        let mut filler: Vec<Vec<Card>> = (0..4u8)
            .map(|s| {
                (s * 13..s * 13 + 13)
                    .filter(|&c| held >> c & 1 == 0)
                    .collect()
            })
            .collect();
        let mut played: Vec<Vec<Card>> = vec![Vec::new(); n];
        let mut tricks = Vec::new();
        let mut leader = (dealer + 1) % n;
        for &winner in self.winners {
            let s = (0..4).find(|&s| filler[s].len() >= n).expect("cards left");
            let taken: Vec<Card> = filler[s].drain(..n).collect();
            let order: Vec<usize> = (0..n).map(|k| (leader + k) % n).collect();
            // The winner gets the highest card; the others the rest, in playing order.
            let mut trick = Vec::new();
            let mut lower = taken[..n - 1].iter();
            for &seat in &order {
                let c = if seat == winner {
                    taken[n - 1]
                } else {
                    *lower.next().expect("a lower card")
                };
                trick.push(format!("{seat}:{}", card_text(c)));
                played[seat].push(c);
            }
            tricks.push(trick.join(","));
            leader = winner;
        }
        for (seat, c) in self.trick {
            played[*seat].push(card(c));
        }
        let mut piles: Vec<Vec<Card>> = (0..n)
            .map(|s| {
                let mut p: Vec<Card> = self.hands[s].iter().map(|c| card(c)).collect();
                p.extend(&played[s]);
                p.sort_unstable();
                p
            })
            .collect();
        let exchanges = if n == 3 {
            piles.push(filler.concat());
            [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
                .iter()
                .map(|s| format!("{s}:k"))
                .collect::<Vec<_>>()
                .join(",")
        } else {
            "-".into()
        };
        assert!(piles.iter().all(|p| p.len() == 13), "piles of 13");
        let ledger = if self.ledger.is_empty() {
            "-".to_string()
        } else {
            let rows: Vec<String> = self
                .ledger
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .collect();
            rows.join("/")
        };
        let piles = piles_field(&piles);
        let done = if tricks.is_empty() {
            "-".to_string()
        } else {
            tricks.join("/")
        };
        let trick = if self.trick.is_empty() {
            "-".to_string()
        } else {
            self.trick
                .iter()
                .map(|(s, c)| format!("{s}:{c}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "neuf/1 players={n} sequence={} first={} ledger={ledger} phase=play \
             exchanges={exchanges} piles={piles} done={done} trick={trick} seed=1 chance={deal}",
            self.sequence, self.first,
        )
    }
}

/// Scores 3 / 1 / 1 after 22 deals (total 27 - 22 = 5, NEUF-5.4), nobody at or below 0
/// on the way. Deal 23 of HDCS-NT is C, dealt by seat 1, so seat 2 leads trick 1.
pub fn ledger_3_1_1() -> Vec<&'static [u8]> {
    let mut rows: Vec<&'static [u8]> = vec![&[5, 4, 4]; 6];
    rows.extend(vec![&[4u8, 5, 4][..]; 8]);
    rows.extend(vec![&[4u8, 4, 5][..]; 8]);
    rows
}

/// Every rule set: each trump sequence, with the 3-player flags, and with 4 players.
pub fn rule_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for sequence in ["HDCS-NT", "SHDC-NT", "HDSC-NT", "HCDS-NT", "HDCS"] {
        for dealer_first in [false, true] {
            for tie in [false, true] {
                out.push(options(&[
                    ("trump_sequence", text(sequence)),
                    ("dealer_exchanges_first", flag(dealer_first)),
                    ("tie_avoidance", flag(tie)),
                ]));
            }
        }
        out.push(options(&[
            ("players", int(4)),
            ("trump_sequence", text(sequence)),
        ]));
    }
    out
}
