//! `cardtable._core`: the compiled engine under Python, kept thin. Each game of the core
//! is bound twice by one macro: a game class (options fixed; new states, positions and
//! batches of random games) and a state class (the protocol's hot half: to move, legal
//! actions, apply, position, returns, playouts). States cross the boundary as position
//! text; batches cross it once for many games and release the GIL while they run.

use numpy::{
    BorrowError, Element, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods,
    PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple};

use cardtable_core::game::{
    self, actions_of, ActionError, ActionMask, Determinize, Game, OptionValue, PlayoutRng, Stacked,
};
use cardtable_core::rollout::{Guided, Script};
use cardtable_core::vector::{self, Agents, Autoreset, BatchError, Opponent};
use cardtable_core::{
    knockout_whist, kryt_navalivat, pimc, search, KnockoutWhist, KrytNavalivat, Neuf, Observe,
};
use rand::SeedableRng;

/// A `cardtable.errors` exception with `message`, so that Python callers catch the same
/// classes from either engine.
fn cardtable_error(py: Python<'_>, class: &str, message: String) -> PyErr {
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
fn action_error(py: Python<'_>, error: ActionError) -> PyErr {
    match error {
        ActionError::Card(why) => cardtable_error(py, "InvalidCardError", why),
        ActionError::Action(why) => cardtable_error(py, "InvalidActionError", why),
    }
}

/// A search's outcome as Python receives it: the action, visits and mean returns per root
/// action, iterations, seconds.
type SearchOutcome = (
    usize,
    std::collections::BTreeMap<usize, u32>,
    std::collections::BTreeMap<usize, f64>,
    u64,
    f64,
);

/// A `ValueError` when a scripted policy asked for more draws than it was given.
fn ran_out(script: &Script<'_>) -> PyResult<()> {
    if script.ran_out() {
        return Err(PyValueError::new_err(format!(
            "the draws ran out: the policy asked for {} or more",
            script.used
        )));
    }
    Ok(())
}

/// A seat's knowledge read from its view's JSON text.
fn knowledge_of<G: Determinize>(
    py: Python<'_>,
    options: &G::Options,
    view: &str,
) -> PyResult<G::Knowledge> {
    let value: serde_json::Value = serde_json::from_str(view)
        .map_err(|e| cardtable_error(py, "InvalidPositionError", format!("a view is JSON: {e}")))?;
    G::knowledge(options, &value).map_err(|e| cardtable_error(py, "InvalidPositionError", e.0))
}

/// Python keyword options as the core reads them.
fn option_pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, OptionValue)>> {
    let mut pairs = Vec::new();
    let Some(options) = options else {
        return Ok(pairs);
    };
    for (key, value) in options.iter() {
        let name: String = key.extract()?;
        let value = if value.is_none() {
            OptionValue::None
        } else if value.is_instance_of::<PyBool>() {
            OptionValue::Bool(value.extract()?)
        } else if value.is_instance_of::<PyInt>() {
            match value.extract::<i64>() {
                Ok(v) => OptionValue::Int(v),
                Err(_) => OptionValue::Str(value.str()?.to_string()),
            }
        } else if value.is_instance_of::<PyString>() {
            OptionValue::Str(value.extract()?)
        } else {
            OptionValue::Str(value.repr()?.to_string())
        };
        pairs.push((name, value));
    }
    Ok(pairs)
}

fn mask_actions(mask: ActionMask) -> Vec<usize> {
    actions_of(mask)
}

/// An observer's seat, checked: a `ValueError` for anything but a seat of the game.
fn observer_seat(seat: isize, players: usize) -> PyResult<usize> {
    match usize::try_from(seat) {
        Ok(s) if s < players => Ok(s),
        _ => Err(PyValueError::new_err(format!(
            "seat {seat} is not a seat of this {players}-player game (0-{})",
            players - 1
        ))),
    }
}

/// `out` as a writable float32 array of shape `(size,)`, C-contiguous, borrowed for
/// writing; a `ValueError` naming what is wrong otherwise.
fn observation_buffer<'py>(
    out: &Bound<'py, PyAny>,
    size: usize,
) -> PyResult<PyReadwriteArray1<'py, f32>> {
    let want = format!("a writable C-contiguous float32 NumPy array of shape ({size},)");
    let Ok(array) = out.downcast::<PyUntypedArray>() else {
        let kind = out.get_type().name()?;
        return Err(PyValueError::new_err(format!(
            "the observation buffer must be {want}, not a {kind}"
        )));
    };
    let dtype = array.dtype();
    if !dtype.is_equiv_to(&numpy::dtype::<f32>(out.py())) || array.shape() != [size] {
        return Err(PyValueError::new_err(format!(
            "the observation buffer must be {want}, not a {} array of shape {:?}",
            dtype.str()?,
            array.shape()
        )));
    }
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "the observation buffer must be {want}: this one is not contiguous"
        )));
    }
    array
        .downcast::<PyArray1<f32>>()?
        .try_readwrite()
        .map_err(|e| {
            let why = match e {
                BorrowError::NotWriteable => "this one is read-only",
                _ => "this one is in use",
            };
            PyValueError::new_err(format!("the observation buffer must be {want}: {why}"))
        })
}

