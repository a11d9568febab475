//! crawlgate against the other Rust robots.txt crates, on the same inputs
//! and through each crate's public API as a crawler uses it: the body as
//! served, the crawler's token, and absolute `https://host/path?query` URLs
//! (see `corpus.rs`). Three paths a crawler takes:
//!
//! * `parse_and_view`: parse a file and build the crawler's view of it
//!   (crawlgate: `RobotsTxt::parse` then `view`, the whole file; and
//!   `CrawlerRobotsTxt::parse`, the file read for the one crawler, as
//!   `robotxt` and `texting_robots` read it);
//! * `answers`: ask every URL of every file of views built beforehand
//!   (crawlgate: `AgentView::is_allowed`); extracting the path from the URL
//!   is part of the answer, so crates that only take a path get it from
//!   `url::Url`, as their documentation does;
//! * `one_question`: parse, view and one question per file (the crawler's
//!   path; crawlgate both ways), next to the ways crawlgate answers one
//!   question without a view (`RobotsTxt::decide`, `decide_once`).
//!
//! `cargo bench -p crawlgate-bench --bench peers`; with `--features spider`
//! it also runs the robots.txt parser of the `spider` crawler, which the
//! default build leaves out (it builds a whole web crawler).
//!
//! Files on which a peer panics are left out for every crate (the count is
//! printed), so all crates read exactly the same bytes. The crates that
//! take `&str` (`robots_txt`, `robotstxt`, `spider`) get the body through
//! `String::from_utf8_lossy`, inside the measurement, as a crawler holding
//! the body would.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion};
use criterion::{measurement::WallTime, Throughput};
use url::{Position, Url};

#[cfg(feature = "spider")]
use spider::packages::robotparser::parser::RobotFileParser;

mod corpus;

use corpus::{Corpus, Entry};

/// `robots_txt` matches paths: a crawler gets the path and query of its
/// absolute URL from `url`.
fn robots_txt_allowed(matcher: &robots_txt::matcher::SimpleMatcher<'_>, url: &str) -> bool {
    Url::parse(url).map_or(true, |parsed| {
        matcher.check_path(&parsed[Position::BeforePath..Position::AfterQuery])
    })
}

/// `robotxt`: it matches a parsed `Url`.
fn robotxt_allowed(robots: &robotxt::Robots, url: &str) -> bool {
    Url::parse(url).map_or(true, |parsed| robots.is_url_allowed(&parsed))
}

/// `spider`'s parser, as its own `read` fills it from a response: marked as
/// just fetched (until then it refuses every URL), then given the text. It
/// keeps every group and picks the crawler's on each question; it takes
/// absolute URLs.
#[cfg(feature = "spider")]
fn spider_parse(text: &str) -> Box<RobotFileParser> {
    let mut parser = RobotFileParser::new();
    parser.modified();
    parser.parse_str(text);
    parser
}

fn peers_survive(e: &Entry, urls: &[String]) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        let robot = texting_robots::Robot::new(e.agent, &e.bytes).ok();
        let robots = robotxt::Robots::parse(&e.bytes, e.agent);
        let parsed = robots_txt::Robots::from_str_lossy(&e.text);
        let matcher =
            robots_txt::matcher::SimpleMatcher::new(&parsed.choose_section(e.agent).rules);
        #[cfg(feature = "spider")]
        let spider = spider_parse(&e.text);
        for url in urls {
            if let Some(robot) = &robot {
                robot.allowed(url);
            }
            robotxt_allowed(&robots, url);
            robots_txt_allowed(&matcher, url);
            robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(&e.text, e.agent, url);
            #[cfg(feature = "spider")]
            spider.can_fetch(e.agent, url);
        }
    }))
    .is_ok()
}

fn inputs() -> Corpus {
    std::panic::set_hook(Box::new(|_| {}));
    let (corpus, total) = corpus::load(peers_survive);
    let _ = std::panic::take_hook();
    eprintln!(
        "peers: {} of {total} corpus files ({} left out: a peer panics on them), {:.1} MB, {} URLs",
        corpus.entries.len(),
        total - corpus.entries.len(),
        corpus.bytes() as f64 / 1e6,
        corpus.questions()
    );
    corpus
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
}

fn benches(c: &mut Criterion) {
    let corpus = inputs();
    parse_and_view(c, &corpus);
    answers(c, &corpus);
    one_question(c, &corpus);
    adversarial(c);
}

