//! The bar's test WARC: every corpus file as a capture, and around them
//! what Common Crawl's robots.txt files hold: statuses, hosts captured
//! twice, redirects (on the host, to another host, to nowhere, in a loop),
//! target URIs that do not parse, records that are no capture, corrupt,
//! truncated and cut members, bytes that are no member. It records what
//! it wrote, so a test can say what every row must be. Shared by the
//! survey crate's tests and the command's (included by path).

#![allow(dead_code)]

use std::collections::BTreeMap;

use super::warc_writer::{gzip, record, response_record, Response, WarcFile};

/// What answers for a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A robots.txt body, served with 200.
    File(Vec<u8>),
    /// A status without a robots.txt (4xx, 5xx, 429).
    Status(u16),
    /// A redirect whose target the input does not hold.
    Unresolved,
    /// Redirects that loop.
    Loop,
}

/// What a host's row must be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// What answers.
    pub answer: Answer,
    /// Its captures in the WARC.
    pub captures: u32,
    /// The status of its latest capture.
    pub status: u16,
    /// The URL of the capture that answered, when a redirect was followed.
    pub followed: Option<String>,
}

/// The WARC and what it holds.
pub struct BarWarc {
    /// The file.
    pub bytes: Vec<u8>,
    /// Records written (each damaged member or span counts as one).
    pub records: u64,
    /// Records that are no capture (warcinfo, request, other URLs).
    pub skipped: u64,
    /// Damaged members, records and spans: one error row each.
    pub damaged: u64,
    /// Per host, what its row must be.
    pub hosts: BTreeMap<String, Expect>,
    /// The statuses of the hosts served one.
    pub statuses: Vec<(String, u16)>,
}

/// A corrupted copy of a gzip member: bytes in its middle flipped.
fn corrupt(member: &[u8]) -> Vec<u8> {
    let mut bytes = member.to_vec();
    let middle = bytes.len() / 2;
    for byte in &mut bytes[middle..middle + 6] {
        *byte ^= 0xa5;
    }
    bytes
}

/// robots.txt files stating AI-use preferences (the corpus holds none):
/// the IETF attachment draft's example, Cloudflare's managed
/// `Content-Signal`, a crawler's own group with its own preferences,
/// records for one path that disagree, preferences in a group that blocks
/// its crawler, and a group Googlebot-Image falls back to. Served as
/// `prefs{N}.example`.
pub const PREFERENCE_FILES: [&str; 6] = [
    "User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\nContent-Usage: /ai-ok/ train-ai=y\n\n\
     User-Agent: ExampleBot\nAllow: /\nContent-Usage: train-ai=y\n",
    "# As Cloudflare manages it\nUser-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n",
    "User-agent: GPTBot\nContent-Usage: train-ai=n, search=y, bots=n\nContent-Usage: /news/ train-ai=y\n\n\
     User-agent: *\nContent-Signal: ai-input=yes\nDisallow: /private/\n",
    "User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: / train-ai=n, search=y\n",
    "User-agent: CCBot\nDisallow: /\nContent-Usage: train-ai=n\n\n\
     User-agent: *\nContent-Signal: search=yes, ai-train=yes\nDisallow: /news/\n",
    "User-agent: Googlebot\nContent-Signal: search=yes, ai-train=no\nContent-Usage: /news/ search=n\n",
];

const EARLY: &str = "2026-10-01T00:00:00Z";
const DATE: &str = "2026-11-01T00:00:00Z";
const LATE: &str = "2026-11-02T12:00:00.5Z";

