//! What every game of the core provides ([`Game`]), and what the core builds on it for any
//! game: random playouts and batches of whole random games.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::cards::{bit, card_text, cards, Card, CardSet};
use crate::chance::{draw, Seed};
use crate::notation::PositionError;

/// Legal actions as a mask: bit `a` is set when action number `a` is legal. Every game
/// here numbers fewer than 128 actions.
pub type ActionMask = u128;

/// The most seats any game here has (Knockout Whist's seven).
pub const MAX_PLAYERS: usize = 7;

/// One number per seat (the first `players()` are meaningful).
pub type Returns = [f64; MAX_PLAYERS];

/// The generator of the core's random playouts: small, fast, and the same stream on every
/// machine for a seed. (Python's playouts draw from `random.Random`; the two are equal in
/// distribution, not draw for draw.)
pub type PlayoutRng = Pcg64Mcg;

/// An option's value as Python gives it.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionValue {
    None,
    Bool(bool),
    Int(i64),
    Str(String),
}

/// Why options or a deal were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError(pub String);

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OptionError {}

/// Why an action's text was refused: a card or suit that is not one (Python's
/// `InvalidCardError`), or text that names no action of the game (`InvalidActionError`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionError {
    Card(String),
    Action(String),
}

impl From<crate::cards::CardError> for ActionError {
    fn from(error: crate::cards::CardError) -> Self {
        ActionError::Card(error.0)
    }
}

/// The chance events to use before the seed deals: decks (card indices, index 0 dealt
/// first) and, for games that have them, reshuffles, in the order a record stores them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stacked {
    pub decks: Vec<Vec<u8>>,
    pub reshuffles: Vec<Vec<u8>>,
}

/// Checks a stacked deck as `cardtable.options.read_deck` does: it must hold each card of
/// `pack` (a game's pack as a card set) exactly once. `index` names the deck in messages.
pub fn check_deck(deck: &[u8], index: usize, pack: CardSet) -> Result<(), OptionError> {
    let names = |set: CardSet| cards(set).map(card_text).collect::<Vec<_>>().join(" ");
    let mut seen: CardSet = 0;
    let mut repeated: CardSet = 0;
    for &card in deck {
        if card >= 52 {
            return Err(OptionError(format!(
                "deck {index} holds card index {card}, outside 0-51"
            )));
        }
        repeated |= seen & bit(card);
        seen |= bit(card);
    }
    if repeated != 0 {
        return Err(OptionError(format!(
            "deck {index} repeats {}",
            names(repeated)
        )));
    }
    if seen & !pack != 0 {
        return Err(OptionError(format!(
            "deck {index} holds {}, which this game's pack has not",
            names(seen & !pack)
        )));
    }
    if seen != pack {
        return Err(OptionError(format!(
            "deck {index} has {} cards, not {}; missing {}",
            deck.len(),
            pack.count_ones(),
            names(pack & !seen)
        )));
    }
    Ok(())
}

