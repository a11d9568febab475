//! What a server is started with: embedded defaults (so `crawlgate serve`
//! works with no setup), overridable by flags and environment variables.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use std::sync::Arc;

use crawlgate_answers::FetchPolicy;
use crawlgate_fetch::{AddressPolicy, PolitenessConfig, Resolver};

/// Where cached robots.txt files, their history and the politeness
/// schedule live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CacheBackend {
    /// A file in the data directory (redb), with an in-memory tier of parsed
    /// files: one instance, survives restarts.
    Embedded {
        /// Bytes kept on disk (entries and history); least recently used
        /// origins are evicted past it.
        max_bytes: u64,
    },
    /// A Redis server shared by many instances: one cache, one politeness
    /// schedule and one fetch per origin at a time across all of them.
    Redis {
        /// `redis://host:port/db`.
        url: String,
        /// Prefix of every key written.
        prefix: String,
    },
}

/// Bounds on what one request, one client and all requests together may
/// take: sizes, time, memory, CPU and fetches. Every one is a flag of
/// `crawlgate serve` and a `CRAWLGATE_*` variable ([`ServeArgs`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest request body (4 MiB); more is refused with 413.
    pub max_body_bytes: usize,
    /// Longest request target, path and query string (32 KiB); longer is
    /// refused with 414.
    pub max_uri_bytes: usize,
    /// Pairs in one `POST /v1/allowed`, URLs in one `POST /v1/check` (1,000).
    pub max_pairs: usize,
    /// Longest URL or origin, in characters (8,192).
    pub max_url_chars: usize,
    /// Longest crawler name, in characters (256).
    pub max_agent_chars: usize,
    /// Largest pasted robots.txt, in bytes (1 MiB: twice what is parsed, so
    /// the linter can say what is lost past 500 KiB).
    pub max_robots_bytes: usize,
    /// robots.txt fetches running at once (32); more wait.
    pub max_concurrent_fetches: usize,
    /// Origins one request may have fetched (32): the others are answered
    /// "not fetched: limit".
    pub max_fetches_per_request: usize,
    /// Origins one client (IP address) may have fetched per minute (600):
    /// past that, "not fetched: limit" until its allowance refills.
    pub max_fetches_per_client: usize,
    /// Shortest time between two `POST /v1/refresh` of one origin (10 s).
    pub refresh_interval: Duration,
    /// Requests handled at once (1,024); more wait for a slot. A request
    /// takes its slot only once its body has arrived.
    pub max_concurrent_requests: usize,
    /// How long a request may wait for a slot, for memory or for a CPU
    /// before it is answered 503 with `Retry-After` (10 s).
    pub queue_timeout: Duration,
    /// Time to receive a request's headers, counted from when the server
    /// starts waiting for them: a kept-alive connection that stays idle
    /// this long is closed too (10 s).
    pub header_timeout: Duration,
    /// Time to receive a whole request body (30 s); then 408.
    pub body_timeout: Duration,
    /// Time a response may wait for a client that does not read it before
    /// the connection is dropped (30 s).
    pub send_timeout: Duration,
    /// Memory that request bodies being received and the heavy work
    /// (linting, checking, batches) may hold at once (512 MiB): bodies take
    /// at most a quarter of it; a request that would go past it waits.
    pub memory_budget: usize,
    /// Threads doing the heavy work (one less than the cores, at least
    /// one), so the async workers always keep a core for light requests.
    pub cpu_workers: usize,
    /// How far ahead a politeness reservation may lie (10 min): a slot is
    /// granted only while the next free time stays within it.
    pub politeness_horizon: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 4 << 20,
            max_uri_bytes: 32 << 10,
            max_pairs: 1_000,
            max_url_chars: 8_192,
            max_agent_chars: 256,
            max_robots_bytes: 1 << 20,
            max_concurrent_fetches: 32,
            max_fetches_per_request: 32,
            max_fetches_per_client: 600,
            refresh_interval: Duration::from_secs(10),
            max_concurrent_requests: 1_024,
            queue_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            send_timeout: Duration::from_secs(30),
            memory_budget: 512 << 20,
            cpu_workers: default_cpu_workers(),
            politeness_horizon: Duration::from_secs(600),
        }
    }
}

/// One less than the cores the process may use, at least one.
pub fn default_cpu_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

