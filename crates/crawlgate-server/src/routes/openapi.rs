//! `GET /openapi.json`: the OpenAPI 3.1 document, generated from the
//! handlers and types, then made exact where a derive cannot say it: the
//! running server's limits as `maxLength` and `maxItems`, exactly one of
//! `robots_txt`, `robots_txt_b64` and `url`, the profile names, the error
//! answers every operation can give, and an example for every operation.
//! A request the document calls valid is answered (2xx, or 403, 404, 429
//! for what is refused, absent or rate limited); one it calls invalid is
//! answered 4xx.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use utoipa::OpenApi;

use super::check::PROFILE_NAMES;
use super::source::{b64_max_chars, BASE64_PATTERN};
use super::{
    allowed, check, health, lint, policy, report, robots, schedule, tester, variants, verify,
};
use crate::config::Limits;
use crate::error::{ErrorBody, ErrorDetail};
use crate::reading::READING_NAMES;
use crate::state::AppState;
use crate::verdict::{FetchInfo, LicenseShown};
use crawlgate_answers::{Preferences, ReportCounts, ReportLine, SignalShown, UsageShown};

/// The API description, as derived from the code (see [`document`] for the
/// one served).
#[derive(OpenApi)]
#[openapi(
    info(
        title = "crawlgate",
        description = "robots.txt as Google reads it: a sidecar for crawler fleets (may agent X fetch URL Y, and when?) and a robots.txt tester. Every 4xx and 5xx answer has the JSON body ErrorBody; unknown query parameters are ignored and named in the Crawlgate-Ignored-Parameters response header."
    ),
    paths(
        allowed::one,
        allowed::many,
        check::check,
        lint::lint,
        report::report,
        policy::policy,
        robots::cached,
        robots::version,
        robots::refresh,
        variants::variants,
        schedule::reset,
        tester::crawlers,
        verify::verify,
        health::healthz,
        health::metrics,
    ),
    components(schemas(
        ErrorBody,
        ErrorDetail,
        FetchInfo,
        allowed::Allowed,
        allowed::Reservation,
        allowed::Pair,
        allowed::AllowedBatch,
        allowed::AllowedResults,
        allowed::BatchItem,
        check::CheckRequest,
        check::CheckResponse,
        check::CheckResult,
        lint::LintRequest,
        lint::LintResponse,
        lint::Counts,
        report::ReportRequest,
        report::ReportResponse,
        policy::PolicyRequest,
        policy::PolicyResponse,
        policy::ProofShown,
        policy::ServerRulesShown,
        ReportCounts,
        ReportLine,
        Preferences,
        UsageShown,
        SignalShown,
        LicenseShown,
        robots::RobotsState,
        robots::GroupSummary,
        robots::HistoryItem,
        robots::VersionBody,
        variants::Variants,
        variants::Variant,
        schedule::ScheduleReset,
        tester::KnownCrawler,
        verify::VerifyRequest,
        verify::VerifyResponse,
        verify::VerifiedCrawler,
        tester::CrawlerSource,
        health::Health,
    ))
)]
pub struct ApiDoc;

/// The document, with this server's limits.
pub async fn document(State(state): State<AppState>) -> Json<Value> {
    Json(described(state.limits()))
}

/// The API description for a server with `limits`.
///
/// ```
/// let doc = crawlgate_server::described(&crawlgate_server::Limits::default());
/// let url = &doc["paths"]["/v1/allowed"]["get"]["parameters"][0];
/// assert_eq!(url["schema"]["format"], "uri");
/// assert_eq!(url["schema"]["maxLength"], 8192);
/// ```
pub fn described(limits: &Limits) -> Value {
    let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or(Value::Null);
    exact_requests(&mut doc, limits);
    every_error(&mut doc);
    examples(&mut doc);
    doc
}

/// A string parameter or property that holds an absolute http(s) URL.
fn url_schema(limits: &Limits) -> Value {
    json!({
        "type": "string",
        "format": "uri",
        "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
        "maxLength": limits.max_url_chars,
    })
}

