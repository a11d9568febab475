//! Field names: what a line's field name means, recognised with the
//! leniencies a profile allows. Both readers share this: the model builder
//! (`parse`) and the one-shot decision (`decide_once`).

use crate::extension::ExtensionKind;
use crate::profile::Profile;

/// What a line's field name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    UserAgent,
    Allow,
    Disallow,
    Sitemap,
    Extension(ExtensionKind),
}

/// How the name was recognised, when not by its exact canonical spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spelling {
    Exact,
    /// Accepted as a longer name starting with the canonical one (`Disallowed`).
    Prefix(Field),
    /// Accepted misspelling (`Dissallow`).
    Typo(Field),
    /// Read as unknown here, but lenient crawlers read it as this field.
    Rejected(Field),
}

struct Known {
    field: Field,
    canonical: &'static str,
    typos: &'static [&'static str],
}

/// Google's order of checks matters: a key is tested against user-agent, then
/// allow, then disallow, then sitemap.
const KNOWN: &[Known] = &[
    Known {
        field: Field::UserAgent,
        canonical: "user-agent",
        typos: &["useragent", "user agent"],
    },
    Known {
        field: Field::Allow,
        canonical: "allow",
        typos: &[],
    },
    Known {
        field: Field::Disallow,
        canonical: "disallow",
        typos: &["dissallow", "dissalow", "disalow", "diasllow", "disallaw"],
    },
    Known {
        field: Field::Sitemap,
        canonical: "sitemap",
        typos: &["site-map"],
    },
];

/// Whether `key` equals `name` (lowercase ASCII) ignoring ASCII case: a
/// letter of `name` matches either case, anything else matches itself.
fn eq_folded(key: &[u8], name: &[u8]) -> bool {
    key.len() == name.len()
        && key
            .iter()
            .zip(name)
            .all(|(&k, &n)| k | (u8::from(n.is_ascii_lowercase()) << 5) == n)
}

fn starts_with_ignore_case(key: &[u8], prefix: &str) -> bool {
    key.len() >= prefix.len() && eq_folded(&key[..prefix.len()], prefix.as_bytes())
}

/// Canonical display names of the four core fields.
pub(crate) fn canonical_name(field: Field) -> &'static str {
    match field {
        Field::UserAgent => "User-agent",
        Field::Allow => "Allow",
        Field::Disallow => "Disallow",
        Field::Sitemap => "Sitemap",
        Field::Extension(kind) => kind.canonical_name().unwrap_or("unknown"),
    }
}

/// Recognises a (whitespace-stripped, non-empty) field name.
///
/// The names nearly every line uses are compared here, inlined into the
/// reader's loop; the rest in [`recognise_other`].
#[inline(always)]
pub(crate) fn recognise(key: &[u8], profile: &Profile) -> (Field, Spelling) {
    // The names nearly every line uses, compared a word at a time with ASCII
    // case folded as `eq_folded` does (`| 0x20` lowercases a letter and
    // keeps `-`; only CR, which never reaches a field name, folds onto `-`).
    const FOLD: u64 = 0x2020_2020_2020_2020;
    let word = |bytes: &[u8]| -> u64 {
        let mut word = [0u8; 8];
        word[..bytes.len()].copy_from_slice(bytes);
        u64::from_le_bytes(word)
    };
    match key.len() {
        8 if word(key) | FOLD == word(b"disallow") => return (Field::Disallow, Spelling::Exact),
        5 if word(key) | 0x20_2020_2020 == word(b"allow") => {
            return (Field::Allow, Spelling::Exact)
        }
        10 if word(&key[..8]) | FOLD == word(b"user-age")
            && word(&key[8..]) | 0x2020 == word(b"nt") =>
        {
            return (Field::UserAgent, Spelling::Exact)
        }
        _ => {}
    }
    recognise_other(key, profile)
}

