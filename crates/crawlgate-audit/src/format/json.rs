//! JSON lines: one object per line, its fields named by configuration
//! (dotted names reach into nested objects), with a preset for Cloudflare
//! Logpush's HTTP requests dataset.

use std::borrow::Cow;

use serde_json::Value;

use crate::format::template::parse_ip;
use crate::record::{split_request_line, Request};
use crate::time::{parse_clf, parse_epoch, parse_iso8601};

/// Which JSON fields hold which part of a request. Each part lists the
/// names to try, in order; the first present wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonFields {
    /// The client address.
    pub ip: Vec<String>,
    /// The time (RFC 3339, `10/Oct/2026:…`, or an epoch number).
    pub time: Vec<String>,
    /// The `User-Agent` header.
    pub user_agent: Vec<String>,
    /// The request target (path and query) or a whole request line.
    pub url: Vec<String>,
    /// The host.
    pub host: Vec<String>,
    /// The status.
    pub status: Vec<String>,
    /// The method.
    pub method: Vec<String>,
    /// `X-Forwarded-For`.
    pub forwarded_for: Vec<String>,
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

impl Default for JsonFields {
    /// The names nginx's and common JSON log setups use.
    fn default() -> JsonFields {
        JsonFields {
            ip: names(&[
                "remote_addr",
                "client_ip",
                "clientip",
                "ip",
                "remote_ip",
                "c-ip",
            ]),
            time: names(&[
                "time",
                "timestamp",
                "@timestamp",
                "time_iso8601",
                "time_local",
                "ts",
            ]),
            user_agent: names(&["http_user_agent", "user_agent", "useragent", "agent", "ua"]),
            url: names(&["request_uri", "uri", "url", "path", "request"]),
            host: names(&["host", "http_host", "server_name", "vhost"]),
            status: names(&["status", "status_code", "response_status"]),
            method: names(&["request_method", "method"]),
            forwarded_for: names(&["http_x_forwarded_for", "x_forwarded_for", "forwarded_for"]),
        }
    }
}

impl JsonFields {
    /// Cloudflare Logpush (HTTP requests): `ClientIP`, `ClientRequestHost`,
    /// `ClientRequestURI`, `ClientRequestUserAgent`, `EdgeResponseStatus`,
    /// `EdgeStartTimestamp`, `ClientRequestMethod`.
    pub fn cloudflare() -> JsonFields {
        JsonFields {
            ip: names(&["ClientIP"]),
            time: names(&["EdgeStartTimestamp"]),
            user_agent: names(&["ClientRequestUserAgent"]),
            url: names(&["ClientRequestURI"]),
            host: names(&["ClientRequestHost"]),
            status: names(&["EdgeResponseStatus"]),
            method: names(&["ClientRequestMethod"]),
            forwarded_for: names(&["ClientRequestXForwardedFor"]),
        }
    }

