//! The HTML report: one self-contained page (no script, no font, no image
//! or style sheet loaded from anywhere) with the headline figures, the
//! share of sites blocking each crawler, file sizes, lint findings, and the
//! change since an earlier survey.
//!
//! Every figure is also an attribute (`data-figure`, `data-crawler` …) so a
//! test can read them back and check them against the table.

mod svg;

use std::fmt::Write as _;

use crawlgate::Severity;

use crate::classify::Class;
use crate::findings;
use crate::summary::{size_label, CrawlerTally, Summary, SIZE_BOUNDS};
use svg::{percent, thousands, Bar, Segment};

/// What the report says about how the survey was made.
#[derive(Clone, Debug, Default)]
pub struct ReportInfo {
    /// The inputs surveyed, as given.
    pub inputs: Vec<String>,
    /// When the survey ran (RFC 3339).
    pub generated: String,
    /// The reading files were parsed with.
    pub profile: String,
    /// Seconds the survey took.
    pub seconds: f64,
}

/// Colours of the classes.
const BLOCKED: &str = "#c8412d";
const PARTIAL: &str = "#f0a23b";
const ALLOWED: &str = "#2f9e6e";
const UNMENTIONED: &str = "#c9ced6";

/// How many crawlers the blocking chart shows (the most blocked first).
const CHART_CRAWLERS: usize = 30;

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

/// The report page.
///
/// ```
/// use crawlgate_survey::{report, CrawlerSet, Summary};
/// let summary = Summary::new(&CrawlerSet::default_set());
/// let page = report::render(&summary, &report::ReportInfo::default());
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// assert!(page.contains("data-figure=\"rows\" data-value=\"0\""));
/// ```
pub fn render(summary: &Summary, info: &ReportInfo) -> String {
    let mut page = String::with_capacity(64 << 10);
    let answered = summary.answered();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>robots.txt survey: {} sites</title><style>{STYLE}</style></head><body><main>",
        thousands(summary.rows)
    );
    let _ = write!(
        page,
        "<header><p class=\"kicker\">crawlgate survey</p><h1>Who may crawl what</h1>\
         <p class=\"sub\">{} sites from {} · {} · read as <b>{}</b> · crawler table {} · crawlgate {}</p></header>",
        thousands(summary.rows),
        escape(&inputs_text(&info.inputs)),
        escape(&info.generated),
        escape(&info.profile),
        escape(crawlgate_lint::audit::table_version()),
        env!("CARGO_PKG_VERSION"),
    );
    headline(&mut page, summary);
    blocking_chart(&mut page, summary);
    page.push_str("<div class=\"pair\">");
    sizes_chart(&mut page, summary);
    outcomes_panel(&mut page, summary);
    page.push_str("</div>");
    lint_chart(&mut page, summary);
    if let Some(comparison) = &summary.comparison {
        comparison_section(&mut page, comparison);
    }
    crawler_table(&mut page, summary);
    let _ = write!(
        page,
        "<section><h2>How to read this</h2><div class=\"prose\">{}\
         <p>Shares are of the {} sites answered (error rows left out). Survey took {:.1} s.</p></div></section>",
        definitions(),
        thousands(answered),
        info.seconds
    );
    page.push_str("</main></body></html>\n");
    page
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
    let answered = Some(s.answered());
    page.push_str("<section class=\"cards\">");
    card(page, "rows", s.rows, None, "sites surveyed", "");
    card(
        page,
        "conditional",
        s.outcomes[2],
        answered,
        "serve a robots.txt that is read",
        "",
    );
    card(
        page,
        "full_allow",
        s.outcomes[0],
        answered,
        "have none (4xx): everything allowed",
        "",
    );
    card(
        page,
        "full_disallow",
        s.outcomes[1],
        answered,
        "server error (5xx, 429): everything disallowed",
        "warn",
    );
    card(
        page,
        "blocking_ai",
        s.blocking_ai,
        answered,
        "block at least one AI crawler fully",
        "accent",
    );
    card(page, "html", s.html, answered, "serve HTML instead", "warn");
    card(
        page,
        "with_lint_errors",
        s.with_lint_errors,
        answered,
        "files with lint errors",
        "",
    );
    card(
        page,
        "errors",
        s.errors,
        Some(s.rows),
        "inputs that could not be read",
        "muted",
    );
    page.push_str("</section>");
}

