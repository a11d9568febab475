//! `R207` public-secret: a disallowed path that looks secret: robots.txt is public

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use rustc_hash::FxHashSet;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::PublicSecret,
    r#"## What it does

Reports disallowed paths whose names suggest secrets: `secret`,
`passwd`, `confidential`, `backup`, `private`, `.env`, `.git`,
`.svn`, `.htpasswd`.

## Why it matters

robots.txt is public and non-binding. Listing a path tells everyone where
to look, and a disallowed URL can still be indexed (without its content) when
other pages link to it.

## Example

```text
User-agent: *
Disallow: /backup/
```

## Use instead

```text
Protect /backup/ with authentication, and leave it out of robots.txt.
```
"#,
    check,
);

/// Bytes a word of [`WORDS`] starts with, in either case.
/// The words, grouped by first byte.
const GROUPS: [&[&str]; 5] = [
    &["secret"],
    &["passwd", "private"],
    &["confidential"],
    &["backup"],
    &[".env", ".git", ".svn", ".htpasswd"],
];

/// Byte -> 1 + index in `GROUPS` of the words starting with it (either
/// case), 0 for none: one load per byte of a path.
const FIRST: [u8; 256] = {
    let mut table = [0u8; 256];
    let firsts = [b's', b'p', b'c', b'b', b'.'];
    let mut i = 0;
    while i < firsts.len() {
        table[firsts[i] as usize] = i as u8 + 1;
        table[firsts[i].to_ascii_uppercase() as usize] = i as u8 + 1;
        i += 1;
    }
    table
};

fn secret_word(value: &[u8]) -> Option<&'static str> {
    for (i, &b) in value.iter().enumerate() {
        let group = FIRST[usize::from(b)];
        if group == 0 {
            continue;
        }
        let rest = &value[i..];
        let hit = GROUPS[usize::from(group - 1)]
            .iter()
            .find(|w| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w.as_bytes()));
        if hit.is_some() {
            return hit.copied();
        }
    }
    None
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = FxHashSet::default();
    let ignored = cx.robots.ignored_rules().len();
    for rule in cx.robots.rules() {
        if rule.is_allow() || rule.index() < ignored {
            continue;
        }
        let value = rule.value();
        let Some(word) = secret_word(value.as_bytes()) else {
            continue;
        };
        let lower = value.to_ascii_lowercase();
        if !seen.insert(lower) {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::PublicSecret,
                cx.value_span(rule.line()),
                format!(
                    "robots.txt is public: `{value}` tells anyone where to look for `{word}`, and \
                     a disallowed URL can still be indexed when other pages link to it"
                ),
            )
            .with_fix(
                "protect it with authentication; to keep a page out of search results, let it \
                 be crawled and mark it `noindex`",
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(PublicSecret);
