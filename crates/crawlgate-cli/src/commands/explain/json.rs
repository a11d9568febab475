//! The explanation as JSON: the same facts as the text, for machines.

use crawlgate::{AgentView, Group, Reading as NameReading, RuleMatch, SelectionKind, Who};
use crawlgate_answers::{ChoiceRef, CleanParamsShown, Outcome, Preferences, RuleRef};
use crawlgate_fetch::FetchReport;
use serde::Serialize;
use serde_json::{json, Value};

use super::selection::{
    compared_name, names_agent, never_matching, records_between, unused_global_groups,
};
use crawlgate_answers::Robots;

use crate::load::source::Loaded;

#[derive(Serialize)]
struct JsonRule<'a> {
    line: u32,
    kind: &'static str,
    value: &'a str,
    pattern: &'a str,
    length: u32,
    text: String,
    via_index_alias: bool,
}

/// A rule as the crawler tries it: its length and the pattern it is
/// compared as.
fn json_rule<'a>(m: &RuleMatch<'a>) -> JsonRule<'a> {
    let r = RuleRef::new(m.rule, m.via_index_alias);
    JsonRule {
        line: r.line,
        kind: if r.is_allow() { "allow" } else { "disallow" },
        value: m.rule.value(),
        pattern: if m.via_index_alias {
            m.rule.index_alias().unwrap_or_default()
        } else {
            m.rule.pattern()
        },
        length: m.priority,
        text: r.text,
        via_index_alias: m.via_index_alias,
    }
}

/// One URL: the verdict, and with rules every matching one and the
/// content-usage preferences.
fn json_url(
    reading: &Robots,
    view: Option<&AgentView<'_>>,
    (agent, how): (&str, NameReading),
    url: &str,
) -> Value {
    let decided = reading.decide(Who::read(agent, how), url);
    let mut value = json!({ "url": url });
    if let (Value::Object(map), Value::Object(d)) = (
        &mut value,
        serde_json::to_value(&decided).unwrap_or_default(),
    ) {
        map.extend(d);
        if let Some(view) = view {
            let matching: Vec<JsonRule<'_>> =
                view.matching_rules(url).iter().map(json_rule).collect();
            map.insert("matching_rules".into(), json!(matching));
            map.insert(
                "content_usage".into(),
                match view.content_usage(url) {
                    Some(u) => {
                        json!({"line": u.line, "path": u.path, "preferences": u.preferences})
                    }
                    None => Value::Null,
                },
            );
            map.insert(
                "preferences".into(),
                view.preferences(url)
                    .map_or(Value::Null, |p| json!(Preferences::of(&p))),
            );
            // Yandex's Clean-param, only when it drops something.
            if let Some(dropped) = CleanParamsShown::of(view.robots(), url) {
                map.insert("clean_params".into(), json!(dropped));
            }
        }
    }
    value
}

/// The explanation as JSON.
pub fn to_json(
    (loaded, reading): (&Loaded, &Robots),
    agent: &str,
    how: NameReading,
    urls: &[String],
) -> Value {
    let fetch: Option<&FetchReport> = loaded.fetch();
    let robots = match (reading.outcome_without_rules(), reading.robots()) {
        (None, Some(robots)) => robots,
        (outcome, _) => return without_rules((loaded, reading), outcome, (agent, how), urls),
    };
    let view = robots.view(Who::read(agent, how));
    let selection = view.selection();
    let asked = agent;
    let agent = compared_name(&view, asked);
    let groups: Vec<Group<'_>> = view.groups().collect();
    let group_json = |g: &Group<'_>| {
        json!({
            "first_line": g.first_line(),
            "last_line": g.last_line(),
            "user_agents": g.user_agents().map(|ua| json!({
                "line": ua.line(),
                "value": ua.value(),
                "token": ua.token(),
                "global": ua.is_global(),
                "names_agent": names_agent(&ua, agent, selection, robots),
            })).collect::<Vec<_>>(),
            "records_between_user_agents": records_between(g, robots).iter()
                .map(|(line, field)| json!({"line": line, "field": field}))
                .collect::<Vec<_>>(),
        })
    };
    let rules = view.rules_by_precedence();
    let never: Vec<RuleRef> = never_matching(&view, &rules)
        .into_iter()
        .map(|r| RuleRef::new(r, false))
        .collect();
    let star_delay = view.star_crawl_delay();
    let mut explained = json!({
        "robots": loaded.name,
        "agent": asked,
        "reading": how.as_str(),
        "profile": robots.profile().name,
        "fetch": fetch,
        "choice": ChoiceRef::new(&view.group_choice(), asked),
        "selection": match selection {
            SelectionKind::Specific => "specific",
            SelectionKind::Global => "global",
            _ => "nothing",
        },
        "groups": groups.iter().map(group_json).collect::<Vec<_>>(),
        "unused_global_groups": unused_global_groups(&view).iter().map(group_json).collect::<Vec<_>>(),
        "rules": rules.iter().map(json_rule).collect::<Vec<_>>(),
        "never_matching_rules": never,
        "ignored_rules": robots.ignored_rules().map(|r| RuleRef::new(r, false)).collect::<Vec<_>>(),
        "extensions": view.groups().flat_map(|g| g.extensions()).map(|e| json!({
            "line": e.line(),
            "field": e.key(),
            "value": e.value(),
        })).collect::<Vec<_>>(),
        "crawl_delay": view.crawl_delay().map(|d| json!({
            "seconds": d.seconds,
            "line": d.line,
            "from_star_group": star_delay.is_some(),
            "source": star_delay.map(|(_, s)| json!({"title": s.title, "url": s.url})),
        })),
        "request_rate": view.request_rate().map(|r| json!({
            "requests": r.requests,
            "period_seconds": r.period_seconds,
            "window": r.window.map(|w| json!({"from": w.from.to_string(), "to": w.to.to_string()})),
            "line": r.line,
        })),
        "visit_time": view.visit_time().map(|w| json!({"from": w.from.to_string(), "to": w.to.to_string(), "line": w.line})),
        "content_signal": view.content_signal().map(|s| json!({"value": s.value, "line": s.line})),
        "content_usage": view.content_usage_records().iter().map(|u| json!({"line": u.line, "path": u.path, "preferences": u.preferences})).collect::<Vec<_>>(),
        "sitemaps": view.sitemaps().map(|s| json!({"line": s.line(), "url": s.url()})).collect::<Vec<_>>(),
        "urls": urls.iter().map(|u| json_url(reading, Some(&view), (asked, how), u)).collect::<Vec<_>>(),
    });
    // Licences (RSL 1.0), only when the file has some.
    let licenses: Vec<Value> = robots
        .licenses()
        .map(|l| json!({"line": l.line, "url": l.url, "absolute": l.is_absolute()}))
        .collect();
    if let (false, Value::Object(map)) = (licenses.is_empty(), &mut explained) {
        map.insert("licenses".into(), Value::Array(licenses));
    }
    // Yandex's Clean-param records, only when the file has some.
    let clean: Vec<Value> = robots
        .clean_params()
        .iter()
        .map(|c| json!({"line": c.line, "params": c.params, "path": c.path}))
        .collect();
    if let (false, Value::Object(map)) = (clean.is_empty(), &mut explained) {
        map.insert("clean_params".into(), Value::Array(clean));
    }
    explained
}

