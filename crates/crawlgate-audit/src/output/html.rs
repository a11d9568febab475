//! The HTML report: one self-contained page (no script, no outside
//! resource) with inline SVG charts: requests per crawler over time,
//! verified against spoofed per crawler, violations by path; and the
//! tables behind them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::findings::{time_range, CrawlerSummary, Summary};
use crate::time::{format_rfc3339, Millis};

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

const COLOURS: [&str; 8] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}table{border-collapse:collapse;margin:.5em 0}\
td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}td.n,th.n{text-align:right}\
.chart{display:block;margin:.5em 0}.muted{color:#666}.legend span{display:inline-block;margin-right:1em}\
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}";

/// Requests per crawler over time, for the top crawlers: a line each.
fn timeline(out: &mut String, crawlers: &[&CrawlerSummary]) {
    let shown: Vec<&CrawlerSummary> = crawlers
        .iter()
        .copied()
        .filter(|c| !c.hourly.is_empty())
        .take(COLOURS.len())
        .collect();
    if shown.is_empty() {
        let _ = writeln!(out, "<p class=muted>No request with a time.</p>");
        return;
    }
    let first = shown
        .iter()
        .filter_map(|c| c.hourly.keys().next())
        .min()
        .copied()
        .unwrap_or(0);
    let last = shown
        .iter()
        .filter_map(|c| c.hourly.keys().next_back())
        .max()
        .copied()
        .unwrap_or(0);
    let hour: Millis = 3_600_000;
    let hours = ((last - first) / hour + 1).max(1);
    // At most 240 points: hours merged into bins.
    let per_bin = (hours + 239) / 240;
    let bins = ((hours + per_bin - 1) / per_bin).max(1) as usize;
    let series: Vec<Vec<u64>> = shown
        .iter()
        .map(|c| {
            let mut values = vec![0u64; bins];
            for (t, counts) in &c.hourly {
                let bin = (((t - first) / hour) / per_bin) as usize;
                values[bin.min(bins - 1)] += counts.iter().sum::<u64>();
            }
            values
        })
        .collect();
    let max = series.iter().flatten().copied().max().unwrap_or(1).max(1);
    let (w, h, left, bottom) = (800.0, 260.0, 50.0, 30.0);
    let x = |i: usize| {
        left + if bins == 1 {
            0.0
        } else {
            i as f64 * (w - left - 10.0) / (bins - 1) as f64
        }
    };
    let y = |v: u64| 10.0 + (h - bottom - 10.0) * (1.0 - v as f64 / max as f64);
    let _ = writeln!(out, "<svg class=chart role=img aria-label=\"Requests per crawler over time\" width={w} height={h} viewBox=\"0 0 {w} {h}\">");
    let _ = writeln!(
        out,
        "<line x1={left} y1={} x2={} y2={} stroke=#999 />",
        h - bottom,
        w - 10.0,
        h - bottom
    );
    let _ = writeln!(
        out,
        "<line x1={left} y1=10 x2={left} y2={} stroke=#999 />",
        h - bottom
    );
    let _ = writeln!(
        out,
        "<text x={} y=14 text-anchor=end font-size=11>{max}</text>",
        left - 4.0
    );
    let _ = writeln!(
        out,
        "<text x={} y={} text-anchor=end font-size=11>0</text>",
        left - 4.0,
        h - bottom
    );
    let _ = writeln!(
        out,
        "<text x={left} y={} font-size=11>{}</text>",
        h - 8.0,
        escape(&format_rfc3339(first))
    );
    let _ = writeln!(
        out,
        "<text x={} y={} text-anchor=end font-size=11>{}</text>",
        w - 10.0,
        h - 8.0,
        escape(&format_rfc3339(last + hour))
    );
    for (i, values) in series.iter().enumerate() {
        let mut points: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(j, v)| format!("{:.1},{:.1}", x(j), y(*v)))
            .collect();
        // One hour only: a level line across it (a single point draws
        // nothing).
        if let [only] = values.as_slice() {
            points.push(format!("{:.1},{:.1}", w - 10.0, y(*only)));
        }
        let _ = writeln!(
            out,
            "<polyline fill=none stroke=\"{}\" stroke-width=1.5 points=\"{}\"><title>{}</title></polyline>",
            COLOURS[i],
            points.join(" "),
            escape(shown[i].name)
        );
    }
    let _ = writeln!(out, "</svg>");
    let _ = write!(out, "<p class=legend>");
    for (i, c) in shown.iter().enumerate() {
        let _ = write!(
            out,
            "<span><i class=swatch style=\"background:{}\"></i>{}</span>",
            COLOURS[i],
            escape(c.name)
        );
    }
    let hours_per_point = if per_bin == 1 {
        "one hour".to_owned()
    } else {
        format!("{per_bin} hours")
    };
    let _ = writeln!(
        out,
        "</p><p class=muted>Each point is {hours_per_point}.</p>"
    );
}

