//! Hostile input: garbage, huge declared lengths, huge names, many sites.
//! Error rows or clear errors, never a panic, and time linear in the input.

use std::time::{Duration, Instant};

use crawlgate_survey::input::{Input, TableFormat};
use crawlgate_survey::verdict::Cause;
use crawlgate_test_support::Rng;

use crate::warc_writer::{record_declaring, Response, WarcFile};
use crate::{survey_rows, write};

const CRAWLERS: [&str; 3] = ["GPTBot", "Googlebot", "*"];

/// Deterministic bytes that look like nothing.
fn garbage(len: usize, seed: u64) -> Vec<u8> {
    Rng::new(seed).bytes(len)
}

#[test]
fn garbage_gives_error_rows_or_linted_files_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("sites");
    std::fs::create_dir(&folder).unwrap();
    for i in 0..20 {
        write(
            &folder,
            &format!("garbage{i}.example"),
            &garbage(1000 + i * 977, i as u64),
        );
    }
    let mut gz = vec![0x1f, 0x8b, 0x08];
    gz.extend(garbage(50_000, 7));
    let inputs = [
        Input::Folder(folder),
        Input::Warc(write(dir.path(), "garbage.warc.gz", &gz)),
        Input::Warc(write(dir.path(), "garbage.warc", &garbage(50_000, 8))),
        Input::Table(
            write(dir.path(), "garbage.jsonl", &garbage(50_000, 9)),
            TableFormat::JsonLines,
        ),
        Input::Table(
            write(dir.path(), "garbage.csv", &garbage(50_000, 10)),
            TableFormat::Csv,
        ),
        Input::Warc(write(dir.path(), "empty.warc.gz", b"")),
    ];
    let (rows, summary) = survey_rows(dir.path(), &inputs, &CRAWLERS);
    // The garbage files of the folder are read as robots.txt (nothing valid).
    let files = rows
        .iter()
        .filter(|r| r["host"].as_str().is_some_and(|h| h.starts_with("garbage")))
        .count();
    assert_eq!(files, 20);
    assert!(summary.errors >= 4, "{}", summary.errors);
    for r in rows.iter().filter(|r| !r["error"].is_null()) {
        assert!(r["source"].as_str().unwrap().contains("garbage"), "{r}");
    }
}

#[test]
fn a_gigabyte_declared_is_an_error_row_read_in_no_time() {
    let dir = tempfile::tempdir().unwrap();
    let response = Response::ok("huge.example", "User-agent: *\nDisallow: /\n");
    let record = record_declaring(
        "response",
        &response.url,
        "application/http; msgtype=response",
        &response.http(),
        1 << 30,
    );
    for gzip in [true, false] {
        let mut warc = WarcFile::new(gzip);
        warc.response(&Response::ok(
            "before.example",
            "User-agent: *\nDisallow: /\n",
        ))
        .push(&record);
        let name = if gzip { "huge.warc.gz" } else { "huge.warc" };
        let started = Instant::now();
        let (rows, _) = survey_rows(
            dir.path(),
            &[Input::Warc(write(dir.path(), name, &warc.bytes))],
            &CRAWLERS,
        );
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_eq!(rows.len(), 2, "{name}");
        assert_eq!(rows[0]["cause_star"], "blocked_by_star");
        assert_eq!(rows[1]["host"], "huge.example");
        assert!(
            rows[1]["error"]
                .as_str()
                .unwrap()
                .contains("1073741824 bytes declared"),
            "{}",
            rows[1]
        );
    }
}

#[test]
fn a_seventy_thousand_character_host_is_an_error_row() {
    let dir = tempfile::tempdir().unwrap();
    let host = "a".repeat(70_000);
    let jsonl = write(
        dir.path(),
        "long.jsonl",
        format!("{{\"host\":\"{host}\",\"robots_txt\":\"User-agent: *\\n\"}}\n{{\"host\":\"ok.example\",\"robots_txt\":\"\"}}\n").as_bytes(),
    );
    // In a WARC record the name is too long for a header line; a shorter
    // one that is still too long for DNS is refused as a host.
    let mut warc = WarcFile::new(true);
    warc.response(&Response::ok(&format!("{host}.example"), "User-agent: *\n"))
        .response(&Response::ok(
            &format!("{}.example", "b".repeat(1000)),
            "User-agent: *\n",
        ));
    let warc = write(dir.path(), "long.warc.gz", &warc.bytes);
    let (rows, _) = survey_rows(
        dir.path(),
        &[
            Input::Table(jsonl, TableFormat::JsonLines),
            Input::Warc(warc),
        ],
        &CRAWLERS,
    );
    assert_eq!(rows.len(), 4);
    // Answered rows first, then error rows in input order.
    assert_eq!(rows[0]["host"], "ok.example");
    assert!(
        rows[1]["error"]
            .as_str()
            .unwrap()
            .contains("70000 characters"),
        "{}",
        rows[1]
    );
    assert!(
        rows[2]["error"]
            .as_str()
            .unwrap()
            .contains("a header line longer than 65536 bytes"),
        "{}",
        rows[2]
    );
    assert!(
        rows[3]["error"]
            .as_str()
            .unwrap()
            .contains("1008 characters"),
        "{}",
        rows[3]
    );
    assert!(rows[1..].iter().all(|r| r["host"].is_null()));
}

/// A gzip WARC of `sites` small captures.
fn many_sites(sites: usize) -> Vec<u8> {
    let mut warc = WarcFile::new(true);
    for i in 0..sites {
        let body =
            format!("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private/{i}\n");
        warc.response(&Response::ok(&format!("site{i}.example"), body));
    }
    warc.bytes
}

#[test]
fn a_hundred_thousand_sites_are_all_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "many.warc.gz", &many_sites(100_000));
    let (rows, summary) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    assert_eq!((rows.len(), summary.errors), (100_000, 0));
    assert_eq!(
        summary.crawlers[0].count(Cause::BlockedByName),
        100_000,
        "GPTBot blocked everywhere"
    );
    assert_eq!(rows[99_999]["host"], "site99999.example");
}

#[test]
fn time_grows_linearly_with_the_sites() {
    let dir = tempfile::tempdir().unwrap();
    let small = write(dir.path(), "small.warc.gz", &many_sites(5_000));
    let large = write(dir.path(), "large.warc.gz", &many_sites(20_000));
    let time = |path: &std::path::Path| {
        let started = Instant::now();
        let (rows, _) = survey_rows(dir.path(), &[Input::Warc(path.to_owned())], &CRAWLERS);
        assert!(rows.len() >= 5_000);
        started.elapsed()
    };
    // The best of three, the two sizes taken in turn, so that a burst of
    // load on a shared machine weighs on both alike rather than on one.
    let (mut t_small, mut t_large) = (Duration::MAX, Duration::MAX);
    for _ in 0..3 {
        t_small = t_small.min(time(&small));
        t_large = t_large.min(time(&large));
    }
    let ratio = t_large.as_secs_f64() / t_small.as_secs_f64();
    assert!(
        ratio <= 6.0,
        "4x the sites took {ratio:.1}x the time ({t_small:?} → {t_large:?})"
    );
}
