//! The parser's findings that the linter passes on as they are, one rule
//! each (`R002`–`R005`, `R010`–`R013`, `R015`): the parser's code, message
//! and fix, with the rule's documentation. The linter runs them together
//! in one pass over the parser's findings. (`R006`, `R014` and `R016` say
//! more than the parser does and have rules of their own.)

use crawlgate::Code::{
    ByteOrderMark, CrLineEndings, FieldNamePrefix, InvalidLine, InvalidUtf8, LineTooLong,
    MissingColon, MisspelledField, RuleBeforeUserAgent,
};

use crate::context::Context;
use crate::rule::RuleInfo;

/// `R002` missing-colon: a line without a colon, read as `field value` by Google only
pub(crate) static MISSING_COLON: RuleInfo = RuleInfo::passed_on(
    MissingColon,
    r#"## What it does

Reports `field value` lines that have no colon. Google reads a line with
exactly two whitespace-separated words as `field: value`; RFC 9309 parsers and
older crawlers ignore it.

## Why it matters

The line means something to Google and nothing to Bing, Yandex or a
strict parser, so crawlers disagree on what the file says.

## Example

```text
User-agent: *
Disallow /private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    None,
);

/// `R003` misspelled-field: a misspelled field name that only lenient crawlers accept
pub(crate) static MISSPELLED_FIELD: RuleInfo = RuleInfo::passed_on(
    MisspelledField,
    r#"## What it does

Reports the misspellings Google accepts (`useragent`, `user agent`,
`dissallow`, `dissalow`, `disalow`, `diasllow`, `disallaw`, `site-map`).

## Why it matters

Google reads `Dissallow: /x` as a disallow; RFC 9309 parsers and most other
crawlers ignore the line, so `/x` is crawled by them.

## Example

```text
User-agent: *
Dissallow: /private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    None,
);

/// `R004` field-name-prefix: a field name recognised only by its prefix (`Disallowed:`)
pub(crate) static FIELD_NAME_PREFIX: RuleInfo = RuleInfo::passed_on(
    FieldNamePrefix,
    r#"## What it does

Reports field names that are longer than a known name and start with it,
such as `Disallowed` or `User-agents`. Google recognises fields by prefix.

## Why it matters

Only Google's reading accepts them; every other crawler ignores the line.

## Example

```text
User-agent: *
Disallowed: /private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    Some(explained_by_relative_sitemap),
);

/// `R005` rule-before-user-agent: an allow or disallow line before any user-agent line
pub(crate) static RULE_BEFORE_USER_AGENT: RuleInfo = RuleInfo::passed_on(
    RuleBeforeUserAgent,
    r#"## What it does

Reports `Allow` and `Disallow` lines that come before the first
`User-agent` line.

## Why it matters

A rule belongs to the group of the user-agent lines above it. With none
above, every crawler ignores the rule.

## Example

```text
Disallow: /private/
User-agent: *
Disallow: /tmp/
```

## Use instead

```text
User-agent: *
Disallow: /private/
Disallow: /tmp/
```
"#,
    None,
);

/// `R010` byte-order-mark: a UTF-8 byte order mark at the start of the file
pub(crate) static BYTE_ORDER_MARK: RuleInfo = RuleInfo::passed_on(
    ByteOrderMark,
    r#"## What it does

Reports a UTF-8 byte order mark (EF BB BF) before the first line.

## Why it matters

Google skips it, but a parser that does not sees a first field named
`\u{FEFF}User-agent`, which is unknown, and loses the first group's
user-agent line.

## Example

```text
<BOM>User-agent: *
Disallow: /private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    None,
);

/// `R011` invalid-utf8: bytes that are not valid UTF-8
pub(crate) static INVALID_UTF8: RuleInfo = RuleInfo::passed_on(
    InvalidUtf8,
    r#"## What it does

Reports the first invalid UTF-8 byte of each line.

## Why it matters

robots.txt is UTF-8. A Latin-1 `é` in a rule is %-encoded byte for byte
(`%E9`), while browsers and crawlers send `%C3%A9` for the same character, so
the rule never matches the URL it names.

## Example

```text
User-agent: *
Disallow: /caf<E9>/
```

## Use instead

```text
User-agent: *
Disallow: /caf%C3%A9/
```
"#,
    None,
);

/// `R012` cr-line-endings: lines ended by a bare carriage return (old Mac style)
pub(crate) static CR_LINE_ENDINGS: RuleInfo = RuleInfo::passed_on(
    CrLineEndings,
    r#"## What it does

Reports files with lines that end with a lone CR.

## Why it matters

Google reads CR as a line end; parsers that split on LF only see the whole
file as one long line and read at most its first field.

## Example

```text
User-agent: *<CR>Disallow: /private/<CR>
```

## Use instead

```text
User-agent: *<LF>Disallow: /private/<LF>
```
"#,
    None,
);

/// `R013` line-too-long: a line longer than the reference implementation reads
pub(crate) static LINE_TOO_LONG: RuleInfo = RuleInfo::passed_on(
    LineTooLong,
    r#"## What it does

Reports lines longer than 16,663 bytes, the most Google's reference parser
reads of one line.

## Why it matters

The rest of the line is ignored: a long rule is cut and matches more (or
less) than written.

## Example

```text
User-agent: *
Disallow: /aaaa…(20,000 bytes)
```

## Use instead

```text
User-agent: *
Disallow: /aaaa…(2,000 bytes)
```
"#,
    None,
);

/// `R015` invalid-line: a line that is neither empty, a comment, nor `field: value`
pub(crate) static INVALID_LINE: RuleInfo = RuleInfo::passed_on(
    InvalidLine,
    r#"## What it does

Reports lines that no crawler can read: no colon, or nothing before it.

## Why it matters

The line is ignored. It is often a rule that lost its field name or a
stray piece of another file.

## Example

```text
User-agent: *
/private/
```

## Use instead

```text
User-agent: *
Disallow: /private/
```
"#,
    None,
);

/// `Sitemap http://…` (a missing colon, read as the field `Sitemap http`
/// by prefix) is explained by `R009`, which says what was meant.
fn explained_by_relative_sitemap(cx: &Context<'_>, found: &crawlgate::Diagnostic) -> bool {
    let key = String::from_utf8_lossy(&cx.source[found.span.bytes.clone()]).to_ascii_lowercase();
    key.starts_with("sitemap") && (key.ends_with(" http") || key.ends_with(" https"))
}

#[cfg(test)]
mod fixture_tests {
    use crawlgate::Code;

    #[test]
    fn each_fires_on_its_fixture_and_not_on_its_clean_one() {
        for code in [
            Code::MissingColon,
            Code::MisspelledField,
            Code::FieldNamePrefix,
            Code::RuleBeforeUserAgent,
            Code::ByteOrderMark,
            Code::InvalidUtf8,
            Code::CrLineEndings,
            Code::LineTooLong,
            Code::InvalidLine,
        ] {
            crate::testing::assert_fires(code.into());
            crate::testing::assert_clean(code.into());
        }
    }
}
