//! Who asks a question: a product token, read as Google's library reads it,
//! or a crawler a person names, read by the registry's rules (the two
//! readings). Every `decide` and `view` takes one.

use crate::profile::Profile;
use crate::registry::{self, Crawler};

crate::word_table! {
    /// How a name was read: as one product token, exactly as Google's library
    /// reads it ([`Who::token`]), or as a crawler of the registry, with the
    /// fallbacks its operator documents ([`Who::crawler`]).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Reading {
        /// The one-token reading: the groups naming the token, else `*`.
        OneToken = "one-token",
        /// The crawler reading: the registry's rules for a crawler it knows
        /// (a name it does not know is read as one token).
        Crawler = "crawler",
    }
}

impl Reading {
    /// The profile a file is read by when `name` is asked about this way:
    /// `named`, when the user named one; else, in the crawler reading, the
    /// profile of the parser the registry says the crawler's operator uses
    /// ([`registry::profile_for`]: Bing's crawlers are read by `bing`,
    /// Yandex's robots by `yandex`);
    /// else the default, google. Every front end chooses its profile here.
    ///
    /// ```
    /// use crawlgate::{Profile, Reading};
    /// assert_eq!(Reading::Crawler.profile_for("YandexBot", None), Profile::YANDEX);
    /// assert_eq!(Reading::Crawler.profile_for("YandexBot", Some(Profile::GOOGLE)), Profile::GOOGLE);
    /// assert_eq!(Reading::Crawler.profile_for("bingbot", None), Profile::BING);
    /// assert_eq!(Reading::Crawler.profile_for("Googlebot", None), Profile::GOOGLE);
    /// assert_eq!(Reading::OneToken.profile_for("YandexBot", None), Profile::GOOGLE);
    /// ```
    pub fn profile_for(self, name: &str, named: Option<Profile>) -> Profile {
        match (named, self) {
            (Some(profile), _) => profile,
            (None, Reading::Crawler) => registry::profile_for(name).unwrap_or_default(),
            (None, Reading::OneToken) => Profile::default(),
        }
    }
}

/// Who asks: what [`RobotsTxt::decide`](crate::RobotsTxt::decide),
/// [`RobotsTxt::view`](crate::RobotsTxt::view) and their kin take.
///
/// * A `&str` is one **product token**, read exactly as Google's library
///   reads it: the groups naming it, else `*` ([`Reading::OneToken`]).
/// * [`Who::crawler`] is a crawler a person names (a name, an alias or a
///   full `User-Agent` header), read by the **crawler reading**
///   ([`Reading::Crawler`]): a crawler of the
///   [registry](crate::registry) obeys the groups of its own token, else
///   of its first fallback a group names, else `*` if it obeys `*`, else
///   none, and the file does not apply to one whose operator says it
///   ignores robots.txt. A name the registry does not know is read as one
///   token.
/// * A `&'static Crawler` (from [`registry::find`]) is that crawler, by the
///   crawler reading, without looking its name up again.
///
/// The registry is searched once, when the `Who` is made: keep it to ask
/// many files or URLs about the same crawler.
///
/// ```
/// use crawlgate::{registry, ChoiceKind, Reading, RobotsTxt, Who};
///
/// let robots = RobotsTxt::parse(b"User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n");
/// // One token: Googlebot-Image has no group of its own, so `*` applies.
/// assert!(!robots.is_allowed("Googlebot-Image", "/photo.jpg"));
/// // The crawler reading: it follows Googlebot's group (Google's crawler documentation).
/// let image = Who::crawler("Googlebot-Image");
/// assert!(robots.is_allowed(image, "/photo.jpg"));
/// assert_eq!(robots.view(image).group_choice().kind(), ChoiceKind::Fallback);
/// // The same crawler, found in the registry once for many files.
/// let found = registry::find("Googlebot-Image").unwrap();
/// assert!(robots.is_allowed(found, "/photo.jpg"));
/// // Either reading, by name (what `--one-token` and `reading=` choose).
/// assert_eq!(Who::read("Googlebot-Image", Reading::OneToken), Who::from("Googlebot-Image"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Who<'a> {
    name: &'a str,
    reading: Reading,
    /// The crawler of the registry the name was read as (crawler reading).
    crawler: Option<&'static Crawler>,
}

