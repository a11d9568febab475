//! The docs say one crawler count, the default set's: README.md and
//! docs/survey.md write it as "N crawlers and `*`", and N is what
//! [`CrawlerSet::default_set`] holds besides `*` (the report derives the
//! same number from its data: the browser test checks that).

use std::path::Path;

use crawlgate_survey::CrawlerSet;

/// Every number written just before "crawlers and `*`" (across a line
/// break too) in `text`.
fn counts_before_crawlers_and_star(text: &str) -> Vec<usize> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(4)
        .filter(|w| w[1] == "crawlers" && w[2] == "and" && w[3].starts_with("`*`"))
        .filter_map(|w| w[0].trim_start_matches(['(', '[']).parse().ok())
        .collect()
}

#[test]
fn the_docs_crawler_count_is_the_default_sets() {
    let set = CrawlerSet::default_set();
    let crawlers = set.iter().filter(|c| c.token != "*").count();
    assert_eq!(crawlers + 1, set.len(), "the default set ends with `*`");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for doc in ["README.md", "docs/survey.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let counts = counts_before_crawlers_and_star(&text);
        assert!(!counts.is_empty(), "{doc} says no crawler count");
        assert!(
            counts.iter().all(|&n| n == crawlers),
            "{doc} says {counts:?} crawlers; the default set holds {crawlers} and `*`"
        );
    }
    assert_eq!(
        counts_before_crawlers_and_star("the (12 crawlers\nand `*`) and 3 crawlers and `*`."),
        [12, 3]
    );
}

/// docs/survey.md lists every housekeeping word and file extension the
/// survey uses, each in its own backticks.
#[test]
fn the_docs_list_every_housekeeping_word() {
    use crawlgate_survey::housekeeping::{FILE_EXTENSIONS, WORDS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("docs/survey.md")).unwrap();
    for (kind, words) in WORDS {
        let row = text
            .lines()
            .find(|l| l.starts_with(&format!("| {kind} |")))
            .unwrap_or_else(|| panic!("docs/survey.md has no row for {kind}"));
        let listed = row.matches('`').count() / 2;
        assert_eq!(listed, words.len(), "{row}");
        for word in *words {
            assert!(row.contains(&format!("`{word}`")), "{kind}: {word}");
        }
    }
    for ext in FILE_EXTENSIONS {
        assert!(text.contains(&format!("`.{ext}`")), "{ext}");
    }
}
