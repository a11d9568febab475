//! The high-level API: "may this crawler fetch this URL?" answered from the
//! right robots.txt, fetched once, cached, and obeyed.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate::Profile;
use serde::Serialize;

use crate::address::{AddressPolicy, Resolver, SystemResolver};
use crate::cache::{CacheStore, MemoryCache};
use crate::client::{ClientConfig, RobotsClient};
use crate::clock::{Clock, SystemClock};
use crate::error::FetchError;
use crate::flight::SingleFlight;
use crate::politeness::{Pacing, PolitenessConfig, Schedule};
use crate::report::FetchReport;
use crawlgate_answers::time::serialize_opt_rfc3339;
use crawlgate_answers::{
    is_robots_txt, CacheEntry, ExplainedVerdict, FetchPolicy, Origin, OutcomeKind, OutcomeReason,
    Rules,
};

/// The answer to "may `agent` fetch `url`?", with the robots.txt consulted
/// and how fresh it is.
///
/// Serialized flat: `url`, `agent`, the verdict's fields (`allowed`,
/// `basis`, `rule`, and `fetch_outcome` when the fetch outcome decided),
/// then `origin`, `robots_url`, `outcome`, `reason`, `from_cache`,
/// `fetched_at` and `expires_at`.
#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// The URL asked about.
    pub url: String,
    /// The crawler's product token.
    pub agent: String,
    /// The answer and what decided it.
    #[serde(flatten)]
    pub verdict: ExplainedVerdict,
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
    #[serde(serialize_with = "serialize_opt_rfc3339")]
    pub fetched_at: Option<SystemTime>,
    /// When it will be fetched again (RFC 3339).
    #[serde(serialize_with = "serialize_opt_rfc3339")]
    pub expires_at: Option<SystemTime>,
}

impl Decision {
    /// Whether the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.verdict.allowed
    }
}

impl fmt::Display for Decision {
    /// The verdict: `allowed by line 3 (Allow: /p)`, `disallowed: server
    /// error or network failure: …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.verdict.fmt(f)
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
            Some(robots) => Pacing::from_view(&robots.view(agent), config),
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
/// if decision.is_allowed() {
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
    /// resolver and clock, an in-memory cache, the default [`FetchPolicy`].
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
    /// failures are answers (RFC 9309 §2.3.1). Errors are not cached: a check that
    /// was refused is refused again, by a new attempt, next time.
    pub async fn check(&self, url: &str, agent: &str) -> Result<Decision, FetchError> {
        let origin = Origin::from_url(url)?;
        let robots_url = origin.robots_url().to_string();
        // Answered without a fetch: no outcome can change it.
        if is_robots_txt(url) {
            return Ok(Decision {
                url: url.to_owned(),
                agent: agent.to_owned(),
                verdict: ExplainedVerdict::robots_txt_itself(),
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
        Ok(Decision {
            url: url.to_owned(),
            agent: agent.to_owned(),
            verdict: entry.outcome.decide(agent, url),
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
        if let Some(entry) = self.cache.get(&origin)
            && entry.is_fresh(self.clock.now())
        {
            return Ok(RobotsLookup {
                origin,
                entry,
                from_cache: true,
            });
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

    /// Allows loopback, private and the other non-public addresses (tests,
    /// intranet crawlers), but not link-local addresses nor cloud metadata
    /// services (see [`allow_link_local_addresses`](Self::allow_link_local_addresses)).
    /// Off by default.
    pub fn allow_non_public_addresses(mut self) -> Self {
        self.client.address_policy = self.client.address_policy.with_non_public();
        self
    }

    /// Also allows link-local addresses (`169.254/16`, `fe80::/10`) and
    /// cloud metadata services (`169.254.169.254` …). Off by default, and
    /// not implied by [`allow_non_public_addresses`](Self::allow_non_public_addresses):
    /// a crawler in a cloud must not hand its instance credentials to a
    /// robots.txt redirect.
    pub fn allow_link_local_addresses(mut self) -> Self {
        self.client.address_policy = self.client.address_policy.allow_link_local();
        self
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
