//! The robots.txt in force for a request, and the one place a request is
//! judged: [`Judge`], which gives exactly the verdict `crawlgate check
//! --agent <the request's User-Agent> <its URL>` gives (the crawler
//! reading: a crawler of the registry by its operator's rules, read by its
//! operator's parser's profile unless one is named, any other agent as one
//! product token), from rules compiled once per crawler.
//!
//! Where the robots.txt comes from: one file or fetched URL for every
//! request ([`Site::single`]); dated versions, each request judged against
//! the version in force at its time ([`Site::versions`]); or one of either
//! per host ([`RobotsInForce::PerHost`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crawlgate::{AgentView, Profile, Reading, Reason, Who};
use crawlgate_answers::{Basis, Robots, RobotsSource, Rules};

use crate::time::{format_rfc3339, parse_epoch, parse_iso8601, Millis};

/// How long after a change of robots.txt a crawler is given to notice it:
/// a fetch the new version disallows but the previous allowed, within
/// this time, is reported apart, not as a violation (Google caches
/// robots.txt for up to 24 hours).
pub const GRACE: Millis = 24 * 3600 * 1000;

/// The verdict on one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judged {
    /// May the crawler fetch the URL?
    pub allowed: bool,
    /// What decided.
    pub basis: Basis,
    /// The line of the deciding rule, when a rule decided.
    pub rule_line: Option<u32>,
}

fn is_robots_txt(url: &str) -> bool {
    crawlgate::path_of(url) == "/robots.txt"
}

enum How<'r> {
    View(AgentView<'r>),
    Fixed(Judged),
    /// A fetched file: `/robots.txt` itself allowed, the rest by the view.
    FetchedView(AgentView<'r>),
    /// A reading under a profile the source keeps no slot for (one made
    /// by hand, not one of `Profile::ALL`): judged afresh on every call.
    Owned(Box<Robots>, String),
}

/// The verdicts of one robots.txt for one claimed agent: what
/// [`Robots::decide`] gives under the profile `crawlgate check` reads the
/// file by for that agent, with the agent's view built once.
///
/// ```
/// use crawlgate::{Profile, Reading, Who};
/// use crawlgate_audit::robots::Judge;
/// use crawlgate_answers::RobotsSource;
///
/// // Bing reads a Crawl-delay as the end of bingbot's group; Google does not.
/// let source = RobotsSource::from_bytes(
///     b"User-agent: bingbot\nCrawl-delay: 1\nUser-agent: *\nDisallow: /private\n".to_vec(),
/// );
/// let ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
/// // No profile named: bingbot is read by Bing's rules, as `check` reads it.
/// let judged = Judge::new(&source, ua, None).judge("/private/page");
/// assert!(judged.allowed);
/// let profile = Reading::Crawler.profile_for(ua, None);
/// let check = source.read(profile).decide(Who::crawler(ua), "/private/page");
/// assert_eq!((judged.allowed, judged.basis, judged.rule_line), (check.allowed, check.basis, check.line()));
/// // A named profile reads it for every crawler.
/// let google = Judge::new(&source, ua, Some(Profile::GOOGLE)).judge("/private/page");
/// assert_eq!((google.allowed, google.rule_line), (false, Some(4)));
/// ```
pub struct Judge<'r> {
    how: How<'r>,
}

