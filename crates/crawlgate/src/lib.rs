//! # crawlgate
//!
//! Parse any bytes as robots.txt, pick the group for a crawler, decide a URL,
//! and say which line decided, exactly as Google's reference implementation
//! reads the file (RFC 9309 plus Google's leniencies), or under the stricter
//! `rfc9309` and older `legacy` readings.
//!
//! ## Quick start
//!
//! ```
//! use crawlgate::RobotsTxt;
//!
//! let body = b"\
//! User-agent: *
//! Disallow: /private/
//! Allow: /private/press/
//!
//! Sitemap: https://example.com/sitemap.xml
//! ";
//! let robots = RobotsTxt::parse(body);
//!
//! // One question: `decide` (or `is_allowed`) on the parsed file.
//! assert!(robots.is_allowed("mybot", "https://example.com/"));
//! assert!(!robots.is_allowed("mybot", "https://example.com/private/x"));
//!
//! // Many questions: the crawler's view, built once, asked many times.
//! let mybot = robots.view("mybot");
//! let verdict = mybot.decide("https://example.com/private/press/release.html");
//! assert!(verdict.is_allowed());
//! let rule = verdict.rule().unwrap();
//! assert_eq!(rule.line(), 3);
//! assert_eq!(rule.to_string(), "Allow: /private/press/");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Asking one question, or many
//!
//! * **One question** about a parsed file: [`RobotsTxt::decide`]. It tries
//!   the crawler's rules once and keeps nothing: every call costs the same
//!   and answers the same. Without needing the parsed file at all,
//!   [`decide_once`] answers straight from the bytes, faster still.
//! * **Many questions** for one crawler: [`RobotsTxt::view`], then
//!   [`AgentView::decide`] or [`AgentView::is_allowed`] for each URL. The
//!   view answers its first questions by trying the rules, then compiles
//!   them once and looks answers up; it is `Send + Sync`.
//! * **Many questions about a file you keep** (a cache of robots.txt
//!   files, a batch, several crawlers): [`CompiledRobotsTxt`] owns the
//!   parsed file and keeps each crawler's compiled rules, so repeated
//!   questions compile once whoever asks them.
//!
//! All three give the same verdicts (tests hold them together). The parsed
//! [`RobotsTxt`] is plain data: it holds the file's records and no cache.
//!
//! ## What is read
//!
//! * Lines end with CR, LF or CR LF; a UTF-8 BOM is skipped; `#` starts a
//!   comment; field names are case-insensitive; only the first 500 KiB are
//!   read and a line cut by that limit is dropped.
//! * `User-agent` lines open a group; consecutive ones share it; only an
//!   allow/disallow line followed by a user-agent line ends a group. Every
//!   other field (crawl-delay, sitemap, unknown ones) is kept as a record
//!   with its line number and ignored for grouping.
//! * A crawler obeys the groups naming its product token (merged), else the
//!   `*` groups, else nothing is disallowed.
//! * The longest matching pattern wins; an exact tie goes to allow. `*`
//!   matches any run of characters, a trailing `$` anchors the end.
//!
//! ## Profiles
//!
//! [`Profile::GOOGLE`] (the default) accepts what Google accepts: misspelled
//! field names (`dissallow`), names matched by prefix (`Disallowed:`), lines
//! without a colon (`Disallow /x`), and treats `Allow: /dir/index.html` as
//! also allowing `/dir/`. [`Profile::RFC9309`] accepts only the RFC's grammar.
//! [`Profile::LEGACY`] reads the file as Python's `urllib.robotparser` does:
//! no wildcards, first matching group by substring, first matching rule.
//!
//! ## Input safety
//!
//! * [`RobotsTxt::parse`] never fails and never panics, whatever the bytes:
//!   what it cannot read becomes a [`Diagnostic`], and every valid line of a
//!   malformed file is still read.
//! * Parsing is one linear pass. Matching is linear in the length of the URL
//!   for every pattern: wildcards are matched segment by segment,
//!   leftmost-first, without backtracking.
//! * The model's heap is proportional to the input (see
//!   [`RobotsTxt::heap_size`]); the input itself is not kept.
//!
//! ## Crawler names
//!
//! The crawler's name is compared as given, case-insensitively, against the
//! product token of each user-agent line (its leading `[A-Za-z_-]` run). A
//! name that is not itself a product token (`Googlebot/2.1`) matches no
//! specific group: use [`product_token`] to get the token from a full
//! `User-Agent` header, and [`is_product_token`] to check one.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod agent;
mod choice;
mod cleaning;
mod code_table;
mod compiled;
mod decide;
mod diagnostic;
pub mod extension;
mod field;
mod for_crawler;
mod hex;
mod matcher;
mod model;
mod once;
mod parse;
mod pattern;
mod prefix_tree;
mod profile;
pub mod registry;
mod render;
mod robot_selection;
mod scan;
mod search_console;
mod token;
mod url_path;
mod urllib;
mod usage;
mod who;
mod word_table;
mod yandex;

