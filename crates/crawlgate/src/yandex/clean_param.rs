//! `Clean-param`, Yandex's directive naming the query parameters that do
//! not change a page (session ids, referrers, tracking tags): Yandex drops
//! them from the URLs it crawls under a path, and so crawls one copy of
//! such pages. It never changes whether a URL may be crawled.
//!
//! `Clean-param: p0[&p1&p2…] [path]`: the parameters, joined by `&`, then
//! optionally whitespace and a path prefix (`*` matches any run of
//! characters; no path means every path). It is file-wide, wherever it
//! stands. Yandex's parser drops a record whose parameters hold anything
//! but letters, digits and `+-=_&%[]{}():.` (or `&&`), whose path holds
//! anything but letters, digits and `.-/*_,;:%`, or that is longer than
//! 503 bytes.

use std::fmt;

/// The longest `Clean-param` value Yandex's parser takes.
pub const MAX_LEN: usize = 503;

/// One valid `Clean-param` record.
///
/// ```
/// use crawlgate::CleanParam;
///
/// let record = CleanParam::parse("utm_source&sid /forum/*.php", 3).unwrap();
/// assert_eq!(record.params, ["utm_source", "sid"]);
/// assert_eq!(record.path, "/forum/*.php");
/// assert!(record.applies_to("/forum/topic.php?sid=1"));
/// assert!(!record.applies_to("/blog/"));
/// assert_eq!(record.cleaned("/forum/a.php?sid=9&page=2&utm_source=x"), "/forum/a.php?page=2");
/// // Without a path, every path.
/// assert!(CleanParam::parse("ref", 1).unwrap().applies_to("/anything"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CleanParam<'a> {
    /// The parameters dropped, in the order written (empty names, as in
    /// `a&`, are left out).
    pub params: Vec<&'a str>,
    /// The path prefix they are dropped under (`*` matches any run of
    /// characters), or empty for every path.
    pub path: &'a str,
    /// The record's line.
    pub line: u32,
}

/// Why Yandex's parser drops a `Clean-param` record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CleanParamError {
    /// No value.
    Empty,
    /// Longer than 503 bytes, the longest value Yandex's parser takes.
    TooLong,
    /// A character outside letters, digits and `+-=_&%[]{}():.` among the
    /// parameters.
    ParamCharacter(char),
    /// `&&` among the parameters.
    DoubleAmpersand,
    /// A character outside letters, digits and `.-/*_,;:%` in the path.
    PathCharacter(char),
}

impl fmt::Display for CleanParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CleanParamError::Empty => f.write_str("it names no parameter"),
            CleanParamError::TooLong => write!(f, "it is longer than {MAX_LEN} bytes"),
            CleanParamError::ParamCharacter(c) => write!(
                f,
                "`{}` may not stand in a parameter name (letters, digits and `+-=_&%[]{{}}():.` only)",
                c.escape_debug()
            ),
            CleanParamError::DoubleAmpersand => {
                f.write_str("parameters are separated by one `&`, not `&&`")
            }
            CleanParamError::PathCharacter(c) => write!(
                f,
                "`{}` may not stand in its path (letters, digits and `.-/*_,;:%` only)",
                c.escape_debug()
            ),
        }
    }
}

impl std::error::Error for CleanParamError {}

/// C's `isspace`.
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

impl<'a> CleanParam<'a> {
    /// Reads a `Clean-param` value (without its surrounding whitespace) as
    /// Yandex's parser does.
    ///
    /// ```
    /// use crawlgate::{CleanParam, CleanParamError};
    /// assert_eq!(CleanParam::parse("a&&b", 1), Err(CleanParamError::DoubleAmpersand));
    /// assert_eq!(CleanParam::parse("ref /a b", 1), Err(CleanParamError::PathCharacter(' ')));
    /// assert_eq!(CleanParam::parse("ref?", 1), Err(CleanParamError::ParamCharacter('?')));
    /// ```
    pub fn parse(value: &'a str, line: u32) -> Result<CleanParam<'a>, CleanParamError> {
        if value.is_empty() {
            return Err(CleanParamError::Empty);
        }
        // The parser adds a space when there is none, then measures.
        let measured = value.len() + usize::from(!value.contains(' '));
        if measured > MAX_LEN {
            return Err(CleanParamError::TooLong);
        }
        let split = value.find(is_space).unwrap_or(value.len());
        let (params, rest) = value.split_at(split);
        for (i, c) in params.char_indices() {
            if !(c.is_ascii_alphanumeric() || "+-=_&%[]{}():.".contains(c)) {
                return Err(CleanParamError::ParamCharacter(c));
            }
            if c == '&' && params[i + 1..].starts_with('&') {
                return Err(CleanParamError::DoubleAmpersand);
            }
        }
        let path = rest.trim_start_matches(is_space);
        if let Some(c) = path
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || ".-/*_,;:%".contains(c)))
        {
            return Err(CleanParamError::PathCharacter(c));
        }
        Ok(CleanParam {
            params: params.split('&').filter(|p| !p.is_empty()).collect(),
            path,
            line,
        })
    }

    /// Whether the record applies to a URL's path (`/p?q`): the path
    /// starts with the record's path, `*` matching any run of characters.
    pub fn applies_to(&self, path: &str) -> bool {
        let mut segments = self.path.split('*');
        let head = segments.next().unwrap_or("");
        let Some(mut rest) = path.strip_prefix(head) else {
            return false;
        };
        for segment in segments.filter(|s| !s.is_empty()) {
            match rest.find(segment) {
                Some(at) => rest = &rest[at + segment.len()..],
                None => return false,
            }
        }
        true
    }

    /// The parameters of `url`'s query (`/p?a=1&b=2`) this record drops,
    /// in the URL's order (none when it does not apply to the path).
    pub fn dropped_from<'u>(&self, url: &'u str) -> Vec<&'u str> {
        if !self.applies_to(url) {
            return Vec::new();
        }
        query_pairs(url)
            .filter(|pair| self.params.contains(&param_name(pair)))
            .collect()
    }

    /// `url` (a path with its query) without the parameters this record
    /// drops: the address Yandex crawls in its place.
    pub fn cleaned(&self, url: &str) -> String {
        clean(url, std::slice::from_ref(self))
    }
}

