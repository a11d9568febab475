//! The crawler registry: the crawlers people name, the product tokens each
//! answers to, and how each chooses its group in a robots.txt.
//!
//! The registry is data: `src/registry.txt`, embedded at build time and read
//! on first use, one crawler per line with a source and a date (its header
//! explains the fields). [`Who::crawler`](crate::Who::crawler)
//! reads a file for a crawler of the registry (the *crawler reading*);
//! [`Who::token`](crate::Who::token) reads it for one
//! product token, exactly as Google's library does (the *one-token
//! reading*).
//!
//! ```
//! use crawlgate::registry::{self, CrawlerKind, Purpose};
//!
//! let image = registry::find("googlebot-image").unwrap();
//! assert_eq!(image.tokens().collect::<Vec<_>>(), ["Googlebot-Image", "Googlebot"]);
//! assert!(image.obeys_star);
//! assert_eq!(image.source.title, "Google's crawler documentation");
//!
//! let ads = registry::find("AdsBot-Google").unwrap();
//! assert!(!ads.obeys_star); // the special-case crawlers ignore `*`
//!
//! let extended = registry::find("Google-Extended").unwrap();
//! assert_eq!((extended.kind, extended.purpose), (CrawlerKind::ControlToken, Purpose::AiTraining));
//!
//! // A name that is no product token is kept, and compared, whole: as in
//! // Google's library, no `User-agent` line can name it (`User-agent:
//! // AI2Bot` is read as `AI`).
//! let ai2 = registry::find("AI2Bot").unwrap();
//! assert_eq!((ai2.token, ai2.name_is_token()), ("AI2Bot", false));
//!
//! // A full User-Agent header maps to its crawler.
//! let header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
//! assert_eq!(registry::identify(header).unwrap().name, "Googlebot");
//! ```

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::profile::Profile;
use crate::token::{is_product_token, token_len, user_agent_products};

pub mod verification;

const TABLE: &str = include_str!("registry.txt");

crate::word_table! {
    /// What a crawler fetches pages for.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Purpose {
        /// A search engine's index.
        Search = "search",
        /// Training AI models, or collecting datasets mostly used for that.
        AiTraining = "ai-training",
        /// AI search and assistants: an answer index, a fetch for a user of an
        /// assistant or agent, a data service feeding them.
        AiAssistant = "ai-assistant",
        /// Advertising: landing-page checks, ad selection.
        Ads = "ads",
        /// SEO tools: backlinks, audits.
        Seo = "seo",
        /// Web archives and site copiers.
        Archive = "archive",
        /// Link previews for social networks and messengers.
        LinkPreview = "link-preview",
        /// Anything else.
        Other = "other",
    }
}

impl Purpose {
    /// A few words for people (`AI training`).
    pub fn describe(self) -> &'static str {
        match self {
            Purpose::Search => "search engine",
            Purpose::AiTraining => "AI training",
            Purpose::AiAssistant => "AI search or assistant",
            Purpose::Ads => "ads",
            Purpose::Seo => "SEO tool",
            Purpose::Archive => "archiver",
            Purpose::LinkPreview => "link previews",
            Purpose::Other => "other",
        }
    }

    /// Whether the crawler works for AI: training, or AI search and
    /// assistants.
    ///
    /// ```
    /// use crawlgate::registry::Purpose;
    /// assert!(Purpose::AiTraining.is_ai() && Purpose::AiAssistant.is_ai());
    /// assert!(!Purpose::Search.is_ai());
    /// ```
    pub fn is_ai(self) -> bool {
        matches!(self, Purpose::AiTraining | Purpose::AiAssistant)
    }
}

crate::word_table! {
    /// Whether a crawler obeys robots.txt, as far as is known.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Obeys {
        /// It does, by its operator's documentation.
        Yes = "yes",
        /// Its operator says it does not (generally) obey robots.txt: the
        /// crawler reading says the file does not apply to it.
        No = "no",
        /// With documented exceptions, left to its user, or reported not to at
        /// times.
        Partial = "partial",
        /// Not known.
        Unknown = "unknown",
    }
}

