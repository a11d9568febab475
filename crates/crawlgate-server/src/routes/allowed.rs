//! `GET /v1/allowed` and `POST /v1/allowed`: the sidecar call. May this
//! crawler fetch this URL, and when?

use std::time::SystemTime;

use axum::extract::State;
use axum::Json;
use crawlgate::{path_of, AgentView, Rule};
use crawlgate_fetch::{Basis, CacheEntry, Origin, Pacing, Rules};
use futures_util::future::join_all;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::input::{required, ApiJson, ApiQuery};
use crate::service::{Lookup, LookupError, RobotsService};
use crate::state::AppState;
use crate::verdict::{basis, rfc3339, FetchInfo, VerdictBody};

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

/// What a batch says about one origin, once for all its pairs.
#[derive(Debug, Serialize, ToSchema)]
pub struct OriginAnswer {
    /// The origin (`https://example.com`).
    pub origin: String,
    /// Its robots.txt.
    pub robots_url: String,
    /// What the fetch gave (none when only `/robots.txt` itself was asked
    /// about, or when the fetch failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<FetchInfo>,
    /// Why its robots.txt could not be consulted (a refused address …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDetail>,
}

/// The answer for one pair of a batch: the verdict of `GET /v1/allowed`
/// without what the origin entry already says.
#[derive(Debug, Serialize, ToSchema)]
pub struct PairAnswer {
    /// Index of the pair's origin in `origins`.
    pub origin: usize,
    /// The answer.
    pub allowed: bool,
    /// What decided (as in `GET /v1/allowed`).
    #[schema(value_type = String, example = "rule")]
    pub reason: Basis,
    /// The deciding line's number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The deciding line as it reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The crawl-delay the crawler's groups ask for, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crawl_delay: Option<f64>,
    /// When the crawler may send this request (RFC 3339); absent when
    /// disallowed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_allowed_at: Option<String>,
    /// Milliseconds from now until `next_allowed_at`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wait_ms: Option<u64>,
}

/// One result of a batch: the answer, or the error for that pair.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum BatchItem {
    /// Answered.
    Answer(PairAnswer),
    /// Not answered.
    Failed {
        /// Why (an unusable URL, a refused address …).
        error: ErrorDetail,
    },
}

/// The answers, in the order of the pairs, and their origins once each.
#[derive(Debug, Serialize, ToSchema)]
pub struct AllowedResults {
    /// Each distinct origin asked about.
    pub origins: Vec<OriginAnswer>,
    /// One per pair, in order.
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
        false => Some(
            state
                .service()
                .lookup(&origin)
                .await
                .map_err(|e| e.into_api("url"))?,
        ),
    };
    state.metrics().decided(1);
    answer(
        &state,
        &origin,
        lookup.as_ref(),
        query.url,
        query.agent,
        query.reserve,
    )
    .await
    .map(Json)
}

/// Up to 1,000 `{url, agent}` pairs in one request.
#[utoipa::path(
    post,
    path = "/v1/allowed",
    request_body = AllowedBatch,
    responses(
        (status = 200, description = "Each origin once, and one answer (or error) per pair, in order", body = AllowedResults),
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
    for (i, pair) in batch.pairs.iter().enumerate() {
        check_lengths(
            &state,
            &pair.url,
            &pair.agent,
            &format!("pairs[{i}].url"),
            &format!("pairs[{i}].agent"),
        )?;
    }

    // Each pair's origin, parsed once per distinct scheme://authority.
    let mut origins: Vec<Origin> = Vec::new();
    let mut by_authority: FxHashMap<&str, Result<usize, String>> = FxHashMap::default();
    let mut by_origin: FxHashMap<Origin, usize> = FxHashMap::default();
    let mut pair_origins: Vec<Result<usize, String>> = Vec::with_capacity(batch.pairs.len());
    for pair in &batch.pairs {
        let mut index_of = |origin: Origin| {
            let next = origins.len();
            *by_origin.entry(origin.clone()).or_insert_with(|| {
                origins.push(origin);
                next
            })
        };
        let found = match authority(&pair.url) {
            Some(key) => by_authority
                .entry(key)
                .or_insert_with(|| {
                    Origin::from_url(key)
                        .map(&mut index_of)
                        .map_err(|e| e.to_string())
                })
                .clone(),
            None => Origin::from_url(&pair.url)
                .map(index_of)
                .map_err(|e| e.to_string()),
        };
        pair_origins.push(found);
    }

    let service = state.service();
    let lookups: Vec<Result<Lookup, LookupError>> =
        join_all(origins.iter().map(|origin| service.lookup(origin))).await;
    let answers: Vec<OriginAnswer> = origins
        .iter()
        .zip(&lookups)
        .map(|(origin, lookup)| OriginAnswer {
            origin: origin.to_string(),
            robots_url: origin.robots_url().to_string(),
            fetch: lookup
                .as_ref()
                .ok()
                .map(|lookup| FetchInfo::of(&lookup.entry, lookup.from_cache)),
            error: lookup
                .as_ref()
                .err()
                .map(|error| error.clone().into_api("url").body().error),
        })
        .collect();

    // Each crawler's view of each file, compiled once.
    let mut views: FxHashMap<(usize, &str), Crawler<'_>> = FxHashMap::default();
    let mut rules: FxHashMap<(usize, u32), String> = FxHashMap::default();
    let now = SystemTime::now();
    let mut results = Vec::with_capacity(batch.pairs.len());
    for (i, (pair, origin)) in batch.pairs.iter().zip(&pair_origins).enumerate() {
        let failed = |error: ApiError| BatchItem::Failed {
            error: error.body().error,
        };
        let n = match origin {
            Ok(n) => *n,
            Err(problem) => {
                results.push(failed(ApiError::invalid(
                    format!("pairs[{i}].url"),
                    problem.clone(),
                )));
                continue;
            }
        };
        if robots_txt_itself(&pair.url) {
            results.push(BatchItem::Answer(PairAnswer {
                origin: n,
                allowed: true,
                reason: Basis::RobotsTxtItself,
                line: None,
                rule: None,
                crawl_delay: None,
                next_allowed_at: None,
                wait_ms: None,
            }));
            continue;
        }
        let lookup = match &lookups[n] {
            Ok(lookup) => lookup,
            Err(error) => {
                results.push(failed(error.clone().into_api(&format!("pairs[{i}].url"))));
                continue;
            }
        };
        let crawler = views
            .entry((n, pair.agent.as_str()))
            .or_insert_with(|| Crawler::new(service, &lookup.entry, &pair.agent));
        let (allowed, reason, deciding) = crawler.decide(&pair.url);
        let line = deciding.map(|rule| rule.line());
        let rule = deciding.map(|rule| {
            rules
                .entry((n, rule.line()))
                .or_insert_with(|| rule.to_string())
                .clone()
        });
        let slot = match allowed {
            true => Some(
                service
                    .next_slot(&origins[n], &crawler.pacing, batch.reserve, now)
                    .await?,
            ),
            false => None,
        };
        results.push(BatchItem::Answer(PairAnswer {
            origin: n,
            allowed,
            reason,
            line,
            rule,
            crawl_delay: crawler.crawl_delay,
            next_allowed_at: slot.map(rfc3339),
            wait_ms: slot.map(|at| wait_ms(at, now)),
        }));
    }
    state.metrics().decided(results.len() as u64);
    Ok(Json(AllowedResults {
        origins: answers,
        results,
    }))
}

