//! The HTTP client: one unconditional GET per hop, redirects followed by
//! hand so every hop is counted and checked against the address policy,
//! timeouts on connect and on the whole fetch, and a body read up to the
//! size limit.

use std::collections::HashSet;
use std::error::Error as StdError;
use std::io;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, ACCEPT, CACHE_CONTROL, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use serde::Serialize;
use url::{Host, Url};

use crate::address::{AddressPolicy, CheckedResolver, RefusedAddress, Resolver};
use crate::error::FetchError;
use crawlgate_answers::{
    FetchResult, HttpResponse, NetworkErrorKind, NetworkFailure, RedirectStop,
};

/// The client's settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ClientConfig {
    /// The `User-Agent` header.
    pub user_agent: String,
    /// The time allowed to connect (10 s).
    pub connect_timeout: Duration,
    /// The time allowed for the whole fetch, every hop and the body
    /// included (30 s).
    pub timeout: Duration,
    /// Redirects followed before giving up (5, as RFC 9309 asks).
    pub max_redirects: usize,
    /// Body bytes parsed (500 KiB); the rest is not read.
    pub max_body_bytes: usize,
    /// Which addresses may be connected to.
    pub address_policy: AddressPolicy,
}

/// The default `User-Agent` header.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "crawlgate/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/crawlgate/crawlgate)"
);

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            max_redirects: 5,
            max_body_bytes: crawlgate::MAX_BYTES,
            address_policy: AddressPolicy::public_only(),
        }
    }
}

/// One request of a fetch and what came back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hop {
    /// The URL requested.
    pub url: String,
    /// The status, when a response came.
    pub status: Option<u16>,
    /// The `Location` header, for a redirect.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The address connected to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remote_address: Option<String>,
    /// What went wrong, when no response came.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Everything one fetch produced.
#[derive(Clone, Debug)]
pub struct FetchAttempt {
    /// What the policy reads.
    pub result: FetchResult,
    /// Every request made, in order.
    pub hops: Vec<Hop>,
    /// Body bytes read (decoded; at most the limit plus one).
    pub bytes_read: u64,
    /// Whether the body was longer than the limit.
    pub truncated: bool,
    /// The limit: body bytes parsed at most.
    pub body_limit: u64,
    /// Bytes past the limit that were not read, when the length was known.
    pub bytes_discarded: Option<u64>,
    /// How long the fetch took.
    pub elapsed: Duration,
}

/// Fetches robots.txt files over HTTP(S).
///
/// ```no_run
/// use crawlgate_fetch::{ClientConfig, RobotsClient, SystemResolver};
/// # async fn demo() -> Result<(), crawlgate_fetch::FetchError> {
/// let client = RobotsClient::new(ClientConfig::default(), std::sync::Arc::new(SystemResolver))?;
/// let attempt = client.fetch(&"https://example.com/robots.txt".parse().unwrap()).await?;
/// println!("{:?} after {} hops", attempt.result, attempt.hops.len());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct RobotsClient {
    http: reqwest::Client,
    config: ClientConfig,
}

impl RobotsClient {
    /// Builds a client resolving names with `resolver`, under the config's
    /// address policy.
    pub fn new(
        config: ClientConfig,
        resolver: Arc<dyn Resolver>,
    ) -> Result<RobotsClient, FetchError> {
        let checked = CheckedResolver::new(resolver, config.address_policy.clone());
        let mut headers = HeaderMap::new();
        headers.insert(
            ACCEPT,
            "text/plain, */*;q=0.5".parse().map_err(client_error)?,
        );
        let http = reqwest::Client::builder()
            .user_agent(config.user_agent.as_str())
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would resolve names itself, past the address policy.
            .no_proxy()
            .dns_resolver(Arc::new(checked))
            .connect_timeout(config.connect_timeout)
            .timeout(config.timeout)
            // One robots.txt per origin per day: pooled connections buy
            // nothing, and a fresh connection per request keeps request
            // counts exact (no silent retry on a stale pooled connection).
            .pool_max_idle_per_host(0)
            .referer(false)
            .build()
            .map_err(client_error)?;
        Ok(RobotsClient { http, config })
    }

