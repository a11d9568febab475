//! The AI-preference records read as their documents say, on the
//! documents' own examples (`testdata/ai-preferences/`, see its README):
//! IETF draft-ietf-aipref-attach-05 (`Content-Usage` in robots.txt),
//! draft-ietf-aipref-vocab-08 (the vocabulary and its processing), the
//! Content Signals Policy (`Content-Signal`) and RSL 1.0 (`License`).

use std::path::Path;

use crawlgate::{ContentUsage, Preference, RobotsTxt, UsageCategory};

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

/// vocab-08's examples and rules, as `testdata/ai-preferences/
/// vocab-08-examples.tsv` lists them, each read in a robots.txt for every
/// category.
#[test]
fn vocab_08_the_examples_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/ai-preferences/vocab-08-examples.tsv");
    let table = std::fs::read_to_string(&path).unwrap();
    let word = |p: Option<Preference>| match p {
        Some(Preference::Allowed) => "y",
        Some(Preference::Disallowed) => "n",
        None => "unknown",
    };
    let mut cases = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let [value, train_ai, ai_use, search, source] = fields[..] else {
            panic!("{line:?}: five fields");
        };
        let robots =
            RobotsTxt::parse(format!("User-agent: *\nContent-Usage: {value}\n").as_bytes());
        let found = robots.view("bot").preferences("/ai-ok/x").unwrap();
        let got = UsageCategory::ALL.map(|c| word(found.stated(c)));
        assert_eq!(got, [train_ai, ai_use, search], "{value} ({source})");
        // The line's own reading agrees with the file's.
        let usage = ContentUsage::parse(value, 1);
        for category in UsageCategory::ALL {
            assert_eq!(
                usage.get(category.label()),
                found.stated(category),
                "{value}"
            );
        }
        cases += 1;
    }
    assert!(cases >= 12, "{cases} cases");
}

/// vocab-08, section 4.3: Search overrides AI Training and AI Use, for
/// uses inside a search application; there is no other fallback between
/// categories.
#[test]
fn vocab_08_search_overrides_the_other_categories() {
    let read = |value: &str| {
        RobotsTxt::parse(format!("User-agent: *\nContent-Usage: {value}\n").as_bytes())
    };
    let robots = read("train-ai=n, ai-use=n, search=y");
    let found = robots.view("bot").preferences("/").unwrap();
    for category in [UsageCategory::AiTraining, UsageCategory::AiUse] {
        assert_eq!(found.effective(category, true), Some(Preference::Allowed));
        assert_eq!(
            found.effective(category, false),
            Some(Preference::Disallowed)
        );
    }
    assert_eq!(
        found.overridden_by_search(),
        [UsageCategory::AiTraining, UsageCategory::AiUse]
    );
    // search=n: a search engine may not train its ranking on it either.
    let robots = read("train-ai=y, search=n");
    let found = robots.view("bot").preferences("/").unwrap();
    assert_eq!(
        found.effective(UsageCategory::AiTraining, true),
        Some(Preference::Disallowed)
    );
    assert_eq!(
        found.effective(UsageCategory::AiTraining, false),
        Some(Preference::Allowed)
    );
    // No search preference: nothing is overridden, and no category fills
    // in another.
    let robots = read("train-ai=n");
    let found = robots.view("bot").preferences("/").unwrap();
    assert!(found.overridden_by_search().is_empty());
    assert_eq!(
        found.effective(UsageCategory::AiTraining, true),
        Some(Preference::Disallowed)
    );
    assert_eq!(found.effective(UsageCategory::AiUse, true), None);
    assert_eq!(found.effective(UsageCategory::Search, false), None);
    // Identical paths combine per category, most restrictive first, for
    // ai-use as for the others.
    let robots = RobotsTxt::parse(
        b"User-agent: *\nContent-Usage: /p/ ai-use=y\nContent-Usage: /p/ ai-use=n, train-ai=y\n",
    );
    let found = robots.view("bot").preferences("/p/x").unwrap();
    assert_eq!(found.ai_use, Some(Preference::Disallowed));
    assert_eq!(found.train_ai, Some(Preference::Allowed));
}

/// vocab-08, sections 6 and 6.5: the serialisation's examples, through
/// `ContentUsage::get`.
#[test]
fn vocab_08_the_serialisation_examples() {
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
    // ai-use is a category of draft 08.
    assert_eq!(get("ai-use=n", "ai-use"), Some(Preference::Disallowed));
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
