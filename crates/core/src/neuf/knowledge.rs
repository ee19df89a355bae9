//! What one Neuf seat knows, as a sampler of full states (the determinizer of search,
//! DESIGN.md "Bots"), built from the seat's view alone (NEUF-9): the port of
//! `cardtable.rules.neuf.knowledge`, sampling from the same distribution.
//!
//! The exchanges move whole hands (NEUF-3.2), so each pile as dealt has a place it ended up
//! in, known to everyone: a seat's hand or the spare. A pile the seat has held is known
//! card for card wherever it went (NEUF-3.3); if the game ended with a complete deal its
//! final spare is shown (N-5). The cards of the piles the seat never held, less those
//! played, are dealt at random among the places those piles went, in their sizes, giving
//! no seat a card of a suit it has shown it lacks by not following (NEUF-4.2).
//!
//! The deal is uniform over every consistent layout, as Python's: the suits some place
//! cannot take are split among the places by counts drawn with weights that count the
//! layouts each split allows (a small dynamic programme worked out once per view), then
//! each class's cards, and last the free cards, are dealt uniformly in those counts.

use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use serde_json::Value;

use super::ledger::quota;
use super::rules::SPARE;
use super::tricks::{trick_winner, winning_place};
use super::view::{LedgerRow, PlayView, PreviousDeal, Rules, Trick, View};
use super::{Neuf, Options, Phase, Previous, Trump};
use crate::cards::{bit, card_text, cards, parse_card, Card, CardSet, FULL_PACK, SUIT_MASKS};
use crate::game::{Game, PlayoutRng};
use crate::notation::{push_cards, PositionError};
use crate::views::{self, Pair};

const TRUMP_NAMES: [&str; 5] = ["C", "D", "H", "S", "NT"];
/// The places unseen cards go: at most three seats and the spare, or four seats.
const PLACES: usize = 4;
type Room = [u8; PLACES];

/// Per split class and room left in each place: the count vectors the class may take, their
/// cumulative layout counts, and the total (Python's `Table`).
#[derive(Clone, Debug)]
struct Choices {
    splits: Vec<Room>,
    cumulative: Vec<u128>,
    total: u128,
}

/// A Neuf seat's knowledge from its view: [`Determinize::sample`] deals what it cannot see.
#[derive(Clone, Debug)]
pub struct Knowledge {
    seat: u8,
    /// The state with every public fact and every known card; the unseen cards are added
    /// to its piles, hands and spare by each sample.
    template: Neuf,
    /// How many places take unseen cards, and for each its seat ([`SPARE`] for the spare
    /// of the 3-player game), the pile that went there, and its room.
    places: usize,
    place_of: [u8; PLACES],
    pile_of: [u8; PLACES],
    room: Room,
    /// The unseen cards of each suit some place cannot take, class by class.
    classes: [CardSet; 4],
    class_count: usize,
    /// The unseen cards any place may take.
    free: CardSet,
    /// `(class, room left)` to its choices.
    table: HashMap<(u8, Room), Choices>,
}

fn fail(why: impl Into<String>) -> PositionError {
    PositionError(why.into())
}

/// A view of the wrong shape: a field missing, unknown or of the wrong type.
fn malformed(what: &str) -> PositionError {
    fail(format!("not a neuf seat's view: {what}"))
}

/// Python's `repr` of a JSON value, enough for messages.
fn repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::String(s) => format!("'{s}'"),
        other => other.to_string(),
    }
}

fn card(text: &str) -> Result<Card, PositionError> {
    parse_card(text).map_err(|e| fail(e.0))
}

fn mask(list: &[String]) -> Result<CardSet, PositionError> {
    let mut set: CardSet = 0;
    for text in list {
        let c = card(text)?;
        if set & bit(c) != 0 {
            return Err(fail(format!("card {text} is listed twice")));
        }
        set |= bit(c);
    }
    Ok(set)
}

