//! `crawlgate_robots.FetchPolicy`: what an HTTP answer for robots.txt means
//! (crawlgate-fetch's pure policy), for crawlers that fetch robots.txt
//! themselves, such as Scrapy.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crawlgate::{Reason, Who};
use crawlgate_answers::{
    Basis, CacheEntry, FetchPolicy, FetchResult, HttpResponse, NetworkErrorKind, NetworkFailure,
    OutcomeKind, OutcomeReason, RedirectStop,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::input::{body_bytes, profile_named, text_arg};
use crate::reading::reading_named;
use crate::robots::PyRobotsTxt;
use crate::verdict::PyVerdict;

/// The HTTP rules for robots.txt (RFC 9309 §2.3.1, Google's documentation):
/// 2xx parse the body; a redirect chain given up (past 5 hops, a loop, no
/// `Location`) is a 404; 4xx other than 429 allow everything; 429, 5xx and
/// network failures disallow everything and are retried later (the last
/// good copy is used while one is at hand); unreachable for 30 days, the
/// last copy or allow everything. Answers are kept for 24 hours, or as
/// `Cache-Control: max-age` says.
///
/// `FetchPolicy(profile="google")`. Each method takes the previous outcome
/// for the same origin (or `None`) and the time as Unix seconds (default:
/// now), and returns the new `FetchOutcome`.
#[pyclass(frozen, module = "crawlgate_robots", name = "FetchPolicy")]
pub struct PyFetchPolicy {
    policy: FetchPolicy,
}

/// `now` as Unix seconds, or the clock.
fn time_from(now: Option<f64>) -> PyResult<SystemTime> {
    match now {
        None => Ok(SystemTime::now()),
        Some(seconds) if seconds.is_finite() && seconds >= 0.0 => {
            Duration::try_from_secs_f64(seconds)
                .ok()
                .and_then(|d| UNIX_EPOCH.checked_add(d))
                .ok_or_else(|| PyValueError::new_err(format!("now={seconds} is out of range")))
        }
        Some(seconds) => Err(PyValueError::new_err(format!(
            "now must be a finite, non-negative number of Unix seconds, not {seconds}"
        ))),
    }
}

fn unix_seconds(time: SystemTime) -> f64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// An optional header value given as `str` or `bytes`.
fn header(value: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<String>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| text_arg(v, what))
        .transpose()
}

impl PyFetchPolicy {
    fn apply(
        &self,
        py: Python<'_>,
        result: FetchResult,
        previous: Option<&PyFetchOutcome>,
        now: Option<f64>,
    ) -> PyResult<PyFetchOutcome> {
        let now = time_from(now)?;
        let previous = previous.map(|p| &p.entry);
        let (_, entry) = py.detach(|| self.policy.apply(&result, previous, now));
        Ok(PyFetchOutcome { entry })
    }
}

#[pymethods]
impl PyFetchPolicy {
    #[new]
    #[pyo3(signature = (profile = "google"))]
    fn new(profile: &str) -> PyResult<PyFetchPolicy> {
        let mut policy = FetchPolicy::default();
        policy.profile = profile_named(profile)?;
        Ok(PyFetchPolicy { policy })
    }

