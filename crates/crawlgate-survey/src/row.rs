//! One row per site: what its robots.txt fetch gave and what the file says
//! to each crawler.

use crawlgate_answers::{OutcomeKind, OutcomeReason};
use serde::{Deserialize, Serialize};

use crate::findings::LintCounts;
use crate::taxonomy::{FetchClass, HostClass};
use crate::verdict::{Cause, CrawlerVerdict};

/// What a survey found for one site. An error row (the input could not be
/// read) has `error` set, and nothing but `host` (when known), `source`,
/// `offset`, `url`, `captured` and `size` (when known) besides.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteRow {
    /// The site's host, when known: lowercase, punycode, `:port` when not
    /// the scheme's default.
    pub host: Option<String>,
    /// Where the row came from (file, `file:line`, `file@offset`, URL).
    pub source: String,
    /// Where the capture starts in its input, in bytes, when it has a
    /// place (a WARC record or gzip member, a table's line).
    pub offset: Option<u64>,
    /// Why the input gave no answer: the row is an error row.
    pub error: Option<String>,
    /// The URL captured, when known.
    pub url: Option<String>,
    /// When it was captured (`WARC-Date`; the time of a live fetch).
    pub captured: Option<String>,
    /// How many captures of this host the input held: the row is the
    /// latest, the others are counted here (1 for an error row).
    pub captures: u32,
    /// The HTTP status (none for a file given without one, or a network
    /// failure).
    pub status: Option<u16>,
    /// The status as Common Crawl classifies it.
    pub fetch_class: Option<FetchClass>,
    /// The host as Common Crawl's statistics count it (after following
    /// redirects).
    pub cc_class: Option<HostClass>,
    /// Full allow, full disallow or conditional (RFC 9309 §2.3.1), for the
    /// capture that answered; None when nothing answered.
    pub outcome: Option<OutcomeKind>,
    /// Why the fetch gave that outcome.
    pub reason: Option<OutcomeReason>,
    /// The `Content-Type` of the body that answered.
    pub content_type: Option<String>,
    /// The media type the archive identified in that body.
    pub payload_type: Option<String>,
    /// The `Location` of a redirect.
    pub location: Option<String>,
    /// The URL of the capture that answered, when a redirect was followed
    /// to it.
    pub followed: Option<String>,
    /// The body's size in bytes.
    pub size: Option<u64>,
    /// Whether the body is larger than crawlers read (500 KiB).
    pub over_limit: Option<bool>,
    /// Whether the site served HTML: a `text/html` content type on a
    /// success, or a body that is an HTML page (lint `R017`).
    pub html: Option<bool>,
    /// Groups in the file.
    pub groups: Option<u32>,
    /// Allow and disallow lines in the file.
    pub rules: Option<u32>,
    /// `Sitemap:` lines in the file.
    pub sitemaps: Option<u32>,
    /// The crawl-delay of the `*` groups, in seconds.
    pub crawl_delay: Option<f64>,
    /// The `Content-Usage` records of the `*` groups, as written, joined by
    /// `; `.
    pub content_usage: Option<String>,
    /// The first `Content-Signal` value of the `*` groups.
    pub content_signal: Option<String>,
    /// `License:` lines (RSL 1.0) in the file.
    pub licenses: Option<u32>,
    /// Search Console's count of valid directives (user-agent, allow,
    /// disallow, sitemap lines), as Google's reporting library counts them.
    pub sc_valid: Option<u32>,
    /// Search Console's count of unused directives: `key: value` lines
    /// whose key Google does not use, unknown keys included, as Google's
    /// reporting library counts them.
    pub sc_unused: Option<u32>,
    /// Lines Search Console tags as unknown (a key Google does not know).
    pub sc_unknown: Option<u32>,
    /// The linter's findings (none without a file).
    pub lint: Option<LintCounts>,
    /// One verdict per crawler of the survey, in its order (empty in an
    /// error row).
    #[serde(with = "distinct_verdicts")]
    pub crawlers: Vec<CrawlerVerdict>,
}

impl SiteRow {
    /// An error row.
    pub fn error(host: Option<String>, source: String, reason: String) -> SiteRow {
        SiteRow {
            host,
            source,
            error: Some(reason),
            captures: 1,
            ..SiteRow::default()
        }
    }

