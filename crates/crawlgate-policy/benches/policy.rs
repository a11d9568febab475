//! What writing a policy costs: a new file (`--search allow --ai-train
//! deny`: the plan, the linter, Search Console's report and the verdicts
//! of every registry crawler), and a merge into real files of the corpus
//! (a small one and the largest under 100 KiB: the proof then also lints
//! and decides the site's file).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use crawlgate_policy::{merge, write, Access, Policy, Purpose};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn policy() -> Policy {
    Policy::new()
        .with(Purpose::Search, Access::Allow)
        .with(Purpose::AiTrain, Access::Deny)
}

fn bench(c: &mut Criterion) {
    let policy = policy();
    c.bench_function("write --search allow --ai-train deny", |b| {
        b.iter(|| write(black_box(&policy)).unwrap())
    });
    let mut files: Vec<(String, Vec<u8>)> = crawlgate_corpus::files()
        .into_iter()
        .filter(|(_, body)| body.len() < 100 * 1024 && merge(&policy, body).is_ok())
        .collect();
    files.sort_by_key(|(_, body)| body.len());
    let small = &files[files.len() / 2];
    let large = &files[files.len() - 1];
    for (label, (name, body)) in [("median", small), ("largest under 100 KiB", large)] {
        c.bench_function(
            &format!(
                "merge into the {label} corpus file ({name}, {} bytes)",
                body.len()
            ),
            |b| b.iter(|| merge(black_box(&policy), black_box(body)).unwrap()),
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
