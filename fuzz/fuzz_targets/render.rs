//! Fuzz target `render`: see [`crawlgate_fuzz::render::check`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| crawlgate_fuzz::render::check(data));
