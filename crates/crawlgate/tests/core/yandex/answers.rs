//! Every answer Yandex's parser gave on the corpus
//! (`testdata/yandex/corpus-answers.jsonl.gz`: file, robot, URL, allowed),
//! asked of crawlgate's Yandex reading three ways: one question at a time,
//! through a view that compiles its rules, and through a kept
//! `CompiledRobotsTxt`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};

use crawlgate::{CompiledRobotsTxt, Profile, RobotsTxt};
use flate2::read::GzDecoder;
use serde::Deserialize;

#[derive(Deserialize)]
struct Answer {
    file: String,
    robot: String,
    url: String,
    allowed: bool,
}

fn answers() -> Vec<Answer> {
    let path = crawlgate_corpus::repository_root().join("testdata/yandex/corpus-answers.jsonl.gz");
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    BufReader::new(GzDecoder::new(file))
        .lines()
        .map(|line| serde_json::from_str(&line.expect("a line")).expect("an answer"))
        .collect()
}

#[test]
fn every_corpus_answer_of_yandexs_parser() {
    let answers = answers();
    assert_eq!(answers.len(), 162_954);
    let dir = crawlgate_corpus::dir();
    let mut by_file: HashMap<&str, Vec<&Answer>> = HashMap::new();
    for answer in &answers {
        by_file.entry(&answer.file).or_default().push(answer);
    }
    assert_eq!(by_file.len(), crawlgate_corpus::FILES);
    let mut wrong = Vec::new();
    for (file, answers) in &by_file {
        let bytes = std::fs::read(dir.join(file)).expect("a corpus file");
        let robots = RobotsTxt::parse_with(&bytes, Profile::YANDEX);
        let kept = CompiledRobotsTxt::new(RobotsTxt::parse_with(&bytes, Profile::YANDEX));
        for answer in answers {
            let once = robots.is_allowed(&answer.robot, &answer.url);
            let view = robots.view(&answer.robot);
            // Past its first questions a view compiles its rules.
            let compiled = (0..6).map(|_| view.is_allowed(&answer.url)).last().unwrap();
            let kept = kept.decide(&answer.robot, &answer.url).is_allowed();
            if [once, compiled, kept] != [answer.allowed; 3] {
                wrong.push(format!(
                    "{file} {} {:?}: Yandex {}, crawlgate {once}/{compiled}/{kept}",
                    answer.robot, answer.url, answer.allowed
                ));
            }
        }
    }
    wrong.sort();
    assert!(
        wrong.is_empty(),
        "{} of {} answers differ, e.g.:\n{}",
        wrong.len(),
        answers.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}
