//! Heap held by a parsed file, measured with a counting allocator, for
//! crawlgate and its peers on the real-world corpus, and crawlgate's own
//! account of it by part ([`crawlgate::RobotsTxt::heap_parts`]); and the
//! heap of a file kept for many questions ([`crawlgate::CompiledRobotsTxt`])
//! once its crawler's rules are compiled.
//!
//! `cargo bench -p crawlgate-bench --bench heap`

// A global allocator is unsafe to implement; this one only counts bytes.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicIsize, Ordering};

mod corpus;

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: defers to the system allocator and only counts bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes still allocated after `make` returns, while its result lives.
fn retained<T>(make: impl FnOnce() -> T) -> Option<usize> {
    let before = LIVE.load(Ordering::Relaxed);
    let value = catch_unwind(AssertUnwindSafe(make)).ok()?;
    let after = LIVE.load(Ordering::Relaxed);
    drop(value);
    Some((after - before).max(0) as usize)
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    std::panic::set_hook(Box::new(|_| {}));
    let (corpus, _) = corpus::load(|_, _| true);
    let entries = &corpus.entries;
    let input: usize = entries.iter().map(|e| e.bytes.len()).sum();
    let mut ours = 0;
    let mut worst: (f64, &str) = (0.0, "");
    let mut kept = 0;
    let mut kept_worst: (f64, &str) = (0.0, "");
    let mut crawler = 0;
    let mut texting = 0;
    let mut robotxt = 0;
    // A parse gathers small files' records in vectors the thread keeps for
    // the next one: they are the thread's, not a file's, so they reach
    // their size before anything is counted.
    for e in entries {
        drop(crawlgate::RobotsTxt::parse(&e.bytes));
        drop(crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent));
    }
    for e in entries {
        let held =
            retained(|| crawlgate::RobotsTxt::parse(&e.bytes)).expect("crawlgate never panics");
        ours += held;
        if e.bytes.len() >= 4096 {
            let ratio = held as f64 / e.bytes.len() as f64;
            if ratio > worst.0 {
                worst = (ratio, &e.name);
            }
        }
        let held = retained(|| {
            let kept = crawlgate::CompiledRobotsTxt::new(crawlgate::RobotsTxt::parse(&e.bytes));
            // Asked every URL: past the first few questions its rules compile.
            for url in corpus.urls(e) {
                kept.is_allowed(e.agent, url);
            }
            kept
        })
        .expect("crawlgate never panics");
        kept += held;
        if e.bytes.len() >= 4096 {
            let ratio = held as f64 / e.bytes.len() as f64;
            if ratio > kept_worst.0 {
                kept_worst = (ratio, &e.name);
            }
        }
        crawler += retained(|| {
            let kept = crawlgate::CrawlerRobotsTxt::parse(&e.bytes, e.agent);
            for url in corpus.urls(e) {
                kept.is_allowed(url);
            }
            kept
        })
        .expect("crawlgate never panics");
        texting += retained(|| texting_robots::Robot::new(e.agent, &e.bytes)).unwrap_or(0);
        robotxt += retained(|| robotxt::Robots::parse(&e.bytes, e.agent)).unwrap_or(0);
    }
    let _ = std::panic::take_hook();
    let ratio = |n: usize| n as f64 / input as f64;
    let mut parts: Vec<(&str, usize)> = Vec::new();
    for e in entries {
        for (name, bytes) in crawlgate::RobotsTxt::parse(&e.bytes).heap_parts() {
            match parts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, total)) => *total += bytes,
                None => parts.push((name, bytes)),
            }
        }
    }
    println!(
        "heap held after parsing {} files ({:.1} MB):",
        entries.len(),
        input as f64 / 1e6
    );
    println!(
        "  crawlgate       {:>6.2}x input (all crawlers; worst file ≥ 4 KiB: {:.2}x, {})",
        ratio(ours),
        worst.0,
        worst.1
    );
    println!(
        "  crawlgate kept  {:>6.2}x input (CompiledRobotsTxt, its crawler's rules compiled; worst file ≥ 4 KiB: {:.2}x, {})",
        ratio(kept),
        kept_worst.0,
        kept_worst.1
    );
    println!(
        "  crawlgate crawler {:>4.2}x input (CrawlerRobotsTxt: read for its crawler, its rules compiled)",
        ratio(crawler)
    );
    println!(
        "  texting_robots  {:>6.2}x input (one crawler's rules only)",
        ratio(texting)
    );
    println!(
        "  robotxt         {:>6.2}x input (one crawler's rules only)",
        ratio(robotxt)
    );
    println!("  robotstxt       keeps nothing: it re-parses the text on every query");
    println!("crawlgate's heap by part (x input):");
    for (name, bytes) in parts {
        println!("  {name:12} {:>6.3}x", ratio(bytes));
    }
}
