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
//! [`RuleInfo`] (code, name, default severity, category and documentation)
//! and its check. Renderers for people (rustc style), JSON and SARIF 2.1.0 are
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
mod inclusion;
mod lines;
mod prefixes;
pub mod render;
mod rules;
mod spelling;
#[cfg(test)]
pub(crate) mod testing;

use std::fmt;

use crawlgate::{InputStats, Profile, Reading, RobotsTxt};

pub(crate) use context::Context;

pub use audit::{AuditEntry, Crawler, Obeys, Purpose};
pub use crawlgate::{Fix, Severity, Span};
pub use diagnostic::{Code, Diagnostic};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;

/// The family a rule belongs to (and its code range).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// `R0xx`: how lines are read.
    Syntax,
    /// `R1xx`: which crawlers share which rules.
    Grouping,
    /// `R2xx`: what the allow and disallow rules decide.
    Rules,
    /// `R3xx`: crawl-delay, request-rate, visit-time, content-usage…
    Extensions,
    /// `R4xx`: where the google, rfc9309, legacy and bing readings disagree.
    Profiles,
    /// `R5xx`: known crawler tokens.
    Audit,
}

impl Category {
    /// Lowercase name: `syntax`, `grouping`, `rules`, `extensions`,
    /// `profiles`, `audit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Syntax => "syntax",
            Category::Grouping => "grouping",
            Category::Rules => "rules",
            Category::Extensions => "extensions",
            Category::Profiles => "profiles",
            Category::Audit => "audit",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

type CheckFn = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// One lint rule: its code, name, default severity, category and
/// documentation.
///
/// ```
/// use crawlgate_lint::{rule_info, Category, Code};
/// let rule = rule_info(Code::MergedGroups).unwrap();
/// assert_eq!(rule.name, "merged-groups");
/// assert_eq!(rule.category, Category::Grouping);
/// assert!(rule.docs.contains("## What it does"));
/// ```
pub struct RuleInfo {
    /// The stable code.
    pub code: Code,
    /// The kebab-case name (`merged-groups`).
    pub name: &'static str,
    /// The severity the rule reports with (some findings of a rule may be
    /// reported lower or higher when they matter less or more).
    pub severity: Severity,
    /// The rule's family.
    pub category: Category,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// Markdown with the sections `## What it does`, `## Why it matters`,
    /// `## Example` and `## Use instead`.
    pub docs: &'static str,
    pub(crate) check: CheckFn,
}

impl fmt::Debug for RuleInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuleInfo")
            .field("code", &self.code)
            .field("name", &self.name)
            .field("severity", &self.severity)
            .field("category", &self.category)
            .finish()
    }
}

/// Every lint rule, in code order. Parser findings (`R002`–`R006`,
/// `R010`–`R016`) are rules too: their check passes on what the parser
/// reported, sometimes with a more precise message.
pub static RULES: &[&RuleInfo] = rules::ALL;

/// The rule with this code.
pub fn rule_info(code: Code) -> Option<&'static RuleInfo> {
    RULES.iter().copied().find(|rule| rule.code == code)
}

/// What to lint and how.
///
/// ```
/// use crawlgate::Profile;
/// use crawlgate_lint::{lint, Code, LintOptions};
///
/// let file = b"User-agent: *\nDisallow: *.pdf\n";
/// let google = lint(file, &LintOptions::default());
/// assert!(google.with_code(Code::LeadingWildcard).next().is_some());
/// // The strict reading drops the line instead.
/// let strict = lint(file, &LintOptions::default().with_profile(Profile::RFC9309));
/// assert!(strict.with_code(Code::PathNotAbsolute).next().is_some());
/// // The audit says what each known crawler gets.
/// let audited = lint(file, &LintOptions::default().with_audit(true));
/// assert!(audited.audit.unwrap().iter().any(|e| e.crawler.token == "GPTBot"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LintOptions {
    /// The reading the file is parsed and judged with (google by default).
    pub profile: Profile,
    /// Compare Google's reading with RFC 9309's (rule `R401`) and, for Bing's
    /// crawlers, with Bing's (rule `R403`). On by default.
    pub compare_profiles: bool,
    /// Also compare Google's reading with the legacy one (rule `R402`, info):
    /// it parses the file a second time and decides many more URLs, so it
    /// is off by default.
    pub compare_legacy: bool,
    /// Fill [`LintReport::audit`]: how each known crawler reads the file.
    pub audit: bool,
    /// How the audit reads each crawler: as its operator documents
    /// ([`Reading::Crawler`], the default) or as its one product token,
    /// exactly as Google's library does ([`Reading::OneToken`]).
    pub audit_reading: Reading,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            profile: Profile::GOOGLE,
            compare_profiles: true,
            compare_legacy: false,
            audit: false,
            audit_reading: Reading::Crawler,
        }
    }
}

