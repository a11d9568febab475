//! `POST /v1/verify`: is this request from the crawler its User-Agent
//! names? The crawler of the registry, one of four identities (verified,
//! spoofed, unverifiable, unknown) and why: what `crawlgate audit` writes
//! for a request from this address with this agent, from the same
//! verifier (the operators' IP feeds and reverse-then-forward DNS), whose
//! caches every request shares.

use std::net::IpAddr;

use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::input::{required, ApiJson};
use crate::state::AppState;

/// What to verify.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The address the request came from (IPv4 or IPv6).
    #[schema(example = "66.249.66.1")]
    pub ip: String,
    /// Its `User-Agent` header, whole.
    #[schema(example = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")]
    pub user_agent: String,
}

/// The crawler of the registry an agent names.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifiedCrawler {
    /// Its name in the registry.
    pub name: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What for (`search`, `ai-training`, …).
    pub purpose: &'static str,
    /// `crawler` (on its own), `user` (when a person asks) or `control`.
    pub kind: &'static str,
    /// Whether it obeys robots.txt: `yes`, `no`, `partial`, `unknown`.
    pub obeys: &'static str,
    /// The methods its operator publishes, as `feed URL` or `dns SUFFIX, …`;
    /// empty when there is none (then it is unverifiable).
    pub methods: Vec<String>,
}

/// The answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct VerifyResponse {
    /// The address, as read.
    pub ip: String,
    /// The crawler the agent names, or `null` when it names none.
    pub crawler: Option<VerifiedCrawler>,
    /// `verified`, `spoofed`, `unverifiable` or `unknown`; `null` when the
    /// agent names no crawler.
    pub identity: Option<&'static str>,
    /// Why, in a sentence.
    pub why: String,
}

fn methods(crawler: &crawlgate::registry::Crawler) -> Vec<String> {
    use crawlgate::registry::verification::{self, Method};
    verification::for_crawler(crawler)
        .map(|v| match v.method {
            Method::Feed { url } => format!("feed {url}"),
            Method::Dns { suffixes, .. } => format!("dns {}", suffixes.join(", ")),
        })
        .collect()
}

/// Verifies an address against the crawler its agent names.
#[utoipa::path(
    post,
    path = "/v1/verify",
    request_body = VerifyRequest,
    responses(
        (status = 200, description = "The crawler named, its identity and why", body = VerifyResponse),
        (status = 400, description = "Invalid JSON, a missing field, an address that is not one, an agent over the limit", body = ErrorBody),
        (status = 413, description = "The body is over the limit", body = ErrorBody),
    ),
    tag = "audit"
)]
pub async fn verify(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<VerifyRequest>,
) -> Result<Json<VerifyResponse>, ApiError> {
    required("ip", &request.ip, 64)?;
    let ip: IpAddr = request.ip.trim().parse().map_err(|_| {
        ApiError::invalid(
            "ip",
            "not an IPv4 or IPv6 address (66.249.66.1, 2001:4860:4801::1)",
        )
    })?;
    if request.user_agent.chars().count() > state.limits().max_agent_chars {
        return Err(ApiError::invalid(
            "user_agent",
            format!("longer than {} characters", state.limits().max_agent_chars),
        ));
    }
    let ip_text = ip.to_string();
    let Some(crawler) = (!request.user_agent.trim().is_empty())
        .then(|| crawlgate::registry::identify(&request.user_agent))
        .flatten()
    else {
        return Ok(Json(VerifyResponse {
            ip: ip_text,
            crawler: None,
            identity: None,
            why: "the user agent names no crawler of the registry".into(),
        }));
    };
    let identity = state.verifier().verify(ip, crawler).await;
    Ok(Json(VerifyResponse {
        ip: ip_text,
        crawler: Some(VerifiedCrawler {
            name: crawler.name,
            operator: crawler.operator,
            purpose: crawler.purpose.as_str(),
            kind: crawler.kind.as_str(),
            obeys: crawler.obeys.as_str(),
            methods: methods(crawler),
        }),
        identity: Some(identity.state.as_str()),
        why: identity.why.to_string(),
    }))
}
