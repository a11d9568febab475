//! The one table macro of words: an enum whose variants each have a word
//! in output (`allow`, `ai-train`, `blocked_by_name`) is written as one row
//! per variant, and the word, its reverse and the list of variants are
//! derived from the rows, so the word and the variant cannot drift apart.

/// Defines an enum from rows `Variant = "word",` (each row keeps its doc
/// comment and attributes) and derives from them:
///
/// - `ALL`: every variant, in the rows' order;
/// - `as_str`: the variant's word;
/// - `from_word`: the variant whose word is the given one (exact match);
/// - `Display`, which writes the word.
///
/// Used by the crates of the workspace for their output vocabularies.
///
/// ```
/// crawlgate::word_table! {
///     /// What a policy says of a crawler.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Access {
///         /// Let it in.
///         Allow = "allow",
///         /// Shut it out.
///         Deny = "deny",
///     }
/// }
///
/// assert_eq!(Access::ALL, [Access::Allow, Access::Deny]);
/// assert_eq!(Access::Deny.as_str(), "deny");
/// assert_eq!(Access::from_word("allow"), Some(Access::Allow));
/// assert_eq!(Access::from_word("Allow"), None);
/// assert_eq!(Access::Allow.to_string(), "allow");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! word_table {
    (
        $(#[$attr:meta])*
        $vis:vis enum $Name:ident {
            $( $(#[$vattr:meta])* $variant:ident = $word:literal, )+
        }
    ) => {
        $(#[$attr])*
        $vis enum $Name {
            $( $(#[$vattr])* $variant, )+
        }

        // Not every table needs every derived item.
        #[allow(dead_code)]
        impl $Name {
            /// Every variant, in the table's order.
            pub const ALL: [$Name; [$(stringify!($variant)),+].len()] = [$($Name::$variant),+];

            /// Its word in output.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( $Name::$variant => $word, )+
                }
            }

            /// The variant whose word is `word` (compared exactly).
            pub fn from_word(word: &str) -> Option<$Name> {
                match word {
                    $( $word => Some($Name::$variant), )+
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Display for $Name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
