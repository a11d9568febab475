//! `R014` file-too-large: the file is larger than 500 KiB, and what is past the limit is lost

use crawlgate::Code::FileTooLarge;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::Parse(FileTooLarge),
    r#"## What it does

Reports files larger than 500 KiB (512,000 bytes) and says which lines are
past the limit, and how many rules and user-agent lines are among them.

## Why it matters

Google reads only the first 500 KiB; a line cut by the limit is dropped.
Rules past the limit do not exist for it.

## Example

```text
User-agent: *
Disallow: /page-000000/
… (21,600 rules, 518 KB)
```

## Use instead

```text
Fewer, broader rules: Disallow: /page-
```
"#,
    check,
);

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for mut d in cx.parser_findings(FileTooLarge) {
        let first = d.span.line;
        let last = cx.lines().len() as u32;
        let mut lost_rules = 0;
        let mut lost_agents = 0;
        for n in first..=last {
            let text = cx.line_bytes(n);
            let start = text
                .iter()
                .position(|&b| b != b' ' && b != b'\t')
                .unwrap_or(text.len());
            let text = &text[start..];
            let starts = |word: &[u8]| {
                text.len() >= word.len() && text[..word.len()].eq_ignore_ascii_case(word)
            };
            if starts(b"allow") || starts(b"disallow") {
                lost_rules += 1;
            } else if starts(b"user-agent") {
                lost_agents += 1;
            }
        }
        let count = last - first + 1;
        // The parser ends with "(N bytes from line L on)": say which lines.
        let bytes = d.span.bytes.len();
        let head = d
            .message
            .strip_suffix(&format!(" ({bytes} bytes from line {first} on)"))
            .unwrap_or(&d.message)
            .to_owned();
        d.message = format!(
            "{head} ({bytes} bytes: lines {first}–{last}, {count} line{}, with {lost_rules} \
             allow/disallow and {lost_agents} user-agent line{}, are lost)",
            if count == 1 { "" } else { "s" },
            if lost_agents == 1 { "" } else { "s" },
        )
        .into();
        out.push(d);
    }
}

#[cfg(test)]
crate::testing::fixture_tests!(Parse(crawlgate::Code::FileTooLarge));
