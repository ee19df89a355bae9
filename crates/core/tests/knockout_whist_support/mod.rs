//! Readable pieces for the Knockout Whist tests: actions as text, stacked decks as card
//! text, positions composed from the parts a test cares about (as the Python tests'
//! `compose_position`), and the fields of a position read back.

#![allow(dead_code)]

use cardtable_core::cards::{card_text, parse_card, parse_suit, Card};
use cardtable_core::game::{actions_of, Game, OptionValue, Stacked};
use cardtable_core::knockout_whist::{Options, KNOCK, TRUMP_BASE};
use cardtable_core::KnockoutWhist;

pub fn options(players: usize, dealer: Option<usize>) -> Options {
    let mut pairs = vec![("players".to_string(), OptionValue::Int(players as i64))];
    if let Some(d) = dealer {
        pairs.push(("dealer".to_string(), OptionValue::Int(d as i64)));
    }
    KnockoutWhist::options(&pairs).expect("valid options")
}

/// Cards from text: spaces or commas between cards, `|` only groups them for the eye.
pub fn cards(text: &str) -> Vec<Card> {
    text.replace(['|', ','], " ")
        .split_whitespace()
        .map(|c| parse_card(c).expect("a card"))
        .collect()
}

/// A 52-card stacked deck: `top` first, then every other card in index order.
pub fn complete_deck(top: &str) -> Vec<Card> {
    let head = cards(top);
    let rest = (0..52).filter(|c| !head.contains(c));
    head.iter().copied().chain(rest).collect()
}

/// A game begun from stacked decks (`make(…).new_state(seed, decks)`).
pub fn stacked_game(
    players: usize,
    dealer: usize,
    seed: i128,
    decks: &[Vec<Card>],
) -> KnockoutWhist {
    let stacked = Stacked {
        decks: decks.to_vec(),
        reshuffles: vec![],
    };
    KnockoutWhist::begin(&options(players, Some(dealer)), seed, dealer, stacked).expect("a deal")
}

