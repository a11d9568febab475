//! No lint path is super-linear. Pathological files (long lines, many lines,
//! many findings, long user-agents, deep percent-encoding, many groups, many
//! stars, many user-agent lines, many extension lines, and the shapes that
//! made rules compare every crawler with every group or every rule with
//! every other) are linted under every profile, with both comparisons and
//! the audit on, and rendered in every format: 4× the input may take at most
//! 6× the time (best of 3 runs each, in the thread's processor time).
//!
//! Not here: thousands of long wildcard rules (`Disallow: /*aaa…`) with the
//! legacy comparison on. The comparison decides one URL per rule, and a
//! lookup in the core's matcher tries every longer wildcard rule through its
//! length, so that file's time grows with the square of its size up to the
//! comparison's allowance (0.45 s for 480 KB in a release build).

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use crawlgate::Profile;
use crawlgate_lint::{lint, render, LintOptions};

/// The smaller input of each pair, in bytes; the larger is four times it.
const SMALL: usize = 8_000;

/// For shapes made of a few long lines: long enough that Google's reading
/// cuts them (at 16,663 bytes) in both files, so that both take the same
/// paths.
const LONG: usize = 36_000;

/// Each measurement repeats a run until it has taken this long, so that
/// short runs are not lost in the noise of a busy machine.
const MEASURED: Duration = Duration::from_millis(20);

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