    /// The outcome of a final HTTP response (after redirects were followed).
    /// `body` is what was read: the parser reads the first 500 KiB and
    /// drops a line cut there.
    #[pyo3(signature = (status, body = None, *, cache_control = None, retry_after = None, content_type = None, previous = None, now = None))]
    #[allow(clippy::too_many_arguments)]
    fn on_response(
        &self,
        py: Python<'_>,
        status: &Bound<'_, PyAny>,
        body: Option<&Bound<'_, PyAny>>,
        cache_control: Option<&Bound<'_, PyAny>>,
        retry_after: Option<&Bound<'_, PyAny>>,
        content_type: Option<&Bound<'_, PyAny>>,
        previous: Option<PyRef<'_, PyFetchOutcome>>,
        now: Option<f64>,
    ) -> PyResult<PyFetchOutcome> {
        if status.is_instance_of::<pyo3::types::PyBool>() {
            return Err(PyTypeError::new_err("status must be an int, not bool"));
        }
        let status: i64 = status.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "status must be an int, not {}",
                crate::input::type_name(status)
            ))
        })?;
        let status = u16::try_from(status)
            .ok()
            .filter(|s| (100..=999).contains(s))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "status {status} is not an HTTP status code (100-999)"
                ))
            })?;
        let body = match body.filter(|b| !b.is_none()) {
            Some(b) => body_bytes(b, "on_response() body")?.as_bytes().to_vec(),
            None => Vec::new(),
        };
        let response = HttpResponse {
            status,
            cache_control: header(cache_control, "cache_control")?,
            retry_after: header(retry_after, "retry_after")?,
            content_type: header(content_type, "content_type")?,
            body,
        };
        self.apply(
            py,
            FetchResult::Response(response),
            previous.as_deref(),
            now,
        )
    }

    /// The outcome of a redirect chain that was given up: `stop` is
    /// `too_many_redirects`, `loop`, `missing_location`,
    /// `invalid_location` or `unsupported_scheme`. Treated as a 404.
    #[pyo3(signature = (stop, *, previous = None, now = None))]
    fn on_redirect_stop(
        &self,
        py: Python<'_>,
        stop: &str,
        previous: Option<PyRef<'_, PyFetchOutcome>>,
        now: Option<f64>,
    ) -> PyResult<PyFetchOutcome> {
        let stop = match stop {
            "too_many_redirects" => RedirectStop::TooManyRedirects,
            "loop" => RedirectStop::Loop,
            "missing_location" => RedirectStop::MissingLocation,
            "invalid_location" => RedirectStop::InvalidLocation,
            "unsupported_scheme" => RedirectStop::UnsupportedScheme,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown redirect stop {other:?} (expected too_many_redirects, loop, missing_location, invalid_location or unsupported_scheme)"
                )))
            }
        };
        self.apply(
            py,
            FetchResult::RedirectNotFollowed(stop),
            previous.as_deref(),
            now,
        )
    }

    /// The outcome of a failure below HTTP: `kind` is `dns`, `connect`,
    /// `timeout`, `connection_reset`, `invalid_response`, `broken_body` or
    /// `other`. Treated as a server error.
    #[pyo3(signature = (kind, message = "", *, previous = None, now = None))]
    fn on_network_error(
        &self,
        py: Python<'_>,
        kind: &str,
        message: &str,
        previous: Option<PyRef<'_, PyFetchOutcome>>,
        now: Option<f64>,
    ) -> PyResult<PyFetchOutcome> {
        let kind = match kind {
            "dns" => NetworkErrorKind::Dns,
            "connect" => NetworkErrorKind::Connect,
            "timeout" => NetworkErrorKind::Timeout,
            "connection_reset" => NetworkErrorKind::ConnectionReset,
            "invalid_response" => NetworkErrorKind::InvalidResponse,
            "broken_body" => NetworkErrorKind::BrokenBody,
            "other" => NetworkErrorKind::Other,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown network error kind {other:?} (expected dns, connect, timeout, connection_reset, invalid_response, broken_body or other)"
                )))
            }
        };
        let failure = NetworkFailure {
            kind,
            message: message.to_owned(),
        };
        self.apply(py, FetchResult::Network(failure), previous.as_deref(), now)
    }
}

/// What to obey for one origin, until when, and why; pass it back as
/// `previous` on the next fetch of the same origin.
///
/// `kind` is `conditional` (the parsed `robots` decide), `full_allow` or
/// `full_disallow`; `reason` names the rule that gave it (`fetched`,
/// `not_found`, `redirects_not_followed`, `server_error`, `stale_copy`,
/// `unreachable_last_copy`, `unreachable_allow_all`, `soft_not_found`) and
/// `explanation` says it in words.
#[pyclass(frozen, module = "crawlgate_robots", name = "FetchOutcome")]
pub struct PyFetchOutcome {
    entry: CacheEntry,
}

fn reason_name(reason: OutcomeReason) -> &'static str {
    match reason {
        OutcomeReason::Fetched => "fetched",
        OutcomeReason::NotFound => "not_found",
        OutcomeReason::RedirectsNotFollowed => "redirects_not_followed",
        OutcomeReason::SoftNotFound => "soft_not_found",
        OutcomeReason::ServerError => "server_error",
        OutcomeReason::StaleCopy => "stale_copy",
        OutcomeReason::UnreachableLastCopy => "unreachable_last_copy",
        OutcomeReason::UnreachableAllowAll => "unreachable_allow_all",
        _ => "other",
    }
}

