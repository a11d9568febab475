//! Lint findings as data: every lint [`Code`] with its name and default
//! severity, and the [`Diagnostic`] a rule reports.
//!
//! The parser's own findings (missing colons, misspellings, the BOM, sizes…)
//! come with [`crawlgate::Code`]s; the linter passes them on under the lint
//! code with the same text (`R002`), name and severity, so one list of codes
//! covers both and a new lint rule needs no change to the parser.

use std::borrow::Cow;
use std::fmt;

use crawlgate::{Fix, Severity, Span};

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = ($code:literal, $name:literal, $severity:ident), )*) => {
        /// A stable lint code. Codes are never reused; `R0xx` are syntax,
        /// `R1xx` grouping, `R2xx` rules, `R3xx` extensions, `R4xx` profiles,
        /// `R5xx` the crawler audit.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as written in output (`R101`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// A short kebab-case name (`merged-groups`).
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity the code is reported with unless a finding
            /// matters less or more.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// Looks a code up by its code (`R101`) or name (`merged-groups`).
            ///
            /// ```
            /// use crawlgate_lint::Code;
            /// assert_eq!(Code::lookup("R101"), Some(Code::MergedGroups));
            /// assert_eq!(Code::lookup("merged-groups"), Some(Code::MergedGroups));
            /// assert_eq!(Code::lookup("r002"), Some(Code::MissingColon));
            /// ```
            pub fn lookup(text: &str) -> Option<Code> {
                Code::ALL
                    .iter()
                    .copied()
                    .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
            }
        }
    };
}

codes! {
    /// A field name no crawler knows (with "did you mean" for near misses).
    UnknownField = ("R001", "unknown-field", Warning),
    /// A line without a colon, read as `field value` (Google) or ignored (strict readings).
    MissingColon = ("R002", "missing-colon", Warning),
    /// A misspelled field name (`Dissallow`, `useragent`) that only lenient crawlers accept.
    MisspelledField = ("R003", "misspelled-field", Warning),
    /// A field name recognised only by its prefix (`Disallowed:`), as Google does.
    FieldNamePrefix = ("R004", "field-name-prefix", Warning),
    /// An allow or disallow line before any user-agent line: ignored by everyone.
    RuleBeforeUserAgent = ("R005", "rule-before-user-agent", Error),
    /// A rule path that does not start with `/` (or `*`): it never matches a URL.
    PathNotAbsolute = ("R006", "path-not-absolute", Error),
    /// A `$` that is not the last character of a rule: it is a literal `$`.
    DollarNotAtEnd = ("R007", "dollar-not-at-end", Warning),
    /// A rule path starting with `*`: Google and Bing accept it, strict parsers do not.
    LeadingWildcard = ("R008", "leading-wildcard", Warning),
    /// A `Sitemap:` value that is not an absolute http(s) URL.
    RelativeSitemap = ("R009", "relative-sitemap", Warning),
    /// A UTF-8 byte order mark at the start of the file.
    ByteOrderMark = ("R010", "byte-order-mark", Info),
    /// Bytes that are not valid UTF-8.
    InvalidUtf8 = ("R011", "invalid-utf8", Warning),
    /// Lines ended by a bare carriage return (old Mac style).
    CrLineEndings = ("R012", "cr-line-endings", Info),
    /// A line longer than the reference implementation reads.
    LineTooLong = ("R013", "line-too-long", Error),
    /// The file is larger than 500 KiB: the rest is ignored.
    FileTooLarge = ("R014", "file-too-large", Error),
    /// A line that is neither empty, a comment, nor `field: value`.
    InvalidLine = ("R015", "invalid-line", Warning),
    /// A NUL byte, which ends the content of its line.
    NulByte = ("R016", "nul-byte", Warning),
    /// The file is an HTML page, not a robots.txt.
    HtmlPage = ("R017", "html-page", Error),
    /// Non-rule lines between user-agent lines merge what look like separate groups.
    MergedGroups = ("R101", "merged-groups", Warning),
    /// Several groups name the same crawler.
    RepeatedGroup = ("R102", "repeated-group", Warning),
    /// A user-agent value that is not a product token (`Googlebot/2.0`, `Googlebot Image`).
    AgentNotProductToken = ("R103", "agent-not-product-token", Warning),
    /// A group without rules: its crawlers may fetch everything.
    EmptyGroup = ("R104", "empty-group", Warning),
    /// The same rule twice for the same crawlers.
    DuplicateRule = ("R201", "duplicate-rule", Info),
    /// A rule that can never decide: a longer or equal rule of the other kind always wins.
    ShadowedRule = ("R202", "shadowed-rule", Warning),
    /// An allow and a disallow with the same path for the same crawlers.
    ContradictoryRules = ("R203", "contradictory-rules", Warning),
    /// `Disallow: /` for every crawler and no crawler-specific group.
    DisallowAll = ("R204", "disallow-all", Warning),
    /// A sitemap whose URL the file disallows.
    DisallowedSitemap = ("R205", "disallowed-sitemap", Warning),
    /// CSS or JavaScript disallowed for Googlebot.
    BlockedResources = ("R206", "blocked-resources", Warning),
    /// A disallowed path that looks secret: robots.txt is public.
    PublicSecret = ("R207", "public-secret", Info),
    /// `Crawl-delay` for crawlers that include Googlebot, which ignores it.
    CrawlDelayIgnored = ("R301", "crawl-delay-ignored", Info),
    /// A crawl delay outside Bing's 1–30 seconds.
    CrawlDelayRange = ("R302", "crawl-delay-range", Warning),
    /// A `Crawl-delay` value that is not a number of seconds.
    InvalidCrawlDelay = ("R303", "invalid-crawl-delay", Warning),
    /// A malformed `Request-rate` value.
    InvalidRequestRate = ("R304", "invalid-request-rate", Warning),
    /// A malformed `Visit-time` value.
    InvalidVisitTime = ("R305", "invalid-visit-time", Warning),
    /// A malformed `Content-Usage` value.
    InvalidContentUsage = ("R306", "invalid-content-usage", Warning),
    /// A `Content-Usage` key outside the vocabulary.
    UnknownContentUsageKey = ("R307", "unknown-content-usage-key", Warning),
    /// A malformed `Content-Signal` value.
    InvalidContentSignal = ("R308", "invalid-content-signal", Warning),
    /// A `Content-Signal` key outside the convention.
    UnknownContentSignalKey = ("R309", "unknown-content-signal-key", Warning),
    /// A `Noindex` (or `Nofollow`) line: no crawler supports it any more.
    NoindexLine = ("R310", "noindex-line", Warning),
    /// A group-member extension (crawl-delay…) before any user-agent line.
    ExtensionOutsideGroup = ("R311", "extension-outside-group", Warning),
    /// The rfc9309 reading decides a URL differently from Google's.
    Rfc9309Differs = ("R401", "rfc9309-differs", Warning),
    /// The legacy (1996, urllib.robotparser) reading decides a URL differently from Google's.
    LegacyDiffers = ("R402", "legacy-differs", Info),
    /// A user-agent that looks like a misspelled known crawler token.
    AgentTypo = ("R501", "agent-typo", Warning),
}

