// The robots.txt tester: the server parses, decides and lints (POST
// /v1/check, /v1/lint), debounced; this script only draws. The gutter, the
// mark column and the line marks draw only the visible lines, so a 500 KiB
// file stays fast.
"use strict";

const $ = (id) => document.getElementById(id);
const robots = $("robots");
const urls = $("urls");
const agent = $("agent");
const profile = $("profile");
const oneToken = $("one-token");
const scMarks = $("sc-marks");
const gutter = $("gutter");
const lineMarks = $("line-marks");
const marks = $("marks");
const popover = $("popover");
const verdictRows = document.querySelector("#verdicts tbody");
const diagnosticsList = $("diagnostics");
const fetchUrl = $("fetch-url");
const fetchInfo = $("fetch-info");
const fetchError = $("fetch-error");
const historyPanel = $("history");
const refreshButton = $("refresh-button");
const undoButton = $("undo-replace");

// The server's limits, written into the page by the server.
function limit(name, fallback, min = 1) {
  const value = Number.parseInt(document.body.dataset[name], 10);
  return Number.isFinite(value) && value >= min ? value : fallback;
}
const LIMITS = {
  urls: limit("maxUrls", 1000),
  urlChars: limit("maxUrlChars", 8192),
  agentChars: limit("maxAgentChars", 256),
  robotsChars: limit("maxRobotsChars", 1 << 20),
  bodyBytes: limit("maxBodyBytes", 4 << 20),
  refreshSeconds: limit("refreshSeconds", 10, 0),
};
// What crawlers read of a file (Google's 500 KiB).
const PARSED_BYTES = 500 * 1024;
const DEBOUNCE_MS = 250;
// Replaced texts kept for "Undo replace".
const UNDO_DEPTH = 20;

const state = {
  lineCount: 1,
  verdicts: [],
  tested: [],
  selected: 0,
  diagnostics: [],
  // Search Console's view of the text (POST /v1/report): line → entry.
  report: null,
  reportLines: new Map(),
  notes: new Map(),
  groups: [],
  pending: null,
  timer: 0,
  // Where the editor's text came from: a fetch or a version (`text` is
  // what it was then), or the user (`text` null).
  shown: { label: "your text", text: null, origin: null, id: null },
  undo: [],
  // The origin the fetch panels are about, and the last one asked for.
  panel: null,
  current: null,
  bodies: new Map(),
  // A fetch that gave no file (a 4xx, a 5xx, no answer): its origin and
  // answer. While set, the verdicts are the fetch outcome's, not the
  // editor's text's.
  outcome: null,
  // Verdicts of URLs on other sites, from their own robots.txt
  // (POST /v1/allowed): "agent reading url" → answer.
  elsewhere: new Map(),
  // The profile the last verdicts were read by.
  profile: null,
};

const encoder = new TextEncoder();
const utf8Length = (text) => encoder.encode(text).length;
// Characters as the server counts them (Unicode scalar values).
const charCount = (text) => [...text].length;
const number = (n) => n.toLocaleString("en");
// "1 warning", "2 warnings".
const plural = (n, one, many = one + "s") => `${number(n)} ${n === 1 ? one : many}`;

// A message with `code spans`: the spans as <code>, the rest as text (an
// odd backtick is kept as written).
function rich(text) {
  const parts = String(text).split("`");
  if (parts.length % 2 === 0) return [String(text)];
  return parts.map((part, i) => (i % 2 ? el("code", {}, part) : part)).filter((p) => p !== "");
}
// The same message as plain text, for titles and summaries.
const plain = (text) => {
  const parts = String(text).split("`");
  return parts.length % 2 === 0 ? String(text) : parts.join("");
};

// A long URL or rule as shown in a cell: its start and end, and its length
// (the whole is in the URL list or the editor); a 70,000-character rule
// would make its row taller than the page.
const SHOWN_CHARS = 240;
function shorten(text) {
  if (text.length <= SHOWN_CHARS) return text;
  const chars = [...text];
  if (chars.length <= SHOWN_CHARS) return text;
  return `${chars.slice(0, 160).join("")}…${chars.slice(-60).join("")} (${number(chars.length)} characters)`;
}

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
    if (v === null || v === undefined) continue;
    if (k === "class") node.className = v;
    else if (k === "top") node.style.top = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// scheme://host[:port] of an absolute URL (default ports dropped, the host
// lowercased and in punycode, as the URL parser gives it), or null.
function originOf(text) {
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (!["http:", "https:", "ftp:"].includes(url.protocol) || !url.host) return null;
  return `${url.protocol}//${url.host}`;
}

// --- What each line of the editor is marked with ---

// Strongest last: it is drawn on top.
const ORDER = ["search-console", "group", "lint-info", "lint-warning", "lint-error", "decide", "selected"];
// Search Console's note has its own mark: "S" is its sitemap class.
const SYMBOLS = { selected: "▶", decide: "◆", "lint-error": "✖", "lint-warning": "▲", "lint-info": "●", "search-console": "⚑" };
const SEVERITY = { error: "error", warning: "warning", info: "note" };

// line → { kinds: Set, notes: [{kind, text}] }, for the lines that have any.
function buildNotes() {
  const byLine = new Map();
  const at = (line) => {
    if (!byLine.has(line)) byLine.set(line, { kinds: new Set(), notes: [] });
    return byLine.get(line);
  };
  for (const d of state.diagnostics) {
    if (!d.line) continue;
    const entry = at(d.line);
    entry.kinds.add("lint-" + d.severity);
    entry.notes.push({ kind: "lint-" + d.severity, code: d.code, text: `${SEVERITY[d.severity] || d.severity} ${d.code} (${d.name}): ${d.message}` });
  }
  const deciding = new Map();
  state.verdicts.forEach((v, i) => {
    // A URL on another site is not decided by this file's lines.
    if (!v.rule || v.elsewhere) return;
    if (!deciding.has(v.rule.line)) deciding.set(v.rule.line, []);
    deciding.get(v.rule.line).push(i);
  });
  for (const [line, indexes] of deciding) {
    const entry = at(line);
    const selected = indexes.includes(state.selected);
    entry.kinds.add(selected ? "selected" : "decide");
    const shown = indexes.slice(0, 5).map((i) => {
      const v = state.verdicts[i];
      return `${v.url} (${v.allowed ? "allowed" : "disallowed"}${i === state.selected ? ", selected" : ""})`;
    });
    const more = indexes.length > 5 ? ` and ${number(indexes.length - 5)} more` : "";
    entry.notes.push({ kind: selected ? "selected" : "decide", text: `Decides ${shown.join(", ")}${more}` });
  }
  // The obeyed group is looked up per drawn line (marksOf).
  const current = state.verdicts[state.selected];
  state.groups = current ? current.groups || [] : [];
  state.notes = byLine;
}

// The marks of `line`, the obeyed group included.
function marksOf(line) {
  const entry = state.notes.get(line);
  const kinds = entry ? [...entry.kinds] : [];
  const notes = entry ? entry.notes.slice() : [];
  const group = state.groups.find((g) => g.first_line <= line && line <= g.last_line);
  if (group) {
    kinds.push("group");
    const range = group.first_line === group.last_line ? `line ${group.first_line}` : `lines ${group.first_line}–${group.last_line}`;
    notes.push({ kind: "group", text: `In the group ${agent.value.trim()} obeys (${range})` });
  }
  // What Search Console's report flags on the line.
  const sc = state.reportLines.get(line);
  if (sc && sc.flagged) {
    kinds.push("search-console");
    notes.push({ kind: "search-console", text: scTitle(sc) });
  }
  kinds.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  return { kinds, notes };
}