impl<'r> Judge<'r> {
    /// The judge of `agent` (a crawler's name or a whole User-Agent
    /// header) under `source`, read by `named` when the user named a
    /// profile, else by the agent's operator's
    /// ([`Reading::profile_for`], as every front end chooses).
    pub fn new(source: &'r RobotsSource, agent: &str, named: Option<Profile>) -> Judge<'r> {
        match source.read(Reading::Crawler.profile_for(agent, named)) {
            Cow::Borrowed(robots) => Judge::over(robots, agent),
            Cow::Owned(robots) => Judge {
                how: How::Owned(Box::new(robots), agent.to_owned()),
            },
        }
    }

    /// The judge of `agent` under a file already read by a profile.
    ///
    /// ```
    /// use crawlgate::{RobotsTxt, Who};
    /// use crawlgate_audit::robots::Judge;
    /// use crawlgate_answers::Robots;
    ///
    /// let robots = Robots::local(RobotsTxt::parse(b"User-agent: Googlebot\nDisallow: /private\n"));
    /// let ua = "Mozilla/5.0 (compatible; Googlebot-Image/1.0)";
    /// let judged = Judge::over(&robots, ua).judge("/private/cat.jpg");
    /// assert_eq!((judged.allowed, judged.rule_line), (false, Some(2)));
    /// let check = robots.decide(Who::crawler(ua), "/private/cat.jpg");
    /// assert_eq!((judged.allowed, judged.basis, judged.rule_line), (check.allowed, check.basis, check.line()));
    /// ```
    pub fn over(robots: &'r Robots, agent: &str) -> Judge<'r> {
        let how = match robots {
            Robots::Local(compiled) => How::View(compiled.view(Who::crawler(agent))),
            Robots::Fetched(outcome) => {
                let ignores =
                    crawlgate::registry::identify(agent).is_some_and(|c| c.ignores_robots_txt());
                match &outcome.rules {
                    Rules::Conditional(copy) if !ignores => {
                        How::FetchedView(copy.compiled().view(Who::crawler(agent)))
                    }
                    Rules::Conditional(copy) => {
                        How::View(copy.compiled().view(Who::crawler(agent)))
                    }
                    _ if ignores => How::Fixed(Judged {
                        allowed: true,
                        basis: Basis::Rules(Reason::IgnoresRobotsTxt),
                        rule_line: None,
                    }),
                    Rules::FullAllow => How::Fixed(Judged {
                        allowed: true,
                        basis: Basis::FullAllow,
                        rule_line: None,
                    }),
                    Rules::FullDisallow => How::Fixed(Judged {
                        allowed: false,
                        basis: Basis::FullDisallow,
                        rule_line: None,
                    }),
                }
            }
        };
        Judge { how }
    }

    /// The verdict on `url` (a path with its query, or an absolute URL).
    pub fn judge(&self, url: &str) -> Judged {
        let view = match &self.how {
            How::Fixed(judged) if judged.basis == Basis::FullDisallow && is_robots_txt(url) => {
                return robots_txt_itself()
            }
            How::Fixed(judged) if judged.basis == Basis::FullAllow && is_robots_txt(url) => {
                return robots_txt_itself()
            }
            How::Fixed(judged) => return *judged,
            How::FetchedView(_) if is_robots_txt(url) => return robots_txt_itself(),
            How::View(view) | How::FetchedView(view) => view,
            How::Owned(robots, agent) => return Judge::over(robots, agent).judge(url),
        };
        let verdict = view.decide(url);
        Judged {
            allowed: verdict.is_allowed(),
            basis: Basis::Rules(verdict.reason()),
            rule_line: verdict.rule().map(|r| r.line()),
        }
    }

    /// The `Crawl-delay` the file asks of this agent (its own groups, or
    /// `*`'s where its reading says so), in seconds, with its line.
    pub fn crawl_delay(&self) -> Option<(f64, u32)> {
        match &self.how {
            How::View(view) | How::FetchedView(view) => {
                view.crawl_delay().map(|d| (d.seconds, d.line))
            }
            How::Fixed(_) => None,
            How::Owned(robots, agent) => Judge::over(robots, agent).crawl_delay(),
        }
    }
}

fn robots_txt_itself() -> Judged {
    Judged {
        allowed: true,
        basis: Basis::Rules(Reason::RobotsTxt),
        rule_line: None,
    }
}

/// One version of a site's robots.txt.
#[derive(Debug)]
pub struct Version {
    /// When it came into force; `None` for a file with no date (in force
    /// for every request).
    pub since: Option<Millis>,
    /// Where it came from (a file name, a URL, a service version).
    pub label: String,
    /// The file, or the fetch outcome: read under the profile each
    /// crawler's judge asks for (once per profile).
    pub robots: RobotsSource,
}

/// A site's robots.txt: one version, or dated versions in time order.
#[derive(Debug)]
pub struct Site {
    versions: Vec<Version>,
}

/// Which version judges a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InForce {
    /// Its index in the site's versions.
    pub index: usize,
    /// Whether it came into force less than [`GRACE`] before the request
    /// (and there was an earlier version).
    pub recent_change: bool,
}

impl Site {
    /// One robots.txt for every request.
    pub fn single(label: impl Into<String>, robots: RobotsSource) -> Site {
        Site {
            versions: vec![Version {
                since: None,
                label: label.into(),
                robots,
            }],
        }
    }

    /// Dated versions (sorted here by date).
    pub fn versions(mut versions: Vec<Version>) -> Site {
        versions.sort_by_key(|v| v.since);
        Site { versions }
    }

    /// Every version, oldest first.
    pub fn all(&self) -> &[Version] {
        &self.versions
    }

