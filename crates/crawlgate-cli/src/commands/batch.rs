//! `crawlgate batch`: decide many (robots.txt, user-agent, URL) triples.
//!
//! Input is JSON lines, one request per line:
//! `{"id"?: any, "robots_txt" | "robots_txt_b64" | "robots_file": …,
//! "user_agent" | "crawler": string, "url": string}`: `user_agent` is read
//! as one product token, as Google's library reads it (what pipelines
//! compare with it), `crawler` as the crawler a person names (the crawler
//! reading).
//! Output is one line per input line, in order:
//! `{"id": …, "allowed": bool, "line": number|null, "rule": string|null}`
//! (and, for a `crawler`, `"choice"`, `"token"` and `"profile"`),
//! or `{"id": …, "error": "…"}` for a line that cannot be answered; then a
//! summary on standard error. Bodies that repeat are parsed once, in a cache
//! bounded by bytes.

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use crawlgate::{CompiledRobotsTxt, Profile, Reading, RobotsTxt, Who};
use crawlgate_answers::ByProfile;
use crawlgate_survey::input::lines::read_line;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::load::input::{read_path, FileId, Special};
use crate::status::Status;

const EXAMPLES: &str = "\
Examples:
  crawlgate batch requests.jsonl > answers.jsonl
  crawlgate batch --profile rfc9309 --fail-on-error < requests.jsonl
  echo '{\"id\":1,\"robots_file\":\"robots.txt\",\"user_agent\":\"bot\",\"url\":\"/x\"}' \\
    | crawlgate batch

