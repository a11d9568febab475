//! Where a robots.txt applies: the origin of a URL (scheme, host, port) and
//! the URL of the robots.txt that governs it (RFC 9309 §2.3; Google's "How
//! Google interprets the robots.txt specification", "File location and range
//! of validity").

use std::fmt;
use std::net::IpAddr;

use serde::{Deserialize, Serialize};
use url::{Host, Url};

crawlgate::word_table! {
    /// A scheme that has a robots.txt.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Scheme {
        /// `http`, default port 80.
        Http = "http",
        /// `https`, default port 443.
        Https = "https",
        /// `ftp`, default port 21 (Google reads robots.txt over anonymous FTP).
        Ftp = "ftp",
    }
}

impl Scheme {
    /// The port a URL of this scheme uses when it names none.
    pub fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
            Scheme::Ftp => 21,
        }
    }
}

/// Why a URL has no robots.txt.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScopeError {
    /// The text is not a URL at all.
    #[error("{url:?} is not a valid URL: {reason}")]
    Invalid {
        /// The text given.
        url: String,
        /// What the URL parser said.
        reason: String,
    },
    /// A relative URL (or a bare path) has no origin, so no robots.txt.
    #[error("{url:?} is a relative URL: give an absolute URL, such as https://example.com/page")]
    Relative {
        /// The text given.
        url: String,
    },
    /// The scheme has no robots.txt (`mailto:`, `data:`, `file:` …).
    #[error("{scheme}: URLs have no robots.txt (only http, https and ftp do)")]
    NoRobotsTxt {
        /// The URL's scheme.
        scheme: String,
    },
    /// The URL has no host.
    #[error("{url:?} has no host, so no robots.txt")]
    NoHost {
        /// The text given.
        url: String,
    },
}

/// The scope of one robots.txt: scheme, host (lowercased, IDN as punycode)
/// and port (default ports folded).
///
/// Two URLs share a robots.txt exactly when their origins are equal, so an
/// `Origin` is the key of the robots.txt cache.
///
/// ```
/// use crawlgate_answers::Origin;
///
/// let a = Origin::from_url("https://Example.COM:443/a?b").unwrap();
/// let b = Origin::from_url("https://example.com/").unwrap();
/// assert_eq!(a, b);
/// assert_eq!(a.to_string(), "https://example.com");
/// assert_eq!(a.robots_url().as_str(), "https://example.com/robots.txt");
///
/// let idn = Origin::from_url("http://www.exämple.com/").unwrap();
/// assert_eq!(idn.host_str(), "www.xn--exmple-cua.com");
///
/// assert_ne!(b, Origin::from_url("https://example.com:444/").unwrap());
/// assert_ne!(b, Origin::from_url("http://example.com/").unwrap());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Origin {
    scheme: Scheme,
    host: Host<String>,
    port: u16,
    /// Derived from the three fields above, so it never makes two equal
    /// origins differ.
    robots_url: Url,
}

impl Origin {
    /// The origin of an absolute URL.
    ///
    /// ```
    /// use crawlgate_answers::{Origin, ScopeError};
    /// assert!(matches!(Origin::from_url("/just/a/path"), Err(ScopeError::Relative { .. })));
    /// assert!(matches!(Origin::from_url("mailto:me@example.com"), Err(ScopeError::NoRobotsTxt { .. })));
    /// assert!(matches!(Origin::from_url("http://[::1"), Err(ScopeError::Invalid { .. })));
    /// ```
    pub fn from_url(url: &str) -> Result<Origin, ScopeError> {
        Origin::from_parsed(&parse_absolute(url)?)
    }

