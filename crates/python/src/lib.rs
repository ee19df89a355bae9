//! `cardtable._core`: the compiled engine under Python, kept thin. Each game of the core
//! is bound twice by one macro: a game class (options fixed; new states, positions and
//! batches of random games) and a state class (the protocol's hot half: to move, legal
//! actions, apply, position, returns, playouts). States cross the boundary as position
//! text; batches cross it once for many games and release the GIL while they run.
//!
//! Modules by concern: `game`, `state` and `batch` hold the three classes each game is
//! bound as, and `public` the native base of the run-time engine's state classes; `solvers` each game's solver and judge; `search` a seat's search from its
//! view; `errors` the mapping of the core's refusals onto `cardtable.errors`; `options` and
//! `observation` the checked reading of Python's arguments; `learned` the samples the learned evaluations are trained on; `views` the view structs' fields
//! and shape check, for the tests that hold them to Python's.

use pyo3::prelude::*;

use cardtable_core::game::Game;
use cardtable_core::{vector, KnockoutWhist, KrytNavalivat, Neuf};

mod batch;
mod errors;
mod game;
mod learned;
mod observation;
mod options;
mod public;
mod search;
mod solvers;
mod state;
mod views;

use batch::{KnockoutWhistBatch, KrytNavalivatBatch, NeufBatch};
use game::{KnockoutWhistGame, KrytNavalivatGame, NeufGame};
use public::{KnockoutWhistPublic, KrytNavalivatPublic, NeufPublic};
use state::{KnockoutWhistState, KrytNavalivatState, NeufState};

/// The generator seed of game `index` of a batch reset with base seed `seed`.
#[pyfunction]
fn game_seed(seed: u64, index: usize) -> u64 {
    vector::game_seed(seed, index)
}

/// Size in bytes of each game's state in the core.
#[pyfunction]
fn state_sizes() -> Vec<(&'static str, usize)> {
    vec![
        (KnockoutWhist::NAME, std::mem::size_of::<KnockoutWhist>()),
        (Neuf::NAME, std::mem::size_of::<Neuf>()),
        (KrytNavalivat::NAME, std::mem::size_of::<KrytNavalivat>()),
    ]
}

/// Whether this build breaks a rule on purpose (the `broken-rule` feature), for the test
/// that shows the differential tests catch a broken core.
#[pyfunction]
fn broken_rule() -> bool {
    cfg!(feature = "broken-rule")
}

/// A game's learned evaluation as the core compiled it in: the file's text and how many
/// numbers the core read from it (the table's cells, or the network's weights and biases);
/// `None` for a game without one.
#[pyfunction]
fn learned_values(game: &str) -> Option<(&'static str, usize)> {
    use cardtable_core::knockout_whist::values;
    use cardtable_core::neuf::value;
    match game {
        KnockoutWhist::NAME => Some((values::VALUES_JSON, values::table().len())),
        Neuf::NAME => Some((value::NET_JSON, value::net().parameters())),
        _ => None,
    }
}

/// The learned policy prior the core's search reads (`prior=` in the search) for a game:
/// the file compiled in and how many numbers it holds; `None` for a game without one.
#[pyfunction]
fn learned_prior(game: &str) -> Option<(&'static str, usize)> {
    use cardtable_core::knockout_whist::prior;
    match game {
        KnockoutWhist::NAME => Some((prior::NET_JSON, prior::net().parameters())),
        _ => None,
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<KnockoutWhistGame>()?;
    m.add_class::<KnockoutWhistState>()?;
    m.add_class::<NeufGame>()?;
    m.add_class::<NeufState>()?;
    m.add_class::<KrytNavalivatGame>()?;
    m.add_class::<KrytNavalivatState>()?;
    m.add_class::<KnockoutWhistPublic>()?;
    m.add_class::<NeufPublic>()?;
    m.add_class::<KrytNavalivatPublic>()?;
    m.add_class::<KnockoutWhistBatch>()?;
    m.add_class::<NeufBatch>()?;
    m.add_class::<KrytNavalivatBatch>()?;
    m.add_function(wrap_pyfunction!(game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(state_sizes, m)?)?;
    m.add_function(wrap_pyfunction!(broken_rule, m)?)?;
    m.add_function(wrap_pyfunction!(learned_values, m)?)?;
    m.add_function(wrap_pyfunction!(learned_prior, m)?)?;
    m.add_function(wrap_pyfunction!(views::view_fields, m)?)?;
    m.add_function(wrap_pyfunction!(views::check_view, m)?)?;
    Ok(())
}