/// `scheme://authority` of an absolute URL, the part its origin depends on
/// (up to the first `/`, `\`, `?` or `#` after `://`); `None` when the URL
/// has no `://` (then it is parsed whole).
fn authority(url: &str) -> Option<&str> {
    let start = url.find("://")? + 3;
    let end = url[start..]
        .find(['/', '\\', '?', '#'])
        .map_or(url.len(), |n| start + n);
    Some(&url[..end])
}

/// One crawler's view of one origin's rules, with its pace.
struct Crawler<'a> {
    rules: &'a Rules,
    view: Option<AgentView<'a>>,
    pacing: Pacing,
    crawl_delay: Option<f64>,
}

impl<'a> Crawler<'a> {
    fn new(service: &RobotsService, entry: &'a CacheEntry, agent: &str) -> Crawler<'a> {
        let view = entry
            .outcome
            .rules
            .robots()
            .map(|robots| robots.for_agent(agent));
        Crawler {
            rules: &entry.outcome.rules,
            crawl_delay: view
                .as_ref()
                .and_then(|v| v.crawl_delay())
                .map(|d| d.seconds),
            pacing: service.pacing(entry, agent),
            view,
        }
    }

    fn decide(&self, url: &str) -> (bool, Basis, Option<Rule<'a>>) {
        match (&self.view, self.rules) {
            (Some(view), _) => {
                let verdict = view.decide(url);
                (
                    verdict.is_allowed(),
                    basis(verdict.reason()),
                    verdict.rule(),
                )
            }
            (None, Rules::FullDisallow) => (false, Basis::FullDisallow, None),
            (None, _) => (true, Basis::FullAllow, None),
        }
    }
}

fn wait_ms(at: SystemTime, now: SystemTime) -> u64 {
    let wait = at.duration_since(now).unwrap_or_default();
    u64::try_from(wait.as_millis()).unwrap_or(u64::MAX)
}

fn robots_txt_itself(url: &str) -> bool {
    path_of(url) == "/robots.txt"
}

/// Checks both fields' lengths (in a batch, a field too long fails the
/// whole request: the client sent something it should not).
fn check_lengths(
    state: &AppState,
    url: &str,
    agent: &str,
    url_field: &str,
    agent_field: &str,
) -> Result<(), ApiError> {
    let limits = state.limits();
    required(url_field, url, limits.max_url_bytes)?;
    required(agent_field, agent, limits.max_agent_bytes)
}

/// Checks the fields and the URL's scope.
fn validate(
    state: &AppState,
    url: &str,
    agent: &str,
    url_field: &str,
    agent_field: &str,
) -> Result<Origin, ApiError> {
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
    let now = SystemTime::now();
    let slot = if verdict.allowed {
        let pacing = service.pacing(entry, &agent);
        Some(service.next_slot(origin, &pacing, reserve, now).await?)
    } else {
        None
    };
    let wait_ms = slot.map(|at| wait_ms(at, now));
    Ok(Allowed {
        url,
        agent,
        verdict,
        robots_url,
        fetch: Some(FetchInfo::of(entry, lookup.from_cache)),
        crawl_delay,
        next_allowed_at: slot.map(rfc3339),
        wait_ms,
    })
}
