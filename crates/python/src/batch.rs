//! The batch classes (`<Game>.batch(...)`): many games held in the core and stepped
//! together, the GIL released, writing into NumPy arrays the batch owns.

use numpy::{
    BorrowError, Element, PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1,
    PyReadwriteArrayDyn,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use cardtable_core::game::Game;
use cardtable_core::rollout::Guided;
use cardtable_core::vector::{self, Agents, Autoreset, BatchError, Opponent};
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, Observe};

use crate::errors::{batch_error, cardtable_error};
use crate::state::{KnockoutWhistState, KrytNavalivatState, NeufState};

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
pub(crate) fn batch_agents(
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

/// What a call does to a batch, whatever its observations' element.
enum Op<'a> {
    Reset(Option<Vec<u64>>),
    ResetFrom(u64),
    Step(&'a [i64]),
}

impl Op<'_> {
    fn run<G: Game + Observe + Guided, O: vector::Cell>(
        self,
        batch: &mut vector::Batch<G>,
        out: vector::Buffers<'_, O>,
    ) -> Result<(), BatchError> {
        match self {
            Op::Reset(seeds) => batch.reset(seeds.as_deref(), out),
            Op::ResetFrom(seed) => batch.reset_from(seed, out),
            Op::Step(actions) => batch.step(actions, out),
        }
    }
}

macro_rules! bind_batch {
    ($game:ty, $pybatch:ident, $pystate:ident, $batchname:literal) => {
        /// A batch of games held in the core (`<Game>.batch(...)`): the arrays it writes are
        /// its own, made once and overwritten in place by each `reset` and `step`.
        #[pyclass(name = $batchname, module = "cardtable._core")]
        pub(crate) struct $pybatch {
            inner: vector::Batch<$game>,
            /// float32, or int8 when the batch was made with `divisors`.
            #[pyo3(get)]
            observations: PyObject,
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
            /// As `observations`.
            #[pyo3(get)]
            final_observations: PyObject,
        }

        impl $pybatch {
            pub(crate) fn new(py: Python<'_>, inner: vector::Batch<$game>) -> PyResult<Self> {
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
                let compact = !inner.config().divisors.is_empty();
                let observations = |shape: Vec<usize>| -> PyObject {
                    if compact {
                        PyArrayDyn::<i8>::zeros(py, shape, false)
                            .into_any()
                            .unbind()
                    } else {
                        PyArrayDyn::<f32>::zeros(py, shape, false)
                            .into_any()
                            .unbind()
                    }
                };
                Ok(Self {
                    observations: observations(per_game(&[size])),
                    masks: PyArrayDyn::zeros(py, per_game(&[actions]), false).unbind(),
                    rewards: PyArrayDyn::zeros(py, per_game(&[]), false).unbind(),
                    terminations: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    truncations: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    to_move: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    seats: PyArrayDyn::zeros(py, vec![n], false).unbind(),
                    final_observations: observations(finals),
                    inner,
                })
            }

            /// Borrows every array for writing and runs `op` on the batch and them, the GIL
            /// released.
            fn with_buffers(&mut self, py: Python<'_>, op: Op<'_>) -> PyResult<()> {
                if self.inner.config().divisors.is_empty() {
                    self.with_buffers_of::<f32>(py, op)
                } else {
                    self.with_buffers_of::<i8>(py, op)
                }
            }

            fn with_buffers_of<O: vector::Cell + Element>(
                &mut self,
                py: Python<'_>,
                op: Op<'_>,
            ) -> PyResult<()> {
                let o = self.observations.bind(py).downcast::<PyArrayDyn<O>>()?;
                let f2 = self
                    .final_observations
                    .bind(py)
                    .downcast::<PyArrayDyn<O>>()?;
                let (m, r) = (self.masks.bind(py), self.rewards.bind(py));
                let (te, tr, t, s) = (
                    self.terminations.bind(py),
                    self.truncations.bind(py),
                    self.to_move.bind(py),
                    self.seats.bind(py),
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
                py.allow_threads(move || op.run(inner, out))
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
                    (Some(_), Some(_)) => {
                        Err(PyValueError::new_err("give seed or seeds, not both"))
                    }
                    (Some(seed), None) => self.with_buffers(py, Op::ResetFrom(seed)),
                    (None, Some(seeds)) => {
                        self.with_buffers(py, Op::Reset(Some(seeds.as_slice()?.to_vec())))
                    }
                    (None, None) => self.with_buffers(py, Op::Reset(None)),
                }
            }

            /// Plays one action per game (an int64 array of `num_games`: the agent's, or in
            /// self-play the seat to move's), every one checked before any is played, then
            /// the opponents; the arrays are overwritten. The GIL is released meanwhile.
            fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
                self.with_buffers(py, Op::Step(actions.as_slice()?))
            }

            /// One uniformly random legal action per game for the seat that acts (0 where it
            /// has none), drawn in the core from each game's pick generator (seeded by
            /// `reset` from the game's seed, apart from its chance): a new int64 array.
            fn sample_actions<'py>(
                &mut self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, PyArray1<i64>>> {
                let mut out = vec![0i64; self.inner.len()];
                self.inner
                    .sample(&mut out)
                    .map_err(|e| batch_error(py, e, <$game>::action_text))?;
                Ok(PyArray1::from_vec(py, out))
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
    };
}

bind_batch!(
    KnockoutWhist,
    KnockoutWhistBatch,
    KnockoutWhistState,
    "KnockoutWhistBatch"
);
bind_batch!(Neuf, NeufBatch, NeufState, "NeufBatch");
bind_batch!(
    KrytNavalivat,
    KrytNavalivatBatch,
    KrytNavalivatState,
    "KrytNavalivatBatch"
);