/// One opponent kind by name.
fn opponent_kind(py: Python<'_>, name: &str) -> PyResult<Opponent> {
    match name {
        "random" => Ok(Opponent::Random),
        "guided" => Ok(Opponent::Guided),
        other => Err(cardtable_error(
            py,
            "InvalidOptionError",
            format!("an opponent is 'random' or 'guided', not {other:?}"),
        )),
    }
}

/// The agents of a batch: `"self"` (every seat), one opponent kind for every other seat, or
/// a list of one per other seat.
fn batch_agents(
    py: Python<'_>,
    opponents: Option<&Bound<'_, PyAny>>,
    seat: Option<usize>,
    players: usize,
) -> PyResult<Agents> {
    let kinds = match opponents {
        None => vec![Opponent::Random; players - 1],
        Some(value) => {
            if let Ok(name) = value.extract::<String>() {
                if name == "self" {
                    return Ok(Agents::All);
                }
                vec![opponent_kind(py, &name)?; players - 1]
            } else {
                let names: Vec<String> = value.extract().map_err(|_| {
                    cardtable_error(
                        py,
                        "InvalidOptionError",
                        "opponents is 'self', 'random', 'guided' or a list of one of the last \
                         two per other seat"
                            .into(),
                    )
                })?;
                names
                    .iter()
                    .map(|n| opponent_kind(py, n))
                    .collect::<PyResult<_>>()?
            }
        }
    };
    Ok(Agents::One {
        seat,
        opponents: kinds,
    })
}

/// A refused batch or step as a `cardtable.errors` exception (`ValueError`s all).
fn batch_error(py: Python<'_>, error: BatchError, text: impl Fn(usize) -> String) -> PyErr {
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

/// An array a batch owns, borrowed for writing (a `ValueError` when it is in use or was made
/// read-only).
fn writable<'py, T: Element>(
    array: &'py Bound<'py, PyArrayDyn<T>>,
    name: &str,
) -> PyResult<PyReadwriteArrayDyn<'py, T>> {
    array.try_readwrite().map_err(|e| {
        PyValueError::new_err(format!(
            "the batch cannot write its {name} array: {}",
            match e {
                BorrowError::NotWriteable => "it was made read-only",
                _ => "it is in use",
            }
        ))
    })
}

