// The robots.txt tester: the server parses, decides and lints (POST
// /v1/check, /v1/lint), debounced; this script only draws. The gutter and
// the line marks draw only the visible lines, so a 500 KiB file stays fast.
"use strict";

const $ = (id) => document.getElementById(id);
const robots = $("robots");
const urls = $("urls");
const agent = $("agent");
const profile = $("profile");
const gutter = $("gutter");
const marks = $("marks");
const verdictRows = document.querySelector("#verdicts tbody");
const diagnosticsList = $("diagnostics");
const fetchInfo = $("fetch-info");
const refreshButton = $("refresh-button");

const DEBOUNCE_MS = 250;
const state = {
  lineCount: 1,
  verdicts: [],
  selected: 0,
  diagnostics: [],
  origin: null,
  pending: null,
  timer: 0,
};

function lineHeight() {
  return parseFloat(getComputedStyle(robots).lineHeight) || 20;
}

function padding() {
  return parseFloat(getComputedStyle(robots).paddingTop) || 8;
}

function countLines(text) {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "top") node.style.top = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// --- Drawing the editor's margin and marks (visible lines only) ---

let drawQueued = false;
function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => {
    drawQueued = false;
    draw();
  });
}

function lineMarks() {
  const byLine = new Map();
  const add = (line, kind, note) => {
    if (!line) return;
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push({ kind, note });
  };
  for (const d of state.diagnostics) add(d.line, "lint-" + d.severity, `${d.code} ${d.message}`);
  state.verdicts.forEach((v, i) => {
    if (v.rule) add(v.rule.line, i === state.selected ? "decide selected" : "decide", null);
  });
  return byLine;
}

// The groups the selected verdict's crawler obeyed, as line ranges.
function selectedGroups() {
  const current = state.verdicts[state.selected];
  return current ? current.groups || [] : [];
}

function draw() {
  const lh = lineHeight();
  const pad = padding();
  const top = robots.scrollTop;
  const first = Math.max(1, Math.floor((top - pad) / lh) + 1);
  const last = Math.min(state.lineCount, first + Math.ceil(robots.clientHeight / lh) + 1);
  const byLine = lineMarks();
  const groups = selectedGroups();
  const gutterNodes = [];
  const markNodes = [];
  for (let line = first; line <= last; line++) {
    const y = pad + (line - 1) * lh - top;
    const kinds = (byLine.get(line) || []).slice();
    if (groups.some((g) => g.first_line <= line && line <= g.last_line)) kinds.push({ kind: "group", note: null });
    const number = el("div", { top: `${y}px` }, String(line));
    if (kinds.some((k) => k.kind === "lint-error")) number.classList.add("has-error");
    else if (kinds.some((k) => k.kind === "lint-warning")) number.classList.add("has-warning");
    if (kinds.some((k) => k.kind.startsWith("decide"))) number.classList.add("has-decide");
    gutterNodes.push(number);
    // Strongest last, so it is drawn on top.
    const order = ["group", "lint-info", "lint-warning", "lint-error", "decide", "decide selected"];
    kinds.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
    // The line's findings are noted on its topmost mark, so a highlight
    // does not hide them.
    const notes = kinds.filter((k) => k.note).map((k) => k.note).join(" · ");
    kinds.forEach((k, i) => {
      const mark = el("div", { class: "mark " + k.kind, top: `${y}px`, "data-line": String(line) });
      if (notes && i === kinds.length - 1) mark.append(el("span", { class: "note" }, notes));
      markNodes.push(mark);
    });
  }
  gutter.replaceChildren(...gutterNodes);
  marks.replaceChildren(...markNodes);
}

robots.addEventListener("scroll", queueDraw, { passive: true });
window.addEventListener("resize", queueDraw);

function goToLine(line, focus) {
  const text = robots.value;
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", start);
    if (next === -1) break;
    start = next + 1;
  }
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  const lh = lineHeight();
  robots.scrollTop = Math.max(0, (line - 1) * lh - robots.clientHeight / 3);
  if (focus) {
    robots.focus({ preventScroll: true });
    robots.setSelectionRange(start, end);
  }
  queueDraw();
}

// --- Asking the server ---

async function api(path, body, signal) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = json.error || {};
    throw new Error(`${e.field ? e.field + ": " : ""}${e.problem || response.statusText}`);
  }
  return json;
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(run, DEBOUNCE_MS);
}

