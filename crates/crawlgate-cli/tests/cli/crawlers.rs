//! Crawler identities on the command line: `check`, `explain` and `test`
//! read `--agent` as the crawler a person names (the crawler reading), and
//! `--one-token` reads it as Google's library does. What they print is
//! compared with what the library says, for every crawler of the registry.

use std::path::{Path, PathBuf};

use crawlgate::{registry, RobotsTxt, Who};
use serde_json::Value;

use crate::{crawlgate, stderr_of, stdout_of, Files};

/// The file of Google's group-selection example, as `examples/` holds it.
fn google_example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/google-groups.robots.txt")
}

fn run(args: &[&str], file: &Path) -> std::process::Output {
    crawlgate()
        .arg(args[0])
        .arg(file)
        .args(&args[1..])
        .output()
        .unwrap()
}

#[test]
fn googlebot_image_answers_from_the_googlebot_group_and_says_why() {
    let output = run(
        &[
            "check",
            "--agent",
            "Googlebot-Image",
            "/googlebot-only/photo.jpg",
            "/everyone-else/photo.jpg",
        ],
        &google_example(),
    );
    let file = google_example().display().to_string();
    assert_eq!(
        stdout_of(&output),
        format!(
            "\
Googlebot-Image obeys the Googlebot group at lines 7–8: no group names Googlebot-Image (Google's crawler documentation)
disallowed  /googlebot-only/photo.jpg  {file}:8  Disallow: /googlebot-only
allowed     /everyone-else/photo.jpg   no rule matched (`Googlebot-Image` obeys the `Googlebot` group at lines 7–8; the 1 rule of `User-agent: *` does not apply to it)
"
        )
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr_of(&output), "");

    // The one-token reading is Google's library's: group 2, `*`.
    let one = run(
        &[
            "check",
            "--agent",
            "Googlebot-Image",
            "--one-token",
            "/googlebot-only/photo.jpg",
            "/everyone-else/photo.jpg",
        ],
        &google_example(),
    );
    assert_eq!(
        stdout_of(&one),
        format!(
            "\
allowed     /googlebot-only/photo.jpg  no rule matched
disallowed  /everyone-else/photo.jpg   {file}:5  Disallow: /everyone-else
"
        )
    );
}

#[test]
fn a_full_user_agent_header_is_named_by_its_crawler_in_every_sentence() {
    let header = "Mozilla/5.0 (compatible; Googlebot-Image/1.0; +http://www.google.com/bot.html)";
    let output = run(
        &["check", "--agent", header, "/everyone-else/photo.jpg"],
        &google_example(),
    );
    let out = stdout_of(&output);
    assert!(
        out.contains("no rule matched (`Googlebot-Image` obeys the `Googlebot` group at lines 7–8"),
        "{out}"
    );
    assert!(!out.contains("Mozilla"), "{out}");
}

#[test]
fn check_json_gives_the_preferences_of_the_group_the_crawler_obeys() {
    let files = Files::new();
    let file = files.write(
        "robots.txt",
        "User-agent: *\nContent-Usage: train-ai=y\nDisallow: /private\n\nUser-agent: Googlebot\nContent-Usage: train-ai=n\nDisallow: /x\n",
    );
    let json = |extra: &[&str]| -> Value {
        let mut args = vec!["check", "--json", "--agent", "Googlebot-Image"];
        args.extend_from_slice(extra);
        args.push("/page");
        serde_json::from_slice(&run(&args, &file).stdout).unwrap()
    };
    // The crawler reading: Googlebot-Image obeys the Googlebot group, and
    // so do its preferences, as the library says.
    let robots = RobotsTxt::parse(&std::fs::read(&file).unwrap());
    let library = robots
        .view(Who::crawler("Googlebot-Image"))
        .preferences("/page")
        .unwrap();
    let crawler = json(&[]);
    let shown = &crawler["results"][0]["preferences"];
    assert_eq!(
        library.train_ai,
        Some(crawlgate::extension::Preference::Disallowed)
    );
    assert_eq!(shown["train_ai"], "disallowed", "{crawler}");
    // One token: Googlebot-Image obeys `*`.
    let one = json(&["--one-token"]);
    assert_eq!(
        one["results"][0]["preferences"]["train_ai"], "allowed",
        "{one}"
    );
}

