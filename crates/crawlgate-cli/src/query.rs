//! What `check` and `explain` are asked: a robots.txt, URLs, a crawler (and
//! how to read its name) and a profile. One set of arguments, flattened into both (each adds the
//! fetch options last, under their own heading).

use crawlgate::{Profile, Reading as NameReading};

use crate::load::source::RobotsArg;
use crate::target::{check_agent, check_urls};

/// `ROBOTS [URL]… --agent TOKEN [--profile NAME] [--json]`.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    /// The robots.txt: a file, `-` for standard input, or an http(s) URL of
    /// the site (its /robots.txt is fetched).
    #[arg(value_name = "ROBOTS")]
    pub robots: String,

    /// URLs to ask about: absolute, or paths starting with `/`.
    #[arg(value_name = "URL")]
    pub urls: Vec<String>,

    /// The crawler: a name the crawler registry knows (`Googlebot-Image`,
    /// a full User-Agent header), read by its operator's rules, or any
    /// product token (`mybot`).
    #[arg(short, long, value_name = "NAME")]
    pub agent: String,

    /// Read --agent as one product token, exactly as Google's library does
    /// (the one-token reading): no fallback tokens, `*` always obeyed,
    /// robots.txt always read. By default a crawler of the registry is read
    /// as its operator documents (the crawler reading).
    #[arg(long)]
    pub one_token: bool,

    /// How to read robots.txt: google, rfc9309, legacy, bing or yandex. By
    /// default, the reading of the crawler's operator's own parser (yandex
    /// for Yandex's robots, bing for Bing's crawlers), else google.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<Profile>,

    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

impl QueryArgs {
    /// How `--agent` is read.
    pub fn reading(&self) -> NameReading {
        reading_of(self.one_token)
    }

    /// The profile robots.txt is read by: `--profile`, else the agent's
    /// operator's reading (see [`NameReading::profile_for`]).
    pub fn profile(&self) -> Profile {
        self.reading().profile_for(&self.agent, self.profile)
    }

    /// Checks the agent (an empty one is an error, a name that is not a
    /// product token a warning) and every URL, then reads `ROBOTS`.
    pub fn validate(&self) -> anyhow::Result<RobotsArg> {
        check_agent(&self.agent, self.reading())?;
        let robots = RobotsArg::parse(&self.robots)?;
        check_urls(&self.urls)?;
        Ok(robots)
    }
}

/// The reading a `--one-token` flag asks for.
pub fn reading_of(one_token: bool) -> NameReading {
    if one_token {
        NameReading::OneToken
    } else {
        NameReading::Crawler
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Probe {
        #[command(flatten)]
        query: QueryArgs,
    }

    fn parse(args: &[&str]) -> Result<QueryArgs, clap::Error> {
        Probe::try_parse_from(std::iter::once("probe").chain(args.iter().copied())).map(|p| p.query)
    }

    #[test]
    fn reads_every_argument() {
        let query = parse(&[
            "robots.txt",
            "/a",
            "https://example.com/b",
            "-a",
            "mybot",
            "--profile",
            "rfc9309",
            "--json",
        ])
        .unwrap();
        assert_eq!(query.robots, "robots.txt");
        assert_eq!(query.urls, ["/a", "https://example.com/b"]);
        assert_eq!(query.agent, "mybot");
        assert_eq!(query.profile().name, "rfc9309");
        assert!(query.json);
        assert_eq!(query.reading(), NameReading::Crawler);
        let one = parse(&["robots.txt", "-a", "mybot", "--one-token"]).unwrap();
        assert_eq!(one.reading(), NameReading::OneToken);
        assert!(matches!(query.validate().unwrap(), RobotsArg::File(_)));
    }

    #[test]
    fn the_agent_is_required_and_the_profile_known() {
        assert!(parse(&["robots.txt", "/"]).is_err());
        let error = parse(&["robots.txt", "-a", "bot", "--profile", "baidu"]).unwrap_err();
        assert!(
            error.to_string().contains("unknown profile `baidu`"),
            "{error}"
        );
        let bing = parse(&["robots.txt", "-a", "bot", "--profile", "bing"]).unwrap();
        assert_eq!(bing.profile(), crawlgate::Profile::BING);
        let defaults = parse(&["-", "-a", "bot"]).unwrap();
        assert_eq!(defaults.profile().name, "google");
        // A crawler is read as its operator's parser reads files, unless a
        // profile is named or its name is read as one token.
        let yandex = parse(&["-", "-a", "YandexBot"]).unwrap();
        assert_eq!(yandex.profile(), crawlgate::Profile::YANDEX);
        let named = parse(&["-", "-a", "YandexBot", "--profile", "google"]).unwrap();
        assert_eq!(named.profile(), crawlgate::Profile::GOOGLE);
        let token = parse(&["-", "-a", "YandexBot", "--one-token"]).unwrap();
        assert_eq!(token.profile(), crawlgate::Profile::GOOGLE);
        assert!(defaults.urls.is_empty() && !defaults.json);
    }

    #[test]
    fn validation_rejects_an_empty_agent_and_bad_urls() {
        let empty = parse(&["robots.txt", "/", "-a", " "]).unwrap();
        assert!(empty
            .validate()
            .unwrap_err()
            .to_string()
            .contains("the agent is empty"));
        let bad = parse(&["robots.txt", "mailto:x@example.com", "-a", "bot"]).unwrap();
        assert!(bad.validate().unwrap_err().to_string().contains("mailto:"));
        let ftp = parse(&["ftp://example.com/", "-a", "bot"]).unwrap();
        assert!(ftp.validate().is_err());
    }
}
