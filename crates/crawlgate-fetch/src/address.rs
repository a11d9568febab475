//! The address policy against server-side request forgery: a robots.txt
//! fetch (and every redirect hop of it) may only connect to public
//! addresses unless the caller explicitly allows others.
//!
//! The check runs on the addresses a host name *resolves to*, inside the
//! resolver the HTTP client uses, so a public name pointing at `127.0.0.1`
//! is caught, and so is a redirect to one.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

crawlgate::word_table! {
    /// What kind of address an IP address is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    #[non_exhaustive]
    pub enum AddressClass {
        /// A globally routable address.
        Public = "public",
        /// `0.0.0.0/8`, `::`.
        Unspecified = "unspecified",
        /// `127.0.0.0/8`, `::1`.
        Loopback = "loopback",
        /// `10/8`, `172.16/12`, `192.168/16`, `fc00::/7` (unique local), `fec0::/10`.
        Private = "private",
        /// `169.254/16`, `fe80::/10`.
        LinkLocal = "link-local",
        /// The instance metadata services of cloud providers, which hand out
        /// credentials to whoever asks from inside the machine:
        /// `169.254.169.254` (AWS, Google Cloud, Azure, Oracle …),
        /// `169.254.170.2` (AWS ECS), `fd00:ec2::254` (AWS over IPv6),
        /// `100.100.100.200` (Alibaba Cloud), `168.63.129.16` (Azure).
        CloudMetadata = "cloud metadata",
        /// `100.64/10` (carrier-grade NAT).
        SharedAddressSpace = "shared (carrier-grade NAT)",
        /// `224/4`, `ff00::/8`.
        Multicast = "multicast",
        /// `255.255.255.255`.
        Broadcast = "broadcast",
        /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`.
        Documentation = "documentation",
        /// Other special-purpose ranges (`240/4`, `192.0.0/24`, `198.18/15`,
        /// `100::/64`, IPv4-compatible IPv6 …).
        Reserved = "reserved",
    }
}

/// Classifies an address. IPv6 forms that embed an IPv4 address
/// (`::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) take the class
/// of the embedded address, so they cannot smuggle a private one.
///
/// ```
/// use crawlgate_fetch::{classify, AddressClass};
/// assert_eq!(classify("127.0.0.1".parse().unwrap()), AddressClass::Loopback);
/// assert_eq!(classify("::ffff:10.0.0.1".parse().unwrap()), AddressClass::Private);
/// assert_eq!(classify("::ffff:a9fe:a9fe".parse().unwrap()), AddressClass::CloudMetadata);
/// assert_eq!(classify("93.184.216.34".parse().unwrap()), AddressClass::Public);
/// ```
pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// The cloud metadata services' IPv4 addresses (see
/// [`AddressClass::CloudMetadata`]).
const METADATA_V4: [Ipv4Addr; 4] = [
    Ipv4Addr::new(169, 254, 169, 254),
    Ipv4Addr::new(169, 254, 170, 2),
    Ipv4Addr::new(100, 100, 100, 200),
    Ipv4Addr::new(168, 63, 129, 16),
];

/// AWS's metadata service over IPv6, `fd00:ec2::254`.
const METADATA_V6: Ipv6Addr = Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254);

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    if METADATA_V4.contains(&ip) {
        return AddressClass::CloudMetadata;
    }
    let [a, b, c, _] = ip.octets();
    match (a, b, c) {
        (0, _, _) => AddressClass::Unspecified,
        (127, _, _) => AddressClass::Loopback,
        (10, _, _) => AddressClass::Private,
        (172, 16..=31, _) => AddressClass::Private,
        (192, 168, _) => AddressClass::Private,
        (169, 254, _) => AddressClass::LinkLocal,
        (100, 64..=127, _) => AddressClass::SharedAddressSpace,
        (192, 0, 2) | (198, 51, 100) | (203, 0, 113) => AddressClass::Documentation,
        (192, 0, 0) | (198, 18..=19, _) => AddressClass::Reserved,
        (224..=239, _, _) => AddressClass::Multicast,
        _ if ip == Ipv4Addr::BROADCAST => AddressClass::Broadcast,
        (240..=255, _, _) => AddressClass::Reserved,
        _ => AddressClass::Public,
    }
}

fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    let s = ip.segments();
    let embedded =
        |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if ip == METADATA_V6 {
        AddressClass::CloudMetadata
    } else if ip.is_unspecified() {
        AddressClass::Unspecified
    } else if ip.is_loopback() {
        AddressClass::Loopback
    } else if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        // NAT64 well-known prefix: the last 32 bits are an IPv4 address.
        classify_v4(embedded(s[6], s[7]))
    } else if s[0] == 0x2002 {
        // 6to4: bits 16..48 are an IPv4 address.
        classify_v4(embedded(s[1], s[2]))
    } else if s[..6] == [0, 0, 0, 0, 0, 0] {
        // Deprecated IPv4-compatible addresses (`::a.b.c.d`).
        AddressClass::Reserved
    } else if s[0] & 0xfe00 == 0xfc00 || s[0] & 0xffc0 == 0xfec0 {
        AddressClass::Private
    } else if s[0] & 0xffc0 == 0xfe80 {
        AddressClass::LinkLocal
    } else if s[0] & 0xff00 == 0xff00 {
        AddressClass::Multicast
    } else if s[0] == 0x2001 && s[1] == 0x0db8 {
        AddressClass::Documentation
    } else if s[..4] == [0x100, 0, 0, 0] {
        AddressClass::Reserved
    } else {
        AddressClass::Public
    }
}

/// An address the policy refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{host} resolves to {address}, a {class} address; refused by the address policy (allow non-public addresses explicitly to fetch it)")]
pub struct RefusedAddress {
    /// The host name (or IP literal) being connected to.
    pub host: String,
    /// The refused address.
    pub address: IpAddr,
    /// Its class.
    pub class: AddressClass,
}

/// Which addresses robots.txt fetches may connect to.
///
/// The default ([`AddressPolicy::public_only`]) refuses every address that
/// is not [`AddressClass::Public`]. [`AddressPolicy::allow_private`] lifts
/// that for loopback, private and the other non-public ranges (for tests and
/// intranet crawlers) but still refuses link-local addresses and cloud
/// metadata services, which a crawler running in a cloud must never reach
/// by accident; [`AddressPolicy::allow_link_local`] lifts that too.
/// [`AddressPolicy::allow_host`] allows any address for chosen host names
/// only.
///
/// ```
/// use crawlgate_fetch::AddressPolicy;
/// let private = AddressPolicy::allow_private();
/// assert!(private.check("intranet.example", "10.1.2.3".parse().unwrap()).is_ok());
/// assert!(private.check("169.254.169.254", "169.254.169.254".parse().unwrap()).is_err());
/// assert!(private.check("[fe80::1]", "fe80::1".parse().unwrap()).is_err());
/// let every = AddressPolicy::allow_private().allow_link_local();
/// assert!(every.check("169.254.169.254", "169.254.169.254".parse().unwrap()).is_ok());
/// ```
///
/// ```
/// use crawlgate_fetch::AddressPolicy;
/// let strict = AddressPolicy::public_only();
/// assert!(strict.check("intranet.example", "10.1.2.3".parse().unwrap()).is_err());
/// assert!(strict.check("example.com", "93.184.216.34".parse().unwrap()).is_ok());
///
/// let intranet = AddressPolicy::public_only().allow_host("intranet.example");
/// assert!(intranet.check("intranet.example", "10.1.2.3".parse().unwrap()).is_ok());
/// assert!(intranet.check("other.example", "10.1.2.3".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AddressPolicy {
    allow_non_public: bool,
    allow_link_local: bool,
    loopback_only: bool,
    allowed_hosts: BTreeSet<String>,
}

impl AddressPolicy {
    /// Only public addresses (the default).
    pub fn public_only() -> AddressPolicy {
        AddressPolicy::default()
    }

    /// Loopback, private, shared, reserved … addresses as well as public
    /// ones; not link-local addresses nor cloud metadata services (see
    /// [`allow_link_local`](Self::allow_link_local)).
    pub fn allow_private() -> AddressPolicy {
        AddressPolicy {
            allow_non_public: true,
            ..AddressPolicy::default()
        }
    }

    /// Every address: [`allow_private`](Self::allow_private) and
    /// [`allow_link_local`](Self::allow_link_local) together.
    pub fn allow_all() -> AddressPolicy {
        AddressPolicy::allow_private().allow_link_local()
    }