/// A valid `Clean-param` value as Yandex's parser stores it (its
/// parameters, the whitespace after them, then its path as a pattern:
/// `*` as `.*`, `.` as `\.`, and `.*` at the end): what counts towards its
/// limits. `None` when the parser drops the value.
pub(crate) fn stored(value: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(value).ok()?;
    CleanParam::parse(text, 0).ok()?;
    let mut value = value.to_vec();
    if !value.contains(&b' ') {
        value.push(b' ');
    }
    let split = value.iter().position(|&b| is_space(char::from(b)))?;
    let mut out = value[..=split].to_vec();
    let path_start = value[split..]
        .iter()
        .position(|&b| !is_space(char::from(b)))
        .map_or(value.len(), |i| split + i);
    for &b in &value[path_start..] {
        match b {
            b'*' => out.extend_from_slice(b".*"),
            b'.' => out.extend_from_slice(b"\\."),
            _ => out.push(b),
        }
    }
    out.extend_from_slice(b".*");
    Some(out)
}

/// The `name=value` pairs of a URL's query, fragment left out.
fn query_pairs(url: &str) -> impl Iterator<Item = &str> {
    let url = url.split('#').next().unwrap_or("");
    url.split_once('?')
        .map_or("", |(_, query)| query)
        .split('&')
        .filter(|pair| !pair.is_empty())
}

fn param_name(pair: &str) -> &str {
    pair.split('=').next().unwrap_or(pair)
}

/// `url` without the query parameters that `records` drop from it.
pub(crate) fn clean(url: &str, records: &[CleanParam<'_>]) -> String {
    let (before_fragment, fragment) = match url.find('#') {
        Some(at) => url.split_at(at),
        None => (url, ""),
    };
    let Some((path, _)) = before_fragment.split_once('?') else {
        return url.to_owned();
    };
    let kept: Vec<&str> = query_pairs(url)
        .filter(|pair| {
            !records
                .iter()
                .any(|r| r.applies_to(url) && r.params.contains(&param_name(pair)))
        })
        .collect();
    if kept.is_empty() {
        format!("{path}{fragment}")
    } else {
        format!("{path}?{}{fragment}", kept.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_as_the_parser_reads_them() {
        fn ok(v: &str) -> Result<(Vec<&str>, &str), CleanParamError> {
            CleanParam::parse(v, 1).map(|c| (c.params, c.path))
        }
        assert_eq!(ok("ref"), Ok((vec!["ref"], "")));
        assert_eq!(ok("a&b  /x/"), Ok((vec!["a", "b"], "/x/")));
        assert_eq!(ok("s\t/forum"), Ok((vec!["s"], "/forum")));
        assert_eq!(
            ok("(a)[b]{c}:d.e=f+g%h-i_j"),
            Ok((vec!["(a)[b]{c}:d.e=f+g%h-i_j"], ""))
        );
        assert_eq!(ok(""), Err(CleanParamError::Empty));
        assert_eq!(ok("a b c"), Err(CleanParamError::PathCharacter(' ')));
        assert_eq!(ok("é"), Err(CleanParamError::ParamCharacter('é')));
        let long = "a".repeat(503);
        assert_eq!(ok(&long), Err(CleanParamError::TooLong));
        let long = "a".repeat(502);
        assert_eq!(ok(&long).map(|(p, _)| p.len()), Ok(1));
        let long = format!("a {}", "b".repeat(501));
        assert_eq!(ok(&long).map(|(_, p)| p.len()), Ok(501));
    }

    #[test]
    fn dropped_parameters() {
        let record = CleanParam::parse("sid&ref /shop/*/item", 2).unwrap();
        assert_eq!(
            record.dropped_from("/shop/a/item?sid=1&x=2&ref=3#f"),
            ["sid=1", "ref=3"]
        );
        assert!(record.dropped_from("/shop/item?sid=1").is_empty());
        assert_eq!(
            record.cleaned("/shop/a/item?sid=1&x=2#f"),
            "/shop/a/item?x=2#f"
        );
        assert_eq!(record.cleaned("/shop/a/item?sid=1"), "/shop/a/item");
        assert_eq!(record.cleaned("/shop/a/item"), "/shop/a/item");
    }
}
