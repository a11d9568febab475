//! `R205` disallowed-sitemap: a sitemap whose URL the file disallows

use crate::budget::{Budget, LookupCost};
use crate::context::generic_agent;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;
use crate::wording::{and_list, quote_rule};
use crawlgate::path_of;
use crawlgate::SelectionKind;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::DisallowedSitemap,
    r#"## What it does

Reports `Sitemap:` URLs whose path the file disallows for crawlers without
a group of their own (`*`), or for Googlebot or Bingbot when they have one.
This assumes the file is served for the sitemap's host.

## Why it matters

A crawler that obeys the file may not fetch the sitemap it is pointed to.

## Example

```text
User-agent: *
Disallow: /sitemaps/
Sitemap: https://example.com/sitemaps/main.xml
```

## Use instead

```text
User-agent: *
Disallow: /sitemaps/drafts/
Sitemap: https://example.com/sitemaps/main.xml
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let robots = cx.robots;
    if robots.sitemaps().len() == 0 {
        return;
    }
    let generic = generic_agent(robots);
    let mut crawlers: Vec<(&str, &str)> = Vec::new();
    if robots.selection_of(generic) == SelectionKind::Global {
        crawlers.push(("*", generic));
    }
    for name in ["Googlebot", "Bingbot"] {
        if robots.selection_of(name) == SelectionKind::Specific {
            crawlers.push((name, name));
        }
    }
    // A few sitemaps are cheaper to check against the rules one by one than
    // through a compiled matcher.
    let few = robots.sitemaps().len() <= 4;
    // Many sitemaps against thousands of rules sharing their first bytes
    // could be quadratic: lookups are paid from an allowance.
    let lookups: Vec<LookupCost> = if few {
        Vec::new()
    } else {
        crawlers
            .iter()
            .map(|(_, name)| {
                LookupCost::new(
                    robots
                        .groups_of(name)
                        .flat_map(|g| g.rules())
                        .map(|r| r.pattern()),
                )
            })
            .collect()
    };
    // One view per crawler, so that its rules are compiled once for all
    // the sitemaps (a view made per sitemap scanned every rule each time).
    let views: Vec<_> = if few {
        Vec::new()
    } else {
        crawlers.iter().map(|(_, name)| robots.view(name)).collect()
    };
    let budget = Budget::for_file(cx.source.len(), 64);
    for sitemap in robots.sitemaps() {
        let url = sitemap.url();
        let lower = url.to_ascii_lowercase();
        let Some(rest) = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
        else {
            continue;
        };
        let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let host = &url[url.len() - rest.len()..][..host_len];
        let path = path_of(url);
        let blocked: Vec<String> = crawlers
            .iter()
            .enumerate()
            .filter_map(|(i, (label, name))| {
                let verdict = if few {
                    robots.decide_path_uncompiled(name, &path)
                } else if budget.spend(lookups[i].of(&path)) {
                    views[i].decide_path(&path)
                } else {
                    return None;
                };
                let rule = verdict.rule()?;
                (!verdict.is_allowed()).then(|| format!("`{label}` ({})", quote_rule(&rule)))
            })
            .collect();
        if blocked.is_empty() {
            continue;
        }
        out.push(
            cx.diagnostic(
                Code::DisallowedSitemap,
                cx.value_span(sitemap.line()),
                format!(
                    "the sitemap `{path}` is disallowed for {} if this file is served for \
                     `{host}`: crawlers that obey it may not fetch the sitemap",
                    and_list(&blocked)
                ),
            )
            .with_fix(format!("add `Allow: {path}` to those groups"), None),
        );
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(DisallowedSitemap);
