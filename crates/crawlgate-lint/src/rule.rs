//! What a rule is: its code (which carries its name, severity and summary),
//! its family, its documentation and its check.

use std::fmt;

use crawlgate::Severity;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};

crawlgate::word_table! {
    /// The family a rule belongs to (and its code range).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Category {
        /// `R0xx`: how lines are read.
        Syntax = "syntax",
        /// `R1xx`: which crawlers share which rules.
        Grouping = "grouping",
        /// `R2xx`: what the allow and disallow rules decide.
        Rules = "rules",
        /// `R3xx`: crawl-delay, request-rate, visit-time, content-usage…
        Extensions = "extensions",
        /// `R4xx`: where the google, rfc9309, legacy and bing readings disagree.
        Profiles = "profiles",
        /// `R5xx`: known crawler tokens.
        Audit = "audit",
    }
}

impl Category {
    /// The family of a code, from its hundreds digit.
    ///
    /// ```
    /// use crawlgate_lint::{Category, Code};
    /// assert_eq!(Category::of(Code::MergedGroups), Category::Grouping);
    /// ```
    pub const fn of(code: Code) -> Category {
        match code.number() / 100 {
            0 => Category::Syntax,
            1 => Category::Grouping,
            2 => Category::Rules,
            3 => Category::Extensions,
            4 => Category::Profiles,
            _ => Category::Audit,
        }
    }
}

/// A check of one's own: it looks at the file and reports findings.
pub(crate) type CheckFn = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// Whether a finding of the parser's is left to another rule that says it
/// better.
pub(crate) type LeftFn = fn(&Context<'_>, &crawlgate::Diagnostic) -> bool;

/// How a rule finds what it reports.
#[derive(Clone, Copy)]
pub(crate) enum Check {
    /// A check of its own.
    Own(CheckFn),
    /// The parser's findings of the rule's code, passed on as they are,
    /// except those the function leaves to another rule.
    PassOn(Option<LeftFn>),
}

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
    pub(crate) check: Check,
}

impl RuleInfo {
    /// A rule with a check of its own; its name, severity, category and
    /// summary come from its code.
    pub(crate) const fn new(code: Code, docs: &'static str, check: CheckFn) -> RuleInfo {
        RuleInfo::with(code, docs, Check::Own(check))
    }

    /// A rule that passes on the parser's findings of `code`, except those
    /// `left` leaves to another rule.
    pub(crate) const fn passed_on(
        code: crawlgate::Code,
        docs: &'static str,
        left: Option<LeftFn>,
    ) -> RuleInfo {
        RuleInfo::with(Code::Parse(code), docs, Check::PassOn(left))
    }

    const fn with(code: Code, docs: &'static str, check: Check) -> RuleInfo {
        RuleInfo {
            code,
            name: code.name(),
            severity: code.default_severity(),
            category: Category::of(code),
            summary: code.summary(),
            docs,
            check,
        }
    }
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
