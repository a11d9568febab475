//! How a name is read: the `reading=` argument (`"crawler"`, the default,
//! or `"one-token"`), taken as the core's [`Reading`].

use crawlgate::Reading;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The `reading=` argument: `crawler` or `one-token` (the core's
/// [`Reading`], by the names every front end uses).
pub fn reading_named(name: &str) -> PyResult<Reading> {
    Reading::from_word(name).ok_or_else(|| {
        // Shown shortened: the argument's length is the caller's.
        let shown: String = name.chars().take(64).collect();
        PyValueError::new_err(format!(
            "unknown reading {shown:?}: expected \"crawler\" (the registry's rules for the crawler named, the default) or \"one-token\" (Google's library's reading of one product token)"
        ))
    })
}
