//! `R502` search-crawler-in-ai-group: a search engine's crawler inside a
//! group meant for AI crawlers

use crate::audit::{crawlers, find, Crawler, CrawlerKind, Purpose};
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::and_list;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::SearchCrawlerInAiGroup,
    r#"## What it does

Reports a search engine's crawler (the registry's purpose `search`) named in
a group that holds mostly AI crawlers (AI training, AI search and
assistants: two or more, more than the search crawlers) and disallows
something: a list of AI crawlers to block that caught a search engine. When
its operator has a control token for AI use (`Applebot-Extended`,
`Google-Extended`), the finding names it.

## Why it matters

The group shuts the search crawler out of what it disallows, as it does the
AI crawlers: pages leave that search engine. Lists of AI crawlers copied
from the web have carried `Applebot` (Apple's search crawler) beside
`Applebot-Extended` (the token that governs Apple's AI training).

## Example

```text
User-agent: GPTBot
User-agent: CCBot
User-agent: Applebot
Disallow: /
```

## Use instead

```text
User-agent: GPTBot
User-agent: CCBot
User-agent: Applebot-Extended
Disallow: /
```
"#,
    check,
);

/// The registry crawler a `User-agent` line names: by its value (`ChatGPT
/// Agent`), else by its product token.
fn named(value: &str, token: &str) -> Option<&'static Crawler> {
    crawlgate::registry::find(value).or_else(|| find(token))
}

/// The control token its operator governs AI use with, if it has one.
fn control_token(crawler: &Crawler) -> Option<&'static Crawler> {
    crawlers().iter().find(|c| {
        c.kind == CrawlerKind::ControlToken && c.operator == crawler.operator && c.purpose.is_ai()
    })
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for group in cx.robots.groups() {
        if !group.rules().any(|r| !r.is_allow() && !r.is_empty()) {
            continue;
        }
        let mut ai: Vec<String> = Vec::new();
        let mut search = Vec::new();
        for ua in group.user_agents() {
            let Some(crawler) = named(ua.value(), ua.token()) else {
                continue;
            };
            if crawler.purpose.is_ai() {
                ai.push(format!("`{}`", ua.value()));
            } else if crawler.purpose == Purpose::Search && crawler.runs() {
                search.push((ua, crawler));
            }
        }
        if ai.len() < 2 || ai.len() <= search.len() {
            continue;
        }
        let count = ai.len();
        let shown: Vec<String> = if count > 3 {
            let mut some = ai[..3].to_vec();
            some.push(format!("{} more", count - 3));
            some
        } else {
            ai
        };
        for (ua, crawler) in search {
            let (instead, fix) = match control_token(crawler) {
                Some(control) => (
                    format!(
                        "; `{}` is the token that governs {}'s AI use without leaving its search",
                        control.token, crawler.operator
                    ),
                    format!(
                        "name `{}` instead, and give `{}` a group of its own if it needs rules",
                        control.token,
                        ua.value()
                    ),
                ),
                None => (
                    String::new(),
                    format!("move `{}` to a group of its own", ua.value()),
                ),
            };
            out.push(
                cx.diagnostic(
                    Code::SearchCrawlerInAiGroup,
                    cx.value_span(ua.line()),
                    format!(
                        "`{}` is {}'s search crawler ({}), in a group of {count} AI crawlers ({}): \
                         its rules keep it out of search too{instead}",
                        ua.value(),
                        crawler.operator,
                        crawler.note.split(';').next().unwrap_or(crawler.note),
                        and_list(&shown)
                    ),
                )
                .with_fix(fix, None),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{lint, Code, LintOptions};

    fn found(file: &str) -> Vec<(u32, String)> {
        lint(file.as_bytes(), &LintOptions::default())
            .with_code(Code::SearchCrawlerInAiGroup)
            .map(|d| (d.span.line, d.message.to_string()))
            .collect()
    }

    #[test]
    fn a_search_crawler_among_ai_crawlers() {
        let list = "User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: Applebot\nUser-agent: CCBot\nDisallow: /\n";
        let found = found(list);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, 3);
        assert!(
            found[0]
                .1
                .starts_with("`Applebot` is Apple's search crawler"),
            "{}",
            found[0].1
        );
        assert!(
            found[0].1.contains("`Applebot-Extended` is the token"),
            "{}",
            found[0].1
        );
        // Without a control token of its operator: move it out.
        let list = "User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: DuckDuckBot\nDisallow: /\n";
        let report = lint(list.as_bytes(), &LintOptions::default());
        let d = report
            .with_code(Code::SearchCrawlerInAiGroup)
            .next()
            .unwrap();
        assert_eq!(
            d.fix.as_ref().unwrap().message,
            "move `DuckDuckBot` to a group of its own"
        );
    }

    /// A list of AI crawlers as the best-known list writes its robots.txt
    /// (every name the registry took from it, as written, in one group)
    /// that also names Applebot: each name that is no product token gets
    /// R103, each search engine's crawler R502 (Applebot, and PetalBot,
    /// which the list itself carries), and nothing else in the list does.
    #[test]
    fn the_lists_of_crawlers_people_copy() {
        let names: Vec<&str> = crate::audit::crawlers()
            .iter()
            .filter(|c| c.source.key == "ai-robots-txt")
            .map(|c| c.name)
            .chain(["Applebot"])
            .collect();
        let mut file = String::new();
        for name in &names {
            file.push_str(&format!("User-agent: {name}\n"));
        }
        file.push_str("Disallow: /\n");
        let report = lint(file.as_bytes(), &LintOptions::default());
        let not_tokens = names
            .iter()
            .filter(|n| !crawlgate::is_product_token(n))
            .count();
        assert!(not_tokens >= 15, "{not_tokens}");
        assert_eq!(
            report.with_code(Code::AgentNotProductToken).count(),
            not_tokens
        );
        let search: Vec<u32> = report
            .with_code(Code::SearchCrawlerInAiGroup)
            .map(|d| d.span.line)
            .collect();
        let expected: Vec<u32> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let c = crawlgate::registry::find(n).unwrap();
                c.purpose == crate::audit::Purpose::Search && c.runs()
            })
            .map(|(i, _)| i as u32 + 1)
            .collect();
        assert!(expected.len() >= 2, "{expected:?}");
        assert_eq!(search, expected);
    }

    #[test]
    fn groups_that_are_not_ai_lists_are_left_alone() {
        // One AI crawler beside search engines: a shared group on purpose.
        assert!(found(
            "User-agent: Googlebot\nUser-agent: GPTBot\nUser-agent: bingbot\nDisallow: /x/\n"
        )
        .is_empty());
        // A welcome list that disallows nothing.
        assert!(
            found("User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Applebot\nAllow: /\n")
                .is_empty()
        );
        // The control token is no search crawler.
        assert!(found(
            "User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Applebot-Extended\nDisallow: /\n"
        )
        .is_empty());
        // A retired search crawler crawls nothing (R503 says so).
        assert!(
            found("User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Teoma\nDisallow: /\n")
                .is_empty()
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(SearchCrawlerInAiGroup);
