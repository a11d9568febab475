//! The terminal summary: per crawler, requests and the share verified,
//! violations with their top URLs and deciding lines, Crawl-delay
//! breaches, spoofing addresses; honeypot visitors; unreadable lines
//! counted with their first numbers. Numbers are written plainly (no
//! thousands separators), so a script can read them.

use std::fmt::Write as _;

use crate::findings::{time_range, CrawlerSummary, Summary};

/// What the summary mentions beside the findings.
#[derive(Clone, Debug, Default)]
pub struct TextOptions {
    /// The honeypot paths.
    pub honeypots: Vec<String>,
    /// Where the deny list went and how many addresses it holds.
    pub deny_list: Option<(String, usize)>,
    /// Files written.
    pub outputs: Vec<String>,
    /// URLs and lines shown per crawler.
    pub top: usize,
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    let p = part as f64 * 100.0 / whole as f64;
    if p > 0.0 && p < 0.1 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

fn crawler_lines(out: &mut String, c: &CrawlerSummary, top: usize) {
    let _ =
        writeln!(
        out,
        "  {} ({}, {}{}): {}, {} verified ({} verified, {} spoofed, {} unverifiable, {} unknown)",
        c.name,
        c.operator,
        c.purpose,
        if c.user_triggered { ", user-triggered" } else { "" },
        plural(c.requests, "request", "requests"),
        percent(c.verified, c.requests),
        c.verified,
        c.spoofed,
        c.unverifiable,
        c.unknown,
    );
    let mut facts = Vec::new();
    if c.user_triggered {
        facts.push("fetches when a person asks: never a violation".to_owned());
    } else if c.obeys != "yes" {
        facts.push(format!(
            "obeys robots.txt: {}; not counted as violations",
            c.obeys
        ));
    }
    facts.push(format!("violations: {}", c.violations));
    if c.disallowed > c.violations {
        facts.push(format!("disallowed fetches: {}", c.disallowed));
    }
    if c.recent_change > 0 {
        facts.push(format!("within 24 h of a change: {}", c.recent_change));
    }
    facts.push(format!("robots.txt fetches: {}", c.robots_txt_fetches));
    if let Some(delay) = c.crawl_delay {
        facts.push(format!(
            "Crawl-delay {delay} s: {}",
            plural(c.crawl_delay_breaches, "breach", "breaches")
        ));
    }
    if c.honeypot_hits > 0 {
        facts.push(format!("honeypot hits: {}", c.honeypot_hits));
    }
    let _ = writeln!(out, "    {}", facts.join("; "));
    if c.violations > 0 {
        let urls: Vec<String> = c
            .violation_urls
            .top(top)
            .iter()
            .map(|(u, n)| format!("{u} ({n})"))
            .collect();
        let _ = writeln!(out, "    violated URLs: {}", urls.join(", "));
        let rules: Vec<String> = c
            .violation_rules
            .top(top)
            .iter()
            .map(|(r, n)| format!("{r} ({n})"))
            .collect();
        if !rules.is_empty() {
            let _ = writeln!(out, "    deciding lines: {}", rules.join(", "));
        }
    }
    if !c.spoofing_ips.is_empty() {
        let shown: Vec<String> = c
            .spoofing_ips
            .iter()
            .take(top)
            .map(ToString::to_string)
            .collect();
        let more = c.spoofing_ips.len().saturating_sub(top);
        let _ = writeln!(
            out,
            "    spoofing addresses: {}: {}{}",
            c.spoofing_ips.len(),
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        );
    }
}

/// The summary as text.
pub fn render(summary: &Summary, options: &TextOptions) -> String {
    let top = if options.top == 0 { 5 } else { options.top };
    let mut out = String::new();
    let lines: u64 = summary.files.iter().map(|f| f.lines).sum();
    let logs: Vec<String> = summary
        .files
        .iter()
        .map(|f| {
            format!(
                "{} ({})",
                f.name,
                if f.format.is_empty() {
                    "empty"
                } else {
                    &f.format
                }
            )
        })
        .collect();
    let _ = write!(
        out,
        "crawlgate audit: {} in {}",
        plural(lines, "line", "lines"),
        logs.join(", ")
    );
    match time_range(summary) {
        Some((first, last)) => {
            let _ = writeln!(out, ", {first} to {last}");
        }
        None => out.push('\n'),
    }
    let _ = writeln!(
        out,
        "Requests: {}; naming a crawler: {}; unidentified agents: {}",
        summary.requests, summary.crawler_requests, summary.unidentified_requests
    );
    let unreadable = summary.unreadable();
    let _ = write!(out, "Unreadable lines: {unreadable}");
    if unreadable > 0 {
        let samples: Vec<String> = summary
            .files
            .iter()
            .filter(|f| f.unreadable > 0)
            .map(|f| {
                let numbers: Vec<String> = f
                    .first_unreadable
                    .iter()
                    .take(10)
                    .map(|(n, _)| n.to_string())
                    .collect();
                let more = if f.unreadable as usize > numbers.len() {
                    ", …"
                } else {
                    ""
                };
                let word = if numbers.len() == 1 { "line" } else { "lines" };
                format!("{} {word} {}{more}", f.name, numbers.join(", "))
            })
            .collect();
        let _ = write!(out, " (first: {})", samples.join("; "));
        if let Some((_, why)) = summary
            .files
            .iter()
            .flat_map(|f| f.first_unreadable.first())
            .next()
        {
            let _ = write!(out, "; the first: {why}");
        }
    }
    out.push('\n');
    if summary.not_judged > 0 {
        let _ = writeln!(
            out,
            "Not judged: {} (no robots.txt in force for them, or no URL)",
            summary.not_judged
        );
    }
    if summary.out_of_order > 0 {
        let _ = writeln!(
            out,
            "Out of time order: {} requests earlier than the one before them",
            summary.out_of_order
        );
    }
    let _ = writeln!(out, "Violations: {}", summary.violations());
    if !summary.crawlers.is_empty() {
        let _ = writeln!(out, "\nCrawlers (by requests):");
        let mut crawlers: Vec<&CrawlerSummary> = summary.crawlers.values().collect();
        crawlers.sort_by(|a, b| b.requests.cmp(&a.requests).then(a.name.cmp(b.name)));
        for c in crawlers {
            crawler_lines(&mut out, c, top);
        }
    }
    out.push('\n');
    if !options.honeypots.is_empty() {
        let _ = writeln!(
            out,
            "Honeypot ({}): {}; {} that named no crawler",
            options.honeypots.join(", "),
            plural(summary.honeypot_hits, "hit", "hits"),
            plural(
                summary.unidentified_honeypot_ips.len() as u64,
                "address",
                "addresses"
            ),
        );
    }
    let _ = writeln!(out, "Spoofing addresses: {}", summary.spoofing_ips.len());
    if let Some((path, n)) = &options.deny_list {
        let _ = writeln!(
            out,
            "Deny list: {path}: {}",
            plural(*n as u64, "address", "addresses")
        );
    }
    for path in &options.outputs {
        let _ = writeln!(out, "Wrote {path}");
    }
    let read = summary.feeds.iter().filter(|f| f.error.is_none()).count();
    if !summary.feeds.is_empty() {
        let _ = writeln!(out, "Feeds: {read} of {} read", summary.feeds.len());
    }
    for warning in &summary.warnings {
        let _ = writeln!(out, "warning: {warning}");
    }
    out
}
