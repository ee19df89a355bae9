//! Python's keyword options as the core reads them.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyString};

use cardtable_core::game::OptionValue;

/// Python keyword options as the core reads them.
pub(crate) fn option_pairs(
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<(String, OptionValue)>> {
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
