//! `crawlgate report`: what the command shows (human and JSON) is what the
//! library's `SearchConsoleReport` says, line for line; a URL is fetched
//! from a test origin on loopback and the fetch is shown; bad input gets an
//! answer or a clear error.

use crawlgate::SearchConsoleReport;
use crawlgate_testserver::{Reply, TestServer};
use serde_json::Value;

use crate::{corpus, crawlgate, stderr_of, stdout_of, Files};

/// One line of each sort.
const MIXED: &str = "\
# shop.example
User-agent: *
Disalow: /cart
Disallow /checkout
Crawl-delay: 10
unicorns: yes
<p>not a robots.txt line</p>

Sitemap: https://shop.example/sitemap.xml
";

fn report_json(args: &[&str], stdin: Option<&[u8]>) -> (Option<i32>, Value) {
    let mut command = crawlgate();
    command.arg("report").args(args).arg("--json");
    if let Some(stdin) = stdin {
        command.write_stdin(stdin.to_vec());
    }
    let output = command.output().unwrap();
    let json = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", stderr_of(&output)));
    (output.status.code(), json)
}

/// The JSON's lines hold what the library says of each line of `bytes`.
fn assert_json_is_the_library(json: &Value, bytes: &[u8], what: &str) {
    let report = SearchConsoleReport::of(bytes);
    let lines = json["lines"].as_array().unwrap();
    assert_eq!(
        lines.len(),
        report.lines().len(),
        "{what}: one entry per line"
    );
    assert_eq!(json["lines_total"], report.lines().len(), "{what}");
    assert_eq!(
        json["valid_directives"],
        report.valid_directives(),
        "{what}"
    );
    assert_eq!(
        json["unused_directives"],
        report.unused_directives(),
        "{what}"
    );
    assert_eq!(json["flagged"], report.flagged().count(), "{what}");
    for (shown, line) in lines.iter().zip(report.lines()) {
        let at = format!("{what}:{}", line.number);
        assert_eq!(shown["line"], line.number, "{at}");
        assert_eq!(shown["kind"], line.kind.as_str(), "{at}");
        assert_eq!(shown["tag"], line.tag().as_str(), "{at}");
        assert_eq!(shown["typo"], line.typo, "{at}");
        assert_eq!(shown["missing_colon"], line.missing_colon, "{at}");
        assert_eq!(shown["too_long"], line.too_long, "{at}");
        assert_eq!(shown["has_comment"], line.has_comment, "{at}");
        assert_eq!(shown["flagged"], line.is_flagged(), "{at}");
        assert_eq!(shown["known_as"].as_str(), line.known_as, "{at}");
        let key = line
            .key
            .as_ref()
            .map(|k| String::from_utf8_lossy(&bytes[k.bytes.clone()]).into_owned());
        assert_eq!(shown["key"].as_str(), key.as_deref(), "{at}");
        assert_eq!(
            shown["text"].as_str().unwrap(),
            String::from_utf8_lossy(&bytes[line.bytes.clone()]),
            "{at}"
        );
        // A flagged line says what Google says; no other line does.
        assert_eq!(shown["google"].is_string(), line.is_flagged(), "{at}");
    }
}

#[test]
fn json_has_an_entry_for_every_line_as_the_library_says() {
    let files = Files::new();
    let path = files.write("robots.txt", MIXED);
    let (code, json) = report_json(&[path.to_str().unwrap()], None);
    assert_eq!(code, Some(1), "lines are flagged");
    assert_json_is_the_library(&json, MIXED.as_bytes(), "mixed");
    assert_eq!(json["source"], path.to_str().unwrap());
    assert!(json["fetch"].is_null());
    assert_eq!(json["kinds"]["invalid"], 1);
    assert_eq!(json["kinds"]["empty"], 2);
    // What Google's report says and what Bing reads, both.
    let delay = &json["lines"][4];
    assert_eq!(delay["kind"], "unused");
    assert_eq!(
        delay["google"],
        "unused: Google recognises `crawl-delay` and does not use it"
    );
    assert_eq!(delay["elsewhere"]["reading"], "bing");
    assert_eq!(
        delay["elsewhere"]["text"],
        "bingbot: wait 10 s between requests (Bing reads it; Google ignores it)"
    );
    // The linter's finding on the typo.
    let typo = &json["lines"][2];
    assert!(
        typo["lint"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["name"] == "misspelled-field" && f["line"] == 3),
        "{typo}"
    );
}

