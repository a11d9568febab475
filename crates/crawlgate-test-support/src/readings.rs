//! Two versions of a robots.txt that Bing's, Yandex's and Google's
//! readings answer differently, and requests of bingbot, YandexBot and
//! Googlebot that tell the readings apart: what the audit's tests use to
//! check that each crawler is judged by the reading `crawlgate check`
//! gives it.
//!
//! ```
//! use crawlgate_test_support::readings::{combined_line, AGENTS, EARLIER, LATER, URLS};
//! assert!(EARLIER.contains("Crawl-delay") && LATER.contains("Disallow /no-colon"));
//! assert_eq!(AGENTS.len() * URLS.len(), 20);
//! let line = combined_line("192.0.2.1", "27/Nov/2026:10:00:00 +0000", "/", AGENTS[0]);
//! assert!(line.starts_with("192.0.2.1 - - [27/Nov/2026:10:00:00 +0000] \"GET / HTTP/1.1\""));
//! ```

/// The first version. Bing ends bingbot's group at its Crawl-delay (line
/// 2), so `Disallow: /shared` binds bingbot only in Google's reading;
/// Yandex's parser skips `Disallow /no-colon` (no colon), Google's reads
/// it.
pub const EARLIER: &str = "\
User-agent: bingbot
Crawl-delay: 1
User-agent: *
Crawl-delay: 30
Disallow: /shared
Disallow /no-colon
";

/// The second version: the same kinds of difference on other paths.
pub const LATER: &str = "\
User-agent: *
Disallow: /later
Disallow /no-colon

User-agent: bingbot
Crawl-delay: 2
User-agent: Googlebot
Disallow: /shared
Disallow: /later
";

/// bingbot, YandexBot, Googlebot (whole User-Agent headers), and an agent
/// no registry entry names.
pub const AGENTS: [&str; 4] = [
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "mybot/1.0",
];

/// Paths the readings answer differently, and two they agree on.
pub const URLS: [&str; 5] = ["/", "/shared/page", "/no-colon", "/later/x", "/robots.txt"];

/// A combined log line for a GET of `url` by `agent` from `ip` at `time`
/// (`27/Nov/2026:10:00:00 +0000`).
pub fn combined_line(ip: &str, time: &str, url: &str, agent: &str) -> String {
    format!("{ip} - - [{time}] \"GET {url} HTTP/1.1\" 200 512 \"-\" \"{agent}\"")
}
