//! W3C extended log format (IIS and others): `#Fields:` directives name the
//! columns, and may change mid-file; values are separated by spaces, `-`
//! is empty, the user agent has `+` for its spaces, and the path (stem)
//! and query are apart.

use std::borrow::Cow;

use crate::format::template::parse_ip;
use crate::record::Request;
use crate::time::parse_w3c;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Date,
    Time,
    ClientIp,
    Method,
    Stem,
    Query,
    Uri,
    Status,
    UserAgent,
    Host,
    ForwardedFor,
    Skip,
}

fn column(name: &str) -> Column {
    match name.to_ascii_lowercase().as_str() {
        "date" => Column::Date,
        "time" => Column::Time,
        "c-ip" => Column::ClientIp,
        "cs-method" => Column::Method,
        "cs-uri-stem" => Column::Stem,
        "cs-uri-query" => Column::Query,
        "cs-uri" => Column::Uri,
        "sc-status" => Column::Status,
        "cs(user-agent)" => Column::UserAgent,
        "cs-host" | "cs(host)" => Column::Host,
        "cs(x-forwarded-for)" => Column::ForwardedFor,
        _ => Column::Skip,
    }
}

/// The columns in force, as the last `#Fields:` directive named them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct W3c {
    columns: Option<Vec<Column>>,
}

/// The values of one line: space separated, a `"…"` value may hold
/// spaces (`""` is a quote inside it).
fn values(line: &str) -> Vec<Cow<'_, str>> {
    let mut out = Vec::new();
    let mut rest = line.trim_end_matches(['\r', '\n']);
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() {
            return out;
        }
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices().peekable();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                if c == '"' {
                    if matches!(chars.peek(), Some((_, '"'))) {
                        value.push('"');
                        chars.next();
                        continue;
                    }
                    end = i + 1;
                    break;
                }
                value.push(c);
            }
            out.push(Cow::Owned(value));
            rest = &quoted[end.min(quoted.len())..];
        } else {
            let end = rest.find([' ', '\t']).unwrap_or(rest.len());
            out.push(Cow::Borrowed(&rest[..end]));
            rest = &rest[end..];
        }
    }
}

fn dash_empty(value: Cow<'_, str>) -> Option<Cow<'_, str>> {
    (value != "-" && !value.is_empty()).then_some(value)
}

impl W3c {
    /// Reads a directive line (`#Fields: …`, `#Date: …`); `false` for a
    /// line that is no directive.
    ///
    /// ```
    /// use crawlgate_audit::format::W3c;
    /// let mut w3c = W3c::default();
    /// assert!(w3c.directive("#Fields: date time c-ip cs-method cs-uri-stem cs-uri-query sc-status cs(User-Agent)"));
    /// let r = w3c.parse("2026-11-27 10:00:00 40.77.167.1 GET /a b=1 200 Mozilla/5.0+(compatible;+bingbot/2.0)").unwrap();
    /// assert_eq!(r.target.as_deref(), Some("/a?b=1"));
    /// assert_eq!(r.user_agent, "Mozilla/5.0 (compatible; bingbot/2.0)");
    /// ```
    pub fn directive(&mut self, line: &str) -> bool {
        let Some(directive) = line.strip_prefix('#') else {
            return false;
        };
        if let Some((name, rest)) = directive.split_once(':')
            && name.trim().eq_ignore_ascii_case("fields")
        {
            self.columns = Some(rest.split_whitespace().map(column).collect());
        }
        true
    }

    /// Reads one request line under the columns in force.
    pub fn parse<'a>(&self, line: &'a str) -> Result<Request<'a>, &'static str> {
        let columns = self
            .columns
            .as_ref()
            .ok_or("no #Fields directive before this line")?;
        let values = values(line);
        if values.len() != columns.len() {
            return Err("the line does not have the columns #Fields names");
        }
        let mut date = None;
        let mut time = None;
        let mut ip = None;
        let mut stem = None;
        let mut query = None;
        let mut request = Request::new(std::net::Ipv4Addr::UNSPECIFIED.into());
        for (column, value) in columns.iter().zip(values) {
            match column {
                Column::Date => date = Some(value),
                Column::Time => time = Some(value),
                Column::ClientIp => ip = Some(value),
                Column::Method => request.method = dash_empty(value),
                Column::Stem => stem = dash_empty(value),
                Column::Query => query = dash_empty(value),
                Column::Uri => request.target = dash_empty(value),
                Column::Status => {
                    request.status = match dash_empty(value) {
                        Some(v) => Some(
                            v.parse::<u16>()
                                .ok()
                                .filter(|s| (100..1000).contains(s))
                                .ok_or("the status is not a number")?,
                        ),
                        None => None,
                    }
                }
                Column::UserAgent => {
                    request.user_agent = match dash_empty(value) {
                        Some(ua) if ua.contains('+') => Cow::Owned(ua.replace('+', " ")),
                        Some(ua) => ua,
                        None => Cow::Borrowed(""),
                    }
                }
                Column::Host => request.host = dash_empty(value),
                Column::ForwardedFor => request.forwarded_for = dash_empty(value),
                Column::Skip => {}
            }
        }
        request.ip = parse_ip(ip.as_deref().ok_or("no c-ip column")?)?;
        if let (Some(date), Some(time)) = (&date, &time) {
            request.time = Some(parse_w3c(date, time).ok_or("the date or time cannot be read")?);
        }
        if let Some(stem) = stem {
            request.target = Some(match query {
                Some(q) => Cow::Owned(format!("{stem}?{q}")),
                None => stem,
            });
        }
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_change_mid_file() {
        let mut w3c = W3c::default();
        assert_eq!(
            w3c.parse("x").unwrap_err(),
            "no #Fields directive before this line"
        );
        assert!(w3c.directive("#Software: Microsoft Internet Information Services 10.0"));
        assert!(w3c.directive("#Fields: date time c-ip cs-uri-stem sc-status"));
        let r = w3c.parse("2026-11-27 10:00:00 ::1 /a 200").unwrap();
        assert_eq!(
            (r.target.as_deref(), r.user_agent.as_ref()),
            (Some("/a"), "")
        );
        assert!(w3c
            .directive("#Fields: c-ip date time cs(User-Agent) cs-uri-stem cs-uri-query cs-host"));
        let r = w3c
            .parse(r#"10.0.0.1 2026-11-27 10:00:01 "quoted ""agent""" /b - example.com"#)
            .unwrap();
        assert_eq!(r.user_agent, "quoted \"agent\"");
        assert_eq!(
            (r.target.as_deref(), r.host.as_deref()),
            (Some("/b"), Some("example.com"))
        );
        assert!(w3c
            .parse("10.0.0.1 2026-11-27")
            .unwrap_err()
            .contains("columns"));
        assert!(!w3c.directive("10.0.0.1 …"));
    }
}
