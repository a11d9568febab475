//! `POST /v1/policy`: `crawlgate policy` for the tester's panel: the
//! robots.txt that says a policy (merged into a pasted file, or new), its
//! proof, the table crawler × purpose × verdict, and the server rules.
//! The work is the `crawlgate-policy` crate's, as the command's is.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::Json;
use crawlgate_policy::{merge, write, Access, Policy, PolicyError, Purpose, Written};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::budget::estimate;
use crate::error::{ApiError, ErrorBody};
use crate::input::ApiJson;
use crate::state::AppState;

/// The most crawlers, paths or sitemaps a request names: more than any
/// policy needs, few enough that checking them is cheap.
pub const MAX_ITEMS: usize = 1_000;

/// A policy, as POLICY.toml says it, and the file to merge it into.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyRequest {
    /// The access per purpose (`search`, `ai-train`, `ai-use`,
    /// `user-fetch`, `archive`, `ads`, `seo`, `link-preview`, `other`):
    /// `allow` or `deny`. A purpose left out keeps the site's rules.
    #[serde(default)]
    #[schema(example = json!({"search": "allow", "ai-train": "deny"}))]
    pub purposes: BTreeMap<String, String>,
    /// Per-crawler overrides, by a name, alias or token of the registry.
    #[serde(default)]
    pub crawlers: BTreeMap<String, String>,
    /// Paths no crawler may fetch.
    #[serde(default)]
    pub private: Vec<String>,
    /// A path every crawler is told not to fetch.
    pub honeypot: Option<String>,
    /// Seconds between requests for the crawlers that read Crawl-delay (1–30).
    pub crawl_delay: Option<f64>,
    /// Sitemap URLs.
    #[serde(default)]
    pub sitemaps: Vec<String>,
    /// The URL of the site's licence (RSL 1.0).
    pub license: Option<String>,
    /// The site's robots.txt to merge the policy into; absent: a new file.
    pub robots_txt: Option<String>,
}

/// What was proven of the file.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProofShown {
    /// Whether everything holds (always true in an answer: a file that
    /// does not say what the policy means is refused).
    pub holds: bool,
    /// How many verdicts were checked.
    pub verdicts: usize,
    /// The linter's informations on the file (new ones, on a merge).
    pub lint_infos: Vec<String>,
}

/// The server rules, for each server.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServerRulesShown {
    /// A snippet to include inside nginx's `server {}`.
    pub nginx: String,
    /// Apache httpd (mod_rewrite).
    pub apache: String,
    /// A snippet to import in a Caddy site block.
    pub caddy: String,
    /// Lines for an HAProxy frontend.
    pub haproxy: String,
    /// The crawlers they answer 403.
    pub denied: Vec<&'static str>,
}

/// The file, its proof, the table and the server rules.
#[derive(Debug, Serialize, ToSchema)]
pub struct PolicyResponse {
    /// The robots.txt.
    pub robots_txt: String,
    /// On a merge, the unified diff from the given file.
    pub diff: Option<String>,
    /// What a person should know (groups split, crawlers sharing a token,
    /// crawlers that ignore robots.txt).
    pub notes: Vec<String>,
    /// What was proven.
    pub proof: ProofShown,
    /// `crawlgate policy --explain`'s rows: {crawler, token, purpose,
    /// policy, expected, allowed, choice, group_line, profile, preference,
    /// server_rule, holds}.
    #[schema(value_type = Vec<Object>)]
    pub crawlers: serde_json::Value,
    /// The server rules.
    pub server: ServerRulesShown,
}

fn access(field: &str, value: &str) -> Result<Access, ApiError> {
    value
        .parse()
        .map_err(|e: String| ApiError::invalid(field, e))
}

fn count(field: &str, n: usize) -> Result<(), ApiError> {
    if n > MAX_ITEMS {
        return Err(ApiError::too_many(field, n, MAX_ITEMS));
    }
    Ok(())
}

