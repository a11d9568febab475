//! A folder of robots.txt files, one per site, each named by its host.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::capture::{checked_host, Capture, Payload, BODY_LIMIT};
use crate::input::Flow;

/// The host a file name stands for: the name, without a `.robots.txt` or
/// `.txt` ending.
fn host_part(name: &str) -> &str {
    name.strip_suffix(".robots.txt")
        .or_else(|| name.strip_suffix(".txt"))
        .unwrap_or(name)
}

/// Entries of a folder that are surveyed: all but hidden ones. A
/// sub-folder is not read, but it is an error row, so that nothing the
/// researcher put there is passed over without a word.
fn surveyed(entry: &std::fs::DirEntry) -> bool {
    !entry.file_name().to_string_lossy().starts_with('.')
}

/// How many entries are surveyed.
pub(crate) fn count(path: &Path) -> Option<u64> {
    let entries = std::fs::read_dir(path).ok()?;
    Some(entries.flatten().filter(surveyed).count() as u64)
}

/// Reads the folder's files in name order (so a stopped survey can pass
/// over the first `skip` of them when it resumes).
pub(crate) fn read(path: &Path, skip: u64, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
    let entries = match std::fs::read_dir(path) {
        Ok(entries) => entries,
        Err(e) => {
            let source = path.display().to_string();
            emit(
                Capture::error(None, source, format!("cannot list the folder: {e}")),
                0,
            );
            return;
        }
    };
    let mut names = Vec::new();
    let mut failures = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) if surveyed(&entry) => names.push(entry.file_name()),
            Ok(_) => {}
            Err(e) => failures.push(e),
        }
    }
    names.sort();
    let mut bytes = 0u64;
    let listed = names
        .into_iter()
        .map(Ok)
        .chain(failures.into_iter().map(Err));
    for entry in listed.skip(usize::try_from(skip).unwrap_or(usize::MAX)) {
        let capture = match entry {
            Ok(name) => {
                let capture = read_entry(&path.join(&name), &name.to_string_lossy());
                if let Payload::File { size, .. } = &capture.payload {
                    bytes += size;
                }
                capture
            }
            Err(e) => Capture::error(
                None,
                path.display().to_string(),
                format!("cannot list the folder further: {e}"),
            ),
        };
        if emit(capture, bytes) == Flow::Stop {
            return;
        }
    }
}

fn read_entry(path: &Path, name: &str) -> Capture {
    let source = path.display().to_string();
    let host = checked_host(host_part(name));
    // `metadata` does not open the file, so a FIFO cannot block here.
    let metadata = std::fs::metadata(path);
    if metadata.as_ref().is_ok_and(std::fs::Metadata::is_dir) {
        return Capture::error(
            host.ok(),
            source,
            "a folder: the survey reads the files of the folders it is given, not their \
             sub-folders (give this one as an input of its own)",
        );
    }
    let host = match host {
        Ok(host) => host,
        Err(why) => {
            return Capture::error(None, source, format!("the file name is no host: {why}"))
        }
    };
    let metadata = match metadata {
        Ok(m) => m,
        Err(e) => return Capture::error(Some(host), source, format!("cannot read the file: {e}")),
    };
    if !metadata.is_file() {
        return Capture::error(
            Some(host),
            source,
            "not a regular file (a pipe or device is not read)",
        );
    }
    let mut body = Vec::new();
    let read =
        File::open(path).and_then(|file| file.take(BODY_LIMIT as u64).read_to_end(&mut body));
    match read {
        Ok(_) => Capture::new(
            Some(host),
            source,
            Payload::File {
                size: metadata.len().max(body.len() as u64),
                body,
            },
        ),
        Err(e) => Capture::error(Some(host), source, format!("cannot read the file: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(path: &Path) -> Vec<Capture> {
        let mut out = Vec::new();
        read(path, 0, &mut |c, _| {
            out.push(c);
            Flow::Continue
        });
        out
    }

    #[test]
    fn files_are_read_by_host_and_bad_names_are_error_rows() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Example.com"), "User-agent: *\n").unwrap();
        std::fs::write(dir.path().join("b.example.txt"), "x").unwrap();
        std::fs::write(dir.path().join("not a host"), "x").unwrap();
        std::fs::write(dir.path().join(".hidden"), "x").unwrap();
        std::fs::create_dir(dir.path().join("sub.example")).unwrap();
        let captures = read_all(dir.path());
        assert_eq!(captures.len(), 4);
        assert_eq!(count(dir.path()), Some(4));
        // In name order: `Example.com`, `b.example.txt`, `not a host`,
        // `sub.example` (a folder: an error row, never passed over).
        let hosts: Vec<Option<&str>> = captures.iter().map(|c| c.host.as_deref()).collect();
        assert_eq!(
            hosts,
            [
                Some("example.com"),
                Some("b.example"),
                None,
                Some("sub.example")
            ]
        );
        assert!(matches!(&captures[2].payload, Payload::Error(why) if why.contains("no host")));
        assert!(
            matches!(&captures[3].payload, Payload::Error(why) if why.contains("a folder") && why.contains("sub-folders"))
        );
        assert!(matches!(
            &captures[0].payload,
            Payload::File { size: 14, .. }
        ));
        // Resuming passes over the first files.
        let mut rest = Vec::new();
        read(dir.path(), 2, &mut |c, _| {
            rest.push(c);
            Flow::Continue
        });
        assert_eq!(rest.len(), 2);
        assert!(rest[0].host.is_none());
    }

    #[test]
    fn big_files_are_read_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("big.example"), vec![b'#'; 2 * BODY_LIMIT]).unwrap();
        let captures = read_all(dir.path());
        match &captures[0].payload {
            Payload::File { body, size } => {
                assert_eq!((body.len(), *size), (BODY_LIMIT, 2 * BODY_LIMIT as u64));
            }
            other => panic!("{other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.example");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let captures = read_all(dir.path());
        assert!(
            matches!(&captures[0].payload, Payload::Error(why) if why.contains("not a regular file"))
        );
    }

    #[test]
    fn a_missing_folder_is_one_error_row() {
        let captures = read_all(Path::new("/no/such/folder"));
        assert_eq!(captures.len(), 1);
        assert!(matches!(&captures[0].payload, Payload::Error(why) if why.contains("cannot list")));
    }
}