    /// Sets parts from `part=name,part=name` (parts: `ip`, `time`, `ua`,
    /// `url`, `host`, `status`, `method`, `xff`); a part named replaces
    /// its defaults.
    ///
    /// ```
    /// use crawlgate_audit::format::JsonFields;
    /// let fields = JsonFields::default().with_names("ip=client.addr,ua=agent").unwrap();
    /// assert_eq!(fields.ip, ["client.addr"]);
    /// assert!(JsonFields::default().with_names("colour=x").is_err());
    /// ```
    pub fn with_names(mut self, spec: &str) -> Result<JsonFields, String> {
        for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (part, name) = pair
                .split_once('=')
                .ok_or_else(|| format!("`{pair}` is not PART=FIELD"))?;
            let slot = match part.trim() {
                "ip" => &mut self.ip,
                "time" => &mut self.time,
                "ua" | "user_agent" => &mut self.user_agent,
                "url" => &mut self.url,
                "host" => &mut self.host,
                "status" => &mut self.status,
                "method" => &mut self.method,
                "xff" | "forwarded_for" => &mut self.forwarded_for,
                other => {
                    return Err(format!(
                        "unknown part `{other}` (ip, time, ua, url, host, status, method, xff)"
                    ))
                }
            };
            *slot = vec![name.trim().to_owned()];
        }
        Ok(self)
    }

    /// Reads one line.
    pub fn parse<'a>(&self, line: &'a str) -> Result<Request<'a>, &'static str> {
        let value: Value = serde_json::from_str(line).map_err(|_| "not a JSON object")?;
        let Value::Object(_) = value else {
            return Err("not a JSON object");
        };
        let ip = text_of(&value, &self.ip).ok_or("no client address field")?;
        let mut request = Request::new(parse_ip(&ip)?);
        if let Some(time) = lookup(&value, &self.time) {
            request.time = Some(
                match time {
                    Value::Number(n) => n
                        .as_u64()
                        .and_then(|n| parse_epoch(&n.to_string()))
                        .or_else(|| {
                            n.as_f64().and_then(|f| {
                                (f.is_finite() && f >= 0.0).then_some((f * 1000.0) as i64)
                            })
                        }),
                    Value::String(s) => parse_iso8601(s)
                        .or_else(|| parse_clf(s))
                        .or_else(|| parse_epoch(s)),
                    _ => None,
                }
                .ok_or("the time cannot be read")?,
            );
        }
        if let Some(status) = lookup(&value, &self.status) {
            let status = match status {
                Value::Number(n) => n.as_u64(),
                Value::String(s) => s.parse().ok(),
                _ => None,
            };
            request.status = Some(
                status
                    .and_then(|s| u16::try_from(s).ok())
                    .filter(|s| (100..1000).contains(s))
                    .ok_or("the status is not a number")?,
            );
        }
        if let Some(url) = text_of(&value, &self.url) {
            if url.contains(' ') {
                let (method, target) = split_request_line(&url);
                request.method = method.map(|m| Cow::Owned(m.to_owned()));
                request.target = target.map(|t| Cow::Owned(t.to_owned()));
            } else if !url.is_empty() && url != "-" {
                request.target = Some(Cow::Owned(url));
            }
        }
        if let Some(method) = text_of(&value, &self.method) {
            request.method = Some(Cow::Owned(method));
        }
        request.user_agent = Cow::Owned(
            text_of(&value, &self.user_agent)
                .filter(|u| u != "-")
                .unwrap_or_default(),
        );
        request.host = text_of(&value, &self.host)
            .filter(|h| !h.is_empty() && h != "-")
            .map(Cow::Owned);
        request.forwarded_for = text_of(&value, &self.forwarded_for)
            .filter(|h| !h.is_empty() && h != "-")
            .map(Cow::Owned);
        Ok(request)
    }
}

fn lookup<'v>(value: &'v Value, names: &[String]) -> Option<&'v Value> {
    names.iter().find_map(|name| {
        let found = value
            .get(name.as_str())
            .or_else(|| name.split('.').try_fold(value, |v, part| v.get(part)))?;
        (!found.is_null()).then_some(found)
    })
}

fn text_of(value: &Value, names: &[String]) -> Option<String> {
    match lookup(value, names)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cloudflare_records() {
        let line = r#"{"ClientIP":"2a06:98c0::1","ClientRequestHost":"example.com","ClientRequestURI":"/a?b=1","ClientRequestUserAgent":"Mozilla/5.0 (compatible; bingbot/2.0)","EdgeResponseStatus":200,"EdgeStartTimestamp":1764237600123000000,"ClientRequestMethod":"GET"}"#;
        let r = JsonFields::cloudflare().parse(line).unwrap();
        assert_eq!(r.ip.to_string(), "2a06:98c0::1");
        assert_eq!(r.host.as_deref(), Some("example.com"));
        assert_eq!(r.target.as_deref(), Some("/a?b=1"));
        assert_eq!(r.status, Some(200));
        assert_eq!(r.time, Some(1_764_237_600_123));
        let rfc = line.replace("1764237600123000000", r#""2025-11-27T10:00:00.123Z""#);
        assert_eq!(
            JsonFields::cloudflare().parse(&rfc).unwrap().time,
            Some(1_764_237_600_123)
        );
    }

    #[test]
    fn defaults_and_nested_names() {
        let r = JsonFields::default()
            .parse(r#"{"remote_addr":"1.2.3.4","time_local":"27/Nov/2026:10:00:00 +0000","request":"GET /x HTTP/1.1","status":"404","http_user_agent":"ua"}"#)
            .unwrap();
        assert_eq!(
            (r.target.as_deref(), r.status, r.method.as_deref()),
            (Some("/x"), Some(404), Some("GET"))
        );
        let nested = JsonFields::default()
            .with_names("ip=client.ip,url=req.path")
            .unwrap();
        let r = nested
            .parse(r#"{"client":{"ip":"::1"},"req":{"path":"/n"}}"#)
            .unwrap();
        assert_eq!(r.target.as_deref(), Some("/n"));
        for (line, why) in [
            ("[1]", "not a JSON object"),
            ("{", "not a JSON object"),
            (r#"{"ip":"x"}"#, "not an IP"),
            (r#"{"url":"/"}"#, "no client address"),
            (r#"{"ip":"1.2.3.4","status":"2000"}"#, "status"),
            (r#"{"ip":"1.2.3.4","time":"yesterday"}"#, "time"),
        ] {
            assert!(
                JsonFields::default().parse(line).unwrap_err().contains(why),
                "{line}"
            );
        }
    }
}
