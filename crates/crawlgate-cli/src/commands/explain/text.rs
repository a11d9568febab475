//! The human explanation: the fetch, then how the crawler reads the file
//! (groups, rules, extensions and sitemaps), then each URL with every
//! matching rule and the one that decides.

use std::fmt::Write as _;

use crawlgate::{AgentView, Reading as NameReading, Reason, Who};
use crawlgate_answers::{Basis, OutcomeKind};

use super::extensions::render_extensions;
use super::groups::render_groups;
use super::rules::{render_rule_rows, render_rules};
use crate::load::fetch::fetch_summary;
use crawlgate_answers::Robots;

use crate::load::source::Loaded;
use crate::output::{line_ref, Palette};

/// The whole explanation, for `agent` and each of `urls`.
pub fn render(
    (loaded, reading): (&Loaded, &Robots),
    agent: &str,
    how: NameReading,
    urls: &[String],
    p: Palette,
) -> String {
    let mut out = String::new();
    let name = &loaded.name;
    if let Some(fetch) = loaded.fetch() {
        let _ = writeln!(out, "{}", p.dim(&fetch_summary(fetch)));
    }
    if let Some(outcome) = reading.outcome_without_rules() {
        let every = if outcome.kind() == OutcomeKind::FullAllow {
            "allowed"
        } else {
            "disallowed"
        };
        let _ = writeln!(
            out,
            "No rules are read: {}. Every URL is {every}.",
            outcome.reason
        );
        for url in urls {
            out.push('\n');
            render_url((loaded, reading), None, (agent, how), url, p, &mut out);
        }
        return out;
    }
    let Some(robots) = reading.robots() else {
        return out;
    };
    let _ = writeln!(
        out,
        "How `{agent}` reads {name} ({} profile)\n",
        robots.profile()
    );
    let view = robots.view(Who::read(agent, how));
    render_groups(&view, agent, name, p, &mut out);
    out.push('\n');
    render_rules(&view, name, p, &mut out);
    out.push('\n');
    render_extensions(&view, name, p, &mut out);
    for url in urls {
        out.push('\n');
        render_url(
            (loaded, reading),
            Some(&view),
            (agent, how),
            url,
            p,
            &mut out,
        );
    }
    out
}