/// Horizontal bars: a label and stacked values each.
fn bars(out: &mut String, label: &str, rows: &[(String, Vec<u64>)], parts: &[(&str, &str)]) {
    if rows.is_empty() {
        let _ = writeln!(out, "<p class=muted>None.</p>");
        return;
    }
    let max = rows
        .iter()
        .map(|(_, v)| v.iter().sum::<u64>())
        .max()
        .unwrap_or(1)
        .max(1);
    let (w, row_h, left) = (800.0, 22.0, 260.0);
    let h = row_h * rows.len() as f64 + 10.0;
    let _ = writeln!(
        out,
        "<svg class=chart role=img aria-label=\"{}\" width={w} height={h} viewBox=\"0 0 {w} {h}\">",
        escape(label)
    );
    for (i, (name, values)) in rows.iter().enumerate() {
        let top = 5.0 + i as f64 * row_h;
        let shown: String = name.chars().take(40).collect();
        let _ = writeln!(
            out,
            "<text x={} y={} text-anchor=end font-size=12>{}</text>",
            left - 6.0,
            top + 14.0,
            escape(&shown)
        );
        let mut at = left;
        for (j, v) in values.iter().enumerate() {
            let width = (w - left - 60.0) * *v as f64 / max as f64;
            if width > 0.0 {
                let _ = writeln!(
                    out,
                    "<rect x={at:.1} y={top} width={width:.1} height={} fill=\"{}\"><title>{}: {v}</title></rect>",
                    row_h - 6.0,
                    parts[j].1,
                    escape(parts[j].0)
                );
            }
            at += width;
        }
        let _ = writeln!(
            out,
            "<text x={:.1} y={} font-size=11>{}</text>",
            at + 4.0,
            top + 14.0,
            values.iter().sum::<u64>()
        );
    }
    let _ = writeln!(out, "</svg>");
    let _ = write!(out, "<p class=legend>");
    for (name, colour) in parts {
        let _ = write!(
            out,
            "<span><i class=swatch style=\"background:{colour}\"></i>{}</span>",
            escape(name)
        );
    }
    let _ = writeln!(out, "</p>");
}

