//! Fuzz target `decide`: see [`crawlgate_fuzz::decide::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crawlgate_fuzz::decide::check(data));
