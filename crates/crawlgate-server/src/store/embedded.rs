//! The embedded store: one redb file in the data directory holding every
//! origin's cache entry and history, bounded in bytes (least recently used
//! origins evicted first), with the fetch crate's [`MemoryCache`] in front
//! so a warm answer costs no disk read and no parse.
//!
//! It implements [`CacheStore`], so a [`crawlgate_fetch::Fetcher`] can use
//! it too; the server also reads its history.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use crawlgate_answers::{CacheEntry, Origin};
use crawlgate_fetch::{CacheStore, MemoryCache};
use redb::{Database, Durability, ReadableTable, TableDefinition};

use super::history::{oldest_kept, Version, VersionSummary};
use super::schedule::EmbeddedSchedule;
use super::{decode, encode, StoreError};

const ENTRIES: TableDefinition<&str, &[u8]> = TableDefinition::new("entries");
const VERSIONS: TableDefinition<(&str, u64), &[u8]> = TableDefinition::new("versions");
const USED: TableDefinition<&str, u64> = TableDefinition::new("used");

/// How stale a persisted last-use time may get before a read rewrites it:
/// eviction order across restarts is kept to the hour, without a disk
/// write per request.
const USE_PERSIST_GRANULARITY: u64 = 3_600;

fn err(error: impl std::fmt::Display) -> StoreError {
    StoreError::from_display(error)
}

/// A persistent, byte-bounded store of cache entries and their history.
///
/// ```
/// use std::time::SystemTime;
/// use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, Origin};
/// use crawlgate_fetch::CacheStore;
/// use crawlgate_server::EmbeddedStore;
///
/// let dir = tempfile::tempdir().unwrap();
/// let origin = Origin::from_url("https://example.com/").unwrap();
/// let result = FetchResult::Response(HttpResponse::new(200).with_body("User-agent: *\nDisallow: /x\n"));
/// let (_, entry) = FetchPolicy::default().apply(&result, None, SystemTime::now());
/// {
///     let store = EmbeddedStore::open(dir.path(), 1 << 20, 1 << 20).unwrap();
///     store.put(&origin, entry);
/// }
/// let reopened = EmbeddedStore::open(dir.path(), 1 << 20, 1 << 20).unwrap();
/// let entry = reopened.get(&origin).unwrap();
/// assert!(!entry.outcome.rules.robots().unwrap().is_allowed("bot", "/x"));
/// assert_eq!(reopened.history(&origin, SystemTime::now()).unwrap().len(), 1);
/// ```
pub struct EmbeddedStore {
    db: Database,
    path: PathBuf,
    max_bytes: u64,
    memory: MemoryCache,
    index: Mutex<Index>,
    schedule: EmbeddedSchedule,
    refreshes: Mutex<HashMap<Origin, Instant>>,
}

impl std::fmt::Debug for EmbeddedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let index = self.lock_index();
        f.debug_struct("EmbeddedStore")
            .field("path", &self.path)
            .field("origins", &index.origins.len())
            .field("bytes", &index.bytes)
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

/// Bytes and last use of every stored origin, in memory.
#[derive(Default)]
struct Index {
    origins: HashMap<Origin, Usage>,
    by_use: BTreeSet<(u64, Origin)>,
    bytes: u64,
}

#[derive(Clone, Copy, Default)]
struct Usage {
    used: u64,
    persisted: u64,
    bytes: u64,
}

impl Index {
    fn set(&mut self, origin: &Origin, usage: Usage) {
        if let Some(old) = self.origins.insert(origin.clone(), usage) {
            self.by_use.remove(&(old.used, origin.clone()));
            self.bytes -= old.bytes;
        }
        self.by_use.insert((usage.used, origin.clone()));
        self.bytes += usage.bytes;
    }

    fn remove(&mut self, origin: &Origin) {
        if let Some(old) = self.origins.remove(origin) {
            self.by_use.remove(&(old.used, origin.clone()));
            self.bytes -= old.bytes;
        }
    }
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl EmbeddedStore {
    /// Opens (or creates) `dir/cache.redb`, keeping at most `max_bytes` on
    /// disk and about `memory_bytes` of parsed files in memory.
    pub fn open(
        dir: &Path,
        max_bytes: u64,
        memory_bytes: usize,
    ) -> Result<EmbeddedStore, StoreError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError(format!("cannot create {}: {e}", dir.display())))?;
        let path = dir.join("cache.redb");
        let db = Database::create(&path)
            .map_err(|e| StoreError(format!("cannot open {}: {e}", path.display())))?;
        let store = EmbeddedStore {
            db,
            path,
            max_bytes,
            memory: MemoryCache::new(100_000, memory_bytes),
            index: Mutex::new(Index::default()),
            schedule: EmbeddedSchedule::new(100_000),
            refreshes: Mutex::new(HashMap::new()),
        };
        store.build_index()?;
        Ok(store)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Bytes held on disk (entries and versions, as encoded).
    pub fn bytes(&self) -> u64 {
        self.lock_index().bytes
    }

