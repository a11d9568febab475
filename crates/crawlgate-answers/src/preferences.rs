//! The usage preferences that apply to a URL for a crawler
//! ([`AgentView::preferences`](crawlgate::AgentView::preferences):
//! `Content-Usage` as the IETF AI-preferences drafts read it, and
//! Cloudflare's `Content-Signal`) as every front end writes them:
//! `crawlgate check --json` and `explain --json`, the service's
//! `/v1/check`, Python's `preferences()`.

use std::collections::BTreeMap;

use crawlgate::extension::CONTENT_SIGNAL_KEYS;
use crawlgate::{Preference, UsagePreferences};
use serde::Serialize;

/// The usage preferences that apply to one URL for the crawler. Its fields
/// are in the order of their names, the order JSON objects are written in
/// throughout crawlgate.
///
/// ```
/// use crawlgate::RobotsTxt;
/// use crawlgate_answers::Preferences;
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n\nContent-Signal: search=yes\n");
/// let found = robots.view("bot").preferences("/page").unwrap();
/// let shown = Preferences::of(&found);
/// assert_eq!((shown.train_ai, shown.ai_use, shown.search), ("disallowed", "unknown", "unknown"));
/// assert_eq!(
///     serde_json::to_string(&shown).unwrap(),
///     r#"{"ai_use":"unknown","content_signal":{"line":3,"signals":{"search":true},"value":"search=yes"},"content_usage":[{"line":2,"path":null,"preferences":"train-ai=n"}],"search":"unknown","search_overrides":[],"train_ai":"disallowed","unknown_keys":[]}"#
/// );
///
/// // Search overrides AI Training and AI Use inside a search application
/// // (vocabulary draft 08, section 4.3).
/// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n, search=y\n");
/// let shown = Preferences::of(&robots.view("bot").preferences("/").unwrap());
/// assert_eq!(shown.search_overrides, ["train-ai", "ai-use"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Preferences {
    /// `allowed`, `disallowed` or `unknown`: the `ai-use` category (AI
    /// Use, vocabulary draft 08).
    #[cfg_attr(feature = "openapi", schema(example = "unknown"))]
    pub ai_use: &'static str,
    /// The `Content-Signal` line of the crawler's groups, if any.
    pub content_signal: Option<SignalShown>,
    /// The `Content-Usage` records that apply (the longest matching path;
    /// several only when they name the same path).
    pub content_usage: Vec<UsageShown>,
    /// `allowed`, `disallowed` or `unknown`: the `search` category.
    #[cfg_attr(feature = "openapi", schema(example = "unknown"))]
    pub search: &'static str,
    /// The categories (`train-ai`, `ai-use`) whose preference a stated
    /// `search` replaces inside a search application, where it differs:
    /// Search overrides AI Training and AI Use (vocabulary draft 08,
    /// section 4.3). Empty when `search` is unknown.
    pub search_overrides: Vec<&'static str>,
    /// `allowed`, `disallowed` or `unknown`: the `train-ai` category (the
    /// most restrictive of the records that apply).
    #[cfg_attr(feature = "openapi", schema(example = "disallowed"))]
    pub train_ai: &'static str,
    /// Keys outside the drafts' vocabulary, ignored.
    pub unknown_keys: Vec<String>,
}

/// A `Content-Usage` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UsageShown {
    /// Its line.
    pub line: u32,
    /// The path it is scoped to (`null`: the whole site).
    pub path: Option<String>,
    /// Its preferences as written (`train-ai=n`).
    pub preferences: String,
}

/// A `Content-Signal` line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignalShown {
    /// Its line.
    pub line: u32,
    /// Each known signal it sets (`search`, `ai-input`, `ai-train`).
    pub signals: BTreeMap<&'static str, bool>,
    /// Its value as written.
    pub value: String,
}

impl Preferences {
    /// `allowed`, `disallowed` or `unknown`: a preference as the front
    /// ends write it.
    ///
    /// ```
    /// use crawlgate::Preference;
    /// use crawlgate_answers::Preferences;
    /// assert_eq!(Preferences::word(Some(Preference::Disallowed)), "disallowed");
    /// assert_eq!(Preferences::word(None), "unknown");
    /// ```
    pub fn word(preference: Option<Preference>) -> &'static str {
        match preference {
            Some(Preference::Allowed) => "allowed",
            Some(Preference::Disallowed) => "disallowed",
            None => "unknown",
        }
    }

    /// `found`, as the front ends show it.
    pub fn of(found: &UsagePreferences<'_>) -> Preferences {
        Preferences {
            ai_use: Preferences::word(found.ai_use),
            content_signal: found.content_signal.map(|s| SignalShown {
                line: s.line,
                signals: CONTENT_SIGNAL_KEYS
                    .iter()
                    .filter_map(|&key| s.get(key).map(|v| (key, v)))
                    .collect(),
                value: s.value.to_owned(),
            }),
            content_usage: found
                .records
                .iter()
                .map(|u| UsageShown {
                    line: u.line,
                    path: u.path.map(str::to_owned),
                    preferences: u.preferences.to_owned(),
                })
                .collect(),
            search: Preferences::word(found.search),
            search_overrides: found
                .overridden_by_search()
                .into_iter()
                .map(|c| c.label())
                .collect(),
            train_ai: Preferences::word(found.train_ai),
            unknown_keys: found.unknown_keys.iter().map(|k| (*k).to_owned()).collect(),
        }
    }
}