#[test]
fn every_row_of_googles_example_table() {
    // (crawler, URL its group disallows, line): group 1, 3, 3, 2, 2.
    let rows = [
        ("Googlebot-News", "/news-only/a", 2),
        ("Googlebot", "/googlebot-only/a", 8),
        ("Googlebot-Image", "/googlebot-only/a.jpg", 8),
        ("Storebot-Google", "/everyone-else/a", 5),
        ("otherbot", "/everyone-else/a", 5),
    ];
    for (crawler, url, line) in rows {
        let output = run(
            &["check", "--agent", crawler, url, "--json"],
            &google_example(),
        );
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        let result = &json["results"][0];
        assert_eq!(result["allowed"], false, "{crawler}");
        assert_eq!(result["rule"]["line"], line, "{crawler}");
        assert_eq!(json["reading"], "crawler");
    }
}

#[test]
fn adsbot_ignores_the_star_group_and_says_why() {
    let files = Files::new();
    let file = files.write("robots.txt", "User-agent: *\nDisallow: /\n");
    let output = run(&["check", "--agent", "AdsBot-Google", "/landing"], &file);
    assert_eq!(
        stdout_of(&output),
        "allowed     /landing  no group names AdsBot-Google, and it ignores the * group (Google's crawler documentation): nothing is disallowed\n"
    );
    assert_eq!(output.status.code(), Some(0));
    let one = run(
        &[
            "check",
            "--agent",
            "AdsBot-Google",
            "--one-token",
            "/landing",
        ],
        &file,
    );
    assert_eq!(
        stdout_of(&one),
        format!("disallowed  /landing  {}:2  Disallow: /\n", file.display())
    );
    assert_eq!(one.status.code(), Some(1));
}

#[test]
fn bingbot_follows_msnbot_and_the_text_names_the_rule() {
    let files = Files::new();
    let file = files.write(
        "robots.txt",
        "User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n",
    );
    for profile in ["google", "bing"] {
        let output = run(
            &[
                "check",
                "-a",
                "bingbot",
                "--profile",
                profile,
                "/public",
                "/m/x",
            ],
            &file,
        );
        let text = stdout_of(&output);
        assert!(
            text.starts_with("Bingbot obeys the msnbot group at lines 1–2: no group names Bingbot (Bing's announcement of bingbot, 2010)\n"),
            "{text}"
        );
        assert!(text.contains("allowed     /public"), "{text}");
        assert!(text.contains("disallowed  /m/x"), "{text}");
    }
}

#[test]
fn a_user_agent_header_is_read_as_its_crawler_without_a_warning() {
    let output = run(
        &[
            "check",
            "--agent",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "/googlebot-only/x",
        ],
        &google_example(),
    );
    assert_eq!(stderr_of(&output), "");
    let text = stdout_of(&output);
    assert!(
        text.starts_with("Googlebot obeys its own group at lines 7–8\n"),
        "{text}"
    );
    // The one-token reading takes the name as given: not a product token.
    let one = run(
        &[
            "check",
            "--agent",
            "Googlebot/2.1",
            "--one-token",
            "/googlebot-only/x",
        ],
        &google_example(),
    );
    assert!(stderr_of(&one).contains("is not a product token"));
    assert!(stdout_of(&one).starts_with("allowed "));
}

#[test]
fn test_and_batch_take_the_reading_too() {
    let files = Files::new();
    let expect = files.write(
        "robots.expect",
        "disallow Googlebot-Image /googlebot-only/a.jpg\nallow Googlebot-Image /everyone-else/a.jpg\n",
    );
    let output = crawlgate()
        .arg("test")
        .arg(google_example())
        .arg(&expect)
        .output()
        .unwrap();
    assert_eq!(stdout_of(&output), "2 passed, 0 failed\n");
    let one = crawlgate()
        .arg("test")
        .arg(google_example())
        .arg(&expect)
        .arg("--one-token")
        .output()
        .unwrap();
    assert_eq!(one.status.code(), Some(1));
    assert!(
        stdout_of(&one).ends_with("0 passed, 2 failed\n"),
        "{}",
        stdout_of(&one)
    );

    // batch: one token by default, a crawler by request.
    let body = serde_json::to_string(
        "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n",
    )
    .unwrap();
    let input = format!(
        "{{\"robots_txt\":{body},\"user_agent\":\"Googlebot-Image\",\"url\":\"/a\"}}\n\
         {{\"robots_txt\":{body},\"crawler\":\"Googlebot-Image\",\"url\":\"/a\"}}\n\
         {{\"robots_txt\":{body},\"url\":\"/a\"}}\n\
         {{\"robots_txt\":{body},\"user_agent\":\"a\",\"crawler\":\"b\",\"url\":\"/a\"}}\n"
    );
    let output = crawlgate()
        .arg("batch")
        .arg("--quiet")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        stdout_of(&output),
        "{\"allowed\":false,\"line\":5,\"rule\":\"Disallow: /\"}\n\
         {\"allowed\":true,\"line\":null,\"rule\":null,\"choice\":\"fallback\",\"token\":\"Googlebot\",\"profile\":\"google\"}\n\
         {\"error\":\"input line 3: give user_agent (one product token) or crawler (a crawler's name)\"}\n\
         {\"error\":\"input line 4: give one of user_agent and crawler, not both\"}\n"
    );
}

