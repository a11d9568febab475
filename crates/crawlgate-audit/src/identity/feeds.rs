//! The IP-prefix feeds operators publish (`{"creationTime": …, "prefixes":
//! [{"ipv4Prefix": …} | {"ipv6Prefix": …}]}`): read from a local mirror
//! laid out as `DIR/<host>/<path>` of their addresses, from a mirror served
//! over HTTP in the same layout, or fetched from the operators and kept in
//! a cache with their date, fetched again once a day.
//!
//! A feed without `prefixes` is an error, never an empty list: Google's old
//! addresses answer 200 with such an object since they moved in 2026.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate_answers::FetchResult;
use crawlgate_fetch::{AddressPolicy, ClientConfig, RobotsClient, SystemResolver};
use serde_json::Value;

use crawlgate_answers::net::{Prefix, PrefixSet};

/// The largest feed read (16 MiB).
pub const MAX_FEED_BYTES: usize = 16 << 20;

/// How long a fetched feed is used before it is fetched again.
pub const REFRESH: Duration = Duration::from_secs(24 * 3600);

/// A feed, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feed {
    /// Its address.
    pub url: String,
    /// Its prefixes, for looking addresses up.
    pub prefixes: PrefixSet,
    /// Its prefixes as it lists them, in its order (what `crawlgate
    /// policy --ip-ranges` writes into server rules).
    pub listed: Vec<Prefix>,
    /// Its `creationTime`, as written.
    pub creation_time: Option<String>,
    /// Where it was read from (a file, a URL).
    pub read_from: String,
    /// When it was fetched (the cache file's time), when known.
    pub fetched_at: Option<SystemTime>,
}

/// Reads a feed's bytes.
///
/// ```
/// use crawlgate_audit::identity::feeds::parse_feed;
/// let feed = parse_feed("https://example.com/bot.json", br#"{"creationTime":"2026-11-27T00:00:00","prefixes":[{"ipv4Prefix":"66.249.64.0/19"},{"ipv6Prefix":"2001:4860:4801::/48"}]}"#).unwrap();
/// assert!(feed.prefixes.contains("66.249.66.1".parse().unwrap()));
/// // Google's old address answers 200 with no prefixes: an error.
/// let old = parse_feed("https://developers.google.com/static/search/apis/ipranges/googlebot.json", br#"{"creationTime":"2026-04-07T00:00:00"}"#);
/// assert!(old.unwrap_err().contains("moved to https://developers.google.com/static/crawling/ipranges/common-crawlers.json"));
/// ```
pub fn parse_feed(url: &str, bytes: &[u8]) -> Result<Feed, String> {
    let moved = || match crawlgate::registry::verification::moved(url) {
        Some(m) => format!(" (this feed moved to {} on {})", m.new, m.since),
        None => String::new(),
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| format!("is not JSON ({e})"))?;
    let Value::Object(object) = &value else {
        return Err("is not a JSON object".into());
    };
    let prefixes = match object.get("prefixes") {
        Some(Value::Array(list)) if !list.is_empty() => list,
        Some(Value::Array(_)) => return Err(format!("lists no prefixes{}", moved())),
        Some(_) => return Err("has `prefixes` that is not a list".into()),
        None => return Err(format!("has no `prefixes`{}", moved())),
    };
    let mut set = Vec::with_capacity(prefixes.len());
    for (i, entry) in prefixes.iter().enumerate() {
        let text = entry
            .get("ipv4Prefix")
            .or_else(|| entry.get("ipv6Prefix"))
            .and_then(Value::as_str)
            .ok_or_else(|| format!("prefix {} has neither `ipv4Prefix` nor `ipv6Prefix`", i + 1))?;
        let prefix: Prefix = text.parse().map_err(|e| format!("prefix {}: {e}", i + 1))?;
        set.push(prefix);
    }
    Ok(Feed {
        url: url.to_owned(),
        prefixes: set.iter().copied().collect(),
        listed: set,
        creation_time: object
            .get("creationTime")
            .and_then(Value::as_str)
            .map(str::to_owned),
        read_from: url.to_owned(),
        fetched_at: None,
    })
}

