//! What every handler shares.

use std::sync::Arc;
use std::time::{Duration, Instant};

use std::net::IpAddr;

use crate::allowance::{ClientFetches, FetchAllowance};
use crate::budget::Budget;
use crate::config::Limits;
use crate::metrics::Metrics;
use crate::service::RobotsService;

/// The state given to every route.
#[derive(Clone, Debug)]
pub struct AppState {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    service: RobotsService,
    limits: Limits,
    metrics: Arc<Metrics>,
    budget: Budget,
    clients: ClientFetches,
    verifier: Arc<crawlgate_audit::identity::Verifier>,
}

impl AppState {
    /// State around a service, with the verifier of crawler identities
    /// (its feeds and DNS answers cached for every request).
    pub fn new(
        service: RobotsService,
        limits: Limits,
        metrics: Arc<Metrics>,
        verifier: Arc<crawlgate_audit::identity::Verifier>,
    ) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                service,
                budget: Budget::new(&limits),
                clients: ClientFetches::new(limits.max_fetches_per_client),
                limits,
                metrics,
                verifier,
            }),
        }
    }

    /// The verifier of crawler identities (`POST /v1/verify`).
    pub fn verifier(&self) -> &crawlgate_audit::identity::Verifier {
        &self.inner.verifier
    }

    /// The robots.txt service.
    pub fn service(&self) -> &RobotsService {
        &self.inner.service
    }

    /// Request bounds.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// Metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// Request slots, the memory budget and the worker threads.
    pub fn budget(&self) -> &Budget {
        &self.inner.budget
    }

    /// The fetch allowance of one request from `client`.
    pub fn allowance(&self, client: Option<IpAddr>) -> FetchAllowance<'_> {
        FetchAllowance::new(
            self.inner.limits.max_fetches_per_request,
            client,
            &self.inner.clients,
        )
    }

    /// Waits, for at most `limit`, until this is the last handle on the
    /// state. The tasks of closed connections let go of their handles a
    /// moment after the server stops; what the state holds (the embedded
    /// store's file lock) is released only when the last one is dropped, and
    /// a server started next on the same data directory needs that lock.
    pub(crate) async fn wait_until_sole_handle(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while Arc::strong_count(&self.inner) > 1 {
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        true
    }
}
