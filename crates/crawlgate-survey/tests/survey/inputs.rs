//! Every kind of input gives the same rows for the same captures, and the
//! fetch rules decide what a status means.

use std::io::Write as _;

use crawlgate_survey::input::{Input, TableFormat};
use serde_json::{json, Value};

use crate::warc_writer::{gzip, record, record_declaring, Response, WarcFile};
use crate::{row, survey_rows, write};

const CRAWLERS: [&str; 4] = ["GPTBot", "CCBot", "Googlebot", "*"];

/// The columns that describe a site (not where its row came from).
fn facts(row: &Value) -> Value {
    let mut facts = row.clone();
    let object = facts.as_object_mut().unwrap();
    object.remove("source");
    facts
}

#[test]
fn a_folder_and_a_warc_of_the_same_corpus_give_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = crawlgate_corpus::dir();
    let mut warc = WarcFile::new(true);
    for name in crawlgate_corpus::names() {
        let body = std::fs::read(corpus.join(&name)).unwrap();
        warc.response(&Response::status(&name, 200, body));
    }
    let warc_path = write(dir.path(), "corpus.warc.gz", &warc.bytes);
    let (from_folder, summary) =
        survey_rows(dir.path(), &[Input::Folder(corpus.clone())], &CRAWLERS);
    let (from_warc, _) = survey_rows(dir.path(), &[Input::Warc(warc_path)], &CRAWLERS);
    assert_eq!(from_folder.len(), crawlgate_corpus::FILES);
    assert_eq!(summary.errors, 0);
    let mut by_host: Vec<(String, Value)> = from_warc
        .iter()
        .map(|r| (r["host"].as_str().unwrap().to_owned(), r.clone()))
        .collect();
    by_host.sort_by(|a, b| a.0.cmp(&b.0));
    for (host, warc_row) in &by_host {
        let mut folder_row = facts(row(&from_folder, host));
        // A WARC capture has a status and a type; a file has neither.
        folder_row["status"] = json!(200);
        folder_row["content_type"] = Value::Null;
        assert_eq!(facts(warc_row), folder_row, "{host}");
    }
    assert_eq!(by_host.len(), from_folder.len());
}

#[test]
fn statuses_mean_what_the_fetch_rules_say() {
    let dir = tempfile::tempdir().unwrap();
    let robots = "User-agent: GPTBot\nDisallow: /\n";
    let mut warc = WarcFile::new(true);
    warc.response(&Response::status("fivexx.example", 503, robots))
        .response(&Response::status("slow.example", 429, robots))
        .response(
            &Response::status("missing.example", 404, robots).header("Content-Type", "text/html"),
        )
        .response(&Response::status("forbidden.example", 403, robots))
        .response(
            &Response::status("moved.example", 301, "")
                .header("Location", "https://www.moved.example/robots.txt"),
        )
        .response(&Response::ok("ok.example", robots))
        .response(
            &Response::status(
                "html.example",
                200,
                "<!DOCTYPE html><html><body>Welcome</body></html>",
            )
            .header("Content-Type", "text/html; charset=utf-8"),
        )
        .response(
            &Response::status("typed.example", 200, robots).header("Content-Type", "text/html"),
        );
    let path = write(dir.path(), "statuses.warc.gz", &warc.bytes);
    let (rows, summary) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    assert_eq!(rows.len(), 8);
    let expect = [
        (
            "fivexx.example",
            503,
            "full_disallow",
            "server_error",
            "blocked",
        ),
        (
            "slow.example",
            429,
            "full_disallow",
            "server_error",
            "blocked",
        ),
        (
            "missing.example",
            404,
            "full_allow",
            "not_found",
            "unmentioned",
        ),
        (
            "forbidden.example",
            403,
            "full_allow",
            "not_found",
            "unmentioned",
        ),
        (
            "moved.example",
            301,
            "full_allow",
            "redirects_not_followed",
            "unmentioned",
        ),
        ("ok.example", 200, "conditional", "fetched", "blocked"),
    ];
    for (host, status, outcome, reason, gptbot) in expect {
        let r = row(&rows, host);
        assert_eq!(
            (
                r["status"].clone(),
                r["outcome"].clone(),
                r["reason"].clone(),
                r["class_gptbot"].clone()
            ),
            (json!(status), json!(outcome), json!(reason), json!(gptbot)),
            "{host}"
        );
    }
    // Everything is disallowed on a server error, for every crawler.
    assert_eq!(row(&rows, "fivexx.example")["class_star"], "blocked");
    assert_eq!(row(&rows, "fivexx.example")["lint_errors"], Value::Null);
    assert_eq!(
        row(&rows, "moved.example")["location"],
        "https://www.moved.example/robots.txt"
    );
    // HTML: a page served as robots.txt, or rules served as text/html.
    assert_eq!(row(&rows, "html.example")["html"], true);
    assert_eq!(row(&rows, "html.example")["lint_r017"], 1);
    assert_eq!(row(&rows, "typed.example")["html"], true);
    assert_eq!(row(&rows, "typed.example")["class_gptbot"], "blocked");
    assert_eq!(row(&rows, "ok.example")["html"], false);
    // A 404's HTML page is no robots.txt served as HTML.
    assert_eq!(row(&rows, "missing.example")["html"], false);
    assert_eq!(summary.outcomes, [3, 2, 3]);
}

