//! Extension records: the fields beyond allow/disallow that real crawlers read
//! (crawl-delay, request-rate, visit-time, host, clean-param, content-usage,
//! content-signal, license) and every unknown field, each with its line
//! number.
//!
//! Values are kept as written; the typed accessors parse them on demand and
//! return `None` when the value is malformed (the linter says why).

use std::fmt;
use std::time::Duration;

/// The kind of an extension record, from its field name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExtensionKind {
    /// `Crawl-delay: <seconds>`.
    CrawlDelay,
    /// `Request-rate: <n>/<period>`.
    RequestRate,
    /// `Visit-time: HHMM-HHMM`.
    VisitTime,
    /// `Host: <host>` (Yandex's preferred mirror).
    Host,
    /// `Clean-param: <params> [path]` (Yandex).
    CleanParam,
    /// `Content-Usage: [path] <preferences>` (IETF AI-preferences attachment).
    ContentUsage,
    /// `Content-Signal: search=yes, ai-train=no` (CDN convention).
    ContentSignal,
    /// `License: <absolute URL>` (RSL 1.0): file-wide, like a sitemap.
    License,
    /// Any other field.
    Unknown,
}

impl ExtensionKind {
    /// Every known kind with its canonical field name.
    pub const KNOWN: &'static [(ExtensionKind, &'static str)] = &[
        (ExtensionKind::CrawlDelay, "Crawl-delay"),
        (ExtensionKind::RequestRate, "Request-rate"),
        (ExtensionKind::VisitTime, "Visit-time"),
        (ExtensionKind::Host, "Host"),
        (ExtensionKind::CleanParam, "Clean-param"),
        (ExtensionKind::ContentUsage, "Content-Usage"),
        (ExtensionKind::ContentSignal, "Content-Signal"),
        (ExtensionKind::License, "License"),
    ];

    /// Recognises a field name (case-insensitive, exact).
    pub fn from_field(name: &str) -> ExtensionKind {
        ExtensionKind::KNOWN
            .iter()
            .find(|(_, canonical)| canonical.eq_ignore_ascii_case(name))
            .map_or(ExtensionKind::Unknown, |&(kind, _)| kind)
    }

    /// The canonical field name; `None` for unknown fields.
    pub fn canonical_name(self) -> Option<&'static str> {
        ExtensionKind::KNOWN
            .iter()
            .find(|(kind, _)| *kind == self)
            .map(|&(_, name)| name)
    }
}

/// Parses a plain non-negative decimal (`10`, `0.5`, `2.`), nothing else.
fn parse_decimal(text: &str) -> Option<f64> {
    let text = text.trim();
    let mut dots = 0;
    let mut digits = 0;
    for b in text.bytes() {
        match b {
            b'0'..=b'9' => digits += 1,
            b'.' => dots += 1,
            _ => return None,
        }
    }
    if digits == 0 || dots > 1 {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// `Crawl-delay: <seconds>`: the time to wait between two requests to the
/// same server. Google ignores it; Bing accepts 1–30.
///
/// ```
/// use crawlgate::RobotsTxt;
/// let robots = RobotsTxt::parse(b"User-agent: bingbot\nCrawl-delay: 2.5\n");
/// let delay = robots.view("bingbot").crawl_delay().unwrap();
/// assert_eq!(delay.seconds, 2.5);
/// assert_eq!(delay.line, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrawlDelay {
    /// Seconds between requests (decimals allowed).
    pub seconds: f64,
    /// 1-based line number.
    pub line: u32,
}

impl CrawlDelay {
    /// Parses a value such as `10` or `0.5`.
    pub fn parse(value: &str, line: u32) -> Option<CrawlDelay> {
        parse_decimal(value).map(|seconds| CrawlDelay { seconds, line })
    }

    /// The delay as a [`Duration`] (saturating at one year).
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.seconds.clamp(0.0, 365.0 * 86_400.0))
    }
}

