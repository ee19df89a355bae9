//! The exact solver: the rest of the current deal with every card known (a sampled world
//! of [`crate::pimc`], or the true deal for a bot that sees every card), each legal action
//! of the seat to move valued by searching every line of play to the end of the deal.
//!
//! **What a seat plays for** is the deal's real stake: its side's tricks, each one a point
//! off its score (NEUF-5.2: the score changes by `-(t - 4)`; a partnership's two seats
//! share a team's, quota 6, NEUF-8.4). A value is the side's tricks over its quota this
//! deal, the tricks already taken included: the points its score falls by. Under the house
//! rule (NEUF-8.3) a trick that takes a player to 0 or below wins the game at once, which
//! is worth more than any count of tricks: that player's value is then one more than the
//! most tricks could give ([`WIN`]), and everyone else's one less than the fewest ([`LOSS`]).
//!
//! **Three players** are not a two-sided game, so the solver offers two models ([`Model`],
//! shared with Knockout Whist's solver):
//!
//! - **max-n**: every seat plays for its own tricks, a seat indifferent between cards
//!   playing the lowest. It cannot prune, and a whole 13-trick deal is far too big for it:
//!   it serves the last tricks of a deal.
//! - **paranoid**: the two others are one team out to hold the seat to move to as few
//!   tricks as they can: a two-sided zero-sum search on the trick count. Each legal action
//!   is valued by MTD(f), a series of null-window alpha-beta searches on the integer count
//!   (Plaat et al., 1996), through a table of bounds kept at trick starts.
//!
//! **Four players** (NEUF-8.4) are two partnerships, each seat playing for its team: that
//! is a two-sided zero-sum game, so max-n and paranoid (the other team against the seat's)
//! are the same search and give the same values.
//!
//! What prunes the paranoid tree (`tests::measure`, run by hand, shows what each buys):
//!
//! - **The table** keyed at trick starts by the hands and the leader (and, under the house
//!   rule, the tricks taken, on which crossing depends): the rest of the deal depends on
//!   nothing else. It stores bounds on the tricks still to come.
//! - **Equivalent cards**: two cards of a seat in one suit with no card between them in
//!   another hand or in the trick in progress win and lose exactly the same tricks, so only
//!   the lower is searched and the other gets its value.
//! - **Quick tricks**: at a trick start, the leader's sure winners (its cards above every
//!   other card of their suit, trumps first, side suits while no opponent can ruff them)
//!   bound its team's tricks from below, and the other team's from above; and a seat's
//!   trumps above every other seat's each take a trick whoever leads.
//! - **Move ordering**: a leader's sure winners first; a follower whose team holds the
//!   trick plays low, else the cheapest card that takes it.
//! - The last trick is played out without a search.
//!
//! **The exchange** (NEUF-3) is valued too, so that PIMC can decide it: EXCHANGE and KEEP
//! are each played, the seats deciding after the root decide by the guided policy's rule
//! (its estimate of their hands, no random share: none of them can see the spare), and the
//! deal's play is solved from the first lead.

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use super::ledger::{quota, TRICKS};
use super::local::Deal;
use super::{Neuf, Phase, EXCHANGE, KEEP, NO_TRUMP};
use crate::cards::{suit, Card, CardSet, SUIT_MASKS};
use crate::game::Game;
use crate::rollout::Draw;

pub use crate::knockout_whist::Model;

/// A value of winning the game at once under NEUF-8.3, in tricks: more than a deal holds.
pub const WIN: i32 = TRICKS as i32 + 1;
/// A value of losing the game at once under NEUF-8.3, in tricks: fewer than none.
pub const LOSS: i32 = -1;

/// Each legal action's value for the seat to move, and the nodes searched.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// `(action, value)` for every legal action, ascending: the side's tricks over its
    /// quota this deal (or [`WIN`] and [`LOSS`] less the quota under NEUF-8.3).
    pub values: Vec<(usize, f64)>,
    pub nodes: u64,
}

/// What the paranoid search uses, each on by default; off only to measure what it buys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Features {
    mtdf: bool,
    table: bool,
    merge: bool,
    quick: bool,
    order: bool,
}

const ALL: Features = Features {
    mtdf: true,
    table: true,
    merge: true,
    quick: true,
    order: true,
};

