//! What a seat knows of a hand, as a sampler of full states: the port of
//! `cardtable.rules.kryt_navalivat.knowledge.KrytNavalivatKnowledge` (DESIGN.md "Bots").
//!
//! By KRYT-9 and K-10 a seat sees its own hand, the whole pile, the turned trump card while
//! it lies under the stock, every count, and the cards each seat is publicly known to hold
//! (picked up from the pile, or the turned card taken by the six swap, KRYT-6, or drawn
//! last, KRYT-2.5). A pick-up is always allowed (KRYT-4.2b), so nothing reveals a void.
//! Every other card, an *unseen* one, may lie in any other hand's unknown places or
//! anywhere in the face-down stock, and a sample deals them there uniformly at random.
//!
//! The view is read once into a *template* state holding everything fixed; a sample copies
//! it, shuffles the unseen cards and fills the hands and the stock with them: no heap work.

use super::beating::{NO_SUIT, PACK_36, PACK_36_SET, PERMANENT_ANTI, PERMANENT_TRUMP};
use super::{position, KrytNavalivat, Mode, Options, TrumpMode, MAX_SEATS, NONE};
use crate::cards::{bit, card_text, cards, parse_card, Card, CardSet, SUIT_LETTERS};
use crate::chance::Seed;
use crate::game::{Game, PlayoutRng};
use crate::notation::PositionError;
use rand::{Rng, RngCore, SeedableRng};
use serde_json::Value;
use std::sync::OnceLock;

use super::view::{Rules, View};
use crate::views;

/// A seat's view's keys in the order `KrytNavalivatState.view` writes them (the view struct's, as
/// serde knows them), so that a view that is wrong in several fields is refused for the
/// first, as Python refuses it.
fn view_keys() -> &'static [String] {
    static KEYS: OnceLock<Vec<String>> = OnceLock::new();
    KEYS.get_or_init(|| views::fields_of::<View>().remove("").unwrap_or_default())
}

/// A seat's knowledge of a hand, read from its view alone (KRYT-9).
#[derive(Clone, Debug)]
pub struct Knowledge {
    seat: usize,
    /// Every fixed part of a sample: the seat's hand, the other hands' known cards only,
    /// the pile, the turned card, the turn; the face-down stock empty, the seed 0.
    template: KrytNavalivat,
    /// The unseen cards, in pack order.
    pool: [Card; 36],
    pool_len: u8,
    /// The other seats with unknown places, in seat order, and how many each has.
    slots: [(u8, u8); MAX_SEATS],
    slot_len: u8,
}

fn fail(why: impl Into<String>) -> PositionError {
    PositionError(why.into())
}

/// A value as Python's `repr` writes the same value read from JSON, for messages that name
/// it as the Python engine's do.
fn repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("'{s}'"),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("'{k}': {}", repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// A non-negative whole number (`_count`).
fn count(value: i64, what: &str) -> Result<usize, PositionError> {
    usize::try_from(value)
        .map(|v| v.min(u32::MAX as usize))
        .map_err(|_| fail(format!("the view's {what} should be a count, not {value}")))
}

/// A count or `null`, kept as a seat byte: a count past any seat stays past every seat, so
/// the position's checks refuse it.
fn seat_or_none(value: Option<i64>, what: &str) -> Result<u8, PositionError> {
    match value {
        None => Ok(NONE),
        Some(value) => Ok(count(value, what)?.min(NONE as usize - 1) as u8),
    }
}

/// The cards of the 36-card pack a view lists (`_cards`).
fn card_list(items: &[String], what: &str) -> Result<Vec<Card>, PositionError> {
    let mut list = Vec::with_capacity(items.len());
    for text in items {
        let card = parse_card(text).map_err(|e| fail(format!("the view's {what}: {}", e.0)))?;
        if PACK_36_SET & bit(card) == 0 {
            return Err(fail(format!(
                "the view's {what}: {text} is not in the 36-card pack"
            )));
        }
        list.push(card);
    }
    Ok(list)
}

/// The set of listed cards, none twice (`_mask`).
fn mask(list: &[Card], what: &str) -> Result<CardSet, PositionError> {
    let mut set = 0;
    for &card in list {
        if set & bit(card) != 0 {
            return Err(fail(format!(
                "the view's {what} lists {} twice",
                card_text(card)
            )));
        }
        set |= bit(card);
    }
    Ok(set)
}

fn texts(list: impl IntoIterator<Item = Card>) -> Vec<String> {
    list.into_iter().map(card_text).collect()
}

fn mode_name(mode: TrumpMode) -> &'static str {
    match mode {
        TrumpMode::Turned => "turned",
        TrumpMode::Permanent => "permanent",
    }
}

