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
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
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
