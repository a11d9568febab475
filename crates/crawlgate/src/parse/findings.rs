//! What the parser noticed, written out: the model keeps each finding as a
//! span and a few words of plain data; the message and the fix are written
//! only when someone asks for [`RobotsTxt::diagnostics`], so a crawler
//! holding millions of parsed files does not pay for prose it never reads.

use crate::diagnostic::{Code, Diagnostic};
use crate::field::canonical_name;
use crate::model::{Finding, Misspelling, RobotsTxt, What};

fn rule_kind(allow: bool) -> &'static str {
    if allow {
        "Allow"
    } else {
        "Disallow"
    }
}

impl RobotsTxt {
    /// What the parser noticed: lines skipped, accepted leniently, or cut.
    ///
    /// Messages are written on the first call and kept; parsing only
    /// records where and what.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        self.diagnostics
            .get_or_init(|| self.findings.iter().map(|f| diagnostic(f, self)).collect())
    }
}

/// A finding written out as a diagnostic, for `robots` (whose arena and
/// profile it refers to).
fn diagnostic(finding: &Finding, robots: &RobotsTxt) -> Diagnostic {
    let span = finding.span.clone();
    let profile = robots.profile();
    match finding.what {
        What::ByteOrderMark => Diagnostic::new(
            Code::ByteOrderMark,
            span,
            "UTF-8 byte order mark at the start of the file: Google skips it, but some \
                 parsers read it as part of the first field name",
        )
        .with_fix("save the file as UTF-8 without a BOM", Some(String::new())),
        What::InvalidUtf8 => Diagnostic::new(
            Code::InvalidUtf8,
            span,
            "bytes that are not valid UTF-8: they are %-encoded byte for byte before matching, \
                 so a rule holding them only matches URLs with the same bytes",
        ),
        What::LineTooLong => {
            let read = span.column as usize - 1;
            let cut = span.bytes.len();
            let message = format!(
                "line is {} bytes long: only the first {read} are read, the remaining {cut} \
                     are ignored",
                read + cut,
            );
            Diagnostic::new(Code::LineTooLong, span, message)
        }
        What::NulByte => Diagnostic::new(
            Code::NulByte,
            span,
            "NUL byte: the rest of the line is ignored",
        ),
        What::InvalidLines {
            lines,
            last_line,
            html,
        } => {
            let hint = if html {
                " (this looks like an HTML page, not a robots.txt)"
            } else {
                ""
            };
            let message = if lines == 1 {
                format!("not a `field: value` line: no crawler acts on it{hint}")
            } else {
                format!(
                    "{lines} lines (lines {}–{last_line}) are not `field: value` lines: no \
                         crawler acts on them{hint}",
                    span.line
                )
            };
            Diagnostic::new(Code::InvalidLine, span, message)
        }
        What::FileTooLarge => {
            let (parsed, size) = (span.bytes.start, span.bytes.end);
            let limit = profile.max_bytes;
            let lost = size - parsed;
            let line = span.line;
            let message = if parsed >= limit {
                format!(
                    "the file is {size} bytes and Google reads only the first {limit} bytes \
                     ({} KiB): everything from line {line} on is ignored ({lost} bytes from \
                     line {line} on)",
                    limit / 1024,
                )
            } else {
                // The limit falls inside a line, which is dropped whole
                // (SPEC §2: a cut line is not read as a shorter rule).
                format!(
                    "the file is {size} bytes and Google reads only the first {limit} bytes \
                     ({} KiB): line {line} crosses the limit (it starts at byte {parsed}, and \
                     the cut falls {} bytes into it), so it is dropped whole with everything \
                     after it ({lost} bytes from line {line} on)",
                    limit / 1024,
                    limit - parsed,
                )
            };
            Diagnostic::new(Code::FileTooLarge, span, message).with_fix(
                "move the rules that matter to the top and shorten the file",
                None,
            )
        }
        What::CrLineEndings { lines } => {
            let message = format!(
                "{lines} line(s) end with a bare carriage return (old Mac style): Google \
                     reads CR as a line end, some parsers see one long line"
            );
            Diagnostic::new(Code::CrLineEndings, span, message)
                .with_fix("use LF (or CR LF) line ends", None)
        }
        What::MissingColon { shown } => {
            let shown = robots.str(shown);
            let message = if profile.accept_missing_colon {
                format!(
                    "no colon after the field name: Google reads this line as `{shown}`, \
                         stricter parsers ignore it"
                )
            } else {
                format!(
                    "no colon after the field name: this line is ignored (Google would read \
                         it as `{shown}`)"
                )
            };
            Diagnostic::new(Code::MissingColon, span, message)
                .with_fix("add the colon", Some(shown.to_owned()))
        }
        What::FieldSpelling { key, field, how } => {
            let key = robots.str(key);
            let canonical = canonical_name(field);
            let (code, message) = match how {
                Misspelling::Prefix => (
                    Code::FieldNamePrefix,
                    format!(
                        "`{key}` is read as `{canonical}` by Google (it starts with that \
                             name); other crawlers ignore the line"
                    ),
                ),
                Misspelling::Typo => (
                    Code::MisspelledField,
                    format!(
                        "`{key}` is a misspelling of `{canonical}`: Google accepts it, other \
                             crawlers ignore the line"
                    ),
                ),
                Misspelling::Rejected => (
                    Code::MisspelledField,
                    format!(
                        "`{key}` is not `{canonical}`: this reading ignores the line, \
                             although Google would read it as `{canonical}`"
                    ),
                ),
            };
            Diagnostic::new(code, span, message)
                .with_fix(format!("write `{canonical}`"), Some(canonical.to_owned()))
        }
        What::PathNotAbsolute { value, allow } => {
            let shown = robots.str(value);
            let kind = rule_kind(allow);
            let (message, fix) = if profile.require_leading_slash {
                (
                    format!(
                        "rule path `{shown}` does not start with `/`: this reading ignores \
                             the line"
                    ),
                    format!("/{}", shown.trim_start_matches('*')),
                )
            } else {
                (
                    format!(
                        "rule path `{shown}` does not start with `/` or `*`: it never \
                             matches any URL"
                    ),
                    format!("/{shown}"),
                )
            };
            Diagnostic::new(Code::PathNotAbsolute, span, message)
                .with_fix(format!("write `{kind}: {fix}`"), Some(fix))
        }
        What::RuleAfterBlankLine { allow } => {
            let message = format!(
                "`{}` line after a blank line ended the record: urllib.robotparser ignores \
                     it (Google and RFC 9309 read it as part of the group above)",
                rule_kind(allow)
            );
            Diagnostic::new(Code::RuleBeforeUserAgent, span, message)
                .with_fix("remove the blank line above it", None)
        }
        What::RuleBeforeUserAgent { allow } => {
            let message = format!(
                "`{}` line before any User-agent line: every crawler ignores it",
                rule_kind(allow)
            );
            Diagnostic::new(Code::RuleBeforeUserAgent, span, message)
                .with_fix("add a `User-agent: *` line above it", None)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Code, Profile, RobotsTxt};

    /// A 501,675-byte line starting at byte 89,259: the message names the
    /// line that crosses the 500 KiB limit and where the cut falls in it.
    #[test]
    fn the_size_limit_names_the_line_it_cuts() {
        let mut body = b"User-agent: *\n".to_vec();
        let mut lines = 1;
        while body.len() + 20 <= 89_259 {
            body.extend_from_slice(b"Disallow: /x-filler\n");
            lines += 1;
        }
        body.resize(89_258, b'#');
        body.push(b'\n');
        lines += 1;
        body.extend_from_slice(b"Disallow: /");
        body.resize(89_259 + 501_675, b'a');
        body.extend_from_slice(b"\nDisallow: /after\n");
        let robots = RobotsTxt::parse(&body);
        let d = robots
            .diagnostics()
            .iter()
            .find(|d| d.code == Code::FileTooLarge)
            .expect("a size finding");
        let cut = 512_000 - 89_259;
        assert_eq!(d.span.line, lines + 1, "{}", d.message);
        assert!(
            d.message.contains(&format!(
                "line {} crosses the limit (it starts at byte 89259, and the cut falls {cut} \
                 bytes into it)",
                lines + 1
            )),
            "{}",
            d.message
        );
        assert!(!d.message.contains("past 89259"), "{}", d.message);

        // A file cut at a line's end says where the ignored part starts.
        let mut exact = b"User-agent: *\n".to_vec();
        exact.resize(512_000 - 1, b'#');
        exact.extend_from_slice(b"\nDisallow: /lost\n");
        let robots = RobotsTxt::parse(&exact);
        let d = robots
            .diagnostics()
            .iter()
            .find(|d| d.code == Code::FileTooLarge)
            .expect("a size finding");
        assert!(
            d.message.contains("everything from line 3 on is ignored"),
            "{}",
            d.message
        );
    }

    #[test]
    fn findings_stay_small_until_their_messages_are_asked_for() {
        let mut body = String::from("User-agent: *\n");
        for i in 0..500 {
            body.push_str(&format!("Disallow: page{i}\n"));
        }
        let robots = RobotsTxt::parse(body.as_bytes());
        // A finding is a few dozen bytes; its message and fix, written,
        // several times that (hundreds of bytes for an 18-byte line).
        let parsed = robots.heap_size();
        assert!(parsed <= 4 * body.len(), "{parsed} for {}", body.len());
        let diagnostics = robots.diagnostics();
        assert_eq!(diagnostics.len(), 500);
        let d = &diagnostics[7];
        assert_eq!((d.code, d.span.line), (Code::PathNotAbsolute, 9));
        assert_eq!(
            d.message,
            "rule path `page7` does not start with `/` or `*`: it never matches any URL"
        );
        let fix = d.fix.as_ref().unwrap();
        assert_eq!(fix.message, "write `Disallow: /page7`");
        assert_eq!(fix.replacement.as_deref(), Some("/page7"));
        // Written once, then kept (and counted).
        assert!(robots.heap_size() > 2 * parsed, "{}", robots.heap_size());
        assert!(std::ptr::eq(diagnostics, robots.diagnostics()));
    }

    #[test]
    fn quoted_text_is_the_text_as_written() {
        // The pattern is normalised (`%C3%A9`); the message quotes the line.
        let robots = RobotsTxt::parse("User-agent: *\nAllow: café%c3%a9\n".as_bytes());
        let d = &robots.diagnostics()[0];
        assert!(d.message.contains("`café%c3%a9`"), "{}", d.message);
        assert_eq!(
            d.fix.as_ref().unwrap().message,
            "write `Allow: /café%c3%a9`"
        );
        // A reading that drops the rule still quotes it.
        let robots = RobotsTxt::parse_with(b"User-agent: *\nDisallow: *x\n", Profile::RFC9309);
        let d = &robots.diagnostics()[0];
        assert_eq!(
            d.message,
            "rule path `*x` does not start with `/`: this reading ignores the line"
        );
        assert_eq!(d.fix.as_ref().unwrap().replacement.as_deref(), Some("/x"));
        // Invalid UTF-8 in a field name is quoted lossily.
        let robots = RobotsTxt::parse(b"User-agent: *\nDisalow\xff: /x\n");
        let spelled = robots
            .diagnostics()
            .iter()
            .find(|d| d.code == Code::MisspelledField)
            .expect("a misspelling finding");
        assert!(
            spelled.message.starts_with("`Disalow\u{FFFD}` is"),
            "{}",
            spelled.message
        );
    }
}
