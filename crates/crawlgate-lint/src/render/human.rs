//! rustc-style text: `file:line:col: severity[code]: message`, the source
//! line, a caret line under the span, and the suggested fix.

use std::fmt::Write as _;

use crawlgate::{ChoiceKind, Reading, Severity};

use crate::audit::{table_version, AuditEntry};
use crate::diagnostic::Diagnostic;
use crate::render::source::{span_in_line, SourceText};
use crate::report::LintReport;

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

fn render_one(
    out: &mut String,
    d: &Diagnostic,
    lines: &mut SourceText<'_>,
    path: &str,
    paint: &Paint,
) {
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
    if let Some((start, bytes, chars)) = lines.line(d.span.line) {
        let (from, to) = span_in_line(d, start, bytes.len());
        let before = chars.count(bytes, 0..from);
        let inside = chars.count(bytes, from..to).max(1);
        let all = chars.all();
        // Show a window around the span of a very long line.
        let mut skip = 0;
        let mut text: Vec<char> = Vec::new();
        if all.len() > MAX_SHOWN {
            skip = before.saturating_sub(MAX_SHOWN / 3);
            let end = (skip + MAX_SHOWN).min(all.len());
            if skip > 0 {
                text.push('…');
            }
            text.extend_from_slice(&all[skip..end]);
            if end < all.len() {
                text.push('…');
            }
        } else {
            text.extend_from_slice(all);
        }
        let lead = if skip > 0 { 1 } else { 0 };
        let offset: String = chars
            .before(bytes, from, skip)
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
        if let Some(how) = &fix.verdict_change {
            let _ = writeln!(
                out,
                "{pad} = {}: this fix changes verdicts: {how}",
                paint.paint("1", "note")
            );
        }
    }
}

/// The report in rustc style, one block per finding, separated by blank
/// lines. `path` is the name shown; `color` adds ANSI colours.
pub fn human(report: &LintReport, source: &[u8], path: &str, color: bool) -> String {
    let paint = Paint { on: color };
    let mut lines = SourceText::new(source);
    let mut out = String::new();
    for (i, d) in report.diagnostics.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, d, &mut lines, path, &paint);
    }
    out
}

/// One line: `robots.txt: 1 error, 2 warnings, 0 infos` (or `robots.txt:
/// no problems found`).
///
/// ```
/// use crawlgate_lint::{lint, render, LintOptions};
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
                "crawler audit ({} known crawlers, table {}, {})",
                entries.len(),
                table_version(),
                match entries.first().map(|e| e.reading) {
                    Some(Reading::OneToken) => "each token read as one token (--one-token)",
                    _ => "each read as its operator documents",
                }
            )
        )
    );
    let _ = writeln!(
        out,
        "{:<30} {:<12} {:<8} {:<22} {:<8} decided by",
        "crawler", "purpose", "obeys", "group", "/"
    );
    for e in entries {
        let lines: Vec<String> = e.group_lines.iter().map(u32::to_string).collect();
        let group = match (e.choice, e.token.as_deref()) {
            (ChoiceKind::Own, _) => format!("own (line {})", lines.join(",")),
            (ChoiceKind::Fallback, Some(token)) => format!("{token} (line {})", lines.join(",")),
            (ChoiceKind::ControlToken, Some("*")) => "control: *".to_owned(),
            (ChoiceKind::ControlToken, Some(_)) => format!("control (line {})", lines.join(",")),
            (ChoiceKind::Star, _) => "*".to_owned(),
            (ChoiceKind::IgnoresRobotsTxt, _) => "ignores robots.txt".to_owned(),
            (ChoiceKind::NoGroup, _) if !e.crawler.obeys_star => "none (ignores *)".to_owned(),
            _ => "none".to_owned(),
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
            "{:<30} {:<12} {:<8} {:<22} {} {}",
            e.crawler.name,
            e.crawler.purpose.as_str(),
            e.crawler.obeys.as_str(),
            group,
            root,
            decided
        );
    }
    out
}