impl<'a> Who<'a> {
    /// One product token, read as Google's library reads it (what a
    /// `&str` means).
    pub fn token(token: &'a str) -> Who<'a> {
        Who {
            name: token,
            reading: Reading::OneToken,
            crawler: None,
        }
    }

    /// The crawler a person names (a name, an alias or a full `User-Agent`
    /// header), by the crawler reading; looked up in the registry here,
    /// once ([`registry::identify`]).
    pub fn crawler(name: &'a str) -> Who<'a> {
        Who {
            name,
            reading: Reading::Crawler,
            crawler: registry::identify(name),
        }
    }

    /// `name` under the reading `how`: [`token`](Self::token) or
    /// [`crawler`](Self::crawler).
    pub fn read(name: &'a str, how: Reading) -> Who<'a> {
        match how {
            Reading::OneToken => Who::token(name),
            Reading::Crawler => Who::crawler(name),
        }
    }

    /// A `Who` already looked up (kept apart by a reader that owns the name).
    pub(crate) fn resolved(
        name: &'a str,
        reading: Reading,
        crawler: Option<&'static Crawler>,
    ) -> Who<'a> {
        Who {
            name,
            reading,
            crawler,
        }
    }

    /// The name as asked (a crawler given from the registry: its name).
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// How the name is read.
    pub fn reading(&self) -> Reading {
        self.reading
    }

    /// The crawler of the registry the name was read as, in the crawler
    /// reading; `None` for one token or a name the registry does not know.
    pub fn registered(&self) -> Option<&'static Crawler> {
        self.crawler
    }

    /// The profile a file is read under for this crawler when the user
    /// names none: its operator's own reading where the registry records
    /// one (Bing's crawlers `bing`, Yandex's robots `yandex`), else
    /// Google's ([`Profile::GOOGLE`], the default; one token is always read
    /// as Google's library reads it).
    ///
    /// ```
    /// use crawlgate::{Profile, Who};
    /// assert_eq!(Who::crawler("Googlebot").profile(), Profile::GOOGLE);
    /// assert_eq!(Who::token("mybot").profile(), Profile::GOOGLE);
    /// assert_eq!(Who::crawler("YandexBot").profile(), Profile::YANDEX);
    /// ```
    pub fn profile(&self) -> Profile {
        self.crawler.and_then(|c| c.profile).unwrap_or_default()
    }

    /// Whether its operator says it ignores robots.txt (crawler reading):
    /// no file, and no fetch outcome, restricts it.
    pub fn ignores_robots_txt(&self) -> bool {
        self.crawler.is_some_and(Crawler::ignores_robots_txt)
    }
}

impl<'a> From<&'a str> for Who<'a> {
    /// One product token.
    fn from(token: &'a str) -> Who<'a> {
        Who::token(token)
    }
}

impl<'a> From<&&'a str> for Who<'a> {
    /// One product token.
    fn from(token: &&'a str) -> Who<'a> {
        Who::token(token)
    }
}

impl<'a> From<&'a String> for Who<'a> {
    /// One product token.
    fn from(token: &'a String) -> Who<'a> {
        Who::token(token)
    }
}

impl From<&'static Crawler> for Who<'static> {
    /// A crawler of the registry, by the crawler reading.
    fn from(crawler: &'static Crawler) -> Who<'static> {
        Who {
            name: crawler.name,
            reading: Reading::Crawler,
            crawler: Some(crawler),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_looked_up_once_and_only_for_the_crawler_reading() {
        let header = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
        let who = Who::crawler(header);
        assert_eq!(who.registered().unwrap().name, "Bingbot");
        assert_eq!((who.name(), who.reading()), (header, Reading::Crawler));
        assert_eq!(Who::token(header).registered(), None);
        assert_eq!(Who::crawler("mybot").registered(), None);
        assert_eq!(Who::crawler("mybot").reading(), Reading::Crawler);
        let found = registry::find("Bingbot").unwrap();
        assert_eq!(
            Who::from(found),
            Who::crawler("bingbot").with_name("Bingbot")
        );
    }

    #[test]
    fn only_crawlers_that_say_so_ignore_robots_txt() {
        assert!(Who::crawler("Google-Read-Aloud").ignores_robots_txt());
        assert!(!Who::token("Google-Read-Aloud").ignores_robots_txt());
        assert!(!Who::crawler("Googlebot").ignores_robots_txt());
    }

    impl<'a> Who<'a> {
        fn with_name(self, name: &'a str) -> Who<'a> {
            Who { name, ..self }
        }
    }

    #[test]
    fn every_crawler_reads_by_a_profile_of_its_own_or_google() {
        for crawler in registry::crawlers() {
            let profile = Who::from(crawler).profile();
            assert!(
                Profile::ALL.contains(&profile),
                "{}: {}",
                crawler.name,
                profile.name
            );
        }
    }
}
