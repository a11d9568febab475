//! One-shot decisions over a directory of robots.txt files, for profilers.
fn main() {
    let dir = std::env::args().nth(1).expect("usage: once_corpus DIR");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("readable directory")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("readable file"))
        .collect();
    files.sort();
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let mut allowed = 0;
    for _ in 0..rounds {
        for (i, f) in files.iter().enumerate() {
            let agent = if i % 2 == 0 {
                "googlebot"
            } else {
                "crawlgatebot"
            };
            allowed +=
                usize::from(crawlgate::decide_once(f, agent, "/search/page.html").is_allowed());
        }
    }
    println!("{allowed}");
}
