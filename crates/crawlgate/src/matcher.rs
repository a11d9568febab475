//! The compiled rules of one audience (the crawlers sharing a set of groups),
//! sorted so that the first rule that matches decides.
//!
//! Longest-match precedence becomes an order: longer patterns first, allow
//! before disallow at equal length, file order last. A lookup walks that
//! order and stops at the first hit. Large rule sets get an index on the
//! byte after the leading `/`, so a lookup only tries the rules that can
//! match the path's second byte plus the few that start with a wildcard.

use std::cell::Cell;

use crate::model::{RobotsTxt, Str};
use crate::pattern::{self, Shape};
use crate::profile::Precedence;

/// Below this many rules a linear walk beats the index.
const INDEX_THRESHOLD: usize = 12;

/// The first (up to 8) literal bytes of a rule's body and which of them
/// count: `path_head & mask == head` rejects most rules without reading them.
/// Kept apart from the entries so the common rejection walks 16-byte items.
#[derive(Clone, Copy, Debug)]
struct Key {
    head: u64,
    mask: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// For globs, the bytes their segments need (bit `b % 64` per byte `b`):
    /// a path lacking any of them cannot match, whatever the wildcards do.
    pub needs: u64,
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

/// Candidate lists by the path's second byte: for byte `b`, the entries
/// whose pattern has `b` there merged with those that can match whatever is
/// there (wildcards, `/`), in precedence order. `lists[ranges[256]]` serves
/// paths with no second byte.
#[derive(Clone, Debug)]
struct ByteIndex {
    ranges: Box<[(u32, u32); 257]>,
    lists: Box<[u32]>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Matcher {
    pub entries: Box<[Entry]>,
    keys: Box<[Key]>,
    index: Option<ByteIndex>,
}

impl Matcher {
    /// Compiles the rules of `groups`.
    pub(crate) fn compile(robots: &RobotsTxt, groups: &[u32]) -> Matcher {
        let text = robots.text.as_bytes();
        let rules: usize = groups
            .iter()
            .map(|&g| robots.groups[g as usize].rules.len())
            .sum();
        let mut entries = Vec::with_capacity(rules + robots.aliases.len().min(rules));
        each_entry(
            robots,
            groups,
            |_, _| true,
            |entry| {
                let body = &text[entry.body.range()];
                let literal = match entry.shape {
                    Shape::Glob | Shape::GlobAnchored => {
                        &body[..memchr::memchr(b'*', body).unwrap_or(body.len())]
                    }
                    Shape::Everything => &[][..],
                    _ => body,
                };
                let (head, mask) = head_of(literal);
                let needs = match entry.shape {
                    Shape::Glob | Shape::GlobAnchored => byte_set(&body[literal.len()..]),
                    _ => 0,
                };
                entries.push((Key { head, mask }, Entry { needs, ..entry }));
            },
        );
        let (keys, entries): (Vec<Key>, Vec<Entry>) =
            lookup_order(robots.profile.precedence, &entries)
                .into_iter()
                .map(|i| entries[i as usize])
                .unzip();
        let index = (entries.len() >= INDEX_THRESHOLD).then(|| build_index(text, &entries));
        Matcher {
            entries: entries.into_boxed_slice(),
            keys: keys.into_boxed_slice(),
            index,
        }
    }

    /// The entry that decides `path` among the rules of `groups`, found by
    /// trying each rule once without compiling them: cheaper than compiling
    /// for a question or a few. Always the entry
    /// [`first_match`](Self::first_match) of the compiled matcher finds.
    pub(crate) fn scan(robots: &RobotsTxt, groups: &[u32], path: &[u8]) -> Option<Entry> {
        let text = robots.text.as_bytes();
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
        each_entry(robots, groups, worth_trying, |entry| {
            if pattern::matches(entry.shape, &text[entry.body.range()], path) {
                to_beat.set(Some(precedence_key(precedence, &entry)));
                best = Some(entry);
            }
        });
        best
    }

    /// The first entry (in precedence order) that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, text: &[u8], path: &[u8]) -> Option<&Entry> {
        let mut probe = Probe {
            head: head_of(path).0,
            bytes: None,
            path,
            text,
        };
        match &self.index {
            None => {
                for (i, key) in self.keys.iter().enumerate() {
                    if probe.head & key.mask == key.head && probe.confirm(&self.entries[i]) {
                        return Some(&self.entries[i]);
                    }
                }
            }
            Some(index) => {
                let (start, end) = index.ranges[path.get(1).map_or(256, |&b| usize::from(b))];
                for &i in &index.lists[start as usize..end as usize] {
                    let key = self.keys[i as usize];
                    if probe.head & key.mask == key.head && probe.confirm(&self.entries[i as usize])
                    {
                        return Some(&self.entries[i as usize]);
                    }
                }
            }
        }
        None
    }

