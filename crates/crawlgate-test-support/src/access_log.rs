//! A synthetic access log with known truth, for the audit's tests and
//! benchmark: a combined log whose every line's crawler, identity, verdict,
//! violation, honeypot hit and Crawl-delay breach is decided here, by the
//! scenario's own tables (never by crawlgate), with the robots.txt, the
//! operators' feeds and the DNS records that make those identities true.
//!
//! ```
//! use crawlgate_test_support::access_log::Lab;
//!
//! let lab = Lab::generate(2_000, 7);
//! assert_eq!(lab.truth.len(), 2_000);
//! assert_eq!(lab.log.lines().count(), 2_000);
//! assert!(lab.truth.iter().any(|t| t.violation));
//! assert!(lab.truth.iter().any(|t| t.unreadable));
//! ```

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::net::IpAddr;

use crate::Rng;

/// The robots.txt of the scenario.
pub const ROBOTS_TXT: &str = "\
User-agent: *
Disallow: /private/
Disallow: /trap/
Crawl-delay: 10

User-agent: Googlebot
Disallow: /nogoogle/
Disallow: /trap/

User-agent: bingbot
Disallow: /private/
Disallow: /trap/
Crawl-delay: 5

User-agent: GPTBot
Disallow: /
";

/// The honeypot path.
pub const HONEYPOT: &str = "/trap/";

/// What is true of one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truth {
    /// The line cannot be read (garbage, binary, empty, cut).
    pub unreadable: bool,
    /// The client address.
    pub ip: Option<IpAddr>,
    /// The User-Agent header.
    pub user_agent: String,
    /// The URL.
    pub url: String,
    /// The crawler of the registry the agent names.
    pub crawler: Option<&'static str>,
    /// `verified`, `spoofed`, `unverifiable`, `unknown`, or `None` for an
    /// agent that names no crawler.
    pub identity: Option<&'static str>,
    /// Whether the robots.txt allows it (the crawler reading, Google's
    /// profile).
    pub allowed: Option<bool>,
    /// The deciding line, when a rule decided.
    pub rule_line: Option<u32>,
    /// A violation.
    pub violation: bool,
    /// A honeypot hit.
    pub honeypot: bool,
    /// A Crawl-delay breach.
    pub crawl_delay_breach: bool,
}

/// DNS records the scenario needs.
#[derive(Clone, Debug, Default)]
pub struct LabDns {
    /// PTR records (several for one address: a double PTR).
    pub ptr: Vec<(IpAddr, String)>,
    /// Address records.
    pub a: Vec<(String, IpAddr)>,
    /// Addresses whose reverse lookup is never answered.
    pub silent: Vec<IpAddr>,
}

/// The scenario.
#[derive(Clone, Debug)]
pub struct Lab {
    /// The robots.txt.
    pub robots_txt: &'static str,
    /// The log (combined format), lines ending with `\n`.
    pub log: String,
    /// The truth of each line, in order.
    pub truth: Vec<Truth>,
    /// The feeds: address and JSON body (the old Google address, which
    /// answers without prefixes, included).
    pub feeds: Vec<(&'static str, String)>,
    /// The DNS zone.
    pub dns: LabDns,
    /// The addresses a deny list must hold, and no other.
    pub deny: BTreeSet<IpAddr>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Who {
    Googlebot,
    Bingbot,
    GptBot,
    ChatGptUser,
    YandexBot,
    AhrefsBot,
    Baiduspider,
    Browser,
}

struct Actor {
    who: Who,
    ips: &'static [&'static str],
    identity: &'static str,
    weight: usize,
}

const GOOGLEBOT_UA: &str = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const BINGBOT_UA: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36";
const GPTBOT_UA: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const CHATGPT_USER_UA: &str = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot";
const YANDEX_UA: &str = "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)";
const AHREFS_UA: &str = "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)";
const BAIDU_UA: &str =
    "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)";
const BROWSER_UAS: [&str; 3] = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "curl/8.11.1",
];

