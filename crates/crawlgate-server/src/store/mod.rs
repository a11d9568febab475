//! Where the server keeps what it fetched: cache entries (the fetch crate's
//! [`CacheEntry`], with its expiry and last good copy), each origin's
//! history of distinct versions, the politeness schedule and the fetch
//! locks. Two backends: [`EmbeddedStore`] (redb, one instance) and
//! [`RedisStore`] (shared by a fleet).

mod embedded;
mod history;
mod redis;
mod schedule;

use std::time::{Duration, SystemTime};

use crawlgate_answers::{CacheEntry, Origin};
use crawlgate_fetch::Pacing;

pub use embedded::EmbeddedStore;
pub use history::{Version, VersionSummary};
pub use redis::RedisStore;
pub use schedule::{plan_slot, Slot};

/// A backend failure (disk, Redis, a stored value that no longer decodes).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

impl StoreError {
    pub(crate) fn from_display(error: impl std::fmt::Display) -> StoreError {
        StoreError(error.to_string())
    }
}

/// Permission to fetch an origin's robots.txt, held until the fetch is
/// stored.
#[derive(Debug)]
pub enum FetchLock {
    /// This process's single-flight is enough (embedded store).
    Local,
    /// A Redis lock with this token, released after storing.
    Shared(String),
}

/// The cache backend in use.
#[derive(Clone, Debug)]
pub enum Store {
    /// redb in the data directory.
    Embedded(std::sync::Arc<EmbeddedStore>),
    /// Redis.
    Redis(RedisStore),
}

impl Store {
    /// `embedded` or `redis`.
    pub fn kind(&self) -> &'static str {
        match self {
            Store::Embedded(_) => "embedded",
            Store::Redis(_) => "redis",
        }
    }

    /// The entry held for `origin`, fresh or not.
    pub async fn get(&self, origin: &Origin) -> Result<Option<CacheEntry>, StoreError> {
        match self {
            Store::Embedded(store) => {
                if let Some(entry) = store.get_hot(origin) {
                    return Ok(Some(entry));
                }
                let (store, origin) = (store.clone(), origin.clone());
                blocking(move || store.load(&origin)).await
            }
            Store::Redis(store) => bounded(store.get(origin)).await,
        }
    }

    /// Stores `entry` and adds it to the history when it differs from the
    /// latest version.
    pub async fn put(&self, origin: &Origin, entry: &CacheEntry) -> Result<(), StoreError> {
        match self {
            Store::Embedded(store) => {
                let (store, origin, entry) = (store.clone(), origin.clone(), entry.clone());
                blocking(move || store.store(&origin, &entry)).await
            }
            Store::Redis(store) => bounded(store.put(origin, entry)).await,
        }
    }

    /// The distinct versions of the last 30 days, newest first.
    pub async fn history(&self, origin: &Origin) -> Result<Vec<VersionSummary>, StoreError> {
        match self {
            Store::Embedded(store) => {
                let (store, origin) = (store.clone(), origin.clone());
                blocking(move || store.history(&origin, SystemTime::now())).await
            }
            Store::Redis(store) => bounded(store.history(origin)).await,
        }
    }

    /// One version, by its id.
    pub async fn version(&self, origin: &Origin, id: u64) -> Result<Option<Version>, StoreError> {
        match self {
            Store::Embedded(store) => {
                let (store, origin) = (store.clone(), origin.clone());
                blocking(move || store.version(&origin, id)).await
            }
            Store::Redis(store) => bounded(store.version(origin, id)).await,
        }
    }

    /// Tries to become the one fetching `origin` (for at most `hold`);
    /// `None` when another instance is fetching it.
    pub async fn lock(
        &self,
        origin: &Origin,
        hold: Duration,
    ) -> Result<Option<FetchLock>, StoreError> {
        match self {
            Store::Embedded(_) => Ok(Some(FetchLock::Local)),
            Store::Redis(store) => Ok(bounded(store.lock(origin, hold))
                .await?
                .map(FetchLock::Shared)),
        }
    }

    /// Releases a lock from [`Store::lock`].
    pub async fn unlock(&self, origin: &Origin, lock: FetchLock) -> Result<(), StoreError> {
        match (self, lock) {
            (Store::Redis(store), FetchLock::Shared(token)) => {
                bounded(store.unlock(origin, &token)).await
            }
            _ => Ok(()),
        }
    }

    /// Reserves (with `reserve`) or only reads the next permitted request
    /// time on `origin`, shared by every caller of this store, never more
    /// than `horizon` ahead of `now` ([`plan_slot`]).
    pub async fn slot(
        &self,
        origin: &Origin,
        pacing: &Pacing,
        now: SystemTime,
        horizon: Duration,
        reserve: bool,
    ) -> Result<Slot, StoreError> {
        match self {
            Store::Embedded(store) => {
                Ok(store.schedule().slot(origin, pacing, now, horizon, reserve))
            }
            Store::Redis(store) => bounded(store.slot(origin, pacing, now, horizon, reserve)).await,
        }
    }

    /// Forgets the reservations on `origin`; whether there were any.
    pub async fn reset_schedule(&self, origin: &Origin) -> Result<bool, StoreError> {
        match self {
            Store::Embedded(store) => Ok(store.schedule().reset(origin)),
            Store::Redis(store) => bounded(store.reset_schedule(origin)).await,
        }
    }

    /// Whether `origin` may be refreshed now (at most once per `interval`);
    /// counts this refresh when it may.
    pub async fn allow_refresh(
        &self,
        origin: &Origin,
        interval: Duration,
    ) -> Result<bool, StoreError> {
        match self {
            Store::Embedded(store) => Ok(store.allow_refresh(origin, interval)),
            Store::Redis(store) => bounded(store.allow_refresh(origin, interval)).await,
        }
    }

    /// Whether the backend answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Embedded(_) => Ok(()),
            Store::Redis(store) => bounded(store.ping()).await,
        }
    }
}

/// How long one call to a remote store may take before the request fails
/// (503) instead of waiting on a store that stopped answering.
const REMOTE_TIMEOUT: Duration = Duration::from_secs(5);

async fn bounded<T>(
    work: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    match tokio::time::timeout(REMOTE_TIMEOUT, work).await {
        Ok(result) => result,
        Err(_) => Err(StoreError(format!(
            "redis: no answer within {} s",
            REMOTE_TIMEOUT.as_secs()
        ))),
    }
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(StoreError::from_display)?
}

/// Microseconds since the Unix epoch (0 before it): version ids and Redis
/// timestamps.
pub(crate) fn micros(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// The time `micros` stands for.
pub(crate) fn from_micros(micros: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_micros(micros)
}

/// Encodes an entry for storage (MessagePack: compact bodies, and the
/// entry's tagged enums need a self-describing format).
pub(crate) fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    rmp_serde::to_vec_named(value).map_err(StoreError::from_display)
}

/// Decodes what [`encode`] wrote.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, StoreError> {
    rmp_serde::from_slice(bytes).map_err(StoreError::from_display)
}
