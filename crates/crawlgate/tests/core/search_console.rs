//! Search Console's line view against Google's reporting library.
//!
//! **How the answers were made.** `testdata/search-console/reporting_robots.txt.gz`
//! holds what Google's `RobotsParsingReporter` (`reporting_robots.cc` of
//! google/robotstxt, commit 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9 of
//! 1 April 2026, whose `kUnsupportedTags` lists content-signal and
//! content-usage) says of every corpus file. The library was compiled
//! outside this repository with g++ 12.2.0 (Debian 12.2.0-14+deb12u1,
//! `-std=c++17 -O2`) against Debian's abseil 20220623.1, together with a
//! small driver that read each corpus file whole, ran `ParseRobotsTxt` with
//! a fresh reporter, checked that `parse_results()` held one entry per line
//! numbered 1, 2, … and that each `is_typo` equalled the metadata's
//! `is_acceptable_typo`, and printed one record per file: its name,
//! `valid_directives()`, `unused_directives()`, the number of lines, and a
//! token per line, the tag's letter followed by a letter for each of the
//! metadata flags that was set (the file's own header lists them). Neither
//! Google's code nor the driver is part of the repository; their output on
//! the corpus is: facts to compare with.
//!
//! **What must agree.** On every one of the 415,449 lines of the 4,231
//! files: the tag, typo, missing colon, too long, and the other flags
//! (empty, comment, has a comment, has a directive); per file, the number of
//! lines and both counts. Each disagreement must belong to a class in
//! `KNOWN_DISAGREEMENTS`, proven case by case, and every listed class must
//! still occur; today the list is empty: there is none.
//!
//! Then the expectations of Google's own `reporting_robots_test.cc`, as
//! named cases written here.

use std::collections::BTreeMap;
use std::io::Read as _;

use crawlgate::{LineKind, ReportTag, ReportedLine, SearchConsoleReport};

const ANSWERS: &str = "../../testdata/search-console/reporting_robots.txt.gz";

/// Classes of disagreement with the library that are understood, each
/// with its reason. A class here that no longer occurs fails the test.
const KNOWN_DISAGREEMENTS: &[(&str, &str)] = &[];

/// One line as the library reported it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Facts {
    tag: char,
    is_empty: bool,
    has_comment: bool,
    is_comment: bool,
    has_directive: bool,
    typo: bool,
    too_long: bool,
    missing_colon: bool,
}

impl Facts {
    /// From a driver token: the tag letter, then the flags set.
    fn parse(token: &str) -> Facts {
        let mut chars = token.chars();
        let mut facts = Facts {
            tag: chars.next().expect("a tag letter"),
            ..Facts::default()
        };
        for flag in chars {
            match flag {
                'E' => facts.is_empty = true,
                'H' => facts.has_comment = true,
                'C' => facts.is_comment = true,
                'V' => facts.has_directive = true,
                'T' => facts.typo = true,
                'L' => facts.too_long = true,
                'M' => facts.missing_colon = true,
                other => panic!("unknown flag {other:?} in {token:?}"),
            }
        }
        facts
    }

    /// The same facts from crawlgate's report.
    fn of(line: &ReportedLine) -> Facts {
        Facts {
            tag: letter(line.tag()),
            is_empty: line.kind == LineKind::Empty,
            has_comment: line.has_comment,
            is_comment: line.kind == LineKind::Comment,
            has_directive: line.kind.is_directive(),
            typo: line.typo,
            too_long: line.too_long,
            missing_colon: line.missing_colon,
        }
    }
}

/// The driver's letter for a tag.
fn letter(tag: ReportTag) -> char {
    match tag {
        ReportTag::Unknown => 'k',
        ReportTag::UserAgent => 'u',
        ReportTag::Allow => 'a',
        ReportTag::Disallow => 'd',
        ReportTag::Sitemap => 's',
        ReportTag::Unused => 'x',
    }
}

/// What the library said of one file.
struct FileAnswer {
    valid: u32,
    unused: u32,
    lines: Vec<Facts>,
}

fn answers() -> BTreeMap<String, FileAnswer> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(ANSWERS);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("the answers are gzipped UTF-8");
    let mut answers = BTreeMap::new();
    for record in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = record.split('\t').collect();
        assert_eq!(fields.len(), 5, "malformed record {record:?}");
        let lines: Vec<Facts> = fields[4].split(' ').map(Facts::parse).collect();
        assert_eq!(lines.len(), fields[3].parse::<usize>().unwrap());
        answers.insert(
            fields[0].to_owned(),
            FileAnswer {
                valid: fields[1].parse().unwrap(),
                unused: fields[2].parse().unwrap(),
                lines,
            },
        );
    }
    answers
}

