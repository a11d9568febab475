//! What changes when `crawlgate` writes to a terminal: colour on standard
//! output and the progress bar of `batch` on standard error.
//!
//! The binary runs under a pseudo-terminal made by util-linux `script`
//! (part of every Debian base system); without it these tests fail and say
//! so rather than pass untested.

use std::path::Path;
use std::process::Command;

use crate::Files;

/// Runs `shell` (a `sh -c` command line) with a pseudo-terminal as its
/// standard input, output and error; returns its exit status and what the
/// terminal showed.
fn on_terminal(shell: &str, no_color: Option<&str>) -> (Option<i32>, String) {
    let mut command = Command::new("script");
    command.args(["-q", "-e", "-c", shell, "/dev/null"]);
    command.env("TERM", "xterm-256color");
    match no_color {
        Some(value) => command.env("NO_COLOR", value),
        None => command.env_remove("NO_COLOR"),
    };
    let output = command.output().unwrap_or_else(|e| {
        panic!("these tests need util-linux `script` for a pseudo-terminal (apt-get install bsdutils): {e}")
    });
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code(), shown)
}

/// `path`, quoted for `sh`.
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn binary() -> String {
    quoted(&assert_cmd::cargo::cargo_bin("crawlgate"))
}

/// A batch input long enough for the bar to be drawn while it runs.
fn batch_input(files: &Files, lines: usize) -> std::path::PathBuf {
    let mut input = String::new();
    for i in 0..lines {
        input.push_str(&format!(
            "{{\"id\":{i},\"robots_txt\":\"User-agent: *\\nDisallow: /p\",\"user_agent\":\"bot\",\"url\":\"/p{i}\"}}\n"
        ));
    }
    files.write("in.jsonl", input)
}

fn answers(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn batch_draws_a_progress_bar_on_a_terminal_when_reading_a_file() {
    let files = Files::new();
    let input = batch_input(&files, 20_000);
    let out = files.path().join("out.jsonl");
    let (status, shown) = on_terminal(
        &format!("{} batch {} > {}", binary(), quoted(&input), quoted(&out)),
        None,
    );
    assert_eq!(status, Some(0), "{shown:?}");
    // The bar: bytes done over the total, the bar itself, and the ETA.
    let size = std::fs::metadata(&input).unwrap().len();
    let total = format!("{:.2} MiB", size as f64 / (1024.0 * 1024.0));
    assert!(shown.contains(&format!("/{total}")), "{shown:?}");
    assert!(shown.contains("eta"), "{shown:?}");
    // The answers are untouched by it, all there and in order.
    let answers = answers(&out);
    assert_eq!(answers.len(), 20_000);
    assert!(answers
        .iter()
        .enumerate()
        .all(|(i, a)| a["id"] == i && a["allowed"] == false));
}

#[test]
fn no_progress_bar_when_asked_or_when_reading_standard_input() {
    let files = Files::new();
    let input = batch_input(&files, 20_000);
    let out = files.path().join("out.jsonl");
    let (status, asked) = on_terminal(
        &format!(
            "{} batch --no-progress {} > {}",
            binary(),
            quoted(&input),
            quoted(&out)
        ),
        None,
    );
    // Only the summary, on a line of its own.
    let summary =
        "crawlgate: batch: 20000 lines: 20000 decisions (0 allowed, 20000 disallowed), 0 errors";
    assert_eq!((status, asked.trim_end()), (Some(0), summary));
    assert_eq!(answers(&out).len(), 20_000);
    // Standard input has no known size to measure progress against.
    let (status, piped) = on_terminal(
        &format!("{} batch < {} > {}", binary(), quoted(&input), quoted(&out)),
        None,
    );
    assert_eq!((status, piped.trim_end()), (Some(0), summary));
    assert_eq!(answers(&out).len(), 20_000);
}

#[test]
fn colour_on_a_terminal_unless_no_color_is_set() {
    let files = Files::new();
    let robots = files.write("robots.txt", "User-agent: *\nDisallow: /private\n");
    let command = format!("{} check {} -a bot /private/x /", binary(), quoted(&robots));
    // Exit status 1: a URL is disallowed.
    let (status, coloured) = on_terminal(&command, None);
    assert_eq!(status, Some(1), "{coloured:?}");
    assert!(coloured.contains("\u{1b}[31mdisallowed"), "{coloured:?}");
    assert!(coloured.contains("robots.txt:2\u{1b}[0m"), "{coloured:?}");
    // https://no-color.org: any non-empty value turns colour off.
    let (status, plain) = on_terminal(&command, Some("1"));
    assert_eq!(status, Some(1), "{plain:?}");
    assert!(plain.contains("disallowed"), "{plain:?}");
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
}
