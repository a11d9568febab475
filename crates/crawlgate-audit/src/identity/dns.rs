//! Reverse then forward DNS, through hickory's resolver: the PTR names of
//! an address, and for each name in an operator's domain whether it
//! resolves back to the address. Each address is asked once; many are
//! asked at a time, up to a bound; each query waits at most the timeout.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use futures_util::stream::{self, StreamExt};
use hickory_resolver::config::{ConnectionConfig, NameServerConfig, ResolveHosts, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::net::{DnsError, NetError};
use hickory_resolver::proto::rr::RData;
use hickory_resolver::TokioResolver;

/// What one DNS question gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<T> {
    /// Records.
    Found(T),
    /// "No such name", or the name has no record of the type: an answer.
    NoRecord,
    /// No answer: a timeout, a server failure or refusal, a network error.
    Failed(String),
}

/// One PTR name of an address, and what its forward lookup gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtrName {
    /// The name, lowercased, without its final dot.
    pub name: String,
    /// Whether the name resolves back to the address; `None` when it was
    /// not asked (the name is in no operator's domain).
    pub forward: Option<Answer<bool>>,
}

/// What DNS says about one address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnsFacts {
    /// Its PTR names.
    pub reverse: Answer<Vec<PtrName>>,
}

/// Whether `name` is `suffix` or ends in `.suffix` (case-insensitive; both
/// without a final dot).
///
/// ```
/// use crawlgate_audit::identity::dns::in_domain;
/// assert!(in_domain("crawl-66-249-66-1.googlebot.com", "googlebot.com"));
/// assert!(!in_domain("evilgooglebot.com", "googlebot.com"));
/// assert!(!in_domain("googlebot.com.evil.example", "googlebot.com"));
/// ```
pub fn in_domain(name: &str, suffix: &str) -> bool {
    let name = name.trim_end_matches('.');
    name.eq_ignore_ascii_case(suffix)
        || (name.len() > suffix.len()
            && name.as_bytes()[name.len() - suffix.len() - 1] == b'.'
            && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix))
}

/// How DNS is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnsConfig {
    /// The server (`None`: the system's, from `/etc/resolv.conf`).
    pub server: Option<SocketAddr>,
    /// How long one query may wait.
    pub timeout: Duration,
    /// How many addresses are looked up at a time.
    pub concurrency: usize,
}

impl Default for DnsConfig {
    fn default() -> DnsConfig {
        DnsConfig {
            server: None,
            timeout: Duration::from_secs(5),
            concurrency: 64,
        }
    }
}

/// A resolver for verifying addresses.
#[derive(Clone)]
pub struct Dns {
    resolver: TokioResolver,
    config: DnsConfig,
    /// The operators' domains: forward lookups are made for PTR names in
    /// them only.
    suffixes: Vec<&'static str>,
}

fn classify(error: &NetError) -> Option<String> {
    match error {
        NetError::Dns(DnsError::NoRecordsFound(_)) => None,
        NetError::Timeout => Some("timed out".into()),
        NetError::Dns(DnsError::ResponseCode(code)) => Some(format!("the server answered {code}")),
        other => Some(other.to_string()),
    }
}

