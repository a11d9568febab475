//! No lint path is super-linear. Pathological files (long lines, many lines,
//! many findings, long user-agents, deep percent-encoding, many groups, many
//! stars, many user-agent lines, many extension lines, and the shapes that
//! made rules compare every crawler with every group or every rule with
//! every other) are linted under every profile, with both comparisons and
//! the audit on, and rendered in every format: 4× the input may take at most
//! 6× the time (best of 3 runs each).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use crawlgate::Profile;
use crawlgate_lint::{lint, render, LintOptions};

/// The smaller input of each pair, in bytes; the larger is four times it.
const SMALL: usize = 12_000;

/// A name made of letters only (`a`, `b`, … `ba`…): digits would end a
/// product token, making every name the same crawler.
fn letters(mut i: usize) -> String {
    let mut name = String::new();
    loop {
        name.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return name;
        }
    }
}

/// Repeats `line(i)` until the output holds about `n` bytes.
fn lines(head: &str, n: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    let mut out = head.to_owned();
    let mut i = 0;
    while out.len() < n {
        out.push_str(&line(i));
        i += 1;
    }
    out.into_bytes()
}

type Shape = (&'static str, fn(usize) -> Vec<u8>);

const SHAPES: &[Shape] = &[
    ("long rule line", |n| {
        format!("User-agent: *\nDisallow: /{}\n", "a".repeat(n)).into_bytes()
    }),
    ("long allow and disallow", |n| {
        let half = "a".repeat(n / 2);
        format!("User-agent: *\nDisallow: /{half}\nAllow: /{half}b\n").into_bytes()
    }),
    ("many stars in one rule", |n| {
        format!("User-agent: *\nDisallow: /{}\nAllow: /a\n", "a*".repeat(n / 2)).into_bytes()
    }),
    ("long user-agent", |n| {
        format!("User-agent: {}\nDisallow: /x\n", "a".repeat(n)).into_bytes()
    }),
    ("long user-agents of one letter each", |n| {
        lines("", n, |i| {
            let letter = letters(i % 26);
            format!("User-agent: {}\nDisallow: /x\n", letter.repeat(n / 16))
        })
    }),
    ("long * user-agent", |n| {
        format!("User-agent: * {}\nDisallow: /\n", "x".repeat(n)).into_bytes()
    }),
    ("long sitemap", |n| {
        format!("User-agent: *\nDisallow: /\nSitemap: https://e.com/{}\n", "a".repeat(n)).into_bytes()
    }),
    ("long line of content signals", |n| {
        let keys: Vec<String> = (0..n / 12).map(|i| format!("k{i}=maybe")).collect();
        format!("User-agent: *\nContent-Signal: {}\nDisallow: /\n", keys.join(", ")).into_bytes()
    }),
    ("long line of content usages", |n| {
        let keys: Vec<String> = (0..n / 12).map(|i| format!("k{i}=maybe")).collect();
        format!("User-agent: *\nContent-Usage: /x {}\nDisallow: /\n", keys.join(", ")).into_bytes()
    }),
    ("long invalid line", |n| {
        format!("User-agent: *\n{}\n", "x".repeat(n)).into_bytes()
    }),
    ("many lines of rules", |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /p{i}\n"))
    }),
    ("many findings", |n| lines("", n, |_| "D:/\n".to_owned())),
    ("many duplicate rules", |n| {
        lines("User-agent: *\n", n, |_| "Disallow: /same\n".to_owned())
    }),
    ("many invalid lines", |n| {
        lines("User-agent: *\n", n, |_| "just some words\n".to_owned())
    }),
    ("many NUL bytes", |n| {
        lines("User-agent: *\n", n, |_| "Disallow: /a\0b\n".to_owned())
    }),
    ("deep percent-encoding", |n| {
        format!(
            "User-agent: *\nDisallow: /{}\nAllow: /{}\n",
            "%25".repeat(n / 6),
            "%7E".repeat(n / 6)
        )
        .into_bytes()
    }),
    ("many percent-encoded rules", |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /%7E{i}%41\n"))
    }),
    ("many groups", |n| {
        lines("", n, |i| {
            format!("User-agent: bot{}\nDisallow: /x{i}\n\n", letters(i))
        })
    }),
    ("many groups sharing one large group", |n| {
        let k = n / 60;
        let mut out: String = (0..k)
            .map(|i| format!("User-agent: b{}\n", letters(i)))
            .collect();
        for i in 0..k {
            let _ = writeln!(out, "Disallow: /r{i}");
        }
        out.push('\n');
        for i in 0..k {
            let _ = write!(out, "User-agent: b{}\nDisallow: /own{i}\n\n", letters(i));
        }
        out.into_bytes()
    }),
    ("many repeated groups", |n| {
        let k = n / 40;
        let mut out: String = (0..k)
            .map(|i| format!("User-agent: b{}\nDisallow: /o{i}\n\n", letters(i)))
            .collect();
        for i in 0..k {
            let _ = writeln!(out, "User-agent: b{}", letters(i));
        }
        out.push_str("Disallow: /all\n");
        out.into_bytes()
    }),
    ("many empty groups", |n| {
        let mut out = lines("", n, |i| format!("User-agent: b{}\n\n", letters(i)));
        out.extend_from_slice(b"User-agent: *\nDisallow: /\n");
        out
    }),
    ("many user-agent lines in one group", |n| {
        let mut out = lines("", n, |i| format!("User-agent: bot{}\n", letters(i)));
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many user-agent lines split by extensions", |n| {
        let mut out = lines("", n, |i| {
            format!("User-agent: bot{}\nCrawl-delay: 5\n", letters(i))
        });
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many misspelled user-agents", |n| {
        lines("", n, |i| {
            format!("User-agent: GPTBox{}\nDisallow: /\n", letters(i))
        })
    }),
    ("many extension lines", |n| {
        let mut out = lines("User-agent: *\n", n, |_| {
            "Crawl-delay: 99999\nRequest-rate: x\nVisit-time: y\nNoindex: /a\n".to_owned()
        });
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many unknown fields", |n| {
        lines("", n, |i| format!("Dissalow{i}: /x\n"))
    }),
    ("many rules with stars", |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /*{i}*x\n"))
    }),
    ("many rules shadowing each other", |n| {
        lines("User-agent: *\n", n, |i| {
            format!("Allow: /*a{i}\nDisallow: /*a{i}$\n")
        })
    }),
    ("many long rules shadowing each other", |n| {
        lines("User-agent: *\n", n, |i| {
            let a = "a".repeat(i % 200);
            format!("Disallow: /*{a}\nAllow: /{a}*\n")
        })
    }),
    ("many rules read differently by each profile", |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /d{i}\nAllow /d{i}\n"))
    }),
    ("many stylesheets and scripts", |n| {
        lines("User-agent: Googlebot\n", n, |i| {
            format!("Disallow: /a{i}.css\nDisallow: /*b{i}.js$\n")
        })
    }),
    ("many sitemaps", |n| {
        lines("User-agent: *\nDisallow: /s\n", n, |i| {
            format!("Sitemap: https://e.com/s{i}.xml\n")
        })
    }),
    ("many sitemaps and wildcard rules", |n| {
        let mut out = lines("User-agent: *\n", n / 2, |i| format!("Disallow: /*q{i}*z\n"));
        let mut i = 0;
        while out.len() < n {
            out.extend_from_slice(format!("Sitemap: https://e.com/s{i}.xml\n").as_bytes());
            i += 1;
        }
        out
    }),
    ("many secret-looking paths", |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /secret{i}\n"))
    }),
    ("UTF-16", |n| {
        let text: String = "User-agent: *\nDisallow: /\n".repeat(n / 52);
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }),
];

/// Lints under `profile` with every rule on, and renders every format.
fn lint_and_render(bytes: &[u8], profile: Profile) {
    let report = lint(bytes, &LintOptions::everything().with_profile(profile));
    let file = render::LintedFile {
        path: "robots.txt",
        source: bytes,
        report: &report,
    };
    black_box(render::human(&report, bytes, "robots.txt", false));
    black_box(render::json(&[file]));
    black_box(render::sarif(&[file]));
    let audit = report.audit.as_deref().unwrap_or_default();
    black_box(render::audit_table(audit, false));
    black_box(render::audit_json(audit));
}

fn best_of(runs: usize, bytes: &[u8], profile: Profile) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            lint_and_render(black_box(bytes), profile);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

#[test]
fn time_grows_linearly_for_every_pathological_shape() {
    let mut failures = Vec::new();
    let mut report = String::new();
    for (name, make) in SHAPES {
        let (small, large) = (make(SMALL), make(4 * SMALL));
        let growth = large.len() as f64 / small.len() as f64;
        assert!(
            (3.5..=4.5).contains(&growth) && large.len() <= crawlgate::MAX_BYTES,
            "{name}: {} then {} bytes",
            small.len(),
            large.len()
        );
        for profile in Profile::ALL {
            let (mut t1, mut t4) = (best_of(3, &small, profile), best_of(3, &large, profile));
            // A busy machine can slow one side down: a pair over the bound
            // is measured once more, best of five.
            if t4 > t1 * 6 {
                (t1, t4) = (best_of(5, &small, profile), best_of(5, &large, profile));
            }
            let ratio = t4.as_secs_f64() / t1.as_secs_f64().max(1e-9);
            let _ = writeln!(
                report,
                "{name:48} {:8} {:>9.2?} {:>9.2?} x{ratio:.1}",
                profile.name, t1, t4
            );
            if t4 > t1 * 6 {
                failures.push(format!("{name} ({}): x{ratio:.1}", profile.name));
            }
        }
    }
    println!("{report}");
    assert!(
        failures.is_empty(),
        "4x the input took more than 6x the time:\n{}\n\n{report}",
        failures.join("\n")
    );
}
