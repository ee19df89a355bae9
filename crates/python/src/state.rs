//! The state classes (`<Game>State`): the protocol's hot half (to move, legal actions,
//! apply, position, returns, observations, playouts and the guided policy), the same game
//! step for step as the Python engine's. One macro binds each game alike.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use pythonize::pythonize;
use rand::SeedableRng;

use cardtable_core::game::{self, actions_of, Game, Missing, PlayoutRng};
use cardtable_core::rollout::{Guided, Script};
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, Observe};

use crate::errors::cardtable_error;
use crate::observation::{observation_buffer, observer_seat};

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

macro_rules! bind_state {
    ($game:ty, $pystate:ident, $statename:literal) => {
        /// A state of the core: the same game, step for step, as the Python engine's.
        #[pyclass(name = $statename, module = "cardtable._core")]
        #[derive(Clone)]
        pub(crate) struct $pystate {
            pub(crate) inner: $game,
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
                actions_of(self.inner.legal_mask())
            }

            /// The legal actions as one integer: bit `a` set when action `a` is legal.
            fn legal_mask(&self) -> u128 {
                self.inner.legal_mask()
            }

            pub(crate) fn is_legal(&self, action: usize) -> bool {
                action < 128 && self.inner.legal_mask() >> action & 1 == 1
            }

            /// Applies a legal action by number; an illegal one raises
            /// `IllegalActionError` and changes nothing.
            pub(crate) fn apply(&mut self, py: Python<'_>, action: usize) -> PyResult<()> {
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

            /// Applies a legal action by number, as `apply` does, and answers the seat to
            /// move now (`None` once the game is over): the run-time engine's step
            /// (`cardtable.engines`) in one call.
            fn step(&mut self, py: Python<'_>, action: usize) -> PyResult<Option<usize>> {
                self.apply(py, action)?;
                Ok(self.inner.to_move())
            }

            /// `step` for a state whose chance events the Python side draws (a table that
            /// deals its own decks): when the action drew a chance event (a deal or a
            /// reshuffle), it answers the state as it was before the action instead.
            fn step_drawing(&mut self, py: Python<'_>, action: usize) -> PyResult<PyObject> {
                let before = self.clone();
                self.apply(py, action)?;
                if self.inner.chance_drawn() != before.inner.chance_drawn() {
                    return Ok(Py::new(py, before)?.into_any());
                }
                Ok(self.inner.to_move().into_pyobject(py)?.into_any().unbind())
            }

            /// `step` for a state whose decks come from elsewhere than its seed (a web
            /// table's fair deals): the step deals only from stacked chance events. When it
            /// would draw one the stacks do not hold, the state is left as it was and the
            /// answer names it: `("deck", n)` for the game's deck `n` (from 0), dealt as
            /// hand `n + 1`, or `("reshuffle", k)`; stack it (`stack_deck`) and step again.
            fn step_stacked(
                &mut self,
                py: Python<'_>,
                action: usize,
            ) -> PyResult<Option<(&'static str, u64)>> {
                if !self.is_legal(action) {
                    self.apply(py, action)?; // refused: it says why
                }
                Ok(self.apply_stacked(action))
            }

            /// Stacks `deck` (card indices, the first dealt first) beneath the decks still
            /// stacked, for the next step that deals; a `ValueError` for a deck that is not
            /// the game's pack, or in a game that deals once.
            fn stack_deck(&mut self, deck: Vec<u8>) -> PyResult<()> {
                self.inner
                    .stack_deck(deck)
                    .map_err(|e| PyValueError::new_err(e.0))
            }

            /// How many tricks were finished since this state was made (counting on across
            /// the hands) and the seat that took the last (`None` before the first, or for a
            /// trick no one takes): a step that changes the count finished a trick.
            fn tricks_taken(&self) -> (u32, Option<usize>) {
                self.inner.tricks_taken()
            }

            /// Sets what `tricks_taken` answers: for a state rebuilt from a position (which
            /// does not hold it) going on from the state it replaces.
            fn set_tricks_taken(&mut self, count: u32, taker: Option<usize>) {
                self.inner.set_tricks_taken(count, taker);
            }

            /// Stacks a reshuffle's order (card indices) beneath those still stacked, for
            /// the next step that reshuffles; a `ValueError` in a game that never does.
            fn stack_reshuffle(&mut self, order: Vec<u8>) -> PyResult<()> {
                self.inner
                    .stack_reshuffle(order)
                    .map_err(|e| PyValueError::new_err(e.0))
            }

            /// The decks dealt and the reshuffles drawn so far, from the game's start.
            fn chances_drawn(&self) -> (u64, u64) {
                self.inner.chances_drawn()
            }

            /// The legal actions as the game's own objects, `table[a]` for each legal `a`
            /// ascending (`table`: the Python game's `actions`): the public
            /// `legal_actions()` in one call.
            pub(crate) fn legal_from<'py>(
                &self,
                py: Python<'py>,
                table: &Bound<'py, PyTuple>,
            ) -> PyResult<Bound<'py, PyList>> {
                let mask = self.inner.legal_mask();
                // Every legal action is in the table (it lists all the game's actions), so
                // the list is built at its size, with no vector between.
                let top = (u128::BITS - mask.leading_zeros()) as usize;
                if top > table.len() {
                    return Err(PyValueError::new_err(format!(
                        "the action table has {} actions; action {} is legal",
                        table.len(),
                        top - 1
                    )));
                }
                PyList::new(
                    py,
                    game::mask_actions(mask).map(|a| table.get_borrowed_item(a).ok()),
                )
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

            /// What `seat` may know (a spectator's view for `None`), as a dict equal to the
            /// Python engine's `state.view(seat)`; a `ValueError` for a seat the game has not.
            fn view<'py>(
                &self,
                py: Python<'py>,
                seat: Option<isize>,
            ) -> PyResult<Bound<'py, PyAny>> {
                let seat = seat
                    .map(|seat| observer_seat(seat, self.inner.players()))
                    .transpose()?;
                Ok(pythonize(py, &self.inner.view(seat))?)
            }

            /// `view(seat)` as compact JSON text, written from the view struct with no dict
            /// between: what a table sends a page.
            fn view_text(&self, seat: Option<isize>) -> PyResult<String> {
                let seat = seat
                    .map(|seat| observer_seat(seat, self.inner.players()))
                    .transpose()?;
                serde_json::to_string(&self.inner.view(seat))
                    .map_err(|e| PyValueError::new_err(e.to_string()))
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

        impl $pystate {
            /// The number of an action written exactly as its text (`play 7D`, what a page
            /// sends), else `None`: other spellings are read, or refused, in Python's words.
            pub(crate) fn number_of_text(text: &str) -> Option<usize> {
                let number = <$game>::parse_action(text).ok()?;
                (<$game>::action_text(number) == text).then_some(number)
            }

            /// Applies a legal `action` dealing only from stacked chance events, or leaves
            /// the state as it was and names the first one the stacks lack (`step_stacked`).
            pub(crate) fn apply_stacked(&mut self, action: usize) -> Option<(&'static str, u64)> {
                game::apply_stacked(&mut self.inner, action).map(|missing| match missing {
                    Missing::Deck(n) => ("deck", n),
                    Missing::Reshuffle(k) => ("reshuffle", k),
                })
            }
        }
    };
}

bind_state!(KnockoutWhist, KnockoutWhistState, "KnockoutWhistState");
bind_state!(Neuf, NeufState, "NeufState");
bind_state!(KrytNavalivat, KrytNavalivatState, "KrytNavalivatState");
