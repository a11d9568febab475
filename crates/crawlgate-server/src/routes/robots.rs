//! `GET /v1/robots`, `GET /v1/robots/version`, `POST /v1/refresh`: what is
//! cached for an origin and its history, one past version, a refetch now.

use axum::extract::State;
use axum::Json;
use crawlgate_answers::{Attempt, CacheEntry, Origin, OutcomeKind, OutcomeReason};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::allowance::Client;
use crate::error::{ApiError, ErrorBody};
use crate::input::{required, ApiQuery, QueryParameters};
use crate::state::AppState;
use crate::store::{from_micros, VersionSummary};
use crate::verdict::FetchInfo;
use crawlgate_answers::time::rfc3339;

/// Which origin.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OriginQuery {
    /// Any URL of the origin (`https://example.com/` or a page of it).
    #[param(
        max_length = 8192,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://",
        example = "https://example.com/"
    )]
    pub origin: String,
    /// `GET /v1/robots` only: fetch it (per the fetch rules) when nothing
    /// fresh is cached, instead of answering 404.
    #[serde(default)]
    pub fetch: bool,
}

impl QueryParameters for OriginQuery {
    const NAMES: &'static [&'static str] = &["origin", "fetch"];
}

/// Which version.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VersionQuery {
    /// Any URL of the origin.
    #[param(
        max_length = 8192,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://",
        example = "https://example.com/"
    )]
    pub origin: String,
    /// The version's id, from the history.
    #[param(minimum = 0, example = 1764166209000000u64)]
    pub id: u64,
}

impl QueryParameters for VersionQuery {
    const NAMES: &'static [&'static str] = &["origin", "id"];
}

/// A group of the cached file.
#[derive(Debug, Serialize, ToSchema)]
pub struct GroupSummary {
    /// Its first line.
    pub line: u32,
    /// The user-agent values naming it.
    pub agents: Vec<String>,
    /// How many allow/disallow rules it has.
    pub rules: usize,
}

/// One version in the history.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryItem {
    /// Its id (for `GET /v1/robots/version`).
    pub id: u64,
    /// When it was fetched (RFC 3339).
    pub fetched_at: String,
    /// The HTTP status, when a response came.
    pub status: Option<u16>,
    /// `conditional`, `full_allow` or `full_disallow`.
    #[schema(value_type = String)]
    pub outcome: OutcomeKind,
    /// Body bytes.
    pub size: u64,
    /// Diagnostics the parser reported.
    pub diagnostics: u32,
}

/// What is cached for an origin.
#[derive(Debug, Serialize, ToSchema)]
pub struct RobotsState {
    /// The origin.
    pub origin: String,
    /// Its robots.txt URL.
    pub robots_url: String,
    /// What the fetch gave, and whether it is fresh.
    pub fetch: FetchInfo,
    /// Bytes of the file in use (0 without one).
    pub size: u64,
    /// Sitemap URLs it lists.
    pub sitemaps: Vec<String>,
    /// Its groups.
    pub groups: Vec<GroupSummary>,
    /// Diagnostics the parser reported.
    pub diagnostics: usize,
    /// The file in use, as text (invalid UTF-8 replaced).
    pub body: Option<String>,
    /// The distinct versions of the last 30 days, newest first.
    pub history: Vec<HistoryItem>,
}

/// One past version.
#[derive(Debug, Serialize, ToSchema)]
pub struct VersionBody {
    /// The origin.
    pub origin: String,
    /// Its id.
    pub id: u64,
    /// When it was fetched (RFC 3339).
    pub fetched_at: String,
    /// The HTTP status, when a response came.
    pub status: Option<u16>,
    /// The outcome.
    #[schema(value_type = String)]
    pub outcome: OutcomeKind,
    /// Why.
    #[schema(value_type = String)]
    pub reason: OutcomeReason,
    /// Diagnostics the parser reported.
    pub diagnostics: u32,
    /// The file, as text (invalid UTF-8 replaced), when there was one.
    pub body: Option<String>,
}

pub(crate) fn origin_of(state: &AppState, text: &str) -> Result<Origin, ApiError> {
    required("origin", text, state.limits().max_url_chars)?;
    Origin::from_url(text).map_err(|e| ApiError::invalid("origin", e.to_string()))
}

fn status_of(attempt: Attempt) -> Option<u16> {
    match attempt {
        Attempt::Status { status } => Some(status),
        _ => None,
    }
}

fn history_item(v: &VersionSummary) -> HistoryItem {
    HistoryItem {
        id: v.id,
        fetched_at: rfc3339(from_micros(v.id)),
        status: status_of(v.attempt),
        outcome: v.outcome,
        size: v.size,
        diagnostics: v.diagnostics,
    }
}