    /// Only loopback addresses (and the hosts of
    /// [`allow_host`](Self::allow_host)): a fetcher that must never reach
    /// another machine, such as a test server whose names all resolve to
    /// `127.0.0.1`.
    ///
    /// ```
    /// use crawlgate_fetch::AddressPolicy;
    /// let local = AddressPolicy::loopback_only();
    /// assert!(local.check("site.test", "127.0.0.1".parse().unwrap()).is_ok());
    /// assert!(local.check("93.184.216.34", "93.184.216.34".parse().unwrap()).is_err());
    /// assert!(local.check("10.0.0.1", "10.0.0.1".parse().unwrap()).is_err());
    /// ```
    pub fn loopback_only() -> AddressPolicy {
        AddressPolicy {
            loopback_only: true,
            ..AddressPolicy::default()
        }
    }

    /// This policy with the non-public addresses of
    /// [`allow_private`](Self::allow_private) allowed too.
    pub(crate) fn with_non_public(mut self) -> AddressPolicy {
        self.allow_non_public = true;
        self
    }

    /// Also allows link-local addresses (`169.254/16`, `fe80::/10`) and
    /// the cloud metadata services ([`AddressClass::CloudMetadata`]).
    pub fn allow_link_local(mut self) -> AddressPolicy {
        self.allow_link_local = true;
        self
    }

    /// Also allows any address for this host name (compared
    /// case-insensitively; an IP literal may be given too).
    pub fn allow_host(mut self, host: &str) -> AddressPolicy {
        self.allowed_hosts.insert(host.to_ascii_lowercase());
        self
    }

    /// Whether loopback, private and the other non-public addresses
    /// (link-local ones aside) are allowed.
    pub fn allows_non_public(&self) -> bool {
        self.allow_non_public
    }

    /// Whether link-local addresses and cloud metadata services are
    /// allowed.
    pub fn allows_link_local(&self) -> bool {
        self.allow_link_local
    }

    /// Checks one address that `host` resolved to (or is, for an IP literal).
    pub fn check(&self, host: &str, address: IpAddr) -> Result<(), RefusedAddress> {
        let class = classify(address);
        let allowed = match class {
            _ if self.loopback_only => class == AddressClass::Loopback,
            AddressClass::Public => true,
            AddressClass::LinkLocal | AddressClass::CloudMetadata => self.allow_link_local,
            _ => self.allow_non_public,
        };
        if allowed || self.host_allowed(host) {
            Ok(())
        } else {
            Err(RefusedAddress {
                host: host.to_owned(),
                address,
                class,
            })
        }
    }

    fn host_allowed(&self, host: &str) -> bool {
        if self.allowed_hosts.is_empty() {
            return false;
        }
        let unbracket = |h: &str| h.trim_start_matches('[').trim_end_matches(']').to_owned();
        let host = unbracket(&host.to_ascii_lowercase());
        self.allowed_hosts.iter().any(|h| unbracket(h) == host)
    }
}

/// Turns host names into addresses. The fetcher's default is
/// [`SystemResolver`]; tests plug a [`StaticResolver`].
pub trait Resolver: Send + Sync {
    /// The addresses of `host` (a domain name, never an IP literal).
    fn resolve(&self, host: &str) -> BoxFuture<'static, io::Result<Vec<IpAddr>>>;
}

/// The operating system's resolver (`getaddrinfo`, via tokio).
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemResolver;

impl Resolver for SystemResolver {
    fn resolve(&self, host: &str) -> BoxFuture<'static, io::Result<Vec<IpAddr>>> {
        let host = host.to_owned();
        Box::pin(async move {
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|a| a.ip()).collect())
        })
    }
}

/// A fixed table of names and addresses; every other name fails to
/// resolve. For tests, and for pinning hosts.
///
/// ```
/// use crawlgate_fetch::StaticResolver;
/// let resolver = StaticResolver::new().with("robots.test", ["127.0.0.1".parse().unwrap()]);
/// # let _ = resolver;
/// ```
#[derive(Clone, Debug, Default)]
pub struct StaticResolver {
    table: HashMap<String, Vec<IpAddr>>,
}

impl StaticResolver {
    /// An empty table.
    pub fn new() -> StaticResolver {
        StaticResolver::default()
    }

    /// Adds a name (case-insensitive) and its addresses.
    pub fn with(
        mut self,
        host: &str,
        addresses: impl IntoIterator<Item = IpAddr>,
    ) -> StaticResolver {
        self.table
            .insert(host.to_ascii_lowercase(), addresses.into_iter().collect());
        self
    }
}

