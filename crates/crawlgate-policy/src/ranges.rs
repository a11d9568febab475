//! The address ranges operators publish for their crawlers, taken as
//! data (the CLI reads the feeds with the audit's reader), and which of
//! them the server rules deny: a range is denied only when every crawler
//! whose feed lists it (or a range overlapping it) is denied, so a
//! crawler the policy lets in is never shut out by address.

use std::fmt;
// `core::net`: the address types alone, without sockets (the crate does no I/O).
use core::net::IpAddr;
use std::str::FromStr;

use crawlgate::registry::verification::{self, Method};
use crawlgate::registry::{Crawler, CrawlerKind};

use crate::error::PolicyError;
use crate::intent::Intent;

/// An IP prefix (`66.249.64.0/19`, `2001:4860:4801::/48`); a bare address
/// is one address (`/32`, `/128`). The address is kept masked.
///
/// ```
/// use crawlgate_policy::IpPrefix;
/// let p: IpPrefix = "66.249.66.1/19".parse().unwrap();
/// assert_eq!(p.to_string(), "66.249.64.0/19");
/// assert!(p.overlaps(&"66.249.70.0/24".parse().unwrap()));
/// assert!(!p.overlaps(&"66.249.96.0/24".parse().unwrap()));
/// assert!("66.249.64.0/33".parse::<IpPrefix>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IpPrefix {
    address: IpAddr,
    length: u8,
}

fn bits(address: IpAddr) -> (u128, u8) {
    match address {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => (u128::from(v6), 128),
    }
}

fn masked(value: u128, width: u8, length: u8) -> u128 {
    if length == 0 {
        0
    } else {
        value >> (width - length) << (width - length)
    }
}

impl IpPrefix {
    /// The prefix's first address.
    pub fn address(&self) -> IpAddr {
        self.address
    }

    /// Its length in bits.
    pub fn length(&self) -> u8 {
        self.length
    }

    /// Its first and last address, IPv4 as IPv4-mapped IPv6, so that all
    /// prefixes sort in one space.
    fn span(&self) -> (u128, u128) {
        let (value, width) = bits(self.address);
        let start = match self.address {
            IpAddr::V4(v4) => u128::from(v4.to_ipv6_mapped()),
            IpAddr::V6(_) => value,
        };
        let host = u32::from(width - self.length);
        let size = if host == 128 {
            u128::MAX
        } else {
            (1u128 << host) - 1
        };
        (start, start + size)
    }

    /// Whether the two share an address (one contains the other); an
    /// IPv4 prefix is also the IPv4-mapped IPv6 addresses it stands for.
    pub fn overlaps(&self, other: &IpPrefix) -> bool {
        let ((a, b), (c, d)) = (self.span(), other.span());
        a <= d && c <= b
    }
}

impl FromStr for IpPrefix {
    type Err = String;

    fn from_str(text: &str) -> Result<IpPrefix, String> {
        let shown: String = text.chars().take(60).collect();
        let bad = || format!("`{shown}` is not an IP prefix");
        let (address, length) = match text.split_once('/') {
            Some((address, length)) => (address, Some(length)),
            None => (text, None),
        };
        let address: IpAddr = address.parse().map_err(|_| bad())?;
        let (value, width) = bits(address);
        let length = match length {
            Some(l) => l
                .parse::<u8>()
                .ok()
                .filter(|&l| l <= width)
                .ok_or_else(bad)?,
            None => width,
        };
        let value = masked(value, width, length);
        let address = if width == 32 {
            IpAddr::from(u32::try_from(value).map_err(|_| bad())?.to_be_bytes())
        } else {
            IpAddr::from(value.to_be_bytes())
        };
        Ok(IpPrefix { address, length })
    }
}

impl fmt::Display for IpPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.address, self.length)
    }
}

/// The ranges one operator's feed lists for one crawler of the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlerRanges {
    /// The crawler.
    pub crawler: &'static Crawler,
    /// The feed's address, as the registry writes it.
    pub feed: String,
    /// The prefixes it lists.
    pub prefixes: Vec<IpPrefix>,
}