/// Where feeds are read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeedSource {
    /// A local mirror: `DIR/<host>/<path>` of each address.
    Mirror(PathBuf),
    /// A mirror served over HTTP in the same layout (`BASE/<host>/<path>`).
    MirrorUrl(String),
    /// The operators' addresses, with a cache folder (fetched again after
    /// [`REFRESH`]); no cache folder: fetched every run.
    Live {
        /// The cache folder.
        cache: Option<PathBuf>,
    },
}

impl FeedSource {
    /// `--ip-ranges`: an http(s) URL is a served mirror, anything else a
    /// folder.
    pub fn from_arg(arg: &str) -> FeedSource {
        if arg.starts_with("http://") || arg.starts_with("https://") {
            FeedSource::MirrorUrl(arg.trim_end_matches('/').to_owned())
        } else {
            FeedSource::Mirror(PathBuf::from(arg))
        }
    }

    /// The default cache folder: `$XDG_CACHE_HOME/crawlgate/ip-ranges`, or
    /// `~/.cache/crawlgate/ip-ranges`.
    pub fn default_cache() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(base.join("crawlgate").join("ip-ranges"))
    }
}

/// `host/path` of a feed's address: where a mirror keeps it.
///
/// ```
/// use crawlgate_audit::identity::feeds::mirror_path;
/// assert_eq!(mirror_path("https://openai.com/gptbot.json").unwrap(), "openai.com/gptbot.json");
/// ```
pub fn mirror_path(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let host = parsed.host_str()?;
    let path = parsed.path().trim_start_matches('/');
    if path.split('/').any(|seg| seg == ".." || seg == ".") {
        return None;
    }
    Some(format!("{host}/{path}"))
}

/// Fetches feeds over HTTP(S) through crawlgate's client (its address
/// policy checked on every hop, redirects followed, the body bounded).
#[derive(Clone, Debug)]
pub struct FeedFetcher {
    client: RobotsClient,
}

impl FeedFetcher {
    /// A fetcher; `allow_private` lets it reach loopback and private
    /// addresses (a mirror on this machine), never link-local ones.
    pub fn new(allow_private: bool, timeout: Duration) -> Result<FeedFetcher, String> {
        let mut config = ClientConfig::default();
        config.max_body_bytes = MAX_FEED_BYTES;
        config.timeout = timeout;
        config.connect_timeout = timeout.min(Duration::from_secs(10));
        config.address_policy = if allow_private {
            AddressPolicy::allow_private()
        } else {
            AddressPolicy::public_only()
        };
        let client =
            RobotsClient::new(config, Arc::new(SystemResolver)).map_err(|e| e.to_string())?;
        Ok(FeedFetcher { client })
    }