    /// Every entry that matches `path`, in precedence order.
    pub(crate) fn all_matches<'m>(
        &'m self,
        text: &'m [u8],
        path: &'m [u8],
    ) -> impl Iterator<Item = &'m Entry> + 'm {
        self.entries
            .iter()
            .filter(move |e| pattern::matches(e.shape, &text[e.body.range()], path))
    }
}

/// One path being matched: its head word, and its byte set once a glob has
/// needed it.
struct Probe<'p> {
    head: u64,
    bytes: Option<u64>,
    path: &'p [u8],
    text: &'p [u8],
}

impl Probe<'_> {
    /// Whether the entry, whose head already agrees, matches the path.
    #[inline(always)]
    fn confirm(&mut self, entry: &Entry) -> bool {
        if entry.needs != 0 {
            let path = self.path;
            // A cheap filter for ordinary paths; a huge one goes straight to
            // the (linear) glob.
            let set = *self.bytes.get_or_insert_with(|| {
                if path.len() > 2048 {
                    u64::MAX
                } else {
                    path.iter().fold(0, |set, &b| set | 1 << (b & 63))
                }
            });
            if entry.needs & !set != 0 {
                return false;
            }
        }
        pattern::matches_after_head(entry.shape, &self.text[entry.body.range()], self.path)
    }
}

/// Where an entry stands in the lookup order: the first entry in this order
/// that matches a path decides it. Longest match: longer patterns first,
/// allow before disallow at equal length, then file order; first match (the
/// 1996 reading): file order.
fn precedence_key(precedence: Precedence, e: &Entry) -> (std::cmp::Reverse<u32>, bool, u32, bool) {
    match precedence {
        Precedence::LongestMatch => (std::cmp::Reverse(e.priority), !e.allow, e.rule, e.alias),
        Precedence::FirstMatch => (std::cmp::Reverse(0), false, e.rule, e.alias),
    }
}