impl Dns {
    /// A resolver (built inside a Tokio runtime).
    pub fn new(config: DnsConfig) -> Result<Dns, String> {
        let mut builder = match config.server {
            Some(server) => {
                // UDP alone: a query that times out is not asked again
                // over TCP, so one timeout bounds it. PTR and address
                // answers fit a datagram.
                let mut udp = ConnectionConfig::udp();
                udp.port = server.port();
                let name_server = NameServerConfig::new(server.ip(), true, vec![udp]);
                TokioResolver::builder_with_config(
                    ResolverConfig::from_name_servers(vec![name_server]),
                    TokioRuntimeProvider::default(),
                )
            }
            None => TokioResolver::builder_tokio()
                .map_err(|e| format!("cannot read the system's DNS settings: {e}"))?,
        };
        let options = builder.options_mut();
        options.timeout = config.timeout;
        // Retries after the first try: none, so one timeout bounds a query.
        options.attempts = 0;
        options.use_hosts_file = ResolveHosts::Never;
        options.ndots = 0;
        options.try_tcp_on_error = false;
        let resolver = builder
            .build()
            .map_err(|e| format!("cannot start the DNS resolver: {e}"))?;
        let mut suffixes: Vec<&'static str> = crawlgate::registry::verification::all()
            .iter()
            .filter_map(|v| match v.method {
                crawlgate::registry::verification::Method::Dns { suffixes, .. } => Some(suffixes),
                _ => None,
            })
            .flatten()
            .copied()
            .collect();
        suffixes.sort_unstable();
        suffixes.dedup();
        Ok(Dns {
            resolver,
            config,
            suffixes,
        })
    }

    /// The settings.
    pub fn config(&self) -> &DnsConfig {
        &self.config
    }

    async fn forward(&self, name: &str, ip: IpAddr) -> Answer<bool> {
        let fqdn = format!("{name}.");
        let lookup = match ip {
            IpAddr::V4(_) => self.resolver.ipv4_lookup(fqdn.as_str()).await,
            IpAddr::V6(_) => self.resolver.ipv6_lookup(fqdn.as_str()).await,
        };
        match lookup {
            Ok(found) => Answer::Found(found.answers().iter().any(|r| match &r.data {
                RData::A(a) => IpAddr::V4(a.0) == ip,
                RData::AAAA(aaaa) => IpAddr::V6(aaaa.0) == ip,
                _ => false,
            })),
            Err(e) => match classify(&e) {
                None => Answer::NoRecord,
                Some(why) => Answer::Failed(why),
            },
        }
    }

    /// What DNS says about `ip`: its PTR names, and for those in an
    /// operator's domain, whether they resolve back to it. The whole
    /// answer waits at most a few timeouts.
    pub async fn facts(&self, ip: IpAddr) -> DnsFacts {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        let reverse = match self.resolver.reverse_lookup(ip).await {
            Ok(found) => {
                let mut names: Vec<String> = found
                    .answers()
                    .iter()
                    .filter_map(|r| match &r.data {
                        RData::PTR(ptr) => {
                            Some(ptr.0.to_ascii().trim_end_matches('.').to_ascii_lowercase())
                        }
                        _ => None,
                    })
                    .collect();
                names.dedup();
                // At most 8 names are followed: more is no verification method.
                names.truncate(8);
                let mut ptrs = Vec::with_capacity(names.len());
                for name in names {
                    let wanted = self.suffixes.iter().any(|s| in_domain(&name, s));
                    let forward = if wanted {
                        Some(self.forward(&name, ip).await)
                    } else {
                        None
                    };
                    ptrs.push(PtrName { name, forward });
                }
                if ptrs.is_empty() {
                    Answer::NoRecord
                } else {
                    Answer::Found(ptrs)
                }
            }
            Err(e) => match classify(&e) {
                None => Answer::NoRecord,
                Some(why) => Answer::Failed(why),
            },
        };
        DnsFacts { reverse }
    }

    /// [`facts`](Self::facts) of many addresses, up to the configured
    /// number at a time, each bounded by a deadline of its own.
    pub async fn facts_of_all(&self, ips: Vec<IpAddr>) -> Vec<(IpAddr, DnsFacts)> {
        // Reverse, then up to 8 forward lookups: bound the whole.
        let deadline = self.config.timeout * 10;
        stream::iter(ips)
            .map(|ip| async move {
                let facts = match tokio::time::timeout(deadline, self.facts(ip)).await {
                    Ok(facts) => facts,
                    Err(_) => DnsFacts {
                        reverse: Answer::Failed("timed out".into()),
                    },
                };
                (ip, facts)
            })
            .buffer_unordered(self.config.concurrency.max(1))
            .collect()
            .await
    }
}
