//! `R206` blocked-resources: CSS or JavaScript disallowed for Googlebot

use crate::budget::{Budget, LookupCost};
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::inclusion::sample_paths;
use crate::rule::RuleInfo;
use crate::wording::quote_rule;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::BlockedResources,
    r#"## What it does

Reports disallow rules that visibly target stylesheets or scripts (their
pattern names `.css` or `.js`, or ends in a folder named `css`, `js`,
`javascript` or `stylesheets`) and that decide such a URL for Googlebot.

## Why it matters

Google renders pages the way a browser does. Without their CSS and
JavaScript, pages can look broken, empty or not mobile-friendly to it.

## Example

```text
User-agent: *
Disallow: /*.js$
```

## Use instead

```text
User-agent: *
Disallow: /*.json$
```
"#,
    check,
);

/// Whether a pattern names `.css` or `.js`, or a stylesheet or script
/// folder.
fn mentions_css_or_js(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    folder_extension(pattern).is_some()
        || memchr::memchr_iter(b'.', bytes).any(|i| {
            let rest = &bytes[i + 1..];
            rest.starts_with(b"css") || rest.starts_with(b"js")
        })
}

/// Folders that by name hold stylesheets or scripts, with the extension of
/// their files.
const RESOURCE_FOLDERS: &[(&str, &str)] = &[
    ("css", ".css"),
    ("stylesheets", ".css"),
    ("js", ".js"),
    ("javascript", ".js"),
    ("javascripts", ".js"),
];

/// The extension of the files in the resource folder a pattern ends in
/// (`/static/css/`, `/web/javascript`).
fn folder_extension(pattern: &str) -> Option<&'static str> {
    let body = pattern.trim_end_matches(['$', '*']).trim_end_matches('/');
    let last = body.rsplit('/').next()?;
    if last.len() == body.len() {
        return None; // no folder: `css`
    }
    RESOURCE_FOLDERS
        .iter()
        .find(|(name, _)| last.eq_ignore_ascii_case(name))
        .map(|&(_, ext)| ext)
}

/// The sample paths of a pattern, with a file inside it for a resource
/// folder (`/static/css/` gives `/static/css/site.css`).
fn resource_samples(pattern: &str, out: &mut Vec<String>) {
    sample_paths(pattern, out);
    if let Some(ext) = folder_extension(pattern) {
        let files: Vec<String> = out
            .iter()
            .map(|path| {
                let dir = path.trim_end_matches('/');
                format!("{dir}/site{ext}")
            })
            .collect();
        out.extend(files);
    }
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let visible = |r: &crawlgate::Rule<'_>| !r.is_allow() && mentions_css_or_js(r.pattern());
    if !cx.robots.rules().any(|r| visible(&r)) {
        return; // nothing to compile a view for
    }
    let view = cx.robots.for_agent("Googlebot");
    // One lookup per rule could be quadratic when thousands of rules share
    // their first bytes: lookups are paid from an allowance.
    let lookup = std::cell::OnceCell::new();
    let budget = Budget::for_file(cx.source.len(), 64);
    let mut samples = Vec::new();
    for group in view.groups() {
        for rule in group.rules() {
            let pattern = rule.pattern();
            if rule.is_allow() || !mentions_css_or_js(pattern) {
                continue;
            }
            samples.clear();
            resource_samples(pattern, &mut samples);
            let blocked = samples.iter().find(|path| {
                let resource = [".css", ".js"]
                    .iter()
                    .any(|ext| path.ends_with(ext) || path.contains(&format!("{ext}?")));
                let cost =
                    || LookupCost::new(view.groups().flat_map(|g| g.rules()).map(|r| r.pattern()));
                if !resource || !budget.spend(lookup.get_or_init(cost).of(path)) {
                    return false;
                }
                let verdict = view.decide_path(path);
                !verdict.is_allowed() && verdict.rule().is_some_and(|r| r.index() == rule.index())
            });
            let Some(path) = blocked else {
                continue;
            };
            out.push(
                cx.diagnostic(
                    Code::BlockedResources,
                    cx.content_span(rule.line()),
                    format!(
                        "Googlebot may not fetch `{path}` ({} decides): Google renders pages \
                         with their CSS and JavaScript, pages that need this file may look \
                         broken or empty to it",
                        quote_rule(&rule)
                    ),
                )
                .with_fix(
                    "remove the rule, or allow the stylesheets and scripts pages need",
                    None,
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_folders_are_found() {
        assert_eq!(folder_extension("/static/css/"), Some(".css"));
        assert_eq!(folder_extension("/web/javascript"), Some(".js"));
        assert_eq!(folder_extension("/*/stylesheets/*"), Some(".css"));
        assert_eq!(folder_extension("/jsp/"), None);
        assert_eq!(folder_extension("css"), None);
        let mut out = Vec::new();
        resource_samples("/static/css/", &mut out);
        assert_eq!(out, ["/static/css/", "/static/css/site.css"]);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(BlockedResources);