/// Which non-public addresses robots.txt fetches may reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrivateTargets {
    /// Loopback, private (RFC 1918, unique local), carrier-grade NAT and
    /// unspecified addresses.
    pub allow_private: bool,
    /// Link-local addresses, cloud metadata endpoints (169.254.169.254)
    /// among them. Separate from `allow_private` on purpose.
    pub allow_link_local: bool,
}

impl PrivateTargets {
    /// The fetch crate's address policy for these choices.
    ///
    /// ```
    /// use crawlgate_server::PrivateTargets;
    /// let policy = PrivateTargets { allow_private: true, allow_link_local: false }.address_policy();
    /// assert!(policy.check("h", "127.0.0.1".parse().unwrap()).is_ok());
    /// assert!(policy.check("h", "169.254.169.254".parse().unwrap()).is_err());
    /// ```
    pub fn address_policy(&self) -> AddressPolicy {
        let policy = if self.allow_private {
            AddressPolicy::allow_private()
        } else {
            AddressPolicy::public_only()
        };
        if self.allow_link_local {
            policy.allow_link_local()
        } else {
            policy
        }
    }
}

/// Everything a [`Server`](crate::Server) is started with.
///
/// ```
/// use crawlgate_server::ServerConfig;
/// let config = ServerConfig::default();
/// assert_eq!(config.bind.to_string(), "127.0.0.1:8080");
/// assert!(config.data_dir.ends_with("crawlgate"));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServerConfig {
    /// The address to listen on (127.0.0.1:8080).
    pub bind: SocketAddr,
    /// Where the embedded store keeps its file (the platform's data
    /// directory, `crawlgate` in it).
    pub data_dir: PathBuf,
    /// The cache backend (embedded, 256 MiB).
    pub cache: CacheBackend,
    /// Parsed files kept in memory, in bytes (256 MiB).
    pub memory_bytes: usize,
    /// Which non-public targets may be fetched (none).
    pub targets: PrivateTargets,
    /// The fetch rules: TTLs, retries, the 30-day limit (RFC 9309 and
    /// Google's defaults).
    pub policy: FetchPolicy,
    /// Crawl-delay floor and cap, visit-time.
    pub politeness: PolitenessConfig,
    /// `User-Agent` sent when fetching robots.txt.
    pub user_agent: String,
    /// Time allowed for one robots.txt fetch, redirects included (30 s).
    pub fetch_timeout: Duration,
    /// Request bounds.
    pub limits: Limits,
    /// Where fetches connect, when not the system's resolver and `targets`
    /// (tests: every name to a loopback address, nothing else reachable).
    pub network: Option<Network>,
    /// How `POST /v1/verify` proves a crawler's identity: where the
    /// operators' IP feeds come from, which DNS server is asked.
    pub verify: crawlgate_audit::identity::VerifyOptions,
}

/// A resolver and an address policy that replace the system resolver and
/// [`PrivateTargets`]: for tests that must never reach the internet.
///
/// ```
/// use std::sync::Arc;
/// use crawlgate_fetch::{AddressPolicy, StaticResolver};
/// use crawlgate_server::{Network, ServerConfig};
///
/// let mut config = ServerConfig::default();
/// config.network = Some(Network {
///     resolver: Arc::new(StaticResolver::new().with("site.test", ["127.0.0.1".parse().unwrap()])),
///     policy: AddressPolicy::allow_private(),
/// });
/// ```
#[derive(Clone)]
pub struct Network {
    /// Turns host names into addresses.
    pub resolver: Arc<dyn Resolver>,
    /// Which addresses may be connected to.
    pub policy: AddressPolicy,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            data_dir: default_data_dir(),
            cache: CacheBackend::Embedded {
                max_bytes: 256 << 20,
            },
            memory_bytes: 256 << 20,
            targets: PrivateTargets::default(),
            policy: FetchPolicy::default(),
            politeness: PolitenessConfig::default(),
            user_agent: crawlgate_fetch::DEFAULT_USER_AGENT.to_owned(),
            fetch_timeout: Duration::from_secs(30),
            limits: Limits::default(),
            network: None,
            verify: crawlgate_audit::identity::VerifyOptions::default(),
        }
    }
}

/// `crawlgate` in the platform's data directory (`~/.local/share` on
/// Linux), or in the working directory when there is none.
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("crawlgate")
}

const SERVE_EXAMPLES: &str = "\
Examples:
  crawlgate serve                                   # http://127.0.0.1:8080/, store in the data directory
  crawlgate serve --bind 0.0.0.0:9000 --data-dir /var/lib/crawlgate
  crawlgate serve --cache redis://127.0.0.1:6379/   # several instances, one cache and schedule
  crawlgate serve --allow-private                   # intranet sites (link-local stays refused)
  curl 'http://127.0.0.1:8080/v1/allowed?url=https://example.com/page&agent=mybot'