/// The explanation when the fetch outcome leaves no rules to read.
fn without_rules(
    (loaded, reading): (&Loaded, &Robots),
    outcome: Option<&Outcome>,
    (agent, how): (&str, NameReading),
    urls: &[String],
) -> Value {
    let outcome = outcome.map(|o| {
        json!({
            "kind": o.kind(),
            "reason": o.reason.to_string(),
        })
    });
    json!({
        "robots": loaded.name,
        "agent": agent,
        "reading": how.as_str(),
        "fetch": loaded.fetch(),
        "outcome": outcome,
        "urls": urls.iter().map(|u| json_url(reading, None, (agent, how), u)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::source::Loaded;
    use crawlgate::Profile;
    use crawlgate_answers::HttpResponse;

    fn local(text: &str) -> Loaded {
        Loaded::local("r", text)
    }

    #[test]
    fn a_file_explained_as_json() {
        let file = local(
            "User-agent: a\nCrawl-delay: 2\nUser-agent: b\nDisallow: /p\nDisallow: p\n\nUser-agent: *\nAllow: /\n",
        );
        let json = to_json(
            (&file, &file.read(Profile::GOOGLE)),
            "a",
            NameReading::Crawler,
            &["/p/1".to_owned()],
        );
        assert_eq!(json["robots"], "r");
        assert_eq!(json["profile"], "google");
        assert_eq!(json["selection"], "specific");
        assert_eq!(json["fetch"], Value::Null);
        let group = &json["groups"][0];
        assert_eq!(
            (group["first_line"].as_u64(), group["last_line"].as_u64()),
            (Some(1), Some(5))
        );
        assert_eq!(group["user_agents"][0]["names_agent"], true);
        assert_eq!(group["user_agents"][1]["names_agent"], false);
        assert_eq!(
            group["records_between_user_agents"],
            json!([{"line": 2, "field": "Crawl-delay"}])
        );
        assert_eq!(json["unused_global_groups"][0]["first_line"], 7);
        assert_eq!(json["never_matching_rules"][0]["text"], "Disallow: p");
        assert_eq!(
            json["crawl_delay"],
            json!({"seconds": 2.0, "line": 2, "from_star_group": false, "source": null})
        );
        let url = &json["urls"][0];
        assert_eq!(url["url"], "/p/1");
        assert_eq!(url["allowed"], false);
        assert_eq!(url["basis"], "rule");
        assert_eq!(url["rule"]["line"], 4);
        assert_eq!(url["matching_rules"][0]["length"], 2);
        assert_eq!(url["matching_rules"][0]["pattern"], "/p");
        assert_eq!(url["content_usage"], Value::Null);
    }

    #[test]
    fn the_index_alias_is_the_pattern_matched() {
        let file = local("User-agent: *\nAllow: /d/index.html\n");
        let json = to_json(
            (&file, &file.read(Profile::GOOGLE)),
            "bot",
            NameReading::Crawler,
            &["/d/".to_owned()],
        );
        let matched = &json["urls"][0]["matching_rules"][0];
        assert_eq!(matched["pattern"], "/d/$");
        assert_eq!(matched["value"], "/d/index.html");
        assert_eq!(matched["via_index_alias"], true);
    }

    #[test]
    fn a_fetch_outcome_without_rules() {
        let fetched = Loaded::fetched(HttpResponse::new(404));
        let json = to_json(
            (&fetched, &fetched.read(Profile::GOOGLE)),
            "bot",
            NameReading::Crawler,
            &["https://example.com/x".to_owned()],
        );
        assert_eq!(
            json["outcome"],
            json!({"kind": "full_allow", "reason": "no robots.txt (4xx): everything allowed"})
        );
        assert_eq!(json["fetch"]["status"], 404);
        assert_eq!(json["fetch"]["reason"], "not_found");
        let url = &json["urls"][0];
        assert_eq!(url["basis"], "full_allow");
        assert_eq!(
            url["fetch_outcome"],
            "no robots.txt (4xx): everything allowed"
        );
        assert!(url.get("matching_rules").is_none());
        assert!(json.get("groups").is_none());
    }
}