/// One URL: the verdict, then what decided it (the fetch outcome, the
/// `/robots.txt` rule, no group, or every matching rule).
fn render_url(
    (loaded, reading): (&Loaded, &Robots),
    view: Option<&AgentView<'_>>,
    (agent, how): (&str, NameReading),
    url: &str,
    p: Palette,
    out: &mut String,
) {
    let verdict = reading.decide(Who::read(agent, how), url);
    let name = &loaded.name;
    let _ = writeln!(
        out,
        "{}  {}",
        p.heading(url),
        p.verdict(verdict.allowed, verdict.word())
    );
    match verdict.basis {
        Basis::FullAllow | Basis::FullDisallow => {
            let why = verdict
                .fetch_outcome
                .map(|reason| reason.to_string())
                .unwrap_or_default();
            let _ = writeln!(out, "  the fetch outcome decides: {why}");
            return;
        }
        Basis::Rules(Reason::RobotsTxt) => {
            let _ = writeln!(out, "  /robots.txt itself is always allowed");
            return;
        }
        Basis::Rules(Reason::RuleLimit) => {
            let why = verdict
                .choice
                .as_ref()
                .map(|c| c.why.clone())
                .unwrap_or_default();
            let _ = writeln!(out, "  {why}");
            return;
        }
        Basis::Rules(Reason::NoGroup) | Basis::Rules(Reason::IgnoresRobotsTxt) => {
            let why = match verdict.choice.as_ref().filter(|c| c.crawler.is_some()) {
                Some(choice) => choice.why.clone(),
                None => "no group applies to this crawler, so nothing is disallowed".to_owned(),
            };
            let _ = writeln!(out, "  {why}");
            return;
        }
        _ => {}
    }
    let Some(view) = view else { return };
    let matches = view.matching_rules(url);
    if matches.is_empty() {
        let _ = writeln!(out, "  no rule matches");
    } else {
        let _ = writeln!(
            out,
            "  {}",
            if matches.len() == 1 {
                "1 matching rule, which decides:".to_owned()
            } else {
                format!("{} matching rules, the first decides:", matches.len())
            }
        );
        render_rule_rows(&matches, name, "    ", 0, p, out);
    }
    if let Some(preferences) = view.preferences(url) {
        for (said, from) in crate::preferences::text_lines(&preferences, name) {
            let _ = writeln!(out, "  {said}  {}", p.dim(&from));
        }
    }
    let dropped = view.robots().clean_params_for(url);
    if !dropped.params.is_empty() {
        let params: Vec<String> = dropped.params.iter().map(|p| format!("`{p}`")).collect();
        let lines: Vec<String> = dropped.lines.iter().map(|&l| line_ref(name, l)).collect();
        let _ = writeln!(
            out,
            "  Clean-param: Yandex drops {} and crawls {}  {}",
            params.join(", "),
            dropped.url,
            p.dim(&lines.join(", "))
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::source::Loaded;
    use crawlgate::Profile;
    use crawlgate_answers::HttpResponse;

    fn local(text: &str) -> Loaded {
        Loaded::local("r", text)
    }

    fn urls(list: &[&str]) -> Vec<String> {
        list.iter().map(|u| (*u).to_owned()).collect()
    }

    #[test]
    fn a_file_is_explained_section_by_section_then_url_by_url() {
        let file =
            local("User-agent: *\nDisallow: /p\nAllow: /p/q\nContent-Usage: /p train-ai=n\n");
        let text = render(
            (&file, &file.read(Profile::GOOGLE)),
            "bot",
            NameReading::Crawler,
            &urls(&["/p/q/1", "/p/x", "/z"]),
            Palette::new(false),
        );
        assert!(
            text.starts_with("How `bot` reads r (google profile)\n\nGroups\n"),
            "{text}"
        );
        let sections: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(sections.len(), 8, "{text}");
        assert_eq!(sections[4], "Sitemaps (for every crawler)\n  none");
        assert_eq!(
            sections[5],
            "/p/q/1  allowed\n  2 matching rules, the first decides:\n    4  r:3  Allow: /p/q\n    2  r:2  Disallow: /p\n  content usage: train-ai=n, ai-use=unknown, search=unknown  (r:4)"
        );
        // Usage preferences are for URLs that may be fetched.
        assert_eq!(
            sections[6],
            "/p/x  disallowed\n  1 matching rule, which decides:\n    2  r:2  Disallow: /p"
        );
        assert_eq!(sections[7], "/z  allowed\n  no rule matches\n");
    }

    #[test]
    fn no_group_is_said_once_per_url() {
        let file = local("User-agent: other\nDisallow: /\n");
        let text = render(
            (&file, &file.read(Profile::GOOGLE)),
            "bot",
            NameReading::Crawler,
            &urls(&["/x"]),
            Palette::new(false),
        );
        assert!(
            text.ends_with(
                "\n/x  allowed\n  no group applies to this crawler, so nothing is disallowed\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_fetch_outcome_without_rules_decides_every_url() {
        let fetched = Loaded::fetched(HttpResponse::new(503));
        let text = render(
            (&fetched, &fetched.read(Profile::GOOGLE)),
            "bot",
            NameReading::Crawler,
            &urls(&["https://example.com/x", "https://example.com/robots.txt"]),
            Palette::new(false),
        );
        assert_eq!(
            text,
            "https://example.com/robots.txt: HTTP 503, 0 bytes: full disallow (server error or network failure: everything disallowed until a retry succeeds)\n\
             No rules are read: server error or network failure: everything disallowed until a retry succeeds. Every URL is disallowed.\n\
             \n\
             https://example.com/x  disallowed\n  the fetch outcome decides: server error or network failure: everything disallowed until a retry succeeds\n\
             \n\
             https://example.com/robots.txt  allowed\n  /robots.txt itself is always allowed\n"
        );
    }
}
