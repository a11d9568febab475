//! The lint rules' fixtures: `testdata/lint/<CODE>/fires.robots.txt` must
//! trigger the rule, `clean.robots.txt` (a near-identical file) must not; so
//! must every variant `fires-*.robots.txt` and `clean-*.robots.txt`. A
//! fixture whose first line is `# lint-profile: rfc9309` is linted with
//! that profile.

use std::path::{Path, PathBuf};

/// The folder of the fixtures: `testdata/lint` of the workspace.
pub fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/lint")
}

/// The fixture `which` (`fires`, `clean`) of the rule `code` (`E001`).
///
/// ```
/// let path = crawlgate_test_support::lint_fixtures::path("E001", "fires");
/// assert!(path.ends_with("E001/fires.robots.txt"));
/// ```
pub fn path(code: &str, which: &str) -> String {
    folder()
        .join(code)
        .join(format!("{which}.robots.txt"))
        .to_string_lossy()
        .into_owned()
}

/// The bytes of the fixture `which` of `code` (a missing one panics, naming
/// it).
pub fn read(code: &str, which: &str) -> Vec<u8> {
    let path = path(code, which);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fixture files of `code` whose names start with `which`
/// (`fires.robots.txt` and its variants `fires-*.robots.txt`), sorted.
pub fn paths(code: &str, which: &str) -> Vec<String> {
    let dir = folder().join(code);
    let mut paths: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("an entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            name == format!("{which}.robots.txt")
                || (name.starts_with(&format!("{which}-")) && name.ends_with(".robots.txt"))
        })
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    paths.sort();
    paths
}

/// The profile a fixture asks to be linted with (its first line
/// `# lint-profile: NAME`), if any.
///
/// ```
/// use crawlgate_test_support::lint_fixtures::profile;
///
/// assert_eq!(profile(b"# lint-profile: rfc9309\nUser-agent: *\n"), Some("rfc9309".to_owned()));
/// assert_eq!(profile(b"User-agent: *\n"), None);
/// ```
pub fn profile(bytes: &[u8]) -> Option<String> {
    let rest = bytes.strip_prefix(b"# lint-profile: ".as_slice())?;
    Some(
        rest.iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .map(|&b| b as char)
            .collect(),
    )
}