impl BarWarc {
    /// Builds it from the corpus files `names` (bodies read from `dir`),
    /// repeated `copies` times under distinct hosts.
    pub fn build(dir: &std::path::Path, names: &[String], copies: usize) -> BarWarc {
        let mut bar = BarWarc {
            bytes: Vec::new(),
            records: 0,
            skipped: 0,
            damaged: 0,
            hosts: BTreeMap::new(),
            statuses: Vec::new(),
        };
        let mut warc = WarcFile::new(true);
        let push = |warc: &mut WarcFile, bar: &mut BarWarc, response: &Response| {
            warc.response(response);
            bar.records += 1;
        };
        warc.push(&record(
            "warcinfo",
            "",
            "application/warc-fields",
            b"software: crawlgate tests\r\n",
        ));
        bar.records += 1;
        bar.skipped += 1;
        let mut file_hosts = Vec::new();
        for copy in 0..copies {
            for (i, name) in names.iter().enumerate() {
                let host = if copy == 0 {
                    name.clone()
                } else {
                    format!("copy{copy}.{name}")
                };
                let body = std::fs::read(dir.join(name)).unwrap();
                let n = copy * names.len() + i;
                let mut expect = Expect {
                    answer: Answer::File(body.clone()),
                    captures: 1,
                    status: 200,
                    followed: None,
                };
                if n % 97 == 5 {
                    // A request record before the response: no capture.
                    warc.push(&record(
                        "request",
                        &format!("https://{host}/robots.txt"),
                        "application/http; msgtype=request",
                        b"GET /robots.txt HTTP/1.1\r\n\r\n",
                    ));
                    bar.records += 1;
                    bar.skipped += 1;
                }
                if n % 50 == 7 {
                    // An earlier capture that failed: the later one wins.
                    push(
                        &mut warc,
                        &mut bar,
                        &Response::status(&host, 503, "").dated(EARLY),
                    );
                    expect.captures += 1;
                }
                push(&mut warc, &mut bar, &Response::ok(&host, body).dated(DATE));
                if n % 70 == 11 {
                    // A later capture that changed the file: it wins.
                    let now = b"User-agent: *\nDisallow: /\n".to_vec();
                    push(
                        &mut warc,
                        &mut bar,
                        &Response::ok(&host, now.clone()).dated(LATE),
                    );
                    expect.captures += 1;
                    expect.answer = Answer::File(now);
                }
                if n % 90 == 13 {
                    // The http URL, captured last, redirects to the https
                    // one: followed on the host.
                    push(
                        &mut warc,
                        &mut bar,
                        &Response::redirect(
                            &format!("http://{host}/robots.txt"),
                            301,
                            &format!("https://{host}/robots.txt"),
                        )
                        .dated("2026-11-03T00:00:00Z"),
                    );
                    expect.captures += 1;
                    expect.status = 301;
                    expect.followed = Some(format!("https://{host}/robots.txt"));
                }
                if n % 400 == 17 {
                    // Damage between captures.
                    let member = gzip(&response_record(&Response::ok(
                        &format!("corrupt{n}.example"),
                        "User-agent: *\nDisallow: /\n",
                    )));
                    warc.raw(&corrupt(&member));
                    bar.records += 1;
                    bar.damaged += 1;
                }
                if n % 900 == 19 {
                    let member = gzip(&response_record(&Response::ok(
                        &format!("cut{n}.example"),
                        "x",
                    )));
                    warc.raw(&member[..member.len() / 3]);
                    bar.records += 1;
                    bar.damaged += 1;
                }
                file_hosts.push(host.clone());
                bar.hosts.insert(host, expect);
            }
        }
        // Statuses without a robots.txt.
        for (i, status) in [503u16, 500, 502, 429, 404, 410, 403, 401]
            .iter()
            .enumerate()
        {
            for k in 0..5 {
                let host = format!("s{status}-{k}.example");
                push(
                    &mut warc,
                    &mut bar,
                    &Response::status(&host, *status, "User-agent: *\nDisallow: /\n").dated(DATE),
                );
                bar.statuses.push((host.clone(), *status));
                bar.hosts.insert(
                    host,
                    Expect {
                        answer: Answer::Status(*status),
                        captures: 1,
                        status: *status,
                        followed: None,
                    },
                );
                let _ = i;
            }
        }
        // AI-use preferences.
        for (k, body) in PREFERENCE_FILES.iter().enumerate() {
            let host = format!("prefs{k}.example");
            push(&mut warc, &mut bar, &Response::ok(&host, *body).dated(DATE));
            bar.hosts.insert(
                host,
                Expect {
                    answer: Answer::File(body.as_bytes().to_vec()),
                    captures: 1,
                    status: 200,
                    followed: None,
                },
            );
        }
        // Redirects to another host the input holds.
        for (k, target) in file_hosts.iter().step_by(211).enumerate() {
            let host = format!("r{k}.example");
            push(
                &mut warc,
                &mut bar,
                &Response::redirect(
                    &format!("https://{host}/robots.txt"),
                    302,
                    &format!("https://{target}/robots.txt"),
                ),
            );
            let answer = bar.hosts[target].answer.clone();
            let followed = bar.hosts[target]
                .followed
                .clone()
                .unwrap_or_else(|| format!("https://{target}/robots.txt"));
            bar.hosts.insert(
                host,
                Expect {
                    answer,
                    captures: 1,
                    status: 302,
                    followed: Some(followed),
                },
            );
        }
        // Redirects to nowhere, and a loop.
        for k in 0..3 {
            let host = format!("nowhere{k}.example");
            push(
                &mut warc,
                &mut bar,
                &Response::redirect(
                    &format!("https://{host}/robots.txt"),
                    301,
                    "https://not-in-the-input.example/robots.txt",
                ),
            );
            bar.hosts.insert(
                host,
                Expect {
                    answer: Answer::Unresolved,
                    captures: 1,
                    status: 301,
                    followed: None,
                },
            );
        }
        for (from, to) in [
            ("ping.example", "pong.example"),
            ("pong.example", "ping.example"),
        ] {
            push(
                &mut warc,
                &mut bar,
                &Response::redirect(
                    &format!("https://{from}/robots.txt"),
                    301,
                    &format!("https://{to}/robots.txt"),
                ),
            );
            bar.hosts.insert(
                from.to_owned(),
                Expect {
                    answer: Answer::Loop,
                    captures: 1,
                    status: 301,
                    followed: None,
                },
            );
        }
        // Target URIs that do not parse, a response for another URL, and
        // bytes that are no member.
        for uri in [
            "http://exa mple.example/robots.txt",
            "https://[bad/robots.txt",
            "http://example.example:99999/robots.txt",
        ] {
            warc.push(&record(
                "response",
                uri,
                "application/http; msgtype=response",
                &Response::ok("x.example", "User-agent: *\n").http(),
            ));
            bar.records += 1;
            bar.damaged += 1;
        }
        warc.push(&record(
            "response",
            "https://a.example/index.html",
            "application/http; msgtype=response",
            &Response::ok("a.example", "<html></html>").http(),
        ));
        bar.records += 1;
        bar.skipped += 1;
        warc.raw(b"these bytes are no gzip member");
        bar.records += 1;
        bar.damaged += 1;
        // A member cut short by the end of the file.
        let last = gzip(&response_record(&Response::ok(
            "truncated.example",
            "User-agent: *\n",
        )));
        warc.raw(&last[..last.len() - 9]);
        bar.records += 1;
        bar.damaged += 1;
        bar.bytes = warc.bytes;
        bar
    }
}
