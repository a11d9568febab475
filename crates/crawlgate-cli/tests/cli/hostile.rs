//! The regression corpus of hostile inputs: long lines, many lines, long
//! agents, long URLs, deep percent-encoding, many groups, many stars,
//! garbage bytes, 100,000 lines, huge extension lines, through the built
//! binary on every command (check, explain, test, lint, report, batch, fetch
//! against loopback) in every format and profile.
//!
//! Every run has a generous timeout that reports a hang, must not panic,
//! must stay under [`MAX_RSS`] of peak memory (the child's own, from
//! `wait4`), and time must grow linearly: 4x the input takes at most 6x the
//! time, best of 3 (a ratio, never a wall-clock threshold).
//!
//! `CRAWLGATE_BIN` names another binary to run (a release build, to measure);
//! `--nocapture` prints the slowest input per command and the peak memory.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use crawlgate_test_support::Rng;
use crawlgate_testserver::{Reply, TestServer};
use wait4::Wait4 as _;

/// The peak resident memory any one run may reach.
const MAX_RSS: u64 = 256 << 20;

/// Longer than any run needs, even unoptimised on a loaded machine: a run
/// past it has hung.
const HANG: Duration = Duration::from_secs(300);

/// Timing runs one at a time, so they do not slow each other down.
static TIMING: Mutex<()> = Mutex::new(());

fn binary() -> PathBuf {
    std::env::var_os("CRAWLGATE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("crawlgate"))
}

/// What one run did.
struct Run {
    /// Killed at the time limit.
    hung: bool,
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    elapsed: Duration,
    /// The peak resident memory `wait4` reports. On Linux it includes the
    /// test process's own peak, which the child shared until its exec: an
    /// upper bound.
    max_rss: u64,
    /// The child's own peak resident memory since its exec (`VmHWM`, polled
    /// every 10 ms until it ended).
    peak_rss: u64,
}

/// Runs the binary with `args` in `dir`, `stdin` written to it; kills it
/// when it runs past `limit`.
fn run_within(dir: &Path, args: &[String], stdin: &[u8], limit: Duration) -> Run {
    let started = Instant::now();
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("crawlgate starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may not read it all (a closed pipe is fine).
        let _ = input.write_all(&stdin);
    });
    let mut out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.read_to_end(&mut bytes);
        bytes
    });
    let mut err = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = err.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    });
    let (done, finished) = mpsc::channel::<()>();
    let pid = child.id().to_string();
    // Polls the child's high-water mark of resident memory (since its exec)
    // until it ends, or kills it at the limit.
    let watchdog = std::thread::spawn(move || {
        let status = format!("/proc/{pid}/status");
        let mut peak = 0;
        loop {
            peak = peak.max(high_water_mark(&status));
            match finished.recv_timeout(Duration::from_millis(10)) {
                Err(mpsc::RecvTimeoutError::Timeout) if started.elapsed() < limit => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = Command::new("kill").args(["-9", &pid]).status();
                    return (true, peak);
                }
                _ => return (false, peak),
            }
        }
    });
    let usage = child.wait4().expect("wait for crawlgate");
    let _ = done.send(());
    let (hung, peak_rss) = watchdog.join().unwrap();
    writer.join().unwrap();
    let stdout = reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    Run {
        hung,
        code: usage.status.code(),
        stdout,
        stderr,
        elapsed: started.elapsed(),
        max_rss: usage.rusage.maxrss,
        peak_rss,
    }
}

/// `VmHWM` of a `/proc/<pid>/status` file, in bytes (0 once the process is
/// gone).
fn high_water_mark(status: &str) -> u64 {
    std::fs::read_to_string(status)
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib << 10)
        })
        .unwrap_or(0)
}

/// A hostile input, made at a scale.
struct Kind {
    name: &'static str,
    /// The robots.txt at scale `n`.
    body: fn(usize) -> Vec<u8>,
    /// The URLs asked about at scale `n`.
    urls: fn(usize) -> Vec<String>,
    /// The scale of the corpus run (the growth test also runs 4 times it).
    n: usize,
}

fn plain_urls(_: usize) -> Vec<String> {
    vec!["/".into(), "/p1/x".into(), "/x".into()]
}

