//! The high-level API: "may this crawler fetch this URL?" answered from the
//! right robots.txt, fetched once, cached, and obeyed.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate::{Profile, Reason, RuleKind};
use serde::Serialize;

use crate::address::{AddressPolicy, Resolver, SystemResolver};
use crate::cache::{CacheStore, MemoryCache};
use crate::client::{ClientConfig, RobotsClient};
use crate::clock::{Clock, SystemClock};
use crate::error::FetchError;
use crate::flight::SingleFlight;
use crate::policy::{CacheEntry, FetchPolicy, OutcomeKind, OutcomeReason, Rules};
use crate::politeness::{Pacing, PolitenessConfig, Schedule};
use crate::report::{serialize_opt_time, FetchReport};
use crate::scope::{parse_absolute, Origin};

/// What decided a [`Decision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Basis {
    /// The URL is `/robots.txt` itself, always allowed (RFC 9309).
    RobotsTxtItself,
    /// The robots.txt outcome is full allow (4xx, unreachable for 30 days …).
    FullAllow,
    /// The robots.txt outcome is full disallow (server error).
    FullDisallow,
    /// A rule matched and decided.
    Rule,
    /// The best match was an empty rule (`Disallow:`), which allows.
    EmptyRule,
    /// The crawler's groups have no rule matching the URL.
    NoMatchingRule,
    /// No group names the crawler and there is no `*` group.
    NoGroup,
}

/// The rule that decided.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecidingRule {
    /// 1-based line number in the robots.txt.
    pub line: u32,
    /// `allow` or `disallow`.
    pub kind: &'static str,
    /// The path pattern as written.
    pub value: String,
    /// The line as it reads (`Disallow: /private`).
    pub text: String,
    /// Matched through Google's `index.html` alias.
    pub via_index_alias: bool,
}

/// The answer to "may `agent` fetch `url`?".
#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// The URL asked about.
    pub url: String,
    /// The crawler's product token.
    pub agent: String,
    /// The answer.
    pub allowed: bool,
    /// What decided it.
    pub basis: Basis,
    /// The deciding line, when the rules decided.
    pub rule: Option<DecidingRule>,
    /// The URL's origin.
    pub origin: Origin,
    /// The robots.txt consulted.
    pub robots_url: String,
    /// Full allow, full disallow or conditional (none for `/robots.txt`).
    pub outcome: Option<OutcomeKind>,
    /// Why the robots.txt outcome is what it is.
    pub reason: Option<OutcomeReason>,
    /// Whether the answer came from the cache without a fetch.
    pub from_cache: bool,
    /// When the robots.txt in use was last fetched (RFC 3339).
    #[serde(serialize_with = "serialize_opt_time")]
    pub fetched_at: Option<SystemTime>,
    /// When it will be fetched again (RFC 3339).
    #[serde(serialize_with = "serialize_opt_time")]
    pub expires_at: Option<SystemTime>,
}

impl fmt::Display for Decision {
    /// `allowed by line 3 (Allow: /p)`, `disallowed: full disallow (…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.allowed {
            "allowed"
        } else {
            "disallowed"
        })?;
        match (&self.rule, self.basis, self.reason) {
            (Some(rule), _, _) => write!(f, " by line {} ({})", rule.line, rule.text),
            (None, Basis::RobotsTxtItself, _) => f.write_str(": /robots.txt is always allowed"),
            (None, Basis::NoMatchingRule, _) => f.write_str(": no rule matches"),
            (None, Basis::NoGroup, _) => f.write_str(": no group for this crawler"),
            (None, _, Some(reason)) => write!(f, ": {reason}"),
            (None, _, None) => Ok(()),
        }
    }
}

/// The robots.txt answer held for an origin.
#[derive(Clone, Debug)]
pub struct RobotsLookup {
    /// The origin.
    pub origin: Origin,
    /// Its cache entry.
    pub entry: CacheEntry,
    /// Whether it came from the cache without a fetch.
    pub from_cache: bool,
}

