//! Generated files (`testdata/yandex/generated.jsonl.gz`: random records,
//! user-agent values near the robots' names, rules with `*`, `$`, escapes
//! and bytes outside ASCII, every line ending, byte order marks and NULs;
//! and files near the parser's 500 KB limit), with Yandex's parser's
//! answers for YandexBot, YandexDirect, YandexImages and YandexMetrika.

use std::io::{BufRead, BufReader};

use base64::Engine;
use crawlgate::{Profile, RobotsTxt};
use flate2::read::GzDecoder;
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    name: String,
    robots_b64: String,
    answers: Vec<(String, String, bool)>,
}

#[test]
fn generated_files_answer_as_yandexs_parser() {
    let path = crawlgate_corpus::repository_root().join("testdata/yandex/generated.jsonl.gz");
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    let mut wrong = Vec::new();
    let (mut files, mut asked, mut denied) = (0, 0, 0);
    for line in BufReader::new(GzDecoder::new(file)).lines() {
        let file: File = serde_json::from_str(&line.expect("a line")).expect("a file");
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&file.robots_b64)
            .expect("base64");
        let robots = RobotsTxt::parse_with(&bytes, Profile::YANDEX);
        files += 1;
        for (robot, url, allowed) in &file.answers {
            asked += 1;
            denied += usize::from(!allowed);
            let view = robots.view(robot);
            let got = [
                robots.is_allowed(robot, url),
                (0..6).map(|_| view.is_allowed(url)).last().unwrap(),
            ];
            if got != [*allowed; 2] {
                wrong.push(format!(
                    "{} {robot} {url:?}: Yandex {allowed}, crawlgate {got:?}",
                    file.name
                ));
            }
        }
    }
    assert!(
        files > 500 && asked > 30_000 && denied > 1_000,
        "{files} {asked} {denied}"
    );
    assert!(
        wrong.is_empty(),
        "{} of {asked} answers differ:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}
