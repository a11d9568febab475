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
//! Everything here does I/O or keeps state between fetches; what a fetch
//! gives and means (the origin of a URL, the fetch result, the pure
//! [`FetchPolicy`](crawlgate_answers::FetchPolicy), the outcome, the cache
//! entry, the explained verdict, the [`Robots`](crawlgate_answers::Robots)
//! every front end answers from) is plain data in `crawlgate-answers`.
//!
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
//! * [`Clock`]: the time the fetcher reads, injected ([`SystemClock`],
//!   [`ManualClock`] for tests).
//! * [`Fetcher`]: all of it behind `check`, `fetch`, `lookup` and `reserve`;
//!   [`Decision`] and [`FetchReport`] serialize to JSON.
//!
//! HTTP results are outcomes, not errors: [`FetchError`] is only for what
//! stops a robots.txt from being consulted at all (no robots.txt for the
//! URL, a refused address, ftp).

#![deny(missing_docs)]

mod address;
mod cache;
mod client;
mod clock;
mod error;
mod fetcher;
mod flight;
mod politeness;
mod report;

pub use address::{
    classify, AddressClass, AddressPolicy, CheckedResolver, RefusedAddress, ResolveError, Resolver,
    StaticResolver, SystemResolver,
};
pub use cache::{CacheStore, MemoryCache};
pub use client::{ClientConfig, FetchAttempt, Hop, RobotsClient, DEFAULT_USER_AGENT};
pub use clock::{Clock, ManualClock, SystemClock};
pub use error::FetchError;
pub use fetcher::{Decision, Fetcher, FetcherBuilder, RobotsLookup};
pub use flight::SingleFlight;
pub use politeness::{Pacing, PolitenessConfig, Schedule};
pub use report::{FetchReport, Warning, WarningCode};

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
        assert_send_sync::<crate::FetchError>();
        assert_send_sync::<crate::Decision>();
    }
}
