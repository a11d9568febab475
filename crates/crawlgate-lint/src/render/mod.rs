//! Renderings of lint reports: rustc-style text for people ([`human`]), a JSON
//! array for scripts ([`json`]) and SARIF 2.1.0 for code-scanning in CI
//! ([`sarif`]).
//!
//! ```
//! use crawlgate_lint::{lint, render, LintOptions};
//!
//! let source = b"User-agent: *\nDisallow: private/\n";
//! let report = lint(source, &LintOptions::default());
//! let text = render::human(&report, source, "robots.txt", false);
//! assert!(text.starts_with("robots.txt:2:11: error[R006]: "));
//! assert!(text.contains("2 | Disallow: private/\n  |           ^^^^^^^^\n"));
//! let file = render::LintedFile { path: "robots.txt", source, report: &report };
//! assert!(render::json(&[file]).contains("\"code\":\"R006\""));
//! ```

mod chars;
mod human;
mod json;
mod sarif;
mod source;

pub use human::{audit_table, human, summary};
pub use json::{audit_json, json};
pub use sarif::sarif;
pub use source::LintedFile;
