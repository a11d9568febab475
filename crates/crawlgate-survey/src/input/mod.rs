//! Where robots.txt files come from: a folder of files named by host, a
//! JSON-lines or CSV table, WARC files (local, or by URL through object
//! storage: `s3://`, `https://`, and Common Crawl's `*.paths.gz`
//! listings of them), or a list of sites fetched live.
//!
//! Every reader streams: it holds one site's body at a time (at most
//! [`BODY_LIMIT`](crate::capture::BODY_LIMIT) bytes of it) and hands each
//! [`Item`] on as soon as it is read: a capture, or a record counted as
//! skipped. What cannot be read becomes an error capture with the reason,
//! and reading goes on with the next site. Every item says where reading
//! could start again after it ([`Mark`]), so a stopped survey resumes
//! ([`Resume`]) without reading anything twice.

mod folder;
mod gzip_member;
mod kept_buffer;
pub mod lines;
mod live;
pub mod remote;
mod rewind;
mod table;
pub mod warc;

use std::path::{Path, PathBuf};

pub use live::LiveOptions;
pub use table::TableFormat;

use crate::capture::{shown, Capture};

/// Whether a reader should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next site.
    Continue,
    /// Stop reading (the consumer is gone).
    Stop,
}

/// One thing an input held: a capture, or a record that is not one.
#[derive(Debug)]
// Streamed one at a time: boxing the capture would cost an allocation each.
#[allow(clippy::large_enum_variant)]
pub enum Item {
    /// A site's capture (an error capture when it could not be read).
    Capture(Capture),
    /// A record counted and passed over.
    Skipped(Skip),
}

crawlgate::word_table! {
    /// Why a record is no capture. Every WARC record is a capture or one of
    /// these, so the captures and the skips add up to the records read.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Skip {
        /// A record that is not a response (`warcinfo`, `request`,
        /// `metadata`, `revisit` …).
        NotResponse = "not_response",
        /// A response that is not HTTP (a DNS lookup, say).
        NotHttp = "not_http",
        /// An HTTP response for another URL than a `/robots.txt`.
        OtherUrl = "other_url",
    }
}

impl Skip {
    /// What it means, in words.
    pub fn meaning(self) -> &'static str {
        match self {
            Skip::NotResponse => "records that are no response (warcinfo, request, metadata …)",
            Skip::NotHttp => "responses that are not HTTP",
            Skip::OtherUrl => "HTTP responses for another URL than a /robots.txt",
        }
    }
}

/// Where an input is after an item.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mark {
    /// Bytes of the input read so far (for progress; sites for a site
    /// list).
    pub bytes: u64,
    /// Where reading could start again to read exactly what follows the
    /// item, when it could: a byte offset for a WARC file (the next gzip
    /// member or record), 0 for the inputs that resume by counting items.
    pub restart: Option<u64>,
}

impl Mark {
    /// After `bytes`, where reading cannot start again.
    pub fn at(bytes: u64) -> Mark {
        Mark {
            bytes,
            restart: None,
        }
    }

    /// After `offset`, where reading can start again.
    pub fn restart(offset: u64) -> Mark {
        Mark {
            bytes: offset,
            restart: Some(offset),
        }
    }
}

/// Where to start reading an input: at the beginning, or where a stopped
/// survey left it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Resume {
    /// The offset to start at (WARC files; see [`Mark::restart`]).
    pub offset: u64,
    /// Items already read: a folder, table or site list passes over this
    /// many before handing any on.
    pub items: u64,
}

/// One input of a survey.
#[derive(Clone, Debug)]
pub enum Input {
    /// A folder of robots.txt files, each named by its host (`example.com`,
    /// `example.com.txt`), read in name order; hidden files are skipped,
    /// and each sub-folder is an error row (it is not read).
    Folder(PathBuf),
    /// A table of `host` and `robots_txt` (or `robots_txt_b64`), with
    /// optional `status` and `content_type` columns.
    Table(PathBuf, TableFormat),
    /// A WARC file (plain, or gzip with one or more members): its
    /// `response` records.
    Warc(PathBuf),
    /// A WARC file by URL (`s3://bucket/key`, `https://…`), read through
    /// object storage (see [`remote`]).
    RemoteWarc(String),
    /// A file listing sites (a host or URL per line) to fetch live.
    Sites(PathBuf, LiveOptions),
}

