//! The errors surfaced to callers. HTTP results (404, 503, timeouts …) are
//! not errors: the fetch policy turns them into outcomes.

use std::net::IpAddr;

use crate::address::{AddressClass, RefusedAddress};
use crawlgate_answers::ScopeError;

/// Why a robots.txt could not be consulted at all.
///
/// ```
/// use crawlgate_answers::ScopeError;
/// use crawlgate_fetch::FetchError;
/// let err = FetchError::from(ScopeError::Relative { url: "/a".into() });
/// assert!(err.to_string().contains("relative"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// The URL has no robots.txt (relative, `mailto:`, invalid …).
    #[error(transparent)]
    Scope(#[from] ScopeError),
    /// The address policy refused to connect (the robots.txt host or a
    /// redirect hop resolves to a loopback, private … address).
    #[error(
        "refused to fetch {url}: {} ({})",
        refusal(host, address, class),
        allowed_how(class)
    )]
    AddressRefused {
        /// The URL whose fetch was refused (a redirect hop's, perhaps).
        url: String,
        /// Its host.
        host: String,
        /// The refused address.
        address: IpAddr,
        /// The address's class.
        class: AddressClass,
    },
    /// The scheme has a robots.txt but this fetcher cannot fetch it (ftp).
    #[error("{scheme}: fetching robots.txt over {scheme} is not supported (no {scheme} client in crawlgate-fetch)")]
    UnsupportedScheme {
        /// The scheme.
        scheme: String,
    },
    /// The HTTP client could not be built.
    #[error("could not build the HTTP client: {0}")]
    Client(String),
}

fn refusal(host: &str, address: &IpAddr, class: &AddressClass) -> String {
    let literal = host.trim_start_matches('[').trim_end_matches(']');
    if literal.parse::<IpAddr>().ok() == Some(*address) {
        format!("{host} is a {class} address")
    } else {
        format!("{host} resolves to {address}, a {class} address")
    }
}

fn allowed_how(class: &AddressClass) -> &'static str {
    match class {
        AddressClass::LinkLocal | AddressClass::CloudMetadata => {
            "link-local addresses and cloud metadata services must be allowed explicitly, apart from other non-public addresses"
        }
        _ => "non-public addresses must be allowed explicitly",
    }
}

impl FetchError {
    pub(crate) fn refused(url: &str, refused: &RefusedAddress) -> FetchError {
        FetchError::AddressRefused {
            url: url.to_owned(),
            host: refused.host.clone(),
            address: refused.address,
            class: refused.class,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(host: &str, address: &str) -> String {
        let address: IpAddr = address.parse().unwrap();
        FetchError::AddressRefused {
            url: format!("http://{host}/robots.txt"),
            host: host.to_owned(),
            address,
            class: crate::classify(address),
        }
        .to_string()
    }

    #[test]
    fn refusals_say_what_was_refused() {
        assert_eq!(
            refused("127.0.0.1", "127.0.0.1"),
            "refused to fetch http://127.0.0.1/robots.txt: 127.0.0.1 is a loopback address \
             (non-public addresses must be allowed explicitly)"
        );
        assert!(refused("[::1]", "::1").contains(": [::1] is a loopback address"));
        assert!(refused("robots.test", "127.0.0.1")
            .contains(": robots.test resolves to 127.0.0.1, a loopback address"));
        assert!(refused("169.254.169.254", "169.254.169.254").ends_with(
            ": 169.254.169.254 is a cloud metadata address (link-local addresses and cloud \
             metadata services must be allowed explicitly, apart from other non-public addresses)"
        ));
    }
}
