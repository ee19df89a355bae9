//! The compiled core of cardtable: the rules of Knockout Whist, Neuf and Kryt'-navalivat'
//! as a second implementation of SPEC.md, built for speed and kept equal to the Python
//! engine (the readable reference) by differential tests at every step of random games.
//!
//! Cards are indices and hands `u64` bitmasks ([`cards`]); chance is the same seeded
//! BLAKE2b stream as Python's ([`chance`]); states cross to Python as their position text
//! ([`notation`]). Each game implements [`game::Game`]; playouts and batches are generic.
//! Each game also samples what a seat cannot see ([`game::Determinize`]) and plays a cheap
//! guided policy ([`rollout::Guided`]), on which [`search`] runs SO-ISMCTS; a game with an
//! exact solver ([`pimc::Solve`]) is also played by perfect-information Monte Carlo
//! ([`pimc`]).
//! A seat's observation is written as the float vector of `cardtable.rl.observation`
//! ([`observation::Observe`]), without allocating, for the batch environments
//! ([`vector::Batch`]: many games stepped together, their opponents played in the core).
//! A seat's view is read with serde into each game's typed `View` ([`views`]).

pub mod cards;
pub mod chance;
pub mod deal_pool;
pub mod game;
pub mod inference;
pub mod knockout_whist;
pub mod kryt_navalivat;
pub mod net;
pub mod neuf;
pub mod notation;
pub mod observation;
pub mod options;
pub mod pimc;
pub mod rollout;
pub mod search;
pub mod vector;
pub mod views;

pub use game::{Determinize, Game, OptionValue, Stacked};
pub use knockout_whist::KnockoutWhist;
pub use kryt_navalivat::KrytNavalivat;
pub use neuf::Neuf;
pub use observation::Observe;
