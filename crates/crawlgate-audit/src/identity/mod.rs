//! Whether a request came from the crawler its User-Agent names: one of
//! four states, each with the reason in words.
//!
//! * `verified`: the address is in a feed the operator publishes for that
//!   crawler, or its reverse DNS (any of its PTR names) is in the
//!   operator's domain and resolves back to it;
//! * `spoofed`: the operator documents a method and every method answered
//!   no (not in the feed; no PTR name, one outside the domain, or one that
//!   does not resolve back: a forged PTR);
//! * `unverifiable`: the operator documents no method;
//! * `unknown`: no method said yes and one could not answer (a DNS timeout
//!   or server failure, a feed that could not be read, DNS not asked).
//!   "No such name" is an answer, not a failure.
//!
//! The methods are the core registry's ([`crawlgate::registry::verification`]);
//! feeds come from [`feeds`], DNS from [`dns`]. [`Verifier`] keeps both,
//! and its answers, in caches: each feed read once, each address asked
//! once.

pub mod dns;
pub mod feeds;

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crawlgate::registry::verification::{self, Method};
use crawlgate::registry::Crawler;

use crate::identity::dns::{in_domain, Answer, Dns, DnsConfig, DnsFacts};
use crate::identity::feeds::{Feed, FeedFetcher, FeedSource};

crawlgate::word_table! {
    /// Whether a request came from the crawler it claims to be.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum IdentityState {
        /// Proved by the operator's method.
        Verified = "verified",
        /// Every method the operator documents answered no.
        Spoofed = "spoofed",
        /// The operator documents no method.
        Unverifiable = "unverifiable",
        /// No method said yes, and one could not answer.
        Unknown = "unknown",
    }
}

/// A state and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The state.
    pub state: IdentityState,
    /// Why, in a sentence.
    pub why: Arc<str>,
}

impl Identity {
    fn new(state: IdentityState, why: String) -> Identity {
        Identity {
            state,
            why: why.into(),
        }
    }
}

/// What is known of one feed.
pub type FeedState = Result<Arc<Feed>, String>;

/// Decides the identity of a request from `ip` claiming to be `crawler`,
/// from what the feeds and DNS said (`dns`: `None` when DNS was not asked,
/// with `no_dns_why` saying why). Pure: no lookup happens here.
///
/// ```
/// use std::collections::HashMap;
/// use std::sync::Arc;
/// use crawlgate::registry;
/// use crawlgate_audit::identity::{evaluate, IdentityState};
/// use crawlgate_audit::identity::feeds::parse_feed;
///
/// let url = "https://openai.com/gptbot.json";
/// let feed = parse_feed(url, br#"{"prefixes":[{"ipv4Prefix":"20.171.206.0/24"}]}"#).unwrap();
/// let feeds = HashMap::from([(url, Ok(Arc::new(feed)))]);
/// let gptbot = registry::find("GPTBot").unwrap();
/// let at = |ip: &str| evaluate(gptbot, ip.parse().unwrap(), &feeds, None, "not asked");
/// assert_eq!(at("20.171.206.7").state, IdentityState::Verified);
/// assert_eq!(at("203.0.113.9").state, IdentityState::Spoofed);
/// let ahrefs = registry::find("AhrefsBot").unwrap();
/// assert_eq!(evaluate(ahrefs, "1.2.3.4".parse().unwrap(), &feeds, None, "").state, IdentityState::Unverifiable);
/// ```
pub fn evaluate(
    crawler: &Crawler,
    ip: IpAddr,
    feeds: &HashMap<&'static str, FeedState>,
    dns: Option<&DnsFacts>,
    no_dns_why: &str,
) -> Identity {
    let ip = match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    };
    let methods: Vec<_> = verification::for_crawler(crawler).collect();
    if methods.is_empty() {
        return Identity::new(
            IdentityState::Unverifiable,
            format!(
                "{} publishes no way to verify {}",
                crawler.operator, crawler.name
            ),
        );
    }
    let mut no = Vec::new();
    let mut cannot = Vec::new();
    for method in methods {
        match method.method {
            Method::Feed { url } => match feeds.get(url) {
                Some(Ok(feed)) if feed.prefixes.contains(ip) => {
                    return Identity::new(IdentityState::Verified, format!("{ip} is in {url}"));
                }
                Some(Ok(_)) => no.push(format!("{ip} is not in {url}")),
                Some(Err(why)) => cannot.push(why.clone()),
                None => cannot.push(format!("the feed {url} was not read")),
            },
            Method::Dns {
                suffixes,
                forward_often_missing,
            } => {
                let domains = suffixes.join(", ");
                let Some(facts) = dns else {
                    cannot.push(format!("DNS was not asked ({no_dns_why})"));
                    continue;
                };
                match &facts.reverse {
                    Answer::Failed(why) => {
                        cannot.push(format!("the reverse DNS lookup of {ip} failed ({why})"))
                    }
                    Answer::NoRecord => no.push(format!("{ip} has no reverse DNS name")),
                    Answer::Found(names) => {
                        let ours: Vec<_> = names
                            .iter()
                            .filter(|n| suffixes.iter().any(|s| in_domain(&n.name, s)))
                            .collect();
                        if ours.is_empty() {
                            let all: Vec<&str> = names.iter().map(|n| n.name.as_str()).collect();
                            no.push(format!(
                                "the reverse DNS of {ip} ({}) is not in {domains}",
                                all.join(", ")
                            ));
                        }
                        for name in ours {
                            let name_text = &name.name;
                            match &name.forward {
                                Some(Answer::Found(true)) => {
                                    return Identity::new(
                                        IdentityState::Verified,
                                        format!("{ip} → {name_text} → {ip}"),
                                    );
                                }
                                Some(Answer::Found(false)) => no.push(format!(
                                    "{name_text} (the reverse DNS of {ip}) does not resolve back to it: a forged PTR record"
                                )),
                                Some(Answer::NoRecord) if forward_often_missing => cannot.push(format!(
                                    "{name_text} (the reverse DNS of {ip}) has no address record; {}'s are often missing, so this cannot tell",
                                    crawler.operator
                                )),
                                Some(Answer::NoRecord) => no.push(format!(
                                    "{name_text} (the reverse DNS of {ip}) has no address record: a forged PTR record"
                                )),
                                Some(Answer::Failed(why)) => {
                                    cannot.push(format!("the forward lookup of {name_text} failed ({why})"))
                                }
                                None => cannot.push(format!("{name_text} was not looked up")),
                            }
                        }
                    }
                }
            }
        }
    }
    if cannot.is_empty() {
        Identity::new(IdentityState::Spoofed, no.join("; "))
    } else {
        cannot.extend(no);
        Identity::new(IdentityState::Unknown, cannot.join("; "))
    }
}

