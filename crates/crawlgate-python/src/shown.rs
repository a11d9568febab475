//! The answers the fetch crate serialises for every front end
//! (`crawlgate_answers::Preferences`, `ReportCounts`, `ReportLine`), as
//! Python objects: written once as JSON and read back with Python's `json`
//! module, so that a dictionary here has exactly the fields and values of
//! the command line's and the service's JSON.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde::Serialize;

/// `value` as Python objects (dictionaries, lists, strings, numbers,
/// booleans, `None`), serialised with the GIL released.
pub fn to_python<'py, T: Serialize + Sync>(
    py: Python<'py>,
    value: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let text = py
        .detach(|| serde_json::to_string(value))
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}
