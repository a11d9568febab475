//! Comparing two readings of a file on concrete crawlers and URLs.
//!
//! The crawlers are every product token the file names, Googlebot, and one
//! name no group names (for a crawler family's reading such as Bing's: the
//! family's crawlers the file names, and its main crawler); crawlers that get
//! the same groups in both readings as an earlier one are skipped. The URLs are sample paths of every rule of
//! the crawler's groups (in either reading): each pattern with `*` read as
//! `x`, without its `$`, plus `/`. A difference is reported
//! once per line: the line of the rule that decides in Google's reading (or
//! else in the other one, or else the rule the URL came from).
//!
//! Deciding every sample in both readings would be quadratic for files with
//! thousands of rules, so a sample is only decided when the two readings can
//! disagree on it (a test checks, on the corpus, that this finds what
//! deciding every sample finds). When both readings match patterns alike
//! (same wildcards, same precedence: google and rfc9309), that is when a
//! rule only one of them has, or an `index.html` alias, may match it. With
//! the legacy reading (first match, no wildcards), it is when such a rule or
//! any wildcard or anchored pattern may match it, or when both an allow and
//! a disallow match it: if not, every matching rule is a plain prefix of one
//! kind in both readings. With Yandex's (longest literal, a `*` that never
//! goes back), plain rules weigh and match alike, and so do most wildcard
//! patterns ([`restart_alike`]): where such a rule matches, the sample is
//! decided only if the rules' weights in the two readings give different
//! verdicts, and the weights are only compared where a rule matches that
//! can rank apart (heavier in one reading only) from another rule that can
//! match the same paths (with no such rule, nor any matched differently,
//! no sample of a crawler is decided). [`PrefixIndex`] answers "which kinds
//! of plain rules match this path, and the longest of each" in logarithmic
//! time.

use crawlgate::Who;
use crawlgate::{
    AgentView, ExtensionKind, GroupSelection, Pattern, Precedence, Profile, Reading, RobotsTxt,
    Rule,
};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::{Cell, OnceCell};

use crate::budget::{Budget, LookupCost};
use crate::context::generic_agent;
use crate::context::Context;
use crate::diagnostic::{Code, Diagnostic};
use crate::inclusion::sample_into;
use crate::prefixes::Prefixes;
use crate::rules::profiles::legacy_choice::LegacyChoice;
use crate::rules::profiles::pattern_facts::{literal_start, may_overlap, restart_alike};
use crate::wording::{describe_verdict, lines_phrase};

fn reader_name(profile: Profile) -> &'static str {
    if profile == Profile::RFC9309 {
        "RFC 9309 parsers"
    } else if profile == Profile::LEGACY {
        "legacy parsers (no wildcards, first matching group and rule, as Python's robotparser)"
    } else if profile == Profile::BING {
        "Bing"
    } else if profile == Profile::YANDEX {
        "Yandex's parser"
    } else {
        "this reading"
    }
}

/// Whether the rfc9309 reading may see a URL written like this value
/// differently from Google's: it normalises escapes in URLs (uppercase hex,
/// unreserved characters decoded, a stray `%` encoded) and encodes non-ASCII
/// bytes, where Google's reading takes the URL as it is.
fn escapes_differ(value: &str) -> bool {
    let v = value.as_bytes();
    // Neither `%` nor a byte outside ASCII: one pass, without an early exit
    // (values are short, and this form vectorises).
    let unusual = v
        .iter()
        .fold(0u8, |seen, &b| seen | (b & 0x80) | u8::from(b == b'%'));
    if unusual == 0 {
        return false;
    }
    v.iter().any(|&b| b >= 0x80)
        || memchr::memchr_iter(b'%', v).any(|i| {
            if i + 2 >= v.len() || !v[i + 1].is_ascii_hexdigit() || !v[i + 2].is_ascii_hexdigit() {
                return true;
            }
            let lower_hex = v[i + 1].is_ascii_lowercase() || v[i + 2].is_ascii_lowercase();
            let byte = u8::from_str_radix(&value[i + 1..i + 3], 16).unwrap_or(0);
            lower_hex || byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
        })
}

/// [`sample_into`], with each `*` read as a character the pattern does not
/// hold: with Yandex's `*`, which never goes back, a filler that repeats the
/// text after it (`x` before `xx_`) makes a URL no real one resembles.
fn sample_apart(pattern: &str, out: &mut String) -> bool {
    let filler = ['x', 'q', 'z', 'j', '0', '~']
        .into_iter()
        .find(|c| !pattern.contains(*c))
        .unwrap_or('x');
    if !sample_into(pattern, out) {
        return false;
    }
    if filler != 'x' {
        let body = pattern.strip_suffix('$').unwrap_or(pattern);
        out.clear();
        if !body.starts_with('/') {
            out.push('/');
        }
        out.extend(body.chars().map(|c| if c == '*' { filler } else { c }));
    }
    true
}

/// `path` as a crawler sends it: its bytes outside ASCII percent-encoded
/// (as Google's reading encodes them in patterns).
fn as_sent<'p>(path: &'p str, encoded: &'p mut String) -> &'p str {
    if path.is_ascii() {
        return path;
    }
    encoded.clear();
    for &b in path.as_bytes() {
        if b.is_ascii() {
            encoded.push(char::from(b));
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            encoded.push('%');
            encoded.push(char::from(HEX[usize::from(b >> 4)]));
            encoded.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    encoded
}

/// A path cut to a readable length.
fn shorten(path: &str) -> String {
    const MAX: usize = 100;
    if path.len() <= MAX {
        return path.to_owned();
    }
    let mut end = MAX;
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &path[..end])
}

/// A view's rules, each with its pattern, read once (it is looked at often).
fn with_patterns<'a>(view: &AgentView<'a>) -> Vec<(Rule<'a>, &'a str)> {
    view.groups()
        .flat_map(|g| g.rules())
        .map(|r| (r, r.pattern()))
        .collect()
}

fn group_lines(view: &AgentView<'_>) -> Vec<u32> {
    view.groups().map(|g| g.first_line()).collect()
}

/// The comparison's allowances, in units per byte of the file: rules built
/// into the crawlers' views (compiled, hashed, indexed), user-agent lines
/// read to choose a crawler's group in the legacy reading, and rules tried
/// by lookups (see [`LookupCost`]). The corpus needs at most a half, 14 and
/// 556 units per byte.
const VIEW_UNITS_PER_BYTE: u64 = 2;
const SELECT_UNITS_PER_BYTE: u64 = 32;
const LOOKUP_UNITS_PER_BYTE: u64 = 1024;

const ALLOW: u8 = 1;
const DISALLOW: u8 = 2;
/// A rule that may decide differently in the two readings.
const SPECIAL: u8 = 4;
/// A wildcard rule both readings have that they may match differently on
/// some paths: matched in both to know.
const TRY_BOTH: u8 = 8;

/// A floating rule both readings match alike whose weights may rank apart
/// from another rule's: where it matches, the weights are compared.
const WEIGHTY: u8 = 16;

/// Most rules matched one by one against each sample; more are indexed by
/// their literal prefix instead (conservatively).
const MAX_FLOATING: usize = 64;

/// The same for rules both readings match alike: each costs a few
/// instructions per sample (its bytes are checked first), and files with
/// hundreds of wildcard rules would otherwise have every sample decided.
const MAX_ALIKE_FLOATING: usize = 1024;

/// The longest matching rule of each kind, allow and disallow, by weight;
/// `-1` where none matches.
type Longest = [i64; 2];

const NO_MATCH: Longest = [-1, -1];

/// Whether a reading allows a path whose longest matches are these: the
/// heavier kind, allow on a tie (and when nothing matches).
fn allowed(longest: Longest) -> bool {
    longest[0] >= longest[1]
}

/// Literal prefixes with flags; answers the union of the flags of every key
/// that is a prefix of a path, and the longest such key of each kind.
struct PrefixIndex<'a> {
    prefixes: Prefixes<'a>,
    /// Flags of the key and of every key that is a prefix of it.
    flags: Vec<u8>,
    /// The longest of those keys flagged `ALLOW`, and `DISALLOW`.
    longest: Vec<Longest>,
}

