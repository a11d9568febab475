//! The crawler audit: a built-in, versioned table of known crawler product
//! tokens (search engines, AI training, AI search, fetchers triggered by AI
//! assistants, dataset builders, SEO tools, social previews…), and what a
//! robots.txt file says to each of them.
//!
//! The table is `src/crawlers.txt`, embedded at build time and read on
//! first use: one crawler per line, `token | operator | purpose | obeys |
//! note`.
//!
//! ```
//! use crawlgate_lint::audit::{audit, crawlers, find, Purpose};
//! use crawlgate::RobotsTxt;
//!
//! assert!(crawlers().len() >= 100);
//! let gptbot = find("gptbot").unwrap();
//! assert_eq!((gptbot.token, gptbot.purpose), ("GPTBot", Purpose::AiTraining));
//!
//! let robots = RobotsTxt::parse(b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n");
//! let report = audit(&robots);
//! let entry = report.iter().find(|e| e.crawler.token == "GPTBot").unwrap();
//! assert!(!entry.root_allowed);
//! assert_eq!(entry.group_lines, [1]);
//! assert_eq!(entry.deciding_line, Some(2));
//! let other = report.iter().find(|e| e.crawler.token == "CCBot").unwrap();
//! assert!(other.root_allowed);
//! assert_eq!(other.group_lines, [4]);
//! ```

use std::fmt;
use std::sync::OnceLock;

use crawlgate::{RobotsTxt, SelectionKind};
use rustc_hash::FxHashMap;

const TABLE: &str = include_str!("crawlers.txt");

/// What a crawler fetches pages for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Purpose {
    /// A search engine's index.
    Search,
    /// Training AI models.
    AiTraining,
    /// An AI search engine or answer index.
    AiSearch,
    /// Fetching a page because a user asked an AI assistant about it.
    AiUser,
    /// Building a dataset that others use (often for training).
    Dataset,
    /// SEO tools: backlinks, audits.
    Seo,
    /// Link previews for social networks and messengers.
    Social,
    /// Web archives and site copiers.
    Archive,
    /// Advertising checks.
    Ads,
    /// Monitoring: uptime, media, brands.
    Monitor,
    /// Anything else.
    Other,
}

impl Purpose {
    /// The name used in the table (`ai-training`).
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Search => "search",
            Purpose::AiTraining => "ai-training",
            Purpose::AiSearch => "ai-search",
            Purpose::AiUser => "ai-user",
            Purpose::Dataset => "dataset",
            Purpose::Seo => "seo",
            Purpose::Social => "social",
            Purpose::Archive => "archive",
            Purpose::Ads => "ads",
            Purpose::Monitor => "monitor",
            Purpose::Other => "other",
        }
    }

    /// A few words for people (`AI training`).
    pub fn describe(self) -> &'static str {
        match self {
            Purpose::Search => "search engine",
            Purpose::AiTraining => "AI training",
            Purpose::AiSearch => "AI search",
            Purpose::AiUser => "AI assistant fetching for a user",
            Purpose::Dataset => "dataset builder",
            Purpose::Seo => "SEO tool",
            Purpose::Social => "link previews",
            Purpose::Archive => "archiver",
            Purpose::Ads => "ads",
            Purpose::Monitor => "monitoring",
            Purpose::Other => "other",
        }
    }

    fn parse(text: &str) -> Option<Purpose> {
        Some(match text {
            "search" => Purpose::Search,
            "ai-training" => Purpose::AiTraining,
            "ai-search" => Purpose::AiSearch,
            "ai-user" => Purpose::AiUser,
            "dataset" => Purpose::Dataset,
            "seo" => Purpose::Seo,
            "social" => Purpose::Social,
            "archive" => Purpose::Archive,
            "ads" => Purpose::Ads,
            "monitor" => Purpose::Monitor,
            "other" => Purpose::Other,
            _ => return None,
        })
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a crawler obeys robots.txt, as far as is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Obeys {
    /// It does, by its operator's documentation.
    Yes,
    /// It does not (typically fetchers acting for one user).
    No,
    /// With documented exceptions, or reported not to at times.
    Partial,
    /// Not known.
    Unknown,
}

impl Obeys {
    /// The name used in the table.
    pub fn as_str(self) -> &'static str {
        match self {
            Obeys::Yes => "yes",
            Obeys::No => "no",
            Obeys::Partial => "partial",
            Obeys::Unknown => "unknown",
        }
    }

    fn parse(text: &str) -> Option<Obeys> {
        Some(match text {
            "yes" => Obeys::Yes,
            "no" => Obeys::No,
            "partial" => Obeys::Partial,
            "unknown" => Obeys::Unknown,
            _ => return None,
        })
    }
}

impl fmt::Display for Obeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One known crawler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crawler {
    /// The product token it looks for in robots.txt.
    pub token: &'static str,
    /// Who runs it.
    pub operator: &'static str,
    /// What it fetches for.
    pub purpose: Purpose,
    /// Whether it obeys robots.txt.
    pub obeys: Obeys,
    /// A short note.
    pub note: &'static str,
}

struct Table {
    version: &'static str,
    crawlers: Vec<Crawler>,
}

