//! Reading an input named by the user (a robots.txt, an expectations file, a
//! batch request's `robots_file`): never more than a bound, and never
//! waiting forever on a pipe or device that gives nothing.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context as _};

/// What was read.
#[derive(Debug)]
pub struct Input {
    /// The bytes: at most the limit plus one, so a cut can be seen.
    pub bytes: Vec<u8>,
    /// The whole input's size, when it is known (a regular file).
    pub size: Option<u64>,
}

/// What to do with an input that is not a regular file (a pipe, a FIFO, a
/// device such as `/dev/zero`).
#[derive(Clone, Copy, Debug)]
pub enum Special {
    /// Read it, but give up when it has not ended within this time (a FIFO
    /// with no writer never does).
    Read {
        /// The time allowed.
        timeout: Duration,
    },
    /// Refuse it without opening it.
    Refuse,
}

/// Reads at most `limit + 1` bytes of `reader`.
pub fn read_bounded(reader: impl Read, limit: usize) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let keep = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(keep).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads at most `limit + 1` bytes of standard input.
pub fn read_stdin(limit: usize) -> io::Result<Input> {
    Ok(Input {
        bytes: read_bounded(io::stdin().lock(), limit)?,
        size: None,
    })
}

/// Reads at most `limit + 1` bytes of the file at `path`. A regular file is
/// read at once; anything else as `special` says. The error says what is
/// wrong, without the path (callers name the input their own way).
pub fn read_path(path: &Path, limit: usize, special: Special) -> anyhow::Result<Input> {
    // `metadata` does not open the file, so it cannot block on a FIFO.
    let metadata = std::fs::metadata(path)?;
    if metadata.is_dir() {
        bail!("it is a directory");
    }
    if metadata.is_file() {
        let file = File::open(path)?;
        // What was opened is what was looked at: a regular file, not a pipe
        // or device put in its place meanwhile.
        let opened = file.metadata()?;
        if !opened.is_file() || FileId::of(&opened) != FileId::of(&metadata) {
            bail!("it changed while it was being opened: not read");
        }
        let bytes = read_bounded(file, limit)?;
        return Ok(Input {
            bytes,
            size: Some(opened.len()),
        });
    }
    let timeout = match special {
        Special::Refuse => bail!(
            "it is not a regular file but {}: refused (such inputs can block or never end)",
            kind_of(&metadata)
        ),
        Special::Read { timeout } => timeout,
    };
    // Opening a FIFO blocks until a writer comes, and reading it until the
    // writer is done: both happen on a thread of their own, waited for at
    // most `timeout` (a thread still blocked ends with the process).
    let (sender, receiver) = mpsc::channel();
    let owned = path.to_owned();
    std::thread::Builder::new()
        .name("read input".to_owned())
        .spawn(move || {
            let read = File::open(&owned).and_then(|file| read_bounded(file, limit));
            let _ = sender.send(read);
        })
        .context("cannot start a thread to read it")?;
    match receiver.recv_timeout(timeout) {
        Ok(read) => Ok(Input {
            bytes: read?,
            size: None,
        }),
        Err(_) => Err(anyhow!(
            "it is {} and it did not end within {} s (a FIFO with no writer?)",
            kind_of(&metadata),
            timeout.as_secs_f64()
        )),
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = metadata;
    "a special file"
}

/// A file's identity (device and inode), to tell when two names are one
/// file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId(u64, u64);

impl FileId {
    /// The identity of the file at `path` (links followed).
    pub fn of_path(path: &Path) -> Option<FileId> {
        FileId::of(&std::fs::metadata(path).ok()?)
    }

    /// The identity of what standard input reads.
    pub fn of_stdin() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd as _;
            FileId::of_fd(io::stdin().as_fd())
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    /// The identity of what standard output writes to (a file, a pipe, a
    /// terminal).
    pub fn of_stdout() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd as _;
            FileId::of_fd(io::stdout().as_fd())
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    /// The identity of what standard error writes to.
    pub fn of_stderr() -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd as _;
            FileId::of_fd(io::stderr().as_fd())
        }
        #[cfg(not(unix))]
        {
            None
        }
    }

    #[cfg(unix)]
    fn of_fd(fd: std::os::fd::BorrowedFd<'_>) -> Option<FileId> {
        let owned = fd.try_clone_to_owned().ok()?;
        FileId::of(&File::from(owned).metadata().ok()?)
    }

    fn of(metadata: &std::fs::Metadata) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            Some(FileId(metadata.dev(), metadata.ino()))
        }
        #[cfg(not(unix))]
        {
            let _ = metadata;
            None
        }
    }
}

/// Whether `path` is the very file standard input reads (`/dev/stdin`,
/// `/proc/self/fd/0`, or the file redirected with `<`).
pub fn is_standard_input(path: &Path) -> bool {
    FileId::of_path(path).is_some_and(|id| Some(id) == FileId::of_stdin())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_at_most_one_byte_past_the_limit() {
        assert_eq!(read_bounded(&b"abcdef"[..], 3).unwrap(), b"abcd");
        assert_eq!(read_bounded(&b"ab"[..], 3).unwrap(), b"ab");
        assert_eq!(read_bounded(&b"ab"[..], usize::MAX).unwrap(), b"ab");
    }

    #[test]
    fn regular_files_are_read_with_their_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("robots.txt");
        std::fs::write(&path, "x".repeat(100)).unwrap();
        let input = read_path(&path, 10, Special::Refuse).unwrap();
        assert_eq!((input.bytes.len(), input.size), (11, Some(100)));
        let error = read_path(dir.path(), 10, Special::Refuse).unwrap_err();
        assert_eq!(error.to_string(), "it is a directory");
        assert!(read_path(&dir.path().join("missing"), 10, Special::Refuse).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_or_read_with_a_bound() {
        let zero = Path::new("/dev/zero");
        let error = read_path(zero, 10, Special::Refuse).unwrap_err();
        assert!(error.to_string().contains("a device: refused"), "{error}");
        let timeout = Duration::from_secs(5);
        let input = read_path(zero, 10, Special::Read { timeout }).unwrap();
        assert_eq!((input.bytes.len(), input.size), (11, None));
    }
}
