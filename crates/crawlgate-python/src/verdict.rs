//! `crawlgate.Verdict`: one answer, with what decided it.

use crawlgate::{Reason, SelectionKind, Verdict};
use pyo3::prelude::*;

/// The answer for one crawler and one URL.
///
/// `allowed`; `rule` (`"Disallow: /private"`, as written) and `line` of the
/// deciding rule, or `None` when no rule decided; `reason` (`rule`,
/// `empty_rule`, `no_matching_rule`, `no_group`, `robots_txt`);
/// `selection` (`specific`, `global`, `nothing`); `groups`, the
/// `(first_line, last_line)` of each group that applied. True in a boolean
/// context when allowed.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate",
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
    /// Why: `rule`, `empty_rule`, `no_matching_rule`, `no_group`, `robots_txt`.
    pub reason: &'static str,
    /// How the groups were chosen: `specific`, `global`, `nothing`.
    pub selection: &'static str,
    /// `(first_line, last_line)` of each group that applied.
    pub groups: Vec<(u32, u32)>,
    /// Whether the rule matched through Google's `index.html` alias.
    pub via_index_alias: bool,
}

impl PyVerdict {
    /// Copies what Python needs out of a borrowed verdict.
    pub fn from_verdict(verdict: &Verdict<'_>) -> PyVerdict {
        let rule = verdict.rule();
        PyVerdict {
            allowed: verdict.is_allowed(),
            rule: rule.map(|r| r.to_string()),
            line: rule.map(|r| r.line()),
            rule_kind: rule.map(|r| if r.is_allow() { "allow" } else { "disallow" }),
            pattern: rule.map(|r| r.value().to_owned()),
            reason: reason_name(verdict.reason()),
            selection: selection_name(verdict.selection()),
            groups: verdict
                .groups()
                .map(|g| (g.first_line(), g.last_line()))
                .collect(),
            via_index_alias: verdict.via_index_alias(),
        }
    }
}

/// The snake-case name of a reason.
pub fn reason_name(reason: Reason) -> &'static str {
    match reason {
        Reason::Rule => "rule",
        Reason::EmptyRule => "empty_rule",
        Reason::NoMatchingRule => "no_matching_rule",
        Reason::NoGroup => "no_group",
        Reason::RobotsTxt => "robots_txt",
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
                format!("<crawlgate.Verdict {verdict} by line {line} ({rule})>")
            }
            _ => format!("<crawlgate.Verdict {verdict}: {}>", self.reason),
        }
    }
}