type Shape = (&'static str, usize, fn(usize) -> Vec<u8>);

const SHAPES: &[Shape] = &[
    ("long rule line", LONG, |n| {
        format!("User-agent: *\nDisallow: /{}\n", "a".repeat(n)).into_bytes()
    }),
    ("long allow and disallow", LONG, |n| {
        let half = "a".repeat(n / 2);
        format!("User-agent: *\nDisallow: /{half}\nAllow: /{half}b\n").into_bytes()
    }),
    ("many stars in one rule", LONG, |n| {
        format!(
            "User-agent: *\nDisallow: /{}\nAllow: /a\n",
            "a*".repeat(n / 2)
        )
        .into_bytes()
    }),
    ("long user-agent", LONG, |n| {
        format!("User-agent: {}\nDisallow: /x\n", "a".repeat(n)).into_bytes()
    }),
    ("long user-agents of one letter each", LONG, |n| {
        lines("", n, |i| {
            let letter = letters(i % 26);
            format!("User-agent: {}\nDisallow: /x\n", letter.repeat(n / 16))
        })
    }),
    ("long * user-agent", LONG, |n| {
        format!("User-agent: * {}\nDisallow: /\n", "x".repeat(n)).into_bytes()
    }),
    ("long sitemap", LONG, |n| {
        format!(
            "User-agent: *\nDisallow: /\nSitemap: https://e.com/{}\n",
            "a".repeat(n)
        )
        .into_bytes()
    }),
    ("long line of content signals", LONG, |n| {
        let keys: Vec<String> = (0..n / 12).map(|i| format!("k{i}=maybe")).collect();
        format!(
            "User-agent: *\nContent-Signal: {}\nDisallow: /\n",
            keys.join(", ")
        )
        .into_bytes()
    }),
    ("long line of content usages", LONG, |n| {
        let keys: Vec<String> = (0..n / 12).map(|i| format!("k{i}=maybe")).collect();
        format!(
            "User-agent: *\nContent-Usage: /x {}\nDisallow: /\n",
            keys.join(", ")
        )
        .into_bytes()
    }),
    ("long invalid line", LONG, |n| {
        format!("User-agent: *\n{}\n", "x".repeat(n)).into_bytes()
    }),
    ("many lines of rules", SMALL, |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /p{i}\n"))
    }),
    ("many findings", SMALL, |n| {
        lines("", n, |_| "D:/\n".to_owned())
    }),
    ("many duplicate rules", SMALL, |n| {
        lines("User-agent: *\n", n, |_| "Disallow: /same\n".to_owned())
    }),
    ("many invalid lines", SMALL, |n| {
        lines("User-agent: *\n", n, |_| "just some words\n".to_owned())
    }),
    ("many NUL bytes", SMALL, |n| {
        lines("User-agent: *\n", n, |_| "Disallow: /a\0b\n".to_owned())
    }),
    ("deep percent-encoding", LONG, |n| {
        format!(
            "User-agent: *\nDisallow: /{}\nAllow: /{}\n",
            "%25".repeat(n / 6),
            "%7E".repeat(n / 6)
        )
        .into_bytes()
    }),
    ("many percent-encoded rules", SMALL, |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /%7E{i}%41\n"))
    }),
    ("many groups", SMALL, |n| {
        lines("", n, |i| {
            format!("User-agent: bot{}\nDisallow: /x{i}\n\n", letters(i))
        })
    }),
    ("many groups sharing one large group", SMALL, |n| {
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
    ("many repeated groups", SMALL, |n| {
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
    ("many crawler groups beside a large * group", SMALL, |n| {
        // Each crawler's group drops every `*` rule (R105 decides each).
        let mut out = lines("User-agent: *\n", n / 2, |i| format!("Disallow: /s{i}/\n"));
        let crawlers = lines("", n / 2, |i| {
            format!("\nUser-agent: b{}\nDisallow: /own\n", letters(i))
        });
        out.extend_from_slice(&crawlers);
        out
    }),
    (
        "repeated * groups of long allows under short disallows",
        SMALL,
        |n| {
            // R102 looks each allow line's prefixes up among the first group's
            // disallow rules.
            let mut out = lines("User-agent: *\n", n / 2, |i| {
                format!("Disallow: /{}\n", "d".repeat(1 + i % 64))
            });
            out.extend_from_slice(b"\nUser-agent: *\n");
            let allows = lines("", n / 2, |i| format!("Allow: /{}{i}\n", "d".repeat(80)));
            out.extend_from_slice(&allows);
            out
        },
    ),
    ("many empty groups", SMALL, |n| {
        let mut out = lines("", n, |i| format!("User-agent: b{}\n\n", letters(i)));
        out.extend_from_slice(b"User-agent: *\nDisallow: /\n");
        out
    }),
    ("many user-agent lines in one group", SMALL, |n| {
        let mut out = lines("", n, |i| format!("User-agent: bot{}\n", letters(i)));
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many user-agent lines split by extensions", SMALL, |n| {
        let mut out = lines("", n, |i| {
            format!("User-agent: bot{}\nCrawl-delay: 5\n", letters(i))
        });
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many misspelled user-agents", SMALL, |n| {
        lines("", n, |i| {
            format!("User-agent: GPTBox{}\nDisallow: /\n", letters(i))
        })
    }),
    ("many extension lines", SMALL, |n| {
        let mut out = lines("User-agent: *\n", n, |_| {
            "Crawl-delay: 99999\nRequest-rate: x\nVisit-time: y\nNoindex: /a\n".to_owned()
        });
        out.extend_from_slice(b"Disallow: /\n");
        out
    }),
    ("many unknown fields", SMALL, |n| {
        lines("", n, |i| format!("Dissalow{i}: /x\n"))
    }),
    ("many rules with stars", SMALL, |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /*{i}*x\n"))
    }),
    ("many rules shadowing each other", SMALL, |n| {
        lines("User-agent: *\n", n, |i| {
            format!("Allow: /*a{i}\nDisallow: /*a{i}$\n")
        })
    }),
    ("many rules read differently by each profile", SMALL, |n| {
        lines("User-agent: *\n", n, |i| {
            format!("Disallow: /d{i}\nAllow /d{i}\n")
        })
    }),
    ("many stylesheets and scripts", SMALL, |n| {
        lines("User-agent: Googlebot\n", n, |i| {
            format!("Disallow: /a{i}.css\nDisallow: /*b{i}.js$\n")
        })
    }),
    ("many sitemaps", SMALL, |n| {
        lines("User-agent: *\nDisallow: /s\n", n, |i| {
            format!("Sitemap: https://e.com/s{i}.xml\n")
        })
    }),
    ("many sitemaps and wildcard rules", SMALL, |n| {
        let mut out = lines("User-agent: *\n", n / 2, |i| {
            format!("Disallow: /*q{i}*z\n")
        });
        let mut i = 0;
        while out.len() < n {
            out.extend_from_slice(format!("Sitemap: https://e.com/s{i}.xml\n").as_bytes());
            i += 1;
        }
        out
    }),
    ("many secret-looking paths", SMALL, |n| {
        lines("User-agent: *\n", n, |i| format!("Disallow: /secret{i}\n"))
    }),
    ("UTF-16", SMALL, |n| {
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
    // The file read for one crawler and asked once: the crawler's path.
    let kept = crawlgate::CrawlerRobotsTxt::parse_with(bytes, profile, "bot");
    black_box(kept.is_allowed("/x/y?z"));
}

/// The time of one run: at least [`MEASURED`] of repeated runs, divided.
fn measure(bytes: &[u8], profile: Profile, repeats: u32) -> Duration {
    let start = ThreadClock::now();
    for _ in 0..repeats {
        lint_and_render(black_box(bytes), profile);
    }
    start.elapsed() / repeats
}

/// The processor time this thread has used: unlike the wall clock, it does
/// not count the time the thread waits while other processes, or the other
/// tests of this binary, have the cores (on a loaded 2-core machine that
/// alone made 4x the input look 11x slower).
#[cfg(unix)]
struct ThreadClock(Duration);

#[cfg(unix)]
impl ThreadClock {
    fn now() -> ThreadClock {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        ThreadClock(Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }

    fn elapsed(&self) -> Duration {
        ThreadClock::now().0.saturating_sub(self.0)
    }
}

/// Elsewhere, the wall clock.
#[cfg(not(unix))]
struct ThreadClock(std::time::Instant);

#[cfg(not(unix))]
impl ThreadClock {
    fn now() -> ThreadClock {
        ThreadClock(std::time::Instant::now())
    }

    fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// How many runs of `bytes` last about [`MEASURED`].
fn repeats_for(bytes: &[u8], profile: Profile) -> u32 {
    let once = measure(bytes, profile, 1).max(Duration::from_micros(1));
    (MEASURED.as_nanos() / once.as_nanos()).clamp(1, 1000) as u32
}

/// The best of `runs` measurements of each file, taken in turns so that a
/// change in the machine's load falls on both.
fn best_of(runs: usize, small: &[u8], large: &[u8], profile: Profile) -> (Duration, Duration) {
    let repeats = (repeats_for(small, profile), repeats_for(large, profile));
    (0..runs).fold((Duration::MAX, Duration::MAX), |(t1, t4), _| {
        (
            t1.min(measure(small, profile, repeats.0)),
            t4.min(measure(large, profile, repeats.1)),
        )
    })
}

#[test]
fn time_grows_linearly_for_every_pathological_shape() {
    let mut failures = Vec::new();
    let mut report = String::new();
    for (name, size, make) in SHAPES {
        let (small, large) = (make(*size), make(4 * size));
        let growth = large.len() as f64 / small.len() as f64;
        assert!(
            (3.5..=4.5).contains(&growth) && large.len() <= crawlgate::MAX_BYTES,
            "{name}: {} then {} bytes",
            small.len(),
            large.len()
        );
        for profile in Profile::ALL {
            // A busy machine can slow one side down: a pair over the bound
            // is measured again, twice at most, best of five.
            let mut attempts = 0;
            let (mut t1, mut t4) = best_of(3, &small, &large, profile);
            while t4 > t1 * 6 && attempts < 2 {
                (t1, t4) = best_of(5, &small, &large, profile);
                attempts += 1;
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
