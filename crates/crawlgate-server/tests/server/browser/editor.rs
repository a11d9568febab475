//! The editor's marks: a colour of its own (and a legend) for the deciding
//! line, its group, the findings and the selection; notes readable whole,
//! by pointer and by keyboard.

use fantoccini::actions::{InputSource as _, MouseActions, PointerAction};
use serde_json::{json, Value};

use super::{assert_rows_match_library, Tester, ROBOTS};
use crate::support::post;

/// The computed background of the first element `css` finds.
const BACKGROUND: &str = "const e = document.querySelector(arguments[0]);
return e && getComputedStyle(e).backgroundColor;";

/// `rgb(r, g, b)` → (hue in degrees, saturation).
fn hue(css: &str) -> (f64, f64) {
    let parts: Vec<f64> = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|p| p.trim().parse().unwrap())
        .collect();
    let (r, g, b) = (parts[0] / 255.0, parts[1] / 255.0, parts[2] / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let delta = max - min;
    let hue = if delta == 0.0 {
        0.0
    } else if max == r {
        60.0 * (((g - b) / delta).rem_euclid(6.0))
    } else if max == g {
        60.0 * ((b - r) / delta + 2.0)
    } else {
        60.0 * ((r - g) / delta + 4.0)
    };
    (hue, if max == 0.0 { 0.0 } else { delta / max })
}

