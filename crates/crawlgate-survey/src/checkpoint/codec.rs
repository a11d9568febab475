//! A run's record: one [`Keyed`] row in a compact binary form written and
//! read by hand. Runs are read back only by the survey that wrote them, so
//! the form need not describe itself; MessagePack through serde took more
//! than twice the instructions to write and read, postcard nearly twice.
//!
//! Integers are LEB128, `date` and `crawl_delay` eight bytes
//! little-endian, strings their length then their bytes, an `Option` a
//! byte (0 for None) before its value, an enum its index plus one, a
//! row's verdicts each distinct one once ([`put_verdicts`]). Every struct
//! is destructured or built whole, so a field added to a row fails to
//! compile here until it is stored.

use crawlgate_answers::{OutcomeKind, OutcomeReason};

use super::Keyed;
use crate::findings::LintCounts;
use crate::row::{reason_of_word, reason_word, SiteRow};
use crate::taxonomy::{FetchClass, HostClass};
use crate::verdict::{Cause, CrawlerVerdict, GroupKind};

/// Outcome kinds, by their index in a record.
const OUTCOMES: [OutcomeKind; 3] = [
    OutcomeKind::FullAllow,
    OutcomeKind::FullDisallow,
    OutcomeKind::Conditional,
];

/// Outcome reasons, by their index in a record. The enum is
/// non-exhaustive: a reason missing here is stored as its word, after
/// [`WORD`].
const REASONS: [OutcomeReason; 8] = [
    OutcomeReason::Fetched,
    OutcomeReason::NotFound,
    OutcomeReason::RedirectsNotFollowed,
    OutcomeReason::SoftNotFound,
    OutcomeReason::ServerError,
    OutcomeReason::StaleCopy,
    OutcomeReason::UnreachableLastCopy,
    OutcomeReason::UnreachableAllowAll,
];

/// The tag of an outcome reason stored as its word.
const WORD: u8 = 0xff;

/// Why a record could not be written or read.
pub(crate) type Error = &'static str;

/// The most crawlers a row may have: runs of verdicts take a few bytes for
/// any number of crawlers, so a damaged count is bounded by this rather
/// than by the record's length.
const MAX_CRAWLERS: usize = 1 << 20;

const TOO_MANY: Error = "more crawlers than a run holds";

/// Appends `row`'s record to `out`.
pub(crate) fn encode(row: &Keyed, out: &mut Vec<u8>) -> Result<(), Error> {
    if row.row.crawlers.len() > MAX_CRAWLERS {
        return Err(TOO_MANY);
    }
    let Keyed { row, date, seq } = row;
    out.extend_from_slice(&date.to_le_bytes());
    put_uint(out, *seq);
    let SiteRow {
        host,
        source,
        offset,
        error,
        url,
        captured,
        captures,
        status,
        fetch_class,
        cc_class,
        outcome,
        reason,
        content_type,
        payload_type,
        location,
        followed,
        size,
        over_limit,
        html,
        groups,
        rules,
        sitemaps,
        crawl_delay,
        content_usage,
        content_signal,
        licenses,
        sc_valid,
        sc_unused,
        sc_unknown,
        lint,
        crawlers,
    } = row;
    put_opt_str(out, host);
    put_str(out, source);
    put_opt_uint(out, *offset);
    put_opt_str(out, error);
    put_opt_str(out, url);
    put_opt_str(out, captured);
    put_uint(out, u64::from(*captures));
    put_opt_uint(out, status.map(u64::from));
    put_enum(out, fetch_class.map(|c| c as usize));
    put_enum(out, cc_class.map(|c| c as usize));
    put_enum(out, outcome.map(|o| o as usize));
    match reason.map(|r| (r, REASONS.iter().position(|known| *known == r))) {
        Some((_, Some(index))) => put_enum(out, Some(index)),
        Some((reason, None)) => {
            out.push(WORD);
            put_str(out, &reason_word(reason));
        }
        None => out.push(0),
    }
    put_opt_str(out, content_type);
    put_opt_str(out, payload_type);
    put_opt_str(out, location);
    put_opt_str(out, followed);
    put_opt_uint(out, *size);
    put_opt_bool(out, *over_limit);
    put_opt_bool(out, *html);
    for count in [groups, rules, sitemaps] {
        put_opt_uint(out, count.map(u64::from));
    }
    match crawl_delay {
        Some(delay) => {
            out.push(1);
            out.extend_from_slice(&delay.to_bits().to_le_bytes());
        }
        None => out.push(0),
    }
    put_opt_str(out, content_usage);
    put_opt_str(out, content_signal);
    for count in [licenses, sc_valid, sc_unused, sc_unknown] {
        put_opt_uint(out, count.map(u64::from));
    }
    match lint {
        Some(LintCounts {
            errors,
            warnings,
            infos,
            by_code,
        }) => {
            out.push(1);
            for count in [errors, warnings, infos] {
                put_uint(out, u64::from(*count));
            }
            put_len(out, by_code.len());
            for count in by_code {
                put_uint(out, u64::from(*count));
            }
        }
        None => out.push(0),
    }
    put_verdicts(out, crawlers);
    Ok(())
}

