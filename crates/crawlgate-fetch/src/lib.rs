//! # crawlgate-fetch
//!
//! Turns "may I fetch this URL?" into the right robots.txt fetched, cached
//! and obeyed, as RFC 9309 (§2.3 access, §2.4 caching) and Google's "How
//! Google interprets the robots.txt specification" describe it.
//!
//! ```no_run
//! use crawlgate_fetch::Fetcher;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), crawlgate_fetch::FetchError> {
//! let fetcher = Fetcher::builder().user_agent("mybot/1.0 (+https://example.com/bot)").build()?;
//! let decision = fetcher.check("https://example.com/private/page", "mybot").await?;
//! println!("{decision}"); // "disallowed by line 2 (Disallow: /private)"
//! let report = fetcher.fetch("https://example.com/").await?;
//! println!("{}", report.status.unwrap_or_default());
//! # Ok(()) }
//! ```
//!
//! ## The parts
//!
//! * [`scope`](Origin): a URL's [`Origin`] (scheme, lowercased punycode
//!   host, port with defaults folded) and [`robots_url_for`]; URLs without a
//!   robots.txt are a [`ScopeError`].
//! * [`FetchPolicy::apply`]: the pure policy, (fetch result, previous
//!   [`CacheEntry`], now) → ([`Outcome`], next entry). Every access result
//!   of RFC 9309 §2.3.1, as Google applies it: 2xx
//!   parsed; redirects past 5 hops or looping as 404; 4xx except 429 full
//!   allow; 429/5xx/network failures full disallow with backoff and
//!   `Retry-After`, or the stale copy; the 30-day switch; 24 h TTL with
//!   `Cache-Control` honoured.
//! * [`RobotsClient`]: reqwest with rustls, unconditional GET, redirects
//!   followed by hand, connect and total timeouts, gzip/deflate/br, the body
//!   read up to 500 KiB.
//! * [`AddressPolicy`] and [`CheckedResolver`]: no loopback, private,
//!   link-local or unspecified address unless explicitly allowed, checked on
//!   the resolved addresses of every hop.
//! * [`MemoryCache`] behind the [`CacheStore`] trait; [`SingleFlight`] so
//!   concurrent checks of one origin share one fetch.
//! * [`Pacing`] and [`Schedule`]: crawl-delay, request-rate and visit-time
//!   as a per-origin next-permitted-request time.
//! * [`ExplainedVerdict`]: may this crawler fetch this URL, what decided
//!   (a rule, an empty rule, no matching rule, no group, `/robots.txt`
//!   itself, full allow, full disallow) and which line says so; from a
//!   parsed file or from an [`Outcome`].
//! * [`Robots`]: a robots.txt read locally or fetched, the one type the
//!   command line, the service and Python answer from.
//! * [`Preferences`], [`ReportCounts`] and [`ReportLine`]: the usage
//!   preferences for a URL and Search Console's report, serialised once
//!   for every front end (JSON of the command line and the service, and
//!   Python's dictionaries).
//! * [`Fetcher`]: all of it behind `check`, `fetch`, `lookup` and `reserve`;
//!   [`Decision`] and [`FetchReport`] serialize to JSON.
//!
//! HTTP results are outcomes, not errors: [`FetchError`] is only for what
//! stops a robots.txt from being consulted at all (no robots.txt for the
//! URL, a refused address, ftp).

#![deny(missing_docs)]

mod address;
mod cache;
mod clean_params;
mod client;
mod clock;
mod entry;
mod error;
mod fetcher;
mod flight;
mod headers;
mod outcome;
mod policy;
mod politeness;
mod preferences;
mod reading;
mod report;
mod result;
mod scope;
mod search_console;
mod verdict;

pub use address::{
    classify, AddressClass, AddressPolicy, CheckedResolver, RefusedAddress, ResolveError, Resolver,
    StaticResolver, SystemResolver,
};
pub use cache::{CacheStore, MemoryCache};
pub use clean_params::CleanParamsShown;
pub use client::{ClientConfig, FetchAttempt, Hop, RobotsClient, DEFAULT_USER_AGENT};
pub use clock::{Clock, ManualClock, SystemClock};
pub use entry::{CacheEntry, ErrorStreak, GoodCopy};
pub use error::FetchError;
pub use fetcher::{Decision, Fetcher, FetcherBuilder, RobotsLookup};
pub use flight::SingleFlight;
pub use headers::{parse_retry_after, CacheDirectives};
pub use outcome::{Outcome, OutcomeKind, OutcomeReason, RobotsCopy, Rules};
pub use policy::FetchPolicy;
pub use politeness::{Pacing, PolitenessConfig, Schedule};
pub use preferences::{Preferences, SignalShown, UsageShown};
pub use reading::Robots;
pub use report::{format_time, FetchReport, Warning, WarningCode};
pub use result::{
    Attempt, FetchResult, HttpResponse, NetworkErrorKind, NetworkFailure, RedirectStop,
};
pub use scope::{robots_url_for, Origin, Scheme, ScopeError};
pub use search_console::{ReportCounts, ReportLine};
pub use verdict::{Basis, ChoiceRef, ExplainedVerdict, GroupLines, RuleRef, SourceRef};

/// The Rust examples of the README files (this crate's, the workspace's, the
/// core crate's and the command's) and of the library guide, compiled and run as doctests: each is a
/// whole program a user can paste.
#[cfg(doctest)]
mod readme_examples {
    #[doc = include_str!("../README.md")]
    struct Fetch;
    #[doc = include_str!("../../../README.md")]
    struct Workspace;
    #[doc = include_str!("../../crawlgate/README.md")]
    struct Core;
    #[doc = include_str!("../../crawlgate-cli/README.md")]
    struct Cli;
    #[doc = include_str!("../../../docs/library.md")]
    struct LibraryGuide;
}

#[cfg(test)]
mod send_sync {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn shared_types_are_send_and_sync() {
        assert_send_sync::<crate::Fetcher>();
        assert_send_sync::<crate::CacheEntry>();
        assert_send_sync::<crate::FetchError>();
        assert_send_sync::<crate::Decision>();
        assert_send_sync::<crate::ExplainedVerdict>();
    }
}
