//! The AI-usage preferences of a file as Python dictionaries, with the
//! names `crawlgate explain --json` and `check --json` give them: the
//! effective `Content-Usage` preferences and `Content-Signal` for a URL
//! (`preferences`), and the file's `License` records (`licenses`).

use crawlgate::extension::CONTENT_SIGNAL_KEYS;
use crawlgate::{License, Preference, UsagePreferences};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `allowed`, `disallowed` or `unknown`.
fn word(preference: Option<Preference>) -> &'static str {
    match preference {
        Some(Preference::Allowed) => "allowed",
        Some(Preference::Disallowed) => "disallowed",
        None => "unknown",
    }
}

/// `{"train_ai", "search", "content_usage": [{"line", "path",
/// "preferences"}], "unknown_keys", "content_signal": {"line", "value",
/// "signals"} | None}`.
pub fn preferences_dict<'py>(
    py: Python<'py>,
    preferences: &UsagePreferences<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("train_ai", word(preferences.train_ai))?;
    dict.set_item("search", word(preferences.search))?;
    let records = PyList::empty(py);
    for record in &preferences.records {
        let item = PyDict::new(py);
        item.set_item("line", record.line)?;
        item.set_item("path", record.path)?;
        item.set_item("preferences", record.preferences)?;
        records.append(item)?;
    }
    dict.set_item("content_usage", records)?;
    dict.set_item("unknown_keys", preferences.unknown_keys.clone())?;
    let signal = match preferences.content_signal {
        Some(signal) => {
            let item = PyDict::new(py);
            item.set_item("line", signal.line)?;
            item.set_item("value", signal.value)?;
            let signals = PyDict::new(py);
            for &key in CONTENT_SIGNAL_KEYS {
                if let Some(value) = signal.get(key) {
                    signals.set_item(key, value)?;
                }
            }
            item.set_item("signals", signals)?;
            Some(item)
        }
        None => None,
    };
    dict.set_item("content_signal", signal)?;
    Ok(dict)
}

/// `{"line", "url", "absolute"}`.
pub fn license_dict<'py>(py: Python<'py>, license: &License<'_>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("line", license.line)?;
    dict.set_item("url", license.url)?;
    dict.set_item("absolute", license.is_absolute())?;
    Ok(dict)
}