/// The verdicts, each distinct one stored once: most crawlers get the same
/// answer from a site, so a row of 160 holds two or three, and neighbours
/// mostly share one. Stored as the crawlers' count, runs of crawlers with
/// the same verdict (its index, the run's length) until they make up the
/// count, then the distinct verdicts in first-seen order.
fn put_verdicts(out: &mut Vec<u8>, verdicts: &[CrawlerVerdict]) {
    let mut distinct: Vec<&CrawlerVerdict> = Vec::new();
    put_len(out, verdicts.len());
    let mut rest = verdicts;
    while let [first, tail @ ..] = rest {
        let index = match distinct.iter().position(|d| *d == first) {
            Some(index) => index,
            None => {
                distinct.push(first);
                distinct.len() - 1
            }
        };
        let run = 1 + tail.iter().take_while(|v| *v == first).count();
        put_len(out, index);
        put_len(out, run);
        rest = &rest[run..];
    }
    put_len(out, distinct.len());
    for verdict in distinct {
        put_verdict(out, verdict);
    }
}

fn put_verdict(out: &mut Vec<u8>, verdict: &CrawlerVerdict) {
    let CrawlerVerdict {
        root,
        cause,
        group,
        line,
        paths,
        prefs,
        path_prefs,
    } = verdict;
    put_opt_bool(out, *root);
    put_enum(out, cause.map(|c| c as usize));
    put_enum(out, group.map(|g| g as usize));
    put_opt_uint(out, line.map(u64::from));
    put_len(out, paths.len());
    out.extend(paths.iter().map(|&p| u8::from(p)));
    put_opt_str(out, prefs);
    put_len(out, path_prefs.len());
    for prefs in path_prefs {
        put_opt_str(out, prefs);
    }
}

fn put_uint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    put_uint(out, len as u64);
}

fn put_str(out: &mut Vec<u8>, text: &str) {
    put_len(out, text.len());
    out.extend_from_slice(text.as_bytes());
}

fn put_opt_str(out: &mut Vec<u8>, text: &Option<String>) {
    match text {
        Some(text) => {
            out.push(1);
            put_str(out, text);
        }
        None => out.push(0),
    }
}

fn put_opt_uint(out: &mut Vec<u8>, value: Option<u64>) {
    match value {
        Some(value) => {
            out.push(1);
            put_uint(out, value);
        }
        None => out.push(0),
    }
}

fn put_opt_bool(out: &mut Vec<u8>, value: Option<bool>) {
    out.push(value.map_or(0, |b| 1 + u8::from(b)));
}

/// An enum's index plus one (0 for None); every enum stored has a few
/// variants.
fn put_enum(out: &mut Vec<u8>, index: Option<usize>) {
    out.push(index.map_or(0, |i| i as u8 + 1));
}

