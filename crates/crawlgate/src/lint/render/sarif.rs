//! SARIF 2.1.0, for code-scanning in CI.

use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::render::json::string;
use crate::lint::render::{source_line, LintedFile};
use crate::lint::RULES;

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference.
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:@!$&'()*+,;=".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Start and end (exclusive) columns in Unicode code points.
fn columns(d: &Diagnostic, source: &[u8]) -> (usize, usize) {
    match source_line(source, d.span.line) {
        Some((start, bytes)) => {
            let from = d.span.bytes.start.clamp(start, start + bytes.len()) - start;
            let to = d.span.bytes.end.clamp(start + from, start + bytes.len()) - start;
            let col = String::from_utf8_lossy(&bytes[..from]).chars().count() + 1;
            let len = String::from_utf8_lossy(&bytes[from..to]).chars().count();
            (col, col + len.max(1))
        }
        None => (1, 2),
    }
}

/// The findings of several files as one SARIF 2.1.0 log: one run whose
/// driver lists every rule of [`RULES`], one result per finding, and a fix
/// where the replacement is mechanical. Columns are Unicode code points.
///
/// ```
/// use crawlgate::lint::{lint, render, LintOptions};
/// let source = b"User-agent: *\nDisallow: /\n";
/// let report = lint(source, &LintOptions::default());
/// let sarif = render::sarif(&[render::LintedFile { path: "robots.txt", source, report: &report }]);
/// assert!(sarif.contains("\"version\":\"2.1.0\""));
/// assert!(sarif.contains("\"ruleId\":\"R204\""));
/// ```
pub fn sarif(files: &[LintedFile<'_>]) -> String {
    let mut out = String::from(
        "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\
         \"runs\":[{\"tool\":{\"driver\":{\"name\":\"crawlgate\",\"version\":",
    );
    string(&mut out, env!("CARGO_PKG_VERSION"));
    out.push_str(",\"informationUri\":");
    string(&mut out, "https://github.com/crawlgate/crawlgate");
    out.push_str(",\"rules\":[");
    for (i, rule) in RULES.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"id\":");
        string(&mut out, rule.code.as_str());
        out.push_str(",\"name\":");
        string(&mut out, rule.name);
        out.push_str(",\"shortDescription\":{\"text\":");
        string(&mut out, rule.summary);
        out.push_str("},\"fullDescription\":{\"text\":");
        string(&mut out, rule.summary);
        out.push_str("},\"help\":{\"text\":");
        string(&mut out, rule.docs);
        out.push_str(",\"markdown\":");
        string(&mut out, rule.docs);
        out.push_str("},\"defaultConfiguration\":{\"level\":");
        string(&mut out, level(rule.severity));
        out.push_str("},\"properties\":{\"category\":");
        string(&mut out, rule.category.as_str());
        out.push_str("}}");
    }
    out.push_str("]}},\"columnKind\":\"unicodeCodePoints\",\"results\":[");
    let mut first = true;
    for file in files {
        let location = uri(file.path);
        for d in &file.report.diagnostics {
            if !first {
                out.push(',');
            }
            first = false;
            let (start, end) = columns(d, file.source);
            let region = format!(
                "{{\"startLine\":{},\"startColumn\":{start},\"endColumn\":{end}}}",
                d.span.line
            );
            out.push_str("{\"ruleId\":");
            string(&mut out, d.code.as_str());
            if let Some(index) = RULES.iter().position(|r| r.code == d.code) {
                out.push_str(&format!(",\"ruleIndex\":{index}"));
            }
            out.push_str(",\"level\":");
            string(&mut out, level(d.severity));
            out.push_str(",\"message\":{\"text\":");
            let text = match &d.fix {
                Some(fix) => format!("{} (help: {})", d.message, fix.message),
                None => d.message.to_string(),
            };
            string(&mut out, &text);
            out.push_str("},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
            string(&mut out, &location);
            out.push_str(&format!("}},\"region\":{region}}}}}]"));
            if let Some(fix) = &d.fix {
                if let Some(replacement) = &fix.replacement {
                    out.push_str(",\"fixes\":[{\"description\":{\"text\":");
                    string(&mut out, &fix.message);
                    out.push_str("},\"artifactChanges\":[{\"artifactLocation\":{\"uri\":");
                    string(&mut out, &location);
                    out.push_str(&format!(
                        "}},\"replacements\":[{{\"deletedRegion\":{region},\"insertedContent\":{{\"text\":"
                    ));
                    string(&mut out, replacement);
                    out.push_str("}}]}]}]");
                }
            }
            out.push('}');
        }
    }
    out.push_str("]}]}");
    out
}
