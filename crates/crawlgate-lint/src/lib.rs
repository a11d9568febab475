//! The linter: what every crawler will do with a robots.txt file, before it is
//! deployed.
//!
//! [`lint`] parses the file under the chosen [`Profile`], keeps the parser's
//! own diagnostics (missing colons, misspellings, BOM, size…) and runs every
//! rule of [`RULES`] over the result: grouping traps, rules that can never
//! decide, malformed extensions, and the places where Google's reading of
//! the file and RFC 9309's (and, on request, the legacy one) disagree, each
//! shown with a concrete crawler and URL. With [`LintOptions::audit`] it also says, for each of
//! the known crawler tokens of [`audit::crawlers`], which group it gets and
//! whether it may crawl `/`.
//!
//! Every rule lives in its own file under `src/rules/<category>/` with its
//! [`RuleInfo`] (its [`Code`], which carries its name, default severity and
//! summary, its documentation and its check); the parser's findings that
//! are passed on as they are share one file. Renderers for people (rustc style), JSON and SARIF 2.1.0 are
//! in [`render`].
//!
//! ```
//! use crawlgate_lint::{lint, Code, LintOptions, Severity};
//!
//! let file = b"User-agent: a\nCrawl-delay: 1\nUser-agent: *\nDisallow: /\n";
//! let report = lint(file, &LintOptions::default());
//! let merged = report
//!     .diagnostics
//!     .iter()
//!     .find(|d| d.code == Code::MergedGroups)
//!     .unwrap();
//! assert_eq!(merged.span.line, 3);
//! assert!(merged.message.contains("`a` (line 1) and `*` (line 3) share one group"));
//! assert_eq!(report.worst(), Some(Severity::Warning));
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod audit;
mod budget;
mod context;
mod diagnostic;
mod fix_effect;
mod inclusion;
mod lines;
mod linter;
mod options;
mod prefixes;
pub mod render;
mod report;
mod rule;
mod rules;
mod spans;
mod spelling;
#[cfg(test)]
pub(crate) mod testing;
mod wording;

pub use audit::{AuditEntry, Crawler, Obeys, Purpose};
pub use crawlgate::{Fix, Severity, Span};
pub use diagnostic::{Code, Diagnostic};
pub use linter::{lint, lint_findings_sharing, lint_parsed, lint_parsed_sharing};
pub use options::LintOptions;
pub use report::LintReport;
pub use rule::{Category, RuleInfo};
pub use rules::{rule_info, RULES};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
