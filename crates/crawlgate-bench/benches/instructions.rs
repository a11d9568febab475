//! The peer benchmark's paths as fixed workloads, crawlgate's and those of
//! the fastest other crates (`robots_txt` and `robotxt`, as `peers.rs`
//! drives them), for
//! counting instructions with callgrind (repeatable on a shared machine,
//! where wall time is not):
//!
//! ```text
//! cargo bench -p crawlgate-bench --bench instructions --no-run   # prints the binary
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*workload_*' \
//!     target/release/deps/instructions-… answers
//! ```
//!
//! With a workload's name as argument it runs that one; without (as under
//! `cargo bench`), every workload once, printing what each answered.
//! `CRAWLGATE_BENCH_MIN_BYTES` and `CRAWLGATE_BENCH_MAX_BYTES` (exclusive)
//! keep only the corpus files of those sizes.

#![allow(missing_docs)]

use std::hint::black_box;

mod corpus;

use corpus::Corpus;

/// A workload: what it answered.
type Workload = fn(&Corpus) -> usize;

/// The workloads, by name.
const WORKLOADS: &[(&str, Workload)] = &[
    ("parse", workload_parse),
    ("parse_and_view", workload_parse_and_view),
    ("answers", answers),
    ("first_answers", first_answers),
    ("one_question", workload_one_question),
    ("crawler_parse_and_view", workload_crawler_parse_and_view),
    ("crawler_one_question", workload_crawler_one_question),
    ("decide", workload_decide),
    ("decide_once", workload_decide_once),
    (
        "robots_txt_parse_and_view",
        workload_robots_txt_parse_and_view,
    ),
    ("robots_txt_answers", robots_txt_answers),
    ("robots_txt_one_question", workload_robots_txt_one_question),
    ("robotxt_parse_and_view", workload_robotxt_parse_and_view),
    ("robotxt_one_question", workload_robotxt_one_question),
];

/// `robots_txt`'s view: the crawler's section and a matcher for it.
fn robots_txt_view<'a>(
    robots: &'a robots_txt::Robots<'a>,
    agent: &str,
) -> robots_txt::matcher::SimpleMatcher<'a> {
    robots_txt::matcher::SimpleMatcher::new(&robots.choose_section(agent).rules)
}

/// `robots_txt` matches paths: the path and query of the URL, from `url`.
fn robots_txt_allowed(matcher: &robots_txt::matcher::SimpleMatcher<'_>, url: &str) -> bool {
    url::Url::parse(url).map_or(true, |parsed| {
        matcher.check_path(&parsed[url::Position::BeforePath..url::Position::AfterQuery])
    })
}

#[inline(never)]
fn workload_robots_txt_parse_and_view(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .map(|e| {
            let text = String::from_utf8_lossy(&e.bytes);
            let robots = robots_txt::Robots::from_str_lossy(&text);
            usize::from(black_box(robots_txt_view(&robots, e.agent)).has_rules())
        })
        .sum()
}

fn robots_txt_answers(corpus: &Corpus) -> usize {
    let parsed: Vec<_> = corpus
        .entries
        .iter()
        .map(|e| robots_txt::Robots::from_str_lossy(&e.text))
        .collect();
    let views: Vec<_> = parsed
        .iter()
        .zip(&corpus.entries)
        .map(|(r, e)| robots_txt_view(r, e.agent))
        .collect();
    workload_robots_txt_answers(corpus, &views)
}

#[inline(never)]
fn workload_robots_txt_answers(
    corpus: &Corpus,
    views: &[robots_txt::matcher::SimpleMatcher<'_>],
) -> usize {
    let mut allowed = 0;
    for (view, e) in views.iter().zip(&corpus.entries) {
        for url in corpus.urls(e) {
            allowed += usize::from(robots_txt_allowed(view, url));
        }
    }
    allowed
}

#[inline(never)]
fn workload_robots_txt_one_question(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            let text = String::from_utf8_lossy(&e.bytes);
            let robots = robots_txt::Robots::from_str_lossy(&text);
            robots_txt_allowed(&robots_txt_view(&robots, e.agent), corpus.first_question(e))
        })
        .count()
}

/// `robotxt` (the fastest other crate at parsing, by wall time): its
/// parse builds the crawler's view.
#[inline(never)]
fn workload_robotxt_parse_and_view(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .map(|e| {
            black_box(robotxt::Robots::parse(&e.bytes, e.agent))
                .rules()
                .len()
        })
        .sum()
}

