//! Interpretation profiles: one parser, several readings of the same file.
//!
//! A [`Profile`] is a set of named switches (in the style of `httparse`'s
//! `ParserConfig`): each switch turns one leniency or one matching rule on or
//! off. The three named profiles are constants; a custom profile is a struct
//! literal that starts from one of them.

use std::fmt;
use std::str::FromStr;

/// How the group for a crawler is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GroupSelection {
    /// RFC 9309 and Google: the groups whose user-agent product token equals
    /// the crawler's name (case-insensitively) are merged; if there are none,
    /// the `*` groups are merged; if there are none either, everything is
    /// allowed.
    ProductToken,
    /// The 1996 convention as Python's `urllib.robotparser` reads it: the
    /// first group (in file order) whose user-agent value occurs as a
    /// substring of the crawler's name applies; the first `*` group only when
    /// none does.
    FirstSubstring,
}

/// Which matching rule decides when several match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Precedence {
    /// The rule with the longest (normalised) pattern wins; an exact tie
    /// between allow and disallow goes to allow.
    LongestMatch,
    /// The first matching rule in file order wins.
    FirstMatch,
}

/// A reading of robots.txt: which leniencies the parser accepts and how
/// rules are matched.
///
/// ```
/// use crawlgate::{Profile, RobotsTxt};
///
/// let body = b"User-agent: *\nDisallow /private\n"; // no colon
/// let google = RobotsTxt::parse_with(body, Profile::GOOGLE);
/// let rfc = RobotsTxt::parse_with(body, Profile::RFC9309);
/// assert!(!google.is_allowed("bot", "/private"));
/// assert!(rfc.is_allowed("bot", "/private"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Profile {
    /// Short name (`google`, `rfc9309`, `legacy`) used in output.
    pub name: &'static str,
    /// Accept the misspellings Google accepts (`useragent`, `user agent`,
    /// `dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`,
    /// `site-map`).
    pub accept_typos: bool,
    /// Recognise field names by case-insensitive prefix (`Disallowed: /x` is a
    /// disallow).
    pub field_name_prefix: bool,
    /// Accept a line without a colon when it holds exactly two
    /// whitespace-separated tokens (`Disallow /private`).
    pub accept_missing_colon: bool,
    /// `*` matches any run of characters and a trailing `$` anchors the end.
    /// When off, both are literal characters.
    pub wildcards: bool,
    /// A rule path must start with `/` (or be empty) to be a rule at all.
    /// When off, such paths are kept; one starting with `*` still matches.
    pub require_leading_slash: bool,
    /// Google: `Allow: /dir/index.html` (or `index.htm…`) also allows `/dir/`.
    pub index_html_alias: bool,
    /// `/robots.txt` is always allowed (RFC 9309 §2.5).
    pub always_allow_robots_txt: bool,
    /// Percent escapes of unreserved characters are decoded in rules and
    /// URLs before matching (RFC 9309 §2.2.2), non-ASCII bytes of the URL are
    /// percent-encoded, and a stray `%` becomes `%25`; other escapes compare
    /// with uppercase hex either way.
    pub decode_unreserved: bool,
    /// Python's `urllib.robotparser` quoting: rule paths and URLs are
    /// percent-decoded, then every byte but `A-Za-z0-9_.-~/` is
    /// percent-encoded (so `%7E` and `~` compare equal, and `*` is just a
    /// character).
    pub requote: bool,
    /// A user-agent value of `*` followed by whitespace and more text still
    /// names every crawler (Google).
    pub lenient_global_agent: bool,
    /// Records as `urllib.robotparser` reads them: a blank line ends a
    /// record (rules after it, before the next user-agent line, are
    /// ignored); `Crawl-delay` and `Request-rate` lines count as members, as
    /// rules do; a record that ends without members is dropped.
    pub urllib_records: bool,
    /// How the group for a crawler is chosen.
    pub group_selection: GroupSelection,
    /// Which matching rule decides.
    pub precedence: Precedence,
    /// Bytes past this limit are ignored; a line cut by the limit is dropped.
    pub max_bytes: usize,
    /// Only the first this-many bytes of a line are read (Google's reference
    /// reads 16,663).
    pub max_line_bytes: usize,
}

