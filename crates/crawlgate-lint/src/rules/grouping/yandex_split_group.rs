//! `R106` yandex-split-group: a blank line between user-agent lines starts a new group for Yandex: the robots above it get no rules

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::rules::profiles::yandex_alike;
use crate::wording::and_list;
use crawlgate::Who;
use crawlgate::{registry, Group, Profile, Reading, SelectionKind};
use rustc_hash::FxHashMap;
use std::sync::LazyLock;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::YandexSplitGroup,
    r#"## What it does

Reports user-agent lines that are followed by blank or comment lines and
then more user-agent lines, when they name Yandex's robots or `*`. Yandex's
parser starts a new group at a user-agent line that follows a blank line,
so the lines above get a group without rules; Google and RFC 9309 read one
group.

## Why it matters

In Yandex's reading the robots named above the blank line may fetch
everything, and the `*` group no longer applies to them: in the example,
Google and RFC 9309 disallow `/private/` to YandexBot, Yandex allows it
everything. When `*` is split off this way, every robot that has no group
of its own is allowed everything by Yandex.

## Example

```text
User-agent: Yandex

User-agent: *
Disallow: /private/
```

## Use instead

```text
User-agent: Yandex
User-agent: *
Disallow: /private/
```
"#,
    check,
);

/// A group Yandex's parser leaves without rules: `split` (its user-agent
/// lines) ends at blank or comment lines, and the next user-agent line
/// (`next`) is, for Google, one group with it; `robots` are the robots it
/// names that this leaves with no rules at all in Yandex's reading, where
/// Google's reading gives them something to obey.
pub(crate) struct Split<'a> {
    pub split: Group<'a>,
    pub next: Group<'a>,
    pub robots: Vec<&'static str>,
}

/// The robots of Yandex's table that are Yandex's own (crawlers the
/// registry reads by `yandex`), not the other engines its table lists.
/// Worked out once: looking each robot up in the registry for every file
/// cost more than the rest of the check.
fn yandex_robots() -> &'static [&'static registry::Robot] {
    static ROBOTS: LazyLock<Vec<&'static registry::Robot>> = LazyLock::new(|| {
        registry::robots(Profile::YANDEX.name)
            .filter(|robot| {
                registry::find(robot.token()).is_some_and(|c| c.profile == Some(Profile::YANDEX))
            })
            .collect()
    });
    &ROBOTS
}

/// Every such split, in file order.
pub(crate) fn splits<'a>(cx: &'a Context<'_>) -> Vec<Split<'a>> {
    let yandex = cx.reading(Profile::YANDEX);
    let google = cx.reading(Profile::GOOGLE);
    // Google's user-agent lines are in line order: found by halving.
    let google_agents: Vec<(u32, usize)> = google
        .groups()
        .flat_map(|g| g.user_agents().map(move |ua| (ua.line(), g.index())))
        .collect();
    let google_group = |line: u32| {
        google_agents
            .binary_search_by_key(&line, |&(l, _)| l)
            .ok()
            .map(|i| google_agents[i].1)
    };
    let robots = yandex_robots();
    // Whether each robot (and `*`) is left without rules by Yandex while
    // Google's reading disallows it something: worked out once per robot.
    let mut affected: FxHashMap<&'static str, bool> = FxHashMap::default();
    let mut is_affected = |name: &'static str| {
        *affected.entry(name).or_insert_with(|| {
            let ours = yandex.view(name);
            let theirs = match name {
                "*" => google.view(name),
                _ => google.view(Who::read(name, Reading::Crawler)),
            };
            ours.selection() != SelectionKind::Nothing
                && ours.groups().all(|g| g.rules().len() == 0)
                && theirs
                    .groups()
                    .flat_map(|g| g.rules())
                    .any(|r| !r.is_allow() && !r.is_empty())
        })
    };
    let groups: Vec<Group<'_>> = yandex.groups().collect();
    let mut out = Vec::new();
    for pair in groups.windows(2) {
        let (split, next) = (pair[0], pair[1]);
        if split.rules().len() > 0 || split.extensions().len() > 0 {
            continue;
        }
        let (Some(last), Some(first_next)) = (
            split.user_agents().last().map(|ua| ua.line()),
            next.user_agents().next().map(|ua| ua.line()),
        ) else {
            continue;
        };
        let gap = last + 1..first_next;
        let only_blank = !gap.is_empty()
            && gap.clone().all(|n| {
                let text = cx.line_bytes(n).trim_ascii_start();
                text.is_empty() || text.starts_with(b"#")
            });
        if !only_blank
            || google_group(last).is_none()
            || google_group(last) != google_group(first_next)
        {
            continue;
        }
        let mut named: Vec<&'static str> = Vec::new();
        for ua in split.user_agents() {
            if ua.is_global() {
                named.push("*");
            }
            for robot in robots {
                if robot.named_by(ua.value()) && !named.contains(&robot.full_name) {
                    named.push(robot.full_name);
                }
            }
        }
        named.retain(|&name| is_affected(name));
        if !named.is_empty() {
            out.push(Split {
                split,
                next,
                robots: named,
            });
        }
    }
    out
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Most files: provably no split, without Yandex's parse.
    if cx.html || yandex_alike::reads_alike(cx) {
        return;
    }
    for Split {
        split,
        next,
        robots,
    } in splits(cx)
    {
        let names: Vec<String> = split
            .user_agents()
            .map(|ua| format!("`User-agent: {}` (line {})", ua.value(), ua.line()))
            .collect();
        let first = split.first_line();
        let last = split.user_agents().last().map_or(first, |ua| ua.line());
        let next_line = next.first_line();
        // A `Yandex` line names most of the family: a few are named.
        const NAMED: usize = 3;
        let mut who: Vec<String> = robots
            .iter()
            .take(NAMED)
            .map(|r| match *r {
                "*" => "every robot without a group of its own".to_owned(),
                r => r.to_owned(),
            })
            .collect();
        if robots.len() > NAMED {
            who.push(format!("{} more of Yandex's robots", robots.len() - NAMED));
        }
        out.push(
            cx.diagnostic(
                Code::YandexSplitGroup,
                cx.content_span(first),
                format!(
                    "Yandex's parser starts a new group at line {next_line}, after the blank \
                     line: {} is a group without rules, so Yandex allows {} everything (Google \
                     and RFC 9309 read one group with the rules after line {next_line})",
                    and_list(&names),
                    and_list(&who)
                ),
            )
            .with_fix(
                format!(
                    "remove the blank or comment lines between lines {last} and {next_line}, or \
                     end the group with a rule line"
                ),
                None,
            ),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(YandexSplitGroup);