impl Code {
    /// The parser's code for the same finding (`R002` for both), when the
    /// parser reports it.
    ///
    /// ```
    /// use crawlgate_lint::Code;
    /// assert_eq!(Code::MissingColon.parse_code(), Some(crawlgate::Code::MissingColon));
    /// assert_eq!(Code::MergedGroups.parse_code(), None);
    /// ```
    pub fn parse_code(self) -> Option<crawlgate::Code> {
        crawlgate::Code::lookup(self.as_str())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about one place in a robots.txt file.
///
/// ```
/// use crawlgate_lint::{Code, Diagnostic};
/// use crawlgate::{Severity, Span};
///
/// let span = Span { line: 2, bytes: 14..20, column: 1 };
/// let d = Diagnostic::new(Code::NoindexLine, span, "no crawler reads it");
/// assert_eq!(d.severity, Severity::Warning);
/// assert_eq!(d.to_string(), "2:1: warning[R310] no crawler reads it");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// Where it is.
    pub span: Span,
    /// What a crawler will actually do.
    pub message: Cow<'static, str>,
    /// A suggested fix, when there is one.
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no fix.
    pub fn new(code: Code, span: Span, message: impl Into<Cow<'static, str>>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.default_severity(),
            span,
            message: message.into(),
            fix: None,
        }
    }

    /// The parser's finding `found`, reported under `code`.
    pub(crate) fn from_parser(code: Code, found: &crawlgate::Diagnostic) -> Diagnostic {
        Diagnostic {
            code,
            severity: found.severity,
            span: found.span.clone(),
            message: found.message.clone(),
            fix: found.fix.clone(),
        }
    }

    /// Adds a suggested fix.
    pub fn with_fix(
        mut self,
        message: impl Into<Cow<'static, str>>,
        replacement: Option<String>,
    ) -> Self {
        self.fix = Some(Fix {
            message: message.into(),
            replacement,
        });
        self
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.span.line
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}[{}] {}",
            self.span.line, self.span.column, self.severity, self.code, self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_parser_code_is_a_lint_code_with_the_same_text_name_and_severity() {
        for &parsed in crawlgate::Code::ALL {
            let code = Code::lookup(parsed.as_str()).expect("a lint code for every parser code");
            assert_eq!(code.as_str(), parsed.as_str());
            assert_eq!(code.name(), parsed.name(), "{parsed}");
            assert_eq!(
                code.default_severity(),
                parsed.default_severity(),
                "{parsed}"
            );
            assert_eq!(code.parse_code(), Some(parsed));
        }
        let passed_on = Code::ALL
            .iter()
            .filter(|c| c.parse_code().is_some())
            .count();
        assert_eq!(passed_on, crawlgate::Code::ALL.len());
    }
}
