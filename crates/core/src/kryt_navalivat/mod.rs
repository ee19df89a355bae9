//! Kryt'-navalivat' in the core: one hand (SPEC §2, KRYT-1 … KRYT-11, decisions K-1 …
//! K-15), step for step as `cardtable.rules.kryt_navalivat.state.KrytNavalivatState`.
//!
//! A beat is two actions, `beat <card>` then the same player's `cover <card>` (KRYT-4.6);
//! drawing, going out and the end of the hand happen after the turn, in KRYT-10's order.
//! Action numbers, with a card's number `suit * 9 + rank - 6` (suits C D H S):
//!
//! ```text
//!   0 …  35   lead <card>    on an empty pile, or the free card of KRYT-4.3
//!  36 …  71   beat <card>    beat the top card (KRYT-3)
//!  72 … 107   cover <card>   the card on top of one's own beat (KRYT-4.2a)
//! 108         take           pick up from the pile (KRYT-5)
//! 109         swap           the six of trumps for the turned card (KRYT-6)
//! ```

pub mod beating;
mod knowledge;
pub mod observation;
mod options;
mod position;
mod rollout;
mod solver;
mod state;
mod view;

use crate::cards::{Card, CardSet};
use crate::chance::Seed;
use crate::game::{
    ActionError, ActionMask, Game, OptionError, OptionValue, PlayoutRng, Returns, Stacked,
};
use crate::notation::PositionError;

pub use knowledge::Knowledge;
pub use options::{Options, TrumpMode};
pub use solver::{Model, Solution, Unsolvable, HORIZON};
pub use state::{action_text, parse_action};
pub use view::View;

/// The first lead action (`lead 6C`).
pub const LEAD: usize = 0;
/// The first beat action (`beat 6C`).
pub const BEAT: usize = 36;
/// The first cover action (`cover 6C`).
pub const COVER: usize = 72;
/// Pick up from the pile.
pub const TAKE: usize = 108;
/// Swap the six of trumps for the turned card.
pub const SWAP: usize = 109;
/// Cards held after drawing (KRYT-2.3, KRYT-4.4).
pub const HAND_SIZE: u32 = 3;
/// The most seats (K-2).
pub const MAX_SEATS: usize = 6;
/// "No card", "no seat".
const NONE: u8 = u8::MAX;

/// The turn modes of KRYT-4 and KRYT-10; `Cover` is the two-step engine's row between a
/// beat and its cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Lead,
    Respond,
    Cover,
    Free,
    Over,
}

impl Mode {
    /// Every mode, in the order of Python's `MODES`.
    pub const ALL: [Mode; 5] = [
        Mode::Lead,
        Mode::Respond,
        Mode::Cover,
        Mode::Free,
        Mode::Over,
    ];

    /// The mode's name in positions and views.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Lead => "lead",
            Mode::Respond => "respond",
            Mode::Cover => "cover",
            Mode::Free => "free",
            Mode::Over => "over",
        }
    }
}

/// A hand of Kryt'-navalivat' in progress: a flat, heap-free value, so a clone is one copy.
#[derive(Clone, Debug)]
pub struct KrytNavalivat {
    hands: [CardSet; MAX_SEATS],
    /// Per seat, the cards everybody knows it holds (K-10).
    known: [CardSet; MAX_SEATS],
    seed: Seed,
    /// The pile from the front, bottom first, and the face-down stock at the back, its top
    /// at `36 - stock_len`: a card lies in one place at most, so the two never meet.
    table: [Card; 36],
    pile_len: u8,
    stock_len: u8,
    /// The turned trump card while it lies under the stock, else [`NONE`].
    faceup: Card,
    players: u8,
    dealer: u8,
    trump: u8,
    /// Spades in the permanent mode, else [`beating::NO_SUIT`].
    anti: u8,
    mode: Mode,
    to_move: u8,
    /// Once over: the fool, or [`NONE`] for a draw.
    loser: u8,
}

