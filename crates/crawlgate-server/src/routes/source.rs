//! `{robots_txt | url}`: the file a check or lint is about, pasted or
//! fetched (or reused from the cache) by URL.

use crawlgate_fetch::{Origin, Outcome, Rules};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::input::{bounded, required};
use crate::state::AppState;
use crate::verdict::FetchInfo;

/// Where a fetched file came from.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SourceInfo {
    /// The origin.
    pub origin: String,
    /// The robots.txt URL.
    pub robots_url: String,
    /// What the fetch gave.
    pub fetch: FetchInfo,
}

/// The file to work on.
pub enum Source {
    /// Pasted bytes.
    Pasted(Vec<u8>),
    /// Fetched (or cached) by URL: its outcome and where it came from.
    Fetched {
        /// Full allow, full disallow, or the parsed copy, and why.
        outcome: Outcome,
        /// Origin, robots.txt URL and fetch facts.
        info: SourceInfo,
    },
}

impl Source {
    /// Resolves the request's `robots_txt` or `url` (exactly one).
    pub async fn resolve(
        state: &AppState,
        robots_txt: Option<String>,
        url: Option<String>,
    ) -> Result<Source, ApiError> {
        let limits = state.limits();
        match (robots_txt, url) {
            (Some(body), None) => {
                bounded("robots_txt", &body, limits.max_robots_bytes)?;
                Ok(Source::Pasted(body.into_bytes()))
            }
            (None, Some(url)) => {
                required("url", &url, limits.max_url_bytes)?;
                let origin = Origin::from_url(&url).map_err(|e| ApiError::invalid("url", e.to_string()))?;
                let lookup = state
                    .service()
                    .lookup(&origin)
                    .await
                    .map_err(|e| e.into_api("url"))?;
                Ok(Source::Fetched {
                    outcome: lookup.entry.outcome.clone(),
                    info: SourceInfo {
                        origin: origin.to_string(),
                        robots_url: origin.robots_url().to_string(),
                        fetch: FetchInfo::of(&lookup.entry, lookup.from_cache),
                    },
                })
            }
            (Some(_), Some(_)) => Err(ApiError::invalid(
                "url",
                "give either robots_txt (the file's text) or url (to fetch it), not both",
            )),
            (None, None) => Err(ApiError::missing(
                "robots_txt",
                "give robots_txt (the file's text) or url (a URL of the site whose robots.txt to fetch)",
            )),
        }
    }

    /// The bytes to parse, if there are any (a fetched full allow or full
    /// disallow has none).
    pub fn body(&self) -> Option<&[u8]> {
        match self {
            Source::Pasted(body) => Some(body),
            Source::Fetched { outcome, .. } => match &outcome.rules {
                Rules::Conditional(copy) => Some(copy.body()),
                _ => None,
            },
        }
    }

    /// The fetch facts, for a fetched file.
    pub fn info(&self) -> Option<&SourceInfo> {
        match self {
            Source::Pasted(_) => None,
            Source::Fetched { info, .. } => Some(info),
        }
    }
}
