//! `POST /v1/check`: a verdict per URL with the deciding line, for a pasted
//! or fetched robots.txt, under one profile or all three side by side.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use crawlgate::{Profile, Reading as NameReading, Who};
use crawlgate_answers::{ExplainedVerdict, Preferences};
use serde::{Deserialize, Serialize, Serializer};
use utoipa::ToSchema;

use super::source::{Given, Source, SourceInfo};
use crate::allowance::Client;
use crate::budget::estimate;
use crate::error::{ApiError, ErrorBody};
use crate::input::{bounded, ApiJson};
use crate::reading::parse_reading;
use crate::state::AppState;
use crate::verdict::LicenseShown;

/// The profiles shown side by side.
const ALL_PROFILES: [Profile; 5] = Profile::ALL;

/// What to check.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The file's text. Give exactly one of `robots_txt`, `robots_txt_b64`
    /// and `url`.
    pub robots_txt: Option<String>,
    /// The file's bytes in standard base64 with padding: for a file that is
    /// not UTF-8 (it is read byte for byte, as crawlers read it).
    pub robots_txt_b64: Option<String>,
    /// A URL of the site whose robots.txt to fetch (or reuse from the
    /// cache), per the fetch rules.
    pub url: Option<String>,
    /// The crawler: a name the crawler registry knows (`Googlebot-Image`,
    /// `AdsBot-Google`, a full User-Agent header) is read by its operator's
    /// rules; any other string is one product token. Any string, the empty
    /// one included (an empty agent obeys only `*`, as in Google's library).
    #[schema(example = "Googlebot-Image")]
    pub agent: String,
    /// `crawler` (default): the crawler reading, as `crawlgate check`;
    /// `one-token`: the agent is one product token, exactly as Google's
    /// library reads it (`crawlgate check --one-token`).
    #[schema(example = "crawler")]
    pub reading: Option<String>,
    /// URLs or paths to decide (at most 1,000). Any string, the empty one
    /// included: Google's library reads the empty URL as the path `/`.
    pub urls: Vec<String>,
    /// `google` (default), `rfc9309`, `legacy` or `bing`.
    pub profile: Option<String>,
    /// Also give the verdict under every profile.
    #[serde(default)]
    pub all_profiles: bool,
}

/// Each profile's verdict with its groups, as `verdict` is shown.
fn each_with_groups<S: Serializer>(
    each: &Option<BTreeMap<&'static str, ExplainedVerdict>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match each {
        Some(each) => serializer.collect_map(each.iter().map(|(p, v)| (p, v.with_groups()))),
        None => serializer.serialize_none(),
    }
}

/// The verdict for one URL.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResult {
    /// The URL or path.
    pub url: String,
    /// The verdict under the requested profile: `allowed`, `basis`,
    /// `rule`, `fetch_outcome`, `choice` (which token's group decided, the
    /// kind of choice and the sentence why), `groups`
    /// (`[{first_line, last_line}]`, the groups the crawler obeyed).
    #[serde(flatten, serialize_with = "ExplainedVerdict::serialize_with_groups")]
    #[schema(value_type = Object)]
    pub verdict: ExplainedVerdict,
    /// The usage preferences (`Content-Usage`, `Content-Signal`) that apply
    /// to the URL for the crawler, under the requested profile; absent when
    /// the file states none for it there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preferences: Option<Preferences>,
    /// With `all_profiles`: the verdict under each profile.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "each_with_groups"
    )]
    #[schema(value_type = Option<BTreeMap<String, Object>>)]
    pub profiles: Option<BTreeMap<&'static str, ExplainedVerdict>>,
    /// With `all_profiles`: whether the profiles disagree on `allowed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profiles_differ: Option<bool>,
}