async fn describe(
    state: &AppState,
    origin: &Origin,
    entry: &CacheEntry,
    from_cache: bool,
) -> Result<RobotsState, ApiError> {
    let history = state.service().store().history(origin).await?;
    let copy = match &entry.outcome.rules {
        crawlgate_answers::Rules::Conditional(copy) => Some(copy.clone()),
        _ => None,
    };
    let robots = copy.as_ref().map(|c| c.robots());
    Ok(RobotsState {
        origin: origin.to_string(),
        robots_url: origin.robots_url().to_string(),
        fetch: FetchInfo::of(entry, from_cache),
        size: copy.as_ref().map_or(0, |c| c.body().len() as u64),
        sitemaps: robots
            .map(|r| r.sitemaps().map(|s| s.url().to_owned()).collect())
            .unwrap_or_default(),
        groups: robots
            .map(|r| {
                r.groups()
                    .map(|g| GroupSummary {
                        line: g.first_line(),
                        agents: g.user_agents().map(|a| a.value().to_owned()).collect(),
                        rules: g.rules().len(),
                    })
                    .collect()
            })
            .unwrap_or_default(),
        diagnostics: robots.map_or(0, |r| r.diagnostics().len()),
        body: copy
            .as_ref()
            .map(|c| String::from_utf8_lossy(c.body()).into_owned()),
        history: history.iter().map(history_item).collect(),
    })
}

/// What is cached for an origin, and its history.
#[utoipa::path(
    get,
    path = "/v1/robots",
    params(OriginQuery),
    responses(
        (status = 200, description = "The cached entry, fresh or not, and the versions of the last 30 days", body = RobotsState),
        (status = 400, description = "A missing or invalid origin", body = ErrorBody),
        (status = 404, description = "Nothing cached (ask with fetch=true)", body = ErrorBody),
    ),
    tag = "cache"
)]
pub async fn cached(
    State(state): State<AppState>,
    Client(client): Client,
    ApiQuery(query): ApiQuery<OriginQuery>,
) -> Result<Json<RobotsState>, ApiError> {
    let origin = origin_of(&state, &query.origin)?;
    let service = state.service();
    let (entry, from_cache) = match service
        .cached(&origin)
        .await
        .map_err(|e| e.into_api("origin"))?
    {
        Some(entry) if !query.fetch || entry.is_fresh(std::time::SystemTime::now()) => {
            (entry, true)
        }
        _ if query.fetch => {
            let lookup = service
                .lookup(&origin, &state.allowance(client))
                .await
                .map_err(|e| e.into_api("origin"))?;
            (lookup.entry, lookup.from_cache)
        }
        _ => {
            return Err(ApiError::not_found(
                "origin",
                format!("nothing is cached for {origin}; ask with fetch=true to fetch it"),
            ))
        }
    };
    describe(&state, &origin, &entry, from_cache)
        .await
        .map(Json)
}

/// One version from the history.
#[utoipa::path(
    get,
    path = "/v1/robots/version",
    params(VersionQuery),
    responses(
        (status = 200, description = "The version, with its body", body = VersionBody),
        (status = 400, description = "A missing or invalid parameter", body = ErrorBody),
        (status = 404, description = "No such version (or older than 30 days)", body = ErrorBody),
    ),
    tag = "cache"
)]
pub async fn version(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<VersionQuery>,
) -> Result<Json<VersionBody>, ApiError> {
    let origin = origin_of(&state, &query.origin)?;
    let version = state
        .service()
        .store()
        .version(&origin, query.id)
        .await?
        .ok_or_else(|| ApiError::not_found("id", format!("no version {} of {origin}", query.id)))?;
    Ok(Json(VersionBody {
        origin: origin.to_string(),
        id: version.id,
        fetched_at: rfc3339(from_micros(version.id)),
        status: status_of(version.attempt),
        outcome: version.outcome,
        reason: version.reason,
        diagnostics: version.diagnostics,
        body: version
            .body
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned()),
    }))
}

/// Refetches an origin's robots.txt now (at most once per 10 s per origin).
#[utoipa::path(
    post,
    path = "/v1/refresh",
    params(OriginQuery),
    responses(
        (status = 200, description = "The new entry and history", body = RobotsState),
        (status = 400, description = "A missing or invalid origin", body = ErrorBody),
        (status = 403, description = "The host is not public", body = ErrorBody),
        (status = 429, description = "Refreshed too recently", body = ErrorBody),
    ),
    tag = "cache"
)]
pub async fn refresh(
    State(state): State<AppState>,
    Client(client): Client,
    ApiQuery(query): ApiQuery<OriginQuery>,
) -> Result<Json<RobotsState>, ApiError> {
    let origin = origin_of(&state, &query.origin)?;
    let interval = state.limits().refresh_interval;
    let lookup = state
        .service()
        .refresh(&origin, interval, &state.allowance(client))
        .await
        .map_err(|e| e.into_api("origin"))?
        .ok_or_else(|| {
            ApiError::rate_limited(format!(
                "{origin} was refreshed less than {} s ago",
                interval.as_secs()
            ))
        })?;
    describe(&state, &origin, &lookup.entry, lookup.from_cache)
        .await
        .map(Json)
}
