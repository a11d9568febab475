//! Styling for human output. Renderers take a [`Palette`] and build a
//! `String`, so the same code gives the coloured terminal output and the
//! plain text the snapshot tests compare.

use std::io::{IsTerminal as _, Write as _};

use anstyle::{AnsiColor, Effects, Style};
use clap::ValueEnum;

use crawlgate::Reason;
use crawlgate_answers::{Basis, ExplainedVerdict, RuleRef};

/// `--color`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// When standard output is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

/// What the person at the terminal asked of the output, passed to the
/// commands that print for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ui {
    /// Whether standard output is coloured.
    pub color: bool,
}

impl Ui {
    /// The choices `--color` makes: colour as it says; by default when
    /// standard output is a terminal and `NO_COLOR` is unset (or empty), per
    /// <https://no-color.org>.
    pub fn new(color: ColorChoice) -> Ui {
        let color = match color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Ui { color }
    }

    /// The palette of standard output.
    pub fn palette(self) -> Palette {
        Palette::new(self.color)
    }
}

/// Colours for human output; every method returns the text unchanged when
/// colour is off.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    color: bool,
}

impl Palette {
    /// A palette that colours (`true`) or not.
    pub fn new(color: bool) -> Palette {
        Palette { color }
    }

    fn paint(&self, style: Style, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("{style}{text}{style:#}")
        } else {
            text.to_owned()
        }
    }

    /// An allowed verdict (green).
    pub fn allowed(&self, text: &str) -> String {
        self.paint(AnsiColor::Green.on_default(), text)
    }

    /// A disallowed verdict or a failure (red).
    pub fn disallowed(&self, text: &str) -> String {
        self.paint(AnsiColor::Red.on_default(), text)
    }

    /// The colour of a verdict.
    pub fn verdict(&self, allowed: bool, text: &str) -> String {
        if allowed {
            self.allowed(text)
        } else {
            self.disallowed(text)
        }
    }

    /// A line reference or other secondary text (dim).
    pub fn dim(&self, text: &str) -> String {
        self.paint(Style::new().effects(Effects::DIMMED), text)
    }

    /// A heading (bold).
    pub fn heading(&self, text: &str) -> String {
        self.paint(Style::new().effects(Effects::BOLD), text)
    }

    /// Something to notice (yellow).
    pub fn notice(&self, text: &str) -> String {
        self.paint(AnsiColor::Yellow.on_default(), text)
    }
}

/// Prints a warning on standard error (the run goes on; a closed standard
/// error loses the warning, not the run).
pub fn warn(message: &str) {
    let _ = writeln!(std::io::stderr(), "crawlgate: warning: {message}");
}

/// The widest column output is aligned to, in characters. Columns are as
/// wide as their widest cell up to this; a longer cell (a 70,000-character
/// URL or line) overflows its column instead of widening every row, so the
/// output stays proportional to the input.
pub const MAX_COLUMN: usize = 120;

/// Prints a note on standard error (a summary the run ends with).
pub fn note(message: &str) {
    let _ = writeln!(std::io::stderr(), "crawlgate: {message}");
}

/// `text` padded with spaces to `width` characters (at most
/// [`MAX_COLUMN`]); a longer text is left as it is.
pub fn pad(text: &str, width: usize) -> String {
    let fill = width.min(MAX_COLUMN).saturating_sub(text.chars().count());
    let mut padded = String::with_capacity(text.len() + fill);
    padded.push_str(text);
    padded.extend(std::iter::repeat_n(' ', fill));
    padded
}

/// `text` right-aligned in `width` characters (at most [`MAX_COLUMN`]).
pub fn pad_left(text: &str, width: usize) -> String {
    let fill = width.min(MAX_COLUMN).saturating_sub(text.chars().count());
    let mut padded = String::with_capacity(text.len() + fill);
    padded.extend(std::iter::repeat_n(' ', fill));
    padded.push_str(text);
    padded
}

/// The width of a column holding `texts`: the widest of them, in
/// characters, leaving out those wider than [`MAX_COLUMN`] (they
/// overflow).
pub fn width<T: AsRef<str>>(texts: impl IntoIterator<Item = T>) -> usize {
    texts
        .into_iter()
        .map(|t| t.as_ref().chars().count())
        .filter(|&w| w <= MAX_COLUMN)
        .max()
        .unwrap_or(0)
}

/// `robots.txt:12`: where a line is, as shown to people.
pub fn line_ref(name: &str, line: u32) -> String {
    format!("{name}:{line}")
}

