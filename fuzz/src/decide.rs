//! `decide`: every way of asking the same question gives the same answer.
//!
//! For each profile, `RobotsTxt::decide` (one question, the rules tried
//! uncompiled), a fresh per-crawler view's first answer (also tried
//! uncompiled), a view whose rules are compiled (by asking it for the
//! matching rules first), and the streaming `decide_once` (which reads the
//! bytes without building a model) must agree on the verdict, its reason,
//! the deciding line and rule, and the `index.html` alias.

use std::fmt::Debug;

use crawlgate::{decide_once_with, Profile, Reason, RobotsTxt, RuleKind, Verdict};

use crate::input;

/// What two answers to one question must share.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    allowed: bool,
    reason: Reason,
    line: Option<u32>,
    rule: Option<(RuleKind, String)>,
    via_index_alias: bool,
}

impl From<&Verdict<'_>> for Answer {
    fn from(verdict: &Verdict<'_>) -> Self {
        Answer {
            allowed: verdict.is_allowed(),
            reason: verdict.reason(),
            line: verdict.line(),
            rule: verdict.rule().map(|r| (r.kind(), r.value().to_owned())),
            via_index_alias: verdict.via_index_alias(),
        }
    }
}

/// Splits `data` into robots.txt bytes and a question (see [`input`]) and
/// checks that every way of deciding agrees, under every profile.
///
/// ```
/// crawlgate_fuzz::decide::check(b"User-agent: a\nAllow: /x/index.html\n\xFFa\xFF/x/");
/// ```
pub fn check(data: &[u8]) {
    let (bytes, question) = input::split(data);
    for profile in Profile::ALL {
        let robots = RobotsTxt::parse_with(bytes, profile);
        let questions = match &question {
            Some(q) => vec![q.clone()],
            None => input::questions(&robots),
        };
        for (agent, url) in &questions {
            agree(bytes, profile, &robots, agent, url);
        }
    }
}

fn agree(bytes: &[u8], profile: Profile, robots: &RobotsTxt, agent: &str, url: &str) {
    let one_question = Answer::from(&robots.decide(agent, url));
    let first_of_view = Answer::from(&robots.view(agent).decide(url));
    // Asking a view for its matching rules compiles them: its answers are
    // then looked up.
    let view = robots.view(agent);
    let matching = view.matching_rules(url);
    let verdict = view.decide(url);
    let compiled = Answer::from(&verdict);
    let once = decide_once_with(bytes, profile, agent, url);
    let streamed = Answer {
        allowed: once.is_allowed(),
        reason: once.reason(),
        line: once.line(),
        rule: once.rule().map(|(kind, value)| (kind, value.into_owned())),
        via_index_alias: once.via_index_alias(),
    };
    let context = || {
        format!(
            "[{profile}] agent={agent:?} url={url:?}\nrobots.txt: {:?}",
            String::from_utf8_lossy(bytes)
        )
    };
    same(
        "RobotsTxt::decide",
        &one_question,
        "compiled view",
        &compiled,
        context,
    );
    same(
        "first answer of a view",
        &first_of_view,
        "compiled view",
        &compiled,
        context,
    );
    same(
        "decide_once",
        &streamed,
        "compiled view",
        &compiled,
        context,
    );

    // The deciding rule is the first of the matching rules, in precedence
    // order.
    if let (Reason::Rule | Reason::EmptyRule, Some(rule)) = (verdict.reason(), verdict.rule()) {
        let winner = matching.first().map(|m| m.rule.line());
        assert_eq!(
            winner,
            Some(rule.line()),
            "deciding rule is not the first matching rule ({matching:?})\n{}",
            context()
        );
    }
}

fn same<T: Debug + PartialEq>(
    a_name: &str,
    a: &T,
    b_name: &str,
    b: &T,
    context: impl Fn() -> String,
) {
    assert!(
        a == b,
        "{a_name} and {b_name} disagree\n{a_name}: {a:?}\n{b_name}: {b:?}\n{}",
        context()
    );
}
