//! The compiled rules of one audience (the crawlers sharing a set of groups),
//! in precedence order, with their literal heads in a prefix tree.
//!
//! Longest-match precedence becomes an order: longer patterns first, allow
//! before disallow at equal length, file order last; an entry's place in
//! that order is its rank, and the best match is the one of smallest rank.
//! A lookup walks the path down the prefix tree once: the last node it
//! reaches knows the best prefix rule the path matches and the exact rules
//! that match if the path ends there; the globs hanging on the way are tried
//! only while they could still beat that.

use std::cell::Cell;

use crate::model::{RobotsTxt, Str};
use crate::pattern::{self, Shape};
use crate::prefix_tree::{Glob, GlobTest, Head, PrefixTree, NONE};
use crate::profile::{Precedence, Profile};
use crate::scan;
use crate::url_path;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// What the shape matches against (the pattern without a trailing `$`).
    pub body: Str,
    /// Length of the whole normalised pattern: its precedence.
    pub priority: u32,
    /// Index of the rule in the model.
    pub rule: u32,
    pub shape: Shape,
    pub allow: bool,
    /// Matched through Google's `index.html` alias of the rule.
    pub alias: bool,
}

impl Entry {
    /// Whether a path this entry decides is allowed: an allow rule, or,
    /// under longest match, an empty pattern (which allows everything).
    #[inline]
    pub(crate) fn allows(&self, precedence: Precedence) -> bool {
        self.allow || self.priority == 0 && precedence == Precedence::LongestMatch
    }
}

/// Held in place (not boxed) by what keeps it
/// ([`LazyMatcher`](crate::decide::LazyMatcher)), so that the view asked
/// brings what every lookup reads (whether it may read the path in place,
/// the tree's start and where its nodes and glob tables are): a crawler
/// asking about many sites in turn finds each file's tables out of cache,
/// and the nodes are then one wait away from the view, not two. What a
/// lookup that tries globs reads besides (the globs and their segments'
/// bytes) and what a verdict reads (the entries) sit in one allocation,
/// the tree's far tables.
#[derive(Clone, Debug)]
pub(crate) struct Matcher {
    /// Whether the profile matches a URL's path as given (Google's): then
    /// a lookup can read the path straight from the URL.
    pub paths_as_given: bool,
    tree: PrefixTree<Tables>,
}

/// The matcher's tables read with the globs, or for a verdict.
#[derive(Clone, Debug)]
struct Tables {
    /// The bytes of the globs' segments, copied from the text: a lookup
    /// reads no line of the file's text (nor of the parsed file, which
    /// says where the text is).
    segment_bytes: Box<[u8]>,
    /// The literal segments of the globs, as spans of `segment_bytes`.
    segments: Box<[Str]>,
    /// The entries in precedence order: an entry's rank is its position.
    entries: Box<[Entry]>,
}

/// The key the tree knows an entry by: its rank shifted left, with the
/// lowest bit set when the entry allows. Keys order as ranks do, so the
/// best is still the smallest; a yes-or-no answer reads the bit instead
/// of the deciding entry (a cache miss of its own when a crawler asks
/// about many sites in turn). [`NONE`] has the bit set: no rule allows.
#[inline(always)]
fn key(rank: u32, allows: bool) -> u32 {
    rank << 1 | u32::from(allows)
}

impl Matcher {
    /// Compiles the rules of `groups`, but those in `skip` (ascending).
    pub(crate) fn compile(robots: &RobotsTxt, groups: &[u32], skip: &[u32]) -> Matcher {
        let text = robots.text.as_slice();
        let rules: usize = groups
            .iter()
            .map(|&g| robots.groups[g as usize].rules.len())
            .sum();
        let mut in_file_order = Vec::with_capacity(rules + robots.aliases.len().min(rules));
        each_entry(
            robots,
            groups,
            skip,
            |_, _| true,
            |entry| in_file_order.push(entry),
        );
        let entries: Box<[Entry]> = lookup_order(robots.profile.precedence, &in_file_order)
            .into_iter()
            .map(|i| in_file_order[i as usize])
            .collect();
        // Every rank has a key (and NONE's rank is past them all).
        assert!(entries.len() < 1 << 31, "too many rules");
        let mut segments = Vec::new();
        let mut heads: Vec<_> = entries
            .iter()
            .zip(0..)
            .map(|(e, rank)| {
                let rank = key(rank, e.allows(robots.profile.precedence));
                let body = &text[e.body.range()];
                let (len, head) = match e.shape {
                    Shape::Everything => (0, Head::Prefix),
                    Shape::Prefix => (body.len(), Head::Prefix),
                    Shape::Exact => (body.len(), Head::Exact),
                    Shape::Glob | Shape::GlobAnchored | Shape::Restart | Shape::RestartAnchored => {
                        let star = memchr::memchr(b'*', body).unwrap_or(0);
                        // A trailing `*` before `$` frees the end again.
                        let anchored =
                            matches!(e.shape, Shape::GlobAnchored | Shape::RestartAnchored)
                                && !body.ends_with(b"*");
                        let restart = matches!(e.shape, Shape::Restart | Shape::RestartAnchored);
                        let glob = compile_glob(
                            e.body.start,
                            body,
                            star,
                            (rank, anchored, restart),
                            &mut segments,
                        );
                        let needs = byte_set(&body[star..]);
                        (star, Head::Glob { needs, glob })
                    }
                    Shape::Never => unreachable!("rules that match nothing are not compiled"),
                };
                let head_span = Str {
                    start: e.body.start,
                    len: len as u32,
                };
                (head_span, head, rank)
            })
            .collect();
        let segment_bytes = copy_segments(text, &mut segments, &mut heads);
        let tables = Tables {
            segments: segments.into_boxed_slice(),
            segment_bytes,
            entries,
        };
        Matcher {
            tree: PrefixTree::build(text, heads, tables),
            paths_as_given: paths_as_given(&robots.profile),
        }
    }

