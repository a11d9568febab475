//! Pieces of wording the rules share: a rule quoted with its line, lists
//! of lines and names, what a verdict says.

use std::borrow::Borrow;

use crawlgate::{Reason, Rule, Verdict};

/// "`Disallow: /x` (line 3)".
pub(crate) fn quote_rule(rule: &Rule<'_>) -> String {
    format!("`{rule}` (line {})", rule.line())
}

/// "line 3", "lines 3 and 5", "lines 3, 5 and 9".
pub(crate) fn lines_phrase(lines: &[u32]) -> String {
    /// Beyond this many, the rest are counted, not listed.
    const LISTED: usize = 8;
    match lines {
        [] => "no line".to_owned(),
        [one] => format!("line {one}"),
        [init @ .., last] if lines.len() <= LISTED => {
            let init: Vec<String> = init.iter().map(u32::to_string).collect();
            format!("lines {} and {last}", init.join(", "))
        }
        _ => {
            let shown: Vec<String> = lines[..LISTED].iter().map(u32::to_string).collect();
            format!(
                "lines {} and {} more",
                shown.join(", "),
                lines.len() - LISTED
            )
        }
    }
}

/// "`a`, `b` and `c`".
pub(crate) fn and_list<S: Borrow<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.borrow().to_owned(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last.borrow()),
    }
}

/// What a verdict says, with its reason: "disallows it (`Disallow: /` on
/// line 3)", "allows it (no rule matches)".
/// With `plural`, "allow it" / "disallow it".
pub(crate) fn describe_verdict(verdict: &Verdict<'_>, plural: bool) -> String {
    let outcome = match (verdict.is_allowed(), plural) {
        (true, false) => "allows it",
        (false, false) => "disallows it",
        (true, true) => "allow it",
        (false, true) => "disallow it",
    };
    let why = match (verdict.reason(), verdict.rule()) {
        (Reason::Rule, Some(rule)) if verdict.via_index_alias() => {
            format!("{} through its `index.html` alias", quote_rule(&rule))
        }
        (Reason::Rule, Some(rule)) => quote_rule(&rule),
        (Reason::EmptyRule, Some(rule)) => format!("the empty {}", quote_rule(&rule)),
        (Reason::NoGroup, _) => "no group applies".to_owned(),
        (Reason::RobotsTxt, _) => "`/robots.txt` is always allowed".to_owned(),
        _ => "no rule matches".to_owned(),
    };
    format!("{outcome} ({why})")
}
