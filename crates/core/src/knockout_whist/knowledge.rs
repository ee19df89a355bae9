//! What one seat knows of a Knockout Whist game, as a sampler of full states (KOW-9): the
//! port of `cardtable.rules.knockout_whist.knowledge`, sampling from the same distribution.
//!
//! [`Knowledge`] reads a seat's view once and keeps a template state holding everything
//! public: statuses, trumps, the turned card (hand 1), the cut cards (W-2), every card
//! played and every knock, this hand's tricks and the previous hand's, and the seat's own
//! hand. [`Knowledge::sample`] then deals only what the seat cannot see: the other hands
//! and the undealt remainder (the stock).
//!
//! Play reveals voids and nothing more: a player who did not follow the led suit in the
//! current hand holds none of it (KOW-4.2). A dog's knock reveals nothing (KOW-6.3), and
//! voids of earlier hands say nothing, because every hand is a fresh deal (KOW-5.5).
//!
//! The stock's order never matters once a hand is dealt (the cut of W-2 follows the deal
//! and the next hand is dealt from a new deck), so the sampler picks which unseen cards the
//! other hands hold and lists the rest as the stock in index order, as Python does.
//!
//! Seats with voids are dealt first, the one with the least slack first, each taking a
//! uniformly random set of the cards it may still hold; the other seats then draw from
//! what is left, and the stock takes the rest. With no void, or one seat with voids, every
//! deal consistent with the view is equally likely; with several such seats the deal is
//! close to that, not exactly: the same procedure as Python's, so the same distribution.

use rand::Rng;
use serde_json::Value;

use crate::cards::{bit, cards, parse_card, suit, Card, CardSet, FULL_PACK, SUIT_MASKS};
use crate::game::{PlayoutRng, MAX_PLAYERS};
use crate::notation::PositionError;
use crate::views::{self, Pair};

use super::options::{Options, NAME};
use super::plays::{Play, Rounds, KNOCKED};
use super::state::{KnockoutWhist, Phase, Status, HANDS, NONE};
use super::view::{PlayView, Trick, View};

/// A sample whose void-respecting deal reaches a dead end starts again; the view is
/// checked to be dealable (Hall's condition) up front, so this only bounds bad luck.
const ATTEMPTS: usize = 10_000;

type Plays = Vec<(u8, Card)>;

/// A seat's knowledge of a Knockout Whist game, built from its view alone.
#[derive(Clone, Debug)]
pub struct Knowledge {
    seat: u8,
    /// Everything public and the seat's own hand; the other hands are empty, the stock
    /// is empty, the seed is a placeholder.
    template: KnockoutWhist,
    /// Seats with voids: (seat, hand size, the unseen cards it may hold), least slack
    /// first.
    voided: [(u8, u8, CardSet); MAX_PLAYERS],
    voided_len: u8,
    /// The other seats holding cards: (seat, hand size).
    free: [(u8, u8); MAX_PLAYERS],
    free_len: u8,
    /// The cards the seat cannot see.
    pool: CardSet,
    /// Cut cards shuffled back into the remainder and not cut again (W-2): in the stock,
    /// known to everyone.
    public_stock: CardSet,
}

impl Knowledge {
    /// Reads a seat's view as `KnockoutWhistKnowledge.__init__` does, with its checks.
    pub fn new(options: &Options, view: &Value) -> Result<Knowledge, PositionError> {
        read(options, view)
    }

    pub fn seat(&self) -> usize {
        usize::from(self.seat)
    }

