//! The version store of `crawlgate serve` as a source of dated versions:
//! the versions of one origin's robots.txt the service recorded (`GET
//! /v1/robots?origin=`), each fetched (`GET /v1/robots/version?origin=&id=`)
//! and in force from the time the service fetched it, so that each request
//! is judged by the version in force at its time, as with a folder of dated
//! versions ([`crate::robots::read_versions`]).
//!
//! The user names their own service, so loopback and private addresses are
//! reached (link-local ones only when asked); every answer is bounded (its
//! size, the number of versions, the bytes read in all, a timeout per
//! request), and an answer that is not what the service gives is an error
//! naming its URL.

use std::sync::Arc;
use std::time::Duration;

use crawlgate::Profile;
use crawlgate_answers::{
    FetchResult, Origin, Outcome, OutcomeKind, OutcomeReason, RobotsCopy, RobotsSource, Rules,
};
use crawlgate_fetch::{AddressPolicy, ClientConfig, RobotsClient, SystemResolver};
use serde::Deserialize;
use url::Url;

use crate::robots::{Site, Version};
use crate::time::{format_rfc3339, Millis};

/// The most bytes one answer of the service may have (a version's body is
/// at most the service's robots.txt limit, escaped as JSON text).
pub const MAX_ANSWER_BYTES: usize = 8 << 20;

/// The longest origin asked about (the service takes URLs of 8,192
/// characters at most).
pub const MAX_ORIGIN_BYTES: usize = 2_048;

/// How the service is asked.
#[derive(Clone, Debug)]
pub struct ServiceOptions {
    /// The longest one request may take, redirects and body included.
    pub timeout: Duration,
    /// The most versions read (the service keeps 30 days of them).
    pub max_versions: usize,
    /// The most bytes read in all, every answer counted.
    pub max_bytes: u64,
    /// Whether link-local addresses may be reached (loopback and private
    /// ones always may: the user names their own service).
    pub allow_link_local: bool,
    /// The User-Agent header sent.
    pub user_agent: String,
}

impl Default for ServiceOptions {
    fn default() -> Self {
        ServiceOptions {
            timeout: Duration::from_secs(30),
            max_versions: 1_000,
            max_bytes: 256 << 20,
            allow_link_local: false,
            user_agent: crawlgate_fetch::DEFAULT_USER_AGENT.to_owned(),
        }
    }
}

/// Why the service's versions could not be read: each names the URL asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The service URL or the origin is not usable.
    #[error("{0}")]
    Argument(String),
    /// The service could not be reached, or answered an error.
    #[error("{url}: {why}")]
    Request {
        /// The URL asked.
        url: String,
        /// What went wrong.
        why: String,
    },
    /// The service answered something that is not its answer.
    #[error("{url}: not the answer of a crawlgate service: {why}")]
    Answer {
        /// The URL asked.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// More than the bounds allow.
    #[error("{url}: {why}")]
    TooMuch {
        /// The URL asked.
        url: String,
        /// Which bound.
        why: String,
    },
}

/// The versions read, and what the reader should know about them.
#[derive(Debug)]
pub struct ServiceVersions {
    /// The versions, oldest first.
    pub site: Site,
    /// Versions left out, and why.
    pub warnings: Vec<String>,
}

#[derive(Deserialize)]
struct Listing {
    robots_url: String,
    history: Vec<ListedVersion>,
}

#[derive(Deserialize)]
struct ListedVersion {
    id: u64,
}

#[derive(Deserialize)]
struct VersionAnswer {
    id: u64,
    outcome: OutcomeKind,
    reason: OutcomeReason,
    body: Option<String>,
}

#[derive(Deserialize)]
struct ErrorAnswer {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    code: String,
    problem: String,
}

struct Client {
    client: RobotsClient,
    read: u64,
    max_bytes: u64,
}

impl Client {
    /// The JSON answer at `url`, or why not.
    async fn get<T: serde::de::DeserializeOwned>(&mut self, url: &Url) -> Result<T, ServiceError> {
        let at = shown(url.as_str(), 300);
        let request = |why: String| ServiceError::Request {
            url: at.clone(),
            why,
        };
        let attempt = self
            .client
            .fetch(url)
            .await
            .map_err(|e| request(shown(&e.to_string(), 300)))?;
        self.read += attempt.bytes_read;
        if attempt.truncated {
            return Err(ServiceError::TooMuch {
                url: at,
                why: format!("answered more than {} MiB", MAX_ANSWER_BYTES >> 20),
            });
        }
        if self.read > self.max_bytes {
            return Err(ServiceError::TooMuch {
                url: at,
                why: format!(
                    "the service's answers hold more than {} MiB in all",
                    self.max_bytes >> 20
                ),
            });
        }
        let response = match attempt.result {
            FetchResult::Response(response) => response,
            FetchResult::RedirectNotFollowed(stop) => return Err(request(stop.to_string())),
            FetchResult::Network(failure) => {
                return Err(request(format!(
                    "cannot reach the service ({}: {})",
                    failure.kind,
                    shown(&failure.message, 300)
                )))
            }
        };
        if response.status != 200 {
            let said = serde_json::from_slice::<ErrorAnswer>(&response.body)
                .map(|e| {
                    format!(
                        ": {} ({})",
                        shown(&e.error.problem, 300),
                        shown(&e.error.code, 40)
                    )
                })
                .unwrap_or_default();
            return Err(request(format!("answered HTTP {}{said}", response.status)));
        }
        serde_json::from_slice(&response.body).map_err(|e| ServiceError::Answer {
            url: at,
            why: e.to_string(),
        })
    }
}

