//! `POST /v1/report`: Search Console's view of a pasted or fetched
//! robots.txt, every line classified as Google's reporting library (the one
//! behind Search Console's robots.txt report) classifies it, with the
//! counts it shows: the fields of `crawlgate report --json`.

use axum::extract::State;
use axum::Json;
use crawlgate::{RobotsTxt, SearchConsoleReport};
use crawlgate_answers::{ReportCounts, ReportLine};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::source::{Given, Source, SourceInfo};
use crate::allowance::Client;
use crate::budget::estimate;
use crate::error::{ApiError, ErrorBody};
use crate::input::ApiJson;
use crate::state::AppState;

/// What to report on.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The file's text. Give exactly one of `robots_txt`, `robots_txt_b64`
    /// and `url`.
    #[schema(example = "User-agent: *\nDisalow: /private\nCrawl-delay: 5\n")]
    pub robots_txt: Option<String>,
    /// The file's bytes in standard base64 with padding.
    pub robots_txt_b64: Option<String>,
    /// A URL of the site whose robots.txt to fetch (or reuse from the
    /// cache) as Google does.
    pub url: Option<String>,
    /// Only the lines the report flags in `lines` (the counts stay whole).
    #[serde(default)]
    pub flagged_only: bool,
}

/// Search Console's view of the file.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportResponse {
    /// `robots.txt` for a pasted file, else the robots.txt URL.
    pub source: String,
    /// For a fetched file: where it came from and what the fetch gave
    /// (`null` for a pasted one).
    pub fetch: Option<SourceInfo>,
    /// The counts: `bytes`, `lines_total`, `valid_directives`,
    /// `unused_directives`, `flagged` and `kinds`.
    #[serde(flatten)]
    pub counts: ReportCounts,
    /// Every line (or, with `flagged_only`, the flagged ones), in order.
    pub lines: Vec<ReportLine>,
}

/// Classifies every line as Search Console's robots.txt report does.
#[utoipa::path(
    post,
    path = "/v1/report",
    request_body = ReportRequest,
    responses(
        (status = 200, description = "Every line classified, with the counts", body = ReportResponse),
        (status = 400, description = "Invalid JSON, a missing or invalid field", body = ErrorBody),
        (status = 403, description = "The robots.txt host is not public", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "tester"
)]
pub async fn report(
    State(state): State<AppState>,
    Client(client): Client,
    ApiJson(request): ApiJson<ReportRequest>,
) -> Result<Json<ReportResponse>, ApiError> {
    let given = Given {
        robots_txt: request.robots_txt,
        robots_txt_b64: request.robots_txt_b64,
        url: request.url,
    };
    let source = Source::resolve(&state, given, &state.allowance(client)).await?;
    let info = source.info().cloned();
    let name = info
        .as_ref()
        .map_or_else(|| "robots.txt".to_owned(), |i| i.robots_url.clone());
    // A fetch that left no body (4xx, 5xx) has no lines to classify.
    let body = source.body().unwrap_or_default().to_vec();
    let only_flagged = request.flagged_only;
    // A 500 KiB file has tens of thousands of lines: on a worker thread,
    // within the memory budget (a line entry per line, and its text).
    let response = state
        .budget()
        .run_heavy(estimate::lint(body.len()), move || {
            classify(&body, only_flagged, name, info)
        })
        .await?;
    Ok(Json(response))
}

/// The report on `bytes`.
fn classify(
    bytes: &[u8],
    only_flagged: bool,
    source: String,
    fetch: Option<SourceInfo>,
) -> ReportResponse {
    let report = SearchConsoleReport::of(bytes);
    // Where crawlers stop reading (500 KiB, minus a line the limit cuts).
    let read_limit = RobotsTxt::parse(bytes).stats().parsed_bytes;
    ReportResponse {
        source,
        fetch,
        counts: ReportCounts::of(&report, bytes.len()),
        lines: ReportLine::all(&report, bytes, read_limit, only_flagged),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_classified_and_counted() {
        let file = b"User-agent: *\nDisalow: /a\nDisallow /b\nCrawl-delay: 5\nFoo: bar\n\n# c\n";
        let shown = classify(file, false, "robots.txt".into(), None);
        let report = SearchConsoleReport::of(file);
        assert_eq!(shown.lines.len(), report.lines().len());
        assert_eq!(shown.counts.valid_directives, report.valid_directives());
        assert_eq!(shown.counts.unused_directives, report.unused_directives());
        let kinds: Vec<&str> = shown.lines.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            // Google's library counts the empty line after the last newline.
            [
                "user-agent",
                "disallow",
                "disallow",
                "unused",
                "unknown",
                "empty",
                "comment",
                "empty"
            ]
        );
        assert!(shown.lines[1].typo && shown.lines[2].missing_colon);
        assert_eq!(shown.counts.kinds["disallow"], 2);
        let flagged = classify(file, true, "robots.txt".into(), None);
        assert_eq!(flagged.lines.len(), flagged.counts.flagged);
        assert!(flagged.lines.iter().all(|l| l.flagged));
    }
}