Open http://127.0.0.1:8080/ for the robots.txt tester; the API is described
at /openapi.json. Every flag can also be set with its CRAWLGATE_* variable.";

/// The flags of `crawlgate serve`, each also read from an environment
/// variable.
///
/// ```
/// use clap::Parser;
/// use crawlgate_server::ServeArgs;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     serve: ServeArgs,
/// }
/// let cli = Cli::parse_from(["serve", "--bind", "127.0.0.1:9000", "--allow-private"]);
/// let config = cli.serve.into_config().unwrap();
/// assert_eq!(config.bind.port(), 9000);
/// assert!(config.targets.allow_private && !config.targets.allow_link_local);
///
/// let cli = Cli::parse_from(["serve", "--memory-budget", "1G", "--body-timeout", "500ms"]);
/// let config = cli.serve.into_config().unwrap();
/// assert_eq!(config.limits.memory_budget, 1 << 30);
/// assert_eq!(config.limits.body_timeout.as_millis(), 500);
/// let cli = Cli::parse_from(["serve", "--politeness-horizon", "30s"]);
/// let error = cli.serve.into_config().unwrap_err();
/// assert_eq!(error.flag, "politeness-horizon"); // shorter than the 60 s crawl-delay cap
/// ```
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = SERVE_EXAMPLES)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CRAWLGATE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Directory of the embedded store [default: the platform's data
    /// directory, e.g. ~/.local/share/crawlgate].
    #[arg(long, env = "CRAWLGATE_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// Cache backend: `embedded` (a file in the data directory) or a
    /// `redis://host:port` URL shared by several instances.
    #[arg(long, env = "CRAWLGATE_CACHE", default_value = "embedded")]
    pub cache: String,

    /// Bytes the embedded store keeps on disk before evicting the least
    /// recently used origins.
    #[arg(long, env = "CRAWLGATE_CACHE_BYTES", default_value_t = 256 << 20)]
    pub cache_bytes: u64,

    /// Prefix of the Redis keys.
    #[arg(long, env = "CRAWLGATE_REDIS_PREFIX", default_value = "crawlgate:")]
    pub redis_prefix: String,

    /// Allow fetching from loopback and private addresses (intranets,
    /// tests). Link-local addresses stay refused.
    #[arg(long, env = "CRAWLGATE_ALLOW_PRIVATE")]
    pub allow_private: bool,

    /// Allow fetching from link-local addresses, cloud metadata endpoints
    /// such as 169.254.169.254 included.
    #[arg(long, env = "CRAWLGATE_ALLOW_LINK_LOCAL")]
    pub allow_link_local: bool,

    /// The shortest time a fetched robots.txt is kept, whatever
    /// Cache-Control says (seconds).
    #[arg(long, env = "CRAWLGATE_MIN_TTL", default_value_t = 60)]
    pub min_ttl: u64,

    /// Time allowed for one robots.txt fetch (seconds).
    #[arg(long, env = "CRAWLGATE_FETCH_TIMEOUT", default_value_t = 30)]
    pub fetch_timeout: u64,

    /// robots.txt fetches running at once.
    #[arg(long, env = "CRAWLGATE_MAX_FETCHES", default_value_t = 32)]
    pub max_fetches: usize,

    /// User-Agent header of robots.txt fetches.
    #[arg(long, env = "CRAWLGATE_USER_AGENT", default_value = crawlgate_fetch::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Origins one request may have fetched; the others are answered
    /// "not fetched: limit".
    #[arg(long, env = "CRAWLGATE_MAX_FETCHES_PER_REQUEST", default_value_t = 32)]
    pub max_fetches_per_request: usize,

    /// Origins one client (IP address) may have fetched per minute.
    #[arg(long, env = "CRAWLGATE_MAX_FETCHES_PER_CLIENT", default_value_t = 600)]
    pub max_fetches_per_client: usize,

    /// Largest request body (bytes; K, M, G suffixes: KiB, MiB, GiB).
    #[arg(long, env = "CRAWLGATE_MAX_BODY", default_value = "4M", value_parser = parse_size)]
    pub max_body: usize,

    /// Longest request target, path and query string (bytes; at most 64K,
    /// hyper's own limit).
    #[arg(long, env = "CRAWLGATE_MAX_TARGET", default_value = "32K", value_parser = parse_size)]
    pub max_target: usize,

    /// Requests handled at once; a request takes its slot once its body
    /// has arrived.
    #[arg(long, env = "CRAWLGATE_MAX_REQUESTS", default_value_t = 1_024)]
    pub max_requests: usize,

    /// How long a request may wait for a slot, memory or a CPU before it
    /// is answered 503 (seconds, or 500ms, 2m …).
    #[arg(long, env = "CRAWLGATE_QUEUE_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub queue_timeout: Duration,

    /// Time to receive a request's headers, idle time of a kept-alive
    /// connection included.
    #[arg(long, env = "CRAWLGATE_HEADER_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub header_timeout: Duration,

    /// Time to receive a whole request body (then 408).
    #[arg(long, env = "CRAWLGATE_BODY_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub body_timeout: Duration,

    /// Time a response may wait for a client that does not read it.
    #[arg(long, env = "CRAWLGATE_SEND_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub send_timeout: Duration,

    /// Memory that request bodies and heavy work (lint, check, batches)
    /// may hold at once (bytes; K, M, G suffixes).
    #[arg(long, env = "CRAWLGATE_MEMORY_BUDGET", default_value = "512M", value_parser = parse_size)]
    pub memory_budget: usize,

    /// Threads doing the heavy work [default: the cores less one, at least
    /// one].
    #[arg(long, env = "CRAWLGATE_CPU_WORKERS")]
    pub cpu_workers: Option<usize>,

    /// How far ahead a politeness reservation may lie (seconds, or 10m …).
    #[arg(long, env = "CRAWLGATE_POLITENESS_HORIZON", default_value = "10m", value_parser = parse_duration)]
    pub politeness_horizon: Duration,

    /// `POST /v1/verify`: where the operators' IP feeds are read (a folder
    /// laid out as DIR/<host>/<path> of their addresses, or an http(s) URL
    /// of such a mirror) [default: fetched from the operators, kept a day].
    #[arg(long, env = "CRAWLGATE_IP_RANGES", value_name = "DIR|URL")]
    pub ip_ranges: Option<String>,

    /// `POST /v1/verify`: the DNS server for reverse and forward lookups
    /// [default: the system's].
    #[arg(long, env = "CRAWLGATE_RESOLVER", value_name = "IP:PORT")]
    pub resolver: Option<SocketAddr>,

    /// `POST /v1/verify`: how long one DNS query may wait.
    #[arg(long, env = "CRAWLGATE_DNS_TIMEOUT", default_value = "5s", value_parser = parse_duration)]
    pub dns_timeout: Duration,

    /// `POST /v1/verify`: ask no DNS (crawlers proved only by DNS are `unknown`).
    #[arg(long, env = "CRAWLGATE_NO_DNS")]
    pub no_dns: bool,
}