const ACTORS: &[Actor] = &[
    // In Google's common-crawlers feed.
    Actor {
        who: Who::Googlebot,
        ips: &["66.249.64.1", "66.249.64.2", "66.249.64.3", "66.249.64.17"],
        identity: "verified",
        weight: 20,
    },
    // Not in a feed; reverse and forward DNS agree.
    Actor {
        who: Who::Googlebot,
        ips: &["66.249.90.7"],
        identity: "verified",
        weight: 4,
    },
    // Two PTR records, the second Google's.
    Actor {
        who: Who::Googlebot,
        ips: &["66.249.90.8"],
        identity: "verified",
        weight: 3,
    },
    // Forged PTR: a Google name with no address record.
    Actor {
        who: Who::Googlebot,
        ips: &["203.0.113.10"],
        identity: "spoofed",
        weight: 2,
    },
    // Forged PTR: a Google name that resolves elsewhere.
    Actor {
        who: Who::Googlebot,
        ips: &["203.0.113.13"],
        identity: "spoofed",
        weight: 2,
    },
    // Silent: the reverse lookup is never answered.
    Actor {
        who: Who::Googlebot,
        ips: &["203.0.113.11"],
        identity: "unknown",
        weight: 1,
    },
    // No PTR record at all.
    Actor {
        who: Who::Googlebot,
        ips: &["203.0.113.12", "2001:db8::12"],
        identity: "spoofed",
        weight: 2,
    },
    // In Bing's feed.
    Actor {
        who: Who::Bingbot,
        ips: &["40.77.167.1", "40.77.167.2", "40.77.167.3"],
        identity: "verified",
        weight: 6,
    },
    // Bing by DNS.
    Actor {
        who: Who::Bingbot,
        ips: &["157.55.39.9"],
        identity: "verified",
        weight: 2,
    },
    Actor {
        who: Who::GptBot,
        ips: &["20.171.206.5", "20.171.206.77"],
        identity: "verified",
        weight: 3,
    },
    Actor {
        who: Who::GptBot,
        ips: &["198.51.100.20"],
        identity: "spoofed",
        weight: 1,
    },
    Actor {
        who: Who::ChatGptUser,
        ips: &["23.98.142.180"],
        identity: "verified",
        weight: 2,
    },
    Actor {
        who: Who::YandexBot,
        ips: &["5.255.253.10"],
        identity: "verified",
        weight: 2,
    },
    Actor {
        who: Who::AhrefsBot,
        ips: &["54.36.148.1"],
        identity: "unverifiable",
        weight: 2,
    },
    // Baidu: a name in its domain without an address record: cannot tell.
    Actor {
        who: Who::Baiduspider,
        ips: &["180.76.15.5"],
        identity: "unknown",
        weight: 1,
    },
    Actor {
        who: Who::Browser,
        ips: &[
            "192.0.2.1",
            "192.0.2.2",
            "192.0.2.3",
            "192.0.2.4",
            "192.0.2.5",
            "2001:db8:1::5",
        ],
        identity: "",
        weight: 49,
    },
];

/// Whether `who` may fetch `path`, and the deciding line: the scenario's
/// table, written from [`ROBOTS_TXT`] by hand.
fn verdict(who: Who, path: &str) -> (bool, Option<u32>) {
    let under = |prefix: &str| path.starts_with(prefix);
    match who {
        Who::Googlebot if under("/nogoogle/") => (false, Some(7)),
        Who::Googlebot if under("/trap/") => (false, Some(8)),
        Who::Googlebot => (true, None),
        Who::Bingbot if under("/private/") => (false, Some(11)),
        Who::Bingbot if under("/trap/") => (false, Some(12)),
        Who::Bingbot => (true, None),
        Who::GptBot => (false, Some(16)),
        _ if under("/private/") => (false, Some(2)),
        _ if under("/trap/") => (false, Some(3)),
        _ => (true, None),
    }
}

fn crawler_of(who: Who) -> Option<&'static str> {
    match who {
        Who::Googlebot => Some("Googlebot"),
        Who::Bingbot => Some("Bingbot"),
        Who::GptBot => Some("GPTBot"),
        Who::ChatGptUser => Some("ChatGPT-User"),
        Who::YandexBot => Some("YandexBot"),
        Who::AhrefsBot => Some("AhrefsBot"),
        Who::Baiduspider => Some("Baiduspider"),
        Who::Browser => None,
    }
}

/// Whether its operator says it obeys robots.txt and it crawls on its
/// own (user-triggered fetchers never violate).
fn obeys(who: Who) -> bool {
    !matches!(who, Who::ChatGptUser | Who::Browser)
}

/// The Crawl-delay it waits, in seconds, when it reads one.
fn crawl_delay(who: Who) -> Option<i64> {
    match who {
        Who::Bingbot => Some(5),
        Who::AhrefsBot => Some(10),
        _ => None,
    }
}