fn exact_requests(doc: &mut Value, limits: &Limits) {
    let schemas = &mut doc["components"]["schemas"];
    let profile = json!({
        "description": "The reading: google, rfc9309, legacy, bing or yandex. /v1/check reads a crawler by its operator's own parser's reading (bing for Bing's crawlers, yandex for Yandex's robots) unless one is named, else google; /v1/lint by google.",
        "type": ["string", "null"],
        "enum": PROFILE_NAMES.iter().map(|p| json!(p)).chain([Value::Null]).collect::<Vec<_>>(),
    });
    // The source of a file: exactly one of three, each a string when given
    // (null counts as absent).
    let reading = json!({
        "description": "How the agent is read: crawler (the default: the crawler registry's rules) or one-token (one product token, exactly as Google's library reads it).",
        "type": ["string", "null"],
        "enum": READING_NAMES.iter().map(|r| json!(r)).chain([Value::Null]).collect::<Vec<_>>(),
    });
    let sources = |schema: &mut Value, with_profile: bool| {
        let properties = &mut schema["properties"];
        properties["robots_txt"] = json!({
            "description": "The file's text (at most this many characters).",
            "type": ["string", "null"],
            "maxLength": limits.max_robots_bytes,
        });
        properties["robots_txt_b64"] = json!({
            "description": "The file's bytes in standard base64 with padding, for a file that is not UTF-8.",
            "type": ["string", "null"],
            "format": "byte",
            "pattern": BASE64_PATTERN,
            "maxLength": b64_max_chars(limits.max_robots_bytes),
        });
        let mut url = url_schema(limits);
        url["type"] = json!(["string", "null"]);
        url["description"] =
            json!("A URL of the site whose robots.txt to fetch (or reuse from the cache).");
        properties["url"] = url;
        if with_profile {
            properties["profile"] = profile.clone();
        }
        schema["oneOf"] = json!([
            {"required": ["robots_txt"], "properties": {"robots_txt": {"type": "string"}}},
            {"required": ["robots_txt_b64"], "properties": {"robots_txt_b64": {"type": "string"}}},
            {"required": ["url"], "properties": {"url": {"type": "string"}}},
        ]);
        schema["additionalProperties"] = json!(false);
    };
    sources(&mut schemas["CheckRequest"], true);
    sources(&mut schemas["LintRequest"], true);
    sources(&mut schemas["ReportRequest"], false);
    schemas["ReportRequest"]["properties"]["flagged_only"] =
        json!({"type": "boolean", "description": "Only the flagged lines in `lines`."});
    schemas["CheckRequest"]["properties"]["reading"] = reading.clone();
    schemas["AllowedBatch"]["properties"]["reading"] = reading.clone();
    let check = &mut schemas["CheckRequest"]["properties"];
    check["agent"]["maxLength"] = json!(limits.max_agent_chars);
    check["urls"]["maxItems"] = json!(limits.max_pairs);
    check["urls"]["items"] = json!({"type": "string", "maxLength": limits.max_url_chars});
    check["all_profiles"] =
        json!({"type": "boolean", "description": "Also give the verdict under every profile."});
    let verify = &mut schemas["VerifyRequest"];
    verify["properties"]["ip"]["maxLength"] = json!(64);
    verify["properties"]["ip"]["minLength"] = json!(1);
    verify["properties"]["user_agent"]["maxLength"] = json!(limits.max_agent_chars);
    verify["additionalProperties"] = json!(false);
    let lint = &mut schemas["LintRequest"]["properties"];
    lint["audit"] =
        json!({"type": "boolean", "description": "Also say what each known crawler gets."});
    lint["legacy"] =
        json!({"type": "boolean", "description": "Also compare with the legacy reading."});

    // A policy: its purposes and accesses by name, its lists bounded, the
    // file to merge into as long as any file.
    let access = json!({"type": "string", "enum": ["allow", "deny"]});
    let purposes: serde_json::Map<String, Value> = crawlgate_policy::Purpose::ALL
        .iter()
        .map(|p| (p.as_str().to_owned(), access.clone()))
        .collect();
    let policy = &mut schemas["PolicyRequest"];
    policy["additionalProperties"] = json!(false);
    let properties = &mut policy["properties"];
    properties["purposes"]["properties"] = Value::Object(purposes);
    properties["purposes"]["additionalProperties"] = json!(false);
    properties["crawlers"]["additionalProperties"] = access.clone();
    properties["crawlers"]["propertyNames"] = json!({
        "enum": crawlgate::registry::crawlers().iter().map(|c| c.name).collect::<Vec<_>>(),
    });
    properties["crawlers"]["maxProperties"] = json!(policy::MAX_ITEMS);
    // A path as robots.txt writes one: `/`, no spaces, quotes, backslash
    // or `#`, `$` only at its end.
    let path = json!({"type": "string", "pattern": "^/[^\\s#\"'`\\\\$]{0,1998}[$]?$"});
    properties["private"]["items"] = path.clone();
    properties["private"]["maxItems"] = json!(policy::MAX_ITEMS);
    let mut honeypot = path;
    honeypot["type"] = json!(["string", "null"]);
    honeypot["pattern"] = json!("^/[^\\s#\"'`\\\\$*]{1,1998}$");
    properties["honeypot"] = honeypot;
    let absolute = json!({"type": "string", "pattern": "^https?://[A-Za-z0-9.-]+(/[^\\s#]*)?$", "maxLength": 2000});
    properties["sitemaps"]["items"] = absolute.clone();
    properties["sitemaps"]["maxItems"] = json!(policy::MAX_ITEMS);
    let mut license = absolute;
    license["type"] = json!(["string", "null"]);
    properties["license"] = license;
    properties["crawl_delay"] = json!({"type": ["number", "null"], "minimum": 1, "maximum": 30});
    properties["robots_txt"] = json!({
        "description": "The site's robots.txt to merge the policy into (at most this many bytes); absent: a new file.",
        "type": ["string", "null"],
        "maxLength": limits.max_robots_bytes,
    });

    // In a batch, a URL that is not one is that pair's error, not the
    // request's: any non-empty string is accepted.
    let pair = &mut schemas["Pair"];
    pair["properties"]["url"] = json!({
        "type": "string",
        "minLength": 1,
        "maxLength": limits.max_url_chars,
        "description": "The absolute URL (http or https); anything else is answered with an error for this pair.",
    });
    pair["properties"]["agent"] = json!({"type": "string", "maxLength": limits.max_agent_chars});
    pair["additionalProperties"] = json!(false);
    let batch = &mut schemas["AllowedBatch"];
    batch["properties"]["pairs"]["maxItems"] = json!(limits.max_pairs);
    batch["properties"]["reserve"] = json!({"type": "boolean", "description": "Reserve a request slot for each allowed pair (default false)."});
    batch["additionalProperties"] = json!(false);

    // Query parameters: the URLs, the agent, the flags (optional).
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for item in paths.values_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for operation in operations.values_mut() {
            // `get_mut`: indexing would add a null `parameters`.
            let Some(parameters) = operation
                .get_mut("parameters")
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            for parameter in parameters {
                let name = parameter["name"].as_str().unwrap_or_default().to_owned();
                let example = parameter["schema"]["example"].clone();
                let schema = match name.as_str() {
                    "url" | "origin" => url_schema(limits),
                    "agent" => json!({"type": "string", "maxLength": limits.max_agent_chars}),
                    "reserve" | "fetch" => {
                        parameter["required"] = json!(false);
                        json!({"type": "boolean"})
                    }
                    "reading" => {
                        parameter["required"] = json!(false);
                        json!({"type": "string", "enum": READING_NAMES})
                    }
                    "id" => json!({"type": "integer", "minimum": 0, "maximum": u64::MAX}),
                    _ => continue,
                };
                parameter["schema"] = schema;
                if !example.is_null() {
                    parameter["example"] = example;
                }
            }
        }
    }
}

