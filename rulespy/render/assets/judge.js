/* The rules judge: rulespy itself, in Pyodide, on the reader's own scenario.
 *
 * Every worked example carries <div class="vs-try" data-scenario="CODE">, CODE being its scenario YAML
 * packed as raw DEFLATE + base64url (rulespy.render.web.encode). "Try it" opens an editor on that YAML
 * (dice included); Run hands the text to rulespy.render.web (resolve, odds, board), which runs the
 * command line's own code, and shows what a player asks first: the outcome in a sentence and a table
 * (each model's wounds left and when it was removed), the account as steps citing each rule by its title
 * (linked to its section), the casualty odds of every target unit as a chart ("exactly N" or "at least
 * N") with the expected casualties, and the command line's own text one click away. "Compare" opens a
 * second editor beside the first (the same attack with and without cover, two weapons) and says the
 * difference in expected casualties; the permalink carries both. The Judge page (judge/) holds the same
 * editor, restores a situation from the address (#s=CODE, and &c=CODE for a comparison) and starts from
 * an empty board or any published scenario.
 *
 * The engine runs in a Web Worker (assets/judge-worker.js): the page never waits on Python. It starts
 * once per visit, the first time a reader asks, and stays for the rest of the visit (Material's instant
 * navigation keeps this script and its worker from page to page); the page shows its progress while it
 * starts, and says how much it downloads before the first download (vsJudgeSite.download, measured by
 * rulespy render). A call that takes longer than CALL_LIMIT_MS stops the worker (the next call starts
 * another) and says so: no text, however hostile, can freeze the page or hold the engine.
 *
 * A permalink is decoded under the loader's size budget (at most MAX_TEXT bytes after decompression,
 * read as a stream and stopped there); a broken or cut-short link says so. The editor judges again
 * DEBOUNCE_MS after the reader stops typing, not per key.
 *
 * The Judge page's forms are judge-page.js, loaded on that page only (rule pages stay light).
 * Its words come from the page: assets/judge-words.js (written by rulespy render for each edition from
 * rulespy/render/languages.py's WORDS) sets window.vsJudgeSite = {words, runtime, titles, download}.
 * A translation's site (/ru/) uses the English site's runtime folder (its runtime: "../judge/").
 */
