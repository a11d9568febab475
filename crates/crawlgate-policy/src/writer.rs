//! A new robots.txt for a policy: the group for everyone, the groups the
//! plan needs, each with a comment saying what it is for and where the
//! registry has its crawlers from, the sitemaps and the licence.

use crawlgate::registry;

use crate::plan::{GroupKind, GroupPlan};
use crate::policy::Policy;
use crate::text::{comment_block, everyone_rules, preference_lines, seconds};

/// The lines of one planned group: its comment, its `User-agent` lines
/// (each crawler's operator after it), its rules and records.
pub(crate) fn group_lines(
    group: &GroupPlan,
    policy: &Policy,
    rules_for_everyone: &[String],
) -> Vec<String> {
    let delay = policy.crawl_delay.map(seconds).unwrap_or_default();
    let mut lines = group.comment(&delay);
    for member in &group.members {
        let mut who: Vec<String> = Vec::new();
        for crawler in &member.crawlers {
            // A name that is no product token is read as its token: say so.
            let name = if crawler.name.eq_ignore_ascii_case(member.token) {
                crawler.operator.to_owned()
            } else {
                format!("{} ({})", crawler.name, crawler.operator)
            };
            if !who.contains(&name) {
                who.push(name);
            }
        }
        lines.push(format!(
            "User-agent: {}  # {}",
            member.token,
            who.join(", ")
        ));
    }
    match group.kind {
        GroupKind::Denied(_) => lines.push("Disallow: /".to_owned()),
        GroupKind::CrawlDelay | GroupKind::Kept { .. } => {
            lines.extend(open_rules(rules_for_everyone));
            if group.kind == GroupKind::CrawlDelay {
                lines.push(format!("Crawl-delay: {delay}"));
            }
            lines.extend(preference_lines(policy));
        }
    }
    lines
}

/// The rules of a group that lets its crawlers in: the rules for
/// everyone, or `Allow: /` when there are none (a group needs a rule).
fn open_rules(rules_for_everyone: &[String]) -> Vec<String> {
    if rules_for_everyone.is_empty() {
        vec!["Allow: /".to_owned()]
    } else {
        rules_for_everyone.to_vec()
    }
}

/// A new file for `policy`, with the groups of `plan`.
pub(crate) fn write_new(policy: &Policy, plan: &[GroupPlan]) -> String {
    let rules = everyone_rules(policy);
    let mut out: Vec<String> = Vec::new();
    out.extend(comment_block(&format!(
        "robots.txt written by crawlgate policy from its crawler registry {}. Policy: {}.",
        registry::version(),
        policy.describe()
    )));
    out.extend(comment_block(
        "`crawlgate policy --explain` shows what it means for every crawler.",
    ));
    if let Some(license) = &policy.license {
        out.push(String::new());
        out.push(format!("License: {license}"));
    }
    out.push(String::new());
    out.extend(comment_block("Every crawler that no group below names."));
    out.push("User-agent: *".to_owned());
    out.extend(open_rules(&rules));
    out.extend(preference_lines(policy));
    for group in plan {
        out.push(String::new());
        out.extend(group_lines(group, policy, &rules));
    }
    if !policy.sitemaps.is_empty() {
        out.push(String::new());
        for sitemap in &policy.sitemaps {
            out.push(format!("Sitemap: {sitemap}"));
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