/// The table's key: what the rest of the deal depends on at the start of a trick.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    hands: [CardSet; 4],
    leader: u8,
    /// Tricks taken, four bits a seat, under the house rule only (NEUF-8.3).
    won: u16,
}

impl Key {
    fn of(deal: &Deal) -> Key {
        let won = if deal.house_rule() {
            deal.won
                .iter()
                .enumerate()
                .fold(0, |m, (s, &w)| m | u16::from(w) << (4 * s))
        } else {
            0
        };
        Key {
            hands: relative(&deal.hands),
            leader: deal.leader,
            won,
        }
    }
}

/// The hands with each suit's cards still held renumbered from the bottom: a card's rank
/// among those left is all that matters once the cards below and between are played, so
/// deals that differ only in which low cards went are one entry.
fn relative(hands: &[CardSet; 4]) -> [CardSet; 4] {
    let mut out = [0; 4];
    let held = hands.iter().fold(0, |m, &h| m | h);
    for (s, &mask) in SUIT_MASKS.iter().enumerate() {
        let mut rest = held & mask;
        let mut next = 13 * s as u32;
        while rest != 0 {
            let card = rest & rest.wrapping_neg();
            rest ^= card;
            for (o, &h) in out.iter_mut().zip(hands) {
                if h & card != 0 {
                    *o |= 1 << next;
                }
            }
            next += 1;
        }
    }
    out
}

/// Every seat's utility: tricks still to come for its side (the tricks so far left out).
type Vector = [i32; 4];

struct Solver {
    /// The seats whose tricks the paranoid search maximises: the root's side.
    side: u8,
    /// Each seat's side, as a mask of seats.
    teams: [u8; 4],
    features: Features,
    /// Bounds on the root side's tricks to come, at trick starts.
    paranoid: HashMap<Key, (i8, i8), FxBuildHasher>,
    max_n: HashMap<Key, Vector, FxBuildHasher>,
    nodes: u64,
}

impl Neuf {
    /// Each legal action's value for the seat to move under `model`, with every hand (and
    /// the spare) as this state holds them; `None` when nobody is to move.
    pub fn solve(&self, model: Model) -> Option<Solution> {
        self.solve_with(model, ALL)
    }

    fn solve_with(&self, model: Model, features: Features) -> Option<Solution> {
        let root = self.to_move()?;
        let mut solver = Solver::new(self.players(), root, features);
        let values: Vec<(usize, i32)> = match self.phase {
            Phase::Exchange => [EXCHANGE, KEEP]
                .into_iter()
                .map(|action| (action, self.after_exchange(action, &mut solver, model)))
                .collect(),
            _ => {
                let deal = Deal::new(self);
                solver
                    .root_values(&deal, model)
                    .into_iter()
                    .map(|(card, value)| (usize::from(card), value))
                    .collect()
            }
        };
        let quota = f64::from(quota(self.sheet.players()));
        Some(Solution {
            values: values
                .into_iter()
                .map(|(a, v)| (a, f64::from(v) - quota))
                .collect(),
            nodes: solver.nodes,
        })
    }

    /// The root's side's tricks in the deal after `action` in the exchange, the later seats
    /// deciding by the guided policy's rule.
    fn after_exchange(&self, action: usize, solver: &mut Solver, model: Model) -> i32 {
        let mut state = self.clone();
        state.decide(action == EXCHANGE);
        while state.phase == Phase::Exchange {
            let choice = state.exchange_choice(&mut Unblurred);
            state.decide(choice == EXCHANGE);
        }
        let deal = Deal::new(&state);
        // The table carries over: its keys are whole positions, its values the same side's.
        solver.value(&deal, model)
    }
}

/// Draws that leave the exchange rule's estimate unblurred (its draw less ½ is added).
struct Unblurred;

impl Draw for Unblurred {
    fn draw(&mut self) -> f64 {
        0.5
    }
}

impl crate::pimc::Solve for Neuf {
    type Model = Model;

    fn solve_values(&self, model: Model) -> Option<Vec<(usize, f64)>> {
        self.solve(model).map(|solution| solution.values)
    }
}

