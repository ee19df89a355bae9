//! Knockout Whist (SPEC §3) in the core, equal step for step to
//! `cardtable.rules.knockout_whist`: the same seat to move, legal action numbers, position
//! text, returns and seeded deals.
//!
//! Action numbers (`docs/knockout-whist.md`):
//!
//! ```text
//!  0 … 51   play <card>     card index: suit * 13 + rank - 2, suits C D H S
//! 52 … 55   trump <suit>    C, D, H, S
//! 56        knock           a dog keeps its card for a later trick (KOW-6.3)
//! ```
//!
//! With the cargo feature `broken-rule`, a dog may knock on the last trick too, against
//! W-3: the differential tests must catch it.

mod deal;
mod inference;
mod knowledge;
pub mod observation;
mod options;
mod plays;
mod position;
pub mod prior;
mod rollout;
mod solver;
mod stacks;
mod state;
pub mod values;
mod view;

pub use knowledge::Knowledge;
pub use options::Options;
pub use rollout::DOG_CHANCE;
pub use solver::{Model, Solution, TRICK_BONUS};
pub use state::{KnockoutWhist, Phase, Status, KNOCK, NUM_ACTIONS, TRUMP_BASE};
pub use view::View;

use crate::cards::{card_text, parse_card, parse_suit, Card, SUIT_LETTERS};
use crate::chance::Seed;
use crate::game::{
    ActionError, ActionMask, Game, OptionError, OptionValue, PlayoutRng, Returns, Stacked,
};
use crate::notation::{action_words, PositionError};

impl Game for KnockoutWhist {
    type Options = Options;
    const NAME: &'static str = options::NAME;
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
        KnockoutWhist::begin(options, seed, dealer, stacked)
    }

    fn action_text(action: usize) -> String {
        match action {
            KNOCK => "knock".into(),
            TRUMP_BASE.. => format!("trump {}", SUIT_LETTERS[action - TRUMP_BASE]),
            card => format!("play {}", card_text(card as Card)),
        }
    }

    fn parse_action(text: &str) -> Result<usize, ActionError> {
        let words = action_words(text);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words.as_slice() {
            ["knock"] => Ok(KNOCK),
            // "lead" is accepted for the examples' LEAD(c); it is the same action as play.
            ["play" | "lead", card] => Ok(usize::from(parse_card(card)?)),
            ["trump", suit] => parse_suit(suit)
                .map(|s| TRUMP_BASE + usize::from(s))
                .ok_or_else(|| {
                    ActionError::Card(format!(
                        "unknown suit {suit:?}: expected one of C, D, H, S (or ♣ ♦ ♥ ♠)"
                    ))
                }),
            _ => Err(ActionError::Action(format!(
                "invalid knockout-whist action {text:?}: expected 'play <card>', \
                 'trump <C/D/H/S>' or 'knock'"
            ))),
        }
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        position::parse(options, text)
    }

    fn position(&self) -> String {
        position::format(self)
    }

    fn players(&self) -> usize {
        self.n()
    }

    #[inline]
    fn to_move(&self) -> Option<usize> {
        KnockoutWhist::to_move(self)
    }

    #[inline]
    fn legal_mask(&self) -> ActionMask {
        KnockoutWhist::legal_mask(self)
    }

    #[inline]
    fn apply(&mut self, action: usize) {
        KnockoutWhist::apply(self, action);
    }

    fn returns(&self) -> Option<Returns> {
        KnockoutWhist::returns(self)
    }

    #[inline]
    fn chances_drawn(&self) -> (u64, u64) {
        (self.decks_drawn, self.reshuffles_drawn)
    }

    fn chances_stacked(&self) -> (usize, usize) {
        KnockoutWhist::chances_stacked(self)
    }

    fn tricks_taken(&self) -> (u32, Option<usize>) {
        (
            self.taken,
            (self.taker != state::NONE).then_some(usize::from(self.taker)),
        )
    }

    fn set_tricks_taken(&mut self, count: u32, taker: Option<usize>) {
        self.taken = count;
        self.taker = taker.map_or(state::NONE, |seat| seat as u8);
    }

    fn stack_reshuffle(&mut self, order: Vec<Card>) -> Result<(), OptionError> {
        KnockoutWhist::stack_reshuffle(self, order)
    }

    fn stack_deck(&mut self, deck: Vec<Card>) -> Result<(), OptionError> {
        KnockoutWhist::stack_deck(self, deck)
    }

    #[inline]
    fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        KnockoutWhist::random_action(self, rng)
    }
}

/// The determinizer of search: `knowledge.rs`, the port of `knowledge.py` (KOW-9).
impl crate::game::Determinize for KnockoutWhist {
    type Knowledge = Knowledge;

    fn knowledge(options: &Options, view: &serde_json::Value) -> Result<Knowledge, PositionError> {
        Knowledge::new(options, view)
    }

    fn knower(knowledge: &Knowledge) -> usize {
        knowledge.seat()
    }

    fn sample(knowledge: &Knowledge, rng: &mut PlayoutRng) -> Self {
        knowledge.sample(rng)
    }

    fn log_likelihood(&self, knower: usize, inference: &crate::inference::Inference) -> f64 {
        KnockoutWhist::log_likelihood(self, knower, inference)
    }
}