crate::word_table! {
    /// How a crawler comes to a site.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum CrawlerKind {
        /// It fetches pages on its own schedule.
        Crawler = "crawler",
        /// A control token: it fetches nothing; the group naming it governs the
        /// use of what other crawlers of its operator fetch (`Google-Extended`,
        /// `Applebot-Extended`).
        ControlToken = "control",
        /// It fetches a page when a person asks (a feed reader, an assistant);
        /// such fetchers often ignore robots.txt (see [`Crawler::obeys`]).
        UserTriggered = "user",
    }
}

/// A document the registry follows.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// Its key in the registry (`google-common`).
    pub key: &'static str,
    /// Its title as verdicts cite it (`Google's crawler documentation`).
    pub title: &'static str,
    /// Its address (for `operator`: a placeholder; the entry's
    /// [`docs`](Crawler::docs) is the address).
    pub url: &'static str,
}

/// One crawler of the registry.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Crawler {
    /// Its name as its operator or a list writes it (`Googlebot-Image`,
    /// `ChatGPT Agent`).
    pub name: &'static str,
    /// Other names lists use for it (`Brightbot 1.0`, another case).
    pub aliases: &'static [&'static str],
    /// The name it looks for first: its own name, whole, compared as
    /// given (as Google's library compares a crawler's name). For a name
    /// that is no product token (`AI2Bot`, `ChatGPT Agent`) no
    /// `User-agent` line can name it under Google's reading: a line is read
    /// only up to its first character outside `[A-Za-z_-]` (`AI`).
    pub token: &'static str,
    /// The tokens whose groups it obeys, in order, when no group names its
    /// own (`Googlebot` for `Googlebot-Image`).
    pub fallbacks: &'static [&'static str],
    /// Whether it obeys the `*` group when no group names any of its tokens.
    pub obeys_star: bool,
    /// How it comes to a site.
    pub kind: CrawlerKind,
    /// With the profile that reads for it (bing), whether `*`'s
    /// `Crawl-delay` still applies when its own group has none, and who
    /// says so.
    pub star_crawl_delay: Option<&'static Source>,
    /// The reading its operator uses (`profile=bing`, `profile=yandex` in
    /// the registry): the crawler reading reads a file for it under this
    /// profile unless the user names one (see [`profile_for`]).
    pub profile: Option<Profile>,
    /// Whether it reads `Crawl-delay` (in its own group, or in `*` when it
    /// obeys that), and who says so; `None` when nobody has said it does
    /// (Google, for one, ignores it).
    pub reads_crawl_delay: Option<&'static Source>,
    /// Whether it no longer runs (files still name its token), and who
    /// says so.
    pub retired: Option<&'static Source>,
    /// Whether another crawler used (or uses) the same token, so that a
    /// group naming it may mean the other (`ExaBot`: Exalead's retired
    /// search crawler was `Exabot`), and who says so.
    pub shared_token: Option<&'static Source>,
    /// Whether its token is a common word files use for crawlers in
    /// general or for something else (`Spider`, `Code`), so that a group
    /// naming it says little about intent, and who says so.
    pub generic_token: Option<&'static Source>,
    /// Whether it obeys robots.txt.
    pub obeys: Obeys,
    /// Who runs it.
    pub operator: &'static str,
    /// What it fetches for.
    pub purpose: Purpose,
    /// Its documentation address.
    pub docs: Option<&'static str>,
    /// The document its entry (its tokens, and how it reads a file)
    /// follows.
    pub source: &'static Source,
    /// When that document was read (`2026-11-26`).
    pub checked: &'static str,
    /// A few words.
    pub note: &'static str,
}