#[test]
fn json_agrees_with_the_library_on_corpus_files_with_every_kind_and_flag() {
    // The first corpus files with each kind or flag, read by the binary.
    let mut wanted: Vec<&str> = vec![
        "unused",
        "unknown",
        "invalid",
        "typo",
        "missing_colon",
        "too_long",
    ];
    let dir = corpus();
    for (name, bytes) in crawlgate_corpus::files() {
        let report = SearchConsoleReport::of(&bytes);
        let has = |what: &str| {
            report.lines().iter().any(|l| match what {
                "typo" => l.typo,
                "missing_colon" => l.missing_colon,
                "too_long" => l.too_long,
                kind => l.kind.as_str() == kind,
            })
        };
        if !wanted.iter().any(|w| has(w)) {
            continue;
        }
        wanted.retain(|w| !has(w));
        let path = dir.join(&name);
        let (code, json) = report_json(&[path.to_str().unwrap()], None);
        assert_eq!(code, Some(i32::from(report.flagged().next().is_some())));
        assert_json_is_the_library(&json, &bytes, &name);
        if wanted.is_empty() {
            return;
        }
    }
    panic!("no corpus file has {wanted:?}");
}

#[test]
fn human_output_shows_every_line_the_counts_and_the_flagged_lines() {
    let files = Files::new();
    files.write("robots.txt", MIXED);
    let output = crawlgate()
        .current_dir(files.path())
        .args(["report", "robots.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = stdout_of(&output);
    let report = SearchConsoleReport::of(MIXED.as_bytes());
    // One row per line: its number, kind and flags, text; as the library says.
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .skip(1)
        .take(report.lines().len())
        .collect();
    assert_eq!(rows.len(), report.lines().len(), "{text}");
    for (row, line) in rows.iter().zip(report.lines()) {
        let mut words = row.split_whitespace();
        assert_eq!(
            words.next(),
            Some(line.number.to_string().as_str()),
            "{row}"
        );
        let kind = words.next().unwrap().trim_end_matches(',');
        assert_eq!(kind, line.kind.as_str(), "{row}");
        assert_eq!(row.contains(", typo"), line.typo, "{row}");
        assert_eq!(row.contains(", no colon"), line.missing_colon, "{row}");
        let written = &MIXED.lines().nth(line.number as usize - 1).unwrap_or("");
        assert!(row.ends_with(written), "{row:?} shows {written:?}");
    }
    assert!(
        text.contains("\n10 lines: 4 valid directives, 2 unused directives; 5 flagged\n"),
        "{text}"
    );
    let flagged = text.split("Flagged lines\n").nth(1).unwrap();
    for expected in [
        "  robots.txt:3  Disalow: /cart\n    google     typo: `Disalow` is a misspelling Google accepts, read as `disallow`\n    lint       R003 misspelled-field: ",
        "  robots.txt:4  Disallow /checkout\n    google     no colon: Google reads the two words as `key: value`\n",
        "  robots.txt:5  Crawl-delay: 10\n    google     unused: Google recognises `crawl-delay` and does not use it\n    bing       bingbot: wait 10 s between requests (Bing reads it; Google ignores it)\n",
        "  robots.txt:6  unicorns: yes\n    google     unknown: Google does not know the key `unicorns`; the line is ignored\n",
        "  robots.txt:7  <p>not a robots.txt line</p>\n    google     not `key: value`: Google ignores the line\n",
    ] {
        assert!(flagged.contains(expected), "missing {expected:?} in\n{flagged}");
    }
    // `--flagged`: only those rows.
    let output = crawlgate()
        .current_dir(files.path())
        .args(["report", "robots.txt", "--flagged"])
        .output()
        .unwrap();
    let text = stdout_of(&output);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    let numbers: Vec<&str> = table
        .iter()
        .map(|r| r.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(numbers, ["3", "4", "5", "6", "7"], "{text}");
}

#[test]
fn a_clean_file_exits_0_and_stdin_is_read() {
    let clean = "User-agent: *\nDisallow: /private\n";
    let (code, json) = report_json(&["-"], Some(clean.as_bytes()));
    assert_eq!(code, Some(0));
    assert_eq!(json["source"], "<stdin>");
    assert_json_is_the_library(&json, clean.as_bytes(), "stdin");
}

#[test]
fn a_url_is_fetched_as_google_does_and_its_lines_shown() {
    let server = TestServer::start([("/robots.txt", Reply::text(200, MIXED))]);
    let output = crawlgate()
        .args(["report", &server.url("/any/page"), "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let text = stdout_of(&output);
    let robots = server.url("/robots.txt");
    for expected in [
        format!("Search Console's view of {robots} (Google's reporting library)\n"),
        format!(
            "fetched  {robots}: HTTP 200, {} bytes: conditional (robots.txt fetched and parsed), took ",
            MIXED.len()
        ),
        "\n 5  unused ".to_owned(),
        format!("  {robots}:5  Crawl-delay: 10\n"),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in\n{text}");
    }
    let (code, json) = report_json(&[&server.url("/"), "--allow-private"], None);
    assert_eq!(code, Some(1));
    assert_eq!(json["fetch"]["status"], 200);
    assert_eq!(json["fetch"]["outcome"], "conditional");
    assert_eq!(json["fetch"]["bytes_read"], MIXED.len());
    assert!(json["fetch"]["elapsed_ms"].is_u64());
    assert_json_is_the_library(&json, MIXED.as_bytes(), "fetched");
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[test]
fn a_fetch_without_a_body_has_no_lines() {
    let server = TestServer::start([("/robots.txt", Reply::status(503))]);
    let (code, json) = report_json(&[&server.url("/"), "--allow-private"], None);
    assert_eq!(code, Some(1), "5xx: full disallow");
    assert_eq!(json["fetch"]["status"], 503);
    assert_eq!(json["lines"].as_array().unwrap().len(), 0);
    let missing = TestServer::start([]);
    let output = crawlgate()
        .args(["report", &missing.url("/"), "--allow-private"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "4xx: full allow");
    let text = stdout_of(&output);
    assert!(text.contains(": HTTP 404, 0 bytes: full allow"), "{text}");
    assert!(
        text.ends_with("\nno robots.txt body: nothing to classify\n"),
        "{text}"
    );
}

#[test]
fn bad_input_gets_an_answer_or_a_clear_error() {
    let files = Files::new();
    // Garbage bytes: every line classified, nothing lost.
    let garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let path = files.write("garbage", &garbage);
    let (code, json) = report_json(&[path.to_str().unwrap()], None);
    assert!(matches!(code, Some(0 | 1)));
    assert_json_is_the_library(&json, &garbage, "garbage");

    // A 70,000-byte line: too long, read and shown.
    let long = format!("User-agent: *\nDisallow: /{}\n", "a".repeat(70_000));
    let path = files.write("long", &long);
    let (code, json) = report_json(&[path.to_str().unwrap()], None);
    assert_eq!(code, Some(1));
    assert_eq!(json["lines"][1]["too_long"], true);
    assert_json_is_the_library(&json, long.as_bytes(), "long");
    let output = crawlgate().args(["report"]).arg(&path).output().unwrap();
    let text = stdout_of(&output);
    assert!(
        text.contains("\n2  disallow, too long  Disallow: /aaa"),
        "{text}"
    );
    assert!(text.contains("… (70011 characters)"), "{text}");
    assert!(
        text.len() < 10_000,
        "the long line is cut in the human output"
    );

    // 100,000 lines: an entry each.
    let many: String = (0..100_000).map(|i| format!("Disallow: /{i}\n")).collect();
    let path = files.write("many", &many);
    let (code, json) = report_json(&[path.to_str().unwrap()], None);
    assert_eq!(code, Some(0));
    assert_eq!(json["lines"].as_array().unwrap().len(), 100_001);
    assert_eq!(json["valid_directives"], 100_000);

    // A bad URL, a missing file, an unknown option: exit 2 and why.
    for (args, message) in [
        (vec!["report", "http://[::1"], "invalid URL `http://[::1`"),
        (
            vec!["report", "ftp://example.com/"],
            "over ftp is not supported",
        ),
        (
            vec!["report", "no-such-file.txt"],
            "cannot read robots.txt file `no-such-file.txt`",
        ),
        (
            vec!["report", "robots.txt", "--bogus"],
            "unexpected argument '--bogus'",
        ),
    ] {
        let output = crawlgate().args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr_of(&output);
        assert!(error.contains(message), "{args:?}: {error}");
    }
}
