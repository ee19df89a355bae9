//! Guided rollouts: each game's cheap playing policy for search, and the estimate of every
//! seat's return where a rollout stops early (the end of a Knockout Whist hand or a Neuf
//! deal: later ones are dealt from cards nobody knows yet, and playing them out costs many
//! times as much for little). The core's form of `cardtable.bots.<game>_rollout`.
//!
//! A policy draws its randomness through [`Draw`], one uniform number in `[0, 1)` at a
//! time, at the same points and in the same order as the Python policy calls
//! `rng.random()`: given the same draws both choose the same actions, which is how the
//! tests hold the two equal ([`Script`] replays Python's draws here).

use crate::game::{Game, PlayoutRng, Returns};
use rand::Rng;

/// A source of uniform numbers in `[0, 1)`.
pub trait Draw {
    fn draw(&mut self) -> f64;

    /// An index below `len` (at least 1), chosen as Python's `int(rng.random() * len)`.
    #[inline]
    fn index(&mut self, len: usize) -> usize {
        // `draw() < 1`, so the product is below `len`; `min` guards the rounding of a draw
        // a hair under 1 times a large `len`.
        ((self.draw() * len as f64) as usize).min(len - 1)
    }
}

impl Draw for PlayoutRng {
    #[inline]
    fn draw(&mut self) -> f64 {
        self.random::<f64>()
    }
}

/// Draws read from a list (tests replay Python's draws with it). Once the list is spent it
/// gives 0 and remembers that it ran out, so the caller can refuse the result.
#[derive(Debug, Clone)]
pub struct Script<'a> {
    draws: &'a [f64],
    /// How many draws were taken, counting those past the end.
    pub used: usize,
}

impl<'a> Script<'a> {
    pub fn new(draws: &'a [f64]) -> Script<'a> {
        Script { draws, used: 0 }
    }

    /// Whether more draws were asked for than the list holds.
    pub fn ran_out(&self) -> bool {
        self.used > self.draws.len()
    }
}

impl Draw for Script<'_> {
    fn draw(&mut self) -> f64 {
        let value = self.draws.get(self.used).copied().unwrap_or(0.0);
        self.used += 1;
        value
    }
}

/// Actions a policy prior covers ([`Guided::prior`]; every game's action ids are below).
pub const PRIOR_ACTIONS: usize = 128;

/// A game with a guided rollout policy.
pub trait Guided: Game {
    /// The policy's action for the seat to move (the game is not over).
    fn guided_action<D: Draw>(&self, draw: &mut D) -> usize;

    /// Search's rollout: the policy plays on to the end of the game or to the point where
    /// the game estimates its returns (the end of the current hand or deal); every seat's
    /// return, exact or estimated. Zero-sum, as the game's returns are. The state is spent
    /// after it (a rollout may stop inside the rules' own step, before the next deal that
    /// an estimate never looks at): search throws it away, and so must other callers.
    fn guided_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns;

    /// Whether the game's deals are scored on their own, so that a search may value a
    /// decision by its deal alone ([`Guided::deal_rollout`]).
    const DEAL_HORIZON: bool = false;

    /// The policy to the end of the deal `root` (a state of the same game, earlier in this
    /// deal) is playing, and each seat's return its side's points from that deal: how much
    /// better its score stands than at `root`. Only for a game with [`Self::DEAL_HORIZON`]
    /// (search refuses the rollout elsewhere); the state is spent after it.
    fn deal_rollout<D: Draw>(&mut self, draw: &mut D, root: &Self) -> Returns {
        let _ = root;
        self.guided_rollout(draw)
    }

    /// `guided_rollout` with the game's learnt estimate where it stops (Knockout Whist's
    /// values between hands); the same as it in a game without one.
    fn learned_rollout<D: Draw>(&mut self, draw: &mut D) -> Returns {
        self.guided_rollout(draw)
    }

    /// Every seat's returns at the end of the current hand with every line of play
    /// searched (an exact solver, each seat for itself), in place of a rollout, when the
    /// hand has at most `cards` cards left in all hands; `None` where the game has no
    /// solver or more cards are left.
    fn solved_returns(&self, cards: u32) -> Option<Returns> {
        let _ = cards;
        None
    }

    /// The game's learned policy prior over the legal actions of the seat to move, into
    /// `out` (indexed by action; 0 for the illegal ones): `false`, `out` untouched, where
    /// the game has none or it does not apply here.
    fn prior(&self, out: &mut [f32; PRIOR_ACTIONS]) -> bool {
        let _ = out;
        false
    }
}
