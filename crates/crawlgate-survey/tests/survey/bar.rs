//! The bar, on the WARC the tests build from the corpus: every
//! record accounted for, one row per host, the verdict for `/` the one
//! the library gives for the file that answers, no outage counted as a
//! block; and a stopped survey resumed gives the table an uninterrupted
//! one gives.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use crawlgate::{RobotsTxt, Who};
use crawlgate_survey::input::Input;
use crawlgate_survey::output::TableSource;
use crawlgate_survey::preferences::column_value;
use crawlgate_survey::verdict::Cause;
use crawlgate_survey::{CrawlerSet, Plan, SiteRow, Survey};

use crate::bar_warc::{Answer, BarWarc};
use crate::write;

const CRAWLERS: [&str; 7] = [
    "GPTBot",
    "CCBot",
    "Googlebot",
    "Bingbot",
    "Googlebot-Image",
    "AdsBot-Google",
    "*",
];

fn build(dir: &Path) -> (BarWarc, std::path::PathBuf) {
    let names = crawlgate_corpus::names();
    let bar = BarWarc::build(&crawlgate_corpus::dir(), &names, 1);
    let path = write(dir, "bar.warc.gz", &bar.bytes);
    (bar, path)
}

fn survey() -> Survey {
    Survey::new(CrawlerSet::from_tokens(CRAWLERS).unwrap())
        .with_paths(["/news/"])
        .unwrap()
}

#[test]
fn every_record_is_accounted_for_and_every_host_answered_once() {
    let dir = tempfile::tempdir().unwrap();
    let (bar, warc) = build(dir.path());
    let table = dir.path().join("bar.parquet");
    let plan = Plan {
        outputs: vec![table.clone()],
        ..Plan::default()
    };
    let summary = crawlgate_survey::run(&survey(), &[Input::Warc(warc)], &plan, &|_| {}).unwrap();
    let rows = TableSource::open(&table).unwrap().rows().unwrap();
    let accounting = summary.accounting.clone().unwrap();

    // Rows + counted skips = records.
    assert_eq!(accounting.records, bar.records);
    assert_eq!(
        accounting.rows + accounting.duplicates + accounting.skipped_total(),
        bar.records
    );
    assert_eq!(accounting.skipped_total(), bar.skipped);
    assert_eq!(rows.len() as u64, accounting.rows);
    // One error row per damaged member, record or span.
    let errors: Vec<&SiteRow> = rows.iter().filter(|r| r.is_error()).collect();
    assert_eq!(errors.len() as u64, bar.damaged, "{errors:#?}");
    assert!(errors
        .iter()
        .all(|r| r.offset.is_some() && r.source.contains('@')));
    // One row per host, each the host expected.
    let answered: Vec<&SiteRow> = rows.iter().filter(|r| !r.is_error()).collect();
    let hosts: Vec<&str> = answered
        .iter()
        .map(|r| r.host.as_deref().unwrap())
        .collect();
    let expected: Vec<&str> = bar.hosts.keys().map(String::as_str).collect();
    assert_eq!(hosts, expected, "one row per host, sorted");

    let crawlers = CrawlerSet::from_tokens(CRAWLERS).unwrap();
    let mut checked = 0;
    let mut stated = 0;
    for row in answered {
        let host = row.host.as_deref().unwrap();
        let expect = &bar.hosts[host];
        assert_eq!(row.captures, expect.captures, "{host}");
        assert_eq!(row.status, Some(expect.status), "{host}");
        assert_eq!(row.followed, expect.followed, "{host}");
        for (crawler, verdict) in crawlers.iter().zip(&row.crawlers) {
            let (root, cause) = (verdict.root, verdict.cause.unwrap());
            match &expect.answer {
                Answer::File(body) => {
                    // The library's own answer for the file that answers,
                    // in the crawler's operator's reading (Bing's, Yandex's).
                    let profile = crawlgate::Reading::Crawler.profile_for(&crawler.token, None);
                    let robots = RobotsTxt::parse_with(body, profile);
                    // The crawler reading (`*`: the `*` group itself).
                    let view = if crawler.token == "*" {
                        robots.view("*")
                    } else {
                        robots.view(Who::crawler(&crawler.token))
                    };
                    assert_eq!(
                        root,
                        Some(view.decide_path("/").is_allowed()),
                        "{host} {}",
                        crawler.token
                    );
                    assert_eq!(
                        verdict.paths,
                        [view.decide_path("/news/").is_allowed()],
                        "{host}"
                    );
                    // The AI-use preferences it is given, as the library
                    // reads them.
                    assert_eq!(
                        (&verdict.prefs, &verdict.path_prefs),
                        (
                            &column_value(view.preferences("/")),
                            &vec![column_value(view.preferences("/news/"))]
                        ),
                        "{host} {}",
                        crawler.token
                    );
                    stated += usize::from(verdict.prefs.is_some());
                    assert!(cause.is_choice(), "{host}");
                    checked += 1;
                }
                Answer::Status(status) if *status == 429 || *status >= 500 => {
                    // An outage: disallowed as crawlers act, never a block.
                    assert_eq!((root, cause), (Some(false), Cause::Unreachable), "{host}");
                }
                Answer::Status(_) => {
                    assert_eq!((root, cause), (Some(true), Cause::NoRobotsTxt), "{host}");
                }
                Answer::Unresolved => {
                    assert_eq!((root, cause), (None, Cause::Redirected), "{host}");
                    assert!(verdict.paths.is_empty());
                }
                Answer::Loop => {
                    assert_eq!((root, cause), (Some(true), Cause::Redirected), "{host}");
                }
            }
        }
    }
    assert!(checked > 4000 * CRAWLERS.len(), "{checked}");
    assert!(stated >= 20, "preferences stated {stated} times");
    let gptbot = &summary.crawlers[0];
    assert_eq!(gptbot.preferences as usize, {
        let prefs = |r: &&SiteRow| r.crawlers.first().is_some_and(|c| c.prefs.is_some());
        rows.iter().filter(prefs).count()
    });
    // No outage is inside the shares of blocking.
    let outages = bar
        .statuses
        .iter()
        .filter(|(_, s)| *s == 429 || *s >= 500)
        .count() as u64;
    assert_eq!(summary.unreachable, outages);
    for tally in &summary.crawlers {
        assert_eq!(tally.count(Cause::Unreachable), outages);
        let blocked: u64 = rows
            .iter()
            .filter(|r| !r.is_error() && r.status.is_some_and(|s| s >= 500 || s == 429))
            .filter(|r| {
                r.crawlers
                    .iter()
                    .any(|c| c.cause.is_some_and(Cause::is_blocked))
            })
            .count() as u64;
        assert_eq!(blocked, 0);
    }
    assert_eq!(
        summary.chosen + summary.unreachable + summary.redirected,
        summary.answered()
    );
}

