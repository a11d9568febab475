//! The survey's figures, gathered row by row in constant memory: what the
//! HTML report shows and the JSON summary holds. The same rows give the
//! same figures, whether they come from a survey as it runs or from its
//! table read back (a Parquet file, or Spark's part files).
//!
//! Shares of crawlers blocked count robots.txt choices only: their
//! denominator is the rows whose robots.txt answered (a file, a 4xx, a
//! page that is no robots.txt), not the outages (5xx, 429, network
//! failures) nor the redirects left unfollowed, which are counted beside
//! them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::checkpoint::Counts;
use crate::compare::Comparison;
use crate::crawlers::{is_ai, CrawlerSet};
use crate::findings;
use crate::input::Skip;
use crate::preferences;
use crate::row::SiteRow;
use crate::verdict::{Cause, GroupKind};

/// The upper bounds (inclusive, bytes) of the size buckets; a last bucket
/// holds bodies over crawlers' limit.
/// Binary units throughout (KiB, as crawlers' 500 KiB limit is).
pub const SIZE_BOUNDS: [u64; 6] = [
    0,
    100,
    1 << 10,
    10 << 10,
    100 << 10,
    crawlgate::MAX_BYTES as u64,
];

/// The label of size bucket `i` (`SIZE_BOUNDS.len()` is the last one).
pub fn size_label(i: usize) -> &'static str {
    [
        "empty",
        "1–100 B",
        "101 B–1 KiB",
        "1–10 KiB",
        "10–100 KiB",
        "100–500 KiB",
        "over 500 KiB",
    ][i.min(SIZE_BOUNDS.len())]
}

/// Whether a group naming a crawler's token means that crawler alone, from
/// the crawler registry (`shared-token`, `generic-token` flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenUse {
    /// Its own token (or a token the registry does not know: the caller's).
    Own,
    /// Another crawler's token too (`ExaBot`, Exalead's old `Exabot`).
    Shared,
    /// A generic word (`Spider`).
    Generic,
}

impl TokenUse {
    /// The use of a registry crawler's token.
    pub fn of(crawler: &crawlgate::registry::Crawler) -> TokenUse {
        if crawler.shared_token.is_some() {
            TokenUse::Shared
        } else if crawler.generic_token.is_some() {
            TokenUse::Generic
        } else {
            TokenUse::Own
        }
    }
}

/// One crawler's figures over the rows answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrawlerTally {
    /// Its product token.
    pub token: String,
    /// Its column stem.
    pub column: String,
    /// Whether the crawler table lists it as an AI crawler.
    pub ai: bool,
    /// Whether its token names it alone.
    pub token_use: TokenUse,
    /// Who runs it, from the crawler table (empty when not listed).
    pub operator: String,
    /// What it crawls for, in words (empty when not listed).
    pub purpose: String,
    /// Rows per cause, in the order of [`Cause::ALL`].
    pub causes: [u64; 9],
    /// Rows partly blocked (`/` or content) by a group naming it or a
    /// token it falls back to, not `*`: what is the crawler's own.
    pub partly_by_name: u64,
    /// Rows where it may fetch `/`, may not, and where the input gives no
    /// answer.
    pub root: [u64; 3],
    /// Per path asked about: rows where it may fetch it, and may not.
    pub paths: Vec<[u64; 2]>,
    /// Rows whose robots.txt gives it an AI-use preference for `/` (a
    /// `Content-Usage` record that applies, or a `Content-Signal`): a
    /// robots.txt choice, counted among [`Summary::chosen`].
    pub preferences: u64,
    /// Those rows by what they state ([`preferences::stated`]); the
    /// values are few (two categories and three signals).
    pub preference_values: BTreeMap<String, u64>,
}

impl CrawlerTally {
    /// Rows of one cause.
    pub fn count(&self, cause: Cause) -> u64 {
        self.causes[cause as usize]
    }

    /// Rows whose robots.txt blocks it fully (by name or through `*`).
    pub fn blocked(&self) -> u64 {
        self.count(Cause::BlockedByName) + self.count(Cause::BlockedByStar)
    }

