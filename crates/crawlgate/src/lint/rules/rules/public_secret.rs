//! `R207` public-secret: a disallowed path that looks secret: robots.txt is public

#[allow(unused_imports)]
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::lint::hash::FastSet;
#[allow(unused_imports)]
use crate::lint::rules::*;
use crate::lint::{Category, Context, RuleInfo};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo {
    code: Code::PublicSecret,
    name: "public-secret",
    severity: Severity::Info,
    category: Category::Rules,
    summary: "a disallowed path that looks secret: robots.txt is public",
    docs: r#"## What it does

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
};

/// Bytes a word of [`WORDS`] starts with, in either case.
/// The words that start with a byte (lowercase), so that each position of a
/// path tries at most those.
fn words_starting_with(byte: u8) -> &'static [&'static str] {
    match byte {
        b's' => &["secret"],
        b'p' => &["passwd", "private"],
        b'c' => &["confidential"],
        b'b' => &["backup"],
        b'.' => &[".env", ".git", ".svn", ".htpasswd"],
        _ => &[],
    }
}

fn secret_word(value: &[u8]) -> Option<&'static str> {
    (0..value.len()).find_map(|i| {
        let rest = &value[i..];
        words_starting_with(rest[0].to_ascii_lowercase())
            .iter()
            .find(|w| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w.as_bytes()))
            .copied()
    })
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = FastSet::default();
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
crate::lint::testing::fixture_tests!(PublicSecret);
