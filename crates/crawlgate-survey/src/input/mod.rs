//! Where robots.txt files come from: a folder of files named by host, a
//! JSON-lines or CSV table, WARC files, or a list of sites fetched live.
//!
//! Every reader streams: it holds one site's body at a time (at most
//! [`BODY_LIMIT`](crate::capture::BODY_LIMIT) bytes of it) and hands each
//! capture on as soon as it is read. What cannot be read becomes an error
//! capture with the reason, and reading goes on with the next site.

mod folder;
pub mod lines;
mod live;
mod table;
pub mod warc;

use std::path::{Path, PathBuf};

pub use live::LiveOptions;
pub use table::TableFormat;

use crate::capture::Capture;

/// Whether a reader should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next site.
    Continue,
    /// Stop reading (the consumer is gone).
    Stop,
}

/// One input of a survey.
#[derive(Clone, Debug)]
pub enum Input {
    /// A folder of robots.txt files, each named by its host (`example.com`,
    /// `example.com.txt`); hidden files and subfolders are skipped.
    Folder(PathBuf),
    /// A table of `host` and `robots_txt` (or `robots_txt_b64`), with
    /// optional `status` and `content_type` columns.
    Table(PathBuf, TableFormat),
    /// A WARC file (plain, or gzip with one or more members): its
    /// `response` records.
    Warc(PathBuf),
    /// A file listing sites (a host or URL per line) to fetch live.
    Sites(PathBuf, LiveOptions),
}

/// Why an input cannot be used at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The path does not exist or cannot be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The kind of input cannot be told from its name.
    #[error("cannot tell what {0} holds: give a folder, a .warc or .warc.gz file, a .jsonl or .csv table, or a list of sites with --fetch")]
    Unknown(PathBuf),
}

/// How much an input holds, when it can be told cheaply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// Sites, when known.
    pub sites: Option<u64>,
    /// Bytes, when known.
    pub bytes: Option<u64>,
}

impl Input {
    /// The input a path names: a folder, a WARC file (`.warc`, `.warc.gz`,
    /// `.arc.gz` excluded), or a table (`.jsonl`, `.ndjson`, `.csv`).
    ///
    /// ```
    /// use crawlgate_survey::input::{Input, TableFormat};
    /// let dir = std::env::temp_dir();
    /// assert!(matches!(Input::detect(&dir).unwrap(), Input::Folder(_)));
    /// let table = dir.join("crawlgate-doc-sites.csv");
    /// std::fs::write(&table, "host,robots_txt\n").unwrap();
    /// assert!(matches!(Input::detect(&table).unwrap(), Input::Table(_, TableFormat::Csv)));
    /// assert!(Input::detect(&dir.join("no-such-file.warc.gz")).is_err());
    /// ```
    pub fn detect(path: &Path) -> Result<Input, InputError> {
        let metadata = std::fs::metadata(path).map_err(|source| InputError::Io {
            path: path.to_owned(),
            source,
        })?;
        if metadata.is_dir() {
            return Ok(Input::Folder(path.to_owned()));
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name.ends_with(".warc") || name.ends_with(".warc.gz") {
            return Ok(Input::Warc(path.to_owned()));
        }
        if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            return Ok(Input::Table(path.to_owned(), TableFormat::JsonLines));
        }
        if name.ends_with(".csv") {
            return Ok(Input::Table(path.to_owned(), TableFormat::Csv));
        }
        Err(InputError::Unknown(path.to_owned()))
    }

    /// The path it reads.
    pub fn path(&self) -> &Path {
        match self {
            Input::Folder(p) | Input::Table(p, _) | Input::Warc(p) | Input::Sites(p, _) => p,
        }
    }

    /// How much it holds: sites for a folder and a site list, bytes for
    /// files.
    pub fn size(&self) -> Size {
        match self {
            Input::Folder(path) => Size {
                sites: folder::count(path),
                bytes: None,
            },
            Input::Sites(path, _) => Size {
                sites: live::count(path),
                bytes: None,
            },
            Input::Table(path, _) | Input::Warc(path) => Size {
                sites: None,
                bytes: std::fs::metadata(path).ok().map(|m| m.len()),
            },
        }
    }

    /// Reads every site, handing each capture to `emit` with the bytes of
    /// the input read so far (for progress); stops early when `emit` says
    /// so. Never fails: what cannot be read is an error capture.
    pub fn read(&self, emit: &mut dyn FnMut(Capture, u64) -> Flow) {
        match self {
            Input::Folder(path) => folder::read(path, emit),
            Input::Table(path, format) => table::read(path, *format, emit),
            Input::Warc(path) => warc::read_file(path, emit),
            Input::Sites(path, options) => live::read(path, options, emit),
        }
    }
}
