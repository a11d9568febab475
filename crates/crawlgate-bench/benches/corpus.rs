//! The benchmark inputs: every file of the real-world corpus, each with the
//! crawler it is asked about and absolute URLs on its own host, as a crawler
//! holds them (`https://host/path?query`). The paths come from the file's own
//! rules (so that rules match, as on a real crawl of the site), plus the
//! pages every site has, and variations of both. The URLs of all files sit
//! in one buffer, as a crawler's frontier would hold them, so that every
//! crate reads its inputs from the same memory.
#![allow(dead_code)]

use std::ops::Range;

/// How many URLs each file is asked about.
pub const QUESTIONS: usize = 20;

/// One corpus file and the questions asked about it.
pub struct Entry {
    /// The file name: the site's host.
    pub name: String,
    /// The bytes as served.
    pub bytes: Vec<u8>,
    /// The bytes as UTF-8 (lossy), for the crates that only take `&str`.
    pub text: String,
    /// The crawler asked about.
    pub agent: &'static str,
    /// Where this file's URLs are in [`Corpus::spans`].
    pub urls: Range<usize>,
}

/// Every entry, and the shared buffer of URLs.
pub struct Corpus {
    /// The files.
    pub entries: Vec<Entry>,
    /// Spans of `buffer`, one per URL; entries index into this.
    pub spans: Vec<Range<usize>>,
    /// All URLs, back to back.
    pub buffer: String,
}

impl Corpus {
    /// The absolute URLs asked about one entry.
    pub fn urls<'a>(&'a self, entry: &Entry) -> impl Iterator<Item = &'a str> + use<'a> {
        self.spans[entry.urls.clone()]
            .iter()
            .map(|s| &self.buffer[s.clone()])
    }

    /// The URL asked in the one-question benchmarks: one derived from a rule
    /// when the file has one.
    pub fn first_question<'a>(&'a self, entry: &Entry) -> &'a str {
        let span = &self.spans[entry.urls.start + 3.min(entry.urls.len() - 1)];
        &self.buffer[span.clone()]
    }

    /// Number of URLs in total.
    pub fn questions(&self) -> usize {
        self.spans.len()
    }

    /// Bytes of robots.txt in total.
    pub fn bytes(&self) -> usize {
        self.entries.iter().map(|e| e.bytes.len()).sum()
    }
}

/// The paths (path and query, starting with `/`) asked about a file.
pub fn paths_for(robots: &crawlgate::RobotsTxt) -> Vec<String> {
    let mut paths = vec![
        "/".to_owned(),
        "/index.html".to_owned(),
        "/search?q=robots".to_owned(),
    ];
    let rules: Vec<_> = robots.rules().collect();
    let stride = rules.len().div_ceil(4).max(1);
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
    // Variations of those, up to QUESTIONS.
    const SUFFIXES: [&str; 7] = [
        "a",
        "/2024/05/story.html",
        "?id=17&utm_source=feed",
        ".pdf",
        "/",
        "index.php?p=2",
        "-x/y",
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
    paths.truncate(QUESTIONS);
    paths
}

/// Loads the corpus, keeping the files `keep` accepts (given the entry and
/// its URLs). Panics with a clear message when it is missing.
pub fn load(keep: impl Fn(&Entry, &[String]) -> bool) -> (Corpus, usize) {
    let files = crawlgate_corpus::files();
    let total = files.len();
    let mut corpus = Corpus {
        entries: Vec::new(),
        spans: Vec::new(),
        buffer: String::new(),
    };
    for (i, (name, bytes)) in files.into_iter().enumerate() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let robots = crawlgate::RobotsTxt::parse(&bytes);
        let urls: Vec<String> = paths_for(&robots)
            .into_iter()
            .map(|path| format!("https://{name}{path}"))
            .collect();
        let mut entry = Entry {
            name,
            bytes,
            text,
            agent: if i % 2 == 0 {
                "googlebot"
            } else {
                "crawlgatebot"
            },
            urls: 0..0,
        };
        if !keep(&entry, &urls) {
            continue;
        }
        let start = corpus.spans.len();
        for url in &urls {
            corpus
                .spans
                .push(corpus.buffer.len()..corpus.buffer.len() + url.len());
            corpus.buffer.push_str(url);
        }
        entry.urls = start..corpus.spans.len();
        corpus.entries.push(entry);
    }
    (corpus, total)
}