macro_rules! bind_game {
    ($game:ty, $pygame:ident, $pystate:ident, $pybatch:ident, $gamename:literal, $statename:literal, $batchname:literal) => {
        /// A game of the core with its options fixed.
        #[pyclass(name = $gamename, module = "cardtable._core", frozen)]
        struct $pygame {
            options: <$game as Game>::Options,
        }

        #[pymethods]
        impl $pygame {
            #[new]
            #[pyo3(signature = (**options))]
            fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
                let pairs = option_pairs(options)?;
                let options = <$game>::options(&pairs)
                    .map_err(|e| cardtable_error(py, "InvalidOptionError", e.0))?;
                Ok(Self { options })
            }

            /// The game's name, as `cardtable.make` takes it.
            #[getter]
            fn name(&self) -> &'static str {
                <$game>::NAME
            }

            #[getter]
            fn num_players(&self) -> usize {
                <$game>::options_players(&self.options)
            }

            #[getter]
            fn num_distinct_actions(&self) -> usize {
                <$game>::NUM_ACTIONS
            }

            /// The length of a seat's observation vector (`layout(game).size` of
            /// `cardtable.rl.observation`).
            #[getter]
            fn observation_size(&self) -> usize {
                <$game as Observe>::observation_size(<$game>::options_players(&self.options))
            }

            /// The shape of a seat's observation array: `(observation_size,)`.
            #[getter]
            fn observation_shape(&self) -> (usize,) {
                (self.observation_size(),)
            }

            /// A new game as the Python engine's `begin`: the first deal from the stacked
            /// decks, then from the seed. `dealer` defaults to the option, else the seed's.
            #[pyo3(signature = (seed, dealer = None, decks = None, reshuffles = None))]
            fn new_state(
                &self,
                py: Python<'_>,
                seed: i128,
                dealer: Option<usize>,
                decks: Option<Vec<Vec<u8>>>,
                reshuffles: Option<Vec<Vec<u8>>>,
            ) -> PyResult<$pystate> {
                let decks = decks.unwrap_or_default();
                let reshuffles = reshuffles.unwrap_or_default();
                let dealer =
                    dealer.unwrap_or_else(|| game::first_dealer::<$game>(&self.options, seed));
                let players = <$game>::options_players(&self.options);
                if dealer >= players {
                    return Err(cardtable_error(
                        py,
                        "InvalidOptionError",
                        format!("dealer must be a seat 0-{}, not {dealer}", players - 1),
                    ));
                }
                if let Some(bad) = decks
                    .iter()
                    .chain(&reshuffles)
                    .flatten()
                    .find(|&&c| c >= 52)
                {
                    return Err(cardtable_error(
                        py,
                        "InvalidDeckError",
                        format!("card index {bad} is outside 0-51"),
                    ));
                }
                let stacked = Stacked { decks, reshuffles };
                <$game>::begin(&self.options, seed, dealer, stacked)
                    .map(|inner| $pystate { inner })
                    .map_err(|e| cardtable_error(py, "InvalidRecordError", e.0))
            }

            /// An action's canonical text (`play 7D`, `knock`, …).
            fn action_text(&self, py: Python<'_>, action: usize) -> PyResult<String> {
                if action >= <$game>::NUM_ACTIONS {
                    return Err(cardtable_error(
                        py,
                        "InvalidActionError",
                        format!(
                            "action number {action} is outside 0-{} for {}",
                            <$game>::NUM_ACTIONS - 1,
                            <$game>::NAME
                        ),
                    ));
                }
                Ok(<$game>::action_text(action))
            }

            /// An action's number from its text, read as the Python game reads it.
            fn parse_action(&self, py: Python<'_>, text: &str) -> PyResult<usize> {
                <$game>::parse_action(text).map_err(|e| action_error(py, e))
            }

            /// The state a record describes: its chance stacked (`new_state`), then its
            /// actions, as text, each checked; `InvalidRecordError` names the first that
            /// does not replay.
            #[pyo3(signature = (seed, dealer = None, decks = None, reshuffles = None, actions = None))]
            fn replay(
                &self,
                py: Python<'_>,
                seed: i128,
                dealer: Option<usize>,
                decks: Option<Vec<Vec<u8>>>,
                reshuffles: Option<Vec<Vec<u8>>>,
                actions: Option<Vec<String>>,
            ) -> PyResult<$pystate> {
                let mut state = self.new_state(py, seed, dealer, decks, reshuffles)?;
                for (index, text) in actions.unwrap_or_default().iter().enumerate() {
                    let number = match <$game>::parse_action(text) {
                        Ok(number) if state.is_legal(number) => Ok(number),
                        Ok(_) => Err(format!("{text} is not legal now")),
                        Err(ActionError::Card(why) | ActionError::Action(why)) => Err(why),
                    };
                    match number {
                        Ok(number) => state.inner.apply(number),
                        Err(why) => {
                            return Err(cardtable_error(
                                py,
                                "InvalidRecordError",
                                format!("action {index} ({text:?}) does not replay: {why}"),
                            ))
                        }
                    }
                }
                Ok(state)
            }

            /// `count` states sampled from what a seat knows (its view, as JSON text), each a
            /// position; sample `i` draws from a generator seeded with `seed + i`. The
            /// determinizer of search; the GIL is released while sampling.
            fn sample_positions(
                &self,
                py: Python<'_>,
                view: &str,
                count: usize,
                seed: u64,
            ) -> PyResult<Vec<String>> {
                let knowledge = knowledge_of::<$game>(py, &self.options, view)?;
                Ok(py.allow_threads(|| {
                    (0..count)
                        .map(|i| {
                            let mut rng = PlayoutRng::seed_from_u64(seed.wrapping_add(i as u64));
                            <$game>::sample(&knowledge, &mut rng).position()
                        })
                        .collect()
                }))
            }

            /// SO-ISMCTS for the seat whose view (JSON text) this is, on its turn, in one
            /// call that releases the GIL: the chosen action, each root action's visits and
            /// mean return, the iterations run and the seconds taken. `rollout` is `"guided"`
            /// (the game's policy to the end of the hand, and its estimate there) or
            /// `"random"` (uniform to the end of the game); `threads` trees grow side by
            /// side and their roots are summed; `solve` > 0 (guided rollouts, a game with a
            /// solver) solves the hand exactly instead of rolling out once at most that many
            /// cards are left in all hands. Seeded: with an iteration budget alone the
            /// result is a function of the view, `seed` and `threads`.
            #[pyo3(signature = (view, iterations = None, seconds = None, exploration = 0.7, seed = 0, stop_early = true, rollout = "guided", threads = 1, solve = 0))]
            #[allow(clippy::too_many_arguments)]
            fn search(
                &self,
                py: Python<'_>,
                view: &str,
                iterations: Option<u64>,
                seconds: Option<f64>,
                exploration: f64,
                seed: u64,
                stop_early: bool,
                rollout: &str,
                threads: usize,
                solve: u32,
            ) -> PyResult<SearchOutcome> {
                let knowledge = knowledge_of::<$game>(py, &self.options, view)?;
                let settings =
                    search_settings(py, iterations, seconds, exploration, stop_early, rollout, threads, solve)?;
                let found = py.allow_threads(|| {
                    let mut rng = PlayoutRng::seed_from_u64(seed);
                    search::search::<$game>(&knowledge, &mut rng, &settings)
                });
                search_outcome(py, found)
            }

            /// The cheater's search, a measuring stick no seat may use: `search`'s, but on
            /// the state a position text describes, every card in view (the stock's order
            /// too), for the seat to move; the same settings and answer as `search`.
            #[pyo3(signature = (position, iterations = None, seconds = None, exploration = 0.7, seed = 0, stop_early = true, rollout = "guided", threads = 1, solve = 0))]
            #[allow(clippy::too_many_arguments)]
            fn search_seeing(
                &self,
                py: Python<'_>,
                position: &str,
                iterations: Option<u64>,
                seconds: Option<f64>,
                exploration: f64,
                seed: u64,
                stop_early: bool,
                rollout: &str,
                threads: usize,
                solve: u32,
            ) -> PyResult<SearchOutcome> {
                let state = <$game>::from_position(&self.options, position)
                    .map_err(|e| cardtable_error(py, "InvalidPositionError", e.0))?;
                let settings =
                    search_settings(py, iterations, seconds, exploration, stop_early, rollout, threads, solve)?;
                let found = py.allow_threads(|| {
                    let mut rng = PlayoutRng::seed_from_u64(seed);
                    search::search_seeing::<$game>(&state, &mut rng, &settings)
                });
                search_outcome(py, found)
            }

            /// The state a position text describes; `InvalidPositionError` naming the field
            /// for text the Python engine would refuse.
            fn state_from_position(&self, py: Python<'_>, text: &str) -> PyResult<$pystate> {
                <$game>::from_position(&self.options, text)
                    .map(|inner| $pystate { inner })
                    .map_err(|e| cardtable_error(py, "InvalidPositionError", e.0))
            }

            /// One random game per seed, each dealt as `new_state(seed)` deals it and played
            /// by uniformly random legal actions; returns each game's returns (one row a game)
            /// and the number of decisions taken in all. The GIL is released meanwhile.
            fn random_games<'py>(
                &self,
                py: Python<'py>,
                seeds: Vec<i128>,
            ) -> PyResult<(Bound<'py, PyArray2<f64>>, u64)> {
                let options = self.options.clone();
                let batch = py.allow_threads(|| game::random_games::<$game>(&options, &seeds));
                let players = <$game>::options_players(&self.options);
                let array =
                    PyArray1::from_vec(py, batch.returns).reshape([seeds.len(), players])?;
                Ok((array, batch.decisions))
            }

            /// A batch of `num_games` games of this variant stepped together:
            /// `opponents` is `"random"`, `"guided"` (the rollout policy, cheap play in the
            /// manner of `easy`), a list of one of those per other seat (from the agent's
            /// left), or `"self"` (self-play: every seat is the agent). `seat` is the
            /// agent's seat, `None` to draw it at each deal. `autoreset` is `"next_step"` or
            /// `"same_step"`; `max_actions` truncates a game; `threads` step it.
            #[pyo3(
                signature = (num_games, opponents = None, seat = Some(0), max_actions = None, autoreset = "next_step", threads = 1),
                text_signature = "(self, /, num_games, opponents=None, seat=0, max_actions=None, autoreset='next_step', threads=1)"
            )]
            #[allow(clippy::too_many_arguments)]
            fn batch(
                &self,
                py: Python<'_>,
                num_games: usize,
                opponents: Option<&Bound<'_, PyAny>>,
                seat: Option<usize>,
                max_actions: Option<u32>,
                autoreset: &str,
                threads: usize,
            ) -> PyResult<$pybatch> {
                let players = <$game>::options_players(&self.options);
                let agents = batch_agents(py, opponents, seat, players)?;
                let autoreset = match autoreset {
                    "next_step" => Autoreset::NextStep,
                    "same_step" => Autoreset::SameStep,
                    other => {
                        return Err(cardtable_error(
                            py,
                            "InvalidOptionError",
                            format!("autoreset is 'next_step' or 'same_step', not {other:?}"),
                        ))
                    }
                };
                let config = vector::Config {
                    options: self.options.clone(),
                    games: num_games,
                    agents,
                    max_actions,
                    autoreset,
                    threads,
                };
                let inner = vector::Batch::<$game>::new(config)
                    .map_err(|e| batch_error(py, e, <$game>::action_text))?;
                $pybatch::new(py, inner)
            }

            fn __repr__(&self) -> String {
                format!("<cardtable._core.{} {:?}>", $gamename, self.options)
            }
        }

        /// A batch of games held in the core (`<Game>.batch(...)`): the arrays it writes are
        /// its own, made once and overwritten in place by each `reset` and `step`.
        #[pyclass(name = $batchname, module = "cardtable._core")]
        struct $pybatch {
            inner: vector::Batch<$game>,
            #[pyo3(get)]
            observations: Py<PyArrayDyn<f32>>,
            #[pyo3(get)]
            masks: Py<PyArrayDyn<i8>>,
            #[pyo3(get)]
            rewards: Py<PyArrayDyn<f32>>,
            #[pyo3(get)]
            terminations: Py<PyArrayDyn<bool>>,
            #[pyo3(get)]
            truncations: Py<PyArrayDyn<bool>>,
            #[pyo3(get)]
            to_move: Py<PyArrayDyn<i64>>,
            #[pyo3(get)]
            seats: Py<PyArrayDyn<i64>>,
            #[pyo3(get)]
            final_observations: Py<PyArrayDyn<f32>>,
        }

        impl $pybatch {
            fn new(py: Python<'_>, inner: vector::Batch<$game>) -> PyResult<Self> {
                let (n, players) = (inner.len(), inner.players());
                let size = inner.observation_size();
                let actions = <$game>::NUM_ACTIONS;
                let per_game = |tail: &[usize]| {
                    let mut shape = vec![n];
                    if matches!(inner.config().agents, Agents::All) {
                        shape.push(players);
                    }
                    shape.extend_from_slice(tail);
                    shape
                };
                let finals = match inner.config().autoreset {
                    Autoreset::SameStep => per_game(&[size]),
                    Autoreset::NextStep => vec![0],
                };
                Ok(Self {
                    observations: PyArrayDyn::zeros(py, per_game(&[size]), false).unbind(),
                    masks: PyArrayDyn::zeros(py, per_game(&[actions]), false).unbind(),
                    rewards: PyArrayDyn::zeros(py, per_game(&[]), false).unbind(),
                    terminations: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    truncations: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    to_move: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    seats: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    final_observations: PyArrayDyn::zeros(py, finals, false).unbind(),
                    inner,
                })
            }

            /// Borrows every array for writing and runs `f` on the batch and them, the GIL
            /// released.
            fn with_buffers(
                &mut self,
                py: Python<'_>,
                f: impl FnOnce(&mut vector::Batch<$game>, vector::Buffers<'_>) -> Result<(), BatchError>
                    + Send,
            ) -> PyResult<()> {
                let (o, m, r) = (
                    self.observations.bind(py),
                    self.masks.bind(py),
                    self.rewards.bind(py),
                );
                let (te, tr, t, s, f2) = (
                    self.terminations.bind(py),
                    self.truncations.bind(py),
                    self.to_move.bind(py),
                    self.seats.bind(py),
                    self.final_observations.bind(py),
                );
                let mut o = writable(o, "observations")?;
                let mut m = writable(m, "masks")?;
                let mut r = writable(r, "rewards")?;
                let mut te = writable(te, "terminations")?;
                let mut tr = writable(tr, "truncations")?;
                let mut t = writable(t, "to_move")?;
                let mut s = writable(s, "seats")?;
                let mut f2 = writable(f2, "final_observations")?;
                let out = vector::Buffers {
                    observations: o.as_slice_mut()?,
                    masks: m.as_slice_mut()?,
                    rewards: r.as_slice_mut()?,
                    terminations: te.as_slice_mut()?,
                    truncations: tr.as_slice_mut()?,
                    to_move: t.as_slice_mut()?,
                    seats: s.as_slice_mut()?,
                    final_observations: if matches!(
                        self.inner.config().autoreset,
                        Autoreset::SameStep
                    ) {
                        f2.as_slice_mut()?
                    } else {
                        &mut []
                    },
                };
                let inner = &mut self.inner;
                py.allow_threads(move || f(inner, out))
                    .map_err(|e| batch_error(py, e, <$game>::action_text))
            }

            fn game_index(&self, index: isize) -> PyResult<usize> {
                match usize::try_from(index) {
                    Ok(i) if i < self.inner.len() => Ok(i),
                    _ => Err(pyo3::exceptions::PyIndexError::new_err(format!(
                        "game {index} is not one of the batch's {} games (0-{})",
                        self.inner.len(),
                        self.inner.len() - 1
                    ))),
                }
            }
        }

        #[pymethods]
        impl $pybatch {
            /// Deals every game anew: from base seed `seed` (game `i` from
            /// `game_seed(seed, i)`), from one generator seed per game (`seeds`, a uint64
            /// array), or, with neither, each game's generator carrying on.
            #[pyo3(signature = (seed = None, seeds = None))]
            fn reset(
                &mut self,
                py: Python<'_>,
                seed: Option<u64>,
                seeds: Option<PyReadonlyArray1<'_, u64>>,
            ) -> PyResult<()> {
                match (seed, seeds) {
                    (Some(_), Some(_)) => Err(PyValueError::new_err(
                        "give seed or seeds, not both",
                    )),
                    (Some(seed), None) => self.with_buffers(py, |b, out| b.reset_from(seed, out)),
                    (None, Some(seeds)) => {
                        let seeds = seeds.as_slice()?.to_vec();
                        self.with_buffers(py, |b, out| b.reset(Some(&seeds), out))
                    }
                    (None, None) => self.with_buffers(py, |b, out| b.reset(None, out)),
                }
            }

            /// Plays one action per game (an int64 array of `num_games`: the agent's, or in
            /// self-play the seat to move's), every one checked before any is played, then
            /// the opponents; the arrays are overwritten. The GIL is released meanwhile.
            fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
                let actions = actions.as_slice()?;
                self.with_buffers(py, |b, out| b.step(actions, out))
            }


            #[getter]
            fn num_games(&self) -> usize {
                self.inner.len()
            }
            #[getter]
            fn num_players(&self) -> usize {
                self.inner.players()
            }
            #[getter]
            fn num_distinct_actions(&self) -> usize {
                <$game>::NUM_ACTIONS
            }
            #[getter]
            fn observation_size(&self) -> usize {
                self.inner.observation_size()
            }
            /// Whether every seat is the agent (self-play).
            #[getter]
            fn self_play(&self) -> bool {
                matches!(self.inner.config().agents, Agents::All)
            }
            #[getter]
            fn autoreset(&self) -> &'static str {
                match self.inner.config().autoreset {
                    Autoreset::NextStep => "next_step",
                    Autoreset::SameStep => "same_step",
                }
            }
            #[getter]
            fn max_actions(&self) -> Option<u32> {
                self.inner.config().max_actions
            }
            #[getter]
            fn threads(&self) -> usize {
                self.inner.config().threads
            }
            #[setter]
            fn set_threads(&mut self, py: Python<'_>, threads: usize) -> PyResult<()> {
                self.inner
                    .set_threads(threads)
                    .map_err(|e| batch_error(py, e, <$game>::action_text))
            }

            /// Game `index`'s position text (for tests and inspection).
            fn position(&self, index: isize) -> PyResult<String> {
                Ok(self.inner.state(self.game_index(index)?).position())
            }

            /// Every game's position text.
            fn positions(&self) -> Vec<String> {
                (0..self.inner.len())
                    .map(|i| self.inner.state(i).position())
                    .collect()
            }

            /// A copy of game `index`'s state.
            fn state(&self, index: isize) -> PyResult<$pystate> {
                Ok($pystate {
                    inner: self.inner.state(self.game_index(index)?).clone(),
                })
            }

            fn __len__(&self) -> usize {
                self.inner.len()
            }

            fn __repr__(&self) -> String {
                format!(
                    "<cardtable._core.{} {} games, {:?}>",
                    $batchname,
                    self.inner.len(),
                    self.inner.config().agents
                )
            }
        }

        /// A state of the core: the same game, step for step, as the Python engine's.
        #[pyclass(name = $statename, module = "cardtable._core")]
        #[derive(Clone)]
        struct $pystate {
            inner: $game,
        }

        #[pymethods]
        impl $pystate {
            /// The seat to act, `None` once the game is over.
            #[getter]
            fn to_move(&self) -> Option<usize> {
                self.inner.to_move()
            }

            #[getter]
            fn is_over(&self) -> bool {
                self.inner.to_move().is_none()
            }

            #[getter]
            fn num_players(&self) -> usize {
                self.inner.players()
            }

            /// Numbers of the legal actions, ascending.
            fn legal_action_ids(&self) -> Vec<usize> {
                mask_actions(self.inner.legal_mask())
            }

            /// The legal actions as the game's own objects, `table[a]` for each legal `a`
            /// ascending (`table`: the Python game's `actions`): the public
            /// `legal_actions()` in one call.
            fn legal_from<'py>(
                &self,
                py: Python<'py>,
                table: &Bound<'py, PyTuple>,
            ) -> PyResult<Bound<'py, PyList>> {
                let items = mask_actions(self.inner.legal_mask())
                    .into_iter()
                    .map(|a| table.get_item(a))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)
            }

            /// The legal actions as one integer: bit `a` set when action `a` is legal.
            fn legal_mask(&self) -> u128 {
                self.inner.legal_mask()
            }

            fn is_legal(&self, action: usize) -> bool {
                action < 128 && self.inner.legal_mask() >> action & 1 == 1
            }

            /// Applies a legal action by number; an illegal one raises
            /// `IllegalActionError` and changes nothing.
            fn apply(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
                if !self.is_legal(action) {
                    let why = match self.inner.to_move() {
                        None => format!("the game is over; action {action} cannot be played"),
                        Some(seat) => format!(
                            "action {action} is not legal for seat {seat} now; legal: {:?}",
                            self.legal_action_ids()
                        ),
                    };
                    return Err(cardtable_error(py, "IllegalActionError", why));
                }
                self.inner.apply(action);
                Ok(())
            }

            /// Applies a legal action by number, as `apply` does, and hands back the state
            /// as it was before the action when the action drew a chance event (a deal or a
            /// reshuffle), else `None`: the run-time engine (`cardtable.engines`) redraws
            /// such an event on the Python side when a table deals its own decks.
            fn step(&mut self, py: Python<'_>, action: usize) -> PyResult<Option<Self>> {
                let before = self.clone();
                self.apply(py, action)?;
                Ok((self.inner.chance_drawn() != before.inner.chance_drawn()).then_some(before))
            }

            /// `seat`'s observation of this state: a new float32 array with the layout of
            /// `cardtable.rl.observation` (what `encode(game, state.view(seat))` gives).
            fn observation<'py>(
                &self,
                py: Python<'py>,
                seat: isize,
            ) -> PyResult<Bound<'py, PyArray1<f32>>> {
                let players = self.inner.players();
                let seat = observer_seat(seat, players)?;
                let size = <$game as Observe>::observation_size(players);
                let array = PyArray1::<f32>::zeros(py, size, false);
                {
                    let mut view = array.readwrite();
                    self.inner.observe(seat, view.as_slice_mut()?);
                }
                Ok(array)
            }

            /// Writes `seat`'s observation into `out` (a writable, C-contiguous float32
            /// array of shape `(observation_size,)`), overwriting all of it; a
            /// `ValueError` for a wrong seat or buffer, and then `out` is left as it was.
            fn observe_into(&self, seat: isize, out: &Bound<'_, PyAny>) -> PyResult<()> {
                let players = self.inner.players();
                let seat = observer_seat(seat, players)?;
                let size = <$game as Observe>::observation_size(players);
                let mut view = observation_buffer(out, size)?;
                self.inner.observe(seat, view.as_slice_mut()?);
                Ok(())
            }

            /// The position text, byte for byte as the Python engine writes it.
            fn position(&self) -> String {
                self.inner.position()
            }

            /// The result's returns once the game is over, else `None`.
            fn returns(&self) -> Option<Vec<f64>> {
                self.inner
                    .returns()
                    .map(|r| r[..self.inner.players()].to_vec())
            }

            fn copy(&self) -> Self {
                self.clone()
            }

            fn __copy__(&self) -> Self {
                self.clone()
            }

            /// Plays uniformly random legal actions to the end, drawn from a generator
            /// seeded with `seed`; returns the actions taken.
            fn playout(&mut self, py: Python<'_>, seed: u64) -> Vec<u16> {
                let state = &mut self.inner;
                py.allow_threads(|| {
                    let mut rng = PlayoutRng::seed_from_u64(seed);
                    let mut taken = Vec::new();
                    while state.to_move().is_some() {
                        let action = state.random_action(&mut rng);
                        state.apply(action);
                        taken.push(action as u16);
                    }
                    taken
                })
            }

            /// `count` random playouts from this state (which is left as it is), playout `i`
            /// seeded with `seed + i`: each one's returns (a row each) and the decisions
            /// taken in all. The GIL is released meanwhile.
            fn playouts<'py>(
                &self,
                py: Python<'py>,
                count: usize,
                seed: u64,
            ) -> PyResult<(Bound<'py, PyArray2<f64>>, u64)> {
                let state = self.inner.clone();
                let batch = py.allow_threads(|| game::playouts_from(&state, count, seed));
                let players = self.inner.players();
                let array = PyArray1::from_vec(py, batch.returns).reshape([count, players])?;
                Ok((array, batch.decisions))
            }

            /// The guided rollout policy's action for the seat to move, drawing its random
            /// numbers from `draws` in order (to hold it equal to the Python policy given the
            /// same draws); also how many draws it took.
            fn guided_action(&self, py: Python<'_>, draws: Vec<f64>) -> PyResult<(usize, usize)> {
                if self.inner.to_move().is_none() {
                    return Err(cardtable_error(
                        py,
                        "IllegalActionError",
                        "the game is over; there is no action to choose".into(),
                    ));
                }
                let mut script = Script::new(&draws);
                let action = self.inner.guided_action(&mut script);
                ran_out(&script)?;
                Ok((action, script.used))
            }

            /// Search's guided rollout from this state (which is left as it is), drawing
            /// from `draws` in order: every seat's return, exact or estimated, and how many
            /// draws it took.
            fn guided_rollout(&self, draws: Vec<f64>) -> PyResult<(Vec<f64>, usize)> {
                let mut state = self.inner.clone();
                let mut script = Script::new(&draws);
                let returns = state.guided_rollout(&mut script);
                ran_out(&script)?;
                Ok((returns[..state.players()].to_vec(), script.used))
            }

            fn __repr__(&self) -> String {
                format!("<cardtable._core.{} {}>", $statename, self.inner.position())
            }
        }
    };
}

