//! The HTML report: one self-contained page (no script, no font, no image
//! or style sheet loaded from anywhere) with the headline figures, the
//! share of sites whose robots.txt blocks each crawler (split by cause,
//! outages beside), trends over snapshots, the change since the one
//! before, statuses as Common Crawl counts them, file sizes and lint
//! findings, and what every class means; and the same figures as a JSON
//! summary.
//!
//! Every figure is also an attribute (`data-figure`, `data-crawler` …) so a
//! test can read them back and check them against the table.

mod svg;

use std::fmt::Write as _;

use crawlgate::Severity;
use serde::Serialize;

use crate::findings;
use crate::input::Skip;
use crate::summary::{size_label, CrawlerTally, Summary, SIZE_BOUNDS};
use crate::taxonomy::{FetchClass, HostClass};
use crate::verdict::Cause;
use svg::{percent, thousands, Bar, Line, Segment};

/// What the report says about how the survey was made.
#[derive(Clone, Debug, Default)]
pub struct ReportInfo {
    /// The inputs surveyed (or tables read), as given.
    pub inputs: Vec<String>,
    /// When the report was made (RFC 3339).
    pub generated: String,
    /// The reading files were parsed with (empty when not known).
    pub profile: String,
    /// Seconds the survey took, for a report made as it ran.
    pub seconds: Option<f64>,
}

/// One survey of a report: a label (its table's name) and its figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    /// The label, in charts and tables.
    pub label: String,
    /// The figures.
    pub summary: Summary,
}

/// Colours of the causes.
const BY_NAME: &str = "#c8412d";
const BY_STAR: &str = "#e8785f";
const PARTIAL: &str = "#f0a23b";
const HOUSEKEEPING: &str = "#f5d7a1";
const ALLOWED: &str = "#2f9e6e";
const NO_ROBOTS: &str = "#9fd4b9";
const OUTAGE: &str = "#6b7280";
const REDIRECT: &str = "#a78bfa";
const NOT_ROBOTS: &str = "#c9ced6";

/// Line colours of the trends.
const PALETTE: [&str; 12] = [
    "#c8412d", "#4c6ef5", "#2f9e6e", "#f0a23b", "#7048e8", "#0ca678", "#e64980", "#1098ad",
    "#5c940d", "#d9480f", "#495057", "#9c36b5",
];

fn cause_color(cause: Cause) -> &'static str {
    match cause {
        Cause::BlockedByName => BY_NAME,
        Cause::BlockedByStar => BY_STAR,
        Cause::PartlyBlocked => PARTIAL,
        Cause::HousekeepingBlocked => HOUSEKEEPING,
        Cause::Allowed => ALLOWED,
        Cause::NoRobotsTxt => NO_ROBOTS,
        Cause::Unreachable => OUTAGE,
        Cause::Redirected => REDIRECT,
        Cause::NotRobotsTxt => NOT_ROBOTS,
    }
}

/// How many crawlers the blocking chart shows (the most restricted first).
const CHART_CRAWLERS: usize = 30;

/// How many crawlers the trend chart draws a line for.
const TREND_LINES: usize = 12;

/// How many lint codes the findings chart shows.
const CHART_CODES: usize = 16;

/// Text for HTML (and SVG) content and attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The summary of snapshots as JSON (`{"snapshots": [{label, summary}]}`).
///
/// ```
/// use crawlgate_survey::{report, CrawlerSet, Summary};
/// let snapshot = report::Snapshot { label: "now".into(), summary: Summary::new(&CrawlerSet::default_set(), &[]) };
/// let json: serde_json::Value = serde_json::from_str(&report::summary_json(&[snapshot])).unwrap();
/// assert_eq!(json["snapshots"][0]["summary"]["rows"], 0);
/// ```
pub fn summary_json(snapshots: &[Snapshot]) -> String {
    let mut text = serde_json::to_string_pretty(&serde_json::json!({ "snapshots": snapshots }))
        .unwrap_or_default();
    text.push('\n');
    text
}