#[test]
fn encoded_bodies_are_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let robots = "User-agent: CCBot\nDisallow: /\n";
    let chunked = format!(
        "{:x}\r\n{}\r\n{:x}\r\n{}\r\n0\r\n\r\n",
        10,
        &robots[..10],
        robots.len() - 10,
        &robots[10..]
    );
    let mut deflated = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    deflated.write_all(robots.as_bytes()).unwrap();
    let mut warc = WarcFile::new(false);
    warc.response(
        &Response::status("chunked.example", 200, chunked).header("Transfer-Encoding", "chunked"),
    )
    .response(
        &Response::status("gzip.example", 200, gzip(robots.as_bytes()))
            .header("Content-Encoding", "gzip"),
    )
    .response(
        &Response::status("deflate.example", 200, deflated.finish().unwrap())
            .header("Content-Encoding", "deflate"),
    )
    .response(&Response::status("brotli.example", 200, "xx").header("Content-Encoding", "br"))
    .response(
        &Response::status("badgzip.example", 200, "not gzip").header("Content-Encoding", "gzip"),
    );
    let path = write(dir.path(), "encoded.warc", &warc.bytes);
    let (rows, _) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    for host in ["chunked.example", "gzip.example", "deflate.example"] {
        let r = row(&rows, host);
        assert_eq!(
            (r["class_ccbot"].clone(), r["size"].clone()),
            (json!("blocked"), json!(robots.len())),
            "{host}"
        );
    }
    assert!(row(&rows, "brotli.example")["error"]
        .as_str()
        .unwrap()
        .contains("\"br\""));
    assert!(row(&rows, "badgzip.example")["error"]
        .as_str()
        .unwrap()
        .contains("cannot be decoded"));
}

#[test]
fn other_records_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let mut warc = WarcFile::new(true);
    let ok = Response::ok("a.example", "User-agent: *\nDisallow: /\n");
    warc.push(&record(
        "warcinfo",
        "",
        "application/warc-fields",
        b"software: test\r\n",
    ))
    .push(&record(
        "request",
        &ok.url,
        "application/http; msgtype=request",
        b"GET /robots.txt HTTP/1.1\r\n\r\n",
    ))
    .response(&ok)
    .push(&record(
        "response",
        "https://a.example/index.html",
        "application/http; msgtype=response",
        &ok.http(),
    ))
    .push(&record(
        "metadata",
        &ok.url,
        "application/warc-fields",
        b"fetchTimeMs: 12\r\n",
    ));
    let path = write(dir.path(), "mixed.warc.gz", &warc.bytes);
    let (rows, _) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["class_star"], "blocked");
}

