//! Shared pieces of the integration tests: generators of robots.txt files
//! and URLs aimed at the hard parts (the seeded generator and the reference
//! matcher come from `crawlgate-test-support`).
#![allow(dead_code)]

use crawlgate_test_support::Rng;

/// Every file of the real-world corpus, sorted by name (see `crawlgate-corpus`).
pub fn corpus_files() -> Vec<(String, Vec<u8>)> {
    crawlgate_corpus::files()
}

/// The URLs a corpus file is asked about: its root, its `index.html`, and
/// paths made from about `samples` of its rules.
pub fn corpus_urls(
    name: &str,
    robots: &crawlgate::RobotsTxt,
    samples: usize,
    rng: &mut Rng,
) -> Vec<String> {
    let mut urls = vec!["/".to_owned(), format!("https://{name}/index.html")];
    for rule in robots
        .rules()
        .step_by(robots.rules().len().div_ceil(samples).max(1))
    {
        urls.extend(paths_from_pattern(rule.pattern(), rng));
    }
    urls
}

/// Concrete paths a pattern should (and nearly should) match: wildcards
/// filled in, the anchor dropped, a suffix added, the last byte cut.
pub fn paths_from_pattern(pattern: &str, rng: &mut Rng) -> Vec<String> {
    const FILL: &[&str] = &["", "x", "abc/", "a.php", "%2F", "é", "$", "*"];
    let mut out = Vec::new();
    let anchored = pattern.ends_with('$');
    let body = pattern.strip_suffix('$').unwrap_or(pattern);
    let filled: String = body
        .split('*')
        .enumerate()
        .map(|(i, piece)| {
            if i == 0 {
                piece.to_owned()
            } else {
                format!("{}{piece}", rng.pick(FILL))
            }
        })
        .collect();
    let filled = if filled.starts_with('/') {
        filled
    } else {
        format!("/{filled}")
    };
    out.push(filled.clone());
    out.push(format!(
        "{filled}{}",
        rng.pick(&["z", "/", "?q=1", ".html", "5"])
    ));
    if !anchored && filled.len() > 1 {
        let mut cut = filled.clone();
        cut.pop();
        if cut.is_char_boundary(cut.len()) {
            out.push(cut);
        }
    }
    out
}

const AGENT_VALUES: &[&str] = &[
    "*",
    "FooBot",
    "foobot",
    "FOOBOT",
    "FooBot/1.0",
    "Foo Bar",
    "*bot",
    "* x",
    "googlebot-news",
    "Googlebot",
    "BarBot",
    "",
    "Foo_Bot",
    "Fo\u{e9}Bot",
    "foo",
    "*\u{a0}x",
];
const UA_KEYS: &[&str] = &[
    "User-agent",
    "user-agent",
    "USER-AGENT",
    "useragent",
    "User agent",
    "User-agents",
    "Usr-agent",
];
const RULE_KEYS: &[(&str, bool)] = &[
    ("Allow", true),
    ("Disallow", false),
    ("allow", true),
    ("DISALLOW", false),
    ("Disallowed", false),
    ("dissallow", false),
    ("disalow", false),
    ("Alow", true),
    ("Allowance", true),
    ("diasllow", false),
    ("disallaw", false),
    ("dissalow", false),
];
const SEPARATORS: &[&str] = &[": ", ":", " :", " : ", " ", "\t", ":\t", "  "];
const PIECES: &[&str] = &[
    "/",
    "/",
    "/",
    "a",
    "b",
    "fish",
    "*",
    "*",
    "$",
    "%2F",
    "%2f",
    "%41",
    "%e3%83%84",
    "é",
    "ツ",
    ".php",
    "?",
    "=",
    ";",
    "index.html",
    "index.htm",
    ".",
    "~",
    "%",
    "%zz",
    "A",
    "$",
    "\u{a0}",
];
const OTHER_LINES: &[&str] = &[
    "Sitemap: http://example.com/sitemap.xml",
    "Crawl-delay: 5",
    "Host: example.com",
    "# comment",
    "",
    "",
    "garbage line here",
    "Noindex: /x",
    "site-map: /s.xml",
    "<html>",
    "Content-Usage: train-ai=n",
    "   ",
    "Clean-param: ref /a/",
];
pub const AGENTS: &[&str] = &[
    "FooBot",
    "foobot",
    "BarBot",
    "Foo",
    "Foo Bar",
    "googlebot-news",
    "Googlebot",
    "FooBot/1.0",
    "*",
    "",
    "Foo_Bot",
    "QuxBot",
];