Each input line is one request, with exactly one of robots_txt (text),
robots_txt_b64 (exact bytes, base64) or robots_file (a path), and exactly one
of user_agent (one product token, read exactly as Google's library reads it)
or crawler (a crawler's name, read as its operator documents: Googlebot-Image
follows a Googlebot group, AdsBot-Google ignores `*`…):
  {\"id\"?: any, \"robots_txt\": string, \"user_agent\": string, \"url\": string}
  {\"id\"?: any, \"robots_txt\": string, \"crawler\": string, \"url\": string}
Each output line answers the input line at the same position:
  {\"id\"?, \"allowed\": bool, \"line\": number|null, \"rule\": string|null}
  (for a crawler, also \"choice\": own|fallback|*|none|ignores-robots-txt|
  control-token, \"token\": the token whose groups decided, or null, and
  \"profile\": the reading used, bing for Bing's crawlers and yandex for
  Yandex's robots unless --profile names one)
  {\"id\"?, \"error\": string}    (the run goes on)
(\"id\" is echoed as given, when given.)
A summary (lines, decisions, errors by kind) follows on standard error.

At most 500 KiB of each robots.txt is read, as crawlers do (4,000 KiB by
yandex, as Yandex's parser reads whole files). A robots_file that
is not a regular file (a pipe, a device) is refused unless
--allow-special-files, and never may it be one of the batch's own streams
(the requests, /proc/self/fd/1 or /dev/stdout, standard error). Parsed files
are kept for reuse, with their compiled rules, up to 64 MiB as the allocator
counts them, then the cache starts afresh: at most 112 MiB in all.
Request lines longer than 8 MiB get an error line.

Exit status: 0 every line answered (error lines included), 2 with
--fail-on-error when some line got an error line, or the input cannot be read.";

/// Arguments of `crawlgate batch`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// JSON-lines file to read; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// How to read robots.txt: google, rfc9309, legacy, bing or yandex. By
    /// default, a `crawler` by its operator's own parser's reading (yandex
    /// for Yandex's robots, bing for Bing's crawlers), anything else by google.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<Profile>,

    /// Never draw a progress bar (one is drawn on a terminal when the input is a file).
    #[arg(long)]
    pub no_progress: bool,

    /// Exit with status 2 when some line got an error line.
    #[arg(long)]
    pub fail_on_error: bool,

    /// Print no summary on standard error.
    #[arg(short, long)]
    pub quiet: bool,

    /// Read a robots_file that is a pipe, FIFO or device (refused by
    /// default: it can block or never end), waiting at most --timeout.
    #[arg(long)]
    pub allow_special_files: bool,

    /// Seconds to wait for a robots_file that is not a regular file (with
    /// --allow-special-files).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::load::fetch::parse_seconds)]
    pub timeout: Duration,
}

/// The longest request line read; a robots.txt of 500 KiB fits several
/// times over, even with every byte escaped.
const MAX_LINE: usize = 8 << 20;

/// The bytes the cache of parsed files may hold: entries (keys, parsed
/// files, the rules compiled for them, each heap block with what the
/// allocator adds to it) and the table that finds them. Past it, the cache
/// starts afresh.
const CACHE_BYTES: usize = 64 << 20;

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    robots_txt: Option<&'a RawValue>,
    #[serde(borrow, default)]
    robots_txt_b64: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    robots_file: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    user_agent: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    crawler: Option<Cow<'a, str>>,
    #[serde(borrow)]
    url: Cow<'a, str>,
}

/// Who a request asks about: one product token, or a crawler by name.
enum Asked<'r> {
    Token(&'r str),
    Crawler(&'r str),
}

impl<'a> Request<'a> {
    /// The agent asked about: exactly one of `user_agent` and `crawler`.
    fn asked(&self) -> Result<Asked<'_>, Refusal> {
        match (&self.user_agent, &self.crawler) {
            (Some(token), None) => Ok(Asked::Token(token)),
            (None, Some(name)) => Ok(Asked::Crawler(name)),
            (None, None) => Err(refuse(
                ErrorKind::NoAgent,
                "give user_agent (one product token) or crawler (a crawler's name)",
            )),
            (Some(_), Some(_)) => Err(refuse(
                ErrorKind::ConflictingFields,
                "give one of user_agent and crawler, not both",
            )),
        }
    }
}

/// Only the id, to echo it in an error line.
#[derive(Deserialize)]
struct IdOnly<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

crawlgate::word_table! {
    /// Why a line got an error line, for the summary.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    enum ErrorKind {
        /// Not JSON, or not a request (a field missing or of the wrong type).
        InvalidRequest = "not a valid request",
        /// Nothing on the line.
        EmptyLine = "empty line",
        /// Longer than [`MAX_LINE`].
        LineTooLong = "line too long",
        /// None of robots_txt, robots_txt_b64, robots_file.
        NoRobotsTxt = "no robots.txt given",
        /// Neither user_agent nor crawler.
        NoAgent = "no agent given",
        /// More than one of them.
        ConflictingFields = "conflicting fields",
        /// robots_txt or robots_txt_b64 that cannot be read.
        InvalidBody = "invalid robots_txt or robots_txt_b64",
        /// A robots_file that cannot be read, or is refused.
        RobotsFile = "robots_file not read",
    }
}

/// Why a request cannot be answered.
#[derive(Clone, Debug)]
struct Refusal {
    kind: ErrorKind,
    message: String,
}

fn refuse(kind: ErrorKind, message: impl Into<String>) -> Refusal {
    Refusal {
        kind,
        message: message.into(),
    }
}

/// How robots_file paths are read.
struct FileRules {
    special: Special,
    /// The streams this batch reads and writes, which no robots_file may
    /// name: reading them would take requests or answers away, or read
    /// answers back.
    streams: Vec<(FileId, &'static str)>,
}

impl FileRules {
    fn new(special: Special, input: Option<FileId>) -> FileRules {
        let streams = [
            (input, "the request stream this batch reads"),
            (
                FileId::of_stdout(),
                "the standard output this batch writes its answers to",
            ),
            (
                FileId::of_stderr(),
                "the standard error this batch writes its summary to",
            ),
        ];
        FileRules {
            special,
            streams: streams
                .into_iter()
                .filter_map(|(id, what)| Some((id?, what)))
                .collect(),
        }
    }
}

/// One cache entry: a body's readings, each profile's made the first time
/// a request's crawler is read by it (the `ByProfile` store
/// `RobotsSource` and Python's batch keep too), and the bytes counted for
/// them.
struct Slot {
    readings: ByProfile<Parsed>,
    /// What [`BodyCache::bytes`] counts for it.
    counted: Cell<usize>,
}

/// A body read by one profile (or why there is none).
struct Parsed {
    cached: Cached,
    /// The heap of the parsed file when last measured, and how many times
    /// it grew since parsing (each growth is a crawler's rules compiled:
    /// a few more heap blocks).
    heap: Cell<usize>,
    growths: Cell<usize>,
}

type Cached = Result<Arc<CompiledRobotsTxt>, Refusal>;

/// What the allocator adds to each heap block (glibc: an 8-byte header,
/// sizes rounded up to 16), counted generously.
const BLOCK: usize = 16;

/// Heap blocks of a parsed file besides its compiled rules: its vectors,
/// the two `Arc`s and the slice of rule slots.
const FILE_BLOCKS: usize = 18;

/// Heap blocks of one crawler's compiled rules.
const COMPILED_BLOCKS: usize = 10;

impl Slot {
    fn new() -> Slot {
        Slot {
            readings: ByProfile::new(),
            counted: Cell::new(0),
        }
    }

    /// The body read by `profile`, once it was.
    fn reading(&self, profile: Profile) -> Option<&Parsed> {
        self.readings.get(profile)
    }

    /// The bytes this entry holds under a key of `key_len` bytes: the key,
    /// the slot, and each reading's parsed file with the rules compiled so
    /// far (or the refusal's message), each heap block with the allocator's
    /// share.
    fn bytes(&self, key_len: usize) -> usize {
        let own = key_len + size_of::<Slot>() + 2 * size_of::<usize>() + 2 * BLOCK;
        own + Profile::ALL
            .iter()
            .filter_map(|&profile| self.reading(profile))
            .map(Parsed::bytes)
            .sum::<usize>()
    }

    /// Measures each reading again (questions compile rules); true when
    /// one grew.
    fn remeasure(&self) -> bool {
        // Every reading is measured: no short cut after the first growth.
        let mut grew = false;
        for parsed in Profile::ALL.iter().filter_map(|&p| self.reading(p)) {
            grew |= parsed.remeasure();
        }
        grew
    }
}

impl Parsed {
    fn new(cached: Cached) -> Parsed {
        let heap = cached.as_ref().map_or(0, |robots| robots.heap_size());
        Parsed {
            cached,
            heap: Cell::new(heap),
            growths: Cell::new(0),
        }
    }

    /// What it holds beyond the slot.
    fn bytes(&self) -> usize {
        match &self.cached {
            Ok(_) => {
                // Both Arcs' counts, the two structs, their heap.
                4 * size_of::<usize>()
                    + size_of::<CompiledRobotsTxt>()
                    + size_of::<RobotsTxt>()
                    + self.heap.get()
                    + (FILE_BLOCKS + COMPILED_BLOCKS * self.growths.get()) * BLOCK
            }
            Err(refusal) => refusal.message.capacity() + BLOCK,
        }
    }

    /// Measures the parsed file again (questions compile rules); true when
    /// it grew.
    fn remeasure(&self) -> bool {
        let Ok(robots) = &self.cached else {
            return false;
        };
        let heap = robots.heap_size();
        if heap <= self.heap.get() {
            return false;
        }
        self.heap.set(heap);
        self.growths.set(self.growths.get() + 1);
        true
    }
}

/// Parsed bodies (and bodies that could not be had), keyed by where they
/// came from, so repeats are parsed once. Bounded by what it really holds
/// (see [`Slot::bytes`] and [`BodyCache::held`]): when that would pass
/// `budget` it starts afresh.
struct BodyCache {
    /// The profile `--profile` names, if any.
    named: Option<Profile>,
    budget: usize,
    last_key: Vec<u8>,
    last: Option<Rc<Slot>>,
    parsed: HashMap<Vec<u8>, Rc<Slot>>,
    /// The bytes of the entries.
    bytes: usize,
}

impl BodyCache {
    fn new(named: Option<Profile>, budget: usize) -> Self {
        BodyCache {
            named,
            budget,
            last_key: Vec::new(),
            last: None,
            parsed: HashMap::new(),
            bytes: 0,
        }
    }

    /// Everything the cache holds: its entries, the table's buckets (a
    /// key, a slot pointer and a control byte each, at the table's load
    /// factor of 7/8) and the copy of the last key.
    fn held(&self) -> usize {
        let bucket = size_of::<(Vec<u8>, Rc<Slot>)>() + 1;
        self.bytes + self.parsed.capacity() * bucket * 8 / 7 + self.last_key.capacity()
    }

    /// Drops every entry (the table keeps its size for the next ones).
    fn clear(&mut self) {
        self.parsed.clear();
        self.last = None;
        self.last_key.clear();
        self.bytes = 0;
    }

    /// The entry for `key`, with the body read by `profile`: made by `load`
    /// and read on a miss (another profile's reading of a kept body loads
    /// it again).
    fn get(
        &mut self,
        key: &[u8],
        profile: Profile,
        load: impl FnOnce() -> Result<Vec<u8>, Refusal>,
    ) -> Rc<Slot> {
        // Consecutive requests usually share a body: one comparison, no hashing.
        let hit_last = self.last.is_some() && self.last_key == key;
        let slot = match &self.last {
            Some(last) if hit_last => Rc::clone(last),
            _ => match self.parsed.get(key) {
                Some(slot) => Rc::clone(slot),
                None => Rc::new(Slot::new()),
            },
        };
        if slot.reading(profile).is_none() {
            // Kept with the rules compiled for its crawlers: repeated
            // questions compile once.
            slot.readings.set(
                profile,
                Parsed::new(load().map(|bytes| {
                    Arc::new(CompiledRobotsTxt::new(RobotsTxt::parse_with(
                        &bytes, profile,
                    )))
                })),
            );
            let cost = slot.bytes(key.len());
            let counted = slot.counted.replace(cost);
            let new_key = counted == 0;
            // The table may double to take one more key.
            let growth = if new_key && self.parsed.len() == self.parsed.capacity() {
                self.parsed.capacity().max(3) * (size_of::<(Vec<u8>, Rc<Slot>)>() + 1) * 8 / 7
            } else {
                0
            };
            let key_copy = if new_key { key.len() } else { 0 };
            if self.held() - counted + cost + growth + key_copy > self.budget {
                self.clear();
            }
            if self.parsed.contains_key(key) {
                self.bytes = self.bytes + cost - counted;
            } else {
                self.bytes += cost;
                self.parsed.insert(key.to_vec(), Rc::clone(&slot));
            }
        }
        if !hit_last || self.last.is_none() {
            self.last_key.clear();
            self.last_key.extend_from_slice(key);
            self.last = Some(Rc::clone(&slot));
        }
        slot
    }

    /// Counts what answering a question on `slot` (under `key_len` bytes of
    /// key) compiled; starts afresh when the cache holds too much.
    fn answered(&mut self, slot: &Slot, key_len: usize) {
        if !slot.remeasure() {
            return;
        }
        let now = slot.bytes(key_len);
        self.bytes = self.bytes + now - slot.counted.replace(now);
        if self.held() > self.budget {
            self.clear();
        }
    }

    fn robots_for(
        &mut self,
        request: &Request<'_>,
        asked: &Asked<'_>,
        files: &FileRules,
        key: &mut Vec<u8>,
    ) -> Result<(Rc<Slot>, Profile), Refusal> {
        let profile = match asked {
            Asked::Token(agent) => Reading::OneToken.profile_for(agent, self.named),
            Asked::Crawler(name) => Reading::Crawler.profile_for(name, self.named),
        };
        let inline = request.robots_txt.filter(|raw| raw.get() != "null");
        let given: Vec<&str> = [
            inline.map(|_| "robots_txt"),
            request.robots_txt_b64.as_ref().map(|_| "robots_txt_b64"),
            request.robots_file.as_ref().map(|_| "robots_file"),
        ]
        .into_iter()
        .flatten()
        .collect();
        if given.len() > 1 {
            return Err(refuse(
                ErrorKind::ConflictingFields,
                format!(
                    "{} given together: give exactly one of robots_txt, robots_txt_b64 or robots_file",
                    given.join(" and ")
                ),
            ));
        }
        // Keyed by the body alone: its entry keeps a reading per profile.
        key.clear();
        if let Some(b64) = &request.robots_txt_b64 {
            key.push(b'b');
            key.extend_from_slice(b64.as_bytes());
            return Ok((
                self.get(key, profile, || {
                    base64::engine::general_purpose::STANDARD
                        .decode(b64.as_bytes())
                        .map_err(|e| {
                            refuse(
                                ErrorKind::InvalidBody,
                                format!("robots_txt_b64 is not valid base64: {e}"),
                            )
                        })
                }),
                profile,
            ));
        }
        if let Some(raw) = inline {
            key.push(b't');
            key.extend_from_slice(raw.get().as_bytes());
            return Ok((self.get(key, profile, || inline_text(raw)), profile));
        }
        if let Some(path) = &request.robots_file {
            key.push(b'f');
            key.extend_from_slice(path.as_bytes());
            return Ok((
                self.get(key, profile, || read_robots_file(path, files)),
                profile,
            ));
        }
        Err(refuse(
            ErrorKind::NoRobotsTxt,
            "one of robots_txt, robots_txt_b64 or robots_file is required",
        ))
    }
}

/// The text of an inline `robots_txt`, or what is wrong with it.
fn inline_text(raw: &RawValue) -> Result<Vec<u8>, Refusal> {
    match serde_json::from_str::<Cow<'_, str>>(raw.get()) {
        Ok(text) => Ok(text.into_owned().into_bytes()),
        // A string whose escapes are not text, such as a lone `\ud800`.
        Err(e) if raw.get().starts_with('"') => {
            let what = e.to_string();
            let what = what.split(" at line ").next().unwrap_or_default();
            Err(refuse(
                ErrorKind::InvalidBody,
                format!(
                    "robots_txt is not valid Unicode text ({what}; \\ud800-\\udfff escapes must come in pairs): send bytes that are not UTF-8 as robots_txt_b64"
                ),
            ))
        }
        Err(_) => Err(refuse(
            ErrorKind::InvalidBody,
            "robots_txt must be a string",
        )),
    }
}

/// Reads a robots_file: at most what crawlers parse, never the request
/// stream, and a pipe or device only when allowed.
fn read_robots_file(path: &str, files: &FileRules) -> Result<Vec<u8>, Refusal> {
    let cannot = |why: String| {
        refuse(
            ErrorKind::RobotsFile,
            format!("cannot read robots_file {path:?}: {why}"),
        )
    };
    let at = Path::new(path);
    if let Some(id) = FileId::of_path(at)
        && let Some((_, what)) = files.streams.iter().find(|(stream, _)| *stream == id)
    {
        return Err(cannot(format!("it is {what}: a request cannot read it")));
    }
    read_path(at, crawlgate::READ_LIMIT, files.special)
        .map(|input| input.bytes)
        .map_err(|e| cannot(format!("{e:#}")))
}

/// Writes one answer line.
fn write_answer(
    out: &mut impl Write,
    id: Option<&RawValue>,
    robots: &CompiledRobotsTxt,
    asked: &Asked<'_>,
    url: &str,
) -> io::Result<bool> {
    let verdict = match asked {
        Asked::Token(agent) => robots.decide(agent, url),
        Asked::Crawler(name) => robots.decide(Who::crawler(name), url),
    };
    out.write_all(b"{")?;
    if let Some(id) = id {
        out.write_all(b"\"id\":")?;
        out.write_all(id.get().as_bytes())?;
        out.write_all(b",")?;
    }
    out.write_all(if verdict.is_allowed() {
        b"\"allowed\":true"
    } else {
        b"\"allowed\":false"
    })?;
    match verdict.rule() {
        Some(rule) => {
            write!(out, ",\"line\":{},\"rule\":", rule.line())?;
            serde_json::to_writer(&mut *out, &rule.to_string())?;
        }
        None => out.write_all(b",\"line\":null,\"rule\":null")?,
    }
    if let Asked::Crawler(_) = asked {
        let choice = verdict.group_choice();
        write!(out, ",\"choice\":\"{}\",\"token\":", choice.kind())?;
        serde_json::to_writer(&mut *out, &choice.token())?;
        // The reading used: the crawler's operator's, unless named.
        write!(out, ",\"profile\":\"{}\"", robots.robots().profile().name)?;
    }
    out.write_all(b"}\n")?;
    Ok(verdict.is_allowed())
}

fn write_error(out: &mut impl Write, id: Option<&RawValue>, message: &str) -> io::Result<()> {
    out.write_all(b"{")?;
    if let Some(id) = id {
        out.write_all(b"\"id\":")?;
        out.write_all(id.get().as_bytes())?;
        out.write_all(b",")?;
    }
    out.write_all(b"\"error\":")?;
    serde_json::to_writer(&mut *out, message)?;
    out.write_all(b"}\n")
}

/// What the run answered, for the summary.
#[derive(Default)]
struct Tally {
    lines: u64,
    allowed: u64,
    disallowed: u64,
    errors: std::collections::BTreeMap<ErrorKind, u64>,
}

impl Tally {
    fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// `batch: 3 lines: 2 decisions (1 allowed, 1 disallowed), 1 error (1 empty line)`.
    fn summary(&self) -> String {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let mut text = format!(
            "batch: {}: {} ({} allowed, {} disallowed), {}",
            plural(self.lines, "line", "lines"),
            plural(self.allowed + self.disallowed, "decision", "decisions"),
            self.allowed,
            self.disallowed,
            plural(self.error_count(), "error", "errors"),
        );
        if !self.errors.is_empty() {
            let kinds: Vec<String> = self
                .errors
                .iter()
                .map(|(kind, n)| format!("{n} {}", kind.as_str()))
                .collect();
            let _ = write!(text, " ({})", kinds.join(", "));
        }
        text
    }
}

/// Answers one input line (without its line end).
fn answer_line(
    line: &[u8],
    number: u64,
    cache: &mut BodyCache,
    files: &FileRules,
    key: &mut Vec<u8>,
    tally: &mut Tally,
    out: &mut impl Write,
) -> io::Result<()> {
    let request = match serde_json::from_slice::<Request<'_>>(line) {
        Ok(request) => request,
        Err(e) => {
            let id = serde_json::from_slice::<IdOnly<'_>>(line)
                .ok()
                .and_then(|r| r.id);
            let (kind, what) = if line.iter().all(u8::is_ascii_whitespace) {
                (ErrorKind::EmptyLine, "empty line".to_owned())
            } else {
                (
                    ErrorKind::InvalidRequest,
                    format!("not a valid request: {e}")
                        .replace(" at line 1 column ", " at column "),
                )
            };
            *tally.errors.entry(kind).or_default() += 1;
            return write_error(out, id, &format!("input line {number}: {what}"));
        }
    };
    let asked = match request.asked() {
        Ok(asked) => asked,
        Err(refusal) => {
            *tally.errors.entry(refusal.kind).or_default() += 1;
            return write_error(
                out,
                request.id,
                &format!("input line {number}: {}", refusal.message),
            );
        }
    };
    let (slot, profile) = match cache.robots_for(&request, &asked, files, key) {
        Ok(found) => found,
        Err(refusal) => {
            *tally.errors.entry(refusal.kind).or_default() += 1;
            return write_error(
                out,
                request.id,
                &format!("input line {number}: {}", refusal.message),
            );
        }
    };
    // Every profile `robots_for` chooses is one of `Profile::ALL`, which
    // has a slot: the reading is there.
    let Some(parsed) = slot.reading(profile) else {
        return write_error(
            out,
            request.id,
            &format!(
                "input line {number}: the profile {} cannot be kept",
                profile.name
            ),
        );
    };
    match &parsed.cached {
        Ok(robots) => {
            let allowed = write_answer(out, request.id, robots, &asked, &request.url)?;
            cache.answered(&slot, key.len());
            *if allowed {
                &mut tally.allowed
            } else {
                &mut tally.disallowed
            } += 1;
            Ok(())
        }
        Err(refusal) => {
            *tally.errors.entry(refusal.kind).or_default() += 1;
            write_error(
                out,
                request.id,
                &format!("input line {number}: {}", refusal.message),
            )
        }
    }
}

/// Runs `crawlgate batch`.
pub fn run(args: Args) -> anyhow::Result<Status> {
    let (reader, size, stream): (Box<dyn Read>, Option<u64>, Option<FileId>) = match &args.input {
        Some(path) if path.as_os_str() != "-" => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), size, FileId::of_path(path))
        }
        _ => (Box::new(io::stdin().lock()), None, FileId::of_stdin()),
    };
    let progress = match size {
        Some(len) if !args.no_progress && io::stderr().is_terminal() => {
            let bar = indicatif::ProgressBar::new(len);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} {bytes}/{total_bytes} {bar:40} {per_sec} eta {eta}",
                )
                .expect("valid template"),
            );
            Some(bar)
        }
        _ => None,
    };
    let special = if args.allow_special_files {
        Special::Read {
            timeout: args.timeout,
        }
    } else {
        Special::Refuse
    };
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut cache = BodyCache::new(args.profile, CACHE_BYTES);
    let files = FileRules::new(special, stream);
    let mut tally = Tally::default();
    let mut line = Vec::new();
    let mut key = Vec::new();
    loop {
        let read = read_line(&mut reader, &mut line, MAX_LINE).context("cannot read the input")?;
        if read.taken == 0 {
            break;
        }
        tally.lines += 1;
        let number = tally.lines;
        if read.cut {
            *tally.errors.entry(ErrorKind::LineTooLong).or_default() += 1;
            write_error(
                &mut out,
                None,
                &format!("input line {number}: longer than {MAX_LINE} bytes: not read"),
            )
            .context("cannot write the output")?;
        } else {
            let mut content = &line[..];
            if number == 1 {
                // A UTF-8 byte order mark some editors put at the start of a file.
                content = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
            }
            answer_line(
                content, number, &mut cache, &files, &mut key, &mut tally, &mut out,
            )
            .context("cannot write the output")?;
        }
        if let Some(bar) = &progress {
            bar.inc(read.taken as u64);
        }
    }
    out.flush().context("cannot write the output")?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    if !args.quiet {
        crate::output::note(&tally.summary());
    }
    Ok(if args.fail_on_error && tally.error_count() > 0 {
        Status::InputError
    } else {
        Status::Success
    })
}

