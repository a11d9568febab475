//! SARIF 2.1.0, for code-scanning in CI: the subset of the format's objects
//! the linter fills, serialised in the format's own property names.

use serde::Serialize;

use crawlgate::Severity;

use crate::render::json::to_string;
use crate::render::source::{span_in_line, LintedFile, SourceText};
use crate::rules::RULES;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool,
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Text<'static>,
    full_description: Text<'static>,
    help: Help,
    default_configuration: Configuration,
    properties: Properties,
}

#[derive(Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Serialize)]
struct Help {
    text: &'static str,
    markdown: &'static str,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Properties {
    category: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: OwnedText,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix<'a>>,
}

#[derive(Serialize)]
struct OwnedText {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize, Clone, Copy)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix<'a> {
    description: OwnedText,
    artifact_changes: [ArtifactChange<'a>; 1],
    properties: FixProperties<'a>,
}

/// The fix's property bag: whether applying it changes verdicts, and how
/// (the names of the JSON output's `fix`).
#[derive(Serialize)]
struct FixProperties<'a> {
    changes_verdicts: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict_change: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange<'a> {
    artifact_location: ArtifactLocation<'a>,
    replacements: [Replacement<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement<'a> {
    deleted_region: Region,
    inserted_content: Text<'a>,
}

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

/// Every rule of [`RULES`] as a SARIF rule descriptor.
fn descriptors() -> Vec<ReportingDescriptor> {
    RULES
        .iter()
        .map(|rule| ReportingDescriptor {
            id: rule.code.as_str(),
            name: rule.name,
            short_description: Text { text: rule.summary },
            full_description: Text { text: rule.summary },
            help: Help {
                text: rule.docs,
                markdown: rule.docs,
            },
            default_configuration: Configuration {
                level: level(rule.severity),
            },
            properties: Properties {
                category: rule.category.as_str(),
            },
        })
        .collect()
}

/// The findings of several files as one SARIF 2.1.0 log: one run whose
/// driver lists every rule of [`RULES`], one result per finding, and a fix
/// where the replacement is mechanical, its property bag saying whether it
/// changes verdicts (`changes_verdicts`, and how: `verdict_change`).
/// Columns are Unicode code points.
///
/// ```
/// use crawlgate_lint::{lint, render, LintOptions};
/// let source = b"User-agent: *\nDisallow: /\n";
/// let report = lint(source, &LintOptions::default());
/// let sarif = render::sarif(&[render::LintedFile { path: "robots.txt", source, report: &report }]);
/// assert!(sarif.contains("\"version\":\"2.1.0\""));
/// assert!(sarif.contains("\"ruleId\":\"R204\""));
/// ```
pub fn sarif(files: &[LintedFile<'_>]) -> String {
    let uris: Vec<String> = files.iter().map(|file| uri(file.path)).collect();
    let mut results = Vec::new();
    for (file, location) in files.iter().zip(&uris) {
        let mut lines = SourceText::new(file.source);
        for d in &file.report.diagnostics {
            // Start and end (exclusive) columns in Unicode code points.
            let (start, end) = match lines.line(d.span.line) {
                Some((line_start, bytes, chars)) => {
                    let (from, to) = span_in_line(d, line_start, bytes.len());
                    let col = chars.count(bytes, 0..from) + 1;
                    (col, col + chars.count(bytes, from..to).max(1))
                }
                None => (1, 2),
            };
            let region = Region {
                start_line: d.span.line,
                start_column: start,
                end_column: end,
            };
            let text = match &d.fix {
                Some(fix) => match &fix.verdict_change {
                    Some(how) => format!(
                        "{} (help: {}; this fix changes verdicts: {how})",
                        d.message, fix.message
                    ),
                    None => format!("{} (help: {})", d.message, fix.message),
                },
                None => d.message.to_string(),
            };
            let fixes = d
                .fix
                .iter()
                .filter_map(|fix| {
                    let replacement = fix.replacement.as_deref()?;
                    let description = match &fix.verdict_change {
                        Some(how) => format!("{} (this fix changes verdicts: {how})", fix.message),
                        None => fix.message.to_string(),
                    };
                    Some(SarifFix {
                        description: OwnedText { text: description },
                        properties: FixProperties {
                            changes_verdicts: fix.changes_verdicts(),
                            verdict_change: fix.verdict_change.as_deref(),
                        },
                        artifact_changes: [ArtifactChange {
                            artifact_location: ArtifactLocation { uri: location },
                            replacements: [Replacement {
                                deleted_region: region,
                                inserted_content: Text { text: replacement },
                            }],
                        }],
                    })
                })
                .collect();
            results.push(SarifResult {
                rule_id: d.code.as_str(),
                rule_index: RULES.iter().position(|r| r.code == d.code),
                level: level(d.severity),
                message: OwnedText { text },
                locations: [Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation { uri: location },
                        region,
                    },
                }],
                fixes,
            });
        }
    }
    to_string(&Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool {
                driver: Driver {
                    name: "crawlgate",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://github.com/crawlgate/crawlgate",
                    rules: descriptors(),
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    })
}