fn plays(list: &[PlayView], players: u8) -> Result<Vec<(u8, Card)>, PositionError> {
    list.iter()
        .map(|Pair(seat, text)| {
            let seat = u8::try_from(*seat)
                .ok()
                .filter(|&s| s < players)
                .ok_or_else(|| fail(format!("no seat {seat} plays neuf with {players}")))?;
            Ok((seat, card(text)?))
        })
        .collect()
}

fn tricks(list: &[Trick], players: u8) -> Result<Vec<Vec<(u8, Card)>>, PositionError> {
    list.iter().map(|t| plays(&t.plays, players)).collect()
}

fn push_plays(out: &mut String, plays: &[(u8, Card)]) {
    if plays.is_empty() {
        out.push('-');
    }
    for (k, &(seat, c)) in plays.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&format!("{seat}:{}", card_text(c)));
    }
}

fn push_tricks(out: &mut String, tricks: &[Vec<(u8, Card)>]) {
    if tricks.is_empty() {
        out.push('-');
    }
    for (t, trick) in tricks.iter().enumerate() {
        if t > 0 {
            out.push('/');
        }
        push_plays(out, trick);
    }
}

/// The ways to lay out `counts` cards of distinct places: the multinomial coefficient, as
/// a product of binomials so that no factorial overflows.
fn multinomial(counts: &[u8]) -> u128 {
    let mut ways: u128 = 1;
    let mut total: u128 = 0;
    for &c in counts {
        for k in 1..=u128::from(c) {
            total += 1;
            ways = ways * total / k;
        }
    }
    ways
}

/// Every way to put `count` cards into the places, within their room, only where allowed.
fn splits(count: u8, room: &[u8], allowed: &[bool], prefix: &mut Room, at: usize) -> Vec<Room> {
    if at == room.len() {
        return if count == 0 { vec![*prefix] } else { vec![] };
    }
    let top = if allowed[at] { count.min(room[at]) } else { 0 };
    let mut out = Vec::new();
    for here in 0..=top {
        prefix[at] = here;
        out.extend(splits(count - here, room, allowed, prefix, at + 1));
    }
    prefix[at] = 0;
    out
}

impl Knowledge {
    /// The layouts of classes `i` on and the free cards into `room`, memoised with the
    /// choices each class has there.
    fn layouts(&mut self, i: usize, room: Room, allowed: &[[bool; PLACES]; 4]) -> u128 {
        let places = self.places;
        if i == self.class_count {
            return multinomial(&room[..places]);
        }
        if let Some(choices) = self.table.get(&(i as u8, room)) {
            return choices.total;
        }
        let count = self.classes[i].count_ones() as u8;
        let mut choices = Choices {
            splits: Vec::new(),
            cumulative: Vec::new(),
            total: 0,
        };
        let options = splits(
            count,
            &room[..places],
            &allowed[i][..places],
            &mut [0; PLACES],
            0,
        );
        for split in options {
            let mut left = room;
            for p in 0..places {
                left[p] -= split[p];
            }
            let ways = multinomial(&split[..places]) * self.layouts(i + 1, left, allowed);
            if ways != 0 {
                choices.total += ways;
                choices.splits.push(split);
                choices.cumulative.push(choices.total);
            }
        }
        let total = choices.total;
        self.table.insert((i as u8, room), choices);
        total
    }

    /// The unseen cards dealt to the places: a class's counts drawn by their layouts, then
    /// its cards, then the free cards, uniformly.
    fn deal(&self, rng: &mut PlayoutRng) -> [CardSet; PLACES] {
        let mut room = self.room;
        let mut dealt = [0; PLACES];
        for i in 0..self.class_count {
            let choices = &self.table[&(i as u8, room)];
            let r = rng.random_range(0..choices.total);
            let split = choices.splits[choices.cumulative.partition_point(|&c| c <= r)];
            deal_cards(self.classes[i], &split, &mut dealt, rng);
            for p in 0..self.places {
                room[p] -= split[p];
            }
        }
        deal_cards(self.free, &room, &mut dealt, rng);
        dealt
    }

