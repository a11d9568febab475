//! How the API reads the crawler name a client gives: by default the
//! crawler reading (the registry's rules: Googlebot-Image falls back to the
//! Googlebot group, AdsBot-Google ignores `*` …), or with
//! `reading=one-token` as one product token, exactly as Google's library
//! does (`crawlgate check --one-token`).

use crawlgate::{AgentView, Reading, RobotsTxt};

use crate::error::ApiError;

/// The names the API accepts for `reading`.
pub const READING_NAMES: [&str; 2] = ["crawler", "one-token"];

/// `reading`, checked: `crawler` (the default) or `one-token`, exactly.
pub fn parse_reading(name: Option<&str>) -> Result<Reading, ApiError> {
    match name {
        None | Some("crawler") => Ok(Reading::Crawler),
        Some("one-token") => Ok(Reading::OneToken),
        Some(other) => {
            let shown: String = other.chars().take(64).collect();
            Err(ApiError::invalid(
                "reading",
                format!("{shown:?} is not a reading; use crawler (the default) or one-token"),
            ))
        }
    }
}

/// The view of `agent` in `robots`, its name read as `how` says.
pub fn view_as<'r>(robots: &'r RobotsTxt, agent: &str, how: Reading) -> AgentView<'r> {
    match how {
        Reading::OneToken => robots.for_agent(agent),
        _ => robots.for_crawler(agent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate_fetch::Robots;

    #[test]
    fn the_crawler_reading_is_the_default_and_one_token_is_asked_for() {
        assert_eq!(parse_reading(None).unwrap(), Reading::Crawler);
        assert_eq!(parse_reading(Some("crawler")).unwrap(), Reading::Crawler);
        assert_eq!(parse_reading(Some("one-token")).unwrap(), Reading::OneToken);
        let error = parse_reading(Some("One-Token")).unwrap_err();
        assert!(error.problem.contains("not a reading"), "{}", error.problem);
    }

    #[test]
    fn googlebot_image_falls_back_to_googlebot_only_in_the_crawler_reading() {
        let robots =
            RobotsTxt::parse(b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n");
        let crawler =
            Robots::local(robots.clone()).decide_as("Googlebot-Image", Reading::Crawler, "/a.jpg");
        assert!(crawler.allowed);
        assert_eq!(crawler.choice.unwrap().kind, "fallback");
        let one =
            Robots::local(robots.clone()).decide_as("Googlebot-Image", Reading::OneToken, "/a.jpg");
        assert!(!one.allowed);
        assert_eq!(one.choice.unwrap().reading, "one-token");
    }
}
