//! What an audit found: one [`Row`] per readable line, and the
//! [`Summary`] of them all (per crawler: requests, identities, violations
//! with their URLs and deciding lines, Crawl-delay breaches, spoofing
//! addresses; honeypot visitors; unreadable lines with their numbers).
//! Memory grows with distinct addresses and crawlers, not with the log.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::IpAddr;

use crawlgate::registry::Crawler;
use serde::Serialize;

use crate::identity::IdentityState;
use crate::robots::Judged;
use crate::time::{format_rfc3339, hour_of, Millis};

/// Everything the audit says about one request.
#[derive(Clone, Debug, PartialEq)]
pub struct Row<'a> {
    /// The log's index in the audit's inputs.
    pub file: usize,
    /// The line's number in its log (1-based).
    pub line: u64,
    /// When.
    pub time: Option<Millis>,
    /// The client: the address that connected, or, from a trusted proxy,
    /// the one `X-Forwarded-For` gives.
    pub ip: IpAddr,
    /// The `User-Agent` header.
    pub user_agent: &'a str,
    /// The crawler of the registry it names, if any.
    pub crawler: Option<&'static Crawler>,
    /// Whether it is that crawler (`None` when it names none).
    pub identity: Option<IdentityState>,
    /// Why.
    pub identity_why: Option<std::sync::Arc<str>>,
    /// The host, if logged.
    pub host: Option<&'a str>,
    /// The request target (path and query, or a URL).
    pub url: Option<&'a str>,
    /// The response status.
    pub status: Option<u16>,
    /// The verdict, `crawlgate check`'s for this agent and URL; `None`
    /// when no robots.txt was in force (an unknown host, a time before the
    /// first version) or the line has no URL.
    pub judged: Option<Judged>,
    /// Which version of the site's robots.txt judged it (its label).
    pub robots_version: Option<&'a str>,
    /// A crawler that obeys robots.txt fetched a URL the version in force
    /// disallowed (and it was not spoofed).
    pub violation: bool,
    /// Disallowed by a version that came into force less than 24 hours
    /// before, and allowed by the one before it: reported apart, not as a
    /// violation.
    pub recent_change: bool,
    /// The crawler came sooner after its previous request than the
    /// `Crawl-delay` asked.
    pub crawl_delay_breach: bool,
    /// The URL is under a honeypot path.
    pub honeypot: bool,
    /// The crawler fetches when a person asks (it does not obey robots.txt
    /// by design: never a violation).
    pub user_triggered: bool,
}

/// Counts of the most frequent keys, keeping at most a fixed number of
/// distinct keys (those seen after it is full go to `other`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TopCounter {
    counts: HashMap<String, u64>,
    /// What did not fit.
    pub other: u64,
}

/// Distinct keys a [`TopCounter`] keeps.
pub const TOP_KEYS: usize = 10_000;

impl TopCounter {
    /// Counts `key` once.
    pub fn add(&mut self, key: &str) {
        if let Some(n) = self.counts.get_mut(key) {
            *n += 1;
        } else if self.counts.len() < TOP_KEYS {
            self.counts.insert(key.to_owned(), 1);
        } else {
            self.other += 1;
        }
    }

    /// The `n` most frequent keys, most frequent first (ties by key).
    pub fn top(&self, n: usize) -> Vec<(&str, u64)> {
        let mut all: Vec<(&str, u64)> = self.counts.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty() && self.other == 0
    }
}

/// What one crawler did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CrawlerSummary {
    /// Its name in the registry.
    pub name: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What for.
    pub purpose: &'static str,
    /// `crawler`, `user` or `control`.
    pub kind: &'static str,
    /// Whether it obeys robots.txt (`yes`, `no`, `partial`, `unknown`).
    pub obeys: &'static str,
    /// Requests naming it.
    pub requests: u64,
    /// Of them, by identity.
    pub verified: u64,
    /// Spoofed.
    pub spoofed: u64,
    /// Unverifiable.
    pub unverifiable: u64,
    /// Unknown.
    pub unknown: u64,
    /// Fetches of `/robots.txt` (not spoofed).
    pub robots_txt_fetches: u64,
    /// Fetches the rules disallowed (spoofed ones left out).
    pub disallowed: u64,
    /// Violations.
    pub violations: u64,
    /// Disallowed fetches right after a change, reported apart.
    pub recent_change: u64,
    /// The URLs of its violations.
    pub violation_urls: TopCounter,
    /// The deciding lines of its violations (`robots.txt:12`).
    pub violation_rules: TopCounter,
    /// The largest `Crawl-delay` asked of it, when it reads one.
    pub crawl_delay: Option<f64>,
    /// Requests sooner than the Crawl-delay after the previous one.
    pub crawl_delay_breaches: u64,
    /// Honeypot fetches (spoofed ones included).
    pub honeypot_hits: u64,
    /// Addresses that claimed it and were spoofed.
    pub spoofing_ips: BTreeSet<IpAddr>,
    /// Requests per hour (its start, Unix milliseconds): verified,
    /// spoofed, the others.
    pub hourly: BTreeMap<Millis, [u64; 3]>,
    /// Whether it fetches when a person asks.
    pub user_triggered: bool,
}