impl CrawlerRanges {
    /// One entry per crawler of the registry that `feed` proves (its
    /// `@verify` lines): what a reader of the feed hands the policy.
    ///
    /// ```
    /// use crawlgate_policy::CrawlerRanges;
    /// let ranges = CrawlerRanges::of_feed("https://openai.com/gptbot.json", vec!["20.171.206.0/24".parse().unwrap()]);
    /// assert_eq!(ranges.len(), 1);
    /// assert_eq!(ranges[0].crawler.name, "GPTBot");
    /// ```
    pub fn of_feed(feed: &str, prefixes: Vec<IpPrefix>) -> Vec<CrawlerRanges> {
        crawlgate::registry::crawlers()
            .iter()
            .filter(|c| feeds_of(c).any(|url| url == feed))
            .map(|crawler| CrawlerRanges {
                crawler,
                feed: feed.to_owned(),
                prefixes: prefixes.clone(),
            })
            .collect()
    }
}

/// The feeds the registry says prove `crawler`.
///
/// ```
/// use crawlgate::registry;
/// use crawlgate_policy::feeds_of;
/// let gptbot = registry::find("GPTBot").unwrap();
/// assert_eq!(feeds_of(gptbot).collect::<Vec<_>>(), ["https://openai.com/gptbot.json"]);
/// assert_eq!(feeds_of(registry::find("AhrefsBot").unwrap()).count(), 0);
/// ```
pub fn feeds_of(crawler: &Crawler) -> impl Iterator<Item = &'static str> + '_ {
    verification::for_crawler(crawler).filter_map(|v| match v.method {
        Method::Feed { url } => Some(url),
        Method::Dns { .. } => None,
    })
}

/// Whether a crawler fetches pages (not a control token, not retired).
fn fetches(crawler: &Crawler) -> bool {
    crawler.kind != CrawlerKind::ControlToken && crawler.runs()
}

/// Prefixes as disjoint sorted intervals: whether a prefix overlaps any
/// in `O(log n)`, so a feed of many prefixes costs no square.
struct Intervals(Vec<(u128, u128)>);

impl Intervals {
    fn of<'p>(prefixes: impl IntoIterator<Item = &'p IpPrefix>) -> Intervals {
        let mut spans: Vec<(u128, u128)> = prefixes.into_iter().map(IpPrefix::span).collect();
        spans.sort_unstable();
        let mut merged: Vec<(u128, u128)> = Vec::with_capacity(spans.len());
        for (start, end) in spans {
            match merged.last_mut() {
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        Intervals(merged)
    }

    fn overlaps(&self, prefix: &IpPrefix) -> bool {
        let (start, end) = prefix.span();
        let i = self.0.partition_point(|&(_, e)| e < start);
        self.0.get(i).is_some_and(|&(s, _)| s <= end)
    }
}

/// What the server rules deny by address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AddressDenial {
    pub(crate) prefixes: Vec<IpPrefix>,
    pub(crate) crawlers: Vec<&'static Crawler>,
    pub(crate) shared: Vec<String>,
}

