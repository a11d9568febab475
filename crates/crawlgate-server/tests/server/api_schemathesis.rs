//! schemathesis (from PyPI, pinned) against `/openapi.json` with every
//! check: every operation, the examples, the boundaries the schema states,
//! generated valid and invalid requests. No failure is allowed, and at
//! least half of the generated `GET /v1/allowed` calls must reach a verdict
//! (200), so the fuzzing reaches the main path.
//!
//! The server under test resolves every name to 127.0.0.1 and may connect
//! only to loopback addresses: the origins schemathesis makes up are never
//! looked for on the network (their fetches fail at once, which the fetch
//! rules answer too). The tool is installed into a virtual environment
//! under the target directory on first use; without Python or PyPI the test
//! fails and says so.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::hostile::loopback_network;
use crate::support::{client, config, serving, start, Reply};

const SCHEMATHESIS: &str = "4.32.5";

/// `st` of a virtual environment with the pinned schemathesis, made once.
fn schemathesis() -> PathBuf {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("schemathesis-{SCHEMATHESIS}"));
    let st = venv.join("bin/st");
    let ready = venv.join(".installed");
    if ready.exists() && st.exists() {
        return st;
    }
    let run = |command: &mut Command, what: &str| {
        let output = command.output().unwrap_or_else(|e| {
            panic!("{what}: cannot run {command:?}: {e} (python3 with venv is needed)")
        });
        assert!(
            output.status.success(),
            "{what} failed ({:?}):\n{}\n{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    };
    run(
        Command::new("python3")
            .args(["-m", "venv", "--clear"])
            .arg(&venv),
        "making a virtual environment for schemathesis",
    );
    run(
        Command::new(venv.join("bin/pip")).args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            &format!("schemathesis=={SCHEMATHESIS}"),
        ]),
        "installing schemathesis from PyPI",
    );
    std::fs::write(&ready, SCHEMATHESIS).unwrap();
    st
}

fn count(metrics: &str, route: &str, ok_only: bool) -> u64 {
    metrics
        .lines()
        .filter(|l| l.starts_with("crawlgate_http_requests_total{"))
        .filter(|l| l.contains(&format!("route=\"{route}\"")))
        .filter(|l| !ok_only || l.contains("status=\"200\""))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schemathesis_finds_nothing_and_reaches_the_verdicts() {
    let st = tokio::task::spawn_blocking(schemathesis).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut config = config(dir.path());
    config.network = Some(loopback_network());
    // Every generated origin is new: the per-client allowance would answer
    // most of them "not fetched" (429, which is correct but not a verdict).
    config.limits.max_fetches_per_client = 1_000_000;
    config.limits.refresh_interval = Duration::from_millis(1);
    config.fetch_timeout = Duration::from_secs(5);
    let server = start(config).await;
    // The examples' origin, example.com, resolves to loopback like every
    // name; this origin answers for the ones that name its port.
    let _origin = serving(Reply::text(200, "User-agent: *\nDisallow: /private\n"));

    let report = dir.path().join("report");
    let mut command = Command::new(&st);
    command
        .arg("--config-file")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/server/schemathesis.toml"
        ))
        .arg("run")
        .arg(server.url("/openapi.json"))
        .args(["--checks", "all"])
        .args(["--seed", "26"])
        // One worker: with two, hypothesis describes filters by parsing
        // their source from two threads at once, which CPython 3.11's
        // `ast.parse` is not safe for ("AST constructor recursion depth
        // mismatch", a crash of the tool, not a finding).
        .args(["--workers", "1"])
        .args(["--request-timeout", "30"])
        .args(["--generation-database", "none"])
        .args(["--no-color"])
        .arg("--report-dir")
        .arg(&report)
        // schemathesis keeps a crash manifest under `.schemathesis/` in its
        // working directory: keep it out of the source tree.
        .current_dir(dir.path())
        .env("NO_COLOR", "1");
    let output = tokio::task::spawn_blocking(move || command.output())
        .await
        .unwrap()
        .expect("schemathesis runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary: String = stdout
        .lines()
        .rev()
        .take(60)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    eprintln!("{summary}");
    assert!(
        output.status.success(),
        "schemathesis failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let metrics = client()
        .get(server.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let (answered, all) = (
        count(&metrics, "GET /v1/allowed", true),
        count(&metrics, "GET /v1/allowed", false),
    );
    eprintln!("GET /v1/allowed: {answered} of {all} answered 200");
    assert!(all >= 50, "schemathesis asked /v1/allowed only {all} times");
    assert!(answered * 2 >= all, "{answered} of {all} answered 200");
}
