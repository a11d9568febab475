//! What a file says about the use of what a crawler fetches: the
//! `Content-Usage` preferences that apply to a URL (IETF AI-preferences
//! drafts: attachment draft 05, vocabulary draft 08), the crawler's
//! `Content-Signal`, and the file's `License` records (RSL 1.0).
//!
//! Reading of the drafts, point by point:
//!
//! - preferences apply only to URLs the crawler may fetch;
//! - a record's path matches as an allow or disallow path does; a record
//!   without a path covers every path, like `/`;
//! - the record with the longest matching path (in bytes, as normalised)
//!   applies; records that tie all apply, and each category takes the most
//!   restrictive of their preferences (`n` over `y` over unknown), the
//!   opposite of an Allow/Disallow tie;
//! - within a record, a key repeated keeps its last value; `y` and `n` are
//!   the only values, anything else (or a dictionary that does not parse,
//!   an uppercase key included) leaves the category unknown; keys outside
//!   the vocabulary (`train-ai`, `ai-use`, `search`) are ignored (kept
//!   here, to be reported);
//! - `search` overrides `train-ai` and `ai-use` for uses inside a search
//!   application (vocabulary 08, section 4.3):
//!   [`UsagePreferences::effective`].

use crate::decide::AgentView;
use crate::extension::{
    ContentSignal, ContentUsage, ExtensionKind, License, Preference, UsageCategory,
    CONTENT_USAGE_KEYS,
};
use crate::model::RobotsTxt;
use crate::parse::normalize::Escapes;
use crate::pattern::Pattern;
use crate::url_path::path_of;

/// The usage preferences that apply to one URL for one crawler.
///
/// ```
/// use crawlgate::{Preference, RobotsTxt};
/// // The attachment draft's example.
/// let robots = RobotsTxt::parse(b"User-Agent: *\nAllow: /\nDisallow: /never/\n\
///     Content-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
///     User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n");
/// let others = robots.view("SomeBot");
/// assert_eq!(others.preferences("/test").unwrap().train_ai, Some(Preference::Disallowed));
/// assert_eq!(others.preferences("/ai-ok/test").unwrap().train_ai, Some(Preference::Allowed));
/// assert!(others.preferences("/never/test").is_none());
/// let example = robots.view("ExampleBot");
/// assert_eq!(example.preferences("/never/test").unwrap().train_ai, Some(Preference::Allowed));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsagePreferences<'a> {
    /// `train-ai` (AI Training): `None` when unknown.
    pub train_ai: Option<Preference>,
    /// `ai-use` (AI Use: input to a generative model, not supplied by the
    /// user): `None` when unknown.
    pub ai_use: Option<Preference>,
    /// `search`: `None` when unknown.
    pub search: Option<Preference>,
    /// The `Content-Usage` records that apply: the longest matching path,
    /// several when they tie; in file order. Empty when none matches.
    pub records: Vec<ContentUsage<'a>>,
    /// Keys of those records outside the vocabulary, as written, each
    /// once. Crawlers that follow the draft ignore them.
    pub unknown_keys: Vec<&'a str>,
    /// The crawler's `Content-Signal` record (the first in its groups).
    pub content_signal: Option<ContentSignal<'a>>,
}

