//! Diagnostics as data: what the parser noticed about a file, with a stable
//! code, a severity, and a precise location.
//!
//! Parsing never fails; everything it had to skip, accept leniently or cut is
//! reported here instead. The linter (the `crawlgate-lint` crate) reports
//! these findings under the same codes, beside its own.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; no crawler behaves differently because of it.
    Info,
    /// Some crawlers read the line differently from what was probably meant.
    Warning,
    /// The line is ignored or misread by the reference implementation.
    Error,
}

impl Severity {
    /// Lowercase name: `info`, `warning`, `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = ($code:literal, $name:literal, $severity:ident), )*) => {
        /// A stable code of a parse finding (`R0xx`, how lines are read).
        /// Codes are never reused; the linter's codes share this numbering
        /// and keep these codes' text, names and severities.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as written in output (`R002`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// A short kebab-case name (`missing-colon`).
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity the code is reported with unless configured otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// Looks a code up by its code (`R002`) or name (`missing-colon`).
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
    };
}

codes! {
    /// A line without a colon, read as `field value` (Google) or ignored (strict readings).
    MissingColon = ("R002", "missing-colon", Warning),
    /// A misspelled field name (`Dissallow`, `useragent`) that only lenient crawlers accept.
    MisspelledField = ("R003", "misspelled-field", Warning),
    /// A field name recognised only by its prefix (`Disallowed:`), as Google does.
    FieldNamePrefix = ("R004", "field-name-prefix", Warning),
    /// An allow or disallow line before any user-agent line: ignored by everyone.
    RuleBeforeUserAgent = ("R005", "rule-before-user-agent", Error),
    /// A rule path that does not start with `/` (or `*`): it never matches a URL.
    PathNotAbsolute = ("R006", "path-not-absolute", Error),
    /// A UTF-8 byte order mark at the start of the file.
    ByteOrderMark = ("R010", "byte-order-mark", Info),
    /// Bytes that are not valid UTF-8.
    InvalidUtf8 = ("R011", "invalid-utf8", Warning),
    /// Lines ended by a bare carriage return (old Mac style).
    CrLineEndings = ("R012", "cr-line-endings", Info),
    /// A line longer than the reference implementation reads.
    LineTooLong = ("R013", "line-too-long", Error),
    /// The file is larger than 500 KiB: the rest is ignored.
    FileTooLarge = ("R014", "file-too-large", Error),
    /// A line that is neither empty, a comment, nor `field: value`.
    InvalidLine = ("R015", "invalid-line", Warning),
    /// A NUL byte, which ends the content of its line.
    NulByte = ("R016", "nul-byte", Warning),
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

/// A suggested fix: what to do, and where possible the replacement text for
/// the span.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// What the fix does, for a human.
    pub message: Cow<'static, str>,
    /// Text that replaces the diagnostic's span, when the fix is mechanical.
    pub replacement: Option<String>,
}

/// One finding about one place in a robots.txt file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// How serious it is.
    pub severity: Severity,
    /// Where it is.
    pub span: Span,
    /// What a crawler will actually do.
    pub message: Cow<'static, str>,
    /// A suggested fix, when there is one.
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no fix.
    pub fn new(code: Code, span: Span, message: impl Into<Cow<'static, str>>) -> Diagnostic {
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
        });
        self
    }

    /// The 1-based line number.
    pub fn line(&self) -> u32 {
        self.span.line
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}[{}] {}",
            self.span.line, self.span.column, self.severity, self.code, self.message
        )
    }
}
