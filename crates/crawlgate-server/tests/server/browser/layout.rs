//! The page as a whole: on a phone the profile differences stay in view;
//! the icon is served (no 404, no console message on load); every control
//! is labelled, reachable by keyboard, and every text has contrast.

use fantoccini::actions::{InputSource as _, KeyAction, KeyActions};
use serde_json::{json, Value};

use super::Tester;
use crate::support::{client, post};
use crawlgate_testserver::browser::{console_messages, ChromiumOptions};

/// WebDriver's Tab key.
const TAB: char = '\u{E004}';

const BING: &str = "User-agent: Bingbot\nUser-agent: Googlebot\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 30\nDisallow: /\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_keeps_the_profile_differences() {
    let page = Tester::open(|_| {}, 390, 844).await;
    page.paste("robots", BING).await;
    page.type_into("agent", "Bingbot").await;
    let urls = ["/", "/page", "/private/x"];
    page.paste("urls", &urls.join("\n")).await;
    let rows = page.rows(3).await;
    // What Google and Bing say, from the API the page asks.
    let (status, checked) = post(
        &page.server.url("/v1/check"),
        &json!({"robots_txt": BING, "agent": "Bingbot", "urls": urls, "all_profiles": true}),
    )
    .await;
    assert_eq!(status, 200);
    let word = |p: &Value| {
        let verdict = if p["allowed"] == true {
            "allowed"
        } else {
            "disallowed"
        };
        match p["rule"]["line"].as_u64() {
            Some(line) => format!("{verdict} (line {line})"),
            None => verdict.to_owned(),
        }
    };
    for (row, result) in rows.iter().zip(checked["results"].as_array().unwrap()) {
        let profiles = &result["profiles"];
        assert_ne!(profiles["google"]["allowed"], profiles["bing"]["allowed"]);
        assert_eq!(
            row.others,
            format!(
                "Google: {} · Bing: {}",
                word(&profiles["google"]),
                word(&profiles["bing"])
            )
        );
    }
    // Shown, inside the window, labelled, with nothing to scroll sideways.
    let visible = page
        .eval(
            "return [...document.querySelectorAll('#verdicts td.others')].map(td => {
  const r = td.getBoundingClientRect();
  return [getComputedStyle(td).display !== 'none' && r.width > 0 && r.height > 0 && r.right <= innerWidth,
    getComputedStyle(td, '::before').content];
}).concat([[document.documentElement.scrollWidth <= innerWidth, 'no sideways scroll']]);",
            vec![],
        )
        .await;
    for cell in visible.as_array().unwrap() {
        assert_eq!(cell[0], true, "{visible}");
    }
    assert_eq!(visible[0][1], "\"Other readings: \"", "{visible}");
    page.eval(
        "document.getElementById('verdicts').scrollIntoView();",
        vec![],
    )
    .await;
    page.shot("tester-phone.png").await;
    page.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_icon_is_served_and_the_page_loads_without_a_console_message() {
    let page = Tester::open_with(
        |_| {},
        ChromiumOptions::new()
            .window(1280, 1000)
            .capability("goog:loggingPrefs", json!({"browser": "ALL"})),
    )
    .await;
    for (path, kind, start) in [
        ("/favicon.ico", "image/x-icon", &[0u8, 0, 1, 0][..]),
        ("/assets/favicon.svg", "image/svg+xml", &b"<svg"[..]),
    ] {
        let response = client().get(page.server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], kind, "{path}");
        let body = response.bytes().await.unwrap();
        assert!(body.starts_with(start), "{path}");
    }
    // Loaded again, with time to ask for its icon: nothing in the console
    // (a 404 would be an error message there).
    page.client.refresh().await.unwrap();
    page.settled().await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let log = console_messages(&page.client).await;
    assert_eq!(log, json!([]), "console messages: {log}");
    page.close().await;
}

/// Every text's contrast with what is behind it (WCAG's formula), and the
/// text colour on every kind of line mark: `[where, text, ratio]` below 4.5.
const LOW_CONTRAST: &str = "
const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
  const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