fn hue_distance(a: f64, b: f64) -> f64 {
    let d = (a - b).abs() % 360.0;
    d.min(360.0 - d)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_mark_has_its_own_colour_a_legend_and_readable_notes() {
    let page = Tester::open(|_| {}, 1280, 1000).await;
    page.paste("robots", ROBOTS).await;
    page.type_into("agent", "mybot").await;
    let urls = ["/private/page", "/private/press/a.html", "/tmp/x", "/open"];
    page.paste("urls", &urls.join("\n")).await;
    let rows = page.rows(4).await;
    assert_rows_match_library(&rows, ROBOTS, "mybot", &urls);

    // The first verdict is selected: its deciding line (2) in the
    // selection's colour, the other deciding lines (3, 4) in theirs, the
    // group `mybot` obeys (lines 1–5) in its own, the duplicate rule's
    // finding (line 5, a note) in the findings'.
    let kinds = [
        ("selection", ".mark.selected[data-line=\"2\"]"),
        ("deciding line", ".mark.decide[data-line=\"3\"]"),
        ("group", ".mark.group[data-line=\"1\"]"),
        ("finding", ".mark.lint-info[data-line=\"5\"]"),
    ];
    let mut colours = Vec::new();
    for (what, css) in kinds {
        let colour = page
            .wait_for(&format!("the {what}'s mark"), BACKGROUND, vec![json!(css)])
            .await;
        colours.push((what, colour.as_str().unwrap().to_owned()));
    }
    for (i, (a, ca)) in colours.iter().enumerate() {
        for (b, cb) in &colours[i + 1..] {
            let ((ha, sa), (hb, sb)) = (hue(ca), hue(cb));
            assert!(
                hue_distance(ha, hb) >= 25.0 && sa > 0.1 && sb > 0.1,
                "the {a} ({ca}) and the {b} ({cb}) look alike"
            );
        }
    }
    // The selected row wears the selection's colour, and the legend shows
    // each colour it explains.
    let row = page
        .eval(BACKGROUND, vec![json!("#verdicts tr.selected")])
        .await;
    assert_eq!(row, json!(colours[0].1));
    for (swatch, (what, colour)) in [
        ".swatch.selected",
        ".swatch.decide",
        ".swatch.group",
        ".swatch.lint-info",
    ]
    .iter()
    .zip(&colours)
    {
        let shown = page.eval(BACKGROUND, vec![json!(swatch)]).await;
        assert_eq!(shown, json!(colour), "the legend's {what}");
    }
    let legend = page
        .eval(
            "return document.getElementById('legend').textContent;",
            vec![],
        )
        .await;
    for words in [
        "deciding line of the selected URL",
        "group",
        "error",
        "warning",
    ] {
        assert!(legend.as_str().unwrap().contains(words), "{legend}");
    }
    // The mark column says it with symbols too: colour is not the only sign
    // (line 2 also has a note: R207, a public secret).
    let symbols = page
        .eval(
            "return [2, 3, 5].map(l => document.querySelector(`#line-marks .cell[data-line=\"${l}\"]`).textContent);",
            vec![],
        )
        .await;
    assert_eq!(symbols, json!(["▶●", "◆", "●"]));

    // Line 5's notes, whole, in a popover when the pointer is on the line:
    // the linter's own words for every finding there.
    let (status, linted) = post(
        &page.server.url("/v1/lint"),
        &json!({"robots_txt": ROBOTS, "profile": "google"}),
    )
    .await;
    assert_eq!(status, 200);
    let on_five: Vec<&Value> = linted["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["line"] == 5)
        .collect();
    assert!(!on_five.is_empty(), "{linted}");
    let place = page
        .eval(
            "const r = document.getElementById('robots').getBoundingClientRect();
const lh = parseFloat(getComputedStyle(document.getElementById('robots')).lineHeight);
return [r.left + 60, r.top + 8 + 4.5 * lh];",
            vec![],
        )
        .await;
    page.client
        .perform_actions(
            MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
                duration: None,
                x: place[0].as_f64().unwrap(),
                y: place[1].as_f64().unwrap(),
            }),
        )
        .await
        .unwrap();
    let popover = page
        .wait_for(
            "the popover of line 5",
            "const p = document.getElementById('popover');
if (p.hidden || p.dataset.line !== '5') return null;
const r = p.getBoundingClientRect();
return [p.textContent, r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
  [...p.querySelectorAll('li')].every(li => li.scrollWidth <= li.clientWidth + 1)];",
            vec![],
        )
        .await;
    for d in &on_five {
        let words = format!(
            "{} ({}): {}",
            d["code"].as_str().unwrap(),
            d["name"].as_str().unwrap(),
            // Code spans are drawn as code, without their backticks.
            d["message"].as_str().unwrap().replace('`', "")
        );
        assert!(
            popover[0].as_str().unwrap().contains(&words),
            "{popover} lacks {words}"
        );
    }
    assert_eq!(popover[1], true, "the popover leaves the window: {popover}");
    assert_eq!(popover[2], true, "a note is cut off: {popover}");
    // Pointing at the deciding line of the selected verdict names the URL.
    page.client
        .perform_actions(
            MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
                duration: None,
                x: place[0].as_f64().unwrap(),
                y: place[1].as_f64().unwrap() - 60.0,
            }),
        )
        .await
        .unwrap();
    let decides = page
        .wait_for(
            "the popover of line 2",
            "const p = document.getElementById('popover'); return !p.hidden && p.dataset.line === '2' && p.textContent;",
            vec![],
        )
        .await;
    assert!(
        decides
            .as_str()
            .unwrap()
            .contains("Decides /private/page (disallowed, selected)"),
        "{decides}"
    );
    page.shot("tester-popover.png").await;

    // By keyboard: a finding's link puts the caret on its line, and the
    // line's notes are read out under the editor.
    let finding = page
        .client
        .find(fantoccini::Locator::Css(
            "#diagnostics li[data-line=\"5\"] .where",
        ))
        .await
        .unwrap();
    finding.send_keys("\u{E007}").await.unwrap();
    let notes = page
        .wait_for(
            "the notes of the caret's line",
            "const n = document.getElementById('line-notes'); return n.dataset.line === '5' && document.activeElement.id === 'robots' && n.textContent;",
            vec![],
        )
        .await;
    for d in &on_five {
        assert!(
            notes
                .as_str()
                .unwrap()
                .contains(&d["message"].as_str().unwrap().replace('`', "")),
            "{notes}"
        );
    }
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_file_of_100_000_lines_is_answered_and_drawn_lazily() {
    // A 70,000-byte rule, then 100,000 lines of comments, with garbage,
    // misspelt rules and control characters among them: 0.9 MB, past the
    // 500 KiB crawlers read. About 6,000 findings, past the 500 the page
    // lists: the browser's cost is in the line count, whatever the lines
    // hold, and more findings would only slow the test's debug server.
    let mut robots = format!("User-agent: *\nDisallow: /{}\n", "x".repeat(70_000));
    for i in 0..100_000 {
        robots.push_str(&match i % 50 {
            0 => format!("junk{i}\n"),
            1 => format!("Disalow: /d{i}\n"),
            2 => "\u{0}\u{1} \u{fffd}\n".to_owned(),
            _ => format!("# {i}\n"),
        });
    }
    let page = Tester::open(|_| {}, 1280, 1000).await;
    page.type_into("agent", "mybot").await;
    let long_url = format!("/{}", "x".repeat(8_000));
    let urls = ["/d1/page", "/d99951/x", long_url.as_str(), "/junk0"];
    page.paste("urls", &urls.join("\n")).await;
    page.paste("robots", &robots).await;
    page.settled().await;
    let rows = page
        .wait_within(
            "verdicts on the hostile file",
            super::ROWS_SHOWN,
            vec![json!(urls.len())],
            std::time::Duration::from_secs(120),
        )
        .await;
    let rows: Vec<super::Row> = serde_json::from_value(rows).unwrap();
    // What the library says, the 500 KiB cut included (the last misspelt
    // rule is past it).
    assert_rows_match_library(&rows, &robots, "mybot", &urls);
    // The 8,001-character URL is shown by its ends and its length.
    let shown = page
        .eval(
            "return document.querySelector('#verdicts tbody tr:nth-child(3) td.url button').textContent;",
            vec![],
        )
        .await;
    assert_eq!(
        shown,
        format!("/{}…{} (8,001 characters)", "x".repeat(159), "x".repeat(60))
    );

    // The findings: counted as the API counts them, the first 500 listed.
    let (status, linted) = post(
        &page.server.url("/v1/lint"),
        &json!({"robots_txt": robots, "profile": "google"}),
    )
    .await;
    assert_eq!(status, 200);
    let counts = &linted["counts"];
    let total = linted["diagnostics"].as_array().unwrap().len();
    assert!(total > 500, "{total} findings");
    let shown = page
        .eval(
            "const items = [...document.querySelectorAll('#diagnostics li')];
return [document.getElementById('lint-count').textContent, items.length, items[items.length - 1].textContent,
  document.getElementById('size').textContent];",
            vec![],
        )
        .await;
    assert_eq!(
        shown,
        json!([
            format!(
                "({}, {}, {})",
                super::counted(&counts["errors"], "error"),
                super::counted(&counts["warnings"], "warning"),
                super::counted(&counts["infos"], "note")
            ),
            501,
            format!("… and {} more", total - 500),
            format!(
                "{} bytes, 100,003 lines (crawlers read the first 512,000 bytes)",
                group_thousands(robots.len())
            ),
        ])
    );

    // The margin draws the visible lines only, at the top and at the end.
    let drawn = "const g = [...document.querySelectorAll('#gutter div')];
return [g.length + document.querySelectorAll('#line-marks .cell').length, g.length && g[g.length - 1].textContent,
  Math.min(...g.map(d => d.offsetLeft))];";
    let top = page.eval(drawn, vec![]).await;
    assert!(top[0].as_u64().unwrap() < 400, "{top}");
    page.eval(
        "const r = document.getElementById('robots'); r.scrollTop = r.scrollHeight; r.dispatchEvent(new Event('scroll'));",
        vec![],
    )
    .await;
    let bottom = page
        .wait_for(
            "the last lines drawn",
            &format!("const d = (() => {{ {drawn} }})(); return d[1] === '100003' && d;"),
            vec![],
        )
        .await;
    assert!(bottom[0].as_u64().unwrap() < 400, "{bottom}");
    // Six-digit line numbers fit in the gutter, none cut at its left.
    assert!(bottom[2].as_f64().unwrap() >= 0.0, "{bottom}");
    page.shot("tester-hostile-file.png").await;
    page.close().await;
}

/// `n` written with commas every three digits, as the page writes numbers.
fn group_thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