    fn lock_index(&self) -> std::sync::MutexGuard<'_, Index> {
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn build_index(&self) -> Result<(), StoreError> {
        let txn = self.db.begin_write().map_err(err)?;
        {
            // Creates the tables on first open.
            txn.open_table(ENTRIES).map_err(err)?;
            txn.open_table(VERSIONS).map_err(err)?;
            txn.open_table(USED).map_err(err)?;
        }
        txn.commit().map_err(err)?;
        let txn = self.db.begin_read().map_err(err)?;
        let mut sizes: HashMap<String, u64> = HashMap::new();
        for row in txn.open_table(ENTRIES).map_err(err)?.iter().map_err(err)? {
            let (key, value) = row.map_err(err)?;
            *sizes.entry(key.value().to_owned()).or_default() += value.value().len() as u64;
        }
        for row in txn.open_table(VERSIONS).map_err(err)?.iter().map_err(err)? {
            let (key, value) = row.map_err(err)?;
            *sizes.entry(key.value().0.to_owned()).or_default() += value.value().len() as u64;
        }
        let used_table = txn.open_table(USED).map_err(err)?;
        let mut index = self.lock_index();
        for (key, bytes) in sizes {
            let used = used_table
                .get(key.as_str())
                .map_err(err)?
                .map_or(0, |v| v.value());
            // Keys are written from origins, so they parse back.
            let Ok(origin) = Origin::from_url(&key) else {
                continue;
            };
            index.set(
                &origin,
                Usage {
                    used,
                    persisted: used,
                    bytes,
                },
            );
        }
        Ok(())
    }

    /// The entry for `origin` if it is in the memory tier.
    pub fn get_hot(&self, origin: &Origin) -> Option<CacheEntry> {
        let entry = self.memory.get(origin)?;
        self.touch(origin);
        Some(entry)
    }

    /// The entry for `origin`, from memory or disk.
    pub fn load(&self, origin: &Origin) -> Result<Option<CacheEntry>, StoreError> {
        if let Some(entry) = self.get_hot(origin) {
            return Ok(Some(entry));
        }
        let key = origin.to_string();
        let txn = self.db.begin_read().map_err(err)?;
        let table = txn.open_table(ENTRIES).map_err(err)?;
        let Some(bytes) = table.get(key.as_str()).map_err(err)? else {
            return Ok(None);
        };
        let entry: CacheEntry = decode(bytes.value())?;
        self.memory.put(origin, entry.clone());
        self.touch(origin);
        Ok(Some(entry))
    }

    /// Marks `origin` used now; rewrites its persisted last use when that
    /// is more than an hour old.
    fn touch(&self, origin: &Origin) {
        let now = now_secs();
        let persist = {
            let mut index = self.lock_index();
            let Some(usage) = index.origins.get(origin).copied() else {
                return;
            };
            if usage.used == now {
                return;
            }
            let persist = now.saturating_sub(usage.persisted) >= USE_PERSIST_GRANULARITY;
            index.set(
                origin,
                Usage {
                    used: now,
                    persisted: if persist { now } else { usage.persisted },
                    ..usage
                },
            );
            persist
        };
        if persist {
            let key = origin.to_string();
            // Best effort: a lost last-use time only changes eviction order.
            let _ = self.write(Durability::Eventual, |txn| {
                txn.open_table(USED)
                    .map_err(err)?
                    .insert(key.as_str(), now)
                    .map_err(err)?;
                Ok(())
            });
        }
    }

    fn write(
        &self,
        durability: Durability,
        work: impl FnOnce(&redb::WriteTransaction) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write().map_err(err)?;
        txn.set_durability(durability);
        work(&txn)?;
        txn.commit().map_err(err)
    }

