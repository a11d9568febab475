//! The benchmark inputs: every file of the real-world corpus, each with the
//! crawler it is asked about and paths derived from its own rules. The paths
//! of all files sit in one buffer, as a crawler's URL frontier would hold
//! them, so that every crate reads its inputs from the same memory.
#![allow(dead_code)]

use std::ops::Range;

/// How many paths each file is asked about.
pub const QUESTIONS: usize = 64;

/// One corpus file and the questions asked about it.
pub struct Entry {
    /// The file name (the site).
    pub name: String,
    /// The bytes as served.
    pub bytes: Vec<u8>,
    /// The bytes as UTF-8 (lossy), for the crate that only takes `&str`.
    pub text: String,
    /// The crawler asked about.
    pub agent: &'static str,
    /// Where this file's paths are in [`Corpus::paths`].
    pub paths: Range<usize>,
}

/// Every entry, and the shared buffer of paths.
pub struct Corpus {
    /// The files.
    pub entries: Vec<Entry>,
    /// Spans of `buffer`, one per path; entries index into this.
    pub spans: Vec<Range<usize>>,
    /// All paths, back to back.
    pub buffer: String,
}

impl Corpus {
    /// The paths asked about one entry.
    pub fn paths<'a>(&'a self, entry: &Entry) -> impl Iterator<Item = &'a str> + 'a {
        self.spans[entry.paths.clone()]
            .iter()
            .map(|s| &self.buffer[s.clone()])
    }

    /// The path asked in the one-decision benchmarks.
    pub fn first_question<'a>(&'a self, entry: &Entry) -> &'a str {
        let span = &self.spans[entry.paths.start + 3.min(entry.paths.len() - 1)];
        &self.buffer[span.clone()]
    }

    /// Number of paths in total.
    pub fn questions(&self) -> usize {
        self.spans.len()
    }
}

/// Loads the corpus, keeping the files `keep` accepts. Panics with a clear
/// message when it is missing.
pub fn load(keep: impl Fn(&Entry, &[String]) -> bool) -> (Corpus, usize) {
    let dir = crawlgate_corpus::dir();
    let names: Vec<_> = crawlgate_corpus::names()
        .into_iter()
        .map(|name| dir.join(name))
        .collect();
    let total = names.len();
    let mut corpus = Corpus {
        entries: Vec::new(),
        spans: Vec::new(),
        buffer: String::new(),
    };
    for (i, path) in names.iter().enumerate() {
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
        // A crawler asks many URLs of one site: variations of those, up to
        // QUESTIONS per file.
        const SUFFIXES: [&str; 8] = [
            "a",
            "/2024/05/story.html",
            "?id=17",
            ".pdf",
            "/",
            "index.php?p=2",
            "-x/y",
            "#top",
        ];
        let base = paths.len();
        let mut k = 0;
        while paths.len() < QUESTIONS {
            let variation = format!(
                "{}{}",
                paths[k % base],
                SUFFIXES[(k / base) % SUFFIXES.len()]
            );
            paths.push(variation);
            k += 1;
        }
        let mut entry = Entry {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            bytes,
            text,
            agent: if i % 2 == 0 {
                "googlebot"
            } else {
                "crawlgatebot"
            },
            paths: 0..0,
        };
        if !keep(&entry, &paths) {
            continue;
        }
        let start = corpus.spans.len();
        for p in &paths {
            corpus
                .spans
                .push(corpus.buffer.len()..corpus.buffer.len() + p.len());
            corpus.buffer.push_str(p);
        }
        entry.paths = start..corpus.spans.len();
        corpus.entries.push(entry);
    }
    (corpus, total)
}
