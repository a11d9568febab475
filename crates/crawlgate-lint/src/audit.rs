//! The crawler audit: what a robots.txt file says to each crawler of the
//! core's crawler registry ([`crawlgate::registry`]: search engines, AI
//! training, AI search and assistants, SEO tools, link previews…), each
//! read as its operator documents (the crawler reading,
//! [`RobotsTxt::view`] of a [`Who::crawler`](crawlgate::Who::crawler)).
//!
//! The registry is the one table of known crawlers; this module re-exports
//! it under the names the linter has always used.
//!
//! ```
//! use crawlgate_lint::audit::{audit, crawlers, find, Purpose};
//! use crawlgate::{ChoiceKind, RobotsTxt};
//!
//! assert!(crawlers().len() >= 100);
//! let gptbot = find("gptbot").unwrap();
//! assert_eq!((gptbot.token, gptbot.purpose), ("GPTBot", Purpose::AiTraining));
//!
//! let robots = RobotsTxt::parse(b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n");
//! let report = audit(&robots);
//! let entry = report.iter().find(|e| e.crawler.token == "GPTBot").unwrap();
//! assert!(!entry.root_allowed);
//! assert_eq!(entry.group_lines, [1]);
//! assert_eq!(entry.deciding_line, Some(2));
//! // Googlebot-Image follows the Googlebot group (Google's crawler documentation).
//! let image = report.iter().find(|e| e.crawler.token == "Googlebot-Image").unwrap();
//! assert_eq!((image.choice, image.token.as_deref()), (ChoiceKind::Fallback, Some("Googlebot")));
//! assert!(image.root_allowed);
//! ```

use std::sync::OnceLock;

use crawlgate::{ChoiceKind, Reading, RobotsTxt, SelectionKind, Who};

pub use crawlgate::registry::{crawlers, Crawler, CrawlerKind, Obeys, Purpose};

/// The registry's version (`2026.11.26`): it changes whenever the table
/// does.
pub fn table_version() -> &'static str {
    crawlgate::registry::version()
}

/// The known crawler with this name, alias or own token
/// (case-insensitive); a crawler's own token is its whole name
/// (`AI2Bot`, not the `AI` a line naming it is read as).
pub fn find(token: &str) -> Option<&'static Crawler> {
    crawlgate::registry::find(token).or_else(|| crawlgate::registry::find_token(token))
}

/// Letter counts (case-insensitive; other bytes in one bucket), to rule out
/// near misses cheaply: one slip changes them by at most 2 in all.
pub(crate) fn letter_counts(token: &str) -> [u8; 27] {
    let mut counts = [0u8; 27];
    for b in token.bytes() {
        let slot = match b.to_ascii_lowercase() {
            c @ b'a'..=b'z' => usize::from(c - b'a'),
            _ => 26,
        };
        counts[slot] = counts[slot].saturating_add(1);
    }
    counts
}

/// [`letter_counts`] of every known token, in table order.
pub(crate) fn table_letter_counts() -> &'static [[u8; 27]] {
    static COUNTS: OnceLock<Vec<[u8; 27]>> = OnceLock::new();
    COUNTS.get_or_init(|| crawlers().iter().map(|c| letter_counts(c.token)).collect())
}

/// What the file says to one known crawler.
#[derive(Clone, Debug)]
pub struct AuditEntry {
    /// The crawler.
    pub crawler: &'static Crawler,
    /// How it was read: as the crawler (its operator's rules) or as its
    /// one product token (Google's library's reading).
    pub reading: Reading,
    /// How its groups were found (by a token, `*`, or none).
    pub selection: SelectionKind,
    /// How the crawler reading chose them: its own token, a fallback, `*`,
    /// none, ignores robots.txt, control token.
    pub choice: ChoiceKind,
    /// The token whose groups apply (`*` for the `*` groups).
    pub token: Option<String>,
    /// Why, in one sentence, with the source.
    pub why: String,
    /// First lines of the groups it obeys.
    pub group_lines: Vec<u32>,
    /// Whether it may crawl `/`.
    pub root_allowed: bool,
    /// The line of the rule that decides `/`, if one does.
    pub deciding_line: Option<u32>,
    /// That rule as written (`Disallow: /`).
    pub deciding_rule: Option<String>,
}

/// What the file says to every known crawler, in table order, each read
/// as its operator documents (the crawler reading).
pub fn audit(robots: &RobotsTxt) -> Vec<AuditEntry> {
    audit_with(robots, Reading::Crawler)
}

