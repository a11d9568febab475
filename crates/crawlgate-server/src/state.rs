//! What every handler shares.

use std::sync::Arc;

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
}

impl AppState {
    /// State around a service.
    pub fn new(service: RobotsService, limits: Limits, metrics: Arc<Metrics>) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                service,
                limits,
                metrics,
            }),
        }
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
}