// --- Search Console's classes (Google's reporting library) ---

const SC_LETTERS = { "user-agent": "U", allow: "A", disallow: "D", sitemap: "S", unused: "u", unknown: "?" };

function scTitle(sc) {
  const flags = [sc.typo && "typo", sc.missing_colon && "missing colon", sc.too_long && "too long"].filter(Boolean);
  const unused = sc.kind === "unused" && sc.known_as ? `, Google knows ${sc.known_as} and does not use it` : "";
  return `Search Console: ${sc.kind}${unused}${flags.length ? " (" + flags.join(", ") + ")" : ""}`;
}

function renderReport() {
  const report = state.report;
  state.reportLines = new Map();
  if (!report) {
    $("sc-counts").textContent = "";
    return;
  }
  for (const line of report.lines) state.reportLines.set(line.line, line);
  const counts = $("sc-counts");
  counts.dataset.valid = String(report.valid_directives);
  counts.dataset.unused = String(report.unused_directives);
  counts.dataset.flagged = String(report.flagged);
  counts.textContent = `Search Console would show ${number(report.valid_directives)} valid and ${number(report.unused_directives)} unused directives; it flags ${number(report.flagged)} ${report.flagged === 1 ? "line" : "lines"}.`;
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

function draw() {
  // Room for the largest line number (100,000 lines take six digits).
  gutter.style.width = `${Math.max(4, String(state.lineCount).length) + 1.5}ch`;
  const lh = lineHeight();
  const pad = padding();
  const top = robots.scrollTop;
  const first = Math.max(1, Math.floor((top - pad) / lh) + 1);
  const last = Math.min(state.lineCount, first + Math.ceil(robots.clientHeight / lh) + 1);
  const gutterNodes = [];
  const cellNodes = [];
  const markNodes = [];
  const scNodes = [];
  for (let line = first; line <= last; line++) {
    const y = pad + (line - 1) * lh - top;
    const sc = state.reportLines.get(line);
    if (sc && SC_LETTERS[sc.kind]) {
      const flags = [sc.typo ? "~" : "", sc.missing_colon ? ":" : "", sc.too_long ? "…" : ""].join("");
      scNodes.push(el("div", {
        top: `${y}px`,
        "data-line": String(line),
        "data-kind": sc.kind,
        "data-flags": [sc.typo && "typo", sc.missing_colon && "missing_colon", sc.too_long && "too_long"].filter(Boolean).join(" "),
        title: scTitle(sc),
      }, el("span", { class: "sc sc-" + sc.kind }, SC_LETTERS[sc.kind]), flags ? el("span", { class: "sc-flag" }, flags) : ""));
    }
    const { kinds, notes } = marksOf(line);
    const numberNode = el("div", { top: `${y}px` }, String(line));
    if (kinds.includes("lint-error")) numberNode.classList.add("has-error");
    else if (kinds.includes("lint-warning")) numberNode.classList.add("has-warning");
    if (kinds.includes("decide") || kinds.includes("selected")) numberNode.classList.add("has-decide");
    gutterNodes.push(numberNode);
    if (!kinds.length) continue;
    const symbols = kinds
      .slice()
      .reverse()
      .filter((k) => SYMBOLS[k])
      .map((k) => el("span", { class: "sym " + k }, SYMBOLS[k]));
    cellNodes.push(
      el("div", { class: "cell" + (kinds.includes("group") ? " in-group" : ""), top: `${y}px`, "data-line": String(line) }, ...symbols),
    );
    // The line's findings ride on its topmost mark as their codes (short,
    // so never cut off over the text); the popover, the caret's notes and
    // the issues list give them whole.
    const lint = notes.filter((n) => n.kind.startsWith("lint"));
    const text = lint.map((n) => n.code).join(" · ");
    kinds.forEach((k, i) => {
      // Search Console's flag is a symbol only: the line keeps its colours.
      if (k === "search-console") return;
      const mark = el("div", { class: "mark " + k, top: `${y}px`, "data-line": String(line) });
      if (text && i === kinds.length - 1) mark.append(el("span", { class: "note", title: lint.map((n) => plain(n.text)).join("\n") }, text));
      markNodes.push(mark);
    });
  }
  gutter.replaceChildren(...gutterNodes);
  scMarks.replaceChildren(...scNodes);
  lineMarks.replaceChildren(...cellNodes);
  marks.replaceChildren(...markNodes);
}

robots.addEventListener("scroll", () => {
  hidePopover();
  queueDraw();
}, { passive: true });
window.addEventListener("resize", queueDraw);

// --- Reading a line's notes: a popover for the pointer, a status line for the caret ---

function noteList(line) {
  const { notes } = marksOf(line);
  return notes.map((n) => el("li", { class: n.kind }, el("span", { class: "sym " + n.kind, "aria-hidden": "true" }, SYMBOLS[n.kind] || "▍"), " ", ...rich(n.text)));
}

function lineAt(clientY) {
  const rect = robots.getBoundingClientRect();
  const y = clientY - rect.top + robots.scrollTop - padding();
  const line = Math.floor(y / lineHeight()) + 1;
  return line >= 1 && line <= state.lineCount ? line : 0;
}

function showPopover(line, x, y) {
  const items = line ? noteList(line) : [];
  if (!items.length) return hidePopover();
  popover.replaceChildren(el("strong", {}, `Line ${line}`), el("ul", {}, ...items));
  popover.dataset.line = String(line);
  popover.hidden = false;
  const box = popover.getBoundingClientRect();
  popover.style.left = `${Math.max(4, Math.min(x + 12, window.innerWidth - box.width - 8))}px`;
  popover.style.top = `${y + 16 + box.height > window.innerHeight ? Math.max(4, y - box.height - 8) : y + 16}px`;
}

function hidePopover() {
  popover.hidden = true;
  delete popover.dataset.line;
}

let pointer = null;
function pointAt(event) {
  const queued = pointer !== null;
  pointer = event;
  if (queued) return;
  requestAnimationFrame(() => {
    const e = pointer;
    pointer = null;
    showPopover(lineAt(e.clientY), e.clientX, e.clientY);
  });
}
robots.addEventListener("mousemove", pointAt);
lineMarks.addEventListener("mousemove", pointAt);
robots.addEventListener("mouseleave", hidePopover);
lineMarks.addEventListener("mouseleave", hidePopover);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") hidePopover();
});

// The caret's line, for keyboard users: its notes, read out politely.
let caretLine = 0;
function caretMoved(force) {
  const line = countLines(robots.value.slice(0, robots.selectionStart));
  if (line === caretLine && !force) return;
  caretLine = line;
  const items = noteList(line);
  const notes = $("line-notes");
  notes.dataset.line = String(line);
  notes.replaceChildren(...(items.length ? [`Line ${line}:`, el("ul", {}, ...items)] : []));
}
for (const kind of ["keyup", "click", "focus"]) robots.addEventListener(kind, () => caretMoved(false));

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
    caretMoved(true);
  }
  queueDraw();
}

// --- Asking the server ---

class ApiError extends Error {
  constructor(message, status, code = "") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(path, body, signal) {
  let response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined || body === null ? {} : { "content-type": "application/json" },
      body: body === undefined || body === null ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(`this server did not answer (${error.message})`, 0);
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = json.error || {};
    throw new ApiError(`HTTP ${response.status}: ${e.field ? e.field + ": " : ""}${e.problem || response.statusText}`, response.status, e.code || "");
  }
  return json;
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(run, DEBOUNCE_MS);
  markEdited();
}