/// Panics out of a survey once `after` chunks were classified.
fn stopped_run(survey: &Survey, inputs: &[Input], plan: &Plan, after: u64) {
    let chunks = std::sync::atomic::AtomicU64::new(0);
    let stopped = catch_unwind(AssertUnwindSafe(|| {
        crawlgate_survey::run(survey, inputs, plan, &|_| {
            if chunks.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == after {
                panic!("stopped on purpose");
            }
        })
    }));
    assert!(stopped.is_err(), "the survey was to stop");
}

#[test]
fn a_stopped_survey_resumed_gives_the_uninterrupted_table() {
    let dir = tempfile::tempdir().unwrap();
    let (_, warc) = build(dir.path());
    let folder = crawlgate_corpus::dir();
    let inputs = [Input::Warc(warc), Input::Folder(folder)];
    let whole = dir.path().join("whole.parquet");
    let uninterrupted = crawlgate_survey::run(
        &survey(),
        &inputs,
        &Plan {
            outputs: vec![whole.clone()],
            ..Plan::default()
        },
        &|_| {},
    )
    .unwrap();
    let expected = TableSource::open(&whole).unwrap().rows().unwrap();

    let table = dir.path().join("resumed.parquet");
    // An earlier table at the path stays whole while the survey is stopped.
    std::fs::copy(&whole, &table).unwrap();
    let plan = Plan {
        outputs: vec![table.clone(), dir.path().join("resumed.json")],
        checkpoint: 700,
        ..Plan::default()
    };
    // Stopped twice: in the first input, then in the second. The first
    // stop comes after the fifth chunk, so that a run has surely landed:
    // the second chunk (1,024 rows, past the checkpoint) begins one, which
    // the fourth waits for before it begins the next; the third lands it
    // only if it is already written.
    stopped_run(&survey(), &inputs, &plan, 5);
    assert_eq!(TableSource::open(&table).unwrap().rows().unwrap(), expected);
    let resume = Plan {
        resume: true,
        ..plan.clone()
    };
    stopped_run(&survey(), &inputs, &resume, 12);
    let work = dir.path().join(".resumed.parquet.crawlgate-work");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["position"]["input"], 1, "{manifest}");
    let summary = crawlgate_survey::run(&survey(), &inputs, &resume, &|_| {}).unwrap();
    let resumed = TableSource::open(&table).unwrap().rows().unwrap();
    assert_eq!(resumed.len(), expected.len());
    assert!(resumed == expected, "the resumed table differs");
    assert!(!work.exists(), "the work folder is removed once done");
    let accounting = summary.accounting.unwrap();
    assert_eq!(
        accounting.rows + accounting.duplicates + accounting.skipped_total(),
        accounting.records
    );
    // The checkpoints counted exactly the input before them: the resumed
    // survey's accounting is the uninterrupted one's.
    let whole_accounting = uninterrupted.accounting.unwrap();
    assert_eq!(
        (
            accounting.records,
            accounting.rows,
            accounting.skipped_total()
        ),
        (
            whole_accounting.records,
            whole_accounting.rows,
            whole_accounting.skipped_total()
        )
    );
    // Resuming what is finished is a clear error.
    let again = crawlgate_survey::run(&survey(), &inputs, &resume, &|_| {}).unwrap_err();
    assert!(again.to_string().contains("nothing to resume"), "{again}");
}
