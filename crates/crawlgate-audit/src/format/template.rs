//! Line formats written as templates: literal text and fields, compiled
//! from nginx's `log_format` syntax (`$remote_addr - $remote_user
//! [$time_local] "$request" …`) or Apache's `LogFormat` syntax (`%h %l %u
//! %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`). A field ends where the
//! literal after it starts (a quoted field at the first unescaped quote).

use std::borrow::Cow;
use std::net::IpAddr;

use memchr::memmem;

use crate::record::{split_request_line, Request};
use crate::time::{parse_clf, parse_epoch, parse_iso8601, Millis};

/// What a field of a template holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The client address.
    Addr,
    /// The time, in `10/Oct/2026:13:55:36 -0700` form.
    TimeClf,
    /// The time, ISO 8601.
    TimeIso,
    /// The time, epoch seconds (with a fraction).
    TimeEpoch,
    /// The request line (`GET /a HTTP/1.1`).
    Request,
    /// The method.
    Method,
    /// Path and query (nginx's `$request_uri`).
    Uri,
    /// The path alone.
    Path,
    /// The query, without `?` (nginx's `$args`).
    Query,
    /// The query with its `?` (Apache's `%q`).
    QueryWithMark,
    /// The response status.
    Status,
    /// The `User-Agent` header.
    UserAgent,
    /// The `X-Forwarded-For` header.
    ForwardedFor,
    /// The host.
    Host,
    /// nginx's `$is_args` (`?` or nothing), only between `$uri` and `$args`.
    IsArgs,
    /// Anything else: read and ignored.
    Skip,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Literal(Literal),
    Field(Field),
}

