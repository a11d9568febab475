//! `crawlgate_robots.GroupChoice`: which token's groups decided for a
//! crawler, under which reading, on whose word, and the sentence why:
//! `crawlgate-fetch`'s `ChoiceRef`, the `choice` of `crawlgate check
//! --json` and `explain --json`, field for field.

use crawlgate::GroupChoice;
use crawlgate_answers::ChoiceRef;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// How the groups a crawler obeys were chosen.
///
/// `reading` (`crawler` or `one-token`); `kind` (`own`, `fallback`, `*`,
/// `none`, `ignores-robots-txt`, `control-token`); `token`, the token whose
/// groups decided (`*` for the `*` groups, `None` when no group applies);
/// `crawler`, the registry's name of the crawler the name was read as;
/// `why`, one sentence; `source_title`, `source_url` and `checked`, the
/// document the registry's rule follows and when it was checked.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "GroupChoice",
    get_all
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyGroupChoice {
    /// `crawler` or `one-token`.
    pub reading: &'static str,
    /// How the groups were chosen.
    pub kind: &'static str,
    /// The token whose groups decided.
    pub token: Option<String>,
    /// The registry's name of the crawler.
    pub crawler: Option<&'static str>,
    /// Why, in one sentence.
    pub why: String,
    /// The title of the document the choice follows.
    pub source_title: Option<&'static str>,
    /// Its address.
    pub source_url: Option<&'static str>,
    /// When the registry's entry was checked against it.
    pub checked: Option<&'static str>,
}

impl PyGroupChoice {
    /// `choice`, naming the crawler `name` as asked.
    pub fn new(choice: &GroupChoice<'_>, name: &str) -> PyGroupChoice {
        PyGroupChoice::from(ChoiceRef::new(choice, name))
    }
}

impl From<ChoiceRef> for PyGroupChoice {
    fn from(choice: ChoiceRef) -> PyGroupChoice {
        PyGroupChoice {
            reading: choice.reading.as_str(),
            kind: choice.kind.as_str(),
            token: choice.token,
            crawler: choice.crawler,
            why: choice.why,
            source_title: choice.source.as_ref().map(|s| s.title),
            source_url: choice.source.as_ref().map(|s| s.url),
            checked: choice.source.as_ref().map(|s| s.checked),
        }
    }
}

#[pymethods]
impl PyGroupChoice {
    /// The choice as `crawlgate check --json` writes it: `{"reading",
    /// "kind", "token", "crawler", "why", "source"}`, `source` being
    /// `{"title", "url", "checked"}` or `None`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("reading", self.reading)?;
        dict.set_item("kind", self.kind)?;
        dict.set_item("token", &self.token)?;
        dict.set_item("crawler", self.crawler)?;
        dict.set_item("why", &self.why)?;
        let source = match (self.source_title, self.source_url, self.checked) {
            (Some(title), Some(url), Some(checked)) => {
                let source = PyDict::new(py);
                source.set_item("title", title)?;
                source.set_item("url", url)?;
                source.set_item("checked", checked)?;
                Some(source)
            }
            _ => None,
        };
        dict.set_item("source", source)?;
        Ok(dict)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGroupChoice>()
            .is_ok_and(|other| *other.get() == *self)
    }

    fn __repr__(&self) -> String {
        format!("<crawlgate_robots.GroupChoice {}: {}>", self.kind, self.why)
    }
}