/// The report page of one or more snapshots, oldest first: the last one's
/// figures, with trends over all of them (and its comparison, when its
/// summary has one).
///
/// ```
/// use crawlgate_survey::{report, CrawlerSet, Summary};
/// let snapshot = report::Snapshot { label: "now".into(), summary: Summary::new(&CrawlerSet::default_set(), &[]) };
/// let page = report::render(&[snapshot], &report::ReportInfo::default());
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(page.contains("data-figure=\"rows\" data-value=\"0\""));
/// ```
pub fn render(snapshots: &[Snapshot], info: &ReportInfo) -> String {
    let Some(last) = snapshots.last() else {
        return String::new();
    };
    let summary = &last.summary;
    let mut page = String::with_capacity(64 << 10);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>robots.txt survey: {} sites</title><style>{STYLE}</style></head><body><main>",
        thousands(summary.rows)
    );
    let profile = if info.profile.is_empty() {
        "the reading its table does not record".to_owned()
    } else {
        format!("<b>{}</b>", escape(&info.profile))
    };
    let _ = write!(
        page,
        "<header><p class=\"kicker\">crawlgate survey</p><h1>Who may crawl what</h1>\
         <p class=\"sub\" data-provenance>{} sites from {} · {} · read as {profile} · crawler table {} · crawlgate {}</p></header>",
        thousands(summary.rows),
        escape(&inputs_text(&info.inputs)),
        escape(&info.generated),
        escape(crawlgate_lint::audit::table_version()),
        env!("CARGO_PKG_VERSION"),
    );
    headline(&mut page, summary);
    blocking_chart(&mut page, summary);
    if snapshots.len() > 1 {
        trends(&mut page, snapshots);
    }
    if let Some(comparison) = &summary.comparison {
        let earlier = snapshots
            .len()
            .checked_sub(2)
            .map(|i| snapshots[i].label.clone())
            .unwrap_or_else(|| comparison.earlier.display().to_string());
        comparison_section(&mut page, comparison, &earlier);
    }
    taxonomy(&mut page, summary);
    page.push_str("<div class=\"pair\">");
    sizes_chart(&mut page, summary);
    file_panel(&mut page, summary);
    page.push_str("</div>");
    lint_chart(&mut page, summary);
    crawler_table(&mut page, summary);
    preferences_table(&mut page, summary);
    if let Some(accounting) = &summary.accounting {
        accounting_section(&mut page, accounting);
    }
    let took = info
        .seconds
        .map(|s| format!(" The survey took {s:.1} s."))
        .unwrap_or_default();
    let _ = write!(
        page,
        "<section><h2>How to read this</h2><div class=\"prose\">{}\
         <p>Shares of crawlers blocked are of the {} sites whose robots.txt answered (a file, a 4xx meaning there is none, or a page that is no robots.txt): \
         outages (5xx, 429, timeouts) and redirects the survey could not follow are counted beside them, never inside, and error rows (inputs that could not be read) are left out.{took}</p></div></section>",
        definitions(),
        thousands(summary.chosen),
    );
    page.push_str("</main></body></html>\n");
    scrolling(&page)
}

/// Every table and chart in a box of its own that scrolls sideways when
/// the card is narrower than it (a phone), so that nothing overflows its
/// card and no column is hidden.
fn scrolling(page: &str) -> String {
    page.replace("<table", "<div class=\"scroll\"><table")
        .replace("</table>", "</table></div>")
        .replace(
            "<svg class=\"chart\"",
            "<div class=\"scroll\"><svg class=\"chart\"",
        )
        .replace("</svg>", "</svg></div>")
}

fn inputs_text(inputs: &[String]) -> String {
    match inputs {
        [] => "no input".to_owned(),
        [one] => one.clone(),
        [first, rest @ ..] => format!("{first} and {} more", rest.len()),
    }
}

fn card(page: &mut String, key: &str, value: u64, of: Option<u64>, label: &str, tone: &str) {
    let share_text = of
        .map(|whole| {
            format!(
                "<span class=\"share\">{}</span>",
                percent(share(value, whole))
            )
        })
        .unwrap_or_default();
    let _ = write!(
        page,
        "<div class=\"card {tone}\"><div class=\"num\" data-figure=\"{key}\" data-value=\"{value}\">{}</div>{share_text}<div class=\"what\">{}</div></div>",
        thousands(value),
        escape(label)
    );
}

fn headline(page: &mut String, s: &Summary) {
    let chosen = Some(s.chosen);
    let answered = Some(s.answered());
    page.push_str("<section class=\"cards\">");
    card(
        page,
        "rows",
        s.rows,
        None,
        "sites surveyed (one row per host)",
        "",
    );
    card(
        page,
        "chosen",
        s.chosen,
        answered,
        "whose robots.txt answered: the base of every share of blocking",
        "",
    );
    card(
        page,
        "blocking_ai",
        s.blocking_ai,
        chosen,
        "whose robots.txt blocks at least one AI crawler fully (through any group, * included)",
        "accent",
    );
    card(
        page,
        "blocking_ai_by_name",
        s.blocking_ai_by_name,
        chosen,
        "naming an AI crawler by its own token to block it fully",
        "accent",
    );
    card(
        page,
        "no_robots_txt",
        s.no_robots_txt,
        chosen,
        "have no robots.txt (4xx): everything allowed",
        "",
    );
    card(
        page,
        "unreachable",
        s.unreachable,
        answered,
        "unreachable (5xx, 429, timeouts): an outage, counted beside the shares",
        "warn",
    );
    card(
        page,
        "redirected",
        s.redirected,
        answered,
        "redirect the survey could not follow",
        "warn",
    );
    card(
        page,
        "errors",
        s.errors,
        Some(s.rows),
        "inputs that could not be read (error rows)",
        "muted",
    );
    page.push_str("</section>");
    ai_breakdown(page, s);
}

