//! The audit crate's tests, one binary: the lab (a log with known truth,
//! feeds from a mirror and from a loopback HTTP server, a real DNS server
//! on loopback with forged, double and silent PTR records), the log
//! formats read alike, hostile input, growth, outputs and deny lists
//! checked by the real programs, the HTML report in headless Chromium,
//! audits fed from memory (Arrow batches), and the import graph.

mod architecture;
mod deny_lists;
mod formats;
mod hostile;
mod lab;
mod readings;
mod report;
mod session;
mod support;
