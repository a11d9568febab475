//! `R102` repeated-group: several groups name the same crawler

use crate::budget::Budget;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::{and_list, lines_phrase};
use crawlgate::{Group, UserAgent};
use rustc_hash::{FxHashMap, FxHashSet};

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::RepeatedGroup,
    r#"## What it does

Reports every group after the first that names a crawler (or `*`) already
named by an earlier group and holds lines the first one lacks, naming what a
crawler that obeys only the first group would miss.

## Why it matters

Google and RFC 9309 crawlers merge all groups naming them, but older
crawlers obey only the first one, so the rules of the other groups are lost
for them. Groups that repeat what the first one says lose nothing and are
not reported.

## Example

```text
User-agent: Googlebot
Disallow: /a/

User-agent: *
Disallow: /b/

User-agent: Googlebot
Disallow: /c/
```

## Use instead

```text
User-agent: Googlebot
Disallow: /a/
Disallow: /c/

User-agent: *
Disallow: /b/
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if cx.audiences().iter().all(|a| a.groups.len() < 2) {
        return;
    }
    // The first user-agent line naming each token (`*` for the global ones)
    // in each group that repeats another, so that a group is not searched
    // once per audience.
    let mut repeating = vec![false; robots.groups().len()];
    for audience in cx.audiences().iter().filter(|a| a.groups.len() > 1) {
        for &g in &audience.groups[1..] {
            if let Some(slot) = repeating.get_mut(g as usize) {
                *slot = true;
            }
        }
    }
    let mut naming: FxHashMap<(usize, String), UserAgent<'_>> = FxHashMap::default();
    for ua in robots.user_agents() {
        if !repeating[ua.group().index()] {
            continue;
        }
        let name = if ua.is_global() {
            "*".to_owned()
        } else {
            ua.token().to_ascii_lowercase()
        };
        naming.entry((ua.group().index(), name)).or_insert(ua);
    }
    // Allow lines are compared with the first group's disallow rules, which
    // could multiply two sizes of the file: paid from an allowance.
    let budget = Budget::for_file(cx.source.len(), 8);
    for audience in cx.audiences() {
        if audience.groups.len() < 2 {
            continue;
        }
        let groups: Vec<Group<'_>> = audience
            .groups
            .iter()
            .filter_map(|&g| robots.group(g as usize))
            .collect();
        let Some(first) = groups.first() else {
            continue;
        };
        let first_lines: Vec<u32> = groups.iter().map(|g| g.first_line()).collect();
        let label = &audience.label;
        let key = label.to_ascii_lowercase();
        let in_first: FxHashSet<String> =
            lines_of(first).into_iter().map(|(line, _)| line).collect();
        let first_disallows = Disallows::of(first);
        for group in &groups[1..] {
            let Some(ua) = naming.get(&(group.index(), key.clone())) else {
                continue;
            };
            // What a crawler that obeys only the first group would miss:
            // nothing when this group repeats what the first one says.
            let missed: Vec<String> = lines_of(group)
                .into_iter()
                .filter(|(line, _)| !in_first.contains(line))
                .filter(|(line, _)| match line.strip_prefix("Allow: ") {
                    // An allow line changes what the first group decides
                    // only where one of its disallow rules applies.
                    Some(pattern) => first_disallows.narrowed_by(pattern, &budget),
                    None => true,
                })
                .map(|(line, n)| format!("`{line}` (line {n})"))
                .collect();
            if missed.is_empty() {
                continue;
            }
            let shown = &missed[..missed.len().min(NAMED)];
            let more = match missed.len() - shown.len() {
                0 => String::new(),
                n => format!(" and {n} more line(s)"),
            };
            out.push(
                cx.diagnostic(
                    Code::RepeatedGroup,
                    cx.content_span(ua.line()),
                    format!(
                        "`{label}` already has a group at line {}: Google and RFC 9309 crawlers \
                         merge the {} groups (starting on {}), but a crawler that obeys only the \
                         first misses {}{more}",
                        first_lines[0],
                        groups.len(),
                        lines_phrase(&first_lines),
                        and_list(shown),
                    ),
                )
                .with_fix("merge the groups into one", None),
            );
        }
    }
}

/// The disallow patterns of a group, and their lengths.
struct Disallows<'a> {
    patterns: FxHashSet<&'a str>,
    lengths: Vec<usize>,
}

impl<'a> Disallows<'a> {
    fn of(group: &Group<'a>) -> Self {
        let patterns: FxHashSet<&str> = group
            .rules()
            .filter(|r| !r.is_allow() && !r.is_empty())
            .map(|r| r.pattern())
            .collect();
        let mut lengths: Vec<usize> = patterns.iter().map(|p| p.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        Disallows { patterns, lengths }
    }

    /// Whether one of the patterns is a prefix of `allow` (`Disallow: /a`
    /// and `Allow: /a/b`): then the allow rule decides some paths
    /// differently. Looking prefixes up costs their lengths, paid from
    /// `budget` (when it runs out, the allow rule is taken to matter).
    fn narrowed_by(&self, allow: &str, budget: &Budget) -> bool {
        self.lengths
            .iter()
            .take_while(|&&len| len <= allow.len())
            .filter(|&&len| allow.is_char_boundary(len))
            .any(|&len| !budget.spend(len) || self.patterns.contains(&allow[..len]))
    }
}

/// Lines of a group quoted in a message, at most.
const NAMED: usize = 3;

/// The rule and extension lines of a group, as written (`Disallow: /a`,
/// `Crawl-delay: 5`), each once, with its line number, in file order.
fn lines_of(group: &Group<'_>) -> Vec<(String, u32)> {
    let mut seen = FxHashSet::default();
    let mut lines: Vec<(String, u32)> = group
        .rules()
        .filter(|rule| !rule.is_empty())
        .map(|rule| (rule.to_string(), rule.line()))
        .chain(
            group
                .extensions()
                .map(|ext| (format!("{}: {}", ext.key(), ext.value()), ext.line())),
        )
        .filter(|(line, _)| seen.insert(line.clone()))
        .collect();
    lines.sort_by_key(|&(_, n)| n);
    lines
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    fn found(file: &str) -> Vec<String> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::RepeatedGroup)
            .map(|d| format!("{}: {}", d.span.line, d.message))
            .collect()
    }

    #[test]
    fn only_groups_that_add_something_are_reported() {
        let same = "User-agent: asterias\nDisallow: /\n\nUser-agent: asterias\nDisallow: /\n";
        assert_eq!(found(same), Vec::<String>::new());
        let subset = "User-agent: a\nDisallow: /x\nDisallow: /y\n\nUser-agent: a\nDisallow: /y\n";
        assert_eq!(found(subset), Vec::<String>::new());
        let open = "User-agent: *\nDisallow: /r/\n\nUser-agent: *\nAllow: /\n";
        assert_eq!(found(open), Vec::<String>::new());
        let narrows = "User-agent: *\nDisallow: /r/\n\nUser-agent: *\nAllow: /r/public\n";
        assert_eq!(found(narrows).len(), 1);
        let adds = "User-agent: a\nDisallow: /x\n\nUser-agent: a\nDisallow: /z\nCrawl-delay: 5\n";
        let found = found(adds);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("4: ")
                && found[0]
                    .ends_with("misses `Disallow: /z` (line 5) and `Crawl-delay: 5` (line 6)"),
            "{found:?}"
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(RepeatedGroup);
