//! Small pieces of robots.txt text every writer shares: comment blocks,
//! numbers, the site's rules for everyone and the preference lines.

use crate::access::Access;
use crate::policy::Policy;
use crate::purpose::Purpose;

/// `text` as `#` comment lines of at most 78 characters.
pub(crate) fn comment_block(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 78 && line.len() > 1 {
            lines.push(std::mem::replace(&mut line, String::from("#")));
        }
        line.push(' ');
        line.push_str(word);
    }
    if line.len() > 1 {
        lines.push(line);
    }
    lines
}

/// A number of seconds as robots.txt writes it (`5`, `2.5`).
pub(crate) fn seconds(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

/// The rules the site means for every crawler it does not shut out: its
/// private paths and its honeypot.
pub(crate) fn everyone_rules(policy: &Policy) -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for path in policy.private.iter().chain(policy.honeypot.iter()) {
        let rule = format!("Disallow: {path}");
        if !rules.contains(&rule) {
            rules.push(rule);
        }
    }
    rules
}

/// The preference lines the policy states (`Content-Usage`, vocabulary
/// draft 08, and `Content-Signal`), for the groups of crawlers that may
/// fetch: empty when it says nothing of search, AI training or AI use.
pub(crate) fn preference_lines(policy: &Policy) -> Vec<String> {
    let stated: Vec<(Purpose, Access)> = [Purpose::AiTrain, Purpose::AiUse, Purpose::Search]
        .into_iter()
        .filter_map(|p| policy.access(p).map(|a| (p, a)))
        .collect();
    if stated.is_empty() {
        return Vec::new();
    }
    let usage: Vec<String> = stated
        .iter()
        .filter_map(|&(p, a)| {
            let yes = if a == Access::Allow { "y" } else { "n" };
            p.usage_category().map(|c| format!("{}={yes}", c.label()))
        })
        .collect();
    // The Content Signals Policy writes search first.
    let mut signals: Vec<(Purpose, Access)> = stated.clone();
    signals.sort_by_key(|&(p, _)| match p {
        Purpose::Search => 0,
        Purpose::AiUse => 1,
        _ => 2,
    });
    let signal: Vec<String> = signals
        .iter()
        .filter_map(|&(p, a)| {
            let yes = if a == Access::Allow { "yes" } else { "no" };
            p.signal_key().map(|k| format!("{k}={yes}"))
        })
        .collect();
    vec![
        format!("Content-Usage: {}", usage.join(", ")),
        format!("Content-Signal: {}", signal.join(", ")),
    ]
}
