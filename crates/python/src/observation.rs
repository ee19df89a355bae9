//! A seat's observation written for Python: the observer's seat and the caller's buffer,
//! each checked before anything is written.

use numpy::{
    BorrowError, PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadwriteArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An observer's seat, checked: a `ValueError` for anything but a seat of the game.
pub(crate) fn observer_seat(seat: isize, players: usize) -> PyResult<usize> {
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
pub(crate) fn observation_buffer<'py>(
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
