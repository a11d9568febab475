//! The purposes a policy speaks of: the registry's purposes and kinds of
//! crawler, as a site owner thinks of them.

use std::str::FromStr;

use crawlgate::registry::{self, Crawler, CrawlerKind};
use crawlgate::UsageCategory;

crawlgate::word_table! {
    /// What a crawler fetches for, as a policy names it. Each crawler of the
    /// registry has one: a fetcher a person triggers is `user-fetch` whatever
    /// it fetches for; any other crawler (control tokens included) has the
    /// purpose the registry gives it, with AI search and assistants as
    /// `ai-use` (the vocabulary's AI Use).
    ///
    /// ```
    /// use crawlgate::registry;
    /// use crawlgate_policy::Purpose;
    ///
    /// assert_eq!(Purpose::of(registry::find("GPTBot").unwrap()), Purpose::AiTrain);
    /// assert_eq!(Purpose::of(registry::find("Google-Extended").unwrap()), Purpose::AiTrain);
    /// assert_eq!(Purpose::of(registry::find("OAI-SearchBot").unwrap()), Purpose::AiUse);
    /// assert_eq!(Purpose::of(registry::find("ChatGPT-User").unwrap()), Purpose::UserFetch);
    /// assert_eq!("ai-train".parse::<Purpose>(), Ok(Purpose::AiTrain));
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Purpose {
        /// Search engines' indexes.
        Search = "search",
        /// Training AI models (and control tokens that govern it).
        AiTrain = "ai-train",
        /// AI search, answers and assistants fed from a crawl (the
        /// vocabulary's AI Use: input to a generative model the user did not
        /// supply).
        AiUse = "ai-use",
        /// Fetches a person asks for (an assistant fetching a page for its
        /// user, a feed reader, a link check).
        UserFetch = "user-fetch",
        /// Web archives and site copiers.
        Archive = "archive",
        /// Advertising: landing-page checks, ad selection.
        Ads = "ads",
        /// SEO tools.
        Seo = "seo",
        /// Link previews.
        LinkPreview = "link-preview",
        /// Everything else.
        Other = "other",
    }
}

impl Purpose {
    /// A few words for people (`AI training`).
    pub fn describe(self) -> &'static str {
        match self {
            Purpose::Search => "search engines",
            Purpose::AiTrain => "AI training",
            Purpose::AiUse => "AI search, answers and assistants",
            Purpose::UserFetch => "fetches a person asks for",
            Purpose::Archive => "archives",
            Purpose::Ads => "ads",
            Purpose::Seo => "SEO tools",
            Purpose::LinkPreview => "link previews",
            Purpose::Other => "other crawlers",
        }
    }

    /// The purpose of a crawler of the registry.
    pub fn of(crawler: &Crawler) -> Purpose {
        if crawler.kind == CrawlerKind::UserTriggered {
            return Purpose::UserFetch;
        }
        match crawler.purpose {
            registry::Purpose::Search => Purpose::Search,
            registry::Purpose::AiTraining => Purpose::AiTrain,
            registry::Purpose::AiAssistant => Purpose::AiUse,
            registry::Purpose::Ads => Purpose::Ads,
            registry::Purpose::Seo => Purpose::Seo,
            registry::Purpose::Archive => Purpose::Archive,
            registry::Purpose::LinkPreview => Purpose::LinkPreview,
            _ => Purpose::Other,
        }
    }

    /// The category of the AI-preferences vocabulary (draft 08) a stated
    /// access for this purpose becomes in `Content-Usage`: search,
    /// AI training and AI use have one.
    pub fn usage_category(self) -> Option<UsageCategory> {
        match self {
            Purpose::Search => Some(UsageCategory::Search),
            Purpose::AiTrain => Some(UsageCategory::AiTraining),
            Purpose::AiUse => Some(UsageCategory::AiUse),
            _ => None,
        }
    }

    /// The key of the Content Signals Policy it becomes in
    /// `Content-Signal` (`search`, `ai-train`, `ai-input`).
    pub fn signal_key(self) -> Option<&'static str> {
        match self {
            Purpose::Search => Some("search"),
            Purpose::AiTrain => Some("ai-train"),
            Purpose::AiUse => Some("ai-input"),
            _ => None,
        }
    }
}

impl FromStr for Purpose {
    type Err = String;

    fn from_str(text: &str) -> Result<Purpose, String> {
        Purpose::from_word(text).ok_or_else(|| {
            let names: Vec<&str> = Purpose::ALL.iter().map(|p| p.as_str()).collect();
            format!(
                "`{}` is not a purpose: the purposes are {}",
                crate::access::shorten(text),
                names.join(", ")
            )
        })
    }
}
