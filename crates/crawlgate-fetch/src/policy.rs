//! The fetch policy (SPEC §2) as a pure function:
//! (what a fetch gave, the previous cache entry, now) → (outcome, next
//! cache entry). No I/O and no clock: every row of §2 is testable with
//! plain values.
//!
//! | fetch result | outcome |
//! |---|---|
//! | 2xx | conditional: the body is parsed |
//! | 3xx not followed (past the hop limit, loop, no `Location`) | full allow, as a 404 |
//! | 4xx except 429 | full allow |
//! | 429, 5xx, network failure | the last good copy if there is one (stale), else full disallow; retried with backoff, `Retry-After` honoured |
//! | server errors for more than 30 days | the last good copy if there is one, else full allow |
//!
//! A settled answer (2xx, 4xx, 3xx given up) is kept for 24 hours, or for
//! `Cache-Control: max-age` within [`FetchPolicy::min_ttl`] and
//! [`FetchPolicy::max_ttl`]; `no-cache` and `no-store` keep it only for
//! `min_ttl`, and a `no-store` body is not kept as a fallback copy.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crawlgate::{Profile, RobotsTxt};
use serde::{Deserialize, Serialize};

const DAY: Duration = Duration::from_secs(86_400);

/// What one attempt to fetch a robots.txt gave, as the HTTP client saw it
/// after following redirects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FetchResult {
    /// The final response.
    Response(HttpResponse),
    /// A redirect that was not followed (past the hop limit, a loop, no or
    /// an unusable `Location`).
    RedirectNotFollowed(RedirectStop),
    /// The fetch failed below HTTP.
    Network(NetworkFailure),
}

impl FetchResult {
    /// The summary kept in the cache entry.
    pub fn attempt(&self) -> Attempt {
        match self {
            FetchResult::Response(r) => Attempt::Status { status: r.status },
            FetchResult::RedirectNotFollowed(stop) => Attempt::Redirect { stop: *stop },
            FetchResult::Network(failure) => Attempt::Network {
                error: failure.kind,
            },
        }
    }
}

/// The parts of an HTTP response the policy reads.
///
/// ```
/// use crawlgate_fetch::HttpResponse;
/// let r = HttpResponse::new(200).with_body("User-agent: *\nDisallow: /x\n").with_cache_control("max-age=60");
/// assert_eq!(r.status, 200);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// The `Cache-Control` header (several joined with `, `).
    pub cache_control: Option<String>,
    /// The `Retry-After` header.
    pub retry_after: Option<String>,
    /// The `Content-Type` header.
    pub content_type: Option<String>,
    /// The body, decoded, as far as it was read (the client stops one byte
    /// past the size limit so the parser can tell whether the last line was
    /// cut).
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A response with this status and nothing else.
    pub fn new(status: u16) -> HttpResponse {
        HttpResponse {
            status,
            ..HttpResponse::default()
        }
    }

    /// With a body.
    pub fn with_body(mut self, body: impl Into<Vec<u8>>) -> HttpResponse {
        self.body = body.into();
        self
    }

    /// With a `Cache-Control` header.
    pub fn with_cache_control(mut self, value: &str) -> HttpResponse {
        self.cache_control = Some(value.to_owned());
        self
    }

    /// With a `Retry-After` header.
    pub fn with_retry_after(mut self, value: &str) -> HttpResponse {
        self.retry_after = Some(value.to_owned());
        self
    }

    /// With a `Content-Type` header.
    pub fn with_content_type(mut self, value: &str) -> HttpResponse {
        self.content_type = Some(value.to_owned());
        self
    }
}

/// Why a redirect was not followed. Each is treated as a 404.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RedirectStop {
    /// More redirects than the hop limit (5 by default).
    TooManyRedirects,
    /// A redirect back to a URL already visited.
    Loop,
    /// A 3xx without a `Location` header.
    MissingLocation,
    /// A `Location` that is not a URL.
    InvalidLocation,
    /// A `Location` with a scheme other than http or https.
    UnsupportedScheme,
}

impl fmt::Display for RedirectStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RedirectStop::TooManyRedirects => "too many redirects",
            RedirectStop::Loop => "redirect loop",
            RedirectStop::MissingLocation => "redirect without a Location header",
            RedirectStop::InvalidLocation => "redirect to an invalid URL",
            RedirectStop::UnsupportedScheme => "redirect to a scheme other than http(s)",
        })
    }
}

/// A failure below HTTP. Each is treated as a server error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NetworkErrorKind {
    /// The host name did not resolve.
    Dns,
    /// The connection (or the TLS handshake) failed.
    Connect,
    /// The connect or total timeout ran out.
    Timeout,
    /// The connection was reset or closed before the response was complete.
    ConnectionReset,
    /// The response was not valid HTTP (or had an invalid status code).
    InvalidResponse,
    /// The body broke off (truncated chunked encoding, short body, bad
    /// compression).
    BrokenBody,
    /// Anything else.
    Other,
}