    /// The settings.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Fetches `robots_url`, following up to
    /// [`max_redirects`](ClientConfig::max_redirects) redirects. HTTP
    /// statuses and network failures are in the result; errors are only for
    /// refused addresses and unsupported schemes.
    pub async fn fetch(&self, robots_url: &Url) -> Result<FetchAttempt, FetchError> {
        let started = Instant::now();
        let now = tokio::time::Instant::now();
        let deadline = now
            .checked_add(self.config.timeout)
            .unwrap_or(now + Duration::from_secs(365 * 86_400));
        let mut attempt = FetchAttempt {
            result: FetchResult::RedirectNotFollowed(RedirectStop::TooManyRedirects),
            hops: Vec::new(),
            bytes_read: 0,
            truncated: false,
            body_limit: self.config.max_body_bytes as u64,
            bytes_discarded: None,
            elapsed: Duration::ZERO,
        };
        if !matches!(robots_url.scheme(), "http" | "https") {
            return Err(FetchError::UnsupportedScheme {
                scheme: robots_url.scheme().to_owned(),
            });
        }
        let mut visited = HashSet::from([robots_url.clone()]);
        let mut url = robots_url.clone();
        attempt.result = loop {
            self.check_ip_literal(&url)?;
            let response =
                match tokio::time::timeout_at(deadline, self.http.get(url.clone()).send()).await {
                    Ok(Ok(response)) => response,
                    Ok(Err(e)) => {
                        if let Some(refused) = find_refusal(&e) {
                            return Err(FetchError::refused(url.as_str(), refused));
                        }
                        let failure = classify(&e, false);
                        attempt.hops.push(failed_hop(&url, &failure));
                        break FetchResult::Network(failure);
                    }
                    Err(_) => {
                        let failure = timed_out();
                        attempt.hops.push(failed_hop(&url, &failure));
                        break FetchResult::Network(failure);
                    }
                };
            let status = response.status().as_u16();
            let location = header_text(response.headers(), LOCATION);
            attempt.hops.push(Hop {
                url: url.to_string(),
                status: Some(status),
                location: location.clone(),
                remote_address: response.remote_addr().map(|a| a.to_string()),
                error: None,
            });
            if (300..400).contains(&status) {
                match self.next_hop(&url, location.as_deref(), attempt.hops.len(), &visited) {
                    Ok(next) => {
                        visited.insert(next.clone());
                        url = next;
                        continue;
                    }
                    Err(stop) => break FetchResult::RedirectNotFollowed(stop),
                }
            }
            let mut summary = HttpResponse {
                status,
                cache_control: joined_header(response.headers(), CACHE_CONTROL),
                retry_after: header_text(response.headers(), RETRY_AFTER),
                content_type: header_text(response.headers(), CONTENT_TYPE),
                body: Vec::new(),
            };
            let length = response.content_length();
            match self.read_body(response, deadline).await {
                Ok((body, truncated)) => {
                    attempt.bytes_read = body.len() as u64;
                    attempt.truncated = truncated;
                    attempt.bytes_discarded = length
                        .filter(|_| truncated)
                        .map(|len| len.saturating_sub(self.config.max_body_bytes as u64));
                    summary.body = body;
                    break FetchResult::Response(summary);
                }
                Err(failure) => {
                    if let Some(hop) = attempt.hops.last_mut() {
                        hop.error = Some(failure.message.clone());
                    }
                    break FetchResult::Network(failure);
                }
            }
        };
        attempt.elapsed = started.elapsed();
        Ok(attempt)
    }

    /// Where a redirect leads, or why it is not followed. `hops` counts the
    /// responses so far, this redirect included.
    fn next_hop(
        &self,
        from: &Url,
        location: Option<&str>,
        hops: usize,
        visited: &HashSet<Url>,
    ) -> Result<Url, RedirectStop> {
        let location = location.ok_or(RedirectStop::MissingLocation)?;
        let mut next = from
            .join(location.trim())
            .map_err(|_| RedirectStop::InvalidLocation)?;
        next.set_fragment(None);
        if !matches!(next.scheme(), "http" | "https") {
            Err(RedirectStop::UnsupportedScheme)
        } else if visited.contains(&next) {
            Err(RedirectStop::Loop)
        } else if hops > self.config.max_redirects {
            Err(RedirectStop::TooManyRedirects)
        } else {
            Ok(next)
        }
    }

