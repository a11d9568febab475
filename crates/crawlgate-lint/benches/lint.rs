//! Linting against parsing, on the whole real-world corpus
//! (found, or downloaded once, by `crawlgate-corpus`).
//!
//! ```text
//! cargo bench -p crawlgate-lint --bench lint
//! ```
//!
//! The bar: linting the corpus (default options) takes less than 5× parsing
//! it. The legacy comparison (`R402`, opt-in) and no comparison at all are
//! measured too.

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use crawlgate::RobotsTxt;
use crawlgate_lint::{lint, LintOptions};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn corpus() -> Vec<Vec<u8>> {
    crawlgate_corpus::files()
        .into_iter()
        .map(|(_, bytes)| bytes)
        .collect()
}

fn corpus_benches(c: &mut Criterion) {
    let files = corpus();
    let bytes: usize = files.iter().map(Vec::len).sum();
    let default = LintOptions::default();
    let legacy = LintOptions::default().with_legacy_comparison(true);
    let quick = LintOptions::default().with_profile_comparison(false);
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("parse", |b| {
        b.iter(|| {
            for file in &files {
                black_box(RobotsTxt::parse(black_box(file)));
            }
        })
    });
    group.bench_function("lint", |b| {
        b.iter(|| {
            for file in &files {
                black_box(lint(black_box(file), &default));
            }
        })
    });
    group.bench_function("lint_with_legacy_comparison", |b| {
        b.iter(|| {
            for file in &files {
                black_box(lint(black_box(file), &legacy));
            }
        })
    });
    group.bench_function("lint_without_profile_comparison", |b| {
        b.iter(|| {
            for file in &files {
                black_box(lint(black_box(file), &quick));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, corpus_benches);
criterion_main!(benches);