/// Recognises a field name other than the exact core names.
///
/// Dispatches on the first letter: each core field and all of its accepted
/// misspellings share one, so at most one entry of `KNOWN` is tried, which
/// keeps Google's order of checks without walking the table.
#[inline(never)]
fn recognise_other(key: &[u8], profile: &Profile) -> (Field, Spelling) {
    let known = match key.first().map(u8::to_ascii_lowercase) {
        Some(b'u') => &KNOWN[0],
        Some(b'a') => &KNOWN[1],
        Some(b'd') => &KNOWN[2],
        Some(b's') => &KNOWN[3],
        _ => return (Field::Extension(extension_kind(key)), Spelling::Exact),
    };
    if eq_folded(key, known.canonical.as_bytes()) {
        return (known.field, Spelling::Exact);
    }
    let display = known.field;
    let lenient = if starts_with_ignore_case(key, known.canonical) {
        Some(Spelling::Prefix(display))
    } else {
        known.typos.iter().find_map(|typo| {
            let hit = if profile.field_name_prefix {
                starts_with_ignore_case(key, typo)
            } else {
                eq_folded(key, typo.as_bytes())
            };
            hit.then_some(Spelling::Typo(display))
        })
    };
    match lenient {
        Some(Spelling::Prefix(_)) if profile.field_name_prefix => {
            (known.field, Spelling::Prefix(display))
        }
        Some(Spelling::Typo(_)) if profile.accept_typos => (known.field, Spelling::Typo(display)),
        Some(_) => (
            Field::Extension(extension_kind(key)),
            Spelling::Rejected(display),
        ),
        None => (Field::Extension(extension_kind(key)), Spelling::Exact),
    }
}

/// The extension a field name names (exact, case-insensitive).
fn extension_kind(key: &[u8]) -> ExtensionKind {
    ExtensionKind::KNOWN
        .iter()
        .find(|(_, name)| name.len() == key.len() && name.as_bytes().eq_ignore_ascii_case(key))
        .map_or(ExtensionKind::Unknown, |&(kind, _)| kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn google_accepts_prefixes_and_typos() {
        let g = Profile::GOOGLE;
        assert_eq!(
            recognise(b"USER-AGENT", &g),
            (Field::UserAgent, Spelling::Exact)
        );
        assert_eq!(recognise(b"Disallowed", &g).0, Field::Disallow);
        assert_eq!(recognise(b"dissallow", &g).0, Field::Disallow);
        assert_eq!(recognise(b"user agent", &g).0, Field::UserAgent);
        assert_eq!(recognise(b"Site-map", &g).0, Field::Sitemap);
        assert_eq!(recognise(b"Allowance", &g).0, Field::Allow);
        assert_eq!(
            recognise(b"crawl-delay", &g).0,
            Field::Extension(ExtensionKind::CrawlDelay)
        );
        assert_eq!(
            recognise(b"alow", &g).0,
            Field::Extension(ExtensionKind::Unknown)
        );
    }

    proptest::proptest! {
        #[test]
        fn core_names_are_recognised_in_any_case_and_nothing_else_is(
            key in proptest::prop_oneof![
                "[dD][iI][sS][aA][lL][lL][oO][wW]",
                "[aA][lL][lL][oO][wW]",
                "[uU][sS][eE][rR][-_ ][aA][gG][eE][nN][tT]",
                "[aAlLoOwWdDiIsSuUeErRgGnNtT_ @-]{5,10}",
            ],
        ) {
            let key = key.as_bytes();
            let core = [(Field::Disallow, "disallow"), (Field::Allow, "allow"), (Field::UserAgent, "user-agent")];
            let expected = core.iter().find(|(_, name)| eq_folded(key, name.as_bytes()));
            let (field, spelling) = recognise(key, &Profile::GOOGLE);
            match expected {
                Some(&(expected, _)) => proptest::prop_assert_eq!((field, spelling), (expected, Spelling::Exact)),
                None => proptest::prop_assert!(
                    spelling != Spelling::Exact || !core.iter().any(|&(f, _)| f == field),
                    "{:?} read as {:?}", String::from_utf8_lossy(key), field
                ),
            }
        }
    }

    #[test]
    fn strict_profiles_reject_them() {
        let r = Profile::RFC9309;
        assert_eq!(recognise(b"Disallow", &r).0, Field::Disallow);
        assert_eq!(
            recognise(b"Disallowed", &r),
            (
                Field::Extension(ExtensionKind::Unknown),
                Spelling::Rejected(Field::Disallow)
            )
        );
        assert_eq!(
            recognise(b"useragent", &r),
            (
                Field::Extension(ExtensionKind::Unknown),
                Spelling::Rejected(Field::UserAgent)
            )
        );
    }
}