/// The policy a request says.
fn policy_of(request: &PolicyRequest) -> Result<Policy, ApiError> {
    count("purposes", request.purposes.len())?;
    count("crawlers", request.crawlers.len())?;
    count("private", request.private.len())?;
    count("sitemaps", request.sitemaps.len())?;
    let mut policy = Policy::new();
    for (name, value) in &request.purposes {
        let purpose: Purpose = name
            .parse()
            .map_err(|e: String| ApiError::invalid("purposes", e))?;
        policy = policy.with(purpose, access(&format!("purposes.{purpose}"), value)?);
    }
    for (name, value) in &request.crawlers {
        policy = policy.with_crawler(name, access("crawlers", value)?);
    }
    policy.private.clone_from(&request.private);
    policy.honeypot.clone_from(&request.honeypot);
    policy.crawl_delay = request.crawl_delay;
    policy.sitemaps.clone_from(&request.sitemaps);
    policy.license.clone_from(&request.license);
    Ok(policy)
}

/// The request field a policy error is about.
fn field_of(error: &PolicyError) -> &'static str {
    match error {
        PolicyError::UnknownCrawler { .. } | PolicyError::TokenConflict { .. } => "crawlers",
        PolicyError::BadPath {
            what: "honeypot", ..
        } => "honeypot",
        PolicyError::BadPath { .. } => "private",
        PolicyError::BadUrl {
            what: "sitemap", ..
        } => "sitemaps",
        PolicyError::BadUrl { .. } => "license",
        PolicyError::CrawlDelay(_) => "crawl_delay",
        PolicyError::Merge(_) => "robots_txt",
        _ => "policy",
    }
}

fn response_of(written: &Written) -> Result<PolicyResponse, ApiError> {
    let crawlers = serde_json::to_value(written.explain_rows())
        .map_err(|e| ApiError::unavailable(format!("the table: {e}")))?;
    Ok(PolicyResponse {
        robots_txt: written.text().into_owned(),
        diff: written.diff.clone(),
        notes: written.notes.clone(),
        proof: ProofShown {
            holds: written.proof.holds(),
            verdicts: written.proof.verdicts,
            lint_infos: written.proof.lint_infos.clone(),
        },
        crawlers,
        server: ServerRulesShown {
            nginx: written.server.nginx(),
            apache: written.server.apache(),
            caddy: written.server.caddy(),
            haproxy: written.server.haproxy(),
            denied: written.server.denied.iter().map(|c| c.name).collect(),
        },
    })
}

/// Writes the robots.txt that says a policy, merged into `robots_txt` when
/// one is given, proven for every crawler of the registry.
#[utoipa::path(
    post,
    path = "/v1/policy",
    request_body = PolicyRequest,
    responses(
        (status = 200, description = "The file, its proof, the table and the server rules", body = PolicyResponse),
        (status = 400, description = "Invalid JSON, a policy that cannot be written, or a file that is no robots.txt", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "tester"
)]
pub async fn policy(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<PolicyRequest>,
) -> Result<Json<PolicyResponse>, ApiError> {
    let limits = state.limits();
    if let Some(text) = &request.robots_txt {
        if text.len() > limits.max_robots_bytes {
            return Err(ApiError::too_long(
                "robots_txt",
                text.len(),
                limits.max_robots_bytes,
                "bytes",
            ));
        }
    }
    let policy = policy_of(&request)?;
    let existing = request.robots_txt.map(String::into_bytes);
    let size = existing.as_ref().map_or(0, Vec::len);
    // Linting and proving take a while on a large file: on a worker
    // thread, within the memory budget.
    let written = state
        .budget()
        .run_heavy(estimate::policy(size), move || match existing {
            Some(bytes) => merge(&policy, &bytes),
            None => write(&policy),
        })
        .await?
        .map_err(|e| ApiError::invalid(field_of(&e), e.to_string()))?;
    Ok(Json(response_of(&written)?))
}