impl RobotsLookup {
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.entry.outcome.rules
    }

    /// The pace `agent` should keep on this origin.
    pub fn pacing(&self, agent: &str, config: &PolitenessConfig) -> Pacing {
        match self.rules().robots() {
            Some(robots) => Pacing::from_view(&robots.for_agent(agent), config),
            None => Pacing::unrestricted(config),
        }
    }
}

/// Fetches, caches and obeys robots.txt files.
///
/// * [`check`](Fetcher::check): may this crawler fetch this URL? Fetches the
///   right robots.txt when the cache has no fresh answer; concurrent checks
///   on one origin share one fetch.
/// * [`fetch`](Fetcher::fetch): fetch an origin's robots.txt now and report
///   everything about it.
/// * [`reserve`](Fetcher::reserve): the next permitted request time on an
///   origin, from crawl-delay, request-rate and visit-time.
///
/// ```no_run
/// use crawlgate_fetch::Fetcher;
/// # async fn demo() -> Result<(), crawlgate_fetch::FetchError> {
/// let fetcher = Fetcher::new()?;
/// let decision = fetcher.check("https://example.com/private/page", "mybot").await?;
/// if decision.allowed {
///     let at = fetcher.reserve("https://example.com/private/page", "mybot").await?;
///     // … wait until `at`, then fetch the page.
/// # let _ = at;
/// }
/// println!("{decision}");
/// # Ok(()) }
/// ```
pub struct Fetcher {
    client: RobotsClient,
    policy: FetchPolicy,
    cache: Arc<dyn CacheStore>,
    flights: SingleFlight<Origin, Result<(CacheEntry, bool), FetchError>>,
    clock: Arc<dyn Clock>,
    politeness: PolitenessConfig,
    schedule: Schedule,
}

impl fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetcher")
            .field("client", &self.client.config())
            .field("policy", &self.policy)
            .field("cache_entries", &self.cache.len())
            .field("politeness", &self.politeness)
            .finish_non_exhaustive()
    }
}

impl Fetcher {
    /// A fetcher with every default: public addresses only, the system
    /// resolver and clock, an in-memory cache, SPEC §2 policy.
    pub fn new() -> Result<Fetcher, FetchError> {
        Fetcher::builder().build()
    }

    /// A builder to change the defaults.
    pub fn builder() -> FetcherBuilder {
        FetcherBuilder::default()
    }

    /// The cache.
    pub fn cache(&self) -> &dyn CacheStore {
        &*self.cache
    }