/// `Request-rate: <n>/<period>[unit] [HHMM-HHMM]`: at most `requests` pages
/// per `period`, optionally only inside a time window.
///
/// ```
/// use crawlgate::RequestRate;
/// let rate = RequestRate::parse("1/5m", 3).unwrap();
/// assert_eq!(rate.requests, 1);
/// assert_eq!(rate.period_seconds, 300.0);
/// assert_eq!(rate.interval().as_secs(), 300);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RequestRate {
    /// Pages per period.
    pub requests: u32,
    /// Length of the period in seconds.
    pub period_seconds: f64,
    /// The UTC window the rate applies in, when one is given.
    pub window: Option<VisitTime>,
    /// 1-based line number.
    pub line: u32,
}

impl RequestRate {
    /// Parses `1/5`, `1/5s`, `10/1m`, `1/1h 0800-1700`.
    pub fn parse(value: &str, line: u32) -> Option<RequestRate> {
        let mut parts = value.split_ascii_whitespace();
        let rate = parts.next()?;
        let window = match parts.next() {
            Some(window) => Some(VisitTime::parse(window, line)?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        let (requests, period) = rate.split_once('/')?;
        let requests: u32 = requests.trim().parse().ok().filter(|&n| n > 0)?;
        let period = period.trim();
        let (number, unit) = match period.as_bytes().last()? {
            b's' | b'S' => (&period[..period.len() - 1], 1.0),
            b'm' | b'M' => (&period[..period.len() - 1], 60.0),
            b'h' | b'H' => (&period[..period.len() - 1], 3600.0),
            b'd' | b'D' => (&period[..period.len() - 1], 86_400.0),
            _ => (period, 1.0),
        };
        let period_seconds = parse_decimal(number)? * unit;
        (period_seconds > 0.0).then_some(RequestRate {
            requests,
            period_seconds,
            window,
            line,
        })
    }

    /// The time between two requests that keeps to the rate.
    pub fn interval(&self) -> Duration {
        let seconds = self.period_seconds / f64::from(self.requests);
        Duration::from_secs_f64(seconds.clamp(0.0, 365.0 * 86_400.0))
    }
}

/// A time of day (UTC), to the minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeOfDay {
    /// 0–23.
    pub hour: u8,
    /// 0–59.
    pub minute: u8,
}

impl TimeOfDay {
    fn parse(text: &str) -> Option<TimeOfDay> {
        let digits: Vec<u8> = match text.len() {
            4 => text.bytes().collect(),
            5 if text.as_bytes()[2] == b':' => text.bytes().filter(|&b| b != b':').collect(),
            _ => return None,
        };
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let hour = (digits[0] - b'0') * 10 + (digits[1] - b'0');
        let minute = (digits[2] - b'0') * 10 + (digits[3] - b'0');
        (hour < 24 && minute < 60).then_some(TimeOfDay { hour, minute })
    }

    /// Minutes since midnight.
    pub fn minutes(self) -> u32 {
        u32::from(self.hour) * 60 + u32::from(self.minute)
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.hour, self.minute)
    }
}

/// `Visit-time: HHMM-HHMM`: crawl only inside this UTC window (which may wrap
/// past midnight).
///
/// ```
/// use crawlgate::VisitTime;
/// let window = VisitTime::parse("2300-0500", 1).unwrap();
/// assert!(window.contains(0));          // midnight
/// assert!(!window.contains(12 * 60));   // noon
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VisitTime {
    /// Start of the window.
    pub from: TimeOfDay,
    /// End of the window.
    pub to: TimeOfDay,
    /// 1-based line number.
    pub line: u32,
}

impl VisitTime {
    /// Parses `0600-0845` or `06:00-08:45` (an optional ` UTC` suffix is accepted).
    pub fn parse(value: &str, line: u32) -> Option<VisitTime> {
        let value = value.trim();
        let value = value
            .strip_suffix("UTC")
            .or_else(|| value.strip_suffix("utc"))
            .unwrap_or(value)
            .trim();
        let (from, to) = value.split_once('-')?;
        Some(VisitTime {
            from: TimeOfDay::parse(from.trim())?,
            to: TimeOfDay::parse(to.trim())?,
            line,
        })
    }

