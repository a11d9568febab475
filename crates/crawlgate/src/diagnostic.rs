//! Diagnostics as data: what the parser noticed about a file, with a stable
//! code, a severity, and a precise location.
//!
//! Parsing never fails; everything it had to skip, accept leniently or cut is
//! reported here instead. The linter (the `crawlgate-lint` crate) reports
//! these findings under the same codes, beside its own.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

crate::word_table! {
    /// How serious a diagnostic is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Severity {
        /// Worth knowing; no crawler behaves differently because of it.
        Info = "info",
        /// Some crawlers read the line differently from what was probably meant.
        Warning = "warning",
        /// The line is ignored or misread by the reference implementation.
        Error = "error",
    }
}

crate::code_table! {
    /// A stable code of a parse finding (`R0xx`, how lines are read).
    /// Codes are never reused. The linter (`crawlgate-lint`) reports
    /// these findings under the same codes, names, severities and
    /// summaries, beside codes of its own.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    #[non_exhaustive]
    pub enum Code {
    MissingColon = ("R002", "missing-colon", Warning,
        "a line without a colon, read as `field value` by Google only"),
    MisspelledField = ("R003", "misspelled-field", Warning,
        "a misspelled field name that only lenient crawlers accept"),
    FieldNamePrefix = ("R004", "field-name-prefix", Warning,
        "a field name recognised only by its prefix (`Disallowed:`)"),
    RuleBeforeUserAgent = ("R005", "rule-before-user-agent", Error,
        "an allow or disallow line before any user-agent line"),
    PathNotAbsolute = ("R006", "path-not-absolute", Error,
        "a rule path that does not start with `/`"),
    ByteOrderMark = ("R010", "byte-order-mark", Info,
        "a UTF-8 byte order mark at the start of the file"),
    InvalidUtf8 = ("R011", "invalid-utf8", Warning,
        "bytes that are not valid UTF-8"),
    CrLineEndings = ("R012", "cr-line-endings", Info,
        "lines ended by a bare carriage return (old Mac style)"),
    LineTooLong = ("R013", "line-too-long", Error,
        "a line longer than the reference implementation reads"),
    FileTooLarge = ("R014", "file-too-large", Error,
        "the file is larger than 500 KiB, and what is past the limit is lost"),
    InvalidLine = ("R015", "invalid-line", Warning,
        "a line that is neither empty, a comment, nor `field: value`"),
    NulByte = ("R016", "nul-byte", Warning,
        "a NUL byte, which ends the content of its line"),
    }
}

impl Code {
    /// Every code, in numeric order.
    pub const ALL: &'static [Code] = Code::TABLE;

    /// The number of the code (`2` for `R002`): codes of the parser and of
    /// the linter share one numbering.
    ///
    /// ```
    /// assert_eq!(crawlgate::Code::FileTooLarge.number(), 14);
    /// ```
    pub const fn number(self) -> u16 {
        code_number(self.as_str())
    }

    /// Looks a code up by its code (`R002`, any case) or name (`missing-colon`).
    ///
    /// ```
    /// use crawlgate::Code;
    /// assert_eq!(Code::lookup("R002"), Some(Code::MissingColon));
    /// assert_eq!(Code::lookup("missing-colon"), Some(Code::MissingColon));
    /// ```
    pub fn lookup(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
    }
}

/// The number of a code written `R` and digits (`R014` is 14).
///
/// ```
/// assert_eq!(crawlgate::code_number("R014"), 14);
/// assert_eq!(crawlgate::code_number("R501"), 501);
/// ```
pub const fn code_number(code: &str) -> u16 {
    let bytes = code.as_bytes();
    let mut number = 0u16;
    let mut i = 1;
    while i < bytes.len() {
        number = number * 10 + (bytes[i] - b'0') as u16;
        i += 1;
    }
    number
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a diagnostic points: a line and a byte range in the input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// 1-based line number.
    pub line: u32,
    /// Byte offsets into the parsed input (after nothing is stripped: offset 0
    /// is the first byte given to `parse`).
    pub bytes: Range<usize>,
    /// 1-based byte column of the start of the span within its line.
    pub column: u32,
}