/// Pseudo-random bytes (a fixed seed).
fn garbage(n: usize) -> Vec<u8> {
    Rng::new(0x9E37_79B9_7F4A_7C15).bytes(n)
}

const KINDS: &[Kind] = &[
    Kind {
        name: "long line",
        body: |n| format!("User-agent: *\nDisallow: /{}\n", "a".repeat(n)).into_bytes(),
        urls: |n| vec!["/".into(), format!("/{}", "a".repeat(n.min(30_000)))],
        n: 25_000,
    },
    Kind {
        name: "many lines",
        body: |n| {
            let mut s = String::from("User-agent: *\n");
            for i in 0..n {
                s.push_str(&format!("Disallow: /p{i}/\n"));
            }
            s.into_bytes()
        },
        urls: plain_urls,
        n: 6_000,
    },
    Kind {
        name: "duplicate rules",
        body: |n| format!("User-agent: *\n{}", "Disallow: /a\n".repeat(n)).into_bytes(),
        urls: plain_urls,
        n: 5_000,
    },
    Kind {
        name: "long agent",
        body: |n| format!("User-agent: {}\nDisallow: /\n", "b".repeat(n)).into_bytes(),
        urls: plain_urls,
        n: 1_000,
    },
    Kind {
        name: "long URL",
        body: |_| b"User-agent: *\nDisallow: /*a*b$\nAllow: /a\n".to_vec(),
        urls: |n| {
            vec![
                format!("/{}", "a".repeat(n)),
                format!("/{}b", "ab".repeat(n / 2)),
            ]
        },
        n: 25_000,
    },
    Kind {
        name: "deep percent-encoding",
        body: |n| {
            format!(
                "User-agent: *\nDisallow: /{}\nAllow: /%{}\n",
                "%25".repeat(n),
                "%2F%7e".repeat(n / 2)
            )
            .into_bytes()
        },
        urls: |n| vec![format!("/{}", "%25".repeat(n.min(10_000))), "/%7E".into()],
        n: 8_000,
    },
    Kind {
        name: "many groups",
        body: |n| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!("User-agent: bot{i}\nDisallow: /{i}/\n\n"));
            }
            s.push_str("User-agent: *\nDisallow: /x\n");
            s.into_bytes()
        },
        urls: plain_urls,
        n: 1_000,
    },
    Kind {
        name: "merged agents",
        body: |n| {
            let mut s = String::new();
            for i in 0..n {
                s.push_str(&format!("User-agent: bot{i}\nCrawl-delay: {i}\n"));
            }
            s.push_str("User-agent: bot\nDisallow: /x\n");
            s.into_bytes()
        },
        urls: plain_urls,
        n: 1_000,
    },
    Kind {
        name: "many stars",
        body: |n| {
            format!(
                "User-agent: *\nDisallow: /{}$\nAllow: /*{}\n",
                "*a".repeat(n),
                "a*".repeat(n / 2)
            )
            .into_bytes()
        },
        urls: |n| vec![format!("/{}", "a".repeat(n.min(20_000))), "/b".into()],
        n: 8_000,
    },
    Kind {
        name: "garbage bytes",
        body: garbage,
        urls: plain_urls,
        n: 100_000,
    },
    Kind {
        name: "long extension lines",
        body: |n| {
            format!(
                "User-agent: *\nDisallow: /x\nX-Foo: {0}\nCrawl-delay: {0}\nContent-Usage: /{0} train-ai=n\nSitemap: https://e.example/{0}\n",
                "9".repeat(n)
            )
            .into_bytes()
        },
        urls: plain_urls,
        n: 20_000,
    },
];