    /// The heap bytes these compiled rules hold (not the matcher itself,
    /// which is held in place).
    pub(crate) fn heap_size(&self) -> usize {
        let tables = self.tree.extra();
        std::mem::size_of_val(&*tables.entries)
            + std::mem::size_of_val(&*tables.segments)
            + std::mem::size_of_val(&*tables.segment_bytes)
            + self.tree.heap_size()
    }

    /// The entries in precedence order: an entry's rank is its position.
    #[inline]
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.tree.extra().entries
    }

    /// The entry that decides `path` among the rules of `groups`, found by
    /// trying each rule once without compiling them: cheaper than compiling
    /// for a question or a few. Always the entry
    /// [`first_match`](Self::first_match) of the compiled matcher finds.
    pub(crate) fn scan(
        robots: &RobotsTxt,
        groups: &[u32],
        skip: &[u32],
        path: &[u8],
    ) -> Option<Entry> {
        let text = robots.text.as_slice();
        let precedence = robots.profile.precedence;
        let mut best: Option<Entry> = None;
        // Where the best match so far stands: rules that cannot beat it, or
        // that differ from the path early, are skipped before compiling.
        let to_beat = Cell::new(None);
        let worth_trying = |pattern: &[u8], entry: &Entry| {
            to_beat
                .get()
                .is_none_or(|best| precedence_key(precedence, entry) < best)
                && !literally_differs(pattern, path)
        };
        each_entry(robots, groups, skip, worth_trying, |entry| {
            if pattern::matches(entry.shape, &text[entry.body.range()], path) {
                to_beat.set(Some(precedence_key(precedence, &entry)));
                best = Some(entry);
            }
        });
        best
    }

    /// The first entry (in precedence order) that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, path: &[u8]) -> Option<&Entry> {
        self.lookup::<false>(path, 0)
    }

    /// The first entry (in precedence order) that matches the path of
    /// `url`, which starts at `from` (a `/`) and ends at the first `#` or
    /// NUL after it, or at the end.
    #[inline(always)]
    pub(crate) fn first_match_in_url(&self, url: &[u8], from: usize) -> Option<&Entry> {
        self.lookup::<true>(url, from)
    }

    /// Whether the path of `url` (as [`first_match_in_url`](Self::first_match_in_url)
    /// takes it) is allowed: no rule matches it, or the deciding one
    /// allows.
    #[inline(always)]
    pub(crate) fn allows_in_url(&self, url: &[u8], from: usize) -> bool {
        self.best::<true>(url, from) & 1 == 1
    }

    /// The best entry for the path `bytes[from..]`; with `IN_URL`, the path
    /// ends at its first `#` or NUL (which no head holds, so the walk down
    /// the tree stops there by itself).
    #[inline(always)]
    fn lookup<const IN_URL: bool>(&self, bytes: &[u8], from: usize) -> Option<&Entry> {
        // NONE's rank is past any entry.
        self.entries()
            .get((self.best::<IN_URL>(bytes, from) >> 1) as usize)
    }

    /// The [`key`] of the best entry for the path `bytes[from..]` (as
    /// [`lookup`](Self::lookup) takes it), or [`NONE`].
    #[inline(always)]
    fn best<const IN_URL: bool>(&self, bytes: &[u8], from: usize) -> u32 {
        self.tree.prefetch();
        // A path read from a URL starts with its `/`.
        debug_assert!(!IN_URL || bytes.get(from) == Some(&b'/'));
        let (node, at) = self.tree.descend(bytes, from, IN_URL);
        let mut best = node.prefix;
        if node.exact < best && (at == bytes.len() || IN_URL && matches!(bytes[at], b'#' | 0)) {
            best = node.exact;
        }
        // NONE when no node on the way has globs.
        if node.glob_best < best {
            let walk = Walk {
                bytes,
                from,
                at,
                above: node.bytes_above,
            };
            best = self.try_globs::<IN_URL>(walk, node.glob_node, best);
        }
        best
    }

    /// The best of `best` and the globs of `node` and the nodes above it
    /// that match the walked path; only globs that would beat the best so
    /// far are tried.
    fn try_globs<const IN_URL: bool>(&self, walk: Walk<'_>, mut node: u32, mut best: u32) -> u32 {
        // The path's byte set, once a node's globs need it (never 0: the
        // path holds its `/`, and a 0 would only be found again).
        let mut present = 0;
        let mut path = None;
        while node != NONE {
            let link = self.tree.link(node);
            if link.best < best {
                if present == 0 {
                    present = walk.present();
                }
                // Globs are best first: the first that matches decides, and
                // none from the first that cannot beat the best so far.
                let needs = self.tree.needs(link.globs);
                let mut from = 0;
                while let Some(found) = needs.get(from..).and_then(|n| first_within(n, present)) {
                    let glob = self.tree.glob(link.globs.0 as usize + from + found);
                    if glob.rank >= best {
                        break;
                    }
                    // Where the path ends, once a glob needs it.
                    let path = *path.get_or_insert_with(|| walk.path::<IN_URL>(present));
                    if self.glob_matches(glob, path) {
                        best = glob.rank;
                        break;
                    }
                    from += found + 1;
                }
            }
            node = link.above;
        }
        best
    }

    /// Whether `glob` matches `path` past its head: the common shapes
    /// here, the others out of line.
    #[inline(always)]
    fn glob_matches(&self, glob: &Glob, path: &[u8]) -> bool {
        if last_word(path) & glob.tail_mask != glob.tail {
            return false;
        }
        let head = glob.head as usize;
        match glob.test {
            GlobTest::EndsWith(len) => path.len() >= head + len as usize,
            GlobTest::Contains(segment) => path.get(head..).is_some_and(|rest| {
                pattern::find(rest, &self.tree.extra().segment_bytes[segment.range()]).is_some()
            }),
            GlobTest::Segments {
                segments,
                anchored,
                restart,
            } => self.segments_match(segments, (anchored, restart), path, head),
        }
    }

    /// Whether the literal `segments` (a range of the matcher's) match
    /// `path` past its head, `from` bytes long. Kept apart from the walk
    /// over the globs, which most globs leave at their byte filter or at
    /// a shape of [`glob_matches`](Self::glob_matches).
    #[inline(never)]
    fn segments_match(
        &self,
        (first, end): (u32, u32),
        (anchored, restart): (bool, bool),
        path: &[u8],
        from: usize,
    ) -> bool {
        let tables = self.tree.extra();
        let segments = tables.segments[first as usize..end as usize]
            .iter()
            .map(|s| &tables.segment_bytes[s.range()]);
        if restart {
            pattern::restart_segments_match(segments, anchored, path, from)
        } else {
            pattern::segments_match(segments, anchored, path, from)
        }
    }

    /// Every entry that matches `path`, in precedence order.
    pub(crate) fn all_matches<'m>(
        &'m self,
        text: &'m [u8],
        path: &'m [u8],
    ) -> impl Iterator<Item = &'m Entry> + 'm {
        self.entries()
            .iter()
            .filter(move |e| pattern::matches(e.shape, &text[e.body.range()], path))
    }
}

