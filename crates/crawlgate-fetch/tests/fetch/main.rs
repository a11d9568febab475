//! End-to-end tests of crawlgate-fetch against scripted HTTP servers on
//! 127.0.0.1. No test sends traffic anywhere but loopback.

mod architecture;
mod concurrency;
mod end_to_end;
mod ssrf;

use std::sync::Arc;
use std::time::Duration;

use crawlgate_fetch::{Clock, Fetcher, FetcherBuilder};

/// The User-Agent header the test fetchers send.
pub const USER_AGENT: &str = "crawlgate-test/1.0 (+https://example.com/bot)";

/// Loopback allowed, short timeouts.
pub fn builder() -> FetcherBuilder {
    Fetcher::builder()
        .allow_non_public_addresses()
        .user_agent(USER_AGENT)
        .connect_timeout(Duration::from_secs(1))
        .timeout(Duration::from_secs(1))
}

/// A fetcher with loopback allowed and short timeouts.
pub fn fetcher() -> Fetcher {
    builder().build().unwrap()
}

/// [`fetcher`] with a clock of the test's own.
pub fn clocked(clock: Arc<dyn Clock>) -> Fetcher {
    builder().clock(clock).build().unwrap()
}