    /// The origin of an already parsed URL.
    pub fn from_parsed(url: &Url) -> Result<Origin, ScopeError> {
        let scheme = Scheme::from_word(url.scheme()).ok_or_else(|| ScopeError::NoRobotsTxt {
            scheme: url.scheme().to_owned(),
        })?;
        let host = match url.host() {
            Some(Host::Domain(d)) if !d.is_empty() => Host::Domain(d.to_owned()),
            Some(Host::Ipv4(ip)) => Host::Ipv4(ip),
            Some(Host::Ipv6(ip)) => Host::Ipv6(ip),
            _ => {
                return Err(ScopeError::NoHost {
                    url: url.as_str().to_owned(),
                })
            }
        };
        let port = url.port().unwrap_or(scheme.default_port());
        let mut robots_url = url.clone();
        // Credentials, path, query and fragment are not part of the scope.
        // These setters only fail on URLs without a host, excluded above.
        let _ = robots_url.set_username("");
        let _ = robots_url.set_password(None);
        robots_url.set_path("/robots.txt");
        robots_url.set_query(None);
        robots_url.set_fragment(None);
        Ok(Origin {
            scheme,
            host,
            port,
            robots_url,
        })
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host (a domain in lowercase ASCII, or an IP address).
    pub fn host(&self) -> &Host<String> {
        &self.host
    }

    /// The host as text, IPv6 addresses in brackets (`[::1]`).
    pub fn host_str(&self) -> String {
        self.host.to_string()
    }

    /// The host's IP address, when the host is an IP address.
    pub fn ip(&self) -> Option<IpAddr> {
        match self.host {
            Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
            Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
            Host::Domain(_) => None,
        }
    }

    /// The port (the scheme's default when the URL named none).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of the robots.txt for this origin.
    pub fn robots_url(&self) -> Url {
        self.robots_url.clone()
    }
}

impl fmt::Display for Origin {
    /// `scheme://host[:port]`, the port only when it is not the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if self.port != self.scheme.default_port() {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

impl Serialize for Origin {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Origin {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Origin::from_url(&text).map_err(serde::de::Error::custom)
    }
}

/// Parses an absolute URL, mapping the parser's errors to [`ScopeError`].
pub(crate) fn parse_absolute(url: &str) -> Result<Url, ScopeError> {
    match Url::parse(url) {
        Ok(parsed) => Ok(parsed),
        Err(url::ParseError::RelativeUrlWithoutBase) => Err(ScopeError::Relative {
            url: url.to_owned(),
        }),
        Err(e) => Err(ScopeError::Invalid {
            url: url.to_owned(),
            reason: e.to_string(),
        }),
    }
}

/// The URL of the robots.txt that governs `url`.
///
/// ```
/// use crawlgate_answers::robots_url_for;
///
/// assert_eq!(robots_url_for("https://example.com/a/b?c#d").unwrap().as_str(),
///            "https://example.com/robots.txt");
/// assert_eq!(robots_url_for("http://example.com:8181/x").unwrap().as_str(),
///            "http://example.com:8181/robots.txt");
/// assert_eq!(robots_url_for("http://user:pw@192.0.2.7:80/").unwrap().as_str(),
///            "http://192.0.2.7/robots.txt");
/// assert_eq!(robots_url_for("ftp://ftp.example.com/pub/file").unwrap().as_str(),
///            "ftp://ftp.example.com/robots.txt");
/// assert!(robots_url_for("data:text/plain,hi").is_err());
/// ```
pub fn robots_url_for(url: &str) -> Result<Url, ScopeError> {
    Origin::from_url(url).map(|o| o.robots_url())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(url: &str) -> Origin {
        Origin::from_url(url).unwrap()
    }

    #[test]
    fn scope_is_scheme_host_and_port() {
        let base = origin("http://example.com/");
        assert_ne!(base, origin("https://example.com/"));
        assert_ne!(base, origin("http://www.example.com/"));
        assert_ne!(base, origin("http://sub.example.com/"));
        assert_ne!(base, origin("http://example.com:8181/"));
        assert_eq!(base, origin("http://example.com/folder/robots.txt"));
    }

    #[test]
    fn default_ports_fold() {
        assert_eq!(
            origin("http://example.com:80/"),
            origin("http://example.com/")
        );
        assert_eq!(
            origin("https://example.com:443/"),
            origin("https://example.com/")
        );
        assert_eq!(
            origin("ftp://example.com:21/"),
            origin("ftp://example.com/")
        );
        assert_ne!(
            origin("https://example.com:444/"),
            origin("https://example.com/")
        );
        assert_eq!(origin("https://example.com:80/").port(), 80);
        assert_eq!(
            origin("https://example.com:80/").to_string(),
            "https://example.com:80"
        );
    }

    #[test]
    fn hosts_compare_case_insensitively_and_idn_as_punycode() {
        assert_eq!(origin("HTTP://EXAMPLE.com/"), origin("http://example.com/"));
        assert_eq!(
            origin("http://www.exämple.com/"),
            origin("http://www.xn--exmple-cua.com/")
        );
        assert_eq!(
            origin("http://WWW.EXÄMPLE.COM/").host_str(),
            "www.xn--exmple-cua.com"
        );
    }

    #[test]
    fn ip_hosts_cover_only_themselves() {
        let v4 = origin("http://192.0.2.1/x");
        assert_eq!(v4.ip(), Some("192.0.2.1".parse().unwrap()));
        assert_eq!(v4.robots_url().as_str(), "http://192.0.2.1/robots.txt");
        let v6 = origin("https://[2001:DB8::1]:8443/");
        assert_eq!(v6.ip(), Some("2001:db8::1".parse().unwrap()));
        assert_eq!(
            v6.robots_url().as_str(),
            "https://[2001:db8::1]:8443/robots.txt"
        );
        assert_ne!(v4, origin("http://example.com/"));
        assert_eq!(origin("http://example.com/").ip(), None);
    }

    #[test]
    fn ftp_is_a_scope() {
        let ftp = origin("ftp://ftp.example.com/pub");
        assert_eq!(ftp.scheme(), Scheme::Ftp);
        assert_eq!(ftp.port(), 21);
    }

    #[test]
    fn urls_without_robots_txt_are_clear_errors() {
        for (url, expected) in [
            ("mailto:a@example.com", "mailto"),
            ("data:text/plain,hello", "data"),
            ("file:///etc/passwd", "file"),
            ("javascript:alert(1)", "javascript"),
            ("ws://example.com/", "ws"),
        ] {
            match Origin::from_url(url) {
                Err(ScopeError::NoRobotsTxt { scheme }) => assert_eq!(scheme, expected),
                other => panic!("{url}: {other:?}"),
            }
        }
        for url in ["/a/b", "a/b", "", "//example.com/x", "?q"] {
            let err = Origin::from_url(url).unwrap_err();
            assert!(matches!(err, ScopeError::Relative { .. }), "{url}: {err:?}");
            assert!(err.to_string().contains("relative"));
        }
        for url in [
            "http://",
            "http://exa mple.com/",
            "http://[::1/",
            "https://:80/",
        ] {
            let err = Origin::from_url(url).unwrap_err();
            assert!(matches!(err, ScopeError::Invalid { .. }), "{url}: {err:?}");
        }
    }

    #[test]
    fn robots_url_is_case_sensitive_path_at_root() {
        assert_eq!(
            robots_url_for("https://Example.com/Folder/Robots.TXT")
                .unwrap()
                .as_str(),
            "https://example.com/robots.txt"
        );
    }

    #[test]
    fn origins_round_trip_through_serde() {
        let o = origin("https://[::1]:8443/x");
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(json, "\"https://[::1]:8443\"");
        let back: Origin = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
    }
}