/// How identities are verified.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Where feeds come from.
    pub feeds: FeedSource,
    /// Whether feeds may be fetched from loopback and private addresses.
    pub allow_private: bool,
    /// DNS settings; `None`: DNS is not asked (`--no-dns`).
    pub dns: Option<DnsConfig>,
    /// The time allowed to fetch one feed.
    pub feed_timeout: Duration,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            feeds: FeedSource::Live {
                cache: FeedSource::default_cache(),
            },
            allow_private: false,
            dns: Some(DnsConfig::default()),
            feed_timeout: Duration::from_secs(30),
        }
    }
}

/// The most addresses whose DNS answers are kept (then the cache starts
/// again: memory stays bounded in a long-running service).
const MAX_DNS_CACHE: usize = 1 << 20;

/// Verifies identities, keeping feeds, DNS answers and identities in
/// caches shared by every caller (the audit, the service).
pub struct Verifier {
    options: VerifyOptions,
    fetcher: Option<FeedFetcher>,
    dns: Option<Dns>,
    feeds: Mutex<HashMap<&'static str, (FeedState, Instant)>>,
    feed_lock: tokio::sync::Mutex<()>,
    dns_cache: Mutex<HashMap<IpAddr, Arc<DnsFacts>>>,
}

impl fmt::Debug for Verifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

