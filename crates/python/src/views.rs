//! A seat's view as the core reads it, for the tests that hold the core's view structs,
//! the Python `TypedDict`s and the web page's JSON Schemas equal (tests/rules/test_view_schema.py).

use pyo3::prelude::*;

use cardtable_core::game::Game;
use cardtable_core::views::{self, Fields};
use cardtable_core::{knockout_whist, kryt_navalivat, neuf, KnockoutWhist, KrytNavalivat, Neuf};

use crate::errors::cardtable_error;

/// The field names of `game`'s view struct as serde knows them, by path (`""` the view,
/// `"tricks[]"` each trick of its list, `"previous_hand.tricks[]"`, …);
/// `InvalidOptionError` for a name that is no game's.
#[pyfunction]
pub(crate) fn view_fields(py: Python<'_>, game: &str) -> PyResult<Fields> {
    let (_, fields) = view_struct(game).ok_or_else(|| no_game(py, game))?;
    Ok(fields())
}

/// Reads a view (JSON text) into `game`'s view struct and no further (its shape, not what
/// its values mean): `InvalidPositionError` naming what is wrong (a field missing, unknown
/// or of the wrong type, with its path).
#[pyfunction]
pub(crate) fn check_view(py: Python<'_>, game: &str, view: &str) -> PyResult<()> {
    let value: serde_json::Value = serde_json::from_str(view)
        .map_err(|e| cardtable_error(py, "InvalidPositionError", format!("a view is JSON: {e}")))?;
    let (check, _) = view_struct(game).ok_or_else(|| no_game(py, game))?;
    check(&value).map_err(|why| {
        cardtable_error(
            py,
            "InvalidPositionError",
            format!("not a {game} view: {why}"),
        )
    })
}

/// A view's shape checker and its field names, each for one game's view struct.
type ViewStruct = (fn(&serde_json::Value) -> Result<(), String>, fn() -> Fields);

/// Each game's view struct, by the game's name (`Game::NAME`); `None` for a name that is no
/// game's. Listed here, above the games, so that the core's view helpers stay below them.
fn view_struct(game: &str) -> Option<ViewStruct> {
    if game == KnockoutWhist::NAME {
        Some((
            views::check::<knockout_whist::View>,
            views::fields_of::<knockout_whist::View>,
        ))
    } else if game == Neuf::NAME {
        Some((views::check::<neuf::View>, views::fields_of::<neuf::View>))
    } else if game == KrytNavalivat::NAME {
        Some((
            views::check::<kryt_navalivat::View>,
            views::fields_of::<kryt_navalivat::View>,
        ))
    } else {
        None
    }
}

fn no_game(py: Python<'_>, game: &str) -> PyErr {
    cardtable_error(
        py,
        "InvalidOptionError",
        format!("no game is named {game:?}"),
    )
}