/// The prefixes of the denied crawlers that no crawler let in shares.
/// Every feed of a crawler that fetches must be among `ranges`: without
/// a let-in crawler's ranges, a denied range could be one of its.
pub(crate) fn deny_by_address(
    intents: &[Intent],
    ranges: &[CrawlerRanges],
) -> Result<AddressDenial, PolicyError> {
    for intent in intents.iter().filter(|i| fetches(i.crawler)) {
        for feed in feeds_of(intent.crawler) {
            let given = ranges
                .iter()
                .any(|r| r.feed == feed && r.crawler.name == intent.crawler.name);
            if !given {
                return Err(PolicyError::Ranges(format!(
                    "the ranges of {} (its feed {feed}) are missing: without them, a range \
                     denied to another crawler could be one of its",
                    intent.crawler.name
                )));
            }
        }
    }
    let denied = |crawler: &Crawler| {
        intents
            .iter()
            .any(|i| i.crawler.name == crawler.name && i.denied())
    };
    let let_in: Vec<(&CrawlerRanges, Intervals)> = ranges
        .iter()
        .filter(|r| fetches(r.crawler) && !denied(r.crawler))
        .map(|r| (r, Intervals::of(&r.prefixes)))
        .collect();
    let any_let_in = Intervals::of(let_in.iter().flat_map(|(r, _)| &r.prefixes));
    let mut out = AddressDenial::default();
    for entry in ranges
        .iter()
        .filter(|r| fetches(r.crawler) && denied(r.crawler))
    {
        let mut sharing: Vec<&str> = Vec::new();
        let mut kept = 0usize;
        for prefix in &entry.prefixes {
            let shared_with: Vec<&str> = if any_let_in.overlaps(prefix) {
                let_in
                    .iter()
                    .filter(|(_, spans)| spans.overlaps(prefix))
                    .map(|(r, _)| r.crawler.name)
                    .collect()
            } else {
                Vec::new()
            };
            if shared_with.is_empty() {
                out.prefixes.push(*prefix);
                if !out.crawlers.iter().any(|c| c.name == entry.crawler.name) {
                    out.crawlers.push(entry.crawler);
                }
            } else {
                kept += 1;
                for name in shared_with {
                    if !sharing.contains(&name) {
                        sharing.push(name);
                    }
                }
            }
        }
        if kept > 0 {
            out.shared.push(format!(
                "{} of the {} ranges of {} ({}) are not denied by address: crawlers the \
                 policy lets in ({}) share them",
                kept,
                entry.prefixes.len(),
                entry.crawler.name,
                entry.feed,
                sharing.join(", ")
            ));
        }
    }
    out.prefixes.sort();
    out.prefixes.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> IpPrefix {
        text.parse().unwrap()
    }

    #[test]
    fn intervals_answer_as_pairwise_overlap_does() {
        let set: Vec<IpPrefix> = [
            "10.0.0.0/8",
            "192.0.2.0/25",
            "192.0.2.128/25",
            "2001:db8::/32",
            "::/0",
        ]
        .into_iter()
        .map(p)
        .collect();
        let v4_only = &set[..3];
        let intervals = Intervals::of(v4_only);
        for probe in [
            "10.1.0.0/16",
            "11.0.0.0/8",
            "0.0.0.0/0",
            "192.0.2.0/24",
            "192.0.3.0/24",
            "2001:db8::1",
            "192.0.2.200",
            "::ffff:10.0.0.1",
        ] {
            let probe = p(probe);
            let pairwise = v4_only.iter().any(|q| q.overlaps(&probe));
            assert_eq!(intervals.overlaps(&probe), pairwise, "{probe}");
        }
        // `::/0` holds the IPv4-mapped addresses.
        assert!(p("::/0").overlaps(&p("10.0.0.0/8")));
        assert!(!p("2001:db8::/32").overlaps(&p("10.0.0.0/8")));
        assert!(Intervals::of(&set[3..]).overlaps(&p("2001:db8:1::/48")));
        assert!(!Intervals::of(&set[3..4]).overlaps(&p("2001:db9::/32")));
    }

    #[test]
    fn a_hundred_thousand_prefixes_are_sorted_out_exactly() {
        use crate::access::Access;
        use crate::policy::Policy;
        use crate::purpose::Purpose;
        let policy = Policy::new()
            .with(Purpose::Search, Access::Allow)
            .with(Purpose::AiTrain, Access::Deny);
        let intents = crate::intent::intents(&policy).unwrap();
        let net = |i: u32| {
            p(&format!(
                "{}.{}.{}.0/24",
                10 + i / 65_536,
                (i / 256) % 256,
                i % 256
            ))
        };
        let mut ranges = Vec::new();
        for url in verification::feeds() {
            let prefixes: Vec<IpPrefix> = match url {
                // GPTBot (denied): 100,000 networks.
                "https://openai.com/gptbot.json" => (0..100_000).map(net).collect(),
                // ChatGPT-User (let in): every other one of them, as /25s.
                "https://openai.com/chatgpt-user.json" => (0..100_000)
                    .step_by(2)
                    .map(|i| p(&format!("{}/25", net(i).address())))
                    .collect(),
                _ => vec![p("192.0.2.0/24")],
            };
            ranges.extend(CrawlerRanges::of_feed(url, prefixes));
        }
        let denial = deny_by_address(&intents, &ranges).unwrap();
        let gptbot: Vec<&IpPrefix> = denial
            .prefixes
            .iter()
            .filter(|q| !q.overlaps(&p("192.0.2.0/24")))
            .collect();
        assert_eq!(gptbot.len(), 50_000);
        assert!(gptbot.iter().all(|q| u32::from(
            q.address()
                .to_string()
                .split('.')
                .nth(2)
                .unwrap()
                .parse::<u8>()
                .unwrap()
        ) % 2
            == 1));
        assert!(denial
            .shared
            .iter()
            .any(|s| s.starts_with("50000 of the 100000 ranges of GPTBot")));
    }
}