fn normal(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

impl Verifier {
    /// A verifier (call inside a Tokio runtime: the DNS resolver starts
    /// there).
    pub fn new(options: VerifyOptions) -> Result<Verifier, String> {
        let fetcher = match options.feeds {
            FeedSource::Mirror(_) => None,
            _ => Some(FeedFetcher::new(
                options.allow_private,
                options.feed_timeout,
            )?),
        };
        let dns = options.dns.clone().map(Dns::new).transpose()?;
        Ok(Verifier {
            options,
            fetcher,
            dns,
            feeds: Mutex::new(HashMap::new()),
            feed_lock: tokio::sync::Mutex::new(()),
            dns_cache: Mutex::new(HashMap::new()),
        })
    }

    /// The settings.
    pub fn options(&self) -> &VerifyOptions {
        &self.options
    }

    fn feeds_needed(crawler: &Crawler) -> impl Iterator<Item = &'static str> + '_ {
        verification::for_crawler(crawler).filter_map(|v| match v.method {
            Method::Feed { url } => Some(url),
            Method::Dns { .. } => None,
        })
    }

    fn has_dns_method(crawler: &Crawler) -> bool {
        verification::for_crawler(crawler).any(|v| matches!(v.method, Method::Dns { .. }))
    }

    /// Reads the feeds `crawlers` need that are not read yet (or were read
    /// more than a day ago).
    pub async fn load_feeds<'c>(&self, crawlers: impl IntoIterator<Item = &'c Crawler>) {
        let mut wanted: Vec<&'static str> =
            crawlers.into_iter().flat_map(Self::feeds_needed).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let _one_at_a_time = self.feed_lock.lock().await;
        let stale = |url: &&'static str| {
            self.feeds
                .lock()
                .unwrap()
                .get(url)
                .is_none_or(|(_, at)| at.elapsed() >= crate::identity::feeds::REFRESH)
        };
        let missing: Vec<&'static str> = wanted.into_iter().filter(stale).collect();
        let loads = missing.iter().map(|url| async move {
            let loaded =
                crate::identity::feeds::load(&self.options.feeds, self.fetcher.as_ref(), url).await;
            (*url, loaded.map(Arc::new))
        });
        for (url, state) in futures_util::future::join_all(loads).await {
            self.feeds
                .lock()
                .unwrap()
                .insert(url, (state, Instant::now()));
        }
    }

    /// Every feed read so far, with what it gave.
    pub fn feeds(&self) -> HashMap<&'static str, FeedState> {
        self.feeds
            .lock()
            .unwrap()
            .iter()
            .map(|(url, (state, _))| (*url, state.clone()))
            .collect()
    }

    /// Asks DNS about the addresses of `claims` that no feed verifies and
    /// whose claimed crawler has a DNS method (each address once).
    pub async fn ask_dns(&self, claims: &[(IpAddr, &'static Crawler)]) {
        let Some(dns) = &self.dns else {
            return;
        };
        let feeds = self.feeds();
        let mut ips: Vec<IpAddr> = {
            let cache = self.dns_cache.lock().unwrap();
            claims
                .iter()
                .map(|(ip, c)| (normal(*ip), *c))
                .filter(|(ip, c)| Self::has_dns_method(c) && !cache.contains_key(ip))
                .filter(|(ip, c)| {
                    // A feed that verifies it spares the lookup.
                    !Self::feeds_needed(c).any(|url| {
                        matches!(feeds.get(url), Some(Ok(feed)) if feed.prefixes.contains(*ip))
                    })
                })
                .map(|(ip, _)| ip)
                .collect()
        };
        ips.sort_unstable();
        ips.dedup();
        if ips.is_empty() {
            return;
        }
        let answers = dns.facts_of_all(ips).await;
        let mut cache = self.dns_cache.lock().unwrap();
        if cache.len() + answers.len() > MAX_DNS_CACHE {
            cache.clear();
        }
        for (ip, facts) in answers {
            cache.insert(ip, Arc::new(facts));
        }
    }

    /// Gets ready to answer `claims`: reads the feeds they need, then asks
    /// DNS what the feeds did not settle.
    pub async fn prepare(&self, claims: &[(IpAddr, &'static Crawler)]) {
        self.load_feeds(claims.iter().map(|(_, c)| *c)).await;
        self.ask_dns(claims).await;
    }

    /// The identity of a request from `ip` claiming `crawler`, from what
    /// the caches hold ([`prepare`](Self::prepare) first).
    pub fn identity(
        &self,
        ip: IpAddr,
        crawler: &Crawler,
        feeds: &HashMap<&'static str, FeedState>,
    ) -> Identity {
        let ip = normal(ip);
        let facts = self.dns_cache.lock().unwrap().get(&ip).cloned();
        let why = if self.dns.is_none() {
            "--no-dns"
        } else {
            "no lookup was made"
        };
        evaluate(crawler, ip, feeds, facts.as_deref(), why)
    }

    /// Prepares and answers one claim.
    pub async fn verify(&self, ip: IpAddr, crawler: &'static Crawler) -> Identity {
        self.prepare(&[(ip, crawler)]).await;
        self.identity(ip, crawler, &self.feeds())
    }
}

#[cfg(test)]
mod tests {
    use super::dns::PtrName;
    use super::*;
    use crawlgate::registry::find;

    fn facts(names: &[(&str, Option<Answer<bool>>)]) -> DnsFacts {
        DnsFacts {
            reverse: Answer::Found(
                names
                    .iter()
                    .map(|(n, f)| PtrName {
                        name: (*n).into(),
                        forward: f.clone(),
                    })
                    .collect(),
            ),
        }
    }

    #[test]
    fn dns_states() {
        let feeds = HashMap::new();
        let ip: IpAddr = "66.249.66.1".parse().unwrap();
        let yandex = find("YandexBot").unwrap();
        let state = |f: &DnsFacts| evaluate(yandex, ip, &feeds, Some(f), "").state;
        let good = Some(Answer::Found(true));
        assert_eq!(
            state(&facts(&[("x.yandex.ru", good.clone())])),
            IdentityState::Verified
        );
        // Double PTR: any one may be it.
        assert_eq!(
            state(&facts(&[
                ("other.example", None),
                ("spider.yandex.com", good.clone())
            ])),
            IdentityState::Verified
        );
        // Forged: the name does not resolve back.
        assert_eq!(
            state(&facts(&[("fake.yandex.ru", Some(Answer::NoRecord))])),
            IdentityState::Spoofed
        );
        assert_eq!(
            state(&facts(&[("fake.yandex.ru", Some(Answer::Found(false)))])),
            IdentityState::Spoofed
        );
        assert_eq!(
            state(&facts(&[("yandex.ru.evil.example", None)])),
            IdentityState::Spoofed
        );
        assert_eq!(
            state(&DnsFacts {
                reverse: Answer::NoRecord
            }),
            IdentityState::Spoofed
        );
        // Silent: a timeout is unknown.
        assert_eq!(
            state(&DnsFacts {
                reverse: Answer::Failed("timed out".into())
            }),
            IdentityState::Unknown
        );
        assert_eq!(
            state(&facts(&[(
                "x.yandex.ru",
                Some(Answer::Failed("timed out".into()))
            )])),
            IdentityState::Unknown
        );
        assert_eq!(
            evaluate(yandex, ip, &feeds, None, "--no-dns").state,
            IdentityState::Unknown
        );
        // Baidu's forward records are often missing: cannot tell.
        let baidu = find("Baiduspider").unwrap();
        let missing = facts(&[("baiduspider-1.crawl.baidu.com", Some(Answer::NoRecord))]);
        let identity = evaluate(baidu, ip, &feeds, Some(&missing), "");
        assert_eq!(identity.state, IdentityState::Unknown);
        assert!(identity.why.contains("often missing"), "{}", identity.why);
    }

    #[test]
    fn feeds_and_dns_together() {
        let url = "https://developers.google.com/static/crawling/ipranges/common-crawlers.json";
        let feed =
            feeds::parse_feed(url, br#"{"prefixes":[{"ipv4Prefix":"66.249.64.0/27"}]}"#).unwrap();
        let mut feeds = HashMap::from([(url, Ok(Arc::new(feed)))]);
        let special =
            "https://developers.google.com/static/crawling/ipranges/special-crawlers.json";
        feeds.insert(special, Err("the feed … has no `prefixes`".into()));
        let googlebot = find("Googlebot").unwrap();
        let inside: IpAddr = "66.249.64.5".parse().unwrap();
        assert_eq!(
            evaluate(googlebot, inside, &feeds, None, "").state,
            IdentityState::Verified
        );
        let outside: IpAddr = "66.249.90.5".parse().unwrap();
        // Not in a feed, one feed unreadable, DNS says no: cannot tell.
        let no_ptr = DnsFacts {
            reverse: Answer::NoRecord,
        };
        assert_eq!(
            evaluate(googlebot, outside, &feeds, Some(&no_ptr), "").state,
            IdentityState::Unknown
        );
        feeds.insert(
            special,
            Ok(Arc::new(
                feeds::parse_feed(special, br#"{"prefixes":[{"ipv6Prefix":"2001:db8::/32"}]}"#)
                    .unwrap(),
            )),
        );
        let identity = evaluate(googlebot, outside, &feeds, Some(&no_ptr), "");
        assert_eq!(identity.state, IdentityState::Spoofed);
        assert!(
            identity.why.contains("is not in") && identity.why.contains("no reverse DNS"),
            "{}",
            identity.why
        );
        let good = facts(&[("crawl-66-249-90-5.googlebot.com", Some(Answer::Found(true)))]);
        let identity = evaluate(googlebot, outside, &feeds, Some(&good), "");
        assert_eq!(identity.state, IdentityState::Verified);
        assert_eq!(
            &*identity.why,
            "66.249.90.5 → crawl-66-249-90-5.googlebot.com → 66.249.90.5"
        );
        // IPv4-mapped IPv6 addresses are their IPv4 address.
        assert_eq!(
            evaluate(
                googlebot,
                "::ffff:66.249.64.5".parse().unwrap(),
                &feeds,
                None,
                ""
            )
            .state,
            IdentityState::Verified
        );
    }
}
