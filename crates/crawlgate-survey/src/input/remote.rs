//! WARC files by URL, read through `object_store`: `s3://bucket/key` (the
//! bucket's region, endpoint and credentials from the usual `AWS_*`
//! variables: `AWS_ENDPOINT_URL` for an S3-compatible server,
//! `AWS_SKIP_SIGNATURE=true` for a public bucket without credentials,
//! `AWS_ALLOW_HTTP=true` for an endpoint without TLS) and `https://…` (or
//! `http://…`) from any web server that answers GET and range requests.
//!
//! Bodies stream: nothing is held beyond the WARC reader's buffer. A
//! connection that breaks midway is opened again from where it broke, up
//! to [`RETRIES`] times; a stopped survey resumes with a range request
//! from its last checkpoint.
//!
//! A listing (Common Crawl's `robotstxt.paths.gz`: one path a line,
//! gzip-compressed or not) names WARC files relative to a base: the
//! listing's own bucket (`s3://commoncrawl/`) or web server
//! (`https://data.commoncrawl.org/`) when it is read by URL, else the base
//! given (default `https://data.commoncrawl.org/`).

use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::{BoxStream, StreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::http::HttpBuilder;
use object_store::path::Path as StorePath;
use object_store::{ClientOptions, GetOptions, GetRange, ObjectStore};

use crate::capture::shown;
use crate::input::lines::read_line;

/// How many times a broken download is opened again from where it broke.
pub const RETRIES: u32 = 3;

/// Where a local listing's relative paths point by default: Common
/// Crawl's public web server.
pub const COMMON_CRAWL: &str = "https://data.commoncrawl.org/";

/// The longest URL read, in bytes: web servers and object stores refuse
/// longer request lines (and the HTTP client cannot form one over 64 KiB).
pub const MAX_URL_BYTES: usize = 8 * 1024;

/// The most WARC files a listing may name (Common Crawl's hold about
/// 100,000).
pub const MAX_LISTED: usize = 10_000_000;

/// Why a URL cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {url}: {message}")]
pub struct RemoteError {
    url: String,
    message: String,
}

impl RemoteError {
    fn new(url: &str, message: impl std::fmt::Display) -> RemoteError {
        RemoteError {
            url: shown(url),
            message: message.to_string(),
        }
    }
}

/// Whether an argument is a URL the survey reads through object storage.
///
/// ```
/// use crawlgate_survey::input::remote::is_url;
/// assert!(is_url("s3://commoncrawl/crawl-data/CC-MAIN-2024-10/robotstxt.paths.gz"));
/// assert!(is_url("https://data.commoncrawl.org/x.warc.gz"));
/// assert!(!is_url("corpus/"));
/// ```
pub fn is_url(argument: &str) -> bool {
    let lower = argument.to_ascii_lowercase();
    ["s3://", "s3a://", "https://", "http://"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}

/// The store holding `url` and the object's path in it.
fn locate(url: &str) -> Result<(Arc<dyn ObjectStore>, StorePath), RemoteError> {
    if url.len() > MAX_URL_BYTES {
        return Err(RemoteError::new(
            url,
            format!(
                "the URL is {} bytes long; the survey reads URLs of at most {MAX_URL_BYTES}",
                url.len()
            ),
        ));
    }
    let parsed = url::Url::parse(url).map_err(|e| RemoteError::new(url, e))?;
    let path = StorePath::from_url_path(parsed.path()).map_err(|e| RemoteError::new(url, e))?;
    let store: Arc<dyn ObjectStore> = match parsed.scheme() {
        "s3" | "s3a" => {
            let bucket = parsed
                .host_str()
                .ok_or_else(|| RemoteError::new(url, "no bucket"))?;
            Arc::new(
                AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(|e| RemoteError::new(url, e))?,
            )
        }
        "http" | "https" => {
            let root = format!(
                "{}://{}",
                parsed.scheme(),
                &parsed[url::Position::BeforeHost..url::Position::AfterPort]
            );
            Arc::new(
                HttpBuilder::new()
                    .with_url(root)
                    .with_client_options(ClientOptions::new().with_allow_http(true))
                    .build()
                    .map_err(|e| RemoteError::new(url, e))?,
            )
        }
        other => return Err(RemoteError::new(url, format!("unknown scheme {other:?}"))),
    };
    Ok((store, path))
}

/// A single-threaded runtime for the downloads of one reader.
fn runtime(url: &str) -> Result<tokio::runtime::Runtime, RemoteError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| RemoteError::new(url, format!("cannot start the network runtime: {e}")))
}

/// A download read as a stream of bytes from `offset` on.
pub(crate) struct Download {
    url: String,
    store: Arc<dyn ObjectStore>,
    path: StorePath,
    runtime: tokio::runtime::Runtime,
    body: BoxStream<'static, object_store::Result<Bytes>>,
    chunk: Bytes,
    /// The offset of the next byte handed out.
    position: u64,
    retries: u32,
}

