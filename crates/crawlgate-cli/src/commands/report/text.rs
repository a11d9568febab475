//! The human report: the fetch, every line with its kind and flags, the
//! counts, then each flagged line with what Google says and what crawlgate
//! says.

use std::fmt::Write as _;

use crawlgate::{LineKind, ReportedLine};

use super::notes::{elsewhere_note, google_note, Findings};
use super::reported::Reported;
use crate::load::fetch::fetch_summary;
use crate::output::shown;
use crate::output::{line_ref, pad, pad_left, Palette};

/// The widest line text shown in the table, in characters.
const TEXT_WIDTH: usize = 100;

/// `disallow, typo, no colon`: the kind and the flags set.
fn kind_and_flags(line: &ReportedLine) -> String {
    let mut text = line.kind.as_str().to_owned();
    for (set, flag) in [
        (line.typo, "typo"),
        (line.missing_colon, "no colon"),
        (line.too_long, "too long"),
    ] {
        if set {
            text.push_str(", ");
            text.push_str(flag);
        }
    }
    text
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The human report.
pub fn render(r: &Reported<'_>, p: Palette) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        p.heading(&format!(
            "Search Console's view of {} (Google's reporting library)",
            r.name
        ))
    );
    if let Some(fetch) = r.fetch {
        let _ = writeln!(
            out,
            "fetched  {}, took {} ms",
            fetch_summary(fetch),
            fetch.elapsed_ms
        );
        if fetch.truncated {
            let _ = writeln!(
                out,
                "         only the first {} bytes were read, as Google reads",
                fetch.bytes_parsed.unwrap_or(fetch.bytes_read)
            );
        }
        if r.report.lines().is_empty() {
            let _ = writeln!(out, "\nno robots.txt body: nothing to classify");
            return out;
        }
    }
    let _ = writeln!(out);
    let lines = r.report.lines();
    let number_width = lines.len().to_string().len();
    let kind_width = lines
        .iter()
        .map(|l| kind_and_flags(l).len())
        .max()
        .unwrap_or(0);
    let mut past_limit = None;
    for line in lines {
        if r.only_flagged && !line.is_flagged() {
            continue;
        }
        if line.bytes.end > r.read_limit && past_limit.is_none() {
            past_limit = Some(line.number);
            let _ = writeln!(
                out,
                "{}",
                p.notice(&format!(
                    "-- past the {} bytes crawlers read: Search Console's fetch would not have these lines --",
                    crawlgate::MAX_BYTES
                ))
            );
        }
        let kind = pad(&kind_and_flags(line), kind_width);
        let kind = if line.is_flagged() {
            p.notice(&kind)
        } else if matches!(line.kind, LineKind::Empty | LineKind::Comment) {
            p.dim(&kind)
        } else {
            kind
        };
        let text = shown(
            &String::from_utf8_lossy(&r.bytes[line.bytes.clone()]),
            TEXT_WIDTH,
        );
        let row = format!(
            "{}  {kind}  {text}",
            p.dim(&pad_left(&line.number.to_string(), number_width))
        );
        let _ = writeln!(out, "{}", row.trim_end());
    }
    let flagged: Vec<&ReportedLine> = r.report.flagged().collect();
    let _ = writeln!(
        out,
        "\n{}: {}, {}; {} flagged",
        plural(lines.len(), "line", "lines"),
        plural(
            r.report.valid_directives() as usize,
            "valid directive",
            "valid directives"
        ),
        plural(
            r.report.unused_directives() as usize,
            "unused directive",
            "unused directives"
        ),
        flagged.len()
    );
    if flagged.is_empty() {
        return out;
    }
    let findings = Findings::new(&r.lint, lines);
    let _ = writeln!(out, "\n{}", p.heading("Flagged lines"));
    for line in flagged {
        let text = shown(
            &String::from_utf8_lossy(&r.bytes[line.bytes.clone()]),
            TEXT_WIDTH,
        );
        let _ = writeln!(out, "  {}  {text}", p.dim(&line_ref(r.name, line.number)));
        if let Some(note) = google_note(line, r.bytes) {
            let _ = writeln!(out, "    {}  {note}", pad("google", 9));
        }
        if let Some((reading, note)) = elsewhere_note(line, &r.readings) {
            let _ = writeln!(out, "    {}  {note}", pad(reading, 9));
        }
        for &(finding, first) in findings.on(line.number) {
            let what = format!("{} {}", finding.code.as_str(), finding.code.name());
            let message = if first == line.number {
                finding.message.to_string()
            } else {
                format!("(see line {first})")
            };
            let _ = writeln!(
                out,
                "    {}  {what}: {}",
                pad("lint", 9),
                shown(&message, 2 * TEXT_WIDTH)
            );
        }
    }
    out
}
