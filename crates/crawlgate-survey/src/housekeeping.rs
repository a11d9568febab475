//! Which paths are *housekeeping*: the parts of a site that are no content
//! of their own (administration, log-in and accounts, shop carts and
//! checkouts, site search, feeds and comments, the software's own files).
//! A crawler kept only out of these (`Disallow: /wp-admin/`) may read
//! everything a reader would; the survey tells that apart from a crawler
//! kept out of the home page or a content section
//! ([`Cause::HousekeepingBlocked`](crate::verdict::Cause) against
//! [`Cause::PartlyBlocked`](crate::verdict::Cause)).
//!
//! A path is housekeeping when one of its segments (between `/`, before
//! any `?`, compared without case and without an extension: `wp-login.php`
//! is `wp-login`) is a word of [`WORDS`] or a file with one of the
//! [`FILE_EXTENSIONS`] (not `index.*`), or when it is the home page's query
//! string (`/?s=`, `/?add-to-cart=`). docs/survey.md lists them.

use std::sync::LazyLock;

use rustc_hash::FxHashSet;

/// The segment words that make a path housekeeping, by kind.
pub const WORDS: &[(&str, &[&str])] = &[
    (
        "administration",
        &[
            "admin",
            "administrator",
            "wp-admin",
            "dashboard",
            "backend",
            "add",
            "edit",
        ],
    ),
    (
        "log-in and accounts",
        &[
            "login",
            "logout",
            "wp-login",
            "signin",
            "sign-in",
            "signup",
            "sign-up",
            "register",
            "registration",
            "account",
            "accounts",
            "my-account",
            "myaccount",
            "customer",
            "user",
            "users",
            "profile",
            "password",
            "auth",
        ],
    ),
    (
        "shop",
        &[
            "cart", "basket", "checkout", "order", "orders", "wishlist", "compare",
        ],
    ),
    (
        "search and filters",
        &[
            "search",
            "suche",
            "recherche",
            "buscar",
            "filter",
            "filters",
        ],
    ),
    (
        "feeds and comments",
        &[
            "feed",
            "feeds",
            "rss",
            "trackback",
            "comment",
            "comments",
            "reply",
        ],
    ),
    (
        "software",
        &[
            "core",
            "modules",
            "themes",
            "profiles",
            "misc",
            "scripts",
            "includes",
            "plugins",
            "templates",
            "cache",
            "cgi-bin",
            "bin",
            "config",
            "logs",
            "js",
            "css",
            "ajax",
            "api",
            "wp-includes",
            "wp-json",
            "xmlrpc",
            "tmp",
            "temp",
        ],
    ),
];

/// The extensions of the software's own files (`cron.php`,
/// `install.mysql.txt`, `web.config`): a segment ending in one is
/// housekeeping, except the front page's `index.*`.
pub const FILE_EXTENSIONS: &[&str] = &[
    "txt", "php", "config", "cgi", "pl", "sql", "log", "ini", "inc", "sh",
];

/// Whether `path` (a rule's literal start, `/` first) is housekeeping.
///
/// ```
/// use crawlgate_survey::housekeeping::is_housekeeping;
/// assert!(is_housekeeping("/wp-admin/"));
/// assert!(is_housekeeping("/shop/Cart"));
/// assert!(is_housekeeping("/wp-login.php"));
/// assert!(is_housekeeping("/?s="));
/// assert!(!is_housekeeping("/"));
/// assert!(!is_housekeeping("/news/"));
/// assert!(!is_housekeeping("/search-engine-tips/"));
/// ```
pub fn is_housekeeping(path: &str) -> bool {
    let path = path.as_bytes();
    if path.starts_with(b"/?") {
        return true;
    }
    // Bytes, not `str` splits: the survey asks this of every disallowed
    // probe path of every file.
    let path = &path[..memchr::memchr(b'?', path).unwrap_or(path.len())];
    path.split(|&b| b == b'/').any(|segment| {
        let stem = &segment[..memchr::memchr(b'.', segment).unwrap_or(segment.len())];
        !stem.is_empty() && (is_word(stem) || is_software_file(segment, stem))
    })
}

/// Whether `segment` (whose part before its first `.` is `stem`) names a
/// file with one of the [`FILE_EXTENSIONS`], but `index.*`.
fn is_software_file(segment: &[u8], stem: &[u8]) -> bool {
    memchr::memrchr(b'.', segment).is_some_and(|dot| {
        let extension = &segment[dot + 1..];
        FILE_EXTENSIONS
            .iter()
            .any(|e| e.as_bytes().eq_ignore_ascii_case(extension))
            && !stem.eq_ignore_ascii_case(b"index")
    })
}