    fn fill(&self, state: &mut Neuf, dealt: &[CardSet; PLACES]) {
        let places = self.place_of.iter().zip(&self.pile_of).zip(dealt);
        for ((&place, &pile), &cards) in places.take(self.places) {
            let place = place as usize;
            if place == SPARE && state.players() == 3 {
                state.spare |= cards;
            } else {
                state.hands[place] |= cards;
            }
            state.piles[pile as usize] |= cards;
        }
    }
}

/// `set`'s cards dealt uniformly at random, `counts[p]` to place `p` (a partial
/// Fisher-Yates shuffle, on the stack).
#[inline]
fn deal_cards(set: CardSet, counts: &Room, dealt: &mut [CardSet; PLACES], rng: &mut PlayoutRng) {
    let mut order = [0 as Card; 52];
    let mut len = 0;
    for c in cards(set) {
        order[len] = c;
        len += 1;
    }
    let mut at = 0;
    for (place, &count) in counts.iter().enumerate() {
        for _ in 0..count {
            let j = rng.random_range(at..len);
            order.swap(at, j);
            dealt[place] |= bit(order[at]);
            at += 1;
        }
    }
}

/// Reads a seat's view as `NeufKnowledge.__init__` does, with the same refusals.
pub(super) fn read(options: &Options, value: &Value) -> Result<Knowledge, PositionError> {
    // Which game and seat the view is of comes first, so that another game's view or a
    // spectator's is refused as such rather than for its shape.
    if !value.is_object() || value.get("game").and_then(Value::as_str) != Some("neuf") {
        return Err(fail("not a view of a neuf game"));
    }
    let n = options.players as u8;
    let seat_value = value.get("seat").unwrap_or(&Value::Null);
    let seat = seat_value
        .as_u64()
        .filter(|&s| s < u64::from(n) && !seat_value.is_f64())
        .ok_or_else(|| {
            fail(format!(
                "a seat's view is needed, not seat {}'s",
                repr(seat_value)
            ))
        })? as u8;
    let view: View = views::read(value).map_err(|why| malformed(&why))?;
    let knowledge = read_view(options, &view, seat)?;
    // Whatever the view says must come back from a sample of it, word for word: this
    // catches a view whose parts disagree (scores against the ledger, the hand against the
    // legal actions, a trick winner, an option of another table) once, here.
    let sample = sample(&knowledge, &mut PlayoutRng::seed_from_u64(0));
    if serde_json::to_value(sample.view(Some(seat as usize)))
        .ok()
        .as_ref()
        != Some(value)
    {
        return Err(fail("the view is not one that a neuf state shows"));
    }
    Ok(knowledge)
}

