//! Where cache entries live: a storage trait (so a server can plug in an
//! embedded store or Redis: [`CacheEntry`] is `Serialize + Deserialize`)
//! and a bounded in-memory store.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Mutex;

use crawlgate_answers::{CacheEntry, Origin};

/// Storage for cache entries, keyed by origin. Expiry is the policy's
/// business: a store returns whatever it holds, stale or not.
pub trait CacheStore: Send + Sync {
    /// The entry for `origin`, if held.
    fn get(&self, origin: &Origin) -> Option<CacheEntry>;
    /// Stores (or replaces) the entry for `origin`.
    fn put(&self, origin: &Origin, entry: CacheEntry);
    /// Forgets `origin`.
    fn remove(&self, origin: &Origin) -> Option<CacheEntry>;
    /// How many entries are held.
    fn len(&self) -> usize;
    /// Whether no entry is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Forgets everything.
    fn clear(&self);
}

/// An in-memory, least-recently-used cache bounded by entry count and by
/// bytes held (each entry's [`CacheEntry::heap_size`]).
///
/// ```
/// use std::time::SystemTime;
/// use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse, Origin};
/// use crawlgate_fetch::{CacheStore, MemoryCache};
///
/// let cache = MemoryCache::new(2, 1 << 20);
/// let (_, entry) = FetchPolicy::default().apply(&FetchResult::Response(HttpResponse::new(404)), None, SystemTime::now());
/// for host in ["a.test", "b.test", "c.test"] {
///     cache.put(&Origin::from_url(&format!("http://{host}/")).unwrap(), entry.clone());
/// }
/// assert_eq!(cache.len(), 2); // a.test, the least recently used, was evicted
/// assert!(cache.get(&Origin::from_url("http://a.test/").unwrap()).is_none());
/// ```
pub struct MemoryCache {
    max_entries: usize,
    max_bytes: usize,
    inner: Mutex<Lru>,
}

#[derive(Default)]
struct Lru {
    entries: HashMap<Origin, Slot>,
    /// Use tick → origin, oldest first.
    order: BTreeMap<u64, Origin>,
    tick: u64,
    bytes: usize,
}

struct Slot {
    entry: CacheEntry,
    tick: u64,
    bytes: usize,
}

impl MemoryCache {
    /// A cache holding at most `max_entries` entries and about `max_bytes`
    /// bytes (the newest entry is kept even if it alone is larger). A
    /// `max_entries` of 0 is taken as 1.
    pub fn new(max_entries: usize, max_bytes: usize) -> MemoryCache {
        MemoryCache {
            max_entries: max_entries.max(1),
            max_bytes,
            inner: Mutex::new(Lru::default()),
        }
    }

    /// Bytes held, as estimated.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lru> {
        // A panic elsewhere while holding the lock leaves consistent data:
        // every mutation below completes before it can panic.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for MemoryCache {
    /// 10,000 entries, 256 MiB.
    fn default() -> Self {
        MemoryCache::new(10_000, 256 << 20)
    }
}

impl fmt::Debug for MemoryCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lru = self.lock();
        f.debug_struct("MemoryCache")
            .field("entries", &lru.entries.len())
            .field("bytes", &lru.bytes)
            .field("max_entries", &self.max_entries)
            .field("max_bytes", &self.max_bytes)
            .finish()
    }
}

impl Lru {
    fn next_tick(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    fn take(&mut self, origin: &Origin) -> Option<Slot> {
        let slot = self.entries.remove(origin)?;
        self.order.remove(&slot.tick);
        self.bytes -= slot.bytes;
        Some(slot)
    }
}

impl CacheStore for MemoryCache {
    fn get(&self, origin: &Origin) -> Option<CacheEntry> {
        let mut lru = self.lock();
        let tick = lru.next_tick();
        let slot = lru.entries.get_mut(origin)?;
        let old = std::mem::replace(&mut slot.tick, tick);
        let entry = slot.entry.clone();
        lru.order.remove(&old);
        lru.order.insert(tick, origin.clone());
        Some(entry)
    }

    fn put(&self, origin: &Origin, entry: CacheEntry) {
        let mut lru = self.lock();
        lru.take(origin);
        let tick = lru.next_tick();
        let bytes = entry.heap_size();
        lru.entries
            .insert(origin.clone(), Slot { entry, tick, bytes });
        lru.order.insert(tick, origin.clone());
        lru.bytes += bytes;
        while lru.entries.len() > self.max_entries
            || (lru.bytes > self.max_bytes && lru.entries.len() > 1)
        {
            let Some((_, oldest)) = lru.order.pop_first() else {
                break;
            };
            if let Some(slot) = lru.entries.remove(&oldest) {
                lru.bytes -= slot.bytes;
            }
        }
    }

    fn remove(&self, origin: &Origin) -> Option<CacheEntry> {
        self.lock().take(origin).map(|slot| slot.entry)
    }

    fn len(&self) -> usize {
        self.lock().entries.len()
    }

    fn clear(&self) {
        *self.lock() = Lru::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse};
    use std::time::SystemTime;

    fn origin(n: usize) -> Origin {
        Origin::from_url(&format!("http://host{n}.test/")).unwrap()
    }

    fn entry(body_len: usize) -> CacheEntry {
        let body = format!("User-agent: *\nDisallow: /{}\n", "x".repeat(body_len));
        let result = FetchResult::Response(HttpResponse::new(200).with_body(body));
        FetchPolicy::default()
            .apply(&result, None, SystemTime::UNIX_EPOCH)
            .1
    }

    #[test]
    fn bounded_by_entry_count_lru_first() {
        let cache = MemoryCache::new(3, usize::MAX);
        for n in 0..3 {
            cache.put(&origin(n), entry(10));
        }
        // Touch 0 so 1 becomes the least recently used.
        assert!(cache.get(&origin(0)).is_some());
        cache.put(&origin(3), entry(10));
        assert_eq!(cache.len(), 3);
        assert!(cache.get(&origin(1)).is_none());
        assert!(cache.get(&origin(0)).is_some());
        assert!(cache.get(&origin(3)).is_some());
        for n in 4..1000 {
            cache.put(&origin(n), entry(10));
        }
        assert_eq!(cache.len(), 3);
        let lru = cache.lock();
        assert_eq!(lru.order.len(), 3);
        assert_eq!(
            lru.bytes,
            lru.entries.values().map(|s| s.bytes).sum::<usize>()
        );
    }

    #[test]
    fn bounded_by_bytes() {
        let one = entry(10_000).heap_size();
        let cache = MemoryCache::new(1000, one * 5 / 2);
        for n in 0..10 {
            cache.put(&origin(n), entry(10_000));
            assert!(cache.bytes() <= one * 5 / 2);
        }
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&origin(9)).is_some());
        assert!(cache.get(&origin(8)).is_some());
        // An entry larger than the budget is still kept, alone.
        cache.put(&origin(100), entry(100_000));
        assert_eq!(cache.len(), 1);
        assert!(cache.get(&origin(100)).is_some());
    }

    #[test]
    fn replace_remove_clear() {
        let cache = MemoryCache::new(10, usize::MAX);
        cache.put(&origin(1), entry(10));
        let before = cache.bytes();
        cache.put(&origin(1), entry(10));
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.bytes(), before);
        assert!(cache.remove(&origin(1)).is_some());
        assert!(cache.remove(&origin(1)).is_none());
        assert!(cache.is_empty());
        assert_eq!(cache.bytes(), 0);
        cache.put(&origin(2), entry(10));
        cache.clear();
        assert!(cache.is_empty());
        assert_eq!(MemoryCache::new(0, 0).max_entries, 1);
    }
}
