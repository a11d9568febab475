//! How a crawler's identity is proved: the methods its operator publishes
//! (IP-prefix feeds, reverse-DNS suffixes) and the feeds that moved.
//! (Whether a crawler waits the `Crawl-delay` a file asks for is its own
//! line's flag: [`Crawler::reads_crawl_delay`].)
//!
//! Data, like the crawler lines: the `@verify` and `@moved` lines of
//! `registry.txt`, each with its source and the date it was read. No I/O
//! here: `crawlgate-audit` fetches the feeds and asks DNS.
//!
//! ```
//! use crawlgate::registry::{self, verification::{self, Method}};
//!
//! let googlebot = registry::find("Googlebot").unwrap();
//! let methods: Vec<_> = verification::for_crawler(googlebot).map(|v| &v.method).collect();
//! assert!(methods.contains(&&Method::Feed {
//!     url: "https://developers.google.com/static/crawling/ipranges/common-crawlers.json"
//! }));
//! assert!(methods.iter().any(|m| matches!(m, Method::Dns { suffixes, .. } if suffixes.contains(&"googlebot.com"))));
//!
//! // The old address answers without prefixes: it is never a feed.
//! let moved = verification::moved("https://developers.google.com/static/search/apis/ipranges/googlebot.json").unwrap();
//! assert!(moved.new.ends_with("/crawling/ipranges/common-crawlers.json"));
//!
//! // GPTBot publishes a feed and no DNS method; a crawler with no method is
//! // unverifiable.
//! assert_eq!(verification::for_crawler(registry::find("GPTBot").unwrap()).count(), 1);
//! assert_eq!(verification::for_crawler(registry::find("AhrefsBot").unwrap()).count(), 0);
//! ```

use std::sync::OnceLock;

use super::{crawlers, is_date, sources, Crawler, CrawlerKind, Source, TABLE};

/// A way to prove a request came from an operator's crawler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The address is in a JSON list of IP prefixes the operator publishes
    /// at `url` (`{"prefixes": [{"ipv4Prefix": …} | {"ipv6Prefix": …}]}`).
    Feed {
        /// The feed's address.
        url: &'static str,
    },
    /// The address's reverse DNS (any one of its PTR records) ends in one
    /// of `suffixes` and that name resolves back to the address.
    Dns {
        /// The operator's domains (`googlebot.com`), without a leading dot.
        suffixes: &'static [&'static str],
        /// Whether the operator's forward records are often missing, so
        /// that a name in the suffix without one cannot tell (Baidu), rather
        /// than prove a forgery.
        forward_often_missing: bool,
    },
}

/// Which of an operator's crawlers a method proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Covers {
    /// Every crawler of the operator that fetches (not control tokens).
    All,
    /// Those of one kind.
    Kind(CrawlerKind),
    /// These, by their names in the registry.
    Names(&'static [&'static str]),
}

/// One `@verify` line: a method, the crawlers it proves, and who says so.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Verification {
    /// The operator, as the crawler lines write it (`Google`).
    pub operator: &'static str,
    /// Which of its crawlers.
    pub covers: Covers,
    /// The method.
    pub method: Method,
    /// The document that describes it.
    pub source: &'static Source,
    /// When that document was read (`2026-11-27`).
    pub checked: &'static str,
}

impl Verification {
    /// Whether this method proves `crawler`.
    pub fn covers(&self, crawler: &Crawler) -> bool {
        if crawler.operator != self.operator || crawler.kind == CrawlerKind::ControlToken {
            return false;
        }
        match self.covers {
            Covers::All => true,
            Covers::Kind(kind) => crawler.kind == kind,
            Covers::Names(names) => names.iter().any(|n| n.eq_ignore_ascii_case(crawler.name)),
        }
    }
}

/// A feed that moved (`@moved`): its old address still answers, without
/// prefixes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MovedFeed {
    /// The old address.
    pub old: &'static str,
    /// Where the feed is now.
    pub new: &'static str,
    /// Since when (`2026-03-31`).
    pub since: &'static str,
    /// The document that says so.
    pub source: &'static Source,
    /// When it was read.
    pub checked: &'static str,
}

