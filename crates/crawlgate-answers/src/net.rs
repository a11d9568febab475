//! IP prefixes (`66.249.64.0/19`, `2001:4860:4801::/48`) and sets of them:
//! the ranges operators publish for their crawlers, which the audit checks
//! addresses against and the policy writer denies. IPv4 lives in the
//! IPv4-mapped part of the IPv6 space, so one sorted list holds both.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// An address as a number in one space: IPv4 as `::ffff:a.b.c.d`.
fn key(ip: IpAddr) -> u128 {
    match ip {
        IpAddr::V4(v4) => u128::from(v4.to_ipv6_mapped()),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => u128::from(v4.to_ipv6_mapped()),
            None => u128::from(v6),
        },
    }
}

/// One prefix: an address and how many leading bits are fixed. The
/// address is kept with its host bits cleared; a bare address is one
/// address (`/32`, `/128`).
///
/// ```
/// use crawlgate_answers::net::Prefix;
/// let p: Prefix = "66.249.66.1/19".parse().unwrap();
/// assert_eq!(p.to_string(), "66.249.64.0/19");
/// assert!(p.contains("66.249.66.1".parse().unwrap()));
/// assert!(!p.contains("66.249.96.1".parse().unwrap()));
/// assert!(p.overlaps(&"66.249.70.0/24".parse().unwrap()));
/// assert!("66.249.64.0/33".parse::<Prefix>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Prefix {
    addr: IpAddr,
    len: u8,
}

/// Why a prefix cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not an IP prefix ({why})")]
pub struct BadPrefix {
    text: String,
    why: &'static str,
}

impl Prefix {
    /// The first and last address it covers, as numbers of the one space.
    fn range(self) -> (u128, u128) {
        let bits = if self.addr.is_ipv4() { 32 } else { 128 };
        let host_bits = bits - u32::from(self.len);
        let span = if host_bits == 128 {
            u128::MAX
        } else {
            (1u128 << host_bits) - 1
        };
        let start = key(self.addr) & !span;
        (start, start | span)
    }

    /// Whether it covers `ip` (an IPv4 prefix also covers the IPv4-mapped
    /// IPv6 addresses it stands for).
    pub fn contains(self, ip: IpAddr) -> bool {
        let (start, end) = self.range();
        (start..=end).contains(&key(ip))
    }

    /// Whether the two share an address (one contains the other).
    pub fn overlaps(&self, other: &Prefix) -> bool {
        let ((a, b), (c, d)) = (self.range(), other.range());
        a <= d && c <= b
    }

    /// The prefix of one address (`/32` or `/128`; an IPv4-mapped IPv6
    /// address is read as IPv4).
    ///
    /// ```
    /// use crawlgate_answers::net::Prefix;
    /// assert_eq!(Prefix::host("::ffff:1.2.3.4".parse().unwrap()).to_string(), "1.2.3.4/32");
    /// ```
    pub fn host(ip: IpAddr) -> Prefix {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        let len = if ip.is_ipv4() { 32 } else { 128 };
        Prefix { addr: ip, len }
    }

    /// Its first address.
    pub fn address(self) -> IpAddr {
        self.addr
    }

    /// Its length in bits.
    pub fn length(self) -> u8 {
        self.len
    }

    /// Whether it is IPv4.
    pub fn is_ipv4(self) -> bool {
        self.addr.is_ipv4()
    }
}

impl FromStr for Prefix {
    type Err = BadPrefix;

    /// `a.b.c.d/n`, `x::y/n`, or one address; host bits are cleared.
    fn from_str(text: &str) -> Result<Prefix, BadPrefix> {
        let bad = |why| BadPrefix {
            text: text.chars().take(80).collect(),
            why,
        };
        let trimmed = text.trim();
        let (addr, len) = match trimmed.split_once('/') {
            Some((a, l)) => (a, Some(l)),
            None => (trimmed, None),
        };
        let addr: IpAddr = addr.parse().map_err(|_| bad("not an address"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let len = match len {
            None => max,
            Some(l) if !l.is_empty() && l.len() <= 3 && l.bytes().all(|b| b.is_ascii_digit()) => {
                l.parse::<u8>().map_err(|_| bad("bad length"))?
            }
            Some(_) => return Err(bad("bad length")),
        };
        if len > max {
            return Err(bad("length too long"));
        }
        let (start, _) = Prefix { addr, len }.range();
        let addr = match addr {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from((start & 0xffff_ffff) as u32)),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(start)),
        };
        Ok(Prefix { addr, len })
    }
}

impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.len)
    }
}

/// A set of prefixes, merged and sorted, answering membership and overlap
/// by binary search.
///
/// ```
/// use crawlgate_answers::net::PrefixSet;
/// let set: PrefixSet = ["66.249.64.0/19", "2001:4860:4801::/48"].iter().map(|p| p.parse().unwrap()).collect();
/// assert!(set.contains("66.249.66.1".parse().unwrap()));
/// assert!(set.contains("2001:4860:4801:10::1".parse().unwrap()));
/// assert!(!set.contains("::ffff:10.0.0.1".parse().unwrap()));
/// assert!(set.overlaps(&"66.0.0.0/8".parse().unwrap()));
/// assert_eq!(set.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PrefixSet {
    ranges: Vec<(u128, u128)>,
    prefixes: usize,
}