impl Crawler {
    /// Its own token, then its fallbacks (`*` not included).
    pub fn tokens(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.token).chain(self.fallbacks.iter().copied())
    }

    /// Whether its name is itself a product token (`ChatGPT Agent` is not:
    /// robots.txt cannot name it as written).
    pub fn name_is_token(&self) -> bool {
        is_product_token(self.name)
    }

    /// Whether it still runs: `false` for a crawler its operator retired
    /// (`Googlebot-Mobile`, `msnbot`), whose token files still name.
    ///
    /// ```
    /// use crawlgate::registry;
    /// assert!(!registry::find("Googlebot-Mobile").unwrap().runs());
    /// assert!(registry::find("Googlebot").unwrap().runs());
    /// // Bing reads Crawl-delay; Google does not.
    /// assert!(registry::find("Bingbot").unwrap().reads_crawl_delay.is_some());
    /// assert!(registry::find("Googlebot").unwrap().reads_crawl_delay.is_none());
    /// ```
    pub fn runs(&self) -> bool {
        self.retired.is_none()
    }

    /// Whether a group naming its token means this crawler and no other:
    /// `false` when the token is shared with another crawler (`ExaBot`)
    /// or is a generic word (`Spider`). Surveys count groups naming such
    /// tokens apart from those naming a crawler's own token.
    ///
    /// ```
    /// use crawlgate::registry;
    /// assert!(registry::find("GPTBot").unwrap().token_is_its_own());
    /// assert!(!registry::find("ExaBot").unwrap().token_is_its_own());
    /// assert!(!registry::find("Spider").unwrap().token_is_its_own());
    /// ```
    pub fn token_is_its_own(&self) -> bool {
        self.shared_token.is_none() && self.generic_token.is_none()
    }

    /// Whether the crawler reading says robots.txt does not apply to it:
    /// its operator says it ignores robots.txt.
    pub fn ignores_robots_txt(&self) -> bool {
        self.obeys == Obeys::No
    }

    /// Why a file does not restrict it, in one sentence, when its operator
    /// says it ignores robots.txt (`None` otherwise): what its verdicts
    /// say whatever a file holds, or when no file was read at all.
    ///
    /// ```
    /// use crawlgate::registry;
    /// let fetcher = registry::find("Google-Read-Aloud").unwrap();
    /// assert!(fetcher.ignores_robots_txt_why().unwrap().ends_with("ignores robots.txt (Google's crawler documentation): the file does not restrict it"));
    /// assert_eq!(registry::find("Googlebot").unwrap().ignores_robots_txt_why(), None);
    /// ```
    pub fn ignores_robots_txt_why(&self) -> Option<String> {
        if !self.ignores_robots_txt() {
            return None;
        }
        let what = match self.kind {
            CrawlerKind::UserTriggered => " is a user-triggered fetcher that",
            _ => "",
        };
        Some(format!(
            "{}{what} ignores robots.txt ({}): the file does not restrict it",
            self.name, self.source.title
        ))
    }

    /// The address of its source: the source's own, or the entry's
    /// documentation when the source is its operator's documentation.
    pub fn source_url(&self) -> &'static str {
        match (self.source.key, self.docs) {
            ("operator", Some(docs)) => docs,
            _ => self.source.url,
        }
    }
}

/// One robot of a profile's own parser's table (an `@robot` line): how that
/// parser decides which groups name it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Robot {
    /// The profile whose parser knows it (`yandex`).
    pub profile: &'static str,
    /// The start every user-agent value naming it must have
    /// (case-insensitively): `Yandex` for YandexBot, `YandexDirect` for
    /// YandexDirect.
    pub prefix: &'static str,
    /// Its full name (`YandexBot/3.0`): a user-agent value names it when
    /// this starts with the value (case-insensitively).
    pub full_name: &'static str,
    /// Whether it obeys the `*` group when no group names it.
    pub obeys_star: bool,
}

impl Robot {
    /// The product token of its full name (`YandexBot` of `YandexBot/3.0`).
    pub fn token(&self) -> &'static str {
        &self.full_name[..token_len(self.full_name.as_bytes())]
    }

    /// Whether a group's user-agent value (as written, without its
    /// surrounding whitespace) names it.
    ///
    /// ```
    /// use crawlgate::registry;
    /// let bot = registry::robots("yandex").find(|r| r.full_name == "YandexBot/3.0").unwrap();
    /// assert!(bot.named_by("Yandex") && bot.named_by("yandexbot/3") && bot.named_by("YANDEXBOT"));
    /// assert!(!bot.named_by("Yand") && !bot.named_by("YandexBot/3.0.1") && !bot.named_by("*"));
    /// ```
    pub fn named_by(&self, value: &str) -> bool {
        let (value, prefix, full) = (
            value.as_bytes(),
            self.prefix.as_bytes(),
            self.full_name.as_bytes(),
        );
        value.len() >= prefix.len()
            && value[..prefix.len()].eq_ignore_ascii_case(prefix)
            && full.len() >= value.len()
            && full[..value.len()].eq_ignore_ascii_case(value)
    }
}