impl UsagePreferences<'_> {
    /// The preference for a vocabulary key (`train-ai`, `ai-use`,
    /// `search`), as stated.
    pub fn get(&self, key: &str) -> Option<Preference> {
        UsageCategory::from_label(key).and_then(|c| self.stated(c))
    }

    /// The preference stated for a category.
    pub fn stated(&self, category: UsageCategory) -> Option<Preference> {
        match category {
            UsageCategory::AiTraining => self.train_ai,
            UsageCategory::AiUse => self.ai_use,
            UsageCategory::Search => self.search,
        }
    }

    /// The preference that governs a use of this category, done inside a
    /// search application (`in_search`) or not. Search overrides AI
    /// Training and AI Use (vocabulary draft 08, section 4.3): inside a
    /// search application, a stated `search` preference decides, and the
    /// category's own only when `search` is unknown. Outside one, each
    /// category has its own preference; there is no fallback between them.
    ///
    /// ```
    /// use crawlgate::{Preference, RobotsTxt, UsageCategory};
    /// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n, search=y\n");
    /// let found = robots.view("bot").preferences("/").unwrap();
    /// // A search engine training its ranking model for search: allowed.
    /// assert_eq!(found.effective(UsageCategory::AiTraining, true), Some(Preference::Allowed));
    /// // Training a model for anything else: not allowed.
    /// assert_eq!(found.effective(UsageCategory::AiTraining, false), Some(Preference::Disallowed));
    /// // AI Use: not stated, and `search` does not fill it in outside search.
    /// assert_eq!(found.effective(UsageCategory::AiUse, false), None);
    /// ```
    pub fn effective(&self, category: UsageCategory, in_search: bool) -> Option<Preference> {
        match (in_search, self.search) {
            (true, Some(search)) => Some(search),
            _ => self.stated(category),
        }
    }

    /// The categories whose stated preference a stated `search` replaces
    /// inside a search application: AI Training and AI Use, when their
    /// preference differs from `search`'s (unknown included). Empty when
    /// `search` is unknown.
    ///
    /// ```
    /// use crawlgate::{RobotsTxt, UsageCategory};
    /// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n, ai-use=y, search=y\n");
    /// let found = robots.view("bot").preferences("/").unwrap();
    /// assert_eq!(found.overridden_by_search(), [UsageCategory::AiTraining]);
    /// ```
    pub fn overridden_by_search(&self) -> Vec<UsageCategory> {
        let Some(search) = self.search else {
            return Vec::new();
        };
        [UsageCategory::AiTraining, UsageCategory::AiUse]
            .into_iter()
            .filter(|&c| self.stated(c) != Some(search))
            .collect()
    }

    /// Whether the file says anything about usage to this crawler here: a
    /// `Content-Usage` record that applies or a `Content-Signal`.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty() && self.content_signal.is_none()
    }
}

/// The more restrictive of two preferences for one category: a
/// disallowing one wins, then an allowing one, then unknown.
fn most_restrictive(a: Option<Preference>, b: Option<Preference>) -> Option<Preference> {
    match (a, b) {
        (Some(Preference::Disallowed), _) | (_, Some(Preference::Disallowed)) => {
            Some(Preference::Disallowed)
        }
        (Some(Preference::Allowed), _) | (_, Some(Preference::Allowed)) => {
            Some(Preference::Allowed)
        }
        _ => None,
    }
}

/// The length a record's path counts for, when it matches `path`: the
/// bytes of the normalised path; a record without a path counts as `/`.
pub(crate) fn usage_priority(
    robots: &RobotsTxt,
    usage: &ContentUsage<'_>,
    path: &str,
) -> Option<usize> {
    let Some(pattern) = usage.path else {
        return Some(1);
    };
    let profile = robots.profile();
    let mut normalized = Vec::new();
    Escapes::of(&profile).normalize_into(pattern.as_bytes(), &mut normalized);
    let normalized = String::from_utf8_lossy(&normalized);
    Pattern::new(&normalized, profile.wildcards)
        .matches(path)
        .then_some(normalized.len())
}

impl<'a> AgentView<'a> {
    /// The usage preferences that apply to `url` (a URL or a path), read
    /// as the IETF AI-preferences drafts say (see `docs/behaviour.md` §7):
    /// `None` when the crawler may not fetch the URL, for then no
    /// preference applies.
    ///
    /// ```
    /// use crawlgate::{Preference, RobotsTxt};
    /// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: /news/ train-ai=y\n\
    ///     Content-Usage: /news/ train-ai=n, search=y\nContent-Signal: ai-train=no\n");
    /// let view = robots.view("bot");
    /// let here = view.preferences("https://example.com/news/today").unwrap();
    /// // Two records for the same path disagree: the most restrictive wins.
    /// assert_eq!(here.train_ai, Some(Preference::Disallowed));
    /// assert_eq!(here.search, Some(Preference::Allowed));
    /// assert_eq!(here.records.len(), 2);
    /// assert_eq!(here.content_signal.unwrap().get("ai-train"), Some(false));
    /// let elsewhere = view.preferences("/about").unwrap();
    /// assert_eq!(elsewhere.train_ai, None);
    /// ```
    pub fn preferences(&self, url: &str) -> Option<UsagePreferences<'a>> {
        if !self.is_allowed(url) {
            return None;
        }
        let robots = self.robots();
        let path = path_of(url);
        let mut best = 0;
        let mut records: Vec<ContentUsage<'a>> = Vec::new();
        for usage in self.groups().flat_map(|g| g.content_usage()) {
            let Some(priority) = usage_priority(robots, &usage, &path) else {
                continue;
            };
            if priority > best {
                best = priority;
                records.clear();
            }
            if priority == best {
                records.push(usage);
            }
        }
        records.sort_by_key(|r| r.line);
        let mut preferences = UsagePreferences {
            train_ai: None,
            ai_use: None,
            search: None,
            records: Vec::new(),
            unknown_keys: Vec::new(),
            content_signal: self.groups().find_map(|g| g.content_signal()),
        };
        let mut seen = std::collections::HashSet::new();
        for record in &records {
            preferences.train_ai = most_restrictive(preferences.train_ai, record.get("train-ai"));
            preferences.ai_use = most_restrictive(preferences.ai_use, record.get("ai-use"));
            preferences.search = most_restrictive(preferences.search, record.get("search"));
            for entry in record.entries().unwrap_or_default() {
                // A set, not a search of the list: a line may hold
                // thousands of keys.
                if !CONTENT_USAGE_KEYS.contains(&entry.key) && seen.insert(entry.key) {
                    preferences.unknown_keys.push(entry.key);
                }
            }
        }
        preferences.records = records;
        Some(preferences)
    }
}