impl LintOptions {
    /// Options with a given profile.
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Options that also run the crawler audit.
    pub fn with_audit(mut self, audit: bool) -> Self {
        self.audit = audit;
        self
    }

    /// Options whose audit reads each crawler under `reading`
    /// ([`audit::audit_with`]).
    ///
    /// ```
    /// use crawlgate::Reading;
    /// use crawlgate_lint::{lint, LintOptions};
    ///
    /// let options = LintOptions::default().with_audit(true).with_audit_reading(Reading::OneToken);
    /// let audit = lint(b"User-agent: *\nDisallow: /\n", &options).audit.unwrap();
    /// let adsbot = audit.iter().find(|e| e.crawler.name == "AdsBot-Google").unwrap();
    /// assert!(!adsbot.root_allowed); // read as one token, it gets `*`
    /// ```
    pub fn with_audit_reading(mut self, reading: Reading) -> Self {
        self.audit_reading = reading;
        self
    }

    /// Options that compare (or not) Google's reading with RFC 9309's
    /// (`R401`); `false` also turns the legacy comparison off.
    pub fn with_profile_comparison(mut self, compare: bool) -> Self {
        self.compare_profiles = compare;
        if !compare {
            self.compare_legacy = false;
        }
        self
    }

    /// Options that also compare (or not) Google's reading with the legacy
    /// one (`R402`).
    pub fn with_legacy_comparison(mut self, compare: bool) -> Self {
        self.compare_legacy = compare;
        self
    }

    /// Every rule on: both comparisons and the audit.
    pub fn everything() -> Self {
        LintOptions::default()
            .with_legacy_comparison(true)
            .with_audit(true)
    }
}

/// The result of [`lint`].
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
    /// The crawler audit, when [`LintOptions::audit`] asked for it.
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

/// Lints robots.txt bytes.
///
/// ```
/// use crawlgate_lint::{lint, Code, LintOptions};
///
/// let report = lint(b"User-agent: *\nDisallow: /tmp\nDisallow: /tmp\n", &LintOptions::default());
/// let codes: Vec<Code> = report.diagnostics.iter().map(|d| d.code).collect();
/// assert_eq!(codes, [Code::DuplicateRule]);
/// assert_eq!(report.diagnostics[0].span.line, 3);
/// ```
pub fn lint(source: &[u8], options: &LintOptions) -> LintReport {
    let robots = RobotsTxt::parse_with(source, options.profile);
    lint_parsed(source, &robots, options)
}