    /// A full state the seat could not tell from the real one (KOW-9), with a fresh seed,
    /// no stacked decks, and one deck drawn per hand so far.
    pub fn sample(&self, rng: &mut PlayoutRng) -> KnockoutWhist {
        let mut hands = self.template.hands;
        let mut taken: CardSet = 0;
        let voided = &self.voided[..usize::from(self.voided_len)];
        let mut dealt = voided.is_empty();
        for _ in 0..ATTEMPTS {
            if dealt {
                break;
            }
            taken = 0;
            dealt = true;
            for &(s, size, allowed) in voided {
                let mut pile = [0; 52];
                let m = fill(&mut pile, allowed & !taken);
                let size = usize::from(size);
                if m < size {
                    dealt = false;
                    break;
                }
                let mask = draw(&mut pile[..m], 0, size, rng);
                hands[usize::from(s)] = mask;
                taken |= mask;
            }
        }
        assert!(
            dealt,
            "no deal found for the voids the view shows (KOW-4.2)"
        );
        if self.free_len > 0 {
            // A partial Fisher-Yates shuffle: only the cards the free seats get are drawn.
            let mut pile = [0; 52];
            let m = fill(&mut pile, self.pool & !taken);
            let mut end = 0;
            for &(s, size) in &self.free[..usize::from(self.free_len)] {
                let start = end;
                end += usize::from(size);
                let mask = draw(&mut pile[..m], start, end, rng);
                hands[usize::from(s)] = mask;
                taken |= mask;
            }
        }
        let mut state = self.template.clone();
        state.hands = hands;
        let mut len = 0;
        for c in cards(self.pool & !taken).chain(cards(self.public_stock)) {
            state.stock[len] = c;
            len += 1;
        }
        state.stock_start = 0;
        state.stock_end = len as u8;
        // Python's `rng.getrandbits(63)`.
        state.seed = i128::from(rng.random::<u64>() >> 1);
        state
    }
}

/// Lists `set`'s cards in index order at the front of `pile`; returns how many.
#[inline]
fn fill(pile: &mut [Card; 52], set: CardSet) -> usize {
    let mut m = 0;
    for c in cards(set) {
        pile[m] = c;
        m += 1;
    }
    m
}

/// Steps `start..end` of a Fisher-Yates shuffle of `pile`: the cards drawn, as a set.
#[inline]
fn draw(pile: &mut [Card], start: usize, end: usize, rng: &mut PlayoutRng) -> CardSet {
    let m = pile.len();
    let mut mask = 0;
    for i in start..end {
        let j = i + rng.random_range(0..m - i);
        pile.swap(i, j);
        mask |= bit(pile[i]);
    }
    mask
}

// Reading the view -------------------------------------------------------------------------

fn fail<T>(message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError(message.into()))
}

fn shape<T>(what: &str) -> Result<T, PositionError> {
    fail(format!("not a knockout-whist seat's view: {what}"))
}

fn small(n: i64, what: &str, most: i64) -> Result<u8, PositionError> {
    if !(0..=most).contains(&n) {
        return shape(&format!("{what} is {n}, outside 0-{most}"));
    }
    Ok(n as u8)
}

/// A seat of the game (`_seat`).
fn seat_of(s: i64, n: usize) -> Result<u8, PositionError> {
    match usize::try_from(s) {
        Ok(seat) if seat < n => Ok(seat as u8),
        _ => fail(format!("expected a seat 0-{}, not {s}", n - 1)),
    }
}

fn optional_seat(s: Option<i64>, n: usize) -> Result<u8, PositionError> {
    s.map_or(Ok(NONE), |s| seat_of(s, n))
}

fn card_of(text: &str) -> Result<Card, PositionError> {
    parse_card(text)
        .map_err(|e| PositionError(format!("a knockout-whist view with a bad card: {}", e.0)))
}

fn suit_of(text: &str) -> Result<u8, PositionError> {
    match text {
        "C" => Ok(0),
        "D" => Ok(1),
        "H" => Ok(2),
        "S" => Ok(3),
        _ => shape(&format!("{text:?} is not a suit")),
    }
}

/// A trick as the view writes it (`[[seat, "7D"], [seat, "knock"]]`).
fn plays_of(plays: &[PlayView], n: usize) -> Result<Plays, PositionError> {
    plays
        .iter()
        .map(|Pair(seat, card)| {
            let seat = small(*seat, "a play's seat", n as i64 - 1)?;
            let card = if card == "knock" {
                KNOCKED
            } else {
                card_of(card)?
            };
            Ok((seat, card))
        })
        .collect()
}