/// `text`, cut to `max` characters (a 70,000-character argument or an
/// answer's message stays readable in an error).
fn shown(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// The URL of `path` on the service at `base`, with `query`.
fn endpoint(base: &Url, path: &str, query: &[(&str, &str)]) -> Url {
    let mut url = base.join(path).unwrap_or_else(|_| base.clone());
    url.query_pairs_mut().clear().extend_pairs(query);
    url
}

/// The service's base URL (`http://127.0.0.1:8080`, maybe under a path).
fn service_base(service: &str) -> Result<Url, ServiceError> {
    let named = shown(service, 200);
    let mut url = Url::parse(service).map_err(|e| {
        ServiceError::Argument(format!(
            "{named}: not the URL of a crawlgate service (http://HOST:PORT): {e}"
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(ServiceError::Argument(format!(
            "{named}: not the URL of a crawlgate service (http://HOST:PORT)"
        )));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(ServiceError::Argument(format!(
            "{named}: the service's URL takes no query or fragment"
        )));
    }
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

/// A version's rules as the service's crawler obeyed them: its body, or,
/// for a failed refresh that kept the last copy (recorded without it), the
/// copy of the version before.
fn outcome_of(
    answer: &VersionAnswer,
    previous: Option<&Arc<RobotsCopy>>,
) -> Result<Option<Outcome>, String> {
    let rules = match (answer.outcome, &answer.body, previous) {
        (OutcomeKind::FullAllow, _, _) => Rules::FullAllow,
        (OutcomeKind::FullDisallow, _, _) => Rules::FullDisallow,
        (OutcomeKind::Conditional, Some(body), _) => Rules::Conditional(Arc::new(
            RobotsCopy::parse(body.as_bytes(), Profile::GOOGLE),
        )),
        (OutcomeKind::Conditional, None, Some(copy)) => Rules::Conditional(Arc::clone(copy)),
        (OutcomeKind::Conditional, None, None) if answer.reason != OutcomeReason::Fetched => {
            return Ok(None)
        }
        (OutcomeKind::Conditional, None, None) => {
            return Err("a fetched version without its body".to_owned())
        }
    };
    Ok(Some(Outcome {
        rules,
        reason: answer.reason,
    }))
}

/// Reads the versions `crawlgate serve` at `service` recorded of
/// `origin`'s robots.txt: each in force from the time the service fetched
/// it (its id, in microseconds), labelled with its URL, id and time.
pub async fn read_versions(
    service: &str,
    origin: &str,
    options: &ServiceOptions,
) -> Result<ServiceVersions, ServiceError> {
    let base = service_base(service)?;
    let origin_shown = shown(origin, 200);
    if origin.len() > MAX_ORIGIN_BYTES {
        return Err(ServiceError::Argument(format!(
            "{origin_shown}: not an origin: longer than {MAX_ORIGIN_BYTES} bytes"
        )));
    }
    let parsed = Origin::from_url(origin)
        .map_err(|e| ServiceError::Argument(format!("{origin_shown}: not an origin: {e}")))?;
    let origin = parsed.to_string();
    let mut config = ClientConfig::default();
    config.user_agent = options.user_agent.clone();
    config.max_body_bytes = MAX_ANSWER_BYTES;
    config.timeout = options.timeout;
    config.connect_timeout = options.timeout.min(Duration::from_secs(10));
    config.address_policy = if options.allow_link_local {
        AddressPolicy::allow_private().allow_link_local()
    } else {
        AddressPolicy::allow_private()
    };
    let client = RobotsClient::new(config, Arc::new(SystemResolver))
        .map_err(|e| ServiceError::Argument(format!("cannot make an HTTP client: {e}")))?;
    let mut client = Client {
        client,
        read: 0,
        max_bytes: options.max_bytes,
    };
    let listing_url = endpoint(&base, "v1/robots", &[("origin", &origin)]);
    let listing: Listing = client.get(&listing_url).await?;
    if listing.history.len() > options.max_versions {
        return Err(ServiceError::TooMuch {
            url: shown(listing_url.as_str(), 300),
            why: format!(
                "lists {} versions, more than the {} read",
                listing.history.len(),
                options.max_versions
            ),
        });
    }
    if listing.history.is_empty() {
        return Err(ServiceError::Answer {
            url: shown(listing_url.as_str(), 300),
            why: format!("no version of {origin} is listed"),
        });
    }
    let robots_url = shown(&listing.robots_url, 300);
    let mut ids: Vec<u64> = listing.history.iter().map(|v| v.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut versions = Vec::with_capacity(ids.len());
    let mut warnings = Vec::new();
    let mut previous: Option<Arc<RobotsCopy>> = None;
    for id in ids {
        let id_text = id.to_string();
        let url = endpoint(
            &base,
            "v1/robots/version",
            &[("origin", &origin), ("id", &id_text)],
        );
        let answer: VersionAnswer = client.get(&url).await?;
        if answer.id != id {
            return Err(ServiceError::Answer {
                url: shown(url.as_str(), 300),
                why: format!("asked for version {id}, given {}", answer.id),
            });
        }
        let since = Millis::try_from(id / 1_000).map_err(|_| ServiceError::Answer {
            url: shown(url.as_str(), 300),
            why: format!("version {id} is not a time"),
        })?;
        let outcome =
            outcome_of(&answer, previous.as_ref()).map_err(|why| ServiceError::Answer {
                url: shown(url.as_str(), 300),
                why,
            })?;
        let Some(outcome) = outcome else {
            warnings.push(format!(
                "{robots_url}: version {id} ({}) kept an earlier copy the service no longer holds: left out",
                answer.reason
            ));
            continue;
        };
        if let Rules::Conditional(copy) = &outcome.rules {
            previous = Some(Arc::clone(copy));
        }
        versions.push(Version {
            since: Some(since),
            label: format!(
                "{robots_url} version {id} (since {})",
                format_rfc3339(since)
            ),
            robots: RobotsSource::fetched(outcome),
        });
    }
    if versions.is_empty() {
        return Err(ServiceError::Answer {
            url: shown(listing_url.as_str(), 300),
            why: format!("no version of {origin} can be read"),
        });
    }
    Ok(ServiceVersions {
        site: Site::versions(versions),
        warnings,
    })
}

/// [`read_versions`] on a runtime of its own, for callers without one.
pub fn read_versions_blocking(
    service: &str,
    origin: &str,
    options: &ServiceOptions,
) -> Result<ServiceVersions, ServiceError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServiceError::Argument(format!("cannot start the network runtime: {e}")))?;
    runtime.block_on(read_versions(service, origin, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_url_and_its_endpoints() {
        let base = service_base("http://127.0.0.1:8080").unwrap();
        let url = endpoint(&base, "v1/robots", &[("origin", "https://example.com/")]);
        assert_eq!(
            url.as_str(),
            "http://127.0.0.1:8080/v1/robots?origin=https%3A%2F%2Fexample.com%2F"
        );
        let proxied = service_base("https://tools.example/crawlgate").unwrap();
        let url = endpoint(&proxied, "v1/robots/version", &[("id", "7")]);
        assert_eq!(
            url.as_str(),
            "https://tools.example/crawlgate/v1/robots/version?id=7"
        );
        for bad in ["ftp://h/", "127.0.0.1:8080", "http://h/?x=1", ""] {
            assert!(
                matches!(service_base(bad), Err(ServiceError::Argument(_))),
                "{bad}"
            );
        }
    }

    fn answer(outcome: OutcomeKind, reason: OutcomeReason, body: Option<&str>) -> VersionAnswer {
        VersionAnswer {
            id: 1,
            outcome,
            reason,
            body: body.map(str::to_owned),
        }
    }

    #[test]
    fn a_version_kept_without_its_copy_obeys_the_one_before() {
        let copy = Arc::new(RobotsCopy::parse(
            b"User-agent: *\nDisallow: /a\n",
            Profile::GOOGLE,
        ));
        let stale = answer(OutcomeKind::Conditional, OutcomeReason::StaleCopy, None);
        let kept = outcome_of(&stale, Some(&copy)).unwrap().unwrap();
        assert!(matches!(&kept.rules, Rules::Conditional(c) if Arc::ptr_eq(c, &copy)));
        assert!(outcome_of(&stale, None).unwrap().is_none());
        let fetched = answer(OutcomeKind::Conditional, OutcomeReason::Fetched, None);
        assert!(outcome_of(&fetched, None).is_err());
        let down = answer(OutcomeKind::FullDisallow, OutcomeReason::ServerError, None);
        assert!(matches!(
            outcome_of(&down, Some(&copy)).unwrap().unwrap().rules,
            Rules::FullDisallow
        ));
    }
}
