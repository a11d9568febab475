//! `allow` or `deny`: what a policy says of a purpose or a crawler.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

crawlgate::word_table! {
    /// What a policy says of the crawlers of a purpose, or of one crawler.
    ///
    /// `Allow` blocks nothing beyond the site's own rules (the paths meant for
    /// everyone); `Deny` shuts the crawler out (`Disallow: /`) and states the
    /// preference.
    ///
    /// ```
    /// use crawlgate_policy::Access;
    /// assert_eq!("deny".parse::<Access>(), Ok(Access::Deny));
    /// assert_eq!(Access::Allow.as_str(), "allow");
    /// assert!("block".parse::<Access>().unwrap_err().contains("`allow` or `deny`"));
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    pub enum Access {
        /// Block nothing beyond the site's own rules.
        Allow = "allow",
        /// Shut the crawler out and say so.
        Deny = "deny",
    }
}

impl FromStr for Access {
    type Err = String;

    fn from_str(text: &str) -> Result<Access, String> {
        Access::from_word(text).ok_or_else(|| {
            format!(
                "`{}` is neither `allow` nor `deny`: say `allow` or `deny`",
                shorten(text)
            )
        })
    }
}

/// `text` cut to 60 characters for a message (inputs may be any length).
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}