/// How the sites blocking an AI crawler fully do it: the intent (a group
/// naming the crawler's own token) apart from the effect of groups naming
/// a shared token, a generic word or a token it falls back to, and of `*`.
/// Each site once, by the plainest intent it shows; the rows add up.
fn ai_breakdown(page: &mut String, s: &Summary) {
    let star_only = s.blocking_ai - s.blocking_ai_by_group;
    let _ = write!(
        page,
        "<section><h2>How sites block AI crawlers fully</h2><p class=\"note\">Of the <b>{}</b> sites whose robots.txt blocks at least one of the survey's AI crawlers fully, each counted once, by the plainest intent its file shows. \
         A group naming the crawler's own token says the site meant it; a token another crawler also used (the registry's <code>shared-token</code>: <code>Exabot</code> was Exalead's search crawler), a generic word (<code>generic-token</code>: <code>Spider</code>) or a token the crawler falls back to (a <code>Yandex</code> group binds YandexAdditional) bind it all the same, but need not mean it.</p>\
         <table class=\"compact\" data-breakdown=\"blocking_ai\"><thead><tr><th>blocked fully through</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>",
        thousands(s.blocking_ai)
    );
    for (key, label, value) in [
        (
            "blocking_ai_by_name",
            "a group naming the AI crawler's own token (intent)",
            s.blocking_ai_by_name,
        ),
        (
            "blocking_ai_by_shared_token",
            "only a group naming a token another crawler shares",
            s.blocking_ai_by_shared_token,
        ),
        (
            "blocking_ai_by_generic_token",
            "only a group naming a generic word",
            s.blocking_ai_by_generic_token,
        ),
        (
            "blocking_ai_by_fallback",
            "only a group naming a token it falls back to",
            s.blocking_ai_by_fallback,
        ),
        ("blocking_ai_by_star_only", "only the * group", star_only),
    ] {
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"n\" data-part=\"{key}\" data-value=\"{value}\">{}</td><td class=\"n\">{}</td></tr>",
            escape(label).replace(" * ", " <code>*</code> "),
            thousands(value),
            percent(share(value, s.chosen))
        );
    }
    let _ = write!(
        page,
        "<tr class=\"total\"><td>in all</td><td class=\"n\" data-total=\"blocking_ai\" data-value=\"{}\">{}</td><td class=\"n\">{}</td></tr></tbody></table>\
         <p class=\"note\">By any group naming one of its tokens (the effect, the first four rows): <b data-figure=\"blocking_ai_by_group\" data-value=\"{}\">{}</b> sites. Shares are of the {} sites whose robots.txt answered.</p></section>",
        s.blocking_ai,
        thousands(s.blocking_ai),
        percent(share(s.blocking_ai, s.chosen)),
        s.blocking_ai_by_group,
        thousands(s.blocking_ai_by_group),
        thousands(s.chosen)
    );
}

/// Crawlers sorted by blocked, then restricted (most first).
fn ranked(s: &Summary) -> Vec<&CrawlerTally> {
    let mut crawlers: Vec<&CrawlerTally> = s.crawlers.iter().collect();
    crawlers.sort_by(|a, b| {
        (
            b.blocked() + b.partly_by_name,
            b.blocked(),
            b.content_restricted(),
            b.restricted(),
        )
            .cmp(&(
                a.blocked() + a.partly_by_name,
                a.blocked(),
                a.content_restricted(),
                a.restricted(),
            ))
            .then(a.token.cmp(&b.token))
    });
    crawlers
}

/// The end of a share axis: the smallest round share at least `top`.
fn axis_end(top: f64) -> f64 {
    [0.01, 0.02, 0.04, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0]
        .into_iter()
        .find(|&end| top <= end)
        .unwrap_or(1.0)
}

fn blocking_chart(page: &mut String, s: &Summary) {
    let chosen = s.chosen;
    let crawlers: Vec<&CrawlerTally> = ranked(s)
        .into_iter()
        .filter(|c| c.token != crate::crawlers::ANY)
        .collect();
    let restricted = crawlers.iter().filter(|c| c.restricted() > 0).count();
    // Bars for what differs from crawler to crawler: full blocks, and
    // content blocked in part by a group naming the crawler. Partial
    // blocks through `*` and housekeeping-only ones are the same rules for
    // every crawler that obeys `*`: the caption gives them.
    let drawable: Vec<&&CrawlerTally> = crawlers
        .iter()
        .filter(|c| c.blocked() + c.partly_by_name > 0)
        .collect();
    let shown = &drawable[..drawable.len().min(CHART_CRAWLERS)];
    let parts = |c: &CrawlerTally| -> [(u64, &'static str, &'static str); 3] {
        [
            (c.count(Cause::BlockedByName), BY_NAME, "blocked by name"),
            (c.count(Cause::BlockedByStar), BY_STAR, "blocked by star"),
            (
                c.partly_by_name,
                PARTIAL,
                "content blocked in part by a group naming it",
            ),
        ]
    };
    let bars: Vec<Bar> = shown
        .iter()
        .map(|c| Bar {
            label: c.token.clone(),
            segments: parts(c)
                .iter()
                .map(|&(n, color, what)| Segment {
                    share: share(n, chosen),
                    color,
                    title: format!("{}: {} sites, {what}", c.token, thousands(n)),
                })
                .collect(),
            note: format!(
                "{} blocked · {} in part by name · {} unreachable",
                percent(share(c.blocked(), chosen)),
                percent(share(c.partly_by_name, chosen)),
                thousands(c.count(Cause::Unreachable)),
            ),
        })
        .collect();
    let top = shown
        .iter()
        .map(|c| share(c.blocked() + c.partly_by_name, chosen))
        .fold(0.0f64, f64::max);
    let range = |values: Vec<u64>| -> String {
        match (values.iter().min(), values.iter().max()) {
            (Some(&low), Some(&high)) if low == high => percent(share(low, chosen)),
            (Some(&low), Some(&high)) => {
                format!(
                    "{}–{}",
                    percent(share(low, chosen)),
                    percent(share(high, chosen))
                )
            }
            _ => "none".to_owned(),
        }
    };
    let star_partly = range(
        shown
            .iter()
            .map(|c| c.count(Cause::PartlyBlocked) - c.partly_by_name)
            .collect(),
    );
    let housekeeping = range(
        shown
            .iter()
            .map(|c| c.count(Cause::HousekeepingBlocked))
            .collect(),
    );
    let surveyed = crawlers.len();
    let drawn = if drawable.len() > shown.len() {
        format!(
            "{} are blocked fully or named to be blocked in part; the {} most are drawn",
            drawable.len(),
            shown.len()
        )
    } else {
        format!(
            "{} are blocked fully or named to be blocked in part, all drawn",
            drawable.len()
        )
    };
    let star = s
        .crawlers
        .iter()
        .find(|c| c.token == crate::crawlers::ANY)
        .map(|c| {
            format!(
                " The <code>*</code> group itself blocks everything on <b>{}</b> of these sites, the home page or content in part on <b>{}</b>, and housekeeping paths alone on <b>{}</b>.",
                percent(share(c.blocked(), chosen)),
                percent(share(c.count(Cause::PartlyBlocked), chosen)),
                percent(share(c.count(Cause::HousekeepingBlocked), chosen))
            )
        })
        .unwrap_or_default();
    let key = [
        (BY_NAME, "blocked by name"),
        (BY_STAR, "blocked by star"),
        (PARTIAL, "content blocked in part by a group naming it"),
    ]
    .iter()
    .map(|(color, what)| {
        format!("<span class=\"key\"><i style=\"background:{color}\"></i>{what}</span>")
    })
    .collect::<String>();
    let _ = write!(
        page,
        "<section><h2>Share of sites whose robots.txt blocks each crawler</h2>\
         <p class=\"note\">{key} · of the {} sites whose robots.txt answered. \
         <b data-figure=\"restricted_crawlers\" data-value=\"{restricted}\">{}</b> of the <b data-figure=\"surveyed_crawlers\" data-value=\"{surveyed}\">{surveyed}</b> crawlers surveyed are restricted by at least one of them; {drawn}. \
         Not in the bars, because they are the same rules for every crawler that obeys <code>*</code>: the home page or content blocked in part through <code>*</code> ({star_partly} of the sites for the crawlers drawn) and housekeeping paths alone (administration, log-in, cart, search, the software's files: {housekeeping}); the table below has them. \
         Sites that were unreachable are not in the bars: their count follows each bar.{star}</p>{}</section>",
        thousands(chosen),
        thousands(restricted as u64),
        if bars.is_empty() {
            "<p class=\"empty\">No site's robots.txt blocks any of these crawlers fully or names one to block it in part.</p>".to_owned()
        } else {
            svg::stacked_bars(&bars, axis_end(top), 150)
        }
    );
}

