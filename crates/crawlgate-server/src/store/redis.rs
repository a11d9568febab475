//! The Redis store: many `crawlgate serve` instances share one cache, one
//! politeness schedule per origin, and one fetch per origin at a time (a
//! lock with expiry).
//!
//! Keys, under a prefix (`crawlgate:`), per origin (`https://host:port`):
//!
//! | key | value | expires |
//! |---|---|---|
//! | `entry:<origin>` | the cache entry (MessagePack) | 30 days after the entry's own expiry (its last good copy serves failed refreshes) |
//! | `stamp:<origin>` | the entry's fetch time (µs) | with the entry |
//! | `lock:<origin>` | the token of the instance fetching | after the fetch timeout |
//! | `slot:<origin>` | the last reserved request time (µs), never more than the horizon ahead | once it constrains nothing |
//! | `refresh:<origin>` | a refresh was asked for | after the refresh interval |
//! | `hist:<origin>` | sorted set of version ids | 30 days |
//! | `ver:<origin>:<id>` | one version (MessagePack) | 30 days |
//!
//! Each instance keeps parsed entries in memory and checks the stamp at
//! most once a second per origin, so a warm answer costs no Redis round
//! trip and no parse.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use crawlgate_answers::{CacheEntry, Origin};
use crawlgate_fetch::{CacheStore, MemoryCache, Pacing};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::AsyncCommands;

use super::history::{oldest_kept, Version, VersionSummary, HISTORY_WINDOW};
use super::schedule::{plan_slot, Slot};
use super::{decode, encode, from_micros, micros, StoreError};

fn err(error: impl std::fmt::Display) -> StoreError {
    StoreError(format!("redis: {error}"))
}

/// How long one Redis command or connection attempt may take.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a locally held entry is trusted before its stamp is checked.
const REVALIDATE: Duration = Duration::from_secs(1);

/// Attempts at reserving a politeness slot against concurrent writers.
const RESERVE_ATTEMPTS: usize = 1_000;

const UNLOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// Sets the slot only if no other instance moved it since it was read.
const COMPARE_AND_SET: &str = r"
local current = redis.call('GET', KEYS[1]) or ''
if current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0";

/// A cache shared through Redis.
#[derive(Clone)]
pub struct RedisStore {
    inner: Arc<Inner>,
}

