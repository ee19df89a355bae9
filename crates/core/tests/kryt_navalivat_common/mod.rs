//! What the Kryt'-navalivat' tests share (as `tests/kryt_navalivat_pieces.py` on the Python side):
//! readable card lists, constructed states in the `kryt/1` notation through [`Compose`]
//! (Python's `compose_position`), actions by their text, and short looks at a state.

#![allow(dead_code)] // each test file uses its own part of this

use std::collections::BTreeSet;

use cardtable_core::cards::{card_text, cards as card_bits, parse_card, Card};
use cardtable_core::game::{actions_of, Game, Stacked};
use cardtable_core::kryt_navalivat::beating::PACK_36;
use cardtable_core::kryt_navalivat::{action_text, parse_action, Options, TrumpMode};
use cardtable_core::KrytNavalivat;

pub const A: usize = 0;
pub const B: usize = 1;
pub const C: usize = 2;
pub const D: usize = 3;

/// In [`Compose`], the place for every card no other piece names, in pack order.
pub const FILL: &str = "…";

/// `"7D 10S, QH"` → `["7D", "10S", "QH"]` in canonical text; `…` stays as it is.
pub fn cards(text: &str) -> Vec<String> {
    text.replace(',', " ")
        .split_whitespace()
        .map(|c| {
            if c == FILL {
                c.to_string()
            } else {
                card_text(parse_card(c).unwrap())
            }
        })
        .collect()
}

pub fn set(text: &str) -> BTreeSet<String> {
    cards(text).into_iter().collect()
}

/// The 36-card pack's cards as text, in pack order.
pub fn pack() -> Vec<String> {
    PACK_36.iter().map(|&c| card_text(c)).collect()
}

pub fn options(players: usize, mode: TrumpMode) -> Options {
    Options {
        players,
        dealer: None,
        trump_mode: mode,
    }
}

/// A `kryt/1` position from readable pieces; nothing is checked here (the parser does).
#[derive(Clone, Debug)]
pub struct Compose<'a> {
    pub hands: Vec<&'a str>,
    pub pile: &'a str,
    pub stock: &'a str,
    pub faceup: &'a str,
    pub trumps: &'a str,
    pub turn: &'a str,
    pub to_move: Option<usize>,
    pub dealer: Option<usize>,
    pub known: Vec<&'a str>,
    pub result: &'a str,
    pub seed: i64,
}

