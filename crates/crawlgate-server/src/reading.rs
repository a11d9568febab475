//! How the API reads the crawler name a client gives: by default the
//! crawler reading (the registry's rules: Googlebot-Image falls back to the
//! Googlebot group, AdsBot-Google ignores `*` …), or with
//! `reading=one-token` as one product token, exactly as Google's library
//! does (`crawlgate check --one-token`).

use crawlgate::Reading;

use crate::error::ApiError;

/// The names the API accepts for `reading` (the core's names), the default
/// first.
pub const READING_NAMES: [&str; 2] = [Reading::Crawler.as_str(), Reading::OneToken.as_str()];

/// `reading`, checked: `crawler` (the default) or `one-token`, exactly.
pub fn parse_reading(name: Option<&str>) -> Result<Reading, ApiError> {
    match name {
        None => Ok(Reading::Crawler),
        Some(name) => Reading::from_word(name).ok_or_else(|| {
            let shown: String = name.chars().take(64).collect();
            ApiError::invalid(
                "reading",
                format!("{shown:?} is not a reading; use crawler (the default) or one-token"),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::{ChoiceKind, RobotsTxt, Who};
    use crawlgate_answers::Robots;

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
        let crawler = Robots::local(robots.clone())
            .decide(Who::read("Googlebot-Image", Reading::Crawler), "/a.jpg");
        assert!(crawler.allowed);
        assert_eq!(crawler.choice.unwrap().kind, ChoiceKind::Fallback);
        let one = Robots::local(robots.clone())
            .decide(Who::read("Googlebot-Image", Reading::OneToken), "/a.jpg");
        assert!(!one.allowed);
        assert_eq!(one.choice.unwrap().reading, Reading::OneToken);
    }
}