/// Lints a file already parsed from `source` (with `options.profile`).
pub fn lint_parsed(source: &[u8], robots: &RobotsTxt, options: &LintOptions) -> LintReport {
    let cx = Context::new(source, robots);
    let mut diagnostics = Vec::new();
    for rule in RULES {
        let skipped = match rule.code {
            Code::Rfc9309Differs | Code::BingDiffers => !options.compare_profiles,
            Code::LegacyDiffers => !options.compare_legacy,
            _ => false,
        };
        if skipped {
            continue;
        }
        (rule.check)(&cx, &mut diagnostics);
    }
    if cx.html || cx.binary || cx.utf16 {
        // Not a robots.txt (or not one crawlers can read): the file-level
        // finding says so once (`R016` says "UTF-16"); what each line of
        // markup or bytes would be as robots.txt is noise.
        let kept = if cx.utf16 {
            Code::NulByte
        } else {
            Code::FileTooLarge
        };
        diagnostics.retain(|d| {
            rule_info(d.code).is_none_or(|rule| rule.category != Category::Syntax)
                || matches!(
                    d.code,
                    Code::HtmlPage | Code::BinaryFile | Code::FileTooLarge
                )
                || d.code == kept
        });
    }
    for d in &mut diagnostics {
        // One line per span: a span running past its line (the part of a file
        // past the size limit) is cut at the line's end.
        if let Some(line) = cx.line(d.span.line) {
            if d.span.bytes.end > line.end && d.span.bytes.start <= line.end {
                d.span.bytes.end = line.end.max(d.span.bytes.start);
            }
        }
    }
    // Rules report in their own order; the output is by place, then code
    // (findings equal in all three keep a deterministic order).
    diagnostics.sort_unstable_by_key(|d| (d.span.line, d.span.column, d.code));
    let audit = options
        .audit
        .then(|| audit::audit_with(robots, options.audit_reading));
    LintReport {
        profile: robots.profile(),
        diagnostics,
        audit,
        stats: robots.stats().clone(),
    }
}

#[cfg(test)]
mod registry_tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_code_has_exactly_one_rule_in_code_order() {
        let codes: Vec<Code> = RULES.iter().map(|r| r.code).collect();
        assert_eq!(
            codes,
            Code::ALL,
            "RULES must list every code once, in code order"
        );
        let names: HashSet<&str> = RULES.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), RULES.len());
    }

    #[test]
    fn rule_info_agrees_with_the_code_table() {
        for rule in RULES {
            assert_eq!(rule.name, rule.code.name(), "{}", rule.code);
            assert_eq!(rule.severity, rule.code.default_severity(), "{}", rule.code);
            let range = match rule.category {
                Category::Syntax => 'R',
                _ => 'R',
            };
            assert!(rule.code.as_str().starts_with(range));
            let hundreds = rule.code.as_str().as_bytes()[1] - b'0';
            let expected = match rule.category {
                Category::Syntax => 0,
                Category::Grouping => 1,
                Category::Rules => 2,
                Category::Extensions => 3,
                Category::Profiles => 4,
                Category::Audit => 5,
            };
            assert_eq!(hundreds, expected, "{} is in the wrong range", rule.code);
        }
    }

    #[test]
    fn every_rule_is_documented_and_has_both_fixtures() {
        for rule in RULES {
            for section in [
                "## What it does",
                "## Why it matters",
                "## Example",
                "## Use instead",
            ] {
                assert!(rule.docs.contains(section), "{} lacks {section}", rule.code);
            }
            assert!(!rule.summary.is_empty());
            for which in ["fires", "clean"] {
                let path = testing::fixture_path(rule.code, which);
                assert!(std::path::Path::new(&path).is_file(), "missing {path}");
            }
        }
    }

    /// The allowances that keep pathological files linear never run out on
    /// real files: on them, every check is complete.
    #[test]
    fn no_corpus_file_exhausts_an_allowance() {
        for (name, body) in crawlgate_corpus::files() {
            for profile in Profile::ALL {
                crate::budget::ran_out::take();
                lint(&body, &LintOptions::everything().with_profile(profile));
                assert!(
                    !crate::budget::ran_out::take(),
                    "{name} ({}) ran out of an allowance",
                    profile.name
                );
            }
        }
    }

    #[test]
    fn spans_stay_on_their_line() {
        let mut big = b"User-agent: *\n".to_vec();
        while big.len() <= crawlgate::MAX_BYTES {
            big.extend_from_slice(b"Disallow: /some/long/path/to/fill/the/file\n");
        }
        big.extend_from_slice(b"Disallow: /lost");
        let report = lint(&big, &LintOptions::default());
        let d = report.with_code(Code::FileTooLarge).next().unwrap();
        assert!(d.span.bytes.len() < 100, "{:?}", d.span);
        assert!(d.message.contains("allow/disallow"), "{}", d.message);
    }
}
