//! Prometheus metrics: requests by route and status, latency histograms,
//! cache hits and misses, fetches by outcome, single-flight joins.

use std::time::Duration;

use crawlgate_answers::OutcomeReason;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteStatus {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Route {
    route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Pool {
    pool: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FetchOutcome {
    outcome: String,
}

fn latency_histogram() -> Histogram {
    // 50 µs to about 1.6 s.
    Histogram::new(exponential_buckets(0.000_05, 2.0, 16))
}

/// The server's metrics and their registry.
pub struct Metrics {
    registry: Registry,
    requests: Family<RouteStatus, Counter>,
    latency: Family<Route, Histogram, fn() -> Histogram>,
    cache_hits: Counter,
    cache_misses: Counter,
    fetches: Family<FetchOutcome, Counter>,
    flight_joins: Counter,
    lock_waits: Counter,
    decisions: Counter,
    not_fetched: Counter,
    memory_held: Family<Pool, Gauge>,
    memory_peak: Family<Pool, Gauge>,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").finish_non_exhaustive()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("crawlgate");
        let requests = Family::<RouteStatus, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by route and status",
            requests.clone(),
        );
        let latency =
            Family::<Route, Histogram, fn() -> Histogram>::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer a request, by route",
            latency.clone(),
        );
        let cache_hits = Counter::default();
        registry.register(
            "cache_hits",
            "Lookups answered from a fresh cached robots.txt",
            cache_hits.clone(),
        );
        let cache_misses = Counter::default();
        registry.register(
            "cache_misses",
            "Lookups with no fresh cached robots.txt",
            cache_misses.clone(),
        );
        let fetches = Family::<FetchOutcome, Counter>::default();
        registry.register("fetches", "robots.txt fetches by outcome", fetches.clone());
        let flight_joins = Counter::default();
        registry.register(
            "single_flight_joins",
            "Lookups that joined a fetch already in flight in this instance",
            flight_joins.clone(),
        );
        let lock_waits = Counter::default();
        registry.register(
            "fetch_lock_waits",
            "Waits for another instance's fetch of the same origin",
            lock_waits.clone(),
        );
        let decisions = Counter::default();
        registry.register(
            "decisions",
            "Allow/disallow decisions made",
            decisions.clone(),
        );
        let not_fetched = Counter::default();
        registry.register(
            "not_fetched",
            "Lookups not fetched because the request or its client reached its fetch allowance",
            not_fetched.clone(),
        );
        let memory_held = Family::<Pool, Gauge>::default();
        registry.register(
            "memory_budget_held_bytes",
            "Bytes of the memory budget held now, by pool (bodies, work)",
            memory_held.clone(),
        );
        let memory_peak = Family::<Pool, Gauge>::default();
        registry.register(
            "memory_budget_peak_bytes",
            "The most bytes of the memory budget held at once, by pool",
            memory_peak.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            cache_hits,
            cache_misses,
            fetches,
            flight_joins,
            lock_waits,
            decisions,
            not_fetched,
            memory_held,
            memory_peak,
        }
    }
}

impl Metrics {
    /// Counts a request and its latency.
    pub fn request(&self, route: &str, status: u16, elapsed: Duration) {
        self.requests
            .get_or_create(&RouteStatus {
                route: route.to_owned(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&Route {
                route: route.to_owned(),
            })
            .observe(elapsed.as_secs_f64());
    }

    /// A lookup answered from the cache.
    pub fn cache_hit(&self) {
        self.cache_hits.inc();
    }

    /// A lookup the cache could not answer.
    pub fn cache_miss(&self) {
        self.cache_misses.inc();
    }

    /// A fetch and the row of the fetch rules it fell in.
    pub fn fetched(&self, reason: OutcomeReason) {
        let outcome = serde_json::to_value(reason)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| "unknown".to_owned());
        self.fetches.get_or_create(&FetchOutcome { outcome }).inc();
    }

    /// A lookup that joined one in flight.
    pub fn flight_join(&self) {
        self.flight_joins.inc();
    }

    /// A wait for another instance's fetch.
    pub fn lock_wait(&self) {
        self.lock_waits.inc();
    }

    /// A lookup not fetched: over an allowance.
    pub fn not_fetched(&self) {
        self.not_fetched.inc();
    }

    /// What a pool of the memory budget holds.
    pub fn memory(&self, pool: &str, held: usize, peak: usize) {
        let label = Pool {
            pool: pool.to_owned(),
        };
        let gauge = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.memory_held.get_or_create(&label).set(gauge(held));
        self.memory_peak.get_or_create(&label).set(gauge(peak));
    }

    /// `n` decisions made.
    pub fn decided(&self, n: u64) {
        self.decisions.inc_by(n);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}
