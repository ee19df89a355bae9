//! Each game's exact solver and PIMC judge, bound outside the binding macros because each
//! has its own shape (Kryt'-navalivat's a horizon, Neuf's an exchange).

use pyo3::prelude::*;

use cardtable_core::{knockout_whist, kryt_navalivat, pimc, KnockoutWhist, Neuf};

use crate::errors::cardtable_error;
use crate::game::{KnockoutWhistGame, NeufGame};
use crate::search::{judge_outcome, knowledge_of, JudgeOutcome};
use crate::state::{KnockoutWhistState, KrytNavalivatState, NeufState};

/// The solver's model by its Python name; `"tricks"` only where `tricks` allows it
/// (Knockout Whist's solver alone counts tricks as a model of its own).
fn solver_model(py: Python<'_>, name: &str, tricks: bool) -> PyResult<knockout_whist::Model> {
    match name {
        "max-n" => Ok(knockout_whist::Model::MaxN),
        "paranoid" => Ok(knockout_whist::Model::Paranoid),
        "tricks" if tricks => Ok(knockout_whist::Model::Tricks),
        other => Err(cardtable_error(
            py,
            "InvalidBudgetError",
            if tricks {
                format!("model must be 'max-n', 'paranoid' or 'tricks', not {other:?}")
            } else {
                format!("model must be 'max-n' or 'paranoid', not {other:?}")
            },
        )),
    }
}

#[pymethods]
impl KnockoutWhistState {
    /// The exact solver, every hand as this state holds it: each legal action's value for
    /// the seat to move at the end of the hand (its return plus a thousandth a trick taken)
    /// under `model` (`"max-n"`: every seat for itself; `"paranoid"`: the others against
    /// it; `"tricks"`: every seat for its own tricks, the value the seat's tricks this
    /// hand), ascending by action, and the nodes searched. The GIL is released meanwhile.
    #[pyo3(signature = (model = "max-n"))]
    fn solve(&self, py: Python<'_>, model: &str) -> PyResult<(Vec<(usize, f64)>, u64)> {
        let model = solver_model(py, model, true)?;
        let state = &self.inner;
        let solution = py.allow_threads(|| state.solve(model).map(|s| (s.values, s.nodes)));
        solved(py, solution)
    }
}

#[pymethods]
impl KnockoutWhistGame {
    /// Perfect-information Monte Carlo for the seat whose view (JSON text) this is, on its
    /// turn: deals sampled from what it knows, each solved exactly under `model` (as
    /// `solve`'s; `"tricks"`: each value a mean of the seat's tricks this hand) and
    /// weighed by how well it explains the others' plays in this hand (a seat taken to play
    /// the guided policy's card with probability `belief`; 0: every deal alike); the chosen
    /// action, each legal action's weighted mean value, the deals solved, the seconds
    /// taken and the standard error of each action's gap to the chosen one's mean. Budget:
    /// `deals`, `seconds` or both; `threads` solve side by side. The GIL is
    /// released meanwhile.
    #[pyo3(signature = (view, deals = None, seconds = None, model = "max-n", seed = 0, threads = 1, belief = 0.0))]
    #[allow(clippy::too_many_arguments)]
    fn judge(
        &self,
        py: Python<'_>,
        view: &str,
        deals: Option<u64>,
        seconds: Option<f64>,
        model: &str,
        seed: u64,
        threads: usize,
        belief: f64,
    ) -> PyResult<JudgeOutcome> {
        let knowledge = knowledge_of::<KnockoutWhist>(py, &self.options, view)?;
        judge_outcome::<KnockoutWhist>(
            py,
            &knowledge,
            pimc::Settings {
                deals,
                seconds,
                model: solver_model(py, model, true)?,
                belief,
                threads,
            },
            seed,
        )
    }
}

// Neuf's exact solver, bound outside the macro as Knockout Whist's is.
#[pymethods]
impl NeufState {
    /// The exact solver, every hand (and the spare) as this state holds them: each legal
    /// action's value for the seat to move, its side's tricks over its quota this deal
    /// (NEUF-5.2; under NEUF-8.3 a game won at once is worth more than any tricks), under
    /// `model` (`"paranoid"`, the default: the others against it; `"max-n"`: every seat
    /// for itself, which cannot prune and is too slow for more than the last tricks of a
    /// 3-player deal; the same with four players), ascending by action, and the nodes
    /// searched. In the
    /// exchange, EXCHANGE and KEEP are each valued by solving the deal that follows, the
    /// later seats deciding by the guided policy's rule. The GIL is released meanwhile.
    #[pyo3(signature = (model = "paranoid"))]
    fn solve(&self, py: Python<'_>, model: &str) -> PyResult<(Vec<(usize, f64)>, u64)> {
        let model = solver_model(py, model, false)?;
        let state = &self.inner;
        let solution = py.allow_threads(|| state.solve(model).map(|s| (s.values, s.nodes)));
        solved(py, solution)
    }
}

