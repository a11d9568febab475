//! # crawlgate-server
//!
//! One HTTP service for two audiences:
//!
//! * a crawler fleet asks it before every fetch, `GET
//!   /v1/allowed?url=…&agent=…`: may this crawler fetch this URL, and
//!   when? All workers share one robots.txt cache and one politeness
//!   schedule per origin (through Redis across instances);
//! * a webmaster opens `/` to test a robots.txt before deploying it: edit
//!   in place, test URLs, see the deciding line and the linter's findings.
//!
//! Everything about robots.txt comes from the other crates: verdicts from
//! `crawlgate`, fetching (policy, SSRF protection, single-flight,
//! politeness) from `crawlgate-fetch`, diagnostics from the linter. This
//! crate adds the routes, the stores and the page.
//!
//! ```no_run
//! use crawlgate_server::{Server, ServerConfig};
//!
//! # #[tokio::main] async fn main() -> Result<(), crawlgate_server::ServerError> {
//! let mut config = ServerConfig::default();
//! config.bind = "127.0.0.1:0".parse().unwrap(); // any free port
//! let server = Server::bind(config).await?;
//! println!("listening on http://{}", server.local_addr());
//! server.run().await // until Ctrl-C or SIGTERM
//! # }
//! ```
//!
//! The router can also be driven without a socket, request by request:
//!
//! ```
//! use axum::body::Body;
//! use axum::http::Request;
//! use http_body_util::BodyExt;
//! use tower::ServiceExt;
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! let dir = tempfile::tempdir().unwrap();
//! let mut config = crawlgate_server::ServerConfig::default();
//! config.data_dir = dir.path().to_path_buf();
//! let app = crawlgate_server::app(crawlgate_server::state(&config).await.unwrap());
//!
//! let question = r#"{"robots_txt": "User-agent: *\nDisallow: /private\n", "agent": "mybot", "urls": ["/private/x", "/"]}"#;
//! let request = Request::post("/v1/check")
//!     .header("content-type", "application/json")
//!     .body(Body::from(question))
//!     .unwrap();
//! let response = app.oneshot(request).await.unwrap();
//! assert_eq!(response.status(), 200);
//! let body = response.into_body().collect().await.unwrap().to_bytes();
//! let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
//! assert_eq!(answer["results"][0]["allowed"], false);
//! assert_eq!(answer["results"][0]["rule"]["text"], "Disallow: /private");
//! assert_eq!(answer["results"][1]["basis"], "no_matching_rule");
//! # }
//! ```
//!
//! ## Routes
//!
//! | route | what |
//! |---|---|
//! | `GET /v1/allowed?url&agent&reserve` | the sidecar call: verdict, deciding line, fetch facts, crawl-delay, next permitted time (a slot reserved with `reserve=true`) |
//! | `POST /v1/allowed` | up to 1,000 `{url, agent}` pairs |
//! | `POST /v1/check` | `{robots_txt \| robots_txt_b64 \| url, agent, urls, profile?, all_profiles?}`: a verdict per URL |
//! | `POST /v1/lint` | `{robots_txt \| robots_txt_b64 \| url}`: `crawlgate lint --format json` |
//! | `GET /v1/robots?origin` | what is cached, and the versions of the last 30 days |
//! | `GET /v1/robots/version?origin&id` | one past version |
//! | `POST /v1/refresh?origin` | refetch now (rate limited per origin) |
//! | `DELETE /v1/schedule?origin` | forget the origin's politeness reservations |
//! | `GET /healthz`, `GET /metrics` | liveness, Prometheus metrics |
//! | `GET /openapi.json` | the OpenAPI 3.1 description |
//! | `GET /` | the robots.txt tester |

#![deny(missing_docs)]

mod admission;
mod allowance;
mod budget;
mod config;
mod connection;
mod error;
mod input;
mod metrics;
mod reading;
mod routes;
mod service;
mod state;
mod store;
mod verdict;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;

