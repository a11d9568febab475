//! Log formats: reading a line into a [`Request`], and telling which
//! format a log is in from its first lines.
//!
//! * [`Template`]: nginx/Apache `combined` and `common`, `vhost_combined`,
//!   and any nginx `log_format` or Apache `LogFormat` string;
//! * [`JsonFields`]: JSON lines, with configurable field names and a
//!   Cloudflare Logpush preset;
//! * [`W3c`]: W3C extended / IIS, whose `#Fields:` may change mid-file.

mod json;
mod template;
mod w3c;

pub use json::JsonFields;
pub(crate) use template::parse_ip;
pub use template::{BadTemplate, Field, Template};
pub use w3c::W3c;

use crate::record::Request;

/// Apache's `combined` (nginx's default `combined` writes the same).
pub const COMBINED: &str = r#"%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i""#;
/// Apache's `common`: no user agent.
pub const COMMON: &str = r#"%h %l %u %t "%r" %>s %b"#;
/// Apache's `vhost_combined`: the virtual host and port first.
pub const VHOST_COMBINED: &str = r#"%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i""#;

/// A log format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Lines of a template, with the name it was given (`combined`, or
    /// `nginx`/`apache` for a format string).
    Template {
        /// Its name.
        name: String,
        /// The compiled template.
        template: Template,
    },
    /// JSON lines.
    Json {
        /// `json` or `cloudflare`.
        name: &'static str,
        /// Which fields hold what.
        fields: JsonFields,
    },
    /// W3C extended.
    W3c,
}

/// The format names `--format` takes.
pub const FORMAT_NAMES: &[&str] = &[
    "auto",
    "combined",
    "common",
    "vhost_combined",
    "nginx",
    "apache",
    "json",
    "cloudflare",
    "w3c",
];

impl LogFormat {
    fn template(name: &str, format: &str) -> LogFormat {
        LogFormat::Template {
            name: name.to_owned(),
            template: Template::apache(format).expect("the built-in formats compile"),
        }
    }

    /// nginx's and Apache's `combined`.
    pub fn combined() -> LogFormat {
        LogFormat::template("combined", COMBINED)
    }

    /// The format `name` names (one of [`FORMAT_NAMES`] but `auto`);
    /// `nginx` and `apache` take the format string `custom`, `json` the
    /// field names `fields` (`ip=…,ua=…`).
    ///
    /// ```
    /// use crawlgate_audit::format::LogFormat;
    /// assert_eq!(LogFormat::named("combined", None, None).unwrap().name(), "combined");
    /// assert!(LogFormat::named("nginx", None, None).unwrap_err().contains("--log-format"));
    /// assert!(LogFormat::named("syslog", None, None).unwrap_err().contains("unknown"));
    /// ```
    pub fn named(
        name: &str,
        custom: Option<&str>,
        fields: Option<&str>,
    ) -> Result<LogFormat, String> {
        let with_fields = |base: JsonFields| match fields {
            Some(spec) => base.with_names(spec),
            None => Ok(base),
        };
        match (name, custom) {
            ("combined", None) => Ok(LogFormat::combined()),
            ("common", None) => Ok(LogFormat::template("common", COMMON)),
            ("vhost_combined", None) => Ok(LogFormat::template("vhost_combined", VHOST_COMBINED)),
            ("nginx", Some(format)) => Ok(LogFormat::Template {
                name: "nginx".into(),
                template: Template::nginx(format).map_err(|e| e.to_string())?,
            }),
            ("apache", Some(format)) => Ok(LogFormat::Template {
                name: "apache".into(),
                template: Template::apache(format).map_err(|e| e.to_string())?,
            }),
            ("nginx" | "apache", None) => Err(format!(
                "--format {name} needs the format string: --log-format '…'"
            )),
            ("json", None) => Ok(LogFormat::Json {
                name: "json",
                fields: with_fields(JsonFields::default())?,
            }),
            ("cloudflare", None) => Ok(LogFormat::Json {
                name: "cloudflare",
                fields: with_fields(JsonFields::cloudflare())?,
            }),
            ("w3c", None) => Ok(LogFormat::W3c),
            (_, Some(_)) if FORMAT_NAMES.contains(&name) => Err(format!(
                "--log-format is for --format nginx or apache, not {name}"
            )),
            _ => Err(format!(
                "unknown log format `{name}` (one of {})",
                FORMAT_NAMES.join(", ")
            )),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            LogFormat::Template { name, .. } => name,
            LogFormat::Json { name, .. } => name,
            LogFormat::W3c => "w3c",
        }
    }