/// `512M`, `64K`, `1G` or a number of bytes.
fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, shift) = match text.as_bytes().last() {
        Some(b'K' | b'k') => (&text[..text.len() - 1], 10),
        Some(b'M' | b'm') => (&text[..text.len() - 1], 20),
        Some(b'G' | b'g') => (&text[..text.len() - 1], 30),
        _ => (text, 0),
    };
    let n: usize = digits
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a size (a number of bytes, or with K, M or G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// `30` (seconds), `500ms`, `10m` …
fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Ok(Duration::from_secs(seconds));
    }
    humantime::parse_duration(text)
        .map_err(|e| format!("{text:?} is not a duration (seconds, or 500ms, 10s, 2m …): {e}"))
}

/// How `POST /v1/verify` verifies, from the serve flags.
fn verify_options(
    ip_ranges: Option<&str>,
    resolver: Option<SocketAddr>,
    dns_timeout: Duration,
    no_dns: bool,
    allow_private: bool,
) -> Result<crawlgate_audit::identity::VerifyOptions, ConfigError> {
    use crawlgate_audit::identity::dns::DnsConfig;
    use crawlgate_audit::identity::feeds::FeedSource;
    if no_dns && resolver.is_some() {
        return Err(ConfigError {
            flag: "no-dns",
            problem: "--resolver and --no-dns contradict each other".into(),
        });
    }
    if dns_timeout.is_zero() {
        return Err(ConfigError {
            flag: "dns-timeout",
            problem: "a DNS query needs some time to be answered".into(),
        });
    }
    let feeds = match ip_ranges {
        Some(arg) => {
            let source = FeedSource::from_arg(arg);
            if let FeedSource::Mirror(dir) = &source
                && !dir.is_dir()
            {
                return Err(ConfigError {
                    flag: "ip-ranges",
                    problem: format!("{}: not a folder", dir.display()),
                });
            }
            source
        }
        None => FeedSource::Live {
            cache: FeedSource::default_cache(),
        },
    };
    Ok(crawlgate_audit::identity::VerifyOptions {
        feeds,
        allow_private,
        dns: (!no_dns).then_some(DnsConfig {
            server: resolver,
            timeout: dns_timeout,
            concurrency: 64,
        }),
        ..crawlgate_audit::identity::VerifyOptions::default()
    })
}

