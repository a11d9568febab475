//! `R016` nul-byte: a NUL byte, which ends the content of its line

use crawlgate::Code::NulByte;

use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::rule::RuleInfo;

/// The rule's registration.
pub(crate) static RULE: RuleInfo = RuleInfo::new(
    Code::Parse(NulByte),
    r#"## What it does

Reports NUL bytes; a file saved as UTF-16 (every other byte NUL) is one
finding, not one per line.

## Why it matters

Google's reference parser works on C strings: the rest of the line after a
NUL is ignored. A UTF-16 file is full of them.

## Example

```text
User-agent: *
Disallow: /a<NUL>/b
```

## Use instead

```text
User-agent: *
Disallow: /a/b
```
"#,
    check,
);

/// Whether the bytes look like UTF-16 text: a UTF-16 byte order mark, or
/// every other byte NUL in the first line.
fn looks_like_utf16(source: &[u8]) -> bool {
    if source.starts_with(&[0xFF, 0xFE]) || source.starts_with(&[0xFE, 0xFF]) {
        return true;
    }
    let head = &source[..source.len().min(64)];
    head.len() >= 8 && head.iter().skip(1).step_by(2).all(|&b| b == 0)
}

fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut nuls = cx.parser_findings(NulByte);
    let Some(mut first) = nuls.next() else {
        return;
    };
    if !looks_like_utf16(cx.source) {
        out.push(first);
        out.extend(nuls);
        return;
    }
    // One finding for a UTF-16 file, not one per line.
    let more = nuls.count();
    let d = &mut first;
    d.message = format!(
        "the file is UTF-16, not UTF-8: every other byte is NUL, which ends the content of \
         its line, so crawlers read nothing useful ({} more line(s) with NUL bytes)",
        more
    )
    .into();
    out.push(first.with_fix("save the file as UTF-8", None));
}

#[cfg(test)]
crate::testing::fixture_tests!(Parse(crawlgate::Code::NulByte));
