//! A survey's work on disk while it runs: rows sorted into runs (files of
//! compressed binary records), and a manifest saying where the inputs were when the last run
//! was written, so a stopped survey resumes there (`--resume`) and gives
//! the table an uninterrupted run gives.
//!
//! The folder sits beside the first output (`.NAME.crawlgate-work`). A run
//! file is written under a temporary name and renamed once whole, then the
//! manifest, also through a rename: whatever moment a survey is killed,
//! the manifest names only whole runs, and the inputs' positions after
//! exactly their rows. The folder is removed once the outputs are written.

use std::cmp::Ordering;
use std::fs::File;
use std::path::{Path, PathBuf};

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};

mod codec;

pub use crate::chunks::Position;
use crate::input::Skip;
use crate::output::write_atomically;
use crate::row::SiteRow;

/// The manifest's file name.
const MANIFEST: &str = "manifest.json";

/// The manifest's layout version.
const MANIFEST_VERSION: u32 = 2;

/// Rows per block of a run (small blocks keep a merge's memory small).
const RUN_ROW_GROUP: usize = 512;

/// Items read and what became of them, kept across checkpoints.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Items read: captures and skipped records.
    pub items: u64,
    /// Captures among them (rows before deduplication, error rows
    /// included).
    pub captures: u64,
    /// Skipped records, by [`Skip`] word.
    pub skipped: std::collections::BTreeMap<String, u64>,
    /// Captures that are redirects (followed when the table is merged).
    #[serde(default)]
    pub redirects: u64,
}

impl Counts {
    /// Counts one skipped record.
    pub fn skip(&mut self, why: Skip) {
        self.items += 1;
        *self.skipped.entry(why.as_str().to_owned()).or_insert(0) += 1;
    }
}

/// What a stopped survey left.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    version: u32,
    /// What the survey asks (inputs, crawlers, paths, profile): a resumed
    /// survey must ask the same.
    pub signature: String,
    /// Where reading continues.
    pub position: Position,
    /// Whether every input was read to its end.
    pub complete: bool,
    /// The run files written, in order.
    pub runs: Vec<String>,
    /// The counts at the checkpoint.
    pub counts: Counts,
}

/// Why the work folder cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing it failed.
    #[error("cannot use the survey's work folder {path}: {message}")]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// `--resume` with nothing to resume.
    #[error("nothing to resume: no unfinished survey at {0} (run it without --resume)")]
    NothingToResume(PathBuf),
    /// `--resume` of a survey that asked something else.
    #[error("the unfinished survey at {0} surveyed other inputs, crawlers, paths or profile; run it again without --resume to start over")]
    Different(PathBuf),
}

/// The work folder of a survey.
#[derive(Debug)]
pub struct WorkDir {
    path: PathBuf,
}

