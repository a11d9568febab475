//! What a server is started with: embedded defaults (so `crawlgate serve`
//! works with no setup), overridable by flags and environment variables.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crawlgate_fetch::{AddressPolicy, FetchPolicy, PolitenessConfig};

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

/// Bounds on what one request may ask for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest request body (4 MiB).
    pub max_body_bytes: usize,
    /// Pairs in one `POST /v1/allowed`, URLs in one `POST /v1/check` (1,000).
    pub max_pairs: usize,
    /// Longest URL or origin, in bytes (8,192).
    pub max_url_bytes: usize,
    /// Longest crawler name, in bytes (256).
    pub max_agent_bytes: usize,
    /// Largest pasted robots.txt, in bytes (1 MiB: twice what is parsed, so
    /// the linter can say what is lost past 500 KiB).
    pub max_robots_bytes: usize,
    /// robots.txt fetches running at once (32); more wait.
    pub max_concurrent_fetches: usize,
    /// Shortest time between two `POST /v1/refresh` of one origin (10 s).
    pub refresh_interval: Duration,
    /// Requests handled at once (1,024); more wait.
    pub max_concurrent_requests: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 4 << 20,
            max_pairs: 1_000,
            max_url_bytes: 8_192,
            max_agent_bytes: 256,
            max_robots_bytes: 1 << 20,
            max_concurrent_fetches: 32,
            refresh_interval: Duration::from_secs(10),
            max_concurrent_requests: 1_024,
        }
    }
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
        config.limits.max_concurrent_fetches = self.max_fetches;
        config.policy.min_ttl = Duration::from_secs(self.min_ttl);
        Ok(config)
    }
}
