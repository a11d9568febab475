//! The usage preferences that apply to a URL (`AgentView::preferences`:
//! `Content-Usage` as the IETF drafts read it, and the `Content-Signal`),
//! as `explain` prints them (their JSON is the fetch crate's
//! `Preferences`, shared with the service and Python).

use crawlgate::{Preference, UsagePreferences};

use crate::output::line_ref;

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
            "train-ai={}, ai-use={}, search={}",
            token(preferences.train_ai),
            token(preferences.ai_use),
            token(preferences.search)
        );
        let overridden: Vec<&str> = preferences
            .overridden_by_search()
            .into_iter()
            .map(|c| c.label())
            .collect();
        if !overridden.is_empty() {
            // Vocabulary draft 08, section 4.3.
            said.push_str(&format!(
                "; inside a search application search={} decides {} too",
                token(preferences.search),
                overridden.join(" and ")
            ));
        }
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
        let preferences = robots.view("bot").preferences("/p/x").unwrap();
        assert_eq!(
            text_lines(&preferences, "r"),
            [
                (
                    "content usage: train-ai=n, ai-use=unknown, search=unknown; not in the vocabulary, ignored: bots"
                        .to_owned(),
                    "(r:2, r:3: same path, the most restrictive of each)".to_owned()
                ),
                (
                    "content signal: search=yes, ai-train=no".to_owned(),
                    "(r:4)".to_owned()
                ),
            ]
        );
        let json = serde_json::to_value(crawlgate_answers::Preferences::of(&preferences)).unwrap();
        assert_eq!(json["train_ai"], "disallowed");
        assert_eq!(json["search"], "unknown");
        assert_eq!(json["ai_use"], "unknown");
        assert_eq!(json["search_overrides"], serde_json::json!([]));
        assert_eq!(json["content_usage"][1]["line"], 3);
        assert_eq!(json["unknown_keys"], serde_json::json!(["bots"]));
        assert_eq!(
            json["content_signal"]["signals"],
            serde_json::json!({"search": true, "ai-train": false})
        );
    }

    #[test]
    fn search_overrides_the_other_categories_inside_search() {
        let robots =
            RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n, ai-use=n, search=y\n");
        let preferences = robots.view("bot").preferences("/").unwrap();
        assert_eq!(
            text_lines(&preferences, "r")[0].0,
            "content usage: train-ai=n, ai-use=n, search=y; inside a search application \
             search=y decides train-ai and ai-use too"
        );
    }
}
