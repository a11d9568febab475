//! JSON output, written by hand (the core crate has no serde).

use crate::lint::audit::{table_version, AuditEntry};
use crate::lint::render::LintedFile;
use crate::lint::rule_info;

/// Appends `s` as a JSON string literal.
pub(crate) fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn optional_string(out: &mut String, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.push_str("null"),
    }
}

/// The findings of several files as one JSON array, one object per finding:
/// `{"file", "code", "name", "severity", "line", "column", "end_column",
/// "message", "fix": {"message", "replacement"} | null}`. Columns are
/// 1-based byte columns; `end_column` is exclusive.
///
/// ```
/// use crawlgate::lint::{lint, render, LintOptions};
/// let source = b"User-agent: *\nDisallow: /a\nDisallow: /a\n";
/// let report = lint(source, &LintOptions::default());
/// let json = render::json(&[render::LintedFile { path: "r.txt", source, report: &report }]);
/// assert!(json.starts_with("[{\"file\":\"r.txt\",\"code\":\"R201\",\"name\":\"duplicate-rule\""));
/// ```
pub fn json(files: &[LintedFile<'_>]) -> String {
    let mut out = String::from("[");
    let mut first = true;
    for file in files {
        for d in &file.report.diagnostics {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str("{\"file\":");
            string(&mut out, file.path);
            out.push_str(",\"code\":");
            string(&mut out, d.code.as_str());
            out.push_str(",\"name\":");
            string(&mut out, d.code.name());
            out.push_str(",\"category\":");
            string(
                &mut out,
                rule_info(d.code).map_or("syntax", |r| r.category.as_str()),
            );
            out.push_str(",\"severity\":");
            string(&mut out, d.severity.as_str());
            out.push_str(&format!(
                ",\"line\":{},\"column\":{},\"end_column\":{}",
                d.span.line,
                d.span.column,
                d.span.column as usize + d.span.bytes.len().max(1)
            ));
            out.push_str(",\"message\":");
            string(&mut out, &d.message);
            out.push_str(",\"fix\":");
            match &d.fix {
                Some(fix) => {
                    out.push_str("{\"message\":");
                    string(&mut out, &fix.message);
                    out.push_str(",\"replacement\":");
                    optional_string(&mut out, fix.replacement.as_deref());
                    out.push('}');
                }
                None => out.push_str("null"),
            }
            out.push('}');
        }
    }
    out.push(']');
    out
}

/// The crawler audit as a JSON object: `{"table_version", "crawlers": [{"token",
/// "operator", "purpose", "obeys", "selection", "group_lines", "root_allowed",
/// "deciding_line", "deciding_rule"}]}`.
pub fn audit_json(entries: &[AuditEntry]) -> String {
    let mut out = String::from("{\"table_version\":");
    string(&mut out, table_version());
    out.push_str(",\"crawlers\":[");
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"token\":");
        string(&mut out, e.crawler.token);
        out.push_str(",\"operator\":");
        string(&mut out, e.crawler.operator);
        out.push_str(",\"purpose\":");
        string(&mut out, e.crawler.purpose.as_str());
        out.push_str(",\"obeys\":");
        string(&mut out, e.crawler.obeys.as_str());
        out.push_str(",\"selection\":");
        let selection = match e.selection {
            crate::SelectionKind::Specific => "own",
            crate::SelectionKind::Global => "*",
            crate::SelectionKind::Nothing => "none",
        };
        string(&mut out, selection);
        let lines: Vec<String> = e.group_lines.iter().map(u32::to_string).collect();
        out.push_str(&format!(
            ",\"group_lines\":[{}],\"root_allowed\":{},\"deciding_line\":{}",
            lines.join(","),
            e.root_allowed,
            e.deciding_line.map_or("null".to_owned(), |l| l.to_string())
        ));
        out.push_str(",\"deciding_rule\":");
        optional_string(&mut out, e.deciding_rule.as_deref());
        out.push('}');
    }
    out.push_str("]}");
    out
}
