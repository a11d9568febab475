//! Where crawlgate's tests, benchmarks and examples find the real-world
//! robots.txt corpus: 4,231 files, one per site, bytes as served.
//!
//! The lookup lives in one place, `scripts/corpus.sh`, which this crate runs
//! once per process: `$CRAWLGATE_CORPUS` when set, else `../shared/corpus/real`
//! beside the repository, else a copy under `corpus/` in Cargo's build
//! folder (`$CARGO_TARGET_DIR`, or `target/`) that the script downloads the
//! first time (the test data of the Protego 0.7.0 source distribution on the
//! Python package index, checked against a pinned SHA-256).
//!
//! A missing corpus is a failure with the script's explanation, never a
//! silent skip.
//!
//! ```no_run
//! let files = crawlgate_corpus::files();
//! assert!(files.len() > 4000);
//! println!("{} files in {}", files.len(), crawlgate_corpus::dir().display());
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The number of files the full corpus holds.
pub const FILES: usize = 4231;

/// The corpus directory, obtained on first use (see the crate documentation).
///
/// # Panics
///
/// When the corpus cannot be found or downloaded; the message says why and
/// what to do.
pub fn dir() -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match DIR.get_or_init(locate) {
        Ok(dir) => dir.clone(),
        Err(message) => panic!("{message}"),
    }
}

/// The names of the corpus files (each a host name), sorted.
pub fn names() -> Vec<String> {
    let dir = dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list the corpus at {}: {e}", dir.display()))
        .map(|entry| {
            entry
                .expect("a readable corpus entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    assert!(
        names.len() >= FILES,
        "expected the full corpus ({FILES} files) at {}, found {}",
        dir.display(),
        names.len()
    );
    names
}

/// Every corpus file as `(name, bytes)`, sorted by name.
pub fn files() -> Vec<(String, Vec<u8>)> {
    let dir = dir();
    names()
        .into_iter()
        .map(|name| {
            let bytes = std::fs::read(dir.join(&name))
                .unwrap_or_else(|e| panic!("cannot read corpus file {name}: {e}"));
            (name, bytes)
        })
        .collect()
}

/// The repository's root (this crate lives in `crates/crawlgate-corpus`).
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn locate() -> Result<PathBuf, String> {
    let script = repository_root().join("scripts/corpus.sh");
    let output = Command::new("bash")
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run {} to find the corpus: {e}", script.display()))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!(
            "the robots.txt corpus is missing and could not be obtained:\n{}",
            stderr.trim_end()
        ));
    }
    let dir = String::from_utf8_lossy(&output.stdout).trim().to_owned();
    let dir = PathBuf::from(dir);
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "{} named {} as the corpus, which is not a directory",
            script.display(),
            dir.display()
        ))
    }
}