/// The verdicts.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResponse {
    /// The crawler.
    pub agent: String,
    /// How the agent was read: `crawler` or `one-token`.
    #[schema(example = "crawler")]
    pub reading: &'static str,
    /// The profile of `results[].allowed`.
    pub profile: &'static str,
    /// The file's `License:` lines (RSL 1.0), file-wide; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub licenses: Vec<LicenseShown>,
    /// For a fetched file: where it came from and what the fetch gave.
    pub source: Option<SourceInfo>,
    /// Why `agent`, as given, finds no group of its own (empty, not a
    /// product token, nor a crawler the registry knows); absent when it can.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
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
    Client(client): Client,
    ApiJson(request): ApiJson<CheckRequest>,
) -> Result<Json<CheckResponse>, ApiError> {
    let limits = state.limits();
    bounded("agent", &request.agent, limits.max_agent_chars)?;
    if request.urls.len() > limits.max_pairs {
        return Err(ApiError::too_many(
            "urls",
            request.urls.len(),
            limits.max_pairs,
        ));
    }
    for (i, url) in request.urls.iter().enumerate() {
        if url.len() > limits.max_url_chars {
            bounded(&format!("urls[{i}]"), url, limits.max_url_chars)?;
        }
    }
    let how = parse_reading(request.reading.as_deref())?;
    // By default, the crawler's operator's own reading (Bing's crawlers: bing; Yandex's robots:
    // yandex), else google.
    let profile = how.profile_for(&request.agent, parse_profile(request.profile.as_deref())?);
    let given = Given {
        robots_txt: request.robots_txt,
        robots_txt_b64: request.robots_txt_b64,
        url: request.url,
    };
    let source = Source::resolve(&state, given, &state.allowance(client)).await?;
    let info = source.info().cloned();
    let profiles = if request.all_profiles {
        ALL_PROFILES.len()
    } else {
        1
    };
    let url_bytes = request.urls.iter().map(String::len).sum();
    let cost = estimate::check(source.len(), request.urls.len(), url_bytes, profiles);
    let (agent, urls, all) = (request.agent, request.urls, request.all_profiles);
    // Parsing 500 KiB under four profiles and deciding a thousand long URLs
    // takes a while: on a worker thread, within the memory budget.
    let (agent, results, licenses) = state
        .budget()
        .run_heavy(cost, move || {
            let (results, licenses) = decide_all(&source, profile, (&agent, how), &urls, all);
            (agent, results, licenses)
        })
        .await?;
    state.metrics().decided(results.len() as u64);
    Ok(Json(CheckResponse {
        warning: crawlgate_answers::agent_warning(&agent, how),
        agent,
        reading: how.as_str(),
        profile: profile.name,
        licenses,
        source: info,
        results,
    }))
}

/// Every URL's verdict under `profile`, and under every profile with `all`;
/// and the file's licences.
fn decide_all(
    source: &Source,
    profile: Profile,
    (agent, how): (&str, NameReading),
    urls: &[String],
    all: bool,
) -> (Vec<CheckResult>, Vec<LicenseShown>) {
    let profiles: Vec<Profile> = if all {
        ALL_PROFILES.to_vec()
    } else {
        vec![profile]
    };
    // Each profile's reading is made once, when first asked for.
    let main = source.robots.read(profile);
    let view = main
        .robots()
        .map(|robots| robots.view(Who::read(agent, how)));
    let licenses = main.robots().map(LicenseShown::all).unwrap_or_default();
    let results = urls
        .iter()
        .map(|url| {
            let verdict = main.decide(Who::read(agent, how), url);
            let preferences = view
                .as_ref()
                .and_then(|v| v.preferences(url))
                .filter(|p| !p.is_empty())
                .map(|p| Preferences::of(&p));
            let (profiles, differ) = if all {
                let each: BTreeMap<&'static str, ExplainedVerdict> = profiles
                    .iter()
                    .map(|&p| {
                        (
                            p.name,
                            source.robots.read(p).decide(Who::read(agent, how), url),
                        )
                    })
                    .collect();
                let differ = each.values().any(|v| v.allowed != verdict.allowed);
                (Some(each), Some(differ))
            } else {
                (None, None)
            };
            CheckResult {
                url: url.clone(),
                verdict,
                preferences,
                profiles,
                profiles_differ: differ,
            }
        })
        .collect();
    (results, licenses)
}

/// The profile names the API accepts, exactly as written: those of
/// [`Profile::ALL`], in its order (the default first).
pub const PROFILE_NAMES: [&str; Profile::ALL.len()] = {
    let mut names = [""; Profile::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Profile::ALL[i].name;
        i += 1;
    }
    names
};

/// `profile`, checked: one of [`PROFILE_NAMES`], exactly; `None` when the
/// request names none.
pub fn parse_profile(name: Option<&str>) -> Result<Option<Profile>, ApiError> {
    match name {
        None => Ok(None),
        Some(name) => ALL_PROFILES
            .into_iter()
            .find(|p| p.name == name)
            .map(Some)
            .ok_or_else(|| {
                let shown: String = name.chars().take(64).collect();
                ApiError::invalid(
                    "profile",
                    format!(
                        "{shown:?} is not a profile; use one of {}",
                        PROFILE_NAMES.join(", ")
                    ),
                )
            }),
    }
}
