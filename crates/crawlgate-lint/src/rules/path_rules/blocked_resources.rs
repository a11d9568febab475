//! `R206` blocked-resources: CSS or JavaScript disallowed for Googlebot

use crawlgate::Severity;

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

Reports disallow rules that visibly target stylesheets or scripts that
public pages render with (their pattern names `.css` or `.js`, or ends in a
folder named `css`, `js`, `javascript` or `stylesheets`, a WordPress or
Drupal theme folder, or the top folder `/assets/` or `/static/`) and that decide such a URL for Googlebot. Left out: scripts of
admin and internal areas (`/wp-admin/`, `/cgi-bin/`, editors such as
CKEditor), analytics and testing scripts pages do not need to render, and
resources inside a folder whose pages Googlebot may not fetch anyway (the
folder itself or its `index.html` is disallowed), which no page Google sees
uses. When the folder has many other disallowed sections (it looks
withdrawn as a whole), the finding is information.

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
    memchr::memchr_iter(b'.', bytes).any(|i| {
        let rest = &bytes[i + 1..];
        rest.starts_with(b"css") || rest.starts_with(b"js")
    }) || folder_extension(pattern).is_some()
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

/// Folders that hold a site's build output (stylesheets, scripts, images)
/// when they are at the top (`/assets/`, `/static/`); deeper down they
/// often hold documents (`/us/en/advisory/assets/report.pdf`).
const TOP_RESOURCE_FOLDERS: &[&str] = &["assets", "static"];

/// Theme folders of content systems whose stylesheets and scripts public
/// pages use (a top-level `/themes/` is Drupal's core themes, which sites
/// seldom show).
const THEME_FOLDERS: &[&str] = &["wp-content/themes", "sites/all/themes"];

/// Path segments of areas whose scripts no public page renders with:
/// admin and internal tools, editors.
const INTERNAL_SEGMENTS: &[&str] = &[
    "admin",
    "administrator",
    "backend",
    "backoffice",
    "cgi-bin",
    "ckeditor",
    "fckeditor",
    "internal",
    "intranet",
    "solr",
    "tinymce",
    "wp-admin",
];

/// Disallowed sections under a folder (beside its stylesheets and
/// scripts) from which the folder looks withdrawn as a whole.
const WITHDRAWN_SECTIONS: usize = 8;

/// Words in a file name of scripts a page does not need to render:
/// analytics, tag managers, A/B tests, service workers.
const UNRENDERED_SCRIPTS: &[&str] = &[
    "ab_test",
    "analytics",
    "ckeditor",
    "gtm",
    "mbox",
    "s_code",
    "service_worker",
    "showads",
    "streamsense",
    "tracking",
];

/// Whether a pattern names an admin or internal area, or a script that
/// pages do not render with.
fn internal(pattern: &str) -> bool {
    let lower = pattern.to_ascii_lowercase();
    let mut segments = lower.split('/').filter(|s| !s.is_empty());
    let file = lower.rsplit('/').next().unwrap_or("");
    segments.any(|segment| {
        let segment = segment.trim_matches('*');
        INTERNAL_SEGMENTS.contains(&segment)
            || segment.ends_with("-admin")
            || segment.ends_with("_admin")
    }) || UNRENDERED_SCRIPTS.iter().any(|word| file.contains(word))
}

/// The folders a resource sits in (`/de/` and `/de/static/` for
/// `/de/static/site.js`), the root left out; without the folder it is
/// directly in when that is a resource folder (`/de/` alone for
/// `/de/js/site.js`: pages live above `js/`).
fn page_folders(path: &str, in_resource_folder: bool) -> impl Iterator<Item = &str> {
    let own = path.rfind('/').unwrap_or(0);
    let last = if in_resource_folder {
        path[..own].rfind('/').unwrap_or(0)
    } else {
        own
    };
    path.match_indices('/')
        .map(|(i, _)| i + 1)
        .filter(move |&end| end > 1 && end <= last + 1)
        .map(move |end| &path[..end])
}

