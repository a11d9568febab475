//! The policy: what a site owner says about each purpose and crawler, the
//! paths meant for nobody, and the file-wide records.

use std::collections::BTreeMap;

use crawlgate::registry::{self, Crawler};
use crawlgate::License;

use crate::access::{shorten, Access};
use crate::error::PolicyError;
use crate::purpose::Purpose;

/// What a site owner means: an access per purpose (unstated purposes keep
/// what the site's own rules say), per-crawler overrides, paths for
/// nobody, a honeypot, a crawl delay for the crawlers that read one,
/// sitemaps and a licence.
///
/// ```
/// use crawlgate_policy::{Access, Policy, Purpose};
///
/// let policy = Policy::new()
///     .with(Purpose::Search, Access::Allow)
///     .with(Purpose::AiTrain, Access::Deny)
///     .with_crawler("ChatGPT-User", Access::Allow)
///     .with_private("/admin/");
/// assert_eq!(policy.access(Purpose::AiTrain), Some(Access::Deny));
/// assert_eq!(policy.access(Purpose::Ads), None);
/// assert_eq!(policy.describe(), "search allow, ai-train deny; ChatGPT-User allow; private /admin/");
/// policy.validate().unwrap();
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Policy {
    /// The access stated for each purpose.
    pub purposes: BTreeMap<Purpose, Access>,
    /// Per-crawler overrides, by a name, alias or token of the registry,
    /// in the order given.
    pub crawlers: Vec<(String, Access)>,
    /// Paths no crawler may fetch (robots.txt patterns: `/admin/`,
    /// `/*.pdf$`).
    pub private: Vec<String>,
    /// A path no link leads to and every crawler is told not to fetch: a
    /// fetch of it shows a crawler that ignores robots.txt.
    pub honeypot: Option<String>,
    /// Seconds between requests, for the crawlers that read `Crawl-delay`.
    pub crawl_delay: Option<f64>,
    /// Sitemap URLs.
    pub sitemaps: Vec<String>,
    /// The URL of the site's licence (RSL 1.0 `License:`).
    pub license: Option<String>,
}

impl Policy {
    /// A policy that states nothing.
    pub fn new() -> Policy {
        Policy::default()
    }

    /// This policy with `access` for `purpose`.
    pub fn with(mut self, purpose: Purpose, access: Access) -> Policy {
        self.purposes.insert(purpose, access);
        self
    }

    /// This policy with `access` for one crawler (a name, alias or token of
    /// the registry), which overrides its purpose's.
    pub fn with_crawler(mut self, name: &str, access: Access) -> Policy {
        self.crawlers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.crawlers.push((name.to_owned(), access));
        self
    }

    /// This policy with one more path for nobody.
    pub fn with_private(mut self, path: &str) -> Policy {
        self.private.push(path.to_owned());
        self
    }

    /// The access stated for a purpose.
    pub fn access(&self, purpose: Purpose) -> Option<Access> {
        self.purposes.get(&purpose).copied()
    }

    /// Whether the policy states usage preferences (it says something of
    /// search, AI training or AI use).
    pub fn states_preferences(&self) -> bool {
        self.purposes.keys().any(|p| p.usage_category().is_some())
    }