const behind = (e) => { const layers = [];
  for (let n = e; n; n = n.parentElement) { const c = parse(getComputedStyle(n).backgroundColor);
    if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
  let out = {r: 255, g: 255, b: 255};
  for (const c of layers.reverse()) out = {r: c.r * c.a + out.r * (1 - c.a), g: c.g * c.a + out.g * (1 - c.a), b: c.b * c.a + out.b * (1 - c.a)};
  return out; };
const ratio = (x, y) => { const a = lum(x), b = lum(y); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
const low = [];
for (const e of document.querySelectorAll('body *')) {
  if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
  const style = getComputedStyle(e);
  const r = e.getBoundingClientRect();
  if (style.visibility === 'hidden' || r.width === 0 || r.height === 0 || e.closest('[hidden]')) continue;
  const x = ratio(parse(style.color), behind(e));
  if (x < 4.5) low.push([e.tagName + '.' + e.className, e.textContent.trim().slice(0, 40), x.toFixed(2)]);
}
const text = parse(getComputedStyle(document.getElementById('robots')).color);
for (const m of document.querySelectorAll('.mark')) {
  const x = ratio(text, parse(getComputedStyle(m).backgroundColor));
  if (x < 4.5) low.push(['mark ' + m.className, 'the editor text', x.toFixed(2)]);
}
return low;";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_control_is_labelled_reachable_by_keyboard_and_readable() {
    let site = crate::support::serving(crate::support::Reply::text(
        200,
        "User-agent: *\nDisallow: /a\n",
    ));
    let page = Tester::open(|_| {}, 1280, 1200).await;
    // Every kind of mark, a fetched file's panels and a diff on screen.
    page.paste(
        "robots",
        "User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /tmp\nDisallow: /tmp\nDisalow /x\nNoindex: /y\n\nUser-agent: GPTBot\nDisallow: /\n",
    )
    .await;
    page.type_into("agent", "mybot").await;
    page.paste(
        "urls",
        "/private/page\n/private/press/a\n/tmp/x\nhttps://elsewhere.example/\n",
    )
    .await;
    page.rows(4).await;
    page.type_into("fetch-url", &site.url("/")).await;
    page.click("#fetch-button").await;
    page.wait_for(
        "the fetch",
        "return document.getElementById('fetch-origin');",
        vec![],
    )
    .await;
    page.click("#undo-replace").await;
    page.click("#compare-button").await;
    page.wait_for(
        "a diff",
        "return !document.getElementById('diff').hidden;",
        vec![],
    )
    .await;
    page.click("#verdicts tbody tr:nth-child(2) button").await;
    page.settled().await;

    // Labels: every control has a name a screen reader can say.
    let unnamed = page
        .eval(
            "return [...document.querySelectorAll('input, select, textarea, button')].filter((e) =>
  !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby') && !e.textContent.trim()
).map((e) => e.outerHTML.slice(0, 80));",
            vec![],
        )
        .await;
    assert_eq!(unnamed, json!([]), "controls without a name");

    // Contrast: every text, and the editor's text on every mark.
    let low = page.eval(LOW_CONTRAST, vec![]).await;
    assert_eq!(low, json!([]), "text below 4.5:1");
    // The check itself sees pale text (#999 on white is 2.8:1).
    let probe = page
        .eval(
            &format!(
                "const p = document.createElement('p'); p.id = 'probe'; p.style.color = '#999'; p.textContent = 'pale';
document.querySelector('main').append(p);
const low = (() => {{ {LOW_CONTRAST} }})(); p.remove(); return low;"
            ),
            vec![],
        )
        .await;
    assert_eq!(probe, json!([["P.", "pale", "2.85"]]));
    let sideways = page
        .eval(
            "const width = document.documentElement.clientWidth;
return document.documentElement.scrollWidth <= width
  || [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width).map((e) => e.tagName + '#' + e.id + '.' + e.className);",
            vec![],
        )
        .await;
    assert_eq!(sideways, true, "the page scrolls sideways: {sideways}");
    page.shot("tester-everything.png").await;

    // Keyboard: Tab from the first field reaches the controls in reading
    // order.
    page.eval("document.getElementById('fetch-url').focus();", vec![])
        .await;
    let mut reached = vec!["fetch-url".to_owned()];
    for _ in 0..16 {
        page.client
            .perform_actions(
                KeyActions::new("keyboard".into())
                    .then(KeyAction::Down { value: TAB })
                    .then(KeyAction::Up { value: TAB }),
            )
            .await
            .unwrap();
        let id = page
            .eval(
                "const e = document.activeElement; return e.id || e.textContent.trim().slice(0, 30);",
                vec![],
            )
            .await;
        reached.push(id.as_str().unwrap_or_default().to_owned());
        if id == "robots" {
            break;
        }
    }
    // (Undo is disabled: the fetch was undone.)
    let controls = [
        "fetch-url",
        "fetch-button",
        "refresh-button",
        "compare-from",
        "compare-to",
        "compare-button",
        "robots",
    ];
    let order: Vec<&str> = reached
        .iter()
        .map(String::as_str)
        .filter(|id| controls.contains(id))
        .collect();
    assert_eq!(order, controls, "{reached:?}");
    // The focused control shows it.
    let ring = page
        .eval(
            "const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && s.outlineWidth !== '0px';",
            vec![],
        )
        .await;
    assert_eq!(ring, true);
    page.close().await;
}
