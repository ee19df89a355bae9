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
mod options;
mod plays;
mod position;
mod state;

pub use options::Options;
pub use state::{KnockoutWhist, Phase, Status, KNOCK, NUM_ACTIONS, TRUMP_BASE};

use crate::chance::Seed;
use crate::game::{ActionMask, Game, OptionError, OptionValue, PlayoutRng, Returns, Stacked};
use crate::notation::PositionError;

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
    fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        KnockoutWhist::random_action(self, rng)
    }
}
