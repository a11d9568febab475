//! JSON output, for scripts: one object per finding, and the crawler audit.

use crawlgate::Reading;
use serde::Serialize;

use crate::audit::{table_version, AuditEntry};
use crate::render::source::LintedFile;
use crate::rules::rule_info;

/// One finding as JSON.
#[derive(Serialize)]
struct Finding<'a> {
    file: &'a str,
    code: &'static str,
    name: &'static str,
    category: &'static str,
    severity: &'static str,
    line: u32,
    column: u32,
    end_column: usize,
    message: &'a str,
    fix: Option<Fix<'a>>,
}

#[derive(Serialize)]
struct Fix<'a> {
    message: &'a str,
    replacement: Option<&'a str>,
    changes_verdicts: bool,
    verdict_change: Option<&'a str>,
}

/// The findings of several files as one JSON array, one object per finding:
/// `{"file", "code", "name", "category", "severity", "line", "column",
/// "end_column", "message", "fix": {"message", "replacement",
/// "changes_verdicts", "verdict_change"} | null}`. Columns are 1-based byte
/// columns; `end_column` is exclusive. A fix keeps every verdict of the
/// profile the file was linted with unless `changes_verdicts` is `true`;
/// then `verdict_change` says how (`"/.tab-x becomes allowed"`).
///
/// ```
/// use crawlgate_lint::{lint, render, LintOptions};
/// let source = b"User-agent: *\nDisallow: /a\nDisallow: /a\n";
/// let report = lint(source, &LintOptions::default());
/// let json = render::json(&[render::LintedFile { path: "r.txt", source, report: &report }]);
/// assert!(json.starts_with("[{\"file\":\"r.txt\",\"code\":\"R201\",\"name\":\"duplicate-rule\""));
/// ```
pub fn json(files: &[LintedFile<'_>]) -> String {
    let findings: Vec<Finding<'_>> = files
        .iter()
        .flat_map(|file| {
            file.report.diagnostics.iter().map(|d| Finding {
                file: file.path,
                code: d.code.as_str(),
                name: d.code.name(),
                category: rule_info(d.code).map_or("syntax", |r| r.category.as_str()),
                severity: d.severity.as_str(),
                line: d.span.line,
                column: d.span.column,
                end_column: d.span.column as usize + d.span.bytes.len().max(1),
                message: &d.message,
                fix: d.fix.as_ref().map(|fix| Fix {
                    message: &fix.message,
                    replacement: fix.replacement.as_deref(),
                    changes_verdicts: fix.changes_verdicts(),
                    verdict_change: fix.verdict_change.as_deref(),
                }),
            })
        })
        .collect();
    to_string(&findings)
}

/// What the file says to one crawler, as JSON.
#[derive(Serialize)]
struct AuditCrawler<'a> {
    token: &'static str,
    name: &'static str,
    operator: &'static str,
    purpose: &'static str,
    obeys: &'static str,
    kind: &'static str,
    selection: &'static str,
    selected_token: Option<&'a str>,
    why: &'a str,
    source: AuditSource,
    group_lines: &'a [u32],
    root_allowed: bool,
    deciding_line: Option<u32>,
    deciding_rule: Option<&'a str>,
}

#[derive(Serialize)]
struct AuditSource {
    title: &'static str,
    url: &'static str,
    checked: &'static str,
}

#[derive(Serialize)]
struct Audit<'a> {
    table_version: &'static str,
    reading: &'static str,
    crawlers: Vec<AuditCrawler<'a>>,
}

/// The crawler audit as a JSON object: `{"table_version", "reading",
/// "crawlers": [{"token",
/// "name", "operator", "purpose", "obeys", "kind", "selection", "selected_token",
/// "why", "source", "group_lines", "root_allowed", "deciding_line",
/// "deciding_rule"}]}`: `selection` is how the crawler reading chose its
/// groups (`own`, `fallback`, `*`, `none`, `ignores-robots-txt`,
/// `control-token`), `selected_token` the token whose groups apply.
/// `reading` is `crawler` (each read as its operator documents) or
/// `one-token` (each product token read as Google's library reads it).
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_lint::{audit, render};
/// let robots = RobotsTxt::parse(b"User-agent: GPTBot\nDisallow: /\n");
/// let json = render::audit_json(&audit::audit(&robots));
/// assert!(json.contains("{\"token\":\"GPTBot\",\"name\":\"GPTBot\",\"operator\":\"OpenAI\""));
/// assert!(json.contains("\"selection\":\"own\",\"selected_token\":\"GPTBot\""));
/// assert!(json.contains("\"group_lines\":[1],\"root_allowed\":false"));
/// assert!(json.contains("\"reading\":\"crawler\""));
/// ```
pub fn audit_json(entries: &[AuditEntry]) -> String {
    let crawlers = entries
        .iter()
        .map(|e| AuditCrawler {
            token: e.crawler.token,
            name: e.crawler.name,
            operator: e.crawler.operator,
            purpose: e.crawler.purpose.as_str(),
            obeys: e.crawler.obeys.as_str(),
            kind: e.crawler.kind.as_str(),
            selection: e.choice.as_str(),
            selected_token: e.token.as_deref(),
            why: &e.why,
            source: AuditSource {
                title: e.crawler.source.title,
                url: e.crawler.source_url(),
                checked: e.crawler.checked,
            },
            group_lines: &e.group_lines,
            root_allowed: e.root_allowed,
            deciding_line: e.deciding_line,
            deciding_rule: e.deciding_rule.as_deref(),
        })
        .collect();
    to_string(&Audit {
        table_version: table_version(),
        // One audit reads every crawler the same way.
        reading: entries
            .first()
            .map_or(Reading::Crawler, |e| e.reading)
            .as_str(),
        crawlers,
    })
}

/// Compact JSON. Serialising these plain structs (strings, numbers,
/// booleans) cannot fail.
pub(crate) fn to_string(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
