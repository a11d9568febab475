//! The address ranges operators publish for their crawlers, taken as
//! data (the CLI reads the feeds with the audit's reader), and which of
//! them the server rules deny: a range is denied only when every crawler
//! whose feed lists it (or a range overlapping it) is denied, so a
//! crawler the policy lets in is never shut out by address.

use crawlgate::registry::verification::{self, Method};
use crawlgate::registry::{Crawler, CrawlerKind};
use crawlgate_answers::net::{Prefix, PrefixSet};

use crate::error::PolicyError;
use crate::intent::Intent;

/// The ranges one operator's feed lists for one crawler of the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlerRanges {
    /// The crawler.
    pub crawler: &'static Crawler,
    /// The feed's address, as the registry writes it.
    pub feed: String,
    /// The prefixes it lists.
    pub prefixes: Vec<Prefix>,
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
    pub fn of_feed(feed: &str, prefixes: Vec<Prefix>) -> Vec<CrawlerRanges> {
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

/// What the server rules deny by address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct AddressDenial {
    pub(crate) prefixes: Vec<Prefix>,
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
    let let_in: Vec<(&CrawlerRanges, PrefixSet)> = ranges
        .iter()
        .filter(|r| fetches(r.crawler) && !denied(r.crawler))
        .map(|r| (r, r.prefixes.iter().copied().collect()))
        .collect();
    let any_let_in: PrefixSet = let_in
        .iter()
        .flat_map(|(r, _)| r.prefixes.iter().copied())
        .collect();
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

    fn p(text: &str) -> Prefix {
        text.parse().unwrap()
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
            let prefixes: Vec<Prefix> = match url {
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
        let gptbot: Vec<&Prefix> = denial
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
