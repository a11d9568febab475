//! The HTTP routes, one module per concern, and the router that ties them
//! together with the request bounds and the metrics.

pub mod allowed;
pub mod check;
pub mod health;
pub mod lint;
pub mod openapi;
pub mod policy;
pub mod report;
pub mod robots;
pub mod schedule;
mod source;
pub mod tester;
pub mod variants;
pub mod verify;

use std::time::Instant;

use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::Method;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;

use crate::admission::admit;
use crate::error::ApiError;
use crate::state::AppState;

/// The whole application: API, tester page, health and metrics, behind
/// the admission middleware (target and body bounds, request slots).
pub fn app(state: AppState) -> Router {
    let limits = state.limits().clone();
    Router::new()
        .route("/v1/allowed", get(allowed::one).post(allowed::many))
        .route("/v1/check", post(check::check))
        .route("/v1/lint", post(lint::lint))
        .route("/v1/report", post(report::report))
        .route("/v1/policy", post(policy::policy))
        .route("/v1/robots", get(robots::cached))
        .route("/v1/robots/version", get(robots::version))
        .route("/v1/refresh", post(robots::refresh))
        .route("/v1/variants", get(variants::variants))
        .route("/v1/schedule", delete(schedule::reset))
        .route("/v1/crawlers", get(tester::crawlers))
        .route("/v1/verify", post(verify::verify))
        .route("/healthz", get(health::healthz))
        .route("/metrics", get(health::metrics))
        .route("/openapi.json", get(openapi::document))
        .route("/", get(tester::page))
        .route("/assets/{name}", get(tester::asset))
        .route("/favicon.ico", get(tester::favicon))
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(middleware::from_fn_with_state(state.clone(), track))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(middleware::from_fn_with_state(state.clone(), admit))
        .with_state(state)
}

/// Counts each request by route and status, with its latency.
async fn track(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = match request.extensions().get::<MatchedPath>() {
        Some(path) => format!("{} {}", request.method(), path.as_str()),
        None => format!("{} unmatched", request.method()),
    };
    let response = next.run(request).await;
    state
        .metrics()
        .request(&route, response.status().as_u16(), started.elapsed());
    response
}

async fn method_not_allowed(method: Method) -> Response {
    ApiError::method_not_allowed(method.as_str(), "a method the Allow header lists").into_response()
}

async fn not_found() -> Response {
    ApiError::not_found(
        "path",
        "no such route; the API is described at /openapi.json",
    )
    .into_response()
}
