//! Lint findings as data: every lint [`Code`] with its name, default
//! severity and summary, and the [`Diagnostic`] a rule reports.
//!
//! The lint codes extend the parser's: [`Code::Parse`] carries a
//! [`crawlgate::Code`] (`R002`, missing colons, misspellings, the BOM,
//! sizes…) with the text, name, severity and summary the core gives it;
//! the other variants are the linter's own, listed once in the table below.
//! One numbering covers both, so a new lint rule needs no change to the
//! parser.

use std::cmp::Ordering;
use std::fmt;

use crawlgate::Severity;

crawlgate::code_table! {
    /// A stable lint code. Codes are never reused; `R0xx` are syntax,
    /// `R1xx` grouping, `R2xx` rules, `R3xx` extensions, `R4xx`
    /// profiles, `R5xx` the crawler audit. Codes compare by number.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Code {
    /// A finding of the parser's, passed on under its own code.
    Parse(crawlgate::Code),
    UnknownField = ("R001", "unknown-field", Warning,
        "a field name no crawler reads, with a did-you-mean for near misses"),
    DollarNotAtEnd = ("R007", "dollar-not-at-end", Warning,
        "`$` that is not the last character of a rule, so it is a literal `$`"),
    LeadingWildcard = ("R008", "leading-wildcard", Info,
        "a rule path starting with `*`: Google and Bing accept it, strict parsers do not"),
    RelativeSitemap = ("R009", "relative-sitemap", Warning,
        "a `Sitemap:` value that is not an absolute http(s) URL"),
    HtmlPage = ("R017", "html-page", Error,
        "the file is an HTML page, not a robots.txt"),
    BinaryFile = ("R018", "binary-file", Error,
        "the file is binary (an image, an archive…), not a robots.txt"),
    MergedGroups = ("R101", "merged-groups", Warning,
        "non-rule lines between user-agent lines silently merge what look like separate groups"),
    RepeatedGroup = ("R102", "repeated-group", Warning,
        "several groups name the same crawler"),
    AgentNotProductToken = ("R103", "agent-not-product-token", Warning,
        "a user-agent value that is not a product token (`Googlebot/2.0`, `Googlebot Image`)"),
    EmptyGroup = ("R104", "empty-group", Warning,
        "a group without rules: its crawlers may fetch everything"),
    DropsStarRules = ("R105", "drops-star-rules", Warning,
        "a crawler with a group of its own no longer obeys the `*` rules"),
    YandexSplitGroup = ("R106", "yandex-split-group", Warning,
        "a blank line between user-agent lines starts a new group for Yandex: the robots above it get no rules"),
    DuplicateRule = ("R201", "duplicate-rule", Info,
        "the same rule twice for the same crawlers"),
    ShadowedRule = ("R202", "shadowed-rule", Warning,
        "a rule that can never decide: a longer or equal rule of the other kind always wins"),
    ContradictoryRules = ("R203", "contradictory-rules", Warning,
        "an allow and a disallow with the same path for the same crawlers"),
    DisallowAll = ("R204", "disallow-all", Warning,
        "`Disallow: /` for every crawler and no crawler-specific group"),
    DisallowedSitemap = ("R205", "disallowed-sitemap", Warning,
        "a sitemap whose URL the file disallows"),
    BlockedResources = ("R206", "blocked-resources", Warning,
        "CSS or JavaScript disallowed for Googlebot"),
    PublicSecret = ("R207", "public-secret", Info,
        "a disallowed path that looks secret: robots.txt is public"),
    NotUrlText = ("R208", "not-url-text", Warning,
        "a rule with a raw space or an HTML entity (`&amp;`), which URLs never hold"),
    CrawlDelayIgnored = ("R301", "crawl-delay-ignored", Info,
        "`Crawl-delay` for crawlers that include Googlebot, which ignores it"),
    CrawlDelayRange = ("R302", "crawl-delay-range", Warning,
        "a crawl delay outside Bing's 1–30 seconds"),
    InvalidCrawlDelay = ("R303", "invalid-crawl-delay", Warning,
        "a `Crawl-delay` value that is not a number of seconds"),
    InvalidRequestRate = ("R304", "invalid-request-rate", Warning,
        "a malformed `Request-rate` value"),
    InvalidVisitTime = ("R305", "invalid-visit-time", Warning,
        "a malformed `Visit-time` value"),
    InvalidContentUsage = ("R306", "invalid-content-usage", Warning,
        "a malformed `Content-Usage` value"),
    UnknownContentUsageKey = ("R307", "unknown-content-usage-key", Warning,
        "a `Content-Usage` key outside the vocabulary (`train-ai`, `ai-use`, `search`)"),
    InvalidContentSignal = ("R308", "invalid-content-signal", Warning,
        "a malformed `Content-Signal` value"),
    UnknownContentSignalKey = ("R309", "unknown-content-signal-key", Warning,
        "a `Content-Signal` key outside the convention"),
    NoindexLine = ("R310", "noindex-line", Warning,
        "a `Noindex` (or `Nofollow`) line: no crawler supports it any more"),
    ExtensionOutsideGroup = ("R311", "extension-outside-group", Warning,
        "a group-member extension (crawl-delay…) before any user-agent line"),
    HostLine = ("R312", "host-line", Info,
        "a `Host:` line, which only Yandex read and no longer does"),
    ConflictingPreferences = ("R313", "conflicting-preferences", Warning,
        "usage preferences for the same path and crawlers that disagree"),
    RepeatedPreferenceKey = ("R314", "repeated-preference-key", Warning,
        "a key given twice, with different values, in one `Content-Usage` or `Content-Signal` line"),
    MootPreference = ("R315", "moot-preference", Info,
        "a `Content-Usage` line for paths its crawlers may not fetch, where no preference applies"),
    InvalidLicense = ("R316", "invalid-license", Warning,
        "a `License:` value that is not an absolute URL"),
    InvalidCleanParam = ("R317", "invalid-clean-param", Warning,
        "a `Clean-param` line Yandex's parser drops"),
    Rfc9309Differs = ("R401", "rfc9309-differs", Warning,
        "the rfc9309 reading decides a URL differently from Google's"),
    LegacyDiffers = ("R402", "legacy-differs", Info,
        "the legacy (1996, urllib.robotparser) reading decides a URL differently from Google's"),
    BingDiffers = ("R403", "bing-differs", Warning,
        "Bing's reading decides a URL differently from Google's for a Bing crawler"),
    YandexDiffers = ("R404", "yandex-differs", Warning,
        "Yandex's parser decides a URL differently from Google's reading for a Yandex robot"),
    AgentTypo = ("R501", "agent-typo", Warning,
        "a user-agent that looks like a misspelled known crawler token"),
    SearchCrawlerInAiGroup = ("R502", "search-crawler-in-ai-group", Warning,
        "a search engine's crawler in a group of AI crawlers: the group keeps it out of search too"),
    RetiredCrawler = ("R503", "retired-crawler", Info,
        "a user-agent naming a crawler that no longer runs"),
    }
}