// The URLs to test: every line, in order, within the server's limits; what
// falls outside them is reported, never dropped silently.
function planUrls(text, robotsBytes) {
  const tested = [];
  const skipped = { long: [], count: [], body: [] };
  // Room left in the request body for URLs (JSON quotes and commas included).
  let room = LIMITS.bodyBytes - robotsBytes - 1024;
  text.split("\n").forEach((raw, i) => {
    const url = raw.trim();
    if (!url) return;
    const line = i + 1;
    if (url.length > LIMITS.urlChars && charCount(url) > LIMITS.urlChars) skipped.long.push(line);
    else if (tested.length >= LIMITS.urls) skipped.count.push(line);
    else if (utf8Length(url) + 8 > room) skipped.body.push(line);
    else {
      room -= utf8Length(JSON.stringify(url)) + 1;
      tested.push({ url, line });
    }
  });
  return { tested, skipped };
}

function lineList(lines) {
  const shown = lines.slice(0, 5).map(number).join(", ");
  return lines.length > 5 ? `${shown} and ${number(lines.length - 5)} more` : shown;
}

function renderUrlNotes(plan) {
  const notes = $("url-notes");
  const { long, count, body } = plan.skipped;
  const parts = [];
  if (count.length) parts.push(`${number(count.length)} past the limit of ${number(LIMITS.urls)} URLs per test (line${count.length > 1 ? "s" : ""} ${lineList(count)})`);
  if (long.length) parts.push(`${number(long.length)} longer than ${number(LIMITS.urlChars)} characters (line${long.length > 1 ? "s" : ""} ${lineList(long)})`);
  if (body.length) parts.push(`${number(body.length)} that would make the request larger than ${number(LIMITS.bodyBytes)} bytes (line${body.length > 1 ? "s" : ""} ${lineList(body)})`);
  const skipped = long.length + count.length + body.length;
  notes.hidden = skipped === 0;
  notes.dataset.skipped = String(skipped);
  notes.dataset.tested = String(plan.tested.length);
  notes.replaceChildren(
    ...(skipped ? [el("p", {}, `${number(skipped)} of ${number(skipped + plan.tested.length)} URLs not tested: ${parts.join("; ")}.`)] : []),
  );
}

// Which site the file is taken to be the robots.txt of, and why.
function fileOrigin(plan) {
  if (state.outcome) return { origin: state.outcome.origin, why: "its fetch gave no file" };
  if (state.shown.origin) return { origin: state.shown.origin, why: "the site it was fetched from" };
  const site = originOf(fetchUrl.value.trim());
  if (site) return { origin: site, why: "the Site field" };
  for (const { url } of plan.tested) {
    const origin = originOf(url);
    if (origin) return { origin, why: "the first full URL in the list" };
  }
  return null;
}

function renderFileOrigin(site) {
  const node = $("file-origin");
  const outcome = state.outcome;
  node.dataset.tested = outcome ? "fetch-outcome" : "editor";
  if (outcome) {
    // No file came: the verdicts are what the fetch's outcome means, never
    // the editor's (older, or another site's) text.
    const f = outcome.fetch;
    node.replaceChildren(
      el("p", { id: "tested-copy" },
        `Tested: ${outcome.robotsUrl} as fetched ${f.fetched_at}, which gave no file (${attemptWords(f)}). `
        + `By Google's rules ${REASON_WORDS[f.reason] || words(f.reason)}: ${OUTCOME_WORDS[f.outcome] || words(f.outcome)} from ${outcome.origin}, `
        + "and every URL below is answered so. The editor's text is not tested."),
      el("button", { type: "button", id: "test-editor", onclick: testEditor }, "Test the editor's text instead"),
    );
    return;
  }
  node.replaceChildren(el("p", { id: "tested-copy" }, site
    ? `Tested as the robots.txt of ${site.origin} (${site.why}); a full URL on another site is not tested against this file, but against its own robots.txt when you ask.`
    : "Paths are tested against this file; a full URL on another site would not be."));
}

// Back to testing the editor's text after a fetch that gave no file.
function testEditor() {
  if (!state.outcome) return;
  state.outcome = null;
  renderShown();
  schedule();
}

// --- URLs on other sites: tested against their own robots.txt ---

const elsewhereKey = (url) => `${agent.value.trim()}\n${oneToken.checked ? "one-token" : "crawler"}\n${url}`;

function renderElsewhere() {
  const notice = $("elsewhere");
  const others = state.verdicts.filter((v) => v.elsewhere);
  const sites = [...new Set(others.map((v) => v.elsewhere))];
  const untested = others.filter((v) => !state.elsewhere.has(elsewhereKey(v.url)));
  notice.hidden = others.length === 0;
  notice.dataset.untested = String(untested.length);
  if (!others.length) return notice.replaceChildren();
  const what = `${plural(others.length, "URL")} on ${plural(sites.length, "other site")} (${sites.slice(0, 3).join(", ")}${sites.length > 3 ? ", …" : ""}): this file does not govern ${others.length === 1 ? "it" : "them"}.`;
  notice.replaceChildren(
    el("p", {}, untested.length
      ? `${what} ${untested.length === others.length ? "Not" : plural(untested.length, "URL") + " not"} tested yet.`
      : `${what} Tested against their own robots.txt, fetched through this server, each crawler by its own reading.`),
    ...(untested.length ? [el("button", { type: "button", id: "test-elsewhere", onclick: testElsewhere }, `Test ${untested.length === 1 ? "it" : "them"} against ${sites.length === 1 ? sites[0] + "/robots.txt" : "their own robots.txt"}`)] : []),
  );
}

async function testElsewhere() {
  const name = agent.value.trim();
  const seen = new Set();
  const pending = state.verdicts.filter((v) => {
    if (!v.elsewhere || state.elsewhere.has(elsewhereKey(v.url)) || seen.has(v.url)) return false;
    seen.add(v.url);
    return true;
  });
  if (!pending.length || !name) return;
  const button = $("test-elsewhere");
  if (button) button.disabled = true;
  document.body.dataset.elsewhereBusy = "true";
  try {
    const answer = await api("/v1/allowed", { pairs: pending.map((v) => ({ url: v.url, agent: name })), reading: oneToken.checked ? "one-token" : "crawler" });
    // Answers for earlier crawlers and lists are kept, within a bound.
    if (state.elsewhere.size > 5000) state.elsewhere.clear();
    answer.results.forEach((r, i) => {
      const site = r.error ? null : answer.origins[r.origin];
      state.elsewhere.set(elsewhereKey(pending[i].url), { ...r, site });
    });
    renderVerdicts(fileOrigin({ tested: state.tested }));
  } catch (error) {
    $("elsewhere").append(el("p", { class: "error-text" }, `Could not test them: ${error.message}.`));
    if (button) button.disabled = false;
  } finally {
    delete document.body.dataset.elsewhereBusy;
  }
}

