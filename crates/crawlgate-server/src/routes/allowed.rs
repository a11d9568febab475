//! `GET /v1/allowed` and `POST /v1/allowed`: the sidecar call. May this
//! crawler fetch this URL, and when?

use std::time::SystemTime;

use axum::extract::State;
use axum::Json;
use crawlgate::{path_of, AgentView, Reading as NameReading, Who};
use crawlgate_answers::{ExplainedVerdict, Origin, Outcome};
use crawlgate_fetch::Pacing;
use futures_util::future::join_all;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::allowance::Client;
use crate::budget::estimate;
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::input::{bounded, required, ApiJson, ApiQuery, QueryParameters};
use crate::reading::parse_reading;
use crate::service::{Lookup, LookupError};
use crate::state::AppState;
use crate::store::Slot;
use crate::verdict::FetchInfo;
use crawlgate_answers::time::rfc3339;

/// The question.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AllowedQuery {
    /// The absolute URL the crawler wants to fetch (http or https).
    #[param(
        max_length = 8192,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://",
        example = "https://example.com/private/page.html"
    )]
    pub url: String,
    /// The crawler (`Googlebot-Image`): a name the crawler registry knows
    /// is read by its operator's rules, any other as one product token.
    /// Any string, the empty one included (it obeys only `*`, as in
    /// Google's library).
    #[param(max_length = 256, example = "Googlebot-Image")]
    pub agent: String,
    /// `crawler` (default): the crawler reading; `one-token`: the agent is
    /// one product token, exactly as Google's library reads it.
    #[param(example = "crawler", pattern = "^(crawler|one-token)$")]
    pub reading: Option<String>,
    /// Reserve a request slot on the origin's politeness schedule (default
    /// false: only say when the next request could be sent). A slot is
    /// never more than the politeness horizon ahead.
    #[serde(default)]
    #[param(example = false)]
    pub reserve: bool,
}

impl QueryParameters for AllowedQuery {
    const NAMES: &'static [&'static str] = &["url", "agent", "reading", "reserve"];
}

/// What happened on the origin's politeness schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reservation {
    /// A slot was reserved: send the request at `next_allowed_at`.
    Reserved,
    /// Nothing reserved (not asked, or the URL is disallowed):
    /// `next_allowed_at` is when a request could be sent now.
    None,
    /// Asked, refused: the schedule is full up to the politeness horizon.
    /// Ask again after `retry_after_ms`.
    Full,
}

/// One `{url, agent}` pair of a batch.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    /// The absolute URL (http or https).
    #[schema(
        max_length = 8192,
        pattern = "^[Hh][Tt][Tt][Pp][Ss]?://",
        example = "https://example.com/page"
    )]
    pub url: String,
    /// The crawler's product token (any string, the empty one included).
    #[schema(max_length = 256, example = "Googlebot")]
    pub agent: String,
}

/// Up to 1,000 questions at once.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedBatch {
    /// The pairs (at most 1,000).
    #[schema(max_items = 1000)]
    pub pairs: Vec<Pair>,
    /// `crawler` (default) or `one-token`, for every pair.
    #[schema(example = "crawler", pattern = "^(crawler|one-token)$")]
    pub reading: Option<String>,
    /// Reserve a request slot for each allowed pair (default false).
    #[serde(default)]
    pub reserve: bool,
}

/// The answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Allowed {
    /// The URL asked about.
    pub url: String,
    /// The crawler.
    pub agent: String,
    /// How the agent was read: `crawler` or `one-token`.
    #[schema(example = "crawler")]
    pub reading: &'static str,
    /// The profile the file was read by: the crawler's operator's reading
    /// (`bing` for Bing's crawlers, `yandex` for Yandex's robots), else
    /// `google`.
    #[schema(example = "google")]
    pub profile: &'static str,
    /// The verdict: `allowed`, `basis`, `rule`, `fetch_outcome`, `choice`
    /// (which token's group decided and why), `groups`
    /// (`[{first_line, last_line}]`, the groups the crawler obeyed).
    #[serde(flatten, serialize_with = "ExplainedVerdict::serialize_with_groups")]
    #[schema(value_type = Object)]
    pub verdict: ExplainedVerdict,
    /// The robots.txt consulted.
    pub robots_url: String,
    /// What its fetch gave.
    pub fetch: FetchInfo,
    /// The crawl-delay the crawler's groups ask for, in seconds.
    pub crawl_delay: Option<f64>,
    /// When the crawler may send this request (RFC 3339): the reserved
    /// slot, or (without `reserve`) the earliest free one. None when
    /// disallowed or when the schedule is full.
    pub next_allowed_at: Option<String>,
    /// Milliseconds from now until `next_allowed_at` (0: now).
    pub wait_ms: Option<u64>,
    /// `reserved`, `none` or `full`.
    pub reservation: Reservation,
    /// With `full`: milliseconds until a reservation can succeed.
    pub retry_after_ms: Option<u64>,
    /// Why `agent`, as given, finds no group of its own (empty, not a
    /// product token, nor a crawler the registry knows); absent when it can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// What a batch says about one origin, once for all its pairs.