/// Crawlers sorted by blocked, then partial share (most first), `*` kept.
fn ranked(s: &Summary) -> Vec<&CrawlerTally> {
    let mut crawlers: Vec<&CrawlerTally> = s.crawlers.iter().collect();
    crawlers.sort_by(|a, b| {
        (b.count(Class::Blocked), b.count(Class::Partial))
            .cmp(&(a.count(Class::Blocked), a.count(Class::Partial)))
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
    let answered = s.answered();
    let restricted = |c: &CrawlerTally| c.count(Class::Blocked) + c.count(Class::Partial);
    let shown: Vec<&CrawlerTally> = ranked(s)
        .into_iter()
        .filter(|c| c.token != crate::crawlers::ANY && restricted(c) > 0)
        .take(CHART_CRAWLERS)
        .collect();
    let bars: Vec<Bar> = shown
        .iter()
        .map(|c| {
            let (blocked, partial) = (c.count(Class::Blocked), c.count(Class::Partial));
            Bar {
                label: c.token.clone(),
                segments: vec![
                    Segment {
                        share: share(blocked, answered),
                        color: BLOCKED,
                        title: format!("{}: {} sites block it fully", c.token, thousands(blocked)),
                    },
                    Segment {
                        share: share(partial, answered),
                        color: PARTIAL,
                        title: format!(
                            "{}: {} sites block it in part",
                            c.token,
                            thousands(partial)
                        ),
                    },
                ],
                note: format!(
                    "{} fully · {} in part",
                    percent(share(blocked, answered)),
                    percent(share(partial, answered))
                ),
            }
        })
        .collect();
    let top = shown
        .iter()
        .map(|c| share(restricted(c), answered))
        .fold(0.0f64, f64::max);
    let star = s
        .crawlers
        .iter()
        .find(|c| c.token == crate::crawlers::ANY)
        .map(|c| {
            format!(
                " Every crawler without a group of its own (<code>*</code>) is blocked fully on <b>{}</b> of the sites and in part on <b>{}</b>.",
                percent(share(c.count(Class::Blocked), answered)),
                percent(share(c.count(Class::Partial), answered))
            )
        })
        .unwrap_or_default();
    let _ = write!(
        page,
        "<section><h2>Share of sites blocking each crawler</h2>\
         <p class=\"note\"><span class=\"key\"><i style=\"background:{BLOCKED}\"></i>fully</span> <span class=\"key\"><i style=\"background:{PARTIAL}\"></i>in part</span> · \
         {} of the {} crawlers surveyed are restricted by some site, the most restricted first: by groups naming them, or by a server error, which disallows everything for everyone.{star}</p>{}</section>",
        shown.len(),
        s.crawlers.len(),
        if bars.is_empty() {
            "<p class=\"empty\">No site restricts any of these crawlers.</p>".to_owned()
        } else {
            svg::stacked_bars(&bars, axis_end(top), 190)
        }
    );
}

fn sizes_chart(page: &mut String, s: &Summary) {
    let buckets: Vec<(String, u64, &'static str)> = (0..=SIZE_BOUNDS.len())
        .map(|i| {
            let color = if i == SIZE_BOUNDS.len() {
                BLOCKED
            } else {
                "#4c6ef5"
            };
            (size_label(i).to_owned(), s.sizes[i], color)
        })
        .collect();
    let _ = write!(
        page,
        "<section class=\"panel\"><h2>File sizes</h2><p class=\"note\">Sites whose robots.txt was read, by size. Crawlers read the first 500 KiB only.</p>{}",
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

fn outcomes_panel(page: &mut String, s: &Summary) {
    let labels = [
        "no status (file)",
        "1xx",
        "2xx",
        "3xx",
        "4xx",
        "5xx",
        "other",
    ];
    let answered = s.answered();
    page.push_str("<section class=\"panel\"><h2>What the fetch gave</h2><table class=\"compact\"><thead><tr><th>HTTP status</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>");
    for (i, label) in labels.iter().enumerate() {
        if s.statuses[i] == 0 {
            continue;
        }
        let _ = write!(
            page,
            "<tr><td>{label}</td><td class=\"n\" data-figure=\"status_{i}\" data-value=\"{}\">{}</td><td class=\"n\">{}</td></tr>",
            s.statuses[i],
            thousands(s.statuses[i]),
            percent(share(s.statuses[i], answered))
        );
    }
    page.push_str("</tbody></table><table class=\"compact\"><thead><tr><th>The file</th><th class=\"n\">sites</th><th class=\"n\">share</th></tr></thead><tbody>");
    for (key, label, value) in [
        ("over_limit", "over 500 KiB", s.over_limit),
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
        Severity::Error => BLOCKED,
        Severity::Warning => PARTIAL,
        Severity::Info => "#4c6ef5",
    }
}

fn lint_chart(page: &mut String, s: &Summary) {
    let answered = s.answered();
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
                    share: share(n, answered),
                    color: severity_color(code.default_severity()),
                    title: format!("{}: {} sites", code.as_str(), thousands(n)),
                }],
                note: format!("{} · {}", thousands(n), percent(share(n, answered))),
            }
        })
        .collect();
    let top = codes.first().map_or(0.0, |&(_, n)| share(n, answered));
    let axis = axis_end(top);
    let _ = write!(
        page,
        "<section><h2>What the linter finds</h2><p class=\"note\">Sites with at least one finding of each code ({} most frequent of {} codes found), coloured by severity: \
         <span class=\"key\"><i style=\"background:{BLOCKED}\"></i>error</span> <span class=\"key\"><i style=\"background:{PARTIAL}\"></i>warning</span> <span class=\"key\"><i style=\"background:#4c6ef5\"></i>info</span>. \
         <code>crawlgate lint --explain CODE</code> documents each.</p>{}<div class=\"hidden-figures\">",
        bars.len(),
        codes.len(),
        if bars.is_empty() {
            "<p class=\"empty\">No findings.</p>".to_owned()
        } else {
            svg::stacked_bars(&bars, axis, 230)
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

fn comparison_section(page: &mut String, c: &crate::compare::Comparison) {
    let mut changed: Vec<&crate::compare::CrawlerChange> =
        c.crawlers.iter().filter(|x| x.compared).collect();
    changed.sort_by_key(|c| std::cmp::Reverse(c.started + c.stopped));
    let rows: Vec<(String, u64, u64)> = changed
        .iter()
        .filter(|x| x.started + x.stopped > 0)
        .take(CHART_CRAWLERS)
        .map(|x| (x.token.clone(), x.started, x.stopped))
        .collect();
    let _ = write!(
        page,
        "<section><h2>Since the earlier survey</h2><p class=\"note\">Compared with <code>{}</code>: <b data-figure=\"matched\" data-value=\"{}\">{}</b> hosts in both, \
         {} only now, {} only then. Sites that started or stopped blocking each crawler fully.</p>{}",
        escape(&c.earlier.display().to_string()),
        c.matched,
        thousands(c.matched),
        thousands(c.only_new),
        thousands(c.only_old),
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
    let answered = s.answered();
    page.push_str(
        "<section><h2>Every crawler</h2><table><thead><tr><th>crawler</th><th>operator</th><th>purpose</th>\
         <th class=\"n\">blocked</th><th class=\"n\">partial</th><th class=\"n\">allowed</th><th class=\"n\">unmentioned</th></tr></thead><tbody>",
    );
    for c in ranked(s) {
        let _ = write!(
            page,
            "<tr data-crawler=\"{}\" data-blocked=\"{}\" data-partial=\"{}\" data-allowed=\"{}\" data-unmentioned=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td>",
            escape(&c.token),
            c.count(Class::Blocked),
            c.count(Class::Partial),
            c.count(Class::Allowed),
            c.count(Class::Unmentioned),
            escape(&c.token),
            escape(&c.operator),
            escape(&c.purpose),
        );
        for class in Class::ALL {
            let n = c.count(class);
            let _ = write!(
                page,
                "<td class=\"n\">{} <span class=\"share\">{}</span></td>",
                thousands(n),
                percent(share(n, answered))
            );
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></section>");
}

/// The classes' definitions, with their colours.
fn definitions() -> String {
    let dt = |color: &str, word: &str| {
        format!("<dt><span class=\"dot\" style=\"background:{color}\"></span>{word}</dt>")
    };
    format!(
        "<dl>{}<dd>Groups naming the crawler disallow <code>/</code> and every sampled path of the file (up to 32 paths taken from its own rules); or the fetch gave a server error, which disallows everything.</dd>\
         {}<dd>Groups naming the crawler disallow some of those paths and allow others.</dd>\
         {}<dd>Groups naming the crawler allow every one of them.</dd>\
         {}<dd>No group names the crawler: the <code>*</code> groups answer for it, or nothing does (no <code>*</code> group, or no robots.txt at all). For <code>*</code> itself, the <code>*</code> groups are its own.</dd></dl>\
         <p>Files are read as Google reads them: a 4xx means no robots.txt (everything allowed), a 5xx or 429 means everything disallowed, only the first 500 KiB count, and a crawler obeys only the groups naming its product token, or else <code>*</code>.</p>",
        dt(BLOCKED, "blocked"),
        dt(PARTIAL, "partial"),
        dt(ALLOWED, "allowed"),
        dt(UNMENTIONED, "unmentioned"),
    )
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
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:20px 22px;margin:0 0 18px;overflow-x:auto}\
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
@media (max-width:800px){.cards{grid-template-columns:repeat(2,1fr)}.pair{grid-template-columns:1fr}}";

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
    fn the_page_loads_nothing_from_anywhere() {
        let mut summary = Summary::new(&CrawlerSet::default_set());
        summary.rows = 3;
        let page = render(
            &summary,
            &ReportInfo {
                inputs: vec!["<corpus>".into()],
                ..ReportInfo::default()
            },
        );
        assert!(page.contains("&lt;corpus&gt;"));
        for forbidden in ["<script", "<link", "src=", "@import", "url("] {
            assert!(!page.contains(forbidden), "{forbidden}");
        }
        // The only URL is the SVG namespace.
        assert_eq!(
            page.matches("http").count(),
            page.matches("http://www.w3.org/2000/svg").count()
        );
    }
}
