//! `R101` merged-groups: non-rule lines between user-agent lines silently merge what look like separate groups

use crate::budget::Budget;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::{and_list, lines_phrase, quote_rule};
use crawlgate::{ExtensionKind, Group, Profile, Rule, UserAgent};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::MergedGroups,
    r#"## What it does

Reports user-agent lines that are separated from the user-agent lines above
them only by non-rule lines (`Crawl-delay`, `Sitemap`, `Host`…). The message
names every crawler that ends up in the merged group and the rules they all
obey.

## Why it matters

Only an allow or disallow line ends a group. In the example, `a` was meant
to get a crawl delay and nothing else, but `a` and `*` are one group: `a` is
disallowed everywhere, and every crawler takes the first crawl delay (1 s).

## Example

```text
User-agent: a
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /
```

## Use instead

```text
User-agent: a
Crawl-delay: 1
Disallow:

User-agent: *
Crawl-delay: 30
Disallow: /
```
"#,
    check,
);

/// Longest user-agent value quoted in full.
const MAX_NAME: usize = 128;

/// Most bytes of names listed in one message; the rest are counted.
const MAX_LISTED: usize = 4096;

/// Bytes of names all the messages of a file may list, per byte of the file
/// (the corpus lists at most 53): a group of thousands of crawlers, each
/// separated from the next, would otherwise list thousands of names in each
/// of thousands of findings.
const LISTED_PER_BYTE: u64 = 64;

/// "`a` (line 1), `b` (line 3) and `c` (line 5)", or with a count of the
/// rest once the list is long: "… and 40 more". The first name is always
/// shown.
fn names(agents: &[UserAgent<'_>], budget: &Budget) -> String {
    names_of(agents.iter().copied(), agents.len(), budget)
}

/// [`names`] of the `total` crawlers `agents` yields, taken only as far as
/// the list goes: a message names a few, whatever the size of the group.
fn names_of<'a>(
    agents: impl Iterator<Item = UserAgent<'a>>,
    total: usize,
    budget: &Budget,
) -> String {
    let mut listed: Vec<String> = Vec::new();
    let mut bytes = 0;
    for ua in agents {
        let value = ua.value();
        let shown = if value.len() > MAX_NAME {
            let mut end = MAX_NAME;
            while !value.is_char_boundary(end) {
                end -= 1;
            }
            format!("`{}…` (line {})", &value[..end], ua.line())
        } else {
            format!("`{value}` (line {})", ua.line())
        };
        bytes += shown.len() + 2;
        if !listed.is_empty() && (bytes > MAX_LISTED || !budget.spend(shown.len() + 2)) {
            listed.push(format!("{} more", total - listed.len()));
            break;
        }
        listed.push(shown);
    }
    and_list(&listed)
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let budget = Budget::for_file(cx.source.len(), LISTED_PER_BYTE);
    let sitemap_lines: Vec<u32> = cx.robots.sitemaps().map(|s| s.line()).collect();
    for group in cx.robots.groups() {
        let agents: Vec<UserAgent<'_>> = group.user_agents().collect();
        if agents.len() < 2 {
            continue;
        }
        let (first, last) = (agents[0].line(), agents[agents.len() - 1].line());
        let mut separators: Vec<(u32, String)> = group
            .extensions()
            .filter(|e| e.line() > first && e.line() < last)
            .map(|e| (e.line(), e.key().to_owned()))
            .collect();
        // Sitemaps are in line order: the ones inside the group's lines.
        let from = sitemap_lines.partition_point(|&l| l <= first);
        let to = sitemap_lines.partition_point(|&l| l < last);
        separators.extend(
            sitemap_lines[from..to.max(from)]
                .iter()
                .map(|&l| (l, "Sitemap".to_owned())),
        );
        if separators.is_empty() {
            continue;
        }
        separators.sort();
        // The first separator between each user-agent line and the one
        // before it, found in one sweep over both (they are in line order).
        let mut between: Vec<Option<&(u32, String)>> = vec![None; agents.len()];
        let mut next = 0;
        for i in 1..agents.len() {
            while next < separators.len() && separators[next].0 <= agents[i - 1].line() {
                next += 1;
            }
            between[i] = separators
                .get(next)
                .filter(|(line, _)| *line < agents[i].line());
        }
        // The end of each run of user-agent lines with no separator between
        // them: for `i`, the first `j > i` with a separator before it.
        let mut run_end = vec![agents.len(); agents.len() + 1];
        for i in (1..agents.len()).rev() {
            run_end[i] = if i + 1 < agents.len() && between[i + 1].is_none() {
                run_end[i + 1]
            } else {
                i + 1
            };
        }
        let shared = shared_lines(&group);
        // Bing's reading ends a group at a `Crawl-delay` line (in the
        // linted reading, such a line between user-agent lines means the
        // linted reading is not Bing's).
        let delays: Vec<u32> = group
            .extensions()
            .filter(|e| {
                e.kind() == ExtensionKind::CrawlDelay && e.line() > first && e.line() < last
            })
            .map(|e| e.line())
            .collect();
        // Which crawlers Bing's reading is for, and which not, by index:
        // each message then costs what it names, not the size of the group.
        let (bing_idx, other_idx): (Vec<usize>, Vec<usize>) =
            (0..agents.len()).partition(|&i| Profile::BING.reads_for(agents[i].token()));
        for i in 1..agents.len() {
            let Some((sep_line, sep_key)) = between[i] else {
                continue;
            };
            let end = run_end[i];
            let span = cx.content_span(agents[i].line());
            let fixed = format!(
                "Disallow:\n{}",
                String::from_utf8_lossy(&cx.source[span.bytes.clone()])
            );
            // `delays` is in line order.
            let bing_ends = delays
                .get(delays.partition_point(|&l| l <= agents[i - 1].line()))
                .filter(|&&l| l < agents[i].line());
            let message = match bing_ends {
                None => format!(
                    "`{sep_key}` (line {sep_line}) does not end a group: {} share one group, \
                     so all of them {shared}",
                    names(&agents[..end], &budget)
                ),
                Some(delay) => bing_message(
                    *delay,
                    &agents[..end],
                    i,
                    &bing_idx[..bing_idx.partition_point(|&j| j < i)],
                    &other_idx[..other_idx.partition_point(|&j| j < i)],
                    &shared,
                    &budget,
                ),
            };
            out.push(cx.diagnostic(Code::MergedGroups, span, message).with_fix(
                format!(
                    "if {} should not obey these rules, end its group with a rule line before \
                         line {} (`Disallow:` allows everything)",
                    names(&agents[..i], &budget),
                    agents[i].line()
                ),
                Some(fixed),
            ));
        }
    }
}

