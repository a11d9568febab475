//! Which crawlers a survey asks about: each gets its columns in every row
//! (`root_X`, `cause_X`, `group_X`, `line_X`, and `path_X_N` per path).

use std::fmt;

use crawlgate_lint::audit::{self, Crawler};

/// The product token that stands for every crawler without a group of its
/// own.
pub const ANY: &str = "*";

/// One crawler of a survey.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SurveyedCrawler {
    /// Its product token, as given (`GPTBot`), a registry crawler's whole
    /// name (`AI2Bot`, `bigsur.ai`), or `*`.
    pub token: String,
    /// The stem of its columns (`gptbot`: `root_gptbot`, `cause_gptbot` …):
    /// the name lowercased with every character but a letter, a digit or
    /// `_` as `_` (so Spark SQL needs no quotes: `ai2bot`, `bigsur_ai`),
    /// and `star` for `*`.
    pub column: String,
    /// Its entry in the crawler table, when it has one.
    pub known: Option<&'static Crawler>,
}

impl SurveyedCrawler {
    /// The name of its column of verdicts for `/` (`root_gptbot`).
    pub fn root_column(&self) -> String {
        format!("root_{}", self.column)
    }

    /// The name of its cause column (`cause_gptbot`).
    pub fn cause_column(&self) -> String {
        format!("cause_{}", self.column)
    }

    /// The name of its column saying which group decided (`group_gptbot`).
    pub fn group_column(&self) -> String {
        format!("group_{}", self.column)
    }

    /// The name of its column of the line deciding `/` (`line_gptbot`).
    pub fn line_column(&self) -> String {
        format!("line_{}", self.column)
    }

    /// The name of its column of verdicts for the `n`th path asked about,
    /// counting from 1 (`path_gptbot_1`).
    pub fn path_column(&self, n: usize) -> String {
        format!("path_{}_{n}", self.column)
    }

    /// The name of its preferences column for `/` (`prefs_gptbot`).
    pub fn prefs_column(&self) -> String {
        format!("prefs_{}", self.column)
    }

    /// The name of its preferences column for the `n`th path asked about
    /// (`prefs_gptbot_1`).
    pub fn path_prefs_column(&self, n: usize) -> String {
        format!("prefs_{}_{n}", self.column)
    }
}

/// Why a list of crawlers cannot be surveyed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CrawlerSetError {
    /// A name that is neither a product token, a crawler of the registry
    /// nor `*`.
    #[error("`{0}` is not a product token (letters, `-` and `_` only), a crawler of the registry nor `*`: robots.txt groups cannot name it")]
    NotAToken(String),
    /// Two names whose columns would have one name.
    #[error("`{0}` and `{1}` would share the column `cause_{2}`")]
    SameColumn(String, String, String),
    /// No crawler at all.
    #[error("no crawler to survey")]
    Empty,
}

/// The crawlers of a survey, in column order.
///
/// ```
/// use crawlgate_survey::CrawlerSet;
///
/// let set = CrawlerSet::default_set();
/// assert!(set.iter().any(|c| c.token == "GPTBot"));
/// assert_eq!(set.iter().last().unwrap().column, "star");
///
/// let mine = CrawlerSet::from_tokens(["GPTBot", "*"]).unwrap();
/// assert_eq!(mine.iter().map(|c| c.root_column()).collect::<Vec<_>>(), ["root_gptbot", "root_star"]);
/// assert!(CrawlerSet::from_tokens(["GPTBot/1.0"]).is_err());
/// // A crawler of the registry by its whole name, digits included.
/// let ai2 = CrawlerSet::from_tokens(["AI2Bot", "img2dataset"]).unwrap();
/// assert_eq!(ai2.iter().map(|c| c.group_column()).collect::<Vec<_>>(), ["group_ai2bot", "group_img2dataset"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrawlerSet {
    crawlers: Vec<SurveyedCrawler>,
}

/// Whether a crawler of the table works for AI: training (datasets
/// included), AI search, an assistant fetching for a user.
pub fn is_ai(crawler: &Crawler) -> bool {
    crawler.purpose.is_ai()
}

impl CrawlerSet {
    /// Googlebot and Bingbot, every AI crawler of the crawler table (see
    /// [`is_ai`]) in table order, then `*`.
    pub fn default_set() -> CrawlerSet {
        let tokens = ["Googlebot", "Bingbot"]
            .into_iter()
            .chain(
                audit::crawlers()
                    .iter()
                    .filter(|c| is_ai(c))
                    .map(|c| c.token),
            )
            .chain([ANY]);
        CrawlerSet::from_tokens(tokens).expect("the crawler table holds names the survey accepts")
    }

    /// Every crawler of the crawler table, then `*`.
    pub fn all_known() -> CrawlerSet {
        let tokens = audit::crawlers().iter().map(|c| c.token).chain([ANY]);
        CrawlerSet::from_tokens(tokens).expect("the crawler table holds names the survey accepts")
    }

    /// The crawlers named, in order; a name given twice (in any case) is
    /// kept once.
    pub fn from_tokens<'a>(
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Result<CrawlerSet, CrawlerSetError> {
        let mut crawlers: Vec<SurveyedCrawler> = Vec::new();
        for token in tokens {
            let token = token.trim();
            if token != ANY && !crawlgate::is_product_token(token) && !is_registry_name(token) {
                return Err(CrawlerSetError::NotAToken(token.to_owned()));
            }
            if crawlers.iter().any(|c| c.token.eq_ignore_ascii_case(token)) {
                continue;
            }
            let column = column_stem(token);
            if let Some(other) = crawlers.iter().find(|c| c.column == column) {
                return Err(CrawlerSetError::SameColumn(
                    other.token.clone(),
                    token.to_owned(),
                    column,
                ));
            }
            crawlers.push(SurveyedCrawler {
                token: token.to_owned(),
                known: audit::find(token),
                column,
            });
        }
        if crawlers.is_empty() {
            return Err(CrawlerSetError::Empty);
        }
        Ok(CrawlerSet { crawlers })
    }