/// The verdicts `check --json` and `explain --json` print for `crawler`,
/// beside the library's.
fn compare(file: &Path, robots: &RobotsTxt, crawler: &str, urls: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    let check: Value = serde_json::from_slice(
        &crawlgate()
            .arg("check")
            .arg(file)
            .args(["--agent", crawler, "--json"])
            .args(urls)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let explain: Value = serde_json::from_slice(
        &crawlgate()
            .arg("explain")
            .arg(file)
            .args(["--agent", crawler, "--json"])
            .args(urls)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let view = robots.view(Who::crawler(crawler));
    let choice = view.group_choice();
    let profile = robots.profile().name;
    for (what, said) in [
        ("check", &check["profile"]),
        ("explain", &explain["profile"]),
    ] {
        if said != profile {
            problems.push(format!(
                "{crawler}: {what} read it by {said}, not {profile}"
            ));
        }
    }
    if explain["choice"]["kind"] != choice.kind().as_str()
        || explain["choice"]["token"].as_str() != choice.token()
    {
        problems.push(format!("{crawler}: explain's choice {}", explain["choice"]));
    }
    for (i, url) in urls.iter().enumerate() {
        let verdict = view.decide(url);
        let want = (verdict.is_allowed(), verdict.line().map(u64::from));
        for (what, got) in [
            ("check", &check["results"][i]),
            ("explain", &explain["urls"][i]),
        ] {
            let have = (
                got["allowed"].as_bool().unwrap_or(!want.0),
                got["rule"]["line"].as_u64(),
            );
            let kind = got["choice"]["kind"].as_str();
            if have != want || kind != Some(choice.kind().as_str()) {
                problems.push(format!(
                    "{crawler} {url}: {what} says {have:?} ({kind:?}), the library {want:?} ({})",
                    choice.kind()
                ));
            }
        }
    }
    problems
}

#[test]
fn check_explain_and_the_library_agree_for_every_crawler() {
    let files = Files::new();
    // Two files (each command is a process: few files keep this quick).
    let bodies = [
        // Google's example, with groups for the fallback tokens of other
        // families (msnbot, Yandex, GoogleOther) and a second `*` rule.
        format!(
            "{}\nuser-agent: msnbot\ndisallow: /fallback\n\nUser-agent: Yandex\nUser-agent: GoogleOther\nDisallow: /family\n\nUser-agent: *\nDisallow: /star\n",
            std::fs::read_to_string(google_example()).unwrap()
        ),
        // Every third crawler named in one group; the others get `*` or a fallback.
        format!(
            "{}Disallow: /named\n\nUser-agent: *\nAllow: /\n",
            registry::crawlers()
                .iter()
                .step_by(3)
                .map(|c| format!("User-agent: {}\n", c.name))
                .collect::<String>()
        ),
    ];
    let urls = [
        "/fallback/a",
        "/family/a",
        "/star/a",
        "/named/a",
        "/news-only/a",
        "/googlebot-only/a",
    ];
    let paths: Vec<PathBuf> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| files.write(&format!("robots{i}.txt"), body))
        .collect();
    let names: Vec<&'static str> = registry::crawlers().iter().map(|c| c.name).collect();
    // Four threads share the crawlers: two commands per crawler and file.
    let problems: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = names
            .chunks(names.len().div_ceil(4))
            .map(|chunk| {
                let (paths, bodies) = (&paths, &bodies);
                scope.spawn(move || {
                    let mut problems = Vec::new();
                    for (path, body) in paths.iter().zip(bodies) {
                        for crawler in chunk {
                            // Each crawler as its operator reads files (Bing's
                            // by bing, Yandex's by yandex), else by google.
                            let profile = crawlgate::Reading::Crawler.profile_for(crawler, None);
                            let robots = RobotsTxt::parse_with(body.as_bytes(), profile);
                            problems.extend(compare(path, &robots, crawler, &urls));
                        }
                    }
                    problems
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
