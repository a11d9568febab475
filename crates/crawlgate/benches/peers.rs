//! crawlgate against the other Rust robots.txt crates, on the same inputs:
//! the real-world corpus (found by `crawlgate-corpus`), each file asked about by
//! one crawler with paths derived from its own rules.
//!
//! `cargo bench -p crawlgate --bench peers`
//!
//! Files on which a peer panics are left out for every crate (the count is
//! printed), so all four read exactly the same bytes.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

mod corpus;

/// A parse handler that does nothing: robotstxt's parser alone.
struct Noop;

impl robotstxt::RobotsParseHandler for Noop {
    fn handle_robots_start(&mut self) {}
    fn handle_robots_end(&mut self) {}
    fn handle_user_agent(&mut self, _: u32, _: &str) {}
    fn handle_allow(&mut self, _: u32, _: &str) {}
    fn handle_disallow(&mut self, _: u32, _: &str) {}
    fn handle_sitemap(&mut self, _: u32, _: &str) {}
    fn handle_unknown_action(&mut self, _: u32, _: &str, _: &str) {}
}

fn peers_survive(e: &corpus::Entry, paths: &[String]) -> bool {
    catch_unwind(AssertUnwindSafe(|| {
        let robot = texting_robots::Robot::new(e.agent, &e.bytes).ok();
        let robots = robotxt::Robots::parse(&e.bytes, e.agent);
        for path in paths {
            if let Some(robot) = &robot {
                robot.allowed(path);
            }
            let _ = robots.is_allowed(path);
            robotstxt::DefaultMatcher::default()
                .one_agent_allowed_by_robots(&e.text, e.agent, path);
        }
    }))
    .is_ok()
}

fn inputs() -> corpus::Corpus {
    std::panic::set_hook(Box::new(|_| {}));
    let (corpus, total) = corpus::load(peers_survive);
    let _ = std::panic::take_hook();
    eprintln!(
        "peers: {} of {total} corpus files ({} left out: a peer panics on them), {:.1} MB, {} paths",
        corpus.entries.len(),
        total - corpus.entries.len(),
        corpus.entries.iter().map(|e| e.bytes.len()).sum::<usize>() as f64 / 1e6,
        corpus.questions()
    );
    corpus
}

fn benches(c: &mut Criterion) {
    let corpus = inputs();
    let entries = &corpus.entries;
    let bytes: usize = entries.iter().map(|e| e.bytes.len()).sum();

    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(bytes as u64));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for e in entries {
                black_box(crawlgate::RobotsTxt::parse(&e.bytes));
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
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for e in entries {
                let _ = black_box(robotxt::Robots::parse(&e.bytes, e.agent));
            }
        })
    });
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            for e in entries {
                robotstxt::parse_robotstxt(&e.text, &mut Noop);
            }
        })
    });
    group.finish();

    // Parse once, then decide every path. robotstxt re-parses the file on
    // every call (that is its API), so this group uses every 8th file.
    let sample: Vec<&corpus::Entry> = entries.iter().step_by(8).collect();
    let decisions: usize = sample.iter().map(|e| e.paths.len()).sum();
    let corpus = &corpus;
    let robots: Vec<_> = sample
        .iter()
        .map(|e| crawlgate::RobotsTxt::parse(&e.bytes))
        .collect();
    let views: Vec<_> = robots
        .iter()
        .zip(&sample)
        .map(|(r, e)| r.for_agent(e.agent))
        .collect();
    let texting: Vec<_> = sample
        .iter()
        .map(|e| texting_robots::Robot::new(e.agent, &e.bytes).ok())
        .collect();
    let robotxt: Vec<_> = sample
        .iter()
        .map(|e| robotxt::Robots::parse(&e.bytes, e.agent))
        .collect();
    let mut group = c.benchmark_group("decide");
    group.throughput(Throughput::Elements(decisions as u64));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for (view, e) in views.iter().zip(&sample) {
                for path in corpus.paths(e) {
                    black_box(view.is_allowed(path));
                }
            }
        })
    });
    group.bench_function("texting_robots", |b| {
        b.iter(|| {
            for (robot, e) in texting.iter().zip(&sample) {
                for path in corpus.paths(e) {
                    black_box(robot.as_ref().is_none_or(|r| r.allowed(path)));
                }
            }
        })
    });
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for (robots, e) in robotxt.iter().zip(&sample) {
                for path in corpus.paths(e) {
                    black_box(robots.is_allowed(path));
                }
            }
        })
    });
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            for e in &sample {
                for path in corpus.paths(e) {
                    black_box(
                        robotstxt::DefaultMatcher::default()
                            .one_agent_allowed_by_robots(&e.text, e.agent, path),
                    );
                }
            }
        })
    });
    group.finish();

    // What a crawler meeting a site for the first time pays: parse, then one
    // decision.
    let mut group = c.benchmark_group("parse_and_decide_once");
    group.throughput(Throughput::Elements(entries.len() as u64));
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("crawlgate", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                black_box(crawlgate::decide_once(&e.bytes, e.agent, url).is_allowed());
            }
        })
    });
    group.bench_function("crawlgate_full_model", |b| {
        b.iter(|| {
            for e in entries {
                let url = corpus.first_question(e);
                black_box(crawlgate::RobotsTxt::parse(&e.bytes).is_allowed(e.agent, url));
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
    group.bench_function("robotxt", |b| {
        b.iter(|| {
            for e in entries {
                black_box(
                    robotxt::Robots::parse(&e.bytes, e.agent).is_allowed(corpus.first_question(e)),
                );
            }
        })
    });
    group.bench_function("robotstxt", |b| {
        b.iter(|| {
            for e in entries {
                black_box(
                    robotstxt::DefaultMatcher::default().one_agent_allowed_by_robots(
                        &e.text,
                        e.agent,
                        corpus.first_question(e),
                    ),
                );
            }
        })
    });
    group.finish();

    adversarial(c);
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
    let view = robots.for_agent("bot");
    let url = format!("/{}", "a".repeat(100_000));
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
        BenchmarkId::new("crawlgate", "500kib_of_rules_parse_and_decide"),
        |b| {
            b.iter(|| {
                black_box(
                    crawlgate::RobotsTxt::parse(rules.as_bytes())
                        .is_allowed("bot", "/dir999/x.php"),
                )
            })
        },
    );

    let line = format!(
        "User-agent: *\nDisallow: /{}\n",
        "a*".repeat((crawlgate::MAX_BYTES - 64) / 2)
    );
    group.bench_function(
        BenchmarkId::new("crawlgate", "single_500kib_line_parse_and_decide"),
        |b| {
            b.iter(|| {
                black_box(crawlgate::RobotsTxt::parse(line.as_bytes()).is_allowed("bot", &url))
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
        BenchmarkId::new("crawlgate", "5000_groups_parse_and_decide"),
        |b| {
            b.iter(|| {
                black_box(
                    crawlgate::RobotsTxt::parse(groups.as_bytes())
                        .is_allowed(&last, "/private/4999/"),
                )
            })
        },
    );
    group.finish();
}

criterion_group!(peers, benches);
criterion_main!(peers);
