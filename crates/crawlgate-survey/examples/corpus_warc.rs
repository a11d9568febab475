//! Writes the real-world corpus as a gzip WARC file (one member per
//! record, as Common Crawl's `robotstxt` files are), repeated `COPIES`
//! times under distinct host names, for measuring `crawlgate survey` on
//! WARC input:
//!
//! ```text
//! cargo run --release -p crawlgate-survey --example corpus_warc -- target/corpus.warc.gz 10
//! target/release/crawlgate survey target/corpus.warc.gz -o target/corpus.parquet
//! ```

#[path = "../tests/support/warc.rs"]
mod warc_writer;

use warc_writer::{Response, WarcFile};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "corpus.warc.gz".to_owned());
    let copies: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(1);
    let dir = crawlgate_corpus::dir();
    let names = crawlgate_corpus::names();
    let mut warc = WarcFile::new(true);
    for copy in 0..copies {
        for name in &names {
            let body = std::fs::read(dir.join(name))?;
            let host = if copy == 0 {
                name.clone()
            } else {
                format!("copy{copy}.{name}")
            };
            warc.response(&Response::ok(&host, body));
        }
    }
    std::fs::write(&out, &warc.bytes)?;
    eprintln!(
        "{out}: {} records, {} bytes",
        copies * names.len(),
        warc.bytes.len()
    );
    Ok(())
}