impl fmt::Display for NetworkErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NetworkErrorKind::Dns => "DNS error",
            NetworkErrorKind::Connect => "connection failed",
            NetworkErrorKind::Timeout => "timed out",
            NetworkErrorKind::ConnectionReset => "connection reset",
            NetworkErrorKind::InvalidResponse => "invalid response",
            NetworkErrorKind::BrokenBody => "broken body",
            NetworkErrorKind::Other => "network error",
        })
    }
}

/// A network failure and what the client said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkFailure {
    /// What kind of failure.
    pub kind: NetworkErrorKind,
    /// The client's message.
    pub message: String,
}

/// What the last fetch attempt gave, in short (kept in the cache entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Attempt {
    /// A final HTTP status.
    Status {
        /// The status code.
        status: u16,
    },
    /// A redirect that was not followed.
    Redirect {
        /// Why.
        stop: RedirectStop,
    },
    /// A network failure.
    Network {
        /// Which.
        error: NetworkErrorKind,
    },
}

/// A parsed robots.txt together with the bytes it was parsed from (kept so
/// a cache backend can store the entry and parse it again).
pub struct RobotsCopy {
    body: Box<[u8]>,
    robots: RobotsTxt,
}

impl RobotsCopy {
    /// Parses `body` under `profile`.
    pub fn parse(body: &[u8], profile: Profile) -> RobotsCopy {
        RobotsCopy {
            body: body.into(),
            robots: RobotsTxt::parse_with(body, profile),
        }
    }

    /// The parsed file.
    pub fn robots(&self) -> &RobotsTxt {
        &self.robots
    }

    /// The bytes it was parsed from.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Heap bytes held (body and parsed model).
    pub fn heap_size(&self) -> usize {
        self.body.len() + self.robots.heap_size()
    }
}

impl fmt::Debug for RobotsCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RobotsCopy")
            .field("bytes", &self.body.len())
            .field("robots", &self.robots)
            .finish()
    }
}

#[derive(Serialize, Deserialize)]
struct StoredCopy {
    profile: String,
    body: Vec<u8>,
}

impl Serialize for RobotsCopy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StoredCopy {
            profile: self.robots.profile().name.to_owned(),
            body: self.body.to_vec(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RobotsCopy {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let stored = StoredCopy::deserialize(deserializer)?;
        let profile = Profile::named(&stored.profile).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown profile {:?}", stored.profile))
        })?;
        Ok(RobotsCopy::parse(&stored.body, profile))
    }
}

/// The three outcomes of SPEC §2.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", content = "robots", rename_all = "snake_case")]
pub enum Rules {
    /// No restrictions.
    FullAllow,
    /// Nothing may be crawled.
    FullDisallow,
    /// The parsed rules decide.
    Conditional(Arc<RobotsCopy>),
}

impl Rules {
    /// Which of the three.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            Rules::FullAllow => OutcomeKind::FullAllow,
            Rules::FullDisallow => OutcomeKind::FullDisallow,
            Rules::Conditional(_) => OutcomeKind::Conditional,
        }
    }

    /// The parsed file, for a conditional outcome.
    pub fn robots(&self) -> Option<&RobotsTxt> {
        match self {
            Rules::Conditional(copy) => Some(copy.robots()),
            _ => None,
        }
    }

    /// Heap bytes held.
    pub fn heap_size(&self) -> usize {
        match self {
            Rules::Conditional(copy) => copy.heap_size(),
            _ => 0,
        }
    }
}

/// [`Rules`] without the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// No restrictions.
    FullAllow,
    /// Nothing may be crawled.
    FullDisallow,
    /// The parsed rules decide.
    Conditional,
}

impl fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutcomeKind::FullAllow => "full allow",
            OutcomeKind::FullDisallow => "full disallow",
            OutcomeKind::Conditional => "conditional",
        })
    }
}

/// Which row of SPEC §2 produced the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum OutcomeReason {
    /// 2xx: the body was parsed.
    Fetched,
    /// 4xx other than 429: as if there were no robots.txt.
    NotFound,
    /// A redirect was not followed (limit, loop …): as a 404.
    RedirectsNotFollowed,
    /// A 5xx whose body plainly says "not found" (optional heuristic).
    SoftNotFound,
    /// 429, 5xx or a network failure, and no earlier copy: full disallow
    /// until a retry succeeds.
    ServerError,
    /// A refresh failed; the last good copy is used past its expiry.
    StaleCopy,
    /// Server errors for more than 30 days: the last good copy.
    UnreachableLastCopy,
    /// Server errors for more than 30 days and no copy: full allow.
    UnreachableAllowAll,
}

impl fmt::Display for OutcomeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutcomeReason::Fetched => "robots.txt fetched and parsed",
            OutcomeReason::NotFound => "no robots.txt (4xx): everything allowed",
            OutcomeReason::RedirectsNotFollowed => {
                "redirects not followed to the end: treated as 404, everything allowed"
            }
            OutcomeReason::SoftNotFound => "5xx with a not-found page: treated as 404",
            OutcomeReason::ServerError => {
                "server error or network failure: everything disallowed until a retry succeeds"
            }
            OutcomeReason::StaleCopy => "refresh failed: using the last good copy",
            OutcomeReason::UnreachableLastCopy => {
                "unreachable for more than 30 days: using the last good copy"
            }
            OutcomeReason::UnreachableAllowAll => {
                "unreachable for more than 30 days and no copy: everything allowed"
            }
        })
    }
}