/// The errors any operation may answer: the admission middleware's (a
/// request target over the limit, a body over the limit, too slow or
/// unreadable, no request slot in time), hyper's (headers too large), the
/// router's (a method the route does not answer) and the cache backend's.
const ANY_ROUTE: [(&str, &str); 7] = [
    (
        "400",
        "A malformed request, an unreadable body or an invalid parameter",
    ),
    (
        "405",
        "A method this route does not answer (the Allow header lists those it does)",
    ),
    ("408", "The body did not arrive within the body timeout"),
    ("413", "The body is over the limit"),
    ("414", "The request target is over the limit"),
    ("431", "The request headers are too large"),
    (
        "503",
        "Busy (no slot, memory or worker within the queue timeout), or the cache backend failed",
    ),
];

/// The errors of an operation that may fetch a robots.txt.
const FETCHING: [(&str, &str); 3] = [
    ("403", "The robots.txt host is a private, loopback or link-local address"),
    ("422", "A URL whose scheme is not fetched (neither http nor https)"),
    ("429", "Not fetched: the request's or the client's fetch allowance is spent, or refreshed too recently"),
];

/// The operations that may fetch a robots.txt (a URL given, or `fetch=true`).
/// `GET /v1/variants` fetches too, but answers a refused or unfetched
/// variant inside its 200, never with the fetch's status.
const FETCHING_OPERATIONS: [(&str, &str); 7] = [
    ("/v1/allowed", "get"),
    ("/v1/allowed", "post"),
    ("/v1/check", "post"),
    ("/v1/lint", "post"),
    ("/v1/report", "post"),
    ("/v1/robots", "get"),
    ("/v1/refresh", "post"),
];

