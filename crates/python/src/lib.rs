//! `cardtable._core`: the compiled engine under Python, kept thin. Each game of the core
//! is bound twice by one macro: a game class (options fixed; new states, positions and
//! batches of random games) and a state class (the protocol's hot half: to move, legal
//! actions, apply, position, returns, playouts). States cross the boundary as position
//! text; batches cross it once for many games and release the GIL while they run.

use numpy::{
    BorrowError, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadwriteArray1,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use cardtable_core::game::{
    self, actions_of, ActionError, ActionMask, Determinize, Game, OptionValue, PlayoutRng, Stacked,
};
use cardtable_core::rollout::{Guided, Script};
use cardtable_core::{search, KnockoutWhist, KrytNavalivat, Neuf, Observe};
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

macro_rules! bind_game {
    ($game:ty, $pygame:ident, $pystate:ident, $gamename:literal, $statename:literal) => {
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
            /// side and their roots are summed. Seeded: with an iteration budget alone the
            /// result is a function of the view, `seed` and `threads`.
            #[pyo3(signature = (view, iterations = None, seconds = None, exploration = 0.7, seed = 0, stop_early = true, rollout = "guided", threads = 1))]
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
            ) -> PyResult<SearchOutcome> {
                let knowledge = knowledge_of::<$game>(py, &self.options, view)?;
                let rollout = match rollout {
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
                let settings = search::Settings {
                    budget: search::Budget { iterations, seconds },
                    exploration,
                    stop_early,
                    rollout,
                    threads,
                };
                let found = py.allow_threads(|| {
                    let mut rng = PlayoutRng::seed_from_u64(seed);
                    search::search::<$game>(&knowledge, &mut rng, &settings)
                });
                let found = found.map_err(|e| match e {
                    search::SearchError::Settings(why) => {
                        cardtable_error(py, "InvalidBudgetError", why)
                    }
                    search::SearchError::NotTheTurn(why) => {
                        cardtable_error(py, "CardtableError", why)
                    }
                })?;
                Ok((
                    found.action,
                    found.visits.into_iter().collect(),
                    found.values.into_iter().collect(),
                    found.iterations,
                    found.seconds,
                ))
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

            fn __repr__(&self) -> String {
                format!("<cardtable._core.{} {:?}>", $gamename, self.options)
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
    "KnockoutWhist",
    "KnockoutWhistState"
);
bind_game!(Neuf, NeufGame, NeufState, "Neuf", "NeufState");
bind_game!(
    KrytNavalivat,
    KrytNavalivatGame,
    KrytNavalivatState,
    "KrytNavalivat",
    "KrytNavalivatState"
);

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
    m.add_function(wrap_pyfunction!(state_sizes, m)?)?;
    m.add_function(wrap_pyfunction!(broken_rule, m)?)?;
    Ok(())
}