/// What to obey, and why.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The rules.
    pub rules: Rules,
    /// The row of SPEC §2 that gave them.
    pub reason: OutcomeReason,
}

impl Outcome {
    /// Which of the three outcomes.
    pub fn kind(&self) -> OutcomeKind {
        self.rules.kind()
    }
}

/// The last settled answer (2xx, 4xx, or redirects given up), kept to be
/// used when later refreshes fail.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GoodCopy {
    /// Its rules (full allow after a 4xx).
    pub rules: Rules,
    /// When it was fetched.
    pub fetched_at: SystemTime,
}

/// A run of consecutive server errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorStreak {
    /// When the first one happened.
    pub since: SystemTime,
    /// How many in a row.
    pub count: u32,
}

/// What the cache keeps for one origin.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CacheEntry {
    /// What to obey until `expires_at`.
    pub outcome: Outcome,
    /// What the last fetch attempt gave.
    pub attempt: Attempt,
    /// When the last fetch attempt finished.
    pub fetched_at: SystemTime,
    /// When to fetch again (after a failure: when to retry).
    pub expires_at: SystemTime,
    /// The last settled answer, for use when refreshes fail.
    pub last_good: Option<GoodCopy>,
    /// The current run of server errors, if the last attempt failed.
    pub errors: Option<ErrorStreak>,
}

impl CacheEntry {
    /// Whether the entry may be used without fetching again.
    pub fn is_fresh(&self, now: SystemTime) -> bool {
        now < self.expires_at
    }

    /// How long the entry was granted.
    pub fn ttl(&self) -> Duration {
        self.expires_at
            .duration_since(self.fetched_at)
            .unwrap_or_default()
    }

    /// Heap bytes held (the good copy usually shares the outcome's rules).
    pub fn heap_size(&self) -> usize {
        let shared = match (&self.outcome.rules, &self.last_good) {
            (
                Rules::Conditional(a),
                Some(GoodCopy {
                    rules: Rules::Conditional(b),
                    ..
                }),
            ) => Arc::ptr_eq(a, b),
            _ => false,
        };
        let good = match &self.last_good {
            Some(g) if !shared => g.rules.heap_size(),
            _ => 0,
        };
        std::mem::size_of::<CacheEntry>() + self.outcome.rules.heap_size() + good
    }
}

/// The cache directives the policy honours.
///
/// ```
/// use crawlgate_fetch::CacheDirectives;
/// let d = CacheDirectives::parse("public, Max-Age=\"3600\", no-transform");
/// assert_eq!(d.max_age, Some(3600));
/// assert!(!d.no_store && !d.no_cache);
/// assert!(CacheDirectives::parse("no-store").no_store);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheDirectives {
    /// `max-age=N` (seconds), the first valid one.
    pub max_age: Option<u64>,
    /// `no-store`.
    pub no_store: bool,
    /// `no-cache`.
    pub no_cache: bool,
}

impl CacheDirectives {
    /// Parses a `Cache-Control` value; unknown and malformed directives are
    /// ignored.
    pub fn parse(header: &str) -> CacheDirectives {
        let mut directives = CacheDirectives::default();
        for part in header.split(',') {
            let (name, value) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v.trim().trim_matches('"'))),
                None => (part.trim(), None),
            };
            if name.eq_ignore_ascii_case("no-store") {
                directives.no_store = true;
            } else if name.eq_ignore_ascii_case("no-cache") {
                directives.no_cache = true;
            } else if name.eq_ignore_ascii_case("max-age") && directives.max_age.is_none() {
                directives.max_age = value.and_then(parse_seconds);
            }
        }
        directives
    }
}

/// Delta-seconds: digits only; a value too large saturates.
fn parse_seconds(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u64::MAX))
}

/// How long `Retry-After` asks to wait from `now` (delta-seconds or an HTTP
/// date; a date in the past means no wait).
///
/// ```
/// use std::time::{Duration, SystemTime};
/// use crawlgate_fetch::parse_retry_after;
/// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
/// assert_eq!(parse_retry_after("120", now), Some(Duration::from_secs(120)));
/// assert_eq!(parse_retry_after("Sun, 09 Sep 2001 01:46:41 GMT", now), Some(Duration::from_secs(1)));
/// assert_eq!(parse_retry_after("soon", now), None);
/// ```
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Some(seconds) = parse_seconds(value) {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or_default())
}