    /// Tells the format from the first lines of a log (`sample`: whole
    /// lines), or says why it cannot: W3C by its directives, JSON by a
    /// leading `{` (Cloudflare by its field names), else whichever of
    /// `vhost_combined`, `combined` and `common` reads the most lines.
    ///
    /// ```
    /// use crawlgate_audit::format::LogFormat;
    /// let combined = br#"1.2.3.4 - - [27/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "ua""#;
    /// assert_eq!(LogFormat::detect(combined).unwrap().name(), "combined");
    /// assert_eq!(LogFormat::detect(b"#Version: 1.0\n#Fields: date time c-ip\n").unwrap().name(), "w3c");
    /// assert_eq!(LogFormat::detect(br#"{"ClientIP":"1.2.3.4","ClientRequestURI":"/"}"#).unwrap().name(), "cloudflare");
    /// assert!(LogFormat::detect(b"\x00\x01binary").is_err());
    /// ```
    pub fn detect(sample: &[u8]) -> Result<LogFormat, String> {
        let lines: Vec<&str> = sample
            .split(|b| *b == b'\n')
            .filter_map(|l| std::str::from_utf8(l).ok())
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.trim().is_empty())
            .take(64)
            .collect();
        if lines.is_empty() {
            return Err("no text line to tell the format from".into());
        }
        if lines.iter().any(|l| {
            l.starts_with("#Fields:") || l.starts_with("#Software:") || l.starts_with("#Version:")
        }) {
            return Ok(LogFormat::W3c);
        }
        if lines[0].trim_start().starts_with('{') {
            let cloudflare =
                lines[0].contains("\"ClientIP\"") || lines[0].contains("\"ClientRequestURI\"");
            return LogFormat::named(if cloudflare { "cloudflare" } else { "json" }, None, None);
        }
        let candidates = ["vhost_combined", "combined", "common"];
        let mut best: Option<(usize, LogFormat)> = None;
        for name in candidates {
            let format = LogFormat::named(name, None, None)?;
            let LogFormat::Template { template, .. } = &format else {
                continue;
            };
            let read = lines.iter().filter(|l| template.parse(l).is_ok()).count();
            // `common` reads combined lines too (their trailing fields left):
            // the first candidate with the most lines wins.
            if read > 0 && best.as_ref().is_none_or(|(n, _)| read > *n) {
                best = Some((read, format));
            }
        }
        best.map(|(_, f)| f).ok_or_else(|| {
            "not W3C, JSON, combined nor common: give --format (with --log-format for a custom nginx or Apache format)".into()
        })
    }

    /// Whether each line reads alone (W3C lines depend on the directives
    /// before them).
    pub fn lines_stand_alone(&self) -> bool {
        !matches!(self, LogFormat::W3c)
    }
}

/// What one line of a log is.
#[derive(Debug)]
pub enum Line<'a> {
    /// A request.
    Request(Request<'a>),
    /// A directive of the format (W3C `#Fields:` …): no request.
    Directive,
    /// A line that cannot be read, and why.
    Unreadable(&'static str),
}

/// Reads one line of a log in `format` (its line end removed or not);
/// `w3c` carries the columns W3C directives name from line to line.
pub fn read_line<'a>(format: &LogFormat, w3c: &mut W3c, line: &'a [u8]) -> Line<'a> {
    let line = match line {
        [rest @ .., b'\r'] => rest,
        line => line,
    };
    let Ok(text) = std::str::from_utf8(line) else {
        return Line::Unreadable("not UTF-8 text");
    };
    if text.trim().is_empty() {
        return Line::Unreadable("an empty line");
    }
    let read = match format {
        LogFormat::Template { template, .. } => template.parse(text),
        LogFormat::Json { fields, .. } => fields.parse(text),
        LogFormat::W3c => {
            if w3c.directive(text) {
                return Line::Directive;
            }
            w3c.parse(text)
        }
    };
    match read {
        Ok(request) => Line::Request(request),
        Err(why) => Line::Unreadable(why),
    }
}

/// One address of an `X-Forwarded-For` header (`1.2.3.4`, `[2001:db8::1]:443`).
pub fn parse_forwarded_hop(hop: &str) -> Option<std::net::IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    // `1.2.3.4:5678`
    let (host, port) = hop.rsplit_once(':')?;
    port.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| host.parse().ok())
        .flatten()
}
