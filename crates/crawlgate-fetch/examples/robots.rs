//! Fetch a robots.txt and print the report, or check a URL, as JSON.
//!
//! ```text
//! cargo run -p crawlgate-fetch --example robots -- fetch https://example.com/
//! cargo run -p crawlgate-fetch --example robots -- check https://example.com/private mybot
//! ```
//!
//! `--allow-private` lets it fetch from loopback and private addresses.

use crawlgate_fetch::Fetcher;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let allow_private = args.iter().any(|a| a == "--allow-private");
    args.retain(|a| a != "--allow-private");
    let mut builder = Fetcher::builder();
    if allow_private {
        builder = builder.allow_non_public_addresses();
    }
    let fetcher = match builder.build() {
        Ok(f) => f,
        Err(e) => return eprintln!("error: {e}"),
    };
    let output = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["fetch", url] => fetcher
            .fetch(url)
            .await
            .map(|r| serde_json::to_string_pretty(&r)),
        ["check", url, agent] => fetcher
            .check(url, agent)
            .await
            .map(|d| serde_json::to_string_pretty(&d)),
        _ => return eprintln!("usage: robots [--allow-private] fetch URL | check URL AGENT"),
    };
    match output {
        Ok(Ok(json)) => println!("{json}"),
        Ok(Err(e)) => eprintln!("error: {e}"),
        Err(e) => eprintln!("error: {e}"),
    }
}