    /// The bytes at `url`, or why not.
    pub async fn get(&self, url: &str) -> Result<Vec<u8>, String> {
        let parsed = url::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
        let attempt = self
            .client
            .fetch(&parsed)
            .await
            .map_err(|e| e.to_string())?;
        if attempt.truncated {
            return Err(format!("is larger than {} MiB", MAX_FEED_BYTES >> 20));
        }
        match attempt.result {
            FetchResult::Response(response) if response.status == 200 => Ok(response.body),
            FetchResult::Response(response) => Err(format!("answered HTTP {}", response.status)),
            FetchResult::RedirectNotFollowed(stop) => Err(stop.to_string()),
            FetchResult::Network(failure) => Err(format!("{}: {}", failure.kind, failure.message)),
        }
    }
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let file =
        std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FEED_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if bytes.len() > MAX_FEED_BYTES {
        return Err(format!(
            "{} is larger than {} MiB",
            path.display(),
            MAX_FEED_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// Loads one feed from `source`. Errors name the feed and say why.
pub async fn load(
    source: &FeedSource,
    fetcher: Option<&FeedFetcher>,
    url: &str,
) -> Result<Feed, String> {
    let relative = mirror_path(url).ok_or_else(|| format!("{url}: not a feed address"))?;
    let describe = |from: &str, why: String| {
        if from == url {
            format!("the feed {url} {why}")
        } else {
            format!("the feed {url} ({from}) {why}")
        }
    };
    match source {
        FeedSource::Mirror(dir) => {
            let path = dir.join(&relative);
            let from = path.display().to_string();
            let bytes = read_bounded(&path).map_err(|e| format!("the feed {url}: {e}"))?;
            let mut feed = parse_feed(url, &bytes).map_err(|why| describe(&from, why))?;
            feed.read_from = from;
            feed.fetched_at = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            Ok(feed)
        }
        FeedSource::MirrorUrl(base) => {
            let at = format!("{base}/{relative}");
            let fetcher = fetcher.ok_or("no HTTP client for feeds")?;
            let bytes = fetcher.get(&at).await.map_err(|why| describe(&at, why))?;
            let mut feed = parse_feed(url, &bytes).map_err(|why| describe(&at, why))?;
            feed.read_from = at;
            feed.fetched_at = Some(SystemTime::now());
            Ok(feed)
        }
        FeedSource::Live { cache } => {
            let cached = cache.as_ref().map(|dir| dir.join(&relative));
            let age = cached
                .as_ref()
                .and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
                .map(|t| (t, SystemTime::now().duration_since(t).unwrap_or_default()));
            let from_cache = |path: &Path, when: SystemTime| -> Result<Feed, String> {
                let bytes = read_bounded(path)?;
                let mut feed = parse_feed(url, &bytes)
                    .map_err(|why| describe(&path.display().to_string(), why))?;
                feed.read_from = path.display().to_string();
                feed.fetched_at = Some(when);
                Ok(feed)
            };
            if let (Some(path), Some((when, age))) = (&cached, age)
                && age < REFRESH
                && let Ok(feed) = from_cache(path, when)
            {
                return Ok(feed);
            }
            let fetcher = fetcher.ok_or("no HTTP client for feeds")?;
            let fetched = fetcher
                .get(url)
                .await
                .and_then(|bytes| parse_feed(url, &bytes).map(|feed| (feed, bytes)));
            match fetched {
                Ok((mut feed, bytes)) => {
                    if let Some(path) = &cached {
                        // A cache that cannot be written only costs a fetch next time.
                        if let Some(parent) = path.parent() {
                            let _ = std::fs::create_dir_all(parent);
                        }
                        let temporary = path.with_extension("json.partial");
                        if std::fs::write(&temporary, &bytes).is_ok() {
                            let _ = std::fs::rename(&temporary, path);
                        }
                    }
                    feed.fetched_at = Some(SystemTime::now());
                    Ok(feed)
                }
                Err(why) => match (&cached, age) {
                    // A stale copy beats none; the warning says how old.
                    (Some(path), Some((when, _))) => {
                        from_cache(path, when).map_err(|_| describe(url, why.clone()))
                    }
                    _ => Err(describe(url, why)),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_feeds_say_why() {
        let url = "https://example.com/bot.json";
        for (bytes, why) in [
            (&b"<html>"[..], "is not JSON"),
            (b"[]", "not a JSON object"),
            (br#"{"creationTime":"x"}"#, "has no `prefixes`"),
            (br#"{"prefixes":[]}"#, "lists no prefixes"),
            (br#"{"prefixes":{}}"#, "not a list"),
            (
                br#"{"prefixes":[{"ipv4Prefix":"1.2.3.0/24"},{"ipv5Prefix":"x"}]}"#,
                "prefix 2 has neither",
            ),
            (
                br#"{"prefixes":[{"ipv4Prefix":"1.2.3.0/40"}]}"#,
                "prefix 1: `1.2.3.0/40` is not an IP prefix",
            ),
        ] {
            let error = parse_feed(url, bytes).unwrap_err();
            assert!(error.contains(why), "{error}");
        }
    }

    #[test]
    fn mirror_paths() {
        assert_eq!(
            mirror_path(
                "https://developers.google.com/static/crawling/ipranges/common-crawlers.json"
            )
            .unwrap(),
            "developers.google.com/static/crawling/ipranges/common-crawlers.json"
        );
        assert_eq!(mirror_path("not a url"), None);
        assert_eq!(
            FeedSource::from_arg("http://127.0.0.1:9/m/"),
            FeedSource::MirrorUrl("http://127.0.0.1:9/m".into())
        );
        assert_eq!(
            FeedSource::from_arg("feeds"),
            FeedSource::Mirror("feeds".into())
        );
    }
}
