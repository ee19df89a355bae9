//! Neuf (Nines) in the core: SPEC §1 (NEUF-1 … NEUF-11, decisions N-1 … N-9), equal step
//! for step to `cardtable.rules.neuf`.
//!
//! Three players each for themselves with a spare hand and an exchange, or four in two
//! partnerships (NEUF-8.4). A state is one flat value: hands and piles are `u64` card
//! sets, this deal's plays a fixed array, the score sheet and the deal before fixed arrays
//! too, so that cloning is a copy and playing a card touches no heap. Only decks stacked
//! for later deals sit behind an `Arc`.
//!
//! Action numbers (`docs/neuf.md`): `0 … 51` play the card of that index, `52` exchange,
//! `53` keep.

mod knowledge;
mod ledger;
mod local;
pub mod observation;
mod options;
mod position;
mod rollout;
mod rules;
mod solver;
mod tricks;
pub mod value;
mod view;

use std::sync::Arc;

use crate::cards::{card_text, parse_card, Card, CardSet};
use crate::chance::Seed;
use crate::game::{
    ActionError, ActionMask, Game, OptionError, OptionValue, PlayoutRng, Returns, Stacked,
};
use crate::notation::{action_words, PositionError};

pub use knowledge::Knowledge;
pub use ledger::{quota, winning_sides, Sheet, MAX_ROWS, START_SCORE, TRICKS};
pub use options::{trump_of, Options, Trump, NO_TRUMP, SEQUENCE_NAMES};
pub use solver::{Model, Solution, LOSS, WIN};
use tricks::Plays;
pub use view::View;

/// Take the current spare and put this hand down in its place (NEUF-3.2).
pub const EXCHANGE: usize = 52;
/// Keep this hand (NEUF-3.2).
pub const KEEP: usize = 53;
/// The number of distinct actions.
pub const NUM_ACTIONS: usize = 54;

/// What the seat to move is doing; deals and scoring happen inside [`Game::apply`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Exchange,
    Play,
    Over,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Exchange => "exchange",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// The deal before, shown once it is over (N-5): its trump, its tricks and its final spare.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Previous {
    None,
    /// A played deal, or a position's `previous` whose tricks are whole and clockwise.
    Deal {
        trump: Trump,
        plays: Plays,
        spare: CardSet,
    },
    /// A position's `previous` of any other shape: the parser takes any tricks there, and
    /// the position writes them back as they were read.
    Given(Arc<GivenPrevious>),
}

#[derive(Debug, PartialEq, Eq)]
struct GivenPrevious {
    trump: Trump,
    tricks: Vec<Vec<(u8, Card)>>,
    spare: CardSet,
}

/// A seat that is nobody: the game is over.
const NOBODY: u8 = u8::MAX;
/// The led suit while a trick is empty.
const NO_SUIT: u8 = 4;

/// A game of Neuf, as `cardtable.rules.neuf.state.NeufState`.
#[derive(Clone, Debug)]
pub struct Neuf {
    sheet: Sheet,
    dealer_first: bool,
    tie_avoidance: bool,
    phase: Phase,
    to_move: u8,
    trump: Trump,
    led: u8,
    /// The piles as dealt: each seat's, then (3 players) the spare's.
    piles: [CardSet; 4],
    hands: [CardSet; 4],
    /// The current spare; empty with 4 players.
    spare: CardSet,
    /// Exchange decisions made this deal; bit `k` is set when the `k`-th was an exchange.
    decided: u8,
    exchanged: u8,
    plays: Plays,
    tricks_won: [u8; 4],
    /// Tricks finished since this state was made (counting on past the deals), and the
    /// seat that took the last of them: what a step did, for whoever shows it.
    taken: u32,
    taker: u8,
    previous: Previous,
    seed: Seed,
    decks_drawn: u32,
    /// Decks stacked for the deals to come, from `stacked_next` on.
    stacked: Option<Arc<[Vec<Card>]>>,
    stacked_next: u32,
}