impl<'a> PrefixIndex<'a> {
    fn new(mut items: Vec<(&'a [u8], u8)>) -> Self {
        // Sorted, a key's repeats are neighbours: merged without searching.
        items.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut keys: Vec<&[u8]> = Vec::with_capacity(items.len());
        let mut flags: Vec<u8> = Vec::with_capacity(items.len());
        let mut longest: Vec<Longest> = Vec::with_capacity(items.len());
        for (key, flag) in items {
            if keys.last() != Some(&key) {
                keys.push(key);
                flags.push(0);
                longest.push(NO_MATCH);
            }
            let i = keys.len() - 1;
            flags[i] |= flag;
            for (kind, slot) in [(ALLOW, 0), (DISALLOW, 1)] {
                if flag & kind != 0 {
                    longest[i][slot] = key.len() as i64;
                }
            }
        }
        // Distinct and sorted already: the indices stay those above.
        let prefixes = Prefixes::new(keys);
        debug_assert_eq!(prefixes.len(), flags.len());
        // A key's parent sorts before it: its flags are complete by then.
        for i in 0..flags.len() {
            if let Some(parent) = prefixes.ancestors(i).next() {
                flags[i] |= flags[parent];
                let inherited = longest[parent];
                for (own, above) in longest[i].iter_mut().zip(inherited) {
                    *own = (*own).max(above);
                }
            }
        }
        PrefixIndex {
            prefixes,
            flags,
            longest,
        }
    }

    #[cfg(test)]
    fn flags(&self, path: &[u8]) -> u8 {
        self.at(path).0
    }

    fn at(&self, path: &[u8]) -> (u8, Longest) {
        self.prefixes
            .longest_prefix_of(path)
            .map_or((0, NO_MATCH), |i| (self.flags[i], self.longest[i]))
    }
}

/// The set of bytes in `bytes` but `*`, folded to 64 bits (bit `b % 64`): a
/// cheap, conservative stand-in for "contains every byte of".
fn byte_set(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .filter(|&&b| b != b'*')
        .fold(0, |set, &b| set | 1 << (b & 63))
}

/// A pattern compiled for both readings: as a wildcard pattern, and as a
/// plain prefix.
struct Floating<'a> {
    written: &'a str,
    wildcard: Pattern<'a>,
    /// Bytes both readings need in a path (bit `b % 64`): all but `*` and
    /// the anchor, which the wildcard reading does not need.
    needs: u64,
    /// `SPECIAL` when the readings may match it differently, else its kind.
    flag: u8,
    /// Its weight in Google's reading and in the other (for a rule both
    /// have).
    weights: [i64; 2],
    /// The pattern as the other reading matches it, when that can differ
    /// from Google's on some paths (Yandex's `*`): both are tried.
    theirs: Option<Pattern<'a>>,
}

impl<'a> Floating<'a> {
    fn new(pattern: &'a str, flag: u8, other: &Profile) -> Self {
        let weight = |precedence: Precedence| i64::from(precedence.weight(pattern.as_bytes()));
        Floating {
            written: pattern,
            wildcard: Pattern::new(pattern, true),
            needs: byte_set(pattern.strip_suffix('$').unwrap_or(pattern).as_bytes()),
            flag,
            weights: [weight(Profile::GOOGLE.precedence), weight(other.precedence)],
            theirs: (flag & TRY_BOTH != 0).then(|| Pattern::for_profile(pattern, other)),
        }
    }

    /// Whether the pattern may match `path` in either a wildcard or a
    /// plain-prefix reading.
    fn may_match(&self, path: &str, path_bytes: u64) -> bool {
        self.needs & !path_bytes == 0
            && (path.starts_with(self.written) || self.wildcard.matches(path))
    }
}

fn is_plain(pattern: &str) -> bool {
    pattern.starts_with('/') && !pattern.contains('*') && !pattern.ends_with('$')
}