async function run() {
  if (state.pending) state.pending.abort();
  const controller = new AbortController();
  state.pending = controller;
  const text = robots.value;
  state.lineCount = countLines(text);
  const textBytes = utf8Length(text);
  document.body.dataset.busy = "true";
  $("size").textContent = `${number(textBytes)} bytes, ${number(state.lineCount)} lines${textBytes > PARSED_BYTES ? ` (crawlers read the first ${number(PARSED_BYTES)} bytes)` : ""}`;
  const plan = planUrls(urls.value, utf8Length(JSON.stringify(text)));
  renderUrlNotes(plan);
  const site = fileOrigin(plan);
  renderFileOrigin(site);
  const name = agent.value.trim();
  const status = $("test-status");
  const textChars = text.length > LIMITS.robotsChars ? charCount(text) : 0;
  const problem = textChars > LIMITS.robotsChars
    ? `The file is ${number(textChars)} characters long; this server tests files of at most ${number(LIMITS.robotsChars)} characters (crawlers read the first ${number(PARSED_BYTES)} bytes).`
    : charCount(name) > LIMITS.agentChars
      ? `The crawler's name is ${number(charCount(name))} characters long; this server takes names of at most ${number(LIMITS.agentChars)}.`
      : null;
  if (problem) {
    state.verdicts = [];
    state.tested = [];
    state.diagnostics = [];
    finish(status, problem, true, null, site);
    return;
  }
  const list = plan.tested.map((t) => t.url);
  // After a fetch that gave no file, the URLs are asked about that site's
  // fetch (the server's cached outcome), not the editor's text.
  const outcome = state.outcome;
  const source = outcome ? { url: outcome.origin } : { robots_txt: text };
  const check = list.length && name
    ? api("/v1/check", { ...source, agent: name, urls: list, profile: profile.value || undefined, all_profiles: true, reading: oneToken.checked ? "one-token" : "crawler" }, controller.signal)
    : Promise.resolve({ results: [], profile: null });
  // No profile chosen: each crawler is read as its operator's parser reads files.
  const lint = api("/v1/lint", { robots_txt: text, profile: profile.value || undefined }, controller.signal);
  const report = api("/v1/report", { robots_txt: text }, controller.signal);
  try {
    const [checked, linted, reported] = await Promise.all([check, lint, report]);
    if (controller.signal.aborted) return;
    state.verdicts = checked.results;
    // What the fetch gave now (the check may have fetched again).
    if (outcome && checked.source) {
      outcome.fetch = checked.source.fetch;
      outcome.robotsUrl = checked.source.robots_url;
    }
    state.verdicts.forEach((v) => {
      const origin = originOf(v.url);
      v.elsewhere = site && origin && origin !== site.origin ? origin : null;
    });
    state.profile = checked.profile;
    // A name no group can name (a full User-Agent header of an unknown
    // crawler, say) is answered with the API's warning, shown as given.
    const warning = $("agent-warning");
    warning.textContent = checked.warning || "";
    warning.hidden = !checked.warning;
    state.tested = plan.tested;
    state.selected = Math.min(state.selected, Math.max(0, state.verdicts.length - 1));
    state.diagnostics = linted.diagnostics;
    state.report = reported;
    renderReport();
    finish(status, name ? "" : "Name a crawler to test URLs.", false, linted.counts, site);
  } catch (error) {
    if (error.name === "AbortError" || controller.signal.aborted) return;
    // The last answers stay, marked as not current.
    delete document.body.dataset.busy;
    status.textContent = `Could not test: ${error.message}`;
    status.classList.add("error-text");
  }
}

function finish(status, message, isError, counts, site) {
  buildNotes();
  renderFileOrigin(site);
  renderReading();
  renderVerdicts(site);
  renderDiagnostics(counts);
  renderIssues();
  queueDraw();
  caretMoved(true);
  status.textContent = message;
  status.classList.toggle("error-text", isError);
  delete document.body.dataset.busy;
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
  ignores_robots_txt: "the crawler ignores robots.txt",
  rule_limit: "past Yandex's 500 KB of stored rules: everything allowed",
  empty_rule: "empty rule",
};

function select(i) {
  state.selected = i;
  buildNotes();
  renderVerdicts(fileOrigin({ tested: state.tested }));
  const v = state.verdicts[i];
  if (v && v.rule) goToLine(v.rule.line, false);
  queueDraw();
  caretMoved(true);
}

// The reading the verdicts were read by: the crawler's own operator's
// (Bing's for Bingbot and AdIdxBot) unless a profile is chosen.
function renderReading() {
  const node = $("reading-used");
  const name = agent.value.trim();
  node.dataset.profile = state.profile || "";
  node.textContent = state.profile && name
    ? `Verdicts for ${name} read by ${PROFILE_WORDS[state.profile] || state.profile}: ${profile.value ? "the profile chosen" : "its operator's own reading (Google's for a crawler the registry does not know)"}; Google's and Bing's side by side where they differ.`
    : "";
}

const PROFILE_WORDS = { google: "Google's rules", bing: "Bing's rules", yandex: "Yandex's rules", rfc9309: "RFC 9309", legacy: "the legacy (first match) rules" };

function select(i) {
  state.selected = i;
  buildNotes();
  renderVerdicts(fileOrigin({ tested: state.tested }));
  const v = state.verdicts[i];
  if (v && v.rule && !v.elsewhere) goToLine(v.rule.line, false);
  queueDraw();
  caretMoved(true);
}

const lineRange = (g) => (g.first_line === g.last_line ? `line ${g.first_line}` : `lines ${g.first_line}–${g.last_line}`);

function renderVerdicts(site) {
  const rows = state.verdicts.map((v, i) => {
    const tested = state.tested[i];
    const attrs = {
      class: i === state.selected ? "selected" : "",
      "data-url": v.url,
      "data-input-line": tested ? String(tested.line) : null,
    };
    const urlCell = (...more) => el("td", { class: "url", "data-label": "URL" },
      el("button", { type: "button", onclick: () => select(i), "aria-pressed": String(i === state.selected) }, shorten(v.url)), ...more);
    if (v.elsewhere) {
      // Another site's URL: its own robots.txt decides, never this file.
      const other = state.elsewhere.get(elsewhereKey(v.url));
      const flag = el("span", { class: "other-host" }, `On another site: ${v.elsewhere}/robots.txt governs it, not this file.`);
      const answered = other && !other.error;
      const from = answered && other.site ? `${other.site.robots_url} (${attemptWords(other.site.fetch)})` : "";
      return el("tr", {
        ...attrs,
        "data-allowed": answered ? String(other.allowed) : "",
        "data-line": answered && other.rule ? String(other.rule.line) : "",
        "data-other-host": v.elsewhere,
        "data-source": answered ? "other-site" : "untested",
      },
      urlCell(flag),
      el("td", { "data-label": "Verdict" }, answered ? verdictWord(other) : el("span", { class: "verdict untested" }, "not tested")),
      el("td", { "data-label": "Deciding line" }, answered
        ? (other.rule ? el("code", {}, `${other.rule.line}: ${shorten(other.rule.text)}`) : el("span", { class: "muted" }, other.fetch_outcome || BASES[other.basis] || other.basis))
        : el("span", { class: "muted" }, other ? `not tested: ${other.error.problem}` : "its own robots.txt decides (not fetched yet)")),
      el("td", { "data-label": "Group" }, answered ? el("span", { class: "muted" }, `of ${from}`) : "—"),
      el("td", { class: "others", "data-label": "Other readings" }, answered ? el("span", { class: "muted" }, `read by ${PROFILE_WORDS[other.profile] || other.profile}`) : "—"));
    }
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
    const groups = v.groups.length ? v.groups.map(lineRange).join(", ") : "none";
    return el(
      "tr",
      {
        ...attrs,
        "data-allowed": String(v.allowed),
        "data-line": v.rule ? String(v.rule.line) : "",
        "data-source": state.outcome ? "fetch-outcome" : "editor",
      },
      urlCell(),
      el("td", { "data-label": "Verdict" }, verdictWord(v)),
      el("td", { "data-label": "Deciding line" }, v.rule ? el("code", {}, `${v.rule.line}: ${shorten(v.rule.text)}`) : el("span", { class: "muted" }, v.fetch_outcome || BASES[v.basis] || v.basis)),
      el("td", { "data-label": "Group" }, groups),
      el("td", { class: "others", "data-label": "Other readings" },
        pair || (others.length ? el("span", { class: "differs" }, others.join("; ")) : el("span", { class: "muted" }, "same"))),
    );
  });
  verdictRows.replaceChildren(...rows);
  renderElsewhere();
  renderChoice();
}