    /// The crawlers, in column order.
    pub fn iter(&self) -> std::slice::Iter<'_, SurveyedCrawler> {
        self.crawlers.iter()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.crawlers.len()
    }

    /// Never true: a set holds at least one crawler.
    pub fn is_empty(&self) -> bool {
        self.crawlers.is_empty()
    }

    /// The crawler whose column stem is `column`.
    pub fn by_column(&self, column: &str) -> Option<&SurveyedCrawler> {
        self.crawlers.iter().find(|c| c.column == column)
    }

    /// The crawlers of a table's column stems (`gptbot`, `star`), in order:
    /// each named by its token in `tokens` when given (the table's
    /// metadata), else by the crawler table's token with that stem, else by
    /// the stem itself.
    pub fn from_columns(stems: &[String], tokens: &[(String, String)]) -> CrawlerSet {
        let crawlers = stems
            .iter()
            .map(|stem| {
                let token = tokens
                    .iter()
                    .find(|(_, column)| column == stem)
                    .map(|(token, _)| token.clone())
                    .or_else(|| (stem == "star").then(|| ANY.to_owned()))
                    .or_else(|| {
                        audit::crawlers()
                            .iter()
                            .find(|c| column_stem(c.token) == *stem)
                            .map(|c| c.token.to_owned())
                    })
                    .unwrap_or_else(|| stem.clone());
                SurveyedCrawler {
                    known: audit::find(&token),
                    token,
                    column: stem.clone(),
                }
            })
            .collect();
        CrawlerSet { crawlers }
    }
}

impl fmt::Display for CrawlerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, crawler) in self.crawlers.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&crawler.token)?;
        }
        Ok(())
    }
}

/// Whether `name` is a registry crawler's own (whole) name: `AI2Bot`,
/// `ChatGPT Agent`, which the survey asks about by that name although no
/// product token spells it.
fn is_registry_name(name: &str) -> bool {
    crawlgate::registry::find(name).is_some_and(|c| c.token.eq_ignore_ascii_case(name))
}

/// `GPTBot` → `gptbot`, `Claude-Web` → `claude_web`, `bigsur.ai` →
/// `bigsur_ai`, `*` → `star`.
fn column_stem(token: &str) -> String {
    if token == ANY {
        return "star".to_owned();
    }
    token
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() => c.to_ascii_lowercase(),
            _ => '_',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_set_is_the_ai_crawlers_with_two_search_engines_and_star() {
        let set = CrawlerSet::default_set();
        let tokens: Vec<&str> = set.iter().map(|c| c.token.as_str()).collect();
        assert_eq!(&tokens[..2], ["Googlebot", "Bingbot"]);
        assert_eq!(tokens.last(), Some(&"*"));
        // Registry entries may share a product token (a crawler and its
        // older name, say): the survey asks about each token once.
        let ai: std::collections::HashSet<String> = audit::crawlers()
            .iter()
            .filter(|c| is_ai(c))
            .map(|c| c.token.to_ascii_lowercase())
            .collect();
        assert_eq!(set.len(), ai.len() + 3);
        assert!(tokens.contains(&"CCBot") && tokens.contains(&"ClaudeBot"));
        assert!(
            !tokens.contains(&"AhrefsBot"),
            "an SEO tool is not an AI crawler"
        );
        assert!(set.iter().all(|c| c.token == "*" || c.known.is_some()));
        // Crawlers are named whole: a researcher finds AI2Bot, not `AI`.
        for name in [
            "AI2Bot",
            "Ai2Bot-Dolma",
            "img2dataset",
            "Crawl4AI",
            "Channel3Bot",
        ] {
            assert!(tokens.contains(&name), "{name} in {tokens:?}");
        }
        for cut in ["AI", "Ai", "img", "Crawl", "Channel"] {
            assert!(!tokens.contains(&cut), "{cut} in {tokens:?}");
        }
    }

    #[test]
    fn names_are_checked_and_kept_once() {
        let set = CrawlerSet::from_tokens(["gptbot", "GPTBot", "My_Bot"]).unwrap();
        assert_eq!(set.len(), 2);
        assert_eq!(set.by_column("my_bot").unwrap().token, "My_Bot");
        assert!(set.by_column("gptbot").unwrap().known.is_some());
        assert_eq!(
            CrawlerSet::from_tokens(["my-bot", "my_bot"]).unwrap_err(),
            CrawlerSetError::SameColumn("my-bot".into(), "my_bot".into(), "my_bot".into())
        );
        assert!(matches!(
            CrawlerSet::from_tokens(["Googlebot Image"]),
            Err(CrawlerSetError::NotAToken(_))
        ));
        // A registry crawler's whole name is asked about as it is; the
        // token a line naming it is read as is just a token.
        let set = CrawlerSet::from_tokens(["ChatGPT Agent", "bigsur.ai", "AI"]).unwrap();
        let columns: Vec<&str> = set.iter().map(|c| c.column.as_str()).collect();
        assert_eq!(columns, ["chatgpt_agent", "bigsur_ai", "ai"]);
        assert_eq!(set.by_column("ai").unwrap().known, None);
        assert!(matches!(
            CrawlerSet::from_tokens(["MJ12bot"]),
            Err(CrawlerSetError::NotAToken(_))
        ));
        assert_eq!(
            CrawlerSet::from_tokens([]).unwrap_err(),
            CrawlerSetError::Empty
        );
    }
}
