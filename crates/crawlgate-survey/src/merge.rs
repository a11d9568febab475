//! From sorted runs of captures to the table: one row per host (the latest
//! capture, the others counted), redirects followed to the captures they
//! lead to, error rows after them.
//!
//! Captures of one host arrive together (runs are sorted by host, then
//! time, then input order), so the latest is the last of its group. A
//! redirect is followed, up to five hops as Google does, to the capture
//! the input holds for its target: within the group when it stays on the
//! host (`http://` to `https://`: the latest capture of the target URL),
//! else to the target host's row. Following another host needs its row
//! before the redirect's is written, so when the table has redirects
//! across hosts the runs are merged three times: once to find the hosts
//! redirected to, once to keep those hosts' rows (memory: one row per such
//! host), once to write the table.

use std::collections::BinaryHeap;

use crawlgate_answers::{Origin, OutcomeKind, OutcomeReason};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::capture::host_of;
use crate::checkpoint::{CheckpointError, Keyed, RunReader};
use crate::row::SiteRow;
use crate::taxonomy::HostClass;
use crate::verdict::{Cause, CrawlerVerdict};

/// The most redirects followed (RFC 9309 §2.3.1.2: at least five).
pub const MAX_HOPS: usize = 5;

/// Sorted rows: in memory, or a run file.
pub enum Source {
    /// Rows in memory, sorted.
    Memory(std::vec::IntoIter<Keyed>),
    /// A run file.
    Run(Box<RunReader>),
}

impl Source {
    fn next_row(&mut self) -> Result<Option<Keyed>, CheckpointError> {
        match self {
            Source::Memory(rows) => Ok(rows.next()),
            Source::Run(reader) => reader.next_row(),
        }
    }
}

/// One source's next row, ordered for a min-heap.
struct Head {
    row: Keyed,
    source: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.row == other.row && self.source == other.source
    }
}

impl Eq for Head {}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Reversed: BinaryHeap pops the greatest.
        other
            .row
            .cmp(&self.row)
            .then(other.source.cmp(&self.source))
    }
}

/// Several sorted sources as one sorted stream.
pub struct Merged {
    sources: Vec<Source>,
    heap: BinaryHeap<Head>,
}

impl Merged {
    /// Merges `sources`.
    pub fn new(mut sources: Vec<Source>) -> Result<Merged, CheckpointError> {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(row) = source.next_row()? {
                heap.push(Head { row, source: i });
            }
        }
        Ok(Merged { sources, heap })
    }

    /// The next row in order.
    pub fn next_row(&mut self) -> Result<Option<Keyed>, CheckpointError> {
        let Some(Head { row, source }) = self.heap.pop() else {
            return Ok(None);
        };
        if let Some(next) = self.sources[source].next_row()? {
            self.heap.push(Head { row: next, source });
        }
        Ok(Some(row))
    }

    /// The next group: every row of one host, or one row standing alone.
    pub fn next_group(&mut self) -> Result<Option<Vec<Keyed>>, CheckpointError> {
        let Some(first) = self.next_row()? else {
            return Ok(None);
        };
        let mut group = vec![first];
        if group[0].host().is_some() {
            while self
                .heap
                .peek()
                .is_some_and(|next| next.row.host().is_some() && next.row.host() == group[0].host())
            {
                let next = self.next_row()?.expect("peeked");
                group.push(next);
            }
        }
        Ok(Some(group))
    }
}

/// Scheme, host, port, path and query of a URL (not its fragment, which
/// is never sent), for telling whether two name the same resource:
/// `/robots.txt?x` is another URL than `/robots.txt`.
fn resource(url: &str) -> Option<(String, String, Option<u16>, String)> {
    let parsed = url::Url::parse(url).ok()?;
    let mut path = parsed.path().to_owned();
    if let Some(query) = parsed.query() {
        path.push('?');
        path.push_str(query);
    }
    Some((
        parsed.scheme().to_owned(),
        parsed.host_str()?.to_ascii_lowercase(),
        parsed.port_or_known_default(),
        path,
    ))
}

/// The host key of a URL, as rows are grouped.
fn host_key(url: &str) -> Option<String> {
    Origin::from_url(url).ok().map(|o| host_of(&o))
}

/// A group's outcome: its row, and where it still points when its redirect
/// leaves the host.
pub struct Resolved {
    /// The row (the latest capture, answered by the capture its
    /// redirects lead to on this host).
    pub row: SiteRow,
    /// The redirect target on another host, still to follow, and the hops
    /// made so far.
    pub elsewhere: Option<(String, usize)>,
}

