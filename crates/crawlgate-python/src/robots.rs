//! `crawlgate_robots.RobotsTxt` and `crawlgate_robots.AgentView`: a parsed file, kept
//! with the rules compiled for the crawlers asked about, and one crawler's
//! reading of it.

use std::sync::OnceLock;

use crawlgate::{AgentView, CompiledRobotsTxt, Extension, Profile, Reading, RobotsTxt, Who};
use crawlgate_answers::{Outcome, Robots};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::choice::PyGroupChoice;
use crate::extensions::{PyContentUsage, PyRequestRate, PyVisitTime};
use crate::input::{body_bytes, profile_named, text_arg, text_list};
use crate::lint::{lint_bytes, PyDiagnostic};
use crate::reading::reading_named;
use crate::usage::{license_dict, preferences_dict};
use crate::verdict::PyVerdict;

/// Bodies from this size on are parsed with the GIL released (a 16 KiB
/// file parses in about 25 µs).
const DETACH_BYTES: usize = 16 * 1024;

/// A parsed robots.txt file, read as Google reads it (or under the
/// `rfc9309` / `legacy` profile).
///
/// `RobotsTxt(body, profile=None)` parses `bytes` (as served) or `str`:
/// with a profile named, every crawler reads the file by it; without, by
/// google, and a crawler whose operator's own parser crawlgate reproduces
/// (Bing's crawlers, Yandex's robots) by its profile (bing, yandex).
/// Parsing never fails: lines that cannot be read are skipped and reported
/// by `lint()`. The GIL is released while parsing.
#[pyclass(frozen, module = "crawlgate_robots", name = "RobotsTxt")]
pub struct PyRobotsTxt {
    /// The file: parsed here, or a fetch outcome with rules to read (never
    /// one without: `from_outcome` refuses those).
    robots: Robots,
    /// The bytes a file parsed here came from, kept (not copied) for
    /// `lint`; a fetched file keeps its own.
    body: Option<Py<PyBytes>>,
    /// Whether the profile was named: then every crawler reads the file by
    /// it; else a crawler whose operator's own parser crawlgate reproduces
    /// (Bing's crawlers, Yandex's robots) reads it by that (`readings`).
    named: bool,
    /// The file read again under each other profile a crawler needed.
    readings: [OnceLock<CompiledRobotsTxt>; Profile::ALL.len()],
}

impl PyRobotsTxt {
    /// The parsed model.
    pub fn robots(&self) -> &RobotsTxt {
        self.compiled().robots()
    }

    /// The parsed model with the rules compiled for the crawlers asked
    /// about: repeated questions compile once.
    fn compiled(&self) -> &CompiledRobotsTxt {
        match self.robots.compiled() {
            Some(compiled) => compiled,
            // Both constructors hold rules: `parse` parses, and
            // `from_outcome` takes only a conditional outcome.
            None => unreachable!("a RobotsTxt always holds rules"),
        }
    }

    /// The file a fetch outcome holds, or `None` when the outcome left no
    /// rules to read (full allow, full disallow).
    pub fn from_outcome(outcome: &Outcome) -> Option<PyRobotsTxt> {
        let robots = Robots::fetched(outcome.clone());
        robots.compiled()?;
        Some(PyRobotsTxt {
            robots,
            body: None,
            named: false,
            readings: Default::default(),
        })
    }

    /// Parses `body`, with the GIL released unless the body is small
    /// enough that releasing and taking it back costs more than it frees.
    pub fn parse(
        py: Python<'_>,
        body: Bound<'_, PyBytes>,
        profile: Profile,
        named: bool,
    ) -> PyRobotsTxt {
        let bytes = body.as_bytes();
        let robots = if bytes.len() < DETACH_BYTES {
            RobotsTxt::parse_with(bytes, profile)
        } else {
            py.detach(|| RobotsTxt::parse_with(bytes, profile))
        };
        PyRobotsTxt {
            robots: Robots::local(robots),
            body: Some(body.unbind()),
            named,
            readings: Default::default(),
        }
    }