fn days_to_civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `27/Nov/2026:10:00:00 +0000`.
pub fn clf_time(unix: i64) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, m, d) = days_to_civil(unix.div_euclid(86_400));
    let s = unix.rem_euclid(86_400);
    format!(
        "{d:02}/{}/{y}:{:02}:{:02}:{:02} +0000",
        MONTHS[m as usize - 1],
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// 2026-11-20T00:00:00Z.
pub const START: i64 = 1_795_132_800;

fn feed(prefixes: &[&str]) -> String {
    let list: Vec<String> = prefixes
        .iter()
        .map(|p| {
            let key = if p.contains(':') {
                "ipv6Prefix"
            } else {
                "ipv4Prefix"
            };
            format!("{{\"{key}\":\"{p}\"}}")
        })
        .collect();
    format!(
        "{{\"creationTime\":\"2026-11-27T00:00:00.000000\",\"prefixes\":[{}]}}",
        list.join(",")
    )
}

impl Lab {
    /// A log of `lines` lines (two a second from [`START`]), seeded.
    pub fn generate(lines: usize, seed: u64) -> Lab {
        let mut rng = Rng::new(seed);
        let total: usize = ACTORS.iter().map(|a| a.weight).sum();
        let mut log = String::with_capacity(lines * 230);
        let mut truth = Vec::with_capacity(lines);
        let mut last_fetch: [Option<i64>; 2] = [None, None];
        let mut deny = BTreeSet::new();
        let mut verified_ips = BTreeSet::new();
        for i in 0..lines {
            let time = START + (i / 2) as i64;
            // Now and then a line no format reads.
            if i % 997 == 500 {
                let junk = match (i / 997) % 4 {
                    0 => "garbage that is no log line".to_owned(),
                    1 => "\u{1}\u{2}binary\u{7f}".to_owned(),
                    2 => String::new(),
                    _ => format!("192.0.2.9 - - [{}] \"GET /cut", clf_time(time)),
                };
                log.push_str(&junk);
                log.push('\n');
                truth.push(Truth {
                    unreadable: true,
                    ip: None,
                    user_agent: String::new(),
                    url: String::new(),
                    crawler: None,
                    identity: None,
                    allowed: None,
                    rule_line: None,
                    violation: false,
                    honeypot: false,
                    crawl_delay_breach: false,
                });
                continue;
            }
            let mut pick = rng.below(total);
            let actor = ACTORS
                .iter()
                .find(|a| {
                    if pick < a.weight {
                        true
                    } else {
                        pick -= a.weight;
                        false
                    }
                })
                .expect("an actor");
            let ip: IpAddr = rng.pick(actor.ips).parse().expect("an address");
            let ua = match actor.who {
                Who::Googlebot => GOOGLEBOT_UA,
                Who::Bingbot => BINGBOT_UA,
                Who::GptBot => GPTBOT_UA,
                Who::ChatGptUser => CHATGPT_USER_UA,
                Who::YandexBot => YANDEX_UA,
                Who::AhrefsBot => AHREFS_UA,
                Who::Baiduspider => BAIDU_UA,
                Who::Browser => rng.pick(&BROWSER_UAS),
            };
            let url = match rng.below(100) {
                0..=3 => "/robots.txt".to_owned(),
                4..=11 => format!("/private/doc{}.html", rng.below(50)),
                12..=17 => format!("/nogoogle/item{}?ref={}", rng.below(30), rng.below(5)),
                18..=20 => format!("{HONEYPOT}{}", rng.below(9)),
                _ => format!("/page/{}?q={}", rng.below(5_000), rng.below(100)),
            };
            let path = url.split('?').next().unwrap_or(&url);
            let (allowed, rule_line) = verdict(actor.who, path);
            let spoofed = actor.identity == "spoofed";
            let crawler = crawler_of(actor.who);
            let violation = obeys(actor.who) && !allowed && !spoofed && path != "/robots.txt";
            let honeypot = path.starts_with(HONEYPOT);
            let mut breach = false;
            if let (Some(delay), false) = (crawl_delay(actor.who), spoofed) {
                let slot = usize::from(actor.who == Who::AhrefsBot);
                if let Some(last) = last_fetch[slot] {
                    breach = time - last < delay;
                }
                last_fetch[slot] = Some(last_fetch[slot].map_or(time, |l| l.max(time)));
            }
            if spoofed {
                deny.insert(ip);
            }
            if crawler.is_none() && honeypot {
                deny.insert(ip);
            }
            if actor.identity == "verified" {
                verified_ips.insert(ip);
            }
            let status = if allowed { 200 } else { 403 };
            let _ = writeln!(
                log,
                "{ip} - - [{}] \"GET {url} HTTP/1.1\" {status} {} \"-\" \"{ua}\"",
                clf_time(time),
                rng.below(40_000) + 200
            );
            truth.push(Truth {
                unreadable: false,
                ip: Some(ip),
                user_agent: ua.to_owned(),
                url,
                crawler,
                identity: crawler.map(|_| actor.identity),
                allowed: Some(allowed),
                rule_line,
                violation,
                honeypot,
                crawl_delay_breach: breach,
            });
        }
        for ip in &verified_ips {
            deny.remove(ip);
        }
        let ip = |s: &str| -> IpAddr { s.parse().expect("an address") };
        let dns = LabDns {
            ptr: vec![
                (ip("66.249.90.7"), "crawl-66-249-90-7.googlebot.com".into()),
                (ip("66.249.90.8"), "cache-7.example.net".into()),
                (ip("66.249.90.8"), "crawl-66-249-90-8.googlebot.com".into()),
                (
                    ip("203.0.113.10"),
                    "crawl-203-0-113-10.googlebot.com".into(),
                ),
                (ip("203.0.113.13"), "crawl-66-249-66-1.googlebot.com".into()),
                (
                    ip("157.55.39.9"),
                    "msnbot-157-55-39-9.search.msn.com".into(),
                ),
                (ip("5.255.253.10"), "5-255-253-10.spider.yandex.com".into()),
                (
                    ip("180.76.15.5"),
                    "baiduspider-180-76-15-5.crawl.baidu.com".into(),
                ),
                (ip("192.0.2.1"), "host-1.example.org".into()),
            ],
            a: vec![
                ("crawl-66-249-90-7.googlebot.com".into(), ip("66.249.90.7")),
                ("crawl-66-249-90-8.googlebot.com".into(), ip("66.249.90.8")),
                ("crawl-66-249-66-1.googlebot.com".into(), ip("66.249.66.1")),
                (
                    "msnbot-157-55-39-9.search.msn.com".into(),
                    ip("157.55.39.9"),
                ),
                ("5-255-253-10.spider.yandex.com".into(), ip("5.255.253.10")),
            ],
            silent: vec![ip("203.0.113.11")],
        };
        let base = "https://developers.google.com/static/crawling/ipranges/";
        let _ = base;
        let feeds = vec![
            ("https://developers.google.com/static/crawling/ipranges/common-crawlers.json", feed(&["66.249.64.0/27", "2001:4860:4801:10::/64"])),
            ("https://developers.google.com/static/crawling/ipranges/special-crawlers.json", feed(&["66.249.87.0/24"])),
            ("https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers.json", feed(&["34.96.162.32/28"])),
            ("https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json", feed(&["66.249.80.0/24"])),
            // The old address answers without prefixes.
            ("https://developers.google.com/static/search/apis/ipranges/googlebot.json", "{\"creationTime\":\"2026-04-07T00:00:00.000000\"}".to_owned()),
            ("https://www.bing.com/toolbox/bingbot.json", feed(&["40.77.167.0/24", "207.46.13.0/24"])),
            ("https://openai.com/gptbot.json", feed(&["20.171.206.0/24", "52.230.152.0/24"])),
            ("https://openai.com/searchbot.json", feed(&["20.42.10.176/28"])),
            ("https://openai.com/chatgpt-user.json", feed(&["23.98.142.176/28"])),
            ("https://claude.com/crawling/bots.json", feed(&["160.79.104.0/23"])),
            ("https://search.developer.apple.com/applebot.json", feed(&["17.241.208.160/27"])),
            ("https://index.commoncrawl.org/ccbot.json", feed(&["18.97.9.168/29"])),
            ("https://www.perplexity.com/perplexitybot.json", feed(&["107.20.236.150/32"])),
            ("https://www.perplexity.com/perplexity-user.json", feed(&["44.208.221.197/32"])),
            ("https://duckduckgo.com/duckduckbot.json", feed(&["20.191.45.212/32"])),
            ("https://duckduckgo.com/duckassistbot.json", feed(&["4.182.131.108/32"])),
            ("https://mistral.ai/mistralai-user-ips.json", feed(&["3.248.156.48/28"])),
        ];
        Lab {
            robots_txt: ROBOTS_TXT,
            log,
            truth,
            feeds,
            dns,
            deny,
        }
    }

    /// Writes the feeds as a mirror: `dir/<host>/<path>` of each address.
    pub fn write_mirror(&self, dir: &std::path::Path) -> std::io::Result<()> {
        for (url, body) in &self.feeds {
            let relative = url.strip_prefix("https://").expect("an https feed");
            let path = dir.join(relative);
            std::fs::create_dir_all(path.parent().expect("a folder"))?;
            std::fs::write(path, body)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_truth() {
        assert_eq!(clf_time(START), "20/Nov/2026:00:00:00 +0000");
        let lab = Lab::generate(5_000, 1);
        assert!(lab.truth.iter().any(|t| t.crawl_delay_breach));
        assert!(lab
            .truth
            .iter()
            .any(|t| t.crawler == Some("Bingbot") && !t.crawl_delay_breach));
        assert!(!lab
            .truth
            .iter()
            .any(|t| t.crawler == Some("Googlebot") && t.crawl_delay_breach));
        assert!(lab.deny.contains(&"203.0.113.10".parse().unwrap()));
        assert!(!lab.deny.contains(&"66.249.64.1".parse().unwrap()));
        assert!(lab
            .deny
            .iter()
            .any(|ip| ip.to_string().starts_with("192.0.2.")));
    }
}