/// Marks a redirect that loops or goes on too long: read as a 404
/// (everything allowed), its cause `redirected`.
fn give_up(row: &mut SiteRow, paths: usize) {
    row.outcome = Some(OutcomeKind::FullAllow);
    row.reason = Some(OutcomeReason::RedirectsNotFollowed);
    row.cc_class = Some(HostClass::HttpRedirectNotResolved);
    let count = row.crawlers.len();
    row.crawlers = vec![CrawlerVerdict::without_rules(true, Cause::Redirected, paths); count];
}

/// Resolves one group: the latest capture, its redirects followed within
/// the host.
pub fn resolve_group(group: Vec<Keyed>, paths: usize) -> Resolved {
    let captures = u32::try_from(group.len()).unwrap_or(u32::MAX);
    let mut rows: Vec<SiteRow> = group.into_iter().map(|k| k.row).collect();
    let mut own = rows.pop().expect("a group holds a row");
    own.captures = captures;
    if own.is_error() {
        return Resolved {
            row: own,
            elsewhere: None,
        };
    }
    let host = own.host.clone();
    let unchanged = |own: SiteRow| Resolved {
        row: own,
        elsewhere: None,
    };
    if !own.is_unresolved_redirect() {
        return unchanged(own); // the common case: no redirect to follow
    }
    let mut current = own.clone();
    let mut visited = vec![own.url.as_deref().and_then(resource)];
    let mut hops = 0;
    loop {
        if !current.is_unresolved_redirect() {
            if hops > 0 {
                let followed = current.url.clone().unwrap_or_default();
                own.answered_by(&current, followed);
            }
            return unchanged(own);
        }
        let Some(target) = current.redirect_target() else {
            return unchanged(own);
        };
        if hops == MAX_HOPS {
            give_up(&mut own, paths);
            return unchanged(own);
        }
        hops += 1;
        if host_key(&target) != host {
            return Resolved {
                row: own,
                elsewhere: Some((target, hops)),
            };
        }
        let Some(wanted) = resource(&target) else {
            return unchanged(own);
        };
        if visited.contains(&Some(wanted.clone())) {
            give_up(&mut own, paths);
            return unchanged(own);
        }
        visited.push(Some(wanted.clone()));
        // The latest capture of the target URL.
        let found = std::iter::once(&own)
            .chain(rows.iter().rev())
            .find(|r| r.url.as_deref().and_then(resource).as_ref() == Some(&wanted));
        match found {
            Some(next) => current = next.clone(),
            None => return unchanged(own),
        }
    }
}

/// The rows of other hosts that redirects lead to, resolved on their own
/// host.
#[derive(Default)]
pub struct Answers {
    rows: FxHashMap<String, Resolved>,
}

impl Answers {
    /// Keeps `resolved`, the row of `host`.
    pub fn keep(&mut self, host: String, resolved: Resolved) {
        self.rows.insert(host, resolved);
    }

    /// Hosts kept.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Follows `own`'s redirect to `target` (after `hops` hops) through
    /// the rows kept.
    pub fn follow(&self, own: &mut SiteRow, target: String, hops: usize, paths: usize) {
        let mut target = target;
        let mut hops = hops;
        let mut seen = FxHashSet::default();
        loop {
            let Some(host) = host_key(&target) else {
                return;
            };
            let Some(answer) = self.rows.get(&host) else {
                // The input does not hold the target: no answer.
                return;
            };
            if !seen.insert(host) {
                give_up(own, paths);
                return;
            }
            match &answer.elsewhere {
                None if answer.row.is_unresolved_redirect() || answer.row.is_error() => return,
                None => {
                    let followed = answer
                        .row
                        .followed
                        .clone()
                        .or_else(|| answer.row.url.clone())
                        .unwrap_or(target);
                    own.answered_by(&answer.row, followed);
                    return;
                }
                Some((next, more)) => {
                    hops += more;
                    if hops > MAX_HOPS {
                        give_up(own, paths);
                        return;
                    }
                    target = next.clone();
                }
            }
        }
    }
}

