//! Garbage and sizes: a 70,000-character path or name, a 100,000-line
//! file to merge into, bytes that are no text. A clear error or a proven
//! file, never a panic.

use crawlgate::Who;
use crawlgate_policy::{merge, write, Access, Policy, PolicyError, Purpose};

#[test]
fn long_values_are_refused_with_a_short_message() {
    let long = format!("/{}", "a".repeat(70_000));
    let error = write(&Policy::new().with_private(&long))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("longer than 2,000 bytes") && error.len() < 300,
        "{error}"
    );
    let name = "x".repeat(70_000);
    let error = write(&Policy::new().with_crawler(&name, Access::Deny))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("not a crawler") && error.len() < 300,
        "{}",
        &error[..200]
    );
    let error = Policy::from_toml(&format!("honeypot = \"{long}\"\n"))
        .unwrap_err()
        .to_string();
    assert!(error.len() < 300, "{}", &error[..200]);
    let error = Policy::from_toml(&"ai-train = \"deny\"\n".repeat(3)).unwrap_err();
    assert!(matches!(error, PolicyError::Toml(_)), "{error}");
    // A list of 100,000 private paths: more than a robots.txt should hold.
    let mut many = Policy::new();
    many.private = (0..100_000).map(|i| format!("/p{i}/")).collect();
    let error = write(&many).unwrap_err().to_string();
    assert!(
        error.starts_with("100000 private paths are more than"),
        "{error}"
    );
}

#[test]
fn a_file_of_100000_lines_merges() {
    let mut site = String::from("User-agent: *\nDisallow: /private/\n");
    for i in 0..100_000 {
        site.push_str(if i % 2 == 0 { "#\n" } else { "\n" });
    }
    let policy = Policy::new().with(Purpose::AiTrain, Access::Deny);
    let written = merge(&policy, site.as_bytes()).unwrap();
    let robots = crawlgate::RobotsTxt::parse(&written.robots_txt);
    assert!(!robots.view(Who::crawler("GPTBot")).is_allowed("/"));
    assert!(!robots
        .view(Who::crawler("Googlebot"))
        .is_allowed("/private/x"));
    // Past Google's 500 KiB, the groups added would be lost: said.
    let big = "User-agent: *\nDisallow: /x\n".repeat(25_000);
    let error = merge(&policy, big.as_bytes()).unwrap_err().to_string();
    assert!(error.contains("512,000"), "{error}");
}

#[test]
fn what_is_no_robots_txt_is_refused_and_odd_files_merge() {
    let policy = Policy::new().with(Purpose::AiTrain, Access::Deny);
    let html = b"<!DOCTYPE html>\n<html><body>Not found</body></html>\n";
    assert!(merge(&policy, html)
        .unwrap_err()
        .to_string()
        .contains("HTML page"));
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10";
    assert!(merge(&policy, png).is_err());
    for site in [
        &b""[..],
        b"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /\xff\xfe/\r\n",
        b"User-agent: GPTBot",
        b"User-agent: a\nUser-agent: GPTBot\n",
        b"Disallow: /orphan\nUser-agent: *\nDisallow: /x\n",
        b"User-agent: *\rDisallow: /cr-only\r",
    ] {
        let written = merge(&policy, site).unwrap_or_else(|e| panic!("{site:?}: {e}"));
        let robots = crawlgate::RobotsTxt::parse(&written.robots_txt);
        assert!(
            !robots.view(Who::crawler("GPTBot")).is_allowed("/"),
            "{site:?}"
        );
    }
    // A section of a previous merge without its end is said.
    let broken = b"User-agent: *\nDisallow:\n# BEGIN crawlgate policy: old\nUser-agent: GPTBot\n";
    assert!(merge(&policy, broken)
        .unwrap_err()
        .to_string()
        .contains("# END crawlgate policy"));
}

#[test]
fn merging_twice_replaces_the_first_section() {
    let site = b"User-agent: *\nDisallow: /tmp/\n";
    let first = merge(&Policy::new().with(Purpose::AiTrain, Access::Deny), site).unwrap();
    let second = merge(
        &Policy::new().with(Purpose::AiUse, Access::Deny),
        &first.robots_txt,
    )
    .unwrap();
    let text = second.text();
    assert_eq!(
        text.matches("# BEGIN crawlgate policy").count(),
        1,
        "{text}"
    );
    let robots = crawlgate::RobotsTxt::parse(&second.robots_txt);
    // The second policy says nothing of AI training: GPTBot is back to the
    // site's own rules; AI answers are shut out.
    assert!(robots.view(Who::crawler("GPTBot")).is_allowed("/"));
    assert!(!robots.view(Who::crawler("PerplexityBot")).is_allowed("/"));
    assert!(!robots.view(Who::crawler("GPTBot")).is_allowed("/tmp/x"));
}
