//! A rule as Yandex's parser stores it: runs of `*` collapsed, one final
//! `$` taken as the end anchor, and its length for precedence counted
//! without `*` (and without that `$`).

/// How Yandex's parser stores a rule's pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stored {
    /// The pattern as stored: stars collapsed; a plain prefix without a
    /// final `*`; any other pattern with a final `*` unless it was
    /// anchored with `$` (which is dropped).
    pub bytes: Vec<u8>,
    /// Stored as a plain prefix (the parser's upper-case record types);
    /// else matched as a pattern.
    pub prefix: bool,
}

impl Stored {
    /// Stores `rule` (a value starting with `/` or `*`).
    pub(crate) fn of(rule: &[u8]) -> Stored {
        let mut bytes = Vec::with_capacity(rule.len() + 1);
        for &b in rule {
            if b != b'*' || bytes.last() != Some(&b'*') {
                bytes.push(b);
            }
        }
        if rule == b"*" {
            bytes = b"/*".to_vec();
        }
        if bytes.last() == Some(&b'$') {
            bytes.pop();
        } else if bytes.last() != Some(&b'*') {
            bytes.push(b'*');
        }
        let prefix = bytes.last() == Some(&b'*') && !bytes[..bytes.len() - 1].contains(&b'*');
        if prefix {
            bytes.pop();
        }
        Stored { bytes, prefix }
    }

    /// Whether the stored pattern is empty (`**`, `*$`): it matches
    /// nothing, and the parser then reads the record stored after it as
    /// part of it (that record is lost).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// [`Stored`] read in place: the stored bytes are `body`, then a `*` when
/// `star`. For every rule without a run of `*` (nearly all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StoredView<'a> {
    pub body: &'a [u8],
    pub star: bool,
    pub prefix: bool,
}

impl<'a> StoredView<'a> {
    /// How `rule` is stored, as [`Stored::of`] stores it, unless it needs a
    /// copy (a run of `*` to collapse, or `*` alone, stored as `/*`).
    pub(crate) fn of(rule: &'a [u8]) -> Option<StoredView<'a>> {
        // One search for the stars: whether two are neighbours, and the
        // first one.
        let mut first_star = None;
        let mut previous = usize::MAX;
        for i in memchr::memchr_iter(b'*', rule) {
            if previous.wrapping_add(1) == i {
                return None;
            }
            first_star.get_or_insert(i);
            previous = i;
        }
        if rule == b"*" {
            return None;
        }
        // A final `$` is dropped; a final `*` kept; else a `*` is added.
        let (mut body, mut star) = match rule.last() {
            Some(b'$') => (&rule[..rule.len() - 1], false),
            Some(b'*') => (rule, false),
            _ => (rule, true),
        };
        // A plain prefix: a final `*` and no other, which is dropped.
        let prefix = if star {
            first_star.is_none()
        } else {
            body.last() == Some(&b'*') && first_star == Some(body.len() - 1)
        };
        if prefix {
            if star {
                star = false;
            } else {
                body = &body[..body.len() - 1];
            }
        }
        Some(StoredView { body, star, prefix })
    }
}

/// Whether `rule`, stored, is empty (see [`Stored::is_empty`]), without
/// storing it.
pub(crate) fn stores_empty(rule: &[u8]) -> bool {
    if rule == b"*" {
        return false;
    }
    let body = rule.strip_suffix(b"$").unwrap_or(rule);
    body.iter().all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule of up to six bytes of `/a*$`: read in place, as copied.
    #[test]
    fn rules_read_in_place_are_stored_alike() {
        let mut rules: Vec<Vec<u8>> = vec![Vec::new()];
        let mut last = rules.clone();
        for _ in 0..6 {
            last = last
                .iter()
                .flat_map(|r| {
                    b"/a*$".iter().map(move |&b| {
                        let mut r = r.clone();
                        r.push(b);
                        r
                    })
                })
                .collect();
            rules.extend(last.iter().cloned());
        }
        let mut in_place = 0;
        for rule in &rules {
            let stored = Stored::of(rule);
            if let Some(view) = StoredView::of(rule) {
                in_place += 1;
                let mut bytes = view.body.to_vec();
                if view.star {
                    bytes.push(b'*');
                }
                assert_eq!(
                    (bytes, view.prefix),
                    (stored.bytes, stored.prefix),
                    "{rule:?}"
                );
            }
        }
        assert!(in_place > rules.len() / 2, "{in_place} of {}", rules.len());
    }

    #[test]
    fn rules_are_stored_as_the_parser_stores_them() {
        let stored = |rule: &str| String::from_utf8(Stored::of(rule.as_bytes()).bytes).unwrap();
        assert_eq!(stored("/a"), "/a");
        assert_eq!(stored("/a*"), "/a");
        assert_eq!(stored("/a**"), "/a");
        assert_eq!(stored("*"), "/");
        assert_eq!(stored("/*"), "/");
        assert_eq!(stored("/a$"), "/a");
        assert_eq!(stored("/a*$"), "/a");
        assert_eq!(stored("/*a"), "/*a*");
        assert_eq!(stored("/**a$"), "/*a");
        assert_eq!(stored("/a$b"), "/a$b");
        assert_eq!(stored("/a$b*c"), "/a$b*c*");
        assert_eq!(stored("/a$$"), "/a$");
        assert_eq!(stored("*a"), "*a*");
        assert_eq!(stored("**"), "");
        assert_eq!(stored("*$"), "");
        for rule in ["/a", "*", "**", "*$", "**$", "/*", "$", "/a$b", "*a*"] {
            assert_eq!(
                stores_empty(rule.as_bytes()),
                Stored::of(rule.as_bytes()).is_empty(),
                "{rule}"
            );
        }
    }

    #[test]
    fn length_counts_neither_stars_nor_the_anchor() {
        assert_eq!(
            crate::Precedence::LongestLiteral.weight(b"/private/*.html"),
            14
        );
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"/a$"), 2);
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"/a$b"), 4);
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"/a$$"), 3);
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"*"), 1);
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"**"), 0);
        assert_eq!(crate::Precedence::LongestLiteral.weight(b"/*"), 1);
    }
}
