//! The service's `POST /v1/report` (of `crawlgate serve`) and `crawlgate
//! report --json` give the same document for the same file: every field
//! the API carries, on corpus files, the counts and each line's
//! classification included. (The CLI adds per-line notes the API leaves
//! to `/v1/lint`: `google`, `elsewhere`, `lint`.)

use serde_json::{json, Value};

use crate::{crawlgate, send, stdout_of, Serving};

/// POSTs `body` as JSON; the status line and the JSON answer.
fn post(port: u16, path: &str, body: &Value) -> (String, Value) {
    let text = send(port, "POST", path, &serde_json::to_vec(body).unwrap()).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "{head}"
    );
    (
        head.lines().next().unwrap().to_owned(),
        serde_json::from_str(rest).unwrap(),
    )
}

#[test]
fn the_api_s_report_is_the_cli_s_report_json() {
    let server = Serving::start(&[]);
    let files: Vec<(String, Vec<u8>)> = crawlgate_corpus::files()
        .into_iter()
        .filter(|(_, bytes)| std::str::from_utf8(bytes).is_ok() && !bytes.is_empty())
        .collect();
    let step = files.len() / 6;
    let mut compared = 0;
    for (name, bytes) in files.iter().step_by(step).take(6) {
        let text = std::str::from_utf8(bytes).unwrap();
        let (status, api) = post(server.port, "/v1/report", &json!({"robots_txt": text}));
        assert!(status.contains(" 200 "), "{name}: {status} {api}");
        let output = crawlgate()
            .args(["report", "-", "--json"])
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        let cli: Value = serde_json::from_str(&stdout_of(&output)).unwrap();
        for field in [
            "bytes",
            "lines_total",
            "valid_directives",
            "unused_directives",
            "flagged",
            "kinds",
            "fetch",
        ] {
            assert_eq!(api[field], cli[field], "{name}: {field}");
        }
        let (api_lines, cli_lines) = (
            api["lines"].as_array().unwrap(),
            cli["lines"].as_array().unwrap(),
        );
        assert_eq!(api_lines.len(), cli_lines.len(), "{name}");
        for (a, c) in api_lines.iter().zip(cli_lines) {
            // Every field the API gives, the CLI gives alike.
            for (key, value) in a.as_object().unwrap() {
                assert_eq!(value, &c[key], "{name} line {}: {key}", a["line"]);
            }
        }
        // The API's document has every field of the CLI's but its notes.
        let missing: Vec<&String> = cli_lines[0]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| api_lines[0].get(k.as_str()).is_none())
            .collect();
        assert_eq!(missing, ["elsewhere", "google", "lint"], "{name}");
        compared += 1;
    }
    assert_eq!(compared, 6);
}