/// What can make the two readings disagree for one crawler.
struct Disagreement<'a> {
    /// Built on first read from `items` (most crawlers need none).
    index: OnceCell<PrefixIndex<'a>>,
    items: Cell<Vec<(&'a [u8], u8)>>,
    /// The floating rules tried on every path: those the readings may match
    /// differently (`SPECIAL`, `TRY_BOTH`), and those whose weights may
    /// rank differently against another rule's (`WEIGHTY`).
    checked: Vec<Floating<'a>>,
    /// Every floating rule both readings match alike (with `other`'s
    /// weights), compiled when a path needs the weights.
    weighed: OnceCell<Vec<Floating<'a>>>,
    alike: Vec<(&'a str, u8)>,
    other: Profile,
    /// Google's `index.html` aliases (`/dir/$`) as the one path each
    /// matches.
    aliases: Vec<&'a str>,
    /// Whether plain prefix rules both readings have decide alike when an
    /// allow and a disallow both match: both readings let the longest win
    /// (Yandex's longest literal is the length for a plain rule), allow
    /// on a tie. Not so for the legacy reading's first match.
    plain_alike: bool,
    /// Whether a key of `index` is `SPECIAL`: if not, and plain rules
    /// decide alike, a path's flags tell nothing, and the index is only
    /// read for the weights of plain rules when a wildcard rule matches.
    any_special: bool,
    /// The rules that match every path, each reading's (weights).
    everywhere: [Longest; 2],
    /// Whether the rules matching every path may rank differently against
    /// a plain rule: then every path's weights are compared.
    always_weigh: bool,
}

/// Whether an allow and a disallow rule, each weighed in both readings,
/// rank differently in the two.
fn ranked_apart(allow: [i64; 2], disallow: [i64; 2]) -> bool {
    (allow[0] >= disallow[0]) != (allow[1] >= disallow[1])
}

/// The rules of `plain` (sorted by weight, each weighing the same in both
/// readings) that rank differently from a rule of the other kind weighed
/// `weights` in the two readings: the allow wins in one reading only.
fn ranked_apart_from_plain<T>(kind: u8, weights: [i64; 2], plain: &[(i64, T)]) -> &[(i64, T)] {
    let (low, high) = (weights[0].min(weights[1]), weights[0].max(weights[1]));
    let (start, end) = if kind == ALLOW {
        // The allow weighs at least `w` in one reading only: `low < w <= high`.
        (
            plain.partition_point(|(w, _)| *w <= low),
            plain.partition_point(|(w, _)| *w <= high),
        )
    } else {
        // `w` weighs at least the disallow in one reading only: `low <= w < high`.
        (
            plain.partition_point(|(w, _)| *w < low),
            plain.partition_point(|(w, _)| *w < high),
        )
    };
    &plain[start..end]
}

/// Most pairs of rules looked at to find the floating rules that may rank
/// apart from another; past it, all may.
const MAX_WEIGHED_PAIRS: usize = 1 << 16;

impl<'a> Disagreement<'a> {
    /// `items` for the index, `floating` with their flags.
    ///
    /// Where every rule matching a path matches it in both readings, the
    /// verdicts differ only if a matching allow and a matching disallow
    /// rank differently in the two (the allow heavier in one reading only).
    /// Plain rules weigh alike in both: such a pair holds a floating rule,
    /// or the rules matching every path. The floating rules in a pair that
    /// can match one path are `WEIGHTY`, and weights are only compared
    /// where one matches.
    fn new(
        items: Vec<(&'a [u8], u8)>,
        floating: Vec<(&'a str, u8)>,
        aliases: Vec<&'a str>,
        plain_alike: bool,
        everywhere: [Longest; 2],
        other: Profile,
    ) -> Self {
        let any_special = items.iter().any(|(_, flag)| flag & SPECIAL != 0);
        let mut floating = floating;
        let mut always_weigh = false;
        let weights_matter =
            everywhere[0] != everywhere[1] || floating.iter().any(|(_, flag)| flag & SPECIAL == 0);
        if !plain_alike {
            // First match: no weights to compare (the flags decide).
            for (_, flag) in &mut floating {
                if *flag & SPECIAL == 0 {
                    *flag |= WEIGHTY;
                }
            }
        } else if weights_matter {
            // The plain rules (both readings'), by kind, with their weights.
            let mut plain: [Vec<(i64, &[u8])>; 2] = Default::default();
            for &(key, flag) in &items {
                for (kind, slot) in [(ALLOW, 0), (DISALLOW, 1)] {
                    if flag & (kind | SPECIAL) == kind {
                        plain[slot].push((key.len() as i64, key));
                    }
                }
            }
            plain
                .iter_mut()
                .for_each(|p| p.sort_unstable_by_key(|&(w, _)| w));
            let every_allow = [everywhere[0][0], everywhere[1][0]];
            let every_disallow = [everywhere[0][1], everywhere[1][1]];
            always_weigh = ranked_apart(every_allow, every_disallow)
                || !ranked_apart_from_plain(ALLOW, every_allow, &plain[1]).is_empty()
                || !ranked_apart_from_plain(DISALLOW, every_disallow, &plain[0]).is_empty();
            let weights = |pattern: &str| {
                let weight =
                    |precedence: Precedence| i64::from(precedence.weight(pattern.as_bytes()));
                [weight(Profile::GOOGLE.precedence), weight(other.precedence)]
            };
            let mut pairs = 0usize;
            let mut alike: Vec<(usize, u8, [i64; 2], &[u8])> = Vec::new();
            for (i, &mut (pattern, ref mut flag)) in floating.iter_mut().enumerate() {
                if *flag & SPECIAL != 0 {
                    continue;
                }
                let kind = *flag & (ALLOW | DISALLOW);
                let w = weights(pattern);
                let start = literal_start(pattern);
                let apart = if kind == ALLOW {
                    ranked_apart(w, every_disallow)
                } else {
                    ranked_apart(every_allow, w)
                };
                let opposite = &plain[usize::from(kind == ALLOW)];
                if apart
                    || ranked_apart_from_plain(kind, w, opposite)
                        .iter()
                        .any(|(_, key)| {
                            pairs += 1;
                            pairs > MAX_WEIGHED_PAIRS || may_overlap(start, key)
                        })
                {
                    *flag |= WEIGHTY;
                }
                alike.push((i, kind, w, start));
            }
            let allows = alike.iter().filter(|(_, kind, ..)| *kind == ALLOW).count();
            if pairs + allows * (alike.len() - allows) > MAX_WEIGHED_PAIRS {
                for &(i, ..) in &alike {
                    floating[i].1 |= WEIGHTY;
                }
            } else {
                for &(a, _, aw, astart) in alike.iter().filter(|(_, kind, ..)| *kind == ALLOW) {
                    for &(d, _, dw, dstart) in
                        alike.iter().filter(|(_, kind, ..)| *kind == DISALLOW)
                    {
                        if ranked_apart(aw, dw) && may_overlap(astart, dstart) {
                            floating[a].1 |= WEIGHTY;
                            floating[d].1 |= WEIGHTY;
                        }
                    }
                }
            }
        }
        let checked = floating
            .iter()
            .filter(|(_, flag)| flag & (SPECIAL | TRY_BOTH | WEIGHTY) != 0)
            .map(|&(pattern, flag)| Floating::new(pattern, flag, &other))
            .collect();
        floating.retain(|(_, flag)| flag & SPECIAL == 0);
        Disagreement {
            index: OnceCell::new(),
            items: Cell::new(items),
            checked,
            weighed: OnceCell::new(),
            alike: floating,
            other,
            aliases,
            plain_alike,
            any_special,
            everywhere,
            always_weigh,
        }
    }

    fn index(&self) -> &PrefixIndex<'a> {
        self.index
            .get_or_init(|| PrefixIndex::new(self.items.take()))
    }

    /// Whether only a path with an escape can be decided differently.
    fn only_escapes(&self) -> bool {
        self.aliases.is_empty()
            && self.plain_alike
            && !self.any_special
            && !self.always_weigh
            && self.checked.is_empty()
    }

    fn possible(&self, path: &str) -> bool {
        let possible = self.possible_weighing_some(path);
        #[cfg(test)]
        assert_eq!(possible, self.possible_weighing_all(path), "{path}");
        possible
    }

    /// What both ways of weighing start with: `None` when `path` may be
    /// decided apart whatever the weights (it holds an escape, it is an
    /// alias's path, or the prefix index flags it), else the flags and plain
    /// weights of the prefix index, when they had to be read.
    fn flagged(&self, path: &str) -> Option<Option<(u8, Longest)>> {
        if path.contains('%') || self.aliases.contains(&path) {
            return None;
        }
        let everywhere_differs = self.everywhere[0] != self.everywhere[1];
        let flagged = (self.any_special || !self.plain_alike || everywhere_differs)
            .then(|| self.index().at(path.as_bytes()));
        match flagged {
            Some((flags, _))
                if flags & SPECIAL != 0
                    || !self.plain_alike && flags & (ALLOW | DISALLOW) == ALLOW | DISALLOW =>
            {
                None
            }
            flagged => Some(flagged),
        }
    }

    fn possible_weighing_some(&self, path: &str) -> bool {
        let bytes = path.as_bytes();
        let Some(flagged) = self.flagged(path) else {
            return true;
        };
        let path_bytes = byte_set(bytes);
        let mut weigh = self.always_weigh;
        for p in &self.checked {
            if p.flag & SPECIAL != 0 {
                if p.may_match(path, path_bytes) {
                    return true;
                }
            } else if p.needs & !path_bytes == 0 {
                let ours = p.wildcard.matches(path);
                if let Some(theirs) = &p.theirs
                    && theirs.matches(path) != ours
                {
                    return true;
                }
                weigh |= ours && p.flag & WEIGHTY != 0;
            }
        }
        // The rest match alike in both readings: unless a rule that may
        // rank apart matches, the verdicts agree (see `new`). Else each
        // reading's verdict follows from the weights of the rules that
        // match (plain rules alone decide alike).
        if !weigh {
            return false;
        }
        let (_, plain) = flagged.unwrap_or_else(|| self.index().at(bytes));
        let mut longest = self
            .everywhere
            .map(|every| [plain[0].max(every[0]), plain[1].max(every[1])]);
        let weighed = self.weighed.get_or_init(|| {
            self.alike
                .iter()
                .map(|&(pattern, flag)| Floating::new(pattern, flag, &self.other))
                .collect()
        });
        for p in weighed {
            if p.needs & !path_bytes == 0 && p.wildcard.matches(path) {
                let slot = usize::from(p.flag & DISALLOW != 0);
                for (reading, weight) in p.weights.into_iter().enumerate() {
                    longest[reading][slot] = longest[reading][slot].max(weight);
                }
            }
        }
        let [ours, theirs] = longest;
        allowed(ours) != allowed(theirs)
    }

    /// [`Disagreement::possible`] as it was first written, every floating
    /// rule weighed (tests only: the two must agree).
    #[cfg(test)]
    fn possible_weighing_all(&self, path: &str) -> bool {
        let bytes = path.as_bytes();
        let Some(flagged) = self.flagged(path) else {
            return true;
        };
        let everywhere_differs = self.everywhere[0] != self.everywhere[1];
        let with_plain = |plain: Longest| {
            self.everywhere
                .map(|every| [plain[0].max(every[0]), plain[1].max(every[1])])
        };
        let path_bytes = byte_set(bytes);
        let mut longest: Option<[Longest; 2]> = match flagged {
            Some((_, plain)) if everywhere_differs => Some(with_plain(plain)),
            _ => None,
        };
        let all = self
            .checked
            .iter()
            .filter(|p| p.flag & SPECIAL != 0)
            .map(|p| Floating::new(p.written, p.flag, &self.other))
            .chain(
                self.alike
                    .iter()
                    .map(|&(pattern, flag)| Floating::new(pattern, flag, &self.other)),
            );
        for p in all {
            if p.flag & SPECIAL != 0 {
                if p.may_match(path, path_bytes) {
                    return true;
                }
            } else if p.needs & !path_bytes == 0 && {
                let ours = p.wildcard.matches(path);
                match &p.theirs {
                    Some(theirs) if theirs.matches(path) != ours => return true,
                    _ => ours,
                }
            } {
                let longest = longest.get_or_insert_with(|| {
                    let (_, plain) = flagged.unwrap_or_else(|| self.index().at(bytes));
                    with_plain(plain)
                });
                let slot = usize::from(p.flag & DISALLOW != 0);
                for (reading, weight) in p.weights.into_iter().enumerate() {
                    longest[reading][slot] = longest[reading][slot].max(weight);
                }
            }
        }
        longest.is_some_and(|[ours, theirs]| allowed(ours) != allowed(theirs))
    }
}

type RuleKey<'a> = (u32, bool, &'a str);

/// A name compared and hashed without ASCII case, so that sets of names
/// need no lowercase copies.
#[derive(Clone, Copy, Debug)]
struct Caseless<'a>(&'a str);

impl PartialEq for Caseless<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for Caseless<'_> {}

impl std::hash::Hash for Caseless<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