/// A game's state in the core, equal step for step to the Python engine's state of the
/// same game (`cardtable.rules.<game>.state`).
pub trait Game: Clone + Send + Sync + 'static {
    /// The rules being played, fixed for the whole game.
    type Options: Clone + Send + Sync + 'static;

    /// The game's name, as `cardtable.make` takes it.
    const NAME: &'static str;
    /// The number of distinct actions (the Python engine's `num_distinct_actions`).
    const NUM_ACTIONS: usize;

    /// Reads options as Python's `make(name, **options)` does: unknown names and values out
    /// of range are refused; absent ones take their defaults. `dealer` is read here too.
    fn options(pairs: &[(String, OptionValue)]) -> Result<Self::Options, OptionError>;
    /// The number of seats the options give.
    fn options_players(options: &Self::Options) -> usize;
    /// The `dealer` option, when one was given.
    fn options_dealer(options: &Self::Options) -> Option<usize>;

    /// A new game as `game.begin(seed, dealer, decks, reshuffles)`: the first deal done.
    fn begin(
        options: &Self::Options,
        seed: Seed,
        dealer: usize,
        stacked: Stacked,
    ) -> Result<Self, OptionError>;
    /// An action's canonical text (`str(game.actions[number])`: `play 7D`, `knock`, …).
    fn action_text(action: usize) -> String;
    /// An action's number from its text, read as the Python game's `parse_action` reads it
    /// (any case, `T` for ten, suit symbols, the game's aliases); the refusal says why.
    fn parse_action(text: &str) -> Result<usize, ActionError>;

    /// Rebuilds a state from its position text (`game.state_from_position`).
    fn from_position(options: &Self::Options, text: &str) -> Result<Self, PositionError>;
    /// The position text, byte for byte as the Python engine writes it.
    fn position(&self) -> String;

    fn players(&self) -> usize;
    /// The seat to act, `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// The legal actions as a mask (empty once the game is over).
    fn legal_mask(&self) -> ActionMask;
    /// Applies a legal action, unchecked (the Python engine's `apply_id`).
    fn apply(&mut self, action: usize);
    /// The result's `returns` once the game is over.
    fn returns(&self) -> Option<Returns>;

    /// How many chance events (decks dealt, cards reshuffled) the game has drawn so far: a
    /// step that changes it drew one, which the Python side records.
    #[inline]
    fn chance_drawn(&self) -> u64 {
        let (decks, reshuffles) = self.chances_drawn();
        decks + reshuffles
    }

    /// The decks dealt and the reshuffles drawn so far, each counted from the game's start.
    #[inline]
    fn chances_drawn(&self) -> (u64, u64) {
        (0, 0)
    }

    /// How many tricks were finished since this state was made, counting on across the
    /// hands, and the seat that took the last of them (`None` before the first, or for a
    /// trick no one takes): a step that changes the count finished a trick. Zero for a
    /// game not played in tricks.
    #[inline]
    fn tricks_taken(&self) -> (u32, Option<usize>) {
        (0, None)
    }

    /// Sets what [`Game::tricks_taken`] answers: for a state rebuilt from a position,
    /// which does not hold it, to go on from the state it replaces.
    fn set_tricks_taken(&mut self, count: u32, taker: Option<usize>) {
        let _ = (count, taker);
    }

    /// The stacked decks and reshuffles still to be used before the seed deals.
    #[inline]
    fn chances_stacked(&self) -> (usize, usize) {
        (0, 0)
    }

    /// Stacks one more reshuffle beneath those still stacked, for a game that reshuffles
    /// (the order the cards are shuffled into; the step that draws it checks they are
    /// the cards it reshuffles).
    fn stack_reshuffle(&mut self, order: Vec<Card>) -> Result<(), OptionError> {
        let _ = order;
        Err(OptionError(format!("{} never reshuffles", Self::NAME)))
    }

    /// Stacks one more deck beneath those still stacked, checked as `begin` checks a
    /// stacked deck: the deck a step that deals will use when none is stacked before it
    /// (a web table's fair deals, drawn from elsewhere than the seed).
    fn stack_deck(&mut self, deck: Vec<Card>) -> Result<(), OptionError> {
        let _ = deck;
        Err(OptionError(format!(
            "{} deals once, as the game begins: no deck can be stacked later",
            Self::NAME
        )))
    }

    /// One uniformly random legal action. Games override it when they can draw without
    /// building the mask.
    #[inline]
    fn random_action(&self, rng: &mut PlayoutRng) -> usize {
        let mask = self.legal_mask();
        let k = rng.random_range(0..mask.count_ones());
        nth_action(mask, k)
    }
}

/// A game whose states can be sampled from what one seat knows: the determinizer of
/// search (DESIGN.md "Bots"), the core's form of the Python game's `Knowledge`.
///
/// Knowledge is read from the seat's view (`state.view(seat)`, as JSON), never from the
/// hidden state. A sample is a full state whose `view(seat)` is that view, every card
/// the seat cannot see dealt at random consistently with all that play has revealed,
/// drawn from the same distribution as the Python game's `Knowledge.sample`, with a fresh
/// seed (from `rng`) for the chance events to come.
pub trait Determinize: Game {
    /// What a seat knows, ready to sample from many times.
    type Knowledge: Clone + Send + Sync + 'static;

    /// Reads a seat's view; a view that is not a seat's view of this game is refused,
    /// naming what is wrong (Python's `InvalidPositionError`).
    fn knowledge(
        options: &Self::Options,
        view: &serde_json::Value,
    ) -> Result<Self::Knowledge, PositionError>;
    /// The seat whose knowledge this is.
    fn knower(knowledge: &Self::Knowledge) -> usize;
    /// One sampled state.
    fn sample(knowledge: &Self::Knowledge, rng: &mut PlayoutRng) -> Self;
    /// How well this sampled state explains what the seats other than `knower` did, as a
    /// log-likelihood under the model `inference` describes (policy-based inference,
    /// [`crate::inference::Inference`]); 0, every deal alike, in a game without a model.
    fn log_likelihood(&self, knower: usize, inference: &crate::inference::Inference) -> f64 {
        let _ = (knower, inference);
        0.0
    }
}

/// A chance event a step needs that the stacks lack (numbered from the game's start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The game's deck `n` (from 0): hand `n + 1`.
    Deck(u64),
    /// The game's reshuffle `k` (from 0).
    Reshuffle(u64),
}