/// Positions of `entries` (given in file order: by rule, an alias right
/// after its rule) sorted by [`precedence_key`]. Longest match is a stable
/// counting sort on (length, disallow), since patterns are short; first
/// match is file order itself.
fn lookup_order(precedence: Precedence, entries: &[(Key, Entry)]) -> Vec<u32> {
    let positions = 0..entries.len() as u32;
    if precedence == Precedence::FirstMatch {
        return positions.collect();
    }
    let longest = entries.iter().map(|(_, e)| e.priority).max().unwrap_or(0) as usize;
    // Bucket of an entry: longer patterns first, allow before disallow.
    let bucket = |e: &Entry| (longest - e.priority as usize) * 2 + usize::from(!e.allow);
    if longest > 4 * entries.len() + 64 {
        // A few very long patterns: a comparison sort beats many empty buckets.
        let mut order: Vec<u32> = positions.collect();
        order.sort_by_key(|&i| bucket(&entries[i as usize].1));
        return order;
    }
    let mut starts = vec![0u32; 2 * longest + 3];
    for (_, e) in entries {
        starts[bucket(e) + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    let mut order = vec![0u32; entries.len()];
    for (i, (_, e)) in entries.iter().enumerate() {
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
    wildcards: bool,
    pattern: Str,
    (rule, allow, alias): (u32, bool, bool),
    keep: &impl Fn(&[u8], &Entry) -> bool,
    each: &mut impl FnMut(Entry),
) {
    let bytes = &text[pattern.range()];
    let mut entry = Entry {
        needs: 0,
        body: pattern,
        priority: pattern.len,
        rule,
        shape: Shape::Never,
        allow,
        alias,
    };
    if !keep(bytes, &entry) {
        return;
    }
    let (shape, body) = pattern::compile(bytes, wildcards);
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
/// `groups` that can match anything, and for every `index.html` alias, in
/// file order; those `keep` rejects (given the pattern and the entry's
/// precedence) are skipped uncompiled.
fn each_entry(
    robots: &RobotsTxt,
    groups: &[u32],
    keep: impl Fn(&[u8], &Entry) -> bool,
    mut each: impl FnMut(Entry),
) {
    let wildcards = robots.profile.wildcards;
    let text = robots.text.as_bytes();
    let mut push = |pattern: Str, rule: u32, allow: bool, alias: bool| {
        push_entry(
            text,
            wildcards,
            pattern,
            (rule, allow, alias),
            &keep,
            &mut each,
        );
    };
    for &g in groups {
        let group = &robots.groups[g as usize];
        for index in group.rules.clone() {
            let record = &robots.rules[index as usize];
            let allow = record.flags & crate::model::RULE_ALLOW != 0;
            let written_empty =
                record.pattern.len == 0 && record.flags & crate::model::RULE_HAS_ORIGINAL == 0;
            if !wildcards && written_empty && !allow {
                // urllib.robotparser: an empty Disallow allows everything.
                push(record.pattern, index, true, false);
                continue;
            }
            push(record.pattern, index, allow, false);
            if record.flags & crate::model::RULE_HAS_ALIAS != 0 {
                if let Some(alias) = robots.alias_of(index) {
                    push(alias, index, true, true);
                }
            }
        }
    }
}

/// The set of bytes in `bytes`, folded to 64 bits (bit `b % 64`): a cheap,
/// conservative stand-in for "contains every byte of".
#[inline]
pub(crate) fn byte_set(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .filter(|&&b| b != b'*')
        .fold(0, |set, &b| set | 1 << (b & 63))
}

/// The first up to 8 bytes as a little-endian word (zero-padded), and the
/// mask of the bytes present. Patterns never hold NUL, so the padding never
/// matches a pattern byte: a path shorter than a pattern's head is rejected.
#[inline]
pub(crate) fn head_of(bytes: &[u8]) -> (u64, u64) {
    if let Some(first) = bytes.first_chunk::<8>() {
        return (u64::from_le_bytes(*first), u64::MAX);
    }
    let mut word = 0u64;
    for (i, &b) in bytes.iter().enumerate() {
        word |= u64::from(b) << (8 * i);
    }
    (word, (1u64 << (8 * bytes.len())) - 1)
}

fn build_index(text: &[u8], entries: &[Entry]) -> ByteIndex {
    // Which bucket each entry goes to: the second byte of its body, when the
    // body starts with `/` followed by a literal byte; otherwise "any".
    let key = |e: &Entry| -> Option<u8> {
        let body = &text[e.body.range()];
        match e.shape {
            Shape::Prefix | Shape::Exact | Shape::Glob | Shape::GlobAnchored
                if body.len() >= 2 && body[0] == b'/' && body[1] != b'*' =>
            {
                Some(body[1])
            }
            _ => None,
        }
    };
    // Counting sort by second byte (stable: positions stay in precedence
    // order within a bucket), then each bucket merged with the "any" list.
    let keys: Vec<Option<u8>> = entries.iter().map(key).collect();
    let mut starts = [0u32; 257];
    for b in keys.iter().flatten() {
        starts[usize::from(*b) + 1] += 1;
    }
    for b in 1..257 {
        starts[b] += starts[b - 1];
    }
    let mut fill = starts;
    let mut by_byte = vec![0u32; starts[256] as usize];
    let mut any = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        match k {
            Some(b) => {
                by_byte[fill[usize::from(*b)] as usize] = i as u32;
                fill[usize::from(*b)] += 1;
            }
            None => any.push(i as u32),
        }
    }
    let mut lists: Vec<u32> = Vec::with_capacity(entries.len() + any.len());
    let mut ranges = Box::new([(0u32, 0u32); 257]);
    lists.extend_from_slice(&any);
    let any_range = (0, lists.len() as u32);
    ranges[256] = any_range;
    for b in 0..256 {
        let bucket = &by_byte[starts[b] as usize..starts[b + 1] as usize];
        if bucket.is_empty() {
            ranges[b] = any_range;
            continue;
        }
        // Both lists are in precedence order (ascending entry index).
        let start = lists.len() as u32;
        let (mut i, mut j) = (0, 0);
        while i < bucket.len() || j < any.len() {
            if j == any.len() || (i < bucket.len() && bucket[i] < any[j]) {
                lists.push(bucket[i]);
                i += 1;
            } else {
                lists.push(any[j]);
                j += 1;
            }
        }
        ranges[b] = (start, lists.len() as u32);
    }
    ByteIndex {
        ranges,
        lists: lists.into_boxed_slice(),
    }
}

#[cfg(test)]
mod tests {
    use super::Matcher;
    use crate::{Profile, RobotsTxt};

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn text(&mut self, pieces: &[&str], max: usize) -> String {
            (0..self.below(max + 1))
                .map(|_| pieces[self.below(pieces.len())])
                .collect()
        }
    }

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

    #[test]
    fn scanning_finds_the_entry_the_compiled_order_finds() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
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
                let groups = robots.global_groups.clone();
                let compiled = Matcher::compile(&robots, &groups);
                let text = robots.text.as_bytes();
                for _ in 0..8 {
                    let path = format!("/{}", rng.text(PATH, 6));
                    let found = |e: &super::Entry| (e.rule, e.alias, e.allow);
                    assert_eq!(
                        Matcher::scan(&robots, &groups, path.as_bytes()).map(|e| found(&e)),
                        compiled.first_match(text, path.as_bytes()).map(found),
                        "{} reading of {body:?}, path {path:?}",
                        profile.name
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 3_000 * 3 * 8);
    }
}
