//! Integration tests: each runs the built `crawlgate` binary.
//!
//! One test crate (one binary to link) with a module per subcommand. The
//! human output of `check`, `explain` and `test` on real files from the
//! shared corpus is compared with insta snapshots in `tests/snapshots/`.

mod architecture;
mod audit;
mod audit_readings;
mod audit_service;
mod batch;
mod check;
mod crawlers;
mod explain;
mod fetch;
mod general;
mod hostile;
mod inputs;
mod lint;
mod pipes;
mod policy;
mod policy_readings;
mod report;
mod report_api;
mod serve;
mod snapshots;
mod survey;
mod terminal;
mod test_cmd;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

/// The `crawlgate` binary, with colour left to its default (off: the output
/// is a pipe).
pub fn crawlgate() -> Command {
    let mut command = Command::cargo_bin("crawlgate").expect("the crawlgate binary is built");
    command.env_remove("NO_COLOR");
    command
}

/// A directory of test files that is removed afterwards.
pub struct Files {
    dir: TempDir,
}

impl Default for Files {
    fn default() -> Self {
        Files {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }
}

impl Files {
    /// A fresh, empty directory.
    pub fn new() -> Files {
        Files::default()
    }

    /// Writes `name` and returns its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, contents).expect("write a test file");
        path
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// The real-world corpus of robots.txt files (see `crawlgate-corpus`).
pub fn corpus() -> PathBuf {
    crawlgate_corpus::dir()
}

/// Standard output of a finished command as text.
pub fn stdout_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error of a finished command as text.
pub fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("stderr is UTF-8")
}

/// A small robots.txt used by many tests.
pub const SAMPLE: &str = "\
User-agent: Googlebot
Disallow: /nogoogle/
Allow: /nogoogle/ok

User-agent: *
Disallow: /private
Allow: /private/press
Disallow: /*.php$
Sitemap: https://example.com/sitemap.xml
";
