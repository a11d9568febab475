//! Prints the corpus files that take longest to lint (a profiling aid).
use std::time::Instant;
fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/corpus/real");
    let mut times = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let body = std::fs::read(&path).unwrap();
        let start = Instant::now();
        let robots = crawlgate::RobotsTxt::parse(&body);
        let parse = start.elapsed();
        let start = Instant::now();
        let report = crawlgate::lint(&body, &crawlgate::lint::LintOptions::default());
        let lint = start.elapsed();
        times.push((
            lint,
            parse,
            body.len(),
            robots.rules().len(),
            report.diagnostics.len(),
            path,
        ));
    }
    times.sort_by(|a, b| b.0.cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0.as_secs_f64()).sum();
    println!("total lint {:.1} ms", total * 1e3);
    for t in times.iter().take(25) {
        println!(
            "{:>9.2} ms lint {:>7.3} ms parse {:>8} B {:>6} rules {:>6} diags {}",
            t.0.as_secs_f64() * 1e3,
            t.1.as_secs_f64() * 1e3,
            t.2,
            t.3,
            t.4,
            t.5.file_name().unwrap().to_string_lossy()
        );
    }
}
