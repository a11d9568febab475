//! The operators' published IP ranges, for `crawlgate policy --ip-ranges`
//! / `--fetch-ip-ranges`: every feed the registry names, read with the
//! audit's feed reader (a mirror folder, a mirror URL, or the operators'
//! addresses with a day's cache), handed to the policy as data.

use std::time::Duration;

use anyhow::{bail, Context as _};
use crawlgate_audit::identity::feeds::{load, FeedFetcher, FeedSource};
use crawlgate_policy::CrawlerRanges;

/// How long one feed may take to fetch.
const FEED_TIMEOUT: Duration = Duration::from_secs(30);

/// Reads every feed of the registry from `source`; any feed that cannot be
/// read is an error naming it (without a let-in crawler's ranges, a denied
/// range could be one of its).
pub fn load_ranges(source: &FeedSource) -> anyhow::Result<Vec<CrawlerRanges>> {
    let fetcher = match source {
        FeedSource::Mirror(_) => None,
        // The operators' feeds and a served mirror: public addresses only.
        _ => Some(FeedFetcher::new(false, FEED_TIMEOUT).map_err(anyhow::Error::msg)?),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the network runtime")?;
    let urls: Vec<&'static str> = crawlgate::registry::verification::feeds().collect();
    let mut ranges = Vec::new();
    for url in urls {
        let feed = runtime
            .block_on(load(source, fetcher.as_ref(), url))
            .map_err(anyhow::Error::msg)?;
        ranges.extend(CrawlerRanges::of_feed(url, feed.listed));
    }
    if ranges.is_empty() {
        bail!("the registry names no IP-range feed");
    }
    Ok(ranges)
}