impl CrawlerSummary {
    fn new(crawler: &'static Crawler) -> CrawlerSummary {
        CrawlerSummary {
            name: crawler.name,
            operator: crawler.operator,
            purpose: crawler.purpose.as_str(),
            kind: crawler.kind.as_str(),
            obeys: crawler.obeys.as_str(),
            requests: 0,
            verified: 0,
            spoofed: 0,
            unverifiable: 0,
            unknown: 0,
            robots_txt_fetches: 0,
            disallowed: 0,
            violations: 0,
            recent_change: 0,
            violation_urls: TopCounter::default(),
            violation_rules: TopCounter::default(),
            crawl_delay: None,
            crawl_delay_breaches: 0,
            honeypot_hits: 0,
            spoofing_ips: BTreeSet::new(),
            hourly: BTreeMap::new(),
            user_triggered: crawler.kind == crawlgate::registry::CrawlerKind::UserTriggered,
        }
    }

    /// The share of its requests that were verified (0 to 1).
    pub fn verified_share(&self) -> f64 {
        if self.requests == 0 {
            0.0
        } else {
            self.verified as f64 / self.requests as f64
        }
    }
}

/// A log as the audit read it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileSummary {
    /// Its name.
    pub name: String,
    /// The format it was read as.
    pub format: String,
    /// Lines read.
    pub lines: u64,
    /// Requests read.
    pub requests: u64,
    /// Directive lines (W3C `#Fields:` …).
    pub directives: u64,
    /// Lines that could not be read.
    pub unreadable: u64,
    /// The first of them: number and why.
    pub first_unreadable: Vec<(u64, String)>,
}

/// How many unreadable lines are kept per file, with their numbers.
pub const UNREADABLE_SAMPLES: usize = 20;

impl FileSummary {
    /// Counts an unreadable line.
    pub fn unreadable(&mut self, line: u64, why: &str) {
        self.unreadable += 1;
        if self.first_unreadable.len() < UNREADABLE_SAMPLES {
            self.first_unreadable.push((line, why.to_owned()));
        }
    }
}

/// What a feed gave, for the summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FeedSummary {
    /// Its address.
    pub url: String,
    /// `null` when read, else why not.
    pub error: Option<String>,
    /// How many prefixes.
    pub prefixes: usize,
    /// Its `creationTime`.
    pub creation_time: Option<String>,
    /// Where it was read from.
    pub read_from: Option<String>,
}

/// Everything an audit found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// The logs.
    pub files: Vec<FileSummary>,
    /// Requests read.
    pub requests: u64,
    /// Requests naming a crawler of the registry.
    pub crawler_requests: u64,
    /// Per crawler, by name.
    pub crawlers: BTreeMap<&'static str, CrawlerSummary>,
    /// Requests naming no crawler of the registry.
    pub unidentified_requests: u64,
    /// Addresses of honeypot visitors that named no crawler.
    pub unidentified_honeypot_ips: BTreeSet<IpAddr>,
    /// Honeypot fetches in all.
    pub honeypot_hits: u64,
    /// Addresses that claimed a crawler and were spoofed, with the crawlers
    /// claimed.
    pub spoofing_ips: BTreeMap<IpAddr, BTreeSet<&'static str>>,
    /// Addresses verified as some crawler (never on a deny list).
    pub verified_ips: BTreeSet<IpAddr>,
    /// Requests no robots.txt judged (an unknown host, a time before the
    /// first version, no URL).
    pub not_judged: u64,
    /// Requests whose time is earlier than the one before them.
    pub out_of_order: u64,
    /// The first and last time seen.
    pub first_time: Option<Millis>,
    /// The last.
    pub last_time: Option<Millis>,
    /// The feeds read.
    pub feeds: Vec<FeedSummary>,
    /// Warnings (feeds that could not be read, …).
    pub warnings: Vec<String>,
}

impl Summary {
    /// Unreadable lines in all logs.
    pub fn unreadable(&self) -> u64 {
        self.files.iter().map(|f| f.unreadable).sum()
    }