    /// IP-literal hosts never reach the resolver, so they are checked here.
    fn check_ip_literal(&self, url: &Url) -> Result<(), FetchError> {
        let ip = match url.host() {
            Some(Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => return Ok(()),
        };
        let host = url.host_str().unwrap_or_default();
        self.config
            .address_policy
            .check(host, ip)
            .map_err(|refused| FetchError::refused(url.as_str(), &refused))
    }

    /// Reads the body up to one byte past the limit (so the parser can tell
    /// whether the last line was cut), then stops reading.
    async fn read_body(
        &self,
        mut response: reqwest::Response,
        deadline: tokio::time::Instant,
    ) -> Result<(Vec<u8>, bool), NetworkFailure> {
        let keep = self.config.max_body_bytes.saturating_add(1);
        let mut body = Vec::with_capacity(
            response
                .content_length()
                .map_or(4096, |n| usize::try_from(n).unwrap_or(usize::MAX).min(keep)),
        );
        loop {
            let chunk = match tokio::time::timeout_at(deadline, response.chunk()).await {
                Ok(Ok(Some(chunk))) => chunk,
                Ok(Ok(None)) => return Ok((body, false)),
                Ok(Err(e)) => return Err(classify(&e, true)),
                Err(_) => return Err(timed_out()),
            };
            let room = keep - body.len();
            if chunk.len() >= room {
                body.extend_from_slice(&chunk[..room]);
                // Past the limit: the rest is never read (the connection is
                // dropped with the response).
                return Ok((body, true));
            }
            body.extend_from_slice(&chunk);
        }
    }
}

fn client_error(e: impl std::fmt::Display) -> FetchError {
    FetchError::Client(e.to_string())
}

fn header_text(headers: &HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    headers
        .get(name)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

fn joined_header(headers: &HeaderMap, name: reqwest::header::HeaderName) -> Option<String> {
    let values: Vec<String> = headers
        .get_all(name)
        .iter()
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        .collect();
    (!values.is_empty()).then(|| values.join(", "))
}

fn failed_hop(url: &Url, failure: &NetworkFailure) -> Hop {
    Hop {
        url: url.to_string(),
        status: None,
        location: None,
        remote_address: None,
        error: Some(failure.message.clone()),
    }
}

fn timed_out() -> NetworkFailure {
    NetworkFailure {
        kind: NetworkErrorKind::Timeout,
        message: "timed out".to_owned(),
    }
}

/// The address-policy refusal in an error's source chain, if any.
fn find_refusal(e: &reqwest::Error) -> Option<&RefusedAddress> {
    let mut source = e.source();
    while let Some(err) = source {
        if let Some(refused) = err.downcast_ref::<RefusedAddress>() {
            return Some(refused);
        }
        source = err.source();
    }
    None
}

/// Names a client error as one of the network failures that count as server
/// errors (RFC 9309 §2.3.1.4).
fn classify(e: &reqwest::Error, in_body: bool) -> NetworkFailure {
    let mut reset = false;
    let mut parse = false;
    let mut source = e.source();
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<io::Error>() {
            reset |= matches!(
                io.kind(),
                io::ErrorKind::ConnectionReset
                    | io::ErrorKind::ConnectionAborted
                    | io::ErrorKind::BrokenPipe
            );
        }
        if let Some(hyper) = err.downcast_ref::<hyper::Error>() {
            reset |= hyper.is_incomplete_message() && !in_body;
            parse |= hyper.is_parse();
        }
        source = err.source();
    }
    let kind = if e.is_timeout() {
        NetworkErrorKind::Timeout
    } else if e.is_dns() {
        NetworkErrorKind::Dns
    } else if in_body || e.is_decode() || e.is_body() {
        NetworkErrorKind::BrokenBody
    } else if reset {
        NetworkErrorKind::ConnectionReset
    } else if parse {
        NetworkErrorKind::InvalidResponse
    } else if e.is_connect() {
        NetworkErrorKind::Connect
    } else {
        NetworkErrorKind::Other
    };
    NetworkFailure {
        kind,
        message: chain_message(e),
    }
}

/// An error and its causes in one line, `outer: cause: root`, each said
/// once: an error whose message already quotes its source (as many do)
/// would otherwise repeat it.
fn chain_message(e: &(dyn StdError + 'static)) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(err) = source {
        let text = err.to_string();
        if !text.is_empty() && !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = err.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::ResolveError;

    /// An error that says `message` and has `source` as its cause.
    #[derive(Debug)]
    struct Layer {
        message: &'static str,
        source: Option<Box<dyn StdError + Send + Sync>>,
    }

    impl std::fmt::Display for Layer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.message)
        }
    }

    impl StdError for Layer {
        fn source(&self) -> Option<&(dyn StdError + 'static)> {
            self.source
                .as_deref()
                .map(|s| s as &(dyn StdError + 'static))
        }
    }

    fn lookup_failure() -> ResolveError {
        ResolveError::Lookup {
            host: "nowhere.test".into(),
            source: io::Error::other(
                "failed to lookup address information: Name or service not known",
            ),
        }
    }

    #[test]
    fn a_cause_quoted_by_its_error_is_said_once() {
        // `could not resolve HOST: CAUSE`, whose source is CAUSE.
        let error = Layer {
            message: "dns error",
            source: Some(Box::new(lookup_failure())),
        };
        assert_eq!(
            chain_message(&error),
            "dns error: could not resolve nowhere.test: \
             failed to lookup address information: Name or service not known"
        );
    }

    #[test]
    fn distinct_causes_are_all_kept_in_order() {
        let error = Layer {
            message: "error sending request",
            source: Some(Box::new(Layer {
                message: "client error (Connect)",
                source: Some(Box::new(Layer {
                    message: "connection refused",
                    source: None,
                })),
            })),
        };
        assert_eq!(
            chain_message(&error),
            "error sending request: client error (Connect): connection refused"
        );
        let alone = Layer {
            message: "timed out",
            source: None,
        };
        assert_eq!(chain_message(&alone), "timed out");
    }

    #[test]
    fn a_cause_repeated_down_the_chain_is_said_once() {
        let error = Layer {
            message: "outer",
            source: Some(Box::new(Layer {
                message: "same",
                source: Some(Box::new(Layer {
                    message: "same",
                    source: Some(Box::new(Layer {
                        message: "",
                        source: None,
                    })),
                })),
            })),
        };
        assert_eq!(chain_message(&error), "outer: same");
    }
}