// The rule applied to the selected URL's crawler: which token's group it
// obeys and why (the registry's source named), and what the file says
// about using the URL's content (Content-Usage, Content-Signal).
function renderChoice() {
  const v = state.verdicts[state.selected];
  const choice = $("choice");
  const prefs = $("preferences");
  if (!v || !v.choice || v.elsewhere) {
    choice.hidden = true;
    prefs.hidden = true;
    return;
  }
  const c = v.choice;
  choice.dataset.kind = c.kind;
  choice.dataset.reading = c.reading;
  choice.dataset.token = c.token || "";
  // The sentence names its source at its end: that name becomes the link.
  const cited = c.source && c.why.endsWith(` (${c.source.title})`);
  const why = cited ? c.why.slice(0, -(c.source.title.length + 3)) : c.why;
  choice.replaceChildren(
    `${why}${c.reading === "one-token" ? " (one product token)" : ""}`,
    ...(c.source ? [" (", el("a", { href: c.source.url, rel: "noopener" }, c.source.title), ")"] : []),
  );
  choice.hidden = false;
  const p = v.preferences;
  if (!p) {
    prefs.hidden = true;
    return;
  }
  prefs.dataset.trainAi = p.train_ai;
  prefs.dataset.aiUse = p.ai_use;
  prefs.dataset.search = p.search;
  const parts = [el("strong", {}, `AI preferences for ${shorten(v.url)}: `), `train-ai ${p.train_ai}, ai-use ${p.ai_use}, search ${p.search}`];
  // Vocabulary draft 08, section 4.3: Search overrides AI Training and AI Use.
  if (p.search_overrides.length) parts.push(`; inside a search application search ${p.search} decides ${p.search_overrides.join(" and ")} too`);
  if (p.content_usage.length) parts.push(` (Content-Usage at ${p.content_usage.map((u) => "line " + u.line).join(", ")})`);
  if (p.unknown_keys.length) parts.push(`; not in the vocabulary, ignored: ${p.unknown_keys.join(", ")}`);
  if (p.content_signal) {
    prefs.dataset.signal = p.content_signal.value;
    parts.push(el("br"), `Content-Signal: ${p.content_signal.value} (line ${p.content_signal.line})`);
  } else {
    delete prefs.dataset.signal;
  }
  prefs.replaceChildren(...parts);
  prefs.hidden = false;
}

function applyFix(d) {
  const lines = robots.value.split("\n");
  const line = lines[d.line - 1];
  if (line === undefined || !/^[\x00-\x7f]*$/.test(line)) return;
  lines[d.line - 1] = line.slice(0, d.column - 1) + d.fix.replacement + line.slice(d.end_column - 1);
  replaceEditor(lines.join("\n"), state.shown, `applying the fix of ${d.code} on line ${d.line}`, false);
}