/// The policy's settings. [`FetchPolicy::default`] is SPEC §2.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct FetchPolicy {
    /// How long a settled answer is kept without `Cache-Control` (24 h).
    pub default_ttl: Duration,
    /// The shortest time an answer is kept, whatever `max-age`, `no-cache`
    /// or `no-store` say (1 min), so a crawler does not fetch robots.txt
    /// once per URL.
    pub min_ttl: Duration,
    /// The longest `max-age` honoured (30 days).
    pub max_ttl: Duration,
    /// The first retry after a server error, and the fixed retry interval
    /// after a 503 ("frequent retries") (1 min).
    pub retry_min: Duration,
    /// The cap of the exponential backoff (1 h).
    pub retry_max: Duration,
    /// The longest `Retry-After` honoured (24 h).
    pub retry_after_max: Duration,
    /// How long server errors last before the outcome switches to the last
    /// copy or full allow (30 days).
    pub unreachable_limit: Duration,
    /// Treat a 5xx whose body says "not found" as a 404 (off).
    pub soft_not_found: bool,
    /// How bodies are parsed.
    pub profile: Profile,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        FetchPolicy {
            default_ttl: DAY,
            min_ttl: Duration::from_secs(60),
            max_ttl: 30 * DAY,
            retry_min: Duration::from_secs(60),
            retry_max: Duration::from_secs(3600),
            retry_after_max: DAY,
            unreachable_limit: 30 * DAY,
            soft_not_found: false,
            profile: Profile::GOOGLE,
        }
    }
}

/// Which row of the table a result falls in.
enum Row<'a> {
    Success(&'a HttpResponse),
    NoRobotsTxt(OutcomeReason, Option<&'a HttpResponse>),
    ServerError(Option<&'a HttpResponse>),
}

impl FetchPolicy {
    /// Applies SPEC §2: the outcome to obey now and the entry to cache.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// use crawlgate_fetch::{FetchPolicy, FetchResult, HttpResponse, OutcomeKind};
    ///
    /// let policy = FetchPolicy::default();
    /// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    ///
    /// let (outcome, entry) = policy.apply(&FetchResult::Response(HttpResponse::new(404)), None, now);
    /// assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
    /// assert_eq!(entry.ttl(), Duration::from_secs(86_400));
    ///
    /// let (outcome, entry) = policy.apply(&FetchResult::Response(HttpResponse::new(503)), None, now);
    /// assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
    /// assert_eq!(entry.ttl(), Duration::from_secs(60)); // retried soon
    /// ```
    pub fn apply(
        &self,
        result: &FetchResult,
        previous: Option<&CacheEntry>,
        now: SystemTime,
    ) -> (Outcome, CacheEntry) {
        let attempt = result.attempt();
        let entry = match self.row(result) {
            Row::Success(response) => {
                let copy = RobotsCopy::parse(&response.body, self.profile);
                let rules = Rules::Conditional(Arc::new(copy));
                self.settled(rules, OutcomeReason::Fetched, attempt, Some(response), now)
            }
            Row::NoRobotsTxt(reason, response) => {
                self.settled(Rules::FullAllow, reason, attempt, response, now)
            }
            Row::ServerError(response) => self.failed(attempt, response, previous, now),
        };
        (entry.outcome.clone(), entry)
    }

    fn row<'a>(&self, result: &'a FetchResult) -> Row<'a> {
        let response = match result {
            FetchResult::Response(r) => r,
            FetchResult::RedirectNotFollowed(_) => {
                return Row::NoRobotsTxt(OutcomeReason::RedirectsNotFollowed, None)
            }
            FetchResult::Network(_) => return Row::ServerError(None),
        };
        match response.status {
            200..=299 => Row::Success(response),
            // A 3xx reaching the policy is one the client did not follow.
            300..=399 => Row::NoRobotsTxt(OutcomeReason::RedirectsNotFollowed, Some(response)),
            429 => Row::ServerError(Some(response)),
            400..=499 => Row::NoRobotsTxt(OutcomeReason::NotFound, Some(response)),
            500..=599 if self.soft_not_found && looks_not_found(&response.body) => {
                Row::NoRobotsTxt(OutcomeReason::SoftNotFound, Some(response))
            }
            // 5xx, and status codes outside 200–599 (an invalid response).
            _ => Row::ServerError(Some(response)),
        }
    }

    /// The time a settled answer is kept.
    pub fn ttl_for(&self, directives: &CacheDirectives) -> Duration {
        let ttl = if directives.no_store || directives.no_cache {
            self.min_ttl
        } else {
            match directives.max_age {
                Some(seconds) => Duration::from_secs(seconds),
                None => self.default_ttl,
            }
        };
        // max then min, not clamp: clamp panics when min_ttl > max_ttl.
        ttl.max(self.min_ttl).min(self.max_ttl)
    }

    fn settled(
        &self,
        rules: Rules,
        reason: OutcomeReason,
        attempt: Attempt,
        response: Option<&HttpResponse>,
        now: SystemTime,
    ) -> CacheEntry {
        let directives = response
            .and_then(|r| r.cache_control.as_deref())
            .map(CacheDirectives::parse)
            .unwrap_or_default();
        let keep = !(directives.no_store && matches!(rules, Rules::Conditional(_)));
        CacheEntry {
            last_good: keep.then(|| GoodCopy {
                rules: rules.clone(),
                fetched_at: now,
            }),
            outcome: Outcome { rules, reason },
            attempt,
            fetched_at: now,
            expires_at: later(now, self.ttl_for(&directives)),
            errors: None,
        }
    }

    fn failed(
        &self,
        attempt: Attempt,
        response: Option<&HttpResponse>,
        previous: Option<&CacheEntry>,
        now: SystemTime,
    ) -> CacheEntry {
        let errors = match previous.and_then(|p| p.errors) {
            Some(streak) => ErrorStreak {
                since: streak.since,
                count: streak.count.saturating_add(1),
            },
            None => ErrorStreak {
                since: now,
                count: 1,
            },
        };
        let last_good = previous.and_then(|p| p.last_good.clone());
        let unreachable_for = now.duration_since(errors.since).unwrap_or_default();
        let outcome = match (&last_good, unreachable_for > self.unreachable_limit) {
            (Some(good), true) => Outcome {
                rules: good.rules.clone(),
                reason: OutcomeReason::UnreachableLastCopy,
            },
            (None, true) => Outcome {
                rules: Rules::FullAllow,
                reason: OutcomeReason::UnreachableAllowAll,
            },
            (Some(good), false) => Outcome {
                rules: good.rules.clone(),
                reason: OutcomeReason::StaleCopy,
            },
            (None, false) => Outcome {
                rules: Rules::FullDisallow,
                reason: OutcomeReason::ServerError,
            },
        };
        CacheEntry {
            outcome,
            attempt,
            fetched_at: now,
            expires_at: later(now, self.retry_wait(response, errors.count, now)),
            last_good,
            errors: Some(errors),
        }
    }

    /// How long to wait before retrying after the `count`-th server error in
    /// a row: `Retry-After` when given (at least 1 s, at most
    /// [`retry_after_max`](Self::retry_after_max)); after a 503,
    /// [`retry_min`](Self::retry_min); otherwise `retry_min` doubled per
    /// error up to [`retry_max`](Self::retry_max).
    pub fn retry_wait(
        &self,
        response: Option<&HttpResponse>,
        count: u32,
        now: SystemTime,
    ) -> Duration {
        let retry_after = response
            .and_then(|r| r.retry_after.as_deref())
            .and_then(|v| parse_retry_after(v, now));
        if let Some(wait) = retry_after {
            return wait.max(Duration::from_secs(1)).min(self.retry_after_max);
        }
        if response.is_some_and(|r| r.status == 503) {
            return self.retry_min;
        }
        let doublings = count.saturating_sub(1).min(30);
        self.retry_min
            .saturating_mul(1u32 << doublings)
            .min(self.retry_max.max(self.retry_min))
    }
}

