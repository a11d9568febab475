//! `GET /v1/allowed` and `POST /v1/allowed`: the sidecar call. May this
//! crawler fetch this URL, and when?

use std::collections::HashMap;
use std::time::SystemTime;

use axum::extract::State;
use axum::Json;
use crawlgate::path_of;
use crawlgate_fetch::{format_time, Origin};
use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::input::{required, ApiJson, ApiQuery};
use crate::service::{Lookup, LookupError};
use crate::state::AppState;
use crate::verdict::{FetchInfo, VerdictBody};

fn yes() -> bool {
    true
}

/// The question.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AllowedQuery {
    /// The absolute URL the crawler wants to fetch.
    pub url: String,
    /// The crawler's product token, as robots.txt names it (`Googlebot`).
    pub agent: String,
    /// Reserve the next request slot on the origin (default true); false
    /// only reads when the next request could be sent.
    #[serde(default = "yes")]
    pub reserve: bool,
}

/// One `{url, agent}` pair of a batch.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// The absolute URL.
    pub url: String,
    /// The crawler's product token.
    pub agent: String,
}

/// Up to 1,000 questions at once.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedBatch {
    /// The pairs.
    pub pairs: Vec<Pair>,
    /// Reserve a request slot for each allowed pair (default true).
    #[serde(default = "yes")]
    pub reserve: bool,
}

/// The answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Allowed {
    /// The URL asked about.
    pub url: String,
    /// The crawler.
    pub agent: String,
    /// The verdict.
    #[serde(flatten)]
    pub verdict: VerdictBody,
    /// The robots.txt consulted.
    pub robots_url: String,
    /// What its fetch gave (none for `/robots.txt` itself).
    pub fetch: Option<FetchInfo>,
    /// The crawl-delay the crawler's groups ask for, in seconds.
    pub crawl_delay: Option<f64>,
    /// When the crawler may send this request (RFC 3339): the reserved
    /// slot on the origin's politeness schedule. None when disallowed.
    pub next_allowed_at: Option<String>,
    /// Milliseconds from now until `next_allowed_at` (0: now).
    pub wait_ms: Option<u64>,
}

/// One answer of a batch: the answer or the error for that pair.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum BatchItem {
    /// Answered.
    Answer(Box<Allowed>),
    /// Not answered (refused address, no robots.txt for the URL …).
    Failed {
        /// The URL asked about.
        url: String,
        /// The crawler.
        agent: String,
        /// Why.
        error: ErrorDetail,
    },
}

/// The answers, in the order of the pairs.
#[derive(Debug, Serialize, ToSchema)]
pub struct AllowedResults {
    /// One per pair.
    pub results: Vec<BatchItem>,
}

/// May `agent` fetch `url`, and when?
#[utoipa::path(
    get,
    path = "/v1/allowed",
    params(AllowedQuery),
    responses(
        (status = 200, description = "The verdict, the robots.txt it came from and the next permitted request time", body = Allowed),
        (status = 400, description = "A missing or invalid parameter", body = ErrorBody),
        (status = 403, description = "The robots.txt host is a private, loopback or link-local address", body = ErrorBody),
        (status = 503, description = "The cache backend failed", body = ErrorBody),
    ),
    tag = "sidecar"
)]
pub async fn one(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AllowedQuery>,
) -> Result<Json<Allowed>, ApiError> {
    let origin = validate(&state, &query.url, &query.agent, "url", "agent")?;
    let lookup = match robots_txt_itself(&query.url) {
        true => None,
        false => Some(state.service().lookup(&origin).await.map_err(|e| e.into_api("url"))?),
    };
    state.metrics().decided(1);
    answer(&state, &origin, lookup.as_ref(), query.url, query.agent, query.reserve)
        .await
        .map(Json)
}

