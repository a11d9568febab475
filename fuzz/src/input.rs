//! How a fuzz input becomes robots.txt bytes and the questions to ask of
//! them.
//!
//! A `decide` input may carry its own question: `robots ␣ 0xFF agent 0xFF
//! url`, split at the last two `0xFF` bytes (a byte that never occurs in
//! UTF-8, so the agent and URL are read as text while the robots.txt part
//! keeps any bytes). An input without two separators, such as a real-world
//! file, is asked [`questions`] derived from its own groups and rules.

use crawlgate::RobotsTxt;

/// Separates the robots.txt bytes, the agent and the URL of an input.
pub const SEPARATOR: u8 = 0xFF;

/// At most this many agents and URLs are derived from one file, to keep
/// each execution short.
const MAX_AGENTS: usize = 2;
const MAX_URLS: usize = 6;

/// An input split into robots.txt bytes and, when it names one, its
/// `(agent, url)` question.
pub fn split(data: &[u8]) -> (&[u8], Option<(String, String)>) {
    let mut parts = data.rsplitn(3, |&b| b == SEPARATOR);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(url), Some(agent), Some(robots)) => (
            robots,
            Some((
                String::from_utf8_lossy(agent).into_owned(),
                String::from_utf8_lossy(url).into_owned(),
            )),
        ),
        _ => (data, None),
    }
}

/// Agents and URLs worth asking of a parsed file: the names its first
/// user-agent lines give (token and value as written), a crawler no group
/// names, and paths built from its first rules so that they match, nearly
/// match, or sit just past a pattern.
pub fn questions(robots: &RobotsTxt) -> Vec<(String, String)> {
    let mut agents: Vec<String> = Vec::new();
    for agent in robots.user_agents() {
        for name in [agent.token(), agent.value()] {
            if agents.len() < MAX_AGENTS && !agents.iter().any(|a| a == name) {
                agents.push(name.to_owned());
            }
        }
    }
    agents.push("crawlgatebot".to_owned());

    let mut urls = vec!["/".to_owned(), "https://example.com/robots.txt".to_owned()];
    for rule in robots.rules() {
        if urls.len() >= MAX_URLS {
            break;
        }
        urls.extend(paths_near(rule.pattern()));
    }
    urls.truncate(MAX_URLS);

    agents
        .iter()
        .flat_map(|agent| urls.iter().map(move |url| (agent.clone(), url.clone())))
        .collect()
}

/// A path a pattern matches (`*` filled with `x`, the `$` anchor dropped),
/// the same path one byte longer, and one character shorter.
fn paths_near(pattern: &str) -> [String; 3] {
    let body = pattern
        .strip_suffix('$')
        .unwrap_or(pattern)
        .replace('*', "x");
    let path = if body.starts_with('/') {
        body
    } else {
        format!("/{body}")
    };
    let mut shorter = path.clone();
    shorter.pop();
    let longer = format!("{path}z");
    [path, longer, shorter]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_two_separators_split_the_input() {
        let (robots, question) = split(b"User-agent: *\n\xFFDisallow\xFFbot\xFF/x");
        assert_eq!(robots, b"User-agent: *\n\xFFDisallow");
        assert_eq!(question, Some(("bot".to_owned(), "/x".to_owned())));
        let (robots, question) = split(b"User-agent: *\xFF/x");
        assert_eq!(robots, b"User-agent: *\xFF/x");
        assert_eq!(question, None);
    }

    #[test]
    fn questions_come_from_the_file() {
        let robots = RobotsTxt::parse(b"User-agent: Foo/1.0\nDisallow: /a*b$\n");
        let questions = questions(&robots);
        let agents: Vec<&str> = questions.iter().map(|(a, _)| a.as_str()).collect();
        assert!(agents.contains(&"Foo") && agents.contains(&"Foo/1.0"));
        assert!(agents.contains(&"crawlgatebot"));
        let urls: Vec<&str> = questions.iter().map(|(_, u)| u.as_str()).collect();
        for url in ["/", "/axb", "/axbz", "/ax"] {
            assert!(urls.contains(&url), "{url} missing from {urls:?}");
        }
    }
}