/// Whether `profile` matches a URL's path as given: no requoting or
/// decoding of the path, and no special case for `/robots.txt`.
fn paths_as_given(profile: &Profile) -> bool {
    !profile.requote
        && !profile.decode_unreserved
        && !profile.always_allow_robots_txt
        && !profile.yandex_records
}

/// Where an entry stands in the lookup order: the first entry in this order
/// that matches a path decides it. Longest match: longer patterns first,
/// allow before disallow at equal length, then file order; first match (the
/// 1996 reading): file order.
fn precedence_key(precedence: Precedence, e: &Entry) -> (std::cmp::Reverse<u32>, bool, u32, bool) {
    match precedence {
        Precedence::LongestMatch | Precedence::LongestLiteral => {
            (std::cmp::Reverse(e.priority), !e.allow, e.rule, e.alias)
        }
        Precedence::FirstMatch => (std::cmp::Reverse(0), false, e.rule, e.alias),
    }
}

/// Positions of `entries` (given in file order: by rule, an alias right
/// after its rule) sorted by [`precedence_key`]. Longest match is a stable
/// counting sort on (length, disallow), since patterns are short; first
/// match is file order itself.
fn lookup_order(precedence: Precedence, entries: &[Entry]) -> Vec<u32> {
    let positions = 0..entries.len() as u32;
    if precedence == Precedence::FirstMatch {
        return positions.collect();
    }
    let longest = entries.iter().map(|e| e.priority).max().unwrap_or(0) as usize;
    // Bucket of an entry: longer patterns first, allow before disallow.
    let bucket = |e: &Entry| (longest - e.priority as usize) * 2 + usize::from(!e.allow);
    if longest > 4 * entries.len() + 64 {
        // A few very long patterns: a comparison sort beats many empty buckets.
        let mut order: Vec<u32> = positions.collect();
        order.sort_by_key(|&i| bucket(&entries[i as usize]));
        return order;
    }
    let mut starts = vec![0u32; 2 * longest + 3];
    for e in entries {
        starts[bucket(e) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut order = vec![0u32; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        let slot = &mut starts[bucket(e)];
        order[*slot as usize] = i as u32;
        *slot += 1;
    }
    order
}

/// One entry of [`each_entry`]: `rule` is (index, allow, alias).
#[inline(always)]
fn push_entry(
    text: &[u8],
    profile: &Profile,
    pattern: Str,
    (rule, allow, alias): (u32, bool, bool),
    keep: &impl Fn(&[u8], &Entry) -> bool,
    each: &mut impl FnMut(Entry),
) {
    let bytes = &text[pattern.range()];
    let priority = profile.precedence.weight(bytes);
    let mut entry = Entry {
        body: pattern,
        priority,
        rule,
        shape: Shape::Never,
        allow,
        alias,
    };
    if !keep(bytes, &entry) {
        return;
    }
    let (shape, body) = pattern::compile_for(bytes, profile);
    if shape == Shape::Never {
        return;
    }
    let offset = body.as_ptr() as usize - bytes.as_ptr() as usize;
    entry.shape = shape;
    entry.body = Str {
        start: pattern.start + offset as u32,
        len: body.len() as u32,
    };
    each(entry);
}

/// Whether `pattern` cannot match `path` because they differ before the
/// pattern's first `*` or `$` (or the path ends first): every shape is
/// anchored at the start, so most rules are ruled out within a few bytes,
/// without compiling them.
#[inline]
fn literally_differs(pattern: &[u8], path: &[u8]) -> bool {
    for (i, &p) in pattern.iter().enumerate() {
        if p == b'*' || p == b'$' {
            return false;
        }
        if path.get(i) != Some(&p) {
            return true;
        }
    }
    false
}

/// Calls `each` with an entry (no byte-set filter yet) for every rule of
/// `groups` that can match anything, but those in `skip` (ascending), and
/// for every `index.html` alias, in file order; those `keep` rejects
/// (given the pattern and the entry's precedence) are skipped uncompiled.
fn each_entry(
    robots: &RobotsTxt,
    groups: &[u32],
    mut skip: &[u32],
    keep: impl Fn(&[u8], &Entry) -> bool,
    mut each: impl FnMut(Entry),
) {
    let wildcards = robots.profile.wildcards;
    let profile = robots.profile;
    let text = robots.text.as_slice();
    let mut push = |pattern: Str, rule: u32, allow: bool, alias: bool| {
        push_entry(
            text,
            &profile,
            pattern,
            (rule, allow, alias),
            &keep,
            &mut each,
        );
    };
    for &g in groups {
        let group = &robots.groups[g as usize];
        for index in group.rules.clone() {
            if let Some((&first, rest)) = skip.split_first()
                && first == index
            {
                skip = rest;
                continue;
            }
            let record = &robots.rules[index as usize];
            // Yandex: an empty `Disallow:` is `Allow: /`.
            let allow =
                record.flags & (crate::model::RULE_ALLOW | crate::model::RULE_EMPTY_ALLOWS) != 0;
            let written_empty =
                record.pattern.len == 0 && record.flags & crate::model::RULE_HAS_ORIGINAL == 0;
            if !wildcards && written_empty && !allow {
                // urllib.robotparser: an empty Disallow allows everything.
                push(record.pattern, index, true, false);
                continue;
            }
            push(record.pattern, index, allow, false);
            if record.flags & crate::model::RULE_HAS_ALIAS != 0
                && let Some(alias) = robots.alias_of(index)
            {
                push(alias, index, true, true);
            }
        }
    }
}

/// A path walked down the prefix tree: `bytes[from..]`, agreeing with the
/// tree up to `at`, whose bytes before that are the set `above`.
#[derive(Clone, Copy)]
struct Walk<'b> {
    bytes: &'b [u8],
    from: usize,
    at: usize,
    above: u64,
}

impl<'b> Walk<'b> {
    /// The whole path (with `IN_URL`, up to its first `#` or NUL, which
    /// lies past `at`), given the set [`present`](Self::present) found:
    /// when it lacks both, so does the rest of the URL, which is all path.
    #[inline(never)]
    fn path<const IN_URL: bool>(&self, present: u64) -> &'b [u8] {
        let end = if IN_URL && present & scan::PATH_END_CLASSES != 0 {
            url_path::path_end(self.bytes, self.at)
        } else {
            self.bytes.len()
        };
        &self.bytes[self.from..end]
    }

    /// The path's bytes as a set (see [`scan::byte_set`]), a cheap filter
    /// for ordinary paths: with `IN_URL`, a superset, holding what follows
    /// the path in the URL too (a filter that only rejects less, found
    /// without looking for the path's end). A huge rest gets the full set
    /// and goes straight to the (linear) glob.
    #[inline(never)]
    fn present(&self) -> u64 {
        let rest = self.bytes.get(self.at..).unwrap_or_default();
        if rest.len() > 2048 {
            u64::MAX
        } else {
            self.above | scan::byte_set(rest)
        }
    }
}