/// Whether the rfc9309 reading of this (google) model differs only by rules
/// it drops, whose lines another finding already explains, without changing
/// the groups. Then it cannot decide anything differently on a line this
/// rule would report: its rules are a subset of Google's in the same groups,
/// so where the verdicts differ, Google's deciding rule is a dropped one.
///
/// The readings could otherwise differ through a dropped user-agent line, a
/// group left without rules (it would merge with the next), a `* x` value
/// (global for Google only), a cut long line, an `index.html` alias, or
/// escapes the rfc9309 reading normalises.
fn rfc9309_only_drops_explained_rules(
    google: &RobotsTxt,
    escapes_differ: impl Fn(&Rule<'_>) -> bool,
) -> bool {
    let mut dropped_lines: FxHashSet<u32> = FxHashSet::default();
    for d in google.diagnostics() {
        match d.code {
            crawlgate::Code::MissingColon
            | crawlgate::Code::MisspelledField
            | crawlgate::Code::FieldNamePrefix => {
                dropped_lines.insert(d.span.line);
            }
            crawlgate::Code::LineTooLong => return false,
            _ => {}
        }
    }
    if google
        .user_agents()
        .any(|ua| dropped_lines.contains(&ua.line()) || ua.is_global() && ua.value() != "*")
    {
        return false;
    }
    let dropped = |rule: &Rule<'_>| {
        dropped_lines.contains(&rule.line())
            || rule.value().as_bytes().first().is_some_and(|&b| b != b'/')
    };
    let groups = google.groups().len();
    google.groups().enumerate().all(|(i, group)| {
        let mut rules = group.rules();
        let kept =
            i + 1 == groups || group.rules().len() == 0 || group.rules().any(|r| !dropped(&r));
        kept && rules.all(|r| r.index_alias().is_none() && !escapes_differ(&r))
    })
}

/// The first `Crawl-delay` line between two user-agent lines of the
/// crawler's groups in Google's reading: where Bing's reading ends a group.
fn crawl_delay_ending(view: &AgentView<'_>) -> Option<u32> {
    view.groups().find_map(|group| {
        let last_agent = group.user_agents().last().map_or(0, |ua| ua.line());
        group
            .extensions()
            .find(|e| e.kind() == ExtensionKind::CrawlDelay && e.line() < last_agent)
            .map(|e| e.line())
    })
}