bind_game!(
    KnockoutWhist,
    KnockoutWhistGame,
    KnockoutWhistState,
    KnockoutWhistBatch,
    "KnockoutWhist",
    "KnockoutWhistState",
    "KnockoutWhistBatch"
);
bind_game!(
    Neuf,
    NeufGame,
    NeufState,
    NeufBatch,
    "Neuf",
    "NeufState",
    "NeufBatch"
);
bind_game!(
    KrytNavalivat,
    KrytNavalivatGame,
    KrytNavalivatState,
    KrytNavalivatBatch,
    "KrytNavalivat",
    "KrytNavalivatState",
    "KrytNavalivatBatch"
);

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

// Each game's solver has its own shape (Kryt'-navalivat's a horizon, Neuf's an exchange),
// so the solvers are bound outside the macro.
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
    /// action, each legal action's weighted mean value, the deals solved and the seconds
    /// taken. Budget: `deals`, `seconds` or both; `threads` solve side by side. The GIL is
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
    ) -> PyResult<SearchOutcome> {
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
    /// legal action's mean value, the deals solved and the seconds taken. `belief` is
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
    ) -> PyResult<SearchOutcome> {
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

/// A search's settings from its Python arguments; `InvalidBudgetError` for a bad rollout or
/// exploration (the budget and threads are checked by the search itself).
#[allow(clippy::too_many_arguments)]
fn search_settings(
    py: Python<'_>,
    iterations: Option<u64>,
    seconds: Option<f64>,
    exploration: f64,
    stop_early: bool,
    rollout: &str,
    threads: usize,
    solve: u32,
) -> PyResult<search::Settings> {
    let rollout = match rollout {
        "guided" if solve > 0 => search::Rollout::Solved(solve),
        "guided" => search::Rollout::Guided,
        "random" => search::Rollout::Uniform,
        other => {
            return Err(cardtable_error(
                py,
                "InvalidBudgetError",
                format!("rollout must be 'guided' or 'random', not {other:?}"),
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
    Ok(search::Settings {
        budget: search::Budget {
            iterations,
            seconds,
        },
        exploration,
        stop_early,
        rollout,
        threads,
    })
}

/// A search's answer for Python: the action, each root action's visits and mean return,
/// the iterations and the seconds.
fn search_outcome(
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
    ))
}

/// A search's or PIMC's refusal as Python's exception: bad settings are an
/// `InvalidBudgetError`, a seat whose turn it is not a `CardtableError`.
fn search_error(py: Python<'_>, error: search::SearchError) -> PyErr {
    match error {
        search::SearchError::Settings(why) => cardtable_error(py, "InvalidBudgetError", why),
        search::SearchError::NotTheTurn(why) => cardtable_error(py, "CardtableError", why),
    }
}

/// PIMC's judgement in the shape of `search`'s outcome, every deal counting as a visit of
/// every action.
fn judge_outcome<G>(
    py: Python<'_>,
    knowledge: &G::Knowledge,
    settings: pimc::Settings<G::Model>,
    seed: u64,
) -> PyResult<SearchOutcome>
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
    ))
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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<KnockoutWhistGame>()?;
    m.add_class::<KnockoutWhistState>()?;
    m.add_class::<NeufGame>()?;
    m.add_class::<NeufState>()?;
    m.add_class::<KrytNavalivatGame>()?;
    m.add_class::<KrytNavalivatState>()?;
    m.add_class::<KnockoutWhistBatch>()?;
    m.add_class::<NeufBatch>()?;
    m.add_class::<KrytNavalivatBatch>()?;
    m.add_function(wrap_pyfunction!(game_seed, m)?)?;
    m.add_function(wrap_pyfunction!(state_sizes, m)?)?;
    m.add_function(wrap_pyfunction!(broken_rule, m)?)?;
    Ok(())
}