    /// The version in force at `time`: the last one that came into force
    /// at or before it. Before the first dated version nothing is in force
    /// (`None`); without a time, the newest version is.
    pub fn at(&self, time: Option<Millis>) -> Option<InForce> {
        let Some(time) = time else {
            return (!self.versions.is_empty()).then(|| InForce {
                index: self.versions.len() - 1,
                recent_change: false,
            });
        };
        let after = self
            .versions
            .partition_point(|v| v.since.is_none_or(|since| since <= time));
        let index = after.checked_sub(1)?;
        let recent_change = index > 0
            && self.versions[index]
                .since
                .is_some_and(|since| time - since < GRACE);
        Some(InForce {
            index,
            recent_change,
        })
    }
}

/// Where the robots.txt for each request comes from.
#[derive(Debug)]
pub enum RobotsInForce {
    /// One site's (for every request).
    One(Site),
    /// One per host, by the request's host field (lowercased, port left
    /// out when no entry has it).
    PerHost(HashMap<String, Site>),
}

impl RobotsInForce {
    /// The site a request to `host` is judged by.
    pub fn site(&self, host: Option<&str>) -> Option<&Site> {
        match self {
            RobotsInForce::One(site) => Some(site),
            RobotsInForce::PerHost(sites) => {
                let host = host?.trim().trim_end_matches('.').to_ascii_lowercase();
                sites.get(&host).or_else(|| {
                    let bare = host
                        .rsplit_once(':')
                        .map(|(h, _)| h)
                        .filter(|h| !h.ends_with(']'))?;
                    sites.get(bare)
                })
            }
        }
    }

