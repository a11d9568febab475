//! Where a test or benchmark may leave files for a person to look at.

use std::path::PathBuf;

/// The Cargo target directory the running test or benchmark was built in:
/// `$CARGO_TARGET_DIR` when set, else the folder above the build profile's
/// (a test binary lives in `<target>/<profile>/deps/`), else the system's
/// temporary folder. Never a fixed `target/` beside the sources, which
/// is not where users with `CARGO_TARGET_DIR` set elsewhere build.
///
/// ```
/// let dir = crawlgate_test_support::target_dir();
/// assert!(dir.is_absolute());
/// ```
pub fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        return std::path::absolute(&dir).unwrap_or(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            let deps = exe.parent()?;
            // `<target>/<profile>/deps/<binary>`; a doctest or an example
            // runs one level up, in `<target>/<profile>/`.
            let profile = if deps.ends_with("deps") {
                deps.parent()?
            } else {
                deps
            };
            Some(profile.parent()?.to_path_buf())
        })
        .unwrap_or_else(std::env::temp_dir)
}
