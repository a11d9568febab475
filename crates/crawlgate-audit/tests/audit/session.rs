//! Audits fed from memory (what Python and Spark do): the lab's lines in
//! batches give the rows and summary the file gives; Cloudflare records as
//! Arrow columns give the rows the same records as JSON lines give; junk
//! records are counted with their numbers.

use std::sync::Arc;

use arrow_array::{ArrayRef, RecordBatch, StringArray, TimestampNanosecondArray, UInt16Array};
use crawlgate_audit::audit::Audit;
use crawlgate_audit::format::{JsonFields, LogFormat};
use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::output::table::{Batches, OneBatch};
use crawlgate_audit::records::{lines, Columns};
use crawlgate_test_support::access_log::Lab;

use crate::support::{dns_server, on_disk, options, run, Keep};

#[test]
fn lines_in_batches_equal_the_file() {
    let lab = Lab::generate(3_000, 61);
    let disk = on_disk(&lab);
    let dns = dns_server(&lab);
    let feeds = || FeedSource::Mirror(disk.mirror.clone());
    let (from_file, file_rows) = run(options(lab.robots_txt, feeds(), Some(&dns)), &[&disk.log]);

    let audit = Audit::new(options(lab.robots_txt, feeds(), Some(&dns))).unwrap();
    let mut session = audit.session(disk.log.display().to_string());
    let mut keep = Keep::default();
    let all: Vec<&str> = lab.log.lines().collect();
    for batch in all.chunks(777) {
        // As Spark gives them: an Arrow text column named `value`.
        let batch = RecordBatch::try_from_iter([(
            "value",
            Arc::new(StringArray::from(batch.to_vec())) as ArrayRef,
        )])
        .unwrap();
        let text = lines(&batch, "value").unwrap();
        let texts: Vec<&str> = text.iter().map(Option::unwrap_or_default).collect();
        session.lines(&texts, &mut keep).unwrap();
    }
    let summary = session.finish();
    assert!(file_rows.iter().any(|r| r.violation) && file_rows.iter().any(|r| r.breach));
    assert_eq!(keep.0, file_rows);
    assert_eq!(summary, from_file);
}

/// One batch built from many writes holds the rows of a batch per write,
/// in order, value for value (its dictionaries shared, not per write).
#[test]
fn one_batch_holds_the_rows_of_a_batch_per_write() {
    let lab = Lab::generate(2_000, 7);
    let disk = on_disk(&lab);
    let audit = Audit::new(options(
        lab.robots_txt,
        FeedSource::Mirror(disk.mirror.clone()),
        None,
    ))
    .unwrap();
    let all: Vec<&str> = lab.log.lines().collect();
    let (mut one, mut each) = (OneBatch::default(), Batches::default());
    let mut first = audit.session("access.log");
    let mut second = audit.session("access.log");
    for chunk in all.chunks(300) {
        first.lines(chunk, &mut one).unwrap();
        second.lines(chunk, &mut each).unwrap();
    }
    let one = one.finish().unwrap();
    assert!(each.0.len() > 1, "{} writes", each.0.len());
    assert_eq!(
        one.num_rows(),
        each.0.iter().map(|b| b.num_rows()).sum::<usize>()
    );
    let mut at = 0;
    for batch in &each.0 {
        assert_eq!(one.slice(at, batch.num_rows()), *batch);
        at += batch.num_rows();
    }
}

fn cloudflare_batch(rows: &[crate::support::Kept], junk_at: usize) -> RecordBatch {
    let mut ip: Vec<String> = rows.iter().map(|r| r.ip.to_string()).collect();
    ip[junk_at] = "not-an-address".into();
    let column = |values: Vec<Option<String>>| Arc::new(StringArray::from(values)) as ArrayRef;
    RecordBatch::try_from_iter([
        ("ClientIP", column(ip.into_iter().map(Some).collect())),
        (
            "ClientRequestUserAgent",
            column(rows.iter().map(|r| Some(r.user_agent.clone())).collect()),
        ),
        (
            "ClientRequestURI",
            column(rows.iter().map(|r| r.url.clone()).collect()),
        ),
        (
            "ClientRequestHost",
            column(rows.iter().map(|_| Some("example.com".into())).collect()),
        ),
        (
            "EdgeResponseStatus",
            Arc::new(UInt16Array::from(vec![200u16; rows.len()])) as ArrayRef,
        ),
        (
            "EdgeStartTimestamp",
            Arc::new(
                TimestampNanosecondArray::from(
                    rows.iter()
                        .map(|r| r.time.map(|ms| ms * 1_000_000))
                        .collect::<Vec<_>>(),
                )
                .with_timezone("UTC"),
            ) as ArrayRef,
        ),
    ])
    .unwrap()
}