/// Names the class of a disagreement on one line, or `None` if nothing
/// explains it. (No class is known: see `KNOWN_DISAGREEMENTS`.)
fn classify(_line: &[u8], _ours: &Facts, _google: &Facts) -> Option<&'static str> {
    None
}

#[test]
fn every_corpus_line_is_classified_as_googles_reporting_library_does() {
    let answers = answers();
    let files = crawlgate_corpus::files();
    assert_eq!(
        answers.len(),
        files.len(),
        "the answers cover another corpus"
    );
    let (mut lines, mut valid, mut unused) = (0usize, 0u64, 0u64);
    let mut classes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut unexplained = Vec::new();
    for (name, bytes) in &files {
        let google = answers
            .get(name)
            .unwrap_or_else(|| panic!("no answer for {name}"));
        let ours = SearchConsoleReport::of(bytes);
        assert_eq!(ours.lines().len(), google.lines.len(), "{name}: line count");
        assert_eq!(ours.valid_directives(), google.valid, "{name}: valid");
        assert_eq!(ours.unused_directives(), google.unused, "{name}: unused");
        for (line, expected) in ours.lines().iter().zip(&google.lines) {
            let facts = Facts::of(line);
            if facts != *expected {
                let text = &bytes[line.bytes.clone()];
                match classify(text, &facts, expected) {
                    Some(class) => *classes.entry(class).or_default() += 1,
                    None => unexplained.push(format!(
                        "{name}:{}: ours {facts:?}, Google's {expected:?}: {:?}",
                        line.number,
                        String::from_utf8_lossy(&text[..text.len().min(200)])
                    )),
                }
            }
        }
        lines += ours.lines().len();
        valid += u64::from(ours.valid_directives());
        unused += u64::from(ours.unused_directives());
    }
    assert!(
        unexplained.is_empty(),
        "{} unexplained disagreements, the first:\n{}",
        unexplained.len(),
        unexplained[..unexplained.len().min(20)].join("\n")
    );
    for (class, reason) in KNOWN_DISAGREEMENTS {
        assert!(
            classes.contains_key(class),
            "listed class {class} ({reason}) no longer occurs"
        );
    }
    // The whole corpus was compared, not a part of it.
    assert_eq!(lines, 415_449);
    assert_eq!((valid, unused), (238_702, 45_868));
}

/// The kinds seen across the corpus: every class of line the library has
/// is exercised by real files, so the comparison above covers each.
#[test]
fn the_corpus_exercises_every_kind_and_flag() {
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut typos, mut colons, mut long) = (0, 0, 0);
    for (_, bytes) in crawlgate_corpus::files() {
        for line in SearchConsoleReport::of(&bytes).lines() {
            *kinds.entry(line.kind.as_str()).or_default() += 1;
            typos += usize::from(line.typo);
            colons += usize::from(line.missing_colon);
            long += usize::from(line.too_long);
        }
    }
    for kind in [
        "user-agent",
        "allow",
        "disallow",
        "sitemap",
        "unused",
        "unknown",
        "empty",
        "comment",
        "invalid",
    ] {
        assert!(
            kinds.get(kind).is_some_and(|&n| n > 0),
            "no {kind} line: {kinds:?}"
        );
    }
    assert!(
        typos > 0 && colons > 0 && long > 0,
        "{typos} {colons} {long}"
    );
}

/// The counts alone are the whole report's, file by file, on the corpus
/// (the survey reads them so), and not all zero.
#[test]
fn counts_alone_are_the_reports_counts() {
    let mut totals = (0, 0, 0);
    for (name, bytes) in crawlgate_corpus::files() {
        let report = SearchConsoleReport::of(&bytes);
        let counts = SearchConsoleReport::counts(&bytes);
        let whole = (
            report.valid_directives(),
            report.unused_directives(),
            report.count(LineKind::Unknown) as u32,
        );
        assert_eq!(
            (
                counts.valid_directives,
                counts.unused_directives,
                counts.unknown_lines
            ),
            whole,
            "{name}"
        );
        totals = (totals.0 + whole.0, totals.1 + whole.1, totals.2 + whole.2);
    }
    assert!(totals.0 > 0 && totals.1 > 0 && totals.2 > 0, "{totals:?}");
}

// The expectations of Google's `reporting_robots_test.cc`, case by case.