/// The bytes of the globs' segments (`segments`, and those the globs of
/// `heads` find whole), copied out of the text in one allocation; their
/// spans then refer to the copy.
fn copy_segments(text: &[u8], segments: &mut [Str], heads: &mut [(Str, Head, u32)]) -> Box<[u8]> {
    fn contains(head: &mut Head) -> Option<&mut Str> {
        match head {
            Head::Glob {
                glob:
                    Glob {
                        test: GlobTest::Contains(segment),
                        ..
                    },
                ..
            } => Some(segment),
            _ => None,
        }
    }
    let total: usize = segments.iter().map(|s| s.len as usize).sum::<usize>()
        + heads
            .iter_mut()
            .filter_map(|(_, head, _)| contains(head))
            .map(|s| s.len as usize)
            .sum::<usize>();
    let mut bytes = Vec::with_capacity(total);
    let spans = heads.iter_mut().filter_map(|(_, head, _)| contains(head));
    for span in segments.iter_mut().chain(spans) {
        let start = bytes.len() as u32;
        bytes.extend_from_slice(&text[span.range()]);
        span.start = start;
    }
    bytes.into_boxed_slice()
}

/// The glob of rank `rank` whose pattern, spanning `body` from `start` in
/// the text, has its first `*` at `star`: its literal segments after the
/// head left in `segments` (as spans of the text, until they are copied:
/// see [`copy_segments`]) unless a shape of [`GlobTest`] needs none.
fn compile_glob(
    start: u32,
    body: &[u8],
    star: usize,
    (rank, anchored, restart): (u32, bool, bool),
    segments: &mut Vec<Str>,
) -> Glob {
    let first = segments.len();
    let mut at = start + star as u32;
    for segment in body[star..].split(|&b| b == b'*') {
        if !segment.is_empty() {
            segments.push(Str {
                start: at,
                len: segment.len() as u32,
            });
        }
        at += segment.len() as u32 + 1;
    }
    let (mut tail, mut tail_mask) = (0, 0);
    if anchored && let Some(last) = segments[first..].last() {
        let bytes = &body[(last.start - start) as usize..][..last.len as usize];
        tail_mask = u64::MAX << (8 * (8 - bytes.len().min(8)));
        tail = last_word(bytes) & tail_mask;
    }
    let test = match (&segments[first..], anchored, restart) {
        (&[segment], false, false) => GlobTest::Contains(segment),
        (&[segment], true, false) if segment.len <= 8 => GlobTest::EndsWith(segment.len),
        _ => GlobTest::Segments {
            segments: (first as u32, segments.len() as u32),
            anchored,
            restart,
        },
    };
    if !matches!(test, GlobTest::Segments { .. }) {
        segments.truncate(first);
    }
    Glob {
        rank,
        head: star as u32,
        tail,
        tail_mask,
        test,
    }
}

