//! Integer arguments. PyO3 reads a Python int into an unsigned Rust integer by raising
//! `OverflowError` for a negative one (and into any Rust integer for one too large), which
//! says nothing of the argument. An `Integer` takes any int, and its range is checked where
//! the argument is known, as a `MagusError` (a `ValueError`) naming it.

use std::ops::RangeInclusive;

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

use crate::errors::MagusError;

/// A Python int argument of any sign and size.
pub struct Integer {
    /// `None` when the int does not fit an `i64` (no range of the module goes that far).
    value: Option<i64>,
    /// As Python writes it, for the message.
    text: String,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Integer {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Integer> {
        match obj.extract::<i64>() {
            Ok(value) => Ok(Integer {
                value: Some(value),
                text: value.to_string(),
            }),
            // Not an int at all stays the TypeError it is.
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Ok(Integer {
                value: None,
                text: obj.str()?.to_string(),
            }),
            Err(e) => Err(e),
        }
    }
}

/// A default value of an argument.
impl From<i64> for Integer {
    fn from(value: i64) -> Integer {
        Integer {
            value: Some(value),
            text: value.to_string(),
        }
    }
}

impl Integer {
    /// The value, if it is in `range`; else the error `name=value: give least to most`.
    pub fn within<T: TryFrom<i64>>(&self, name: &str, range: RangeInclusive<i64>) -> PyResult<T> {
        self.value
            .filter(|v| range.contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                MagusError::new_err(format!(
                    "{name}={}: give {} to {}",
                    self.text,
                    range.start(),
                    range.end()
                ))
            })
    }
}