impl<'a> Compose<'a> {
    pub fn new(hands: &[&'a str]) -> Self {
        Compose {
            hands: hands.to_vec(),
            pile: "",
            stock: "",
            faceup: "",
            trumps: "C",
            turn: "respond",
            to_move: Some(0),
            dealer: None,
            known: vec![],
            result: "-",
            seed: 1,
        }
    }

    pub fn pile(mut self, pile: &'a str) -> Self {
        self.pile = pile;
        self
    }

    pub fn stock(mut self, stock: &'a str) -> Self {
        self.stock = stock;
        self
    }

    pub fn faceup(mut self, faceup: &'a str) -> Self {
        self.faceup = faceup;
        self
    }

    pub fn trumps(mut self, trumps: &'a str) -> Self {
        self.trumps = trumps;
        self
    }

    pub fn turn(mut self, turn: &'a str) -> Self {
        self.turn = turn;
        self
    }

    pub fn mover(mut self, to_move: Option<usize>) -> Self {
        self.to_move = to_move;
        self
    }

    pub fn dealer(mut self, dealer: usize) -> Self {
        self.dealer = Some(dealer);
        self
    }

    pub fn result(mut self, result: &'a str) -> Self {
        self.result = result;
        self
    }

    /// The position text, as `compose_position` writes it.
    pub fn text(&self) -> String {
        let mut pieces: Vec<Vec<String>> = self.hands.iter().map(|h| cards(h)).collect();
        pieces.push(cards(self.pile));
        pieces.push(cards(self.stock));
        let mut used: BTreeSet<String> = pieces.iter().flatten().cloned().collect();
        used.extend(cards(self.faceup));
        let rest: Vec<String> = pack().into_iter().filter(|c| !used.contains(c)).collect();
        let filled: Vec<String> = pieces
            .iter()
            .map(|piece| {
                piece
                    .iter()
                    .flat_map(|item| {
                        if item == FILL {
                            rest.clone()
                        } else {
                            vec![item.clone()]
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .map(|s| if s.is_empty() { "-".to_string() } else { s })
            .collect();
        let players = self.hands.len();
        let held = &filled[..players];
        let dealer = self
            .dealer
            .unwrap_or((self.to_move.unwrap_or(0) + players - 1) % players);
        let known: Vec<String> = if self.known.is_empty() {
            vec!["-".to_string(); players]
        } else {
            self.known
                .iter()
                .map(|k| {
                    let s = cards(k).join(",");
                    if s.is_empty() {
                        "-".to_string()
                    } else {
                        s
                    }
                })
                .collect()
        };
        let faceup = cards(self.faceup).join(",");
        format!(
            "kryt/1 players={players} trumps={} dealer={dealer} hands={} known={} pile={} \
             faceup={} stock={} turn={} to_move={} result={} seed={}",
            self.trumps,
            held.join("/"),
            known.join("/"),
            filled[players],
            if faceup.is_empty() { "-" } else { &faceup },
            filled[players + 1],
            self.turn,
            self.to_move.map_or("-".to_string(), |s| s.to_string()),
            self.result,
            self.seed
        )
    }

    /// The state the position describes (permanent trumps when `trumps` says so).
    pub fn state(&self) -> KrytNavalivat {
        let mode = if self.trumps == "permanent" {
            TrumpMode::Permanent
        } else {
            TrumpMode::Turned
        };
        position_state(&self.text(), mode)
    }
}

pub fn position_state(text: &str, mode: TrumpMode) -> KrytNavalivat {
    let players: usize = text.split_whitespace().nth(1).unwrap()["players=".len()..]
        .parse()
        .unwrap();
    KrytNavalivat::from_position(&options(players, mode), text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// A first deal of a stacked deck (card text, top first).
pub fn dealt(
    players: usize,
    dealer: usize,
    mode: TrumpMode,
    deck: &[String],
    seed: i128,
) -> KrytNavalivat {
    let deck: Vec<Card> = deck.iter().map(|c| parse_card(c).unwrap()).collect();
    let stacked = Stacked {
        decks: vec![deck],
        reshuffles: vec![],
    };
    KrytNavalivat::begin(&options(players, mode), seed, dealer, stacked).unwrap()
}

/// The legal actions as text.
pub fn legal(state: &KrytNavalivat) -> BTreeSet<String> {
    actions_of(state.legal_mask())
        .into_iter()
        .map(action_text)
        .collect()
}

pub fn is_legal(state: &KrytNavalivat, action: &str) -> bool {
    let number = parse_action(action).unwrap();
    state.legal_mask() >> number & 1 == 1
}

/// Applies an action given as text, which must be legal (the checked path of Python's
/// `apply`: a refused action changes nothing, since the core never applies it).
pub fn play(state: &mut KrytNavalivat, action: &str) {
    assert!(
        is_legal(state, action),
        "{action} is not legal; legal: {:?} in {}",
        legal(state),
        state.position()
    );
    state.apply(parse_action(action).unwrap());
}

pub fn hand(state: &KrytNavalivat, seat: usize) -> BTreeSet<String> {
    card_bits(state.hand(seat)).map(card_text).collect()
}

pub fn known(state: &KrytNavalivat, seat: usize) -> BTreeSet<String> {
    card_bits(state.known(seat)).map(card_text).collect()
}

pub fn pile(state: &KrytNavalivat) -> Vec<String> {
    state.pile().iter().map(|&c| card_text(c)).collect()
}

pub fn stock(state: &KrytNavalivat) -> Vec<String> {
    state.stock().iter().map(|&c| card_text(c)).collect()
}

/// The fields of the position text.
pub fn fields(state: &KrytNavalivat) -> Vec<(String, String)> {
    state
        .position()
        .split_whitespace()
        .skip(1)
        .map(|w| {
            let (k, v) = w.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// KRYT-11.1: hands, pile, stock and the turned card hold the pack once each.
pub fn assert_conserved(state: &KrytNavalivat) {
    let mut every: Vec<String> = (0..state.players()).flat_map(|s| hand(state, s)).collect();
    every.extend(pile(state));
    every.extend(stock(state));
    every.extend(state.faceup().map(card_text));
    let sizes: usize = (0..state.players())
        .map(|s| state.hand(s).count_ones() as usize)
        .sum();
    assert_eq!(sizes + state.pile().len() + state.stock_count(), 36);
    every.sort();
    let mut pack = pack();
    pack.sort();
    assert_eq!(every, pack);
}

/// KRYT-EX-1's deck, top first: dealer C deals A, B, C three rounds; `8C` is turned.
pub fn ex_1_deck() -> Vec<String> {
    cards(
        "7D KD 9C 9S 10S 8S 10D 6H KC 8C QS 7H 8H 9H 10H 7C JH QH KH AH 6C 10C JC QC AC \
         6D 8D 9D JD QD AD 6S 7S JS KS AS",
    )
}

/// Every state of one random game from `new_game(seed)` (at most `cap` actions), start and
/// end included. Nine times in ten the player does anything but pick up, as Python's
/// `random_states` plays, so that games reach the empty stock and the end quickly.
pub fn random_states(players: usize, mode: TrumpMode, seed: u64, cap: usize) -> Vec<KrytNavalivat> {
    use cardtable_core::game::{new_game, nth_action, PlayoutRng};
    use cardtable_core::kryt_navalivat::TAKE;
    use rand::{Rng, SeedableRng};
    let mut rng = PlayoutRng::seed_from_u64(seed);
    let mut state: KrytNavalivat = new_game(&options(players, mode), i128::from(seed));
    let mut states = vec![state.clone()];
    while state.to_move().is_some() && states.len() <= cap {
        let all = state.legal_mask();
        let other = all & !(1 << TAKE);
        let mask = if other != 0 && rng.random::<f64>() < 0.9 {
            other
        } else {
            all
        };
        let k = rng.random_range(0..mask.count_ones());
        state.apply(nth_action(mask, k));
        states.push(state.clone());
    }
    states
}

/// One random game per player count and trump mode (seed = players, or players + 10).
pub fn games() -> Vec<(usize, TrumpMode, u64)> {
    let mut out = Vec::new();
    for n in 2..=6 {
        out.push((n, TrumpMode::Turned, n as u64));
        out.push((n, TrumpMode::Permanent, n as u64 + 10));
    }
    out
}
