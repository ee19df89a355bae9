//! The native base of the run-time engine's state classes (`cardtable.engines`): each
//! game's `<Game>Public` keeps a core-backed state's core state, history and seat to move,
//! and answers the protocol's hot calls (`legal_actions`, `apply`, `apply_id`,
//! `legal_action_ids`, `is_legal`, `is_over`) in one call each, with no Python frame. A
//! Python class derives from it, beside the game's Python state class, and keeps the rest.
//!
//! Only the plain case runs here: an action from the game's own table, or written as its
//! own text (`play 7D`, what a page sends), played by the seat to move (or by no seat
//! named), on a state whose chance the core deals, from its seed or from stacked decks
//! alone. Anything else (a refused action, an action given as text or
//! number, another seat, a step that needs a deck the stacks lack, a state whose chance
//! events the reference draws) goes to the Python class's `_apply_checked` or
//! `_step_drawing`, which answer it in the reference's words.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use cardtable_core::game::{actions_of, Game};

use crate::state::{KnockoutWhistState, KrytNavalivatState, NeufState};

macro_rules! bind_public {
    ($pystate:ident, $public:ident, $name:literal) => {
        /// The native base of a core-backed state of this game (`cardtable.engines`).
        #[pyclass(name = $name, module = "cardtable._core", subclass)]
        pub(crate) struct $public {
            /// The state in the core (replaced whole when the Python side deals chance).
            #[pyo3(get, set)]
            core: Py<$pystate>,
            #[pyo3(get, set)]
            game: PyObject,
            /// Every action number applied so far.
            #[pyo3(get, set)]
            history: Py<PyList>,
            #[pyo3(get, set)]
            to_move: Option<usize>,
            /// The Python engine's equal state, cached until the next step.
            #[pyo3(get, set, name = "_reference")]
            reference: Option<PyObject>,
            /// Whether the reference draws this state's chance events: every step goes to
            /// the Python class's `_step_drawing`.
            #[pyo3(get, set, name = "_synced")]
            synced: bool,
            /// Whether the core deals only from stacked decks (a shuffler supplies them):
            /// a step that needs one the stacks lack goes to `_step_drawing`.
            #[pyo3(get, set, name = "_stacked")]
            stacked: bool,
            /// The game's `actions` and `numbers_by_id`, read once.
            actions: Py<PyTuple>,
            numbers: Py<PyDict>,
        }

        #[pymethods]
        impl $public {
            #[new]
            fn new(py: Python<'_>, game: PyObject, core: Py<$pystate>) -> PyResult<Self> {
                let table = game.bind(py);
                let actions = table.getattr("actions")?.downcast_into::<PyTuple>()?;
                let numbers = table.getattr("numbers_by_id")?.downcast_into::<PyDict>()?;
                let to_move = core.borrow(py).inner.to_move();
                Ok(Self {
                    core,
                    game,
                    history: PyList::empty(py).unbind(),
                    to_move,
                    reference: None,
                    synced: false,
                    stacked: false,
                    actions: actions.unbind(),
                    numbers: numbers.unbind(),
                })
            }

            #[getter]
            fn is_over(&self) -> bool {
                self.to_move.is_none()
            }

            fn legal_action_ids(&self, py: Python<'_>) -> Vec<usize> {
                actions_of(self.core.borrow(py).inner.legal_mask())
            }

            fn is_legal(&self, py: Python<'_>, number: usize) -> bool {
                self.core.borrow(py).is_legal(number)
            }

            fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                self.core.borrow(py).legal_from(py, self.actions.bind(py))
            }

            /// Applies a legal action by number, unchecked by the protocol (the core still
            /// refuses an illegal one and changes nothing).
            fn apply_id(slf: &Bound<'_, Self>, number: usize) -> PyResult<()> {
                let (synced, stacked) = {
                    let this = slf.borrow();
                    (this.synced, this.stacked)
                };
                if !synced && !stacked {
                    return slf.borrow_mut().step(slf.py(), number);
                }
                // Dealt from stacks, a step that needs no deck they lack is played here.
                if !synced && slf.borrow_mut().try_step(slf.py(), number)? {
                    return Ok(());
                }
                slf.call_method1("_step_drawing", (number,))?;
                Ok(())
            }

            /// The protocol's `apply`: the plain case here, the rest in Python.
            #[pyo3(signature = (action, *, seat = None))]
            fn apply(
                slf: &Bound<'_, Self>,
                action: &Bound<'_, PyAny>,
                seat: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<PyObject> {
                let py = slf.py();
                {
                    let mut this = slf.borrow_mut();
                    if let Some(number) = this.plain(action, seat)? {
                        if this.try_step(py, number)? {
                            // The game's own object (the one given, when one was).
                            return Ok(this.actions.bind(py).get_item(number)?.unbind());
                        }
                    }
                }
                Ok(slf.call_method1("_apply_checked", (action, seat))?.unbind())
            }
        }

        impl $public {
            /// The number of `action` when it may be the plain case: the game's own object or
            /// its exact text, for the seat to move, on a state whose chance the core deals.
            fn plain(
                &self,
                action: &Bound<'_, PyAny>,
                seat: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Option<usize>> {
                let py = action.py();
                let Some(mover) = self.to_move else {
                    return Ok(None);
                };
                if self.synced {
                    return Ok(None);
                }
                if let Some(seat) = seat {
                    if seat.extract::<usize>().ok() != Some(mover) {
                        return Ok(None);
                    }
                }
                // The table's objects are keyed by identity (`Game.numbers_by_id`).
                if let Some(found) = self.numbers.bind(py).get_item(action.as_ptr() as usize)? {
                    return Ok(Some(found.extract()?));
                }
                match action.downcast::<PyString>() {
                    Ok(text) => Ok($pystate::number_of_text(text.to_str()?)),
                    Err(_) => Ok(None),
                }
            }

            /// Applies action `number`; an illegal one raises `IllegalActionError`.
            fn step(&mut self, py: Python<'_>, number: usize) -> PyResult<()> {
                if self.try_step(py, number)? {
                    return Ok(());
                }
                // Refused: the core's own apply says why, and changes nothing.
                self.core.borrow_mut(py).apply(py, number)
            }

            /// Applies action `number` when it is legal and, on a state dealt from stacks
            /// alone, needs nothing they lack (`false`, nothing changed, when not).
            fn try_step(&mut self, py: Python<'_>, number: usize) -> PyResult<bool> {
                let (to_move, drew) = {
                    let mut core = self.core.borrow_mut(py);
                    if !core.is_legal(number) {
                        return Ok(false);
                    }
                    let drawn = core.inner.chance_drawn();
                    if self.stacked {
                        if core.apply_stacked(number).is_some() {
                            return Ok(false);
                        }
                    } else {
                        core.inner.apply(number);
                    }
                    (core.inner.to_move(), core.inner.chance_drawn() != drawn)
                };
                self.stepped(py, number, to_move, drew)?;
                Ok(true)
            }

            /// After a step: the history and the seat to move, and the reference. A reference
            /// someone has read is kept in step by the same action in the Python engine (a
            /// step costs far less there than rebuilding it from the next position, and a
            /// caller who reads views after every step, as the research interfaces and the
            /// server do, would rebuild it each time), unless the step drew a chance event:
            /// the core dealt it, so the reference is rebuilt from the position when next
            /// read. A state nobody reads keeps no reference and pays nothing.
            fn stepped(
                &mut self,
                py: Python<'_>,
                number: usize,
                to_move: Option<usize>,
                drew: bool,
            ) -> PyResult<()> {
                self.to_move = to_move;
                self.history.bind(py).append(number)?;
                match (&self.reference, drew) {
                    (Some(reference), false) => {
                        reference.call_method1(py, "apply_id", (number,))?;
                    }
                    _ => self.reference = None,
                }
                Ok(())
            }
        }

        #[pymethods]
        impl $pystate {
            /// The native base of the run-time engine's states of this game.
            #[classattr]
            fn public(py: Python<'_>) -> Py<PyType> {
                py.get_type::<$public>().unbind()
            }
        }
    };
}

bind_public!(
    KnockoutWhistState,
    KnockoutWhistPublic,
    "KnockoutWhistPublic"
);
bind_public!(NeufState, NeufPublic, "NeufPublic");
bind_public!(
    KrytNavalivatState,
    KrytNavalivatPublic,
    "KrytNavalivatPublic"
);