    /// The view of `agent` under the reading named `reading`.
    fn view(&self, agent: &str, reading: &str) -> PyResult<AgentView<'_>> {
        let how = reading_named(reading)?;
        Ok(self.compiled_for(agent, how).view(Who::read(agent, how)))
    }

    /// The file as `agent` reads it, read `how`: this parse, or (when no
    /// profile was named) the parse its operator's own parser's profile
    /// gives, made on first need from the kept bytes.
    pub fn compiled_for(&self, agent: &str, how: Reading) -> &CompiledRobotsTxt {
        let base = self.compiled();
        let own = how.profile_for(agent, None);
        if self.named || own == base.robots().profile() {
            return base;
        }
        let Some(slot) = Profile::ALL.iter().position(|p| *p == own) else {
            return base;
        };
        self.readings[slot].get_or_init(|| {
            let bytes = Python::attach(|py| self.source_bytes(py).to_vec());
            CompiledRobotsTxt::new(RobotsTxt::parse_with(&bytes, own))
        })
    }

    fn source_bytes<'a>(&'a self, py: Python<'a>) -> &'a [u8] {
        match &self.body {
            Some(body) => body.as_bytes(py),
            None => self.robots.body().unwrap_or_default(),
        }
    }
}

#[pymethods]
impl PyRobotsTxt {
    #[new]
    #[pyo3(signature = (body, profile = None))]
    fn new(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        profile: Option<&str>,
    ) -> PyResult<PyRobotsTxt> {
        let named = profile.map(profile_named).transpose()?;
        let body = body_bytes(body, "RobotsTxt() body")?;
        Ok(PyRobotsTxt::parse(
            py,
            body,
            named.unwrap_or_default(),
            named.is_some(),
        ))
    }

