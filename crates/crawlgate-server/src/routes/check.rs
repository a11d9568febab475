//! `POST /v1/check`: a verdict per URL with the deciding line, for a pasted
//! or fetched robots.txt, under one profile or all three side by side.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use crawlgate::{Profile, RobotsTxt};
use crawlgate_fetch::{ExplainedVerdict, Outcome};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::source::{Source, SourceInfo};
use crate::error::{ApiError, ErrorBody};
use crate::input::{bounded, required, ApiJson};
use crate::state::AppState;
use crate::verdict::Explained;

/// The profiles shown side by side.
const ALL_PROFILES: [Profile; 4] = Profile::ALL;

/// What to check.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The file's text (give this or `url`).
    pub robots_txt: Option<String>,
    /// A URL of the site whose robots.txt to fetch (or reuse from the
    /// cache), per the fetch rules.
    pub url: Option<String>,
    /// The crawler's product token.
    pub agent: String,
    /// URLs or paths to decide (at most 1,000).
    pub urls: Vec<String>,
    /// `google` (default), `rfc9309` or `legacy`.
    pub profile: Option<String>,
    /// Also give the verdict under every profile.
    #[serde(default)]
    pub all_profiles: bool,
}

/// The verdict for one URL.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResult {
    /// The URL or path.
    pub url: String,
    /// The verdict under the requested profile: `allowed`, `basis`,
    /// `rule`, `fetch_outcome`, `groups`.
    #[serde(flatten)]
    pub verdict: Explained,
    /// With `all_profiles`: the verdict under each profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profiles: Option<BTreeMap<&'static str, Explained>>,
    /// With `all_profiles`: whether the profiles disagree on `allowed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profiles_differ: Option<bool>,
}

/// The verdicts.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResponse {
    /// The crawler.
    pub agent: String,
    /// The profile of `results[].allowed`.
    pub profile: &'static str,
    /// For a fetched file: where it came from and what the fetch gave.
    pub source: Option<SourceInfo>,
    /// One per URL, in order.
    pub results: Vec<CheckResult>,
}

/// Decides URLs against a pasted or fetched robots.txt.
#[utoipa::path(
    post,
    path = "/v1/check",
    request_body = CheckRequest,
    responses(
        (status = 200, description = "A verdict per URL", body = CheckResponse),
        (status = 400, description = "Invalid JSON, a missing or invalid field", body = ErrorBody),
        (status = 403, description = "The robots.txt host is not public", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "tester"
)]
pub async fn check(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<CheckRequest>,
) -> Result<Json<CheckResponse>, ApiError> {
    let limits = state.limits();
    required("agent", &request.agent, limits.max_agent_bytes)?;
    if request.urls.len() > limits.max_pairs {
        return Err(ApiError::too_many(
            "urls",
            request.urls.len(),
            limits.max_pairs,
        ));
    }
    for (i, url) in request.urls.iter().enumerate() {
        required(&format!("urls[{i}]"), url, limits.max_url_bytes)?;
    }
    let profile = parse_profile(request.profile.as_deref())?;
    let source = Source::resolve(&state, request.robots_txt, request.url).await?;

    let profiles: Vec<Profile> = if request.all_profiles {
        ALL_PROFILES.to_vec()
    } else {
        vec![profile]
    };
    let readings: Vec<(Profile, Reading)> = profiles
        .iter()
        .map(|&p| (p, Reading::of(&source, p)))
        .collect();
    let own;
    let main = match readings.iter().position(|(p, _)| *p == profile) {
        Some(i) => &readings[i].1,
        None => {
            own = Reading::of(&source, profile);
            &own
        }
    };
    let results: Vec<CheckResult> = request
        .urls
        .iter()
        .map(|url| {
            let verdict = main.decide(&request.agent, url);
            let (profiles, differ) = if request.all_profiles {
                let each: BTreeMap<&'static str, Explained> = readings
                    .iter()
                    .map(|(p, reading)| (p.name, reading.decide(&request.agent, url)))
                    .collect();
                let differ = each
                    .values()
                    .any(|v| v.verdict.allowed != verdict.verdict.allowed);
                (Some(each), Some(differ))
            } else {
                (None, None)
            };
            CheckResult {
                url: url.clone(),
                verdict,
                profiles,
                profiles_differ: differ,
            }
        })
        .collect();
    state.metrics().decided(results.len() as u64);
    Ok(Json(CheckResponse {
        agent: request.agent,
        profile: profile.name,
        source: source.info().cloned(),
        results,
    }))
}

/// The source as one profile reads it: the fetched outcome (parsed again
/// when the profile differs from the fetch's), or a parse of the pasted
/// bytes.
enum Reading {
    Fetched(Outcome),
    Parsed(Box<RobotsTxt>),
}

impl Reading {
    fn of(source: &Source, profile: Profile) -> Reading {
        match source {
            Source::Pasted(body) => Reading::Parsed(Box::new(RobotsTxt::parse_with(body, profile))),
            Source::Fetched { outcome, .. } => Reading::Fetched(outcome.with_profile(profile)),
        }
    }

    fn decide(&self, agent: &str, url: &str) -> Explained {
        Explained::from(match self {
            Reading::Fetched(outcome) => outcome.decide(agent, url),
            Reading::Parsed(robots) => ExplainedVerdict::decide(robots, agent, url),
        })
    }
}

/// `profile`, checked.
pub fn parse_profile(name: Option<&str>) -> Result<Profile, ApiError> {
    match name {
        None => Ok(Profile::GOOGLE),
        Some(name) => {
            bounded("profile", name, 64)?;
            Profile::named(name).ok_or_else(|| {
                ApiError::invalid(
                    "profile",
                    format!("{name:?} is not a profile; use google, rfc9309, legacy or bing"),
                )
            })
        }
    }
}
