//! Single-flight: concurrent requests for the same key share one run of the
//! work, so a hundred checks on one origin cause one robots.txt fetch.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use tokio::sync::OnceCell;

/// Runs at most one piece of work per key at a time; callers arriving while
/// it runs wait for it and get a clone of its result.
///
/// If the caller running the work is cancelled, a waiting caller takes
/// over. The key is forgotten when the work finishes (or when every caller
/// has gone), so the map holds only keys in flight.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use crawlgate_fetch::SingleFlight;
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let flight = SingleFlight::<&str, usize>::new();
/// let runs = AtomicUsize::new(0);
/// let work = || async {
///     runs.fetch_add(1, Ordering::SeqCst);
///     tokio::time::sleep(std::time::Duration::from_millis(10)).await;
///     42
/// };
/// let (a, b) = tokio::join!(flight.run("key", work), flight.run("key", work));
/// assert_eq!((a, b), (42, 42));
/// assert_eq!(runs.load(Ordering::SeqCst), 1);
/// assert_eq!(flight.in_flight(), 0);
/// # });
/// ```
pub struct SingleFlight<K, V> {
    calls: Mutex<HashMap<K, Arc<OnceCell<V>>>>,
}

impl<K, V> Default for SingleFlight<K, V> {
    fn default() -> Self {
        SingleFlight {
            calls: Mutex::new(HashMap::new()),
        }
    }
}

impl<K, V> fmt::Debug for SingleFlight<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SingleFlight")
            .field("in_flight", &self.lock().len())
            .finish()
    }
}

impl<K, V> SingleFlight<K, V> {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Arc<OnceCell<V>>>> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many keys have work in flight.
    pub fn in_flight(&self) -> usize {
        self.lock().len()
    }
}

impl<K: Eq + Hash + Clone, V: Clone> SingleFlight<K, V> {
    /// An empty set of flights.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `work` for `key`, or joins the run already in flight.
    pub async fn run<F, Fut>(&self, key: K, work: F) -> V
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = V>,
    {
        let cell = {
            let mut calls = self.lock();
            calls.entry(key.clone()).or_default().clone()
        };
        let leave = Leave {
            flight: self,
            key,
            cell,
        };
        leave.cell.get_or_init(work).await.clone()
    }
}

/// Forgets the key when the work is done, or when the last caller leaves
/// without finishing it (cancelled), so the map never keeps dead keys.
struct Leave<'a, K: Eq + Hash, V> {
    flight: &'a SingleFlight<K, V>,
    key: K,
    cell: Arc<OnceCell<V>>,
}

impl<K: Eq + Hash, V> Drop for Leave<'_, K, V> {
    fn drop(&mut self) {
        let mut calls = self.flight.lock();
        if let Some(current) = calls.get(&self.key) {
            // Clones of the cell are only made under this lock, so the count
            // is exact: 2 means the map and this caller.
            if Arc::ptr_eq(current, &self.cell)
                && (self.cell.initialized() || Arc::strong_count(&self.cell) <= 2)
            {
                calls.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_time()
            .build()
            .unwrap()
    }

    #[test]
    fn concurrent_callers_share_one_run() {
        runtime().block_on(async {
            let flight = Arc::new(SingleFlight::<u32, u32>::new());
            let runs = Arc::new(AtomicUsize::new(0));
            let mut tasks = Vec::new();
            for _ in 0..100 {
                let (flight, runs) = (flight.clone(), runs.clone());
                tasks.push(tokio::spawn(async move {
                    flight
                        .run(7, || async {
                            runs.fetch_add(1, Ordering::SeqCst);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            7
                        })
                        .await
                }));
            }
            for task in tasks {
                assert_eq!(task.await.unwrap(), 7);
            }
            assert_eq!(runs.load(Ordering::SeqCst), 1);
            assert_eq!(flight.in_flight(), 0);
        });
    }

    #[test]
    fn different_keys_run_separately_and_later_calls_run_again() {
        runtime().block_on(async {
            let flight = SingleFlight::<u32, u32>::new();
            let runs = AtomicUsize::new(0);
            let work = |v| {
                let runs = &runs;
                move || async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    v
                }
            };
            let (a, b) = tokio::join!(flight.run(1, work(1)), flight.run(2, work(2)));
            assert_eq!((a, b), (1, 2));
            assert_eq!(flight.run(1, work(10)).await, 10);
            assert_eq!(runs.load(Ordering::SeqCst), 3);
        });
    }

    #[test]
    fn a_cancelled_leader_hands_over_and_leaves_no_key() {
        runtime().block_on(async {
            let flight = Arc::new(SingleFlight::<u32, u32>::new());
            let leader = {
                let flight = flight.clone();
                tokio::spawn(async move {
                    flight
                        .run(1, || async {
                            tokio::time::sleep(Duration::from_secs(60)).await;
                            1
                        })
                        .await
                })
            };
            tokio::time::sleep(Duration::from_millis(20)).await;
            assert_eq!(flight.in_flight(), 1);
            let follower = {
                let flight = flight.clone();
                tokio::spawn(async move { flight.run(1, || async { 2 }).await })
            };
            tokio::time::sleep(Duration::from_millis(20)).await;
            leader.abort();
            assert_eq!(follower.await.unwrap(), 2);
            assert_eq!(flight.in_flight(), 0);

            // A lone caller cancelled mid-run leaves nothing behind.
            let lone = {
                let flight = flight.clone();
                tokio::spawn(async move {
                    flight
                        .run(3, || async {
                            tokio::time::sleep(Duration::from_secs(60)).await;
                            3
                        })
                        .await
                })
            };
            tokio::time::sleep(Duration::from_millis(20)).await;
            lone.abort();
            let _ = lone.await;
            assert_eq!(flight.in_flight(), 0);
        });
    }
}