(function () {
  "use strict";
  if (window.vsJudge) return; // instant navigation never runs it twice, a second copy neither
  const ROOT = new URL("../", document.currentScript.src);
  const SITE = window.vsJudgeSite || { runtime: "judge/", words: {}, titles: {}, download: null };
  const RUNTIME = new URL(SITE.runtime, ROOT);
  const WORKER = new URL("assets/judge-worker.js", ROOT);
  const RULE = rulePattern(SITE.rules || []);
  const MAX_TEXT = 1000000; // the scenario loader's MAX_BYTES: a permalink may not unpack to more
  const CALL_LIMIT_MS = 60000;
  // The engine speaks the page's language (rulespy resolve/odds --lang): Russian on /ru/, else English.
  const LANGUAGE = /^ru\b/.test(document.documentElement.lang || "") ? "ru" : "en";
  const DEBOUNCE_MS = 600;
  const STARTED = "vsJudgeStarted"; // localStorage: the runtime was fetched once (the browser caches it)
  let engine = null;
  let boards = 0;
  let boots = 0; // workers started in this visit: one, unless one was stopped

  /* The engine: one Web Worker per visit, started on the first call; each call of rulespy.render.web
   * (engine.resolve(text), engine.board(text, key) ...) returns a Promise of its string. */
  function judge(onProgress) {
    if (engine === null) {
      let worker;
      const waiting = new Map();
      let next = 0;
      const listeners = new Set();
      const ready = new Promise((resolve, reject) => {
        const started = performance.now();
        worker = new Worker(WORKER);
        boots += 1;
        worker.onmessage = (event) => {
          const m = event.data;
          if (m.progress) listeners.forEach((f) => f(m));
          else if (m.ready) {
            window.vsJudgeLoadMs = performance.now() - started;
            window.vsJudgeBoot = m.boot; // "fresh", or "snapshot": from the engine this browser saved
            try { localStorage.setItem(STARTED, "1"); } catch (e) { /* private mode */ }
            resolve();
          } else if (m.failed) reject(new Error(m.failed));
          else if (waiting.has(m.id)) {
            const [done, fail, timer] = waiting.get(m.id);
            clearTimeout(timer);
            waiting.delete(m.id);
            if (m.error !== undefined) fail(new Error(m.error)); else done(m.answer);
          }
        };
        worker.onerror = (event) => reject(new Error(event.message || "the engine's worker failed"));
        worker.postMessage({ runtime: RUNTIME.href, pyodide: SITE.pyodide });
      });
      const stop = (why) => {
        worker.terminate();
        waiting.forEach(([, fail, timer]) => { clearTimeout(timer); fail(new Error(why)); });
        waiting.clear();
        engine = null;
      };
      const call = (name, ...args) => ready.then(() => new Promise((done, fail) => {
        const id = ++next;
        const timer = setTimeout(() => stop(say("too-long", { seconds: CALL_LIMIT_MS / 1000 })), CALL_LIMIT_MS);
        waiting.set(id, [done, fail, timer]);
        worker.postMessage({ id, call: name, args });
      }));
      const api = new Proxy({}, { get: (target, name) => (name === "then" ? undefined : (...args) => call(name, ...args)) });
      engine = { ready: ready.then(() => api), listeners };
      engine.ready.catch(() => { stop("failed"); });
    }
    if (onProgress) engine.listeners.add(onProgress);
    return engine.ready;
  }

  async function bytesOf(stream, limit) {
    const reader = stream.getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (limit && size > limit) {
        reader.cancel();
        throw new Error(say("link-too-large", { limit: MAX_TEXT / 1000000 }));
      }
      parts.push(value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    parts.forEach((part) => { out.set(part, at); at += part.length; });
    return out;
  }

  /* The text packed in CODE, at most MAX_TEXT bytes of it (a link's text is a stranger's). */
  async function decode(code) {
    const text = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    const packed = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new TextDecoder("utf-8", { fatal: true }).decode(await bytesOf(stream, MAX_TEXT));
  }

  async function encode(text) {
    const stream = new Blob([new TextEncoder().encode(text)]).stream()
      .pipeThrough(new CompressionStream("deflate-raw"));
    const packed = await bytesOf(stream, 0);
    let binary = "";
    packed.forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  /* The page's word for KEY, its {name}s filled from VALUES. */
  function say(key, values) {
    const word = SITE.words[key] === undefined ? key : SITE.words[key];
    return word.replace(/\{(\w+)\}/g, (all, name) =>
      (values && values[name] !== undefined ? String(values[name]) : all));
  }

  /* A cited rule (core/damage.md#target-limit) in one of FOLDERS, the rule book's check: rule_dirs as
   * rulespy render writes them into judge-words.js (SITE.rules): the page knows no folder of its own. */
  function rulePattern(folders) {
    if (!folders.length) return /(?!)/g; // no rule folder: nothing is a cited rule
    const names = folders.map((f) => f.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&")).join("|");
    return new RegExp(String.raw`\b((?:${names})\/[\w-]+)\.md#([\w-]+)`, "g");
  }

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }

  /* Text with every cited rule (core/damage.md#target-limit) as a link to its page and anchor. */
  function linked(text) {
    return escapeHtml(text).replace(RULE, (all, page, anchor) =>
      `<a href="${new URL(page + "/#" + anchor, ROOT).href}">${all}</a>`);
  }

  /* A link to the section RULE (PATH#ANCHOR) that reads as the rule's title; the path only in its address. */
  function ruleLink(rule) {
    const [page, anchor] = rule.split("#");
    const link = element("a", "vs-judge-rule", SITE.titles[rule] || anchor.replace(/-/g, " "));
    link.href = new URL(page.replace(/\.md$/, "") + "/#" + (anchor || ""), ROOT).href;
    return link;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function megabytes(bytes) {
    return (bytes / 1e6).toLocaleString(document.documentElement.lang || "en", { maximumFractionDigits: 1 });
  }

  /* What the first start downloads, said before it starts. */
  function downloadNote() {
    return SITE.download ? say("download", { mb: megabytes(SITE.download) }) : say("download-unknown");
  }

  /* The line of a `scenario.yaml:LINE: message`, selected in the editor (focused only if the reader was
   * there: a form's change keeps the focus where it was). */
  function markLine(area, message) {
    const found = /^scenario\.yaml:(\d+):/.exec(message);
    if (!found) return;
    const lines = area.value.split("\n");
    const line = Math.min(Number(found[1]), lines.length);
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    area.dataset.errorLine = String(line);
    const here = document.activeElement;
    if (here === area || here === document.body || (here && here.classList.contains("vs-judge-run"))) {
      area.focus({ preventScroll: true });
    }
    area.setSelectionRange(start, start + lines[line - 1].length);
  }

  function outcome(result) {
    const casualties = result.casualties || [];
    if (!casualties.length) return say("no-casualties");
    return say("casualties", { list: casualties.map((c) => `${c.model} (${say(c.removed)})`).join(", ") });
  }

  /* The outcome's table: each model of the units that lost anything, its wounds left and when it left. */
  function modelsTable(result, start) {
    const removed = Object.fromEntries((result.casualties || []).map((c) => [c.model, c.removed]));
    const touched = new Set(Object.keys(result.models || {}).filter((m) =>
      m in removed || (start[m] && result.models[m].wounds < start[m].wounds)).map((m) => start[m] && start[m].unit));
    const table = element("table", "vs-judge-models");
    const head = table.createTHead().insertRow();
    ["model", "unit", "wounds-left", "removed"].forEach((k) => {
      const th = element("th", "", say("col-" + k));
      th.scope = "col";
      head.append(th);
    });
    const body = table.createTBody();
    Object.entries(result.models || {}).forEach(([model, end]) => {
      const was = start[model] || { unit: "", wounds: end.wounds };
      if (!touched.has(was.unit)) return;
      const row = body.insertRow();
      const name = element("th", "", model);
      name.scope = "row";
      row.append(name);
      [was.unit, `${end.wounds} / ${was.wounds}`, model in removed ? say(removed[model]) : "—"]
        .forEach((cell) => { row.insertCell().textContent = cell; });
    });
    return body.rows.length ? table : element("span");
  }

  /* TEXT as nodes, each rule it mentions (core/damage.md#target-limit) a link reading as the rule's title. */
  function withTitles(text) {
    const nodes = [];
    let at = 0;
    for (const found of text.matchAll(RULE)) {
      nodes.push(document.createTextNode(text.slice(at, found.index)));
      nodes.push(ruleLink(`${found[1]}.md#${found[2]}`));
      at = found.index + found[0].length;
    }
    nodes.push(document.createTextNode(text.slice(at)));
    return nodes;
  }

  /* The account as steps: each trace entry's words and the rule it cites, by title, linked. */
  function steps(trace) {
    const list = element("ol", "vs-judge-steps");
    (trace || []).forEach((step) => {
      const item = element("li");
      item.append(...withTitles(step.text), " ");
      if (step.rule) {
        const cite = element("span", "vs-judge-cite", "(");
        cite.append(ruleLink(step.rule), ")");
        item.append(cite);
      }
      list.append(item);
    });
    return list;
  }

  // A number with `digits` decimals as the page's language writes it (Russian: the decimal comma, as
  // the engine's own Russian text does).
  function fixed(value, digits) {
    return value.toLocaleString(document.documentElement.lang || "en", {
      minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
    });
  }

  function percent(p) {
    if (p === 0) return "0%";
    if (p === 1) return "100%";
    const value = p * 100;
    if (value < 0.1) return "<" + fixed(0.1, 1) + "%";
    if (value > 99.9) return ">" + fixed(99.9, 1) + "%";
    return fixed(value, 1) + "%";
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svgNode(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attrs || {}).forEach(([k, v]) => node.setAttribute(k, String(v)));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The bar chart of one unit's casualties: "exactly" (each count's chance) or "atleast" (the chance of
   * that many or more), with each bar's figure written above it and, for sampled odds, its 95% interval. */
  function chart(unit, table, spans, mode) {
    const counts = Object.keys(table).map(Number).sort((a, b) => a - b);
    const exactly = counts.map((k) => table[String(k)]);
    const values = mode === "atleast" ? counts.map((k, i) => exactly.slice(i).reduce((s, p) => s + p, 0)) : exactly;
    const bar = 44, gap = 8, height = 150, top = 24, bottom = 40;
    const width = Math.max(240, counts.length * (bar + gap) + gap);
    const high = Math.max(...values, 0.0001);
    const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height + top + bottom}`, class: "vs-judge-chart-svg",
      role: "img", width, height: height + top + bottom });
    const words = mode === "atleast" ? "chart-atleast" : "chart-exactly";
    svg.append(svgNode("title", {}, say("chart-title", { unit })));
    counts.forEach((k, i) => {
      const x = gap + i * (bar + gap);
      const h = (values[i] / high) * height;
      const group = svgNode("g", { class: "vs-judge-chart-bar", "data-count": k, "data-chance": values[i] });
      group.append(svgNode("title", {}, say(words, { count: k, chance: percent(values[i]) })));
      group.append(svgNode("rect", { x, y: top + height - h, width: bar, height: Math.max(h, 1) }));
      if (spans && mode !== "atleast") {
        const [low, up] = spans[String(k)];
        const cx = x + bar / 2;
        group.append(svgNode("line", { class: "vs-judge-whisker", x1: cx, x2: cx,
          y1: top + height - (up / high) * height, y2: top + height - (low / high) * height }));
      }
      group.append(svgNode("text", { x: x + bar / 2, y: top + height - h - 6, class: "vs-judge-chart-value" },
        percent(values[i])));
      group.append(svgNode("text", { x: x + bar / 2, y: top + height + 18, class: "vs-judge-chart-count" },
        (mode === "atleast" ? "≥" : "") + k));
      svg.append(group);
    });
    svg.append(svgNode("text", { x: width / 2, y: top + height + 36, class: "vs-judge-chart-axis" },
      say("chart-axis", { unit })));
    return svg;
  }

  /* The odds panel: for every target unit, its chart, expected casualties and expected wounds (exact
   * or sampled), switchable between "exactly N" and "at least N"; sampled odds say so, with the trials. */
  function oddsView(data, holder, modeOf) {
    holder.replaceChildren();
    const sampled = data.method === "sampled";
    const what = element("p", "vs-judge-method", sampled
      ? say("sampled", { trials: data.trials.toLocaleString(document.documentElement.lang || "en"), seed: data.seed })
      : say("exact"));
    holder.append(what);
    const targets = data.targets && Object.keys(data.targets).length ? data.targets : { "": data };
    Object.entries(targets).forEach(([unit, odds]) => {
      const figure = element("figure", "vs-judge-chart");
      figure.dataset.unit = unit;
      const spans = sampled ? odds.intervals.casualties : null;
      figure.append(chart(unit, odds.casualties, spans, modeOf()));
      const caption = element("figcaption");
      let text = say("expected", { unit, value: fixed(odds.expected_casualties, 2) });
      if (sampled) {
        const [low, high] = odds.intervals.expected_casualties;
        text += " " + say("interval", { low: fixed(low, 2), high: fixed(high, 2) });
      }
      if (typeof odds.expected_wounds === "number") {  // exact ones too, unless beyond the wounds' limits
        text += "; " + say("expected-wounds", { value: fixed(odds.expected_wounds, 2) });
        if (sampled) {
          const [wl, wh] = odds.intervals.expected_wounds;
          text += " " + say("interval", { low: fixed(wl, 2), high: fixed(wh, 2) });
        }
      }
      caption.textContent = text;
      figure.append(caption);
      holder.append(figure);
    });
  }

  /* Models on the editor's board move by dragging, with a mouse, a pen or a finger (the board takes
   * the touch: touch-action none): the drop point, in inches (to half an inch), becomes the model's
   * `at` in the YAML (rulespy.render.web.move), and the situation is judged again. */
  function draggable(board, area, judgeAgain) {
    const svg = board.querySelector("svg[data-frame]");
    if (!svg) return;
    svg.style.touchAction = "none";
    const [x0, y1, scale] = svg.dataset.frame.split(" ").map(Number);
    const half = (value) => Math.round(value * 2) / 2;
    svg.querySelectorAll("g[data-model]").forEach((piece) => {
      piece.style.cursor = "grab";
      let from = null;
      const at = (event) => new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      piece.addEventListener("pointerdown", (event) => {
        from = at(event);
        piece.setPointerCapture(event.pointerId);
        event.preventDefault();
      });
      piece.addEventListener("pointermove", (event) => {
        if (!from) return;
        const now = at(event);
        piece.setAttribute("transform", `translate(${now.x - from.x} ${now.y - from.y})`);
      });
      const drop = async (event) => {
        if (!from) return;
        const base = piece.querySelector(".vs-base");
        const now = at(event);
        const cx = Number(base.getAttribute("cx")) + now.x - from.x;
        const cy = Number(base.getAttribute("cy")) + now.y - from.y;
        from = null;
        const web = await judge();
        area.value = await web.move(area.value, piece.dataset.model, half(x0 + cx / scale), half(y1 - cy / scale));
        judgeAgain();
      };
      piece.addEventListener("pointerup", drop);
      piece.addEventListener("pointercancel", () => { from = null; piece.removeAttribute("transform"); });
    });
  }

  /* Board labels stay at least 12 px on the screen, however small the drawing is shown (a phone): the
   * labels' size is set in the drawing's units, scaled back by how much the drawing was shrunk. */
  const labelSizes = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
    entries.forEach((entry) => {
      const svg = entry.target;
      const natural = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
      const shown = entry.contentRect.width;
      if (natural && shown) svg.style.setProperty("--vs-label-scale", String(Math.max(1, natural / shown)));
    });
  }) : null;
  function keepLabelsReadable(root) {
    if (labelSizes) root.querySelectorAll("svg.vs-board-svg").forEach((svg) => labelSizes.observe(svg));
  }

  /* One editor: the YAML, Run, Compare, the permalink, and what rulespy answers. */
  function editor(host, text, judged, options) {
    const settings = options || {};
    const panel = element("div", "vs-judge");
    const key = "vs-judge-" + (++boards);
    const label = element("label", "vs-judge-label", settings.label || say("yaml"));
    const area = element("textarea", "vs-judge-yaml");
    area.id = key + "-yaml";
    label.htmlFor = area.id;
    area.value = text;
    area.spellcheck = false;
    area.rows = Math.min(30, text.split("\n").length + 1);
    const bar = element("div", "vs-judge-bar");
    const run = element("button", "md-button md-button--primary vs-judge-run", say("run"));
    run.type = "button";
    const permalink = element("a", "vs-judge-permalink", say("permalink"));
    bar.append(run, permalink);
    const status = element("p", "vs-judge-status");
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    const progress = element("progress", "vs-judge-progress");
    progress.max = 4;
    progress.hidden = true;
    progress.setAttribute("aria-label", say("progress"));
    const board = element("div", "vs-judge-board");
    const summary = element("div", "vs-judge-summary");
    summary.setAttribute("aria-live", "polite");
    const result = element("p", "vs-judge-outcome");
    const table = element("div", "vs-judge-table");
    table.tabIndex = 0;
    summary.append(result, table);
    const stepsBox = element("div", "vs-judge-account-steps");
    const cli = element("details", "vs-judge-cli");
    cli.append(element("summary", "", say("as-printed")));
    const account = element("pre", "vs-judge-account");
    account.tabIndex = 0; // a box that may scroll is reachable from the keyboard
    cli.append(account);
    const oddsBox = element("div", "vs-judge-odds-view");
    const modes = element("fieldset", "vs-judge-modes");
    modes.append(element("legend", "", say("show")));
    let mode = "exactly";
    ["exactly", "atleast"].forEach((m) => {
      const choice = element("label", "vs-judge-mode-choice");
      const radio = element("input");
      radio.type = "radio";
      radio.name = key + "-mode";
      radio.value = m;
      radio.checked = m === mode;
      radio.addEventListener("change", () => { mode = m; if (lastOdds) oddsView(lastOdds, charts, () => mode); });
      choice.append(radio, " " + say("mode-" + m));
      modes.append(choice);
    });
    modes.hidden = true;
    const charts = element("div", "vs-judge-charts");
    const oddsCli = element("details", "vs-judge-cli");
    oddsCli.append(element("summary", "", say("as-printed-odds")));
    const odds = element("pre", "vs-judge-odds");
    odds.tabIndex = 0;
    oddsCli.append(odds);
    oddsBox.append(modes, charts);
    panel.append(label, area, bar, status, progress, summary, board, stepsBox, cli, oddsBox, oddsCli);
    host.append(panel);
    let lastOdds = null;
    let generation = 0;
    const self = { panel, area, run: null, expected: null, onJudged: null, permalink, key, linkOf: settings.linkOf };

    async function go() {
      const text = area.value;
      const mine = ++generation;
      const current = () => mine === generation;
      delete area.dataset.errorLine;
      panel.dataset.state = "running";
      status.className = "vs-judge-status";
      const starting = engine === null;
      status.textContent = starting ? say("loading", { download: downloadNote() }) : say("resolving");
      if (self.linkOf) permalink.href = await self.linkOf();
      else permalink.href = new URL("judge/#s=" + await encode(text), ROOT).href;
      let web;
      try {
        web = await judge((m) => {
          progress.hidden = m.progress >= m.steps;
          progress.value = m.progress;
          status.textContent = say("loading-" + m.stage, { download: downloadNote() });
        });
      } catch (error) {
        progress.hidden = true;
        status.textContent = say("no-start", { error: error.message });
        panel.dataset.state = "failed";
        return;
      }
      progress.hidden = true;
      if (!current()) return;
      const started = performance.now();
      let answer, drawn;
      try {
        answer = JSON.parse(await web.resolve(text, LANGUAGE));
        drawn = await web.board(text, key, LANGUAGE);
      } catch (error) {
        if (!current()) return;
        status.className = "vs-judge-status vs-judge-error";
        status.textContent = say("engine-error", { error: error.message });
        panel.dataset.state = "failed";
        return;
      }
      if (!current()) return;
      panel.dataset.resolveMs = String(performance.now() - started);
      board.innerHTML = drawn;
      keepLabelsReadable(board);
      draggable(board, area, go);
      if (judged) await judged(web, text);
      odds.textContent = "";
      charts.replaceChildren();
      modes.hidden = true;
      lastOdds = null;
      self.expected = null;
      if (answer.exit === 2) {
        status.className = "vs-judge-status vs-judge-error";
        status.textContent = answer.stderr.trim();
        result.textContent = "";
        table.replaceChildren();
        stepsBox.replaceChildren();
        account.textContent = "";
        markLine(area, answer.stderr);
        panel.dataset.state = "malformed";
        if (self.onJudged) self.onJudged();
        return;
      }
      const data = JSON.parse(answer.json);
      account.innerHTML = linked(answer.account);
      panel.dataset.json = answer.json;
      if (answer.exit === 1) {
        status.className = "vs-judge-status vs-judge-error";
        status.innerHTML = say("illegal", { message: escapeHtml(data.error.message), rule: linked(data.error.rule) });
        status.querySelectorAll("a").forEach((a) => {
          const title = SITE.titles[a.textContent];
          if (title) a.textContent = title; // the rule by its title; its path stays in the address
        });
        result.textContent = "";
        table.replaceChildren();
        stepsBox.replaceChildren();
        panel.dataset.state = "illegal";
        if (self.onJudged) self.onJudged();
        return;
      }
      status.textContent = say("computing");
      result.textContent = outcome(data);
      table.replaceChildren(modelsTable(data, answer.start || {}));
      stepsBox.replaceChildren(steps(data.trace));
      panel.dataset.state = "resolved";
      const oddsStarted = performance.now();
      let exact;
      try {
        exact = JSON.parse(await web.odds(text, LANGUAGE));
      } catch (error) {
        if (!current()) return;
        status.textContent = say("engine-error", { error: error.message });
        panel.dataset.state = "done";
        return;
      }
      if (!current()) return;
      panel.dataset.oddsMs = String(performance.now() - oddsStarted);
      odds.textContent = exact.exit === 0 ? exact.text : exact.stderr.trim();
      if (exact.exit === 0) {
        lastOdds = JSON.parse(exact.json);
        panel.dataset.method = lastOdds.method;
        modes.hidden = false;
        oddsView(lastOdds, charts, () => mode);
        self.expected = lastOdds.targets || {};
        status.textContent = say(lastOdds.method === "sampled" ? "done-sampled" : "done");
      } else {
        status.textContent = say("done-no-odds");
      }
      panel.dataset.state = "done";
      if (self.onJudged) self.onJudged();
    }

    let typing = null;
    area.addEventListener("input", () => { // judged once the reader stops typing, not per key
      clearTimeout(typing);
      typing = setTimeout(go, DEBOUNCE_MS);
    });
    run.addEventListener("click", () => { clearTimeout(typing); go(); });
    self.run = go;
    return self;
  }

  /* A comparison: a second editor beside EDITOR, on TEXT (or the same scenario), and the difference in
   * expected casualties for each target unit; both are in the permalink (#s=A&c=B). */
  function compare(host, first, text) {
    const pair = element("div", "vs-judge-compare");
    const difference = element("p", "vs-judge-difference");
    difference.setAttribute("aria-live", "polite");
    const left = first.panel;
    left.replaceWith(pair);
    const a = element("div", "vs-judge-side");
    const b = element("div", "vs-judge-side");
    a.append(element("h3", "", say("situation-a")), left);
    pair.append(a, b);
    pair.after(difference);
    const link = async () => {
      const one = await encode(first.area.value), two = await encode(second.area.value);
      return new URL(`judge/#s=${one}&c=${two}`, ROOT).href;
    };
    const second = editor(b, text === undefined ? first.area.value : text, null, { label: say("yaml-b"), linkOf: link });
    b.prepend(element("h3", "", say("situation-b")));
    const differ = () => {
      link().then((href) => { first.permalink.href = href; second.permalink.href = href; });
      const one = first.expected, two = second.expected;
      if (!one || !two) { difference.textContent = ""; return; }
      const parts = Object.keys(one).filter((u) => u in two).map((unit) => {
        const delta = two[unit].expected_casualties - one[unit].expected_casualties;
        return say("difference", { unit, value: (delta >= 0 ? "+" : "") + fixed(delta, 2) });
      });
      difference.textContent = parts.join(" ");
    };
    first.onJudged = differ;
    second.onJudged = differ;
    first.linkOf = link;
    pair.dataset.compare = "1";
    return { pair, second, link };
  }

  function compareButton(host, first, onOpen) {
    const button = element("button", "md-button vs-judge-compare-button", say("compare"));
    button.type = "button";
    button.addEventListener("click", async () => {
      button.remove();
      const opened = compare(host, first);
      first.permalink.href = await opened.link();
      if (onOpen) onOpen(opened);
      await Promise.all([first.run(), opened.second.run()]);
    });
    first.panel.querySelector(".vs-judge-bar").append(button);
    return button;
  }

  function tryIt(box) {
    const button = element("button", "md-button vs-try-button", say("try"));
    button.type = "button";
    button.title = say("try-title");
    const note = element("span", "vs-try-note", " " + (engine ? "" : downloadNote()));
    box.append(button, note);
    button.addEventListener("click", async () => {
      button.remove();
      note.remove();
      const opened = editor(box, await decode(box.dataset.scenario));
      compareButton(box, opened);
      opened.run();
    });
  }

  function enhance() {
    keepLabelsReadable(document);
    document.querySelectorAll(".vs-try[data-scenario]:not([data-ready])").forEach((box) => {
      box.dataset.ready = "1";
      tryIt(box);
    });
    const hosts = document.querySelectorAll(".vs-judge-page:not([data-ready])");
    hosts.forEach((host) => { host.dataset.ready = "1"; });
    if (hosts.length) { // the Judge page's forms: their script loads on that page only
      const forms = window.vsJudgePage ? Promise.resolve() : new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = new URL("assets/judge-page.js", ROOT).href;
        script.onload = resolve;
        script.onerror = () => reject(new Error("cannot load judge-page.js"));
        document.head.appendChild(script);
      });
      forms.then(() => hosts.forEach((host) => window.vsJudgePage(host)));
    }
  }

  const started = () => { try { return engine !== null || localStorage.getItem(STARTED) === "1"; } catch (e) { return engine !== null; } };
  window.vsJudge = {
    encode, decode, judge, editor, compare, compareButton, element, say, downloadNote, started, ROOT,
    get boots() { return boots; },
  };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(enhance);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }
})();