#[test]
fn arrow_records_equal_json_lines() {
    let lab = Lab::generate(1_500, 62);
    let disk = on_disk(&lab);
    let dns = dns_server(&lab);
    let feeds = || FeedSource::Mirror(disk.mirror.clone());
    let (_, combined) = run(options(lab.robots_txt, feeds(), Some(&dns)), &[&disk.log]);
    let junk_at = 17;
    let batch = cloudflare_batch(&combined, junk_at);

    // The same records as Cloudflare Logpush JSON lines, through the file.
    let json: String = (0..batch.num_rows())
        .map(|i| {
            let text = |name: &str| {
                batch
                    .column_by_name(name)
                    .unwrap()
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .unwrap()
                    .value(i)
                    .to_owned()
            };
            let time = combined[i].time.map_or(0, |ms| ms * 1_000_000);
            format!(
                "{}\n",
                serde_json::json!({
                    "ClientIP": text("ClientIP"),
                    "ClientRequestUserAgent": text("ClientRequestUserAgent"),
                    "ClientRequestURI": text("ClientRequestURI"),
                    "ClientRequestHost": "example.com",
                    "EdgeResponseStatus": 200,
                    "EdgeStartTimestamp": time,
                })
            )
        })
        .collect();
    let log = disk.log.with_file_name("cloudflare.jsonl");
    std::fs::write(&log, json).unwrap();
    let mut with_format = options(lab.robots_txt, feeds(), Some(&dns));
    with_format.format = Some(LogFormat::named("cloudflare", None, None).unwrap());
    let (from_file, file_rows) = run(with_format, &[&log]);
    assert_eq!(from_file.unreadable(), 1);
    assert_eq!(from_file.files[0].first_unreadable[0].0, junk_at as u64 + 1);

    let audit = Audit::new(options(lab.robots_txt, feeds(), Some(&dns))).unwrap();
    let mut session = audit.session(log.display().to_string());
    let mut keep = Keep::default();
    for start in (0..batch.num_rows()).step_by(500) {
        let part = batch.slice(start, 500.min(batch.num_rows() - start));
        let columns = Columns::of(&part, &JsonFields::cloudflare()).unwrap();
        session.requests(columns.requests(), &mut keep).unwrap();
    }
    let summary = session.finish();
    assert_eq!(keep.0, file_rows);
    assert_eq!(summary.unreadable(), 1);
    assert_eq!(
        summary.files[0].first_unreadable,
        from_file.files[0].first_unreadable
    );
    assert_eq!(summary.crawlers, from_file.crawlers);
    // The verdicts are the combined log's: the same requests.
    let essence = |rows: &[crate::support::Kept]| -> Vec<_> {
        rows.iter()
            .map(|r| {
                (
                    r.ip,
                    r.identity,
                    r.allowed,
                    r.rule_line,
                    r.violation,
                    r.honeypot,
                )
            })
            .collect()
    };
    let mut expected = combined.clone();
    expected.remove(junk_at);
    assert_eq!(essence(&keep.0), essence(&expected));
}

#[test]
fn junk_in_batches_is_counted_with_its_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::new(options(
        "User-agent: *\nDisallow: /private\n",
        FeedSource::Mirror(dir.path().join("none")),
        None,
    ))
    .unwrap();
    let mut session = audit.session("memory");
    let mut keep = Keep::default();
    let long = "x".repeat(70_000);
    let good = r#"192.0.2.1 - - [27/Nov/2026:10:00:00 +0000] "GET /private/a HTTP/1.1" 200 5 "-" "curl/8""#;
    let junk = "\u{1}\u{2}binary\u{7f}";
    session.lines(&[good, junk], &mut keep).unwrap();
    session
        .lines(&["", long.as_str(), good], &mut keep)
        .unwrap();
    let many: Vec<&str> = std::iter::repeat_n(good, 100_000).collect();
    session.lines(&many, &mut keep).unwrap();
    let summary = session.finish();
    assert_eq!(keep.0.len(), 100_002);
    assert_eq!(keep.0[1].line, 5);
    assert_eq!(keep.0.last().unwrap().line, 100_005);
    assert_eq!(keep.0[0].allowed, Some(false));
    assert_eq!(summary.unreadable(), 3);
    let numbers: Vec<u64> = summary.files[0]
        .first_unreadable
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(numbers, [2, 3, 4]);
    assert_eq!(summary.files[0].lines, 100_005);

    // Records without a client address column: a clear error.
    let batch =
        RecordBatch::try_from_iter([("url", Arc::new(StringArray::from(vec!["/"])) as ArrayRef)])
            .unwrap();
    let error = Columns::of(&batch, &JsonFields::default()).unwrap_err();
    assert!(error.contains("no client address column"), "{error}");
}