impl PrefixSet {
    /// Whether some prefix covers `ip`.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let k = key(ip);
        let i = self.ranges.partition_point(|&(start, _)| start <= k);
        i > 0 && self.ranges[i - 1].1 >= k
    }

    /// Whether some prefix shares an address with `prefix`.
    pub fn overlaps(&self, prefix: &Prefix) -> bool {
        let (start, end) = prefix.range();
        let i = self.ranges.partition_point(|&(_, e)| e < start);
        self.ranges.get(i).is_some_and(|&(s, _)| s <= end)
    }

    /// How many prefixes went in.
    pub fn len(&self) -> usize {
        self.prefixes
    }

    /// Whether none did.
    pub fn is_empty(&self) -> bool {
        self.prefixes == 0
    }
}

impl FromIterator<Prefix> for PrefixSet {
    fn from_iter<I: IntoIterator<Item = Prefix>>(iter: I) -> PrefixSet {
        let mut ranges: Vec<(u128, u128)> = iter.into_iter().map(Prefix::range).collect();
        let prefixes = ranges.len();
        ranges.sort_unstable();
        let mut merged: Vec<(u128, u128)> = Vec::with_capacity(ranges.len());
        for (start, end) in ranges {
            match merged.last_mut() {
                Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        PrefixSet {
            ranges: merged,
            prefixes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn p(text: &str) -> Prefix {
        text.parse().unwrap()
    }

    #[test]
    fn prefixes_read_and_cover() {
        let p10 = p("10.1.2.3/8");
        assert_eq!(p10.to_string(), "10.0.0.0/8");
        assert!(p10.contains(ip("10.255.255.255")) && !p10.contains(ip("11.0.0.0")));
        assert!(p10.contains(ip("::ffff:10.9.9.9")));
        assert_eq!(p("2001:db8::1/32").to_string(), "2001:db8::/32");
        let all = p("::/0");
        assert!(all.contains(ip("1.2.3.4")) && all.contains(ip("2001:db8::1")));
        let v4all = p("0.0.0.0/0");
        assert!(v4all.contains(ip("1.2.3.4")) && !v4all.contains(ip("2001:db8::1")));
        assert_eq!(Prefix::host(ip("::ffff:1.2.3.4")).to_string(), "1.2.3.4/32");
        for bad in [
            "",
            "10.0.0.0/33",
            "10.0.0/8",
            "10.0.0.0/",
            "10.0.0.0/-1",
            "::/129",
            "x/1",
        ] {
            assert!(bad.parse::<Prefix>().is_err(), "{bad}");
        }
    }

    #[test]
    fn sets_merge_overlaps() {
        let set: PrefixSet = ["10.0.0.0/24", "10.0.1.0/24", "10.0.0.128/25", "192.168.0.1"]
            .iter()
            .map(|q| p(q))
            .collect();
        assert_eq!(set.ranges.len(), 2);
        assert!(set.contains(ip("10.0.1.255")));
        assert!(!set.contains(ip("10.0.2.0")));
        assert!(set.contains(ip("192.168.0.1")) && !set.contains(ip("192.168.0.2")));
        assert!(!PrefixSet::default().contains(ip("10.0.0.1")));
    }

    #[test]
    fn set_overlap_answers_as_pairwise_overlap_does() {
        let all: Vec<Prefix> = [
            "10.0.0.0/8",
            "192.0.2.0/25",
            "192.0.2.128/25",
            "2001:db8::/32",
            "::/0",
        ]
        .into_iter()
        .map(p)
        .collect();
        let v4_only = &all[..3];
        let set: PrefixSet = v4_only.iter().copied().collect();
        for probe in [
            "10.1.0.0/16",
            "11.0.0.0/8",
            "0.0.0.0/0",
            "192.0.2.0/24",
            "192.0.3.0/24",
            "2001:db8::1",
            "192.0.2.200",
            "::ffff:10.0.0.1",
        ] {
            let probe = p(probe);
            let pairwise = v4_only.iter().any(|q| q.overlaps(&probe));
            assert_eq!(set.overlaps(&probe), pairwise, "{probe}");
        }
        // `::/0` holds the IPv4-mapped addresses.
        assert!(p("::/0").overlaps(&p("10.0.0.0/8")));
        assert!(!p("2001:db8::/32").overlaps(&p("10.0.0.0/8")));
        assert!(all[3..]
            .iter()
            .copied()
            .collect::<PrefixSet>()
            .overlaps(&p("2001:db8:1::/48")));
        assert!(!all[3..4]
            .iter()
            .copied()
            .collect::<PrefixSet>()
            .overlaps(&p("2001:db9::/32")));
    }
}
