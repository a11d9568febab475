//! The compiled rules of one audience (the crawlers sharing a set of groups),
//! sorted so that the first rule that matches decides.
//!
//! Longest-match precedence becomes an order: longer patterns first, allow
//! before disallow at equal length, file order last. A lookup walks that
//! order and stops at the first hit. Large rule sets get an index on the
//! byte after the leading `/`, so a lookup only tries the rules that can
//! match the path's second byte plus the few that start with a wildcard.

use crate::model::{RobotsTxt, Str};
use crate::pattern::{self, Shape};
use crate::profile::Precedence;

/// Below this many rules a linear walk beats the index.
const INDEX_THRESHOLD: usize = 12;

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

#[derive(Clone, Debug)]
struct ByteIndex {
    /// `bucketed[starts[b]..starts[b + 1]]` are the entries whose pattern's
    /// second byte is `b`, in precedence order.
    starts: Box<[u32; 257]>,
    bucketed: Box<[u32]>,
    /// Entries that can match whatever the second byte is.
    any: Box<[u32]>,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Matcher {
    pub entries: Box<[Entry]>,
    index: Option<ByteIndex>,
}

impl Matcher {
    /// Compiles the rules of `groups`.
    pub(crate) fn compile(robots: &RobotsTxt, groups: &[u32]) -> Matcher {
        let wildcards = robots.profile.wildcards;
        let text = robots.text.as_bytes();
        let mut entries = Vec::new();
        let mut push = |pattern: Str, rule: u32, allow: bool, alias: bool| {
            let bytes = &text[pattern.range()];
            let (shape, body) = pattern::compile(bytes, wildcards);
            if shape == Shape::Never {
                return;
            }
            let offset = body.as_ptr() as usize - bytes.as_ptr() as usize;
            entries.push(Entry {
                body: Str {
                    start: pattern.start + offset as u32,
                    len: body.len() as u32,
                },
                priority: pattern.len,
                rule,
                shape,
                allow,
                alias,
            });
        };
        for &g in groups {
            let group = &robots.groups[g as usize];
            for index in group.rules.clone() {
                let record = &robots.rules[index as usize];
                let allow = record.flags & crate::model::RULE_ALLOW != 0;
                if !wildcards && record.pattern.len == 0 && !allow {
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
        match robots.profile.precedence {
            Precedence::LongestMatch => {
                entries.sort_by_key(|e| (std::cmp::Reverse(e.priority), !e.allow, e.rule, e.alias))
            }
            Precedence::FirstMatch => entries.sort_by_key(|e| (e.rule, e.alias)),
        }
        let index = (entries.len() >= INDEX_THRESHOLD).then(|| build_index(text, &entries));
        Matcher {
            entries: entries.into_boxed_slice(),
            index,
        }
    }

    /// The first entry (in precedence order) that matches `path`.
    #[inline]
    pub(crate) fn first_match(&self, text: &[u8], path: &[u8]) -> Option<&Entry> {
        let hit = |e: &&Entry| pattern::matches(e.shape, &text[e.body.range()], path);
        let Some(index) = &self.index else {
            return self.entries.iter().find(hit);
        };
        let bucket: &[u32] = match path.get(1) {
            Some(&b) => {
                &index.bucketed
                    [index.starts[b as usize] as usize..index.starts[b as usize + 1] as usize]
            }
            None => &[],
        };
        // Merge the two precedence-ordered lists; the first hit wins.
        let (mut i, mut j) = (0, 0);
        let any = &index.any[..];
        loop {
            let next = match (bucket.get(i), any.get(j)) {
                (Some(&a), Some(&b)) if a < b => {
                    i += 1;
                    a
                }
                (_, Some(&b)) => {
                    j += 1;
                    b
                }
                (Some(&a), None) => {
                    i += 1;
                    a
                }
                (None, None) => return None,
            };
            let entry = &self.entries[next as usize];
            if hit(&entry) {
                return Some(entry);
            }
        }
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
    let mut counts = [0u32; 257];
    let mut any = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        match key(e) {
            Some(b) => counts[b as usize + 1] += 1,
            None => any.push(i as u32),
        }
    }
    let mut starts = Box::new([0u32; 257]);
    for b in 1..257 {
        starts[b] = starts[b - 1] + counts[b];
    }
    let mut fill = *starts;
    let mut bucketed = vec![0u32; starts[256] as usize];
    for (i, e) in entries.iter().enumerate() {
        if let Some(b) = key(e) {
            bucketed[fill[b as usize] as usize] = i as u32;
            fill[b as usize] += 1;
        }
    }
    ByteIndex {
        starts,
        bucketed: bucketed.into_boxed_slice(),
        any: any.into_boxed_slice(),
    }
}