impl Resolver for StaticResolver {
    fn resolve(&self, host: &str) -> BoxFuture<'static, io::Result<Vec<IpAddr>>> {
        let found = self.table.get(&host.to_ascii_lowercase()).cloned();
        let host = host.to_owned();
        Box::pin(async move {
            found.ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotFound, format!("no address for {host}"))
            })
        })
    }
}

/// Why [`CheckedResolver::resolve_checked`] gave no address.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// Every address the name resolved to was refused.
    #[error(transparent)]
    Refused(#[from] RefusedAddress),
    /// The name did not resolve.
    #[error("could not resolve {host}: {source}")]
    Lookup {
        /// The name.
        host: String,
        /// What the resolver said.
        source: io::Error,
    },
}

/// A [`Resolver`] with the [`AddressPolicy`] applied to what it returns:
/// refused addresses are dropped, and a name left with none fails with
/// [`ResolveError::Refused`]. This is the resolver the HTTP client uses.
///
/// ```
/// use std::sync::Arc;
/// use crawlgate_fetch::{AddressPolicy, CheckedResolver, ResolveError, StaticResolver};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let table = StaticResolver::new().with("sneaky.test", ["192.168.1.1".parse().unwrap()]);
/// let resolver = CheckedResolver::new(Arc::new(table), AddressPolicy::public_only());
/// assert!(matches!(resolver.resolve_checked("sneaky.test").await, Err(ResolveError::Refused(_))));
/// # });
/// ```
#[derive(Clone)]
pub struct CheckedResolver {
    inner: Arc<dyn Resolver>,
    policy: AddressPolicy,
}

