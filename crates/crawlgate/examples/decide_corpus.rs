//! Decides paths derived from each file's rules, many times, for profilers:
//! `ROUNDS=n` repeats, `FILES=n` keeps the first n files.
use std::time::Instant;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: decide_corpus DIR");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("readable directory")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("readable file"))
        .collect();
    files.sort();
    if let Some(n) = std::env::var("FILES").ok().and_then(|n| n.parse().ok()) {
        files.truncate(n);
    }
    let robots: Vec<_> = files
        .iter()
        .map(|f| crawlgate::RobotsTxt::parse(f))
        .collect();
    let mut work = Vec::new();
    for (i, r) in robots.iter().enumerate() {
        let view = r.for_agent(if i % 2 == 0 {
            "googlebot"
        } else {
            "crawlgatebot"
        });
        let mut paths = vec![
            "/".to_owned(),
            "/index.html".to_owned(),
            "/search?q=robots".to_owned(),
        ];
        let rules: Vec<_> = r.rules().collect();
        for rule in rules.iter().step_by(rules.len().div_ceil(7).max(1)) {
            let path = rule
                .pattern()
                .replace('*', "x")
                .trim_end_matches('$')
                .to_owned();
            paths.push(format!("{path}z/page.html"));
            paths.push(path);
        }
        work.push((view, paths));
    }
    // All paths in one buffer, as a crawler's frontier would hold them.
    let mut buffer = String::new();
    let mut spans = Vec::new();
    for (_, paths) in &work {
        let start = spans.len();
        for p in paths {
            spans.push((buffer.len(), buffer.len() + p.len()));
            buffer.push_str(p);
        }
        let _ = start;
    }
    let mut k = 0;
    let ranges: Vec<(usize, usize)> = work
        .iter()
        .map(|(_, paths)| {
            let r = (k, k + paths.len());
            k += paths.len();
            r
        })
        .collect();
    let n: usize = work.iter().map(|(_, p)| p.len()).sum();
    let start = Instant::now();
    let mut allowed = 0;
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    for _ in 0..rounds {
        for ((view, _), &(a, b)) in work.iter().zip(&ranges) {
            for &(s, e) in &spans[a..b] {
                allowed += usize::from(view.is_allowed(&buffer[s..e]));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{:.2} M decisions/s ({allowed})",
        rounds as f64 * n as f64 / secs / 1e6
    );
}
