//! Fetch or reuse an origin's robots.txt, per the fetch crate's rules, for
//! every instance sharing a store.
//!
//! The fetch crate's [`Fetcher`](crawlgate_fetch::Fetcher) keeps its
//! single-flight and politeness schedule in one process and reads its
//! cache synchronously. A fleet needs both across processes, so the server
//! composes the same parts itself: the [`RobotsClient`] (SSRF-checked),
//! the pure [`FetchPolicy`], the [`SingleFlight`] inside an instance, and
//! the store's lock across instances.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crawlgate::{Reading, Who};
use crawlgate_answers::{CacheEntry, FetchPolicy, Origin, Outcome};
use crawlgate_fetch::{
    ClientConfig, FetchError, Pacing, PolitenessConfig, RobotsClient, SingleFlight, SystemResolver,
};
use tokio::sync::Semaphore;

use crate::allowance::FetchAllowance;
use crate::config::ServerConfig;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::store::{Slot, Store, StoreError};

/// An origin's robots.txt answer, and whether it came from the cache.
#[derive(Clone, Debug)]
pub struct Lookup {
    /// The origin.
    pub origin: Origin,
    /// Its cache entry (fresh).
    pub entry: CacheEntry,
    /// Whether no fetch was made for this answer.
    pub from_cache: bool,
}

/// Why no answer could be had.
#[derive(Clone, Debug)]
pub enum LookupError {
    /// The fetch crate refused (no robots.txt for the URL, refused address).
    Fetch(FetchError),
    /// The store failed, or another instance's fetch never finished.
    Store(String),
    /// Not fetched: the request or its client reached its fetch allowance.
    Limit(ApiError),
}

impl From<StoreError> for LookupError {
    fn from(error: StoreError) -> Self {
        LookupError::Store(error.0)
    }
}

impl LookupError {
    /// The API error, blaming `field`.
    pub fn into_api(self, field: &str) -> ApiError {
        match self {
            LookupError::Fetch(e) => ApiError::from_fetch(field, e),
            LookupError::Store(problem) => ApiError::unavailable(problem),
            LookupError::Limit(error) => error.at(field),
        }
    }
}

type Flights = SingleFlight<Origin, Result<Lookup, LookupError>>;

/// Looks robots.txt files up, fetching them when the store has no fresh
/// answer, once per origin at a time across every instance.
pub struct RobotsService {
    client: RobotsClient,
    policy: FetchPolicy,
    politeness: PolitenessConfig,
    store: Store,
    lookups: Flights,
    refreshes: Flights,
    fetches: Semaphore,
    fetch_timeout: Duration,
    horizon: Duration,
    metrics: Arc<Metrics>,
}