/// Why an input cannot be used at all.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The path does not exist or cannot be read.
    #[error("cannot read {}: {source}", shown(&path.to_string_lossy()))]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The kind of input cannot be told from its name.
    #[error("cannot tell what {} holds: give a folder, a .warc or .warc.gz file (or its s3:// or https:// URL), a .paths.gz listing of WARC files, a .jsonl or .csv table, or a list of sites with --fetch", shown(&.0.to_string_lossy()))]
    Unknown(PathBuf),
    /// A URL that cannot be read.
    #[error("{0}")]
    Remote(#[from] remote::RemoteError),
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
    /// The input a path names: a folder, a WARC file (`.warc`, `.warc.gz`),
    /// or a table (`.jsonl`, `.ndjson`, `.csv`). A listing of WARC files
    /// (`.paths`, `.paths.gz`) names several: see [`Input::resolve`].
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

    /// The inputs an argument names: a path as [`Input::detect`] reads it,
    /// a WARC file's URL, or a listing of WARC files (`*.paths.gz`, local
    /// or by URL; see [`remote::listing`]) read now. `base` is what the
    /// relative paths of a local listing are read against (default:
    /// Common Crawl's <https://data.commoncrawl.org/>).
    pub fn resolve(argument: &str, base: Option<&str>) -> Result<Vec<Input>, InputError> {
        let lower = argument.to_ascii_lowercase();
        let listing = lower.ends_with(".paths.gz") || lower.ends_with(".paths");
        if remote::is_url(argument) {
            if listing {
                return Ok(remote::listing(argument, base)?
                    .into_iter()
                    .map(Input::RemoteWarc)
                    .collect());
            }
            let path = lower.split(['?', '#']).next().unwrap_or_default();
            if path.ends_with(".warc") || path.ends_with(".warc.gz") {
                return Ok(vec![Input::RemoteWarc(argument.to_owned())]);
            }
            return Err(InputError::Unknown(PathBuf::from(argument)));
        }
        let path = Path::new(argument);
        if listing && path.is_file() {
            return Ok(remote::listing(argument, base)?
                .into_iter()
                .map(Input::RemoteWarc)
                .collect());
        }
        Input::detect(path).map(|input| vec![input])
    }

    /// The path or URL it reads, as given.
    pub fn name(&self) -> String {
        match self {
            Input::Folder(p) | Input::Table(p, _) | Input::Warc(p) | Input::Sites(p, _) => {
                p.display().to_string()
            }
            Input::RemoteWarc(url) => url.clone(),
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
            Input::RemoteWarc(_) => Size::default(),
        }
    }

    /// Reads every item from `from` on, handing each to `emit` with where
    /// the input is after it; stops early when `emit` says so. Never
    /// fails: what cannot be read is an error capture.
    pub fn read(&self, from: Resume, emit: &mut dyn FnMut(Item, Mark) -> Flow) {
        match self {
            Input::Warc(path) => {
                let name = path.display().to_string();
                match open_at(path, from.offset) {
                    Ok(file) => warc::read(file, from.offset, &name, emit),
                    Err(e) => {
                        let capture =
                            Capture::error(None, name, format!("cannot open the WARC file: {e}"));
                        emit(Item::Capture(capture), Mark::at(from.offset));
                    }
                }
            }
            Input::RemoteWarc(url) => match remote::open(url, from.offset) {
                Ok(stream) => warc::read(stream, from.offset, url, emit),
                Err(e) => {
                    let capture = Capture::error(None, url.clone(), e.to_string());
                    emit(Item::Capture(capture), Mark::at(from.offset));
                }
            },
            Input::Folder(path) => {
                folder::read(path, from.items, &mut |capture, bytes| {
                    emit(Item::Capture(capture), counted(bytes))
                });
            }
            Input::Table(path, format) => {
                let mut seen = 0u64;
                table::read(path, *format, &mut |capture, bytes| {
                    seen += 1;
                    if seen <= from.items {
                        return Flow::Continue;
                    }
                    emit(Item::Capture(capture), counted(bytes))
                });
            }
            Input::Sites(path, options) => {
                live::read(path, options, from.items, &mut |capture, bytes| {
                    emit(Item::Capture(capture), counted(bytes))
                });
            }
        }
    }
}

/// A mark of an input that resumes by counting items.
fn counted(bytes: u64) -> Mark {
    Mark {
        bytes,
        restart: Some(0),
    }
}

/// The file at `path`, from `offset` on.
fn open_at(path: &Path, offset: u64) -> std::io::Result<std::fs::File> {
    use std::io::{Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    if offset > 0 {
        file.seek(SeekFrom::Start(offset))?;
    }
    Ok(file)
}
