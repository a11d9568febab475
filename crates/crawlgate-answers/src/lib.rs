//! # crawlgate-answers
//!
//! What every crawlgate front end (the command line, the HTTP service, the
//! Python package, surveys) answers with, apart from any I/O: this crate
//! reads no network, no file and no clock, and runs nothing asynchronous.
//! `crawlgate-fetch` does the fetching and hands its results here.
//!
//! ```
//! use std::time::SystemTime;
//! use crawlgate::RobotsTxt;
//! use crawlgate_answers::{Basis, FetchPolicy, FetchResult, HttpResponse, Robots};
//!
//! // A pasted file decides by its rules alone.
//! let pasted = Robots::local(RobotsTxt::parse(b"User-agent: *\nDisallow: /private\n"));
//! assert!(!pasted.decide("mybot", "https://example.com/private/x").allowed);
//!
//! // A fetch result, through the pure fetch policy: a 503 disallows everything.
//! let failed = FetchResult::Response(HttpResponse::new(503));
//! let (outcome, entry) = FetchPolicy::default().apply(&failed, None, SystemTime::UNIX_EPOCH);
//! let fetched = Robots::fetched(outcome);
//! let verdict = fetched.decide("mybot", "https://example.com/page");
//! assert_eq!((verdict.allowed, verdict.basis), (false, Basis::FullDisallow));
//! assert!(!entry.is_fresh(SystemTime::UNIX_EPOCH + crawlgate_answers::time::DAY));
//! ```
//!
//! ## The parts
//!
//! * [`Origin`] and [`robots_url_for`]: a URL's origin (scheme, lowercased
//!   punycode host, port with defaults folded) and its robots.txt; URLs
//!   without one are a [`ScopeError`].
//! * What one fetch gave, as data: [`FetchResult`] ([`HttpResponse`],
//!   [`RedirectStop`], [`NetworkFailure`]) and its [`Attempt`].
//! * [`FetchPolicy::apply`]: the pure policy, (fetch result, previous
//!   [`CacheEntry`], now) → ([`Outcome`], next entry), every access result
//!   of RFC 9309 §2.3.1 as Google applies it; [`CacheDirectives`] and
//!   [`parse_retry_after`], the headers it reads.
//! * [`Robots`]: a robots.txt as a crawler holds it (pasted, read from a
//!   file or fetched), keeping its bytes and re-read under any profile on
//!   demand; the one type every front end answers from.
//! * [`ExplainedVerdict`]: may this crawler fetch this URL, what decided
//!   ([`Basis`]: a rule, an empty rule, no matching rule, no group,
//!   `/robots.txt` itself, full allow, full disallow) and which line says
//!   so, serialisable.
//! * [`Preferences`], [`ReportCounts`] and [`ReportLine`]: the usage
//!   preferences for a URL and Search Console's report, serialised once for
//!   every front end (the `openapi` feature derives their OpenAPI schemas).
//! * [`time`]: the one RFC 3339 formatter.

#![deny(missing_docs)]

mod agent;
mod by_profile;
mod clean_params;
mod entry;
mod headers;
pub mod net;
mod outcome;
mod policy;
mod preferences;
mod reading;
mod result;
mod scope;
mod search_console;
mod source;
pub mod time;
mod verdict;

pub use agent::agent_warning;
pub use by_profile::ByProfile;
pub use clean_params::CleanParamsShown;
pub use entry::{CacheEntry, ErrorStreak, GoodCopy};
pub use headers::{parse_retry_after, CacheDirectives};
pub use outcome::{is_robots_txt, Outcome, OutcomeKind, OutcomeReason, RobotsCopy, Rules};
pub use policy::FetchPolicy;
pub use preferences::{Preferences, SignalShown, UsageShown};
pub use reading::{Robots, RobotsView};
pub use result::{
    Attempt, FetchResult, HttpResponse, NetworkErrorKind, NetworkFailure, RedirectStop,
};
pub use scope::{robots_url_for, Origin, Scheme, ScopeError};
pub use search_console::{ReportCounts, ReportLine};
pub use source::RobotsSource;
pub use verdict::{Basis, ChoiceRef, ExplainedVerdict, GroupLines, RuleRef, SourceRef, WithGroups};

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn shared_types_are_send_and_sync() {
        assert_send_sync::<crate::CacheEntry>();
        assert_send_sync::<crate::ExplainedVerdict>();
        assert_send_sync::<crate::Robots>();
        assert_send_sync::<crate::Outcome>();
    }
}

/// The README's example, run as a doctest so it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
