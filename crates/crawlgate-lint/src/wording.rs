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
    let [init @ .., last] = items else {
        return String::new();
    };
    // Built in one allocation: a list can run to kilobytes (`R101` names
    // the crawlers of a group, up to 4 KiB of names in each finding).
    let separators = match init.len() {
        0 => 0,
        n => ", ".len() * (n - 1) + " and ".len(),
    };
    let length = items.iter().map(|s| s.borrow().len()).sum::<usize>() + separators;
    let mut list = String::with_capacity(length);
    for (i, item) in init.iter().enumerate() {
        if i > 0 {
            list.push_str(", ");
        }
        list.push_str(item.borrow());
    }
    if !init.is_empty() {
        list.push_str(" and ");
    }
    list.push_str(last.borrow());
    list
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

#[cfg(test)]
mod tests {
    use super::and_list;

    #[test]
    fn lists_join_with_commas_and_a_last_and_in_one_allocation() {
        let names = ["`a`", "`bb`", "`ccc`", "`dddd` (line 4)", "3 more"];
        let want = [
            "",
            "`a`",
            "`a` and `bb`",
            "`a`, `bb` and `ccc`",
            "`a`, `bb`, `ccc` and `dddd` (line 4)",
            "`a`, `bb`, `ccc`, `dddd` (line 4) and 3 more",
        ];
        for (n, want) in want.iter().enumerate() {
            let list = and_list(&names[..n]);
            assert_eq!(list, *want);
            // Sized exactly: no growth while it was written.
            assert_eq!(list.capacity(), list.len());
            let owned: Vec<String> = names[..n].iter().map(|s| s.to_string()).collect();
            assert_eq!(and_list(&owned), *want);
        }
    }
}
