//! `RobotsTxt.lint()` and `crawlgate_robots.lint()`: the linter's findings as
//! Python objects.

use crawlgate::Profile;
use crawlgate_lint::{lint, Diagnostic, LintOptions};
use pyo3::prelude::*;

use crate::input::{body_bytes, profile_named};

/// One finding of the linter.
///
/// `code` (`R101`), `name` (`merged-groups`), `severity` (`info`,
/// `warning`, `error`), `line` and `column` (1-based), `span` (byte offsets
/// `(start, end)` into the input), `message` (what crawlers will do),
/// `fix` and `replacement` when there is a suggested fix;
/// `changes_verdicts` (a bool) and `verdict_change` (how, or `None`) say
/// whether applying the fix changes what crawlers may fetch.
#[pyclass(
    frozen,
    skip_from_py_object,
    module = "crawlgate_robots",
    name = "Diagnostic",
    get_all
)]
#[derive(Clone)]
pub struct PyDiagnostic {
    /// The stable code, `R101`.
    pub code: &'static str,
    /// The rule's name, `merged-groups`.
    pub name: &'static str,
    /// `info`, `warning` or `error`.
    pub severity: &'static str,
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub column: u32,
    /// Byte offsets `(start, end)` into the input.
    pub span: (usize, usize),
    /// What crawlers will do.
    pub message: String,
    /// The suggested fix, for a human.
    pub fix: Option<String>,
    /// Replacement text for the span, when the fix is mechanical.
    pub replacement: Option<String>,
    /// Whether applying the fix changes a verdict (false without a fix).
    pub changes_verdicts: bool,
    /// How applying the fix changes verdicts, when it does.
    pub verdict_change: Option<String>,
}

impl From<&Diagnostic> for PyDiagnostic {
    fn from(d: &Diagnostic) -> Self {
        PyDiagnostic {
            code: d.code.as_str(),
            name: d.code.name(),
            severity: d.severity.as_str(),
            line: d.span.line,
            column: d.span.column,
            span: (d.span.bytes.start, d.span.bytes.end),
            message: d.message.to_string(),
            fix: d.fix.as_ref().map(|f| f.message.to_string()),
            replacement: d.fix.as_ref().and_then(|f| f.replacement.clone()),
            changes_verdicts: d.fix.as_ref().is_some_and(|f| f.changes_verdicts()),
            verdict_change: d
                .fix
                .as_ref()
                .and_then(|f| f.verdict_change.as_ref().map(|h| h.to_string())),
        }
    }
}

#[pymethods]
impl PyDiagnostic {
    fn __repr__(&self) -> String {
        format!(
            "<crawlgate_robots.Diagnostic {}:{}: {}[{}] {}>",
            self.line, self.column, self.severity, self.code, self.message
        )
    }

    fn __str__(&self) -> String {
        format!(
            "{}:{}: {}[{}] {}",
            self.line, self.column, self.severity, self.code, self.message
        )
    }
}

/// Lints `bytes` with the GIL released.
pub fn lint_bytes(
    py: Python<'_>,
    bytes: &[u8],
    profile: Profile,
    legacy: bool,
) -> Vec<PyDiagnostic> {
    py.detach(|| {
        let options = LintOptions::default()
            .with_profile(profile)
            .with_legacy_comparison(legacy);
        lint(bytes, &options)
            .diagnostics
            .iter()
            .map(PyDiagnostic::from)
            .collect()
    })
}

/// Lints a robots.txt body (`bytes` or `str`): every finding, with code,
/// severity, span, message and fix.
#[pyfunction(name = "lint")]
#[pyo3(signature = (body, profile = "google", *, legacy = false))]
pub fn lint_body(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    profile: &str,
    legacy: bool,
) -> PyResult<Vec<PyDiagnostic>> {
    let profile = profile_named(profile)?;
    let body = body_bytes(body, "lint() body")?;
    Ok(lint_bytes(py, body.as_bytes(), profile, legacy))
}