/// Reads a row's record (the whole of `bytes`).
pub(crate) fn decode(bytes: &[u8]) -> Result<Keyed, Error> {
    let mut r = Reader { bytes };
    let date = i64::from_le_bytes(r.array()?);
    let seq = r.uint()?;
    let row = SiteRow {
        host: r.opt_str()?,
        source: r.str()?,
        offset: r.opt_uint()?,
        error: r.opt_str()?,
        url: r.opt_str()?,
        captured: r.opt_str()?,
        captures: r.u32()?,
        status: r.opt_u16()?,
        fetch_class: r.opt_enum(&FetchClass::ALL)?,
        cc_class: r.opt_enum(&HostClass::ALL)?,
        outcome: r.opt_enum(&OUTCOMES)?,
        reason: match r.bytes.first() {
            Some(&WORD) => {
                r.byte()?;
                Some(reason_of_word(&r.str()?).ok_or("an unknown outcome reason")?)
            }
            _ => r.opt_enum(&REASONS)?,
        },
        content_type: r.opt_str()?,
        payload_type: r.opt_str()?,
        location: r.opt_str()?,
        followed: r.opt_str()?,
        size: r.opt_uint()?,
        over_limit: r.opt_bool()?,
        html: r.opt_bool()?,
        groups: r.opt_u32()?,
        rules: r.opt_u32()?,
        sitemaps: r.opt_u32()?,
        crawl_delay: match r.byte()? {
            0 => None,
            1 => Some(f64::from_bits(u64::from_le_bytes(r.array()?))),
            _ => return Err(BAD_TAG),
        },
        content_usage: r.opt_str()?,
        content_signal: r.opt_str()?,
        licenses: r.opt_u32()?,
        sc_valid: r.opt_u32()?,
        sc_unused: r.opt_u32()?,
        sc_unknown: r.opt_u32()?,
        lint: match r.byte()? {
            0 => None,
            1 => Some(LintCounts {
                errors: r.u32()?,
                warnings: r.u32()?,
                infos: r.u32()?,
                by_code: {
                    let n = r.len()?;
                    let mut by_code = Vec::with_capacity(n);
                    for _ in 0..n {
                        by_code.push(r.u32()?);
                    }
                    by_code
                },
            }),
            _ => return Err(BAD_TAG),
        },
        crawlers: r.verdicts()?,
    };
    if !r.bytes.is_empty() {
        return Err("bytes after its end");
    }
    Ok(Keyed { row, date, seq })
}

const CUT: Error = "cut short";
const BAD_TAG: Error = "an unknown tag";

