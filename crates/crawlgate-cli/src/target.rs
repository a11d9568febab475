//! What a command is asked about: the crawler's name and the URLs.

use anyhow::bail;

/// Why a URL argument cannot be checked, or `None` when it can: an absolute
/// URL whose scheme has a robots.txt (http, https, ftp), or a path starting
/// with `/`.
pub fn url_problem(text: &str) -> Option<String> {
    if text.starts_with('/') {
        return None;
    }
    match url::Url::parse(text) {
        Ok(url) => {
            if !matches!(url.scheme(), "http" | "https" | "ftp") {
                Some(format!(
                    "invalid URL `{text}`: {}: URLs have no robots.txt; give an http(s) URL or a path starting with `/`",
                    url.scheme()
                ))
            } else if url.host_str().is_none_or(str::is_empty) {
                Some(format!("invalid URL `{text}`: it has no host"))
            } else {
                None
            }
        }
        Err(url::ParseError::RelativeUrlWithoutBase) => Some(format!(
            "invalid URL `{text}`: give an absolute URL (https://example.com/page) or a path starting with `/` (/page)"
        )),
        Err(e) => Some(format!("invalid URL `{text}`: {e}")),
    }
}

/// Checks every URL argument; the first bad one is the error.
pub fn check_urls<'a>(urls: impl IntoIterator<Item = &'a String>) -> anyhow::Result<()> {
    for url in urls {
        if let Some(problem) = url_problem(url) {
            bail!(problem);
        }
    }
    Ok(())
}

pub use crawlgate_answers::agent_warning;

/// Checks the `--agent` value: empty is an error, a name that is not a
/// product token (nor, in the crawler reading, a crawler the registry
/// knows) is a warning.
pub fn check_agent(agent: &str, reading: crawlgate::Reading) -> anyhow::Result<()> {
    if agent.trim().is_empty() {
        bail!("the agent is empty: give the crawler's name or product token, e.g. `--agent Googlebot`");
    }
    if let Some(warning) = agent_warning(agent, reading) {
        crate::output::warn(&warning);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_absolute_urls_and_paths() {
        for ok in [
            "/",
            "/a?b#c",
            "https://example.com",
            "http://EXAMPLE.com:8080/x",
            "ftp://example.com/f",
        ] {
            assert_eq!(url_problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn rejects_what_has_no_robots_txt() {
        let problem = |url| url_problem(url).unwrap();
        assert!(problem("example.com/page").contains("absolute URL"));
        assert!(problem("mailto:me@example.com").contains("mailto: URLs have no robots.txt"));
        assert!(problem("http://[::1").contains("invalid IPv6"));
        assert!(problem("").contains("absolute URL"));
    }

    #[test]
    fn warns_about_names_that_are_not_tokens() {
        use crawlgate::Reading::{Crawler, OneToken};
        assert_eq!(agent_warning("Googlebot-News", OneToken), None);
        let warning = agent_warning("Googlebot/2.1", OneToken).unwrap();
        assert!(warning.contains("(RFC 9309 §2.2.1)"));
        assert!(warning.contains("its product token is `Googlebot`"));
        assert!(agent_warning("2.1", Crawler).unwrap().contains("letters"));
        // The crawler reading maps a header to the crawler it names.
        assert_eq!(agent_warning("Googlebot/2.1", Crawler), None);
        assert_eq!(agent_warning("ChatGPT Agent", Crawler), None);
        assert!(agent_warning("Foo Bar", Crawler).is_some());
        assert_eq!(agent_warning("*", OneToken), None);
        assert_eq!(agent_warning("*", Crawler), None);
        assert!(agent_warning("**", OneToken).is_some());
    }
}
