//! Parses every file of a directory once, for profilers:
//! `valgrind --tool=callgrind target/release/examples/parse_corpus ../shared/corpus/real`
fn main() {
    let dir = std::env::args().nth(1).expect("usage: parse_corpus DIR");
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("readable directory")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("readable file"))
        .collect();
    files.sort();
    let mut rules = 0;
    for f in &files {
        rules += crawlgate::RobotsTxt::parse(f).rules().len();
    }
    println!("{rules} rules");
}