/// The first of the byte sets `needs` that `present` holds whole. Four at
/// a time: most fail, and a node may hang dozens of globs.
#[inline(always)]
fn first_within(needs: &[u64], present: u64) -> Option<usize> {
    let missing = !present;
    let mut chunks = needs.chunks_exact(4);
    let mut at = 0;
    for chunk in chunks.by_ref() {
        if let Some(i) = chunk.iter().position(|&n| n & missing == 0) {
            return Some(at + i);
        }
        at += 4;
    }
    chunks
        .remainder()
        .iter()
        .position(|&n| n & missing == 0)
        .map(|i| at + i)
}

/// The last (up to) eight bytes of `bytes` as one little-endian word, the
/// last byte on top (zeros below when there are fewer than eight).
#[inline(always)]
fn last_word(bytes: &[u8]) -> u64 {
    match bytes.last_chunk::<8>() {
        Some(last) => u64::from_le_bytes(*last),
        None => scan::word_padded(bytes, 0)
            .checked_shl(8 * (8 - bytes.len() as u32))
            .unwrap_or(0),
    }
}

/// The set of bytes a pattern's literal parts need, folded to 64 bits like
/// [`scan::byte_set`]'s (a `*` is no byte).
#[inline]
pub(crate) fn byte_set(pattern: &[u8]) -> u64 {
    pattern
        .split(|&b| b == b'*')
        .fold(0, |set, part| set | scan::byte_set(part))
}