fn trends(page: &mut String, snapshots: &[Snapshot]) {
    let labels: Vec<String> = snapshots.iter().map(|s| s.label.clone()).collect();
    let last = &snapshots[snapshots.len() - 1].summary;
    // Crawlers by token, in the last snapshot's order of blocking.
    let tokens: Vec<&str> = ranked(last).iter().map(|c| c.token.as_str()).collect();
    let shares = |token: &str| -> Vec<Option<f64>> {
        snapshots
            .iter()
            .map(|s| {
                s.summary
                    .crawlers
                    .iter()
                    .find(|c| c.token == token)
                    .map(|c| share(c.blocked(), s.summary.chosen))
            })
            .collect()
    };
    let blocked_anywhere: Vec<&str> = tokens
        .iter()
        .copied()
        .filter(|t| shares(t).iter().any(|s| s.is_some_and(|s| s > 0.0)))
        .collect();
    let lines: Vec<Line> = blocked_anywhere
        .iter()
        .take(TREND_LINES)
        .enumerate()
        .map(|(i, t)| Line {
            label: (*t).to_owned(),
            color: PALETTE[i % PALETTE.len()],
            shares: shares(t).into_iter().map(|s| s.unwrap_or(0.0)).collect(),
        })
        .collect();
    let top = lines
        .iter()
        .flat_map(|l| l.shares.iter().copied())
        .fold(0.0f64, f64::max);
    let drawn = if blocked_anywhere.len() > lines.len() {
        format!("lines for the {} most blocked now", lines.len())
    } else {
        "a line for each".to_owned()
    };
    let _ = write!(
        page,
        "<section><h2>Over {} snapshots</h2><p class=\"note\">Share of sites whose robots.txt blocks each crawler fully (by name or through <code>*</code>), of the sites whose robots.txt answered in each snapshot. \
         <b data-figure=\"trend_crawlers\" data-value=\"{}\">{}</b> crawlers are blocked in at least one snapshot: {drawn}; the table lists every crawler.</p>{}",
        snapshots.len(),
        blocked_anywhere.len(),
        blocked_anywhere.len(),
        if lines.is_empty() {
            "<p class=\"empty\">No crawler is blocked in any snapshot.</p>".to_owned()
        } else {
            svg::lines(&labels, &lines, axis_end(top))
        }
    );
    page.push_str("<table><thead><tr><th>crawler</th>");
    for s in snapshots {
        let _ = write!(
            page,
            "<th class=\"n\" data-snapshot=\"{}\" data-chosen=\"{}\">{}</th>",
            escape(&s.label),
            s.summary.chosen,
            escape(&s.label)
        );
    }
    page.push_str("</tr></thead><tbody>");
    for token in &tokens {
        let counts: Vec<String> = snapshots
            .iter()
            .map(|s| {
                s.summary
                    .crawlers
                    .iter()
                    .find(|c| c.token == *token)
                    .map_or(String::new(), |c| c.blocked().to_string())
            })
            .collect();
        let _ = write!(
            page,
            "<tr data-trend=\"{}\" data-blocked=\"{}\"><td><code>{}</code></td>",
            escape(token),
            counts.join(" "),
            escape(token)
        );
        for share in shares(token) {
            let _ = write!(
                page,
                "<td class=\"n\">{}</td>",
                share.map_or("–".to_owned(), percent)
            );
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></section>");
}

fn taxonomy(page: &mut String, s: &Summary) {
    let answered = s.answered();
    page.push_str("<section><h2>What the fetches gave</h2><p class=\"note\">Each site once (the latest capture of its host). The categories are Common Crawl's, from its robots.txt statistics (<code>commoncrawl/robotstxt-experiments</code>), so these figures can be set beside theirs; docs/survey.md gives the mapping.</p><div class=\"pair\"><table class=\"compact\"><thead><tr><th>Common Crawl category</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>");
    for class in HostClass::ALL {
        let n = s.cc_classes[class as usize];
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"n\" data-figure=\"cc_{}\" data-value=\"{n}\">{}</td><td class=\"n\">{}</td></tr>",
            class.label(),
            class.as_str(),
            thousands(n),
            percent(share(n, answered))
        );
    }
    page.push_str("</tbody></table><table class=\"compact\"><thead><tr><th>HTTP status of the capture</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>");
    for class in FetchClass::ALL {
        let n = s.fetch_classes[class as usize];
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"n\" data-figure=\"fetch_{}\" data-value=\"{n}\">{}</td><td class=\"n\">{}</td></tr>",
            class.as_str(),
            class.as_str(),
            thousands(n),
            percent(share(n, answered))
        );
    }
    let files = s.files_without_status;
    let failures = s.statuses[0] - files;
    let _ = write!(
        page,
        "<tr><td>no status: a file read as served with 200 (a folder's file, a table line without one)</td><td class=\"n\" data-figure=\"status_none_file\" data-value=\"{files}\">{}</td><td class=\"n\">{}</td></tr>\
         <tr><td>no response: a network failure</td><td class=\"n\" data-figure=\"status_none_failure\" data-value=\"{failures}\">{}</td><td class=\"n\">{}</td></tr>\
         <tr class=\"total\"><td>in all</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr></tbody></table></div></section>",
        thousands(files),
        percent(share(files, answered)),
        thousands(failures),
        percent(share(failures, answered)),
        thousands(answered),
        percent(share(answered, answered))
    );
}