    /// Whether the minute of the day (0–1439, UTC) is inside the window.
    pub fn contains(&self, minute_of_day: u32) -> bool {
        let (from, to) = (self.from.minutes(), self.to.minutes());
        if from <= to {
            (from..=to).contains(&minute_of_day)
        } else {
            minute_of_day >= from || minute_of_day <= to
        }
    }
}

/// A problem in a structured-fields dictionary value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictionaryError {
    /// Byte offset in the value.
    pub offset: usize,
    /// What is wrong.
    pub message: &'static str,
}

impl fmt::Display for DictionaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for DictionaryError {}

/// One `key=value` member of a structured-fields dictionary. A bare key has
/// the value `?1` (true), as RFC 9651 says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictionaryEntry<'a> {
    /// The key (lowercase by the grammar).
    pub key: &'a str,
    /// The value as written (a token, number, quoted string or `?0`/`?1`).
    pub value: &'a str,
}

/// Parses a Structured Fields dictionary (RFC 9651 §3.2) as used by
/// `Content-Usage` and `Content-Signal`: `key=value, key=value`. Parameters
/// (`;p=v`) are accepted and skipped.
///
/// ```
/// use crawlgate::extension::parse_dictionary;
/// let entries = parse_dictionary("train-ai=n, search=y").unwrap();
/// assert_eq!(entries[0].key, "train-ai");
/// assert_eq!(entries[1].value, "y");
/// assert!(parse_dictionary("Train-AI=n").is_err());
/// ```
pub fn parse_dictionary(text: &str) -> Result<Vec<DictionaryEntry<'_>>, DictionaryError> {
    let bytes = text.as_bytes();
    let mut entries = Vec::new();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < bytes.len() && (bytes[*i] == b' ' || bytes[*i] == b'\t') {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    if i == bytes.len() {
        return Err(DictionaryError {
            offset: i,
            message: "empty dictionary",
        });
    }
    loop {
        let key_start = i;
        i = parse_key(bytes, i).ok_or(DictionaryError {
            offset: i,
            message:
                "expected a key (lowercase letter or `*`, then lowercase letters, digits, `_-.*`)",
        })?;
        let key = &text[key_start..i];
        let value = if bytes.get(i) == Some(&b'=') {
            i += 1;
            let value_start = i;
            i = parse_bare_item(bytes, i).ok_or(DictionaryError {
                offset: i,
                message: "expected a value (token, number, quoted string or boolean)",
            })?;
            &text[value_start..i]
        } else {
            "?1"
        };
        // Parameters: ;key[=value]
        while bytes.get(i) == Some(&b';') {
            i += 1;
            skip_ws(&mut i);
            i = parse_key(bytes, i).ok_or(DictionaryError {
                offset: i,
                message: "expected a parameter key",
            })?;
            if bytes.get(i) == Some(&b'=') {
                i = parse_bare_item(bytes, i + 1).ok_or(DictionaryError {
                    offset: i + 1,
                    message: "expected a parameter value",
                })?;
            }
        }
        entries.push(DictionaryEntry { key, value });
        skip_ws(&mut i);
        if i == bytes.len() {
            return Ok(entries);
        }
        if bytes[i] != b',' {
            return Err(DictionaryError {
                offset: i,
                message: "expected `,` between members",
            });
        }
        i += 1;
        skip_ws(&mut i);
        if i == bytes.len() {
            return Err(DictionaryError {
                offset: i,
                message: "trailing `,`",
            });
        }
    }
}