/// Every command, format and profile, for a robots.txt written at
/// `robots.txt` in `dir` (and served by `server`), with `urls`. Each entry
/// is a name, the arguments and the standard input.
fn invocations(
    server: &TestServer,
    body: &[u8],
    urls: &[String],
) -> Vec<(String, Vec<String>, Vec<u8>)> {
    let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let mut all = Vec::new();
    for format in [&[][..], &["--json"][..], &["--all-profiles"][..]] {
        let mut args = strings(&["check", "robots.txt", "-a", "bot"]);
        args.extend(urls.iter().cloned());
        args.extend(strings(format));
        all.push((format!("check {}", format.join(" ")), args, Vec::new()));
    }
    for profile in ["google", "rfc9309", "legacy"] {
        for format in [&[][..], &["--json"][..]] {
            let mut args = strings(&["explain", "robots.txt", "-a", "bot", "--profile", profile]);
            args.extend(urls.iter().cloned());
            args.extend(strings(format));
            all.push((
                format!("explain {profile} {}", format.join(" ")),
                args,
                Vec::new(),
            ));
        }
        for format in ["human", "json", "sarif"] {
            if profile != "google" && format != "human" {
                continue;
            }
            let args = strings(&[
                "lint",
                "robots.txt",
                "--profile",
                profile,
                "--format",
                format,
            ]);
            all.push((format!("lint {profile} {format}"), args, Vec::new()));
        }
    }
    all.push((
        "lint --audit --legacy".into(),
        strings(&["lint", "robots.txt", "--audit", "--legacy"]),
        Vec::new(),
    ));
    for format in [&[][..], &["--json"][..]] {
        let mut args = strings(&["report", "robots.txt"]);
        args.extend(strings(format));
        all.push((format!("report {}", format.join(" ")), args, Vec::new()));
    }
    all.push((
        "report URL".into(),
        strings(&["report", &server.url("/"), "--allow-private", "--json"]),
        Vec::new(),
    ));
    for format in [&[][..], &["--json"][..]] {
        let mut args = strings(&["test", "robots.txt", "-", "--verbose"]);
        args.extend(strings(format));
        let expectations: String = urls.iter().map(|u| format!("allow bot {u}\n")).collect();
        all.push((
            format!("test {}", format.join(" ")),
            args,
            expectations.into_bytes(),
        ));
    }
    let b64 = base64::engine::general_purpose::STANDARD.encode(body);
    let mut requests = String::new();
    for (i, url) in urls.iter().enumerate() {
        let url = serde_json::to_string(url).unwrap();
        requests.push_str(&format!(
            "{{\"id\":{i},\"robots_txt_b64\":\"{b64}\",\"user_agent\":\"bot\",\"url\":{url}}}\n"
        ));
        if let Ok(text) = std::str::from_utf8(body) {
            let text = serde_json::to_string(text).unwrap();
            requests.push_str(&format!(
                "{{\"id\":\"t{i}\",\"robots_txt\":{text},\"user_agent\":\"bot\",\"url\":{url}}}\n"
            ));
        }
        requests.push_str(&format!(
            "{{\"id\":\"f{i}\",\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":{url}}}\n"
        ));
    }
    all.push(("batch".into(), strings(&["batch"]), requests.into_bytes()));
    for format in [&[][..], &["--json"][..]] {
        let mut args = strings(&["fetch", &server.url("/"), "--allow-private"]);
        args.extend(strings(format));
        all.push((format!("fetch {}", format.join(" ")), args, Vec::new()));
    }
    let mut args = strings(&["check", &server.url("/"), "-a", "bot", "--allow-private"]);
    args.extend(urls.iter().cloned());
    all.push(("check URL".into(), args, Vec::new()));
    all
}

/// Runs every invocation on `kind` at scale `n`; checks each run and
/// returns (command, elapsed, peak RSS) per run.
fn run_kind(kind: &Kind, n: usize) -> Vec<(String, Duration, u64)> {
    let dir = tempfile::tempdir().unwrap();
    eprintln!("{} (n = {n}) in {}", kind.name, dir.path().display());
    let body = (kind.body)(n);
    let urls = (kind.urls)(n);
    std::fs::write(dir.path().join("robots.txt"), &body).unwrap();
    let server = TestServer::start([("/robots.txt", Reply::status(200).body(body.clone()))]);
    let mut measured = Vec::new();
    for (name, args, stdin) in invocations(&server, &body, &urls) {
        let run = run_within(dir.path(), &args, &stdin, HANG);
        let what = format!("{} (n = {n}): crawlgate {name}", kind.name);
        assert!(!run.hung, "HANG: {what} ran past {HANG:?}");
        assert!(
            !run.stderr.contains("panicked") && run.code != Some(101),
            "PANIC: {what}: {}",
            run.stderr
        );
        assert!(
            matches!(run.code, Some(0 | 1)),
            "{what}: exit {:?}: {}",
            run.code,
            run.stderr
        );
        assert!(
            run.max_rss <= MAX_RSS,
            "{what}: peak RSS {} MiB",
            run.max_rss >> 20
        );
        if name == "batch" {
            // One answer per request, ids in order.
            let requests = stdin
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count();
            let answers: Vec<serde_json::Value> = String::from_utf8(run.stdout.clone())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            assert_eq!(answers.len(), requests, "{what}");
            assert!(answers.iter().all(|a| a.get("error").is_none()), "{what}");
        }
        measured.push((name, run.elapsed, run.max_rss));
    }
    measured
}