fn sizes_chart(page: &mut String, s: &Summary) {
    let buckets: Vec<(String, u64, &'static str)> = (0..=SIZE_BOUNDS.len())
        .map(|i| {
            let color = if i == SIZE_BOUNDS.len() {
                BY_NAME
            } else {
                "#4c6ef5"
            };
            (size_label(i).to_owned(), s.sizes[i], color)
        })
        .collect();
    let _ = write!(
        page,
        "<section class=\"panel\"><h2>File sizes</h2><p class=\"note\">Sites whose robots.txt was read, by size (1 KiB = 1,024 bytes). Crawlers read the first 500 KiB only.</p>{}",
        svg::histogram(&buckets)
    );
    page.push_str("<div class=\"hidden-figures\">");
    for (i, (label, count, _)) in buckets.iter().enumerate() {
        let _ = write!(
            page,
            "<span data-figure=\"size_{i}\" data-value=\"{count}\" data-label=\"{}\"></span>",
            escape(label)
        );
    }
    page.push_str("</div></section>");
}

fn file_panel(page: &mut String, s: &Summary) {
    let answered = s.answered();
    let _ = write!(
        page,
        "<section class=\"panel\"><h2>The files</h2><p class=\"note\">The first three rows are the {} sites whose robots.txt answered, each once.</p><table class=\"compact\"><thead><tr><th>Sites that</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>",
        thousands(s.chosen)
    );
    for (key, label, value) in [
        (
            "robots_txt",
            "serve a robots.txt (a text file, read for its rules)",
            s.robots_txt,
        ),
        (
            "not_robots_txt",
            "serve an HTML page or binary data instead (crawlers find few rules or none in it)",
            s.not_robots_txt,
        ),
        (
            "no_robots_txt",
            "have none (a 4xx: everything allowed)",
            s.no_robots_txt,
        ),
        ("html", "serve HTML (by type or body)", s.html),
        (
            "followed",
            "answer after a redirect was followed",
            s.followed,
        ),
        ("over_limit", "serve more than 500 KiB", s.over_limit),
        ("with_sitemaps", "list a sitemap", s.with_sitemaps),
        (
            "with_crawl_delay",
            "set a crawl-delay for *",
            s.with_crawl_delay,
        ),
        (
            "with_content_signal",
            "carry Content-Signal for *",
            s.with_content_signal,
        ),
        (
            "with_content_usage",
            "carry Content-Usage for *",
            s.with_content_usage,
        ),
        ("with_license", "carry a License line", s.with_license),
        (
            "with_unused_directives",
            "have lines Search Console calls unused",
            s.with_unused_directives,
        ),
        (
            "with_unknown_lines",
            "have lines Search Console cannot read",
            s.with_unknown_lines,
        ),
        ("with_lint_errors", "have lint errors", s.with_lint_errors),
    ] {
        let _ = write!(
            page,
            "<tr><td>{label}</td><td class=\"n\" data-figure=\"{key}\" data-value=\"{value}\">{}</td><td class=\"n\">{}</td></tr>",
            thousands(value),
            percent(share(value, answered))
        );
    }
    page.push_str("</tbody></table></section>");
}

fn severity_color(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => BY_NAME,
        Severity::Warning => PARTIAL,
        Severity::Info => "#4c6ef5",
    }
}