/// Text the format writes between fields, with its searcher built once
/// per format: building one for each field of each line was a sixth of
/// the audit's time.
#[derive(Clone, Debug)]
struct Literal(Box<memmem::Finder<'static>>);

impl Literal {
    fn new(bytes: &[u8]) -> Literal {
        Literal(Box::new(memmem::Finder::new(bytes).into_owned()))
    }

    fn bytes(&self) -> &[u8] {
        self.0.needle()
    }
}

impl PartialEq for Literal {
    fn eq(&self, other: &Literal) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for Literal {}

/// A compiled line format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

/// Why a format string cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("log format `{format}`: {why}")]
pub struct BadTemplate {
    format: String,
    why: String,
}

fn bad(format: &str, why: impl Into<String>) -> BadTemplate {
    BadTemplate {
        format: format.chars().take(200).collect(),
        why: why.into(),
    }
}

fn nginx_field(name: &str) -> Field {
    match name {
        "remote_addr" | "realip_remote_addr" => Field::Addr,
        "time_local" => Field::TimeClf,
        "time_iso8601" => Field::TimeIso,
        "msec" => Field::TimeEpoch,
        "request" => Field::Request,
        "request_method" => Field::Method,
        "request_uri" => Field::Uri,
        "uri" | "document_uri" => Field::Path,
        "args" | "query_string" => Field::Query,
        "is_args" => Field::IsArgs,
        "status" => Field::Status,
        "http_user_agent" => Field::UserAgent,
        "http_x_forwarded_for" => Field::ForwardedFor,
        "host" | "http_host" | "server_name" => Field::Host,
        _ => Field::Skip,
    }
}

fn header_field(name: &str) -> Field {
    match name.to_ascii_lowercase().as_str() {
        "user-agent" => Field::UserAgent,
        "x-forwarded-for" => Field::ForwardedFor,
        "host" => Field::Host,
        _ => Field::Skip,
    }
}

impl Template {
    fn push_literal(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        match self.pieces.last_mut() {
            Some(Piece::Literal(lit)) => *lit = Literal::new(&[lit.bytes(), bytes].concat()),
            _ => self.pieces.push(Piece::Literal(Literal::new(bytes))),
        }
    }

    fn push_field(&mut self, _format: &str, field: Field) -> Result<(), BadTemplate> {
        self.pieces.push(Piece::Field(field));
        Ok(())
    }

    fn check(mut self, format: &str) -> Result<Template, BadTemplate> {
        // A path and its query written together (`%U%q`,
        // `$uri$is_args$args`) are the request URI.
        let mut merged: Vec<Piece> = Vec::with_capacity(self.pieces.len());
        for piece in self.pieces {
            match (merged.as_slice(), &piece) {
                (
                    [.., Piece::Field(Field::Path)],
                    Piece::Field(Field::QueryWithMark | Field::IsArgs),
                ) => {
                    *merged.last_mut().unwrap() = Piece::Field(Field::Uri);
                }
                ([.., Piece::Field(Field::Uri)], Piece::Field(Field::Query))
                    if matches!(merged.last(), Some(Piece::Field(Field::Uri))) =>
                {
                    // `$uri$is_args$args`: the query is already in the URI.
                }
                _ => merged.push(piece),
            }
        }
        self.pieces = merged;
        if self
            .pieces
            .windows(2)
            .any(|w| matches!(w, [Piece::Field(_), Piece::Field(_)]))
        {
            return Err(bad(
                format,
                "two fields with nothing between them cannot be told apart",
            ));
        }
        if self.pieces.contains(&Piece::Field(Field::IsArgs)) {
            return Err(bad(format, "$is_args is read only as in $uri$is_args$args"));
        }
        let has = |f: Field| self.pieces.contains(&Piece::Field(f));
        if !has(Field::Addr) {
            return Err(bad(
                format,
                "it logs no client address ($remote_addr, %h or %a)",
            ));
        }
        if !(has(Field::Request) || has(Field::Uri) || has(Field::Path)) {
            return Err(bad(
                format,
                "it logs no request ($request, $request_uri, $uri, %r or %U)",
            ));
        }
        Ok(self)
    }

    /// Compiles an nginx `log_format` string.
    ///
    /// ```
    /// use crawlgate_audit::format::Template;
    /// let t = Template::nginx(r#"$remote_addr [$time_iso8601] "$request" $status "$http_user_agent" $host"#).unwrap();
    /// let line = r#"66.249.66.1 [2026-11-27T10:00:00+00:00] "GET /a?b HTTP/1.1" 200 "Googlebot/2.1" example.com"#;
    /// let request = t.parse(line).unwrap();
    /// assert_eq!(request.target.as_deref(), Some("/a?b"));
    /// assert_eq!(request.host.as_deref(), Some("example.com"));
    /// ```
    pub fn nginx(format: &str) -> Result<Template, BadTemplate> {
        let mut template = Template { pieces: Vec::new() };
        let bytes = format.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] != b'$' {
                let end = memchr::memchr(b'$', &bytes[i..]).map_or(bytes.len(), |j| i + j);
                template.push_literal(&bytes[i..end]);
                i = end;
                continue;
            }
            let (name, next) = if bytes.get(i + 1) == Some(&b'{') {
                let close = memchr::memchr(b'}', &bytes[i..])
                    .ok_or_else(|| bad(format, "`${` without `}`"))?;
                (&format[i + 2..i + close], i + close + 1)
            } else {
                let len = bytes[i + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                (&format[i + 1..i + 1 + len], i + 1 + len)
            };
            if name.is_empty() {
                return Err(bad(format, "`$` without a variable name"));
            }
            template.push_field(format, nginx_field(name))?;
            i = next;
        }
        template.check(format)
    }

    /// Compiles an Apache `LogFormat` string.
    ///
    /// ```
    /// use crawlgate_audit::format::Template;
    /// let t = Template::apache(r#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i""#).unwrap();
    /// let line = r#"66.249.66.1 - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1)""#;
    /// assert_eq!(t.parse(line).unwrap().user_agent, "Mozilla/5.0 (compatible; Googlebot/2.1)");
    /// ```
    pub fn apache(format: &str) -> Result<Template, BadTemplate> {
        let mut template = Template { pieces: Vec::new() };
        let bytes = format.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\\' && i + 1 < bytes.len() {
                // LogFormat strings are C-like: \" \t \n.
                let c = match bytes[i + 1] {
                    b't' => b'\t',
                    b'n' => b'\n',
                    other => other,
                };
                template.push_literal(&[c]);
                i += 2;
                continue;
            }
            if bytes[i] != b'%' {
                let end = bytes[i..]
                    .iter()
                    .position(|b| *b == b'%' || *b == b'\\')
                    .map_or(bytes.len(), |j| i + j);
                template.push_literal(&bytes[i..end]);
                i = end;
                continue;
            }
            i += 1;
            // Conditions and redirect modifiers: `%400,501{…}i`, `%!200r`, `%>s`.
            while i < bytes.len() && matches!(bytes[i], b'!' | b',' | b'<' | b'>' | b'0'..=b'9') {
                i += 1;
            }
            let mut argument = None;
            if bytes.get(i) == Some(&b'{') {
                let close = memchr::memchr(b'}', &bytes[i..])
                    .ok_or_else(|| bad(format, "`%{` without `}`"))?;
                argument = Some(&format[i + 1..i + close]);
                i += close + 1;
            }
            let Some(&directive) = bytes.get(i) else {
                return Err(bad(format, "a `%` at the end"));
            };
            i += 1;
            let field = match (directive, argument) {
                (b'%', _) => {
                    template.push_literal(b"%");
                    continue;
                }
                (b'h' | b'a', _) => Field::Addr,
                (b't', None) => {
                    template.push_literal(b"[");
                    template.push_field(format, Field::TimeClf)?;
                    template.push_literal(b"]");
                    continue;
                }
                (b't', Some(arg)) => match arg.trim_start_matches("begin:").trim_start_matches("end:") {
                    "sec" => Field::TimeEpoch,
                    "%d/%b/%Y:%H:%M:%S %z" => Field::TimeClf,
                    "%Y-%m-%dT%H:%M:%S%z" | "%Y-%m-%dT%H:%M:%S" | "%FT%T%z" | "%FT%T" => Field::TimeIso,
                    other => {
                        return Err(bad(
                            format,
                            format!("the time format `{other}` is not supported: use %t, %{{sec}}t or %{{%Y-%m-%dT%H:%M:%S%z}}t"),
                        ))
                    }
                },
                (b'r', _) => Field::Request,
                (b'm', _) => Field::Method,
                (b'U', _) => Field::Path,
                (b'q', _) => Field::QueryWithMark,
                (b's', _) => Field::Status,
                (b'v' | b'V', _) => Field::Host,
                (b'i', Some(name)) => header_field(name),
                (b'l' | b'u' | b'b' | b'B' | b'O' | b'I' | b'S' | b'D' | b'T' | b'p' | b'P' | b'f' | b'H' | b'k' | b'L' | b'R' | b'X' | b'A' | b'e' | b'n' | b'o' | b'C' | b'^' | b'i', _) => Field::Skip,
                (other, _) => {
                    return Err(bad(format, format!("unknown directive `%{}`", other as char)))
                }
            };
            template.push_field(format, field)?;
        }
        template.check(format)
    }

    /// Reads one line; `Err` says why it does not fit.
    pub fn parse<'a>(&self, line: &'a str) -> Result<Request<'a>, &'static str> {
        let bytes = line.as_bytes();
        let mut pos = 0;
        let mut values = Values::default();
        for (i, piece) in self.pieces.iter().enumerate() {
            match piece {
                Piece::Literal(lit) => {
                    let lit = lit.bytes();
                    if !bytes[pos..].starts_with(lit) {
                        return Err("the line does not fit the log format");
                    }
                    pos += lit.len();
                }
                Piece::Field(field) => {
                    let end = match self.pieces.get(i + 1) {
                        Some(Piece::Literal(next)) => {
                            let quoted = next.bytes()[0] == b'"'
                                && matches!(self.pieces.get(i.wrapping_sub(1)), Some(Piece::Literal(prev)) if prev.bytes().ends_with(b"\""));
                            if quoted {
                                pos + closing_quote(&bytes[pos..])
                                    .ok_or("a quoted field is not closed")?
                            } else {
                                pos + next
                                    .0
                                    .find(&bytes[pos..])
                                    .ok_or("the line does not fit the log format")?
                            }
                        }
                        _ => bytes.len(),
                    };
                    values.set(*field, &line[pos..end]);
                    pos = end;
                }
            }
        }
        values.into_request()
    }
}

