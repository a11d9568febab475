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
//! (and, for a `crawler`, `"choice"` and `"token"`),
//! or `{"id": …, "error": "…"}` for a line that cannot be answered; then a
//! summary on standard error. Bodies that repeat are parsed once, in a cache
//! bounded by bytes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use crawlgate::{CompiledRobotsTxt, Profile, RobotsTxt};
use crawlgate_survey::input::lines::read_line;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::parse_profile;
use crate::input::{read_path, FileId, Special};

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
  control-token and \"token\": the token whose groups decided, or null)
  {\"id\"?, \"error\": string}    (the run goes on)
(\"id\" is echoed as given, when given.)
A summary (lines, decisions, errors by kind) follows on standard error.

At most 500 KiB of each robots.txt is read, as crawlers do. A robots_file that
is not a regular file (a pipe, a device) is refused unless
--allow-special-files, and never may it be the request stream itself. Parsed
files are kept for reuse up to about 64 MiB, then the cache starts afresh.
Request lines longer than 8 MiB get an error line.

Exit status: 0 every line answered (error lines included), 2 with
--fail-on-error when some line got an error line, or the input cannot be read.";

/// Arguments of `crawlgate batch`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// JSON-lines file to read; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// How to read robots.txt: google (default), rfc9309, legacy or bing.
    #[arg(long, default_value = "google", value_parser = parse_profile)]
    pub profile: Profile,

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
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::fetching::parse_seconds)]
    pub timeout: Duration,
}

/// The longest request line read; a robots.txt of 500 KiB fits several
/// times over, even with every byte escaped.
const MAX_LINE: usize = 8 << 20;

/// The bytes of parsed files the cache keeps (keys, models and room for
/// their compiled matchers) before it starts afresh.
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

/// Why a line got an error line, for the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum ErrorKind {
    /// Not JSON, or not a request (a field missing or of the wrong type).
    InvalidRequest,
    /// Nothing on the line.
    EmptyLine,
    /// Longer than [`MAX_LINE`].
    LineTooLong,
    /// None of robots_txt, robots_txt_b64, robots_file.
    NoRobotsTxt,
    /// Neither user_agent nor crawler.
    NoAgent,
    /// More than one of them.
    ConflictingFields,
    /// robots_txt or robots_txt_b64 that cannot be read.
    InvalidBody,
    /// A robots_file that cannot be read, or is refused.
    RobotsFile,
}

impl ErrorKind {
    fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidRequest => "not a valid request",
            ErrorKind::EmptyLine => "empty line",
            ErrorKind::LineTooLong => "line too long",
            ErrorKind::NoRobotsTxt => "no robots.txt given",
            ErrorKind::NoAgent => "no agent given",
            ErrorKind::ConflictingFields => "conflicting fields",
            ErrorKind::InvalidBody => "invalid robots_txt or robots_txt_b64",
            ErrorKind::RobotsFile => "robots_file not read",
        }
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
    /// The request stream, which no robots_file may name.
    stream: Option<FileId>,
}

/// Parsed bodies (and bodies that could not be had), keyed by where they
/// came from, so repeats are parsed once. Bounded by bytes: when it would
/// hold more than [`CACHE_BYTES`] it starts afresh.
struct BodyCache {
    profile: Profile,
    last_key: Vec<u8>,
    last: Option<Cached>,
    parsed: HashMap<Vec<u8>, Cached>,
    bytes: usize,
}

type Cached = Result<Arc<CompiledRobotsTxt>, Refusal>;

impl BodyCache {
    fn new(profile: Profile) -> Self {
        BodyCache {
            profile,
            last_key: Vec::new(),
            last: None,
            parsed: HashMap::new(),
            bytes: 0,
        }
    }

    /// The parsed body for `key`, made by `load` on a miss.
    fn get(&mut self, key: &[u8], load: impl FnOnce() -> Result<Vec<u8>, Refusal>) -> Cached {
        // Consecutive requests usually share a body: one comparison, no hashing.
        if let Some(last) = &self.last {
            if self.last_key == key {
                return last.clone();
            }
        }
        let cached = match self.parsed.get(key) {
            Some(cached) => cached.clone(),
            None => {
                // Kept with the rules compiled for its crawlers: repeated
                // questions compile once.
                let cached = load().map(|bytes| {
                    Arc::new(CompiledRobotsTxt::new(RobotsTxt::parse_with(
                        &bytes,
                        self.profile,
                    )))
                });
                // The model, and as much again for the matchers compiled on
                // the first questions.
                let cost = key.len()
                    + match &cached {
                        Ok(robots) => 2 * robots.heap_size(),
                        Err(refusal) => refusal.message.len(),
                    };
                if self.bytes + cost > CACHE_BYTES {
                    self.parsed.clear();
                    self.bytes = 0;
                }
                self.bytes += cost;
                self.parsed.insert(key.to_vec(), cached.clone());
                cached
            }
        };
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.last = Some(cached.clone());
        cached
    }

    fn robots_for(
        &mut self,
        request: &Request<'_>,
        files: &FileRules,
        key: &mut Vec<u8>,
    ) -> Cached {
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
        key.clear();
        if let Some(b64) = &request.robots_txt_b64 {
            key.push(b'b');
            key.extend_from_slice(b64.as_bytes());
            return self.get(key, || {
                base64::engine::general_purpose::STANDARD
                    .decode(b64.as_bytes())
                    .map_err(|e| {
                        refuse(
                            ErrorKind::InvalidBody,
                            format!("robots_txt_b64 is not valid base64: {e}"),
                        )
                    })
            });
        }
        if let Some(raw) = inline {
            key.push(b't');
            key.extend_from_slice(raw.get().as_bytes());
            return self.get(key, || inline_text(raw));
        }
        if let Some(path) = &request.robots_file {
            key.push(b'f');
            key.extend_from_slice(path.as_bytes());
            return self.get(key, || read_robots_file(path, files));
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
    if files.stream.is_some() && FileId::of_path(at) == files.stream {
        return Err(cannot(
            "it is the request stream this batch reads: a request cannot read it".to_owned(),
        ));
    }
    read_path(at, crawlgate::MAX_BYTES, files.special)
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
        Asked::Crawler(name) => robots.decide_for_crawler(name, url),
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
    let answer = request
        .asked()
        .and_then(|asked| Ok((asked, cache.robots_for(&request, files, key)?)));
    match answer {
        Ok((asked, robots)) => {
            let allowed = write_answer(out, request.id, &robots, &asked, &request.url)?;
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
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
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
    let mut cache = BodyCache::new(args.profile);
    let files = FileRules { special, stream };
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
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}