impl KrytNavalivat {
    /// KRYT-9: what `seat` sees (everybody's view for `None`), as `KrytNavalivatState.view` writes
    /// it: the public facts, and a seat's own hand and legal actions.
    pub fn view(&self, seat: Option<usize>) -> View {
        let n = self.players as usize;
        let trump_mode = if self.permanent() {
            TrumpMode::Permanent
        } else {
            TrumpMode::Turned
        };
        let letter = |suit: u8| SUIT_LETTERS[suit as usize].to_string();
        let (hand, legal_actions) = views::own_part(self, seat, |s| self.hands[s]);
        View {
            game: Self::NAME.to_string(),
            options: Rules {
                players: n as i64,
                trump_mode: mode_name(trump_mode).to_string(),
            },
            seat: seat.map(|s| s as i64),
            players: n as i64,
            dealer: i64::from(self.dealer),
            trump_mode: mode_name(trump_mode).to_string(),
            trump: letter(self.trump),
            anti_trump: self.permanent().then(|| letter(self.anti)),
            trump_card: self.faceup().map(card_text),
            stock: self.stock_count() as i64,
            hand_sizes: views::hand_sizes(&self.hands[..n]),
            known: self.known[..n].iter().map(|&k| texts(cards(k))).collect(),
            out: (0..n)
                .filter(|&s| self.is_out(s))
                .map(|s| s as i64)
                .collect(),
            pile: texts(self.pile().iter().copied()),
            would_take: texts(self.would_take().iter().copied()),
            phase: self.mode.name().to_string(),
            to_move: (self.to_move != NONE).then_some(i64::from(self.to_move)),
            loser: self.loser().map(|s| s as i64),
            draw: self.drawn(),
            hand,
            legal_actions,
        }
    }
}

impl Knowledge {
    /// Reads a seat's view with `KrytNavalivatKnowledge.__init__`'s checks: anything but a seat's
    /// view of a hand of this game, or a view whose cards and counts do not make up the
    /// pack, is refused, naming what is wrong.
    pub fn new(options: &Options, value: &Value) -> Result<Knowledge, PositionError> {
        let name = KrytNavalivat::NAME;
        // Which game, seat and table the view is of comes first, so that another game's
        // view, a spectator's or another table's is refused as such rather than for its
        // shape.
        let map = match value {
            Value::Object(map) if map.get("game").and_then(Value::as_str) == Some(name) => map,
            _ => return Err(fail(format!("not a view of a {name} game"))),
        };
        let n = options.players;
        let seat = map.get("seat").and_then(Value::as_u64);
        let seat = match seat {
            Some(seat) if (seat as usize) < n && map.contains_key("hand") => seat as usize,
            _ => {
                return Err(fail(
                    "a determinizer needs a seat's view (KRYT-9): a spectator sees no hand",
                ))
            }
        };
        if map.get("players").and_then(Value::as_u64) != Some(n as u64)
            || map.get("trump_mode").and_then(Value::as_str) != Some(mode_name(options.trump_mode))
        {
            return Err(fail("the view is of a game with other options"));
        }
        let view: View =
            views::read(value).map_err(|why| fail(format!("not a readable {name} view: {why}")))?;
        let knowledge = Self::read(options, &view, seat)?;
        // One sample, checked whole: the position notation's checks (the turn, the mover,
        // the result against the cards) and the view itself, field by field.
        let first = knowledge.sample(&mut PlayoutRng::seed_from_u64(0));
        position::parse(options, &first.position())?;
        let built = serde_json::to_value(first.view(Some(seat)))
            .map_err(|why| fail(format!("the view could not be written: {why}")))?;
        for key in view_keys() {
            let value = &built[key];
            let given = map.get(key).unwrap_or(&Value::Null);
            if given != value {
                return Err(fail(format!(
                    "the view's {key} ({}) does not follow from its cards ({})",
                    repr(given),
                    repr(value)
                )));
            }
        }
        Ok(knowledge)
    }