fn tricks_of(tricks: &[Trick], n: usize) -> Result<Vec<Plays>, PositionError> {
    tricks.iter().map(|t| plays_of(&t.plays, n)).collect()
}

fn rounds<const N: usize>(groups: &[Plays]) -> Rounds<N> {
    let mut rounds = Rounds::default();
    for group in groups {
        for &(seat, card) in group {
            rounds.push(Play { seat, card });
        }
        rounds.close();
    }
    rounds
}

fn read(options: &Options, value: &Value) -> Result<Knowledge, PositionError> {
    let n = options.players;
    // Which game, table and seat the view is of comes first, so that another game's view,
    // another table's or a spectator's is refused as such rather than for its shape.
    if value.get("game").and_then(Value::as_str) != Some(NAME)
        || value.get("players").and_then(Value::as_u64) != Some(n as u64)
    {
        return fail(format!("not a view of {NAME} for {n} players"));
    }
    let rules = serde_json::json!({ "players": n });
    match value.get("options") {
        None => return shape("it has no 'options'"),
        Some(given) if *given != rules => {
            return fail(format!("a view of {given}, not of {rules}"));
        }
        Some(_) => {}
    }
    let seat = value
        .get("seat")
        .and_then(Value::as_u64)
        .filter(|&s| (s as usize) < n);
    let (Some(seat), Some(_)) = (seat, value.get("hand")) else {
        return fail("a determinizer needs a seat's view, not a spectator's");
    };
    let seat = seat as usize;
    let view: View = views::read(value).or_else(|why| shape(&why))?;
    let hand = view.hand.as_deref().unwrap_or_default();

    let mut status = [Status::Active; MAX_PLAYERS];
    for (slot, name) in status.iter_mut().zip(&view.statuses) {
        *slot = match name.as_str() {
            "active" => Status::Active,
            "dog" => Status::Dog,
            "out" => Status::Out,
            _ => return shape(&format!("{name:?} is not a status")),
        };
    }
    let mut sizes = [0u8; MAX_PLAYERS];
    for (slot, &size) in sizes.iter_mut().zip(&view.hand_sizes) {
        *slot = small(size, "a hand size", 52)?;
    }
    let phase = match view.phase.as_str() {
        "trump" => Some(Phase::Trump),
        "play" => Some(Phase::Play),
        "over" => Some(Phase::Over),
        _ => None,
    };
    let fits = view.statuses.len() == n && view.hand_sizes.len() == n;
    let Some(phase) = phase.filter(|_| fits) else {
        return fail("statuses, hand sizes or phase do not fit the game");
    };
    let hand_no = view.hand_number;
    if !(1..=i64::from(HANDS)).contains(&hand_no) {
        return fail(format!("there is no hand {hand_no} (KOW-2.2)"));
    }
    let hand_no = hand_no as u8;

    let mut state = KnockoutWhist::blank(n as u8, 0);
    state.hand_no = hand_no;
    state.dealer = seat_of(view.dealer, n)?;
    state.phase = phase;
    state.to_move = optional_seat(view.to_move, n)?;
    state.chooser = optional_seat(view.chooser, n)?;
    state.dog_used = view.dog_used;
    state.trump = match &view.trump {
        None => NONE,
        Some(text) => suit_of(text)?,
    };
    state.status = status;
    if view.eliminated.len() > state.eliminated.len() {
        return shape("more seats went out than there are");
    }
    for (i, &Pair(s, h)) in view.eliminated.iter().enumerate() {
        state.eliminated[i] = (
            small(s, "an eliminated seat", n as i64 - 1)?,
            small(h, "an elimination's hand", 255)?,
        );
    }
    state.eliminated_len = view.eliminated.len() as u8;
    state.dealt_in = (0..n)
        .filter(|&s| status[s] != Status::Out || state.eliminated().contains(&(s as u8, hand_no)))
        .fold(0, |m, s| m | 1 << s);
    if view.tricks_won.len() != n {
        return shape("tricks won do not fit the game");
    }
    for (slot, &w) in state.tricks_won.iter_mut().zip(&view.tricks_won) {
        *slot = u32::from(small(w, "a trick count", 255)?);
    }
    let cuts = view
        .cuts
        .iter()
        .map(|round| plays_of(round, n))
        .collect::<Result<Vec<_>, _>>()?;
    if cuts.iter().flatten().any(|&(_, c)| c == KNOCKED) {
        return fail("a knockout-whist view with a bad card: a knock among the cuts");
    }
    let done = tricks_of(&view.tricks, n)?;
    let trick = plays_of(&view.trick, n)?;
    if let Some(previous) = &view.previous_hand {
        state.previous_trump = suit_of(&previous.trump)?;
        state.previous = rounds(&tricks_of(&previous.tricks, n)?);
    }
    let mut own: CardSet = 0;
    for c in hand {
        own |= bit(card_of(c)?);
    }
    let own_count = own.count_ones() as usize;
    if own_count != hand.len() || own_count != usize::from(sizes[seat]) {
        return fail(format!("seat {seat}'s hand does not match its hand size"));
    }
    state.hands[seat] = own;

    let mut played: CardSet = 0;
    let mut count = 0;
    let mut per_seat = [0u8; MAX_PLAYERS];
    for &(s, c) in done.iter().flatten().chain(&trick) {
        if c != KNOCKED {
            played |= bit(c);
            count += 1;
            per_seat[usize::from(s)] += 1;
        }
    }
    state.turned = match &view.turned {
        None => NONE,
        Some(text) => card_of(text)?,
    };
    let turned = state.turned != NONE;
    let seen = own | played | if turned { bit(state.turned) } else { 0 };
    let cut_cards = cuts.iter().flatten().fold(0, |m, &(_, c)| m | bit(c));
    if seen.count_ones() as usize != own_count + count + usize::from(turned)
        || seen & cut_cards != 0
    {
        return fail("a card is shown in two places");
    }
    if phase != Phase::Over {
        // KOW-2.2: what a seat holds and has played this hand is its share of the deal.
        for s in 0..n {
            let share = match status[s] {
                Status::Active => HANDS + 1 - hand_no,
                Status::Dog => 1,
                Status::Out => 0,
            };
            if usize::from(sizes[s]) + usize::from(per_seat[s]) != usize::from(share) {
                return fail(format!("seat {s}'s hand size does not fit KOW-2.2"));
            }
        }
    }
    let total: usize = sizes[..n].iter().map(|&s| usize::from(s)).sum();
    let (public_stock, reshuffles) = read_cuts(&cuts, total, count, turned, cut_cards)?;
    let pool = FULL_PACK & !seen & !cut_cards;

    state.cuts = rounds(&cuts);
    state.plays = rounds(&done);
    state.done = done.len() as u32;
    state.trick_start = state.plays.len();
    for &(seat, card) in &trick {
        let play = Play { seat, card };
        state.plays.push(play);
        state.acted |= 1 << seat;
        if card != KNOCKED && state.led_suit == NONE {
            state.led_suit = suit(card);
        }
        state.consider_for_trick(play);
    }
    state.holders = (0..n).filter(|&s| sizes[s] > 0).fold(0, |m, s| m | 1 << s);
    // One deck a hand so far; the counters only name the seed's chance streams, and the
    // seed is new, but a reshuffle this hand must be counted (KOW-11.1).
    state.decks_drawn = u64::from(hand_no);
    state.reshuffles_drawn = reshuffles;

    let mut knowledge = Knowledge {
        seat: seat as u8,
        template: state,
        voided: [(0, 0, 0); MAX_PLAYERS],
        voided_len: 0,
        free: [(0, 0); MAX_PLAYERS],
        free_len: 0,
        pool,
        public_stock,
    };
    read_voids(&mut knowledge, &sizes[..n], &done, &trick)?;
    if total - usize::from(sizes[seat]) > pool.count_ones() as usize {
        return fail("the view's card counts do not add up to the pack");
    }
    Ok(knowledge)
}