    /// Whether it is an error row.
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Whether it is a redirect not (yet) followed to a capture.
    pub fn is_unresolved_redirect(&self) -> bool {
        !self.is_error()
            && self.outcome.is_none()
            && self
                .crawlers
                .first()
                .is_some_and(|c| c.cause == Some(Cause::Redirected) && c.root.is_none())
    }

    /// The absolute URL a redirect points to: its `Location` read against
    /// the captured URL.
    ///
    /// ```
    /// use crawlgate_survey::SiteRow;
    /// let row = SiteRow {
    ///     url: Some("http://example.com/robots.txt".into()),
    ///     location: Some("https://www.example.com/robots.txt".into()),
    ///     ..SiteRow::default()
    /// };
    /// assert_eq!(row.redirect_target().as_deref(), Some("https://www.example.com/robots.txt"));
    /// ```
    pub fn redirect_target(&self) -> Option<String> {
        let location = self.location.as_deref()?.trim();
        let base = self.url.as_deref()?;
        url::Url::parse(base)
            .and_then(|base| base.join(location))
            .ok()
            .map(String::from)
    }

    /// Takes every answer of `answer` (the capture a redirect led to),
    /// keeping what says where this row came from and what it was.
    #[cfg(feature = "files")]
    pub(crate) fn answered_by(&mut self, answer: &SiteRow, followed: String) {
        let own = std::mem::take(self);
        *self = SiteRow {
            host: own.host,
            source: own.source,
            offset: own.offset,
            error: None,
            url: own.url,
            captured: own.captured,
            captures: own.captures,
            status: own.status,
            fetch_class: own.fetch_class,
            location: own.location,
            followed: Some(followed),
            ..answer.clone()
        };
    }
}

/// A row's verdicts stored once each, with one index per crawler: most
/// crawlers of a survey get the same answer from a site, so a row of 160
/// crawlers holds two or three distinct verdicts.
mod distinct_verdicts {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::verdict::CrawlerVerdict;

    pub fn serialize<S: Serializer>(
        verdicts: &[CrawlerVerdict],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut distinct: Vec<&CrawlerVerdict> = Vec::new();
        let mut indices = Vec::with_capacity(verdicts.len());
        // Neighbours mostly share a verdict: the last one found is tried
        // first, so a row costs about one comparison per crawler rather
        // than one per crawler and distinct verdict (the indices are the
        // same either way: each verdict is stored once, in first-seen order).
        let mut last = None;
        for verdict in verdicts {
            let index = match last.filter(|&i: &usize| distinct[i] == verdict) {
                Some(index) => index,
                None => match distinct.iter().position(|d| *d == verdict) {
                    Some(index) => index,
                    None => {
                        distinct.push(verdict);
                        distinct.len() - 1
                    }
                },
            };
            last = Some(index);
            indices.push(index);
        }
        (distinct, indices).serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<CrawlerVerdict>, D::Error> {
        let (distinct, indices): (Vec<CrawlerVerdict>, Vec<usize>) =
            Deserialize::deserialize(deserializer)?;
        // Sized at once: collecting `Result`s would grow it a step at a time.
        let mut verdicts = Vec::with_capacity(indices.len());
        for i in indices {
            let verdict = distinct
                .get(i)
                .ok_or_else(|| D::Error::custom("a verdict index out of range"))?;
            verdicts.push(verdict.clone());
        }
        Ok(verdicts)
    }
}

/// The word written for an outcome kind (`full_allow`).
pub fn outcome_word(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::FullAllow => "full_allow",
        OutcomeKind::FullDisallow => "full_disallow",
        OutcomeKind::Conditional => "conditional",
    }
}

/// The outcome kind written as `word`.
#[cfg(feature = "files")]
pub fn outcome_of_word(word: &str) -> Option<OutcomeKind> {
    [
        OutcomeKind::FullAllow,
        OutcomeKind::FullDisallow,
        OutcomeKind::Conditional,
    ]
    .into_iter()
    .find(|k| outcome_word(*k) == word)
}

/// The word written for an outcome reason (`server_error`), as the fetch
/// crate serialises it.
pub fn reason_word(reason: OutcomeReason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{reason:?}"))
}

/// The outcome reason written as `word`.
#[cfg(feature = "files")]
pub fn reason_of_word(word: &str) -> Option<OutcomeReason> {
    serde_json::from_value(serde_json::Value::String(word.to_owned())).ok()
}