    /// The policy in one line (`search allow, ai-train deny; GPTBot deny`).
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let purposes: Vec<String> = self
            .purposes
            .iter()
            .map(|(p, a)| format!("{p} {a}"))
            .collect();
        if !purposes.is_empty() {
            parts.push(purposes.join(", "));
        }
        let mut crawlers: Vec<String> = self
            .crawlers
            .iter()
            .take(10)
            .map(|(n, a)| format!("{} {a}", shorten(n)))
            .collect();
        if self.crawlers.len() > 10 {
            crawlers.push(format!("and {} more", self.crawlers.len() - 10));
        }
        if !crawlers.is_empty() {
            parts.push(crawlers.join(", "));
        }
        if !self.private.is_empty() {
            // A few are named; the file lists them all.
            let mut paths: Vec<String> = self.private.iter().take(5).map(|p| shorten(p)).collect();
            if self.private.len() > 5 {
                paths.push(format!("and {} more", self.private.len() - 5));
            }
            parts.push(format!("private {}", paths.join(" ")));
        }
        if let Some(honeypot) = &self.honeypot {
            parts.push(format!("honeypot {}", shorten(honeypot)));
        }
        if let Some(delay) = self.crawl_delay {
            parts.push(format!("crawl-delay {delay}"));
        }
        if parts.is_empty() {
            "nothing stated".to_owned()
        } else {
            parts.join("; ")
        }
    }

    /// The crawlers the overrides name, resolved in the registry.
    pub(crate) fn resolved_crawlers(&self) -> Result<Vec<(&'static Crawler, Access)>, PolicyError> {
        self.crawlers
            .iter()
            .map(|(name, access)| Ok((resolve(name)?, *access)))
            .collect()
    }

    /// Checks every part of the policy, and says what is wrong first.
    pub fn validate(&self) -> Result<(), PolicyError> {
        for (what, count) in [
            ("crawlers", self.crawlers.len()),
            ("private paths", self.private.len()),
            ("sitemaps", self.sitemaps.len()),
        ] {
            if count > MAX_ITEMS {
                return Err(PolicyError::TooMany {
                    what,
                    count,
                    max: MAX_ITEMS,
                });
            }
        }
        self.resolved_crawlers()?;
        for path in &self.private {
            check_path("private path", path)?;
        }
        if let Some(path) = &self.honeypot {
            check_path("honeypot", path)?;
            if path == "/" || path == "/*" {
                return Err(PolicyError::BadPath {
                    what: "honeypot",
                    path: path.clone(),
                    why: "it would be the whole site",
                });
            }
        }
        if let Some(delay) = self.crawl_delay
            && !(1.0..=30.0).contains(&delay)
        {
            return Err(PolicyError::CrawlDelay(delay.to_string()));
        }
        for url in &self.sitemaps {
            check_url("sitemap", url)?;
        }
        if let Some(url) = &self.license {
            check_url("licence", url)?;
        }
        Ok(())
    }
}

/// The registry crawler a policy's name means: a name or alias, else a
/// product token.
fn resolve(name: &str) -> Result<&'static Crawler, PolicyError> {
    registry::find(name)
        .or_else(|| registry::find_token(name))
        .ok_or_else(|| PolicyError::UnknownCrawler {
            name: shorten(name),
            suggestion: registry::crawlers()
                .iter()
                .map(|c| {
                    (
                        strsim::damerau_levenshtein(
                            &c.name.to_ascii_lowercase(),
                            &name.to_ascii_lowercase(),
                        ),
                        c.name,
                    )
                })
                .filter(|&(distance, _)| distance <= 2)
                .min()
                .map(|(_, name)| name),
        })
}

/// The most crawlers, private paths or sitemaps a policy names: each
/// private path is repeated in every group that lets its crawlers in, and
/// Google reads 500 KiB.
pub const MAX_ITEMS: usize = 1_000;

/// The longest path a policy takes (Google reads lines up to 16,663
/// bytes; a path this long is no path anyone meant).
const MAX_PATH: usize = 2_000;

fn check_path(what: &'static str, path: &str) -> Result<(), PolicyError> {
    let bad = |why| {
        Err(PolicyError::BadPath {
            what,
            path: shorten(path),
            why,
        })
    };
    if !path.starts_with('/') {
        return bad("a path starts with `/`");
    }
    if path.len() > MAX_PATH {
        return bad("it is longer than 2,000 bytes");
    }
    if let Some(c) = path
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '#' | '"' | '\'' | '`' | '\\'))
    {
        return match c {
            '#' => bad("`#` starts a comment in robots.txt"),
            _ if c.is_whitespace() => bad("a path holds no spaces (write `%20`)"),
            _ => bad("it holds a quote, a backslash or a control character"),
        };
    }
    if let Some(dollar) = path.find('$')
        && dollar + 1 != path.len()
    {
        return bad("`$` means the end of the URL only as the last character");
    }
    if path.starts_with("/robots.txt") {
        return bad("crawlers fetch /robots.txt whatever it says");
    }
    Ok(())
}

fn check_url(what: &'static str, url: &str) -> Result<(), PolicyError> {
    let license = License { url, line: 0 };
    // `#` would start a comment in robots.txt.
    if url.len() > MAX_PATH
        || !license.is_absolute()
        || url.contains('#')
        || url.chars().any(char::is_control)
    {
        return Err(PolicyError::BadUrl {
            what,
            url: shorten(url),
        });
    }
    Ok(())
}
