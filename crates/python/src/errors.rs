//! Refusals as Python sees them: the core's errors mapped onto `cardtable.errors`' classes,
//! so that callers catch the same exceptions from either engine.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use cardtable_core::game::ActionError;
use cardtable_core::search::SearchError;
use cardtable_core::vector::BatchError;

/// A `cardtable.errors` exception with `message`, so that Python callers catch the same
/// classes from either engine.
pub(crate) fn cardtable_error(py: Python<'_>, class: &str, message: String) -> PyErr {
    match py
        .import("cardtable.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1((message.clone(),)))
    {
        Ok(exc) => PyErr::from_value(exc),
        Err(_) => PyValueError::new_err(message),
    }
}

/// A refused action text as the Python engine refuses it: a bad card is an
/// `InvalidCardError`, text that names no action an `InvalidActionError`.
pub(crate) fn action_error(py: Python<'_>, error: ActionError) -> PyErr {
    match error {
        ActionError::Card(why) => cardtable_error(py, "InvalidCardError", why),
        ActionError::Action(why) => cardtable_error(py, "InvalidActionError", why),
    }
}

/// A refused batch or step as a `cardtable.errors` exception (`ValueError`s all).
pub(crate) fn batch_error(
    py: Python<'_>,
    error: BatchError,
    text: impl Fn(usize) -> String,
) -> PyErr {
    match &error {
        BatchError::Config(why) => cardtable_error(py, "InvalidOptionError", why.clone()),
        BatchError::Buffer(why) => PyValueError::new_err(why.clone()),
        BatchError::OutOfRange { .. } => {
            cardtable_error(py, "InvalidActionError", error.to_string())
        }
        BatchError::Illegal {
            game,
            seat,
            action,
            legal,
        } => {
            let legal = legal
                .iter()
                .map(|&a| format!("{a} ({})", text(a)))
                .collect::<Vec<_>>()
                .join(", ");
            cardtable_error(
                py,
                "IllegalActionError",
                format!(
                    "game {game}: action {action} ({}) is not legal for seat {seat} now; \
                     legal: {legal}; no game was stepped",
                    text(*action)
                ),
            )
        }
    }
}

/// A search's or PIMC's refusal as Python's exception: bad settings are an
/// `InvalidBudgetError`, a seat whose turn it is not a `CardtableError`.
pub(crate) fn search_error(py: Python<'_>, error: SearchError) -> PyErr {
    match error {
        SearchError::Settings(why) => cardtable_error(py, "InvalidBudgetError", why),
        SearchError::NotTheTurn(why) => cardtable_error(py, "CardtableError", why),
    }
}
