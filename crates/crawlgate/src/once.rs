//! One-shot decisions: one crawler, one URL, straight from the bytes.
//!
//! A crawler meeting a site once does not need the model: this reads the file
//! as a stream, the way Google's own library does, keeping only the best
//! match so far. Lines that cannot matter are skipped after one look at
//! their first byte: while the current group is not the crawler's, only
//! `user-agent` lines are read. It shares line splitting, field recognition,
//! normalisation and pattern matching with [`RobotsTxt::parse`], and gives
//! the same answer as `RobotsTxt::parse_with(bytes, profile).decide(agent,
//! url)` (a property test holds the two together).

use std::borrow::Cow;

use memchr::memrchr;

use crate::decide::Reason;
use crate::extension::ExtensionKind;
use crate::field::{self, Field};
use crate::model::{RobotsTxt, RuleKind};
use crate::parse::lines::{self, Line, Lines};
use crate::parse::split::{self, Split};
use crate::parse::{is_space, normalize};
use crate::pattern;
use crate::profile::{GroupSelection, Precedence, Profile};
use crate::url_path::path_of;

/// The answer of [`decide_once`]: allowed or not, and the deciding line.
///
/// ```
/// use crawlgate::{decide_once, RuleKind};
///
/// let body = b"User-agent: *\nDisallow: /private\n";
/// let verdict = decide_once(body, "mybot", "https://example.com/private/x");
/// assert!(!verdict.is_allowed());
/// assert_eq!(verdict.line(), Some(2));
/// assert_eq!(verdict.rule(), Some((RuleKind::Disallow, "/private".into())));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnceVerdict<'a> {
    allowed: bool,
    reason: Reason,
    line: Option<u32>,
    rule: Option<(RuleKind, Cow<'a, str>)>,
    via_index_alias: bool,
}

impl<'a> OnceVerdict<'a> {
    /// Whether the crawler may fetch the URL.
    pub fn is_allowed(&self) -> bool {
        self.allowed
    }

    /// Why.
    pub fn reason(&self) -> Reason {
        self.reason
    }

    /// Line number of the deciding rule.
    pub fn line(&self) -> Option<u32> {
        self.line
    }

    /// The deciding rule: its kind and its value as written.
    pub fn rule(&self) -> Option<(RuleKind, Cow<'a, str>)> {
        self.rule.clone()
    }

    /// Whether the rule matched through Google's `index.html` alias.
    pub fn via_index_alias(&self) -> bool {
        self.via_index_alias
    }
}

/// Decides one URL for one crawler straight from robots.txt bytes, with the
/// default (google) profile. Use [`RobotsTxt::parse`] and
/// [`RobotsTxt::view`] instead to ask more than once.
pub fn decide_once<'a>(robots_txt: &'a [u8], agent: &str, url: &str) -> OnceVerdict<'a> {
    decide_once_with(robots_txt, Profile::GOOGLE, agent, url)
}