/// The error of an operation that looks something up by key.
const LOOKUP: [(&str, &str); 1] = [("404", "Nothing known for this key")];

/// The operations that look something up by key, and answer 404 when
/// nothing is known for it.
const LOOKUP_OPERATIONS: [(&str, &str); 2] = [("/v1/robots", "get"), ("/v1/robots/version", "get")];

/// The errors each operation may answer besides its own annotations: every
/// operation the middleware's; those that fetch, the fetch's (403, 422,
/// 429); those that look up a key, 404. Nothing else, so a client reads
/// per route what it must handle.
fn every_error(doc: &mut Value) {
    let error = json!({
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    });
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in operations.iter_mut() {
            let Some(responses) = operation
                .get_mut("responses")
                .and_then(Value::as_object_mut)
            else {
                continue;
            };
            let this = (path.as_str(), method.as_str());
            let fetching = FETCHING_OPERATIONS
                .contains(&this)
                .then_some(FETCHING.as_slice());
            let lookup = LOOKUP_OPERATIONS
                .contains(&this)
                .then_some(LOOKUP.as_slice());
            let own = [Some(ANY_ROUTE.as_slice()), fetching, lookup];
            for (status, description) in own.into_iter().flatten().flatten() {
                responses.entry(*status).or_insert_with(|| {
                    let mut answer = error.clone();
                    answer["description"] = json!(description);
                    answer
                });
            }
        }
    }
}

/// One example per operation that has a body (parameters carry theirs).
fn examples(doc: &mut Value) {
    let bodies = [
        (
            "/v1/allowed",
            "post",
            json!({"pairs": [
                {"url": "https://example.com/private/page.html", "agent": "Googlebot"},
                {"url": "https://example.com/", "agent": "Bingbot"},
                {"url": "https://example.com/photo.jpg", "agent": "Googlebot-Image"}
            ], "reading": "crawler", "reserve": false}),
        ),
        (
            "/v1/check",
            "post",
            json!({
                "robots_txt": "User-agent: *\nDisallow: /private/\nAllow: /private/open\nContent-Usage: train-ai=n\n\nUser-agent: Googlebot\nDisallow: /private/\n",
                "agent": "Googlebot-Image",
                "reading": "crawler",
                "urls": ["https://example.com/private/x", "/private/open", ""],
                "all_profiles": true
            }),
        ),
        (
            "/v1/verify",
            "post",
            json!({"ip": "66.249.66.1", "user_agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}),
        ),
        (
            "/v1/lint",
            "post",
            json!({"robots_txt": "User-agent: *\nDisalow: /private\n", "profile": "google"}),
        ),
        (
            "/v1/policy",
            "post",
            json!({
                "purposes": {"search": "allow", "ai-train": "deny"},
                "private": ["/admin/"],
                "robots_txt": "User-agent: *\nDisallow: /tmp/\n"
            }),
        ),
        (
            "/v1/report",
            "post",
            json!({"robots_txt": "User-agent: *\nDisalow: /private\nDisallow /tmp\nCrawl-delay: 5\n"}),
        ),
    ];
    for (path, method, example) in bodies {
        let content = &mut doc["paths"][path][method]["requestBody"]["content"]["application/json"];
        if content.is_object() {
            content["example"] = example;
        }
    }
}
