//! `R501` agent-typo: a user-agent that looks like a misspelled known crawler token

use crate::audit::{crawlers, find, letter_counts, table_letter_counts};
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::spelling::distance;
use rustc_hash::FxHashSet;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::AgentTypo,
    r#"## What it does

Compares every product token the file names with the built-in table of
known crawler tokens and reports those that are not in it but are one slip
away from one: two neighbouring letters swapped, a letter doubled or dropped
(6 letters or more), or a letter replaced (10 letters or more).

## Why it matters

A group for `Googelbot` or `GTPBot` applies to no real crawler: the crawler
that was meant gets the `*` group instead.

## Example

```text
User-agent: GTPBot
Disallow: /
```

## Use instead

```text
User-agent: GPTBot
Disallow: /
```
"#,
    check,
);

/// The table's indices of its tokens by their length. A name that is no
/// product token (`ChatGPT Agent`, `AI2Bot`) cannot be named by a line
/// under Google's reading: suggesting it would only trade this finding for
/// R103's, so it is left out.
fn tokens_by_length() -> &'static [Vec<usize>] {
    static BY_LENGTH: std::sync::OnceLock<Vec<Vec<usize>>> = std::sync::OnceLock::new();
    BY_LENGTH.get_or_init(|| {
        let mut by_length: Vec<Vec<usize>> = Vec::new();
        for (i, crawler) in crawlers().iter().enumerate() {
            if !crawlgate::is_product_token(crawler.token) {
                continue;
            }
            let len = crawler.token.len();
            if by_length.len() <= len {
                by_length.resize(len + 1, Vec::new());
            }
            by_length[len].push(i);
        }
        by_length
    })
}

/// For each length, the table's indices of the tokens (see
/// [`tokens_by_length`]) one letter shorter, as long or one letter longer,
/// in table order: gathered once, not per user-agent line.
fn candidates_by_length() -> &'static [Vec<usize>] {
    static CANDIDATES: std::sync::OnceLock<Vec<Vec<usize>>> = std::sync::OnceLock::new();
    CANDIDATES.get_or_init(|| {
        let by_length = tokens_by_length();
        (0..=by_length.len())
            .map(|len| {
                let mut candidates: Vec<usize> = (len.saturating_sub(1)..=len + 1)
                    .filter_map(|l| by_length.get(l))
                    .flatten()
                    .copied()
                    .collect();
                candidates.sort_unstable();
                candidates
            })
            .collect()
    })
}

/// The letters (and the slot of other bytes) a token holds, a bit each:
/// tokens whose letter counts differ by at most 2 differ in at most two
/// of these bits, which rules out most of the table in one instruction.
fn letter_mask(counts: &[u8; 27]) -> u32 {
    counts
        .iter()
        .enumerate()
        .fold(0, |mask, (i, &n)| mask | u32::from(n > 0) << i)
}

/// [`letter_mask`] of every known token, in table order.
fn table_letter_masks() -> &'static [u32] {
    static MASKS: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    MASKS.get_or_init(|| table_letter_counts().iter().map(letter_mask).collect())
}