/// [`decide_once`] under a given profile.
///
/// ```
/// use crawlgate::{decide_once_with, Profile};
/// let body = b"User-agent: *\nDisallow: /\n";
/// assert!(decide_once_with(body, Profile::RFC9309, "bot", "/robots.txt").is_allowed());
/// assert!(!decide_once_with(body, Profile::GOOGLE, "bot", "/robots.txt").is_allowed());
/// ```
pub fn decide_once_with<'a>(
    robots_txt: &'a [u8],
    profile: Profile,
    agent: &str,
    url: &str,
) -> OnceVerdict<'a> {
    if profile.group_selection != GroupSelection::ProductToken
        || profile.precedence != Precedence::LongestMatch
    {
        // The 1996 reading picks groups and rules in file order: no stream
        // shortcut, so read the whole model.
        let robots = RobotsTxt::parse_with(robots_txt, profile);
        let verdict = robots.decide(agent, url);
        return OnceVerdict {
            allowed: verdict.is_allowed(),
            reason: verdict.reason(),
            line: verdict.line(),
            rule: verdict
                .rule()
                .map(|r| (r.kind(), Cow::Owned(r.value().to_owned()))),
            via_index_alias: verdict.via_index_alias(),
        };
    }
    let path = path_of(url);
    let path: Cow<'_, [u8]> =
        if profile.decode_unreserved && normalize::may_need_normalizing(path.as_bytes()) {
            let mut out = Vec::with_capacity(path.len() + 8);
            normalize::normalize_into(path.as_bytes(), true, &mut out);
            Cow::Owned(out)
        } else {
            match path {
                Cow::Borrowed(p) => Cow::Borrowed(p.as_bytes()),
                Cow::Owned(p) => Cow::Owned(p.into_bytes()),
            }
        };
    if profile.always_allow_robots_txt && &*path == b"/robots.txt" {
        return OnceVerdict {
            allowed: true,
            reason: Reason::RobotsTxt,
            line: None,
            rule: None,
            via_index_alias: false,
        };
    }
    let mut stream = Stream {
        profile,
        agent: agent.as_bytes(),
        path: &path,
        scratch: Vec::new(),
        has_nul: false,
        in_group: false,
        group_has_rules: false,
        group_specific: false,
        group_global: false,
        any_specific: false,
        any_global: false,
        specific: None,
        global: None,
    };
    let parsed = lines::limited_len(robots_txt, profile.max_bytes);
    let start = lines::bom_len(&robots_txt[..parsed]);
    // A NUL byte ends a line's content; checked once, not per line.
    stream.has_nul = memchr::memchr(0, &robots_txt[start..parsed]).is_some();
    for line in Lines::new(&robots_txt[..parsed], start, profile.max_line_bytes, false) {
        stream.line(line);
    }
    stream.finish()
}

/// Whether the rule value cannot match the path because they differ before
/// the value's first byte that normalisation or wildcards could change
/// (`%`, `*`, `$`, non-ASCII). Most rules differ from a path within a few
/// bytes: this answers without normalising or compiling them. A path that
/// ends first may still match Google's `index.html` alias (`/dir/` for
/// `/dir/index.html`), so that case counts only when no alias can apply; a
/// differing byte rules the alias out too (it matches only the directory).
#[inline]
fn literally_differs(value: &[u8], path: &[u8], may_alias: bool) -> bool {
    for (i, &v) in value.iter().enumerate() {
        if matches!(v, b'%' | b'*' | b'$') || v >= 0x80 {
            return false;
        }
        match path.get(i) {
            Some(&p) if p == v => {}
            Some(_) => return true,
            None => return !may_alias,
        }
    }
    false
}

/// The best match so far in one category (the crawler's own groups, or `*`).
#[derive(Clone, Copy)]
struct Best<'a> {
    priority: usize,
    allow: bool,
    line: u32,
    value: &'a [u8],
    alias: bool,
}

struct Stream<'p, 'a> {
    profile: Profile,
    agent: &'p [u8],
    path: &'p [u8],
    scratch: Vec<u8>,
    /// Whether the input holds a NUL byte at all.
    has_nul: bool,
    /// A user-agent line has been seen (rules before that are ignored).
    in_group: bool,
    group_has_rules: bool,
    group_specific: bool,
    group_global: bool,
    any_specific: bool,
    any_global: bool,
    specific: Option<Best<'a>>,
    global: Option<Best<'a>>,
}

