//! `POST /v1/report`: Search Console's view of a pasted or fetched
//! robots.txt, every line classified as Google's reporting library (the one
//! behind Search Console's robots.txt report) classifies it, with the
//! counts it shows: the fields of `crawlgate report --json`.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use crawlgate::{LineKind, RobotsTxt, SearchConsoleReport};
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
    /// Bytes classified.
    pub bytes: usize,
    /// Lines in the file.
    pub lines_total: usize,
    /// Lines with a key Google uses (user-agent, allow, disallow, sitemap).
    pub valid_directives: u32,
    /// Lines with a key Google does not use (unused or unknown).
    pub unused_directives: u32,
    /// Lines the report flags (typo, missing colon, too long, unused,
    /// unknown, invalid).
    pub flagged: usize,
    /// How many lines of each kind (every kind, zeros included).
    pub kinds: BTreeMap<&'static str, usize>,
    /// Every line (or, with `flagged_only`, the flagged ones), in order.
    pub lines: Vec<ReportLine>,
}

/// One line, as Google's reporting library classifies it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReportLine {
    /// Its number (from 1).
    pub line: u32,
    /// `user-agent`, `allow`, `disallow`, `sitemap`, `unused`, `unknown`,
    /// `empty`, `comment` or `invalid`.
    #[schema(example = "disallow")]
    pub kind: &'static str,
    /// Google's tag: the kind, with empty, comment and invalid lines
    /// `unknown`.
    pub tag: &'static str,
    /// A misspelled key Google accepts (`Disalow`).
    pub typo: bool,
    /// No colon after the key (`Disallow /p`), accepted by Google.
    pub missing_colon: bool,
    /// Over 2,083 × 8 bytes: Google reads no further on it.
    pub too_long: bool,
    /// A `#` comment after the content.
    pub has_comment: bool,
    /// The key as written.
    pub key: Option<String>,
    /// The key as Google knows it (lowercase), if it does.
    pub known_as: Option<&'static str>,
    /// The line as written (invalid UTF-8 replaced).
    pub text: String,
    /// Whether the report flags it.
    pub flagged: bool,
    /// Past the 500 KiB crawlers read.
    pub past_size_limit: bool,
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
    let mut kinds: BTreeMap<&'static str, usize> =
        LineKind::ALL.iter().map(|k| (k.as_str(), 0)).collect();
    for line in report.lines() {
        *kinds.entry(line.kind.as_str()).or_default() += 1;
    }
    let text = |range: std::ops::Range<usize>| String::from_utf8_lossy(&bytes[range]).into_owned();
    let lines = report
        .lines()
        .iter()
        .filter(|l| !only_flagged || l.is_flagged())
        .map(|l| ReportLine {
            line: l.number,
            kind: l.kind.as_str(),
            tag: l.tag().as_str(),
            typo: l.typo,
            missing_colon: l.missing_colon,
            too_long: l.too_long,
            has_comment: l.has_comment,
            key: l.key.as_ref().map(|k| text(k.bytes.clone())),
            known_as: l.known_as,
            text: text(l.bytes.clone()),
            flagged: l.is_flagged(),
            past_size_limit: l.bytes.end > read_limit,
        })
        .collect();
    ReportResponse {
        source,
        fetch,
        bytes: bytes.len(),
        lines_total: report.lines().len(),
        valid_directives: report.valid_directives(),
        unused_directives: report.unused_directives(),
        flagged: report.flagged().count(),
        kinds,
        lines,
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
        assert_eq!(shown.valid_directives, report.valid_directives());
        assert_eq!(shown.unused_directives, report.unused_directives());
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
        assert_eq!(shown.kinds["disallow"], 2);
        let flagged = classify(file, true, "robots.txt".into(), None);
        assert_eq!(flagged.lines.len(), flagged.flagged);
        assert!(flagged.lines.iter().all(|l| l.flagged));
    }
}
