//! Product tokens: the names crawlers go by in robots.txt.
//!
//! In robots.txt only the leading run of `[A-Za-z_-]` of a user-agent value
//! counts (`Googlebot/2.1` and `Googlebot Image` both name `googlebot`). The
//! crawler's own name is compared as given, case-insensitively, and should
//! itself be a product token: use [`product_token`] to get one from a full
//! HTTP `User-Agent` header.

use std::cmp::Ordering;

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'-' || b == b'_'
}

/// Length of the product token at the start of a user-agent value.
pub(crate) fn token_len(value: &[u8]) -> usize {
    value.iter().take_while(|&&b| is_token_byte(b)).count()
}

/// Compares two byte strings ASCII-case-insensitively.
pub(crate) fn cmp_ignore_case(a: &[u8], b: &[u8]) -> Ordering {
    a.iter()
        .map(u8::to_ascii_lowercase)
        .cmp(b.iter().map(u8::to_ascii_lowercase))
}

/// Whether `name` is a valid product token to obey: non-empty and made only
/// of `[A-Za-z_-]` (RFC 9309 §2.2.1).
///
/// ```
/// use crawlgate::is_product_token;
/// assert!(is_product_token("Googlebot-News"));
/// assert!(!is_product_token("Googlebot/2.1"));
/// assert!(!is_product_token("Foo Bar"));
/// assert!(!is_product_token(""));
/// ```
pub fn is_product_token(name: &str) -> bool {
    !name.is_empty() && token_len(name.as_bytes()) == name.len()
}

/// Words in User-Agent headers that are not the crawler's name.
const NOT_A_CRAWLER: &[&str] = &[
    "mozilla",
    "applewebkit",
    "khtml",
    "like",
    "gecko",
    "chrome",
    "chromium",
    "safari",
    "version",
    "mobile",
    "compatible",
    "windows",
    "win",
    "linux",
    "macintosh",
    "intel",
    "mac",
    "x",
    "u",
    "android",
    "iphone",
    "ipad",
    "cpu",
    "os",
    "nt",
    "wow",
    "ubuntu",
    "firefox",
    "edge",
    "edg",
    "opera",
    "msie",
    "trident",
    "rv",
    "en",
    "us",
    "http",
    "https",
    "www",
    "build",
    "headlesschrome",
    "yabrowser",
    "samsungbrowser",
    "crios",
    "fxios",
    "arm",
    "aarch",
];

const CRAWLER_HINTS: &[&str] = &[
    "bot", "crawl", "spider", "slurp", "fetch", "archiver", "scrap", "index", "agent",
];

/// Extracts the crawler's product token from a full HTTP `User-Agent`
/// header, for matching against robots.txt.
///
/// Products (`name/version`) and the words of comments (`(…; name/version;
/// …)`) are candidates; browser and platform words (`Mozilla`, `AppleWebKit`,
/// `compatible`…) are skipped; a name that looks like a crawler's (`…bot`,
/// `…spider`, `…crawler`) wins over one that does not. `None` only when the
/// header names nothing at all.
///
/// ```
/// use crawlgate::product_token;
/// assert_eq!(
///     product_token("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
///     Some("Googlebot")
/// );
/// assert_eq!(product_token("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0 Safari/537.36"), Some("bingbot"));
/// assert_eq!(product_token("curl/8.4.0"), Some("curl"));
/// assert_eq!(product_token("   "), None);
/// ```
pub fn product_token(user_agent_header: &str) -> Option<&str> {
    let mut first_any = None;
    let mut first_plain = None;
    for candidate in candidates(user_agent_header) {
        let lower = candidate.to_ascii_lowercase();
        first_any.get_or_insert(candidate);
        if NOT_A_CRAWLER.contains(&lower.as_str()) {
            continue;
        }
        if CRAWLER_HINTS.iter().any(|hint| lower.contains(hint)) {
            return Some(candidate);
        }
        first_plain.get_or_insert(candidate);
    }
    first_plain.or(first_any)
}

/// The product names of a User-Agent header that may be a crawler's, in
/// order: [`candidates`] without browser and platform words.
pub(crate) fn user_agent_products(header: &str) -> impl Iterator<Item = &str> {
    candidates(header).filter(|c| !NOT_A_CRAWLER.iter().any(|w| w.eq_ignore_ascii_case(c)))
}

/// Product names in a User-Agent header, in order: the part before `/` of
/// each whitespace-, `;`- or `,`-separated word, when it is a whole product
/// token.
fn candidates(header: &str) -> impl Iterator<Item = &str> {
    header
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | ',' | '(' | ')'))
        .filter_map(|word| {
            let name = word.split('/').next().unwrap_or("");
            is_product_token(name).then_some(name)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_tokens_of_real_headers() {
        let cases = [
            ("Googlebot/2.1 (+http://www.google.com/bot.html)", "Googlebot"),
            ("Googlebot-Image/1.0", "Googlebot-Image"),
            ("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
            ("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot", "ChatGPT-User"),
            ("Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider"),
            ("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"),
            ("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"),
            ("python-requests/2.31.0", "python-requests"),
            ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", "Mozilla"),
        ];
        for (header, token) in cases {
            assert_eq!(product_token(header), Some(token), "{header}");
        }
        assert_eq!(product_token(""), None);
        assert_eq!(product_token("1.0 (+++)"), None);
    }

    #[test]
    fn tokens_compare_case_insensitively() {
        assert_eq!(cmp_ignore_case(b"GoogleBot", b"googlebot"), Ordering::Equal);
        assert_eq!(cmp_ignore_case(b"a", b"B"), Ordering::Less);
        assert_eq!(token_len(b"Googlebot/2.1"), 9);
        assert_eq!(token_len(b"*"), 0);
    }
}