struct Section {
    verifications: Vec<Verification>,
    moved: Vec<MovedFeed>,
}

/// A line of the section that cannot be read, and why.
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))]
struct BadLine {
    line: usize,
    why: String,
}

fn leak(items: Vec<&'static str>) -> &'static [&'static str] {
    Box::leak(items.into_boxed_slice())
}

fn list(text: &'static str) -> Vec<&'static str> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

fn source_and_date(
    text: &'static str,
    sources: &'static [Source],
) -> Result<(&'static Source, &'static str), String> {
    let (key, date) = text
        .split_once(' ')
        .ok_or_else(|| format!("source `{text}` is not `KEY DATE`"))?;
    let source = sources
        .iter()
        .find(|s| s.key == key)
        .ok_or_else(|| format!("no @source `{key}`"))?;
    let date = date.trim();
    if !is_date(date) {
        return Err(format!("`{date}` is not a date (YYYY-MM-DD)"));
    }
    Ok((source, date))
}

fn is_https(url: &str) -> bool {
    url.strip_prefix("https://")
        .is_some_and(|rest| rest.contains('/') && !rest.contains(char::is_whitespace))
}

/// A DNS name of letters, digits, `-` and `.`, with at least one dot.
fn is_domain(name: &str) -> bool {
    name.contains('.')
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

fn parse_verify(
    line: &'static str,
    sources: &'static [Source],
    crawlers: &[Crawler],
) -> Result<Verification, String> {
    let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
    let [operator, covers, method, source] = fields[..] else {
        return Err(format!("{} fields, not 4", fields.len()));
    };
    if !crawlers.iter().any(|c| c.operator == operator) {
        return Err(format!("no crawler's operator is `{operator}`"));
    }
    let covers = match covers {
        "*" => Covers::All,
        "kind:crawler" => Covers::Kind(CrawlerKind::Crawler),
        "kind:user" => Covers::Kind(CrawlerKind::UserTriggered),
        names => {
            let names = list(names);
            if names.is_empty() {
                return Err("no crawler named".into());
            }
            for name in &names {
                match crawlers.iter().find(|c| c.name.eq_ignore_ascii_case(name)) {
                    Some(c) if c.operator == operator => {}
                    Some(c) => {
                        return Err(format!("`{name}` is run by {}, not {operator}", c.operator))
                    }
                    None => return Err(format!("no crawler named `{name}`")),
                }
            }
            Covers::Names(leak(names))
        }
    };
    let (word, value) = method.split_once(' ').unwrap_or((method, ""));
    let method = match word {
        "feed" if is_https(value) => Method::Feed { url: value },
        "feed" => return Err(format!("feed `{value}` is not an https address")),
        "dns" | "dns-forward-often-missing" => {
            let suffixes = list(value);
            if suffixes.is_empty() {
                return Err("a dns method names its suffixes".into());
            }
            if let Some(bad) = suffixes
                .iter()
                .find(|s| !is_domain(s) || s.to_ascii_lowercase() != **s)
            {
                return Err(format!("`{bad}` is not a lowercase domain"));
            }
            Method::Dns {
                suffixes: leak(suffixes),
                forward_often_missing: word == "dns-forward-often-missing",
            }
        }
        other => return Err(format!("unknown method `{other}`")),
    };
    let (source, checked) = source_and_date(source, sources)?;
    Ok(Verification {
        operator,
        covers,
        method,
        source,
        checked,
    })
}

fn parse_moved(line: &'static str, sources: &'static [Source]) -> Result<MovedFeed, String> {
    let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
    let [old, new, since, source] = fields[..] else {
        return Err(format!("{} fields, not 4", fields.len()));
    };
    if !is_https(old) || !is_https(new) {
        return Err("a move is from one https address to another".into());
    }
    if !is_date(since) {
        return Err(format!("`{since}` is not a date (YYYY-MM-DD)"));
    }
    let (source, checked) = source_and_date(source, sources)?;
    Ok(MovedFeed {
        old,
        new,
        since,
        source,
        checked,
    })
}

fn parse(
    text: &'static str,
    sources: &'static [Source],
    crawlers: &[Crawler],
) -> (Section, Vec<BadLine>) {
    let mut section = Section {
        verifications: Vec::new(),
        moved: Vec::new(),
    };
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let result = if let Some(rest) = line.strip_prefix("@verify ") {
            parse_verify(rest, sources, crawlers).map(|v| section.verifications.push(v))
        } else if let Some(rest) = line.strip_prefix("@moved ") {
            parse_moved(rest, sources).map(|m| section.moved.push(m))
        } else if line.starts_with("@crawl-delay ") {
            // The table once said this in a section of its own, beside the
            // crawler lines' flag; one place says it now.
            Err("who reads Crawl-delay is the crawler line's `crawl-delay@SOURCE` flag, not an @crawl-delay line".into())
        } else {
            Ok(())
        };
        if let Err(why) = result {
            bad.push(BadLine { line: i + 1, why });
        }
    }
    (section, bad)
}

fn section() -> &'static Section {
    static SECTION: OnceLock<Section> = OnceLock::new();
    SECTION.get_or_init(|| parse(TABLE, sources(), crawlers()).0)
}

/// Every method of the registry, in its order.
pub fn all() -> &'static [Verification] {
    &section().verifications
}