/// What the file says to every known crawler, in table order, under
/// `reading`: [`Reading::Crawler`] reads each as its operator documents
/// ([`Who::crawler`](crawlgate::Who::crawler)); [`Reading::OneToken`] reads its product
/// token exactly as Google's library does ([`Who::token`](crawlgate::Who::token): no
/// fallbacks, `*` always obeyed, robots.txt always applies).
///
/// ```
/// use crawlgate::{ChoiceKind, Reading, RobotsTxt};
/// use crawlgate_lint::audit::audit_with;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n");
/// let adsbot = |reading| {
///     audit_with(&robots, reading).into_iter().find(|e| e.crawler.name == "AdsBot-Google").unwrap()
/// };
/// // AdsBot-Google ignores `*` (Google's crawler documentation)…
/// assert!(adsbot(Reading::Crawler).root_allowed);
/// // …but its token alone, read as Google's library reads it, gets `*`.
/// let one = adsbot(Reading::OneToken);
/// assert_eq!((one.choice, one.root_allowed), (ChoiceKind::Star, false));
/// ```
pub fn audit_with(robots: &RobotsTxt, reading: Reading) -> Vec<AuditEntry> {
    crawlers()
        .iter()
        .map(|crawler| {
            let view = match reading {
                Reading::Crawler => robots.view(Who::crawler(crawler.name)),
                Reading::OneToken => robots.view(crawler.token),
            };
            let verdict = view.decide_path("/");
            let choice = view.group_choice();
            AuditEntry {
                crawler,
                reading,
                selection: view.selection(),
                choice: choice.kind(),
                token: choice.token().map(str::to_owned),
                why: choice.explain(match reading {
                    Reading::Crawler => crawler.name,
                    Reading::OneToken => crawler.token,
                }),
                group_lines: view.groups().map(|g| g.first_line()).collect(),
                root_allowed: verdict.is_allowed(),
                deciding_line: verdict.line(),
                deciding_rule: verdict.rule().map(|r| r.to_string()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_token_audit_is_google_s_library_s_reading_of_each_token() {
        let robots = RobotsTxt::parse(
            b"User-agent: Googlebot\nDisallow: /g\n\nUser-agent: msnbot\nAllow: /\n\nUser-agent: *\nDisallow: /\n",
        );
        for entry in audit_with(&robots, Reading::OneToken) {
            let token = entry.crawler.token;
            let verdict = robots.decide(token, "/");
            assert_eq!(entry.reading, Reading::OneToken);
            assert_eq!(
                (entry.root_allowed, entry.deciding_line),
                (verdict.is_allowed(), verdict.line()),
                "{token}"
            );
            assert!(entry.why.starts_with(token), "{token}: {}", entry.why);
        }
        // The two readings differ where the registry has a rule: Bingbot
        // follows msnbot, AdsBot-Google ignores `*`, Googlebot-Image
        // follows Googlebot.
        let crawler = audit(&robots);
        let one = audit_with(&robots, Reading::OneToken);
        let differ: Vec<&str> = crawler
            .iter()
            .zip(&one)
            .filter(|(a, b)| a.root_allowed != b.root_allowed)
            .map(|(a, _)| a.crawler.name)
            .collect();
        for name in ["Bingbot", "AdsBot-Google", "Googlebot-Image", "Applebot"] {
            assert!(differ.contains(&name), "{name} in {differ:?}");
        }
        assert!(!differ.contains(&"GPTBot"));
    }

    #[test]
    fn audit_follows_the_crawler_reading() {
        let robots =
            RobotsTxt::parse(b"User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n");
        let entries = audit(&robots);
        let entry = |name: &str| entries.iter().find(|e| e.crawler.name == name).unwrap();
        let google = entry("Googlebot");
        assert_eq!(
            (google.selection, google.choice),
            (SelectionKind::Specific, ChoiceKind::Own)
        );
        assert!(google.root_allowed);
        let bing = entry("Bingbot");
        assert_eq!(
            (bing.selection, bing.choice),
            (SelectionKind::Global, ChoiceKind::Star)
        );
        assert!(!bing.root_allowed);
        assert_eq!(bing.deciding_rule.as_deref(), Some("Disallow: /"));
        // Applebot follows Googlebot; AdsBot ignores `*`; a user-triggered
        // fetcher ignores robots.txt.
        assert_eq!(entry("Applebot").choice, ChoiceKind::Fallback);
        assert!(entry("Applebot").root_allowed);
        assert_eq!(entry("AdsBot-Google").choice, ChoiceKind::NoGroup);
        assert!(entry("AdsBot-Google").root_allowed);
        assert_eq!(
            entry("Google-Read-Aloud").choice,
            ChoiceKind::IgnoresRobotsTxt
        );
        assert!(entry("AdsBot-Google")
            .why
            .contains("it ignores the * group"));
    }

    #[test]
    fn find_knows_names_aliases_and_tokens() {
        assert_eq!(find("gptbot").unwrap().token, "GPTBot");
        assert_eq!(find("Brightbot 1.0").unwrap().name, "Brightbot");
        // A crawler's token is its whole name: `AI` (what a line naming
        // AI2Bot is read as) is no crawler's.
        assert_eq!(find("ai2bot").unwrap().name, "AI2Bot");
        assert!(find("AI").is_none());
        assert!(find("no-such-bot").is_none());
        assert_eq!(table_version(), crawlgate::registry::version());
    }
}