/// A bound on the length of [`WORDS`] (a test checks it): a longer stem is none
/// of them.
const LONGEST_WORD: usize = 16;

/// Whether `stem` is one of [`WORDS`], in any case: looked up in a set
/// (the survey asks this of every disallowed probe path of every file, and
/// comparing with each word in turn was most of its cost).
fn is_word(stem: &[u8]) -> bool {
    static SET: LazyLock<FxHashSet<&'static [u8]>> = LazyLock::new(|| {
        WORDS
            .iter()
            .flat_map(|(_, words)| words.iter().map(|w| w.as_bytes()))
            .collect()
    });
    if stem.len() > LONGEST_WORD {
        return false;
    }
    let mut lower = [0u8; LONGEST_WORD];
    for (out, b) in lower.iter_mut().zip(stem) {
        *out = b.to_ascii_lowercase();
    }
    SET.contains(&lower[..stem.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_compared_whole_without_case_or_extension() {
        for path in [
            "/admin",
            "/ADMIN/x",
            "/en/checkout/",
            "/index/login.aspx",
            "/feed/",
            "/cgi-bin/x.pl",
            "/?add-to-cart=1",
            "/install.mysql.txt",
            "/web.config",
            "/node/add/",
        ] {
            assert!(is_housekeeping(path), "{path}");
        }
        for path in [
            "/",
            "/administration-of-justice/",
            "/blog/",
            "/products?search=x",
            "/adm",
            "/index.php",
            "/en/",
            "",
        ] {
            assert!(!is_housekeeping(path), "{path}");
        }
    }

    #[test]
    fn every_word_is_found_in_any_case_and_nothing_near_it() {
        let words: Vec<&str> = WORDS.iter().flat_map(|(_, w)| w.iter().copied()).collect();
        for word in &words {
            assert!(
                is_word(word.as_bytes()) && is_word(word.to_ascii_uppercase().as_bytes()),
                "{word}"
            );
            assert!(!is_word(format!("{word}x").as_bytes()), "{word}x");
            let shorter = &word[..word.len() - 1];
            assert_eq!(
                is_word(shorter.as_bytes()),
                words.contains(&shorter),
                "{shorter}"
            );
        }
        assert!(
            !is_word(b"")
                && !is_word("\u{e4}dmin".as_bytes())
                && !is_word("a".repeat(LONGEST_WORD + 1).as_bytes())
        );
    }

    #[test]
    fn words_are_lower_case_short_and_listed_once() {
        assert!(WORDS
            .iter()
            .flat_map(|(_, w)| w.iter())
            .all(|w| w.len() <= LONGEST_WORD));
        let mut all: Vec<&str> = WORDS.iter().flat_map(|(_, w)| w.iter().copied()).collect();
        assert!(all
            .iter()
            .all(|w| *w == w.to_ascii_lowercase() && !w.contains('.')));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    /// The definition in the module's words, on `str`s.
    fn housekeeping_as_defined(path: &str) -> bool {
        if path.starts_with("/?") {
            return true;
        }
        let path = path.split('?').next().unwrap_or_default();
        path.split('/').any(|segment| {
            let stem = segment.split('.').next().unwrap_or_default();
            let word = WORDS
                .iter()
                .flat_map(|(_, words)| words.iter())
                .any(|w| w.eq_ignore_ascii_case(stem));
            let software_file = segment.rsplit_once('.').is_some_and(|(_, extension)| {
                FILE_EXTENSIONS
                    .iter()
                    .any(|e| e.eq_ignore_ascii_case(extension))
            }) && !stem.eq_ignore_ascii_case("index");
            !stem.is_empty() && (word || software_file)
        })
    }

    #[test]
    fn paths_are_read_as_the_definition_says() {
        let parts = [
            "",
            "admin",
            "Login",
            "wp-login.php",
            "index.php",
            "INDEX.TXT",
            "x.tar.sh",
            "feed.",
            ".php",
            "news",
            "cart?x=1",
            "?s=",
            "a.b.Config",
            "\u{e4}.log",
            "search-tips",
            ".",
        ];
        let mut checked = 0;
        for a in parts {
            for b in parts {
                for c in ["", "/", "?q=admin", "/x.pl"] {
                    for path in [
                        format!("/{a}/{b}{c}"),
                        format!("/{a}{c}/{b}"),
                        format!("{a}/{b}"),
                    ] {
                        assert_eq!(
                            is_housekeeping(&path),
                            housekeeping_as_defined(&path),
                            "{path}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, parts.len() * parts.len() * 4 * 3);
    }
}