#[test]
fn no_hostile_input_crashes_hangs_or_starves_any_command() {
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let mut slowest: Vec<(String, Duration, &str)> = Vec::new();
    let mut peak = (0, String::new());
    for kind in KINDS {
        for (command, elapsed, rss) in run_kind(kind, kind.n) {
            let base = command.split(' ').next().unwrap_or_default().to_owned();
            match slowest.iter_mut().find(|s| s.0 == base) {
                Some(entry) if entry.1 >= elapsed => {}
                Some(entry) => *entry = (base, elapsed, kind.name),
                None => slowest.push((base, elapsed, kind.name)),
            }
            if rss > peak.0 {
                peak = (rss, format!("{command} on {}", kind.name));
            }
        }
    }
    for (command, elapsed, kind) in &slowest {
        eprintln!("slowest {command}: {kind}, {elapsed:?}");
    }
    eprintln!("peak RSS: {} MiB ({})", peak.0 >> 20, peak.1);
}

#[test]
fn one_hundred_thousand_lines() {
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let kind = Kind {
        name: "100,000 lines",
        body: |n| {
            let mut s = String::from("User-agent: *\n");
            for i in 1..n {
                if i % 1000 == 0 {
                    s.push_str("User-agent: b\n");
                } else {
                    s.push_str(&format!("Disallow:/{i}\n"));
                }
            }
            s.into_bytes()
        },
        urls: plain_urls,
        n: 100_000,
    };
    run_kind(&kind, kind.n);
}

/// The best of three runs of `args`, or `None` when a run had to be
/// killed at `limit`. Stops at the first run within `enough`.
fn best_of_three(
    dir: &Path,
    args: &[String],
    stdin: &[u8],
    limit: Duration,
    enough: Duration,
) -> Option<Duration> {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let run = run_within(dir, args, stdin, limit);
        if run.hung {
            return None;
        }
        best = best.min(run.elapsed);
        if best <= enough {
            break;
        }
    }
    Some(best)
}

