//! Reading a file for one crawler: the model of the groups it can obey,
//! read as a stream.
//!
//! A crawler asks a file about itself only. This reads every line that can
//! start a group (user-agent lines) and every sitemap, but the rest of a
//! group only while it is one the crawler can obey (it names one of the
//! crawler's tokens, or `*`): other groups are skipped after one look at
//! each line's first byte, from their first rule on. Comments, blank lines
//! and lines that can be no record a crawler acts on (HTML served as
//! robots.txt, unknown fields) are skipped the same way, and no diagnostic
//! is kept. The records kept are made by the same builder as the whole
//! file's, so the crawler's groups, rules and lines are exactly the whole
//! file's.

use memchr::memchr;

use super::lines::{self, Lines};
use super::split::{self, Split};
use super::{Builder, Record};
use crate::model::{InputStats, RobotsTxt, Str};
use crate::profile::{GroupSelection, Profile};

/// The file as a crawler answering to `tokens` reads it: every group and
/// user-agent line (so the groups it obeys, and their numbers, are the
/// whole file's), with rules and records only in the groups that name one
/// of `tokens` or `*`, no diagnostics, and only `tokens` among the tokens
/// the model can choose groups for. Readings that do not
/// choose groups by product token (the legacy and Yandex readings, urllib's
/// records) read the whole file. The crawler's `name` is kept in the
/// model's text, where its place is returned: one allocation fewer for a
/// reader that keeps it.
pub(crate) fn parse_for(
    input: &[u8],
    profile: Profile,
    tokens: &[&str],
    name: &str,
) -> (RobotsTxt, Str) {
    let streams = profile.group_selection == GroupSelection::ProductToken
        && !profile.urllib_records
        && !profile.yandex_records;
    if !streams {
        let mut robots = super::parse(input, profile);
        let start = robots.text.len() as u32;
        robots.text.extend_from_slice(name.as_bytes());
        // The text grew: a `str` copy of it made before would be short.
        robots.text_copy = Default::default();
        let name = Str {
            start,
            len: name.len() as u32,
        };
        return (robots, name);
    }
    let mut builder = Builder::<true>::new(input, profile);
    builder.keep = tokens;
    builder.run_for_crawler(name)
}

impl Builder<'_, true> {
    fn run_for_crawler(mut self, name: &str) -> (RobotsTxt, Str) {
        let input = self.input;
        let parsed = lines::limited_len(input, self.profile.max_bytes);
        let bom = lines::bom_len(&input[..parsed]);
        let body = &input[bom..parsed];
        self.has_nul = memchr(0, body).is_some();
        // Values are copied lossily only where they are not UTF-8, as the
        // whole file's reading copies them.
        let invalid_utf8 = simdutf8::basic::from_utf8(body).is_err();
        let mut line_count = 0;
        // Comments are looked for only in the lines read.
        for line in Lines::new(&input[..parsed], bom, self.profile.max_line_bytes, true) {
            line_count = line.number;
            let Some(first) = split::first_non_space(line.bytes) else {
                continue;
            };
            // Records start with a letter of their name, misspellings
            // included (`| 0x20` lowercases a letter, and folds nothing
            // else onto one): user-agent lines and sitemaps are read in
            // every group, rules and the known extensions in the crawler's.
            match line.bytes[first] | 0x20 {
                b'u' | b's' => {}
                b'a' | b'd' | b'c' | b'r' | b'v' | b'h' | b'l' if !self.skipping => {}
                _ => continue,
            }
            let mut content = line.before_comment();
            if self.has_nul
                && let Some(nul) = memchr(0, line.bytes)
            {
                content = &content[..nul.min(content.len())];
            }
            let (key, value) = match split::split(content) {
                Split::Record {
                    key,
                    value,
                    missing_colon,
                } if !missing_colon || self.profile.accept_missing_colon => (key, value),
                _ => continue,
            };
            let record = Record {
                line,
                key,
                value,
                lossy: invalid_utf8 || line.cut > 0,
            };
            self.record(&record);
        }
        let stats = InputStats {
            input_bytes: input.len(),
            parsed_bytes: parsed,
            lines: line_count,
            had_bom: bom > 0,
            had_invalid_utf8: invalid_utf8,
        };
        let name = self.push_ascii(name.as_bytes());
        (self.finish(stats), name)
    }
}