    /// Rows whose robots.txt restricts it (fully or in part, housekeeping
    /// paths alone included).
    pub fn restricted(&self) -> u64 {
        self.content_restricted() + self.count(Cause::HousekeepingBlocked)
    }

    /// Rows whose robots.txt names it (or a token it falls back to) to keep
    /// it out of `/` or content, fully or in part: what a site says to
    /// this crawler rather than to every crawler.
    pub fn restricted_by_name(&self) -> u64 {
        self.count(Cause::BlockedByName) + self.partly_by_name
    }

    /// Rows whose robots.txt keeps it out of `/` or a content section:
    /// fully blocked, or partly blocked beyond housekeeping paths.
    pub fn content_restricted(&self) -> u64 {
        self.blocked() + self.count(Cause::PartlyBlocked)
    }

    /// The `n` most common preferences it is given for `/`, with their
    /// rows: most rows first, then by value.
    pub fn common_preferences(&self, n: usize) -> Vec<(&str, u64)> {
        let mut values: Vec<(&str, u64)> = self
            .preference_values
            .iter()
            .map(|(value, &rows)| (value.as_str(), rows))
            .collect();
        values.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        values.truncate(n);
        values
    }
}

/// How the input's records became rows: records read = rows + duplicate
/// captures + records skipped. Known for a survey as it runs, not for a
/// table read back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Accounting {
    /// Records (and files, lines, sites) read.
    pub records: u64,
    /// Captures among them.
    pub captures: u64,
    /// Rows written.
    pub rows: u64,
    /// Captures folded into the row of their host (an earlier capture of a
    /// host captured again).
    pub duplicates: u64,
    /// Records skipped, by reason (see [`Skip`]).
    pub skipped: Vec<(String, u64)>,
}

impl Accounting {
    /// The accounting of a survey's counts and its summary.
    pub fn of(counts: &Counts, summary: &Summary) -> Accounting {
        Accounting {
            records: counts.items,
            captures: counts.captures,
            rows: summary.rows,
            duplicates: counts.captures.saturating_sub(summary.rows),
            skipped: Skip::ALL
                .iter()
                .map(|s| {
                    (
                        s.as_str().to_owned(),
                        counts.skipped.get(s.as_str()).copied().unwrap_or(0),
                    )
                })
                .collect(),
        }
    }

    /// Records skipped.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.iter().map(|(_, n)| n).sum()
    }
}

