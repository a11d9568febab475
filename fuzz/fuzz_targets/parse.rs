//! Fuzz target `parse`: see [`crawlgate_fuzz::parse::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crawlgate_fuzz::parse::check(data));
