//! A policy merged into a site's own robots.txt: the denied crawlers are
//! taken out of the groups they shared (the others keep those groups
//! unchanged) and shut out in groups of their own; the crawlers that
//! would otherwise follow a denied token, or miss the private paths, get
//! groups copying the rules they obeyed; the private paths and the
//! preferences join every group that lets its crawlers in. The groups
//! crawlgate adds sit between `# BEGIN crawlgate policy` and `# END
//! crawlgate policy`, which the next merge replaces.

use std::collections::{BTreeMap, HashSet};

use crawlgate::registry::{Crawler, CrawlerKind};
use crawlgate::{ChoiceKind, ExtensionKind, RobotsTxt};
use crawlgate_lint::{lint, Code, LintOptions};

use crate::access::Access;
use crate::deciding::{crawler_view, ignores_file, profile_of, read_by, token_view, Readings};
use crate::error::PolicyError;
use crate::intent::Intent;
use crate::lines::{join, split, usual_end, Line};
use crate::plan::{plan, GroupKind};
use crate::policy::Policy;
use crate::proof::{sample_path, sample_urls, OTHER_CRAWLER};
use crate::text::{comment_block, everyone_rules, preference_lines, seconds};
use crate::writer::group_lines;

/// The first line of the section a merge adds.
pub const BEGIN: &str = "# BEGIN crawlgate policy";
/// The last line of the section a merge adds.
pub const END: &str = "# END crawlgate policy";

/// Google reads the first 500 KiB of a robots.txt.
const GOOGLE_LIMIT: usize = 512_000;

/// A merged file, the site's own file it was merged into (without a
/// previous section of crawlgate's), and what was done.
pub(crate) struct Merged {
    pub(crate) bytes: Vec<u8>,
    pub(crate) baseline: Vec<u8>,
    pub(crate) notes: Vec<String>,
}

/// The lines of `lines` without a previous section of crawlgate's.
fn without_section(lines: Vec<Line>) -> Result<Vec<Line>, PolicyError> {
    let starts = |line: &Line, marker: &str| line.content.starts_with(marker.as_bytes());
    let Some(begin) = lines.iter().position(|l| starts(l, BEGIN)) else {
        return Ok(lines);
    };
    let Some(len) = lines[begin..].iter().position(|l| starts(l, END)) else {
        return Err(PolicyError::Merge(format!(
            "the file has `{BEGIN}` at line {} and no `{END}` after it: remove the marker, or \
             the section it began",
            begin + 1
        )));
    };
    let mut lines = lines;
    lines.drain(begin..=begin + len);
    Ok(lines)
}

/// A group crawlgate adds to keep crawlers' verdicts: who, and the
/// site's groups whose rules it copies.
struct Kept {
    members: Vec<&'static Crawler>,
    crawl_delay: bool,
}

