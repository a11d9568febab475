//! The policy crate's tests: one binary, a module per subject.

mod architecture;
mod bar;
mod corpus;
mod hostile;
mod readings;
mod servers;
mod support;
mod sweep;
mod toml;
