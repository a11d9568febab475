//! Quick throughput check over a directory of robots.txt files:
//! `cargo run --release -p crawlgate --example throughput -- ../shared/corpus/real`
use std::time::Instant;

use crawlgate::RobotsTxt;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: throughput DIR");
    let files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("readable directory")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("readable file"))
        .collect();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut best = f64::MAX;
    let mut heap = 0;
    for _ in 0..10 {
        let start = Instant::now();
        heap = 0;
        for f in &files {
            let robots = RobotsTxt::parse(f);
            heap += robots.heap_size();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let mut parts: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in &files {
        for (name, n) in RobotsTxt::parse(f).heap_parts() {
            *parts.entry(name).or_default() += n;
        }
    }
    for (name, n) in parts {
        println!("{name:12} {:.3}x", n as f64 / bytes as f64);
    }
    println!(
        "{} files, {:.1} MB: parse {:.0} MB/s, heap {:.2}x input",
        files.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / best,
        heap as f64 / bytes as f64
    );
}