/// The parsed registry.
struct Registry {
    version: &'static str,
    sources: &'static [Source],
    crawlers: Vec<Crawler>,
    robots: Vec<Robot>,
    /// Lowercased names and aliases to indices.
    by_name: HashMap<String, usize>,
    /// Lowercased own tokens to the first entry with that token.
    by_token: HashMap<String, usize>,
}

/// A line of the registry that cannot be read, and why (the tests read
/// them; at run time a bad line is skipped).
#[derive(Debug)]
#[cfg_attr(not(test), allow(dead_code))]
struct BadLine {
    line: usize,
    why: String,
}

/// Reads the registry; bad lines are skipped (a test checks there is none).
fn parse(text: &'static str) -> (Registry, Vec<BadLine>) {
    let mut version = "unversioned";
    let mut sources = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(v) = line.strip_prefix("@version ") {
            version = v.trim();
        } else if let Some(def) = line.strip_prefix("@source ") {
            match def.split('|').map(str::trim).collect::<Vec<_>>().as_slice() {
                [key, title, url] if !key.is_empty() && !title.is_empty() => {
                    sources.push(Source { key, title, url })
                }
                _ => bad.push(BadLine {
                    line: i + 1,
                    why: "a @source line is `key | title | address`".into(),
                }),
            }
        }
    }
    let sources: &'static [Source] = Box::leak(sources.into_boxed_slice());
    let mut crawlers = Vec::new();
    let mut robots = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(def) = line.strip_prefix("@robot ") {
            match parse_robot(def) {
                Ok(robot) => robots.push(robot),
                Err(why) => bad.push(BadLine { line: i + 1, why }),
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') || line.starts_with('@') {
            continue;
        }
        match parse_entry(line, sources) {
            Ok(crawler) => crawlers.push(crawler),
            Err(why) => bad.push(BadLine { line: i + 1, why }),
        }
    }
    let mut by_name = HashMap::new();
    let mut by_token = HashMap::new();
    for (i, c) in crawlers.iter().enumerate() {
        for name in std::iter::once(c.name).chain(c.aliases.iter().copied()) {
            by_name.entry(name.to_ascii_lowercase()).or_insert(i);
        }
        by_token.entry(c.token.to_ascii_lowercase()).or_insert(i);
    }
    let registry = Registry {
        version,
        sources,
        crawlers,
        robots,
        by_name,
        by_token,
    };
    (registry, bad)
}