/// Parse every file and build its crawler's view.
fn parse_and_view(c: &mut Criterion, corpus: &Corpus) {
    let entries = &corpus.entries;
    let mut group = c.benchmark_group("parse_and_view");
    group.throughput(Throughput::Bytes(corpus.bytes() as u64));
    configure(&mut group);
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for e in entries {
                let robots = crawlgate::RobotsTxt::parse(&e.bytes);
                black_box(&robots.view(e.agent));
            }
        })
    });
    group.bench_function("crawlgate_crawler", |b| {
        b.iter(|| {
            for e in entries {
                let robots = crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent);
                black_box(&robots.view());
            }
        })
    });
    group.bench_function("robots_txt", |b| {
        b.iter(|| {
            for e in entries {
                let text = String::from_utf8_lossy(&e.bytes);
                let robots = robots_txt::Robots::from_str_lossy(&text);
                let section = robots.choose_section(e.agent);
                black_box(&robots_txt::matcher::SimpleMatcher::new(&section.rules));
            }
        })
    });
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for e in entries {
                black_box(&robotxt::Robots::parse(&e.bytes, e.agent));
            }
        })
    });
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for e in entries {
                let _ = black_box(texting_robots::Robot::new(e.agent, &e.bytes));
            }
        })
    });
    #[cfg(feature = "spider")]
    group.bench_function("spider", |b| {
        b.iter(|| {
            for e in entries {
                black_box(&spider_parse(&String::from_utf8_lossy(&e.bytes)));
            }
        })
    });
    group.finish();
}

/// Every URL of every file, asked of views built beforehand. `robotstxt`
/// has no such view (it re-parses the file on every question), so it is
/// measured only in `one_question`.
fn answers(c: &mut Criterion, corpus: &Corpus) {
    let entries = &corpus.entries;
    let mut group = c.benchmark_group("answers");
    group.throughput(Throughput::Elements(corpus.questions() as u64));
    configure(&mut group);

    let robots: Vec<_> = entries
        .iter()
        .map(|e| crawlgate::RobotsTxt::parse(&e.bytes))
        .collect();
    let views: Vec<_> = robots
        .iter()
        .zip(entries)
        .map(|(r, e)| r.view(e.agent))
        .collect();
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for (view, e) in views.iter().zip(entries) {
                for url in corpus.urls(e) {
                    black_box(view.is_allowed(url));
                }
            }
        })
    });
    drop(views);

    let parsed: Vec<_> = entries
        .iter()
        .map(|e| robots_txt::Robots::from_str_lossy(&e.text))
        .collect();
    let matchers: Vec<_> = parsed
        .iter()
        .zip(entries)
        .map(|(r, e)| robots_txt::matcher::SimpleMatcher::new(&r.choose_section(e.agent).rules))
        .collect();
    group.bench_function("robots_txt", |b| {
        b.iter(|| {
            for (matcher, e) in matchers.iter().zip(entries) {
                for url in corpus.urls(e) {
                    black_box(robots_txt_allowed(matcher, url));
                }
            }
        })
    });
    drop(matchers);

    let robotxt: Vec<_> = entries
        .iter()
        .map(|e| robotxt::Robots::parse(&e.bytes, e.agent))
        .collect();
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for (robots, e) in robotxt.iter().zip(entries) {
                for url in corpus.urls(e) {
                    black_box(robotxt_allowed(robots, url));
                }
            }
        })
    });

    let texting: Vec<_> = entries
        .iter()
        .map(|e| texting_robots::Robot::new(e.agent, &e.bytes).ok())
        .collect();
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for (robot, e) in texting.iter().zip(entries) {
                for url in corpus.urls(e) {
                    black_box(robot.as_ref().is_none_or(|r| r.allowed(url)));
                }
            }
        })
    });
    drop(texting);

    #[cfg(feature = "spider")]
    {
        let spider: Vec<_> = entries.iter().map(|e| spider_parse(&e.text)).collect();
        group.bench_function("spider", |b| {
            b.iter(|| {
                for (parser, e) in spider.iter().zip(entries) {
                    for url in corpus.urls(e) {
                        black_box(parser.can_fetch(e.agent, url));
                    }
                }
            })
        });
    }
    group.finish();
}