function renderDiagnostics(counts) {
  $("lint-count").textContent = counts
    ? `(${plural(counts.errors, "error")}, ${plural(counts.warnings, "warning")}, ${plural(counts.infos, "note")})`
    : "";
  const shown = state.diagnostics.slice(0, 500);
  const items = shown.map((d) =>
    el(
      "li",
      { class: d.severity, "data-line": String(d.line), "data-code": d.code },
      el("button", { type: "button", class: "where", onclick: () => goToLine(d.line, true) }, `line ${d.line}:${d.column}`),
      ` ${SEVERITY[d.severity] || d.severity} ${d.code} (${d.name}): `,
      ...rich(d.message),
      d.fix
        ? el(
            "div",
            { class: "fix" },
            "Fix: ",
            ...rich(d.fix.message),
            d.fix.replacement !== null
              ? el(
                  "button",
                  {
                    type: "button",
                    onclick: () => applyFix(d),
                    title: d.fix.changes_verdicts
                      ? "Apply the fix (it changes verdicts: see below)"
                      : "Apply the fix (every verdict stays the same)",
                  },
                  "Apply",
                )
              : null,
            // A fix that changes what crawlers may fetch says so and how,
            // with the linter's words.
            d.fix.changes_verdicts
              ? el("div", { class: "changes" }, "Changes verdicts: ", ...rich(d.fix.verdict_change))
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

// --- Issues by line: Search Console's items apart from lint's advice ---

// What Search Console's report says about a line, or null when nothing.
function scIssue(sc) {
  if (!sc || !sc.flagged) return null;
  const flags = [sc.typo && `a misspelled key Google accepts as ${sc.known_as || "a known key"}`, sc.missing_colon && (sc.kind === "unknown" || sc.kind === "invalid" ? "no colon after the key" : "no colon after the key (Google accepts it)"), sc.too_long && "too long: Google reads no further on it"].filter(Boolean);
  if (sc.kind === "unknown" || sc.kind === "invalid") flags.unshift("a line Google does not understand (ignored)");
  if (sc.kind === "unused") flags.unshift(`${sc.known_as || sc.key}: a key Google knows and does not use`);
  return flags.length ? flags.join("; ") : "flagged";
}

function renderIssues() {
  const list = $("line-issues");
  const lines = new Map();
  const at = (line) => {
    if (!lines.has(line)) lines.set(line, { sc: null, lint: [] });
    return lines.get(line);
  };
  for (const [line, sc] of state.reportLines) {
    const issue = scIssue(sc);
    if (issue) at(line).sc = issue;
  }
  for (const d of state.diagnostics) if (d.line) at(d.line).lint.push(d);
  const numbers = [...lines.keys()].sort((a, b) => a - b);
  const text = robots.value.split("\n");
  const shown = numbers.slice(0, 500).map((line) => {
    const { sc, lint } = lines.get(line);
    return el("li", { "data-line": String(line), "data-sc": sc ? "true" : "false", "data-lint": lint.map((d) => d.code).join(" ") },
      el("button", { type: "button", class: "where", onclick: () => goToLine(line, true) }, `Line ${line}`),
      " ", el("code", { class: "line-text" }, shorten(text[line - 1] ?? "")),
      el("ul", {},
        ...(sc ? [el("li", { class: "sc-item" }, el("span", { class: "who" }, "Search Console: "), sc)] : []),
        ...lint.map((d) => el("li", { class: "lint-item " + d.severity }, el("span", { class: "who" }, `crawlgate ${SEVERITY[d.severity] || d.severity} ${d.code}: `), ...rich(d.message)))));
  });
  if (numbers.length > shown.length) shown.push(el("li", {}, `… and ${plural(numbers.length - shown.length, "more line")}`));
  if (!numbers.length) shown.push(el("li", { class: "none" }, "No line has a problem."));
  const scLines = numbers.filter((n) => lines.get(n).sc).length;
  $("issues-count").textContent = `(${plural(numbers.length, "line")}; Search Console flags ${number(scLines)})`;
  list.replaceChildren(...shown);
}

// --- The editor's text: where it came from, replacing it, undoing that ---

function markEdited() {
  const edited = state.shown.text !== null && robots.value !== state.shown.text;
  $("edited").hidden = !edited;
  document.body.dataset.edited = String(edited);
}

function renderShown() {
  $("shown").textContent = `Shown: ${state.shown.label}${state.outcome ? ` (not tested: ${state.outcome.origin} gave no file)` : ""}`;
  const last = state.undo[state.undo.length - 1];
  undoButton.disabled = !last;
  undoButton.title = last ? `Bring back the text from before ${last.why}` : "Nothing was replaced";
  markEdited();
  for (const item of document.querySelectorAll("#history-list li")) {
    item.classList.toggle("current", state.shown.id !== null && item.dataset.id === String(state.shown.id));
  }
}

// Replaces the editor's text, keeping the text it had for "Undo replace".
function replaceEditor(text, shown, why, top = true) {
  state.outcome = null;
  state.undo.push({ text: robots.value, shown: state.shown, why, scroll: robots.scrollTop });
  if (state.undo.length > UNDO_DEPTH) state.undo.shift();
  robots.value = text;
  state.shown = shown;
  if (top) robots.scrollTop = 0;
  renderShown();
  schedule();
}

undoButton.addEventListener("click", () => {
  const last = state.undo.pop();
  if (!last) return;
  robots.value = last.text;
  state.shown = last.shown;
  state.outcome = null;
  robots.scrollTop = last.scroll;
  renderShown();
  schedule();
  $("shown").textContent = `Shown: ${state.shown.label} (brought back)`;
});

// --- Fetching a site's robots.txt through the server ---

const words = (s) => String(s).replace(/_/g, " ");

// Why a fetch gave what it gave, from the API's `attempt`.
const NETWORK_WORDS = {
  dns: "DNS error: the host name did not resolve",
  connect: "the connection failed (refused, or the TLS handshake failed)",
  timeout: "the fetch timed out",
  connection_reset: "the connection was reset before the response was complete",
  invalid_response: "the answer was not valid HTTP",
  broken_body: "the body broke off",
  other: "a network error",
};
const REDIRECT_WORDS = {
  too_many_redirects: "too many redirects",
  loop: "a redirect loop",
  missing_location: "a redirect without a Location header",
  invalid_location: "a redirect to an invalid URL",
  unsupported_scheme: "a redirect to a scheme other than http(s)",
};
function attemptWords(f) {
  const a = (f && f.attempt) || {};
  if (a.kind === "network") return `no response: ${NETWORK_WORDS[a.error] || words(a.error)}`;
  if (a.kind === "redirect") return `redirect not followed: ${REDIRECT_WORDS[a.stop] || words(a.stop)}`;
  return !f || f.status === null ? "no response" : `HTTP ${f.status}`;
}
// What the outcome means (Google's rules), and why it is that outcome.
const OUTCOME_WORDS = {
  full_allow: "crawlers may fetch everything",
  full_disallow: "crawlers may fetch nothing for now",
  conditional: "crawlers follow the file's rules",
};
// The variants table's column "Crawlers may fetch".
const VARIANT_WORDS = { full_allow: "everything", full_disallow: "nothing, for now" };
const REASON_WORDS = {
  fetched: "the file is read",
  not_found: "a 4xx answer means there is no robots.txt",
  redirects_not_followed: "redirects not followed to the end count as a 404",
  soft_not_found: "a 5xx whose page says not found counts as a 404",
  server_error: "a 5xx, a 429 or no answer means nothing may be fetched until a fetch succeeds",
  stale_copy: "the refetch failed, so the last good copy is used",
  unreachable_last_copy: "unreachable for more than 30 days: the last good copy is used",
  unreachable_allow_all: "unreachable for more than 30 days and no copy: everything may be fetched",
};

function fetchedLabel(data) {
  const f = data.fetch;
  return `${data.robots_url} as fetched ${f.fetched_at} (${f.status === null ? "no response" : "HTTP " + f.status})`;
}

// The newest version with a file: the one a fetched body belongs to.
function bodyVersion(data) {
  const v = data.history.find((h) => h.outcome === "conditional");
  return v ? v.id : null;
}

function showPanels(data) {
  const f = data.fetch;
  state.panel = data;
  const cache = `${f.from_cache ? "from the cache" : "just fetched"}, ${f.fresh ? "fresh" : "expired"} (until ${f.expires_at})`;
  const noFile = data.body === null
    ? el("p", { id: "fetch-no-file" }, `No file to show (${attemptWords(f)}): ${REASON_WORDS[f.reason] || words(f.reason)}, so ${OUTCOME_WORDS[f.outcome] || words(f.outcome)} from this site. The verdicts are answered so; the editor keeps its text, not tested.`)
    : null;
  fetchInfo.replaceChildren(
    ...[el("h3", { id: "fetch-origin" }, data.origin),
    el(
      "dl",
      {},
      el("dt", {}, "robots.txt"), el("dd", {}, data.robots_url),
      el("dt", {}, "HTTP status"), el("dd", { id: "fetch-status" }, f.status === null ? "no response" : String(f.status)),
      el("dt", {}, "Answer"), el("dd", { id: "fetch-why", "data-attempt": f.attempt ? f.attempt.kind : "" }, attemptWords(f)),
      el("dt", {}, "Outcome"), el("dd", { id: "fetch-outcome" }, `${words(f.outcome)} (${words(f.reason)})`),
      el("dt", {}, "Cache"), el("dd", { id: "fetch-cache" }, cache),
      el("dt", {}, "Fetched"), el("dd", {}, f.fetched_at),
    ),
    noFile].filter((node) => node !== null),
  );
  fetchInfo.hidden = false;
  renderHistory(data);
}

function versionName(v) {
  return `${v.fetched_at} (${v.status === null ? "no response" : "HTTP " + v.status})`;
}

function renderHistory(data) {
  const items = data.history.map((v) =>
    el(
      "li",
      { "data-id": String(v.id) },
      `${v.fetched_at}: ${v.status === null ? "no response" : "HTTP " + v.status}, ${words(v.outcome)}, ${number(v.size)} bytes, ${v.diagnostics} findings `,
      v.outcome === "conditional"
        ? el("button", { type: "button", "aria-label": `Load the version of ${versionName(v)}`, onclick: () => loadVersion(data.origin, v) }, "Load")
        : el("span", { class: "muted" }, "(no file)"),
    ),
  );
  $("history-list").replaceChildren(...items);
  historyPanel.hidden = false;
  // Any two versions with a file, or one and the editor's text.
  const withFile = data.history.filter((v) => v.outcome === "conditional");
  const options = (selected) => [
    ...withFile.map((v) => el("option", { value: String(v.id), selected: v.id === selected ? "" : null }, versionName(v))),
    el("option", { value: "editor", selected: selected === "editor" ? "" : null }, "the editor's text"),
  ];
  const to = withFile.length ? withFile[0].id : "editor";
  const from = withFile.length > 1 ? withFile[1].id : withFile.length ? withFile[0].id : "editor";
  $("compare-from").replaceChildren(...options(from));
  $("compare-to").replaceChildren(...options(withFile.length > 1 ? to : "editor"));
  $("compare-form").hidden = withFile.length === 0;
  $("diff").hidden = true;
  renderShown();
}

function showFetchError(what, error) {
  const kept = state.panel ? ` The panels below still show ${state.panel.origin}.` : "";
  // A 429 is a refetch too soon (rate_limited) or this client's quota of
  // new sites (fetch_limit, its problem says which).
  const hint = error.status === 429 && error.code === "rate_limited" ? ` Wait ${LIMITS.refreshSeconds} s between two refetches of a site.` : "";
  fetchError.replaceChildren(
    el("p", {}, `${what}: ${error.message}.${hint}${kept} The editor keeps its text.`),
  );
  fetchError.dataset.status = String(error.status ?? "");
  fetchError.hidden = false;
}

function clearFetchError() {
  fetchError.hidden = true;
  fetchError.replaceChildren();
}

function updateRefresh() {
  const target = state.current;
  refreshButton.hidden = !target;
  if (!target) return;
  refreshButton.dataset.origin = target;
  let host = target;
  try {
    host = new URL(target).host;
  } catch {
    // Named as typed.
  }
  refreshButton.textContent = `Refetch ${host} now`;
}

// A fetch's answer: the panels, and the file (if there is one) in the
// editor, the text it replaces kept for undo.
function takeFetched(data, why) {
  showPanels(data);
  if (data.body !== null) {
    replaceEditor(data.body, { label: fetchedLabel(data), text: data.body, origin: data.origin, id: bodyVersion(data) }, why);
  } else {
    // No file: the verdicts become the fetch outcome's until the editor's
    // text is edited or asked for again.
    state.outcome = { origin: data.origin, robotsUrl: data.robots_url, fetch: data.fetch };
    schedule();
  }
  renderShown();
  offerVariants(data.origin);
}

async function fetchSite(url, refresh) {
  clearFetchError();
  const button = refresh ? refreshButton : $("fetch-button");
  button.disabled = true;
  try {
    const data = refresh
      ? await api(`/v1/refresh?origin=${encodeURIComponent(url)}`, null)
      : await api(`/v1/robots?origin=${encodeURIComponent(url)}&fetch=true`);
    state.current = data.origin;
    takeFetched(data, `${refresh ? "refetching" : "fetching"} ${data.origin}`);
  } catch (error) {
    // An origin the server cannot read is no origin to refetch.
    if (error.status === 400) state.current = null;
    showFetchError(`Could not ${refresh ? "refetch" : "fetch"} ${url}`, error);
  } finally {
    button.disabled = false;
    updateRefresh();
  }
}

$("fetch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const url = fetchUrl.value.trim();
  if (!url) return;
  // Refetching follows the site asked for last, whatever happens to this
  // fetch.
  state.current = url;
  updateRefresh();
  fetchSite(url, false);
});

refreshButton.addEventListener("click", () => {
  if (state.current) fetchSite(state.current, true);
});

// The Site field names the file's site when nothing was fetched.
fetchUrl.addEventListener("input", () => {
  const site = fileOrigin({ tested: state.tested });
  renderFileOrigin(site);
  renderVerdicts(site);
});

async function versionBody(origin, id) {
  const key = `${origin} ${id}`;
  if (!state.bodies.has(key)) {
    const v = await api(`/v1/robots/version?origin=${encodeURIComponent(origin)}&id=${id}`);
    state.bodies.set(key, v.body);
  }
  return state.bodies.get(key);
}

async function loadVersion(origin, v) {
  clearFetchError();
  try {
    const body = await versionBody(origin, v.id);
    if (body === null) {
      showFetchError(`The version of ${versionName(v)} has no file`, new ApiError("nothing to load", ""));
      return;
    }
    replaceEditor(body, { label: `${origin}/robots.txt, the version of ${versionName(v)}`, text: body, origin, id: v.id }, `loading the version of ${v.fetched_at}`);
  } catch (error) {
    showFetchError(`Could not load the version of ${versionName(v)}`, error);
  }
}

// --- The host variants of a site (http/https, www or not) ---

let variantsAsked = 0;

// After a fetch: the button that lists the site's host variants (up to
// three more fetches, so only when asked).
function offerVariants(origin) {
  variantsAsked++;
  const panel = $("variants");
  panel.hidden = false;
  panel.dataset.origin = origin;
  panel.dataset.loaded = "false";
  $("variants-table").hidden = true;
  $("variants-status").replaceChildren(
    "Search Console lists a site's robots.txt for each host variant. ",
    el("button", { type: "button", id: "variants-button", onclick: () => loadVariants(origin) }, `Check the host variants of ${origin}`),
  );
}

async function loadVariants(origin) {
  const ticket = ++variantsAsked;
  const panel = $("variants");
  const status = $("variants-status");
  panel.hidden = false;
  panel.dataset.origin = origin;
  panel.dataset.loaded = "false";
  status.textContent = `Fetching the robots.txt of each host variant of ${origin} (http and https, with and without www.)…`;
  $("variants-table").querySelector("tbody").replaceChildren();
  let answer;
  try {
    answer = await api(`/v1/variants?origin=${encodeURIComponent(origin)}`);
  } catch (error) {
    if (ticket !== variantsAsked) return;
    status.textContent = `Could not fetch the host variants: ${error.message}.`;
    panel.dataset.loaded = "error";
    return;
  }
  if (ticket !== variantsAsked) return;
  const differ = answer.variants.filter((v) => v.same_as_asked === false).length;
  status.textContent = `Each variant serves its own robots.txt: crawlers read the one of the URL's own scheme and host. ${differ ? `${plural(differ, "variant")} ${differ === 1 ? "differs" : "differ"} from ${answer.origin}.` : `None differs from ${answer.origin}.`}`;
  const rows = answer.variants.map((v) => {
    const f = v.fetch;
    const same = v.same_as_asked === null || v.same_as_asked === undefined ? "—" : v.asked ? "the one tested" : v.same_as_asked ? "same as tested" : "differs";
    return el("tr", { "data-origin": v.origin, "data-asked": String(v.asked), "data-same": v.same_as_asked === undefined ? "" : String(v.same_as_asked), class: v.asked ? "asked" : "" },
      el("td", {}, v.asked ? el("strong", {}, v.robots_url) : v.robots_url),
      el("td", { class: "variant-fetch" }, f ? attemptWords(f) : `not fetched: ${v.error.problem}`),
      el("td", { class: "variant-outcome" }, f ? (f.outcome === "conditional" ? `by its rules (${number(v.size)} bytes)` : VARIANT_WORDS[f.outcome] || words(f.outcome)) : "—"),
      el("td", { class: "variant-same" }, same, v.asked || !f ? "" : el("button", { type: "button", onclick: () => {
        fetchUrl.value = v.origin + "/";
        state.current = v.origin;
        fetchSite(v.origin, false);
      } }, "Test it")));
  });
  $("variants-table").querySelector("tbody").replaceChildren(...rows);
  $("variants-table").hidden = false;
  panel.dataset.loaded = "true";
}

// --- Comparing two versions, line by line ---

// The shortest edit script between the lines `a` and `b` (Myers), as
// ["=", i, j] | ["-", i] | ["+", j]; null past `maxEdits` edits.
function diffLines(a, b, maxEdits = 2000) {
  const ids = new Map();
  const id = (line) => {
    if (!ids.has(line)) ids.set(line, ids.size);
    return ids.get(line);
  };
  const A = Int32Array.from(a, id);
  const B = Int32Array.from(b, id);
  let start = 0;
  while (start < A.length && start < B.length && A[start] === B[start]) start++;
  let endA = A.length;
  let endB = B.length;
  while (endA > start && endB > start && A[endA - 1] === B[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace = [];
  let found = max === 0 ? 0 : -1;
  for (let d = 0; d <= max && found < 0; d++) {
    if (d > maxEdits) return null;
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && A[start + x] === B[start + y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  // Walk back through the saved rows.
  const middle = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const row = trace[d];
    const at = (k) => row[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      middle.push(["=", start + x, start + y]);
    }
    if (down) {
      y--;
      middle.push(["+", start + y]);
    } else {
      x--;
      middle.push(["-", start + x]);
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    middle.push(["=", start + x, start + y]);
  }
  const ops = [];
  for (let i = 0; i < start; i++) ops.push(["=", i, i]);
  ops.push(...middle.reverse());
  for (let i = 0; endA + i < A.length; i++) ops.push(["=", endA + i, endB + i]);
  return ops;
}

function splitLines(text) {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// Context kept around each change; longer runs of unchanged lines fold.
const CONTEXT = 3;

function renderDiff(fromName, toName, a, b) {
  const diff = $("diff");
  const ops = diffLines(a, b);
  diff.hidden = false;
  if (ops === null) {
    diff.replaceChildren(el("p", {}, `${fromName} → ${toName}: too many differences to show line by line (${number(a.length)} and ${number(b.length)} lines).`));
    return;
  }
  const added = ops.filter((o) => o[0] === "+").length;
  const removed = ops.filter((o) => o[0] === "-").length;
  diff.dataset.added = String(added);
  diff.dataset.removed = String(removed);
  const head = el("p", { id: "diff-summary" },
    added + removed === 0
      ? `${fromName} and ${toName}: no differences.`
      : `${fromName} → ${toName}: ${number(added)} line${added === 1 ? "" : "s"} added, ${number(removed)} removed.`);
  const changed = ops.map((o) => o[0] !== "=");
  const near = (i) => {
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(ops.length - 1, i + CONTEXT); j++) if (changed[j]) return true;
    return false;
  };
  const rows = [];
  let folded = 0;
  const fold = () => {
    if (folded) rows.push(el("tr", { class: "skip" }, el("td", { colspan: "4" }, `… ${number(folded)} unchanged line${folded === 1 ? "" : "s"}`)));
    folded = 0;
  };
  ops.forEach((o, i) => {
    if (o[0] === "=" && !near(i)) {
      folded++;
      return;
    }
    fold();
    if (o[0] === "=") rows.push(el("tr", {}, el("td", { class: "n" }, String(o[1] + 1)), el("td", { class: "n" }, String(o[2] + 1)), el("td", {}, " "), el("td", {}, a[o[1]])));
    else if (o[0] === "-") rows.push(el("tr", { class: "removed" }, el("td", { class: "n" }, String(o[1] + 1)), el("td", { class: "n" }), el("td", { "aria-label": "removed" }, "−"), el("td", {}, a[o[1]])));
    else rows.push(el("tr", { class: "added" }, el("td", { class: "n" }), el("td", { class: "n" }, String(o[1] + 1)), el("td", { "aria-label": "added" }, "+"), el("td", {}, b[o[1]])));
  });
  fold();
  diff.replaceChildren(head, el("table", { "aria-label": `Line differences, ${fromName} to ${toName}` }, el("tbody", {}, ...rows)));
}

$("compare-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = state.panel;
  if (!data) return;
  const side = async (value) => {
    if (value === "editor") return ["the editor's text", robots.value];
    const v = data.history.find((h) => String(h.id) === value);
    return [`the version of ${versionName(v)}`, (await versionBody(data.origin, v.id)) ?? ""];
  };
  try {
    const [[fromName, a], [toName, b]] = await Promise.all([side($("compare-from").value), side($("compare-to").value)]);
    renderDiff(fromName, toName, splitLines(a), splitLines(b));
  } catch (error) {
    showFetchError("Could not compare the versions", error);
  }
});

// --- Crawler picker, download, wiring ---

async function loadCrawlers() {
  try {
    const crawlers = await api("/v1/crawlers");
    $("crawler-list").replaceChildren(
      // Listed by operator and purpose (the server's order); the label says
      // the rule the crawler reading applies.
      ...crawlers.map((c) => {
        const rules = [
          c.fallbacks.length ? `falls back to ${c.fallbacks.join(", ")}` : "",
          c.obeys_star ? "" : "ignores *",
          c.kind === "control" ? "control token" : "",
          c.obeys === "no" ? "ignores robots.txt" : "",
        ].filter(Boolean);
        return el("option", {
          value: c.name,
          "data-family": `${c.operator} · ${c.purpose}`,
          label: `${c.operator} · ${c.purpose_described}${rules.length ? " · " + rules.join(", ") : ""}${c.ai ? " (AI)" : ""}`,
        });
      }),
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

// --- The policy panel: POST /v1/policy, the file, its diff, copy, download ---

const policyState = { text: null };

function policyRequest() {
  const purposes = {};
  for (const select of document.querySelectorAll("#policy-form select[data-purpose]")) {
    if (select.value) purposes[select.dataset.purpose] = select.value;
  }
  const request = {
    purposes,
    private: $("policy-private").value.split("\n").map((l) => l.trim()).filter(Boolean),
  };
  if ($("policy-merge").checked) request.robots_txt = robots.value;
  return request;
}

function renderPolicyDiff(diff) {
  const lines = (diff || "").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const kinds = { "+": "added", "-": "removed", "@": "hunk" };
  $("policy-diff").replaceChildren(
    ...lines.map((line) => el("span", { class: `line ${line.startsWith("+++") || line.startsWith("---") ? "head" : kinds[line[0]] || "same"}` }, line + "\n")),
  );
  $("policy-diff").dataset.added = String(lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length);
  $("policy-diff").dataset.removed = String(lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length);
}

$("policy-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("policy-error");
  error.hidden = true;
  document.body.dataset.policyBusy = "true";
  $("policy-status").textContent = "Writing and proving…";
  try {
    const answer = await api("/v1/policy", policyRequest());
    policyState.text = answer.robots_txt;
    $("policy-file").textContent = answer.robots_txt;
    const merged = answer.diff !== null;
    $("policy-diff-title").hidden = !merged;
    $("policy-diff").hidden = !merged;
    if (merged) renderPolicyDiff(answer.diff);
    $("policy-notes").replaceChildren(...answer.notes.map((n) => el("li", {}, n)));
    const denied = answer.crawlers.filter((c) => !c.allowed).length;
    $("policy-status").textContent = `Proven for the ${number(answer.crawlers.length)} crawlers of the registry (${number(answer.proof.verdicts)} verdicts): ${number(denied)} may not fetch /; ${merged ? "no other crawler's verdict changes" : "the others may"}.`;
    $("policy-result").hidden = false;
    $("policy-result").dataset.crawlers = String(answer.crawlers.length);
  } catch (e) {
    error.textContent = `The policy could not be written: ${e.message}`;
    error.hidden = false;
    $("policy-status").textContent = "";
    $("policy-result").hidden = true;
  } finally {
    delete document.body.dataset.policyBusy;
  }
});

$("policy-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(policyState.text);
    $("policy-status").textContent = "Copied to the clipboard.";
  } catch (e) {
    // Without clipboard access, select the text for Ctrl+C.
    const range = document.createRange();
    range.selectNodeContents($("policy-file"));
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    $("policy-status").textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
  }
});

$("policy-download").addEventListener("click", () => {
  const blob = new Blob([policyState.text], { type: "text/plain" });
  const link = el("a", { href: URL.createObjectURL(blob), download: "robots.txt" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

$("policy-use").addEventListener("click", () => {
  replaceEditor(policyState.text, { label: "written from the policy", text: policyState.text, origin: state.shown.origin, id: null }, "the policy's file was put in the editor");
});

$("url-limits").textContent = `At most ${number(LIMITS.urls)} URLs per test, each at most ${number(LIMITS.urlChars)} characters; files of at most ${number(LIMITS.robotsChars)} characters. URLs past a limit are listed, not tested.`;
// Editing the text means testing it, whatever the last fetch gave.
robots.addEventListener("input", () => {
  if (state.outcome) {
    state.outcome = null;
    renderShown();
  }
});
for (const input of [robots, urls, agent]) input.addEventListener("input", schedule);
// The short picker: the crawlers Search Console's old tester and Bing's
// tester offered, each read by its own operator's rules.
const quick = [...document.querySelectorAll("#quick-crawlers button")];
function markQuick() {
  for (const b of quick) b.setAttribute("aria-pressed", String(b.dataset.agent.toLowerCase() === agent.value.trim().toLowerCase()));
}
for (const b of quick) {
  b.addEventListener("click", () => {
    agent.value = b.dataset.agent;
    agent.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
agent.addEventListener("input", markQuick);
markQuick();
profile.addEventListener("change", schedule);
oneToken.addEventListener("change", schedule);
state.lineCount = countLines(robots.value);
renderShown();
loadCrawlers();
run();