    /// Whether the crawler `agent` may fetch `url` (absolute or
    /// path-only). `agent` is the crawler's name (`Googlebot-Image`), a
    /// product token, or a full `User-Agent` header; `reading="crawler"`
    /// (the default) applies the registry's rules for a crawler it knows,
    /// `reading="one-token"` reads `agent` as one product token, exactly as
    /// Google's library does.
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn is_allowed(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<bool> {
        let (url, agent) = (text_arg(url, "url")?, text_arg(agent, "agent")?);
        Ok(self.view(&agent, reading)?.is_allowed(&url))
    }

    /// The verdict for `agent` and `url`: allowed or not, the deciding rule
    /// and its line, the groups that applied, and how they were chosen and
    /// why (`choice`).
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn decide(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<PyVerdict> {
        let (url, agent) = (text_arg(url, "url")?, text_arg(agent, "agent")?);
        Ok(PyVerdict::from_verdict(
            &self.view(&agent, reading)?.decide(&url),
            &agent,
        ))
    }

    /// Answers many URLs for one crawler, with the GIL released.
    #[pyo3(signature = (urls, agent, *, reading = "crawler"))]
    fn is_allowed_many(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<Vec<bool>> {
        let urls = text_list(urls, "urls")?;
        let agent = text_arg(agent, "agent")?;
        let how = reading_named(reading)?;
        let robots = self.compiled_for(&agent, how);
        Ok(py.detach(|| {
            let view = robots.view(Who::read(&agent, how));
            urls.iter().map(|url| view.is_allowed(url)).collect()
        }))
    }

    /// One crawler's compiled view, for asking about many URLs.
    #[pyo3(signature = (agent, *, reading = "crawler"))]
    fn for_agent(
        slf: &Bound<'_, PyRobotsTxt>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<PyAgentView> {
        Ok(PyAgentView {
            robots: slf.clone().unbind(),
            agent: text_arg(agent, "agent")?,
            reading: reading_named(reading)?,
        })
    }

    /// How the groups `agent` obeys are chosen, and why.
    #[pyo3(signature = (agent, *, reading = "crawler"))]
    fn group_choice(&self, agent: &Bound<'_, PyAny>, reading: &str) -> PyResult<PyGroupChoice> {
        let agent = text_arg(agent, "agent")?;
        let view = self.view(&agent, reading)?;
        Ok(PyGroupChoice::new(&view.group_choice(), &agent))
    }

    /// The first valid `Crawl-delay` in `agent`'s groups, in seconds (for
    /// Bingbot in the crawler reading, `*`'s when its own group has none).
    #[pyo3(signature = (agent, *, reading = "crawler"))]
    fn crawl_delay(&self, agent: &Bound<'_, PyAny>, reading: &str) -> PyResult<Option<f64>> {
        let agent = text_arg(agent, "agent")?;
        Ok(self.view(&agent, reading)?.crawl_delay().map(|d| d.seconds))
    }

    /// The first valid `Request-rate` in `agent`'s groups.
    #[pyo3(signature = (agent, *, reading = "crawler"))]
    fn request_rate(
        &self,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<Option<PyRequestRate>> {
        let agent = text_arg(agent, "agent")?;
        Ok(self
            .view(&agent, reading)?
            .request_rate()
            .map(PyRequestRate::from))
    }

    /// The first valid `Visit-time` in `agent`'s groups.
    #[pyo3(signature = (agent, *, reading = "crawler"))]
    fn visit_time(&self, agent: &Bound<'_, PyAny>, reading: &str) -> PyResult<Option<PyVisitTime>> {
        let agent = text_arg(agent, "agent")?;
        Ok(self
            .view(&agent, reading)?
            .visit_time()
            .map(PyVisitTime::from))
    }

    /// The `Content-Usage` record that applies to `url` for `agent`, or
    /// `None` (none applies, or the URL is disallowed).
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn content_usage(
        &self,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<Option<PyContentUsage>> {
        let (url, agent) = (text_arg(url, "url")?, text_arg(agent, "agent")?);
        Ok(self
            .view(&agent, reading)?
            .content_usage(&url)
            .map(PyContentUsage::from))
    }

    /// The usage preferences that apply to `url` for `agent`, as the IETF
    /// AI-preferences drafts read them (`crawlgate explain --json`'s
    /// `preferences`): `train_ai`, `ai_use` and `search` (`allowed`,
    /// `disallowed`, `unknown`; vocabulary draft 08), `search_overrides`
    /// (the categories `search` decides too inside a search application),
    /// the `Content-Usage` records that apply, the keys outside
    /// the vocabulary, and the crawler's `Content-Signal`. `None` when the
    /// crawler may not fetch the URL, for then no preference applies.
    #[pyo3(signature = (url, agent, *, reading = "crawler"))]
    fn preferences<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'_, PyAny>,
        agent: &Bound<'_, PyAny>,
        reading: &str,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let (url, agent) = (text_arg(url, "url")?, text_arg(agent, "agent")?);
        match self.view(&agent, reading)?.preferences(&url) {
            Some(preferences) => Ok(Some(preferences_dict(py, &preferences)?)),
            None => Ok(None),
        }
    }

    /// The file's `License:` records (RSL 1.0), in file order: `{"line",
    /// "url", "absolute"}`.
    #[getter]
    fn licenses<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.robots()
            .licenses()
            .map(|license| license_dict(py, &license))
            .collect()
    }

    /// The `Sitemap:` URLs, in file order.
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.robots()
            .sitemaps()
            .map(|s| s.url().to_owned())
            .collect()
    }

    /// Every extension record (crawl-delay, host, clean-param, unknown
    /// fields…) as `(field, value, line)`, in file order.
    #[getter]
    fn extensions(&self) -> Vec<(String, String, u32)> {
        self.robots()
            .extensions()
            .map(|e: Extension<'_>| (e.key().to_owned(), e.value().to_owned(), e.line()))
            .collect()
    }

    /// The file as crawlgate reads it, in canonical form: one record per
    /// line, a blank line between groups, rule values normalised, lines it
    /// ignored left out. It parses back to the same decisions.
    fn render(&self) -> String {
        self.robots().render()
    }

    /// The profile the file was read with: `google`, `rfc9309`, `legacy`
    /// or `bing`.
    #[getter]
    fn profile(&self) -> &'static str {
        self.robots().profile().name
    }

    /// The linter's findings for this file (codes, severities, spans,
    /// messages, fixes), under the profile it was parsed with;
    /// `legacy=True` adds the comparison with Python's `urllib.robotparser`
    /// reading (`R402`). The GIL is released while linting.
    #[pyo3(signature = (*, legacy = false))]
    fn lint(&self, py: Python<'_>, legacy: bool) -> Vec<PyDiagnostic> {
        let profile = self.robots().profile();
        lint_bytes(py, self.source_bytes(py), profile, legacy)
    }

    fn __repr__(&self) -> String {
        let robots = self.robots();
        format!(
            "<crawlgate_robots.RobotsTxt profile={} groups={} rules={} sitemaps={}>",
            robots.profile().name,
            robots.groups().len(),
            robots.rules().len(),
            robots.sitemaps().len()
        )
    }
}

/// One crawler's reading of a file, its rules compiled once it has been
/// asked a few questions and kept inside the `RobotsTxt` (shared with every
/// view and question of the same groups): the fast way to ask about many
/// URLs.
#[pyclass(frozen, module = "crawlgate_robots", name = "AgentView")]
pub struct PyAgentView {
    robots: Py<PyRobotsTxt>,
    agent: String,
    reading: Reading,
}

impl PyAgentView {
    fn view(&self) -> AgentView<'_> {
        self.robots
            .get()
            .compiled_for(&self.agent, self.reading)
            .view(Who::read(&self.agent, self.reading))
    }
}

#[pymethods]
impl PyAgentView {
    /// The crawler's name, as given.
    #[getter]
    fn agent(&self) -> &str {
        &self.agent
    }