#[cfg(test)]
mod tests {
    use super::Matcher;
    use crate::{Profile, RobotsTxt};
    use crawlgate_test_support::Rng;

    const PATTERN: &[&str] = &[
        "/",
        "a",
        "b",
        "*",
        "$",
        "%2F",
        "%61",
        "index.html",
        "?",
        "é",
    ];
    const PATH: &[&str] = &[
        "/",
        "a",
        "b",
        "$",
        "%2F",
        "%61",
        "index.html",
        "?q",
        "é",
        "/a",
    ];

    /// What may follow a path in a URL: nothing, a fragment, or a NUL (which
    /// ends the path as Google's reference reads it).
    const TAILS: &[&str] = &["", "#", "#frag/a", "\0", "\0/a"];

    /// Asserts that `path`, read in place from a URL with one of [`TAILS`]
    /// after it, finds `expected` (what the path alone found).
    fn assert_found_in_url<T: PartialEq + std::fmt::Debug>(
        compiled: &Matcher,
        path: &str,
        rng: &mut Rng,
        found: impl Fn(&super::Entry) -> T,
        expected: Option<T>,
        context: &str,
    ) {
        let url = format!("https://example.com{path}{}", TAILS[rng.below(TAILS.len())]);
        assert_eq!(
            compiled.first_match_in_url(url.as_bytes(), 19).map(found),
            expected,
            "{context}, URL {url:?}"
        );
    }