fn leak(items: Vec<&'static str>) -> &'static [&'static str] {
    Box::leak(items.into_boxed_slice())
}

fn parse_entry(line: &'static str, sources: &'static [Source]) -> Result<Crawler, String> {
    let fields: Vec<&'static str> = line.split('|').map(str::trim).collect();
    let [names, tokens, kind, obeys, operator, purpose, docs, source, note] = fields[..] else {
        return Err(format!("{} fields, not 9", fields.len()));
    };
    let source_named = |key: &str| {
        sources
            .iter()
            .find(|s| s.key == key)
            .ok_or_else(|| format!("no @source `{key}`"))
    };
    let mut names = names.split(';').map(str::trim);
    let name = names.next().unwrap_or_default();
    let aliases: Vec<&'static str> = names.collect();
    if name.is_empty() || aliases.iter().any(|a| a.is_empty()) {
        return Err("an empty name".into());
    }
    let mut tokens: Vec<&'static str> = tokens.split('>').map(str::trim).collect();
    let obeys_star = tokens.last() == Some(&"*");
    if obeys_star {
        tokens.pop();
    }
    let (token, fallbacks) = tokens.split_first().ok_or("no token")?;
    // Its own name is compared whole (`AI2Bot`, never the `AI` a line
    // naming it is read as); what it falls back to are groups that lines
    // do name.
    if !token.eq_ignore_ascii_case(name) {
        return Err(format!(
            "the first token of `{name}` is its whole name, not `{token}`"
        ));
    }
    if let Some(bad) = fallbacks.iter().find(|t| !is_product_token(t)) {
        return Err(format!("`{bad}` is not a product token"));
    }
    let mut kind_words = kind.split(',').map(str::trim);
    let kind = kind_words
        .next()
        .and_then(CrawlerKind::from_word)
        .ok_or_else(|| format!("unknown kind `{kind}`"))?;
    let mut star_crawl_delay = None;
    let mut profile = None;
    let mut reads_crawl_delay = None;
    let mut retired = None;
    let mut shared_token = None;
    let mut generic_token = None;
    for flag in kind_words {
        if let Some(name) = flag.strip_prefix("profile=") {
            if profile.is_some() {
                return Err("more than one `profile=` flag".into());
            }
            profile = Some(Profile::named(name).ok_or_else(|| format!("no profile `{name}`"))?);
            continue;
        }
        match flag.split_once('@') {
            Some(("star-crawl-delay", key)) => star_crawl_delay = Some(source_named(key)?),
            Some(("crawl-delay", key)) => reads_crawl_delay = Some(source_named(key)?),
            Some(("retired", key)) => retired = Some(source_named(key)?),
            Some(("shared-token", key)) => shared_token = Some(source_named(key)?),
            Some(("generic-token", key)) => generic_token = Some(source_named(key)?),
            _ => return Err(format!("unknown flag `{flag}`")),
        }
    }
    let obeys = Obeys::from_word(obeys).ok_or_else(|| format!("unknown obeys `{obeys}`"))?;
    let purpose =
        Purpose::from_word(purpose).ok_or_else(|| format!("unknown purpose `{purpose}`"))?;
    let docs = match docs {
        "-" => None,
        url if url.starts_with("https://") || url.starts_with("http://") => Some(url),
        other => return Err(format!("docs `{other}` is neither `-` nor an address")),
    };
    let (key, checked) = source
        .split_once(' ')
        .ok_or_else(|| format!("source `{source}` is not `KEY DATE`"))?;
    let source = source_named(key)?;
    let checked = checked.trim();
    if !is_date(checked) {
        return Err(format!("`{checked}` is not a date (YYYY-MM-DD)"));
    }
    if source.key == "operator" && docs.is_none() {
        return Err("source `operator` needs a documentation address".into());
    }
    if operator.is_empty() || note.is_empty() {
        return Err("an empty operator or note".into());
    }
    Ok(Crawler {
        name,
        aliases: leak(aliases),
        token,
        fallbacks: leak(fallbacks.to_vec()),
        obeys_star,
        kind,
        star_crawl_delay,
        profile,
        reads_crawl_delay,
        retired,
        shared_token,
        generic_token,
        obeys,
        operator,
        purpose,
        docs,
        source,
        checked,
        note,
    })
}

/// One `@robot` line: `PROFILE | required prefix | full name | obeys *`.
fn parse_robot(def: &'static str) -> Result<Robot, String> {
    let fields: Vec<&'static str> = def.split('|').map(str::trim).collect();
    let [profile, prefix, full_name, star] = fields[..] else {
        return Err(format!("an @robot line has {} fields, not 4", fields.len()));
    };
    let profile = Profile::named(profile).ok_or_else(|| format!("no profile `{profile}`"))?;
    if prefix.is_empty() || full_name.is_empty() {
        return Err("an empty required prefix or full name".into());
    }
    if !full_name
        .to_ascii_lowercase()
        .starts_with(&prefix.to_ascii_lowercase())
    {
        return Err(format!(
            "no group could name `{full_name}`: it does not start with `{prefix}`"
        ));
    }
    let obeys_star = match star {
        "obeys *" => true,
        "ignores *" => false,
        other => return Err(format!("`{other}` is neither `obeys *` nor `ignores *`")),
    };
    Ok(Robot {
        profile: profile.name,
        prefix,
        full_name,
        obeys_star,
    })
}

fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| parse(TABLE).0)
}

/// The robots a profile's own parser knows, in its order (the registry's
/// `@robot` lines for that profile; empty for a profile that has none).
/// Only [`GroupSelection::RobotPrefix`](crate::GroupSelection::RobotPrefix)
/// reads them: Yandex's parser chooses groups from its table.
///
/// ```
/// use crawlgate::registry;
///
/// let yandex: Vec<_> = registry::robots("yandex").collect();
/// let bot = yandex.iter().find(|r| r.full_name == "YandexBot/3.0").unwrap();
/// assert_eq!((bot.prefix, bot.obeys_star), ("Yandex", true));
/// let direct = yandex.iter().find(|r| r.full_name == "YandexDirect/3.0").unwrap();
/// assert_eq!((direct.prefix, direct.obeys_star), ("YandexDirect", false));
/// assert_eq!(registry::robots("google").count(), 0);
/// ```
pub fn robots(profile: &str) -> impl Iterator<Item = &'static Robot> + '_ {
    registry()
        .robots
        .iter()
        .filter(move |r| r.profile.eq_ignore_ascii_case(profile))
}