/// `now + by`, saturating instead of panicking on absurd settings.
pub(crate) fn later(now: SystemTime, by: Duration) -> SystemTime {
    now.checked_add(by)
        .or_else(|| now.checked_add(365 * DAY))
        .unwrap_or(now)
}

/// The soft-404 heuristic: the start of the body says "not found".
fn looks_not_found(body: &[u8]) -> bool {
    let head = &body[..body.len().min(4096)];
    let head = String::from_utf8_lossy(head).to_ascii_lowercase();
    ["not found", "404", "does not exist"]
        .iter()
        .any(|needle| head.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;

    const HOUR: Duration = Duration::from_secs(3600);

    fn t0() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000)
    }

    fn ok(body: &str) -> FetchResult {
        FetchResult::Response(HttpResponse::new(200).with_body(body))
    }

    fn status(code: u16) -> FetchResult {
        FetchResult::Response(HttpResponse::new(code))
    }

    fn network(kind: NetworkErrorKind) -> FetchResult {
        FetchResult::Network(NetworkFailure {
            kind,
            message: "boom".into(),
        })
    }

    fn robots(outcome: &Outcome) -> &RobotsTxt {
        outcome.rules.robots().expect("conditional outcome")
    }

    const BODY: &str = "User-agent: *\nDisallow: /private\n";

    #[test]
    fn success_is_conditional_for_24_hours() {
        let policy = FetchPolicy::default();
        let (outcome, entry) = policy.apply(&ok(BODY), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::Conditional);
        assert_eq!(outcome.reason, OutcomeReason::Fetched);
        assert!(!robots(&outcome).is_allowed("bot", "/private/x"));
        assert!(robots(&outcome).is_allowed("bot", "/public"));
        assert_eq!(entry.fetched_at, t0());
        assert_eq!(entry.expires_at, t0() + 24 * HOUR);
        assert!(entry.is_fresh(t0() + 24 * HOUR - Duration::from_secs(1)));
        assert!(!entry.is_fresh(t0() + 24 * HOUR));
        assert!(entry.last_good.is_some());
        assert!(entry.errors.is_none());
        assert_eq!(entry.attempt, Attempt::Status { status: 200 });
        for code in [201, 203, 206, 299] {
            let (outcome, _) = policy.apply(&status(code), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::Conditional, "{code}");
            // An empty body allows everything.
            assert!(robots(&outcome).is_allowed("bot", "/anything"));
        }
    }

    fn with_cache_control(value: &str) -> FetchResult {
        FetchResult::Response(
            HttpResponse::new(200)
                .with_body(BODY)
                .with_cache_control(value),
        )
    }

    #[test]
    fn max_age_shortens_and_lengthens_the_ttl() {
        let policy = FetchPolicy::default();
        let (_, entry) = policy.apply(&with_cache_control("max-age=3600"), None, t0());
        assert_eq!(entry.expires_at, t0() + HOUR);
        assert!(!entry.is_fresh(t0() + HOUR));
        let (_, entry) = policy.apply(&with_cache_control("public, max-age=172800"), None, t0());
        assert_eq!(entry.expires_at, t0() + 48 * HOUR);
        assert!(entry.is_fresh(t0() + 47 * HOUR));
        // Bounded both ways.
        let (_, entry) = policy.apply(&with_cache_control("max-age=5"), None, t0());
        assert_eq!(entry.ttl(), policy.min_ttl);
        let (_, entry) = policy.apply(&with_cache_control("max-age=999999999999"), None, t0());
        assert_eq!(entry.ttl(), policy.max_ttl);
        // Malformed values are ignored.
        let (_, entry) = policy.apply(&with_cache_control("max-age=soon"), None, t0());
        assert_eq!(entry.ttl(), 24 * HOUR);
        let (_, entry) = policy.apply(&with_cache_control("max-age=-5"), None, t0());
        assert_eq!(entry.ttl(), 24 * HOUR);
    }

    #[test]
    fn no_cache_and_no_store_keep_the_answer_only_briefly() {
        let policy = FetchPolicy::default();
        let (outcome, entry) = policy.apply(&with_cache_control("no-cache"), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::Conditional);
        assert_eq!(entry.ttl(), Duration::from_secs(60));
        assert!(entry.last_good.is_some(), "no-cache may be stored");

        let (outcome, entry) =
            policy.apply(&with_cache_control("no-store, max-age=86400"), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::Conditional);
        assert_eq!(entry.ttl(), Duration::from_secs(60));
        assert!(entry.last_good.is_none(), "no-store is not kept as a copy");

        // So a failed refresh after a no-store copy has nothing to fall back on.
        let later = entry.expires_at;
        let (outcome, _) = policy.apply(&status(500), Some(&entry), later);
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);

        let mut zero = policy.clone();
        zero.min_ttl = Duration::ZERO;
        let (_, entry) = zero.apply(&with_cache_control("no-store"), None, t0());
        assert!(!entry.is_fresh(t0()));
    }

    #[test]
    fn unfollowed_redirects_are_404() {
        let policy = FetchPolicy::default();
        for stop in [
            RedirectStop::TooManyRedirects,
            RedirectStop::Loop,
            RedirectStop::MissingLocation,
            RedirectStop::InvalidLocation,
            RedirectStop::UnsupportedScheme,
        ] {
            let (outcome, entry) =
                policy.apply(&FetchResult::RedirectNotFollowed(stop), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
            assert_eq!(outcome.reason, OutcomeReason::RedirectsNotFollowed);
            assert_eq!(entry.ttl(), 24 * HOUR);
            assert_eq!(entry.attempt, Attempt::Redirect { stop });
        }
        for code in [301, 302, 304, 307, 308] {
            let (outcome, _) = policy.apply(&status(code), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullAllow, "{code}");
            assert_eq!(outcome.reason, OutcomeReason::RedirectsNotFollowed);
        }
    }

    #[test]
    fn client_errors_allow_everything_for_24_hours() {
        let policy = FetchPolicy::default();
        for code in [400, 401, 403, 404, 410, 418, 451, 499] {
            let (outcome, entry) = policy.apply(&status(code), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullAllow, "{code}");
            assert_eq!(outcome.reason, OutcomeReason::NotFound);
            assert_eq!(entry.ttl(), 24 * HOUR);
            assert!(entry.errors.is_none());
        }
        // A 404 replaces an earlier copy: the file is gone.
        let (_, good) = policy.apply(&ok(BODY), None, t0());
        let (_, gone) = policy.apply(&status(404), Some(&good), t0() + 25 * HOUR);
        let (outcome, _) = policy.apply(&status(500), Some(&gone), t0() + 50 * HOUR);
        assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
        // max-age applies to a 404 too.
        let gone = FetchResult::Response(HttpResponse::new(404).with_cache_control("max-age=600"));
        let (_, entry) = policy.apply(&gone, None, t0());
        assert_eq!(entry.ttl(), Duration::from_secs(600));
    }

    #[test]
    fn server_errors_disallow_everything_and_retry() {
        let policy = FetchPolicy::default();
        for code in [429, 500, 502, 503, 504, 599] {
            let (outcome, entry) = policy.apply(&status(code), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{code}");
            assert_eq!(outcome.reason, OutcomeReason::ServerError);
            assert_eq!(
                entry.errors,
                Some(ErrorStreak {
                    since: t0(),
                    count: 1
                })
            );
            assert_eq!(entry.ttl(), Duration::from_secs(60));
        }
        // Out-of-range status codes are invalid responses.
        for code in [0, 100, 199, 600, 999] {
            let (outcome, _) = policy.apply(&status(code), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{code}");
        }
    }

    #[test]
    fn network_failures_are_server_errors() {
        let policy = FetchPolicy::default();
        for kind in [
            NetworkErrorKind::Dns,
            NetworkErrorKind::Connect,
            NetworkErrorKind::Timeout,
            NetworkErrorKind::ConnectionReset,
            NetworkErrorKind::InvalidResponse,
            NetworkErrorKind::BrokenBody,
            NetworkErrorKind::Other,
        ] {
            let (outcome, entry) = policy.apply(&network(kind), None, t0());
            assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "{kind}");
            assert_eq!(outcome.reason, OutcomeReason::ServerError);
            assert_eq!(entry.attempt, Attempt::Network { error: kind });
        }
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_and_503_retries_frequently() {
        let policy = FetchPolicy::default();
        let mut now = t0();
        let mut previous: Option<CacheEntry> = None;
        let mut waits = Vec::new();
        for _ in 0..8 {
            let (_, entry) = policy.apply(&status(500), previous.as_ref(), now);
            waits.push(entry.ttl().as_secs());
            now = entry.expires_at;
            previous = Some(entry);
        }
        assert_eq!(waits, [60, 120, 240, 480, 960, 1920, 3600, 3600]);
        let streak = previous.as_ref().unwrap().errors.unwrap();
        assert_eq!((streak.since, streak.count), (t0(), 8));

        let (_, entry) = policy.apply(&status(503), previous.as_ref(), now);
        assert_eq!(entry.ttl(), Duration::from_secs(60));
        assert_eq!(entry.errors.unwrap().count, 9);
    }

    #[test]
    fn retry_after_is_honoured() {
        let policy = FetchPolicy::default();
        let in_seconds = FetchResult::Response(HttpResponse::new(429).with_retry_after("120"));
        let (outcome, entry) = policy.apply(&in_seconds, None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
        assert_eq!(entry.expires_at, t0() + Duration::from_secs(120));

        let date = httpdate::fmt_http_date(t0() + Duration::from_secs(7200));
        let at_date = FetchResult::Response(HttpResponse::new(503).with_retry_after(&date));
        let (_, entry) = policy.apply(&at_date, None, t0());
        assert_eq!(entry.expires_at, t0() + Duration::from_secs(7200));

        let huge = FetchResult::Response(HttpResponse::new(503).with_retry_after("99999999"));
        let (_, entry) = policy.apply(&huge, None, t0());
        assert_eq!(entry.ttl(), 24 * HOUR);

        let zero = FetchResult::Response(HttpResponse::new(429).with_retry_after("0"));
        let (_, entry) = policy.apply(&zero, None, t0());
        assert_eq!(entry.ttl(), Duration::from_secs(1));

        let past = httpdate::fmt_http_date(t0() - HOUR);
        let past = FetchResult::Response(HttpResponse::new(429).with_retry_after(&past));
        let (_, entry) = policy.apply(&past, None, t0());
        assert_eq!(entry.ttl(), Duration::from_secs(1));

        // Garbage falls back to the backoff.
        let junk = FetchResult::Response(HttpResponse::new(500).with_retry_after("later"));
        let (_, entry) = policy.apply(&junk, None, t0());
        assert_eq!(entry.ttl(), Duration::from_secs(60));
    }

    #[test]
    fn a_failed_refresh_uses_the_stale_copy() {
        let policy = FetchPolicy::default();
        let (_, good) = policy.apply(&ok(BODY), None, t0());
        let refresh = good.expires_at + Duration::from_secs(5);
        assert!(!good.is_fresh(refresh));
        for failure in [status(500), status(429), network(NetworkErrorKind::Timeout)] {
            let (outcome, entry) = policy.apply(&failure, Some(&good), refresh);
            assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
            assert_eq!(outcome.kind(), OutcomeKind::Conditional);
            assert!(!robots(&outcome).is_allowed("bot", "/private"));
            assert_eq!(entry.last_good.as_ref().unwrap().fetched_at, t0());
            assert_eq!(entry.errors.unwrap().since, refresh);
            assert!(entry.is_fresh(refresh));
            assert!(!entry.is_fresh(refresh + Duration::from_secs(60)));
        }
        // A later success ends the streak.
        let (_, failed) = policy.apply(&status(500), Some(&good), refresh);
        let (outcome, entry) = policy.apply(
            &ok("User-agent: *\nDisallow: /\n"),
            Some(&failed),
            refresh + HOUR,
        );
        assert_eq!(outcome.reason, OutcomeReason::Fetched);
        assert!(entry.errors.is_none());
        assert!(!robots(&outcome).is_allowed("bot", "/public"));
        assert_eq!(entry.last_good.unwrap().fetched_at, refresh + HOUR);
    }

    /// Fails every `step` from `start` until `end` (inclusive), returning the
    /// last outcome and entry.
    fn fail_until(
        policy: &FetchPolicy,
        previous: Option<CacheEntry>,
        start: SystemTime,
        end: SystemTime,
    ) -> (Outcome, CacheEntry) {
        let mut now = start;
        let mut previous = previous;
        loop {
            let (outcome, entry) = policy.apply(&status(503), previous.as_ref(), now);
            if now >= end {
                return (outcome, entry);
            }
            now = entry.expires_at.min(end);
            previous = Some(entry);
        }
    }

    #[test]
    fn after_30_days_of_errors_without_a_copy_everything_is_allowed() {
        // Hourly retries keep the loop short.
        let policy = FetchPolicy {
            retry_min: HOUR,
            ..FetchPolicy::default()
        };
        let thirty = t0() + 30 * DAY;
        let (outcome, entry) = fail_until(&policy, None, t0(), thirty);
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow, "exactly 30 days");
        assert_eq!(entry.errors.unwrap().since, t0());
        let (outcome, entry) =
            policy.apply(&status(500), Some(&entry), thirty + Duration::from_secs(1));
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
        assert_eq!(outcome.reason, OutcomeReason::UnreachableAllowAll);
        // Still retried.
        assert!(!entry.is_fresh(thirty + 2 * HOUR));
        // And a success afterwards is obeyed again.
        let (outcome, _) = policy.apply(&ok(BODY), Some(&entry), thirty + 3 * HOUR);
        assert_eq!(outcome.kind(), OutcomeKind::Conditional);
    }

    #[test]
    fn after_30_days_of_errors_with_a_copy_the_last_copy_is_used() {
        let policy = FetchPolicy {
            retry_min: HOUR,
            ..FetchPolicy::default()
        };
        let (_, good) = policy.apply(&ok(BODY), None, t0());
        let start = good.expires_at;
        let (outcome, entry) = fail_until(&policy, Some(good), start, start + 30 * DAY);
        assert_eq!(outcome.reason, OutcomeReason::StaleCopy);
        let (outcome, _) = policy.apply(
            &network(NetworkErrorKind::Dns),
            Some(&entry),
            start + 30 * DAY + Duration::from_secs(1),
        );
        assert_eq!(outcome.reason, OutcomeReason::UnreachableLastCopy);
        assert!(!robots(&outcome).is_allowed("bot", "/private"));
        assert!(robots(&outcome).is_allowed("bot", "/public"));
    }

    #[test]
    fn soft_404_heuristic_is_off_by_default() {
        let page = FetchResult::Response(
            HttpResponse::new(500).with_body("<html><title>Page Not Found</title></html>"),
        );
        let (outcome, _) = FetchPolicy::default().apply(&page, None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
        let policy = FetchPolicy {
            soft_not_found: true,
            ..FetchPolicy::default()
        };
        let (outcome, entry) = policy.apply(&page, None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullAllow);
        assert_eq!(outcome.reason, OutcomeReason::SoftNotFound);
        assert!(entry.errors.is_none());
        let (outcome, _) = policy.apply(&status(500), None, t0());
        assert_eq!(outcome.kind(), OutcomeKind::FullDisallow);
    }

    #[test]
    fn settings_never_panic_when_inverted() {
        let policy = FetchPolicy {
            min_ttl: 10 * DAY,
            max_ttl: DAY,
            retry_max: Duration::ZERO,
            ..FetchPolicy::default()
        };
        let (_, entry) = policy.apply(&with_cache_control("max-age=60"), None, t0());
        assert_eq!(entry.ttl(), DAY);
        let (_, entry) = policy.apply(&status(500), None, t0());
        assert_eq!(entry.ttl(), Duration::from_secs(60));
    }

    #[test]
    fn huge_settings_saturate_instead_of_panicking() {
        let policy = FetchPolicy {
            default_ttl: Duration::MAX,
            max_ttl: Duration::MAX,
            retry_min: Duration::MAX,
            retry_max: Duration::MAX,
            ..FetchPolicy::default()
        };
        let (_, entry) = policy.apply(&ok(BODY), None, t0());
        assert!(entry.is_fresh(t0() + 300 * DAY));
        let (_, entry) = policy.apply(&status(500), None, t0());
        assert!(entry.expires_at > t0());
    }

    #[test]
    fn cache_directives_parse() {
        assert_eq!(
            CacheDirectives::parse("NO-CACHE, max-age=10, max-age=20"),
            CacheDirectives {
                max_age: Some(10),
                no_store: false,
                no_cache: true
            }
        );
        assert_eq!(CacheDirectives::parse("").max_age, None);
        assert_eq!(CacheDirectives::parse("max-age").max_age, None);
        assert_eq!(CacheDirectives::parse("s-maxage=5").max_age, None);
        assert!(CacheDirectives::parse("private,no-store").no_store);
    }

    #[test]
    fn entries_round_trip_through_serde() {
        let policy = FetchPolicy::default();
        let (_, good) = policy.apply(&ok(BODY), None, t0());
        let (_, failed) = policy.apply(&status(500), Some(&good), t0() + 25 * HOUR);
        let json = serde_json::to_string(&failed).unwrap();
        let back: CacheEntry = serde_json::from_str(&json).unwrap();
        assert_eq!(back.outcome.reason, OutcomeReason::StaleCopy);
        assert_eq!(back.expires_at, failed.expires_at);
        assert_eq!(back.errors, failed.errors);
        assert!(!robots(&back.outcome).is_allowed("bot", "/private"));
        assert!(back.heap_size() > 0);
    }
}