    #[test]
    fn scanning_finds_the_entry_the_compiled_order_finds() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let profiles = [Profile::GOOGLE, Profile::RFC9309, Profile::LEGACY];
        let mut compared = 0;
        for round in 0..3_000 {
            let mut body = String::from("User-agent: *\n");
            // Enough rules, now and then, for the compiled side's index.
            for _ in 0..rng.below(if round % 4 == 0 { 30 } else { 8 }) {
                let kind = ["Allow", "Disallow"][rng.below(2)];
                body.push_str(&format!("{kind}: {}\n", rng.text(PATTERN, 5)));
            }
            for profile in profiles {
                let robots = RobotsTxt::parse_with(body.as_bytes(), profile);
                let groups = robots.global_group_list().to_vec();
                let compiled = Matcher::compile(&robots, &groups, &[]);
                for _ in 0..8 {
                    let path = format!("/{}", rng.text(PATH, 6));
                    let found = |e: &super::Entry| (e.rule, e.alias, e.allow);
                    let scanned =
                        Matcher::scan(&robots, &groups, &[], path.as_bytes()).map(|e| found(&e));
                    assert_eq!(
                        scanned,
                        compiled.first_match(path.as_bytes()).map(found),
                        "{} reading of {body:?}, path {path:?}",
                        profile.name
                    );
                    // The same path read in place from a URL, whatever follows it.
                    let context = format!("{} reading of {body:?}", profile.name);
                    assert_found_in_url(&compiled, &path, &mut rng, found, scanned, &context);
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 3_000 * 3 * 8);
    }

    /// The shapes globs are matched by without the general segment search
    /// (one segment found anywhere, one short segment ending the path, the
    /// tail compared before any other), held to Google's matching itself
    /// and to the uncompiled scan, Yandex's restarting `*` included: empty
    /// segments, `$` anchors and literal `$`, segments of 8 and 9 bytes at
    /// the path's end, repeated bytes, escapes and non-ASCII bytes.
    #[test]
    fn glob_shapes_match_as_the_general_globs_do() {
        use crawlgate_test_support::reference_matches;
        const HEADS: &[&str] = &["/", "/a", "/ab/", "", "/é"];
        const SEGMENTS: &[&str] = &[
            "a",
            "aa",
            "aab",
            "b",
            ".pdf",
            "%2F",
            "é",
            "12345678",
            "123456789",
            "$",
            "?q=",
            "/",
        ];
        const ENDS: &[&str] = &["", "$", "*", "*$", "**"];
        const PIECES: &[&str] = &[
            "a", "aa", "b", ".pdf", "%2F", "%2f", "é", "1234", "12345678", "9", "$", "?q=", "/",
            "x",
        ];
        let mut rng = Rng::new(0x5DEE_CE66_D1CE_4E5B);
        let found = |e: &super::Entry| (e.rule, e.alias, e.allow);
        let mut matched = 0;
        for _ in 0..3_000 {
            let mut pattern = rng.pick(HEADS).to_string();
            for _ in 0..1 + rng.below(3) {
                pattern.push_str(["*", "**"][usize::from(rng.below(5) == 0)]);
                pattern.push_str(rng.pick(SEGMENTS));
            }
            pattern.push_str(rng.pick(ENDS));
            let body = format!("User-agent: *\nDisallow: {pattern}\n");
            for profile in [Profile::GOOGLE, Profile::YANDEX] {
                let robots = RobotsTxt::parse_with(body.as_bytes(), profile);
                let groups = robots.global_group_list().to_vec();
                let compiled = Matcher::compile(&robots, &groups, &[]);
                let normalised = robots.rules().next().map(|r| r.pattern().to_owned());
                for _ in 0..10 {
                    // Half the paths from the pattern itself, its stars
                    // filled, so that many match.
                    let mut path = if rng.below(2) == 0 {
                        format!("{}{}", rng.pick(HEADS), rng.text(PIECES, 6))
                    } else {
                        let mut path = String::new();
                        for piece in pattern.trim_end_matches('$').split('*') {
                            path.push_str(piece);
                            path.push_str(&rng.text(PIECES, 2));
                        }
                        path
                    };
                    if rng.below(3) == 0 {
                        path.push_str(rng.pick(PIECES));
                    }
                    // Near misses: a character changed, dropped or doubled,
                    // or the path cut short.
                    let mut chars: Vec<char> = path.chars().collect();
                    if !chars.is_empty() && rng.below(2) == 0 {
                        let at = rng.below(chars.len());
                        match rng.below(4) {
                            0 => {
                                chars[at] = rng.pick(&['a', 'b', '1', '8', '.', '/', 'é', '$', '%'])
                            }
                            1 => drop(chars.remove(at)),
                            2 => chars.insert(at, chars[at]),
                            _ => chars.truncate(at),
                        }
                    }
                    let mut path: String = chars.into_iter().collect();
                    if !path.starts_with('/') {
                        path.insert(0, '/');
                    }
                    let scanned =
                        Matcher::scan(&robots, &groups, &[], path.as_bytes()).map(|e| found(&e));
                    let looked_up = compiled.first_match(path.as_bytes()).map(found);
                    assert_eq!(scanned, looked_up, "{} {pattern:?} {path:?}", profile.name);
                    if profile == Profile::GOOGLE
                        && let Some(normalised) = &normalised
                    {
                        let (pattern, path) = (normalised.as_bytes(), path.as_bytes());
                        assert_eq!(looked_up.is_some(), reference_matches(pattern, path));
                    }
                    matched += usize::from(looked_up.is_some());
                    let context = format!("{} {pattern:?}", profile.name);
                    assert_found_in_url(&compiled, &path, &mut rng, found, scanned, &context);
                }
            }
        }
        // Both answers are common.
        assert!((10_000..40_000).contains(&matched), "{matched}");
        // Paths just long enough, or one byte short, for a head and a
        // segment that ends them; segments of 8 and 9 bytes that differ
        // from the path's end in their first byte only.
        let cases = [
            ("/a*aa$", "/aa"),
            ("/a*aa$", "/aaa"),
            ("/a*a$", "/a"),
            ("/a*a$", "/aa"),
            ("*a$", "/a"),
            ("/*/$", "/"),
            ("/*/$", "//"),
            ("/ab*b$", "/ab"),
            ("/*12345678$", "/x2345678"),
            // The byte that differs is in the path elsewhere, so that the
            // byte set lets the glob through.
            ("/*12345678$", "/1x2345678"),
            ("/*12345678$", "/1234567x8"),
            ("/*123456789$", "/1x23456789"),
            ("/*12345678$", "/12345678"),
            ("/*12345678$", "12345678"),
            ("/1*12345678$", "/12345678"),
            ("/1*12345678$", "/112345678"),
            ("/*123456789$", "/023456789"),
            ("/*123456789$", "/123456789"),
            ("/*123456789$", "/x123456789"),
            ("/*é$", "/%C3%A9"),
            ("/*é$", "/x%C3%A9"),
            ("/*%2F$", "/%2f"),
            ("/*$$", "/$"),
            ("/*$$", "/a$"),
            ("/*a", "/"),
            ("/*a", "/b"),
        ];
        for (pattern, path) in cases {
            let body = format!("User-agent: *\nDisallow: {pattern}\n");
            let robots = RobotsTxt::parse(body.as_bytes());
            let groups = robots.global_group_list().to_vec();
            let compiled = Matcher::compile(&robots, &groups, &[]);
            let normalised = robots.rules().next().unwrap().pattern().to_owned();
            let expected = reference_matches(normalised.as_bytes(), path.as_bytes());
            let got = compiled.first_match(path.as_bytes()).is_some();
            assert_eq!(got, expected, "{pattern:?} {path:?}");
            if path.starts_with('/') {
                let url = format!("https://example.com{path}");
                let got = compiled.first_match_in_url(url.as_bytes(), 19);
                assert_eq!(got.is_some(), expected, "{pattern:?} {url:?}");
            }
        }
    }

    /// Wide nodes whose children's first bytes fall in different words of
    /// the node's set: ASCII digits, letters, and UTF-8 letters (which
    /// rules hold %-escaped, so that their escapes branch).
    #[test]
    fn wide_nodes_find_children_across_their_set() {
        let letters = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz\
                       àáâãäåæçèéêëìíîïðñòóôõö÷øùúûüýþÿĀāĂăĄąĆćĈĉЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏ";
        let mut body = String::from("User-agent: *\n");
        for (i, c) in letters.chars().enumerate() {
            if i % 3 != 1 {
                body.push_str(&format!("Disallow: /{c}\nAllow: /{c}/x\n"));
            }
        }
        let robots = RobotsTxt::parse(body.as_bytes());
        let groups = robots.global_group_list().to_vec();
        let compiled = Matcher::compile(&robots, &groups, &[]);
        let found = |e: &super::Entry| (e.rule, e.alias, e.allow);
        let mut matched = 0;
        for c in letters.chars() {
            for path in [format!("/{c}"), format!("/{c}/x"), format!("/{c}y")] {
                let scanned =
                    Matcher::scan(&robots, &groups, &[], path.as_bytes()).map(|e| found(&e));
                matched += usize::from(scanned.is_some() && c.is_ascii());
                assert_eq!(
                    scanned,
                    compiled.first_match(path.as_bytes()).map(found),
                    "{path:?}"
                );
            }
        }
        // Two ASCII letters in three have rules, each matching its three
        // paths (a raw UTF-8 path does not match an escaped rule).
        assert_eq!(
            matched,
            3 * letters
                .chars()
                .enumerate()
                .filter(|&(i, c)| i % 3 != 1 && c.is_ascii())
                .count()
        );
    }

    /// Wide and deep trees: a node with more children than a word holds
    /// (looked up through its set of first bytes), labels past 8 and 16 bytes, globs
    /// hanging at several depths, exact rules ending inside labels.
    #[test]
    fn wide_and_deep_trees_find_what_scanning_finds() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        let mut body = String::from("User-agent: *\n");
        for i in 0..60u8 {
            let second = char::from(b'0' + i % 75);
            body.push_str(&format!("Disallow: /{second}\n"));
            body.push_str(&format!(
                "Allow: /{second}/a-long-directory-name/with/more/\n"
            ));
            body.push_str(&format!(
                "Disallow: /{second}/a-long-directory-name/wi*.php$\n"
            ));
            body.push_str(&format!("Allow: /{second}/a-long-directory-name$\n"));
            body.push_str(&format!("Disallow: /{second}/a-long-*/x\n"));
            body.push_str(&format!(
                "Allow: /{second}/unique-and-very-long-segment-name/\n"
            ));
        }
        body.push_str("Disallow: /*?\nAllow: /*?keep=\nDisallow: /*.pdf$\n");
        let robots = RobotsTxt::parse(body.as_bytes());
        let groups = robots.global_group_list().to_vec();
        let compiled = Matcher::compile(&robots, &groups, &[]);
        const PIECES: &[&str] = &[
            "/a-long-directory-name",
            "/with/more/",
            "/wi",
            "x.php",
            "/x",
            "?keep=1",
            "?q",
            "/unique-and-very-long-segment-name/",
            "/unique-and-very-long-segment-nam/",
            "/unique-and-very-long-segmentXname/",
            ".pdf",
            "a",
        ];
        let found = |e: &super::Entry| (e.rule, e.alias, e.allow);
        for _ in 0..20_000 {
            let second = char::from(b'0' + rng.below(80) as u8);
            let path = format!("/{second}{}", rng.text(PIECES, 4));
            let scanned = Matcher::scan(&robots, &groups, &[], path.as_bytes()).map(|e| found(&e));
            assert_eq!(
                scanned,
                compiled.first_match(path.as_bytes()).map(found),
                "{path:?}"
            );
            assert_found_in_url(&compiled, &path, &mut rng, found, scanned, "deep tree");
        }
    }
}