/// Up to 1,000 `{url, agent}` pairs in one request.
#[utoipa::path(
    post,
    path = "/v1/allowed",
    request_body = AllowedBatch,
    responses(
        (status = 200, description = "One answer (or error) per pair, in order", body = AllowedResults),
        (status = 400, description = "Invalid JSON, a missing field, too many pairs, a field too long", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "sidecar"
)]
pub async fn many(
    State(state): State<AppState>,
    ApiJson(batch): ApiJson<AllowedBatch>,
) -> Result<Json<AllowedResults>, ApiError> {
    let max = state.limits().max_pairs;
    if batch.pairs.len() > max {
        return Err(ApiError::too_many("pairs", batch.pairs.len(), max));
    }
    let mut origins = Vec::with_capacity(batch.pairs.len());
    for (i, pair) in batch.pairs.iter().enumerate() {
        let url_field = format!("pairs[{i}].url");
        let agent_field = format!("pairs[{i}].agent");
        check_lengths(&state, &pair.url, &pair.agent, &url_field, &agent_field)?;
        origins.push(
            Origin::from_url(&pair.url).map_err(|e| ApiError::invalid(url_field, e.to_string())),
        );
    }
    // One lookup per distinct origin, concurrently.
    let mut distinct: HashMap<&Origin, usize> = HashMap::new();
    let mut wanted = Vec::new();
    for (pair, origin) in batch.pairs.iter().zip(&origins) {
        if let Ok(origin) = origin {
            if !robots_txt_itself(&pair.url) && !distinct.contains_key(origin) {
                distinct.insert(origin, wanted.len());
                wanted.push(origin);
            }
        }
    }
    let lookups: Vec<Result<Lookup, LookupError>> =
        join_all(wanted.iter().map(|origin| state.service().lookup(origin))).await;
    let mut results = Vec::with_capacity(batch.pairs.len());
    for (i, (pair, origin)) in batch.pairs.into_iter().zip(&origins).enumerate() {
        let failed = |error: ApiError, url: String, agent: String| BatchItem::Failed {
            url,
            agent,
            error: error.body().error,
        };
        let origin = match origin {
            Ok(origin) => origin,
            Err(error) => {
                results.push(failed(error.clone(), pair.url, pair.agent));
                continue;
            }
        };
        let lookup = match distinct.get(origin).map(|&n| &lookups[n]) {
            None => None,
            Some(Ok(lookup)) => Some(lookup),
            Some(Err(error)) => {
                let error = error.clone().into_api(&format!("pairs[{i}].url"));
                results.push(failed(error, pair.url, pair.agent));
                continue;
            }
        };
        match answer(&state, origin, lookup, pair.url.clone(), pair.agent.clone(), batch.reserve).await {
            Ok(allowed) => results.push(BatchItem::Answer(Box::new(allowed))),
            Err(error) => results.push(failed(error, pair.url, pair.agent)),
        }
    }
    state.metrics().decided(results.len() as u64);
    Ok(Json(AllowedResults { results }))
}

fn robots_txt_itself(url: &str) -> bool {
    path_of(url) == "/robots.txt"
}

/// Checks both fields' lengths (in a batch, a field too long fails the
/// whole request: the client sent something it should not).
fn check_lengths(state: &AppState, url: &str, agent: &str, url_field: &str, agent_field: &str) -> Result<(), ApiError> {
    let limits = state.limits();
    required(url_field, url, limits.max_url_bytes)?;
    required(agent_field, agent, limits.max_agent_bytes)
}

/// Checks the fields and the URL's scope.
fn validate(state: &AppState, url: &str, agent: &str, url_field: &str, agent_field: &str) -> Result<Origin, ApiError> {
    check_lengths(state, url, agent, url_field, agent_field)?;
    Origin::from_url(url).map_err(|e| ApiError::invalid(url_field, e.to_string()))
}

async fn answer(
    state: &AppState,
    origin: &Origin,
    lookup: Option<&Lookup>,
    url: String,
    agent: String,
    reserve: bool,
) -> Result<Allowed, ApiError> {
    let service = state.service();
    let robots_url = origin.robots_url().to_string();
    let Some(lookup) = lookup else {
        return Ok(Allowed {
            url,
            agent,
            verdict: VerdictBody::robots_txt_itself(),
            robots_url,
            fetch: None,
            crawl_delay: None,
            next_allowed_at: None,
            wait_ms: None,
        });
    };
    let entry = &lookup.entry;
    let verdict = VerdictBody::of_rules(&entry.outcome.rules, &agent, &url);
    let crawl_delay = entry
        .outcome
        .rules
        .robots()
        .and_then(|robots| robots.for_agent(&agent).crawl_delay())
        .map(|delay| delay.seconds);
    let slot = if verdict.allowed {
        let pacing = service.pacing(entry, &agent);
        Some(service.next_slot(origin, &pacing, reserve).await?)
    } else {
        None
    };
    let wait_ms = slot.map(|at| {
        let wait = at.duration_since(SystemTime::now()).unwrap_or_default();
        u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)
    });
    Ok(Allowed {
        url,
        agent,
        verdict,
        robots_url,
        fetch: Some(FetchInfo::of(entry, lookup.from_cache)),
        crawl_delay,
        next_allowed_at: slot.map(format_time),
        wait_ms,
    })
}
