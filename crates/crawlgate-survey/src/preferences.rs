//! The AI-use preferences a site states to one crawler for one path
//! (`AgentView::preferences`: the `Content-Usage` records that apply, read
//! as the IETF AI-preferences drafts say, and the crawler's
//! `Content-Signal`), as the survey's `prefs_X` columns hold them: the JSON
//! object `crawlgate check --json` gives in its `preferences` field for
//! that crawler and URL, written compactly; null where none applies (the
//! crawler may not fetch the path, or its groups say nothing about usage).
//!
//! The summary counts them by [`stated`], a short form that keeps what a
//! crawler acts on (each category's preference and the signals) and leaves
//! out line numbers, paths and keys outside the vocabulary, so that sites
//! that say the same thing count together.

use crawlgate::extension::CONTENT_SIGNAL_KEYS;
use crawlgate::UsagePreferences;
use crawlgate_answers::Preferences;
use serde_json::Value;

/// The value of a `prefs_X` column: the preferences as every front end
/// writes them ([`crawlgate_answers::Preferences`], the object `crawlgate
/// check --json` gives), as compact text; or None when no preference applies (`preferences` is None: the crawler may not
/// fetch the path; or it is empty), as `check --json` gives null.
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_survey::preferences::column_value;
/// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /private/\nContent-Signal: ai-train=no\n");
/// let view = robots.view("GPTBot");
/// assert!(column_value(view.preferences("/")).unwrap().contains(r#""signals":{"ai-train":false}"#));
/// assert_eq!(column_value(view.preferences("/private/")), None);
/// assert_eq!(column_value(RobotsTxt::parse(b"").view("GPTBot").preferences("/")), None);
/// ```
pub fn column_value(preferences: Option<UsagePreferences<'_>>) -> Option<String> {
    preferences
        .filter(|p| !p.is_empty())
        .and_then(|p| serde_json::to_string(&Preferences::of(&p)).ok())
}

/// What a `prefs_X` value states, in short: `content-usage train-ai=n
/// ai-use=unknown search=unknown` when `Content-Usage` records apply, `content-signal
/// search=yes ai-train=no` when a signal does (its recognised signals, in
/// the vocabulary's order), both joined by `; `. None for a value that is
/// not the JSON [`column_value`] writes (a table edited by hand).
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_survey::preferences::{column_value, stated};
/// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: /a/ train-ai=n, foo=y\nContent-Signal: search=yes, ai-train=no\n");
/// let value = column_value(robots.view("GPTBot").preferences("/a/x")).unwrap();
/// assert_eq!(stated(&value).as_deref(), Some("content-usage train-ai=n ai-use=unknown search=unknown; content-signal search=yes ai-train=no"));
/// let value = column_value(robots.view("GPTBot").preferences("/b")).unwrap();
/// assert_eq!(stated(&value).as_deref(), Some("content-signal search=yes ai-train=no"));
/// ```
pub fn stated(value: &str) -> Option<String> {
    let json: Value = serde_json::from_str(value).ok()?;
    let short = |word: &str| match word {
        "allowed" => "y",
        "disallowed" => "n",
        _ => "unknown",
    };
    let mut parts = Vec::new();
    if json["content_usage"]
        .as_array()
        .is_some_and(|r| !r.is_empty())
    {
        parts.push(format!(
            "content-usage train-ai={} ai-use={} search={}",
            short(json["train_ai"].as_str()?),
            // Tables written before vocabulary draft 08 have no `ai_use`.
            short(json["ai_use"].as_str().unwrap_or("unknown")),
            short(json["search"].as_str()?)
        ));
    }
    if let Some(signals) = json["content_signal"]["signals"].as_object() {
        let said: Vec<String> = CONTENT_SIGNAL_KEYS
            .iter()
            .filter_map(|&key| {
                let yes = signals.get(key)?.as_bool()?;
                Some(format!("{key}={}", if yes { "yes" } else { "no" }))
            })
            .collect();
        parts.push(if said.is_empty() {
            "content-signal (no recognised signal)".to_owned()
        } else {
            format!("content-signal {}", said.join(" "))
        });
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;
    use serde_json::json;

    #[test]
    fn ties_take_the_most_restrictive_and_each_record_is_listed() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nContent-Usage: /p/ train-ai=y, bots=n\nContent-Usage: /p/ train-ai=n\n\
              Content-Signal: search=yes, ai-train=no, bogus=1\n",
        );
        let value = column_value(robots.view("bot").preferences("/p/x")).unwrap();
        let json: Value = serde_json::from_str(&value).unwrap();
        assert_eq!(json["train_ai"], "disallowed");
        assert_eq!(json["content_usage"][1]["line"], 3);
        assert_eq!(json["unknown_keys"], json!(["bots"]));
        assert_eq!(
            json["content_signal"]["signals"],
            json!({"search": true, "ai-train": false})
        );
        assert_eq!(
            stated(&value).as_deref(),
            Some("content-usage train-ai=n ai-use=unknown search=unknown; content-signal search=yes ai-train=no")
        );
        assert_eq!(stated("not json"), None);
        assert_eq!(stated("{}"), None);
    }
}