/// A pattern built from pieces that exercise wildcards, anchors, escapes
/// and non-ASCII.
pub fn gen_pattern(rng: &mut Rng) -> String {
    let mut p = String::new();
    if rng.chance(85) {
        p.push('/');
    } else if rng.chance(50) {
        p.push('*');
    }
    for _ in 0..rng.below(5) {
        p.push_str(rng.pick(PIECES));
    }
    if rng.chance(5) {
        p.clear();
    }
    p
}

/// A robots.txt aimed at the hard parts: typos, colon-less lines, BOM,
/// CR/LF/CRLF, NUL, long lines, repeated groups, rules before user-agents.
pub fn gen_robots(rng: &mut Rng) -> (Vec<u8>, Vec<String>) {
    let mut out: Vec<u8> = Vec::new();
    let mut patterns = Vec::new();
    if rng.chance(5) {
        out.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let lines = 1 + rng.below(14);
    for _ in 0..lines {
        let indent = if rng.chance(8) {
            rng.pick(&[" ", "\t", "  "])
        } else {
            ""
        };
        out.extend_from_slice(indent.as_bytes());
        match rng.below(10) {
            0..=2 => {
                let key = if rng.chance(80) {
                    "User-agent"
                } else {
                    rng.pick(UA_KEYS)
                };
                let sep = if rng.chance(85) {
                    ": "
                } else {
                    rng.pick(SEPARATORS)
                };
                out.extend_from_slice(format!("{key}{sep}{}", rng.pick(AGENT_VALUES)).as_bytes());
            }
            3..=7 => {
                let (key, _) = if rng.chance(75) {
                    rng.pick(&RULE_KEYS[..4])
                } else {
                    rng.pick(RULE_KEYS)
                };
                let sep = if rng.chance(85) {
                    ": "
                } else {
                    rng.pick(SEPARATORS)
                };
                let pattern = gen_pattern(rng);
                out.extend_from_slice(format!("{key}{sep}{pattern}").as_bytes());
                patterns.push(pattern);
            }
            _ => out.extend_from_slice(rng.pick(OTHER_LINES).as_bytes()),
        }
        if rng.chance(4) {
            out.extend_from_slice(b" # trailing comment");
        }
        if rng.chance(2) {
            out.push(0);
            out.extend_from_slice(b"/after-nul");
        }
        if rng.chance(1) {
            out.extend_from_slice("/long".repeat(3400).as_bytes());
        }
        let ending: &[u8] = match rng.below(10) {
            0 => b"\r\n",
            1 => b"\r",
            _ => b"\n",
        };
        out.extend_from_slice(ending);
    }
    (out, patterns)
}

/// A URL for a generated file: from one of its patterns or random pieces,
/// absolute or path-only, sometimes with a query or fragment.
pub fn gen_url(rng: &mut Rng, patterns: &[String]) -> String {
    let path = if !patterns.is_empty() && rng.chance(70) {
        let pattern = rng.pick_ref(patterns).clone();
        let paths = paths_from_pattern(&pattern, rng);
        rng.pick_ref(&paths).clone()
    } else {
        let mut p = String::from("/");
        for _ in 0..rng.below(4) {
            p.push_str(rng.pick(PIECES));
        }
        p
    };
    let mut url = match rng.below(4) {
        0 => path,
        _ => format!("http://example.com{path}"),
    };
    if rng.chance(10) {
        url.push_str("#frag");
    }
    url
}
