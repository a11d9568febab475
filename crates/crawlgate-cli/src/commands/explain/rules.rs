//! The text of the Rules section: the crawler's rules in the order they
//! are tried, with their lengths; and the aligned rule rows the per-URL
//! explanation shares.

use std::fmt::Write as _;

use crawlgate::{AgentView, Precedence, Rule, RuleMatch};

use super::selection::never_matching;
use crate::output::{line_ref, pad, pad_left, width, Palette};

/// What the length column does not say: the alias, an empty rule, a
/// pattern read otherwise than written.
fn rule_note(m: &RuleMatch<'_>) -> String {
    let rule = m.rule;
    if m.via_index_alias {
        format!(
            "as {} (Google's index.html alias: also allows the directory)",
            rule.index_alias().unwrap_or_default()
        )
    } else if rule.is_empty() && rule.allows() {
        "empty: Yandex reads it as `Allow: /`".to_owned()
    } else if rule.is_empty() {
        "empty: allows everything".to_owned()
    } else if rule.pattern() != rule.value() {
        format!("matched as {}", rule.pattern())
    } else {
        String::new()
    }
}

/// Rows `length  ref  rule  note`, aligned.
pub fn render_rule_rows(
    matches: &[RuleMatch<'_>],
    name: &str,
    indent: &str,
    min_len_width: usize,
    p: Palette,
    out: &mut String,
) {
    let refs: Vec<String> = matches
        .iter()
        .map(|m| line_ref(name, m.rule.line()))
        .collect();
    let texts: Vec<String> = matches.iter().map(|m| m.rule.to_string()).collect();
    let ref_width = width(refs.iter());
    let text_width = width(texts.iter());
    let len_width = width(matches.iter().map(|m| m.priority.to_string())).max(min_len_width);
    for ((m, reference), text) in matches.iter().zip(&refs).zip(&texts) {
        let note = rule_note(m);
        let text = if note.is_empty() {
            text.clone()
        } else {
            format!("{}  {}", pad(text, text_width), p.dim(&note))
        };
        let _ = writeln!(
            out,
            "{indent}{}  {}  {}",
            pad_left(&m.priority.to_string(), len_width),
            p.dim(&pad(reference, ref_width)),
            p.verdict(m.rule.allows() || m.rule.is_empty(), &text)
        );
    }
}

/// The rules section: the crawler's rules in the order they are tried,
/// those that never match, and those no crawler reads.
pub fn render_rules(view: &AgentView<'_>, name: &str, p: Palette, out: &mut String) {
    let robots = view.robots();
    let rules = view.rules_by_precedence();
    let heading = match robots.profile().precedence {
        Precedence::FirstMatch => "Rules in file order (legacy: the first that matches decides)",
        Precedence::LongestLiteral => "Rules in precedence order (longest first, counting neither `*` nor a final `$`; allow before disallow on a tie; the first that matches decides)",
        _ => "Rules in precedence order (longest first, allow before disallow on a tie; the first that matches decides)",
    };
    let _ = writeln!(out, "{}", p.heading(heading));
    if rules.is_empty() {
        let _ = writeln!(out, "  none: every URL is allowed");
    } else {
        let _ = writeln!(out, "  {}", p.dim("length  line"));
        render_rule_rows(&rules, name, "  ", 6, p, out);
    }
    let never = never_matching(view, &rules);
    if !never.is_empty() {
        let why = if robots.profile().precedence == Precedence::LongestLiteral {
            "Yandex's parser stores a pattern of stars alone as an empty rule, which matches \
             nothing, and loses the rule stored right after one"
        } else {
            "a path must start with `/` or `*`"
        };
        let _ = writeln!(out, "  Never match ({why}):");
        for rule in never {
            let _ = writeln!(out, "    {}  {rule}", p.dim(&line_ref(name, rule.line())));
        }
    }
    let ignored: Vec<Rule<'_>> = robots.ignored_rules().collect();
    if !ignored.is_empty() {
        let _ = writeln!(
            out,
            "  Ignored by every crawler (before any user-agent line):"
        );
        for rule in ignored {
            let _ = writeln!(out, "    {}  {rule}", p.dim(&line_ref(name, rule.line())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crawlgate::{Profile, RobotsTxt};

    fn rules_text(file: &str, agent: &str, profile: Profile) -> String {
        let robots = RobotsTxt::parse_with(file.as_bytes(), profile);
        let mut out = String::new();
        render_rules(&robots.view(agent), "r", Palette::new(false), &mut out);
        out
    }

    #[test]
    fn longest_first_with_lengths_and_notes() {
        let text = rules_text(
            "Disallow: /early\nUser-agent: *\nDisallow: /p\nAllow: /p/index.html\nDisallow:\nDisallow: x\nDisallow: /a%3c\n",
            "bot",
            Profile::GOOGLE,
        );
        assert_eq!(
            text,
            "Rules in precedence order (longest first, allow before disallow on a tie; the first that matches decides)\n\
             \x20 length  line\n\
             \x20     13  r:4  Allow: /p/index.html\n\
             \x20      5  r:7  Disallow: /a%3c       matched as /a%3C\n\
             \x20      4  r:4  Allow: /p/index.html  as /p/$ (Google's index.html alias: also allows the directory)\n\
             \x20      2  r:3  Disallow: /p\n\
             \x20      0  r:5  Disallow:             empty: allows everything\n\
             \x20 Never match (a path must start with `/` or `*`):\n\
             \x20   r:6  Disallow: x\n\
             \x20 Ignored by every crawler (before any user-agent line):\n\
             \x20   r:1  Disallow: /early\n"
        );
    }

    #[test]
    fn legacy_tries_rules_in_file_order() {
        let text = rules_text("User-agent: *\nDisallow: /a\n", "bot", Profile::LEGACY);
        assert!(
            text.starts_with("Rules in file order (legacy: the first that matches decides)\n"),
            "{text}"
        );
    }

    #[test]
    fn no_rules_allow_everything() {
        let text = rules_text("User-agent: a\nDisallow: /\n", "b", Profile::GOOGLE);
        assert!(text.ends_with("\n  none: every URL is allowed\n"), "{text}");
    }

    #[test]
    fn the_alias_is_named_in_a_match() {
        let robots = RobotsTxt::parse(b"User-agent: *\nAllow: /d/index.html\n");
        let matches = robots.view("bot").matching_rules("/d/");
        let mut out = String::new();
        render_rule_rows(&matches, "r", "  ", 0, Palette::new(false), &mut out);
        assert_eq!(
            out,
            "  4  r:2  Allow: /d/index.html  as /d/$ (Google's index.html alias: also allows the directory)\n"
        );
    }
}
