//! The AI-usage preferences of a file as Python dictionaries, with the
//! names `crawlgate explain --json` and `check --json` give them: the
//! effective `Content-Usage` preferences and `Content-Signal` for a URL
//! (`preferences`), and the file's `License` records (`licenses`).

use crawlgate::{License, UsagePreferences};
use crawlgate_answers::Preferences;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::shown::to_python;

/// `{"content_signal": {"line", "signals", "value"} | None,
/// "content_usage": [{"line", "path", "preferences"}], "search",
/// "train_ai", "unknown_keys"}`: `crawlgate_answers::Preferences`, as
/// `crawlgate check --json` writes it.
pub fn preferences_dict<'py>(
    py: Python<'py>,
    preferences: &UsagePreferences<'_>,
) -> PyResult<Bound<'py, PyAny>> {
    to_python(py, &Preferences::of(preferences))
}

/// `{"line", "url", "absolute"}`.
pub fn license_dict<'py>(py: Python<'py>, license: &License<'_>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("line", license.line)?;
    dict.set_item("url", license.url)?;
    dict.set_item("absolute", license.is_absolute())?;
    Ok(dict)
}