/// Where the quoted text starting at `bytes` ends: the first `"` not
/// escaped by a backslash.
fn closing_quote(bytes: &[u8]) -> Option<usize> {
    let mut from = 0;
    loop {
        let i = from + memchr::memchr(b'"', &bytes[from..])?;
        let backslashes = bytes[..i].iter().rev().take_while(|b| **b == b'\\').count();
        if backslashes % 2 == 0 {
            return Some(i);
        }
        from = i + 1;
    }
}

/// Decodes the escapes Apache and nginx write in logged strings (`\"`,
/// `\\`, `\xHH`); `-` alone is an empty value.
pub(crate) fn unescape(text: &str) -> Cow<'_, str> {
    if text == "-" {
        return Cow::Borrowed("");
    }
    if !text.contains('\\') {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'x' if i + 3 < b.len() => {
                    let hex = |c: u8| (c as char).to_digit(16);
                    if let (Some(h), Some(l)) = (hex(b[i + 2]), hex(b[i + 3])) {
                        out.push((h * 16 + l) as u8);
                        i += 4;
                        continue;
                    }
                    out.push(b'\\');
                    i += 1;
                }
                b'"' | b'\\' => {
                    out.push(b[i + 1]);
                    i += 2;
                }
                b't' => {
                    out.push(b'\t');
                    i += 2;
                }
                b'n' => {
                    out.push(b'\n');
                    i += 2;
                }
                _ => {
                    out.push(b'\\');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// The fields of one line, before they become a request.
#[derive(Default)]
pub(crate) struct Values<'a> {
    pub addr: Option<&'a str>,
    pub time: Option<(Field, &'a str)>,
    pub request: Option<&'a str>,
    pub method: Option<&'a str>,
    pub uri: Option<&'a str>,
    pub path: Option<&'a str>,
    pub query: Option<&'a str>,
    pub status: Option<&'a str>,
    pub user_agent: Option<&'a str>,
    pub forwarded_for: Option<&'a str>,
    pub host: Option<&'a str>,
}

impl<'a> Values<'a> {
    fn set(&mut self, field: Field, value: &'a str) {
        match field {
            Field::Addr => self.addr = Some(value),
            Field::TimeClf | Field::TimeIso | Field::TimeEpoch => self.time = Some((field, value)),
            Field::Request => self.request = Some(value),
            Field::Method => self.method = Some(value),
            Field::Uri => self.uri = Some(value),
            Field::Path => self.path = Some(value),
            Field::Query => self.query = Some(value),
            Field::QueryWithMark => self.query = Some(value.strip_prefix('?').unwrap_or(value)),
            Field::Status => self.status = Some(value),
            Field::UserAgent => self.user_agent = Some(value),
            Field::ForwardedFor => self.forwarded_for = Some(value),
            Field::Host => self.host = Some(value),
            Field::IsArgs | Field::Skip => {}
        }
    }

    pub(crate) fn into_request(self) -> Result<Request<'a>, &'static str> {
        let ip = parse_ip(self.addr.ok_or("no client address")?)?;
        let mut request = Request::new(ip);
        if let Some((kind, text)) = self.time {
            request.time = Some(parse_time(kind, text).ok_or("the time cannot be read")?);
        }
        if let Some(status) = self.status.filter(|s| *s != "-") {
            request.status = Some(parse_status(status).ok_or("the status is not a number")?);
        }
        if let Some(line) = self.request {
            let line = unescape(line);
            let (method, target) = match &line {
                Cow::Borrowed(text) => {
                    let (m, t) = split_request_line(text);
                    (m.map(Cow::Borrowed), t.map(Cow::Borrowed))
                }
                Cow::Owned(text) => {
                    let (m, t) = split_request_line(text);
                    (
                        m.map(|m| Cow::Owned(m.to_owned())),
                        t.map(|t| Cow::Owned(t.to_owned())),
                    )
                }
            };
            request.method = method;
            request.target = target;
        }
        if let Some(m) = self.method.filter(|m| *m != "-") {
            request.method = Some(unescape(m));
        }
        if let Some(uri) = self.uri.filter(|u| *u != "-") {
            request.target = Some(unescape(uri));
        } else if let Some(path) = self.path.filter(|p| *p != "-") {
            request.target = Some(match self.query.filter(|q| !q.is_empty() && *q != "-") {
                Some(q) => Cow::Owned(format!("{}?{}", unescape(path), unescape(q))),
                None => unescape(path),
            });
        }
        request.user_agent = self.user_agent.map(unescape).unwrap_or(Cow::Borrowed(""));
        request.forwarded_for = self.forwarded_for.map(unescape).filter(|f| !f.is_empty());
        request.host = self.host.map(unescape).filter(|h| !h.is_empty());
        Ok(request)
    }
}

pub(crate) fn parse_ip(text: &str) -> Result<IpAddr, &'static str> {
    let text = text.trim();
    if let Ok(ip) = text.parse() {
        return Ok(ip);
    }
    // `[::1]` or an address with a zone or port.
    let bare = text
        .trim_start_matches('[')
        .split(']')
        .next()
        .unwrap_or(text);
    let bare = bare.split('%').next().unwrap_or(bare);
    bare.parse()
        .map_err(|_| "the client address is not an IP address")
}

fn parse_status(text: &str) -> Option<u16> {
    (text.len() == 3 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn parse_time(kind: Field, text: &str) -> Option<Millis> {
    match kind {
        Field::TimeClf => parse_clf(text),
        Field::TimeIso => parse_iso8601(text),
        _ => parse_epoch(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMBINED: &str = r#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i""#;

    #[test]
    fn combined_lines() {
        let t = Template::apache(COMBINED).unwrap();
        let r = t
            .parse(r#"2001:db8::1 - - [27/Nov/2026:10:00:00 +0000] "GET /a\"b HTTP/1.1" 404 - "-" "say \"hi\" \x41""#)
            .unwrap();
        assert_eq!(r.ip.to_string(), "2001:db8::1");
        assert_eq!(r.target.as_deref(), Some("/a\"b"));
        assert_eq!(r.user_agent, "say \"hi\" A");
        assert_eq!(r.status, Some(404));
        // Trailing fields (nginx's "$http_x_forwarded_for") are left.
        assert!(t.parse(r#"1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "ua" "5.6.7.8""#).is_ok());
        for (line, why) in [
            ("garbage", "does not fit"),
            (
                r#"host.example - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "ua""#,
                "not an IP",
            ),
            (
                r#"1.2.3.4 - - [27/Nov/2026:10:00:00] "GET / HTTP/1.1" 200 1 "-" "ua""#,
                "time",
            ),
            (
                r#"1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" OK 1 "-" "ua""#,
                "status",
            ),
            (
                r#"1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"#,
                "not closed",
            ),
        ] {
            let error = t.parse(line).unwrap_err();
            assert!(error.contains(why), "{line}: {error}");
        }
    }

    #[test]
    fn formats_that_cannot_work() {
        assert!(Template::nginx("$remote_addr$status $request")
            .unwrap_err()
            .to_string()
            .contains("nothing between"));
        assert!(Template::nginx("$status $request")
            .unwrap_err()
            .to_string()
            .contains("no client address"));
        assert!(Template::apache("%h %Z")
            .unwrap_err()
            .to_string()
            .contains("unknown directive"));
        assert!(Template::apache("%h %{%s}t %r")
            .unwrap_err()
            .to_string()
            .contains("not supported"));
        assert!(Template::apache("%h %r %")
            .unwrap_err()
            .to_string()
            .contains("at the end"));
    }

    #[test]
    fn paths_and_queries_apart() {
        let t = Template::apache(r#"%a %{sec}t "%m %U%q" %s "%{User-agent}i" %v"#).unwrap();
        let r = t
            .parse(r#"10.0.0.1 1764237600 "GET /x?y=1" 200 "bot" example.com"#)
            .unwrap();
        assert_eq!(r.target.as_deref(), Some("/x?y=1"));
        assert_eq!(r.method.as_deref(), Some("GET"));
        assert_eq!(r.time, Some(1_764_237_600_000));
        let n = Template::nginx("$remote_addr $msec $uri $args $http_user_agent").unwrap();
        let r = n.parse("10.0.0.1 1764237600.5 /x y=1 bot").unwrap();
        assert_eq!(
            (r.target.as_deref(), r.time),
            (Some("/x?y=1"), Some(1_764_237_600_500))
        );
        let together = Template::nginx("$remote_addr \"$uri$is_args$args\" $status").unwrap();
        assert_eq!(
            together
                .parse("::1 \"/x?y=1\" 200")
                .unwrap()
                .target
                .as_deref(),
            Some("/x?y=1")
        );
        assert_eq!(
            together.parse("::1 \"/x\" 200").unwrap().target.as_deref(),
            Some("/x")
        );
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape("-"), "");
        assert_eq!(unescape(r"a\x22b\\c\q\x4"), "a\"b\\c\\q\\x4");
    }
}