impl<'a> Stream<'_, 'a> {
    fn line(&mut self, line: Line<'a>) {
        let (number, bytes) = (line.number, line.bytes);
        let Some(first) = split::first_non_space(bytes) else {
            return;
        };
        if bytes[first] == b'#' {
            return;
        }
        // Only user-agent lines start with `u`, only rules with `a` or `d`
        // (typos included); rules matter only in the crawler's groups.
        let relevant = self.group_specific || self.group_global;
        match bytes[first].to_ascii_lowercase() {
            b'u' => {}
            // In other groups rules change nothing: a rule only ends a
            // user-agent list, and merging into a group that is not the
            // crawler's (or becomes it) gives the same answer.
            b'a' | b'd' if relevant => {}
            // Bing: a crawl delay ends a list of user-agent lines.
            b'c' if self.profile.crawl_delay_in_group && self.in_group => {}
            _ => return,
        }
        let before_comment = line.before_comment();
        let content = match self
            .has_nul
            .then(|| memchr::memchr(0, before_comment))
            .flatten()
        {
            Some(nul) => &before_comment[..nul],
            None => before_comment,
        };
        let Split::Record {
            key,
            value,
            missing_colon,
        } = split::split(content)
        else {
            return;
        };
        if missing_colon && !self.profile.accept_missing_colon {
            return;
        }
        match field::recognise(key, &self.profile).0 {
            Field::UserAgent => self.user_agent(value),
            Field::Allow => self.rule(number, value, true),
            Field::Disallow => self.rule(number, value, false),
            Field::Extension(ExtensionKind::CrawlDelay) => {
                self.group_has_rules |= self.profile.crawl_delay_in_group && self.in_group;
            }
            _ => {}
        }
    }

    fn user_agent(&mut self, value: &[u8]) {
        if !self.in_group || self.group_has_rules {
            self.in_group = true;
            self.group_has_rules = false;
            self.group_specific = false;
            self.group_global = false;
        }
        let global = if self.profile.lenient_global_agent {
            value.first() == Some(&b'*') && (value.len() == 1 || is_space(value[1]))
        } else {
            value == b"*"
        };
        if global {
            self.group_global = true;
            self.any_global = true;
        } else if value[..crate::token::token_len(value)].eq_ignore_ascii_case(self.agent) {
            self.group_specific = true;
            self.any_specific = true;
        }
    }

    fn rule(&mut self, number: u32, value: &'a [u8], allow: bool) {
        if let Some(&first) = value.first()
            && first != b'/'
            && self.profile.require_leading_slash
        {
            return; // not a rule in this reading: it does not end a group
        }
        if !self.in_group {
            return;
        }
        self.group_has_rules = true;
        if !self.group_specific && !self.group_global {
            return;
        }
        if literally_differs(value, self.path, allow && self.profile.index_html_alias) {
            return;
        }
        let escapes = normalize::Escapes::of(&self.profile);
        let pattern: &[u8] = if escapes.may_change(value) {
            self.scratch.clear();
            escapes.normalize_into(value, &mut self.scratch);
            &self.scratch
        } else {
            value
        };
        let (shape, body) = pattern::compile(pattern, self.profile.wildcards);
        let mut candidate = pattern::matches(shape, body, self.path).then_some(Best {
            priority: pattern.len(),
            allow,
            line: number,
            value,
            alias: false,
        });
        if candidate.is_none()
            && allow
            && self.profile.index_html_alias
            && let Some(slash) = memrchr(b'/', pattern)
            && pattern[slash..].starts_with(b"/index.htm")
        {
            let mut alias = pattern[..=slash].to_vec();
            alias.push(b'$');
            let (shape, body) = pattern::compile(&alias, self.profile.wildcards);
            candidate = pattern::matches(shape, body, self.path).then_some(Best {
                priority: alias.len(),
                allow,
                line: number,
                value,
                alias: true,
            });
        }
        let Some(candidate) = candidate else {
            return;
        };
        let best = if self.group_specific {
            &mut self.specific
        } else {
            &mut self.global
        };
        // Longest first; at equal length allow wins; then the earlier line.
        let better = best.is_none_or(|b| {
            candidate.priority > b.priority
                || (candidate.priority == b.priority && candidate.allow && !b.allow)
        });
        if better {
            *best = Some(candidate);
        }
    }

    fn finish(self) -> OnceVerdict<'a> {
        let (best, reason) = if self.any_specific {
            (self.specific, Reason::NoMatchingRule)
        } else if self.any_global {
            (self.global, Reason::NoMatchingRule)
        } else {
            (None, Reason::NoGroup)
        };
        match best {
            None => OnceVerdict {
                allowed: true,
                reason,
                line: None,
                rule: None,
                via_index_alias: false,
            },
            Some(best) => OnceVerdict {
                allowed: best.allow || best.priority == 0,
                reason: if best.priority == 0 {
                    Reason::EmptyRule
                } else {
                    Reason::Rule
                },
                line: Some(best.line),
                rule: Some((
                    if best.allow {
                        RuleKind::Allow
                    } else {
                        RuleKind::Disallow
                    },
                    String::from_utf8_lossy(best.value),
                )),
                via_index_alias: best.alias,
            },
        }
    }
}