/// Applies a legal `action` dealing only from stacked chance events; when the step would
/// draw one the stacks lack, leaves `state` as it was and names the first of them (a deck
/// before a reshuffle: a step deals before it cuts).
pub fn apply_stacked<G: Game>(state: &mut G, action: usize) -> Option<Missing> {
    let (decks, reshuffles) = state.chances_drawn();
    let (stacked_decks, stacked_reshuffles) = state.chances_stacked();
    // Whether the step deals is known only once it is played: kept to undo it.
    let before = state.clone();
    state.apply(action);
    let (decks_now, reshuffles_now) = state.chances_drawn();
    let missing = if decks_now - decks > stacked_decks as u64 {
        Some(Missing::Deck(decks + stacked_decks as u64))
    } else if reshuffles_now - reshuffles > stacked_reshuffles as u64 {
        Some(Missing::Reshuffle(reshuffles + stacked_reshuffles as u64))
    } else {
        None
    };
    if missing.is_some() {
        *state = before;
    }
    missing
}

/// The `k`-th lowest action (0-based) of a mask that holds more than `k`.
#[inline]
pub fn nth_action(mask: ActionMask, k: u32) -> usize {
    let low = mask as u64;
    let n = low.count_ones();
    if k < n {
        crate::cards::nth_card(low, k) as usize
    } else {
        64 + crate::cards::nth_card((mask >> 64) as u64, k - n) as usize
    }
}

/// The action numbers in a mask, ascending.
pub fn actions_of(mask: ActionMask) -> Vec<usize> {
    mask_actions(mask).collect()
}

/// The action numbers in a mask, ascending, without allocating.
pub fn mask_actions(mask: ActionMask) -> MaskActions {
    MaskActions(mask)
}

/// The iterator of [`mask_actions`]: it knows its length, so a list can be sized at once.
#[derive(Clone, Copy, Debug)]
pub struct MaskActions(ActionMask);

impl Iterator for MaskActions {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let action = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(action)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.0.count_ones() as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for MaskActions {}

/// The first dealer: the `dealer` option, else one drawn from the seed (`resolved_dealer`).
pub fn first_dealer<G: Game>(options: &G::Options, seed: Seed) -> usize {
    let players = G::options_players(options);
    G::options_dealer(options).unwrap_or_else(|| draw(seed, "dealer", players as u64) as usize)
}

/// A new game from a seed alone, as `game.new_state(seed=seed)`.
pub fn new_game<G: Game>(options: &G::Options, seed: Seed) -> G {
    G::begin(
        options,
        seed,
        first_dealer::<G>(options, seed),
        Stacked::default(),
    )
    .expect("a deal from the seed alone always succeeds")
}

/// Plays uniformly random legal actions to the end; returns the number of decisions taken.
pub fn playout<G: Game>(state: &mut G, rng: &mut PlayoutRng) -> u32 {
    let mut decisions = 0;
    while state.to_move().is_some() {
        let action = state.random_action(rng);
        state.apply(action);
        decisions += 1;
    }
    decisions
}

/// The number of action sequences of exactly `depth` actions from `state` (perft), counting
/// finished games shorter than that as none, as the Python perft scripts count.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut mask = state.legal_mask();
    if depth == 1 {
        return u64::from(mask.count_ones());
    }
    let mut total = 0;
    while mask != 0 {
        let action = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let mut next = state.clone();
        next.apply(action);
        total += perft(&next, depth - 1);
    }
    total
}

/// What a batch of random games or playouts gives back.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    /// `count × players` returns, row by row.
    pub returns: Vec<f64>,
    /// Decisions taken in all.
    pub decisions: u64,
}

/// `count` random playouts from `state`, playout `i` drawing from a generator seeded with
/// `seed + i`.
pub fn playouts_from<G: Game>(state: &G, count: usize, seed: u64) -> Batch {
    let players = state.players();
    let mut batch = Batch {
        returns: Vec::with_capacity(count * players),
        decisions: 0,
    };
    for i in 0..count {
        let mut rng = PlayoutRng::seed_from_u64(seed.wrapping_add(i as u64));
        let mut s = state.clone();
        batch.decisions += u64::from(playout(&mut s, &mut rng));
        let r = s.returns().expect("a playout ends the game");
        batch.returns.extend_from_slice(&r[..players]);
    }
    batch
}

/// Whole random games, one per seed: each dealt from its seed as `new_state(seed=…)` deals
/// it, and played by a generator seeded with the same seed.
pub fn random_games<G: Game>(options: &G::Options, seeds: &[Seed]) -> Batch {
    let players = G::options_players(options);
    let mut batch = Batch {
        returns: Vec::with_capacity(seeds.len() * players),
        decisions: 0,
    };
    for &seed in seeds {
        let mut state: G = new_game(options, seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        batch.decisions += u64::from(playout(&mut state, &mut rng));
        let r = state.returns().expect("a playout ends the game");
        batch.returns.extend_from_slice(&r[..players]);
    }
    batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_action_crosses_the_halves() {
        let mask: ActionMask = (1 << 3) | (1 << 63) | (1 << 64) | (1 << 109);
        assert_eq!(actions_of(mask), vec![3, 63, 64, 109]);
        assert_eq!(
            (0..4).map(|k| nth_action(mask, k)).collect::<Vec<_>>(),
            vec![3, 63, 64, 109]
        );
    }
}
