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
    for place in ["source", "offset", "url", "captured"] {
        object.remove(place);
    }
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
        // A WARC capture has a status; a file has none.
        folder_row["status"] = json!(200);
        folder_row["fetch_class"] = json!("success");
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
    let n = Value::Null;
    let expect = [
        (
            "fivexx.example",
            503,
            json!("full_disallow"),
            json!("server_error"),
            "unreachable",
            json!("disallowed"),
            "http_defer_visits",
        ),
        (
            "slow.example",
            429,
            json!("full_disallow"),
            json!("server_error"),
            "unreachable",
            json!("disallowed"),
            "http_defer_visits",
        ),
        (
            "missing.example",
            404,
            json!("full_allow"),
            json!("not_found"),
            "no_robots_txt",
            json!("allowed"),
            "http_allow_all",
        ),
        (
            "forbidden.example",
            403,
            json!("full_allow"),
            json!("not_found"),
            "no_robots_txt",
            json!("allowed"),
            "http_forbidden",
        ),
        // The input does not hold the redirect's target: no answer.
        (
            "moved.example",
            301,
            n.clone(),
            n.clone(),
            "redirected",
            n.clone(),
            "http_redirect_not_resolved",
        ),
        (
            "ok.example",
            200,
            json!("conditional"),
            json!("fetched"),
            "blocked_by_name",
            json!("disallowed"),
            "robotstxt_with_rules",
        ),
    ];
    for (host, status, outcome, reason, cause, root, cc) in expect {
        let r = row(&rows, host);
        assert_eq!(
            (
                r["status"].clone(),
                r["outcome"].clone(),
                r["reason"].clone(),
                r["cause_gptbot"].clone(),
                r["root_gptbot"].clone(),
                r["cc_class"].clone(),
            ),
            (
                json!(status),
                outcome,
                reason,
                json!(cause),
                root,
                json!(cc)
            ),
            "{host}"
        );
    }
    // Everything is disallowed on a server error, for every crawler: an
    // outage, never a robots.txt block.
    assert_eq!(row(&rows, "fivexx.example")["cause_star"], "unreachable");
    assert_eq!(row(&rows, "fivexx.example")["lint_errors"], Value::Null);
    assert_eq!(
        row(&rows, "moved.example")["location"],
        "https://www.moved.example/robots.txt"
    );
    // HTML: a page served as robots.txt (no robots.txt, crawlers find no
    // rule in it), or rules served as text/html (a robots.txt all the same).
    let page = row(&rows, "html.example");
    assert_eq!(
        (
            page["html"].clone(),
            page["lint_r017"].clone(),
            page["cause_gptbot"].clone(),
            page["root_gptbot"].clone()
        ),
        (
            json!(true),
            json!(1),
            json!("not_robots_txt"),
            json!("allowed")
        )
    );
    assert_eq!(page["cc_class"], "mime_not_robotstxt");
    assert_eq!(row(&rows, "typed.example")["html"], true);
    assert_eq!(
        row(&rows, "typed.example")["cause_gptbot"],
        "blocked_by_name"
    );
    assert_eq!(row(&rows, "ok.example")["html"], false);
    // A 404's HTML page is no robots.txt served as HTML.
    assert_eq!(row(&rows, "missing.example")["html"], false);
    assert_eq!(summary.outcomes, [2, 2, 3]);
    assert_eq!(
        (summary.unreachable, summary.redirected, summary.chosen),
        (2, 1, 5)
    );
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
            (r["cause_ccbot"].clone(), r["size"].clone()),
            (json!("blocked_by_name"), json!(robots.len())),
            "{host}"
        );
    }
    // An error row each, with its host.
    let error_of = |host: &str| -> &str {
        rows.iter()
            .find(|r| r["host"] == host)
            .and_then(|r| r["error"].as_str())
            .unwrap_or_else(|| panic!("no error row for {host}"))
    };
    assert!(error_of("brotli.example").contains("\"br\""));
    assert!(error_of("badgzip.example").contains("cannot be decoded"));
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
    let (rows, summary) = survey_rows(dir.path(), &[Input::Warc(path)], &CRAWLERS);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["cause_star"], "blocked_by_star");
    // Every record is accounted for.
    let accounting = summary.accounting.unwrap();
    assert_eq!((accounting.records, accounting.rows), (5, 1));
    assert_eq!(
        accounting.skipped,
        [
            ("not_response".into(), 3),
            ("not_http".into(), 0),
            ("other_url".into(), 1)
        ]
    );
}