    /// Violations in all.
    pub fn violations(&self) -> u64 {
        self.crawlers.values().map(|c| c.violations).sum()
    }

    /// The addresses a deny list holds: every spoofing address and every
    /// honeypot visitor that named no crawler, never one verified as a
    /// crawler (a verified crawler's violations are reported, not
    /// blocked), in order.
    pub fn deny_list(&self) -> Vec<(IpAddr, String)> {
        let mut out: BTreeMap<IpAddr, String> = BTreeMap::new();
        for (ip, crawlers) in &self.spoofing_ips {
            let names: Vec<&str> = crawlers.iter().copied().collect();
            out.insert(*ip, format!("claimed {} and was not", names.join(", ")));
        }
        for ip in &self.unidentified_honeypot_ips {
            out.entry(*ip)
                .or_insert_with(|| "fetched the honeypot".into());
        }
        out.into_iter()
            .filter(|(ip, _)| !self.verified_ips.contains(ip))
            .collect()
    }

    /// Counts one row.
    pub fn add(&mut self, row: &Row<'_>) {
        self.requests += 1;
        if let Some(t) = row.time {
            if self.last_time.is_some_and(|last| t < last) {
                self.out_of_order += 1;
            }
            self.first_time = Some(self.first_time.map_or(t, |f| f.min(t)));
            self.last_time = Some(self.last_time.map_or(t, |l| l.max(t)));
        }
        if row.judged.is_none() {
            self.not_judged += 1;
        }
        if row.honeypot {
            self.honeypot_hits += 1;
        }
        let Some(crawler) = row.crawler else {
            self.unidentified_requests += 1;
            if row.honeypot {
                self.unidentified_honeypot_ips.insert(row.ip);
            }
            return;
        };
        self.crawler_requests += 1;
        let summary = self
            .crawlers
            .entry(crawler.name)
            .or_insert_with(|| CrawlerSummary::new(crawler));
        summary.requests += 1;
        let identity = row.identity.unwrap_or(IdentityState::Unknown);
        match identity {
            IdentityState::Verified => {
                summary.verified += 1;
                self.verified_ips.insert(row.ip);
            }
            IdentityState::Spoofed => {
                summary.spoofed += 1;
                summary.spoofing_ips.insert(row.ip);
                self.spoofing_ips
                    .entry(row.ip)
                    .or_default()
                    .insert(crawler.name);
            }
            IdentityState::Unverifiable => summary.unverifiable += 1,
            IdentityState::Unknown => summary.unknown += 1,
        }
        if let Some(t) = row.time {
            let slot = match identity {
                IdentityState::Verified => 0,
                IdentityState::Spoofed => 1,
                _ => 2,
            };
            summary.hourly.entry(hour_of(t)).or_default()[slot] += 1;
        }
        if row.honeypot {
            summary.honeypot_hits += 1;
        }
        if identity == IdentityState::Spoofed {
            return;
        }
        if row
            .url
            .is_some_and(|u| crawlgate::path_of(u) == "/robots.txt")
        {
            summary.robots_txt_fetches += 1;
        }
        if row.judged.is_some_and(|j| !j.allowed) {
            summary.disallowed += 1;
        }
        if row.violation {
            summary.violations += 1;
            summary.violation_urls.add(row.url.unwrap_or(""));
            if let Some(line) = row.judged.and_then(|j| j.rule_line) {
                let version = row.robots_version.unwrap_or("robots.txt");
                summary.violation_rules.add(&format!("{version}:{line}"));
            }
        }
        if row.recent_change {
            summary.recent_change += 1;
        }
        if row.crawl_delay_breach {
            summary.crawl_delay_breaches += 1;
        }
    }

    /// Notes the Crawl-delay asked of a crawler.
    pub fn note_crawl_delay(&mut self, crawler: &'static Crawler, seconds: f64) {
        let summary = self
            .crawlers
            .entry(crawler.name)
            .or_insert_with(|| CrawlerSummary::new(crawler));
        summary.crawl_delay = Some(summary.crawl_delay.map_or(seconds, |d| d.max(seconds)));
    }
}

/// The first and last times, as RFC 3339.
pub fn time_range(summary: &Summary) -> Option<(String, String)> {
    Some((
        format_rfc3339(summary.first_time?),
        format_rfc3339(summary.last_time?),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_counter_keeps_a_bounded_number_of_keys() {
        let mut counter = TopCounter::default();
        for i in 0..(TOP_KEYS + 5) {
            counter.add(&format!("/u{i}"));
        }
        counter.add("/u0");
        assert_eq!(counter.other, 5);
        assert_eq!(counter.top(1), [("/u0", 2)]);
    }
}
