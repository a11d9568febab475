//! `POST /v1/lint`: the diagnostics `crawlgate lint --format json` gives,
//! for a pasted or fetched robots.txt.

use axum::extract::State;
use axum::Json;
use crawlgate::Severity;
use crawlgate_lint::{self as lint, render, LintOptions};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::check::parse_profile;
use super::source::{Given, Source, SourceInfo};
use crate::allowance::Client;
use crate::budget::estimate;
use crate::error::{ApiError, ErrorBody};
use crate::input::ApiJson;
use crate::state::AppState;

/// What to lint.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LintRequest {
    /// The file's text. Give exactly one of `robots_txt`, `robots_txt_b64`
    /// and `url`.
    pub robots_txt: Option<String>,
    /// The file's bytes in standard base64 with padding (a file that is not
    /// UTF-8).
    pub robots_txt_b64: Option<String>,
    /// A URL of the site whose robots.txt to fetch (or reuse).
    pub url: Option<String>,
    /// `google` (default), `rfc9309`, `legacy` or `bing`.
    pub profile: Option<String>,
    /// Also say what each known crawler gets (`crawlgate lint --audit`).
    #[serde(default)]
    pub audit: bool,
    /// Also compare with the legacy reading (`crawlgate lint --legacy`).
    #[serde(default)]
    pub legacy: bool,
}

/// Counts by severity.
#[derive(Debug, Serialize, ToSchema)]
pub struct Counts {
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
    /// Infos.
    pub infos: usize,
}

/// The findings.
#[derive(Debug, Serialize, ToSchema)]
pub struct LintResponse {
    /// The name findings are reported under (`robots.txt`, or the URL).
    pub file: String,
    /// The profile the file was judged with.
    pub profile: &'static str,
    /// For a fetched file: where it came from. A fetched full allow or full
    /// disallow has no body and no findings.
    pub source: Option<SourceInfo>,
    /// Exactly `crawlgate lint --format json`: `[{file, code, name,
    /// category, severity, line, column, end_column, message, fix}]`.
    #[schema(value_type = Vec<Object>)]
    pub diagnostics: Box<RawValue>,
    /// With `audit`: `{table_version, crawlers: [...]}` as the CLI gives it.
    #[schema(value_type = Option<Object>)]
    pub audit: Option<Box<RawValue>>,
    /// How many of each severity.
    pub counts: Counts,
}

/// Lints a pasted or fetched robots.txt.
#[utoipa::path(
    post,
    path = "/v1/lint",
    request_body = LintRequest,
    responses(
        (status = 200, description = "The findings", body = LintResponse),
        (status = 400, description = "Invalid JSON, a missing or invalid field", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "tester"
)]
pub async fn lint(
    State(state): State<AppState>,
    Client(client): Client,
    ApiJson(request): ApiJson<LintRequest>,
) -> Result<Json<LintResponse>, ApiError> {
    let profile = parse_profile(request.profile.as_deref())?.unwrap_or_default();
    let given = Given {
        robots_txt: request.robots_txt,
        robots_txt_b64: request.robots_txt_b64,
        url: request.url,
    };
    let source = Source::resolve(&state, given, &state.allowance(client)).await?;
    let file = source
        .info()
        .map_or_else(|| "robots.txt".to_owned(), |info| info.robots_url.clone());
    let options = LintOptions::default()
        .with_profile(profile)
        .with_audit(request.audit)
        .with_legacy_comparison(request.legacy);
    let body = source.body().unwrap_or_default();
    // Linting a 500 KiB file takes a while and tens of megabytes: on a
    // worker thread, within the memory budget.
    let (diagnostics, audit, counts) = {
        let (body, file) = (body.to_vec(), file.clone());
        state
            .budget()
            .run_heavy(estimate::lint(body.len()), move || {
                let report = lint::lint(&body, &options);
                let json = render::json(&[render::LintedFile {
                    path: &file,
                    source: &body,
                    report: &report,
                }]);
                let audit = report.audit.as_deref().map(render::audit_json);
                let counts = Counts {
                    errors: report.count(Severity::Error),
                    warnings: report.count(Severity::Warning),
                    infos: report.count(Severity::Info),
                };
                (json, audit, counts)
            })
            .await?
    };
    let raw = |text: String| {
        RawValue::from_string(text).map_err(|e| ApiError::unavailable(format!("lint output: {e}")))
    };
    Ok(Json(LintResponse {
        file,
        profile: profile.name,
        source: source.info().cloned(),
        diagnostics: raw(diagnostics)?,
        audit: audit.map(raw).transpose()?,
        counts,
    }))
}
