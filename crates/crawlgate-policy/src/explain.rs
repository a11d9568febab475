//! The table `--explain` prints: every crawler of the registry × its
//! purpose × the verdict `crawlgate check` gives it under the file, with
//! what the policy says, how the crawler's group was chosen, the
//! preference it reads (vocabulary draft 08) and whether a server rule
//! stops it.

use serde::Serialize;

use crate::proof::Row;
use crate::server::ServerRules;

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExplainRow {
    /// The crawler's name in the registry.
    pub crawler: String,
    /// The token it is compared by: its whole name (a `User-agent` line
    /// names it only when that is a product token).
    pub token: String,
    /// Its purpose (`ai-train`).
    pub purpose: String,
    /// What the policy says of it (`ai-train deny`, `not stated`).
    pub policy: String,
    /// What the file must do for it (`allowed`, `disallowed`,
    /// `unchanged`, `ignores robots.txt`, `retired`).
    pub expected: String,
    /// Whether `crawlgate check` lets it fetch `/`.
    pub allowed: bool,
    /// How its group was chosen (`own`, `fallback`, `*`, `none`,
    /// `ignores-robots-txt`, `control-token`).
    pub choice: String,
    /// The first line of the group it obeys.
    pub group_line: Option<u32>,
    /// The profile the file is read by for it, as `crawlgate check
    /// --agent NAME` reads it (`google`, `bing`, `yandex`).
    pub profile: String,
    /// The preference of its own category at `/` (`train-ai=n`).
    pub preference: Option<String>,
    /// `403`, `403 on private paths`, or null.
    pub server_rule: Option<String>,
    /// Whether the file does what the policy means for it.
    pub holds: bool,
}

/// The table's rows.
pub(crate) fn rows(proof_rows: &[Row], server: &ServerRules) -> Vec<ExplainRow> {
    proof_rows
        .iter()
        .map(|row| {
            let name = row.crawler.name;
            let server_rule = if server.denied.iter().any(|c| c.name == name) {
                Some("403".to_owned())
            } else if server.private_for.iter().any(|c| c.name == name)
                && !server.private_paths.is_empty()
            {
                Some("403 on private paths".to_owned())
            } else {
                None
            };
            ExplainRow {
                crawler: name.to_owned(),
                token: row.crawler.token.to_owned(),
                purpose: row.purpose.as_str().to_owned(),
                policy: row.policy.clone(),
                expected: row.expected.as_str().to_owned(),
                allowed: row.root_allowed,
                choice: row.choice.as_str().to_owned(),
                group_line: row.group_line,
                profile: row.profile.to_owned(),
                preference: row.preference.clone(),
                server_rule,
                holds: row.holds,
            }
        })
        .collect()
}

/// The rows as an aligned text table (names cut to 28 characters).
pub(crate) fn text(rows: &[ExplainRow]) -> String {
    let cut = |s: &str, max: usize| -> String {
        if s.chars().count() > max {
            let mut t: String = s.chars().take(max - 1).collect();
            t.push('…');
            t
        } else {
            s.to_owned()
        }
    };
    let header = [
        "crawler",
        "purpose",
        "policy",
        "check /",
        "group",
        "line",
        "preference",
        "server",
    ];
    let mut table: Vec<[String; 8]> = vec![header.map(str::to_owned)];
    for row in rows {
        let verdict = if row.allowed { "allowed" } else { "disallowed" };
        table.push([
            cut(&row.crawler, 28),
            row.purpose.clone(),
            cut(&row.policy, 32),
            if row.holds {
                verdict.to_owned()
            } else {
                format!("{verdict} (!)")
            },
            if row.profile == "google" {
                row.choice.clone()
            } else {
                format!("{} ({})", row.choice, row.profile)
            },
            row.group_line.map_or("-".to_owned(), |l| l.to_string()),
            row.preference.clone().unwrap_or_else(|| "-".to_owned()),
            row.server_rule.clone().unwrap_or_else(|| "-".to_owned()),
        ]);
    }
    let mut widths = [0usize; 8];
    for line in &table {
        for (w, cell) in widths.iter_mut().zip(line) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for line in &table {
        let mut text = String::new();
        for (i, cell) in line.iter().enumerate() {
            text.push_str(cell);
            if i + 1 < line.len() {
                let pad = widths[i] - cell.chars().count() + 2;
                text.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