/// The crawlers a crawler family's reading is for: the profile's own list
/// (Bing's), or the registry's crawlers whose operator's parser it is
/// (`profile=yandex`); empty for a reading that is no family's.
fn family(profile: Profile) -> &'static [&'static str] {
    if !profile.crawlers.is_empty() {
        return profile.crawlers;
    }
    // The registry's families, gathered once: the linter asks per file.
    static FAMILIES: std::sync::OnceLock<Vec<(Profile, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    let families = FAMILIES.get_or_init(|| {
        let mut families: Vec<(Profile, Vec<&'static str>)> = Vec::new();
        for crawler in crawlgate::registry::crawlers() {
            let Some(profile) = crawler.profile else {
                continue;
            };
            match families.iter_mut().find(|(p, _)| *p == profile) {
                Some((_, tokens)) => tokens.push(crawler.token),
                None => families.push((profile, vec![crawler.token])),
            }
        }
        families
    });
    families
        .iter()
        .find(|(p, _)| *p == profile)
        .map_or(&[], |(_, tokens)| tokens.as_slice())
}

fn key<'a>(&(rule, pattern): &(Rule<'a>, &'a str)) -> RuleKey<'a> {
    (rule.line(), rule.is_allow(), pattern)
}

/// Every rule of `ours`, then every rule of `theirs` that `ours` lacks, each
/// with its pattern and whether both have it (the same line, kind and
/// pattern). A view's rules come in line order, and a line holds one rule:
/// the two lists are merged in one pass (sets otherwise).
fn shared_rules<'a>(
    ours: &[(Rule<'a>, &'a str)],
    theirs: &[(Rule<'a>, &'a str)],
) -> Vec<(Rule<'a>, &'a str, bool)> {
    let in_order =
        |rules: &[(Rule<'_>, &str)]| rules.windows(2).all(|w| w[0].0.line() < w[1].0.line());
    let mut rules: Vec<(Rule<'a>, &'a str, bool)> = Vec::with_capacity(ours.len() + theirs.len());
    if in_order(ours) && in_order(theirs) {
        let mut only_theirs = Vec::new();
        let mut other = theirs.iter().peekable();
        for rule in ours {
            let line = rule.0.line();
            while let Some(t) = other.next_if(|t| t.0.line() < line) {
                only_theirs.push(*t);
            }
            let shared = other.next_if(|t| t.0.line() == line).map(|t| {
                let same = key(t) == key(rule);
                if !same {
                    only_theirs.push(*t);
                }
                same
            });
            rules.push((rule.0, rule.1, shared == Some(true)));
        }
        only_theirs.extend(other);
        rules.extend(only_theirs.into_iter().map(|(r, p)| (r, p, false)));
        return rules;
    }
    let our_keys: FxHashSet<RuleKey<'_>> = ours.iter().map(key).collect();
    let their_keys: FxHashSet<RuleKey<'_>> = theirs.iter().map(key).collect();
    rules.extend(
        ours.iter()
            .map(|r| (r.0, r.1, their_keys.contains(&key(r)))),
    );
    rules.extend(
        theirs
            .iter()
            .filter(|r| !our_keys.contains(&key(r)))
            .map(|&(r, p)| (r, p, false)),
    );
    rules
}

/// Which samples [`compare_samples`] decides in both readings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Samples {
    /// Those the two readings can disagree on ([`Disagreement`]), within
    /// the lookup allowance: what the linter does.
    Possible,
    /// Every one, past the lookup allowance too: what the filter must
    /// agree with (tests only).
    #[cfg(test)]
    Every,
}

pub(crate) fn compare(cx: &Context<'_>, other: Profile, code: Code, out: &mut Vec<Diagnostic>) {
    compare_samples(cx, other, code, out, Samples::Possible);
}

fn compare_samples(
    cx: &Context<'_>,
    other: Profile,
    code: Code,
    out: &mut Vec<Diagnostic>,
    samples: Samples,
) {
    let every = samples != Samples::Possible;
    if cx.html {
        return;
    }
    // Normalising a value (Google's, rfc9309's, Bing's: none requotes)
    // changes only a `%` or a byte outside ASCII, and invalid UTF-8 turns
    // into replacement characters: a file with neither has no value whose
    // escapes differ. Looked at once, where a rule's value would be.
    let escapes_in_file = OnceCell::new();
    let rule_escapes_differ = |rule: &Rule<'_>| {
        *escapes_in_file
            .get_or_init(|| !cx.source.is_ascii() || memchr::memchr(b'%', cx.source).is_some())
            && escapes_differ(rule.value())
    };
    // Checked on Google's reading alone, before anything else is built.
    if other == Profile::RFC9309
        && cx.robots.profile() == Profile::GOOGLE
        && rfc9309_only_drops_explained_rules(cx.robots, rule_escapes_differ)
    {
        return;
    }
    let same_matching = Profile::GOOGLE.wildcards == other.wildcards
        && Profile::GOOGLE.precedence == other.precedence
        && Profile::GOOGLE.group_selection == other.group_selection;
    let plain_alike = matches!(
        other.precedence,
        Precedence::LongestMatch | Precedence::LongestLiteral
    );
    // Same records and the same decide-time switches: nothing can differ
    // (Bing's reading of a file where no `Crawl-delay` ends a group).
    if cx.same_records(other) && cx.robots.profile().decides_alike(&other) {
        return;
    }
    // Same records, same matching: only Google's `index.html` aliases, and
    // escapes in URLs (normalised by the rfc9309 reading only), can make a
    // difference (`/robots.txt` aside). Decided before the other reading is
    // even built.
    if same_matching
        && cx.robots.profile() == Profile::GOOGLE
        && cx.same_records(other)
        && !cx
            .robots
            .rules()
            .any(|r| r.index_alias().is_some() || rule_escapes_differ(&r))
    {
        return;
    }
    let google = cx.reading(Profile::GOOGLE);
    let theirs = cx.reading(other);
    // Past its limit of stored rules, Yandex's parser allows everything:
    // said once, where the file passes it, not at every rule.
    if let Some(line) = theirs.stored_rules_limit() {
        let line = match line {
            0 => cx.lines().len().max(1) as u32,
            line => line,
        };
        out.push(cx.diagnostic(
            code,
            cx.content_span(line),
            format!(
                "{} stores at most about 500 KB of rules (for one robot, or for all \
                 together), and this file passes that {}: it allows Yandex's robots \
                 everything, where Google reads the rules",
                reader_name(other),
                if line as usize >= cx.lines().len() {
                    "in all".to_owned()
                } else {
                    format!("at line {line}")
                }
            ),
        ));
        return;
    }
    let generic = generic_agent(google);
    let family = family(other);
    let reads_for = |agent: &str| family.iter().any(|c| c.eq_ignore_ascii_case(agent));
    // A parser with its own table of robots (Yandex's) is compared on its
    // robots as the crawler reading reads them in Google's reading too
    // (YandexBot follows a `Yandex` group there as well): what differs is
    // then the parsers, not the names.
    let how = match other.group_selection {
        GroupSelection::RobotPrefix => Reading::Crawler,
        _ => Reading::OneToken,
    };
    let mut agents: Vec<&str> = Vec::new();
    let mut names: FxHashSet<Caseless<'_>> = FxHashSet::default();
    for robots in [google, theirs] {
        for ua in robots.user_agents() {
            let token = ua.token();
            // A crawler family's reading matters for its crawlers only.
            if token.is_empty() || !family.is_empty() && !reads_for(token) {
                continue;
            }
            // `MJ12bot` names `MJ` for Google's parser: not a crawler's name.
            let cut_by_digit = ua.value()[token.len()..].starts_with(|c: char| c.is_ascii_digit());
            if !cut_by_digit && names.insert(Caseless(token)) {
                agents.push(token);
            }
        }
    }
    if family.is_empty() {
        for extra in ["Googlebot", generic] {
            if names.insert(Caseless(extra)) {
                agents.push(extra);
            }
        }
    } else {
        // The family's crawlers the file names, and its main crawler (which
        // also stands for the family when the `*` groups apply).
        if let Some(main) = family.first()
            && names.insert(Caseless(main))
        {
            agents.push(main);
        }
    }
    let legacy_choice = (theirs.profile().group_selection == GroupSelection::FirstSubstring)
        .then(|| LegacyChoice::new(theirs, &agents));
    // Lines whose reading difference another finding already explains:
    // read only where the readings decide a URL differently, so built then.
    let explained = std::cell::OnceCell::new();
    let explained = || -> &FxHashSet<u32> {
        explained.get_or_init(|| {
            google
                .diagnostics()
                .iter()
                .chain(theirs.diagnostics())
                .filter(|d| {
                    matches!(
                        d.code,
                        crawlgate::Code::MissingColon
                            | crawlgate::Code::MisspelledField
                            | crawlgate::Code::FieldNamePrefix
                            | crawlgate::Code::RuleBeforeUserAgent
                            | crawlgate::Code::PathNotAbsolute
                            | crawlgate::Code::LineTooLong
                    )
                })
                .map(|d| d.span.line)
                .chain(
                    google
                        .rules()
                        .filter(|r| r.value().starts_with('*'))
                        .map(|r| r.line()),
                )
                // Yandex's groups split at a blank line: `R106` says so.
                .chain(
                    (other == Profile::YANDEX)
                        .then(|| crate::rules::grouping::yandex_split_group::splits(cx))
                        .into_iter()
                        .flatten()
                        .flat_map(|s| {
                            s.split
                                .user_agents()
                                .map(|ua| ua.line())
                                .collect::<Vec<_>>()
                        }),
                )
                .collect()
        })
    };
    // With the same matching, the lines of rules that can make a difference:
    // rules only one reading has, rules with Google's `index.html` alias, and
    // rules whose value holds an escape (URL escapes are normalised only in
    // the rfc9309 reading). `None`: every rule may matter.
    let special_lines: Option<FxHashSet<u32>> = same_matching.then(|| {
        // A rule is the same in both readings when it has the same line,
        // kind and pattern and sits in a group that starts on the same line.
        fn placed<'a>(r: &Rule<'a>) -> (u32, bool, &'a str, Option<u32>) {
            (
                r.line(),
                r.is_allow(),
                r.pattern(),
                r.group().map(|g| g.first_line()),
            )
        }
        let our_keys: FxHashSet<_> = google.rules().map(|r| placed(&r)).collect();
        let their_keys: FxHashSet<_> = theirs.rules().map(|r| placed(&r)).collect();
        let special = |r: &Rule<'_>, other: &FxHashSet<(u32, bool, &str, Option<u32>)>| {
            !other.contains(&placed(r)) || r.index_alias().is_some() || rule_escapes_differ(r)
        };
        google
            .rules()
            .filter(|r| special(r, &their_keys))
            .chain(theirs.rules().filter(|r| special(r, &our_keys)))
            .map(|r| r.line())
            .collect()
    });
    // The first line naming each crawler, in Google's reading, else the
    // other: needed only where a crawler's groups differ, so built then.
    let agent_lines = std::cell::OnceCell::new();
    let agent_lines = || -> &FxHashMap<Caseless<'_>, u32> {
        agent_lines.get_or_init(|| {
            let mut lines = FxHashMap::default();
            for ua in google.user_agents().chain(theirs.user_agents()) {
                if !ua.is_global() {
                    lines.entry(Caseless(ua.token())).or_insert(ua.line());
                }
            }
            lines
        })
    };
    // Deciding every sample of every crawler could be quadratic: thousands of
    // crawlers sharing large groups, or thousands of rules that a lookup
    // must all try. Views, group choices and lookups are paid from
    // allowances that real files use a small part of.
    let view_budget = Budget::for_file(cx.source.len(), VIEW_UNITS_PER_BYTE);
    let select_budget = Budget::for_file(cx.source.len(), SELECT_UNITS_PER_BYTE);
    let lookup_budget = Budget::for_file(cx.source.len(), LOOKUP_UNITS_PER_BYTE);
    // Choosing a group in the legacy reading reads every user-agent line.
    let select_cost = match legacy_choice {
        Some(_) => theirs.user_agents().len(),
        None => 0,
    };
    // The first line Google's size limit leaves unread, if any.
    let lost_from = google
        .diagnostics()
        .iter()
        .find(|d| d.code == crawlgate::Code::FileTooLarge)
        .map(|d| d.span.line);
    let mut seen_choices = FxHashSet::default();
    let mut seen_selections = FxHashSet::default();
    let mut reported = FxHashSet::default();
    let mut sample = String::new();
    let mut sent = String::new();
    for agent in agents {
        // Skip crawlers whose groups were already compared, before building
        // (and compiling) their views. The crawler reading chooses groups by
        // building the views: they are kept for the comparison below.
        let crawler_views = (how == Reading::Crawler).then(|| {
            (
                google.view(Who::read(agent, how)),
                theirs.view(Who::read(agent, how)),
            )
        });
        let indices = |view: &AgentView<'_>| -> Vec<u32> {
            view.groups().map(|g| g.index() as u32).collect()
        };
        let token_groups = |robots: &RobotsTxt| -> Vec<u32> {
            robots.groups_of(agent).map(|g| g.index() as u32).collect()
        };
        let our_groups = match &crawler_views {
            Some((ours, _)) => indices(ours),
            None => token_groups(google),
        };
        let their_groups = match (&legacy_choice, &crawler_views) {
            (Some(choice), _) => choice.group(agent).map(|g| g as u32).into_iter().collect(),
            (None, Some((_, other_view))) => indices(other_view),
            (None, None) => token_groups(theirs),
        };
        if !seen_choices.insert((our_groups.clone(), their_groups.clone())) {
            continue;
        }
        let rules_in = |robots: &RobotsTxt, groups: &[u32]| -> usize {
            groups
                .iter()
                .filter_map(|&g| robots.group(g as usize))
                .map(|g| g.rules().len())
                .sum()
        };
        if !view_budget.spend(rules_in(google, &our_groups) + rules_in(theirs, &their_groups))
            || !select_budget.spend(select_cost)
        {
            break;
        }
        if let Some(special) = &special_lines {
            // Matched alike by both readings: a crawler whose groups hold the
            // same rules in both, none of them special, cannot be decided
            // differently.
            let lines_of = |robots: &RobotsTxt, groups: &[u32]| -> Vec<u32> {
                groups
                    .iter()
                    .filter_map(|&g| robots.group(g as usize))
                    .map(|g| g.first_line())
                    .collect()
            };
            let touches_special = |robots: &RobotsTxt, groups: &[u32]| {
                groups
                    .iter()
                    .filter_map(|&g| robots.group(g as usize))
                    .flat_map(|g| g.rules())
                    .any(|r| special.contains(&r.line()))
            };
            if lines_of(google, &our_groups) == lines_of(theirs, &their_groups)
                && !touches_special(google, &our_groups)
                && !touches_special(theirs, &their_groups)
            {
                continue;
            }
        }
        let (ours, other_view) = crawler_views.unwrap_or_else(|| {
            (
                google.view(Who::read(agent, how)),
                theirs.view(Who::read(agent, how)),
            )
        });
        let selection = (group_lines(&ours), group_lines(&other_view));
        if selection.0.is_empty() && selection.1.is_empty()
            || !seen_selections.insert(selection.clone())
        {
            continue;
        }
        // When the readings pick different groups, the first URL they decide
        // differently is reported once, at the crawler's user-agent line.
        // In the crawler reading (Yandex's robots), groups that start on one
        // line but end on others differ too (a blank line splits a group for
        // Yandex), and a robot named by another token (`Yandex` for
        // YandexBot) is reported at its group's first line.
        let differ = match how {
            Reading::Crawler => {
                let extent = |view: &AgentView<'_>| -> Vec<(u32, u32)> {
                    view.groups()
                        .map(|g| (g.first_line(), g.last_line()))
                        .collect()
                };
                extent(&ours) != extent(&other_view)
            }
            Reading::OneToken => selection.0 != selection.1,
        };
        let choice_line = differ
            .then(|| {
                agent_lines()
                    .get(&Caseless(agent))
                    .copied()
                    .or_else(|| match how {
                        Reading::Crawler => selection.1.first().or(selection.0.first()).copied(),
                        Reading::OneToken => None,
                    })
            })
            .flatten();
        let describe_groups = |lines: &[u32]| match lines {
            [] => "no group".to_owned(),
            [one] => format!("the group at line {one}"),
            more => format!("the groups at {}", lines_phrase(more)),
        };
        // Groups told apart by where they end, too (crawler reading).
        let describe_extents = |view: &AgentView<'_>| -> String {
            let spans: Vec<String> = view
                .groups()
                .map(|g| match (g.first_line(), g.last_line()) {
                    (first, last) if first == last => format!("line {first}"),
                    (first, last) => format!("lines {first}–{last}"),
                })
                .collect();
            match spans.as_slice() {
                [] => "no group".to_owned(),
                [one] => format!("the group at {one}"),
                more => format!("the groups at {}", more.join(", ")),
            }
        };
        // Written only when a difference is reported (rarely).
        let choice_note = || {
            let (our_groups_said, their_groups_said) = match how {
                Reading::Crawler => (describe_extents(&ours), describe_extents(&other_view)),
                Reading::OneToken => (describe_groups(&selection.0), describe_groups(&selection.1)),
            };
            format!(
                " (Google gives it {our_groups_said}, {} {their_groups_said})",
                reader_name(other).split(" (").next().unwrap_or(""),
            )
        };
        let mut choice_reported = false;
        let our_rules = with_patterns(&ours);
        let their_rules = with_patterns(&other_view);
        // Built on the first lookup: most crawlers need none.
        let lookups = std::cell::OnceCell::new();
        let lookup_cost = |path: &str| {
            let [ours, theirs] = lookups.get_or_init(|| {
                [
                    LookupCost::new(our_rules.iter().map(|&(_, pattern)| pattern)),
                    LookupCost::new(their_rules.iter().map(|&(_, pattern)| pattern)),
                ]
            });
            ours.of(path) + theirs.of(path)
        };
        // Every rule of either reading, with whether both readings have it.
        let rules = shared_rules(&our_rules, &their_rules);
        let mut items: Vec<(&[u8], u8)> = Vec::with_capacity(rules.len());
        let mut aliases: Vec<&str> = Vec::new();
        let mut floating: Vec<(&str, u8)> = Vec::new();
        // Rules one reading has that allow every path, weakly: weighed in
        // that reading only (Google's `Disallow:` weighs 0, Yandex reads
        // it as `Allow: /`, which weighs 1).
        let mut everywhere = [NO_MATCH, NO_MATCH];
        let mut special_floating = 0;
        // Whether each rule is plain, and its alias: read again for samples.
        let mut facts: Vec<(bool, Option<&str>)> = Vec::with_capacity(rules.len());
        for (i, &(rule, pattern, shared)) in rules.iter().enumerate() {
            let plain = is_plain(pattern);
            let alias = rule.index_alias();
            facts.push((plain, alias));
            let kind = if rule.is_allow() { ALLOW } else { DISALLOW };
            let reading = usize::from(i >= our_rules.len());
            if !shared
                && plain_alike
                && !same_matching
                && rule.is_empty()
                && (reading == 0 || rule.allows())
                && (pattern.is_empty() || pattern == "/")
            {
                let weight = match reading {
                    0 => 0,
                    _ => i64::from(other.precedence.weight(pattern.as_bytes())),
                };
                everywhere[reading][0] = everywhere[reading][0].max(weight);
                continue;
            }
            if let Some(alias) = alias {
                match alias.strip_suffix('$') {
                    Some(exact) if !exact.contains(['*', '$']) => aliases.push(exact),
                    _ => items.push((alias.trim_end_matches('$').as_bytes(), SPECIAL)),
                }
            }
            if pattern.is_empty() {
                // Allows everything in every reading, but weakly.
                items.push((b"", if shared { ALLOW } else { SPECIAL }));
            } else if same_matching {
                // Matched alike by both readings: only a rule one reading
                // lacks can make a difference.
                if !shared {
                    if plain {
                        items.push((pattern.as_bytes(), SPECIAL));
                    } else if special_floating < MAX_FLOATING {
                        special_floating += 1;
                        floating.push((pattern, SPECIAL));
                    } else {
                        items.push((b"", SPECIAL));
                    }
                }
            } else if plain {
                items.push((
                    pattern.as_bytes(),
                    if shared { kind } else { kind | SPECIAL },
                ));
            } else {
                // Both readings' wildcards, alike (Yandex's `*` matches most
                // patterns as Google's does): then only the rules' weights
                // differ, which matters where both kinds match. A pattern
                // Yandex's `*` may match otherwise is matched both ways.
                let alike = shared && plain_alike && other.wildcards;
                if alike && floating.len() < MAX_ALIKE_FLOATING {
                    let restarts = other.restarting_star && !restart_alike(pattern);
                    floating.push((pattern, if restarts { kind | TRY_BOTH } else { kind }));
                } else if !alike && special_floating < MAX_FLOATING {
                    special_floating += 1;
                    floating.push((pattern, SPECIAL));
                } else {
                    let literal = pattern.split(['*', '$']).next().unwrap_or("");
                    let literal = if literal.starts_with('/') {
                        literal
                    } else {
                        ""
                    };
                    items.push((literal.as_bytes(), SPECIAL));
                }
            }
        }
        let check = Disagreement::new(items, floating, aliases, plain_alike, everywhere, other);
        // Then a sample without an escape cannot be decided differently, and
        // Yandex's reading leaves those with one out.
        if !every && !other.normalize_escapes && check.only_escapes() {
            continue;
        }
        let mut decide = |path: &str, source_line: u32| {
            if path == "/robots.txt" {
                return; // always fetched; Google's library leaves it to its caller
            }
            // Yandex compares escapes as written, Google encodes the rules':
            // how Yandex's crawler writes such URLs is not known, so they
            // are left out rather than guessed.
            if !other.normalize_escapes && path.contains('%') {
                return;
            }
            if !every && !lookup_budget.spend(lookup_cost(path)) {
                return;
            }
            let a = ours.decide_path(path);
            let b = other_view.decide_path(path);
            if a.is_allowed() == b.is_allowed() {
                return;
            }
            // A difference a deciding line explains elsewhere (a line only
            // one reading reads), or a rule past Google's size limit
            // (`R014` says so), is not said again.
            let past_google = |line: u32| lost_from.is_some_and(|lost| line >= lost);
            if how == Reading::Crawler
                && [a.line(), b.line()]
                    .into_iter()
                    .flatten()
                    .any(|line| explained().contains(&line) || past_google(line))
            {
                return;
            }
            let (line, note) = match choice_line {
                Some(_) if choice_reported => return,
                Some(line) => {
                    choice_reported = true;
                    (line, choice_note())
                }
                None => (
                    a.line().or(b.line()).unwrap_or(source_line).max(1),
                    String::new(),
                ),
            };
            if explained().contains(&line) || !reported.insert(line) {
                return;
            }
            let who = if agent == generic {
                format!("a crawler without a group of its own (`{agent}`)")
            } else {
                format!("`{agent}`")
            };
            let message = if other.crawl_delay_in_group {
                let cause = match crawl_delay_ending(&ours) {
                    Some(delay) => format!(
                        "; Bing ends a group at a `Crawl-delay` line, Google does not (line {delay})"
                    ),
                    None => String::new(),
                };
                format!(
                    "{who} reads this differently{note}: fetching `{}`, Google's reading {}; \
                     Bing's {}{cause}",
                    shorten(path),
                    describe_verdict(&a, false),
                    describe_verdict(&b, false),
                )
            } else {
                // `RFC 9309 parsers allow it`, `Yandex's parser allows it`.
                let plural = other == Profile::RFC9309 || other == Profile::LEGACY;
                format!(
                    "{who}{note} fetching `{}`: Google {}; {} {}",
                    shorten(path),
                    describe_verdict(&a, false),
                    reader_name(other),
                    describe_verdict(&b, plural),
                )
            };
            out.push(cx.diagnostic(code, cx.content_span(line), message));
        };
        if every || check.possible("/") {
            decide("/", 0);
        }
        for (&(rule, pattern, shared), &(plain, alias)) in rules.iter().zip(&facts) {
            if shared && plain && alias.is_none() {
                let path = as_sent(pattern, &mut sent);
                if every || check.possible(path) {
                    decide(path, rule.line());
                }
                continue;
            }
            let value = rule.value();
            let sources = [Some(pattern), (value != pattern).then_some(value), alias];
            for source in sources.into_iter().flatten() {
                let sampled = if other.restarting_star {
                    sample_apart(source, &mut sample)
                } else {
                    sample_into(source, &mut sample)
                };
                if !sampled {
                    continue;
                }
                let path = as_sent(&sample, &mut sent);
                if every || check.possible(path) {
                    decide(path, rule.line());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_index_unions_the_flags_of_every_prefix() {
        let index = PrefixIndex::new(vec![
            (b"/a".as_slice(), ALLOW),
            (b"/a/b", DISALLOW),
            (b"/a/c", SPECIAL),
            (b"/b", DISALLOW),
        ]);
        assert_eq!(index.flags(b"/a/b/x"), ALLOW | DISALLOW);
        assert_eq!(index.flags(b"/a/bb"), ALLOW | DISALLOW);
        assert_eq!(index.flags(b"/a/a"), ALLOW);
        assert_eq!(index.flags(b"/a/c"), ALLOW | SPECIAL);
        assert_eq!(index.flags(b"/a"), ALLOW);
        assert_eq!(index.flags(b"/"), 0);
        assert_eq!(index.flags(b"/c"), 0);
        assert_eq!(index.flags(b"/b"), DISALLOW);
    }

    #[test]
    fn shared_rules_are_found_merged_or_hashed_alike() {
        let text = b"User-agent: *\nDisallow: /a\nDisallow:\nAllow: /b*\nDisallow: /c$\n";
        let google = RobotsTxt::parse(text);
        let yandex = RobotsTxt::parse_with(text, Profile::YANDEX);
        let ours: Vec<(Rule<'_>, &str)> = google.rules().map(|r| (r, r.pattern())).collect();
        let theirs: Vec<(Rule<'_>, &str)> = yandex.rules().map(|r| (r, r.pattern())).collect();
        let said = |rules: Vec<(Rule<'_>, &str, bool)>| -> Vec<(u32, String, bool)> {
            rules
                .iter()
                .map(|(r, pattern, shared)| (r.line(), pattern.to_string(), *shared))
                .collect()
        };
        // Yandex reads the empty `Disallow:` as `/`: only that rule differs.
        let merged = said(shared_rules(&ours, &theirs));
        assert_eq!(
            merged,
            [
                (2, "/a".to_owned(), true),
                (3, String::new(), false),
                (4, "/b*".to_owned(), true),
                (5, "/c$".to_owned(), true),
                (3, "/".to_owned(), false),
            ]
        );
        // Out of line order, the sets find the same, in the lists' order.
        let (mut ours_back, mut theirs_back) = (ours.clone(), theirs.clone());
        ours_back.reverse();
        theirs_back.reverse();
        let mut hashed = said(shared_rules(&ours_back, &theirs_back));
        hashed[..4].reverse();
        assert_eq!(hashed, merged);
    }

    /// Yandex reads `Disallow:` as `Allow: /`, which ties with
    /// `Disallow: /` and wins; for Google it weighs nothing.
    #[test]
    fn an_empty_disallow_is_weighed_as_each_reading_weighs_it() {
        let found = |text: &str| {
            let robots = RobotsTxt::parse(text.as_bytes());
            let cx = Context::sharing(text.as_bytes(), &robots, &[]);
            let mut filtered = Vec::new();
            compare_samples(
                &cx,
                Profile::YANDEX,
                Code::YandexDiffers,
                &mut filtered,
                Samples::Possible,
            );
            let mut every = Vec::new();
            compare_samples(
                &cx,
                Profile::YANDEX,
                Code::YandexDiffers,
                &mut every,
                Samples::Every,
            );
            let lines = |ds: &[Diagnostic]| ds.iter().map(|d| d.span.line).collect::<Vec<_>>();
            assert_eq!(lines(&filtered), lines(&every), "{text}");
            lines(&filtered)
        };
        assert_eq!(found("User-agent: *\nDisallow:\nDisallow: /\n"), [3]);
        assert_eq!(
            found("User-agent: *\nDisallow:\nDisallow: /a\n"),
            Vec::<u32>::new()
        );
    }

    /// `/*aab` matches `/aaab` for Google, not with Yandex's `*`: there
    /// `Allow: /aa` decides, so the readings disagree; on `/xaab` both
    /// match it and it outweighs the allow in both.
    #[test]
    fn patterns_matched_both_ways_disagree_where_the_matches_do() {
        let check = Disagreement::new(
            vec![(b"/aa".as_slice(), ALLOW)],
            vec![("/*aab", DISALLOW | TRY_BOTH)],
            Vec::new(),
            true,
            [NO_MATCH, NO_MATCH],
            Profile::YANDEX,
        );
        assert!(check.possible("/aaab"));
        assert!(!check.possible("/xaab") && !check.possible("/aax"));
    }

    /// Yandex measures `/**bcd` as 5, Google as 7: against `Allow: /abcd`
    /// (5) it wins in Google's reading only, so it is weighed where it
    /// matches; against `Allow: /abcdefgh` it loses in both, and is not.
    #[test]
    fn only_rules_that_may_rank_apart_are_weighed() {
        let new = |allow: &'static [u8]| {
            Disagreement::new(
                vec![(allow, ALLOW)],
                vec![("/**bcd", DISALLOW)],
                Vec::new(),
                true,
                [NO_MATCH, NO_MATCH],
                Profile::YANDEX,
            )
        };
        let close = new(b"/abcd");
        assert_eq!(close.checked.len(), 1);
        assert!(close.possible("/abcd") && !close.possible("/xbcd"));
        let far = new(b"/abcdefgh");
        assert!(far.only_escapes() && !far.possible("/abcdefgh"));
        // Everywhere-rules ranking apart from a plain rule: every path.
        let everywhere = Disagreement::new(
            vec![(b"/", DISALLOW)],
            Vec::new(),
            Vec::new(),
            true,
            [NO_MATCH, [1, -1]],
            Profile::YANDEX,
        );
        assert!(everywhere.always_weigh && everywhere.possible("/a"));
    }

    #[test]
    fn ranking_apart_from_plain_rules_is_found_at_the_bounds() {
        let plain = [(3, ()), (5, ()), (8, ())];
        let apart = |kind, weights, plain: &[(i64, ())]| {
            ranked_apart_from_plain(kind, weights, plain)
                .iter()
                .map(|(w, _)| *w)
                .collect::<Vec<i64>>()
        };
        // An allow weighing 5 and 7: apart from a disallow of 5 < w <= 7.
        assert!(apart(ALLOW, [7, 5], &plain).is_empty());
        assert_eq!(apart(ALLOW, [8, 3], &plain), [5, 8]);
        // A disallow weighing 5 and 7: apart from an allow of 5 <= w < 7.
        assert_eq!(apart(DISALLOW, [7, 5], &plain), [5]);
        assert_eq!(apart(DISALLOW, [9, 3], &plain), [3, 5, 8]);
        assert!(apart(DISALLOW, [9, 9], &plain).is_empty());
        for (kind, weights) in [(ALLOW, [6, 2]), (DISALLOW, [6, 2]), (ALLOW, [-1, 1])] {
            for w in -1..10 {
                let expected = match kind {
                    ALLOW => ranked_apart(weights, [w, w]),
                    _ => ranked_apart([w, w], weights),
                };
                assert_eq!(
                    !apart(kind, weights, &[(w, ())]).is_empty(),
                    expected,
                    "{w}"
                );
            }
        }
    }

    #[test]
    fn rules_overlap_where_one_literal_start_extends_the_other() {
        assert_eq!(literal_start("/a/*.php$"), b"/a/");
        assert_eq!(literal_start("/a$b"), b"/a");
        assert_eq!(literal_start("*.php"), b"");
        assert!(may_overlap(b"/a/", b"/a/b") && may_overlap(b"", b"/x"));
        assert!(!may_overlap(b"/a/", b"/b"));
        // `/shop/*?sort` (12 for Google, 11 for Yandex) against an allow of
        // 11: only a path both can match is weighed.
        let apart = Disagreement::new(
            vec![(b"/cart/abcde", ALLOW)],
            vec![("/shop/*?sort", DISALLOW)],
            Vec::new(),
            true,
            [NO_MATCH, NO_MATCH],
            Profile::YANDEX,
        );
        assert!(apart.only_escapes());
        let met = Disagreement::new(
            vec![(b"/shop/abcde", ALLOW)],
            vec![("/shop/*?sort", DISALLOW)],
            Vec::new(),
            true,
            [NO_MATCH, NO_MATCH],
            Profile::YANDEX,
        );
        assert!(!met.only_escapes());
    }

    /// Small sets of rules over a few bytes, every short path: weighing only
    /// the rules that may rank apart answers as weighing all of them
    /// (`possible` asserts so in tests).
    #[test]
    fn weighing_some_rules_answers_as_weighing_all() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let pieces = ["/", "a", "b", "*", "ab", "/a", "**"];
        let mut paths = vec![String::from("/")];
        for _ in 0..4 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|p| ["a", "b", "/"].map(|c| format!("{p}{c}")))
                .collect();
            paths.extend(longer);
        }
        paths.dedup();
        let mut weighed = 0;
        for _ in 0..1000 {
            let mut patterns: Vec<String> = Vec::new();
            for _ in 0..1 + next(4) {
                let mut p = String::from("/");
                for _ in 0..next(4) {
                    p.push_str(pieces[next(pieces.len())]);
                }
                if next(4) == 0 {
                    p.push('$');
                }
                patterns.push(p);
            }
            let patterns: Vec<&str> = patterns.iter().map(|p| p.as_str()).collect();
            let mut items: Vec<(&[u8], u8)> = Vec::new();
            let mut floating: Vec<(&str, u8)> = Vec::new();
            for &p in &patterns {
                let kind = if next(2) == 0 { ALLOW } else { DISALLOW };
                if is_plain(p) {
                    items.push((p.as_bytes(), kind));
                } else if restart_alike(p) {
                    floating.push((p, kind));
                } else {
                    floating.push((p, kind | TRY_BOTH));
                }
            }
            let everywhere = [[[-1, 0][next(2)], -1], [[-1, 1][next(2)], -1]];
            let check = Disagreement::new(
                items,
                floating,
                Vec::new(),
                true,
                everywhere,
                Profile::YANDEX,
            );
            weighed += usize::from(check.checked.iter().any(|p| p.flag & WEIGHTY != 0));
            for path in &paths {
                check.possible(path);
            }
        }
        assert!(weighed > 50, "{weighed}");
    }

    #[test]
    fn paths_are_sent_with_bytes_outside_ascii_encoded() {
        let mut buffer = String::new();
        assert_eq!(as_sent("/a%20b?c", &mut buffer), "/a%20b?c");
        assert_eq!(
            as_sent("/caf\u{e9}/x\u{a0}", &mut buffer),
            "/caf%C3%A9/x%C2%A0"
        );
    }

    #[test]
    fn caseless_names_are_one_key_in_any_case() {
        let mut names = FxHashSet::default();
        assert!(names.insert(Caseless("GPTBot")));
        assert!(!names.insert(Caseless("gptbot")) && !names.insert(Caseless("GPTBOT")));
        assert!(names.insert(Caseless("GPTBot-News")) && names.insert(Caseless("")));
        // Non-ASCII letters keep their case, as `eq_ignore_ascii_case` does.
        assert!(names.insert(Caseless("\u{c9}bot")) && names.insert(Caseless("\u{e9}bot")));
        assert_eq!(names.len(), 5);
    }

    /// The filter only saves work: on every corpus file and for each
    /// reading, deciding only the samples [`Disagreement`] lets through
    /// finds what deciding every sample finds. (No file of the corpus runs
    /// out of an allowance: `budget`'s test.)
    #[test]
    fn deciding_the_possible_samples_finds_what_deciding_every_sample_finds() {
        let readings = [
            (Profile::RFC9309, Code::Rfc9309Differs),
            (Profile::LEGACY, Code::LegacyDiffers),
            (Profile::BING, Code::BingDiffers),
            (Profile::YANDEX, Code::YandexDiffers),
        ];
        let mut found = [0usize; 4];
        let files = crawlgate_corpus::files();
        assert!(files.len() > 1000, "the corpus has {} files", files.len());
        for (name, bytes) in &files {
            let robots = RobotsTxt::parse(bytes);
            let cx = Context::sharing(bytes, &robots, &[]);
            for (i, &(other, code)) in readings.iter().enumerate() {
                let mut filtered = Vec::new();
                compare_samples(&cx, other, code, &mut filtered, Samples::Possible);
                let mut every = Vec::new();
                compare_samples(&cx, other, code, &mut every, Samples::Every);
                let said = |ds: &[Diagnostic]| -> Vec<(u32, String)> {
                    ds.iter()
                        .map(|d| (d.span.line, d.message.to_string()))
                        .collect()
                };
                assert_eq!(said(&filtered), said(&every), "{name}, {}", other.name);
                found[i] += every.len();
            }
        }
        // Each reading differs somewhere in the corpus: the test compares
        // findings, not two empty lists.
        assert!(found.iter().all(|&n| n > 0), "{found:?}");
    }

    /// Every short pattern and path over a few bytes: where
    /// [`restart_alike`] says so, Yandex's `*` matches as Google's does; and
    /// it does not say so of every pattern that can match differently.
    #[test]
    fn restart_alike_patterns_match_alike_in_both_readings() {
        fn words(alphabet: &[u8], max: usize) -> Vec<String> {
            let mut all = vec![String::from("/")];
            let mut last = all.clone();
            for _ in 0..max {
                last = last
                    .iter()
                    .flat_map(|w| alphabet.iter().map(move |&b| format!("{w}{}", b as char)))
                    .collect();
                all.extend(last.iter().cloned());
            }
            all
        }
        let paths = words(b"ab/", 6);
        let (mut alike, mut differing) = (0, 0);
        for body in words(b"ab/*", 5) {
            for pattern in [body.clone(), format!("{body}$")] {
                let google = Pattern::new(&pattern, true);
                let yandex = Pattern::for_profile(&pattern, &Profile::YANDEX);
                let differs = paths
                    .iter()
                    .find(|path| google.matches(path) != yandex.matches(path));
                if restart_alike(&pattern) {
                    alike += 1;
                    assert_eq!(differs, None, "{pattern}");
                } else if differs.is_some() {
                    differing += 1;
                }
            }
        }
        // Most patterns are alike; some that are not do differ.
        assert!(alike > 1500 && differing > 100, "{alike} {differing}");
    }

    #[test]
    fn may_match_covers_both_readings() {
        let may_match = |pattern: &str, path: &str| {
            Floating::new(pattern, SPECIAL, &Profile::GOOGLE)
                .may_match(path, byte_set(path.as_bytes()))
        };
        assert!(may_match("/*.php", "/x.php"));
        assert!(may_match("/*.php", "/*.php"));
        assert!(!may_match("/*.php", "/x.html"));
        assert!(may_match("/a$", "/a"));
        assert!(may_match("*.png", "/a.png"));
        assert!(!may_match("fish", "/fish"));
    }
}