#[test]
fn damaged_records_become_error_rows_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let robots = "User-agent: GPTBot\nDisallow: /\n";
    let good = |host: &str| Response::ok(host, robots);
    let cut = crate::warc_writer::response_record(&good("cut.example"));
    let long = good("long.example").http();
    let mut warc = WarcFile::new(true);
    warc.response(&good("first.example"))
        // A member cut in the middle.
        .raw(&gzip(&cut)[..40])
        .response(&good("second.example"))
        // Bytes that are no gzip member at all.
        .raw(b"this is not gzip at all")
        .response(&good("third.example"))
        // A record declaring more than it holds.
        .push(&record_declaring(
            "response",
            "https://long.example/robots.txt",
            "application/http; msgtype=response",
            &long,
            1 << 30,
        ))
        // A record whose length is no number, and a block that is no HTTP.
        .push(
            &record_declaring(
                "response",
                "https://nan.example/robots.txt",
                "application/http",
                &long,
                0,
            )
            .replace_length("12x"),
        )
        .push(&record(
            "response",
            "https://nohttp.example/robots.txt",
            "application/http",
            b"hello",
        ))
        .response(&good("last.example"));
    let path = write(dir.path(), "damaged.warc.gz", &warc.bytes);
    let (rows, summary) = survey_rows(dir.path(), &[Input::Warc(path.clone())], &CRAWLERS);
    let hosts: Vec<&str> = rows
        .iter()
        .filter(|r| r["error"].is_null())
        .map(|r| r["host"].as_str().unwrap())
        .collect();
    assert_eq!(
        hosts,
        [
            "first.example",
            "second.example",
            "third.example",
            "last.example"
        ]
    );
    for good_row in rows.iter().filter(|r| r["error"].is_null()) {
        assert_eq!(good_row["class_gptbot"], "blocked");
    }
    let errors: Vec<&str> = rows.iter().filter_map(|r| r["error"].as_str()).collect();
    assert_eq!(summary.errors as usize, errors.len());
    assert!(
        errors.iter().any(|e| e.contains("cannot read further")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("not a gzip member")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("1073741824 bytes declared")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("Content-Length that is not a number")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("not an HTTP status line")),
        "{errors:?}"
    );
    let long_row = row(&rows, "long.example");
    assert!(long_row["error"].as_str().unwrap().contains("cut short"));
    // Every error row says where it was.
    for r in rows.iter().filter(|r| !r["error"].is_null()) {
        assert!(
            r["source"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{}@", path.display())),
            "{r}"
        );
    }
}

#[test]
fn plain_warc_files_resynchronise_at_the_next_record() {
    let dir = tempfile::tempdir().unwrap();
    let robots = "User-agent: GPTBot\nDisallow: /\n";
    let mut warc = WarcFile::new(false);
    warc.response(&Response::ok("first.example", robots))
        .raw(b"some garbage line\r\nand another\r\n")
        .response(&Response::ok("second.example", robots));
    let path = write(dir.path(), "plain.warc", &warc.bytes);
    let (rows, _) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["host"], "first.example");
    assert!(rows[1]["error"]
        .as_str()
        .unwrap()
        .contains("not a WARC record"));
    assert_eq!(rows[2]["host"], "second.example");
    let offset: usize = rows[2]["source"]
        .as_str()
        .unwrap()
        .rsplit('@')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(offset > 0, "the second record starts after the first");
}

#[test]
fn tables_give_the_rows_their_columns_describe() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = write(
        dir.path(),
        "sites.jsonl",
        br#"{"host":"a.example","robots_txt":"User-agent: GPTBot\nDisallow: /\n"}
{"host":"b.example","robots_txt":"","status":500}
"#,
    );
    let csv = write(
        dir.path(),
        "sites.csv",
        b"host,robots_txt,status,content_type\nc.example,\"User-agent: *\nDisallow: /private\n\",200,text/plain\n",
    );
    let (rows, _) = survey_rows(
        dir.path(),
        &[
            Input::Table(jsonl, TableFormat::JsonLines),
            Input::Table(csv, TableFormat::Csv),
        ],
        &CRAWLERS,
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(row(&rows, "a.example")["class_gptbot"], "blocked");
    assert_eq!(row(&rows, "a.example")["status"], Value::Null);
    assert_eq!(row(&rows, "b.example")["outcome"], "full_disallow");
    let c = row(&rows, "c.example");
    assert_eq!(
        (c["class_star"].clone(), c["line_star"].clone()),
        (json!("partial"), Value::Null)
    );
    assert_eq!(c["content_type"], "text/plain");
}

/// Editing a record's raw bytes.
trait ReplaceLength {
    fn replace_length(self, with: &str) -> Vec<u8>;
}

impl ReplaceLength for Vec<u8> {
    fn replace_length(self, with: &str) -> Vec<u8> {
        String::from_utf8(self)
            .unwrap()
            .replacen("Content-Length: 0", &format!("Content-Length: {with}"), 1)
            .into_bytes()
    }
}