fn parse_key(bytes: &[u8], mut i: usize) -> Option<usize> {
    match bytes.get(i) {
        Some(b'a'..=b'z' | b'*') => i += 1,
        _ => return None,
    }
    while let Some(b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-' | b'.' | b'*') = bytes.get(i) {
        i += 1;
    }
    Some(i)
}

fn parse_bare_item(bytes: &[u8], mut i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'"' => {
            i += 1;
            loop {
                match bytes.get(i)? {
                    b'\\' => {
                        if !matches!(bytes.get(i + 1)?, b'"' | b'\\') {
                            return None;
                        }
                        i += 2;
                    }
                    b'"' => return Some(i + 1),
                    0x20..=0x7e => i += 1,
                    _ => return None,
                }
            }
        }
        b'?' => matches!(bytes.get(i + 1)?, b'0' | b'1').then_some(i + 2),
        b'-' | b'0'..=b'9' => {
            i += 1;
            while let Some(b'0'..=b'9' | b'.') = bytes.get(i) {
                i += 1;
            }
            Some(i)
        }
        b if b.is_ascii_alphabetic() || *b == b'*' => {
            i += 1;
            while let Some(&b) = bytes.get(i) {
                let tchar = b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~:/".contains(&b);
                if !tchar {
                    break;
                }
                i += 1;
            }
            Some(i)
        }
        _ => None,
    }
}

/// A usage preference (`y` or `n`) from the AI-preferences vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preference {
    /// `y`: the use is allowed.
    Allowed,
    /// `n`: the use is not allowed.
    Disallowed,
}

/// `Content-Usage: [path] <preferences>` (IETF AI-preferences attachment for
/// robots.txt): usage preferences for the URLs its optional path matches.
///
/// ```
/// use crawlgate::{ContentUsage, Preference};
/// let usage = ContentUsage::parse("/news/ train-ai=n, search=y", 7);
/// assert_eq!(usage.path, Some("/news/"));
/// assert_eq!(usage.get("train-ai"), Some(Preference::Disallowed));
/// assert_eq!(usage.get("search"), Some(Preference::Allowed));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentUsage<'a> {
    /// The path the preferences are limited to; `None` means every path.
    pub path: Option<&'a str>,
    /// The preferences as written (a structured-fields dictionary).
    pub preferences: &'a str,
    /// 1-based line number.
    pub line: u32,
}

/// The labels of the AI-preferences vocabulary (draft-ietf-aipref-vocab-08,
/// table 1): `train-ai`, `ai-use`, `search`, in the draft's order.
pub const CONTENT_USAGE_KEYS: &[&str] = &["train-ai", "ai-use", "search"];

/// A category of use of the AI-preferences vocabulary
/// (draft-ietf-aipref-vocab-08, section 4).
///
/// ```
/// use crawlgate::extension::UsageCategory;
/// use crawlgate::registry::Purpose;
/// assert_eq!(UsageCategory::AiUse.label(), "ai-use");
/// assert_eq!(UsageCategory::from_label("search"), Some(UsageCategory::Search));
/// // Labels are case-sensitive.
/// assert_eq!(UsageCategory::from_label("Search"), None);
/// assert_eq!(UsageCategory::of_purpose(Purpose::AiAssistant), Some(UsageCategory::AiUse));
/// assert_eq!(UsageCategory::of_purpose(Purpose::Seo), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UsageCategory {
    /// AI Training (`train-ai`): using an asset to change the learned
    /// parameters of a generative AI model.
    AiTraining,
    /// AI Use (`ai-use`): using an asset as input to a generative AI model,
    /// where the user did not supply the asset directly.
    AiUse,
    /// Search (`search`): selecting assets and directing users to where
    /// they are. It overrides the other two categories for uses inside a
    /// search application.
    Search,
}

impl UsageCategory {
    /// Every category, in the draft's order.
    pub const ALL: [UsageCategory; 3] = [
        UsageCategory::AiTraining,
        UsageCategory::AiUse,
        UsageCategory::Search,
    ];