#[pymethods]
impl PyFetchOutcome {
    /// `conditional`, `full_allow` or `full_disallow`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.entry.outcome.kind() {
            OutcomeKind::Conditional => "conditional",
            OutcomeKind::FullAllow => "full_allow",
            OutcomeKind::FullDisallow => "full_disallow",
        }
    }

    /// Which rule of the fetch policy gave the outcome.
    #[getter]
    fn reason(&self) -> &'static str {
        reason_name(self.entry.outcome.reason)
    }

    /// The reason in words.
    #[getter]
    fn explanation(&self) -> String {
        self.entry.outcome.reason.to_string()
    }

    /// The parsed file, for a conditional outcome.
    #[getter]
    fn robots(&self) -> Option<PyRobotsTxt> {
        PyRobotsTxt::from_outcome(&self.entry.outcome)
    }

    /// The HTTP status of the last attempt, when it got one.
    #[getter]
    fn status(&self) -> Option<u16> {
        match self.entry.attempt {
            crawlgate_answers::Attempt::Status { status } => Some(status),
            _ => None,
        }
    }

    /// When the last attempt finished (Unix seconds).
    #[getter]
    fn fetched_at(&self) -> f64 {
        unix_seconds(self.entry.fetched_at)
    }

    /// When to fetch again (Unix seconds); after a failure, when to retry.
    #[getter]
    fn expires_at(&self) -> f64 {
        unix_seconds(self.entry.expires_at)
    }

    /// How long the outcome may be used, in seconds.
    #[getter]
    fn ttl(&self) -> f64 {
        self.entry.ttl().as_secs_f64()
    }

    /// How many server errors in a row led here (0 after a settled answer).
    #[getter]
    fn error_count(&self) -> u32 {
        self.entry.errors.map_or(0, |e| e.count)
    }

    /// Whether the outcome may still be used at `now` (Unix seconds;
    /// default: now) without fetching again.
    #[pyo3(signature = (now = None))]
    fn is_fresh(&self, now: Option<f64>) -> PyResult<bool> {
        Ok(self.entry.is_fresh(time_from(now)?))
    }

    /// Whether `agent` may fetch `url` under this outcome (`/robots.txt`
    /// itself always may), by the crawler reading unless
    /// `reading="one-token"`.
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn is_allowed(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<bool> {
        Ok(self.decide(url, agent, reading)?.allowed)
    }

    /// The verdict for `agent` and `url` under this outcome: the rule that
    /// decided for a conditional outcome, the outcome itself otherwise
    /// (`reason` `full_allow` or `full_disallow`).
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn decide(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<PyVerdict> {
        let url = text_arg(url, "url")?;
        let agent = text_arg(agent, "agent")?;
        let how = reading_named(reading)?;
        let outcome = &self.entry.outcome;
        let verdict = outcome.decide(Who::read(&agent, how), &url);
        // The file's rules decided (not the outcome, nor the robots.txt URL).
        let by_file = matches!(verdict.basis, Basis::Rules(reason) if reason != Reason::RobotsTxt);
        let selection = match outcome.rules.robots() {
            Some(robots) if by_file => Some(robots.view(Who::read(&agent, how)).selection()),
            _ => None,
        };
        Ok(PyVerdict::from_explained(verdict, selection))
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.FetchOutcome {} ({}), ttl {} s>",
            self.kind(),
            self.explanation(),
            self.entry.ttl().as_secs()
        )
    }
}

/// The robots.txt URL that governs `url` (scheme, host and port; IDN hosts
/// in punycode, default ports dropped). `ValueError` for relative URLs and
/// schemes without robots.txt.
#[pyfunction]
pub fn robots_url(url: &Bound<'_, PyAny>) -> PyResult<String> {
    let url = text_arg(url, "url")?;
    crawlgate_answers::robots_url_for(&url)
        .map(|u| u.to_string())
        .map_err(|err| PyValueError::new_err(err.to_string()))
}