impl RobotsTxt {
    /// Every `License:` line (RSL 1.0), in file order. Like sitemaps they
    /// apply to the whole file, wherever they are.
    ///
    /// ```
    /// use crawlgate::RobotsTxt;
    /// let robots = RobotsTxt::parse(b"User-agent: *\nLicense: /license.xml\nAllow: /\n");
    /// let license = robots.licenses().next().unwrap();
    /// assert!(!license.is_absolute());
    /// // A License line does not end the group.
    /// assert_eq!(robots.groups().next().unwrap().rules().len(), 1);
    /// ```
    pub fn licenses(&self) -> impl Iterator<Item = License<'_>> + '_ {
        self.extensions()
            .filter(|e| e.kind() == ExtensionKind::License)
            .map(|e| License {
                url: e.value(),
                line: e.line(),
            })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Preference, RobotsTxt};

    /// The attachment draft's example and its table of paths.
    #[test]
    fn the_attachment_drafts_example() {
        let robots = RobotsTxt::parse(
            b"User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n\
              Content-Usage: /ai-ok/ train-ai=y\n\nUser-Agent: ExampleBot\nAllow: /\n\
              Content-Usage: train-ai=y\n",
        );
        let view = robots.view("OtherBot");
        let table = [
            ("/test", Some(Some(Preference::Disallowed))),
            ("/never/test", None),
            ("/ai-ok/test", Some(Some(Preference::Allowed))),
        ];
        for (path, expected) in table {
            assert_eq!(
                view.preferences(path).map(|p| p.train_ai),
                expected,
                "{path}"
            );
        }
        let example = robots.view("ExampleBot");
        for path in ["/test", "/never/test", "/ai-ok/test"] {
            let p = example.preferences(path).unwrap();
            assert_eq!(p.train_ai, Some(Preference::Allowed), "{path}");
            assert_eq!(p.records.len(), 1);
        }
    }

    #[test]
    fn ties_take_the_most_restrictive_and_unknown_keys_are_kept() {
        let robots = RobotsTxt::parse(
            b"User-agent: *\nContent-Usage: train-ai=y, search=y\nContent-Usage: / train-ai=n\n\
              Content-Usage: /a/ train-genai=n, search=n\n",
        );
        let view = robots.view("bot");
        let root = view.preferences("/x").unwrap();
        assert_eq!(root.records.len(), 2);
        assert_eq!(root.train_ai, Some(Preference::Disallowed));
        assert_eq!(root.search, Some(Preference::Allowed));
        let a = view.preferences("/a/b").unwrap();
        assert_eq!(a.records.len(), 1);
        assert_eq!(a.train_ai, None);
        assert_eq!(a.search, Some(Preference::Disallowed));
        assert_eq!(a.unknown_keys, ["train-genai"]);
    }

    #[test]
    fn paths_match_as_rules_do() {
        let robots = RobotsTxt::parse(
            "User-agent: *\nContent-Usage: /*.pdf$ train-ai=n\nContent-Usage: /caf\u{e9}/ search=n\n"
                .as_bytes(),
        );
        let view = robots.view("bot");
        assert_eq!(
            view.preferences("/docs/a.pdf").unwrap().train_ai,
            Some(Preference::Disallowed)
        );
        assert!(view
            .preferences("/docs/a.pdf?x")
            .unwrap()
            .records
            .is_empty());
        assert_eq!(
            view.preferences("/caf%C3%A9/menu").unwrap().search,
            Some(Preference::Disallowed)
        );
        // No record, no signal: nothing is said.
        let plain = RobotsTxt::parse(b"User-agent: *\nDisallow: /x\n");
        assert!(plain.view("bot").preferences("/y").unwrap().is_empty());
    }
}