pub use agent::{ChoiceKind, SelectionKind};
pub use choice::GroupChoice;
pub use cleaning::DroppedParams;
pub use compiled::CompiledRobotsTxt;
pub use decide::{AgentView, Reason, RuleMatch, Verdict};
pub use diagnostic::{code_number, Code, Diagnostic, DiagnosticCode, Fix, Severity, Span};
pub use extension::{
    ContentSignal, ContentUsage, CrawlDelay, ExtensionKind, License, Preference, RequestRate,
    TimeOfDay, UsageCategory, VisitTime,
};
pub use for_crawler::CrawlerRobotsTxt;
pub use model::{Extension, Group, InputStats, RobotsTxt, Rule, RuleKind, Sitemap, UserAgent};
pub use once::{decide_once, decide_once_with, OnceVerdict};
pub use pattern::Pattern;
pub use profile::{
    GroupSelection, Precedence, Profile, UnknownProfile, GOOGLE_MAX_LINE_BYTES, MAX_BYTES,
    READ_LIMIT, YANDEX_MAX_BYTES,
};
pub use search_console::{
    LineKind, ReportTag, ReportedLine, SearchConsoleCounts, SearchConsoleReport, UNUSED_KEYS,
};
pub use token::{is_product_token, product_token};
pub use url_path::path_of;
pub use usage::UsagePreferences;
pub use who::{Reading, Who};
pub use yandex::clean_param::{CleanParam, CleanParamError};
pub use yandex::store::MAX_STORED as YANDEX_MAX_STORED;

impl RobotsTxt {
    /// Parses robots.txt bytes with the default (google) profile. Never
    /// fails, never panics.
    pub fn parse(bytes: &[u8]) -> RobotsTxt {
        parse::parse(bytes, Profile::GOOGLE)
    }

    /// Parses robots.txt bytes under a given profile.
    ///
    /// ```
    /// use crawlgate::{Profile, RobotsTxt};
    /// let body = b"User-agent: *\nDisallow: /*.php$\n";
    /// let legacy = RobotsTxt::parse_with(body, Profile::LEGACY);
    /// assert!(legacy.is_allowed("bot", "/index.php")); // no wildcards in 1996
    /// assert!(!RobotsTxt::parse(body).is_allowed("bot", "/index.php"));
    /// ```
    pub fn parse_with(bytes: &[u8], profile: Profile) -> RobotsTxt {
        parse::parse(bytes, profile)
    }
}

/// The README's Rust examples, run as doctests so they stay true.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn shared_types_are_send_and_sync() {
        assert_send_sync::<crate::RobotsTxt>();
        assert_send_sync::<crate::AgentView<'static>>();
        assert_send_sync::<crate::Verdict<'static>>();
        assert_send_sync::<crate::CompiledRobotsTxt>();
        assert_send_sync::<crate::CrawlerRobotsTxt>();
    }
}