/// A flag value that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("--{flag}: {problem}")]
pub struct ConfigError {
    /// The flag.
    pub flag: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

impl ServeArgs {
    /// The configuration these flags describe.
    pub fn into_config(self) -> Result<ServerConfig, ConfigError> {
        let mut config = ServerConfig {
            bind: self.bind,
            user_agent: self.user_agent,
            fetch_timeout: Duration::from_secs(self.fetch_timeout.max(1)),
            targets: PrivateTargets {
                allow_private: self.allow_private,
                allow_link_local: self.allow_link_local,
            },
            ..ServerConfig::default()
        };
        if let Some(dir) = self.data_dir {
            config.data_dir = dir;
        }
        config.verify = verify_options(
            self.ip_ranges.as_deref(),
            self.resolver,
            self.dns_timeout,
            self.no_dns,
            self.allow_private,
        )?;
        config.cache = match self.cache.as_str() {
            "embedded" => CacheBackend::Embedded {
                max_bytes: self.cache_bytes,
            },
            url if url.starts_with("redis://") || url.starts_with("rediss://") => {
                CacheBackend::Redis {
                    url: url.to_owned(),
                    prefix: self.redis_prefix,
                }
            }
            other => {
                return Err(ConfigError {
                    flag: "cache",
                    problem: format!("{other:?} is neither `embedded` nor a redis:// URL"),
                })
            }
        };
        if self.max_fetches == 0 {
            return Err(ConfigError {
                flag: "max-fetches",
                problem: "must be at least 1".to_owned(),
            });
        }
        let at_least_one = |flag: &'static str, value: usize| {
            if value == 0 {
                Err(ConfigError {
                    flag,
                    problem: "must be at least 1".to_owned(),
                })
            } else {
                Ok(value)
            }
        };
        let positive = |flag: &'static str, value: Duration| {
            if value.is_zero() {
                Err(ConfigError {
                    flag,
                    problem: "must be more than 0".to_owned(),
                })
            } else {
                Ok(value)
            }
        };
        let limits = &mut config.limits;
        limits.max_concurrent_fetches = self.max_fetches;
        limits.max_fetches_per_request =
            at_least_one("max-fetches-per-request", self.max_fetches_per_request)?;
        limits.max_fetches_per_client =
            at_least_one("max-fetches-per-client", self.max_fetches_per_client)?;
        limits.max_body_bytes = at_least_one("max-body", self.max_body)?;
        if !(1 << 10..=64 << 10).contains(&self.max_target) {
            return Err(ConfigError {
                flag: "max-target",
                problem: "must be between 1K and 64K".to_owned(),
            });
        }
        limits.max_uri_bytes = self.max_target;
        limits.max_concurrent_requests = at_least_one("max-requests", self.max_requests)?;
        limits.queue_timeout = positive("queue-timeout", self.queue_timeout)?;
        limits.header_timeout = positive("header-timeout", self.header_timeout)?;
        limits.body_timeout = positive("body-timeout", self.body_timeout)?;
        limits.send_timeout = positive("send-timeout", self.send_timeout)?;
        if self.memory_budget < 16 << 20 {
            return Err(ConfigError {
                flag: "memory-budget",
                problem: "must be at least 16M".to_owned(),
            });
        }
        limits.memory_budget = self.memory_budget;
        if let Some(workers) = self.cpu_workers {
            limits.cpu_workers = at_least_one("cpu-workers", workers)?;
        }
        let cap = config.politeness.cap;
        if self.politeness_horizon < cap {
            return Err(ConfigError {
                flag: "politeness-horizon",
                problem: format!(
                    "must be at least the longest crawl delay obeyed ({} s)",
                    cap.as_secs()
                ),
            });
        }
        limits.politeness_horizon = self.politeness_horizon;
        config.policy.min_ttl = Duration::from_secs(self.min_ttl);
        Ok(config)
    }
}