impl fmt::Debug for CheckedResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckedResolver")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl CheckedResolver {
    /// Wraps a resolver with a policy.
    pub fn new(inner: Arc<dyn Resolver>, policy: AddressPolicy) -> CheckedResolver {
        CheckedResolver { inner, policy }
    }

    /// The policy applied.
    pub fn policy(&self) -> &AddressPolicy {
        &self.policy
    }

    /// Resolves `host` and keeps only the addresses the policy allows.
    pub async fn resolve_checked(&self, host: &str) -> Result<Vec<IpAddr>, ResolveError> {
        let lookup = |source| ResolveError::Lookup {
            host: host.to_owned(),
            source,
        };
        let addresses = self.inner.resolve(host).await.map_err(lookup)?;
        if addresses.is_empty() {
            return Err(lookup(io::Error::new(
                io::ErrorKind::NotFound,
                "no addresses",
            )));
        }
        let mut first_refusal = None;
        let mut allowed = Vec::with_capacity(addresses.len());
        for address in addresses {
            match self.policy.check(host, address) {
                Ok(()) => allowed.push(address),
                Err(refused) => {
                    first_refusal.get_or_insert(refused);
                }
            }
        }
        match (allowed.is_empty(), first_refusal) {
            (true, Some(refused)) => Err(ResolveError::Refused(refused)),
            _ => Ok(allowed),
        }
    }
}

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let this = self.clone();
        Box::pin(async move {
            let host = name.as_str().to_owned();
            match this.resolve_checked(&host).await {
                Ok(addresses) => {
                    // Port 0: the client fills in the URL's port.
                    let addrs: reqwest::dns::Addrs = Box::new(
                        addresses
                            .into_iter()
                            .map(|ip| SocketAddr::new(ip, 0))
                            .collect::<Vec<_>>()
                            .into_iter(),
                    );
                    Ok(addrs)
                }
                // Boxed as its own type so the client can find it in the
                // error chain and report a refusal rather than a DNS failure.
                Err(ResolveError::Refused(refused)) => Err(Box::new(refused) as _),
                Err(e) => Err(Box::new(e) as _),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn classes_of_ipv4_ranges() {
        for (address, class) in [
            ("0.0.0.0", AddressClass::Unspecified),
            ("0.1.2.3", AddressClass::Unspecified),
            ("127.0.0.1", AddressClass::Loopback),
            ("127.255.255.254", AddressClass::Loopback),
            ("10.0.0.0", AddressClass::Private),
            ("10.255.255.255", AddressClass::Private),
            ("172.16.0.1", AddressClass::Private),
            ("172.31.255.255", AddressClass::Private),
            ("172.15.255.255", AddressClass::Public),
            ("172.32.0.0", AddressClass::Public),
            ("192.168.0.1", AddressClass::Private),
            ("192.169.0.1", AddressClass::Public),
            ("169.254.169.254", AddressClass::CloudMetadata),
            ("169.254.170.2", AddressClass::CloudMetadata),
            ("169.254.1.1", AddressClass::LinkLocal),
            ("100.100.100.200", AddressClass::CloudMetadata),
            ("168.63.129.16", AddressClass::CloudMetadata),
            ("100.64.0.1", AddressClass::SharedAddressSpace),
            ("100.128.0.1", AddressClass::Public),
            ("192.0.2.1", AddressClass::Documentation),
            ("198.18.0.1", AddressClass::Reserved),
            ("224.0.0.1", AddressClass::Multicast),
            ("240.0.0.1", AddressClass::Reserved),
            ("255.255.255.255", AddressClass::Broadcast),
            ("8.8.8.8", AddressClass::Public),
            ("93.184.216.34", AddressClass::Public),
        ] {
            assert_eq!(classify(ip(address)), class, "{address}");
        }
    }

    #[test]
    fn classes_of_ipv6_ranges() {
        for (address, class) in [
            ("::", AddressClass::Unspecified),
            ("::1", AddressClass::Loopback),
            ("fc00::1", AddressClass::Private),
            ("fd12:3456::1", AddressClass::Private),
            ("fe80::1", AddressClass::LinkLocal),
            ("febf::1", AddressClass::LinkLocal),
            ("fec0::1", AddressClass::Private),
            ("ff02::1", AddressClass::Multicast),
            ("2001:db8::1", AddressClass::Documentation),
            ("::ffff:127.0.0.1", AddressClass::Loopback),
            ("::ffff:192.168.1.1", AddressClass::Private),
            ("::ffff:8.8.8.8", AddressClass::Public),
            ("64:ff9b::10.0.0.1", AddressClass::Private),
            ("64:ff9b::8.8.8.8", AddressClass::Public),
            ("2002:7f00:1::", AddressClass::Loopback),
            ("2002:a9fe:a9fe::1", AddressClass::CloudMetadata),
            ("2002:a9fe:0101::1", AddressClass::LinkLocal),
            ("::ffff:a9fe:a9fe", AddressClass::CloudMetadata),
            ("64:ff9b::a9fe:a9fe", AddressClass::CloudMetadata),
            ("fd00:ec2::254", AddressClass::CloudMetadata),
            ("2002:0808:0808::1", AddressClass::Public),
            ("::10.0.0.1", AddressClass::Reserved),
            ("100::1", AddressClass::Reserved),
            ("2606:4700::1111", AddressClass::Public),
        ] {
            assert_eq!(classify(ip(address)), class, "{address}");
        }
    }

    #[test]
    fn default_policy_refuses_every_non_public_class() {
        let policy = AddressPolicy::default();
        for address in [
            "10.1.2.3",
            "172.16.5.4",
            "172.31.0.1",
            "192.168.100.1",
            "127.0.0.1",
            "0.0.0.0",
            "169.254.169.254",
            "fc00::1",
            "fd00::abcd",
            "fe80::1",
            "::1",
            "::",
            "::ffff:10.0.0.1",
        ] {
            let err = policy.check("h.test", ip(address)).unwrap_err();
            assert_eq!(err.address, ip(address));
            assert!(err.to_string().contains("refused"), "{err}");
        }
        assert!(policy.check("h.test", ip("1.1.1.1")).is_ok());
        assert!(policy.check("h.test", ip("2606:4700::1111")).is_ok());
    }

    #[test]
    fn explicit_options_allow_them() {
        let all = AddressPolicy::allow_all();
        assert!(all.allows_non_public() && all.allows_link_local());
        assert!(all.check("h.test", ip("10.0.0.1")).is_ok());
        assert!(all.check("h.test", ip("::1")).is_ok());
        assert!(all.check("h.test", ip("169.254.169.254")).is_ok());
        assert!(all.check("h.test", ip("fe80::1")).is_ok());

        // Private without link-local: metadata services stay out of reach,
        // however the address is written.
        let private = AddressPolicy::allow_private();
        assert!(private.allows_non_public() && !private.allows_link_local());
        assert!(private.check("h.test", ip("10.0.0.1")).is_ok());
        assert!(private.check("h.test", ip("127.0.0.1")).is_ok());
        assert!(private.check("h.test", ip("100.64.0.1")).is_ok());
        for refused in [
            "169.254.169.254",
            "169.254.1.1",
            "::ffff:a9fe:a9fe",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:a9fe:a9fe::",
            "fe80::1",
            "fd00:ec2::254",
            "100.100.100.200",
            "168.63.129.16",
        ] {
            let error = private.check("h.test", ip(refused)).unwrap_err();
            assert!(
                matches!(
                    error.class,
                    AddressClass::LinkLocal | AddressClass::CloudMetadata
                ),
                "{refused}: {error}"
            );
        }
        let link_local = AddressPolicy::public_only().allow_link_local();
        assert!(link_local.check("h.test", ip("169.254.169.254")).is_ok());
        assert!(link_local.check("h.test", ip("10.0.0.1")).is_err());

        let one = AddressPolicy::public_only()
            .allow_host("Intranet.Test")
            .allow_host("[::1]");
        assert!(one.check("intranet.test", ip("192.168.0.10")).is_ok());
        assert!(one.check("INTRANET.test", ip("10.0.0.1")).is_ok());
        assert!(one.check("[::1]", ip("::1")).is_ok());
        assert!(one.check("::1", ip("::1")).is_ok());
        assert!(one.check("other.test", ip("192.168.0.10")).is_err());
    }

    fn stub() -> Arc<dyn Resolver> {
        Arc::new(
            StaticResolver::new()
                .with("ten.test", [ip("10.0.0.7")])
                .with("one72.test", [ip("172.20.1.1")])
                .with("one92.test", [ip("192.168.1.1")])
                .with("ula.test", [ip("fd00::7")])
                .with("linklocal.test", [ip("169.254.169.254"), ip("fe80::1")])
                .with("loop.test", [ip("127.0.0.1")])
                .with("mixed.test", [ip("10.0.0.1"), ip("93.184.216.34")])
                .with("public.test", [ip("93.184.216.34")])
                .with("empty.test", []),
        )
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    #[test]
    fn resolved_private_addresses_are_refused_without_connecting() {
        let resolver = CheckedResolver::new(stub(), AddressPolicy::public_only());
        block_on(async {
            for (host, class) in [
                ("ten.test", AddressClass::Private),
                ("one72.test", AddressClass::Private),
                ("one92.test", AddressClass::Private),
                ("ula.test", AddressClass::Private),
                ("linklocal.test", AddressClass::CloudMetadata),
                ("loop.test", AddressClass::Loopback),
            ] {
                match resolver.resolve_checked(host).await {
                    Err(ResolveError::Refused(r)) => {
                        assert_eq!(r.class, class, "{host}");
                        assert_eq!(r.host, host);
                    }
                    other => panic!("{host}: {other:?}"),
                }
            }
            // Refused addresses are dropped; the public one remains.
            assert_eq!(
                resolver.resolve_checked("mixed.test").await.unwrap(),
                vec![ip("93.184.216.34")]
            );
            assert_eq!(
                resolver.resolve_checked("public.test").await.unwrap(),
                vec![ip("93.184.216.34")]
            );
            assert!(matches!(
                resolver.resolve_checked("empty.test").await,
                Err(ResolveError::Lookup { .. })
            ));
            assert!(matches!(
                resolver.resolve_checked("unknown.test").await,
                Err(ResolveError::Lookup { .. })
            ));
        });
    }

    #[test]
    fn resolved_private_addresses_pass_with_the_option() {
        let resolver = CheckedResolver::new(stub(), AddressPolicy::allow_all());
        block_on(async {
            assert_eq!(
                resolver.resolve_checked("ten.test").await.unwrap(),
                vec![ip("10.0.0.7")]
            );
            assert_eq!(
                resolver.resolve_checked("mixed.test").await.unwrap().len(),
                2
            );
        });
    }

    #[test]
    fn the_reqwest_adapter_reports_refusals_as_their_own_type() {
        use reqwest::dns::Resolve;
        let resolver = CheckedResolver::new(stub(), AddressPolicy::public_only());
        block_on(async {
            let name: reqwest::dns::Name = "ula.test".parse().unwrap();
            let err = match resolver.resolve(name).await {
                Ok(_) => panic!("ula.test should be refused"),
                Err(e) => e,
            };
            let refused = err.downcast_ref::<RefusedAddress>().unwrap();
            assert_eq!(refused.class, AddressClass::Private);

            let name: reqwest::dns::Name = "public.test".parse().unwrap();
            let addrs: Vec<_> = match resolver.resolve(name).await {
                Ok(a) => a.collect(),
                Err(e) => panic!("{e}"),
            };
            assert_eq!(addrs, vec!["93.184.216.34:0".parse().unwrap()]);
        });
    }
}