/// Which kept group a crawler joins: the profile it reads the file by,
/// the site's groups it obeyed (indices in that reading), and whether it
/// gets the crawl delay.
type KeptKey = (&'static str, Vec<usize>, bool);

/// What a merge changes in the site's own lines.
#[derive(Default)]
struct Edits {
    remove: HashSet<u32>,
    after: BTreeMap<u32, Vec<String>>,
}

/// The crawlers the policy lets in that the site's own groups naming them
/// keep out of `/`: `allow` blocks nothing beyond the site's rules and
/// keeps them, which a user asking `--search allow` of a copied list that
/// also blocks Applebot should hear.
fn kept_out(intents: &[Intent], readings: &Readings) -> Vec<String> {
    intents
        .iter()
        .filter(|i| i.access == Some(Access::Allow) && i.crawler.kind == CrawlerKind::Crawler)
        .filter_map(|intent| {
            let view = crawler_view(readings, intent.crawler);
            if view.group_choice().kind() != ChoiceKind::Own {
                return None;
            }
            let verdict = view.decide("/");
            let rule = verdict.rule().filter(|_| !verdict.is_allowed())?;
            Some(format!(
                "{} ({}) stays shut out of `/` by the site's own group naming it (line {}){}: \
                 the policy's `{}` blocks nothing beyond the site's rules and keeps them; remove \
                 that group to let it in",
                intent.crawler.name,
                intent.purpose.describe(),
                rule.line(),
                read_by(intent.crawler),
                intent.why(),
            ))
        })
        .collect()
}

/// Merges `policy` into `existing`.
pub(crate) fn merge(
    policy: &Policy,
    intents: &[Intent],
    existing: &[u8],
) -> Result<Merged, PolicyError> {
    let lines = without_section(split(existing))?;
    let baseline = join(&lines);
    let readings = Readings::parse(&baseline, intents.iter().map(|i| i.crawler));
    let robots = readings.google();
    let report = lint(&baseline, &LintOptions::default());
    for code in [Code::HtmlPage, Code::BinaryFile] {
        if report.with_code(code).next().is_some() {
            return Err(PolicyError::Merge(format!(
                "the file to merge into is {}, not a robots.txt: nothing in it can be kept",
                if code == Code::HtmlPage {
                    "an HTML page"
                } else {
                    "binary"
                }
            )));
        }
    }
    let mut notes = kept_out(intents, &readings);
    let groups = plan(intents, false, false);
    let denied: HashSet<String> = groups.iter().flat_map(|g| g.tokens()).collect();
    let rules = everyone_rules(policy);
    let preferences = preference_lines(policy);
    let mut edits = Edits::default();
    let mut last_open: Option<(u32, bool)> = None;
    for group in robots.groups() {
        let agents: Vec<_> = group.user_agents().collect();
        let gone: Vec<_> = agents
            .iter()
            .filter(|ua| !ua.is_global() && denied.contains(&ua.token().to_ascii_lowercase()))
            .collect();
        if gone.len() == agents.len() {
            // Every crawler it names is denied: the group goes (its
            // comments, sitemaps and licences stay).
            edits.remove.extend(agents.iter().map(|ua| ua.line()));
            edits.remove.extend(group.rules().map(|r| r.line()));
            edits.remove.extend(
                group
                    .extensions()
                    .filter(|e| e.kind() != ExtensionKind::License)
                    .map(|e| e.line()),
            );
            continue;
        }
        if !gone.is_empty() {
            let names: Vec<&str> = gone.iter().map(|ua| ua.value()).collect();
            notes.push(format!(
                "took {} out of the group at line {}: the policy denies {}; the group's other \
                 crawlers keep it as it was",
                names.join(", "),
                group.first_line(),
                if names.len() == 1 { "it" } else { "them" }
            ));
            edits.remove.extend(gone.iter().map(|ua| ua.line()));
        }
        let probe = agents
            .iter()
            .find(|ua| !ua.is_global() && !gone.iter().any(|g| g.line() == ua.line()))
            .map_or(OTHER_CRAWLER, |ua| ua.token());
        let probe = if probe.is_empty() {
            OTHER_CRAWLER
        } else {
            probe
        };
        let open = token_view(&readings, probe).is_allowed("/");
        let mut added: Vec<String> = Vec::new();
        if open {
            for rule in &rules {
                let path = rule.trim_start_matches("Disallow: ");
                if !group.rules().any(|r| !r.is_allow() && r.pattern() == path) {
                    added.push(rule.clone());
                }
            }
            if !preferences.is_empty() {
                // The policy's preferences replace the group's own for
                // every path; those for a path stay.
                for ext in group.extensions() {
                    let pathless_usage = ext.content_usage().is_some_and(|u| u.path.is_none());
                    if pathless_usage || ext.kind() == ExtensionKind::ContentSignal {
                        edits.remove.insert(ext.line());
                    }
                }
                added.extend(preferences.iter().cloned());
            }
        }
        let has_rules = group.rules().len() > 0 || added.iter().any(|l| !l.starts_with("Content-"));
        last_open = Some((group.last_line(), has_rules));
        if !added.is_empty() {
            edits
                .after
                .entry(group.last_line())
                .or_default()
                .extend(added);
        }
    }
    // A last group without rules would take in the groups appended after
    // it: an empty `Disallow:` ends it and allows what it allowed. Its
    // rules may be valid for Google and not for RFC 9309 parsers (a path
    // without its leading `/`): both readings count.
    let strict = RobotsTxt::parse_with(&baseline, crawlgate::Profile::RFC9309);
    let strict_open = strict.groups().last().is_some_and(|g| g.rules().len() == 0);
    if let Some((line, true)) = last_open
        && strict_open
    {
        last_open = Some((line, false));
    }
    if let Some((line, false)) = last_open {
        edits
            .after
            .entry(line)
            .or_default()
            .insert(0, "Disallow:".to_owned());
    }
    // Crawlers let in that a denied token, a missing private path or a
    // crawl delay needs to name: groups copying the rules they obeyed.
    let mut kept: BTreeMap<KeptKey, Kept> = BTreeMap::new();
    let let_in: Vec<&Intent> = intents
        .iter()
        .filter(|i| !i.denied() && i.crawler.runs())
        .collect();
    let files = [robots];
    let urls = sample_urls(&files, policy);
    let private: Vec<String> = policy
        .private
        .iter()
        .chain(policy.honeypot.iter())
        .map(|p| sample_path(p))
        .collect();
    for round in 0..3 {
        let bytes = render(&lines, &edits, policy, &groups, &kept, &readings, &baseline);
        let candidate = Readings::parse(&bytes, let_in.iter().map(|i| i.crawler));
        let mut more = false;
        for intent in &let_in {
            let crawler = intent.crawler;
            let before = crawler_view(&readings, crawler);
            if ignores_file(&before) {
                continue;
            }
            let after = crawler_view(&candidate, crawler);
            let changed = urls
                .iter()
                .filter(|u| !private.contains(u))
                .any(|u| before.is_allowed(u) != after.is_allowed(u));
            let leaks = private.iter().any(|p| after.is_allowed(p));
            let own = before.group_choice().kind() == crawlgate::ChoiceKind::Own;
            let delay = round == 0
                && policy.crawl_delay.is_some()
                && crawler.reads_crawl_delay.is_some()
                && crawler.kind != crawlgate::registry::CrawlerKind::ControlToken;
            // A crawler whose own group stays keeps it; one whose own group
            // goes (Yandex's parser gives `User-agent: Yandex`, a denied
            // token, to YandexPagechecker as its own) gets a copy.
            if own && !changed {
                if delay && before.crawl_delay().is_none() {
                    for g in before.groups() {
                        let line = format!(
                            "Crawl-delay: {}",
                            seconds(policy.crawl_delay.unwrap_or(1.0))
                        );
                        let list = edits.after.entry(g.last_line()).or_default();
                        if !list.contains(&line) {
                            list.push(line);
                        }
                    }
                    more = true;
                }
                continue;
            }
            if !(changed || leaks || delay) {
                continue;
            }
            if kept.values().any(|k| {
                k.members
                    .iter()
                    .any(|m| m.token.eq_ignore_ascii_case(crawler.token))
            }) {
                continue;
            }
            let key: Vec<usize> = before.groups().map(|g| g.index()).collect();
            let entry = kept
                .entry((profile_of(crawler).name, key, delay))
                .or_insert_with(|| Kept {
                    members: Vec::new(),
                    crawl_delay: delay,
                });
            entry.members.push(crawler);
            notes.push(format!(
                "{} gets a group of its own copying the rules it obeyed{}",
                crawler.name,
                if delay {
                    " and the crawl delay"
                } else if changed {
                    " (it would have followed a denied group)"
                } else {
                    " with the private paths"
                }
            ));
            more = true;
        }
        if !more {
            break;
        }
    }
    let bytes = render(&lines, &edits, policy, &groups, &kept, &readings, &baseline);
    if bytes.len() > GOOGLE_LIMIT {
        return Err(PolicyError::Merge(format!(
            "the merged file would be {} bytes: Google reads only the first 512,000, so the \
             groups added at its end would be lost; shorten the site's file first",
            bytes.len()
        )));
    }
    Ok(Merged {
        bytes,
        baseline,
        notes,
    })
}

/// The site's lines with the edits, then crawlgate's section.
#[allow(clippy::too_many_arguments)]
fn render(
    lines: &[Line],
    edits: &Edits,
    policy: &Policy,
    groups: &[crate::plan::GroupPlan],
    kept: &BTreeMap<KeptKey, Kept>,
    readings: &Readings,
    baseline: &[u8],
) -> Vec<u8> {
    let robots = readings.google();
    let end = usual_end(lines);
    let mut out: Vec<Line> = Vec::with_capacity(lines.len() + 64);
    let new_line = |text: String| Line {
        content: text.into_bytes(),
        end,
    };
    for (i, line) in lines.iter().enumerate() {
        let number = i as u32 + 1;
        if !edits.remove.contains(&number) {
            let mut line = line.clone();
            if line.end.is_empty() {
                line.end = end;
            }
            out.push(line);
        }
        if let Some(added) = edits.after.get(&number) {
            out.extend(added.iter().cloned().map(new_line));
        }
    }
    let rules = everyone_rules(policy);
    let mut section: Vec<String> = Vec::new();
    for group in groups
        .iter()
        .filter(|g| matches!(g.kind, GroupKind::Denied(_)))
    {
        section.push(String::new());
        section.extend(group_lines(group, policy, &rules));
    }
    let source = split(baseline);
    for ((profile, key, _), group) in kept {
        // The group indices are those of the reading its members obey by.
        let read = readings.by_name(profile);
        section.push(String::new());
        section.extend(comment_block(if group.crawl_delay {
            "Crawlers that read Crawl-delay, with the rules they obeyed before (copied) and the \
             delay."
        } else {
            "Crawlers let in that need a group of their own: the rules they obeyed before \
             (copied), with the private paths."
        }));
        for crawler in &group.members {
            section.push(format!(
                "User-agent: {}  # {}",
                crawler.token, crawler.operator
            ));
        }
        let restated = |e: &crawlgate::Extension<'_>| {
            policy.states_preferences()
                && (e.kind() == ExtensionKind::ContentSignal
                    || e.content_usage().is_some_and(|u| u.path.is_none()))
        };
        let mut copied_rules = 0;
        for &index in key {
            let Some(site_group) = read.group(index) else {
                continue;
            };
            copied_rules += site_group.rules().len();
            let mut numbers: Vec<u32> = site_group.rules().map(|r| r.line()).collect();
            numbers.extend(
                site_group
                    .extensions()
                    .filter(|e| e.kind() != ExtensionKind::License && !restated(e))
                    .map(|e| e.line()),
            );
            numbers.sort_unstable();
            for n in numbers {
                if let Some(line) = source.get(n as usize - 1) {
                    section.push(String::from_utf8_lossy(&line.content).into_owned());
                }
            }
        }
        if copied_rules == 0 && rules.is_empty() {
            section.push("Allow: /".to_owned());
        }
        section.extend(rules.iter().cloned());
        if group.crawl_delay {
            section.push(format!(
                "Crawl-delay: {}",
                seconds(policy.crawl_delay.unwrap_or(1.0))
            ));
        }
        section.extend(preference_lines(policy));
    }
    let present: HashSet<String> = robots.sitemaps().map(|s| s.url().to_owned()).collect();
    let sitemaps: Vec<&String> = policy
        .sitemaps
        .iter()
        .filter(|s| !present.contains(*s))
        .collect();
    let license = policy
        .license
        .as_ref()
        .filter(|l| !robots.licenses().any(|have| have.url == l.as_str()));
    if !sitemaps.is_empty() || license.is_some() {
        section.push(String::new());
        section.extend(license.map(|l| format!("License: {l}")));
        section.extend(sitemaps.into_iter().map(|s| format!("Sitemap: {s}")));
    }
    if !section.is_empty() {
        if out.last().is_some_and(|l| !l.content.is_empty()) {
            out.push(new_line(String::new()));
        }
        out.push(new_line(format!(
            "{BEGIN}: {} (crawler registry {})",
            policy.describe(),
            crawlgate::registry::version()
        )));
        out.extend(
            comment_block(
                "Groups crawlgate policy adds; the next `crawlgate policy --merge` replaces them.",
            )
            .into_iter()
            .map(new_line),
        );
        out.extend(section.into_iter().map(new_line));
        out.push(new_line(END.to_owned()));
    }
    join(&out)
}
