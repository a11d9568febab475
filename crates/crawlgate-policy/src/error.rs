//! What can be wrong with a policy, or with a file to merge it into.

use std::fmt;

/// Why a policy cannot be written, each with the words a person needs to
/// fix it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PolicyError {
    /// A crawler the policy names is not in the registry.
    UnknownCrawler {
        /// The name as written.
        name: String,
        /// The closest name the registry knows, if one is close.
        suggestion: Option<&'static str>,
    },
    /// A path that cannot be a robots.txt rule.
    BadPath {
        /// What the path is for (`private path`, `honeypot`).
        what: &'static str,
        /// The path as written (shortened).
        path: String,
        /// Why.
        why: &'static str,
    },
    /// A URL that must be absolute and is not.
    BadUrl {
        /// What it is for (`sitemap`, `licence`).
        what: &'static str,
        /// The URL as written (shortened).
        url: String,
    },
    /// A crawl delay outside 1–30 seconds, the range Bing reads.
    CrawlDelay(String),
    /// More items of a list than a robots.txt can hold.
    TooMany {
        /// What is listed (`private paths`).
        what: &'static str,
        /// How many were given.
        count: usize,
        /// The most a policy takes.
        max: usize,
    },
    /// Two crawlers share a product token and the policy wants one allowed
    /// and the other denied: one group cannot say both.
    TokenConflict {
        /// The shared token.
        token: &'static str,
        /// The crawler the policy allows, and why.
        allowed: (&'static str, String),
        /// The crawler the policy denies, and why.
        denied: (&'static str, String),
    },
    /// POLICY.toml does not read.
    Toml(String),
    /// The file to merge into cannot take the policy.
    Merge(String),
    /// The written file does not say what the policy means (a bug in the
    /// writer: the file is not written).
    Unproven(Vec<String>),
    /// The crawlers' address ranges cannot be used (one is missing).
    Ranges(String),
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyError::UnknownCrawler { name, suggestion } => {
                write!(f, "`{name}` is not a crawler of crawlgate's registry")?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean `{s}`?"),
                    None => write!(f, " (`crawlgate crawlers` lists them)"),
                }
            }
            PolicyError::BadPath { what, path, why } => {
                write!(f, "the {what} `{path}` cannot be a robots.txt rule: {why}")
            }
            PolicyError::BadUrl { what, url } => write!(
                f,
                "the {what} `{url}` is not an absolute http(s) URL, as robots.txt needs"
            ),
            PolicyError::CrawlDelay(value) => write!(
                f,
                "a crawl delay of `{value}` seconds is outside 1–30, the range Bing reads"
            ),
            PolicyError::TokenConflict {
                token,
                allowed,
                denied,
            } => write!(
                f,
                "`{}` ({}) and `{}` ({}) answer to the same product token `{token}`: one \
                 robots.txt group cannot allow one and deny the other; name both with the same \
                 access (`--crawler '{}=deny'` or `--crawler '{}=allow'`)",
                allowed.0, allowed.1, denied.0, denied.1, allowed.0, denied.0
            ),
            PolicyError::TooMany { what, count, max } => write!(
                f,
                "{count} {what} are more than a robots.txt should hold (at most {max})"
            ),
            PolicyError::Toml(message) => write!(f, "the policy file does not read: {message}"),
            PolicyError::Merge(message) | PolicyError::Ranges(message) => f.write_str(message),
            PolicyError::Unproven(failures) => {
                write!(
                    f,
                    "the file written does not say what the policy means, so it is not written:"
                )?;
                for failure in failures.iter().take(20) {
                    write!(f, "\n  {failure}")?;
                }
                if failures.len() > 20 {
                    write!(f, "\n  … and {} more", failures.len() - 20)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for PolicyError {}