    /// The policy.
    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// May `agent` (a product token) fetch `url`? Consults the cached
    /// robots.txt of the URL's origin, fetching it first if there is no
    /// fresh answer.
    ///
    /// Errors only when no robots.txt can be consulted: the URL has none
    /// (relative, `mailto:` …), its address is refused by the address
    /// policy, or its scheme (ftp) is not supported. HTTP errors and network
    /// failures are answers (SPEC §2). Errors are not cached: a check that
    /// was refused is refused again, by a new attempt, next time.
    pub async fn check(&self, url: &str, agent: &str) -> Result<Decision, FetchError> {
        let origin = Origin::from_parsed(&parse_absolute(url)?)?;
        let robots_url = origin.robots_url().to_string();
        if crawlgate::path_of(url) == "/robots.txt" {
            return Ok(Decision {
                url: url.to_owned(),
                agent: agent.to_owned(),
                allowed: true,
                basis: Basis::RobotsTxtItself,
                rule: None,
                origin,
                robots_url,
                outcome: None,
                reason: None,
                from_cache: true,
                fetched_at: None,
                expires_at: None,
            });
        }
        let lookup = self.lookup_origin(origin).await?;
        let entry = &lookup.entry;
        let (allowed, basis, rule) = match &entry.outcome.rules {
            Rules::FullAllow => (true, Basis::FullAllow, None),
            Rules::FullDisallow => (false, Basis::FullDisallow, None),
            Rules::Conditional(copy) => {
                let verdict = copy.robots().decide(agent, url);
                let basis = match verdict.reason() {
                    Reason::Rule => Basis::Rule,
                    Reason::EmptyRule => Basis::EmptyRule,
                    Reason::NoGroup => Basis::NoGroup,
                    Reason::RobotsTxt => Basis::RobotsTxtItself,
                    Reason::NoMatchingRule => Basis::NoMatchingRule,
                };
                let rule = verdict.rule().map(|r| DecidingRule {
                    line: r.line(),
                    kind: match r.kind() {
                        RuleKind::Allow => "allow",
                        RuleKind::Disallow => "disallow",
                    },
                    value: r.value().to_owned(),
                    text: r.to_string(),
                    via_index_alias: verdict.via_index_alias(),
                });
                (verdict.is_allowed(), basis, rule)
            }
        };
        Ok(Decision {
            url: url.to_owned(),
            agent: agent.to_owned(),
            allowed,
            basis,
            rule,
            origin: lookup.origin,
            robots_url,
            outcome: Some(entry.outcome.kind()),
            reason: Some(entry.outcome.reason),
            from_cache: lookup.from_cache,
            fetched_at: Some(entry.fetched_at),
            expires_at: Some(entry.expires_at),
        })
    }

    /// The robots.txt answer for `url`'s origin: the cached one when fresh,
    /// else fetched (one fetch shared by concurrent callers).
    pub async fn lookup(&self, url: &str) -> Result<RobotsLookup, FetchError> {
        self.lookup_origin(Origin::from_url(url)?).await
    }

    async fn lookup_origin(&self, origin: Origin) -> Result<RobotsLookup, FetchError> {
        if let Some(entry) = self.cache.get(&origin) {
            if entry.is_fresh(self.clock.now()) {
                return Ok(RobotsLookup {
                    origin,
                    entry,
                    from_cache: true,
                });
            }
        }
        let (entry, from_cache) = self
            .flights
            .run(origin.clone(), || async {
                let previous = self.cache.get(&origin);
                // A flight that finished just before this one started may
                // have refreshed the entry already.
                if let Some(entry) = previous.as_ref().filter(|e| e.is_fresh(self.clock.now())) {
                    return Ok((entry.clone(), true));
                }
                let attempt = self.client.fetch(&origin.robots_url()).await?;
                let (_, entry) =
                    self.policy
                        .apply(&attempt.result, previous.as_ref(), self.clock.now());
                self.cache.put(&origin, entry.clone());
                Ok((entry, false))
            })
            .await?;
        Ok(RobotsLookup {
            origin,
            entry,
            from_cache,
        })
    }

    /// Fetches the robots.txt of `url`'s origin now (whatever the cache
    /// holds), updates the cache, and reports everything about the fetch.
    pub async fn fetch(&self, url: &str) -> Result<FetchReport, FetchError> {
        let origin = Origin::from_url(url)?;
        let previous = self.cache.get(&origin);
        let attempt = self.client.fetch(&origin.robots_url()).await?;
        let (_, entry) = self
            .policy
            .apply(&attempt.result, previous.as_ref(), self.clock.now());
        self.cache.put(&origin, entry.clone());
        Ok(FetchReport::new(origin, &attempt, entry))
    }

    /// The pace `agent` should keep on `url`'s origin.
    pub async fn pacing(&self, url: &str, agent: &str) -> Result<Pacing, FetchError> {
        Ok(self.lookup(url).await?.pacing(agent, &self.politeness))
    }