async function run() {
  if (state.pending) state.pending.abort();
  const controller = new AbortController();
  state.pending = controller;
  const text = robots.value;
  state.lineCount = countLines(text);
  document.body.dataset.busy = "true";
  $("size").textContent = `${new Blob([text]).size.toLocaleString()} bytes, ${state.lineCount.toLocaleString()} lines`;
  const list = urls.value.split("\n").map((u) => u.trim()).filter((u) => u !== "").slice(0, 1000);
  const name = agent.value.trim();
  const status = $("test-status");
  const check = list.length && name
    ? api("/v1/check", { robots_txt: text, agent: name, urls: list, profile: profile.value, all_profiles: true }, controller.signal)
    : Promise.resolve({ results: [] });
  const lint = api("/v1/lint", { robots_txt: text, profile: profile.value }, controller.signal);
  try {
    const [checked, linted] = await Promise.all([check, lint]);
    if (controller.signal.aborted) return;
    status.textContent = name ? "" : "Name a crawler to test URLs.";
    state.verdicts = checked.results;
    state.selected = Math.min(state.selected, Math.max(0, state.verdicts.length - 1));
    state.diagnostics = linted.diagnostics;
    renderVerdicts();
    renderDiagnostics(linted.counts);
    queueDraw();
    delete document.body.dataset.busy;
  } catch (error) {
    if (error.name === "AbortError") return;
    delete document.body.dataset.busy;
    status.textContent = `Could not test: ${error.message}`;
    status.classList.add("error-text");
    return;
  }
  status.classList.remove("error-text");
}

function verdictWord(v) {
  return el("span", { class: "verdict " + (v.allowed ? "allowed" : "disallowed") }, v.allowed ? "allowed" : "disallowed");
}

const BASES = {
  no_matching_rule: "no rule matches",
  no_group: "no group for this crawler",
  full_allow: "everything allowed",
  full_disallow: "everything disallowed",
  robots_txt_itself: "/robots.txt is always allowed",
  empty_rule: "empty rule",
};

function renderVerdicts() {
  const rows = state.verdicts.map((v, i) => {
    const select = () => {
      state.selected = i;
      renderVerdicts();
      if (v.rule) goToLine(v.rule.line, false);
      queueDraw();
    };
    const others = Object.entries(v.profiles || {})
      .filter(([, p]) => p.allowed !== v.allowed)
      .map(([name, p]) => `${name}: ${p.allowed ? "allowed" : "disallowed"}${p.rule ? " (line " + p.rule.line + ")" : ""}`);
    // Google's and Bing's verdicts side by side when they differ: webmasters
    // check both engines, and Bing ends a group at a Crawl-delay line.
    const google = v.profiles && v.profiles.google;
    const bing = v.profiles && v.profiles.bing;
    const word = (p) => `${p.allowed ? "allowed" : "disallowed"}${p.rule ? " (line " + p.rule.line + ")" : ""}`;
    const pair = google && bing && google.allowed !== bing.allowed
      ? el("span", { class: "google-bing differs", "data-google": String(google.allowed), "data-bing": String(bing.allowed) }, `Google: ${word(google)} · Bing: ${word(bing)}`)
      : null;
    const groups = v.groups.length
      ? v.groups.map((g) => (g.first_line === g.last_line ? `line ${g.first_line}` : `lines ${g.first_line}–${g.last_line}`)).join(", ")
      : "none";
    return el(
      "tr",
      { class: i === state.selected ? "selected" : "", "data-url": v.url, "data-allowed": String(v.allowed), "data-line": v.rule ? String(v.rule.line) : "" },
      el("td", { class: "url" }, el("button", { type: "button", onclick: select, "aria-pressed": String(i === state.selected) }, v.url)),
      el("td", {}, verdictWord(v)),
      el("td", {}, v.rule ? el("code", {}, `${v.rule.line}: ${v.rule.text}`) : el("span", { class: "muted" }, v.fetch_outcome || BASES[v.basis] || v.basis)),
      el("td", {}, groups),
      el("td", {}, pair || (others.length ? el("span", { class: "differs" }, others.join("; ")) : el("span", { class: "muted" }, "same"))),
    );
  });
  verdictRows.replaceChildren(...rows);
}

function applyFix(d) {
  const lines = robots.value.split("\n");
  const line = lines[d.line - 1];
  if (line === undefined || !/^[\x00-\x7f]*$/.test(line)) return;
  lines[d.line - 1] = line.slice(0, d.column - 1) + d.fix.replacement + line.slice(d.end_column - 1);
  robots.value = lines.join("\n");
  schedule();
}