/// The profile the named crawler's operator's own parser reads files by
/// (its registry entry's `profile=` flag), if it has one: what the crawler
/// reading reads a file for it by unless the user names a profile.
///
/// ```
/// use crawlgate::{registry, Profile};
/// assert_eq!(registry::profile_for("YandexBot"), Some(Profile::YANDEX));
/// assert_eq!(
///     registry::profile_for("Mozilla/5.0 (compatible; YandexDirect/3.0; +http://yandex.com/bots)"),
///     Some(Profile::YANDEX),
/// );
/// assert_eq!(registry::profile_for("bingbot"), Some(Profile::BING));
/// assert_eq!(registry::profile_for("Googlebot"), None);
/// assert_eq!(registry::profile_for("mybot"), None);
/// ```
pub fn profile_for(name: &str) -> Option<Profile> {
    identify(name)?.profile
}

/// The registry's version (`2026.11.26`): it changes whenever an entry
/// does.
pub fn version() -> &'static str {
    registry().version
}

/// Every crawler of the registry, in its order.
pub fn crawlers() -> &'static [Crawler] {
    &registry().crawlers
}

/// Every source the registry cites.
pub fn sources() -> &'static [Source] {
    registry().sources
}

/// The crawler with this name or alias (case-insensitive), as the registry
/// writes it.
///
/// ```
/// use crawlgate::registry;
/// assert_eq!(registry::find("BINGBOT").unwrap().name, "Bingbot");
/// assert_eq!(registry::find("Brightbot 1.0").unwrap().name, "Brightbot");
/// assert!(registry::find("mybot").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Crawler> {
    let registry = registry();
    let index = caseless_get(&registry.by_name, name.trim())?;
    Some(&registry.crawlers[index])
}

/// The first crawler whose own token is `token` (case-insensitive): its
/// whole name (`MSNBot` for `msnbot`). A token a line is cut to (`AI`) is
/// no crawler's: `AI2Bot` is compared whole.
///
/// ```
/// use crawlgate::registry;
/// assert_eq!(registry::find_token("msnbot").unwrap().name, "MSNBot");
/// assert_eq!(registry::find_token("ai2bot").unwrap().name, "AI2Bot");
/// assert!(registry::find_token("AI").is_none());
/// ```
pub fn find_token(token: &str) -> Option<&'static Crawler> {
    let registry = registry();
    let index = caseless_get(&registry.by_token, token.trim())?;
    Some(&registry.crawlers[index])
}

/// `map`'s value for `key` in lowercase ASCII: lowercased on the stack when
/// short (the linter and the survey look names up per line and per crawler,
/// and a `String` each time was a twentieth of a survey's allocations).
fn caseless_get(map: &HashMap<String, usize>, key: &str) -> Option<usize> {
    let mut buffer = [0u8; 64];
    match buffer.get_mut(..key.len()) {
        Some(lower) => {
            lower.copy_from_slice(key.as_bytes());
            lower.make_ascii_lowercase();
            // ASCII lowercasing keeps the text UTF-8.
            map.get(std::str::from_utf8(lower).ok()?).copied()
        }
        None => map.get(&key.to_ascii_lowercase()).copied(),
    }
}

