//! Hex digits of percent escapes (`%2F`), as escapes are written and read.

/// Uppercase hex digits, as escapes are written.
pub(crate) const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The value of a hex digit.
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}
