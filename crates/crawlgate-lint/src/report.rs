//! What a lint run found: the findings, the audit, the input's facts.

use crawlgate::{InputStats, Profile, Severity};

use crate::audit::AuditEntry;
use crate::diagnostic::{Code, Diagnostic};

/// The result of [`lint`](crate::lint).
///
/// ```
/// use crawlgate_lint::{lint, LintOptions, Severity};
///
/// let report = lint(b"User-agent: *\nDisallow: private/\n", &LintOptions::default());
/// assert_eq!(report.worst(), Some(Severity::Error));
/// assert_eq!(report.count(Severity::Error), 1);
/// let d = &report.diagnostics[0];
/// assert_eq!((d.span.line, d.span.column), (2, 11));
/// assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("/private/"));
/// ```
#[derive(Clone, Debug)]
pub struct LintReport {
    /// The reading the file was judged with.
    pub profile: Profile,
    /// Every finding, ordered by line, column and code.
    pub diagnostics: Vec<Diagnostic>,
    /// The crawler audit, when [`LintOptions::audit`](crate::LintOptions::audit) asked for it.
    pub audit: Option<Vec<AuditEntry>>,
    /// Size and encoding facts about the input.
    pub stats: InputStats,
}

impl LintReport {
    /// The most serious severity found, `None` for a clean file.
    pub fn worst(&self) -> Option<Severity> {
        self.diagnostics.iter().map(|d| d.severity).max()
    }

    /// How many findings have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// The findings with one code.
    pub fn with_code(&self, code: Code) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics.iter().filter(move |d| d.code == code)
    }
}
