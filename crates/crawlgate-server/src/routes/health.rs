//! `GET /healthz` and `GET /metrics`.

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

/// Liveness.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// `embedded` or `redis`.
    pub cache: &'static str,
    /// The server's version.
    pub version: &'static str,
}

/// Whether the server and its cache backend answer.
#[utoipa::path(
    get,
    path = "/healthz",
    responses(
        (status = 200, description = "Up", body = Health),
        (status = 503, description = "The cache backend does not answer", body = ErrorBody),
    ),
    tag = "operations"
)]
pub async fn healthz(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let store = state.service().store();
    store.ping().await?;
    Ok(Json(Health {
        status: "ok",
        cache: store.kind(),
        version: env!("CARGO_PKG_VERSION"),
    }))
}

/// Prometheus text exposition.
#[utoipa::path(
    get,
    path = "/metrics",
    responses((status = 200, description = "Prometheus text format", content_type = "text/plain", body = String)),
    tag = "operations"
)]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    for (pool, used) in state.budget().pools() {
        state
            .metrics()
            .memory(pool, used.held_bytes, used.peak_bytes);
    }
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        state.metrics().render(),
    )
}
