//! The samples a learned evaluation is trained on, drawn in the core where they are cheap
//! (`benchmarks/neuf_value_net.py` trains Neuf's network on them).

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use cardtable_core::neuf::value::{value_samples, INPUTS};

use crate::errors::cardtable_error;
use crate::game::NeufGame;
use crate::state::{KnockoutWhistState, NeufState};

/// The inputs (a row a position) and the targets (three a position).
type Samples<'py> = (Bound<'py, PyArray2<u8>>, Bound<'py, PyArray2<f32>>);

#[pymethods]
impl NeufGame {
    /// Training samples for the learned value at the end of a trick (three players): the
    /// first deals of `games` games dealt from seeds `seed`, `seed + 1`, … and played by
    /// the guided policy; at the start of each trick, the network's 0/1 inputs (one row a
    /// position, `uint8`) and each seat's mean share of the tricks left over `rollouts`
    /// guided playouts from there (`float32`, from the seat to lead). The GIL is released.
    /// Refused for four players or NEUF-8.3, where the network does not apply.
    #[pyo3(signature = (games, seed = 0, rollouts = 8))]
    fn value_samples<'py>(
        &self,
        py: Python<'py>,
        games: usize,
        seed: i128,
        rollouts: usize,
    ) -> PyResult<Samples<'py>> {
        if rollouts == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "rollouts must be at least 1",
            ));
        }
        if self.options.players != 3 || self.options.tie_avoidance {
            return Err(cardtable_error(
                py,
                "InvalidOptionError",
                "the learned value is for three players without tie_avoidance (NEUF-8.3)".into(),
            ));
        }
        let options = self.options.clone();
        let (set, target) = py.allow_threads(|| {
            let mut set = Vec::new();
            let mut target = Vec::new();
            value_samples(&options, games, seed, rollouts, &mut set, &mut target);
            (set, target)
        });
        let rows = set.len();
        let mut inputs = vec![0u8; rows * INPUTS];
        for (row, on) in set.iter().enumerate() {
            for &i in on {
                inputs[row * INPUTS + i] = 1;
            }
        }
        let inputs = PyArray1::from_vec(py, inputs).reshape([rows, INPUTS])?;
        let target = PyArray1::from_vec(py, target.concat()).reshape([rows, 3])?;
        Ok((inputs, target))
    }
}

#[pymethods]
impl NeufState {
    /// Each seat's expected tricks in the rest of the deal by the learned value (the
    /// network `rollout=learned` ends its rollouts with), at the start of a trick of a
    /// three-player game without NEUF-8.3; `None` elsewhere.
    fn learned_tricks(&self) -> Option<[f64; 3]> {
        self.inner.learned_tricks()
    }
}

#[pymethods]
impl KnockoutWhistState {
    /// The learned policy prior (`prior=` in the search) over the legal actions of the
    /// seat to move, as the search's nodes read it from this state: `(action, chance)`
    /// pairs; `None` where it does not apply (not three players, or the game is over).
    fn learned_prior(&self) -> Option<Vec<(usize, f32)>> {
        let mut out = [0.0f32; cardtable_core::rollout::PRIOR_ACTIONS];
        if !self.inner.learned_prior(&mut out) {
            return None;
        }
        let legal = self.inner.legal_mask();
        Some(
            (0..cardtable_core::knockout_whist::prior::ACTIONS)
                .filter(|&a| legal >> a & 1 == 1)
                .map(|a| (a, out[a]))
                .collect(),
        )
    }
}
