//! The one table macro of finding codes: the parser's codes
//! ([`Code`](crate::Code)) and the linter's (which extend them) are written
//! as one row per code, and the enum with its names, severities and
//! summaries is derived from the rows.

/// Defines a code enum from rows `Variant = ("R002", "name", Severity,
/// "summary"),`: the enum (each variant documented by its summary) and
/// `as_str`, `name`, `default_severity`, `summary`, plus `TABLE`, the rows'
/// codes in order. An optional first variant `Outer(Inner),` wraps another
/// table's code and answers with its names. Used by the core and the linter
/// alone: not a public API.
#[doc(hidden)]
#[macro_export]
macro_rules! code_table {
    (
        $(#[$attr:meta])*
        $vis:vis enum $Code:ident {
            $( #[$wrap_doc:meta] $Wrap:ident($Wrapped:ty), )?
            $( $variant:ident = ($code:literal, $name:literal, $severity:ident, $summary:literal), )*
        }
    ) => {
        $(#[$attr])*
        $vis enum $Code {
            $( #[$wrap_doc] $Wrap($Wrapped), )?
            $( #[doc = $summary] $variant, )*
        }

        impl $Code {
            /// The codes of this table's rows, in numeric order.
            const TABLE: &'static [$Code] = &[$($Code::$variant,)*];

            /// The code as written in output (`R002`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $Code::$Wrap(code) => code.as_str(), )?
                    $( $Code::$variant => $code, )*
                }
            }

            /// A short kebab-case name (`missing-colon`).
            pub const fn name(self) -> &'static str {
                match self {
                    $( $Code::$Wrap(code) => code.name(), )?
                    $( $Code::$variant => $name, )*
                }
            }

            /// The severity the code is reported with unless configured
            /// (or a finding matters) otherwise.
            pub const fn default_severity(self) -> $crate::Severity {
                match self {
                    $( $Code::$Wrap(code) => code.default_severity(), )?
                    $( $Code::$variant => $crate::Severity::$severity, )*
                }
            }

            /// One line: what the finding is.
            pub const fn summary(self) -> &'static str {
                match self {
                    $( $Code::$Wrap(code) => code.summary(), )?
                    $( $Code::$variant => $summary, )*
                }
            }
        }
    };
}