#[test]
fn damaged_records_become_one_error_row_each_and_the_rest_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let robots = "User-agent: GPTBot\nDisallow: /\n";
    let good = |host: &str| Response::ok(host, robots);
    let cut = crate::warc_writer::response_record(&good("cut.example"));
    let long = good("long.example").http();
    let mut corrupt = gzip(&crate::warc_writer::response_record(&good(
        "corrupt.example",
    )));
    // Damaged near its end, before the trailer's CRC and length: the WARC
    // header is decoded well before the damage, whatever the encoder.
    let damaged = corrupt.len() - 16;
    for byte in &mut corrupt[damaged..damaged + 8] {
        *byte ^= 0x5a;
    }
    let mut warc = WarcFile::new(true);
    warc.response(&good("first.example"))
        // A member cut in the middle.
        .raw(&gzip(&cut)[..40])
        .response(&good("second.example"))
        // Bytes that are no gzip member at all.
        .raw(b"this is not gzip at all")
        .response(&good("third.example"))
        // A member whose compressed bytes were damaged.
        .raw(&corrupt)
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
        // A target URI that does not parse.
        .push(&record(
            "response",
            "http://exa mple.example:99999/robots.txt",
            "application/http",
            &long,
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
            "last.example",
            "second.example",
            "third.example"
        ]
    );
    for good_row in rows.iter().filter(|r| r["error"].is_null()) {
        assert_eq!(good_row["cause_gptbot"], "blocked_by_name");
    }
    // Exactly one error row per damaged member, record or span.
    let errors: Vec<&str> = rows.iter().filter_map(|r| r["error"].as_str()).collect();
    assert_eq!(errors.len(), 7, "{errors:#?}");
    assert_eq!(summary.errors, 7);
    let expected = [
        "a damaged gzip member",
        "not a WARC gzip member",
        "a damaged gzip member",
        "1073741824 bytes declared",
        "Content-Length that is not a number",
        "not an HTTP status line",
        "does not parse",
    ];
    for (error, expected) in errors.iter().zip(expected) {
        assert!(error.contains(expected), "{error} / {expected}");
    }
    // Error rows keep the host when the record said it, and their place.
    let with_host: Vec<&str> = rows
        .iter()
        .filter(|r| !r["error"].is_null())
        .filter_map(|r| r["host"].as_str())
        .collect();
    // (The damaged member's WARC header decodes before the damage.)
    assert_eq!(
        with_host,
        [
            "corrupt.example",
            "long.example",
            "nan.example",
            "nohttp.example"
        ]
    );
    for r in rows.iter().filter(|r| !r["error"].is_null()) {
        let offset = r["offset"].as_u64().unwrap();
        assert_eq!(
            r["source"].as_str().unwrap(),
            format!("{}@{offset}", path.display()),
            "{r}"
        );
    }
    // Rows and skips add up to the records written.
    let accounting = summary.accounting.unwrap();
    assert_eq!(accounting.records, 11);
    assert_eq!(
        accounting.rows + accounting.duplicates + accounting.skipped_total(),
        11
    );
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
    assert_eq!(rows[1]["host"], "second.example");
    assert!(rows[2]["error"]
        .as_str()
        .unwrap()
        .contains("not a WARC record"));
    let offset: usize = rows[1]["source"]
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
    assert_eq!(row(&rows, "a.example")["cause_gptbot"], "blocked_by_name");
    assert_eq!(row(&rows, "a.example")["status"], Value::Null);
    assert_eq!(row(&rows, "b.example")["outcome"], "full_disallow");
    let c = row(&rows, "c.example");
    assert_eq!(
        (
            c["cause_star"].clone(),
            c["line_star"].clone(),
            c["root_star"].clone()
        ),
        (json!("partly_blocked"), Value::Null, json!("allowed"))
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