impl Solver {
    fn new(players: usize, root: usize, features: Features) -> Solver {
        let teams: [u8; 4] = std::array::from_fn(|s| {
            if players == 4 {
                1 << s | 1 << ((s + 2) % 4)
            } else {
                1 << s
            }
        });
        Solver {
            side: teams[root],
            teams,
            features,
            paranoid: HashMap::with_hasher(FxBuildHasher),
            max_n: HashMap::with_hasher(FxBuildHasher),
            nodes: 0,
        }
    }

    /// Max-n's own search only where it differs from paranoid's: three players.
    fn two_sided(&self, deal: &Deal, model: Model) -> bool {
        model == Model::Paranoid || deal.players == 4
    }

    /// The side's tricks taken so far in `deal`.
    fn taken(&self, deal: &Deal, side: u8) -> i32 {
        (0..4)
            .filter(|&s| side >> s & 1 == 1)
            .map(|s| i32::from(deal.won[s]))
            .sum()
    }

    /// Each legal card's value for the seat to move: its side's tricks this deal.
    fn root_values(&mut self, deal: &Deal, model: Model) -> Vec<(Card, i32)> {
        let legal = deal.legal();
        let taken = self.taken(deal, self.side);
        let mut values: Vec<(Card, i32)> = Vec::new();
        let mut guess = 0;
        for card in self.moves(deal, false) {
            let mut child = *deal;
            let taker = child.play(card);
            let value = if self.two_sided(deal, model) {
                let gain = taker.map_or(0, |t| i32::from(self.side >> t & 1));
                let value = if self.features.mtdf {
                    self.mtdf(&child, gain, guess)
                } else {
                    gain + self.paranoid_after(&child, i32::MIN / 2, i32::MAX / 2)
                };
                guess = value;
                value
            } else {
                let root = deal.to_move as usize;
                let gains = self.gains(taker);
                gains[root] + self.max_n_after(&child)[root]
            };
            values.push((card, taken + value));
        }
        self.with_equivalents(values, deal, legal)
    }

    /// The root side's tricks this deal from `deal`, the root not necessarily to move.
    fn value(&mut self, deal: &Deal, model: Model) -> i32 {
        let taken = self.taken(deal, self.side);
        if self.two_sided(deal, model) {
            taken + self.mtdf(deal, 0, 0) // `deal` itself, nothing gained before it
        } else {
            let root = self.side.trailing_zeros() as usize;
            taken + self.max_n(deal)[root]
        }
    }

    /// MTD(f): the exact paranoid value `gain + child`, by null-window searches from
    /// `guess`, each narrowing the bounds.
    fn mtdf(&mut self, child: &Deal, gain: i32, guess: i32) -> i32 {
        let (mut lower, mut upper) = (i32::MIN / 2, i32::MAX / 2);
        let mut g = guess;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = gain + self.paranoid_after(child, beta - 1 - gain, beta - gain);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }

    /// Each seat's gain from a trick taken by `taker`, if one was.
    fn gains(&self, taker: Option<u8>) -> Vector {
        let mut gains = [0; 4];
        if let Some(t) = taker {
            for (s, g) in gains.iter_mut().enumerate() {
                *g = i32::from(self.teams[s] >> t & 1);
            }
        }
        gains
    }

    /// The root side's tricks to come after a card, the deal perhaps over.
    fn paranoid_after(&mut self, child: &Deal, alpha: i32, beta: i32) -> i32 {
        if let Some(crosser) = child.crossed {
            let total = if self.side >> crosser & 1 == 1 {
                WIN
            } else {
                LOSS
            };
            return total - self.taken(child, self.side);
        }
        if child.over() {
            return 0;
        }
        self.paranoid(child, alpha, beta)
    }