pub fn from_position(players: usize, text: &str) -> KnockoutWhist {
    KnockoutWhist::from_position(&options(players, None), text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// An action's number from its text: `play 7D` (or `lead 7D`), `trump H`, `knock`.
pub fn action(text: &str) -> usize {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["knock"] => KNOCK,
        ["play" | "lead", card] => usize::from(parse_card(card).expect("a card")),
        ["trump", suit] => TRUMP_BASE + usize::from(parse_suit(suit).expect("a suit")),
        _ => panic!("not a knockout-whist action: {text}"),
    }
}

pub fn action_text(number: usize) -> String {
    match number {
        KNOCK => "knock".into(),
        n if n >= TRUMP_BASE => format!("trump {}", ["C", "D", "H", "S"][n - TRUMP_BASE]),
        n => format!("play {}", card_text(n as Card)),
    }
}

/// The legal actions as text, in action-number order.
pub fn legal(state: &KnockoutWhist) -> Vec<String> {
    actions_of(state.legal_mask())
        .into_iter()
        .map(action_text)
        .collect()
}

/// Applies `text` for `seat`, which must be the seat to move and the action legal.
pub fn act(state: &mut KnockoutWhist, seat: usize, text: &str) {
    assert_eq!(
        state.to_move(),
        Some(seat),
        "{text}: seat {seat} is not to move"
    );
    let number = action(text);
    assert!(
        state.legal_mask() >> number & 1 == 1,
        "{text} is not legal for seat {seat}; legal: {:?}",
        legal(state)
    );
    state.apply(number);
}

/// Moves written `seat card`, `seat knock` or `seat trump X`.
pub fn play(state: &mut KnockoutWhist, moves: &[&str]) {
    for m in moves {
        let (seat, rest) = m.split_once(' ').expect("seat action");
        let text = if rest == "knock" || rest.starts_with("trump") {
            rest.to_string()
        } else {
            format!("play {rest}")
        };
        act(state, seat.parse().expect("seat"), &text);
    }
}

/// One field of the position text.
pub fn field(state: &KnockoutWhist, key: &str) -> String {
    let text = state.position();
    text.split(' ')
        .skip(1)
        .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no field {key} in {text}"))
        .to_string()
}

/// A seat's cards as canonical text, in index order.
pub fn hand_of(state: &KnockoutWhist, seat: usize) -> Vec<String> {
    let hands = field(state, "hands");
    let hand = hands.split('/').nth(seat).expect("seat").to_string();
    if hand == "-" {
        vec![]
    } else {
        hand.split(',').map(String::from).collect()
    }
}

pub fn hand_sizes(state: &KnockoutWhist) -> Vec<usize> {
    (0..state.players())
        .map(|s| hand_of(state, s).len())
        .collect()
}

pub fn won(state: &KnockoutWhist) -> Vec<u32> {
    field(state, "won")
        .split(',')
        .map(|w| w.parse().expect("count"))
        .collect()
}

/// Cards in index order as text: the order of hands in a position and of legal actions.
pub fn by_index(text: &str) -> Vec<String> {
    let mut c = cards(text);
    c.sort_unstable();
    c.into_iter().map(card_text).collect()
}

/// Position text from readable pieces (`compose_position`): the undealt remainder is
/// every other card of the pack in index order; `chance` counts `hand` decks drawn.
pub struct Compose {
    pub hands: Vec<String>,
    pub hand: u8,
    pub dealer: usize,
    pub status: Option<&'static str>,
    pub phase: &'static str,
    pub trump: Option<&'static str>,
    pub turned: Option<&'static str>,
    pub dog_used: bool,
    pub out: &'static str,
    pub won: Option<Vec<u32>>,
    pub cuts: String,
    pub chooser: Option<usize>,
    pub done: String,
    pub trick: String,
    pub seed: i64,
    pub stacked: Vec<Vec<Card>>,
}

impl Compose {
    pub fn new(hands: &[&str], hand: u8, dealer: usize) -> Self {
        Compose {
            hands: hands.iter().map(|h| h.to_string()).collect(),
            hand,
            dealer,
            status: None,
            phase: "play",
            trump: None,
            turned: None,
            dog_used: false,
            out: "-",
            won: None,
            cuts: "-".into(),
            chooser: None,
            done: "-".into(),
            trick: "-".into(),
            seed: 1,
            stacked: vec![],
        }
    }

    pub fn text(&self) -> String {
        let n = self.hands.len();
        let held: Vec<Vec<Card>> = self
            .hands
            .iter()
            .map(|h| if h == "-" { vec![] } else { cards(h) })
            .collect();
        let mut used: Vec<Card> = held.iter().flatten().copied().collect();
        for text in [&self.cuts, &self.done, &self.trick] {
            used.extend(cards_played(text));
        }
        if let Some(t) = self.turned {
            used.push(parse_card(t).expect("turned"));
        }
        let stock: Vec<Card> = (0..52).filter(|c| !used.contains(c)).collect();
        let list = |cs: &[Card]| {
            if cs.is_empty() {
                "-".to_string()
            } else {
                cs.iter()
                    .map(|&c| card_text(c))
                    .collect::<Vec<_>>()
                    .join(",")
            }
        };
        let hands: Vec<String> = held
            .iter()
            .map(|h| {
                let mut h = h.clone();
                h.sort_unstable();
                h.dedup();
                list(&h)
            })
            .collect();
        let won = self.won.clone().unwrap_or(vec![0; n]);
        let won: Vec<String> = won.iter().map(u32::to_string).collect();
        let mut text = format!(
            "kow/1 players={n} hand={} dealer={} phase={} trump={} turned={} dog={} \
             status={} out={} won={} cuts={} chooser={} hands={} stock={} done={} trick={} \
             seed={} chance={},0",
            self.hand,
            self.dealer,
            self.phase,
            self.trump.unwrap_or("-"),
            self.turned.unwrap_or("-"),
            if self.dog_used { "used" } else { "unused" },
            self.status.map_or("A".repeat(n), String::from),
            self.out,
            won.join(","),
            self.cuts,
            self.chooser.map_or("-".to_string(), |c| c.to_string()),
            hands.join("/"),
            list(&stock),
            self.done,
            self.trick,
            self.seed,
            self.hand,
        );
        if !self.stacked.is_empty() {
            let decks: Vec<String> = self.stacked.iter().map(|d| list(d)).collect();
            text.push_str(&format!(" stacked={}", decks.join("/")));
        }
        text
    }
}

/// Cards named in `seat:card` lists (tricks, cuts), knocks left out.
fn cards_played(text: &str) -> Vec<Card> {
    text.split(['/', ','])
        .filter(|item| *item != "-")
        .filter_map(|item| item.split_once(':'))
        .filter(|(_, c)| *c != "x")
        .map(|(_, c)| parse_card(c).expect("a card"))
        .collect()
}

/// `"P2 7C, P1 knock"` → `[(1, "play 7C"), (0, "knock")]`, seats named P1 … P5 or X, Y, Z.
pub fn named_plays(line: &str) -> Vec<(usize, String)> {
    line.split(',')
        .map(|item| {
            let (name, mv) = item.trim().split_once(' ').expect("name move");
            let seat = seat_of(name);
            let text = if mv == "knock" {
                "knock".to_string()
            } else {
                format!("play {mv}")
            };
            (seat, text)
        })
        .collect()
}

pub fn seat_of(name: &str) -> usize {
    match name {
        "P1" | "X" => 0,
        "P2" | "Y" => 1,
        "P3" | "Z" => 2,
        "P4" => 3,
        "P5" => 4,
        _ => panic!("unknown seat name {name}"),
    }
}

/// A named line in the notation's `seat:card` form (`x` for a knock).
pub fn seat_cards(line: &str) -> String {
    named_plays(line)
        .iter()
        .map(|(s, a)| {
            let card = if a == "knock" {
                "x"
            } else {
                a.split(' ').nth(1).unwrap()
            };
            format!("{s}:{card}")
        })
        .collect::<Vec<_>>()
        .join(",")
}
