//! `GET /openapi.json`: the OpenAPI 3.1 document, generated from the
//! handlers and types.

use axum::Json;
use utoipa::OpenApi;

use super::{allowed, check, health, lint, robots, tester};
use crate::error::{ErrorBody, ErrorDetail};
use crate::verdict::{Explained, FetchInfo};

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "crawlgate",
        description = "robots.txt as Google reads it: a sidecar for crawler fleets (may agent X fetch URL Y, and when?) and a robots.txt tester."
    ),
    paths(
        allowed::one,
        allowed::many,
        check::check,
        lint::lint,
        robots::cached,
        robots::version,
        robots::refresh,
        tester::crawlers,
        health::healthz,
        health::metrics,
    ),
    components(schemas(
        ErrorBody,
        ErrorDetail,
        Explained,
        FetchInfo,
        allowed::Allowed,
        allowed::Pair,
        allowed::AllowedBatch,
        allowed::AllowedResults,
        allowed::BatchItem,
        check::CheckRequest,
        check::CheckResponse,
        check::CheckResult,
        lint::LintRequest,
        lint::LintResponse,
        lint::Counts,
        robots::RobotsState,
        robots::GroupSummary,
        robots::HistoryItem,
        robots::VersionBody,
        tester::KnownCrawler,
        health::Health,
    ))
)]
pub struct ApiDoc;

/// The document.
pub async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
