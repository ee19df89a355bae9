//! Search and PIMC for a seat from its view: the view read into what the seat knows, the
//! settings read from Python's arguments, and the answer in the one shape Python receives.

use pyo3::prelude::*;
use rand::SeedableRng;

use cardtable_core::game::{Determinize, PlayoutRng};
use cardtable_core::{pimc, search};

use crate::errors::{cardtable_error, search_error};

/// A search's outcome as Python receives it: the action, visits and mean returns per root
/// action, iterations, seconds, and the standard deviation of each root action's returns.
pub(crate) type SearchOutcome = (
    usize,
    std::collections::BTreeMap<usize, u32>,
    std::collections::BTreeMap<usize, f64>,
    u64,
    f64,
    std::collections::BTreeMap<usize, f64>,
);

/// PIMC's judgement: `search`'s outcome, then the standard error of each action's gap to
/// the chosen action's mean (paired over the same deals).
pub(crate) type JudgeOutcome = (
    usize,
    std::collections::BTreeMap<usize, u32>,
    std::collections::BTreeMap<usize, f64>,
    u64,
    f64,
    std::collections::BTreeMap<usize, f64>,
);

/// A seat's knowledge read from its view's JSON text.
pub(crate) fn knowledge_of<G: Determinize>(
    py: Python<'_>,
    options: &G::Options,
    view: &str,
) -> PyResult<G::Knowledge> {
    let value: serde_json::Value = serde_json::from_str(view)
        .map_err(|e| cardtable_error(py, "InvalidPositionError", format!("a view is JSON: {e}")))?;
    G::knowledge(options, &value).map_err(|e| cardtable_error(py, "InvalidPositionError", e.0))
}

/// A search's settings from its Python arguments; `InvalidBudgetError` for a bad rollout or
/// exploration (the budget and threads are checked by the search itself).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_settings(
    py: Python<'_>,
    iterations: Option<u64>,
    seconds: Option<f64>,
    exploration: f64,
    stop_early: bool,
    rollout: &str,
    threads: usize,
    solve: u32,
    inference: Option<search::Inference>,
    prior: f64,
) -> PyResult<search::Settings> {
    let rollout = match rollout {
        "guided" if solve > 0 => search::Rollout::Solved(solve),
        "guided" => search::Rollout::Guided,
        "learned" => search::Rollout::Learned,
        "random" => search::Rollout::Uniform,
        "deal" => search::Rollout::Deal,
        other => {
            return Err(cardtable_error(
                py,
                "InvalidBudgetError",
                format!("rollout must be 'guided', 'learned', 'deal' or 'random', not {other:?}"),
            ))
        }
    };
    if !(exploration >= 0.0 && exploration.is_finite()) {
        return Err(cardtable_error(
            py,
            "InvalidBudgetError",
            format!("exploration must be 0 or more, not {exploration}"),
        ));
    }
    if !(prior >= 0.0 && prior.is_finite()) {
        return Err(cardtable_error(
            py,
            "InvalidBudgetError",
            format!("prior must be 0 or more, not {prior}"),
        ));
    }
    Ok(search::Settings {
        budget: search::Budget {
            iterations,
            seconds,
        },
        exploration,
        stop_early,
        rollout,
        threads,
        inference,
        prior,
    })
}

/// A search's inference from its Python arguments: none while `belief` and `choice` are
/// both 0 (the search then samples its deals alike, its random stream as before).
pub(crate) fn search_inference(
    belief: f64,
    choice: f64,
    deals: usize,
) -> Option<search::Inference> {
    (belief != 0.0 || choice != 0.0).then_some(search::Inference {
        plays: belief,
        choice,
        deals,
    })
}

/// A search's answer for Python: the action, each root action's visits and mean return,
/// the iterations, the seconds and each root action's spread of returns.
pub(crate) fn search_outcome(
    py: Python<'_>,
    found: Result<search::Found, search::SearchError>,
) -> PyResult<SearchOutcome> {
    let found = found.map_err(|e| search_error(py, e))?;
    Ok((
        found.action,
        found.visits.into_iter().collect(),
        found.values.into_iter().collect(),
        found.iterations,
        found.seconds,
        found.deviations.into_iter().collect(),
    ))
}

/// PIMC's judgement in the shape of `search`'s outcome, every deal counting as a visit of
/// every action, with each gap's standard error after it.
pub(crate) fn judge_outcome<G>(
    py: Python<'_>,
    knowledge: &G::Knowledge,
    settings: pimc::Settings<G::Model>,
    seed: u64,
) -> PyResult<JudgeOutcome>
where
    G: pimc::Solve,
    G::Knowledge: Sync,
{
    let judged = py.allow_threads(|| {
        let mut rng = PlayoutRng::seed_from_u64(seed);
        pimc::judge::<G>(knowledge, &mut rng, &settings)
    });
    let judged = judged.map_err(|e| search_error(py, e))?;
    let visits = judged
        .values
        .iter()
        .map(|&(a, _)| (a, judged.deals as u32))
        .collect();
    Ok((
        judged.action,
        visits,
        judged.values.into_iter().collect(),
        judged.deals,
        judged.seconds,
        judged.errors.into_iter().collect(),
    ))
}
