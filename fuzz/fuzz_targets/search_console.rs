//! Fuzz target `search_console`: see [`crawlgate_fuzz::search_console::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crawlgate_fuzz::search_console::check(data));