#[derive(Debug, Serialize, ToSchema)]
pub struct OriginAnswer {
    /// The origin (`https://example.com`).
    pub origin: String,
    /// Its robots.txt.
    pub robots_url: String,
    /// What the fetch gave (none when it could not be made).
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
    /// The profile the file was read by for this pair's crawler (see
    /// `GET /v1/allowed`).
    pub profile: &'static str,
    /// The verdict: `allowed`, `basis`, `rule`, `fetch_outcome` (the
    /// groups are left out here).
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub verdict: ExplainedVerdict,
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
    /// `reserved`, `none` or `full` (absent when disallowed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reservation: Option<Reservation>,
    /// With `full`: milliseconds until a reservation can succeed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
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
    /// How the agents were read: `crawler` or `one-token`.
    #[schema(example = "crawler")]
    pub reading: &'static str,
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
    Client(client): Client,
    ApiQuery(query): ApiQuery<AllowedQuery>,
) -> Result<Json<Allowed>, ApiError> {
    let origin = validate(&state, &query.url, &query.agent, "url", "agent")?;
    let how = parse_reading(query.reading.as_deref())?;
    let lookup = state
        .service()
        .lookup(&origin, &state.allowance(client))
        .await
        .map_err(|e| e.into_api("url"))?;
    state.metrics().decided(1);
    answer(
        &state,
        &lookup,
        (query.url, query.agent, how),
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
    Client(client): Client,
    ApiJson(batch): ApiJson<AllowedBatch>,
) -> Result<Json<AllowedResults>, ApiError> {
    let max = state.limits().max_pairs;
    let how = parse_reading(batch.reading.as_deref())?;
    if batch.pairs.len() > max {
        return Err(ApiError::too_many("pairs", batch.pairs.len(), max));
    }
    let limits = state.limits();
    for (i, pair) in batch.pairs.iter().enumerate() {
        // The field names are written only for a pair that fails.
        let fits = |text: &str, max: usize| text.len() <= max;
        if pair.url.is_empty()
            || !fits(&pair.url, limits.max_url_chars)
            || !fits(&pair.agent, limits.max_agent_chars)
        {
            check_lengths(
                &state,
                &pair.url,
                &pair.agent,
                &format!("pairs[{i}].url"),
                &format!("pairs[{i}].agent"),
            )?;
        }
    }
    let text_bytes: usize = batch
        .pairs
        .iter()
        .map(|p| p.url.len() + p.agent.len())
        .sum();
    let budget = state.budget();
    let cost = estimate::batch(batch.pairs.len(), text_bytes);

    // Each pair's origin, parsed once per distinct scheme://authority (on a
    // worker thread: a thousand URL parses).
    let (batch, origins, pair_origins) = budget
        .run_heavy(cost, move || {
            let (origins, pair_origins) = origins_of(&batch.pairs);
            (batch, origins, pair_origins)
        })
        .await?;

    let service = state.service();
    let allowance = state.allowance(client);
    let lookups: Vec<Result<Lookup, LookupError>> = join_all(
        origins
            .iter()
            .map(|origin| service.lookup(origin, &allowance)),
    )
    .await;
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
            error: lookup.as_ref().err().map(|error| {
                // The pairs' own errors name their fields; this one is the
                // origin's.
                let mut detail = error.clone().into_api("url").body().error;
                detail.field = None;
                detail
            }),
        })
        .collect();

    // The verdicts, each crawler's view of each file compiled once, on a
    // worker thread; then the reservations, on the store.
    let politeness = service.politeness().clone();
    let (batch, origins, decided) = budget
        .run_heavy(cost, move || {
            let decided = decide_pairs(&batch.pairs, how, &pair_origins, &lookups, &politeness);
            (batch, origins, decided)
        })
        .await?;
    let now = SystemTime::now();
    let mut results = Vec::with_capacity(decided.len());
    for decision in decided {
        let item = match decision {
            Decided::Failed(error) => BatchItem::Failed {
                error: error.body().error,
            },
            Decided::Answer {
                origin,
                profile,
                verdict,
                crawl_delay,
                pacing,
            } => {
                let slot = match verdict.allowed {
                    true => Some(
                        service
                            .next_slot(&origins[origin], &pacing, batch.reserve, now)
                            .await?,
                    ),
                    false => None,
                };
                let shown = slot.map(|slot| SlotShown::of(slot, now));
                BatchItem::Answer(PairAnswer {
                    origin,
                    profile,
                    verdict,
                    crawl_delay,
                    next_allowed_at: shown.as_ref().and_then(|s| s.at.clone()),
                    wait_ms: shown.as_ref().and_then(|s| s.wait_ms),
                    reservation: shown.as_ref().map(|s| s.reservation),
                    retry_after_ms: shown.as_ref().and_then(|s| s.retry_after_ms),
                })
            }
        };
        results.push(item);
    }
    state.metrics().decided(results.len() as u64);
    Ok(Json(AllowedResults {
        reading: how.as_str(),
        origins: answers,
        results,
    }))
}