impl std::fmt::Debug for RobotsService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsService")
            .field("store", &self.store.kind())
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl RobotsService {
    /// A service fetching with `config`'s client settings into `store`.
    pub fn new(
        config: &ServerConfig,
        store: Store,
        metrics: Arc<Metrics>,
    ) -> Result<RobotsService, FetchError> {
        let mut client = ClientConfig::default();
        client.user_agent = config.user_agent.clone();
        client.timeout = config.fetch_timeout;
        client.connect_timeout = config.fetch_timeout.min(client.connect_timeout);
        let resolver: Arc<dyn crawlgate_fetch::Resolver> = match &config.network {
            Some(network) => {
                client.address_policy = network.policy.clone();
                network.resolver.clone()
            }
            None => {
                client.address_policy = config.targets.address_policy();
                Arc::new(SystemResolver)
            }
        };
        Ok(RobotsService {
            client: RobotsClient::new(client, resolver)?,
            policy: config.policy.clone(),
            politeness: config.politeness.clone(),
            store,
            lookups: SingleFlight::new(),
            refreshes: SingleFlight::new(),
            fetches: Semaphore::new(config.limits.max_concurrent_fetches.max(1)),
            fetch_timeout: config.fetch_timeout,
            horizon: config.limits.politeness_horizon,
            metrics,
        })
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The fetch rules.
    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// The politeness settings.
    pub fn politeness(&self) -> &PolitenessConfig {
        &self.politeness
    }

    /// The fresh answer for `origin`: from the store, or fetched (one fetch
    /// per origin at a time, across instances) when `allowance` permits.
    pub async fn lookup(
        &self,
        origin: &Origin,
        allowance: &FetchAllowance<'_>,
    ) -> Result<Lookup, LookupError> {
        if let Some(entry) = self.store.get(origin).await? {
            if entry.is_fresh(SystemTime::now()) {
                self.metrics.cache_hit();
                return Ok(Lookup {
                    origin: origin.clone(),
                    entry,
                    from_cache: true,
                });
            }
        }
        self.metrics.cache_miss();
        allowance.take().map_err(|error| {
            self.metrics.not_fetched();
            LookupError::Limit(error)
        })?;
        self.shared(&self.lookups, origin, false).await
    }

    /// What the store holds for `origin`, fresh or not, without fetching.
    pub async fn cached(&self, origin: &Origin) -> Result<Option<CacheEntry>, LookupError> {
        Ok(self.store.get(origin).await?)
    }

    /// Fetches `origin` now, whatever the store holds, unless it was
    /// refreshed less than `interval` ago (then `Ok(None)`).
    pub async fn refresh(
        &self,
        origin: &Origin,
        interval: Duration,
        allowance: &FetchAllowance<'_>,
    ) -> Result<Option<Lookup>, LookupError> {
        if !self.store.allow_refresh(origin, interval).await? {
            return Ok(None);
        }
        allowance.take().map_err(LookupError::Limit)?;
        self.shared(&self.refreshes, origin, true).await.map(Some)
    }

    /// Runs one lookup per origin in this instance; callers arriving while
    /// it runs join it.
    async fn shared(
        &self,
        flights: &Flights,
        origin: &Origin,
        force: bool,
    ) -> Result<Lookup, LookupError> {
        let mut led = false;
        let result = flights
            .run(origin.clone(), || {
                led = true;
                self.fetch_once(origin.clone(), force)
            })
            .await;
        if !led {
            self.metrics.flight_join();
        }
        result
    }

    /// Fetches under the store's lock; while another instance holds it,
    /// waits for its answer.
    async fn fetch_once(&self, origin: Origin, force: bool) -> Result<Lookup, LookupError> {
        let hold = self.fetch_timeout + Duration::from_secs(5);
        let deadline = Instant::now() + hold * 2;
        let mut waited = false;
        loop {
            // Once another instance fetched while this one waited, its
            // answer is as fresh as a forced fetch would be.
            if !force || waited {
                if let Some(entry) = self.fresh(&origin).await? {
                    return Ok(Lookup {
                        origin,
                        entry,
                        from_cache: true,
                    });
                }
            }
            if let Some(lock) = self.store.lock(&origin, hold).await? {
                let result = self.fetch_locked(&origin, force && !waited).await;
                self.store.unlock(&origin, lock).await?;
                return result;
            }
            if Instant::now() > deadline {
                return Err(LookupError::Store(format!(
                    "another instance has been fetching {origin} for too long"
                )));
            }
            waited = true;
            self.metrics.lock_wait();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn fresh(&self, origin: &Origin) -> Result<Option<CacheEntry>, StoreError> {
        let entry = self.store.get(origin).await?;
        Ok(entry.filter(|e| e.is_fresh(SystemTime::now())))
    }

    async fn fetch_locked(&self, origin: &Origin, force: bool) -> Result<Lookup, LookupError> {
        let previous = self.store.get(origin).await?;
        if let Some(entry) = previous
            .as_ref()
            .filter(|e| !force && e.is_fresh(SystemTime::now()))
        {
            // Fetched by another instance between the check and the lock.
            return Ok(Lookup {
                origin: origin.clone(),
                entry: entry.clone(),
                from_cache: true,
            });
        }
        let attempt = {
            let _permit = self
                .fetches
                .acquire()
                .await
                .map_err(|e| LookupError::Store(e.to_string()))?;
            self.client
                .fetch(&origin.robots_url())
                .await
                .map_err(LookupError::Fetch)?
        };
        let (_, entry) = self
            .policy
            .apply(&attempt.result, previous.as_ref(), SystemTime::now());
        self.metrics.fetched(entry.outcome.reason);
        self.store.put(origin, &entry).await?;
        Ok(Lookup {
            origin: origin.clone(),
            entry,
            from_cache: false,
        })
    }

    /// The pace for `agent` under `entry`'s rules.
    pub fn pacing(&self, outcome: &Outcome, agent: &str, how: Reading) -> Pacing {
        match outcome.rules.robots() {
            Some(robots) => {
                Pacing::from_view(&robots.view(Who::read(agent, how)), &self.politeness)
            }
            None => Pacing::unrestricted(&self.politeness),
        }
    }

    /// Reserves (or, with `reserve` false, only reads) the next permitted
    /// request time on `origin`, from `now`, within the politeness horizon.
    pub async fn next_slot(
        &self,
        origin: &Origin,
        pacing: &Pacing,
        reserve: bool,
        now: SystemTime,
    ) -> Result<Slot, StoreError> {
        self.store
            .slot(origin, pacing, now, self.horizon, reserve)
            .await
    }

    /// How far ahead a reservation may lie.
    pub fn horizon(&self) -> Duration {
        self.horizon
    }
}
