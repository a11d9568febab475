//! Where pieces of the source are: offsets of slices within the text they
//! were cut from.

/// Where `part`, a slice of `whole`, starts in it.
pub(crate) fn offset_in(whole: &str, part: &str) -> Option<usize> {
    let offset = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (offset + part.len() <= whole.len()).then_some(offset)
}

#[cfg(test)]
mod tests {
    use super::offset_in;

    #[test]
    fn a_slice_is_found_and_a_copy_is_not() {
        let whole = "key=value, other=x";
        assert_eq!(offset_in(whole, &whole[11..16]), Some(11));
        let copy = String::from("other");
        assert_eq!(offset_in(whole, &copy), None);
    }
}
