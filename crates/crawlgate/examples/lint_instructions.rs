//! Parses or lints the whole corpus once (`parse`, `lint`, `quick`, `legacy`),
//! to count instructions with `perf stat -e instructions` (steadier than
//! time on a shared machine).
use crawlgate::lint::{lint, LintOptions};
fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "lint".to_owned());
    let dir = crawlgate_corpus::dir().to_string_lossy().into_owned();
    let files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| std::fs::read(e.expect("an entry").path()).expect("a file"))
        .collect();
    let options = match mode.as_str() {
        "quick" => LintOptions::default().with_profile_comparison(false),
        "legacy" => LintOptions::default().with_legacy_comparison(true),
        _ => LintOptions::default(),
    };
    for file in &files {
        if mode == "parse" || mode == "read" {
            if mode == "parse" {
                std::hint::black_box(crawlgate::RobotsTxt::parse(file));
            }
        } else {
            std::hint::black_box(lint(file, &options));
        }
    }
}