/// The report.
pub fn render(summary: &Summary, honeypots: &[String]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>crawlgate audit</title><style>{STYLE}</style></head><body>");
    let _ = writeln!(out, "<h1>crawlgate audit</h1>");
    let names: Vec<String> = summary.files.iter().map(|f| escape(&f.name)).collect();
    let _ = write!(
        out,
        "<p>{} requests from {}",
        summary.requests,
        names.join(", ")
    );
    if let Some((first, last)) = time_range(summary) {
        let _ = write!(out, ", {first} to {last}");
    }
    let _ = writeln!(
        out,
        ". {} named a crawler, {} no crawler; {} violations; {} unreadable lines; {} spoofing addresses.</p>",
        summary.crawler_requests,
        summary.unidentified_requests,
        summary.violations(),
        summary.unreadable(),
        summary.spoofing_ips.len()
    );
    let mut crawlers: Vec<&CrawlerSummary> = summary.crawlers.values().collect();
    crawlers.sort_by(|a, b| b.requests.cmp(&a.requests).then(a.name.cmp(b.name)));

    let _ = writeln!(out, "<h2>Requests per crawler over time</h2>");
    timeline(&mut out, &crawlers);

    let _ = writeln!(out, "<h2>Verified and spoofed</h2>");
    let identity_rows: Vec<(String, Vec<u64>)> = crawlers
        .iter()
        .take(20)
        .map(|c| {
            (
                c.name.to_owned(),
                vec![c.verified, c.spoofed, c.unknown, c.unverifiable],
            )
        })
        .collect();
    bars(
        &mut out,
        "Verified and spoofed requests per crawler",
        &identity_rows,
        &[
            ("verified", "#2ca02c"),
            ("spoofed", "#d62728"),
            ("unknown", "#ff7f0e"),
            ("unverifiable", "#bbbbbb"),
        ],
    );

    let _ = writeln!(out, "<h2>Violations by path</h2>");
    let mut by_path: BTreeMap<String, u64> = BTreeMap::new();
    for c in &crawlers {
        for (url, n) in c.violation_urls.top(50) {
            let path = url.split('?').next().unwrap_or(url);
            *by_path.entry(path.to_owned()).or_default() += n;
        }
    }
    let mut paths: Vec<(String, u64)> = by_path.into_iter().collect();
    paths.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let path_rows: Vec<(String, Vec<u64>)> = paths
        .into_iter()
        .take(20)
        .map(|(p, n)| (p, vec![n]))
        .collect();
    bars(
        &mut out,
        "Violations by path",
        &path_rows,
        &[("violations", "#d62728")],
    );

    let _ = writeln!(out, "<h2>Crawlers</h2><table><tr><th>Crawler<th>Operator<th>Purpose<th class=n>Requests<th class=n>Verified<th class=n>Spoofed<th class=n>Unknown<th class=n>Unverifiable<th class=n>Violations<th class=n>Crawl-delay breaches<th class=n>robots.txt fetches</tr>");
    for c in &crawlers {
        let _ = writeln!(
            out,
            "<tr><td>{}{}<td>{}<td>{}<td class=n>{}<td class=n>{}<td class=n>{}<td class=n>{}<td class=n>{}<td class=n>{}<td class=n>{}<td class=n>{}</tr>",
            escape(c.name),
            if c.user_triggered { " <span class=muted>(user-triggered)</span>" } else { "" },
            escape(c.operator),
            escape(c.purpose),
            c.requests,
            c.verified,
            c.spoofed,
            c.unknown,
            c.unverifiable,
            c.violations,
            c.crawl_delay.map_or("–".to_owned(), |_| c.crawl_delay_breaches.to_string()),
            c.robots_txt_fetches
        );
    }
    let _ = writeln!(out, "</table>");

    let violators: Vec<&&CrawlerSummary> = crawlers.iter().filter(|c| c.violations > 0).collect();
    if !violators.is_empty() {
        let _ = writeln!(
            out,
            "<h2>Violations</h2><table><tr><th>Crawler<th>URL<th class=n>Fetches</tr>"
        );
        for c in violators {
            for (url, n) in c.violation_urls.top(10) {
                let _ = writeln!(
                    out,
                    "<tr><td>{}<td>{}<td class=n>{n}</tr>",
                    escape(c.name),
                    escape(url)
                );
            }
        }
        let _ = writeln!(out, "</table>");
    }

    if !summary.spoofing_ips.is_empty() {
        let _ = writeln!(
            out,
            "<h2>Spoofing addresses</h2><table><tr><th>Address<th>Claimed</tr>"
        );
        for (ip, names) in summary.spoofing_ips.iter().take(500) {
            let names: Vec<&str> = names.iter().copied().collect();
            let _ = writeln!(out, "<tr><td>{ip}<td>{}</tr>", escape(&names.join(", ")));
        }
        let _ = writeln!(out, "</table>");
    }
    if !honeypots.is_empty() {
        let paths: Vec<String> = honeypots.iter().map(|h| escape(h)).collect();
        let _ = writeln!(
            out,
            "<h2>Honeypot</h2><p>{}: {} hits; {} addresses that named no crawler.</p>",
            paths.join(", "),
            summary.honeypot_hits,
            summary.unidentified_honeypot_ips.len()
        );
    }
    let unreadable: Vec<_> = summary.files.iter().filter(|f| f.unreadable > 0).collect();
    if !unreadable.is_empty() {
        let _ = writeln!(
            out,
            "<h2>Unreadable lines</h2><table><tr><th>Log<th class=n>Lines<th>First</tr>"
        );
        for f in unreadable {
            let first: Vec<String> = f
                .first_unreadable
                .iter()
                .take(10)
                .map(|(n, why)| format!("{n} ({})", escape(why)))
                .collect();
            let _ = writeln!(
                out,
                "<tr><td>{}<td class=n>{}<td>{}</tr>",
                escape(&f.name),
                f.unreadable,
                first.join(", ")
            );
        }
        let _ = writeln!(out, "</table>");
    }
    if !summary.feeds.is_empty() {
        let _ = writeln!(
            out,
            "<h2>Feeds</h2><table><tr><th>Feed<th class=n>Prefixes<th>Created<th>Note</tr>"
        );
        for f in &summary.feeds {
            let _ = writeln!(
                out,
                "<tr><td>{}<td class=n>{}<td>{}<td>{}</tr>",
                escape(&f.url),
                f.prefixes,
                escape(f.creation_time.as_deref().unwrap_or("")),
                escape(f.error.as_deref().unwrap_or(""))
            );
        }
        let _ = writeln!(out, "</table>");
    }
    let _ = writeln!(out, "</body></html>");
    out
}