pub use allowance::ClientAddr;
pub use budget::{Budget, PoolUse};
pub use config::{
    default_cpu_workers, default_data_dir, CacheBackend, ConfigError, Limits, Network,
    PrivateTargets, ServeArgs, ServerConfig,
};
pub use error::ApiError;
pub use routes::app;
pub use routes::openapi::{described, ApiDoc};
pub use state::AppState;
pub use store::{
    plan_slot, EmbeddedStore, RedisStore, Slot, Store, StoreError, Version, VersionSummary,
};

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// The cache backend could not be opened.
    #[error("cache backend: {0}")]
    Store(#[from] StoreError),
    /// The HTTP client could not be built.
    #[error(transparent)]
    Fetch(#[from] crawlgate_fetch::FetchError),
    /// The verifier of crawler identities could not start (the system's
    /// DNS settings could not be read).
    #[error("crawler verification: {0}")]
    Verifier(String),
    /// Binding or serving failed.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The error.
        source: std::io::Error,
    },
}

/// A bound server, ready to run.
pub struct Server {
    listener: TcpListener,
    router: Router,
    state: AppState,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("local_addr", &self.listener.local_addr().ok())
            .field("state", &self.state)
            .finish()
    }
}

impl Server {
    /// Opens the cache backend and binds the address.
    pub async fn bind(config: ServerConfig) -> Result<Server, ServerError> {
        let state = state(&config).await?;
        let listener = TcpListener::bind(config.bind)
            .await
            .map_err(|source| ServerError::Io {
                context: format!("cannot listen on {}", config.bind),
                source,
            })?;
        Ok(Server {
            listener,
            router: app(state.clone()),
            state,
        })
    }

    /// The address bound (with the port chosen when `:0` was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)))
    }

    /// The shared state.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until Ctrl-C or SIGTERM, then finishes the requests in
    /// flight.
    pub async fn run(self) -> Result<(), ServerError> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `shutdown` completes.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServerError> {
        let limits = self.state.limits().clone();
        let served = connection::serve(self.listener, self.router, &limits, shutdown)
            .await
            .map_err(|source| ServerError::Io {
                context: "serving".to_owned(),
                source,
            });
        // Returns only once the store is closed, so that a server started
        // next on the same data directory can open it.
        self.state
            .wait_until_sole_handle(Duration::from_secs(10))
            .await;
        served
    }
}

/// The state for `config`: its store opened, its service built.
pub async fn state(config: &ServerConfig) -> Result<AppState, ServerError> {
    let metrics = Arc::new(metrics::Metrics::default());
    let store = match &config.cache {
        CacheBackend::Embedded { max_bytes } => Store::Embedded(Arc::new(EmbeddedStore::open(
            &config.data_dir,
            *max_bytes,
            config.memory_bytes,
        )?)),
        CacheBackend::Redis { url, prefix } => Store::Redis(
            RedisStore::connect(
                url,
                prefix,
                config.memory_bytes,
                config.policy.unreachable_limit,
            )
            .await?,
        ),
    };
    let service = service::RobotsService::new(config, store, metrics.clone())?;
    let verifier = crawlgate_audit::identity::Verifier::new(config.verify.clone())
        .map_err(ServerError::Verifier)?;
    Ok(AppState::new(
        service,
        config.limits.clone(),
        metrics,
        Arc::new(verifier),
    ))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        // Without a handler there is nothing to wait for but SIGTERM.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}

/// Binds, says where on standard error, and serves until Ctrl-C or
/// SIGTERM: what `crawlgate serve` runs.
pub async fn run(config: ServerConfig) -> Result<(), ServerError> {
    let cache = match &config.cache {
        CacheBackend::Embedded { .. } => format!("embedded store in {}", config.data_dir.display()),
        CacheBackend::Redis { url, .. } => format!("redis at {}", redacted(url)),
    };
    let server = Server::bind(config).await?;
    eprintln!(
        "crawlgate: serving on http://{} (tester at /, API at /v1, description at /openapi.json); cache: {cache}",
        server.local_addr()
    );
    server.run().await
}

/// [`run`] on a runtime of its own, for a synchronous `main`.
pub fn run_blocking(config: ServerConfig) -> Result<(), ServerError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| ServerError::Io {
            context: "cannot start the runtime".to_owned(),
            source,
        })?
        .block_on(run(config))
}

/// A Redis URL without its password.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}