fn read_view(options: &Options, view: &View, seat: u8) -> Result<Knowledge, PositionError> {
    let n = options.players as u8;
    if view.players != i64::from(n) || view.trump_sequence != options.sequence_name() {
        return Err(fail("the view is of a neuf table with other options"));
    }
    // The public record, as Python's `_public_state` reads it.
    let (deal, dealer) = (view.deal_number, view.dealer);
    if deal < 1 {
        return Err(fail("the deal number and dealer must be whole numbers"));
    }
    let first = (dealer - deal + 1).rem_euclid(i64::from(n));
    let mut sheet = super::Sheet::new(n, first as u8, options.trump_sequence);
    let mut ledger_text = String::new();
    for (r, row) in view.ledger.iter().enumerate() {
        let counts: Vec<String> = row.tricks.iter().map(i64::to_string).collect();
        let counts: Vec<&str> = counts.iter().map(String::as_str).collect();
        sheet.record_counts(&counts).map_err(fail)?;
        if r > 0 {
            ledger_text.push('/');
        }
        ledger_text.push_str(&counts.join(","));
    }
    if ledger_text.is_empty() {
        ledger_text.push('-');
    }
    let phase = match view.phase.as_str() {
        "exchange" => Phase::Exchange,
        "play" => Phase::Play,
        "over" => Phase::Over,
        other => return Err(fail(format!("no phase '{other}' in neuf"))),
    };
    let mut exchanges: Vec<(u8, bool)> = Vec::new();
    for &Pair(s, ref choice) in &view.exchanges {
        let exchanged = match choice.as_str() {
            "exchange" => true,
            "keep" => false,
            other => {
                return Err(malformed(&format!(
                    "an exchange is 'exchange' or 'keep', not '{other}'"
                )))
            }
        };
        if !(0..i64::from(n)).contains(&s) || n == 4 {
            return Err(fail("the view is not one that a neuf state shows"));
        }
        exchanges.push((s as u8, exchanged));
    }
    let done = tricks(&view.tricks, n)?;
    let trick = plays(&view.trick, n)?;
    let previous = match &view.previous_deal {
        None => None,
        Some(previous) => {
            if sheet.row_count() == 0 {
                return Err(fail("a previous deal with no ledger row"));
            }
            // The deal before is the ledger's last row (the very deal, once it ended the
            // game).
            let trump: Trump = sheet.trump_of(sheet.row_count());
            let tricks = tricks(&previous.tricks, n)?;
            let spare = if n == 3 {
                let spare = previous.spare.as_deref();
                mask(spare.ok_or_else(|| malformed("a previous deal with no spare"))?)?
            } else {
                0
            };
            Some((trump, tricks, spare))
        }
    };

    // Each dealt pile's place now (a seat, or the spare), through the exchanges, and the
    // piles this seat has held, in order (NEUF-3.2, NEUF-9).
    let mut holder: [u8; 4] = [0, 1, 2, 3];
    let mut held_ids = vec![seat];
    for &(s, exchanged) in &exchanges {
        if exchanged {
            holder.swap(s as usize, SPARE);
            if s == seat {
                held_ids.push(holder[s as usize]);
            }
        }
    }
    let mut played: [CardSet; 4] = [0; 4];
    for &(s, c) in done.iter().flatten().chain(&trick) {
        if played[s as usize] & bit(c) != 0 {
            return Err(fail("a card is played twice"));
        }
        played[s as usize] |= bit(c);
    }
    let hand = view.hand.as_deref();
    let hand = mask(hand.ok_or_else(|| malformed("it has no hand"))?)?;
    let mut known: [Option<CardSet>; 4] = [None; 4];
    if n == 4 {
        known[seat as usize] = Some(hand | played[seat as usize]);
    } else {
        let held = view.held.as_deref();
        let held = held
            .ok_or_else(|| malformed("it has no held hands"))?
            .iter()
            .map(|h| mask(h))
            .collect::<Result<Vec<_>, _>>()?;
        if held.len() != held_ids.len() {
            return Err(fail("the held hands do not match the exchanges"));
        }
        for (&id, &cards) in held_ids.iter().zip(&held) {
            known[id as usize] = Some(cards);
        }
        if phase == Phase::Over && sheet.is_over() {
            // The game ended with this deal complete: its final spare is shown (N-5).
            let Some((_, _, spare)) = &previous else {
                return Err(fail("the view is not one that a neuf state shows"));
            };
            known[holder[SPARE] as usize] = Some(*spare);
        }
    }
    let mut seen: CardSet = 0;
    for cards in known.iter().flatten() {
        if cards.count_ones() != 13 || seen & cards != 0 {
            return Err(fail("the hands held are not 13 distinct cards each"));
        }
        seen |= cards;
    }

    let sizes = &view.hand_sizes;
    let voids = voids(done.iter().map(Vec::as_slice).chain([trick.as_slice()]), n);
    let mut all_played: CardSet = 0;
    let mut piles: [CardSet; 4] = [0; 4];
    let mut hands: [CardSet; 4] = [0; 4];
    let mut spare: CardSet = 0;
    let mut knowledge = Knowledge {
        seat,
        template: Neuf::empty(sheet, options, 0),
        places: 0,
        place_of: [0; PLACES],
        pile_of: [0; PLACES],
        room: [0; PLACES],
        classes: [0; 4],
        class_count: 0,
        free: 0,
        table: HashMap::new(),
    };
    let mut barred: [CardSet; PLACES] = [0; PLACES];
    for place in 0..4usize {
        let pile = holder[place] as usize;
        let gone = if place < n as usize { played[place] } else { 0 };
        all_played |= gone;
        let left = 13 - (gone.count_ones() as i64);
        if let Some(cards) = known[pile] {
            if gone & !cards != 0 {
                return Err(fail(format!("seat {place} played a card it did not hold")));
            }
            piles[pile] = cards;
            if place >= n as usize {
                spare = cards & !gone;
            } else {
                hands[place] = cards & !gone;
            }
        } else {
            if gone & seen != 0 {
                return Err(fail(format!("seat {place} played a card held elsewhere")));
            }
            piles[pile] = gone;
            let p = knowledge.places;
            knowledge.place_of[p] = place as u8;
            knowledge.pile_of[p] = pile as u8;
            knowledge.room[p] = left.max(0) as u8;
            barred[p] = if place < n as usize { voids[place] } else { 0 };
            knowledge.places += 1;
        }
        if place < n as usize {
            let size = sizes
                .get(place)
                .ok_or_else(|| malformed("hand_sizes has too few seats"))?;
            if left < 0 || *size != left {
                return Err(fail(format!("seat {place}'s hand size does not add up")));
            }
        }
    }
    if hands[seat as usize] != hand {
        return Err(fail("the hand is not the last hand held less its plays"));
    }
    let pool = FULL_PACK & !seen & !all_played;
    let room_total: u32 = knowledge.room.iter().map(|&r| u32::from(r)).sum();
    if pool.count_ones() != room_total {
        return Err(fail("the cards do not add up to the pack"));
    }
    plan(&mut knowledge, pool, &barred)?;

    // The template: the public facts as a position with one full deal, read back by the
    // position reader (which checks the play as the rules allow it), then stripped of the
    // unseen cards that each sample deals anew.
    let mut text = format!(
        "neuf/1 players={n} sequence={} first={first} ledger={ledger_text} phase={} exchanges=",
        options.sequence_name(),
        phase.name()
    );
    if exchanges.is_empty() {
        text.push('-');
    }
    for (k, &(s, e)) in exchanges.iter().enumerate() {
        if k > 0 {
            text.push(',');
        }
        text.push_str(&format!("{s}:{}", if e { 'e' } else { 'k' }));
    }
    text.push_str(" piles=");
    let mut full = piles;
    let dealt = knowledge.deal(&mut PlayoutRng::seed_from_u64(0));
    for p in 0..knowledge.places {
        full[knowledge.pile_of[p] as usize] |= dealt[p];
    }
    for (i, &pile) in full.iter().enumerate() {
        if i > 0 {
            text.push('/');
        }
        push_cards(&mut text, cards(pile));
    }
    text.push_str(" done=");
    push_tricks(&mut text, &done);
    text.push_str(" trick=");
    push_plays(&mut text, &trick);
    let chance = sheet.row_count() + usize::from(!sheet.is_over());
    text.push_str(&format!(" seed=0 chance={chance}"));
    if let Some((trump, tricks, spare)) = &previous {
        text.push_str(&format!(" previous={}:", TRUMP_NAMES[*trump as usize]));
        push_tricks(&mut text, tricks);
        text.push(':');
        push_cards(&mut text, cards(*spare));
    }
    let mut template = super::position::parse(options, &text).map_err(|e| {
        fail(format!(
            "the view is not one that a neuf state shows: {}",
            e.0
        ))
    })?;
    template.piles = piles;
    template.hands = hands;
    template.spare = spare;
    knowledge.template = template;
    Ok(knowledge)
}

