//! The game classes (`KnockoutWhist`, `Neuf`, `KrytNavalivat`): a game of the core with its
//! options fixed, from which come new states, replays, positions, searches from a seat's
//! view and batches of games. One macro binds each game alike.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;

use cardtable_core::game::{self, ActionError, Determinize, Game, PlayoutRng, Stacked};
use cardtable_core::vector::{self, Autoreset};
use cardtable_core::{search, KnockoutWhist, KrytNavalivat, Neuf, Observe};

use crate::batch::{batch_agents, KnockoutWhistBatch, KrytNavalivatBatch, NeufBatch};
use crate::errors::{action_error, batch_error, cardtable_error, search_error};
use crate::options::option_pairs;
use crate::search::{
    knowledge_of, search_inference, search_outcome, search_settings, SearchOutcome,
};
use crate::state::{KnockoutWhistState, KrytNavalivatState, NeufState};

macro_rules! bind_game {
    ($game:ty, $pygame:ident, $pystate:ident, $pybatch:ident, $gamename:literal) => {
        /// A game of the core with its options fixed.
        #[pyclass(name = $gamename, module = "cardtable._core", frozen)]
        pub(crate) struct $pygame {
            pub(crate) options: <$game as Game>::Options,
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
            /// `belief`, `choice` and `deals` weigh the sampled deals by the others' plays
            /// (policy-based inference, Knockout Whist: `cardtable.bots.ismcts`); `prior` > 0
            /// adds the game's learned policy prior to the tree's scores (Knockout Whist).
            #[pyo3(signature = (view, iterations = None, seconds = None, exploration = 0.7, seed = 0, stop_early = true, rollout = "guided", threads = 1, solve = 0, belief = 0.0, choice = 0.0, deals = 1000, prior = 0.0))]
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
                belief: f64,
                choice: f64,
                deals: usize,
                prior: f64,
            ) -> PyResult<SearchOutcome> {
                let knowledge = knowledge_of::<$game>(py, &self.options, view)?;
                let inference = search_inference(belief, choice, deals);
                let settings = search_settings(
                    py, iterations, seconds, exploration, stop_early, rollout, threads, solve, inference, prior,
                )?;
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
                let settings = search_settings(
                    py, iterations, seconds, exploration, stop_early, rollout, threads, solve, None, 0.0,
                )?;
                let found = py.allow_threads(|| {
                    let mut rng = PlayoutRng::seed_from_u64(seed);
                    search::search_seeing::<$game>(&state, &mut rng, &settings)
                });
                search_outcome(py, found)
            }

            /// The weight the search's inference (`belief`, `choice`: `search`'s) gives each
            /// sampled position (as `sample_positions` writes them) for the seat whose view
            /// this is, as a log-likelihood: how well it explains the other seats' play.
            fn log_likelihoods(
                &self,
                py: Python<'_>,
                view: &str,
                positions: Vec<String>,
                belief: f64,
                choice: f64,
            ) -> PyResult<Vec<f64>> {
                let knowledge = knowledge_of::<$game>(py, &self.options, view)?;
                let knower = <$game>::knower(&knowledge);
                let inference = search::Inference { plays: belief, choice, deals: 1 };
                inference
                    .check()
                    .map_err(|e| search_error(py, search::SearchError::Settings(e)))?;
                positions
                    .iter()
                    .map(|text| {
                        <$game>::from_position(&self.options, text)
                            .map(|state| state.log_likelihood(knower, &inference))
                            .map_err(|e| cardtable_error(py, "InvalidPositionError", e.0))
                    })
                    .collect()
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
            /// `"same_step"`; `max_actions` truncates a game; `threads` step it. With
            /// `divisors` (each observation column's, `Layout.column_divisors()`), the
            /// observations are int8: each entry times its divisor, the same numbers.
            #[pyo3(
                signature = (num_games, opponents = None, seat = Some(0), max_actions = None, autoreset = "next_step", threads = 1, divisors = None),
                text_signature = "(self, /, num_games, opponents=None, seat=0, max_actions=None, autoreset='next_step', threads=1, divisors=None)"
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
                divisors: Option<Vec<f32>>,
            ) -> PyResult<$pybatch> {
                if let Some(given) = &divisors {
                    let size = <$game as Observe>::observation_size(<$game>::options_players(&self.options));
                    if given.len() != size || given.iter().any(|d| !(1.0..=127.0).contains(d)) {
                        return Err(cardtable_error(
                            py,
                            "InvalidOptionError",
                            format!("divisors are {size} numbers from 1 to 127, one an observation column (Layout.column_divisors())"),
                        ));
                    }
                }
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
                    divisors: divisors.unwrap_or_default(),
                };
                let inner = vector::Batch::<$game>::new(config)
                    .map_err(|e| batch_error(py, e, <$game>::action_text))?;
                $pybatch::new(py, inner)
            }

            fn __repr__(&self) -> String {
                format!("<cardtable._core.{} {:?}>", $gamename, self.options)
            }
        }
    };
}

bind_game!(
    KnockoutWhist,
    KnockoutWhistGame,
    KnockoutWhistState,
    KnockoutWhistBatch,
    "KnockoutWhist"
);
bind_game!(Neuf, NeufGame, NeufState, NeufBatch, "Neuf");
bind_game!(
    KrytNavalivat,
    KrytNavalivatGame,
    KrytNavalivatState,
    KrytNavalivatBatch,
    "KrytNavalivat"
);