    /// Fail-soft alpha-beta on the paranoid tree: the root side's tricks to come, which
    /// its seats maximise and the others minimise.
    fn paranoid(&mut self, deal: &Deal, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let mut key = None;
        if deal.trick_len == 0 {
            if deal.left() == 1 {
                return self.last_trick(deal);
            }
            let (mut lower, mut upper) = if self.features.quick && !deal.house_rule() {
                self.quick(deal)
            } else {
                (i32::MIN / 2, i32::MAX / 2)
            };
            if self.features.table {
                let k = Key::of(deal);
                if let Some(&(lo, hi)) = self.paranoid.get(&k) {
                    lower = lower.max(i32::from(lo));
                    upper = upper.min(i32::from(hi));
                }
                key = Some(k);
            }
            if lower >= beta || lower == upper {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let maximising = self.side >> deal.to_move & 1 == 1;
        let mut best = if maximising { i32::MIN } else { i32::MAX };
        for card in self.moves(deal, self.features.order) {
            let mut child = *deal;
            let value = match child.play(card) {
                None => self.paranoid(&child, alpha, beta),
                Some(taker) => {
                    let gain = i32::from(self.side >> taker & 1);
                    gain + self.paranoid_after(&child, alpha - gain, beta - gain)
                }
            };
            if maximising {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        if let Some(key) = key {
            let bounds = self.paranoid.entry(key).or_insert((i8::MIN, i8::MAX));
            let value = best as i8;
            if best <= alpha0 {
                bounds.1 = bounds.1.min(value); // failed low: at most this
            } else if best >= beta0 {
                bounds.0 = bounds.0.max(value); // failed high: at least this
            } else {
                *bounds = (value, value);
            }
        }
        best
    }

    /// The last trick, every card forced: the root side's tricks from it.
    fn last_trick(&self, deal: &Deal) -> i32 {
        let mut last = *deal;
        loop {
            let card = last.hands[last.to_move as usize].trailing_zeros() as Card;
            if let Some(taker) = last.play(card) {
                if let Some(crosser) = last.crossed {
                    let total = if self.side >> crosser & 1 == 1 {
                        WIN
                    } else {
                        LOSS
                    };
                    // Tricks to come from `deal`, where the trick had not been taken.
                    return total - self.taken(deal, self.side);
                }
                return i32::from(self.side >> taker & 1);
            }
        }
    }

    /// Bounds on the root side's tricks to come at a trick start from the leader's sure
    /// tricks: at least them for its team, at most the rest for the other.
    fn quick(&self, deal: &Deal) -> (i32, i32) {
        let left = i32::from(deal.left());
        let leader = deal.leader;
        let ours = self.side >> leader & 1 == 1;
        let team = if ours {
            self.side
        } else {
            !self.side & ((1 << deal.players) - 1)
        };
        let sure = sure_tricks(deal, leader, team);
        let players = (1 << deal.players) - 1;
        if ours {
            (sure, left - trump_winners(deal, !self.side & players))
        } else {
            (trump_winners(deal, self.side), left - sure)
        }
    }

    /// Max-n's vector of every seat's tricks to come after a card, the deal perhaps over.
    fn max_n_after(&mut self, child: &Deal) -> Vector {
        if let Some(crosser) = child.crossed {
            let mut values = [0; 4];
            for (s, v) in values.iter_mut().enumerate() {
                let total = if s == usize::from(crosser) { WIN } else { LOSS };
                *v = total - self.taken(child, self.teams[s]);
            }
            return values;
        }
        if child.over() {
            return [0; 4];
        }
        self.max_n(child)
    }

    fn max_n(&mut self, deal: &Deal) -> Vector {
        self.nodes += 1;
        let key = (deal.trick_len == 0).then(|| Key::of(deal));
        if let Some(found) = key.and_then(|key| self.max_n.get(&key)) {
            return *found;
        }
        let mover = usize::from(deal.to_move);
        let mut best: Option<Vector> = None;
        for card in self.moves(deal, false) {
            let mut child = *deal;
            let taker = child.play(card);
            let gains = self.gains(taker);
            let mut value = self.max_n_after(&child);
            for (v, g) in value.iter_mut().zip(gains) {
                *v += g;
            }
            // Ties keep the lowest card, as a plain max-n search would.
            if best.is_none_or(|best| value[mover] > best[mover]) {
                best = Some(value);
            }
        }
        let best = best.expect("a seat to move holds a card");
        if let Some(key) = key {
            self.max_n.insert(key, best);
        }
        best
    }

    /// The cards searched for the seat to move: the legal ones with each run of
    /// equivalent cards reduced to its lowest, ascending or in the search's order.
    fn moves(&self, deal: &Deal, order: bool) -> Moves {
        let legal = deal.legal();
        let cards = if self.features.merge {
            representatives(deal, legal)
        } else {
            legal
        };
        let mut moves = Moves::default();
        let mut rest = cards;
        while rest != 0 {
            let card = rest.trailing_zeros() as Card;
            rest &= rest - 1;
            moves.push(card);
        }
        if order {
            moves.sort_by_key(self.priorities(deal));
        }
        moves
    }

    /// The order of the paranoid search, as a key per card (lower first).
    fn priorities(&self, deal: &Deal) -> impl Fn(Card) -> u16 {
        let trump = deal.trump;
        let trumps = if trump == NO_TRUMP {
            0
        } else {
            SUIT_MASKS[trump as usize]
        };
        let mover = deal.to_move;
        let team = self.teams_of_paranoid(mover);
        let others = (0..deal.players)
            .filter(|&s| s != mover)
            .fold(0, |m, s| m | deal.hands[s as usize]);
        // Cards of the other team's seats that could ruff a side-suit lead: any of theirs,
        // when they hold a trump.
        let ruffers: [CardSet; 4] = std::array::from_fn(|s| {
            if team >> s & 1 == 1 || deal.hands[s] & trumps == 0 {
                CardSet::MAX
            } else {
                deal.hands[s]
            }
        });
        let leading = deal.trick_len == 0;
        let best = (!leading).then(|| deal.best());
        let cheap = move |card: Card| -> u16 {
            // Side suits before trumps, low ranks first.
            let r = u16::from(card % 13);
            if suit(card) == trump {
                13 + r
            } else {
                r
            }
        };
        move |card: Card| -> u16 {
            let s = suit(card);
            match best {
                None => {
                    let mask = SUIT_MASKS[s as usize];
                    let master = others & mask & !((1 << card) - 1) == 0;
                    let ruffable = s != trump && ruffers.iter().any(|&h| h & mask == 0);
                    if master && !ruffable {
                        12 - u16::from(card % 13) // sure winners, from the top
                    } else {
                        32 + u16::from(card % 13)
                    }
                }
                Some((best_card, best_seat)) => {
                    if team >> best_seat & 1 == 1 {
                        return cheap(card);
                    }
                    let beats = (s == suit(best_card) && card > best_card)
                        || (s == trump && suit(best_card) != trump);
                    if beats {
                        cheap(card)
                    } else {
                        64 + cheap(card)
                    }
                }
            }
        }
    }

    /// The seats on `seat`'s side in the paranoid game: the root's side, or the others.
    fn teams_of_paranoid(&self, seat: u8) -> u8 {
        if self.side >> seat & 1 == 1 {
            self.side
        } else {
            !self.side & 0xF
        }
    }

    /// Every legal card with its value: an equivalent card gets its run's lowest card's.
    fn with_equivalents(
        &self,
        solved: Vec<(Card, i32)>,
        deal: &Deal,
        legal: CardSet,
    ) -> Vec<(Card, i32)> {
        let mut values = Vec::new();
        let mut run: Option<i32> = None;
        let mut solved = solved.into_iter().peekable();
        let mut rest = legal;
        while rest != 0 {
            let card = rest.trailing_zeros() as Card;
            rest &= rest - 1;
            if solved.peek().is_some_and(|&(c, _)| c == card) {
                let (_, value) = solved.next().expect("peeked");
                run = Some(value);
                values.push((card, value));
            } else {
                debug_assert!(representatives(deal, legal) >> card & 1 == 0);
                values.push((
                    card,
                    run.expect("an equivalent card follows its run's lowest"),
                ));
            }
        }
        values
    }
}

/// Up to 13 cards, on the stack.
#[derive(Default)]
struct Moves {
    cards: [Card; 13],
    len: u8,
}

impl Moves {
    fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    fn sort_by_key(&mut self, key: impl Fn(Card) -> u16) {
        self.cards[..self.len as usize].sort_unstable_by_key(|&c| key(c));
    }
}

impl IntoIterator for Moves {
    type Item = Card;
    type IntoIter = std::iter::Take<std::array::IntoIter<Card, 13>>;

    fn into_iter(self) -> Self::IntoIter {
        self.cards.into_iter().take(self.len as usize)
    }
}

/// The cards of `deal`'s other hands and of its trick in progress: a card of these between
/// two of the mover's cards of a suit makes them differ.
fn others(deal: &Deal) -> CardSet {
    let mover = deal.to_move as usize;
    let held = (0..4)
        .filter(|&s| s != mover)
        .fold(0, |m, s| m | deal.hands[s]);
    held | deal.trick_cards
}

/// The legal cards with each run of equivalent cards reduced to its lowest.
fn representatives(deal: &Deal, legal: CardSet) -> CardSet {
    let others = others(deal);
    let mut kept = 0;
    let mut previous: Option<Card> = None;
    let mut rest = legal;
    while rest != 0 {
        let card = rest.trailing_zeros() as Card;
        rest &= rest - 1;
        let equivalent = previous.is_some_and(|low| {
            let between = ((1 << card) - 1) & !((2 << low) - 1);
            suit(low) == suit(card) && others & between == 0
        });
        if !equivalent {
            kept |= 1 << card;
        }
        previous = Some(card);
    }
    kept
}

/// The tricks `team` surely takes whoever leads: a trump above every other seat's wins the
/// trick it is played to, and a seat plays one card a trick, so each of a seat's trumps
/// above all others' (only one seat holds any) is a trick (NEUF-4.3; every card is played
/// by the end of the deal, NEUF-4.4).
fn trump_winners(deal: &Deal, team: u8) -> i32 {
    if deal.trump == NO_TRUMP {
        return 0;
    }
    let trumps = SUIT_MASKS[deal.trump as usize];
    let held = deal.hands.iter().fold(0, |m, &h| m | h) & trumps;
    if held == 0 {
        return 0;
    }
    let top = 63 - held.leading_zeros();
    let holder = (0..deal.players)
        .find(|&s| deal.hands[s as usize] >> top & 1 == 1)
        .expect("a held trump has a holder");
    if team >> holder & 1 == 0 {
        return 0;
    }
    let mine = deal.hands[holder as usize] & trumps;
    let theirs = held & !mine;
    if theirs == 0 {
        return mine.count_ones() as i32;
    }
    let their_top = 63 - theirs.leading_zeros();
    (mine >> (their_top + 1)).count_ones() as i32
}

/// The tricks `leader`'s team surely takes from here, `leader` to lead: its cards above
/// every other card of their suit (masters), trumps first, which draw the trumps of every
/// opponent holding no more; then each side suit's masters while every opponent still
/// holding a trump must follow to them, one suit left part-cashed last.
fn sure_tricks(deal: &Deal, leader: u8, team: u8) -> i32 {
    let mine = deal.hands[leader as usize];
    let others = (0..deal.players)
        .filter(|&s| s != leader)
        .fold(0, |m, s| m | deal.hands[s as usize]);
    let masters = |s: u8| -> u32 {
        let mask = SUIT_MASKS[s as usize];
        let theirs = others & mask;
        let ours = mine & mask;
        if theirs == 0 {
            ours.count_ones()
        } else {
            let top = 63 - theirs.leading_zeros();
            (ours >> (top + 1)).count_ones()
        }
    };
    let trump = deal.trump;
    let (trump_masters, trumps) = if trump == NO_TRUMP {
        (0, 0)
    } else {
        (masters(trump), SUIT_MASKS[trump as usize])
    };
    // Opponents who keep a trump once the trump masters are cashed.
    let mut ruffers = [0; 3];
    let mut count = 0;
    for s in (0..deal.players).filter(|&s| team >> s & 1 == 0) {
        let hand = deal.hands[s as usize];
        if (hand & trumps).count_ones() > trump_masters {
            ruffers[count] = hand;
            count += 1;
        }
    }
    let ruffers = &ruffers[..count];
    let mut sure = trump_masters;
    let mut partial = 0;
    for s in (0..4).filter(|&s| s != trump) {
        let m = masters(s);
        if m == 0 {
            continue;
        }
        let safe = ruffers.iter().fold(m, |safe, &h| {
            safe.min((h & SUIT_MASKS[s as usize]).count_ones())
        });
        if safe == m {
            sure += m;
        } else {
            partial = partial.max(safe);
        }
    }
    (sure + partial) as i32
}

#[cfg(test)]
#[path = "solver_tests.rs"]
mod tests;
