//! A seat's view as the core reads it, for the tests that hold the core's view structs,
//! the Python `TypedDict`s and the web page's JSON Schemas equal (tests/rules/test_view_schema.py).

use std::collections::BTreeMap;

use pyo3::prelude::*;

use cardtable_core::views;

use crate::errors::cardtable_error;

/// The field names of `game`'s view struct as serde knows them, by path (`""` the view,
/// `"tricks[]"` each trick of its list, `"previous_hand.tricks[]"`, …);
/// `InvalidOptionError` for a name that is no game's.
#[pyfunction]
pub(crate) fn view_fields(py: Python<'_>, game: &str) -> PyResult<BTreeMap<String, Vec<String>>> {
    views::fields(game).ok_or_else(|| no_game(py, game))
}

/// Reads a view (JSON text) into `game`'s view struct and no further (its shape, not what
/// its values mean): `InvalidPositionError` naming what is wrong (a field missing, unknown
/// or of the wrong type, with its path).
#[pyfunction]
pub(crate) fn check_view(py: Python<'_>, game: &str, view: &str) -> PyResult<()> {
    let value: serde_json::Value = serde_json::from_str(view)
        .map_err(|e| cardtable_error(py, "InvalidPositionError", format!("a view is JSON: {e}")))?;
    match views::check(game, &value) {
        None => Err(no_game(py, game)),
        Some(Ok(())) => Ok(()),
        Some(Err(why)) => Err(cardtable_error(
            py,
            "InvalidPositionError",
            format!("not a {game} view: {why}"),
        )),
    }
}

fn no_game(py: Python<'_>, game: &str) -> PyErr {
    cardtable_error(
        py,
        "InvalidOptionError",
        format!("no game is named {game:?}"),
    )
}