/// The figures of a survey.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Rows.
    pub rows: u64,
    /// Error rows among them (the input gave no answer).
    pub errors: u64,
    /// Captures the rows stand for (each row counts its host's captures).
    pub captures: u64,
    /// Rows whose robots.txt answered: the denominator of the shares of
    /// crawlers blocked.
    pub chosen: u64,
    /// Rows of an outage: 5xx, 429, timeouts, network failures.
    pub unreachable: u64,
    /// Rows of a redirect left unfollowed (or looping).
    pub redirected: u64,
    /// Rows answered after following a redirect.
    pub followed: u64,
    /// Rows without a robots.txt (4xx).
    pub no_robots_txt: u64,
    /// Rows served something that is no robots.txt (an HTML page, binary).
    pub not_robots_txt: u64,
    /// Rows served a robots.txt, read for its rules (a text file, not a
    /// 4xx nor a page that is no robots.txt): `chosen = robots_txt +
    /// no_robots_txt + not_robots_txt`.
    pub robots_txt: u64,
    /// Rows per outcome: full allow, full disallow, conditional.
    pub outcomes: [u64; 3],
    /// Rows per HTTP status class: none, 1xx, 2xx, 3xx, 4xx, 5xx, other.
    pub statuses: [u64; 7],
    /// Rows without a status that are files read as served with 200 (a
    /// folder's files, table lines without `status`): the rest of
    /// `statuses[0]` are network failures.
    pub files_without_status: u64,
    /// Rows per Common Crawl fetch class, in the order of
    /// [`FetchClass::ALL`](crate::taxonomy::FetchClass::ALL).
    pub fetch_classes: [u64; 7],
    /// Rows per Common Crawl host category, in the order of
    /// [`HostClass::ALL`](crate::taxonomy::HostClass::ALL).
    pub cc_classes: [u64; 7],
    /// Rows served as HTML.
    pub html: u64,
    /// Rows whose body is over 500 KiB.
    pub over_limit: u64,
    /// Rows with at least one `Sitemap:` line.
    pub with_sitemaps: u64,
    /// Rows whose `*` groups set a crawl-delay.
    pub with_crawl_delay: u64,
    /// Rows whose `*` groups carry `Content-Signal`.
    pub with_content_signal: u64,
    /// Rows whose `*` groups carry `Content-Usage`.
    pub with_content_usage: u64,
    /// Rows whose file has a `License:` line (RSL 1.0).
    pub with_license: u64,
    /// Rows whose file has lines Search Console reports as unused
    /// directives (keys Google does not use, unknown ones included).
    pub with_unused_directives: u64,
    /// Rows whose file has lines Search Console tags as unknown.
    pub with_unknown_lines: u64,
    /// Rows whose robots.txt blocks at least one AI crawler of the survey
    /// fully (by name or through `*`).
    pub blocking_ai: u64,
    /// Rows whose robots.txt names at least one AI crawler of the survey
    /// by its own token (a group naming it, the token its alone) to block
    /// it fully: the site's intent.
    pub blocking_ai_by_name: u64,
    /// Rows blocking an AI crawler fully through a group naming a token
    /// it shares with another crawler (`ExaBot`), none by its own token.
    pub blocking_ai_by_shared_token: u64,
    /// Rows blocking an AI crawler fully through a group naming a generic
    /// word (`Spider`), none by an own or shared token.
    pub blocking_ai_by_generic_token: u64,
    /// Rows blocking an AI crawler fully only through a group naming a
    /// token it falls back to (YandexAdditional under a `Yandex` group).
    pub blocking_ai_by_fallback: u64,
    /// Rows blocking an AI crawler fully through any group naming one of
    /// its tokens (the effect): the sum of the four above.
    pub blocking_ai_by_group: u64,
    /// Rows with a parsed file, per size bucket (see [`SIZE_BOUNDS`]).
    pub sizes: [u64; SIZE_BOUNDS.len() + 1],
    /// Rows with at least one finding of each lint code (in the order of
    /// [`findings::codes`]).
    pub lint_sites: Vec<u64>,
    /// Rows with at least one lint error.
    pub with_lint_errors: u64,
    /// The paths asked about besides `/`.
    pub paths: Vec<String>,
    /// Per crawler.
    pub crawlers: Vec<CrawlerTally>,
    /// How the records read became rows, for a survey as it ran.
    pub accounting: Option<Accounting>,
    /// The change since an earlier survey, when one was given.
    pub comparison: Option<Comparison>,
}

impl Summary {
    /// An empty summary for a set of crawlers and paths.
    pub fn new(crawlers: &CrawlerSet, paths: &[String]) -> Summary {
        Summary {
            rows: 0,
            errors: 0,
            captures: 0,
            chosen: 0,
            unreachable: 0,
            redirected: 0,
            followed: 0,
            no_robots_txt: 0,
            not_robots_txt: 0,
            robots_txt: 0,
            outcomes: [0; 3],
            statuses: [0; 7],
            files_without_status: 0,
            fetch_classes: [0; 7],
            cc_classes: [0; 7],
            html: 0,
            over_limit: 0,
            with_sitemaps: 0,
            with_crawl_delay: 0,
            with_content_signal: 0,
            with_content_usage: 0,
            with_license: 0,
            with_unused_directives: 0,
            with_unknown_lines: 0,
            blocking_ai: 0,
            blocking_ai_by_name: 0,
            blocking_ai_by_shared_token: 0,
            blocking_ai_by_generic_token: 0,
            blocking_ai_by_fallback: 0,
            blocking_ai_by_group: 0,
            sizes: [0; SIZE_BOUNDS.len() + 1],
            lint_sites: vec![0; findings::codes().len()],
            with_lint_errors: 0,
            paths: paths.to_vec(),
            crawlers: crawlers
                .iter()
                .map(|c| CrawlerTally {
                    token: c.token.clone(),
                    column: c.column.clone(),
                    ai: c.known.is_some_and(is_ai),
                    token_use: c.known.map_or(TokenUse::Own, TokenUse::of),
                    operator: c.known.map(|k| k.operator.to_owned()).unwrap_or_default(),
                    purpose: c
                        .known
                        .map(|k| k.purpose.describe().to_owned())
                        .unwrap_or_default(),
                    causes: [0; 9],
                    partly_by_name: 0,
                    root: [0; 3],
                    paths: vec![[0; 2]; paths.len()],
                    preferences: 0,
                    preference_values: BTreeMap::new(),
                })
                .collect(),
            accounting: None,
            comparison: None,
        }
    }