    /// Its label in a preference (`train-ai`).
    pub fn label(self) -> &'static str {
        match self {
            UsageCategory::AiTraining => "train-ai",
            UsageCategory::AiUse => "ai-use",
            UsageCategory::Search => "search",
        }
    }

    /// Its name in the vocabulary (`AI Training`).
    pub fn name(self) -> &'static str {
        match self {
            UsageCategory::AiTraining => "AI Training",
            UsageCategory::AiUse => "AI Use",
            UsageCategory::Search => "Search",
        }
    }

    /// The category a label names, exactly (labels are case-sensitive).
    pub fn from_label(label: &str) -> Option<UsageCategory> {
        UsageCategory::ALL.into_iter().find(|c| c.label() == label)
    }

    /// The category of use a crawler of this purpose (the registry's)
    /// fetches for: search engines for Search, AI training for AI
    /// Training, AI search and assistants for AI Use; none for the others.
    pub fn of_purpose(purpose: crate::registry::Purpose) -> Option<UsageCategory> {
        use crate::registry::Purpose;
        match purpose {
            Purpose::Search => Some(UsageCategory::Search),
            Purpose::AiTraining => Some(UsageCategory::AiTraining),
            Purpose::AiAssistant => Some(UsageCategory::AiUse),
            _ => None,
        }
    }
}

impl fmt::Display for UsageCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The keys of the Content-Signal convention.
pub const CONTENT_SIGNAL_KEYS: &[&str] = &["search", "ai-input", "ai-train"];

impl<'a> ContentUsage<'a> {
    /// Splits a value into its optional path and the preferences, as the
    /// attachment draft says: a value starting with `/` starts with a path,
    /// which ends at the first space or tab; any other value is all
    /// preferences.
    pub fn parse(value: &'a str, line: u32) -> ContentUsage<'a> {
        let value = value.trim();
        if value.starts_with('/') {
            let (path, rest) = value.split_once([' ', '\t']).unwrap_or((value, ""));
            ContentUsage {
                path: Some(path),
                preferences: rest.trim(),
                line,
            }
        } else {
            ContentUsage {
                path: None,
                preferences: value,
                line,
            }
        }
    }

    /// The preferences as dictionary entries, or why they do not parse.
    pub fn entries(&self) -> Result<Vec<DictionaryEntry<'a>>, DictionaryError> {
        parse_dictionary(self.preferences)
    }

    /// The preference for one vocabulary key (`train-ai`, `ai-use`,
    /// `search`), as the vocabulary draft reads it: the key's last value in the dictionary
    /// (Structured Fields keep the last of a repeated key), `y` allows and
    /// `n` disallows; any other value, an absent key or a dictionary that
    /// does not parse leave the preference unknown (`None`).
    ///
    /// ```
    /// use crawlgate::{ContentUsage, Preference};
    /// let usage = ContentUsage::parse("train-ai=y, train-ai=n", 1);
    /// assert_eq!(usage.get("train-ai"), Some(Preference::Disallowed));
    /// // The draft's own example: a boolean and a string are not tokens.
    /// let usage = ContentUsage::parse(r#"train-ai=y, train-ai, search=n, search="n""#, 1);
    /// assert_eq!((usage.get("train-ai"), usage.get("search")), (None, None));
    /// // An uppercase key: the dictionary does not parse, all is unknown.
    /// let usage = ContentUsage::parse("train-ai=n, Search=y", 1);
    /// assert_eq!((usage.get("train-ai"), usage.get("search")), (None, None));
    /// ```
    pub fn get(&self, key: &str) -> Option<Preference> {
        let entries = self.entries().ok()?;
        match entries.iter().rev().find(|e| e.key == key)?.value {
            "y" => Some(Preference::Allowed),
            "n" => Some(Preference::Disallowed),
            _ => None,
        }
    }
}