#[pymethods]
impl NeufGame {
    /// Perfect-information Monte Carlo for the seat whose view (JSON text) this is, on its
    /// turn, as Knockout Whist's `judge`: deals sampled from what it knows, each solved
    /// exactly under `model` (paranoid by default, as `solve`); the chosen action, each
    /// legal action's mean value, the deals solved, the seconds taken and each gap's standard
    /// error (as Knockout Whist's). `belief` is
    /// checked for the same signature, but Neuf has no inference yet: every deal weighs
    /// alike.
    #[pyo3(signature = (view, deals = None, seconds = None, model = "paranoid", seed = 0, threads = 1, belief = 0.0))]
    #[allow(clippy::too_many_arguments)]
    fn judge(
        &self,
        py: Python<'_>,
        view: &str,
        deals: Option<u64>,
        seconds: Option<f64>,
        model: &str,
        seed: u64,
        threads: usize,
        belief: f64,
    ) -> PyResult<JudgeOutcome> {
        let knowledge = knowledge_of::<Neuf>(py, &self.options, view)?;
        judge_outcome::<Neuf>(
            py,
            &knowledge,
            pimc::Settings {
                deals,
                seconds,
                model: solver_model(py, model, false)?,
                belief,
                threads,
            },
            seed,
        )
    }
}

/// A solver's answer for Python: each legal action's value and the nodes searched, or
/// `IllegalActionError` when the game is over.
fn solved(
    py: Python<'_>,
    solution: Option<(Vec<(usize, f64)>, u64)>,
) -> PyResult<(Vec<(usize, f64)>, u64)> {
    match solution {
        Some(solution) => Ok(solution),
        None => Err(cardtable_error(
            py,
            "IllegalActionError",
            "the game is over; there is nothing to solve".into(),
        )),
    }
}

// The signature's default horizon is written as a number so that Python's introspection
// (and the stubs' check) can read it; this keeps it the solver's.
const _: () = assert!(kryt_navalivat::HORIZON == 10);

#[pymethods]
impl KrytNavalivatState {
    /// The exact endgame solver, every hand as this state holds it, once the stock is
    /// empty: each legal action's value for the seat to move (its return: -1 the fool,
    /// 1/(n-1) not, 0 a draw or no end within `horizon` actions) under `model` (`"max-n"`
    /// with two players, where it is the same game as `"paranoid"`; `"paranoid"`: the
    /// others against it), ascending by action, and the nodes searched; past `nodes`
    /// nodes searched it gives up with `SolverBudgetError`. The GIL is released meanwhile.
    #[pyo3(signature = (model = "max-n", horizon = 10, nodes = None))]
    fn solve(
        &self,
        py: Python<'_>,
        model: &str,
        horizon: i64,
        nodes: Option<u64>,
    ) -> PyResult<(Vec<(usize, f64)>, u64)> {
        let model = solver_model(py, model, false)?;
        let horizon = match u16::try_from(horizon) {
            Ok(h) if h >= 1 => h,
            _ => {
                return Err(cardtable_error(
                    py,
                    "InvalidBudgetError",
                    format!("horizon must be a whole number of actions, 1 to 65535, not {horizon}"),
                ))
            }
        };
        let state = &self.inner;
        let budget = nodes.unwrap_or(u64::MAX);
        match py.allow_threads(|| state.solve_budgeted(model, horizon, budget)) {
            Ok(solution) => Ok((solution.values, solution.nodes)),
            Err(why @ kryt_navalivat::Unsolvable::MaxN(_)) => {
                Err(cardtable_error(py, "InvalidBudgetError", why.to_string()))
            }
            Err(why @ kryt_navalivat::Unsolvable::Budget(_)) => {
                Err(cardtable_error(py, "SolverBudgetError", why.to_string()))
            }
            Err(why) => Err(cardtable_error(py, "IllegalActionError", why.to_string())),
        }
    }
}