/// The distinct origins of `pairs`, and each pair's (or why it has none).
fn origins_of(pairs: &[Pair]) -> (Vec<Origin>, Vec<Result<usize, String>>) {
    let mut origins: Vec<Origin> = Vec::new();
    let mut by_authority: FxHashMap<&str, Result<usize, String>> = FxHashMap::default();
    let mut by_origin: FxHashMap<Origin, usize> = FxHashMap::default();
    let mut pair_origins: Vec<Result<usize, String>> = Vec::with_capacity(pairs.len());
    for pair in pairs {
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
    (origins, pair_origins)
}

/// A pair's verdict before its reservation.
enum Decided {
    Failed(ApiError),
    Answer {
        origin: usize,
        /// The profile the crawler's file was read by.
        profile: &'static str,
        verdict: ExplainedVerdict,
        crawl_delay: Option<f64>,
        pacing: Pacing,
    },
}

fn decide_pairs(
    pairs: &[Pair],
    how: NameReading,
    pair_origins: &[Result<usize, String>],
    lookups: &[Result<Lookup, LookupError>],
    politeness: &crawlgate_fetch::PolitenessConfig,
) -> Vec<Decided> {
    // A crawler whose operator's own parser crawlgate reproduces (Yandex's
    // robots) reads the cached file under that profile: each origin's
    // rules read again once per such profile, before any view borrows them.
    let mut rereads: Vec<((usize, &'static str), Outcome)> = Vec::new();
    for (pair, origin) in pairs.iter().zip(pair_origins) {
        let (Ok(n), profile) = (origin, how.profile_for(&pair.agent, None)) else {
            continue;
        };
        let Ok(lookup) = &lookups[*n] else {
            continue;
        };
        let cached = lookup.entry.outcome.rules.robots().map(|r| r.profile());
        if cached.is_some_and(|p| p != profile)
            && !rereads
                .iter()
                .any(|((m, p), _)| *m == *n && *p == profile.name)
        {
            rereads.push((
                (*n, profile.name),
                lookup.entry.outcome.with_profile(profile),
            ));
        }
    }
    let mut views: FxHashMap<(usize, &str), Crawler<'_>> = FxHashMap::default();
    pairs
        .iter()
        .zip(pair_origins)
        .enumerate()
        .map(|(i, (pair, origin))| {
            let n = match origin {
                Ok(n) => *n,
                Err(problem) => {
                    return Decided::Failed(ApiError::invalid(
                        format!("pairs[{i}].url"),
                        problem.clone(),
                    ))
                }
            };
            let lookup = match &lookups[n] {
                Ok(lookup) => lookup,
                Err(error) => {
                    return Decided::Failed(error.clone().into_api(&format!("pairs[{i}].url")))
                }
            };
            let profile = how.profile_for(&pair.agent, None).name;
            let outcome = rereads
                .iter()
                .find(|((m, p), _)| *m == n && *p == profile)
                .map_or(&lookup.entry.outcome, |(_, outcome)| outcome);
            let crawler = views
                .entry((n, pair.agent.as_str()))
                .or_insert_with(|| Crawler::new(politeness, outcome, &pair.agent, how));
            Decided::Answer {
                origin: n,
                profile,
                verdict: crawler.decide(outcome, (&pair.agent, how), &pair.url),
                crawl_delay: crawler.crawl_delay,
                pacing: crawler.pacing,
            }
        })
        .collect()
}

/// A schedule answer as the API shows it.
struct SlotShown {
    at: Option<String>,
    wait_ms: Option<u64>,
    reservation: Reservation,
    retry_after_ms: Option<u64>,
}

impl SlotShown {
    fn of(slot: Slot, now: SystemTime) -> SlotShown {
        match slot {
            Slot::Reserved(at) | Slot::Free(at) => SlotShown {
                at: Some(rfc3339(at)),
                wait_ms: Some(wait_ms(at, now)),
                reservation: if matches!(slot, Slot::Reserved(_)) {
                    Reservation::Reserved
                } else {
                    Reservation::None
                },
                retry_after_ms: None,
            },
            Slot::Full { retry_at } => SlotShown {
                at: None,
                wait_ms: None,
                reservation: Reservation::Full,
                retry_after_ms: Some(wait_ms(retry_at, now)),
            },
        }
    }
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

/// One crawler's view of one origin's rules (compiled once per batch),
/// with its pace.
struct Crawler<'a> {
    view: Option<AgentView<'a>>,
    pacing: Pacing,
    crawl_delay: Option<f64>,
}

impl<'a> Crawler<'a> {
    fn new(
        politeness: &crawlgate_fetch::PolitenessConfig,
        outcome: &'a Outcome,
        agent: &str,
        how: NameReading,
    ) -> Crawler<'a> {
        let view = outcome
            .rules
            .robots()
            .map(|robots| robots.view(Who::read(agent, how)));
        Crawler {
            crawl_delay: view
                .as_ref()
                .and_then(|v| v.crawl_delay())
                .map(|d| d.seconds),
            pacing: match &view {
                Some(view) => Pacing::from_view(view, politeness),
                None => Pacing::unrestricted(politeness),
            },
            view,
        }
    }

    /// The verdict for `url`: through the compiled view when the rules
    /// decide, else as the fetch outcome says (full allow or disallow,
    /// `/robots.txt` itself).
    fn decide(
        &self,
        outcome: &Outcome,
        (agent, how): (&str, NameReading),
        url: &str,
    ) -> ExplainedVerdict {
        match &self.view {
            Some(view) if !robots_txt_itself(url) => {
                ExplainedVerdict::named(&view.decide(url), agent)
            }
            _ => outcome.decide(Who::read(agent, how), url),
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
    required(url_field, url, limits.max_url_chars)?;
    bounded(agent_field, agent, limits.max_agent_chars)
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
    lookup: &Lookup,
    (url, agent, how): (String, String, NameReading),
    reserve: bool,
) -> Result<Allowed, ApiError> {
    let service = state.service();
    let entry = &lookup.entry;
    // The file as the crawler's operator reads it (Bing's crawlers by bing,
    // Yandex's robots by yandex), else as cached (google).
    let profile = how.profile_for(&agent, None);
    let outcome = entry.outcome.with_profile(profile);
    let verdict = outcome.decide(Who::read(&agent, how), &url);
    let crawl_delay = outcome
        .rules
        .robots()
        .and_then(|robots| robots.view(Who::read(&agent, how)).crawl_delay())
        .map(|delay| delay.seconds);
    let now = SystemTime::now();
    let slot = if verdict.allowed {
        let pacing = service.pacing(&outcome, &agent, how);
        Some(
            service
                .next_slot(&lookup.origin, &pacing, reserve, now)
                .await?,
        )
    } else {
        None
    };
    let shown = slot.map(|slot| SlotShown::of(slot, now));
    Ok(Allowed {
        warning: crawlgate_answers::agent_warning(&agent, how),
        url,
        agent,
        reading: how.as_str(),
        profile: profile.name,
        verdict,
        robots_url: lookup.origin.robots_url().to_string(),
        fetch: FetchInfo::of(entry, lookup.from_cache),
        crawl_delay,
        next_allowed_at: shown.as_ref().and_then(|s| s.at.clone()),
        wait_ms: shown.as_ref().and_then(|s| s.wait_ms),
        reservation: shown.as_ref().map_or(Reservation::None, |s| s.reservation),
        retry_after_ms: shown.as_ref().and_then(|s| s.retry_after_ms),
    })
}