function renderDiagnostics(counts) {
  $("lint-count").textContent = counts
    ? `(${counts.errors} errors, ${counts.warnings} warnings, ${counts.infos} infos)`
    : "";
  const shown = state.diagnostics.slice(0, 500);
  const items = shown.map((d) =>
    el(
      "li",
      { class: d.severity, "data-line": String(d.line), "data-code": d.code },
      el("button", { type: "button", class: "where", onclick: () => goToLine(d.line, true) }, `line ${d.line}:${d.column}`),
      ` ${d.severity} ${d.code} (${d.name}): ${d.message}`,
      d.fix
        ? el(
            "div",
            { class: "fix" },
            `Fix: ${d.fix.message}`,
            d.fix.replacement !== null
              ? el("button", { type: "button", onclick: () => applyFix(d) }, "Apply")
              : null,
          )
        : null,
    ),
  );
  if (state.diagnostics.length > shown.length) {
    items.push(el("li", {}, `… and ${state.diagnostics.length - shown.length} more`));
  }
  if (!items.length) items.push(el("li", { class: "info" }, "No findings."));
  diagnosticsList.replaceChildren(...items);
}

// --- Fetching a site's robots.txt through the server ---

function describeFetch(data) {
  const f = data.fetch;
  const cache = `${f.from_cache ? "from the cache" : "just fetched"}, ${f.fresh ? "fresh" : "expired"} (until ${f.expires_at})`;
  const history = el(
    "ol",
    { "aria-label": "Versions of the last 30 days" },
    ...data.history.map((v) =>
      el(
        "li",
        {},
        `${v.fetched_at}: ${v.status === null ? "no response" : "HTTP " + v.status}, ${v.outcome.replace("_", " ")}, ${v.size} bytes, ${v.diagnostics} findings `,
        el("button", { type: "button", onclick: () => loadVersion(data.origin, v.id) }, "Load"),
      ),
    ),
  );
  fetchInfo.replaceChildren(
    el(
      "dl",
      {},
      el("dt", {}, "robots.txt"), el("dd", {}, data.robots_url),
      el("dt", {}, "HTTP status"), el("dd", { id: "fetch-status" }, f.status === null ? "no response" : String(f.status)),
      el("dt", {}, "Outcome"), el("dd", { id: "fetch-outcome" }, `${f.outcome.replace("_", " ")} (${f.reason.replace(/_/g, " ")})`),
      el("dt", {}, "Cache"), el("dd", { id: "fetch-cache" }, cache),
      el("dt", {}, "Fetched"), el("dd", {}, f.fetched_at),
    ),
    el("div", {}, el("strong", {}, "History"), history),
  );
  fetchInfo.hidden = false;
  refreshButton.hidden = false;
  state.origin = data.origin;
}

function showFetchError(error) {
  fetchInfo.replaceChildren(el("p", { class: "error-text" }, `Could not fetch: ${error.message}`));
  fetchInfo.hidden = false;
}

function loadBody(body) {
  robots.value = body === null ? "" : body;
  robots.scrollTop = 0;
  schedule();
}

$("fetch-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const url = $("fetch-url").value.trim();
  if (!url) return;
  try {
    const data = await api(`/v1/robots?origin=${encodeURIComponent(url)}&fetch=true`);
    describeFetch(data);
    loadBody(data.body);
  } catch (error) {
    showFetchError(error);
  }
});

refreshButton.addEventListener("click", async () => {
  if (!state.origin) return;
  try {
    const data = await api(`/v1/refresh?origin=${encodeURIComponent(state.origin)}`, null);
    describeFetch(data);
    loadBody(data.body);
  } catch (error) {
    showFetchError(error);
  }
});

async function loadVersion(origin, id) {
  try {
    const v = await api(`/v1/robots/version?origin=${encodeURIComponent(origin)}&id=${id}`);
    loadBody(v.body);
  } catch (error) {
    showFetchError(error);
  }
}

// --- Crawler picker, download, wiring ---

async function loadCrawlers() {
  try {
    const crawlers = await api("/v1/crawlers");
    $("crawler-list").replaceChildren(
      ...crawlers.map((c) => el("option", { value: c.token, label: `${c.token}: ${c.operator}${c.ai ? " (AI)" : ""}` })),
    );
  } catch (error) {
    // The picker still takes free text.
  }
}

$("download").addEventListener("click", () => {
  const blob = new Blob([robots.value], { type: "text/plain" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "robots.txt" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

for (const input of [robots, urls, agent]) input.addEventListener("input", schedule);
profile.addEventListener("change", schedule);
state.lineCount = countLines(robots.value);
loadCrawlers();
run();
