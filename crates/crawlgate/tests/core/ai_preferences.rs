//! The AI-preference records read as their documents say, on the
//! documents' own examples (`testdata/ai-preferences/`, see its README):
//! IETF draft-ietf-aipref-attach-05 (`Content-Usage` in robots.txt),
//! draft-ietf-aipref-vocab-07 (the vocabulary and its processing), the
//! Content Signals Policy (`Content-Signal`) and RSL 1.0 (`License`).

use std::path::Path;

use crawlgate::{ContentUsage, Preference, RobotsTxt};

fn example(name: &str) -> RobotsTxt {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/ai-preferences")
        .join(name);
    RobotsTxt::parse(&std::fs::read(&path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
}

/// attach-05, section 3.4: the table of paths for crawlers other than
/// ExampleBot, and ExampleBot's own group.
#[test]
fn attach_05_the_example_and_its_table() {
    let robots = example("attach-05-example.robots.txt");
    let others = robots.view("SomeOtherBot");
    // | Path | Crawl | Usage Preference |
    let table = [
        ("/test", true, Some(Preference::Disallowed)),
        ("/never/test", false, None),
        ("/ai-ok/test", true, Some(Preference::Allowed)),
    ];
    for (path, crawl, usage) in table {
        assert_eq!(others.is_allowed(path), crawl, "{path}");
        let preferences = others.preferences(path);
        assert_eq!(preferences.is_some(), crawl, "{path}: N/A when not crawled");
        assert_eq!(preferences.and_then(|p| p.train_ai), usage, "{path}");
    }
    // "A crawler that identifies as ExampleBot uses the second group":
    // everything may be fetched, with train-ai=y.
    let example_bot = robots.view("ExampleBot");
    for path in ["/test", "/never/test", "/ai-ok/test"] {
        let preferences = example_bot.preferences(path).expect("crawlable");
        assert_eq!(preferences.train_ai, Some(Preference::Allowed), "{path}");
        assert_eq!(preferences.records[0].line, 9);
    }
}

/// attach-05, section 1.2: a file-wide preference.
#[test]
fn attach_05_the_introduction() {
    let robots = example("attach-05-introduction.robots.txt");
    let preferences = robots.view("bot").preferences("/any/thing").unwrap();
    assert_eq!(preferences.train_ai, Some(Preference::Disallowed));
    assert_eq!(preferences.search, None);
}

/// attach-05, section 3.2: where the path ends and the preference begins.
#[test]
fn attach_05_paths_and_values() {
    let with_path = ContentUsage::parse("/ai-ok/ train-ai=y", 1);
    assert_eq!(with_path.path, Some("/ai-ok/"));
    assert_eq!(with_path.preferences, "train-ai=y");
    let tab = ContentUsage::parse("/a\ttrain-ai=n", 1);
    assert_eq!((tab.path, tab.preferences), (Some("/a"), "train-ai=n"));
    // A value that does not start with `/` has no path.
    let without = ContentUsage::parse("train-ai=n", 1);
    assert_eq!(without.path, None);
    // A comment ends the value (the parser cuts it before the record).
    let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-ai=n # no training\n");
    assert_eq!(
        robots.view("bot").preferences("/").unwrap().train_ai,
        Some(Preference::Disallowed)
    );
    // Identical paths that conflict: each applies, the most restrictive
    // wins (vocabulary section 5.1), unlike an Allow/Disallow tie.
    let robots = RobotsTxt::parse(
        b"User-agent: *\nContent-Usage: /p/ train-ai=y\nContent-Usage: /p/ train-ai=n\n\
          Allow: /p/\nDisallow: /p/\n",
    );
    let view = robots.view("bot");
    assert!(view.is_allowed("/p/x"));
    assert_eq!(
        view.preferences("/p/x").unwrap().train_ai,
        Some(Preference::Disallowed)
    );
}

/// vocab-07, sections 6 and 6.5: the serialisation's examples.
#[test]
fn vocab_07_the_serialisation_examples() {
    let get = |text: &str, key: &str| ContentUsage::parse(text, 1).get(key);
    // "train-ai=y, search=n": allow model training, disallow search.
    assert_eq!(
        get("train-ai=y, search=n", "train-ai"),
        Some(Preference::Allowed)
    );
    assert_eq!(
        get("train-ai=y, search=n", "search"),
        Some(Preference::Disallowed)
    );
    // A repeated key keeps its last value; a boolean and a string are not
    // tokens, so both preferences are unknown.
    let repeated = r#"train-ai=y, train-ai, search=n, search="n""#;
    assert_eq!(get(repeated, "train-ai"), None);
    assert_eq!(get(repeated, "search"), None);
    // Parameters are ignored: only the selected value's count, and it allows.
    assert_eq!(
        get("train-ai;allow=n, train-ai=y", "train-ai"),
        Some(Preference::Allowed)
    );
    // Parameters on an unknown preference.
    assert_eq!(get(r#"train-ai;has;parameters="?";"#, "train-ai"), None);
    // Keys are case-sensitive: a dictionary with uppercase fails to parse
    // and every preference is unknown.
    assert_eq!(get("Train-AI=n, search=n", "search"), None);
    // Values other than the tokens y and n leave the category unknown.
    assert_eq!(get("train-ai=no", "train-ai"), None);
    assert_eq!(get("train-ai=?0", "train-ai"), None);
    // Labels of earlier drafts are not in the vocabulary.
    let robots = RobotsTxt::parse(b"User-agent: *\nContent-Usage: train-genai=n, search=y\n");
    let preferences = robots.view("bot").preferences("/").unwrap();
    assert_eq!(preferences.train_ai, None);
    assert_eq!(preferences.search, Some(Preference::Allowed));
    assert_eq!(preferences.unknown_keys, ["train-genai"]);
}

/// The Content Signals Policy's example and Cloudflare's managed default.
#[test]
fn content_signals_examples() {
    let robots = example("content-signals-policy.robots.txt");
    let preferences = robots.view("AnyBot").preferences("/page").unwrap();
    let signal = preferences.content_signal.expect("a content signal");
    assert_eq!(signal.line, 8);
    assert_eq!(signal.get("ai-train"), Some(false));
    assert_eq!(signal.get("search"), Some(true));
    assert_eq!(signal.get("ai-input"), Some(true));
    // No Content-Usage: the IETF categories stay unknown.
    assert_eq!(preferences.train_ai, None);
    let managed = example("content-signals-managed.robots.txt");
    let signal = managed.view("bot").content_signal().unwrap();
    assert_eq!(
        (
            signal.get("search"),
            signal.get("ai-train"),
            signal.get("ai-input")
        ),
        (Some(true), Some(false), None)
    );
}

/// RSL 1.0's example: a file-wide License line before the groups.
#[test]
fn rsl_1_0_example() {
    let robots = example("rsl-1.0-example.robots.txt");
    let licenses: Vec<_> = robots.licenses().collect();
    assert_eq!(licenses.len(), 1);
    assert_eq!(licenses[0].url, "https://example.com/license.xml");
    assert!(licenses[0].is_absolute());
    assert!(robots.is_allowed("Googlebot", "/"));
    // Not an unknown field any more, and not a rule.
    assert_eq!(
        robots.extensions().next().unwrap().kind(),
        crawlgate::ExtensionKind::License
    );
    for relative in ["/license.xml", "example.com/license.xml", "https:///x", ""] {
        let robots = RobotsTxt::parse(format!("License: {relative}\n").as_bytes());
        let all: Vec<_> = robots.licenses().collect();
        assert!(all.iter().all(|l| !l.is_absolute()), "{relative}");
    }
}
