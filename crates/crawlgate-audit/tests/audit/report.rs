//! The HTML report in real headless Chromium (through chromedriver): it
//! asks for nothing beyond itself, its three charts are drawn with a shape
//! per crawler or path, and the crawler table shows the summary's counts.
//! The screenshot lands in `target/audit-screenshots/report.png`.

use std::collections::BTreeMap;

use crawlgate_audit::identity::feeds::FeedSource;
use crawlgate_audit::output::html;
use crawlgate_test_support::access_log::{Lab, HONEYPOT};
use crawlgate_testserver::browser::{Chromedriver, ChromiumOptions, Screenshots};
use crawlgate_testserver::{Reply, TestServer};

use crate::support::{dns_server, on_disk, options, run};

/// Each chart's label, size and shapes drawn; the crawler table's rows.
const READ_PAGE: &str = r#"
const charts = [...document.querySelectorAll('svg.chart')].map(svg => {
  const box = svg.getBoundingClientRect();
  const shapes = [...svg.querySelectorAll('rect, polyline, path, circle, line')]
    .filter(s => { const b = s.getBoundingClientRect(); return b.width > 0 || b.height > 0; });
  return {label: svg.getAttribute('aria-label'), width: box.width, height: box.height, shapes: shapes.length};
});
const table = [...document.querySelectorAll('h2')].find(h => h.textContent === 'Crawlers').nextElementSibling;
const rows = [...table.querySelectorAll('tr')].slice(1).map(tr => {
  const cells = [...tr.querySelectorAll('td')].map(td => td.textContent.trim());
  return {name: cells[0].replace(' (user-triggered)', ''), requests: cells[3], verified: cells[4], spoofed: cells[5], violations: cells[8]};
});
return {charts, rows};
"#;

#[test]
fn the_report_draws_its_charts_and_counts_in_chromium() {
    let lab = Lab::generate(2_000, 71);
    let disk = on_disk(&lab);
    let dns = dns_server(&lab);
    let (summary, _) = run(
        options(
            lab.robots_txt,
            FeedSource::Mirror(disk.mirror.clone()),
            Some(&dns),
        ),
        &[&disk.log],
    );
    assert!(summary.violations() > 0 && !summary.spoofing_ips.is_empty());
    let page = html::render(&summary, &[HONEYPOT.to_owned()]);
    let server = TestServer::start([(
        "/report.html",
        Reply::status(200)
            .header("Content-Type", "text/html; charset=utf-8")
            .body(page),
    )]);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (seen, requested) = runtime.block_on(async {
        let driver = Chromedriver::start();
        let client = driver
            .session(&ChromiumOptions::new().window(1200, 2000))
            .await;
        client.goto(&server.url("/report.html")).await.unwrap();
        let seen = client.execute(READ_PAGE, vec![]).await.unwrap();
        Screenshots::folder("audit-screenshots")
            .take(&client, "report.png")
            .await;
        client.close().await.unwrap();
        (seen, server.requests())
    });

    // Self-contained: nothing asked for but the page (and the icon
    // Chromium asks every site for).
    for request in &requested {
        assert!(
            request.path == "/report.html" || request.path == "/favicon.ico",
            "the report asked for {}",
            request.path
        );
    }

    let charts = seen["charts"].as_array().unwrap();
    let labels: Vec<&str> = charts
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "Requests per crawler over time",
            "Verified and spoofed requests per crawler",
            "Violations by path"
        ]
    );
    for chart in charts {
        assert!(
            chart["width"].as_f64().unwrap() > 100.0 && chart["height"].as_f64().unwrap() > 50.0,
            "{chart}"
        );
    }
    // Two axes and a line per crawler (the eight busiest) over time; a bar
    // (at least) per crawler and per violated path.
    let crawlers = summary.crawlers.len() as u64;
    assert!(
        charts[0]["shapes"].as_u64().unwrap() >= 2 + crawlers.min(8),
        "{}",
        charts[0]
    );
    assert!(
        charts[1]["shapes"].as_u64().unwrap() >= crawlers,
        "{}",
        charts[1]
    );
    assert!(charts[2]["shapes"].as_u64().unwrap() >= 1, "{}", charts[2]);

    let shown: BTreeMap<String, [String; 4]> = seen["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            let text = |key: &str| row[key].as_str().unwrap().to_owned();
            (
                text("name"),
                [
                    text("requests"),
                    text("verified"),
                    text("spoofed"),
                    text("violations"),
                ],
            )
        })
        .collect();
    let expected: BTreeMap<String, [String; 4]> = summary
        .crawlers
        .values()
        .map(|c| {
            (
                c.name.to_owned(),
                [
                    c.requests.to_string(),
                    c.verified.to_string(),
                    c.spoofed.to_string(),
                    c.violations.to_string(),
                ],
            )
        })
        .collect();
    assert_eq!(shown, expected);
}
