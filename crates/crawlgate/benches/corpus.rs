//! The benchmark inputs: every file of the real-world corpus, each with the
//! crawler it is asked about and paths derived from its own rules.
#![allow(dead_code)]

use std::path::Path;

pub struct Entry {
    pub name: String,
    pub bytes: Vec<u8>,
    /// The bytes as UTF-8 (lossy), for the crate that only takes `&str`.
    pub text: String,
    pub agent: &'static str,
    pub paths: Vec<String>,
}

/// `$CRAWLGATE_CORPUS`, else `../shared/corpus/real` beside the repository.
pub fn dir() -> std::path::PathBuf {
    std::env::var_os("CRAWLGATE_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/real")
        })
}

/// Loads the corpus. Panics with a clear message when it is missing.
pub fn load() -> Vec<Entry> {
    let dir = dir();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "corpus missing at {} ({e}); set CRAWLGATE_CORPUS",
                dir.display()
            )
        })
        .map(|e| e.expect("corpus entry").path())
        .collect();
    names.sort();
    names
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let bytes = std::fs::read(path).expect("readable corpus file");
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let robots = crawlgate::RobotsTxt::parse(&bytes);
            let mut paths = vec![
                "/".to_owned(),
                "/index.html".to_owned(),
                "/search?q=robots".to_owned(),
            ];
            let rules: Vec<_> = robots.rules().collect();
            let stride = rules.len().div_ceil(7).max(1);
            for rule in rules.iter().step_by(stride) {
                let mut path: String = rule
                    .pattern()
                    .replace('*', "x")
                    .trim_end_matches('$')
                    .to_owned();
                if !path.starts_with('/') {
                    path.insert(0, '/');
                }
                paths.push(path.clone());
                path.push_str("z/page.html");
                paths.push(path);
            }
            Entry {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                bytes,
                text,
                agent: if i % 2 == 0 {
                    "googlebot"
                } else {
                    "crawlgatebot"
                },
                paths,
            }
        })
        .collect()
}