    /// Rows that are not error rows.
    pub fn answered(&self) -> u64 {
        self.rows - self.errors
    }

    /// Counts one row.
    pub fn add(&mut self, row: &SiteRow) {
        self.rows += 1;
        self.captures += u64::from(row.captures);
        if row.is_error() {
            self.errors += 1;
            return;
        }
        match row.crawlers.first().and_then(|c| c.cause) {
            Some(Cause::Unreachable) => self.unreachable += 1,
            Some(Cause::Redirected) => self.redirected += 1,
            Some(cause) => {
                self.chosen += 1;
                self.not_robots_txt += u64::from(cause == Cause::NotRobotsTxt);
                self.no_robots_txt += u64::from(cause == Cause::NoRobotsTxt);
                self.robots_txt +=
                    u64::from(!matches!(cause, Cause::NotRobotsTxt | Cause::NoRobotsTxt));
            }
            None => {}
        }
        self.followed += u64::from(row.followed.is_some());
        if let Some(outcome) = row.outcome {
            self.outcomes[match outcome {
                crawlgate_answers::OutcomeKind::FullAllow => 0,
                crawlgate_answers::OutcomeKind::FullDisallow => 1,
                crawlgate_answers::OutcomeKind::Conditional => 2,
            }] += 1;
        }
        self.statuses[match row.status {
            None => 0,
            Some(s @ 100..=599) => usize::from(s / 100),
            Some(_) => 6,
        }] += 1;
        // A file without a status (a folder's, a table line's) is read as
        // served with 200; a network failure has no status either, and is
        // an outage.
        self.files_without_status += u64::from(
            row.status.is_none()
                && row
                    .crawlers
                    .first()
                    .is_some_and(|c| c.cause != Some(Cause::Unreachable)),
        );
        if let Some(class) = row.fetch_class {
            self.fetch_classes[class as usize] += 1;
        }
        if let Some(class) = row.cc_class {
            self.cc_classes[class as usize] += 1;
        }
        let flag = |value: Option<bool>| u64::from(value == Some(true));
        self.html += flag(row.html);
        self.over_limit += flag(row.over_limit);
        self.with_sitemaps += u64::from(row.sitemaps.unwrap_or(0) > 0);
        self.with_crawl_delay += u64::from(row.crawl_delay.is_some());
        self.with_content_signal += u64::from(row.content_signal.is_some());
        self.with_content_usage += u64::from(row.content_usage.is_some());
        self.with_license += u64::from(row.licenses.unwrap_or(0) > 0);
        self.with_unused_directives += u64::from(row.sc_unused.unwrap_or(0) > 0);
        self.with_unknown_lines += u64::from(row.sc_unknown.unwrap_or(0) > 0);
        if let Some(lint) = &row.lint {
            let bucket = row.size.map_or(0, |size| {
                SIZE_BOUNDS
                    .iter()
                    .position(|&b| size <= b)
                    .unwrap_or(SIZE_BOUNDS.len())
            });
            self.sizes[bucket] += 1;
            self.with_lint_errors += u64::from(lint.errors > 0);
            for (sites, &n) in self.lint_sites.iter_mut().zip(&lint.by_code) {
                *sites += u64::from(n > 0);
            }
        }
        let mut blocks_ai = false;
        // Whether an AI crawler is blocked fully by a group naming its own
        // token, a shared one, a generic word, or a fallback.
        let mut bound = [false; 4];
        for (tally, verdict) in self.crawlers.iter_mut().zip(&row.crawlers) {
            if let Some(cause) = verdict.cause {
                tally.causes[cause as usize] += 1;
                tally.partly_by_name += u64::from(
                    cause == Cause::PartlyBlocked
                        && matches!(verdict.group, Some(GroupKind::Named | GroupKind::Fallback)),
                );
                blocks_ai |= tally.ai && cause.is_blocked();
                if tally.ai && cause == Cause::BlockedByName {
                    let how = match (verdict.group, tally.token_use) {
                        (Some(GroupKind::Named), TokenUse::Own) => 0,
                        (Some(GroupKind::Named), TokenUse::Shared) => 1,
                        (Some(GroupKind::Named), TokenUse::Generic) => 2,
                        _ => 3,
                    };
                    bound[how] = true;
                }
            }
            tally.root[match verdict.root {
                Some(true) => 0,
                Some(false) => 1,
                None => 2,
            }] += 1;
            for (counts, &allowed) in tally.paths.iter_mut().zip(&verdict.paths) {
                counts[usize::from(!allowed)] += 1;
            }
            if let Some(said) = verdict.prefs.as_deref().and_then(preferences::stated) {
                tally.preferences += 1;
                *tally.preference_values.entry(said).or_default() += 1;
            }
        }
        self.blocking_ai += u64::from(blocks_ai);
        // Each row once, by the plainest intent it shows.
        match bound.iter().position(|&b| b) {
            Some(0) => self.blocking_ai_by_name += 1,
            Some(1) => self.blocking_ai_by_shared_token += 1,
            Some(2) => self.blocking_ai_by_generic_token += 1,
            Some(_) => self.blocking_ai_by_fallback += 1,
            None => {}
        }
        self.blocking_ai_by_group += u64::from(bound.contains(&true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::LintCounts;
    use crate::verdict::CrawlerVerdict;

    fn verdicts(causes: [Cause; 3]) -> Vec<CrawlerVerdict> {
        causes
            .iter()
            .map(|&cause| CrawlerVerdict {
                root: Some(!cause.is_blocked() && cause != Cause::Unreachable),
                cause: Some(cause),
                group: (cause == Cause::BlockedByName).then_some(GroupKind::Named),
                ..CrawlerVerdict::default()
            })
            .collect()
    }

    #[test]
    fn outages_are_counted_beside_choices_never_inside() {
        let set = CrawlerSet::from_tokens(["GPTBot", "Googlebot", "*"]).unwrap();
        let mut summary = Summary::new(&set, &[]);
        summary.add(&SiteRow {
            outcome: Some(crawlgate_answers::OutcomeKind::Conditional),
            status: Some(200),
            size: Some(150),
            html: Some(false),
            captures: 2,
            lint: Some(LintCounts {
                errors: 1,
                by_code: vec![1; findings::codes().len()],
                ..LintCounts::default()
            }),
            crawlers: verdicts([Cause::BlockedByName, Cause::Allowed, Cause::PartlyBlocked]),
            ..SiteRow::default()
        });
        summary.add(&SiteRow {
            outcome: Some(crawlgate_answers::OutcomeKind::FullDisallow),
            status: Some(503),
            captures: 1,
            crawlers: verdicts([Cause::Unreachable; 3]),
            ..SiteRow::default()
        });
        summary.add(&SiteRow::error(None, "x".into(), "bad".into()));
        assert_eq!(
            (
                summary.rows,
                summary.errors,
                summary.answered(),
                summary.captures
            ),
            (3, 1, 2, 4)
        );
        assert_eq!((summary.chosen, summary.unreachable), (1, 1));
        assert_eq!(summary.outcomes, [0, 1, 1]);
        assert_eq!(summary.statuses[2..6], [1, 0, 0, 1]);
        assert_eq!(summary.sizes[2], 1);
        let gptbot = &summary.crawlers[0];
        assert_eq!((gptbot.blocked(), gptbot.count(Cause::Unreachable)), (1, 1));
        assert_eq!(gptbot.root, [0, 2, 0]);
        assert!(summary.crawlers[0].ai && !summary.crawlers[1].ai);
        assert_eq!((summary.blocking_ai, summary.blocking_ai_by_name), (1, 1));
        assert_eq!(summary.lint_sites[0], 1);
        assert_eq!(size_label(6), "over 500 KiB");
    }

    /// A row per way of naming an AI crawler: each counted once, by its
    /// plainest intent, and the four ways add up to the effect.
    #[test]
    fn ai_blocks_by_own_token_are_told_apart_from_fallbacks_clashes_and_words() {
        let tokens = ["GPTBot", "YandexAdditional", "ExaBot", "Spider", "*"];
        let set = CrawlerSet::from_tokens(tokens).unwrap();
        let mut summary = Summary::new(&set, &[]);
        for body in [
            "User-agent: GPTBot\nDisallow: /\n",
            "User-agent: Yandex\nDisallow: /\n",
            "User-agent: Exabot\nDisallow: /\n",
            "User-agent: Spider\nDisallow: /\n",
            "User-agent: Spider\nUser-agent: Yandex\nDisallow: /\n",
            "User-agent: GPTBot\nUser-agent: Exabot\nDisallow: /\n",
            "User-agent: *\nDisallow: /\n",
            "User-agent: *\nDisallow: /admin/\n",
        ] {
            let robots = crawlgate::RobotsTxt::parse(body.as_bytes());
            let reader = crate::verdict::Reader::new(&robots, &[]);
            summary.add(&SiteRow {
                crawlers: tokens.iter().map(|t| reader.verdict(t)).collect(),
                ..SiteRow::default()
            });
        }
        assert_eq!(
            (
                summary.blocking_ai_by_name,
                summary.blocking_ai_by_shared_token,
                summary.blocking_ai_by_generic_token,
                summary.blocking_ai_by_fallback,
                summary.blocking_ai_by_group,
                summary.blocking_ai,
            ),
            (2, 1, 2, 1, 6, 7)
        );
        let star = summary.crawlers.last().unwrap();
        assert_eq!(star.count(Cause::HousekeepingBlocked), 1);
        assert_eq!(
            summary
                .crawlers
                .iter()
                .map(|c| c.token_use)
                .collect::<Vec<_>>(),
            [
                TokenUse::Own,
                TokenUse::Own,
                TokenUse::Shared,
                TokenUse::Generic,
                TokenUse::Own
            ]
        );
    }

    #[test]
    fn preferences_are_counted_per_crawler_by_what_they_state() {
        let set = CrawlerSet::from_tokens(["GPTBot", "Googlebot", "*"]).unwrap();
        let mut summary = Summary::new(&set, &[]);
        let said = |body: &[u8], token: &str| {
            let robots = crawlgate::RobotsTxt::parse(body);
            crate::preferences::column_value(
                crate::verdict::crawler_view(&robots, token)
                    .0
                    .preferences("/"),
            )
        };
        for body in [
            &b"User-agent: *\nContent-Signal: search=yes, ai-train=no\n"[..],
            b"User-agent: *\nContent-Signal: ai-train=no, search=yes\nContent-Usage: /x/ train-ai=y\n",
            b"User-agent: GPTBot\nContent-Usage: train-ai=n\n",
        ] {
            let mut crawlers = verdicts([Cause::Allowed; 3]);
            for (verdict, token) in crawlers.iter_mut().zip(["GPTBot", "Googlebot", "*"]) {
                verdict.prefs = said(body, token);
            }
            summary.add(&SiteRow {
                crawlers,
                ..SiteRow::default()
            });
        }
        let gptbot = &summary.crawlers[0];
        assert_eq!(gptbot.preferences, 3);
        assert_eq!(
            gptbot.common_preferences(5),
            [
                ("content-signal search=yes ai-train=no", 2),
                ("content-usage train-ai=n ai-use=unknown search=unknown", 1)
            ]
        );
        assert_eq!(summary.crawlers[1].preferences, 2);
        assert_eq!(summary.crawlers[1].common_preferences(1).len(), 1);
    }
}