/// Per seat, the suits it has shown it lacks this deal (NEUF-4.2): those it did not follow
/// when they were led.
fn voids<'a>(tricks: impl Iterator<Item = &'a [(u8, Card)]>, n: u8) -> [CardSet; 4] {
    let mut shown = [0; 4];
    for trick in tricks {
        if let Some(&(_, lead)) = trick.first() {
            let led = lead / 13;
            for &(s, c) in &trick[1..] {
                if c / 13 != led && (s as usize) < n as usize {
                    shown[s as usize] |= SUIT_MASKS[led as usize];
                }
            }
        }
    }
    shown
}

/// Splits the pool: suits some place cannot take are dealt class by class, by count vectors
/// weighted with the layouts each leaves; the other cards are dealt freely.
fn plan(
    knowledge: &mut Knowledge,
    pool: CardSet,
    barred: &[CardSet; PLACES],
) -> Result<(), PositionError> {
    let places = knowledge.places;
    let mut allowed = [[false; PLACES]; 4];
    let mut free = pool;
    for suit_mask in SUIT_MASKS {
        let cards = pool & suit_mask;
        let mut ok = [false; PLACES];
        for p in 0..places {
            ok[p] = barred[p] & suit_mask == 0;
        }
        if cards != 0 && !ok[..places].iter().all(|&a| a) {
            if !ok[..places].iter().any(|&a| a) {
                return Err(fail("no place can hold a card of a void suit"));
            }
            let i = knowledge.class_count;
            knowledge.classes[i] = cards;
            allowed[i] = ok;
            knowledge.class_count += 1;
            free &= !suit_mask;
        }
    }
    knowledge.free = free;
    let room = knowledge.room;
    if knowledge.layouts(0, room, &allowed) == 0 {
        return Err(fail("no layout of the unseen cards meets the voids shown"));
    }
    Ok(())
}