/// Why a verdict came out as it did, with the deciding line quoted:
/// `robots.txt:12  Disallow: /private`. `ref_width` aligns the quotes.
pub fn reason(
    verdict: &ExplainedVerdict,
    source: &str,
    ref_width: usize,
    palette: Palette,
) -> String {
    let quote = |rule: &RuleRef, note: &str| {
        let reference = pad(&line_ref(source, rule.line), ref_width);
        format!("{}  {}{note}", palette.dim(&reference), rule.text)
    };
    match (verdict.basis, &verdict.rule) {
        (Basis::Rules(Reason::Rule), Some(rule)) if rule.via_index_alias => quote(
            rule,
            "  (Google's index.html alias: also allows the directory)",
        ),
        (Basis::Rules(Reason::Rule), Some(rule)) => quote(rule, ""),
        (Basis::Rules(Reason::EmptyRule), Some(rule)) => {
            quote(rule, "  (empty rule: allows everything)")
        }
        // A rule of the crawler registry (a crawler that ignores `*` or
        // robots.txt) says why in its own words.
        (Basis::Rules(Reason::NoGroup) | Basis::Rules(Reason::IgnoresRobotsTxt), _)
            if verdict.choice.as_ref().is_some_and(|c| c.crawler.is_some()) =>
        {
            verdict
                .choice
                .as_ref()
                .map(|c| c.why.clone())
                .unwrap_or_default()
        }
        (Basis::Rules(Reason::NoGroup), _) => {
            "no rule matched (no group names this crawler and there is no `*` group)".to_owned()
        }
        (Basis::Rules(Reason::IgnoresRobotsTxt), _) => "the crawler ignores robots.txt".to_owned(),
        (Basis::Rules(Reason::RuleLimit), _) => {
            "the file passes Yandex's 500 KB of stored rules: its parser allows everything"
                .to_owned()
        }
        (Basis::Rules(Reason::RobotsTxt), _) => "/robots.txt itself is always allowed".to_owned(),
        (Basis::FullAllow | Basis::FullDisallow, _) => format!(
            "{}: {}",
            if verdict.allowed {
                "full allow"
            } else {
                "full disallow"
            },
            verdict
                .fetch_outcome
                .map_or_else(|| "fetch outcome".to_owned(), |why| why.to_string())
        ),
        _ => "no rule matched".to_owned(),
    }
}

/// `text` for one line of output: control characters escaped, and cut
/// after `max` characters with the length said.
pub fn shown(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push_str(&format!("… ({} characters)", text.chars().count()));
            return out;
        }
        if c.is_control() && c != '\t' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_palette_leaves_text_alone() {
        let plain = Palette::new(false);
        assert_eq!(plain.allowed("allowed"), "allowed");
        assert_eq!(plain.dim("robots.txt:3"), "robots.txt:3");
    }

    #[test]
    fn colour_palette_wraps_and_resets() {
        let colour = Palette::new(true);
        assert_eq!(colour.allowed("ok"), "\u{1b}[32mok\u{1b}[0m");
        assert_eq!(colour.disallowed("no"), "\u{1b}[31mno\u{1b}[0m");
        // Padding stays plain so columns line up.
        assert_eq!(colour.dim(""), "");
    }

    fn verdict(file: &str, url: &str) -> ExplainedVerdict {
        ExplainedVerdict::decide(&crawlgate::RobotsTxt::parse(file.as_bytes()), "bot", url)
    }

    #[test]
    fn reasons_quote_the_deciding_line() {
        let plain = Palette::new(false);
        let file = "User-agent: *\nDisallow: /p\nAllow: /d/index.html\n";
        assert_eq!(
            reason(&verdict(file, "/p/x"), "robots.txt", 14, plain),
            "robots.txt:2    Disallow: /p"
        );
        assert_eq!(
            reason(&verdict(file, "/d/"), "r", 0, plain),
            "r:3  Allow: /d/index.html  (Google's index.html alias: also allows the directory)"
        );
        assert_eq!(
            reason(&verdict("User-agent: *\nDisallow:\n", "/x"), "r", 0, plain),
            "r:2  Disallow:  (empty rule: allows everything)"
        );
        assert_eq!(
            reason(&verdict(file, "/q"), "r", 0, plain),
            "no rule matched"
        );
        assert_eq!(
            reason(&verdict("", "/q"), "r", 0, plain),
            "no rule matched (no group names this crawler and there is no `*` group)"
        );
    }

    #[test]
    fn reasons_name_the_fetch_outcome() {
        let plain = Palette::new(false);
        let fetched =
            crate::load::source::Loaded::fetched(crawlgate_answers::HttpResponse::new(404));
        let reading = fetched.read(crawlgate::Profile::GOOGLE);
        assert_eq!(
            reason(&reading.decide("bot", "/x"), "r", 0, plain),
            "full allow: no robots.txt (4xx): everything allowed"
        );
        assert_eq!(
            reason(&reading.decide("bot", "/robots.txt"), "r", 0, plain),
            "/robots.txt itself is always allowed"
        );
    }

    #[test]
    fn pads_by_characters() {
        assert_eq!(pad("é", 3), "é  ");
        assert_eq!(pad_left("7", 3), "  7");
        assert_eq!(width(["a", "ééé", "bb"]), 3);
    }

    #[test]
    fn long_cells_overflow_instead_of_widening_columns() {
        // Rust's format width stops at 65,535: no width from input reaches one.
        let long = "a".repeat(70_000);
        assert_eq!(width([long.as_str(), "bb"]), 2);
        assert_eq!(pad(&long, 70_001), long);
        assert_eq!(pad("x", usize::MAX).len(), MAX_COLUMN);
        assert_eq!(pad_left("x", 1 << 20).len(), MAX_COLUMN);
    }

    #[test]
    fn lines_are_shown_escaped_and_cut() {
        assert_eq!(shown("a\u{1b}[31mb\tc", 80), "a\\u{1b}[31mb\tc");
        assert_eq!(shown("abcdef", 3), "abc… (6 characters)");
        assert_eq!(shown("abc", 3), "abc");
    }
}
