//! What the tests share: a lab set up on disk and on loopback, an audit
//! of it, and rows kept as owned values.

use std::io;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crawlgate_answers::net::PrefixSet;
use crawlgate_answers::RobotsSource;
use crawlgate_audit::audit::{Audit, AuditOptions, RowSink};
use crawlgate_audit::findings::{Row, Summary};
use crawlgate_audit::format::LogFormat;
use crawlgate_audit::identity::dns::DnsConfig;
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::identity::VerifyOptions;
use crawlgate_audit::input::LogSource;
use crawlgate_audit::robots::{RobotsInForce, Site};
use crawlgate_test_support::access_log::{Lab, HONEYPOT};
use crawlgate_testserver::dns::{DnsServer, Zone};

/// One row, owned.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    pub file: usize,
    pub line: u64,
    pub time: Option<i64>,
    pub ip: IpAddr,
    pub user_agent: String,
    pub crawler: Option<&'static str>,
    pub identity: Option<&'static str>,
    pub identity_why: Option<String>,
    pub url: Option<String>,
    pub host: Option<String>,
    pub allowed: Option<bool>,
    pub rule_line: Option<u32>,
    pub robots_version: Option<String>,
    pub violation: bool,
    pub recent_change: bool,
    pub breach: bool,
    pub honeypot: bool,
}

/// A sink that keeps every row.
#[derive(Default)]
pub struct Keep(pub Vec<Kept>);

impl RowSink for Keep {
    fn write(&mut self, _: &[String], rows: &[Row<'_>]) -> io::Result<()> {
        self.0.extend(rows.iter().map(|r| Kept {
            file: r.file,
            line: r.line,
            time: r.time,
            ip: r.ip,
            user_agent: r.user_agent.to_owned(),
            crawler: r.crawler.map(|c| c.name),
            identity: r.identity.map(|i| i.as_str()),
            identity_why: r.identity_why.as_deref().map(str::to_owned),
            url: r.url.map(str::to_owned),
            host: r.host.map(str::to_owned),
            allowed: r.judged.map(|j| j.allowed),
            rule_line: r.judged.and_then(|j| j.rule_line),
            robots_version: r.robots_version.map(str::to_owned),
            violation: r.violation,
            recent_change: r.recent_change,
            breach: r.crawl_delay_breach,
            honeypot: r.honeypot,
        }));
        Ok(())
    }
}

/// The lab's DNS zone on a loopback server.
pub fn dns_server(lab: &Lab) -> DnsServer {
    let mut zone = Zone::new();
    for (ip, name) in &lab.dns.ptr {
        zone = zone.ptr(*ip, name);
    }
    for (name, ip) in &lab.dns.a {
        zone = zone.a(name, *ip);
    }
    for ip in &lab.dns.silent {
        zone = zone.silent_ptr(*ip);
    }
    DnsServer::start(zone)
}

/// A lab on disk: the log, robots.txt and feed mirror in a folder.
pub struct OnDisk {
    /// Kept alive: the files go with it.
    _dir: tempfile::TempDir,
    pub log: PathBuf,
    pub mirror: PathBuf,
}

pub fn on_disk(lab: &Lab) -> OnDisk {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    std::fs::write(&log, &lab.log).unwrap();
    let robots = dir.path().join("robots.txt");
    std::fs::write(&robots, lab.robots_txt).unwrap();
    let mirror = dir.path().join("ip-ranges");
    lab.write_mirror(&mirror).unwrap();
    OnDisk {
        _dir: dir,
        log,
        mirror,
    }
}

/// Audit options for the lab: its robots.txt, the honeypot, feeds from
/// `feeds`, DNS at `dns` (one-second timeout).
pub fn options(robots: &str, feeds: FeedSource, dns: Option<&DnsServer>) -> AuditOptions {
    AuditOptions {
        format: None,
        robots: RobotsInForce::One(Site::single(
            "robots.txt",
            RobotsSource::from_bytes(robots.as_bytes().to_vec()),
        )),
        profile: None,
        honeypots: vec![HONEYPOT.to_owned()],
        trusted_proxies: PrefixSet::default(),
        verify: VerifyOptions {
            feeds,
            allow_private: true,
            dns: dns.map(|server| DnsConfig {
                server: Some(server.addr()),
                timeout: Duration::from_secs(1),
                concurrency: 16,
            }),
            feed_timeout: Duration::from_secs(10),
        },
        threads: 2,
    }
}

/// Runs an audit and keeps its rows.
pub fn run(options: AuditOptions, logs: &[&Path]) -> (Summary, Vec<Kept>) {
    let audit = Audit::new(options).unwrap();
    let sources: Vec<LogSource> = logs
        .iter()
        .map(|p| LogSource::File(p.to_path_buf()))
        .collect();
    let mut keep = Keep::default();
    let summary = audit.run(&sources, &mut keep).unwrap();
    (summary, keep.0)
}

/// Runs an audit of `text` in `format` with the lab's setup minus DNS.
pub fn run_text(text: &str, format: Option<LogFormat>, robots: &str) -> (Summary, Vec<Kept>) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("access.log");
    std::fs::write(&log, text).unwrap();
    let mut options = options(robots, FeedSource::Mirror(dir.path().join("none")), None);
    options.format = format;
    run(options, &[&log])
}
