//! Fuzz target `lint`: see [`crawlgate_fuzz::lint::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crawlgate_fuzz::lint::check(data));
