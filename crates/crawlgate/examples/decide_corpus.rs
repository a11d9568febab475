//! Decides paths derived from each file's rules, many times, for profilers.
use std::time::Instant;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: decide_corpus DIR");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("readable directory")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("readable file"))
        .collect();
    files.sort();
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
    let n: usize = work.iter().map(|(_, p)| p.len()).sum();
    let start = Instant::now();
    let mut allowed = 0;
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    for _ in 0..rounds {
        for (view, paths) in &work {
            for p in paths {
                allowed += usize::from(view.is_allowed(p));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{:.2} M decisions/s ({allowed})",
        rounds as f64 * n as f64 / secs / 1e6
    );
}