/// The parser's codes and the linter's, merged in numeric order.
const fn merged<const N: usize>() -> [Code; N] {
    let parse = crawlgate::Code::ALL;
    let own = Code::TABLE;
    let mut out = [Code::UnknownField; N];
    let (mut i, mut j, mut k) = (0, 0, 0);
    while k < N {
        let from_parser =
            j == own.len() || (i < parse.len() && parse[i].number() < own[j].number());
        if from_parser {
            out[k] = Code::Parse(parse[i]);
            i += 1;
        } else {
            out[k] = own[j];
            j += 1;
        }
        k += 1;
    }
    out
}

impl Code {
    /// Every code, the parser's and the linter's, in numeric order.
    pub const ALL: &'static [Code] =
        &merged::<{ crawlgate::Code::ALL.len() + Code::TABLE.len() }>();

    /// The number of the code (`101` for `R101`).
    pub const fn number(self) -> u16 {
        crawlgate::code_number(self.as_str())
    }

    /// Looks a code up by its code (`R101`, any case) or name (`merged-groups`).
    ///
    /// ```
    /// use crawlgate_lint::Code;
    /// assert_eq!(Code::lookup("R101"), Some(Code::MergedGroups));
    /// assert_eq!(Code::lookup("merged-groups"), Some(Code::MergedGroups));
    /// assert_eq!(Code::lookup("r002"), Some(Code::Parse(crawlgate::Code::MissingColon)));
    /// ```
    pub fn lookup(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
    }

    /// The parser's code for the same finding (`R002` for both), when the
    /// parser reports it.
    ///
    /// ```
    /// use crawlgate_lint::Code;
    /// let missing_colon = Code::from(crawlgate::Code::MissingColon);
    /// assert_eq!(missing_colon.parse_code(), Some(crawlgate::Code::MissingColon));
    /// assert_eq!(Code::MergedGroups.parse_code(), None);
    /// ```
    pub const fn parse_code(self) -> Option<crawlgate::Code> {
        match self {
            Code::Parse(code) => Some(code),
            _ => None,
        }
    }
}

impl From<crawlgate::Code> for Code {
    fn from(code: crawlgate::Code) -> Code {
        Code::Parse(code)
    }
}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Code) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Code {
    fn cmp(&self, other: &Code) -> Ordering {
        self.number().cmp(&other.number())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl crawlgate::DiagnosticCode for Code {
    fn default_severity(self) -> Severity {
        Code::default_severity(self)
    }
}

/// One finding about one place in a robots.txt file: the core's
/// [`crawlgate::Diagnostic`] under a lint [`Code`].
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
pub type Diagnostic = crawlgate::Diagnostic<Code>;

/// The parser's finding, passed on under its own code.
pub(crate) fn from_parser(found: &crawlgate::Diagnostic) -> Diagnostic {
    Diagnostic {
        code: Code::Parse(found.code),
        severity: found.severity,
        span: found.span.clone(),
        message: found.message.clone(),
        fix: found.fix.clone(),
    }
}