    /// How the name is read: `crawler` or `one-token`.
    #[getter]
    fn reading(&self) -> &'static str {
        self.reading.as_str()
    }

    /// How the crawler's groups were chosen, and why.
    #[getter]
    fn choice(&self) -> PyGroupChoice {
        PyGroupChoice::new(&self.view().group_choice(), &self.agent)
    }

    /// Whether the crawler may fetch `url`.
    fn is_allowed(&self, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.view().is_allowed(&text_arg(url, "url")?))
    }

    /// The verdict for `url`.
    fn decide(&self, url: &Bound<'_, PyAny>) -> PyResult<PyVerdict> {
        Ok(PyVerdict::from_verdict(
            &self.view().decide(&text_arg(url, "url")?),
            &self.agent,
        ))
    }

    /// Answers many URLs, with the GIL released.
    fn is_allowed_many(&self, py: Python<'_>, urls: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        let urls = text_list(urls, "urls")?;
        let view = self.view();
        Ok(py.detach(|| urls.iter().map(|url| view.is_allowed(url)).collect()))
    }

    /// Verdicts for many URLs, with the GIL released while deciding.
    fn decide_many(&self, py: Python<'_>, urls: &Bound<'_, PyAny>) -> PyResult<Vec<PyVerdict>> {
        let urls = text_list(urls, "urls")?;
        let view = self.view();
        Ok(py.detach(|| {
            urls.iter()
                .map(|url| PyVerdict::from_verdict(&view.decide(url), &self.agent))
                .collect()
        }))
    }

    /// The first valid `Crawl-delay` in the crawler's groups, in seconds.
    fn crawl_delay(&self) -> Option<f64> {
        self.view().crawl_delay().map(|d| d.seconds)
    }

    /// The first valid `Request-rate` in the crawler's groups.
    fn request_rate(&self) -> Option<PyRequestRate> {
        self.view().request_rate().map(PyRequestRate::from)
    }

    /// The first valid `Visit-time` in the crawler's groups.
    fn visit_time(&self) -> Option<PyVisitTime> {
        self.view().visit_time().map(PyVisitTime::from)
    }

    /// The `Content-Usage` record that applies to `url`.
    fn content_usage(&self, url: &Bound<'_, PyAny>) -> PyResult<Option<PyContentUsage>> {
        Ok(self
            .view()
            .content_usage(&text_arg(url, "url")?)
            .map(PyContentUsage::from))
    }

    /// The usage preferences that apply to `url` (see
    /// `RobotsTxt.preferences`), or `None` when the URL is disallowed.
    fn preferences<'py>(
        &self,
        py: Python<'py>,
        url: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match self.view().preferences(&text_arg(url, "url")?) {
            Some(preferences) => Ok(Some(preferences_dict(py, &preferences)?)),
            None => Ok(None),
        }
    }

    /// `specific` (groups name the crawler), `global` (the `*` groups) or
    /// `nothing` (no group applies: everything is allowed).
    #[getter]
    fn selection(&self) -> &'static str {
        crate::verdict::selection_name(self.view().selection())
    }

    /// `(first_line, last_line)` of each group the crawler obeys.
    #[getter]
    fn groups(&self) -> Vec<(u32, u32)> {
        self.view()
            .groups()
            .map(|g| (g.first_line(), g.last_line()))
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.AgentView agent={:?} reading={} selection={}>",
            self.agent,
            self.reading.as_str(),
            self.selection()
        )
    }
}