/// The crawler a person names: by name or alias ([`find`]), or, for a full
/// HTTP `User-Agent` header, the first product it names that the registry
/// knows (`Mozilla/5.0 (compatible; bingbot/2.0; …)` is Bingbot). `None`
/// for a name the registry does not know, which the crawler reading reads
/// as one product token.
///
/// ```
/// use crawlgate::registry;
/// assert_eq!(registry::identify("Googlebot-Image/1.0").unwrap().name, "Googlebot-Image");
/// assert_eq!(registry::identify("AdsBot-Google (+http://www.google.com/adsbot.html)").unwrap().name, "AdsBot-Google");
/// assert!(registry::identify("Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0").is_none());
/// assert!(registry::identify("mybot").is_none());
/// ```
pub fn identify(name: &str) -> Option<&'static Crawler> {
    if let Some(found) = find(name) {
        return Some(found);
    }
    if is_product_token(name.trim()) {
        return None;
    }
    user_agent_products(name).find_map(find)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_whatever_their_case_and_length() {
        for crawler in &registry().crawlers {
            for name in [
                crawler.name.to_ascii_uppercase(),
                crawler.name.to_ascii_lowercase(),
            ] {
                assert_eq!(find(&name).map(|c| c.name), Some(crawler.name), "{name}");
            }
        }
        // Keys past the stack buffer, and text outside ASCII, alike.
        let long = "Very-Long-Crawler-Name-".repeat(5);
        let map = HashMap::from([(long.to_ascii_lowercase(), 7), ("bøt".to_owned(), 8)]);
        assert_eq!(caseless_get(&map, &long), Some(7));
        assert_eq!(caseless_get(&map, &long.to_ascii_uppercase()), Some(7));
        assert_eq!(caseless_get(&map, "BøT"), Some(8));
        assert_eq!(caseless_get(&map, "bot"), None);
    }

    /// Who waits the Crawl-delay is said once, on each crawler's line: the
    /// audit's breaches and the policy writer's Crawl-delay lines read it.
    #[test]
    fn crawl_delay_readers_are_flagged_on_their_lines() {
        for name in [
            "Bingbot",
            "MSNBot",
            "AdIdxBot",
            "Slurp",
            "AhrefsBot",
            "AhrefsSiteAudit",
            "SemrushBot",
            "SiteAuditBot",
            "DotBot",
            "ClaudeBot",
            "CCBot",
        ] {
            assert!(find(name).unwrap().reads_crawl_delay.is_some(), "{name}");
        }
        for name in ["Googlebot", "GPTBot", "YandexBot", "Applebot"] {
            assert!(find(name).unwrap().reads_crawl_delay.is_none(), "{name}");
        }
    }

    /// Tokens that do not name one crawler alone are marked on their lines,
    /// as data: a shared token (ExaBot, Exalead's old `Exabot`) and generic
    /// words; a crawler's own distinctive token is not.
    #[test]
    fn shared_and_generic_tokens_are_marked_on_their_lines() {
        let exa = find("Exabot").unwrap();
        assert!(exa.shared_token.is_some() && exa.generic_token.is_none());
        for name in ["Spider", "Code", "Operator"] {
            let crawler = find(name).unwrap();
            assert!(crawler.generic_token.is_some(), "{name}");
            assert!(!crawler.token_is_its_own(), "{name}");
        }
        for name in [
            "GPTBot",
            "CCBot",
            "YandexAdditional",
            "ClaudeBot",
            "Googlebot",
        ] {
            assert!(find(name).unwrap().token_is_its_own(), "{name}");
        }
        let text = "@source s | S | https://s\n\
                    A | A > * | crawler, shared-token@s | yes | o | search | - | s 2026-01-01 | n\n\
                    B | B > * | crawler, generic-token@t | yes | o | search | - | s 2026-01-01 | n\n";
        let (registry, bad) = parse(text);
        assert_eq!(registry.crawlers.len(), 1);
        assert!(registry.crawlers[0].shared_token.is_some());
        assert!(bad[0].why.contains("no @source `t`"), "{bad:?}");
    }

    #[test]
    fn every_line_reads() {
        let (registry, bad) = parse(TABLE);
        assert!(bad.is_empty(), "unreadable registry lines: {bad:?}");
        assert!(
            registry.crawlers.len() >= 230,
            "{}",
            registry.crawlers.len()
        );
        assert_ne!(registry.version, "unversioned");
    }

    #[test]
    fn robot_lines_read() {
        let yandex: Vec<&Robot> = robots("yandex").collect();
        assert!(yandex.len() > 40, "{}", yandex.len());
        assert!(yandex.iter().all(|r| r.profile == "yandex"));
        let text = "@robot yandex | Yandex | YandexBot/3.0 | obeys *\n\
                    @robot nobody | A | A/1 | obeys *\n\
                    @robot yandex | YandexX | YandexBot/3.0 | obeys *\n\
                    @robot yandex | Y | Y/1 | maybe\n\
                    @robot yandex | Y | Y/1\n";
        let (registry, bad) = parse(text);
        assert_eq!(registry.robots.len(), 1);
        let why: Vec<&str> = bad.iter().map(|b| b.why.as_str()).collect();
        assert!(why[0].contains("no profile `nobody`"), "{why:?}");
        assert!(why[1].contains("does not start with"), "{why:?}");
        assert!(why[2].contains("neither"), "{why:?}");
        assert!(why[3].contains("not 4"), "{why:?}");
    }

    /// A crawler read by Yandex's parser is one of its robots, and its
    /// tokens say what that parser does: `Yandex` names it when its
    /// required prefix is `Yandex`, and it obeys `*` when the table says so.
    #[test]
    fn yandex_crawlers_are_robots_of_its_table() {
        let yandex: Vec<&Crawler> = crawlers()
            .iter()
            .filter(|c| c.profile == Some(Profile::YANDEX))
            .collect();
        assert!(yandex.len() > 30, "{}", yandex.len());
        for crawler in yandex {
            let robot = robots("yandex")
                .find(|r| r.token().eq_ignore_ascii_case(crawler.token))
                .unwrap_or_else(|| panic!("{} is no robot of Yandex's table", crawler.name));
            assert_eq!(
                crawler.fallbacks.contains(&"Yandex"),
                robot.named_by("Yandex"),
                "{}",
                crawler.name
            );
            assert_eq!(crawler.obeys_star, robot.obeys_star, "{}", crawler.name);
        }
        assert_eq!(find("Yandex").unwrap().profile, None);
    }

    /// Bing's crawlers are read by Bing's reading, and the crawlers the
    /// bing profile speaks for are exactly the registry's `profile=bing`.
    #[test]
    fn bing_crawlers_are_read_by_bing() {
        let mut bing: Vec<String> = crawlers()
            .iter()
            .filter(|c| c.profile == Some(Profile::BING))
            .map(|c| c.token.to_ascii_lowercase())
            .collect();
        bing.sort();
        let mut named: Vec<&str> = Profile::BING.crawlers.to_vec();
        named.sort();
        assert_eq!(bing, named);
        for name in ["bingbot", "msnbot", "AdIdxBot", "BingPreview"] {
            assert_eq!(profile_for(name), Some(Profile::BING), "{name}");
        }
        assert_eq!(profile_for("MicrosoftPreview"), None);
        assert_eq!(profile_for("Googlebot"), None);
    }

    #[test]
    fn a_bad_line_says_why() {
        let text = "@source s | S | https://s\nA | A > * | crawler | yes | o | search | - | s 2026-01-01 | n\n\
                    B | B > B/1 | crawler | yes | o | search | - | s 2026-01-01 | n\n\
                    C | C | crawler | yes | o | nope | - | s 2026-01-01 | n\n\
                    D | E | crawler | yes | o | search | - | s 2026-01-01 | n\n\
                    F | F | crawler | yes | o | search | - | t 2026-01-01 | n\n\
                    G | G | crawler, profile=baidu | yes | o | search | - | s 2026-01-01 | n\n";
        let (registry, bad) = parse(text);
        assert_eq!(registry.crawlers.len(), 1);
        let lines: Vec<usize> = bad.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4, 5, 6, 7]);
        assert!(bad[4].why.contains("no profile `baidu`"), "{bad:?}");
        assert!(bad[0].why.contains("not a product token"), "{bad:?}");
        assert!(bad[1].why.contains("unknown purpose"), "{bad:?}");
        assert!(
            bad[2].why.contains("`D` is its whole name, not `E`"),
            "{bad:?}"
        );
        assert!(bad[3].why.contains("no @source `t`"), "{bad:?}");
    }

    #[test]
    fn user_agent_headers_map_to_their_crawler() {
        let cases = [
            ("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
            ("Mozilla/5.0 (X11; Linux x86_64; Storebot-Google/1.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36", "Storebot-Google"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "AdsBot-Google-Mobile"),
            ("FeedFetcher-Google; (+http://www.google.com/feedfetcher.html)", "FeedFetcher-Google"),
            ("Mozilla/5.0 (compatible; Google-CWS)", "Google-CWS"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36", "Bingbot"),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", "Applebot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"),
            ("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"),
            ("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", "YandexBot"),
            ("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"),
            ("DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)", "DuckDuckBot"),
        ];
        for (header, name) in cases {
            assert_eq!(identify(header).map(|c| c.name), Some(name), "{header}");
        }
        // Unknown crawlers, and browsers, are no crawler of the registry.
        for header in [
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
            "curl/8.4.0",
            "mybot",
            "",
        ] {
            assert!(identify(header).is_none(), "{header}");
        }
    }
}
