//! Extension records as Python values: request rate, visit time, content
//! usage.

use crawlgate::{ContentUsage, Preference, RequestRate, TimeOfDay, VisitTime};
use pyo3::prelude::*;

fn time_of_day<'py>(py: Python<'py>, time: TimeOfDay) -> PyResult<Bound<'py, PyAny>> {
    py.import("datetime")?
        .getattr("time")?
        .call1((time.hour, time.minute))
}

/// `Visit-time: HHMM-HHMM`: crawl only between `start` and `end` (UTC,
/// `datetime.time`; the window may wrap past midnight).
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "VisitTime"
)]
#[derive(Clone, Copy)]
pub struct PyVisitTime {
    window: VisitTime,
}

impl From<VisitTime> for PyVisitTime {
    fn from(window: VisitTime) -> Self {
        PyVisitTime { window }
    }
}

#[pymethods]
impl PyVisitTime {
    /// Start of the window (UTC).
    #[getter]
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        time_of_day(py, self.window.from)
    }

    /// End of the window (UTC).
    #[getter]
    fn end<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        time_of_day(py, self.window.to)
    }

    /// 1-based line number.
    #[getter]
    fn line(&self) -> u32 {
        self.window.line
    }

    /// Whether a minute of the day (0–1439, UTC) is inside the window.
    fn contains(&self, minute_of_day: u32) -> bool {
        self.window.contains(minute_of_day)
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.VisitTime {}-{} UTC (line {})>",
            self.window.from, self.window.to, self.window.line
        )
    }
}

/// `Request-rate: <n>/<period> [HHMM-HHMM]`: at most `requests` pages per
/// `seconds`, optionally only inside `window`.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "RequestRate"
)]
#[derive(Clone, Copy)]
pub struct PyRequestRate {
    rate: RequestRate,
}

impl From<RequestRate> for PyRequestRate {
    fn from(rate: RequestRate) -> Self {
        PyRequestRate { rate }
    }
}

#[pymethods]
impl PyRequestRate {
    /// Pages per period.
    #[getter]
    fn requests(&self) -> u32 {
        self.rate.requests
    }

    /// The period, in seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.rate.period_seconds
    }

    /// Seconds between two requests that keep to the rate.
    #[getter]
    fn interval(&self) -> f64 {
        self.rate.interval().as_secs_f64()
    }

    /// The UTC window the rate applies in, when one is given.
    #[getter]
    fn window(&self) -> Option<PyVisitTime> {
        self.rate.window.map(PyVisitTime::from)
    }

    /// 1-based line number.
    #[getter]
    fn line(&self) -> u32 {
        self.rate.line
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.RequestRate {}/{}s (line {})>",
            self.rate.requests, self.rate.period_seconds, self.rate.line
        )
    }
}

/// `Content-Usage: [path] <preferences>` (IETF AI-preferences): `path`
/// (`None`: every path), `preferences` as written, `line`; `get(key)` is
/// `True` for `y`, `False` for `n`, `None` otherwise.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "ContentUsage",
    get_all
)]
#[derive(Clone)]
pub struct PyContentUsage {
    /// The path the preferences are limited to; `None` means every path.
    pub path: Option<String>,
    /// The preferences as written.
    pub preferences: String,
    /// 1-based line number.
    pub line: u32,
}

impl From<ContentUsage<'_>> for PyContentUsage {
    fn from(usage: ContentUsage<'_>) -> Self {
        PyContentUsage {
            path: usage.path.map(str::to_owned),
            preferences: usage.preferences.to_owned(),
            line: usage.line,
        }
    }
}

#[pymethods]
impl PyContentUsage {
    /// The preference for one key (`train-ai`, `search`): `True` for `y`,
    /// `False` for `n`, `None` when absent or malformed.
    fn get(&self, key: &str) -> Option<bool> {
        let usage = ContentUsage {
            path: self.path.as_deref(),
            preferences: &self.preferences,
            line: self.line,
        };
        usage.get(key).map(|p| p == Preference::Allowed)
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.ContentUsage {:?} path={:?} (line {})>",
            self.preferences, self.path, self.line
        )
    }
}
