//! What all requests share and must not exhaust: request slots, memory (a
//! semaphore counted in KiB, split between bodies being received and heavy
//! work) and the threads that do the heavy work.
//!
//! A heavy request (linting, checking, a batch) says how much memory its
//! work will take at most ([`estimate`]), waits until the budget has that
//! much free and a worker thread is idle, and runs on that thread, never on
//! the async workers that answer `/healthz` and `/v1/allowed`. Waiting is
//! bounded by the queue timeout; then the answer is 503 with `Retry-After`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::Limits;
use crate::error::ApiError;

/// The unit of the memory semaphores.
const KIB: usize = 1024;

/// Shared capacity: request slots, memory for bodies and for work, and
/// worker threads.
#[derive(Debug)]
pub struct Budget {
    slots: Arc<Semaphore>,
    bodies: Pool,
    work: Pool,
    workers: Arc<Semaphore>,
    queue_timeout: Duration,
}

/// One memory pool, in KiB, with what it holds now and at most so far.
#[derive(Debug)]
struct Pool {
    name: &'static str,
    permits: Arc<Semaphore>,
    total_kib: usize,
    held_kib: Arc<AtomicUsize>,
    peak_kib: Arc<AtomicUsize>,
}

impl Pool {
    fn new(name: &'static str, bytes: usize) -> Pool {
        let total_kib = (bytes / KIB).clamp(1, Semaphore::MAX_PERMITS);
        Pool {
            name,
            permits: Arc::new(Semaphore::new(total_kib)),
            total_kib,
            held_kib: Arc::new(AtomicUsize::new(0)),
            peak_kib: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Takes `kib` (at most the whole pool, so that one request larger than
    /// the pool runs alone rather than never).
    async fn take(&self, kib: usize) -> MemoryHold {
        let kib = kib.clamp(1, self.total_kib);
        let permit = self
            .permits
            .clone()
            .acquire_many_owned(u32::try_from(kib).unwrap_or(u32::MAX))
            .await
            .expect("the budget's semaphores are never closed");
        self.hold(permit, kib)
    }

    fn hold(&self, permit: OwnedSemaphorePermit, kib: usize) -> MemoryHold {
        let now = self.held_kib.fetch_add(kib, Ordering::Relaxed) + kib;
        self.peak_kib.fetch_max(now, Ordering::Relaxed);
        MemoryHold {
            permits: vec![permit],
            kib,
            held_kib: self.held_kib.clone(),
        }
    }
}

/// Memory taken from a pool, given back when dropped.
#[derive(Debug)]
pub struct MemoryHold {
    permits: Vec<OwnedSemaphorePermit>,
    kib: usize,
    held_kib: Arc<AtomicUsize>,
}

impl Drop for MemoryHold {
    fn drop(&mut self) {
        self.held_kib.fetch_sub(self.kib, Ordering::Relaxed);
        self.permits.clear();
    }
}

/// What a pool holds, for metrics and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolUse {
    /// Bytes the pool may hand out.
    pub total_bytes: usize,
    /// Bytes held now.
    pub held_bytes: usize,
    /// The most bytes held at once since the server started.
    pub peak_bytes: usize,
}

impl Budget {
    /// The capacity `limits` describe: a quarter of the memory budget for
    /// bodies being received, the rest for heavy work.
    pub fn new(limits: &Limits) -> Budget {
        let bodies = limits.memory_budget / 4;
        Budget {
            slots: Arc::new(Semaphore::new(
                limits
                    .max_concurrent_requests
                    .clamp(1, Semaphore::MAX_PERMITS),
            )),
            bodies: Pool::new("bodies", bodies),
            work: Pool::new("work", limits.memory_budget - bodies),
            workers: Arc::new(Semaphore::new(limits.cpu_workers.max(1))),
            queue_timeout: limits.queue_timeout,
        }
    }

    fn busy(&self, what: &str) -> ApiError {
        ApiError::busy(
            format!(
                "the server is busy: no {what} within {} (--queue-timeout); ask again",
                humantime::format_duration(self.queue_timeout)
            ),
            self.queue_timeout.as_secs().max(1),
        )
    }

    /// A request slot, waited for at most the queue timeout.
    pub async fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        tokio::time::timeout(self.queue_timeout, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| self.busy("request slot"))
            .map(|permit| permit.expect("the slots semaphore is never closed"))
    }

    /// Memory for a body as it arrives.
    pub fn body(&self) -> BodyHold<'_> {
        BodyHold {
            budget: self,
            holds: Vec::new(),
            kib: 0,
        }
    }