    /// Reserves the next permitted time for `agent` to request a page of
    /// `url`'s origin, and returns it. Every task of a crawler sharing this
    /// fetcher is spaced by the origin's crawl-delay / request-rate (within
    /// the configured floor and cap) and kept inside its visit-time window.
    pub async fn reserve(&self, url: &str, agent: &str) -> Result<SystemTime, FetchError> {
        let lookup = self.lookup(url).await?;
        let pacing = lookup.pacing(agent, &self.politeness);
        Ok(self
            .schedule
            .reserve(&lookup.origin, &pacing, self.clock.now()))
    }
}

/// Builds a [`Fetcher`].
///
/// ```
/// use std::time::Duration;
/// use crawlgate_fetch::{AddressPolicy, Fetcher};
/// let fetcher = Fetcher::builder()
///     .user_agent("mybot/1.0 (+https://example.com/bot)")
///     .timeout(Duration::from_secs(10))
///     .address_policy(AddressPolicy::public_only().allow_host("intranet.example"))
///     .build()
///     .unwrap();
/// # let _ = fetcher;
/// ```
#[derive(Default)]
pub struct FetcherBuilder {
    client: ClientConfig,
    policy: FetchPolicy,
    politeness: PolitenessConfig,
    cache: Option<Arc<dyn CacheStore>>,
    resolver: Option<Arc<dyn Resolver>>,
    clock: Option<Arc<dyn Clock>>,
}

impl fmt::Debug for FetcherBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FetcherBuilder")
            .field("client", &self.client)
            .field("policy", &self.policy)
            .field("politeness", &self.politeness)
            .finish_non_exhaustive()
    }
}

impl FetcherBuilder {
    /// Every client setting at once.
    pub fn client_config(mut self, config: ClientConfig) -> Self {
        self.client = config;
        self
    }

    /// The `User-Agent` header sent.
    pub fn user_agent(mut self, user_agent: &str) -> Self {
        self.client.user_agent = user_agent.to_owned();
        self
    }

    /// The connect timeout.
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.client.connect_timeout = timeout;
        self
    }

    /// The timeout of a whole fetch (all hops and the body).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.client.timeout = timeout;
        self
    }

    /// Redirects followed before giving up (at least 5 per RFC 9309).
    pub fn max_redirects(mut self, hops: usize) -> Self {
        self.client.max_redirects = hops;
        self
    }

    /// Which addresses may be connected to.
    pub fn address_policy(mut self, policy: AddressPolicy) -> Self {
        self.client.address_policy = policy;
        self
    }

    /// Allows loopback, private and link-local addresses (tests, intranet
    /// crawlers). Off by default.
    pub fn allow_non_public_addresses(self) -> Self {
        self.address_policy(AddressPolicy::allow_all())
    }

    /// The resolver (default: the system's).
    pub fn resolver(mut self, resolver: Arc<dyn Resolver>) -> Self {
        self.resolver = Some(resolver);
        self
    }

    /// The cache store (default: a [`MemoryCache`] of 10,000 entries).
    pub fn cache(mut self, cache: Arc<dyn CacheStore>) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The clock (default: the system's).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// The fetch policy (TTLs, retries, the 30-day limit).
    pub fn policy(mut self, policy: FetchPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The profile robots.txt files are parsed with.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.policy.profile = profile;
        self
    }

    /// Politeness settings.
    pub fn politeness(mut self, config: PolitenessConfig) -> Self {
        self.politeness = config;
        self
    }

    /// Builds the fetcher.
    pub fn build(self) -> Result<Fetcher, FetchError> {
        let resolver = self.resolver.unwrap_or_else(|| Arc::new(SystemResolver));
        Ok(Fetcher {
            client: RobotsClient::new(self.client, resolver)?,
            policy: self.policy,
            cache: self
                .cache
                .unwrap_or_else(|| Arc::new(MemoryCache::default())),
            flights: SingleFlight::new(),
            clock: self.clock.unwrap_or_else(|| Arc::new(SystemClock)),
            schedule: Schedule::new(self.politeness.max_origins),
            politeness: self.politeness,
        })
    }
}