struct Inner {
    conn: ConnectionManager,
    prefix: String,
    local: MemoryCache,
    checked: Mutex<HashMap<Origin, (u64, Instant)>>,
    keep_after_expiry: Duration,
    unlock: redis::Script,
    compare_and_set: redis::Script,
    tokens: AtomicU64,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.inner.prefix)
            .field("local", &self.inner.local)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to `url` (`redis://host:port/db`); every key starts with
    /// `prefix`. Entries are kept `keep_after_expiry` past their expiry
    /// (the fetch policy's unreachable limit), for failed refreshes.
    pub async fn connect(
        url: &str,
        prefix: &str,
        memory_bytes: usize,
        keep_after_expiry: Duration,
    ) -> Result<RedisStore, StoreError> {
        let client = redis::Client::open(url).map_err(err)?;
        // A Redis that stops answering fails requests (503) instead of
        // holding them.
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(REDIS_TIMEOUT)
            .set_response_timeout(REDIS_TIMEOUT)
            .set_number_of_retries(2);
        let conn = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(err)?;
        let store = RedisStore {
            inner: Arc::new(Inner {
                conn,
                prefix: prefix.to_owned(),
                local: MemoryCache::new(100_000, memory_bytes),
                checked: Mutex::new(HashMap::new()),
                keep_after_expiry,
                unlock: redis::Script::new(UNLOCK),
                compare_and_set: redis::Script::new(COMPARE_AND_SET),
                tokens: AtomicU64::new(0),
            }),
        };
        store.ping().await?;
        Ok(store)
    }

    fn key(&self, kind: &str, origin: &Origin) -> String {
        format!("{}{kind}:{origin}", self.inner.prefix)
    }

    fn conn(&self) -> ConnectionManager {
        self.inner.conn.clone()
    }

    fn checked(&self) -> std::sync::MutexGuard<'_, HashMap<Origin, (u64, Instant)>> {
        self.inner.checked.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn mark_checked(&self, origin: &Origin, stamp: u64) {
        let mut checked = self.checked();
        if checked.len() > 100_000 {
            checked.retain(|_, (_, at)| at.elapsed() < REVALIDATE);
        }
        checked.insert(origin.clone(), (stamp, Instant::now()));
    }

    /// Answers the server's liveness probe.
    pub async fn ping(&self) -> Result<(), StoreError> {
        redis::cmd("PING")
            .query_async::<String>(&mut self.conn())
            .await
            .map(drop)
            .map_err(err)
    }

    /// The entry for `origin`, fresh or not.
    pub async fn get(&self, origin: &Origin) -> Result<Option<CacheEntry>, StoreError> {
        let now = SystemTime::now();
        if let Some(entry) = self.inner.local.get(origin) {
            let stamp = micros(entry.fetched_at);
            let recent = self
                .checked()
                .get(origin)
                .is_some_and(|(s, at)| *s == stamp && at.elapsed() < REVALIDATE);
            if recent && entry.is_fresh(now) {
                return Ok(Some(entry));
            }
            let remote: Option<u64> = self
                .conn()
                .get(self.key("stamp", origin))
                .await
                .map_err(err)?;
            match remote {
                Some(remote) if remote == stamp => {
                    self.mark_checked(origin, stamp);
                    return Ok(Some(entry));
                }
                None => {
                    self.inner.local.remove(origin);
                    return Ok(None);
                }
                Some(_) => {}
            }
        }
        let bytes: Option<Vec<u8>> = self
            .conn()
            .get(self.key("entry", origin))
            .await
            .map_err(err)?;
        let Some(bytes) = bytes else {
            return Ok(None);
        };
        let entry: CacheEntry = tokio::task::spawn_blocking(move || decode(&bytes))
            .await
            .map_err(err)??;
        self.inner.local.put(origin, entry.clone());
        self.mark_checked(origin, micros(entry.fetched_at));
        Ok(Some(entry))
    }

    /// Stores `entry` and records a new version in the history.
    pub async fn put(&self, origin: &Origin, entry: &CacheEntry) -> Result<(), StoreError> {
        let now = SystemTime::now();
        let stamp = micros(entry.fetched_at);
        let keep = entry
            .expires_at
            .duration_since(now)
            .unwrap_or_default()
            .saturating_add(self.inner.keep_after_expiry);
        let keep_ms = u64::try_from(keep.as_millis()).unwrap_or(u64::MAX).max(1);
        let (encoded, version) = {
            let entry = entry.clone();
            tokio::task::spawn_blocking(move || {
                Ok::<_, StoreError>((encode(&entry)?, Version::of(&entry)))
            })
            .await
            .map_err(err)??
        };
        let mut conn = self.conn();
        redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(self.key("entry", origin))
            .arg(encoded)
            .arg("PX")
            .arg(keep_ms)
            .ignore()
            .cmd("SET")
            .arg(self.key("stamp", origin))
            .arg(stamp)
            .arg("PX")
            .arg(keep_ms)
            .ignore()
            .query_async::<()>(&mut conn)
            .await
            .map_err(err)?;
        self.record(origin, &version, now).await?;
        self.inner.local.put(origin, entry.clone());
        self.mark_checked(origin, stamp);
        Ok(())
    }

    fn version_key(&self, origin: &Origin, id: u64) -> String {
        format!("{}ver:{origin}:{id}", self.inner.prefix)
    }

    async fn record(
        &self,
        origin: &Origin,
        version: &Version,
        now: SystemTime,
    ) -> Result<(), StoreError> {
        let hist = self.key("hist", origin);
        let mut conn = self.conn();
        let latest: Vec<u64> = conn.zrevrange(&hist, 0, 0).await.map_err(err)?;
        if let Some(&id) = latest.first() {
            if let Some(stored) = self.version(origin, id).await? {
                if stored.same_as(version) {
                    return Ok(());
                }
            }
        }
        let window_ms = u64::try_from(HISTORY_WINDOW.as_millis()).unwrap_or(u64::MAX);
        let oldest = oldest_kept(now);
        redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(self.version_key(origin, version.id))
            .arg(encode(version)?)
            .arg("PX")
            .arg(window_ms)
            .ignore()
            .cmd("ZADD")
            .arg(&hist)
            .arg(version.id)
            .arg(version.id)
            .ignore()
            .cmd("ZREMRANGEBYSCORE")
            .arg(&hist)
            .arg("-inf")
            .arg(format!("({oldest}"))
            .ignore()
            .cmd("PEXPIRE")
            .arg(&hist)
            .arg(window_ms)
            .ignore()
            .query_async::<()>(&mut conn)
            .await
            .map_err(err)
    }

    /// The versions of the last 30 days, newest first.
    pub async fn history(&self, origin: &Origin) -> Result<Vec<VersionSummary>, StoreError> {
        let oldest = oldest_kept(SystemTime::now());
        let ids: Vec<u64> = self
            .conn()
            .zrevrangebyscore(self.key("hist", origin), "+inf", oldest)
            .await
            .map_err(err)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            // A version whose key expired first is simply gone.
            if let Some(version) = self.version(origin, id).await? {
                out.push(version.summary());
            }
        }
        Ok(out)
    }

    /// One version.
    pub async fn version(&self, origin: &Origin, id: u64) -> Result<Option<Version>, StoreError> {
        let bytes: Option<Vec<u8>> = self
            .conn()
            .get(self.version_key(origin, id))
            .await
            .map_err(err)?;
        bytes.map(|b| decode(&b)).transpose()
    }

    /// Takes the fetch lock of `origin` for at most `hold`; its token, or
    /// `None` when another instance holds it.
    pub async fn lock(
        &self,
        origin: &Origin,
        hold: Duration,
    ) -> Result<Option<String>, StoreError> {
        let token = format!(
            "{}-{}-{}",
            std::process::id(),
            self.inner.tokens.fetch_add(1, Ordering::Relaxed),
            micros(SystemTime::now())
        );
        let hold_ms = u64::try_from(hold.as_millis()).unwrap_or(u64::MAX).max(1);
        let set: Option<String> = redis::cmd("SET")
            .arg(self.key("lock", origin))
            .arg(&token)
            .arg("NX")
            .arg("PX")
            .arg(hold_ms)
            .query_async(&mut self.conn())
            .await
            .map_err(err)?;
        Ok(set.map(|_| token))
    }

    /// Releases the lock if it is still this token's.
    pub async fn unlock(&self, origin: &Origin, token: &str) -> Result<(), StoreError> {
        self.inner
            .unlock
            .key(self.key("lock", origin))
            .arg(token)
            .invoke_async::<i64>(&mut self.conn())
            .await
            .map(drop)
            .map_err(err)
    }

    async fn last_slot(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.conn().get(key).await.map_err(err)
    }

    /// Reserves (or only reads) the next permitted request time on
    /// `origin` for every instance: read the last slot, plan the next with
    /// [`plan_slot`], write it only if no one else wrote meanwhile.
    pub async fn slot(
        &self,
        origin: &Origin,
        pacing: &Pacing,
        now: SystemTime,
        horizon: Duration,
        reserve: bool,
    ) -> Result<Slot, StoreError> {
        let key = self.key("slot", origin);
        if !reserve {
            let last = self.last_slot(&key).await?;
            let limit = now.checked_add(horizon).unwrap_or(now);
            let last = last.as_deref().and_then(parse_micros).map(|l| l.min(limit));
            return Ok(Slot::Free(pacing.next_permitted(last, now)));
        }
        for _ in 0..RESERVE_ATTEMPTS {
            let last = self.last_slot(&key).await?;
            let at = match plan_slot(last.as_deref().and_then(parse_micros), pacing, now, horizon) {
                Ok(at) => at,
                Err(retry_at) => return Ok(Slot::Full { retry_at }),
            };
            // Kept while it can delay anything: at most the horizon.
            let keep = at
                .duration_since(now)
                .unwrap_or_default()
                .saturating_add(pacing.delay_at(at))
                .saturating_add(Duration::from_secs(1));
            let set: i64 = self
                .inner
                .compare_and_set
                .key(&key)
                .arg(last.unwrap_or_default())
                .arg(micros(at))
                .arg(u64::try_from(keep.as_millis()).unwrap_or(u64::MAX))
                .invoke_async(&mut self.conn())
                .await
                .map_err(err)?;
            if set == 1 {
                return Ok(Slot::Reserved(at));
            }
        }
        Err(StoreError(format!(
            "could not reserve a request slot on {origin}: {RESERVE_ATTEMPTS} concurrent updates"
        )))
    }

    /// Forgets the reservations on `origin`, for every instance.
    pub async fn reset_schedule(&self, origin: &Origin) -> Result<bool, StoreError> {
        let removed: i64 = self
            .conn()
            .del(self.key("slot", origin))
            .await
            .map_err(err)?;
        Ok(removed > 0)
    }

    /// Whether `origin` may be refreshed now, across instances.
    pub async fn allow_refresh(
        &self,
        origin: &Origin,
        interval: Duration,
    ) -> Result<bool, StoreError> {
        let ms = u64::try_from(interval.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let set: Option<String> = redis::cmd("SET")
            .arg(self.key("refresh", origin))
            .arg(1)
            .arg("NX")
            .arg("PX")
            .arg(ms)
            .query_async(&mut self.conn())
            .await
            .map_err(err)?;
        Ok(set.is_some())
    }
}

fn parse_micros(text: &str) -> Option<SystemTime> {
    text.parse().ok().map(from_micros)
}