/// The size limit every profile applies by default: 500 KiB.
pub const MAX_BYTES: usize = 500 * 1024;

/// The longest line prefix Google's reference implementation reads.
pub const GOOGLE_MAX_LINE_BYTES: usize = 2083 * 8 - 1;

impl Profile {
    /// Google's reading (the default): RFC 9309 plus Google's leniencies,
    /// matching Google's open-source reference implementation.
    pub const GOOGLE: Profile = Profile {
        name: "google",
        accept_typos: true,
        field_name_prefix: true,
        accept_missing_colon: true,
        wildcards: true,
        require_leading_slash: false,
        index_html_alias: true,
        always_allow_robots_txt: false,
        decode_unreserved: false,
        requote: false,
        lenient_global_agent: true,
        urllib_records: false,
        group_selection: GroupSelection::ProductToken,
        precedence: Precedence::LongestMatch,
        max_bytes: MAX_BYTES,
        max_line_bytes: GOOGLE_MAX_LINE_BYTES,
    };

    /// RFC 9309's grammar without Google's leniencies: exact field names, no
    /// typos, no colon-less lines, rule paths must start with `/`, escapes of
    /// unreserved characters decoded, `/robots.txt` always allowed.
    pub const RFC9309: Profile = Profile {
        name: "rfc9309",
        accept_typos: false,
        field_name_prefix: false,
        accept_missing_colon: false,
        wildcards: true,
        require_leading_slash: true,
        index_html_alias: false,
        always_allow_robots_txt: true,
        decode_unreserved: true,
        requote: false,
        lenient_global_agent: false,
        urllib_records: false,
        group_selection: GroupSelection::ProductToken,
        precedence: Precedence::LongestMatch,
        max_bytes: MAX_BYTES,
        max_line_bytes: usize::MAX,
    };

    /// The 1994/1996 convention still used by simple crawlers, as Python's
    /// `urllib.robotparser` reads it: records end at blank lines, no
    /// wildcards, paths re-quoted then compared by plain prefix, the first
    /// record whose user-agent occurs in the crawler's name, the first
    /// matching rule in file order.
    pub const LEGACY: Profile = Profile {
        name: "legacy",
        accept_typos: false,
        field_name_prefix: false,
        accept_missing_colon: false,
        wildcards: false,
        require_leading_slash: false,
        index_html_alias: false,
        always_allow_robots_txt: false,
        decode_unreserved: false,
        requote: true,
        lenient_global_agent: false,
        urllib_records: true,
        group_selection: GroupSelection::FirstSubstring,
        precedence: Precedence::FirstMatch,
        max_bytes: MAX_BYTES,
        max_line_bytes: usize::MAX,
    };

    /// The named profiles, default first.
    pub const ALL: [Profile; 3] = [Profile::GOOGLE, Profile::RFC9309, Profile::LEGACY];

    /// Looks a named profile up (`google`, `rfc9309`, `legacy`;
    /// case-insensitive, `rfc` is accepted for `rfc9309`).
    ///
    /// ```
    /// use crawlgate::Profile;
    /// assert_eq!(Profile::named("RFC9309"), Some(Profile::RFC9309));
    /// assert_eq!(Profile::named("bing"), None);
    /// ```
    pub fn named(name: &str) -> Option<Profile> {
        let name = name.trim();
        if name.eq_ignore_ascii_case("google") {
            Some(Profile::GOOGLE)
        } else if name.eq_ignore_ascii_case("rfc9309") || name.eq_ignore_ascii_case("rfc") {
            Some(Profile::RFC9309)
        } else if name.eq_ignore_ascii_case("legacy") {
            Some(Profile::LEGACY)
        } else {
            None
        }
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile::GOOGLE
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The error of parsing a profile name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown profile `{}` (expected one of: google, rfc9309, legacy)",
            self.0
        )
    }
}

impl std::error::Error for UnknownProfile {}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Profile::named(s).ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}