/// The rest of a record.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    #[inline]
    fn byte(&mut self) -> Result<u8, Error> {
        let (&first, rest) = self.bytes.split_first().ok_or(CUT)?;
        self.bytes = rest;
        Ok(first)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        let (first, rest) = self.bytes.split_first_chunk::<N>().ok_or(CUT)?;
        self.bytes = rest;
        Ok(*first)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        let (first, rest) = self.bytes.split_at_checked(n).ok_or(CUT)?;
        self.bytes = rest;
        Ok(first)
    }

    #[inline]
    fn uint(&mut self) -> Result<u64, Error> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Ok(value);
            }
        }
        Err("an integer too long")
    }

    fn u32(&mut self) -> Result<u32, Error> {
        u32::try_from(self.uint()?).map_err(|_| "an integer out of range")
    }

    /// A count of items that take a byte or more each: never more than the
    /// bytes left, so a damaged count allocates nothing large.
    fn len(&mut self) -> Result<usize, Error> {
        let n = self.uint()?;
        if n > self.bytes.len() as u64 {
            return Err(CUT);
        }
        Ok(n as usize)
    }

    fn str(&mut self) -> Result<String, Error> {
        let n = self.len()?;
        let bytes = self.take(n)?;
        std::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|_| "text that is not UTF-8")
    }

    /// The tag of an `Option`: whether a value follows.
    fn some(&mut self) -> Result<bool, Error> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(BAD_TAG),
        }
    }

    /// An `Option`: its tag, then the value `read` reads when there is one.
    fn opt<T>(&mut self, read: fn(&mut Self) -> Result<T, Error>) -> Result<Option<T>, Error> {
        if self.some()? {
            read(self).map(Some)
        } else {
            Ok(None)
        }
    }

    fn opt_str(&mut self) -> Result<Option<String>, Error> {
        self.opt(Self::str)
    }

    fn opt_uint(&mut self) -> Result<Option<u64>, Error> {
        self.opt(Self::uint)
    }

    fn opt_u32(&mut self) -> Result<Option<u32>, Error> {
        self.opt(Self::u32)
    }

    fn opt_u16(&mut self) -> Result<Option<u16>, Error> {
        match self.opt_uint()? {
            Some(n) => u16::try_from(n)
                .map(Some)
                .map_err(|_| "an integer out of range"),
            None => Ok(None),
        }
    }

    fn opt_bool(&mut self) -> Result<Option<bool>, Error> {
        match self.byte()? {
            0 => Ok(None),
            1 => Ok(Some(false)),
            2 => Ok(Some(true)),
            _ => Err(BAD_TAG),
        }
    }

    fn opt_enum<T: Copy>(&mut self, all: &[T]) -> Result<Option<T>, Error> {
        match self.byte()? {
            0 => Ok(None),
            i => all
                .get(usize::from(i) - 1)
                .copied()
                .map(Some)
                .ok_or(BAD_TAG),
        }
    }

    fn verdicts(&mut self) -> Result<Vec<CrawlerVerdict>, Error> {
        let n = usize::try_from(self.uint()?)
            .ok()
            .filter(|&n| n <= MAX_CRAWLERS)
            .ok_or(TOO_MANY)?;
        // The runs come first: they are read again once the distinct
        // verdicts that follow them are.
        let runs = Reader { bytes: self.bytes };
        let mut left = n;
        while left > 0 {
            self.uint()?;
            left = usize::try_from(self.uint()?)
                .ok()
                .and_then(|run| left.checked_sub(run))
                .ok_or("runs past the crawlers' count")?;
        }
        let count = self.len()?;
        let mut distinct = Vec::with_capacity(count);
        for _ in 0..count {
            distinct.push(self.verdict()?);
        }
        let mut runs = runs;
        // Sized at once for any real row, not for a damaged count.
        let mut verdicts = Vec::with_capacity(n.min(1 << 12));
        while verdicts.len() < n {
            let verdict = usize::try_from(runs.uint()?)
                .ok()
                .and_then(|i| distinct.get(i))
                .ok_or("a verdict index out of range")?;
            // Checked above: the runs make up the count.
            let run = runs.uint()? as usize;
            verdicts.extend(std::iter::repeat_n(verdict, run).cloned());
        }
        Ok(verdicts)
    }

    fn verdict(&mut self) -> Result<CrawlerVerdict, Error> {
        Ok(CrawlerVerdict {
            root: self.opt_bool()?,
            cause: self.opt_enum(&Cause::ALL)?,
            group: self.opt_enum(&GroupKind::ALL)?,
            line: self.opt_u32()?,
            paths: {
                let n = self.len()?;
                let mut paths = Vec::with_capacity(n);
                for _ in 0..n {
                    paths.push(match self.byte()? {
                        0 => false,
                        1 => true,
                        _ => return Err(BAD_TAG),
                    });
                }
                paths
            },
            prefs: self.opt_str()?,
            path_prefs: {
                let n = self.len()?;
                let mut path_prefs = Vec::with_capacity(n);
                for _ in 0..n {
                    path_prefs.push(self.opt_str()?);
                }
                path_prefs
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(i: u32) -> CrawlerVerdict {
        CrawlerVerdict {
            root: Some(i.is_multiple_of(2)),
            cause: Some(Cause::ALL[i as usize % Cause::ALL.len()]),
            group: Some(GroupKind::ALL[i as usize % GroupKind::ALL.len()]),
            line: Some(i * 1000),
            paths: vec![true, false, i.is_multiple_of(3)],
            prefs: Some(format!("{{\"train-ai\":\"n{i}\"}}")),
            path_prefs: vec![None, Some("é".repeat(i as usize)), None],
        }
    }

    /// A row with every field set, and a wide range of numbers.
    fn full() -> Keyed {
        let row = SiteRow {
            host: Some("xn--bcher-kva.example:8080".into()),
            source: "c1.warc.gz@123".into(),
            offset: Some(u64::MAX),
            error: Some("a damaged record".into()),
            url: Some("https://bücher.example:8080/robots.txt".into()),
            captured: Some("2026-11-01T00:00:00Z".into()),
            captures: u32::MAX,
            status: Some(u16::MAX),
            fetch_class: Some(FetchClass::Other),
            cc_class: Some(HostClass::RobotsTxtWithRules),
            outcome: Some(OutcomeKind::Conditional),
            reason: Some(OutcomeReason::UnreachableAllowAll),
            content_type: Some("text/plain; charset=utf-8".into()),
            payload_type: Some("text/plain".into()),
            location: Some("/elsewhere".into()),
            followed: Some("https://www.example/robots.txt".into()),
            size: Some(500 << 10),
            over_limit: Some(true),
            html: Some(false),
            groups: Some(0),
            rules: Some(127),
            sitemaps: Some(128),
            crawl_delay: Some(-0.25),
            content_usage: Some("train-ai=n; search=y".into()),
            content_signal: Some(String::new()),
            licenses: Some(1),
            sc_valid: Some(u32::MAX),
            sc_unused: Some(16_384),
            sc_unknown: Some(3),
            lint: Some(LintCounts {
                errors: 1,
                warnings: 2,
                infos: 300,
                by_code: (0..70).map(|i| i * 97).collect(),
            }),
            crawlers: (0..162).map(|c| verdict(c / 50)).collect(),
        };
        Keyed {
            row,
            date: 1_795_000_000_000_000,
            seq: super::super::seq(7, 123_456),
        }
    }

    fn round_trip(keyed: &Keyed) -> Keyed {
        let mut bytes = Vec::new();
        encode(keyed, &mut bytes).unwrap();
        let back = decode(&bytes).expect("a record read back");
        assert_eq!(
            (&back.row, back.date, back.seq),
            (&keyed.row, keyed.date, keyed.seq)
        );
        back
    }

    #[test]
    fn rows_with_every_field_set_or_unset_read_back_the_same() {
        round_trip(&full());
        round_trip(&Keyed {
            row: SiteRow::default(),
            date: i64::MIN,
            seq: 0,
        });
        let error = SiteRow::error(None, "in.jsonl:3".into(), "not JSON".into());
        round_trip(&Keyed::new(error, 2, 3));
        // Every field unset but one, each in turn: a field read into its
        // neighbour's place shows.
        let full = full().row;
        let mut one = SiteRow {
            host: full.host.clone(),
            ..SiteRow::default()
        };
        round_trip(&Keyed::new(one.clone(), 0, 0));
        one = SiteRow {
            crawl_delay: full.crawl_delay,
            ..SiteRow::default()
        };
        round_trip(&Keyed::new(one, 0, 0));
        one = SiteRow {
            sc_unknown: full.sc_unknown,
            ..SiteRow::default()
        };
        round_trip(&Keyed::new(one, 0, 0));
    }

    #[test]
    fn every_enum_value_reads_back() {
        // The index stored is the variant's place in `ALL`.
        for (i, c) in Cause::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
        for (i, g) in GroupKind::ALL.iter().enumerate() {
            assert_eq!(*g as usize, i);
        }
        for (i, f) in FetchClass::ALL.iter().enumerate() {
            assert_eq!(*f as usize, i);
        }
        for (i, h) in HostClass::ALL.iter().enumerate() {
            assert_eq!(*h as usize, i);
        }
        for (i, o) in OUTCOMES.iter().enumerate() {
            assert_eq!(*o as usize, i);
        }
        let mut keyed = full();
        for cause in Cause::ALL {
            keyed.row.crawlers[0].cause = Some(cause);
            round_trip(&keyed);
        }
        for group in GroupKind::ALL {
            keyed.row.crawlers[0].group = Some(group);
            round_trip(&keyed);
        }
        for class in FetchClass::ALL {
            keyed.row.fetch_class = Some(class);
            round_trip(&keyed);
        }
        for class in HostClass::ALL {
            keyed.row.cc_class = Some(class);
            round_trip(&keyed);
        }
        for outcome in OUTCOMES {
            keyed.row.outcome = Some(outcome);
            round_trip(&keyed);
        }
        for reason in REASONS {
            keyed.row.reason = Some(reason);
            round_trip(&keyed);
            assert_eq!(reason_of_word(&reason_word(reason)), Some(reason));
        }
        // A reason stored as its word (one this table did not know).
        let mut bytes = Vec::new();
        encode(&Keyed::new(SiteRow::default(), 0, 0), &mut bytes).unwrap();
        let at = 8 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1;
        assert_eq!(bytes[at], 0, "the reason's tag");
        bytes.splice(at..at + 1, [WORD, 12].into_iter().chain(*b"server_error"));
        let back = decode(&bytes).unwrap();
        assert_eq!(back.row.reason, Some(OutcomeReason::ServerError));
        bytes[at + 2] = b'x';
        assert_eq!(decode(&bytes).unwrap_err(), "an unknown outcome reason");
    }

    #[test]
    fn verdicts_are_stored_once_each_and_read_back_in_order() {
        let mut keyed = full();
        // More distinct verdicts than one byte indexes, in no order.
        keyed.row.crawlers = (0..400).map(|c| verdict((c * 7919) % 300)).collect();
        round_trip(&keyed);
        let mut alike = keyed.clone();
        alike.row.crawlers = vec![verdict(1); 400];
        let size = |k: &Keyed| {
            let mut bytes = Vec::new();
            encode(k, &mut bytes).unwrap();
            bytes.len()
        };
        assert!(
            size(&alike) + 299 * 20 < size(&keyed),
            "one verdict stored once"
        );
        // Empty lists and defaults among them.
        keyed.row.crawlers[5] = CrawlerVerdict::default();
        keyed.row.crawlers[6] = CrawlerVerdict::unanswered(Cause::Redirected);
        keyed.row.crawlers[7] = CrawlerVerdict::without_rules(false, Cause::Unreachable, 2);
        round_trip(&keyed);
    }

    #[test]
    fn a_damaged_record_is_an_error_not_a_panic() {
        let mut bytes = Vec::new();
        encode(&full(), &mut bytes).unwrap();
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer).unwrap_err(), "bytes after its end");
        for at in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut damaged = bytes.clone();
                damaged[at] ^= flip;
                let _ = decode(&damaged);
            }
        }
        // An index past the distinct verdicts.
        let mut keyed = Keyed::new(SiteRow::default(), 0, 0);
        keyed.row.crawlers = vec![CrawlerVerdict::default()];
        let mut bytes = Vec::new();
        encode(&keyed, &mut bytes).unwrap();
        // The one run (index, length), the count of distinct verdicts, the
        // verdict's 7 bytes.
        let run = bytes.len() - 7 - 1 - 2;
        assert_eq!(bytes[run..run + 3], [0, 1, 1], "the run and the count");
        bytes[run] = 1;
        assert_eq!(decode(&bytes).unwrap_err(), "a verdict index out of range");
        bytes[run] = 0;
        bytes[run + 1] = 2;
        assert_eq!(decode(&bytes).unwrap_err(), "runs past the crawlers' count");
        // A count of crawlers past the most a row may have.
        let mut bytes = Vec::new();
        encode(&Keyed::new(SiteRow::default(), 0, 0), &mut bytes).unwrap();
        assert_eq!(bytes[bytes.len() - 2..], [0, 0], "no crawlers, no verdicts");
        let mut count = Vec::new();
        put_len(&mut count, MAX_CRAWLERS + 1);
        bytes.splice(bytes.len() - 2..bytes.len() - 1, count);
        assert_eq!(decode(&bytes).unwrap_err(), TOO_MANY);
    }
}