/// The methods that prove `crawler`, in the registry's order; none for a
/// crawler whose operator documents no method (it is unverifiable).
pub fn for_crawler(crawler: &Crawler) -> impl Iterator<Item = &'static Verification> + '_ {
    all().iter().filter(move |v| v.covers(crawler))
}

/// Every feed address, each once, in the registry's order.
///
/// ```
/// let feeds: Vec<_> = crawlgate::registry::verification::feeds().collect();
/// assert!(feeds.contains(&"https://www.bing.com/toolbox/bingbot.json"));
/// ```
pub fn feeds() -> impl Iterator<Item = &'static str> {
    let mut seen = Vec::new();
    all().iter().filter_map(move |v| match v.method {
        Method::Feed { url } if !seen.contains(&url) => {
            seen.push(url);
            Some(url)
        }
        _ => None,
    })
}

/// The move of the feed that was at `old`, if it moved.
pub fn moved(old: &str) -> Option<&'static MovedFeed> {
    section().moved.iter().find(|m| m.old == old)
}

/// Every feed that moved.
pub fn moves() -> &'static [MovedFeed] {
    &section().moved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::find;

    #[test]
    fn every_line_reads() {
        let (section, bad) = parse(TABLE, sources(), crawlers());
        assert!(bad.is_empty(), "unreadable verification lines: {bad:?}");
        assert!(section.verifications.len() >= 20);
        assert!(!section.moved.is_empty());
    }

    #[test]
    fn a_bad_line_says_why() {
        let text = "\
@verify Google | kind:crawler | feed https://example.com/a.json | google-verify 2026-01-01
@verify Nobody | * | dns example.com | google-verify 2026-01-01
@verify Google | GPTBot | dns example.com | google-verify 2026-01-01
@verify Google | * | feed http://example.com/a.json | google-verify 2026-01-01
@verify Google | * | dns Example.COM | google-verify 2026-01-01
@verify Google | * | whois example.com | google-verify 2026-01-01
@verify Google | * | dns example.com | nokey 2026-01-01
@moved https://a.example/x | https://b.example/y | 2026-13 | google-verify 2026-01-01
@crawl-delay Nosuchbot | google-verify 2026-01-01
@verify Google | * | dns example.com
";
        let (section, bad) = parse(text, sources(), crawlers());
        assert_eq!(section.verifications.len(), 1);
        let lines: Vec<usize> = bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8, 9, 10], "{bad:?}");
        let why: Vec<&str> = bad.iter().map(|b| b.why.as_str()).collect();
        assert!(
            why[0].contains("no crawler's operator is `Nobody`"),
            "{why:?}"
        );
        assert!(why[1].contains("run by OpenAI"), "{why:?}");
        assert!(why[2].contains("not an https address"), "{why:?}");
        assert!(why[3].contains("not a lowercase domain"), "{why:?}");
        assert!(why[4].contains("unknown method `whois`"), "{why:?}");
        assert!(why[5].contains("no @source `nokey`"), "{why:?}");
        assert!(why[6].contains("not a date"), "{why:?}");
        assert!(
            why[7].contains("the crawler line's `crawl-delay@SOURCE` flag"),
            "{why:?}"
        );
        assert!(why[8].contains("3 fields, not 4"), "{why:?}");
    }

    /// The feeds and suffixes operators documented as of 2026-11 (the
    /// project's behaviour contract, §10), each in the registry.
    #[test]
    fn the_documented_methods_are_there() {
        let feeds: Vec<&str> = feeds().collect();
        for url in [
            "https://developers.google.com/static/crawling/ipranges/common-crawlers.json",
            "https://developers.google.com/static/crawling/ipranges/special-crawlers.json",
            "https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json",
            "https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json",
            "https://www.bing.com/toolbox/bingbot.json",
            "https://openai.com/gptbot.json",
            "https://openai.com/searchbot.json",
            "https://openai.com/chatgpt-user.json",
            "https://claude.com/crawling/bots.json",
            "https://search.developer.apple.com/applebot.json",
            "https://index.commoncrawl.org/ccbot.json",
        ] {
            assert!(feeds.contains(&url), "{url}");
        }
        // No feed is an address that moved away.
        for m in moves() {
            assert!(!feeds.contains(&m.old), "{}", m.old);
            assert!(feeds.contains(&m.new), "{}", m.new);
        }
        let suffixes = |name: &str| -> Vec<&'static str> {
            for_crawler(find(name).unwrap())
                .filter_map(|v| match v.method {
                    Method::Dns { suffixes, .. } => Some(suffixes),
                    Method::Feed { .. } => None,
                })
                .flatten()
                .copied()
                .collect()
        };
        assert_eq!(suffixes("Googlebot"), ["googlebot.com", "google.com"]);
        assert_eq!(suffixes("AdsBot-Google"), ["googlebot.com", "google.com"]);
        // googleusercontent.com proves only a user-triggered fetcher.
        assert_eq!(
            suffixes("FeedFetcher-Google"),
            ["google.com", "googleusercontent.com"]
        );
        assert_eq!(suffixes("Bingbot"), ["search.msn.com"]);
        assert_eq!(suffixes("Applebot"), ["applebot.apple.com"]);
        assert_eq!(suffixes("CCBot"), ["crawl.commoncrawl.org"]);
        assert_eq!(suffixes("Amazonbot"), ["crawl.amazonbot.amazon"]);
        assert_eq!(
            suffixes("YandexBot"),
            ["yandex.ru", "yandex.net", "yandex.com"]
        );
        assert_eq!(
            suffixes("Baiduspider"),
            ["crawl.baidu.com", "crawl.baidu.jp"]
        );
        assert!(suffixes("GPTBot").is_empty());
        let baidu = for_crawler(find("Baiduspider").unwrap()).next().unwrap();
        assert!(matches!(
            baidu.method,
            Method::Dns {
                forward_often_missing: true,
                ..
            }
        ));
        // A Google crawler is not proved by the user-triggered feeds, nor a
        // user-triggered fetcher by Googlebot's.
        let feed_of = |name: &str| -> Vec<&'static str> {
            for_crawler(find(name).unwrap())
                .filter_map(|v| match v.method {
                    Method::Feed { url } => Some(url),
                    Method::Dns { .. } => None,
                })
                .collect()
        };
        assert!(feed_of("Googlebot")
            .iter()
            .all(|u| !u.contains("user-triggered")));
        assert!(feed_of("FeedFetcher-Google")
            .iter()
            .all(|u| u.contains("user-triggered")));
        assert_eq!(
            feed_of("OAI-SearchBot"),
            ["https://openai.com/searchbot.json"]
        );
        // Control tokens fetch nothing: no method proves them.
        assert_eq!(for_crawler(find("Google-Extended").unwrap()).count(), 0);
    }

    #[test]
    fn the_old_google_feed_moved() {
        let old = moved("https://developers.google.com/static/search/apis/ipranges/googlebot.json")
            .unwrap();
        assert_eq!(old.since, "2026-03-31");
        assert_eq!(
            old.new,
            "https://developers.google.com/static/crawling/ipranges/common-crawlers.json"
        );
    }
}