    /// The template, the unseen cards and where they go (`_read`).
    fn read(options: &Options, view: &View, seat: usize) -> Result<Knowledge, PositionError> {
        let n = options.players;
        let (trump, anti) = match options.trump_mode {
            TrumpMode::Permanent => (PERMANENT_TRUMP, PERMANENT_ANTI),
            TrumpMode::Turned => {
                let given = &view.trump;
                let suit = ["C", "D", "H", "S"]
                    .iter()
                    .position(|s| given == s)
                    .ok_or_else(|| fail(format!("the view's trump '{given}' is no suit")))?;
                (suit as u8, NO_SUIT)
            }
        };
        let dealer = count(view.dealer, "dealer")?;

        let (sizes, known_lists) = (&view.hand_sizes, &view.known);
        if sizes.len() != n || known_lists.len() != n {
            return Err(fail(format!(
                "the view's hand_sizes and known should have {n} seats"
            )));
        }
        let mut known = [0; MAX_SEATS];
        for (set, list) in known.iter_mut().zip(known_lists) {
            *set = mask(&card_list(list, "known cards")?, "known cards")?;
        }
        let hand = view.hand.as_deref().unwrap_or_default();
        let own = mask(&card_list(hand, "hand")?, "hand")?;
        let pile = card_list(&view.pile, "pile")?;
        let faceup = card_list(view.trump_card.as_slice(), "trump card")?;

        // Everything the seat sees lies in exactly one place.
        let mut seen = own;
        let mut places = vec![
            ("pile".to_string(), mask(&pile, "pile")?),
            ("trump card".to_string(), mask(&faceup, "trump")?),
        ];
        places.extend(
            (0..n)
                .filter(|&s| s != seat)
                .map(|s| (format!("seat {s}'s known cards"), known[s])),
        );
        for (what, set) in places {
            if seen & set != 0 {
                return Err(fail(format!("the view shows {what} in two places")));
            }
            seen |= set;
        }
        if known[seat] & !own != 0 {
            return Err(fail(
                "the view's known cards of its seat are not in its hand",
            ));
        }
        if count(sizes[seat], "hand size")? != own.count_ones() as usize {
            return Err(fail("the view's hand and its hand size differ"));
        }

        let mut hands = [0; MAX_SEATS];
        let mut slots = [(0, 0); MAX_SEATS];
        let mut slot_len = 0;
        let mut unknown_total = 0;
        for s in 0..n {
            if s == seat {
                hands[s] = own;
                continue;
            }
            let size = count(sizes[s], "hand size")?;
            let unknown = size
                .checked_sub(known[s].count_ones() as usize)
                .ok_or_else(|| fail(format!("seat {s} is known to hold more cards than it has")))?;
            hands[s] = known[s];
            if unknown > 0 {
                slots[slot_len] = (s as u8, unknown.min(36) as u8);
                slot_len += 1;
                unknown_total += unknown;
            }
        }
        let mut pool = [0; 36];
        let mut pool_len = 0;
        for &card in PACK_36.iter().filter(|&&c| seen & bit(c) == 0) {
            pool[pool_len] = card;
            pool_len += 1;
        }
        let face_down = count(view.stock, "stock")?.checked_sub(faceup.len());
        if face_down.is_none_or(|down| unknown_total + down != pool_len) {
            return Err(fail("the view's cards and counts do not make up the pack"));
        }

        let phase = &view.phase;
        let mode = Mode::ALL
            .into_iter()
            .find(|m| phase == m.name())
            .ok_or_else(|| fail(format!("the view's phase '{phase}' is not a turn mode")))?;
        let to_move = seat_or_none(view.to_move, "to_move")?;
        let loser = seat_or_none(view.loser, "loser")?;
        // `draw` is the loser's and the cards': the check against the sample's view reads it.

        let mut table = [0; 36];
        table[..pile.len()].copy_from_slice(&pile);
        let template = KrytNavalivat {
            hands,
            known,
            seed: 0,
            table,
            pile_len: pile.len() as u8,
            stock_len: 0,
            faceup: faceup.first().copied().unwrap_or(NONE),
            players: n as u8,
            dealer: dealer.min(NONE as usize - 1) as u8,
            trump,
            anti,
            mode,
            to_move,
            loser: if mode == Mode::Over { loser } else { NONE },
        };
        Ok(Knowledge {
            seat,
            template,
            pool,
            pool_len: pool_len as u8,
            slots,
            slot_len: slot_len as u8,
        })
    }

    /// The seat whose knowledge this is.
    pub fn seat(&self) -> usize {
        self.seat
    }

    /// A full state whose `view(seat)` is the view read: the unseen cards dealt uniformly at
    /// random into the other hands' unknown places and the face-down stock, in a random
    /// order; a fresh seed (63 random bits, as Python's `getrandbits(63)`), no deck.
    pub fn sample(&self, rng: &mut PlayoutRng) -> KrytNavalivat {
        let mut state = self.template.clone();
        let mut pool = self.pool;
        let len = self.pool_len as usize;
        // Fisher-Yates, as the Python sampler's (which draws its indices from one big
        // random number; both are uniform permutations).
        for i in (1..len).rev() {
            let j = rng.random_range(0..=i as u32) as usize;
            pool.swap(i, j);
        }
        let mut at = 0;
        for &(seat, unknown) in &self.slots[..self.slot_len as usize] {
            let end = at + unknown as usize;
            for &card in &pool[at..end] {
                state.hands[seat as usize] |= bit(card);
            }
            at = end;
        }
        // The rest is the stock; Python's list has its top last, the table its top first.
        let stock = &pool[at..len];
        state.stock_len = stock.len() as u8;
        for (place, &card) in state.table[36 - stock.len()..]
            .iter_mut()
            .zip(stock.iter().rev())
        {
            *place = card;
        }
        state.seed = Seed::from(rng.next_u64() >> 1);
        state
    }
}
