//! `crawlgate batch`: decide many (robots.txt, user-agent, URL) triples.
//!
//! Input is JSON lines, one request per line:
//! `{"id"?: any, "robots_txt": string, "robots_txt_b64"?: string,
//! "robots_file"?: path, "user_agent": string, "url": string}`.
//! Output is one line per input line, in order:
//! `{"id": …, "allowed": bool, "line": number|null, "rule": string|null}`,
//! or `{"id": …, "error": "…"}` for a line that cannot be answered.
//! Bodies that repeat are parsed once.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use base64::Engine as _;
use crawlgate::{Profile, RobotsTxt};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::parse_profile;

const EXAMPLES: &str = "\
Examples:
  echo '{\"id\":1,\"robots_txt\":\"User-agent: *\\nDisallow: /x\\n\",\"user_agent\":\"mybot\",\"url\":\"https://example.com/x/1\"}' | crawlgate batch
  crawlgate batch requests.jsonl > answers.jsonl
  crawlgate batch --profile rfc9309 < requests.jsonl

Each input line is one request:
  {\"id\"?: any, \"robots_txt\": string, \"robots_txt_b64\"?: string (exact bytes; wins over robots_txt),
   \"robots_file\"?: path, \"user_agent\": string (used as given), \"url\": string}
Each output line answers the input line at the same position:
  {\"id\": <echoed if given>, \"allowed\": bool, \"line\": number|null, \"rule\": string|null}
  {\"id\": <echoed if given>, \"error\": string}    (the run goes on)";

/// Arguments of `crawlgate batch`.
#[derive(clap::Args, Debug)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// JSON-lines file to read; standard input when absent or `-`.
    pub input: Option<PathBuf>,

    /// How to read robots.txt: google (default), rfc9309 or legacy.
    #[arg(long, default_value = "google", value_parser = parse_profile)]
    pub profile: Profile,

    /// Never draw a progress bar (one is drawn on a terminal when the input is a file).
    #[arg(long)]
    pub no_progress: bool,
}

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
    #[serde(borrow)]
    user_agent: Cow<'a, str>,
    #[serde(borrow)]
    url: Cow<'a, str>,
}

/// Only the id, to echo it in an error line.
#[derive(Deserialize)]
struct IdOnly<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
}

/// Parsed bodies, keyed by where they came from, so repeats are parsed once.
/// Bounded: when it holds too many bytes of keys it starts afresh.
struct BodyCache {
    profile: Profile,
    last_key: Vec<u8>,
    last: Option<Arc<RobotsTxt>>,
    parsed: HashMap<Vec<u8>, Arc<RobotsTxt>>,
    key_bytes: usize,
}

const CACHE_KEY_BYTES: usize = 256 << 20;

impl BodyCache {
    fn new(profile: Profile) -> Self {
        BodyCache {
            profile,
            last_key: Vec::new(),
            last: None,
            parsed: HashMap::new(),
            key_bytes: 0,
        }
    }

    /// The parsed body for `key`, made by `load` on a miss.
    fn get(
        &mut self,
        key: &[u8],
        load: impl FnOnce() -> Result<Vec<u8>, String>,
    ) -> Result<Arc<RobotsTxt>, String> {
        // Consecutive requests usually share a body: one comparison, no hashing.
        if let Some(last) = &self.last {
            if self.last_key == key {
                return Ok(last.clone());
            }
        }
        let robots = match self.parsed.get(key) {
            Some(robots) => robots.clone(),
            None => {
                let robots = Arc::new(RobotsTxt::parse_with(&load()?, self.profile));
                if self.key_bytes + key.len() > CACHE_KEY_BYTES {
                    self.parsed.clear();
                    self.key_bytes = 0;
                }
                self.key_bytes += key.len();
                self.parsed.insert(key.to_vec(), robots.clone());
                robots
            }
        };
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.last = Some(robots.clone());
        Ok(robots)
    }

    fn robots_for(
        &mut self,
        request: &Request<'_>,
        key: &mut Vec<u8>,
    ) -> Result<Arc<RobotsTxt>, String> {
        key.clear();
        if let Some(b64) = &request.robots_txt_b64 {
            key.push(b'b');
            key.extend_from_slice(b64.as_bytes());
            return self.get(key, || {
                base64::engine::general_purpose::STANDARD
                    .decode(b64.as_bytes())
                    .map_err(|e| format!("robots_txt_b64 is not valid base64: {e}"))
            });
        }
        if let Some(raw) = request.robots_txt.filter(|raw| raw.get() != "null") {
            key.push(b't');
            key.extend_from_slice(raw.get().as_bytes());
            return self.get(key, || {
                match serde_json::from_str::<Cow<'_, str>>(raw.get()) {
                    Ok(text) => Ok(text.into_owned().into_bytes()),
                    Err(_) => Err("robots_txt must be a string".to_owned()),
                }
            });
        }
        if let Some(path) = &request.robots_file {
            key.push(b'f');
            key.extend_from_slice(path.as_bytes());
            return self.get(key, || {
                std::fs::read(path.as_ref())
                    .map_err(|e| format!("cannot read robots_file {path:?}: {e}"))
            });
        }
        Err("one of robots_txt, robots_txt_b64 or robots_file is required".to_owned())
    }
}

/// Writes one answer line.
fn write_answer(
    out: &mut impl Write,
    id: Option<&RawValue>,
    robots: &RobotsTxt,
    agent: &str,
    url: &str,
) -> io::Result<()> {
    let verdict = robots.decide(agent, url);
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
            out.write_all(b"}\n")
        }
        None => out.write_all(b",\"line\":null,\"rule\":null}\n"),
    }
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

/// Answers one input line (without its line end).
fn answer_line(
    line: &[u8],
    number: u64,
    cache: &mut BodyCache,
    key: &mut Vec<u8>,
    out: &mut impl Write,
) -> io::Result<()> {
    let request = match serde_json::from_slice::<Request<'_>>(line) {
        Ok(request) => request,
        Err(e) => {
            let id = serde_json::from_slice::<IdOnly<'_>>(line)
                .ok()
                .and_then(|r| r.id);
            let what = if line.iter().all(u8::is_ascii_whitespace) {
                "empty line".to_owned()
            } else {
                format!("not a valid request: {e}").replace(" at line 1 column ", " at column ")
            };
            return write_error(out, id, &format!("input line {number}: {what}"));
        }
    };
    match cache.robots_for(&request, key) {
        Ok(robots) => write_answer(out, request.id, &robots, &request.user_agent, &request.url),
        Err(message) => write_error(out, request.id, &format!("input line {number}: {message}")),
    }
}

/// Runs `crawlgate batch`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (reader, size): (Box<dyn Read>, Option<u64>) = match &args.input {
        Some(path) if path.as_os_str() != "-" => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), size)
        }
        _ => (Box::new(io::stdin().lock()), None),
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
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut cache = BodyCache::new(args.profile);
    let mut line = Vec::new();
    let mut key = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .context("cannot read the input")?;
        if read == 0 {
            break;
        }
        number += 1;
        let mut content = &line[..];
        if number == 1 {
            // A UTF-8 byte order mark some editors put at the start of a file.
            content = content.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(content);
        }
        if let [rest @ .., b'\n'] = content {
            content = rest;
        }
        if let [rest @ .., b'\r'] = content {
            content = rest;
        }
        answer_line(content, number, &mut cache, &mut key, &mut out)
            .context("cannot write the output")?;
        if let Some(bar) = &progress {
            bar.inc(read as u64);
        }
    }
    out.flush().context("cannot write the output")?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(ExitCode::SUCCESS)
}
