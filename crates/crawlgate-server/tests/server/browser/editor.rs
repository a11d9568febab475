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
            d["message"].as_str().unwrap()
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
                .contains(d["message"].as_str().unwrap()),
            "{notes}"
        );
    }
    page.close().await;
}