/// Follows the cut of W-2 to learn which cut cards went back into the stock: when the
/// remainder ran out, the cards set aside so far were shuffled in as the new remainder,
/// and those not cut again stay there, known to everyone. Returns them and the number of
/// reshuffles.
fn read_cuts(
    cuts: &[Plays],
    sizes: usize,
    played: usize,
    turned: bool,
    cut_cards: CardSet,
) -> Result<(CardSet, u64), PositionError> {
    let mut remainder = 52 - sizes as i64 - played as i64 - i64::from(turned);
    let mut aside: Vec<Card> = Vec::new();
    let mut reshuffles = 0;
    for round in cuts {
        if remainder < round.len() as i64 {
            remainder += aside.len() as i64;
            aside.clear();
            reshuffles += 1;
        }
        remainder -= round.len() as i64;
        aside.extend(round.iter().map(|&(_, c)| c));
    }
    let aside_set = aside.iter().fold(0, |m: CardSet, &c| m | bit(c));
    if remainder < 0 || aside_set.count_ones() as usize != aside.len() {
        return fail("the cut cards do not fit the remainder (W-2)");
    }
    Ok((cut_cards & !aside_set, reshuffles))
}

/// KOW-4.2: a seat that played another suit to a trick of this hand is void in the suit
/// led. Seats with voids are dealt first, the most constrained first.
fn read_voids(
    knowledge: &mut Knowledge,
    sizes: &[u8],
    done: &[Plays],
    trick: &Plays,
) -> Result<(), PositionError> {
    let mut barred = [0 as CardSet; MAX_PLAYERS];
    for t in done.iter().chain(std::iter::once(trick)) {
        let Some(led) = t
            .iter()
            .find(|&&(_, c)| c != KNOCKED)
            .map(|&(_, c)| suit(c))
        else {
            continue;
        };
        for &(s, c) in t {
            if c != KNOCKED && suit(c) != led {
                barred[usize::from(s)] |= SUIT_MASKS[usize::from(led)];
            }
        }
    }
    let pool = knowledge.pool;
    let mut voided = Vec::new();
    for (s, &size) in sizes.iter().enumerate() {
        if s == knowledge.seat() || size == 0 {
            continue;
        }
        if barred[s] & pool != 0 {
            voided.push((s as u8, size, pool & !barred[s]));
        } else {
            knowledge.free[usize::from(knowledge.free_len)] = (s as u8, size);
            knowledge.free_len += 1;
        }
    }
    // A stable sort, as Python's: ties keep seat order.
    voided.sort_by_key(|&(_, size, may_hold): &(u8, u8, CardSet)| {
        i64::from(may_hold.count_ones()) - i64::from(size)
    });
    // Hall's condition: every group of void seats can be filled from the cards some of
    // them may hold (the stock and the other seats take anything). Then a deal always
    // exists, and sample() finds one however its random choices fall.
    for group in 1u32..1 << voided.len() {
        let (mut room, mut need) = (0 as CardSet, 0usize);
        for (i, &(_, size, may_hold)) in voided.iter().enumerate() {
            if group >> i & 1 == 1 {
                room |= may_hold;
                need += usize::from(size);
            }
        }
        if (room.count_ones() as usize) < need {
            return fail("no deal fits the voids the view shows (KOW-4.2)");
        }
    }
    for (slot, &entry) in knowledge.voided.iter_mut().zip(&voided) {
        *slot = entry;
    }
    knowledge.voided_len = voided.len() as u8;
    Ok(())
}