fn io_error(path: &Path, e: impl std::fmt::Display) -> CheckpointError {
    CheckpointError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

impl WorkDir {
    /// The work folder of a survey whose first output is `output`.
    pub fn beside(output: &Path) -> WorkDir {
        let name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "survey".to_owned());
        WorkDir {
            path: output.with_file_name(format!(".{name}.crawlgate-work")),
        }
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The manifest of an unfinished survey there, when there is one.
    pub fn manifest(&self) -> Result<Option<Manifest>, CheckpointError> {
        let path = self.path.join(MANIFEST);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&path, e)),
        };
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| io_error(&path, e))?;
        if manifest.version != MANIFEST_VERSION {
            return Err(io_error(
                &path,
                "written by another version of crawlgate: run the survey again without --resume",
            ));
        }
        Ok(Some(manifest))
    }

    /// Starts afresh: whatever an earlier survey left is removed.
    pub fn start(&self) -> Result<(), CheckpointError> {
        self.remove()?;
        std::fs::create_dir_all(&self.path).map_err(|e| io_error(&self.path, e))
    }

    /// Opens it to resume the survey with `signature`: its manifest, and
    /// every file it does not name removed (a run cut short by a kill).
    /// Every run it names must be one this version reads.
    pub fn resume(&self, signature: &str) -> Result<Manifest, CheckpointError> {
        let manifest = self
            .manifest()?
            .ok_or_else(|| CheckpointError::NothingToResume(self.path.clone()))?;
        if manifest.signature != signature {
            return Err(CheckpointError::Different(self.path.clone()));
        }
        let entries = std::fs::read_dir(&self.path).map_err(|e| io_error(&self.path, e))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != MANIFEST && !manifest.runs.contains(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        // A run of another version (or a missing one) is refused now, not
        // once the rest of the inputs has been read.
        for name in &manifest.runs {
            match RunReader::open(&self.run_path(name)) {
                Ok(_) => {}
                Err(CheckpointError::Io { path, message }) => {
                    return Err(CheckpointError::Io {
                        path,
                        message: format!("{message}: run the survey again without --resume"),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(manifest)
    }

    /// Writes the manifest (through a rename).
    pub fn save(
        &self,
        signature: &str,
        position: Position,
        complete: bool,
        runs: &[String],
        counts: &Counts,
    ) -> Result<(), CheckpointError> {
        let manifest = Manifest {
            version: MANIFEST_VERSION,
            signature: signature.to_owned(),
            position,
            complete,
            runs: runs.to_vec(),
            counts: counts.clone(),
        };
        let path = self.path.join(MANIFEST);
        let text = serde_json::to_string_pretty(&manifest).map_err(|e| io_error(&path, e))?;
        write_atomically(&path, text.as_bytes()).map_err(|e| io_error(&path, e))
    }

    /// The path of run file `name`.
    pub fn run_path(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Removes the folder.
    pub fn remove(&self) -> Result<(), CheckpointError> {
        match std::fs::remove_dir_all(&self.path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error(&self.path, e)),
        }
    }
}

/// A row and where it sorts: answered rows by host, then capture time,
/// then input order; error rows after them, in input order.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Keyed {
    /// The row.
    pub row: SiteRow,
    /// When it was captured, in microseconds since 1970 (`i64::MIN` when
    /// not known).
    pub date: i64,
    /// Its place in the inputs: the input's index in the top bits, the
    /// item's in the rest.
    pub seq: u64,
}

/// Bits of a sequence number given to the item's index within its input.
const SEQ_ITEM_BITS: u32 = 40;

/// The sequence number of item `item` of input `input`.
pub fn seq(input: usize, item: u64) -> u64 {
    ((input as u64) << SEQ_ITEM_BITS) | (item & ((1 << SEQ_ITEM_BITS) - 1))
}

impl Keyed {
    /// A row observed as item `item` of input `input`.
    pub fn new(row: SiteRow, input: usize, item: u64) -> Keyed {
        let date = row
            .captured
            .as_deref()
            .and_then(parse_date)
            .unwrap_or(i64::MIN);
        Keyed {
            row,
            date,
            seq: seq(input, item),
        }
    }

    /// Whether it stands alone (an error row, or a row without a host): it
    /// is never folded into another.
    pub fn alone(&self) -> bool {
        self.row.is_error() || self.row.host.is_none()
    }

    /// The host it is grouped by (None for a row that stands alone).
    pub fn host(&self) -> Option<&str> {
        if self.alone() {
            None
        } else {
            self.row.host.as_deref()
        }
    }
}

impl Ord for Keyed {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.host(), other.host()) {
            (Some(a), Some(b)) => a
                .cmp(b)
                .then(self.date.cmp(&other.date))
                .then(self.seq.cmp(&other.seq)),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => self.seq.cmp(&other.seq),
        }
    }
}

impl PartialOrd for Keyed {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Keyed {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Keyed {}

/// An RFC 3339 time (`2026-11-01T12:00:00Z`, `…T12:00:00.123+02:00`) in
/// microseconds since 1970, or None.
///
/// ```
/// use crawlgate_survey::checkpoint::parse_date;
/// assert_eq!(parse_date("1970-01-01T00:00:01Z"), Some(1_000_000));
/// assert_eq!(parse_date("1970-01-01T01:00:00.5+01:00"), Some(500_000));
/// assert!(parse_date("2026-11-01T00:00:00.1Z") > parse_date("2026-11-01T00:00:00Z"));
/// assert_eq!(parse_date("yesterday"), None);
/// ```
pub fn parse_date(text: &str) -> Option<i64> {
    let text = text.trim();
    let b = text.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let number = |from: usize, to: usize| -> Option<i64> {
        let part = text.get(from..to)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut at = 19;
    let mut micros = 0i64;
    if b.get(at) == Some(&b'.') {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let digits = &text[start..at];
        if digits.is_empty() {
            return None;
        }
        let kept: String = digits
            .chars()
            .chain(std::iter::repeat('0'))
            .take(6)
            .collect();
        micros = kept.parse().ok()?;
    }
    let offset = match &text[at..] {
        "Z" | "z" => 0,
        zone if zone.len() == 6
            && matches!(zone.as_bytes()[0], b'+' | b'-')
            && zone.as_bytes()[3] == b':' =>
        {
            let hours = number(at + 1, at + 3)?;
            let minutes = number(at + 4, at + 6)?;
            let sign = if zone.starts_with('-') { -1 } else { 1 };
            sign * (hours * 3600 + minutes * 60)
        }
        _ => return None,
    };
    // Days since 1970 of a proleptic Gregorian date (Howard Hinnant's
    // days_from_civil).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Some(seconds * 1_000_000 + micros)
}

/// A run file's first bytes: the format and its version.
const RUN_MAGIC: &[u8; 8] = b"CGRUN\x004\n";

/// The most bytes one block of a run may hold, decompressed: a block whose
/// header says more is damaged.
const MAX_BLOCK_BYTES: usize = 256 << 20;

fn encode_error(path: &Path, e: impl std::fmt::Display) -> CheckpointError {
    io_error(path, format!("cannot encode a row: {e}"))
}

/// Writes `rows` (sorted) as one run at `path`.
pub fn write_run(path: &Path, rows: &[Keyed]) -> Result<(), CheckpointError> {
    let mut writer = RunWriter::create(path)?;
    for row in rows {
        writer.push(row)?;
    }
    writer.finish()
}

/// A run being written: rows in blocks of [`RUN_ROW_GROUP`], each block
/// records in the run's own binary form (`checkpoint/codec.rs`), each
/// behind its length (four bytes, little-endian: a record is decoded from
/// its bytes in place), compressed with Snappy, behind its two lengths
/// (compressed, then whole); an empty block ends the file. Runs are the
/// survey's own scratch files, read back only by the survey that wrote
/// them, so they hold the rows as they are rather than as table columns:
/// encoding 800 columns and reading them back cost more than classifying
/// the sites.
pub struct RunWriter {
    path: PathBuf,
    partial: PathBuf,
    file: std::io::BufWriter<File>,
    block: Vec<u8>,
    rows: usize,
    encoder: snap::raw::Encoder,
}

impl RunWriter {
    /// Starts the run at `path` (written under a temporary name until
    /// [`finish`](Self::finish)).
    pub fn create(path: &Path) -> Result<RunWriter, CheckpointError> {
        let partial = crate::output::partial_path(path);
        let mut file =
            std::io::BufWriter::new(File::create(&partial).map_err(|e| io_error(path, e))?);
        file.write_all(RUN_MAGIC).map_err(|e| io_error(path, e))?;
        Ok(RunWriter {
            path: path.to_owned(),
            partial,
            file,
            block: Vec::new(),
            rows: 0,
            encoder: snap::raw::Encoder::new(),
        })
    }

    /// Adds the next row (rows come in sorted order).
    pub fn push(&mut self, row: &Keyed) -> Result<(), CheckpointError> {
        let at = self.block.len();
        self.block.extend_from_slice(&[0; 4]);
        codec::encode(row, &mut self.block).map_err(|e| encode_error(&self.path, e))?;
        let length = u32::try_from(self.block.len() - at - 4)
            .map_err(|_| encode_error(&self.path, "a row over 4 GiB"))?;
        self.block[at..at + 4].copy_from_slice(&length.to_le_bytes());
        self.rows += 1;
        if self.rows == RUN_ROW_GROUP || self.block.len() >= MAX_BLOCK_BYTES / 2 {
            self.write_block()?;
        }
        Ok(())
    }

    fn write_block(&mut self) -> Result<(), CheckpointError> {
        if self.block.is_empty() {
            return Ok(());
        }
        let packed = self
            .encoder
            .compress_vec(&self.block)
            .map_err(|e| encode_error(&self.path, e))?;
        let lengths = [packed.len(), self.block.len()]
            .map(|n| u32::try_from(n).map_err(|_| encode_error(&self.path, "a block over 4 GiB")));
        for length in lengths {
            self.file
                .write_all(&length?.to_le_bytes())
                .map_err(|e| io_error(&self.path, e))?;
        }
        self.file
            .write_all(&packed)
            .map_err(|e| io_error(&self.path, e))?;
        self.block.clear();
        self.rows = 0;
        Ok(())
    }

    /// Writes what is left and the end mark, and renames the file into
    /// place.
    pub fn finish(mut self) -> Result<(), CheckpointError> {
        let result = (|| {
            self.write_block()?;
            self.file
                .write_all(&[0; 8])
                .and_then(|()| self.file.flush())
                .and_then(|()| self.file.get_ref().sync_all())
                .and_then(|()| std::fs::rename(&self.partial, &self.path))
                .map_err(|e| io_error(&self.path, e))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&self.partial);
        }
        result
    }
}

/// A run being read back, one block in memory at a time.
pub struct RunReader {
    path: PathBuf,
    file: std::io::BufReader<File>,
    block: Vec<u8>,
    at: usize,
    ended: bool,
    decoder: snap::raw::Decoder,
}

impl std::fmt::Debug for RunReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunReader")
            .field("path", &self.path)
            .finish()
    }
}

impl RunReader {
    /// Opens the run at `path`.
    pub fn open(path: &Path) -> Result<RunReader, CheckpointError> {
        let file = File::open(path).map_err(|e| io_error(path, e))?;
        let mut file = std::io::BufReader::new(file);
        let mut magic = [0; RUN_MAGIC.len()];
        file.read_exact(&mut magic)
            .ok()
            .filter(|()| &magic == RUN_MAGIC)
            .ok_or_else(|| io_error(path, "not a run of this version of crawlgate"))?;
        Ok(RunReader {
            path: path.to_owned(),
            file,
            block: Vec::new(),
            at: 0,
            ended: false,
            decoder: snap::raw::Decoder::new(),
        })
    }

    /// The next row, or None at the end.
    pub fn next_row(&mut self) -> Result<Option<Keyed>, CheckpointError> {
        while self.at == self.block.len() {
            if self.ended || !self.next_block()? {
                self.ended = true;
                return Ok(None);
            }
        }
        let damaged =
            |e: &dyn std::fmt::Display| io_error(&self.path, format!("a damaged row: {e}"));
        let rest = &self.block[self.at..];
        let (length, rest) = rest
            .split_first_chunk::<4>()
            .ok_or_else(|| damaged(&"a cut length"))?;
        let length = u32::from_le_bytes(*length) as usize;
        let record = rest
            .get(..length)
            .ok_or_else(|| damaged(&"a length past its block"))?;
        let row: Keyed = codec::decode(record).map_err(|e| damaged(&e))?;
        self.at += 4 + length;
        Ok(Some(row))
    }

    /// Reads the next block; false at the end mark.
    fn next_block(&mut self) -> Result<bool, CheckpointError> {
        let cut = |e: std::io::Error| io_error(&self.path, format!("cut short: {e}"));
        let mut lengths = [0u8; 8];
        self.file.read_exact(&mut lengths).map_err(cut)?;
        let packed = u32::from_le_bytes(lengths[..4].try_into().expect("4 bytes")) as usize;
        let whole = u32::from_le_bytes(lengths[4..].try_into().expect("4 bytes")) as usize;
        if packed == 0 {
            return Ok(false);
        }
        if whole > MAX_BLOCK_BYTES || packed > snap::raw::max_compress_len(MAX_BLOCK_BYTES) {
            return Err(io_error(&self.path, "a damaged block length"));
        }
        let mut compressed = vec![0; packed];
        self.file.read_exact(&mut compressed).map_err(cut)?;
        self.block.resize(whole, 0);
        let written = self
            .decoder
            .decompress(&compressed, &mut self.block)
            .map_err(|e| io_error(&self.path, format!("a damaged block: {e}")))?;
        if written != whole {
            return Err(io_error(&self.path, "a damaged block length"));
        }
        self.at = 0;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Resume;

    fn keyed(host: Option<&str>, date: &str, item: u64, error: bool) -> Keyed {
        let mut row = SiteRow {
            host: host.map(str::to_owned),
            captured: Some(date.to_owned()),
            captures: 1,
            ..SiteRow::default()
        };
        if error {
            row.error = Some("x".into());
        }
        Keyed::new(row, 0, item)
    }

    #[test]
    fn rows_sort_by_host_then_time_then_input_order_and_errors_last() {
        let mut rows = [
            keyed(None, "2026-01-01T00:00:00Z", 1, true),
            keyed(Some("b.example"), "2026-01-01T00:00:00Z", 2, false),
            keyed(Some("a.example"), "2026-02-01T00:00:00Z", 3, false),
            keyed(Some("a.example"), "2026-01-01T00:00:00Z", 4, false),
            keyed(Some("a.example"), "2026-01-01T00:00:00Z", 0, true),
            keyed(Some("a.example"), "2026-01-01T00:00:00Z", 5, false),
        ];
        rows.sort();
        let order: Vec<u64> = rows.iter().map(|k| k.seq).collect();
        assert_eq!(order, [4, 5, 3, 2, 0, 1]);
    }

    #[test]
    fn dates_are_parsed_or_refused() {
        assert_eq!(
            parse_date("2000-03-01T00:00:00Z"),
            Some(951_868_800_000_000)
        );
        assert_eq!(
            parse_date("2026-11-25T10:20:30.123456789Z").map(|m| m % 1_000_000),
            Some(123_456)
        );
        for bad in [
            "",
            "2026-13-01T00:00:00Z",
            "2026-11-01T00:00:00",
            "2026-11-01T00:00:00+0100",
            &"9".repeat(70_000),
        ] {
            assert_eq!(parse_date(bad), None, "{bad:.40}");
        }
    }

    #[test]
    fn runs_give_back_their_rows_and_damaged_runs_are_errors() {
        use crate::verdict::{Cause, CrawlerVerdict};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run-000000.run");
        let blocked = CrawlerVerdict::without_rules(false, Cause::Unreachable, 1);
        let allowed = CrawlerVerdict {
            prefs: Some("{\"train-ai\":\"n\"}".into()),
            ..CrawlerVerdict::without_rules(true, Cause::Allowed, 1)
        };
        let mut rows: Vec<Keyed> = (0..RUN_ROW_GROUP as u64 * 2 + 3)
            .map(|i| {
                let mut k = keyed(
                    Some(&format!("h{i:05}.example")),
                    "2026-01-01T00:00:00Z",
                    i,
                    i % 7 == 0,
                );
                k.row.crawlers = (0..200)
                    .map(|c| {
                        if (c + i) % 3 == 0 {
                            blocked.clone()
                        } else {
                            allowed.clone()
                        }
                    })
                    .collect();
                k
            })
            .collect();
        rows.sort();
        write_run(&path, &rows).unwrap();
        let mut reader = RunReader::open(&path).unwrap();
        let mut back = Vec::new();
        while let Some(row) = reader.next_row().unwrap() {
            back.push(row);
        }
        assert_eq!(back.len(), rows.len());
        for (a, b) in rows.iter().zip(&back) {
            assert_eq!((&a.row, a.seq, a.date), (&b.row, b.seq, b.date));
        }

        // Cut short, another file, a run of the previous version, a block
        // too large, a whole block holding a cut record: errors that say so.
        let whole = std::fs::read(&path).unwrap();
        let mut older = whole.clone();
        older[..RUN_MAGIC.len()].copy_from_slice(b"CGRUN\x003\n");
        let mut huge = whole.clone();
        huge[RUN_MAGIC.len() + 4..RUN_MAGIC.len() + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut record = Vec::new();
        codec::encode(&rows[1], &mut record).unwrap();
        record.truncate(record.len() - 3);
        let mut block = (record.len() as u32).to_le_bytes().to_vec();
        block.extend_from_slice(&record);
        let packed = snap::raw::Encoder::new().compress_vec(&block).unwrap();
        let mut cut_record = RUN_MAGIC.to_vec();
        cut_record.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        cut_record.extend_from_slice(&(block.len() as u32).to_le_bytes());
        cut_record.extend_from_slice(&packed);
        cut_record.extend_from_slice(&[0; 8]);
        let damaged = [
            (whole[..whole.len() / 2].to_vec(), "cut short"),
            (b"PAR1".to_vec(), "not a run of this version of crawlgate"),
            (older, "not a run of this version of crawlgate"),
            (huge, "a damaged block length"),
            (cut_record, "a damaged row: cut short"),
        ];
        for (bytes, why) in damaged {
            std::fs::write(&path, &bytes).unwrap();
            let result = RunReader::open(&path).and_then(|mut reader| {
                while reader.next_row()?.is_some() {}
                Ok(())
            });
            let message = result.expect_err("a damaged run").to_string();
            assert!(message.contains("run-000000.run"), "{message}");
            assert!(message.contains(why), "{message}");
        }
        // Snappy blocks carry no checksum: a flipped byte may decode, but
        // reading it never panics.
        for at in (RUN_MAGIC.len()..whole.len()).step_by(97) {
            let mut flipped = whole.clone();
            flipped[at] ^= 0xff;
            std::fs::write(&path, &flipped).unwrap();
            let mut reader = RunReader::open(&path).unwrap();
            while let Ok(Some(_)) = reader.next_row() {}
        }
    }

    #[test]
    fn a_manifest_names_only_whole_runs() {
        let dir = tempfile::tempdir().unwrap();
        let work = WorkDir::beside(&dir.path().join("out.parquet"));
        assert!(work.path().ends_with(".out.parquet.crawlgate-work"));
        assert!(matches!(
            work.resume("s"),
            Err(CheckpointError::NothingToResume(_))
        ));
        work.start().unwrap();
        write_run(&work.run_path("run-1.run"), &[]).unwrap();
        std::fs::write(work.run_path(".run-2.run.crawlgate-partial"), b"cut").unwrap();
        let position = Position {
            input: 1,
            resume: Resume {
                offset: 77,
                items: 3,
            },
        };
        let mut counts = Counts::default();
        counts.skip(Skip::NotResponse);
        work.save("s", position, false, &["run-1.run".into()], &counts)
            .unwrap();
        assert!(matches!(
            work.resume("other"),
            Err(CheckpointError::Different(_))
        ));
        let manifest = work.resume("s").unwrap();
        assert_eq!((manifest.position, manifest.counts), (position, counts));
        let left: Vec<String> = std::fs::read_dir(work.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        // A run another version wrote is refused at once.
        let mut older = std::fs::read(work.run_path("run-1.run")).unwrap();
        older[..RUN_MAGIC.len()].copy_from_slice(b"CGRUN\x003\n");
        std::fs::write(work.run_path("run-1.run"), older).unwrap();
        let message = work.resume("s").unwrap_err().to_string();
        assert!(
            message.contains("run-1.run")
                && message.contains("not a run of this version")
                && message.contains("without --resume"),
            "{message}"
        );
        work.remove().unwrap();
        assert!(!work.path().exists());
    }
}