pub(super) fn knower(knowledge: &Knowledge) -> usize {
    knowledge.seat as usize
}

/// A state this seat could not tell from the real one (its view is the same), the unseen
/// cards dealt uniformly among the layouts the view allows, with a fresh seed for the deals
/// to come (Python: `rng.getrandbits(63)`).
pub(super) fn sample(knowledge: &Knowledge, rng: &mut PlayoutRng) -> Neuf {
    let dealt = knowledge.deal(rng);
    let mut state = knowledge.template.clone();
    knowledge.fill(&mut state, &dealt);
    state.seed = i128::from(rng.random::<u64>() >> 1);
    state
}

// The view ------------------------------------------------------------------------------------

fn plays_view(plays: impl Iterator<Item = (u8, Card)>) -> Vec<PlayView> {
    plays
        .map(|(s, c)| Pair(i64::from(s), card_text(c)))
        .collect()
}

fn cards_view(set: CardSet) -> Vec<String> {
    cards(set).map(card_text).collect()
}

fn seats(seats: impl IntoIterator<Item = usize>) -> Vec<i64> {
    seats.into_iter().map(|s| s as i64).collect()
}

impl Neuf {
    /// `state.view(seat)` (NEUF-9): the public facts, plus a seat's own hand, the hands it
    /// has held and its legal actions (a spectator's view, for `None`, has none of them);
    /// equal, as JSON, to the Python engine's.
    pub fn view(&self, seat: Option<usize>) -> View {
        let n = self.players();
        let sheet = &self.sheet;
        let tricks_of = |plays: &super::Plays, trump: Trump| -> Vec<Trick> {
            (0..plays.done())
                .map(|t| {
                    let cards = plays.trick_cards(t, n as u8);
                    let leader = plays.leader(t);
                    Trick {
                        plays: plays_view(super::Plays::seated(cards, leader, n as u8)),
                        winner: Some(i64::from(trick_winner(cards, leader, n as u8, trump))),
                    }
                })
                .collect()
        };
        let mut ledger = Vec::new();
        let mut scores = [super::START_SCORE; 3];
        let need = i16::from(quota(n as u8));
        for (r, row) in sheet.rows().enumerate() {
            for (side, &t) in row.iter().enumerate() {
                scores[side] -= i16::from(t) - need;
            }
            let sides: Vec<i64> = scores[..row.len()].iter().map(|&s| i64::from(s)).collect();
            ledger.push(LedgerRow {
                deal: r as i64 + 1,
                trump: TRUMP_NAMES[sheet.trump_of(r + 1) as usize].to_string(),
                dealer: i64::from(sheet.dealer_of(r + 1)),
                tricks: row.iter().map(|&t| i64::from(t)).collect(),
                total: sides.iter().sum(),
                scores: sides,
            });
        }
        let spare_of = |spare: CardSet| (n == 3).then(|| cards_view(spare));
        let previous_deal = match &self.previous {
            Previous::None => None,
            Previous::Deal {
                trump,
                plays,
                spare,
            } => Some(PreviousDeal {
                tricks: tricks_of(plays, *trump),
                spare: spare_of(*spare),
            }),
            Previous::Given(given) => Some(PreviousDeal {
                tricks: given
                    .tricks
                    .iter()
                    .map(|trick| {
                        let cards: Vec<Card> = trick.iter().map(|&(_, c)| c).collect();
                        Trick {
                            plays: plays_view(trick.iter().copied()),
                            winner: trick
                                .get(winning_place(&cards, given.trump))
                                .map(|p| i64::from(p.0)),
                        }
                    })
                    .collect(),
                spare: spare_of(given.spare),
            }),
        };
        let sequence = super::SEQUENCE_NAMES[sheet.sequence() as usize].to_string();
        let (hand, legal_actions) = views::own_part(self, seat, |s| self.hands[s]);
        let held = seat.filter(|_| n == 3).map(|seat| {
            let held = self.held_hands(seat);
            held.into_iter().map(cards_view).collect()
        });
        View {
            game: Self::NAME.to_string(),
            options: Rules {
                players: n as i64,
                trump_sequence: sequence.clone(),
                dealer_exchanges_first: self.dealer_first,
                tie_avoidance: self.tie_avoidance,
            },
            seat: seat.map(|s| s as i64),
            players: n as i64,
            deal_number: self.deal_number() as i64,
            dealer: self.dealer() as i64,
            trump: TRUMP_NAMES[self.trump as usize].to_string(),
            trump_sequence: sequence,
            phase: self.phase.name().to_string(),
            to_move: self.to_move().map(|s| s as i64),
            exchange_order: seats(self.deciding_order()),
            exchanges: self
                .decisions()
                .into_iter()
                .map(|(s, e)| Pair(s as i64, if e { "exchange" } else { "keep" }.to_string()))
                .collect(),
            quota: i64::from(quota(n as u8)),
            scores: self.scores().into_iter().map(i64::from).collect(),
            ledger,
            hand_sizes: views::hand_sizes(&self.hands[..n]),
            tricks_won: self.tricks_won().iter().map(|&t| i64::from(t)).collect(),
            trick: plays_view(self.current_trick().into_iter()),
            tricks: tricks_of(&self.plays, self.trump),
            previous_deal,
            winners: seats(self.winning_seats()),
            hand,
            held,
            legal_actions,
        }
    }

    /// Every 13-card hand `seat` has held this deal, in order (NEUF-9).
    pub fn held_hands(&self, seat: usize) -> Vec<CardSet> {
        let mut hands = self.piles;
        let mut held = vec![hands[seat]];
        if self.players() == 4 {
            return held;
        }
        let mut spare = hands[SPARE];
        for (s, exchanged) in self.decisions() {
            if exchanged {
                std::mem::swap(&mut hands[s], &mut spare);
                if s == seat {
                    held.push(hands[s]);
                }
            }
        }
        held
    }
}
