//! Replays, on stable Rust and without libFuzzer, what the fuzz targets
//! check: every file under `regressions/<target>/` through its target's
//! check, and the seed corpus (`seeds/` and the real-world robots.txt
//! corpus) through every check. All failures are reported together.
//!
//! An input listed in `expected_failures.txt` (a finding whose fix has not
//! landed) must still fail its target, so the list cannot go stale: once the
//! fix lands, the test says to remove the line.
//!
//! `cargo test --no-default-features` in `fuzz/`.

use std::collections::BTreeSet;
use std::fs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Once;

use crawlgate_fuzz::TARGETS;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of a directory (hidden ones aside) as `(name, bytes)`, named
/// `<dir>/<file>` relative to `fuzz/`, sorted; none when git has no
/// directory to keep (no regression for that target yet).
fn files_in(dir: &str) -> Vec<(String, Vec<u8>)> {
    let path = root().join(dir);
    if !path.exists() {
        return Vec::new();
    }
    let entries =
        fs::read_dir(&path).unwrap_or_else(|e| panic!("cannot list {}: {e}", path.display()));
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.is_file() && !hidden(path))
        .map(|path| {
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path.file_name().expect("a file name").to_string_lossy();
            (format!("{dir}/{name}"), bytes)
        })
        .collect();
    files.sort();
    files
}

fn hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.to_string_lossy().starts_with('.'))
}

/// `(target, input)` pairs of `expected_failures.txt`: `<target> <input>`
/// per line, `#` starting a comment.
fn expected_failures() -> BTreeSet<(String, String)> {
    let path = root().join("expected_failures.txt");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (target, input) = line
                .split_once(char::is_whitespace)
                .unwrap_or_else(|| panic!("expected `<target> <input>`: {line:?}"));
            assert!(
                TARGETS.iter().any(|(t, _)| *t == target),
                "unknown target in expected_failures.txt: {line:?}"
            );
            (target.to_owned(), input.trim().to_owned())
        })
        .collect()
}

/// Runs `target` on every input; returns the surprises: failures not listed
/// in `expected_failures.txt`, and listed inputs that now pass.
fn surprises(target: &str, inputs: &[(String, Vec<u8>)]) -> Vec<String> {
    static QUIET: Once = Once::new();
    // Expected failures panic by design; their messages would only be noise.
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !std::thread::current()
                .name()
                .is_some_and(|n| n.contains("quiet"))
            {
                default(info);
            }
        }));
    });
    let check = TARGETS
        .iter()
        .find(|(t, _)| *t == target)
        .map(|&(_, check)| check)
        .expect("a known target");
    let expected = expected_failures();
    let mut out = Vec::new();
    for (name, bytes) in inputs {
        let listed = expected.contains(&(target.to_owned(), name.clone()));
        let failed = if listed {
            // Run on a named thread so the panic hook stays quiet.
            std::thread::Builder::new()
                .name(format!("quiet {name}"))
                .spawn({
                    let bytes = bytes.clone();
                    move || check(&bytes)
                })
                .expect("a thread")
                .join()
                .is_err()
        } else {
            catch_unwind(AssertUnwindSafe(|| check(bytes))).is_err()
        };
        match (failed, listed) {
            (true, false) => out.push(format!("{target}: {name} fails (see the panic above)")),
            (false, true) => out.push(format!(
                "{target}: {name} passes now: remove it from expected_failures.txt \
                 (and keep it as a regression under regressions/{target}/)"
            )),
            _ => {}
        }
    }
    out
}

fn assert_no_surprises(surprises: Vec<String>) {
    assert!(
        surprises.is_empty(),
        "{} unexpected results:\n{}",
        surprises.len(),
        surprises.join("\n")
    );
}

#[test]
fn regressions_pass_their_target() {
    let mut out = Vec::new();
    for (target, _) in TARGETS {
        out.extend(surprises(
            target,
            &files_in(&format!("regressions/{target}")),
        ));
    }
    assert_no_surprises(out);
}

#[test]
fn hand_made_seeds_pass_every_target() {
    let seeds = files_in("seeds");
    assert!(
        seeds.len() >= 15,
        "only {} seeds in fuzz/seeds",
        seeds.len()
    );
    let mut out = Vec::new();
    for (target, _) in TARGETS {
        out.extend(surprises(target, &seeds));
    }
    assert_no_surprises(out);
}

/// The real-world corpus through one target, named `corpus/<file>`.
fn corpus_through(target: &str) {
    let corpus: Vec<(String, Vec<u8>)> = crawlgate_corpus::files()
        .into_iter()
        .map(|(name, bytes)| (format!("corpus/{name}"), bytes))
        .collect();
    assert_no_surprises(surprises(target, &corpus));
}

#[test]
fn real_world_corpus_passes_parse() {
    corpus_through("parse");
}

#[test]
fn real_world_corpus_passes_decide() {
    corpus_through("decide");
}

#[test]
fn real_world_corpus_passes_render() {
    corpus_through("render");
}

#[test]
fn real_world_corpus_passes_lint() {
    corpus_through("lint");
}

#[test]
fn real_world_corpus_passes_search_console() {
    corpus_through("search_console");
}