/// The message when Bing's reading ends the group at a `Crawl-delay`
/// (line `delay`) between `before` and the next user-agent line: which
/// crawlers share the group in Google's reading, and which keep a group of
/// their own in Bing's. Bing's crawlers named before the line are left out
/// of Google's list: their own reading does not put them in the group.
fn bing_message(
    delay: u32,
    merged: &[UserAgent<'_>],
    before: usize,
    bing_before: &[usize],
    others_before: &[usize],
    shared: &str,
    budget: &Budget,
) -> String {
    let bing_before_count = bing_before.len();
    let bing_side = || bing_before.iter().map(|&j| merged[j]);
    // Google's side: the merged crawlers but Bing's before the line.
    let google_side = || {
        others_before
            .iter()
            .map(|&j| merged[j])
            .chain(merged[before..].iter().copied())
    };
    let google_count = merged.len() - bing_before_count;
    let head = format!("`Crawl-delay` (line {delay}) ends a group for Bing but not for Google");
    let mut text = if google_count == 1 {
        format!(
            "{head}: in Google's reading the user-agent lines before it join the group of {}, \
             whose crawlers {shared}",
            names_of(google_side(), 1, budget)
        )
    } else {
        format!(
            "{head}: in Google's reading {} share one group, so all of them {shared}",
            names_of(google_side(), google_count, budget)
        )
    };
    if bing_before_count == 0 {
        text.push_str(&format!(
            "; Bing's reading keeps {} in a group of its own",
            names(&merged[..before], budget)
        ));
    } else {
        text.push_str(&format!(
            "; {} {} Bing's reading, which gives {} a group of its own, without these rules",
            names_of(bing_side(), bing_before_count, budget),
            if bing_before_count == 1 {
                "follows"
            } else {
                "follow"
            },
            if bing_before_count == 1 { "it" } else { "them" },
        ));
    }
    text
}

/// "obey `Disallow: /` (line 5)", "obey 12 rules: `…` (line 5), … (lines 5–40)".
fn shared_lines(group: &Group<'_>) -> String {
    let rules: Vec<Rule<'_>> = group.rules().collect();
    let mut text = match rules.as_slice() {
        [] => {
            let lines: Vec<u32> = group.extensions().map(|e| e.line()).collect();
            format!("share the records on {}", lines_phrase(&lines))
        }
        [_] | [_, _] | [_, _, _] => {
            let quoted: Vec<String> = rules.iter().map(quote_rule).collect();
            format!("obey {}", and_list(&quoted))
        }
        [a, b, .., last] => format!(
            "obey its {} rules ({}, {} … up to line {})",
            rules.len(),
            quote_rule(a),
            quote_rule(b),
            last.line()
        ),
    };
    let delays: Vec<u32> = group
        .extensions()
        .filter(|e| e.crawl_delay().is_some())
        .map(|e| e.line())
        .collect();
    if delays.len() > 1 {
        text.push_str(&format!(
            ", and all take the first `Crawl-delay` (line {})",
            delays[0]
        ));
    }
    text
}

#[cfg(test)]
crate::testing::fixture_tests!(MergedGroups);