    /// Runs `work` on a worker thread once `estimate` bytes of the work
    /// budget and a worker are free (503 when they are not within the queue
    /// timeout).
    pub async fn run_heavy<T: Send + 'static>(
        &self,
        estimate: usize,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let memory =
            tokio::time::timeout(self.queue_timeout, self.work.take(estimate.div_ceil(KIB)))
                .await
                .map_err(|_| self.busy("memory"))?;
        let worker = tokio::time::timeout(self.queue_timeout, self.workers.clone().acquire_owned())
            .await
            .map_err(|_| self.busy("worker thread"))?
            .expect("the workers semaphore is never closed");
        let result = tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::unavailable(format!("the work failed: {e}")));
        drop(worker);
        drop(memory);
        result
    }

    /// What the work pool holds.
    pub fn work_use(&self) -> PoolUse {
        use_of(&self.work)
    }

    /// What the body pool holds.
    pub fn body_use(&self) -> PoolUse {
        use_of(&self.bodies)
    }

    /// `(pool name, use)` of both pools.
    pub fn pools(&self) -> [(&'static str, PoolUse); 2] {
        [
            (self.bodies.name, use_of(&self.bodies)),
            (self.work.name, use_of(&self.work)),
        ]
    }
}

fn use_of(pool: &Pool) -> PoolUse {
    PoolUse {
        total_bytes: pool.total_kib * KIB,
        held_bytes: pool.held_kib.load(Ordering::Relaxed) * KIB,
        peak_bytes: pool.peak_kib.load(Ordering::Relaxed) * KIB,
    }
}

/// The body pool's memory held for one body, grown as it arrives.
#[derive(Debug)]
pub struct BodyHold<'a> {
    budget: &'a Budget,
    holds: Vec<MemoryHold>,
    kib: usize,
}

impl BodyHold<'_> {
    /// Holds at least `bytes` in all (waits while the pool is full).
    pub async fn grow_to(&mut self, bytes: usize) {
        let want = bytes.div_ceil(KIB);
        if want > self.kib {
            // Grown by at least half again, so a body of many small chunks
            // takes few permits.
            let more = (want - self.kib).max(self.kib / 2);
            self.holds.push(self.budget.bodies.take(more).await);
            self.kib += more;
        }
    }

    /// Keeps the memory until the returned guard is dropped.
    pub fn keep(self) -> Vec<MemoryHold> {
        self.holds
    }
}

/// At most how many bytes a piece of heavy work holds at once, from the
/// sizes of its input.
pub mod estimate {
    /// Linting `body_bytes` bytes: the parse, the linter's tables and the
    /// JSON of its findings. One lint of a 1.3 MB request was measured at a
    /// 78 MB peak (issue #26), 60 bytes per byte; 64 bytes a byte, plus
    /// 1 MiB.
    pub fn lint(body_bytes: usize) -> usize {
        (1 << 20) + body_bytes.saturating_mul(64)
    }

    /// Checking `urls` (of `url_bytes` bytes in all) against a file of
    /// `body_bytes` bytes under `profiles` profiles: one model per profile,
    /// each URL's verdicts and their JSON.
    pub fn check(body_bytes: usize, urls: usize, url_bytes: usize, profiles: usize) -> usize {
        let per_profile = body_bytes
            .saturating_mul(16)
            .saturating_add(url_bytes.saturating_mul(4))
            .saturating_add(urls.saturating_mul(1024));
        (1 << 20) + per_profile.saturating_mul(profiles.max(1) + 1)
    }

    /// Writing a policy into a file of `body_bytes` bytes: three lints
    /// (the file before, the merged file, a check for pages that are no
    /// robots.txt), the registry's verdicts and the diff.
    pub fn policy(body_bytes: usize) -> usize {
        (4 << 20) + lint(body_bytes).saturating_mul(3)
    }

    /// A batch of `pairs` pairs (of `text_bytes` bytes of URLs and agents).
    pub fn batch(pairs: usize, text_bytes: usize) -> usize {
        (256 << 10) + pairs.saturating_mul(1024) + text_bytes.saturating_mul(4)
    }
}