/// A suggested fix: what to do, where possible the replacement text for
/// the span, and whether applying it changes what crawlers may fetch.
///
/// A fix keeps every verdict of the reading the file was checked with
/// unless [`verdict_change`](Fix::verdict_change) says how it changes them
/// (a rule that matched nothing made to match, a group split): a user who
/// applies it gets the file they meant, not a quietly different one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What the fix does, for a human.
    pub message: Cow<'static, str>,
    /// Text that replaces the diagnostic's span, when the fix is mechanical.
    pub replacement: Option<String>,
    /// How applying the fix changes verdicts under the reading the file was
    /// checked with (`/.tab-x becomes allowed`), or `None` when it keeps
    /// every verdict.
    pub verdict_change: Option<Cow<'static, str>>,
}

impl Fix {
    /// Whether applying the fix can change a verdict: it says how in
    /// [`verdict_change`](Fix::verdict_change).
    ///
    /// ```
    /// use crawlgate::{Code, Diagnostic, Span};
    ///
    /// let span = Span { line: 2, bytes: 24..32, column: 11 };
    /// let d = Diagnostic::new(Code::PathNotAbsolute, span, "matches nothing")
    ///     .with_fix("write `Disallow: /private`", Some("/private".into()))
    ///     .with_verdict_change("the rule matched nothing; now `/private` is disallowed");
    /// assert!(d.fix.unwrap().changes_verdicts());
    /// ```
    pub fn changes_verdicts(&self) -> bool {
        self.verdict_change.is_some()
    }
}

/// What a [`Diagnostic`] needs of its code: the code as written (`R002`)
/// and the severity it is reported with by default. The parser's [`Code`]
/// is one; the linter's codes, which extend it, are another, so that both
/// report through the one [`Diagnostic`] type.
pub trait DiagnosticCode: Copy + fmt::Display {
    /// The severity a finding with this code has unless it says otherwise.
    fn default_severity(self) -> Severity;
}

impl DiagnosticCode for Code {
    fn default_severity(self) -> Severity {
        Code::default_severity(self)
    }
}

/// One finding about one place in a robots.txt file, under a code of the
/// parser's ([`Code`], the default) or of another table of codes.
///
/// ```
/// use crawlgate::{Code, Diagnostic, Severity, Span};
///
/// let span = Span { line: 2, bytes: 14..31, column: 1 };
/// let d = Diagnostic::new(Code::MissingColon, span, "read as `Disallow: /private`")
///     .with_fix("add the colon", Some("Disallow: /private".into()));
/// assert_eq!(d.severity, Code::MissingColon.default_severity());
/// assert_eq!(d.line(), 2);
/// assert!(d.to_string().starts_with("2:1: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic<C = Code> {
    /// The stable code.
    pub code: C,
    /// How serious it is.
    pub severity: Severity,
    /// Where it is.
    pub span: Span,
    /// What a crawler will actually do.
    pub message: Cow<'static, str>,
    /// A suggested fix, when there is one.
    pub fix: Option<Fix>,
}

impl<C: DiagnosticCode> Diagnostic<C> {
    /// A diagnostic with the code's default severity and no fix.
    pub fn new(code: C, span: Span, message: impl Into<Cow<'static, str>>) -> Diagnostic<C> {
        Diagnostic {
            code,
            severity: code.default_severity(),
            span,
            message: message.into(),
            fix: None,
        }
    }

    /// Adds a suggested fix.
    pub fn with_fix(
        mut self,
        message: impl Into<Cow<'static, str>>,
        replacement: Option<String>,
    ) -> Self {
        self.fix = Some(Fix {
            message: message.into(),
            replacement,
            verdict_change: None,
        });
        self
    }

    /// Says how applying the fix (added before with
    /// [`with_fix`](Diagnostic::with_fix)) changes verdicts; without a fix
    /// it does nothing.
    pub fn with_verdict_change(mut self, how: impl Into<Cow<'static, str>>) -> Self {
        if let Some(fix) = &mut self.fix {
            fix.verdict_change = Some(how.into());
        }
        self
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.span.line
    }
}

impl<C: fmt::Display> fmt::Display for Diagnostic<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}[{}] {}",
            self.span.line, self.span.column, self.severity, self.code, self.message
        )
    }
}
