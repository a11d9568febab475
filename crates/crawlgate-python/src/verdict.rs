//! `crawlgate_robots.Verdict`: one answer, with what decided it. Built from
//! `crawlgate-fetch`'s `ExplainedVerdict`, the one explained verdict every
//! front end shows, whether a file's rules or a fetch outcome decided.

use crawlgate::{SelectionKind, Verdict};
use crawlgate_answers::ExplainedVerdict;
use pyo3::prelude::*;

use crate::choice::PyGroupChoice;

/// The answer for one crawler and one URL.
///
/// `allowed`; `rule` (`"Disallow: /private"`, as written) and `line` of the
/// deciding rule, or `None` when no rule decided; `reason` (`rule`,
/// `empty_rule`, `no_matching_rule`, `no_group`, `robots_txt_itself`,
/// `ignores_robots_txt`, `rule_limit`, and for a fetch outcome `full_allow` or
/// `full_disallow`: `Basis::as_str`, the names every front end writes);
/// `selection` (`specific`, `global`, `nothing`, or
/// `None` when no file was read); `groups`, the `(first_line, last_line)`
/// of each group that applied; `choice`, how those groups were chosen and
/// why (a `GroupChoice`, `None` when no file decided). True in a boolean
/// context when allowed.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "Verdict",
    get_all
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyVerdict {
    /// Whether the crawler may fetch the URL.
    pub allowed: bool,
    /// The deciding rule as written (`Disallow: /private`).
    pub rule: Option<String>,
    /// Its 1-based line number.
    pub line: Option<u32>,
    /// `allow` or `disallow`.
    pub rule_kind: Option<&'static str>,
    /// The rule's value as written.
    pub pattern: Option<String>,
    /// What decided (see the class documentation).
    pub reason: &'static str,
    /// How the groups were chosen: `specific`, `global`, `nothing`.
    pub selection: Option<&'static str>,
    /// `(first_line, last_line)` of each group that applied.
    pub groups: Vec<(u32, u32)>,
    /// Whether the rule matched through Google's `index.html` alias.
    pub via_index_alias: bool,
    /// How the groups were chosen, and why.
    pub choice: Option<PyGroupChoice>,
}

impl PyVerdict {
    /// A verdict of a parsed file, its choice explained naming the crawler
    /// `name` as asked (a crawler of the registry as the registry writes
    /// it).
    pub fn from_verdict(verdict: &Verdict<'_>, name: &str) -> PyVerdict {
        PyVerdict::from_explained(
            ExplainedVerdict::named(verdict, name),
            Some(verdict.selection()),
        )
    }

    /// An explained verdict, with how the groups were chosen when a file
    /// was read.
    pub fn from_explained(
        verdict: ExplainedVerdict,
        selection: Option<SelectionKind>,
    ) -> PyVerdict {
        let rule = verdict.rule;
        PyVerdict {
            allowed: verdict.allowed,
            line: rule.as_ref().map(|r| r.line),
            rule_kind: rule
                .as_ref()
                .map(|r| if r.is_allow() { "allow" } else { "disallow" }),
            via_index_alias: rule.as_ref().is_some_and(|r| r.via_index_alias),
            pattern: rule.as_ref().map(|r| r.value.clone()),
            rule: rule.map(|r| r.text),
            reason: verdict.basis.as_str(),
            selection: selection.map(selection_name),
            groups: verdict
                .groups
                .iter()
                .map(|g| (g.first_line, g.last_line))
                .collect(),
            choice: verdict.choice.map(|c| PyGroupChoice::from(*c)),
        }
    }
}

/// The name of a selection kind.
pub fn selection_name(kind: SelectionKind) -> &'static str {
    match kind {
        SelectionKind::Specific => "specific",
        SelectionKind::Global => "global",
        SelectionKind::Nothing => "nothing",
    }
}

#[pymethods]
impl PyVerdict {
    fn __bool__(&self) -> bool {
        self.allowed
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyVerdict>()
            .is_ok_and(|other| *other.get() == *self)
    }

    fn __repr__(&self) -> String {
        let verdict = if self.allowed {
            "allowed"
        } else {
            "disallowed"
        };
        match (&self.rule, self.line) {
            (Some(rule), Some(line)) => {
                format!("<crawlgate_robots.Verdict {verdict} by line {line} ({rule})>")
            }
            _ => format!("<crawlgate_robots.Verdict {verdict}: {}>", self.reason),
        }
    }
}
