//! The answers crate's integration tests: its layers, and its purity (no
//! I/O, no clock, nothing asynchronous).

mod architecture;
