//! The answers crate's files form layers (`outcome.rs` is the fetch's
//! outcome alone; `verdict.rs` explains verdicts and names outcomes;
//! `reading.rs` decides with both), and the crate stays pure: it reads no
//! network, file or clock and runs nothing asynchronous. The scanner is
//! `crawlgate_test_support::architecture`.

use crawlgate_test_support::architecture::{cycles, production_code, SourceTree};

#[test]
fn files_form_layers_without_cycles() {
    let graph = SourceTree::read(env!("CARGO_MANIFEST_DIR")).graph();
    assert!(graph["reading.rs"].contains("outcome.rs"), "{graph:?}");
    assert!(graph["reading.rs"].contains("verdict.rs"), "{graph:?}");
    assert!(!graph["outcome.rs"].contains("reading.rs"), "{graph:?}");
    let cycles = cycles(&graph);
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn no_file_does_io_or_reads_the_clock() {
    // Addresses are data (`std::net::IpAddr`); sockets are I/O.
    const IMPURE: [&str; 12] = [
        "std::fs",
        "TcpStream",
        "TcpListener",
        "UdpSocket",
        "ToSocketAddrs",
        "std::io::stdin",
        "std::process",
        "std::env",
        "SystemTime::now",
        "Instant::now",
        "async ",
        "std::thread",
    ];
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut found = Vec::new();
    let mut files = 0;
    let mut stack = vec![std::path::PathBuf::from(src)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            files += 1;
            let code = production_code(&std::fs::read_to_string(&path).unwrap());
            for word in IMPURE {
                if code.contains(word) {
                    found.push(format!("{}: {word}", path.display()));
                }
            }
        }
    }
    assert!(files >= 10, "{files} files read");
    assert!(found.is_empty(), "impure code:\n{}", found.join("\n"));
}
