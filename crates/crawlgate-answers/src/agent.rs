//! What every front end says about the crawler name it is given, beside
//! its answer: a name that no group can name (not a product token, and not
//! a crawler the registry knows) gets a warning.

use std::borrow::Cow;

use crawlgate::Reading;

/// Why a crawler name given as is will not find a group of its own (RFC
/// 9309 §2.2.1), or `None` for a product token, for `*` (which asks for
/// the `*` group) and, in the crawler reading, for a name the crawler
/// registry knows (`ChatGPT Agent`, or a full User-Agent header naming a
/// crawler it knows). The command line prints it on standard error; the
/// service puts it in the answer's `warning`.
///
/// ```
/// use crawlgate::Reading;
/// use crawlgate_answers::agent_warning;
///
/// assert_eq!(agent_warning("Googlebot", Reading::OneToken), None);
/// assert_eq!(agent_warning("*", Reading::OneToken), None);
/// assert!(agent_warning("", Reading::Crawler).unwrap().contains("empty"));
/// // A full User-Agent header of a crawler the registry knows.
/// let header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/// assert_eq!(agent_warning(header, Reading::Crawler), None);
/// let warning = agent_warning("FooBot/1.0 (+http://x)", Reading::Crawler).unwrap();
/// assert!(warning.contains("not a product token"), "{warning}");
/// assert!(warning.ends_with("its product token is `FooBot`"), "{warning}");
/// ```
pub fn agent_warning(agent: &str, reading: Reading) -> Option<String> {
    if agent.trim().is_empty() {
        return Some(
            "the crawler's name is empty, so it matches no group of its own, only `*`".to_owned(),
        );
    }
    // `*` asks what the `*` group says, and that is the group it gets.
    if crawlgate::is_product_token(agent) || agent == "*" {
        return None;
    }
    if reading == Reading::Crawler && crawlgate::registry::identify(agent).is_some() {
        return None;
    }
    let hint: Cow<'_, str> = match crawlgate::product_token(agent) {
        Some(token) => format!("; its product token is `{token}`").into(),
        None => "; a product token is made of letters, `-` and `_` only".into(),
    };
    Some(format!(
        "`{agent}` is not a product token, so it matches no group of its own, only `*`: \
         robots.txt names crawlers by product token (`Googlebot`, not `Googlebot/2.1`) \
         and a crawler's name is compared as given (RFC 9309 §2.2.1){hint}"
    ))
}
