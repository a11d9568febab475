//! 48 concurrent `/v1/lint` requests of 1.3 MB each stay within the
//! documented memory budget (512 MiB): the process's peak resident memory
//! (VmHWM) grows by less than the budget, and the budget's own accounting
//! (bodies, work) never goes past its pools. Without the budget, one such
//! request peaked at 78 MB and 48 at 2.58 GB. The measurement runs in a
//! process of its own (this test binary started again for this one test),
//! so no other test's memory is counted.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::{client, config, start};

/// Set in the process that measures.
const MEASURING: &str = "CRAWLGATE_TEST_MEMORY_MEASURING";

/// A line of `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(field))
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"));
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

fn metric(text: &str, name: &str, pool: &str) -> usize {
    let key = format!("{name}{{pool=\"{pool}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&key))
        .unwrap_or_else(|| panic!("no {key} in the metrics"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn forty_eight_large_lints_stay_within_the_memory_budget() {
    if std::env::var_os(MEASURING).is_some() {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
            .block_on(measure());
        return;
    }
    let this_test = "memory::forty_eight_large_lints_stay_within_the_memory_budget";
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", this_test, "--nocapture", "--test-threads=1"])
        .env(MEASURING, "1")
        .status()
        .expect("the test binary starts again");
    assert!(
        status.success(),
        "the measurement failed: see its output above"
    );
}

/// The measurement, in a process of its own.
async fn measure() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    // Waiting is how the budget holds: let them wait as long as it takes.
    config.limits.queue_timeout = Duration::from_secs(1_800);
    let budget = config.limits.memory_budget;
    assert_eq!(budget, 512 << 20, "the documented default");
    let server = start(config).await;

    // 1 MiB of rules whose JSON is 1.3 MB: quotes and line ends escaped.
    let mut text = String::new();
    let mut n = 0;
    while text.len() < (1 << 20) - 64 {
        text.push_str(&format!(
            "Disallow: /\"q{n}\"/\"a\"/*.php$\nAllow: /\"\"\"{n}\"\"\"\t\n"
        ));
        if n % 50 == 0 {
            text.push_str("User-agent: bot\n");
        }
        n += 1;
    }
    let body = bytes::Bytes::from(
        serde_json::to_vec(&json!({"robots_txt": text, "audit": true})).unwrap(),
    );
    assert!(body.len() >= 1_300_000, "{} bytes", body.len());

    let baseline = status_bytes("VmRSS:");
    let started = Instant::now();
    let lint = server.url("/v1/lint");
    let requests: Vec<_> = (0..48)
        .map(|_| {
            let (lint, body) = (lint.clone(), body.clone());
            tokio::spawn(async move {
                let response = client()
                    .post(&lint)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                let answer: Value = response.json().await.unwrap();
                (
                    status,
                    answer["counts"]["errors"].as_u64(),
                    answer["diagnostics"].as_array().map_or(0, Vec::len),
                )
            })
        })
        .collect();
    let answers: Vec<_> = futures_util::future::join_all(requests).await;
    let took = started.elapsed();
    let first = *answers[0].as_ref().unwrap();
    for answer in &answers {
        let answer = answer.as_ref().unwrap();
        assert_eq!(answer.0, 200);
        assert_eq!(answer, &first, "every answer is the same");
    }
    assert!(first.2 > 0, "the linter found something to say");

    let peak = status_bytes("VmHWM:");
    let metrics = client()
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let peak_of = |pool| metric(&metrics, "crawlgate_memory_budget_peak_bytes", pool);
    let total_of = |pool: &str| {
        if pool == "bodies" {
            budget / 4
        } else {
            budget - budget / 4
        }
    };
    eprintln!(
        "48 lints of {} bytes in {took:?}: resident {} MiB before, peak {} MiB (+{} MiB; budget {} MiB); budget peaks: bodies {} MiB of {}, work {} MiB of {}",
        body.len(),
        baseline >> 20,
        peak >> 20,
        peak.saturating_sub(baseline) >> 20,
        budget >> 20,
        peak_of("bodies") >> 20,
        total_of("bodies") >> 20,
        peak_of("work") >> 20,
        total_of("work") >> 20,
    );
    for pool in ["bodies", "work"] {
        assert!(peak_of(pool) <= total_of(pool), "{pool}");
        assert!(peak_of(pool) > 0, "{pool} was used");
    }
    assert!(
        peak.saturating_sub(baseline) <= budget,
        "resident memory grew by {} MiB, past the {} MiB budget",
        peak.saturating_sub(baseline) >> 20,
        budget >> 20
    );
}