/// The host a row's cross-host redirect leads to.
pub fn target_host(resolved: &Resolved) -> Option<String> {
    resolved.elsewhere.as_ref().and_then(|(t, _)| host_key(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::SiteRow;

    fn capture(
        host: &str,
        url: &str,
        date: &str,
        item: u64,
        status: u16,
        location: Option<&str>,
    ) -> Keyed {
        let redirect = (300..400).contains(&status);
        let row = SiteRow {
            host: Some(host.into()),
            url: Some(url.into()),
            captured: Some(date.into()),
            captures: 1,
            status: Some(status),
            location: location.map(str::to_owned),
            outcome: (!redirect).then_some(OutcomeKind::Conditional),
            crawlers: vec![if redirect {
                CrawlerVerdict::unanswered(Cause::Redirected)
            } else {
                CrawlerVerdict::without_rules(true, Cause::Allowed, 0)
            }],
            ..SiteRow::default()
        };
        Keyed::new(row, 0, item)
    }

    #[test]
    fn the_latest_capture_wins_and_the_others_are_counted() {
        let group = vec![
            capture(
                "a.example",
                "https://a.example/robots.txt",
                "2026-01-01T00:00:00Z",
                0,
                200,
                None,
            ),
            capture(
                "a.example",
                "https://a.example/robots.txt",
                "2026-02-01T00:00:00Z",
                1,
                503,
                None,
            ),
        ];
        let resolved = resolve_group(group, 0);
        assert_eq!((resolved.row.status, resolved.row.captures), (Some(503), 2));
    }

    #[test]
    fn a_redirect_on_the_host_is_followed_to_the_latest_capture_of_its_target() {
        let group = vec![
            capture(
                "a.example",
                "https://a.example/robots.txt",
                "2026-01-01T00:00:00Z",
                0,
                200,
                None,
            ),
            capture(
                "a.example",
                "http://a.example/robots.txt",
                "2026-01-02T00:00:00Z",
                1,
                301,
                Some("https://a.example/robots.txt"),
            ),
        ];
        let resolved = resolve_group(group, 0);
        assert!(resolved.elsewhere.is_none());
        assert_eq!(resolved.row.status, Some(301));
        assert_eq!(
            resolved.row.followed.as_deref(),
            Some("https://a.example/robots.txt")
        );
        assert_eq!(resolved.row.crawlers[0].cause, Some(Cause::Allowed));
        assert_eq!(resolved.row.captures, 2);
    }

    #[test]
    fn loops_give_up_and_missing_targets_give_no_answer() {
        let group = vec![
            capture(
                "a.example",
                "https://a.example/robots.txt",
                "2026-01-01T00:00:00Z",
                0,
                302,
                Some("http://a.example/robots.txt"),
            ),
            capture(
                "a.example",
                "http://a.example/robots.txt",
                "2026-01-02T00:00:00Z",
                1,
                301,
                Some("https://a.example/robots.txt"),
            ),
        ];
        let row = resolve_group(group, 0).row;
        assert_eq!(row.crawlers[0].cause, Some(Cause::Redirected));
        assert_eq!(row.crawlers[0].root, Some(true));
        assert_eq!(row.reason, Some(OutcomeReason::RedirectsNotFollowed));
        let lonely = vec![capture(
            "a.example",
            "http://a.example/robots.txt",
            "2026-01-02T00:00:00Z",
            1,
            301,
            Some("/robots.txt?x"),
        )];
        let row = resolve_group(lonely, 0).row;
        assert!(row.is_unresolved_redirect());
    }

    #[test]
    fn redirects_to_other_hosts_follow_the_rows_kept() {
        let from = resolve_group(
            vec![capture(
                "a.example",
                "http://a.example/robots.txt",
                "2026-01-01T00:00:00Z",
                0,
                301,
                Some("https://www.a.example/robots.txt"),
            )],
            0,
        );
        assert_eq!(target_host(&from).as_deref(), Some("www.a.example"));
        let mut answers = Answers::default();
        let target = resolve_group(
            vec![capture(
                "www.a.example",
                "https://www.a.example/robots.txt",
                "2026-01-01T00:00:00Z",
                1,
                200,
                None,
            )],
            0,
        );
        answers.keep("www.a.example".into(), target);
        let (url, hops) = from.elsewhere.clone().unwrap();
        let mut row = from.row;
        answers.follow(&mut row, url, hops, 0);
        assert_eq!(row.crawlers[0].cause, Some(Cause::Allowed));
        assert_eq!(row.host.as_deref(), Some("a.example"));
        assert_eq!(
            row.followed.as_deref(),
            Some("https://www.a.example/robots.txt")
        );
        // Two hosts redirecting to each other loop.
        let mut looping = Answers::default();
        let b = resolve_group(
            vec![capture(
                "b.example",
                "https://b.example/robots.txt",
                "2026-01-01T00:00:00Z",
                2,
                301,
                Some("https://c.example/robots.txt"),
            )],
            0,
        );
        let c = resolve_group(
            vec![capture(
                "c.example",
                "https://c.example/robots.txt",
                "2026-01-01T00:00:00Z",
                3,
                301,
                Some("https://b.example/robots.txt"),
            )],
            0,
        );
        let (url, hops) = b.elsewhere.clone().unwrap();
        let mut row = b.row.clone();
        looping.keep("b.example".into(), b);
        looping.keep("c.example".into(), c);
        looping.follow(&mut row, url, hops, 0);
        assert_eq!(
            (row.crawlers[0].cause, row.crawlers[0].root),
            (Some(Cause::Redirected), Some(true))
        );
    }
}