    /// Every site with its name (`None` for the one site).
    pub fn sites(&self) -> Vec<(Option<&str>, &Site)> {
        match self {
            RobotsInForce::One(site) => vec![(None, site)],
            RobotsInForce::PerHost(sites) => {
                let mut all: Vec<_> = sites.iter().map(|(h, s)| (Some(h.as_str()), s)).collect();
                all.sort_by_key(|(h, _)| *h);
                all
            }
        }
    }
}

/// Why robots.txt files could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RobotsError {
    /// A file or folder could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A version's file name is not a time.
    #[error("{path}: a version's name is its time (2026-11-27T10:00:00Z, 2026-11-27T10-00-00Z, 20261127T100000Z, 2026-11-27 or Unix seconds), not `{name}`")]
    BadVersionName {
        /// The file.
        path: PathBuf,
        /// Its name.
        name: String,
    },
    /// A folder holds nothing to read.
    #[error("{path}: no robots.txt in it")]
    Empty {
        /// The folder.
        path: PathBuf,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> RobotsError + '_ {
    move |source| RobotsError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Reads a robots.txt file (its first [`crawlgate::MAX_BYTES`] are what
/// crawlers read; the rest is not read), to be read under each crawler's
/// profile.
pub fn read_file(path: &Path) -> Result<RobotsSource, RobotsError> {
    use std::io::Read as _;
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    let mut bytes = Vec::new();
    file.take(crawlgate::MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    Ok(RobotsSource::from_bytes(bytes))
}

/// The time a version's file name gives: `2026-11-27T10:00:00Z`,
/// `2026-11-27T10-00-00Z` (no colons, for file systems that refuse them),
/// `20261127T100000Z`, `2026-11-27`, `20261127`, or Unix seconds; an
/// extension (`.txt`) is left out.
///
/// ```
/// use crawlgate_audit::robots::version_time;
/// let t = version_time("2026-11-27T10:00:00Z.txt").unwrap();
/// assert_eq!(version_time("2026-11-27T10-00-00Z"), Some(t));
/// assert_eq!(version_time("20261127T100000Z.txt"), Some(t));
/// assert_eq!(version_time("1795773600"), Some(t));
/// assert_eq!(version_time("2026-11-27"), Some(t - 10 * 3_600_000));
/// assert_eq!(version_time("robots.txt"), None);
/// ```
pub fn version_time(name: &str) -> Option<Millis> {
    let stem = name
        .strip_suffix(".txt")
        .or_else(|| name.strip_suffix(".robots"))
        .unwrap_or(name);
    if let Some(t) = parse_iso8601(stem) {
        return Some(t);
    }
    let b = stem.as_bytes();
    // 2026-11-27T10-00-00Z
    if b.len() >= 19 && b[10] == b'T' && b[13] == b'-' && b[16] == b'-' {
        let fixed = format!("{}:{}:{}", &stem[..13], &stem[14..16], &stem[17..]);
        return parse_iso8601(&fixed);
    }
    // 20261127T100000Z, 20261127
    if b.len() >= 8 && b[..8].iter().all(u8::is_ascii_digit) && (b.len() == 8 || b[8] == b'T') {
        let date = format!("{}-{}-{}", &stem[..4], &stem[4..6], &stem[6..8]);
        if b.len() == 8 {
            return parse_iso8601(&format!("{date}T00:00:00Z"));
        }
        let time = &stem[9..];
        if time.len() >= 6 && time.as_bytes()[..6].iter().all(u8::is_ascii_digit) {
            return parse_iso8601(&format!(
                "{date}T{}:{}:{}{}",
                &time[..2],
                &time[2..4],
                &time[4..6],
                &time[6..]
            ));
        }
        return None;
    }
    if b.len() == 10 && b[4] == b'-' && b[7] == b'-' {
        return parse_iso8601(&format!("{stem}T00:00:00Z"));
    }
    if (9..=11).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) {
        return parse_epoch(stem);
    }
    None
}

/// Reads a folder of dated versions (each file named by its time).
pub fn read_versions(dir: &Path) -> Result<Site, RobotsError> {
    let mut versions = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(io_error(dir))?
        .collect::<Result<_, _>>()
        .map_err(io_error(dir))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let since = version_time(&name).ok_or_else(|| RobotsError::BadVersionName {
            path: path.clone(),
            name: name.clone(),
        })?;
        versions.push(Version {
            since: Some(since),
            label: format!("{} (since {})", path.display(), format_rfc3339(since)),
            robots: read_file(&path)?,
        });
    }
    if versions.is_empty() {
        return Err(RobotsError::Empty {
            path: dir.to_owned(),
        });
    }
    Ok(Site::versions(versions))
}

/// Reads a folder of one robots.txt per host: `DIR/<host>` or
/// `DIR/<host>.txt` (a file), or `DIR/<host>/` (a folder of dated
/// versions).
pub fn read_per_host(dir: &Path) -> Result<RobotsInForce, RobotsError> {
    let mut sites = HashMap::new();
    for entry in std::fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let host = name
            .strip_suffix(".txt")
            .unwrap_or(&name)
            .to_ascii_lowercase();
        let site = if path.is_dir() {
            read_versions(&path)?
        } else {
            Site::single(path.display().to_string(), read_file(&path)?)
        };
        sites.insert(host, site);
    }
    if sites.is_empty() {
        return Err(RobotsError::Empty {
            path: dir.to_owned(),
        });
    }
    Ok(RobotsInForce::PerHost(sites))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::RobotsTxt;
    use crawlgate_answers::{FetchPolicy, FetchResult, HttpResponse};
    use std::time::SystemTime;

    const FILE: &[u8] = b"User-agent: *\nDisallow: /private\nCrawl-delay: 5\n\nUser-agent: Googlebot\nDisallow: /nogoogle\nAllow: /\n\nUser-agent: msnbot\nDisallow: /nobing\n";

    fn outcome(status: u16, body: &[u8]) -> crawlgate_answers::Outcome {
        let result = FetchResult::Response(HttpResponse::new(status).with_body(body.to_vec()));
        FetchPolicy::default()
            .apply(&result, None, SystemTime::now())
            .0
    }

    fn fetched(status: u16, body: &[u8]) -> Robots {
        Robots::fetched(outcome(status, body))
    }

    /// The judge gives `Robots::decide_for_crawler`'s verdict (what `check`
    /// prints) for every kind of agent, URL and source.
    #[test]
    fn judges_as_check_does() {
        let agents = [
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Googlebot-Image/1.0",
            "Mozilla/5.0 (compatible; bingbot/2.0)",
            "AdsBot-Google",
            "Perplexity-User/1.0",
            "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0",
            "mybot",
            "msnbot",
            "",
        ];
        let urls = [
            "/",
            "/private/x",
            "/nogoogle",
            "/nobing",
            "/robots.txt",
            "https://example.com/private?q",
            "/robots.txt?x",
        ];
        let sources = [
            Robots::local(RobotsTxt::parse(FILE)),
            Robots::local(RobotsTxt::parse_with(FILE, Profile::RFC9309)),
            Robots::local(RobotsTxt::parse_with(FILE, Profile::BING)),
            fetched(200, FILE),
            fetched(404, b""),
            fetched(503, b""),
        ];
        for robots in &sources {
            for agent in agents {
                let judge = Judge::over(robots, agent);
                for url in urls {
                    let check = robots.decide(Who::crawler(agent), url);
                    let judged = judge.judge(url);
                    assert_eq!(
                        (judged.allowed, judged.basis, judged.rule_line),
                        (check.allowed, check.basis, check.line()),
                        "{agent} {url} {robots:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn crawl_delay_by_reading() {
        let robots = Robots::local(RobotsTxt::parse(FILE));
        assert_eq!(Judge::over(&robots, "mybot").crawl_delay(), Some((5.0, 3)));
        assert_eq!(Judge::over(&robots, "Googlebot").crawl_delay(), None);
    }

    /// Bing's and Yandex's readings of this file differ from Google's:
    /// Bing ends bingbot's group at its Crawl-delay, Yandex's parser skips
    /// a line without a colon.
    const READINGS: &[u8] = b"User-agent: bingbot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /shared\nDisallow /no-colon\n";

    /// From a source (bytes or a fetch), each agent is judged under the
    /// profile `check` reads the file by for it: its operator's when none
    /// is named, the named one otherwise; a profile outside
    /// `Profile::ALL` too.
    #[test]
    fn judges_each_crawler_by_the_profile_check_reads_it_by() {
        let agents = [
            "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
            "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Perplexity-User/1.0",
            "mybot",
        ];
        let urls = ["/", "/shared/x", "/no-colon", "/robots.txt"];
        let sources = [
            RobotsSource::from_bytes(READINGS.to_vec()),
            RobotsSource::fetched(outcome(200, READINGS)),
            RobotsSource::fetched(outcome(503, b"")),
        ];
        let mut cut = Profile::GOOGLE;
        cut.max_bytes = 40;
        let named = [None, Some(Profile::GOOGLE), Some(Profile::BING), Some(cut)];
        let mut differ = 0;
        for source in &sources {
            for agent in agents {
                for profile in named {
                    let judge = Judge::new(source, agent, profile);
                    let read = source.read(Reading::Crawler.profile_for(agent, profile));
                    for url in urls {
                        let check = read.decide(Who::crawler(agent), url);
                        let judged = judge.judge(url);
                        assert_eq!(
                            (judged.allowed, judged.basis, judged.rule_line),
                            (check.allowed, check.basis, check.line()),
                            "{agent} {url} {profile:?}"
                        );
                        let google = source
                            .read(Profile::GOOGLE)
                            .decide(Who::crawler(agent), url);
                        differ += usize::from(google.allowed != check.allowed);
                    }
                    assert_eq!(judge.crawl_delay(), Judge::over(&read, agent).crawl_delay());
                }
            }
        }
        // The readings differ where they should (bingbot on /shared,
        // YandexBot on /no-colon, the cut file), so the test can fail.
        assert!(differ >= 4, "{differ}");
        let bytes = &sources[0];
        let bing = Judge::new(bytes, agents[0], None);
        assert_eq!(
            (bing.judge("/shared/x").allowed, bing.crawl_delay()),
            (true, Some((1.0, 2)))
        );
        let yandex = Judge::new(bytes, agents[1], None);
        assert!(yandex.judge("/no-colon").allowed && !yandex.judge("/shared").allowed);
        let google = Judge::new(bytes, agents[2], None);
        assert_eq!(google.judge("/no-colon").rule_line, Some(6));
    }

    #[test]
    fn the_version_in_force() {
        let day = 86_400_000;
        let site = Site::versions(vec![
            Version {
                since: Some(10 * day),
                label: "b".into(),
                robots: RobotsSource::from_bytes(Vec::new()),
            },
            Version {
                since: Some(day),
                label: "a".into(),
                robots: RobotsSource::from_bytes(Vec::new()),
            },
        ]);
        assert_eq!(site.all()[0].label, "a");
        assert_eq!(site.at(Some(0)), None);
        assert_eq!(
            site.at(Some(day)),
            Some(InForce {
                index: 0,
                recent_change: false
            })
        );
        assert_eq!(
            site.at(Some(10 * day + 5)),
            Some(InForce {
                index: 1,
                recent_change: true
            })
        );
        assert_eq!(
            site.at(Some(11 * day)),
            Some(InForce {
                index: 1,
                recent_change: false
            })
        );
        assert_eq!(
            site.at(None),
            Some(InForce {
                index: 1,
                recent_change: false
            })
        );
    }

    #[test]
    fn hosts_with_and_without_ports() {
        let mut sites = HashMap::new();
        sites.insert(
            "example.com".to_owned(),
            Site::single("e", RobotsSource::from_bytes(Vec::new())),
        );
        let per_host = RobotsInForce::PerHost(sites);
        assert!(per_host.site(Some("EXAMPLE.com:8080")).is_some());
        assert!(per_host.site(Some("example.com.")).is_some());
        assert!(per_host.site(Some("other.com")).is_none());
        assert!(per_host.site(None).is_none());
    }
}