    /// Stores `entry`, records it in the history when it is a new version,
    /// forgets versions older than 30 days, and evicts the least recently
    /// used origins while over the byte bound.
    pub fn store(&self, origin: &Origin, entry: &CacheEntry) -> Result<(), StoreError> {
        let key = origin.to_string();
        let encoded = encode(entry)?;
        let version = Version::of(entry);
        let now = now_secs();
        let mut bytes = encoded.len() as u64;
        self.write(Durability::Immediate, |txn| {
            txn.open_table(ENTRIES)
                .map_err(err)?
                .insert(key.as_str(), encoded.as_slice())
                .map_err(err)?;
            txn.open_table(USED)
                .map_err(err)?
                .insert(key.as_str(), now)
                .map_err(err)?;
            let mut versions = txn.open_table(VERSIONS).map_err(err)?;
            let latest = versions
                .range((key.as_str(), 0)..=(key.as_str(), u64::MAX))
                .map_err(err)?
                .next_back()
                .transpose()
                .map_err(err)?
                .map(|(_, v)| decode::<Version>(v.value()))
                .transpose()?;
            if !latest.is_some_and(|l| l.same_as(&version)) {
                versions
                    .insert((key.as_str(), version.id), encode(&version)?.as_slice())
                    .map_err(err)?;
            }
            let oldest = oldest_kept(SystemTime::now());
            let mut expired = Vec::new();
            for row in versions
                .range((key.as_str(), 0)..=(key.as_str(), u64::MAX))
                .map_err(err)?
            {
                let (k, v) = row.map_err(err)?;
                let id = k.value().1;
                if id < oldest {
                    expired.push(id);
                } else {
                    bytes += v.value().len() as u64;
                }
            }
            for id in expired {
                versions.remove((key.as_str(), id)).map_err(err)?;
            }
            Ok(())
        })?;
        self.lock_index().set(
            origin,
            Usage {
                used: now,
                persisted: now,
                bytes,
            },
        );
        self.memory.put(origin, entry.clone());
        self.evict(origin)
    }

    /// Evicts least recently used origins (never `keep`) while over the
    /// byte bound.
    fn evict(&self, keep: &Origin) -> Result<(), StoreError> {
        loop {
            let victim = {
                let index = self.lock_index();
                if index.bytes <= self.max_bytes {
                    return Ok(());
                }
                match index.by_use.iter().find(|(_, o)| o != keep) {
                    Some((_, k)) => k.clone(),
                    None => return Ok(()),
                }
            };
            self.forget(&victim)?;
        }
    }

    fn forget(&self, origin: &Origin) -> Result<(), StoreError> {
        let key = origin.to_string();
        let key = key.as_str();
        self.write(Durability::Immediate, |txn| {
            txn.open_table(ENTRIES)
                .map_err(err)?
                .remove(key)
                .map_err(err)?;
            txn.open_table(USED)
                .map_err(err)?
                .remove(key)
                .map_err(err)?;
            let mut versions = txn.open_table(VERSIONS).map_err(err)?;
            let ids: Vec<u64> = versions
                .range((key, 0)..=(key, u64::MAX))
                .map_err(err)?
                .map(|row| row.map(|(k, _)| k.value().1))
                .collect::<Result<_, _>>()
                .map_err(err)?;
            for id in ids {
                versions.remove((key, id)).map_err(err)?;
            }
            Ok(())
        })?;
        self.lock_index().remove(origin);
        self.memory.remove(origin);
        Ok(())
    }

    /// The versions of the last 30 days, newest first.
    pub fn history(
        &self,
        origin: &Origin,
        now: SystemTime,
    ) -> Result<Vec<VersionSummary>, StoreError> {
        let key = origin.to_string();
        let txn = self.db.begin_read().map_err(err)?;
        let table = txn.open_table(VERSIONS).map_err(err)?;
        let oldest = oldest_kept(now);
        let mut out = Vec::new();
        for row in table
            .range((key.as_str(), oldest)..=(key.as_str(), u64::MAX))
            .map_err(err)?
        {
            let (_, value) = row.map_err(err)?;
            out.push(decode::<Version>(value.value())?.summary());
        }
        out.reverse();
        Ok(out)
    }

    /// One version.
    pub fn version(&self, origin: &Origin, id: u64) -> Result<Option<Version>, StoreError> {
        let key = origin.to_string();
        let txn = self.db.begin_read().map_err(err)?;
        let table = txn.open_table(VERSIONS).map_err(err)?;
        let value = table.get((key.as_str(), id)).map_err(err)?;
        value.map(|v| decode(v.value())).transpose()
    }

    /// The politeness schedule (in memory: a slot is never more than the
    /// horizon ahead, so a restart loses at most that).
    pub fn schedule(&self) -> &EmbeddedSchedule {
        &self.schedule
    }

    /// Whether `origin` may be refreshed now; counts it when it may.
    pub fn allow_refresh(&self, origin: &Origin, interval: Duration) -> bool {
        let now = Instant::now();
        let mut refreshes = self.refreshes.lock().unwrap_or_else(|e| e.into_inner());
        if refreshes.len() > 10_000 {
            refreshes.retain(|_, at| now.duration_since(*at) < interval);
        }
        match refreshes.get(origin) {
            Some(at) if now.duration_since(*at) < interval => false,
            _ => {
                refreshes.insert(origin.clone(), now);
                true
            }
        }
    }
}