#[test]
fn time_grows_linearly_with_the_input() {
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for kind in KINDS {
        let small = tempfile::tempdir().unwrap();
        let large = tempfile::tempdir().unwrap();
        let (n, big) = (kind.n, 4 * kind.n);
        std::fs::write(small.path().join("robots.txt"), (kind.body)(n)).unwrap();
        std::fs::write(large.path().join("robots.txt"), (kind.body)(big)).unwrap();
        let server = TestServer::start([]);
        let commands = |n: usize| {
            let body = (kind.body)(n);
            invocations(&server, &body, &(kind.urls)(n))
                .into_iter()
                .filter(|(name, ..)| {
                    // One format of each command: the formats share the work.
                    matches!(
                        name.as_str(),
                        "check "
                            | "explain google "
                            | "lint google human"
                            | "lint --audit --legacy"
                            | "test "
                            | "report --json"
                            | "batch"
                    )
                })
                .collect::<Vec<_>>()
        };
        for ((name, small_args, small_in), (_, large_args, large_in)) in
            commands(n).into_iter().zip(commands(big))
        {
            // A super-linear path fails every attempt; a ratio pushed past
            // 6x by a busy machine (other tests, other builds) does not.
            let mut attempt = 0;
            let (t1, t4, limit, ratio) = loop {
                attempt += 1;
                let t1 = best_of_three(small.path(), &small_args, &small_in, HANG, Duration::ZERO)
                    .unwrap_or_else(|| panic!("HANG: {} with `{name}`", kind.name));
                // Past 6x it has failed; past 20x (and a few seconds) it is
                // not worth waiting for.
                let limit = (t1 * 20).max(Duration::from_secs(5));
                let t4 = best_of_three(large.path(), &large_args, &large_in, limit, t1 * 6);
                let ratio = t4.map_or(f64::INFINITY, |t4| {
                    t4.as_secs_f64() / t1.as_secs_f64().max(1e-6)
                });
                if ratio <= 6.0 || attempt == 3 || t4.is_none() {
                    break (t1, t4, limit, ratio);
                }
            };
            eprintln!(
                "{} x4 with `{name}`: {t1:?} -> {t4:?} ({ratio:.1}x)",
                kind.name
            );
            if ratio > 6.0 {
                failures.push(format!(
                    "{} x4 with `{name}`: {t1:?} -> {} ({ratio:.1}x)",
                    kind.name,
                    t4.map_or(format!("killed after {limit:?}"), |t| format!("{t:?}"))
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "super-linear:\n{}",
        failures.join("\n")
    );
}

/// `count` distinct product tokens, every other one written as a full
/// User-Agent (not a token: `crawlgate test` warns about it once).
fn distinct_agents(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| {
            let mut name = String::from("bot");
            let mut n = i;
            loop {
                name.push(char::from(b'a' + (n % 26) as u8));
                n /= 26;
                if n == 0 {
                    break;
                }
            }
            if i % 2 == 1 {
                name.push_str("/1.0");
            }
            name
        })
        .collect()
}

/// Makes the arguments and standard input of a run at a scale, in a folder.
type Make = dyn Fn(usize, &Path) -> (Vec<String>, Vec<u8>);

/// The time of the best of three runs at `n` and at `4n` (input made by
/// `make`), and their ratio; a ratio past 6 is tried again (twice) before
/// it counts, since a busy machine can push one run past it.
fn growth(what: &str, make: &Make, n: usize) -> f64 {
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let (small, large) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (small_args, small_in) = make(n, small.path());
    let (large_args, large_in) = make(4 * n, large.path());
    let mut ratio = f64::INFINITY;
    for _ in 0..3 {
        let t1 = best_of_three(small.path(), &small_args, &small_in, HANG, Duration::ZERO)
            .unwrap_or_else(|| panic!("HANG: {what} at {n}"));
        let limit = (t1 * 20).max(Duration::from_secs(10));
        let t4 = best_of_three(large.path(), &large_args, &large_in, limit, t1 * 6);
        ratio = t4.map_or(f64::INFINITY, |t4| {
            t4.as_secs_f64() / t1.as_secs_f64().max(1e-6)
        });
        eprintln!("{what}: {n} -> {}: {t1:?} -> {t4:?} ({ratio:.1}x)", 4 * n);
        if ratio <= 6.0 || t4.is_none() {
            break;
        }
    }
    ratio
}

#[test]
fn test_grows_linearly_with_distinct_agents() {
    let make = |n: usize, dir: &Path| {
        std::fs::write(
            dir.join("robots.txt"),
            "User-agent: botaa\nDisallow: /a\n\nUser-agent: *\nDisallow: /private/\n",
        )
        .unwrap();
        let expectations: String = distinct_agents(n)
            .iter()
            .map(|agent| format!("allow {agent} /public\n"))
            .collect();
        let args = ["test", "robots.txt", "-"].map(String::from).to_vec();
        (args, expectations.into_bytes())
    };
    // The answers are right at scale, and one warning per distinct agent
    // that is not a token.
    let dir = tempfile::tempdir().unwrap();
    let (args, input) = make(2_000, dir.path());
    let run = run_within(dir.path(), &args, &input, HANG);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "2000 passed, 0 failed\n"
    );
    assert_eq!(run.stderr.matches("is not a product token").count(), 1_000);
    let ratio = growth("crawlgate test, distinct agents", &make, 40_000);
    assert!(
        ratio <= 6.0,
        "4x the distinct agents took {ratio:.1}x the time"
    );
}

/// JSON lines asking about `n` distinct small bodies, one each.
fn distinct_small_bodies(n: usize) -> Vec<u8> {
    let mut input = String::new();
    for i in 0..n {
        input.push_str(&format!(
            "{{\"id\":{i},\"robots_txt\":\"User-agent: *\\nDisallow: /p{i}/\\n\",\"user_agent\":\"bot\",\"url\":\"/p{i}/x\"}}\n"
        ));
    }
    input.into_bytes()
}

#[test]
fn batch_grows_linearly_with_distinct_bodies() {
    let make = |n: usize, _: &Path| (vec!["batch".to_owned()], distinct_small_bodies(n));
    let ratio = growth("crawlgate batch, distinct bodies", &make, 50_000);
    assert!(
        ratio <= 6.0,
        "4x the distinct bodies took {ratio:.1}x the time"
    );
}

/// The peak memory `crawlgate batch` may reach: its documented bound
/// (`crawlgate batch --help`, docs/cli.md).
const BATCH_MAX_RSS: u64 = 112 << 20;

#[test]
fn batch_memory_stays_within_its_documented_bound() {
    let _alone = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let help = run_within(
        Path::new("."),
        &["batch".to_owned(), "--help".to_owned()],
        b"",
        HANG,
    );
    let help = String::from_utf8_lossy(&help.stdout).replace('\n', " ");
    assert!(
        help.contains(&format!("at most {} MiB in all", BATCH_MAX_RSS >> 20)),
        "the help states another bound: {help}"
    );
    let dir = tempfile::tempdir().unwrap();
    // 1. Many small distinct bodies: the fixed cost of an entry dominates.
    let small = distinct_small_bodies(300_000);
    // 2. The corpus, each file made distinct, twice over, inline.
    let mut corpus = String::new();
    for round in 0..2 {
        for (i, (_, body)) in crawlgate_corpus::files().iter().enumerate() {
            let text = format!("{}\n# {round} {i}\n", String::from_utf8_lossy(body));
            let text = serde_json::to_string(&text).unwrap();
            corpus.push_str(&format!(
                "{{\"robots_txt\":{text},\"user_agent\":\"Googlebot\",\"url\":\"/search?q={i}\"}}\n"
            ));
        }
    }
    // 3. Files of many groups, each asked enough to compile the rules of
    // ten crawlers: the compiled rules grow what an entry holds.
    let mut compiled = String::new();
    let mut groups = String::new();
    for g in 0..200 {
        let agent = char::from(b'a' + (g % 26) as u8);
        groups.push_str(&format!("User-agent: bot{agent}\n"));
        for r in 0..5 {
            groups.push_str(&format!(
                "Disallow: /g{g}/r{r}/*.php$\nAllow: /g{g}/r{r}/open\n"
            ));
        }
    }
    for f in 0..600 {
        let name = format!("robots-{f}.txt");
        std::fs::write(dir.path().join(&name), format!("# file {f}\n{groups}")).unwrap();
        for agent in 0..10 {
            for q in 0..5 {
                compiled.push_str(&format!(
                    "{{\"robots_file\":\"{name}\",\"user_agent\":\"bot{}\",\"url\":\"/g{agent}/r{q}/x.php\"}}\n",
                    char::from(b'a' + agent as u8)
                ));
            }
        }
    }
    for (what, input) in [
        ("small distinct bodies", small.as_slice()),
        ("distinct corpus files", corpus.as_bytes()),
        ("compiled rules", compiled.as_bytes()),
    ] {
        let run = run_within(dir.path(), &["batch".to_owned()], input, HANG);
        assert_eq!(run.code, Some(0), "{what}: {}", run.stderr);
        let answers = run.stdout.iter().filter(|&&b| b == b'\n').count();
        let errors = String::from_utf8_lossy(&run.stdout)
            .matches("\"error\"")
            .count();
        assert_eq!(
            (answers, errors),
            (input.iter().filter(|&&b| b == b'\n').count(), 0),
            "{what}"
        );
        eprintln!(
            "batch, {what}: peak RSS {} MiB in {:?}",
            run.peak_rss >> 20,
            run.elapsed
        );
        // Measured: the poll saw the process grow past its start.
        assert!(run.peak_rss > 4 << 20, "{what}: no peak measured");
        assert!(
            run.peak_rss <= BATCH_MAX_RSS,
            "batch, {what}: peak RSS {} MiB, more than the documented {} MiB",
            run.peak_rss >> 20,
            BATCH_MAX_RSS >> 20
        );
    }
}