/// Parses the table; a malformed line is skipped (a test checks there is
/// none).
fn parse_table(text: &'static str) -> (Table, Vec<usize>) {
    let mut version = "unversioned";
    let mut crawlers = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(v) = comment.trim().strip_prefix("version:") {
                version = v.trim();
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [token, operator, purpose, obeys, note] => {
                match (Purpose::parse(purpose), Obeys::parse(obeys)) {
                    (Some(purpose), Some(obeys)) if crawlgate::is_product_token(token) => {
                        Some(Crawler {
                            token,
                            operator,
                            purpose,
                            obeys,
                            note,
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match parsed {
            Some(crawler) => crawlers.push(crawler),
            None => bad.push(i + 1),
        }
    }
    (Table { version, crawlers }, bad)
}

fn table() -> &'static Table {
    static TABLE_CELL: OnceLock<Table> = OnceLock::new();
    TABLE_CELL.get_or_init(|| parse_table(TABLE).0)
}

/// The table's version (`2026.11.2`): it changes whenever the table does.
pub fn table_version() -> &'static str {
    table().version
}

/// Every known crawler, in table order.
pub fn crawlers() -> &'static [Crawler] {
    &table().crawlers
}

/// The known crawler with this product token (case-insensitive).
pub fn find(token: &str) -> Option<&'static Crawler> {
    static BY_TOKEN: OnceLock<FxHashMap<String, usize>> = OnceLock::new();
    let index = BY_TOKEN.get_or_init(|| {
        crawlers()
            .iter()
            .enumerate()
            .map(|(i, c)| (c.token.to_ascii_lowercase(), i))
            .collect()
    });
    index
        .get(&token.to_ascii_lowercase())
        .map(|&i| &crawlers()[i])
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
    /// How its groups were chosen (its own, `*`, or none).
    pub selection: SelectionKind,
    /// First lines of the groups it obeys.
    pub group_lines: Vec<u32>,
    /// Whether it may crawl `/`.
    pub root_allowed: bool,
    /// The line of the rule that decides `/`, if one does.
    pub deciding_line: Option<u32>,
    /// That rule as written (`Disallow: /`).
    pub deciding_rule: Option<String>,
}

/// What the file says to every known crawler, in table order.
pub fn audit(robots: &RobotsTxt) -> Vec<AuditEntry> {
    crawlers()
        .iter()
        .map(|crawler| {
            let view = robots.for_agent(crawler.token);
            let verdict = view.decide_path("/");
            AuditEntry {
                crawler,
                selection: view.selection(),
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
    use std::collections::HashSet;

    #[test]
    fn the_table_is_well_formed_and_large_enough() {
        let (table, bad) = parse_table(TABLE);
        assert!(bad.is_empty(), "malformed lines: {bad:?}");
        assert!(table.crawlers.len() >= 200, "{}", table.crawlers.len());
        assert_ne!(table.version, "unversioned");
        let mut seen = HashSet::new();
        for c in &table.crawlers {
            assert!(
                seen.insert(c.token.to_ascii_lowercase()),
                "{} twice",
                c.token
            );
            assert!(!c.operator.is_empty() && !c.note.is_empty(), "{}", c.token);
        }
        for purpose in [
            Purpose::Search,
            Purpose::AiTraining,
            Purpose::AiSearch,
            Purpose::AiUser,
            Purpose::Dataset,
        ] {
            assert!(
                table.crawlers.iter().any(|c| c.purpose == purpose),
                "{purpose}"
            );
        }
    }

    /// The names of the ai.robots.txt list that are no product tokens are
    /// listed at the end of the table as `#   NAME -> READ`: READ must be
    /// what a group `User-agent: NAME` is read as, and `(in the table)` true.
    #[test]
    fn names_that_are_not_tokens_are_read_as_the_table_says() {
        let listed: Vec<(&str, &str)> = TABLE
            .lines()
            .filter_map(|l| l.strip_prefix("#   ")?.split_once(" -> "))
            .collect();
        assert!(listed.len() >= 20, "{listed:?}");
        for (name, read) in listed {
            assert!(!crawlgate::is_product_token(name), "{name} is a token");
            let (read, in_table) = match read.strip_suffix(" (in the table)") {
                Some(read) => (read, true),
                None => (read, false),
            };
            let robots = RobotsTxt::parse(format!("User-agent: {name}\nDisallow: /\n").as_bytes());
            assert_eq!(
                robots.for_agent(read).selection(),
                SelectionKind::Specific,
                "{name}"
            );
            assert_eq!(
                robots.for_agent(name).selection(),
                SelectionKind::Nothing,
                "{name}"
            );
            assert_eq!(find(read).is_some(), in_table, "{name} -> {read}");
        }
    }

    #[test]
    fn a_bad_line_is_reported() {
        let (table, bad) = parse_table("# version: 1\nA | b | search | yes | n\nC/1 | d | search | yes | n\nE | f | nope | yes | n\n");
        assert_eq!(table.crawlers.len(), 1);
        assert_eq!(bad, [3, 4]);
    }

    #[test]
    fn audit_follows_group_selection() {
        let robots =
            RobotsTxt::parse(b"User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n");
        let entries = audit(&robots);
        let google = entries
            .iter()
            .find(|e| e.crawler.token == "Googlebot")
            .unwrap();
        assert_eq!(google.selection, SelectionKind::Specific);
        assert!(google.root_allowed);
        let bing = entries
            .iter()
            .find(|e| e.crawler.token == "Bingbot")
            .unwrap();
        assert_eq!(bing.selection, SelectionKind::Global);
        assert!(!bing.root_allowed);
        assert_eq!(bing.deciding_rule.as_deref(), Some("Disallow: /"));
    }
}