impl CacheStore for EmbeddedStore {
    fn get(&self, origin: &Origin) -> Option<CacheEntry> {
        self.load(origin).ok().flatten()
    }

    fn put(&self, origin: &Origin, entry: CacheEntry) {
        // The trait cannot report failure; a lost write means a refetch.
        let _ = self.store(origin, &entry);
    }

    fn remove(&self, origin: &Origin) -> Option<CacheEntry> {
        let entry = self.load(origin).ok().flatten();
        self.forget(origin).ok()?;
        entry
    }

    fn len(&self) -> usize {
        self.lock_index().origins.len()
    }

    fn clear(&self) {
        let origins: Vec<Origin> = self.lock_index().origins.keys().cloned().collect();
        for origin in origins {
            let _ = self.forget(&origin);
        }
        self.memory.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse};

    fn entry(body: &str, at: SystemTime) -> CacheEntry {
        let result = FetchResult::Response(HttpResponse::new(200).with_body(body));
        FetchPolicy::default().apply(&result, None, at).1
    }

    fn origin(n: usize) -> Origin {
        Origin::from_url(&format!("https://host{n}.test/")).unwrap()
    }

    #[test]
    fn history_keeps_distinct_versions_newest_first() {
        let dir = tempfile::tempdir().unwrap();
        let store = EmbeddedStore::open(dir.path(), u64::MAX, 1 << 20).unwrap();
        let t0 = SystemTime::now() - Duration::from_secs(100);
        let o = origin(1);
        store
            .store(&o, &entry("User-agent: *\nDisallow: /a\n", t0))
            .unwrap();
        store
            .store(
                &o,
                &entry(
                    "User-agent: *\nDisallow: /a\n",
                    t0 + Duration::from_secs(10),
                ),
            )
            .unwrap();
        store
            .store(
                &o,
                &entry(
                    "User-agent: *\nDisallow: /b\n",
                    t0 + Duration::from_secs(20),
                ),
            )
            .unwrap();
        let history = store.history(&o, SystemTime::now()).unwrap();
        assert_eq!(history.len(), 2);
        assert!(history[0].id > history[1].id);
        let newest = store.version(&o, history[0].id).unwrap().unwrap();
        assert_eq!(
            newest.body.as_deref(),
            Some(&b"User-agent: *\nDisallow: /b\n"[..])
        );
        assert!(store.version(&o, 1).unwrap().is_none());
        // 31 days on, both are outside the window.
        let later = SystemTime::now() + Duration::from_secs(31 * 86_400);
        assert!(store.history(&o, later).unwrap().is_empty());
    }

    #[test]
    fn bounded_in_bytes_least_recently_used_first() {
        let dir = tempfile::tempdir().unwrap();
        let body = format!("User-agent: *\nDisallow: /{}\n", "x".repeat(5_000));
        let one = {
            let probe = EmbeddedStore::open(&dir.path().join("probe"), u64::MAX, 1 << 20).unwrap();
            probe
                .store(&origin(0), &entry(&body, SystemTime::now()))
                .unwrap();
            probe.bytes()
        };
        let store = EmbeddedStore::open(&dir.path().join("real"), one * 3, 1 << 20).unwrap();
        for n in 0..3 {
            store
                .store(&origin(n), &entry(&body, SystemTime::now()))
                .unwrap();
        }
        assert_eq!(CacheStore::len(&store), 3);
        // Make origin 0 the most recently used, then add a fourth.
        store.lock_index().set(
            &origin(0),
            Usage {
                used: now_secs() + 10,
                persisted: 0,
                bytes: one,
            },
        );
        store
            .store(&origin(3), &entry(&body, SystemTime::now()))
            .unwrap();
        assert!(store.bytes() <= one * 3);
        assert!(store.load(&origin(0)).unwrap().is_some());
        assert!(store.load(&origin(3)).unwrap().is_some());
        let evicted = (1..3)
            .filter(|&n| store.load(&origin(n)).unwrap().is_none())
            .count();
        assert_eq!(evicted, 1);
        assert!(
            store.history(&origin(1), SystemTime::now()).unwrap().len()
                + store.history(&origin(2), SystemTime::now()).unwrap().len()
                == 1
        );
    }

    #[test]
    fn refresh_is_rate_limited_per_origin() {
        let dir = tempfile::tempdir().unwrap();
        let store = EmbeddedStore::open(dir.path(), u64::MAX, 1 << 20).unwrap();
        let interval = Duration::from_secs(60);
        assert!(store.allow_refresh(&origin(1), interval));
        assert!(!store.allow_refresh(&origin(1), interval));
        assert!(store.allow_refresh(&origin(2), interval));
        assert!(store.allow_refresh(&origin(1), Duration::ZERO));
    }
}