/// What a state shows, for callers that want facts rather than the position text.
impl Neuf {
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The cards `seat` holds now.
    #[inline]
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }

    /// The current spare (NEUF-3.2); empty with four players.
    #[inline]
    pub fn spare(&self) -> CardSet {
        self.spare
    }

    /// The pile dealt to `seat`, or (3 players) to the spare at index 3 (NEUF-2.3).
    #[inline]
    pub fn pile(&self, index: usize) -> CardSet {
        self.piles[index]
    }

    /// This deal's trump: a suit index, or [`NO_TRUMP`] (NEUF-2.1).
    #[inline]
    pub fn trump(&self) -> Trump {
        self.trump
    }

    /// This deal's dealer (NEUF-2.2).
    #[inline]
    pub fn dealer_seat(&self) -> usize {
        self.dealer() as usize
    }

    /// The seats in deciding order (NEUF-3.1, NEUF-8.2); none with four players.
    pub fn deciding_order(&self) -> Vec<usize> {
        let (order, len) = self.exchange_order();
        order[..len].iter().map(|&s| s as usize).collect()
    }

    /// The decisions so far: `(seat, exchanged)` in order.
    pub fn decisions(&self) -> Vec<(usize, bool)> {
        let (order, _) = self.exchange_order();
        (0..self.decided as usize)
            .map(|k| (order[k] as usize, self.exchanged >> k & 1 == 1))
            .collect()
    }

    /// The score sheet (NEUF-5.5).
    #[inline]
    pub fn sheet(&self) -> &Sheet {
        &self.sheet
    }

    /// Tricks each seat has taken this deal.
    #[inline]
    pub fn tricks_won(&self) -> &[u8] {
        &self.tricks_won[..self.players()]
    }

    /// This deal's finished tricks.
    #[inline]
    pub fn finished_tricks(&self) -> usize {
        self.plays.done()
    }

    /// The trick in progress: `(seat, card)` in playing order.
    pub fn current_trick(&self) -> Vec<(u8, Card)> {
        let n = self.sheet.players();
        let leader = self.plays.leader(self.plays.done());
        Plays::seated(self.plays.current_cards(n), leader, n).collect()
    }

    /// Each side's score: the sheet's, or once the game is over the final scores (which
    /// the house rule may have moved mid-deal, N-7).
    pub fn scores(&self) -> Vec<i16> {
        let sides = self.sheet.sides();
        if self.phase == Phase::Over {
            self.final_scores()[..sides].to_vec()
        } else {
            self.sheet.scores().to_vec()
        }
    }

    /// The winning seats once the game is over, ascending (NEUF-6, NEUF-8.4).
    pub fn winning_seats(&self) -> Vec<usize> {
        if self.phase != Phase::Over {
            return Vec::new();
        }
        let mask = self.winners();
        (0..self.players()).filter(|s| mask >> s & 1 == 1).collect()
    }
}

impl Game for Neuf {
    type Options = Options;
    const NAME: &'static str = "neuf";
    const NUM_ACTIONS: usize = NUM_ACTIONS;

    fn options(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
        options::read(pairs)
    }

    fn options_players(options: &Options) -> usize {
        options.players
    }

    fn options_dealer(options: &Options) -> Option<usize> {
        options.dealer
    }

    fn begin(
        options: &Options,
        seed: Seed,
        dealer: usize,
        stacked: Stacked,
    ) -> Result<Self, OptionError> {
        Neuf::begin(options, seed, dealer, stacked)
    }

    fn action_text(action: usize) -> String {
        match action {
            EXCHANGE => "exchange".into(),
            KEEP => "keep".into(),
            card => format!("play {}", card_text(card as Card)),
        }
    }

    fn parse_action(text: &str) -> Result<usize, ActionError> {
        let words = action_words(text);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["exchange"] => Ok(EXCHANGE),
            ["keep"] => Ok(KEEP),
            ["play", card] => Ok(usize::from(parse_card(card)?)),
            _ => Err(ActionError::Action(format!(
                "invalid neuf action {text:?}: expected 'exchange', 'keep' or 'play <card>'"
            ))),
        }
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        position::parse(options, text)
    }

    fn position(&self) -> String {
        position::format(self)
    }

    #[inline]
    fn players(&self) -> usize {
        self.sheet.players() as usize
    }

    #[inline]
    fn to_move(&self) -> Option<usize> {
        (self.phase != Phase::Over).then_some(self.to_move as usize)
    }

    #[inline]
    fn legal_mask(&self) -> ActionMask {
        match self.phase {
            Phase::Exchange => 1 << EXCHANGE | 1 << KEEP,
            Phase::Play => ActionMask::from(self.playable()),
            Phase::Over => 0,
        }
    }

    #[inline]
    fn apply(&mut self, action: usize) {
        if action >= EXCHANGE {
            self.decide(action == EXCHANGE);
        } else {
            self.play(action as Card);
        }
    }

    fn returns(&self) -> Option<Returns> {
        (self.phase == Phase::Over).then(|| self.final_returns())
    }

    #[inline]
    fn chances_drawn(&self) -> (u64, u64) {
        (u64::from(self.decks_drawn), 0)
    }

    fn tricks_taken(&self) -> (u32, Option<usize>) {
        (
            self.taken,
            (self.taker != NOBODY).then_some(usize::from(self.taker)),
        )
    }

    fn set_tricks_taken(&mut self, count: u32, taker: Option<usize>) {
        self.taken = count;
        self.taker = taker.map_or(NOBODY, |seat| seat as u8);
    }

    fn chances_stacked(&self) -> (usize, usize) {
        (self.stacked_left().len(), 0)
    }

    fn stack_deck(&mut self, deck: Vec<Card>) -> Result<(), OptionError> {
        self.stack_deck(deck)
    }

    #[inline]
    fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        self.random_legal(rng)
    }
}

/// The determinizer of search (NEUF-9): see [`knowledge`].
impl crate::game::Determinize for Neuf {
    type Knowledge = Knowledge;

    fn knowledge(
        options: &Options,
        view: &serde_json::Value,
    ) -> Result<Knowledge, crate::notation::PositionError> {
        knowledge::read(options, view)
    }

    fn knower(knowledge: &Knowledge) -> usize {
        knowledge::knower(knowledge)
    }

    #[inline]
    fn sample(knowledge: &Knowledge, rng: &mut PlayoutRng) -> Self {
        knowledge::sample(knowledge, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_small_and_copies_without_the_heap() {
        // Everything but the stacked decks is inline: a clone is one copy.
        assert!(
            std::mem::size_of::<Neuf>() <= 512,
            "{}",
            std::mem::size_of::<Neuf>()
        );
    }
}