/// `robotxt` matches a parsed `Url`, as `peers.rs` drives it.
#[inline(never)]
fn workload_robotxt_one_question(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            let robots = robotxt::Robots::parse(&e.bytes, e.agent);
            url::Url::parse(corpus.first_question(e))
                .map_or(true, |url| robots.is_url_allowed(&url))
        })
        .count()
}

#[inline(never)]
fn workload_parse(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .map(|e| {
            black_box(crawlgate::RobotsTxt::parse(&e.bytes))
                .rules()
                .len()
        })
        .sum()
}

#[inline(never)]
fn workload_parse_and_view(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .map(|e| {
            let robots = crawlgate::RobotsTxt::parse(&e.bytes);
            let view = black_box(robots.view(e.agent));

            view.groups().len()
        })
        .sum()
}

/// Every URL asked of views that have answered them all once already (as
/// in the peer benchmark's steady state); the views are built and warmed
/// outside the counted function.
fn answers(corpus: &Corpus) -> usize {
    let robots = parsed(corpus);
    let views = views(corpus, &robots);
    for (view, e) in views.iter().zip(&corpus.entries) {
        for url in corpus.urls(e) {
            black_box(view.decide(url));
        }
    }
    workload_answers(corpus, &views)
}

/// Every URL asked of fresh views: their first questions, and building
/// their compiled rules.
fn first_answers(corpus: &Corpus) -> usize {
    let robots = parsed(corpus);
    let views = views(corpus, &robots);
    workload_answers(corpus, &views)
}

fn parsed(corpus: &Corpus) -> Vec<crawlgate::RobotsTxt> {
    corpus
        .entries
        .iter()
        .map(|e| crawlgate::RobotsTxt::parse(&e.bytes))
        .collect()
}

fn views<'a>(corpus: &Corpus, robots: &'a [crawlgate::RobotsTxt]) -> Vec<crawlgate::AgentView<'a>> {
    robots
        .iter()
        .zip(&corpus.entries)
        .map(|(r, e)| r.view(e.agent))
        .collect()
}

#[inline(never)]
fn workload_answers(corpus: &Corpus, views: &[crawlgate::AgentView<'_>]) -> usize {
    let mut allowed = 0;
    for (view, e) in views.iter().zip(&corpus.entries) {
        for url in corpus.urls(e) {
            allowed += usize::from(view.is_allowed(url));
        }
    }
    allowed
}

#[inline(never)]
fn workload_one_question(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            let robots = crawlgate::RobotsTxt::parse(&e.bytes);

            robots.view(e.agent).is_allowed(corpus.first_question(e))
        })
        .count()
}

/// The file read for its crawler (`CrawlerRobotsTxt`), and its view.
#[inline(never)]
fn workload_crawler_parse_and_view(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .map(|e| {
            let robots = crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent);
            black_box(robots.view()).groups().len()
        })
        .sum()
}

/// The crawler's path: the file read for its crawler, and one question.
#[inline(never)]
fn workload_crawler_one_question(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent)
                .is_allowed(corpus.first_question(e))
        })
        .count()
}

#[inline(never)]
fn workload_decide(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            crawlgate::RobotsTxt::parse(&e.bytes).is_allowed(e.agent, corpus.first_question(e))
        })
        .count()
}

#[inline(never)]
fn workload_decide_once(corpus: &Corpus) -> usize {
    corpus
        .entries
        .iter()
        .filter(|e| {
            crawlgate::decide_once(&e.bytes, e.agent, corpus.first_question(e)).is_allowed()
        })
        .count()
}

fn main() {
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for name in &wanted {
        assert!(
            WORKLOADS.iter().any(|(n, _)| n == name),
            "unknown workload {name:?}; known: {:?}",
            WORKLOADS.iter().map(|(n, _)| *n).collect::<Vec<_>>()
        );
    }
    // Files of some sizes only: where per-file costs weigh (small files)
    // and where per-byte costs do (large ones).
    let size = |name: &str, default: usize| match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a number of bytes, not {v:?}")),
        Err(_) => default,
    };
    let min = size("CRAWLGATE_BENCH_MIN_BYTES", 0);
    let max = size("CRAWLGATE_BENCH_MAX_BYTES", usize::MAX);
    let (corpus, _) = corpus::load(|e, _| (min..max).contains(&e.bytes.len()));
    for (name, run) in WORKLOADS {
        if wanted.is_empty() || wanted.iter().any(|w| w == name) {
            println!("{name}: {}", run(&corpus));
        }
    }
}