/// What one line of Google's test expects: the tag, typo, and the metadata.
fn expect(report: &SearchConsoleReport, number: u32, tag: ReportTag, flags: &str) {
    let line = &report.lines()[number as usize - 1];
    assert_eq!(line.number, number);
    let expected = Facts::parse(&format!("{}{flags}", letter(tag)));
    assert_eq!(Facts::of(line), expected, "line {number}");
}

#[test]
fn lines_numbers_are_counted_correctly() {
    use ReportTag::*;
    let simple = "User-Agent: foo\n\
                  Allow: /some/path\n\
                  User-Agent bar # no\n\
                  absolutely random line\n\
                  #so comment, much wow\n\
                  \n\
                  unicorns: /extinct\n\
                  noarchive: /some\n\
                  Disallow: /\n\
                  Error #and comment\n\
                  useragent: baz\n\
                  disallaw: /some\n\
                  site-map: https://e/s.xml #comment\n\
                  sitemap: https://e/t.xml\n\
                  Noarchive: /someCapital\n";
    let report = SearchConsoleReport::of(simple.as_bytes());
    assert_eq!(report.valid_directives(), 8);
    assert_eq!(report.lines().len(), 16);
    expect(&report, 1, UserAgent, "V");
    expect(&report, 2, Allow, "V");
    expect(&report, 3, UserAgent, "HVM");
    expect(&report, 4, Unknown, "");
    expect(&report, 5, Unknown, "HC");
    expect(&report, 6, Unknown, "E");
    expect(&report, 7, Unknown, "V");
    expect(&report, 8, Unused, "V");
    expect(&report, 9, Disallow, "V");
    expect(&report, 10, Unknown, "H");
    expect(&report, 11, UserAgent, "VT");
    expect(&report, 12, Disallow, "VT");
    expect(&report, 13, Sitemap, "HVT");
    expect(&report, 14, Sitemap, "V");
    expect(&report, 15, Unused, "V");
    expect(&report, 16, Unknown, "E");
    // Not asserted by Google's test, but what its reporter counts: the
    // unknown `unicorns` and both `noarchive` lines.
    assert_eq!(report.unused_directives(), 3);

    let dos = "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n";
    let report = SearchConsoleReport::of(dos.as_bytes());
    assert_eq!((report.valid_directives(), report.lines().len()), (4, 7));

    let mac = "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r";
    let report = SearchConsoleReport::of(mac.as_bytes());
    assert_eq!((report.valid_directives(), report.lines().len()), (4, 7));
}

#[test]
fn lines_too_long_reported_correctly() {
    use ReportTag::*;
    let mut long_line = "/x/".to_owned();
    while long_line.len() < 2084 * 8 {
        long_line.push('a');
    }
    let file = format!("user-agent: foo\ndisallow: {long_line}\nallow: /\n");
    let report = SearchConsoleReport::of(file.as_bytes());
    assert_eq!(report.valid_directives(), 3);
    assert_eq!(report.lines().len(), 4);
    expect(&report, 1, UserAgent, "V");
    expect(&report, 2, Disallow, "VL");
    expect(&report, 3, Allow, "V");
}

// Beyond Google's test: edges of the library's reading that the corpus
// barely has. The expected tokens are what Google's library printed for
// these inputs, run through the same driver as the corpus answers.