impl KrytNavalivat {
    /// The cards `seat` holds.
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }

    /// The cards everybody knows `seat` holds: picked up, or the turned card (K-10).
    pub fn known(&self, seat: usize) -> CardSet {
        self.known[seat]
    }

    /// The pile, bottom first.
    pub fn pile(&self) -> &[Card] {
        &self.table[..self.pile_len as usize]
    }

    /// The face-down stock, top first.
    pub fn stock(&self) -> &[Card] {
        &self.table[36 - self.stock_len as usize..]
    }

    /// Cards in the stock, the turned card included (KRYT-2.5).
    pub fn stock_count(&self) -> usize {
        self.stock_len as usize + usize::from(self.faceup != NONE)
    }

    /// The turned card while it lies under the stock.
    pub fn faceup(&self) -> Option<Card> {
        (self.faceup != NONE).then_some(self.faceup)
    }

    /// The trump suit, 0 … 3.
    pub fn trump(&self) -> u8 {
        self.trump
    }

    /// Whether the permanent trumps of KRYT-8 are played.
    pub fn permanent(&self) -> bool {
        self.anti != beating::NO_SUIT
    }

    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Once over: the fool, or `None` for a draw (and while the hand goes on).
    pub fn loser(&self) -> Option<usize> {
        (self.loser != NONE).then_some(self.loser as usize)
    }

    /// Whether the hand ended in a draw (KRYT-7.3).
    pub fn drawn(&self) -> bool {
        self.mode == Mode::Over && self.loser == NONE
    }

    /// KRYT-7.1: no cards once the stock is empty.
    pub fn is_out(&self, seat: usize) -> bool {
        self.hands[seat] == 0 && self.stock_count() == 0
    }

    /// The game's seed (chance after the position; a hand deals only once, so it is kept
    /// for the position text alone).
    pub fn seed(&self) -> Seed {
        self.seed
    }
}

/// Equal states hold the same cards in the same places, whatever lies in the table's free
/// slots between the pile and the stock.
impl PartialEq for KrytNavalivat {
    fn eq(&self, other: &Self) -> bool {
        self.hands == other.hands
            && self.known == other.known
            && self.seed == other.seed
            && self.pile() == other.pile()
            && self.stock() == other.stock()
            && self.faceup == other.faceup
            && self.players == other.players
            && self.dealer == other.dealer
            && self.trump == other.trump
            && self.anti == other.anti
            && self.mode == other.mode
            && self.to_move == other.to_move
            && self.loser == other.loser
    }
}

impl Eq for KrytNavalivat {}

impl Game for KrytNavalivat {
    type Options = Options;
    const NAME: &'static str = "kryt-navalivat";
    const NUM_ACTIONS: usize = 110;

    fn options(pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
        Options::read(pairs)
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
        KrytNavalivat::deal(options, seed, dealer, stacked)
    }

    fn action_text(action: usize) -> String {
        state::action_text(action)
    }

    fn parse_action(text: &str) -> Result<usize, ActionError> {
        state::parse_action(text)
    }

    fn from_position(options: &Options, text: &str) -> Result<Self, PositionError> {
        position::parse(options, text)
    }

    fn position(&self) -> String {
        position::format(self)
    }

    #[inline]
    fn players(&self) -> usize {
        self.players as usize
    }

    #[inline]
    fn to_move(&self) -> Option<usize> {
        (self.to_move != NONE).then_some(self.to_move as usize)
    }

    #[inline]
    fn legal_mask(&self) -> ActionMask {
        self.legal()
    }

    #[inline]
    fn apply(&mut self, action: usize) {
        self.play(action);
    }

    #[inline]
    fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        self.random_legal(rng)
    }

    /// The one deck, dealt as the game begins (KRYT-2).
    #[inline]
    fn chances_drawn(&self) -> (u64, u64) {
        (1, 0)
    }

    fn returns(&self) -> Option<Returns> {
        if self.mode != Mode::Over {
            return None;
        }
        let mut returns = [0.0; crate::game::MAX_PLAYERS];
        if self.loser != NONE {
            let share = 1.0 / (self.players as f64 - 1.0);
            for (seat, r) in returns.iter_mut().enumerate().take(self.players as usize) {
                *r = if seat == self.loser as usize {
                    -1.0
                } else {
                    share
                };
            }
        }
        Some(returns)
    }
}

/// The determinizer of search: samples of what a seat cannot see (`knowledge.py`).
impl crate::game::Determinize for KrytNavalivat {
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
}
