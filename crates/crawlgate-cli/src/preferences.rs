//! The usage preferences that apply to a URL (`AgentView::preferences`:
//! `Content-Usage` as the IETF drafts read it, and the `Content-Signal`),
//! as `explain` prints them and as `explain --json` and `check --json`
//! carry them.

use crawlgate::{Preference, UsagePreferences};
use serde_json::{json, Value};

use crate::output::line_ref;

fn word(preference: Option<Preference>) -> &'static str {
    match preference {
        Some(Preference::Allowed) => "allowed",
        Some(Preference::Disallowed) => "disallowed",
        None => "unknown",
    }
}

fn token(preference: Option<Preference>) -> &'static str {
    match preference {
        Some(Preference::Allowed) => "y",
        Some(Preference::Disallowed) => "n",
        None => "unknown",
    }
}

/// The lines `explain` prints under a URL (none when the file says nothing
/// about usage to this crawler there).
pub fn text_lines(preferences: &UsagePreferences<'_>, name: &str) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    if !preferences.records.is_empty() {
        let mut said = format!(
            "train-ai={}, search={}",
            token(preferences.train_ai),
            token(preferences.search)
        );
        if !preferences.unknown_keys.is_empty() {
            said.push_str(&format!(
                "; not in the vocabulary, ignored: {}",
                preferences.unknown_keys.join(", ")
            ));
        }
        let refs: Vec<String> = preferences
            .records
            .iter()
            .map(|r| line_ref(name, r.line))
            .collect();
        let from = if refs.len() > 1 {
            format!(
                "{}: same path, the most restrictive of each",
                refs.join(", ")
            )
        } else {
            refs.join("")
        };
        lines.push((format!("content usage: {said}"), format!("({from})")));
    }
    if let Some(signal) = preferences.content_signal {
        lines.push((
            format!("content signal: {}", signal.value),
            format!("({})", line_ref(name, signal.line)),
        ));
    }
    lines
}

/// The preferences as JSON: each category (`allowed`, `disallowed`,
/// `unknown`), the records that apply, the keys ignored, the signal.
pub fn to_json(preferences: &UsagePreferences<'_>) -> Value {
    let signal = preferences.content_signal.map(|s| {
        let signals: serde_json::Map<String, Value> = crawlgate::extension::CONTENT_SIGNAL_KEYS
            .iter()
            .filter_map(|&key| s.get(key).map(|v| (key.to_owned(), json!(v))))
            .collect();
        json!({"line": s.line, "value": s.value, "signals": signals})
    });
    json!({
        "train_ai": word(preferences.train_ai),
        "search": word(preferences.search),
        "content_usage": preferences.records.iter().map(|u| json!({
            "line": u.line,
            "path": u.path,
            "preferences": u.preferences,
        })).collect::<Vec<_>>(),
        "unknown_keys": preferences.unknown_keys,
        "content_signal": signal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;

    #[test]
    fn ties_unknown_keys_and_signals_are_shown() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nContent-Usage: /p/ train-ai=y, bots=n\nContent-Usage: /p/ train-ai=n\n\
              Content-Signal: search=yes, ai-train=no\n",
        );
        let preferences = robots.for_agent("bot").preferences("/p/x").unwrap();
        assert_eq!(
            text_lines(&preferences, "r"),
            [
                (
                    "content usage: train-ai=n, search=unknown; not in the vocabulary, ignored: bots"
                        .to_owned(),
                    "(r:2, r:3: same path, the most restrictive of each)".to_owned()
                ),
                (
                    "content signal: search=yes, ai-train=no".to_owned(),
                    "(r:4)".to_owned()
                ),
            ]
        );
        let json = to_json(&preferences);
        assert_eq!(json["train_ai"], "disallowed");
        assert_eq!(json["search"], "unknown");
        assert_eq!(json["content_usage"][1]["line"], 3);
        assert_eq!(json["unknown_keys"], json!(["bots"]));
        assert_eq!(
            json["content_signal"]["signals"],
            json!({"search": true, "ai-train": false})
        );
    }
}
