//! The web tester at `/`: one HTML page, a script and a stylesheet,
//! embedded in the binary (nothing is loaded from anywhere else), and the
//! crawler list its picker offers.

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Json;
use crawlgate_lint::audit::crawlers as known_crawlers;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;

const PAGE: &str = include_str!("../../assets/index.html");
const SCRIPT: &str = include_str!("../../assets/tester.js");
const STYLE: &str = include_str!("../../assets/tester.css");

/// Everything from this server, inline scripts included nowhere.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The tester page.
pub async fn page() -> Response {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            (CONTENT_SECURITY_POLICY, POLICY),
            (CACHE_CONTROL, "no-cache"),
        ],
        PAGE,
    )
        .into_response()
}

/// The page's script and stylesheet.
pub async fn asset(Path(name): Path<String>) -> Response {
    let (body, kind) = match name.as_str() {
        "tester.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        "tester.css" => (STYLE, "text/css; charset=utf-8"),
        _ => return ApiError::not_found("path", "no such asset").into_response(),
    };
    ([(CONTENT_TYPE, kind), (CACHE_CONTROL, "no-cache")], body).into_response()
}

/// A crawler of the audit table.
#[derive(Debug, Serialize, ToSchema)]
pub struct KnownCrawler {
    /// Its product token.
    pub token: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What it fetches for (`search`, `ai-training` …).
    pub purpose: &'static str,
    /// Whether it feeds AI (training, AI search, assistants, datasets).
    pub ai: bool,
}

/// The known crawlers (the table of `crawlgate lint --audit`).
#[utoipa::path(
    get,
    path = "/v1/crawlers",
    responses((status = 200, description = "The known crawler tokens", body = Vec<KnownCrawler>)),
    tag = "tester"
)]
pub async fn crawlers() -> Json<Vec<KnownCrawler>> {
    Json(
        known_crawlers()
            .iter()
            .map(|c| KnownCrawler {
                token: c.token,
                operator: c.operator,
                purpose: c.purpose.as_str(),
                ai: c.purpose.is_ai(),
            })
            .collect(),
    )
}