fn lint_chart(page: &mut String, s: &Summary) {
    let read = s.sizes.iter().sum::<u64>();
    let mut codes: Vec<(usize, u64)> = s
        .lint_sites
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, n)| *n > 0)
        .collect();
    codes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let bars: Vec<Bar> = codes
        .iter()
        .take(CHART_CODES)
        .map(|&(i, n)| {
            let code = findings::codes()[i];
            Bar {
                label: format!("{} {}", code.as_str(), code.name()),
                segments: vec![Segment {
                    share: share(n, read),
                    color: severity_color(code.default_severity()),
                    title: format!("{}: {} sites", code.as_str(), thousands(n)),
                }],
                note: format!("{} · {}", thousands(n), percent(share(n, read))),
            }
        })
        .collect();
    let top = codes.first().map_or(0.0, |&(_, n)| share(n, read));
    let _ = write!(
        page,
        "<section><h2>What the linter finds</h2><p class=\"note\">Of the {} files read, those with at least one finding of each code: the {} most frequent of the {} codes found, coloured by severity: \
         <span class=\"key\"><i style=\"background:{BY_NAME}\"></i>error</span> <span class=\"key\"><i style=\"background:{PARTIAL}\"></i>warning</span> <span class=\"key\"><i style=\"background:#4c6ef5\"></i>info</span>. \
         <code>crawlgate lint --explain CODE</code> documents each.</p>{}<div class=\"hidden-figures\">",
        thousands(read),
        bars.len(),
        codes.len(),
        if bars.is_empty() {
            "<p class=\"empty\">No findings.</p>".to_owned()
        } else {
            svg::stacked_bars(&bars, axis_end(top), 230)
        }
    );
    for &(i, n) in &codes {
        let _ = write!(
            page,
            "<span data-lint=\"{}\" data-value=\"{n}\"></span>",
            findings::codes()[i].as_str()
        );
    }
    page.push_str("</div></section>");
}

fn comparison_section(page: &mut String, c: &crate::compare::Comparison, earlier: &str) {
    let mut changed: Vec<&crate::compare::CrawlerChange> =
        c.crawlers.iter().filter(|x| x.compared).collect();
    changed.sort_by(|a, b| {
        (b.started + b.stopped)
            .cmp(&(a.started + a.stopped))
            .then(a.token.cmp(&b.token))
    });
    let moving: Vec<&&crate::compare::CrawlerChange> = changed
        .iter()
        .filter(|x| x.started + x.stopped > 0)
        .collect();
    let rows: Vec<(String, u64, u64)> = moving
        .iter()
        .take(CHART_CRAWLERS)
        .map(|x| (x.token.clone(), x.started, x.stopped))
        .collect();
    let drawn = if moving.len() > rows.len() {
        format!("; the {} that changed most are drawn", rows.len())
    } else {
        String::new()
    };
    let _ = write!(
        page,
        "<section><h2>Since {}</h2><p class=\"note\"><b data-figure=\"matched\" data-value=\"{}\">{}</b> hosts in both surveys, {} only now, {} only then. \
         Of the <b data-figure=\"compared\" data-value=\"{}\">{}</b> whose robots.txt answered both times, the sites that started or stopped blocking each crawler fully; \
         {} crawlers changed{drawn}. Outages are not changes of mind: <b data-figure=\"now_unreachable\" data-value=\"{}\">{}</b> hosts became unreachable, <b data-figure=\"reachable_again\" data-value=\"{}\">{}</b> are reachable again.</p>{}",
        escape(earlier),
        c.matched,
        thousands(c.matched),
        thousands(c.only_new),
        thousands(c.only_old),
        c.compared,
        thousands(c.compared),
        moving.len(),
        c.now_unreachable,
        thousands(c.now_unreachable),
        c.reachable_again,
        thousands(c.reachable_again),
        if rows.is_empty() {
            "<p class=\"empty\">No site changed.</p>".to_owned()
        } else {
            svg::diverging(&rows, 190)
        }
    );
    page.push_str("<table><thead><tr><th>crawler</th><th class=\"n\">blocked then</th><th class=\"n\">blocked now</th><th class=\"n\">started</th><th class=\"n\">stopped</th></tr></thead><tbody>");
    for x in &changed {
        let _ = write!(
            page,
            "<tr data-change=\"{}\" data-started=\"{}\" data-stopped=\"{}\"><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n up\">+{}</td><td class=\"n down\">−{}</td></tr>",
            escape(&x.token),
            x.started,
            x.stopped,
            escape(&x.token),
            thousands(x.before),
            thousands(x.after),
            thousands(x.started),
            thousands(x.stopped)
        );
    }
    page.push_str("</tbody></table></section>");
}