/// Labels earlier drafts of the AI-preferences vocabulary used, with the
/// drafts that had them and the current label that took their meaning, if
/// one did. Draft 08 knows only `train-ai`, `ai-use` and `search`:
/// crawlers that follow it ignore these, as any unknown key.
///
/// ```
/// use crawlgate::extension::retired_content_usage_label;
/// assert_eq!(retired_content_usage_label("train-genai"), Some(("02–03", Some("train-ai"))));
/// assert_eq!(retired_content_usage_label("search"), None);
/// // `ai-use` is a category of draft 08.
/// assert_eq!(retired_content_usage_label("ai-use"), None);
/// ```
pub fn retired_content_usage_label(key: &str) -> Option<(&'static str, Option<&'static str>)> {
    RETIRED_CONTENT_USAGE_LABELS
        .iter()
        .find(|(label, _, _)| *label == key)
        .map(|&(_, drafts, now)| (drafts, now))
}

/// `(label, drafts, current label)`. Draft 08 defines `train-ai` as
/// changing the learned parameters of a generative AI model, the meaning
/// `train-genai` (drafts 02–03) and `genai` (draft 01) had. `ai-use`
/// (draft 02, then gone) is a category again in draft 08, with a new
/// definition, so it is not listed.
const RETIRED_CONTENT_USAGE_LABELS: &[(&str, &str, Option<&str>)] = &[
    ("tdm", "01", None),
    ("ai", "01", None),
    ("genai", "01", Some("train-ai")),
    ("inference", "01", None),
    ("all", "02", None),
    ("train-genai", "02–03", Some("train-ai")),
    ("bots", "03–04", None),
    ("ai-output", "04", None),
];

/// A `License:` record (RSL 1.0): the URL of a licence (an RSL document)
/// for the site's content. File-wide, not tied to a group; the URL must be
/// absolute and may be on another host.
///
/// ```
/// use crawlgate::RobotsTxt;
/// let robots = RobotsTxt::parse(b"License: https://example.com/license.xml\n\nUser-agent: *\nAllow: /\n");
/// let license = robots.licenses().next().unwrap();
/// assert_eq!((license.url, license.line), ("https://example.com/license.xml", 1));
/// assert!(license.is_absolute());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct License<'a> {
    /// The URL as written.
    pub url: &'a str,
    /// 1-based line number.
    pub line: u32,
}

impl License<'_> {
    /// Whether the URL is absolute as RSL asks: `http://` or `https://`, a
    /// host, and no spaces.
    pub fn is_absolute(&self) -> bool {
        let lower = self.url.to_ascii_lowercase();
        let Some(rest) = lower
            .strip_prefix("https://")
            .or_else(|| lower.strip_prefix("http://"))
        else {
            return false;
        };
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty()
            && !self.url.contains([' ', '\t'])
            && host
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:[]@_~%".contains(&b))
    }
}

/// `Content-Signal: search=yes, ai-input=no, ai-train=no`.
///
/// ```
/// use crawlgate::RobotsTxt;
/// let robots = RobotsTxt::parse(b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n");
/// let signal = robots.view("anybot").content_signal().unwrap();
/// assert_eq!(signal.get("ai-train"), Some(false));
/// assert_eq!(signal.get("ai-input"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentSignal<'a> {
    /// The value as written.
    pub value: &'a str,
    /// 1-based line number.
    pub line: u32,
}

impl<'a> ContentSignal<'a> {
    /// The signals as dictionary entries, or why they do not parse.
    pub fn entries(&self) -> Result<Vec<DictionaryEntry<'a>>, DictionaryError> {
        parse_dictionary(self.value)
    }

    /// A signal's value: `Some(true)` for `yes`, `Some(false)` for `no`
    /// (the last value of a repeated key, as in a Structured Fields
    /// dictionary).
    pub fn get(&self, key: &str) -> Option<bool> {
        let entries = self.entries().ok()?;
        match entries.iter().rev().find(|e| e.key == key)?.value {
            "yes" => Some(true),
            "no" => Some(false),
            _ => None,
        }
    }
}
