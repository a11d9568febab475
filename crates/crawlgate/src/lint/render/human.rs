//! rustc-style text: `file:line:col: severity[code]: message`, the source
//! line, a caret line under the span, and the suggested fix.

use std::fmt::Write as _;

use crate::agent::SelectionKind;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::audit::{table_version, AuditEntry};
use crate::lint::render::source_line;
use crate::lint::LintReport;

/// Widest part of a source line shown around the span.
const MAX_SHOWN: usize = 120;

struct Paint {
    on: bool,
}

impl Paint {
    fn paint(&self, style: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{style}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }

    fn severity_style(severity: Severity) -> &'static str {
        match severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Info => "1;36",
        }
    }
}

/// One displayable character per source character: control characters
/// become `�` so that carets line up.
fn shown_chars(bytes: &[u8]) -> Vec<char> {
    String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

fn render_one(out: &mut String, d: &Diagnostic, source: &[u8], path: &str, paint: &Paint) {
    let style = Paint::severity_style(d.severity);
    let _ = writeln!(
        out,
        "{}: {}: {}",
        paint.paint("1", &format!("{path}:{}:{}", d.span.line, d.span.column)),
        paint.paint(style, &format!("{}[{}]", d.severity, d.code)),
        paint.paint("1", &d.message)
    );
    let number = d.span.line.to_string();
    let pad = " ".repeat(number.len());
    let bar = paint.paint("1;34", "|");
    if let Some((line_start, bytes)) = source_line(source, d.span.line) {
        let from = d
            .span
            .bytes
            .start
            .clamp(line_start, line_start + bytes.len())
            - line_start;
        let to = d
            .span
            .bytes
            .end
            .clamp(line_start + from, line_start + bytes.len())
            - line_start;
        let before = shown_chars(&bytes[..from]);
        let inside = shown_chars(&bytes[from..to]).len().max(1);
        let mut text = shown_chars(bytes);
        // Show a window around the span of a very long line.
        let mut skip = 0;
        if text.len() > MAX_SHOWN {
            skip = before.len().saturating_sub(MAX_SHOWN / 3);
            let end = (skip + MAX_SHOWN).min(text.len());
            let mut window: Vec<char> = Vec::new();
            if skip > 0 {
                window.push('…');
            }
            window.extend_from_slice(&text[skip..end]);
            if end < text.len() {
                window.push('…');
            }
            text = window;
        }
        let lead = if skip > 0 { 1 } else { 0 };
        let offset: String = before[skip..]
            .iter()
            .map(|&c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let carets = "^".repeat(inside.min(MAX_SHOWN));
        let _ = writeln!(out, "{pad} {bar}");
        let _ = writeln!(
            out,
            "{} {bar} {}",
            paint.paint("1;34", &number),
            text.iter().collect::<String>()
        );
        let _ = writeln!(
            out,
            "{pad} {bar} {}{}{}",
            " ".repeat(lead),
            offset,
            paint.paint(style, &carets)
        );
    }
    if let Some(fix) = &d.fix {
        let _ = writeln!(out, "{pad} = {}: {}", paint.paint("1", "help"), fix.message);
    }
}

/// The report in rustc style, one block per finding, separated by blank
/// lines. `path` is the name shown; `color` adds ANSI colours.
pub fn human(report: &LintReport, source: &[u8], path: &str, color: bool) -> String {
    let paint = Paint { on: color };
    let mut out = String::new();
    for (i, d) in report.diagnostics.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, d, source, path, &paint);
    }
    out
}

/// One line: `robots.txt: 1 error, 2 warnings, 0 infos` (or `robots.txt:
/// no problems found`).
///
/// ```
/// use crawlgate::lint::{lint, render, LintOptions};
/// let report = lint(b"User-agent: *\nDisallow: /\n", &LintOptions::default());
/// assert_eq!(render::summary(&report, "robots.txt"), "robots.txt: 0 errors, 1 warning, 0 infos");
/// let report = lint(b"User-agent: *\nDisallow: /tmp/\n", &LintOptions::default());
/// assert_eq!(render::summary(&report, "robots.txt"), "robots.txt: no problems found");
/// ```
pub fn summary(report: &LintReport, path: &str) -> String {
    if report.diagnostics.is_empty() {
        return format!("{path}: no problems found");
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    format!(
        "{path}: {}, {}, {}",
        plural(report.count(Severity::Error), "error"),
        plural(report.count(Severity::Warning), "warning"),
        plural(report.count(Severity::Info), "info"),
    )
}

/// The crawler audit as a table: token, purpose, whether it obeys
/// robots.txt, which group it gets, whether it may crawl `/`, and the line
/// that decides.
pub fn audit_table(entries: &[AuditEntry], color: bool) -> String {
    let paint = Paint { on: color };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        paint.paint(
            "1",
            &format!(
                "crawler audit ({} known crawlers, table {})",
                entries.len(),
                table_version()
            )
        )
    );
    let _ = writeln!(
        out,
        "{:<30} {:<12} {:<8} {:<14} {:<8} decided by",
        "crawler", "purpose", "obeys", "group", "/"
    );
    for e in entries {
        let group = match e.selection {
            SelectionKind::Specific => {
                let lines: Vec<String> = e.group_lines.iter().map(u32::to_string).collect();
                format!("own (line {})", lines.join(","))
            }
            SelectionKind::Global => "*".to_owned(),
            SelectionKind::Nothing => "none".to_owned(),
        };
        let root = if e.root_allowed {
            paint.paint("32", &format!("{:<8}", "allowed"))
        } else {
            paint.paint("31", &format!("{:<8}", "blocked"))
        };
        let decided = match (&e.deciding_rule, e.deciding_line) {
            (Some(rule), Some(line)) => format!("line {line}: {rule}"),
            _ => "no rule".to_owned(),
        };
        let _ = writeln!(
            out,
            "{:<30} {:<12} {:<8} {:<14} {} {}",
            e.crawler.token,
            e.crawler.purpose.as_str(),
            e.crawler.obeys.as_str(),
            group,
            root,
            decided
        );
    }
    out
}