/// Whether `token` is one slip away from `known`: a swap of two neighbouring
/// letters, a letter doubled or dropped (tokens of 6 letters or more), or a
/// letter replaced (tokens of 10 letters or more: shorter real crawler names
/// often differ from known ones by one letter, as `Roverbot` and `rogerbot`).
fn one_slip(token: &str, known: &str) -> bool {
    if token.eq_ignore_ascii_case(known) || distance(token, known, 1) != Some(1) {
        return false;
    }
    let (a, b) = (token.as_bytes(), known.as_bytes());
    if a.len() != b.len() {
        // A letter more or less in front is another name (`BSpider`,
        // `vspider` beside `Spider`), not a slip of the hand.
        let first_letter_differs = match (a.first(), b.first()) {
            (Some(x), Some(y)) => !x.eq_ignore_ascii_case(y),
            _ => true,
        };
        return a.len().min(b.len()) >= 6 && !first_letter_differs;
    }
    let differ: Vec<usize> = (0..a.len())
        .filter(|&i| !a[i].eq_ignore_ascii_case(&b[i]))
        .collect();
    match differ.as_slice() {
        [i, j] => {
            *j == i + 1 && a[*i].eq_ignore_ascii_case(&b[*j]) && a[*j].eq_ignore_ascii_case(&b[*i])
        }
        [_] => a.len() >= 10,
        _ => false,
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut seen = FxHashSet::default();
    for ua in cx.robots.user_agents() {
        let token = ua.token();
        if ua.is_global() || token.len() < 4 || !seen.insert(token.to_ascii_lowercase()) {
            continue;
        }
        if find(token).is_some() {
            continue;
        }
        let counts = letter_counts(token);
        let mask = letter_mask(&counts);
        let near = |i: usize| {
            // A letter one token holds and the other not adds at least 1
            // to the distance below: more than two such letters, too far.
            if (mask ^ table_letter_masks()[i]).count_ones() > 2 {
                return false;
            }
            let known = &table_letter_counts()[i];
            let apart: u32 = counts
                .iter()
                .zip(known)
                .map(|(a, b)| u32::from(a.abs_diff(*b)))
                .sum();
            apart <= 2
        };
        // The table's tokens one letter longer or shorter at most, in
        // table order.
        let candidates = candidates_by_length()
            .get(token.len())
            .map_or(&[][..], Vec::as_slice);
        let Some(known) = candidates
            .iter()
            .map(|&i| (i, crawlers()[i].token))
            .find(|&(i, known)| near(i) && one_slip(token, known))
            .map(|(_, known)| known)
        else {
            continue;
        };
        let crawler = find(known).expect("a token of the table");
        out.push(
            cx.diagnostic(
                Code::AgentTypo,
                cx.value_part_span(ua.line(), 0, token.len()),
                format!(
                    "`{token}` is not a known crawler token; did you mean `{known}` ({}, {})? As \
                     written, this group applies to no known crawler, and {known} gets the `*` \
                     group",
                    crawler.operator,
                    crawler.purpose.describe()
                ),
            )
            .with_fix(format!("write `{known}`"), Some(known.to_owned()))
            .with_verdict_change(format!(
                "fixed, this group applies to {known}, which now obeys its rules"
            )),
        );
    }
}

#[cfg(test)]
mod slip_tests {
    use super::*;

    #[test]
    fn candidates_are_the_tokens_of_neighbouring_lengths_in_table_order() {
        let by_length = tokens_by_length();
        for len in 4..by_length.len() + 3 {
            let mut gathered: Vec<usize> = (len - 1..=len + 1)
                .filter_map(|l| by_length.get(l))
                .flatten()
                .copied()
                .collect();
            gathered.sort_unstable();
            let kept = candidates_by_length()
                .get(len)
                .map_or(&[][..], Vec::as_slice);
            assert_eq!(kept, gathered.as_slice(), "length {len}");
        }
    }

    #[test]
    fn letter_masks_never_rule_out_a_near_token() {
        for (i, known) in table_letter_counts().iter().enumerate() {
            for (j, other) in table_letter_counts().iter().enumerate().step_by(7) {
                let apart: u32 = known
                    .iter()
                    .zip(other)
                    .map(|(a, b)| u32::from(a.abs_diff(*b)))
                    .sum();
                let masks = (table_letter_masks()[i] ^ table_letter_masks()[j]).count_ones();
                assert!(masks <= apart, "{i} {j}");
            }
        }
    }

    #[test]
    fn slips() {
        assert!(one_slip("GTPBot", "GPTBot"));
        assert!(one_slip("GPTBott", "GPTBot"));
        assert!(one_slip("Googlbot", "Googlebot"));
        assert!(one_slip("Baiduspidr", "Baiduspider"));
        assert!(!one_slip("Roverbot", "rogerbot"));
        assert!(!one_slip("discobot", "Discordbot"));
        assert!(!one_slip("gptbot", "GPTBot"));
        assert!(!one_slip("BSpider", "Spider"));
        assert!(!one_slip("vspider", "Spider"));
        assert!(one_slip("Spidder", "Spider"));
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(AgentTypo);
