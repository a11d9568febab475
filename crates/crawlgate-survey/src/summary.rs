//! The survey's figures, gathered row by row in constant memory: what the
//! HTML report shows.

use crawlgate_fetch::OutcomeKind;

use crate::classify::Class;
use crate::compare::Comparison;
use crate::crawlers::{is_ai, CrawlerSet};
use crate::findings;
use crate::row::SiteRow;

/// The upper bounds (inclusive, bytes) of the size buckets; a last bucket
/// holds bodies over crawlers' limit.
pub const SIZE_BOUNDS: [u64; 6] = [0, 100, 1_000, 10_000, 100_000, crawlgate::MAX_BYTES as u64];

/// The label of size bucket `i` (`SIZE_BOUNDS.len()` is the last one).
pub fn size_label(i: usize) -> &'static str {
    [
        "empty",
        "1–100 B",
        "101 B–1 kB",
        "1–10 kB",
        "10–100 kB",
        "100–500 kB",
        "over 500 KiB",
    ][i.min(SIZE_BOUNDS.len())]
}

/// One crawler's classes over the sites answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlerTally {
    /// Its product token.
    pub token: String,
    /// Its column stem.
    pub column: String,
    /// Whether the crawler table lists it as an AI crawler.
    pub ai: bool,
    /// Who runs it, from the crawler table (empty when not listed).
    pub operator: String,
    /// What it crawls for, in words (empty when not listed).
    pub purpose: String,
    /// Sites per class, in the order of [`Class::ALL`].
    pub classes: [u64; 4],
}

impl CrawlerTally {
    /// Sites of one class.
    pub fn count(&self, class: Class) -> u64 {
        self.classes[class as usize]
    }
}

/// The figures of a survey.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Rows written.
    pub rows: u64,
    /// Error rows among them.
    pub errors: u64,
    /// Rows per outcome: full allow, full disallow, conditional.
    pub outcomes: [u64; 3],
    /// Rows per HTTP status class: none (a file), 1xx, 2xx, 3xx, 4xx, 5xx,
    /// other.
    pub statuses: [u64; 7],
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
    /// Rows that block (fully) at least one AI crawler of the survey.
    pub blocking_ai: u64,
    /// Rows with a parsed file, per size bucket (see [`SIZE_BOUNDS`]).
    pub sizes: [u64; SIZE_BOUNDS.len() + 1],
    /// Rows with at least one finding of each lint code (in the order of
    /// [`findings::codes`]).
    pub lint_sites: Vec<u64>,
    /// Rows with at least one lint error.
    pub with_lint_errors: u64,
    /// Per crawler.
    pub crawlers: Vec<CrawlerTally>,
    /// The change since an earlier survey, when one was given.
    pub comparison: Option<Comparison>,
}

impl Summary {
    /// An empty summary for a set of crawlers.
    pub fn new(crawlers: &CrawlerSet) -> Summary {
        Summary {
            rows: 0,
            errors: 0,
            outcomes: [0; 3],
            statuses: [0; 7],
            html: 0,
            over_limit: 0,
            with_sitemaps: 0,
            with_crawl_delay: 0,
            with_content_signal: 0,
            with_content_usage: 0,
            blocking_ai: 0,
            sizes: [0; SIZE_BOUNDS.len() + 1],
            lint_sites: vec![0; findings::codes().len()],
            with_lint_errors: 0,
            crawlers: crawlers
                .iter()
                .map(|c| CrawlerTally {
                    token: c.token.clone(),
                    column: c.column.clone(),
                    ai: c.known.is_some_and(is_ai),
                    operator: c.known.map(|k| k.operator.to_owned()).unwrap_or_default(),
                    purpose: c
                        .known
                        .map(|k| k.purpose.describe().to_owned())
                        .unwrap_or_default(),
                    classes: [0; 4],
                })
                .collect(),
            comparison: None,
        }
    }

    /// Rows that are not error rows: the denominator of every share.
    pub fn answered(&self) -> u64 {
        self.rows - self.errors
    }

    /// Counts one row.
    pub fn add(&mut self, row: &SiteRow) {
        self.rows += 1;
        if row.is_error() {
            self.errors += 1;
            return;
        }
        if let Some(outcome) = row.outcome {
            self.outcomes[match outcome {
                OutcomeKind::FullAllow => 0,
                OutcomeKind::FullDisallow => 1,
                OutcomeKind::Conditional => 2,
            }] += 1;
        }
        self.statuses[match row.status {
            None => 0,
            Some(s @ 100..=599) => usize::from(s / 100),
            Some(_) => 6,
        }] += 1;
        let flag = |value: Option<bool>| u64::from(value == Some(true));
        self.html += flag(row.html);
        self.over_limit += flag(row.over_limit);
        self.with_sitemaps += u64::from(row.sitemaps.unwrap_or(0) > 0);
        self.with_crawl_delay += u64::from(row.crawl_delay.is_some());
        self.with_content_signal += u64::from(row.content_signal.is_some());
        self.with_content_usage += u64::from(row.content_usage.is_some());
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
        for (tally, c) in self.crawlers.iter_mut().zip(&row.crawlers) {
            tally.classes[c.class as usize] += 1;
            blocks_ai |= tally.ai && c.class == Class::Blocked;
        }
        self.blocking_ai += u64::from(blocks_ai);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::Classification;
    use crate::findings::LintCounts;

    #[test]
    fn rows_are_counted_once_each() {
        let set = CrawlerSet::from_tokens(["GPTBot", "Googlebot", "*"]).unwrap();
        let mut summary = Summary::new(&set);
        let classes = |c: [Class; 3]| {
            c.iter()
                .map(|&class| Classification { class, line: None })
                .collect()
        };
        summary.add(&SiteRow {
            outcome: Some(OutcomeKind::Conditional),
            status: Some(200),
            size: Some(150),
            html: Some(false),
            lint: Some(LintCounts {
                errors: 1,
                by_code: vec![1; findings::codes().len()],
                ..LintCounts::default()
            }),
            crawlers: classes([Class::Blocked, Class::Allowed, Class::Partial]),
            ..SiteRow::default()
        });
        summary.add(&SiteRow {
            outcome: Some(OutcomeKind::FullDisallow),
            status: Some(503),
            crawlers: classes([Class::Blocked; 3]),
            ..SiteRow::default()
        });
        summary.add(&SiteRow::error(None, "x".into(), "bad".into()));
        assert_eq!(
            (summary.rows, summary.errors, summary.answered()),
            (3, 1, 2)
        );
        assert_eq!(summary.outcomes, [0, 1, 1]);
        assert_eq!(summary.statuses[2..6], [1, 0, 0, 1]);
        assert_eq!(summary.sizes[2], 1);
        assert_eq!(summary.crawlers[0].count(Class::Blocked), 2);
        assert!(summary.crawlers[0].ai && !summary.crawlers[1].ai);
        assert_eq!(summary.blocking_ai, 2);
        assert_eq!(summary.lint_sites[0], 1);
        assert_eq!(size_label(6), "over 500 KiB");
    }
}