// The tests count the heap through a global allocator, which takes an
// `unsafe impl` (test builds only).
#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use std::alloc::{GlobalAlloc, Layout, System};

    use super::*;

    /// The system allocator, counting per thread the heap held live as
    /// glibc holds it: each block with its 8-byte header, rounded up to 16,
    /// at least 32.
    struct Counting;

    thread_local! {
        static LIVE: Cell<isize> = const { Cell::new(0) };
    }

    fn chunk(size: usize) -> isize {
        ((size + 8 + 15) & !15).max(32) as isize
    }

    fn count(delta: isize) {
        let _ = LIVE.try_with(|live| live.set(live.get() + delta));
    }

    // SAFETY: every call goes to the system allocator unchanged.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            count(chunk(layout.size()));
            // SAFETY: the caller's promises are passed on.
            unsafe { System.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            count(-chunk(layout.size()));
            // SAFETY: as above.
            unsafe { System.dealloc(ptr, layout) }
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            count(chunk(layout.size()));
            // SAFETY: as above.
            unsafe { System.alloc_zeroed(layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            count(chunk(new_size) - chunk(layout.size()));
            // SAFETY: as above.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

    fn live() -> usize {
        LIVE.with(Cell::get).max(0) as usize
    }

    /// Asks enough questions of `slot` to compile the rules of a few
    /// crawlers, counting each answer as `crawlgate batch` does.
    fn ask(cache: &mut BodyCache, slot: &Slot, key_len: usize) {
        let Ok(robots) = &slot.reading(Profile::GOOGLE).unwrap().cached else {
            return;
        };
        for agent in ["Googlebot", "Bingbot", "GPTBot", "mybot"] {
            for page in ["/", "/a", "/private/x", "/search?q=1", "/img/a.png"] {
                let _ = robots.decide(agent, page).is_allowed();
                cache.answered(slot, key_len);
            }
        }
    }

    #[test]
    fn the_cache_counts_what_its_entries_really_hold() {
        let files = crawlgate_corpus::files();
        let mut key = Vec::with_capacity(2 << 20);
        let base = live();
        let mut cache = BodyCache::new(Some(Profile::GOOGLE), usize::MAX);
        for (name, body) in &files {
            key.clear();
            key.extend_from_slice(name.as_bytes());
            let slot = cache.get(&key, Profile::GOOGLE, || Ok(body.clone()));
            ask(&mut cache, &slot, key.len());
        }
        let real = live() - base;
        let held = cache.held();
        eprintln!("{} files: {real} bytes held, {held} counted", files.len());
        assert!(
            held >= real,
            "the cache counts {held} bytes but holds {real} ({} files)",
            files.len()
        );
        // Counted, not guessed wildly: within a fifth of the truth.
        assert!(held <= real + real / 5, "{held} counted for {real} held");
    }

    #[test]
    fn the_cache_never_holds_more_than_its_budget() {
        let budget = 4 << 20;
        let files = crawlgate_corpus::files();
        // Corpus files, then many small distinct bodies (where the fixed
        // cost of an entry is most of it).
        let small: Vec<(String, Vec<u8>)> = (0..60_000)
            .map(|i| {
                let body = format!("User-agent: *\nDisallow: /p{i}/\n");
                (format!("small {i}"), body.into_bytes())
            })
            .collect();
        let mut key = Vec::with_capacity(2 << 20);
        // The parser keeps its working vectors per thread between parses
        // (at most 1 MiB; the thread's, not the cache's): they reach their
        // size on these inputs before anything is counted.
        for (_, body) in files.iter().chain(&small) {
            drop(crawlgate::RobotsTxt::parse(body));
        }
        let base = live();
        let mut cache = BodyCache::new(Some(Profile::GOOGLE), budget);
        let mut peak = 0;
        let mut cleared = 0;
        for (name, body) in files.iter().chain(&small) {
            key.clear();
            key.extend_from_slice(name.as_bytes());
            let before = cache.parsed.len();
            let slot = cache.get(&key, Profile::GOOGLE, || Ok(body.clone()));
            ask(&mut cache, &slot, key.len());
            drop(slot);
            if cache.parsed.len() <= before {
                cleared += 1;
            }
            peak = peak.max(live() - base);
        }
        eprintln!("peak {peak} bytes for a budget of {budget}, {cleared} times afresh");
        assert!(cleared > 0, "the budget was never reached");
        assert!(peak <= budget, "held {peak} bytes, budget {budget}");
    }

    #[test]
    fn repeated_bodies_are_parsed_once_and_refusals_kept() {
        let mut cache = BodyCache::new(Some(Profile::GOOGLE), CACHE_BYTES);
        let mut loads = 0;
        for key in [&b"a"[..], b"b", b"a", b"a", b"b"] {
            let slot = cache.get(key, Profile::GOOGLE, || {
                loads += 1;
                Ok(b"User-agent: *\nDisallow: /x\n".to_vec())
            });
            let cached = &slot.reading(Profile::GOOGLE).unwrap().cached;
            assert!(!cached.as_ref().unwrap().is_allowed("bot", "/x"));
        }
        assert_eq!(loads, 2);
        let refused = cache.get(b"c", Profile::GOOGLE, || {
            Err(refuse(ErrorKind::RobotsFile, "no"))
        });
        assert!(refused.reading(Profile::GOOGLE).unwrap().cached.is_err());
        let again = cache.get(b"c", Profile::GOOGLE, || unreachable!("kept"));
        let cached = &again.reading(Profile::GOOGLE).unwrap().cached;
        assert_eq!(cached.as_ref().unwrap_err().message, "no");
        // Another profile's reading of a kept body: the same entry, loaded
        // and read again by that profile, and counted.
        let held = cache.held();
        let bing = cache.get(b"a", Profile::BING, || {
            loads += 1;
            Ok(b"User-agent: *\nDisallow: /x\n".to_vec())
        });
        assert_eq!(loads, 3);
        assert_eq!(cache.parsed.len(), 3);
        let read = bing
            .reading(Profile::BING)
            .unwrap()
            .cached
            .as_ref()
            .unwrap();
        assert_eq!(read.robots().profile(), Profile::BING);
        assert!(bing.reading(Profile::GOOGLE).is_some());
        assert!(cache.held() > held);
    }

    #[test]
    fn no_robots_file_may_name_a_stream_of_the_batch() {
        let dir = tempfile::tempdir().unwrap();
        let output = dir.path().join("answers.jsonl");
        std::fs::write(&output, "{\"allowed\":true}\n").unwrap();
        let mut files = FileRules::new(Special::Refuse, None);
        files.streams = vec![(
            FileId::of_path(&output).unwrap(),
            "the standard output this batch writes its answers to",
        )];
        let refusal = read_robots_file(output.to_str().unwrap(), &files).unwrap_err();
        assert_eq!(refusal.kind, ErrorKind::RobotsFile);
        assert!(
            refusal
                .message
                .ends_with("it is the standard output this batch writes its answers to: a request cannot read it"),
            "{}",
            refusal.message
        );
        // Another file is read, at most what crawlers parse (and one byte).
        let other = dir.path().join("robots.txt");
        std::fs::write(&other, vec![b'#'; crawlgate::READ_LIMIT + 100]).unwrap();
        let read = read_robots_file(other.to_str().unwrap(), &files).unwrap();
        assert_eq!(read.len(), crawlgate::READ_LIMIT + 1);
    }
}