fn crawler_table(page: &mut String, s: &Summary) {
    let chosen = s.chosen;
    page.push_str(
        "<section><h2>Every crawler</h2><p class=\"note\">Sites per cause; each row adds up to the sites answered (the last column). The share is of the sites whose robots.txt answered (outages and unfollowed redirects: of all sites answered). On a narrow screen the table scrolls sideways.</p><table class=\"crawlers\"><thead><tr><th>crawler</th>",
    );
    for cause in Cause::ALL {
        let _ = write!(
            page,
            "<th class=\"n\">{}</th>",
            cause.as_str().replace('_', " ")
        );
    }
    page.push_str("<th class=\"n\">sites</th></tr></thead><tbody>");
    for c in ranked(s) {
        let _ = write!(
            page,
            "<tr data-crawler=\"{}\"{} data-root-allowed=\"{}\" data-root-disallowed=\"{}\" data-root-none=\"{}\"><td><code>{}</code><span class=\"who\">{}{}</span></td>",
            escape(&c.token),
            Cause::ALL
                .iter()
                .map(|&cause| format!(" data-{}=\"{}\"", cause.as_str().replace('_', "-"), c.count(cause)))
                .collect::<String>(),
            c.root[0],
            c.root[1],
            c.root[2],
            escape(&c.token),
            escape(&c.operator),
            if c.purpose.is_empty() {
                String::new()
            } else {
                format!(" · {}", escape(&c.purpose))
            },
        );
        for cause in Cause::ALL {
            let n = c.count(cause);
            let whole = if cause.is_choice() {
                chosen
            } else {
                s.answered()
            };
            let _ = write!(
                page,
                "<td class=\"n\">{}<span class=\"share\">{}</span></td>",
                thousands(n),
                percent(share(n, whole))
            );
        }
        let _ = write!(
            page,
            "<td class=\"n\" data-sum=\"{}\">{}</td></tr>",
            c.causes.iter().sum::<u64>(),
            thousands(c.causes.iter().sum::<u64>())
        );
    }
    page.push_str("</tbody></table>");
    if !s.paths.is_empty() {
        page.push_str("<h2>Paths asked about</h2><table><thead><tr><th>crawler</th>");
        for p in &s.paths {
            let _ = write!(page, "<th class=\"n\">{} disallowed</th>", escape(p));
        }
        page.push_str("</tr></thead><tbody>");
        for c in ranked(s) {
            let _ = write!(
                page,
                "<tr data-paths=\"{}\" data-disallowed=\"{}\"><td><code>{}</code></td>",
                escape(&c.token),
                c.paths
                    .iter()
                    .map(|p| p[1].to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                escape(&c.token)
            );
            for p in &c.paths {
                let _ = write!(
                    page,
                    "<td class=\"n\">{} <span class=\"share\">{}</span></td>",
                    thousands(p[1]),
                    percent(share(p[1], p[0] + p[1]))
                );
            }
            page.push_str("</tr>");
        }
        page.push_str("</tbody></table>");
    }
    page.push_str("</section>");
}

/// Per crawler, the sites whose robots.txt gives it an AI-use preference
/// for `/`, and what the most common ones state.
fn preferences_table(page: &mut String, s: &Summary) {
    let mut stating: Vec<&CrawlerTally> = s.crawlers.iter().filter(|c| c.preferences > 0).collect();
    stating.sort_by(|a, b| {
        b.preferences
            .cmp(&a.preferences)
            .then(a.token.cmp(&b.token))
    });
    let _ = write!(
        page,
        "<section><h2>AI-use preferences per crawler</h2><p class=\"note\">Sites whose robots.txt gives the crawler a preference for <code>/</code> in the groups it obeys (<code>Content-Usage</code> read as the IETF AI-preferences drafts say, or <code>Content-Signal</code>), as <code>crawlgate check --json</code> gives them; the share is of the {} sites whose robots.txt answered. A crawler that may not fetch <code>/</code> is given none.</p>",
        thousands(s.chosen)
    );
    if stating.is_empty() {
        page.push_str("<p data-preferences=\"none\">No site gives a surveyed crawler a preference for <code>/</code>.</p></section>");
        return;
    }
    page.push_str("<table><thead><tr><th>crawler</th><th class=\"n\">sites</th><th>most common</th></tr></thead><tbody>");
    for c in stating {
        let common = c
            .common_preferences(3)
            .iter()
            .map(|(value, n)| format!("<code>{}</code> ({})", escape(value), thousands(*n)))
            .collect::<Vec<_>>()
            .join("; ");
        let _ = write!(
            page,
            "<tr data-preferences=\"{}\" data-sites=\"{}\"><td><code>{}</code></td><td class=\"n\">{} <span class=\"share\">{}</span></td><td>{common}</td></tr>",
            escape(&c.token),
            c.preferences,
            escape(&c.token),
            thousands(c.preferences),
            percent(share(c.preferences, s.chosen)),
        );
    }
    page.push_str("</tbody></table></section>");
}

fn accounting_section(page: &mut String, a: &crate::summary::Accounting) {
    let _ = write!(
        page,
        "<section><h2>Every record accounted for</h2><p class=\"note\"><b data-figure=\"records\" data-value=\"{}\">{}</b> records read = <b>{}</b> rows + <b data-figure=\"duplicates\" data-value=\"{}\">{}</b> earlier captures of a host captured again (counted in its row's <code>captures</code>) + <b data-figure=\"skipped\" data-value=\"{}\">{}</b> records that are no robots.txt capture:</p><table class=\"compact\"><tbody>",
        a.records,
        thousands(a.records),
        thousands(a.rows),
        a.duplicates,
        thousands(a.duplicates),
        a.skipped_total(),
        thousands(a.skipped_total()),
    );
    for skip in Skip::ALL {
        let n = a
            .skipped
            .iter()
            .find(|(word, _)| word == skip.as_str())
            .map_or(0, |(_, n)| *n);
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"n\" data-figure=\"skipped_{}\" data-value=\"{n}\">{}</td></tr>",
            skip.meaning(),
            skip.as_str(),
            thousands(n)
        );
    }
    page.push_str("</tbody></table></section>");
}