#[test]
fn edges_agree_with_the_library() {
    let long = |len: usize| {
        let mut file = b"\xEF\xBB\xBFallow: /".to_vec();
        file.resize(3 + len, b'a');
        file.extend_from_slice(b"\nx");
        file
    };
    let mut past_comment = b"allow: /".to_vec();
    past_comment.resize(8 + 16_700, b'a');
    past_comment.extend_from_slice(b"#c");
    // Name, input, (valid, unused), the library's tokens.
    type Case = (&'static str, Vec<u8>, (u32, u32), &'static str);
    let cases: Vec<Case> = vec![
        // 16,663 bytes are read; the 16,664th sets the flag ("over 2083 × 8
        // bytes" in the library's comment is one byte off: the buffer of
        // 2083 × 8 bytes keeps its last for the NUL).
        ("16,663 bytes after a BOM", long(16_663), (1, 0), "aV k"),
        ("16,664 bytes after a BOM", long(16_664), (1, 0), "aVL k"),
        ("a comment past the limit", past_comment, (1, 0), "aVL"),
        ("a NUL hides the comment after it", b"\0# x".to_vec(), (0, 0), "kE"),
        ("a NUL after a comment", b"  # x\0".to_vec(), (0, 0), "kHC"),
        ("a NUL in a rule", b"Disallow: /a\0#b".to_vec(), (1, 0), "dV"),
        ("CR, LF, CR LF", b"a: b\r\nc\rd\n\n".to_vec(), (0, 1), "kV k k kE kE"),
        (
            "unused keys are whole names",
            b"CRAWL-DELAY: 1\ncrawl-delays: 1\ncrawl delay: 1\nlicense: x\nDomain: x\n".to_vec(),
            (0, 5),
            "xV kV kV kV xV kE",
        ),
        ("nothing", b"".to_vec(), (0, 0), "kE"),
        ("whitespace", b" \x0b \n\t\n".to_vec(), (0, 0), "kE kE kE"),
        (
            "a vertical tab is no separator",
            b"Disallow \x0b /x\nfoo\x0bbar baz\n".to_vec(),
            (0, 1),
            "k kVM kE",
        ),
        ("no key before the colon", b": /x\n :\nfoo:\n".to_vec(), (0, 1), "k k kV kE"),
        (
            "a cut BOM, and a BOM on line 2",
            b"\xEF\xBBUser-agent: *\n\xEF\xBB\xBFDisallow: /\n".to_vec(),
            (1, 1),
            "uV kV kE",
        ),
        (
            "prefixes and typos",
            b"user-agentx: a\nuseragentfoo: b\nUser Agent: c\nsite-mapper: x\nsitemaps: y\nallowed: z\ndisallaws /q\n".to_vec(),
            (7, 0),
            "uV uVT uVT sVT sV aV dVTM kE",
        ),
    ];
    for (name, input, (valid, unused), tokens) in cases {
        let report = SearchConsoleReport::of(&input);
        let ours: Vec<Facts> = report.lines().iter().map(Facts::of).collect();
        let google: Vec<Facts> = tokens.split(' ').map(Facts::parse).collect();
        assert_eq!(ours, google, "{name}");
        assert_eq!(
            (report.valid_directives(), report.unused_directives()),
            (valid, unused),
            "{name}"
        );
    }
}

#[test]
fn no_size_limit_unlike_the_fetcher() {
    let mut file = String::from("User-agent: *\n");
    while file.len() <= crawlgate::MAX_BYTES {
        file.push_str("Disallow: /some/long/path/to/fill/the/file\n");
    }
    file.push_str("Crawl-delay: 1\n");
    let report = SearchConsoleReport::of(file.as_bytes());
    let last = &report.lines()[report.lines().len() - 2];
    assert_eq!(last.kind, LineKind::Unused);
    assert_eq!(report.unused_directives(), 1);
}

#[test]
fn counts_are_the_sums_of_the_lines() {
    for (_, bytes) in crawlgate_corpus::files().iter().step_by(7) {
        let report = SearchConsoleReport::of(bytes);
        let of = |tags: &[ReportTag]| {
            report
                .lines()
                .iter()
                .filter(|l| l.kind.is_directive() && tags.contains(&l.tag()))
                .count() as u32
        };
        use ReportTag::*;
        assert_eq!(
            report.valid_directives(),
            of(&[UserAgent, Allow, Disallow, Sitemap])
        );
        assert_eq!(report.unused_directives(), of(&[Unused, Unknown]));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    /// Any bytes: no panic, one entry per physical line (CR, LF and CR LF
    /// each end one; a BOM is skipped), numbered in order, each span inside
    /// the input and after the one before, each key inside its line.
    #[test]
    fn any_bytes_give_one_entry_per_line(
        bytes in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::prelude::any::<u8>(),
                proptest::sample::select(b"\r\n#: \t\0\xEF\xBB\xBFaDdisluw".to_vec()),
            ],
            0..600,
        )
    ) {
        let report = SearchConsoleReport::of(&bytes);
        let body = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(&bytes);
        let ends = body.iter().filter(|&&b| b == b'\n' || b == b'\r').count()
            - body.windows(2).filter(|w| w == b"\r\n").count();
        proptest::prop_assert_eq!(report.lines().len(), ends + 1);
        let mut at = 0;
        for (i, line) in report.lines().iter().enumerate() {
            proptest::prop_assert_eq!(line.number as usize, i + 1);
            proptest::prop_assert!(at <= line.bytes.start && line.bytes.end <= bytes.len());
            at = line.bytes.end;
            if let Some(key) = &line.key {
                proptest::prop_assert!(line.bytes.start <= key.bytes.start && key.bytes.end <= line.bytes.end);
                proptest::prop_assert!(line.kind.is_directive());
            }
        }
    }
}