impl Download {
    fn request(&mut self) -> Result<(), RemoteError> {
        let options = GetOptions {
            range: (self.position > 0).then_some(GetRange::Offset(self.position)),
            ..GetOptions::default()
        };
        let (store, path) = (self.store.clone(), self.path.clone());
        let result = self
            .runtime
            .block_on(async move { store.get_opts(&path, options).await })
            .map_err(|e| RemoteError::new(&self.url, e))?;
        self.body = result.into_stream();
        Ok(())
    }
}

impl Read for Download {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.chunk.is_empty() {
            match self.runtime.block_on(self.body.next()) {
                None => return Ok(0),
                Some(Ok(chunk)) => self.chunk = chunk,
                Some(Err(e)) if self.retries < RETRIES => {
                    // Open it again from where it broke.
                    self.retries += 1;
                    if let Err(again) = self.request() {
                        return Err(io::Error::other(format!("{e}; then {again}")));
                    }
                }
                Some(Err(e)) => return Err(io::Error::other(e.to_string())),
            }
        }
        let n = self.chunk.len().min(out.len());
        out[..n].copy_from_slice(&self.chunk[..n]);
        self.chunk = self.chunk.slice(n..);
        self.position += n as u64;
        Ok(n)
    }
}

/// Opens `url` for reading from `offset` on.
pub(crate) fn open(url: &str, offset: u64) -> Result<Download, RemoteError> {
    let (store, path) = locate(url)?;
    let mut download = Download {
        url: url.to_owned(),
        store,
        path,
        runtime: runtime(url)?,
        body: futures_util::stream::empty().boxed(),
        chunk: Bytes::new(),
        position: offset,
        retries: 0,
    };
    download.request()?;
    Ok(download)
}

/// The WARC files a listing names, as URLs: each line a path relative to
/// the listing's bucket or server root (or `base`, for a local listing),
/// or a URL of its own; blank lines and `#` comments skipped.
///
/// ```
/// use crawlgate_survey::input::remote::listing;
/// let dir = tempfile::tempdir()?;
/// let paths = dir.path().join("robotstxt.paths");
/// std::fs::write(&paths, "crawl-data/CC-MAIN-2024-10/segments/1/robotstxt/a.warc.gz\n\ns3://other/b.warc.gz\n")?;
/// let urls = listing(paths.to_str().unwrap(), Some("s3://commoncrawl/"))?;
/// assert_eq!(urls, [
///     "s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/1/robotstxt/a.warc.gz",
///     "s3://other/b.warc.gz",
/// ]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn listing(location: &str, base: Option<&str>) -> Result<Vec<String>, RemoteError> {
    let (raw, base): (Box<dyn Read>, String) = if is_url(location) {
        let parsed = url::Url::parse(location).map_err(|e| RemoteError::new(location, e))?;
        let root = match parsed.scheme() {
            "s3" | "s3a" => format!(
                "{}://{}/",
                parsed.scheme(),
                parsed.host_str().unwrap_or_default()
            ),
            _ => parsed[..url::Position::AfterPort].to_owned() + "/",
        };
        (
            Box::new(open(location, 0)?),
            base.map_or(root, str::to_owned),
        )
    } else {
        let file = std::fs::File::open(location).map_err(|e| RemoteError::new(location, e))?;
        (Box::new(file), base.unwrap_or(COMMON_CRAWL).to_owned())
    };
    let base = if base.ends_with('/') {
        base
    } else {
        format!("{base}/")
    };
    let mut reader = BufReader::new(raw);
    let gzipped = reader
        .fill_buf()
        .map_err(|e| RemoteError::new(location, e))?
        .starts_with(&[0x1f, 0x8b]);
    let mut text: Box<dyn BufRead> = if gzipped {
        Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(reader)))
    } else {
        Box::new(reader)
    };
    let mut urls = Vec::new();
    let mut line = Vec::new();
    for number in 1.. {
        let read = read_line(&mut text, &mut line, 8 << 10)
            .map_err(|e| RemoteError::new(location, format!("line {number}: {e}")))?;
        if read.taken == 0 {
            break;
        }
        if read.cut {
            return Err(RemoteError::new(
                location,
                format!("line {number} is longer than 8192 bytes: not a listing of WARC files"),
            ));
        }
        let entry = std::str::from_utf8(&line)
            .map_err(|_| RemoteError::new(location, format!("line {number} is not UTF-8 text")))?
            .trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        if urls.len() == MAX_LISTED {
            return Err(RemoteError::new(
                location,
                format!("more than {MAX_LISTED} files listed"),
            ));
        }
        urls.push(if is_url(entry) {
            entry.to_owned()
        } else {
            format!("{base}{}", entry.trim_start_matches('/'))
        });
    }
    Ok(urls)
}