/// The causes' definitions, with their colours.
fn definitions() -> String {
    let mut out = String::from("<dl>");
    for cause in Cause::ALL {
        let _ = write!(
            out,
            "<dt data-cause=\"{}\"><span class=\"dot\" style=\"background:{}\"></span>{}</dt><dd>{}</dd>",
            cause.as_str(),
            cause_color(cause),
            cause.as_str().replace('_', " "),
            escape(cause.meaning()).replace("`/`", "<code>/</code>").replace("`*`", "<code>*</code>")
        );
    }
    out.push_str("</dl><p>Files are read as Google reads them: a 4xx means no robots.txt (everything allowed), a 5xx or 429 means everything disallowed while it lasts, only the first 500 KiB count, redirects are followed up to five hops, and a crawler obeys only the group naming its product token, else <code>*</code>. \
         A row's <code>root_X</code> column says whether crawler X may fetch <code>/</code>, as it would act; <code>group_X</code> which group decided, as <code>crawlgate check</code> reads crawlers (named, fallback, star, none, or ignored: its operator says it ignores robots.txt); a host captured more than once is one row, its latest capture.</p>");
    out
}

const STYLE: &str = "\
:root{--ink:#1d2330;--soft:#5b6474;--line:#e3e6ec;--bg:#f6f7f9;--card:#fff;--accent:#c8412d}\
*{box-sizing:border-box}\
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}\
main{max-width:1100px;margin:0 auto;padding:32px 28px 60px}\
header{margin-bottom:24px}\
.kicker{margin:0;color:var(--accent);font-weight:600;letter-spacing:.06em;text-transform:uppercase;font-size:12px}\
h1{margin:4px 0 6px;font-size:32px;letter-spacing:-.01em}\
.sub{margin:0;color:var(--soft)}\
h2{font-size:18px;margin:0 0 6px}\
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px 22px;margin:0 0 18px;min-width:0}\
.scroll{overflow-x:auto;max-width:100%}\
h1,h2,.sub,.note,.what{overflow-wrap:anywhere}\
.scroll svg.chart{min-width:560px}\
table.crawlers td.n .share{display:block;margin:0}\
table.crawlers th.n{white-space:normal;min-width:58px}\
.who{display:block;color:var(--soft);font-size:12px}\
tr.total td{font-weight:600;border-top:2px solid var(--line)}\
.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:12px;background:none;border:0;padding:0}\
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}\
.card .num{font-size:26px;font-weight:650;font-variant-numeric:tabular-nums;display:inline-block;margin-right:8px}\
.card .share{color:var(--soft);font-variant-numeric:tabular-nums}\
.card .what{color:var(--soft);font-size:13px}\
.card.accent{border-top:3px solid var(--accent)}\
.card.warn{border-top:3px solid #f0a23b}\
.card.muted .num{color:var(--soft)}\
.pair{display:grid;grid-template-columns:minmax(0,1.15fr) minmax(0,1fr);gap:18px}\
.pair section{margin:0 0 18px}\
.note{color:var(--soft);margin:0 0 12px;font-size:13.5px}\
.key{white-space:nowrap;margin-left:6px}\
.key i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}\
.chart{max-width:100%;height:auto;display:block}\
.chart .grid{stroke:#edf0f4}\
.chart .axisline{stroke:#9aa3b2}\
.chart .axis{fill:#8a93a3}\
.chart .label{fill:var(--ink)}\
.chart .value{fill:var(--soft)}\
table{border-collapse:collapse;width:100%;font-size:13.5px}\
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line)}\
th{color:var(--soft);font-weight:600;font-size:12.5px}\
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\
td .share{color:#98a0ae;font-size:12px;margin-left:4px}\
table.compact{margin-bottom:14px}\
td.up{color:#c8412d}td.down{color:#2f9e6e}\
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f0f2f5;padding:1px 4px;border-radius:4px}\
.hidden-figures{display:none}\
.empty{color:var(--soft)}\
.prose dl{display:grid;grid-template-columns:130px 1fr;gap:6px 14px;margin:0 0 12px}\
.prose dt{font-weight:600}.prose dd{margin:0;color:#3a4252}\
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:6px}\
@media (max-width:800px){main{padding:20px 12px 40px}section{padding:16px 12px}.cards{grid-template-columns:repeat(2,1fr)}.pair{grid-template-columns:1fr}.card{min-width:0;overflow-wrap:anywhere}}";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crawlers::CrawlerSet;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_page_loads_nothing_from_anywhere_and_defines_every_cause() {
        let mut summary = Summary::new(&CrawlerSet::default_set(), &["/news/".into()]);
        summary.rows = 3;
        let snapshots = [
            Snapshot {
                label: "then".into(),
                summary: summary.clone(),
            },
            Snapshot {
                label: "now".into(),
                summary,
            },
        ];
        let page = render(
            &snapshots,
            &ReportInfo {
                inputs: vec!["<corpus>".into()],
                ..ReportInfo::default()
            },
        );
        assert!(page.contains("&lt;corpus&gt;"));
        for forbidden in ["<script", "<link", "src=", "@import", "url("] {
            assert!(!page.contains(forbidden), "{forbidden}");
        }
        // The only URL is the SVG namespace (`http_…` words are Common
        // Crawl's class names, no URLs).
        assert_eq!(
            page.matches("://").count(),
            page.matches("http://www.w3.org/2000/svg").count()
        );
        for cause in Cause::ALL {
            assert!(page.contains(&format!("data-cause=\"{}\"", cause.as_str())));
        }
        assert!(page.contains("Over 2 snapshots"));
    }
}