/// The extension of the files in the resource folder a pattern ends in
/// (`/static/css/`, `/web/javascript`).
fn folder_extension(pattern: &str) -> Option<&'static str> {
    // Bytes, not `str` searches: this is asked of every disallow rule.
    let mut body = pattern.as_bytes();
    while let [rest @ .., b'$' | b'*'] = body {
        body = rest;
    }
    while let [rest @ .., b'/'] = body {
        body = rest;
    }
    // No folder (`css`): no slash before the last segment.
    let slash = memchr::memrchr(b'/', body)?;
    let last = &body[slash + 1..];
    let ends_with = |folder: &str| {
        body.len() >= folder.len()
            && body[body.len() - folder.len()..].eq_ignore_ascii_case(folder.as_bytes())
    };
    if THEME_FOLDERS.iter().any(|f| ends_with(f)) {
        return Some(".css");
    }
    if slash == 0
        && TOP_RESOURCE_FOLDERS
            .iter()
            .any(|name| last.eq_ignore_ascii_case(name.as_bytes()))
    {
        return Some(".css");
    }
    RESOURCE_FOLDERS
        .iter()
        .find(|(name, _)| last.eq_ignore_ascii_case(name.as_bytes()))
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
    let view = cx.robots.view("Googlebot");
    // One lookup per rule could be quadratic when thousands of rules share
    // their first bytes: lookups are paid from an allowance.
    let lookup = std::cell::OnceCell::new();
    let budget = Budget::for_file(cx.source.len(), 64);
    let cost = || LookupCost::new(view.groups().flat_map(|g| g.rules()).map(|r| r.pattern()));
    let mut samples = Vec::new();
    let all_rules: Vec<crawlgate::Rule<'_>> = view.groups().flat_map(|g| g.rules()).collect();
    for group in view.groups() {
        for rule in group.rules() {
            let pattern = rule.pattern();
            if rule.is_allow() || !mentions_css_or_js(pattern) || internal(pattern) {
                continue;
            }
            samples.clear();
            resource_samples(pattern, &mut samples);
            let blocked = samples.iter().find(|path| {
                let resource = [".css", ".js"]
                    .iter()
                    .any(|ext| path.ends_with(ext) || path.contains(&format!("{ext}?")));
                if !resource || !budget.spend(lookup.get_or_init(cost).of(path)) {
                    return false;
                }
                let verdict = view.decide_path(path);
                !verdict.is_allowed() && verdict.rule().is_some_and(|r| r.index() == rule.index())
            });
            let Some(path) = blocked else {
                continue;
            };
            // A folder whose pages Googlebot may not fetch (the folder, or
            // its index page) has no page Google renders that needs the
            // file: a site that retired a section disallows both.
            let in_resource_folder = folder_extension(pattern).is_some();
            let closed = page_folders(path, in_resource_folder).any(|folder| {
                budget.spend(3 * lookup.get_or_init(cost).of(folder))
                    && ["", "index.html"]
                        .iter()
                        .any(|page| !view.decide_path(&format!("{folder}{page}")).is_allowed())
            });
            if closed {
                continue;
            }
            // A folder with many disallowed sections looks withdrawn as a
            // whole (a retired country site): its pages may not need the
            // file either, so say it with less confidence.
            let withdrawn = page_folders(path, in_resource_folder).find(|folder| {
                budget.spend(all_rules.len())
                    && all_rules
                        .iter()
                        .filter(|r| {
                            !r.is_allow()
                                && r.pattern().len() > folder.len()
                                && r.pattern().starts_with(folder)
                                && !mentions_css_or_js(r.pattern())
                        })
                        .count()
                        >= WITHDRAWN_SECTIONS
            });
            let mut d = cx
                .diagnostic(
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
                );
            if let Some(folder) = withdrawn {
                d.severity = Severity::Info;
                d.message = format!(
                    "{}; most of `{folder}` is disallowed too, so if its pages are retired \
                     nothing is lost",
                    d.message
                )
                .into();
            }
            out.push(d);
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
        assert_eq!(folder_extension("/assets/"), Some(".css"));
        assert_eq!(folder_extension("/us/en/advisory/assets/*"), None);
        assert_eq!(folder_extension("/wp-content/themes/"), Some(".css"));
        let mut out = Vec::new();
        resource_samples("/static/css/", &mut out);
        assert_eq!(out, ["/static/css/", "/static/css/site.css"]);
        let folders: Vec<&str> = page_folders("/de/static/js/site.js", true).collect();
        assert_eq!(folders, ["/de/", "/de/static/"]);
        let folders: Vec<&str> = page_folders("/de/site.css", false).collect();
        assert_eq!(folders, ["/de/"]);
        assert_eq!(page_folders("/x.js", false).count(), 0);
        assert_eq!(page_folders("/js/site.js", true).count(), 0);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(BlockedResources);