/// What a crawler meeting a site pays for its first URL: parse, view, one
/// question.
fn one_question(c: &mut Criterion, corpus: &Corpus) {
    let entries = &corpus.entries;
    let mut group = c.benchmark_group("one_question");
    group.throughput(Throughput::Elements(entries.len() as u64));
    configure(&mut group);
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                let robots = crawlgate::RobotsTxt::parse(&e.bytes);
                black_box(robots.view(e.agent).is_allowed(url));
            }
        })
    });
    group.bench_function("crawlgate_crawler", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                let robots = crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent);
                black_box(robots.is_allowed(url));
            }
        })
    });
    group.bench_function("crawlgate_decide", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                black_box(crawlgate::RobotsTxt::parse(&e.bytes).is_allowed(e.agent, url));
            }
        })
    });
    group.bench_function("crawlgate_decide_once", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                black_box(crawlgate::decide_once(&e.bytes, e.agent, url).is_allowed());
            }
        })
    });
    group.bench_function("robots_txt", |b| {
        b.iter(|| {
            for e in entries {
                let text = String::from_utf8_lossy(&e.bytes);
                let robots = robots_txt::Robots::from_str_lossy(&text);
                let section = robots.choose_section(e.agent);
                let matcher = robots_txt::matcher::SimpleMatcher::new(&section.rules);
                black_box(robots_txt_allowed(&matcher, corpus.first_question(e)));
            }
        })
    });
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for e in entries {
                let robots = robotxt::Robots::parse(&e.bytes, e.agent);
                black_box(robotxt_allowed(&robots, corpus.first_question(e)));
            }
        })
    });
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for e in entries {
                let robot = texting_robots::Robot::new(e.agent, &e.bytes);
                black_box(robot.map(|r| r.allowed(corpus.first_question(e))).ok());
            }
        })
    });
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            for e in entries {
                let text = String::from_utf8_lossy(&e.bytes);
                black_box(
                    robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
                        &text,
                        e.agent,
                        corpus.first_question(e),
                    ),
                );
            }
        })
    });
    #[cfg(feature = "spider")]
    group.bench_function("spider", |b| {
        b.iter(|| {
            for e in entries {
                let parser = spider_parse(&String::from_utf8_lossy(&e.bytes));
                black_box(parser.can_fetch(e.agent, corpus.first_question(e)));
            }
        })
    });
    group.finish();
}

/// Inputs built to hurt: each must stay far under 10 ms.
fn adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("adversarial");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));

    let stars = format!("User-agent: *\nDisallow: /{}b\n", "*a".repeat(30));
    let robots = crawlgate::RobotsTxt::parse(stars.as_bytes());
    let view = robots.view("bot");
    let url = format!("https://example.com/{}", "a".repeat(100_000));
    group.bench_function(
        BenchmarkId::new("crawlgate", "30_star_rule_vs_100kb_url"),
        |b| b.iter(|| black_box(view.is_allowed(&url))),
    );

    let mut rules = String::from("User-agent: *\n");
    let mut i = 0;
    while rules.len() < crawlgate::MAX_BYTES - 64 {
        rules.push_str(&format!("Disallow: /dir{i}/*.php$\n"));
        i += 1;
    }
    group.bench_function(
        BenchmarkId::new("crawlgate", "500kib_of_rules_parse_view_and_answer"),
        |b| {
            b.iter(|| {
                let robots = crawlgate::RobotsTxt::parse(rules.as_bytes());
                black_box(
                    robots
                        .view("bot")
                        .is_allowed("https://example.com/dir999/x.php"),
                )
            })
        },
    );

    let line = format!(
        "User-agent: *\nDisallow: /{}\n",
        "a*".repeat((crawlgate::MAX_BYTES - 64) / 2)
    );
    group.bench_function(
        BenchmarkId::new("crawlgate", "single_500kib_line_parse_view_and_answer"),
        |b| {
            b.iter(|| {
                let robots = crawlgate::RobotsTxt::parse(line.as_bytes());
                black_box(robots.view("bot").is_allowed(&url))
            })
        },
    );

    // Distinct product tokens (letters only: digits would end the token).
    let token = |mut n: usize| {
        let mut name = String::from("bot");
        loop {
            name.push((b'a' + (n % 26) as u8) as char);
            n /= 26;
            if n == 0 {
                return name;
            }
        }
    };
    let mut groups = String::new();
    for i in 0..5000 {
        groups.push_str(&format!(
            "User-agent: {}\nDisallow: /private/{i}/\n\n",
            token(i)
        ));
    }
    let last = token(4999);
    group.bench_function(
        BenchmarkId::new("crawlgate", "5000_groups_parse_view_and_answer"),
        |b| {
            b.iter(|| {
                let robots = crawlgate::RobotsTxt::parse(groups.as_bytes());
                black_box(
                    robots
                        .view(&last)
                        .is_allowed("https://example.com/private/4999/"),
                )
            })
        },
    );
    group.finish();
}

criterion_group!(peers, benches);
criterion_main!(peers);
