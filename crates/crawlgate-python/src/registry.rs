//! `crawlgate_robots.crawlers()` and `crawlgate_robots.identify_crawler()`:
//! the core's crawler registry (`crawlgate::registry`), the data the
//! crawler reading follows.

use crawlgate::registry::{self, Crawler};
use pyo3::prelude::*;

use crate::input::text_arg;

/// One crawler of the registry: the product tokens it answers to and how
/// it chooses its group in a robots.txt, with the document that says so.
///
/// `name` (as its operator writes it), `aliases`, `token` (what it looks
/// for first: its whole name, `AI2Bot`, compared as Google's library
/// compares a crawler's name), `fallbacks` (the tokens whose groups it obeys
/// when no group names its own, in order), `obeys_star`, `kind`
/// (`crawler`, `control` for a control token that fetches nothing, `user`
/// for a user-triggered fetcher), `obeys` (`yes`, `no`, `partial`,
/// `unknown`: whether it obeys robots.txt), `operator`, `purpose`
/// (`search`, `ai-training`, `ai-assistant`, `ads`, `seo`, `archive`,
/// `link-preview`, `other`), `ai` (whether the purpose feeds AI), `docs`,
/// `source_title`, `source_url`, `checked` and `note`.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "Crawler",
    get_all
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyCrawler {
    /// Its name as its operator or a list writes it.
    pub name: &'static str,
    /// Other names lists use for it.
    pub aliases: Vec<&'static str>,
    /// What it looks for first: its whole name.
    pub token: &'static str,
    /// The tokens whose groups it obeys when no group names its own.
    pub fallbacks: Vec<&'static str>,
    /// Whether it obeys `*` when no group names any of its tokens.
    pub obeys_star: bool,
    /// `crawler`, `control` or `user`.
    pub kind: &'static str,
    /// `yes`, `no`, `partial` or `unknown`.
    pub obeys: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What it fetches for.
    pub purpose: &'static str,
    /// Whether its purpose feeds AI (training, AI search, assistants).
    pub ai: bool,
    /// Its documentation address.
    pub docs: Option<&'static str>,
    /// The document its entry follows.
    pub source_title: &'static str,
    /// That document's address.
    pub source_url: &'static str,
    /// When that document was read.
    pub checked: &'static str,
    /// A few words.
    pub note: &'static str,
}

impl From<&'static Crawler> for PyCrawler {
    fn from(c: &'static Crawler) -> PyCrawler {
        PyCrawler {
            name: c.name,
            aliases: c.aliases.to_vec(),
            token: c.token,
            fallbacks: c.fallbacks.to_vec(),
            obeys_star: c.obeys_star,
            kind: c.kind.as_str(),
            obeys: c.obeys.as_str(),
            operator: c.operator,
            purpose: c.purpose.as_str(),
            ai: c.purpose.is_ai(),
            docs: c.docs,
            source_title: c.source.title,
            source_url: c.source_url(),
            checked: c.checked,
            note: c.note,
        }
    }
}

#[pymethods]
impl PyCrawler {
    /// Its own token, then its fallbacks: the tokens whose groups it
    /// obeys, in order (`*` not included).
    #[getter]
    fn tokens(&self) -> Vec<&'static str> {
        std::iter::once(self.token)
            .chain(self.fallbacks.iter().copied())
            .collect()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyCrawler>()
            .is_ok_and(|other| *other.get() == *self)
    }

    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.Crawler {} ({}, {})>",
            self.name, self.operator, self.purpose
        )
    }
}

/// Every crawler of the registry, in its order.
#[pyfunction]
pub fn crawlers() -> Vec<PyCrawler> {
    registry::crawlers().iter().map(PyCrawler::from).collect()
}

/// The crawler a person names: by name or alias (any case), or for a full
/// HTTP `User-Agent` header the first product it names that the registry
/// knows; `None` for a name the registry does not know (the crawler
/// reading reads it as one product token).
#[pyfunction]
pub fn identify_crawler(name: &Bound<'_, PyAny>) -> PyResult<Option<PyCrawler>> {
    Ok(registry::identify(&text_arg(name, "name")?).map(PyCrawler::from))
}

/// The registry's version (`2026.11.26`).
pub fn version() -> &'static str {
    registry::version()
}
