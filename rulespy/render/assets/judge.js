/* The rules judge: rulespy itself, in Pyodide, on the reader's own scenario.
 *
 * Every worked example carries <div class="vs-try" data-scenario="CODE">, CODE being its scenario YAML
 * packed as raw DEFLATE + base64url (rulespy.render.web.encode). "Try it" opens an editor on that YAML
 * (dice included); Run hands the text to rulespy.render.web (resolve, odds, board), which runs the
 * command line's own code, and shows the outcome, the account with each cited rule linked, and the
 * exact odds. The Judge page (judge/) holds the same editor, restores a situation from the address
 * (#s=CODE) and starts from an empty board or any published scenario.
 *
 * The Judge page's forms are judge-page.js, loaded on that page only (rule pages stay light).
 *
 * Its words come from the page: assets/judge-words.js (written by rulespy render for each edition from
 * rulespy/render/languages.py's WORDS) sets window.vsJudgeSite = {words, runtime}; the engine's account
 * stays as the engine prints it.
 *
 * Nothing heavy loads with a page: Pyodide (judge/pyodide/, copied from its npm package by the build)
 * and rulespy (judge/rulespy.zip) are fetched the first time a reader presses Try it or opens the Judge
 * page. A translation's site (/ru/) uses the English site's runtime folder (its runtime: "../judge/").
 */
(function () {
  "use strict";
  const ROOT = new URL("../", document.currentScript.src);
  const SITE = window.vsJudgeSite || { runtime: "judge/", words: {} };
  const RUNTIME = new URL(SITE.runtime, ROOT);
  const RULE = /\b((?:core|sequences|timing|commands)\/[\w-]+)\.md#([\w-]+)/g;
  let engine = null;

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error("cannot load " + src));
      document.head.appendChild(script);
    });
  }

  /* Start Pyodide and import rulespy once per page; every editor shares it. */
  function judge() {
    if (engine === null) {
      engine = (async () => {
        const started = performance.now();
        await loadScript(new URL("pyodide/pyodide.js", RUNTIME).href);
        const py = await window.loadPyodide({ indexURL: new URL("pyodide/", RUNTIME).href });
        const bundle = await fetch(new URL("rulespy.zip", RUNTIME));
        if (!bundle.ok) throw new Error("cannot load rulespy.zip: HTTP " + bundle.status);
        py.unpackArchive(await bundle.arrayBuffer(), "zip", { extractDir: "/judge/lib" });
        py.runPython("import sys; sys.path.insert(0, '/judge/lib')");
        const web = py.pyimport("rulespy.render.web");
        window.vsJudgeLoadMs = performance.now() - started;
        return web;
      })();
      engine.catch(() => { engine = null; });
    }
    return engine;
  }

  async function bytesOf(stream) {
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  async function decode(code) {
    const text = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
    const packed = Uint8Array.from(text, (c) => c.charCodeAt(0));
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new TextDecoder().decode(await bytesOf(stream));
  }

  async function encode(text) {
    const stream = new Blob([new TextEncoder().encode(text)]).stream()
      .pipeThrough(new CompressionStream("deflate-raw"));
    const packed = await bytesOf(stream);
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

  function escapeHtml(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }

  /* Text with every cited rule (core/damage.md#target-limit) as a link to its page and anchor. */
  function linked(text) {
    return escapeHtml(text).replace(RULE, (all, page, anchor) =>
      `<a href="${new URL(page + "/#" + anchor, ROOT).href}">${all}</a>`);
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /* The line of a `scenario.yaml:LINE: message`, selected in the editor. */
  function markLine(area, message) {
    const found = /^scenario\.yaml:(\d+):/.exec(message);
    if (!found) return;
    const lines = area.value.split("\n");
    const line = Math.min(Number(found[1]), lines.length);
    const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
    area.dataset.errorLine = String(line);
    area.focus();
    area.setSelectionRange(start, start + lines[line - 1].length);
  }

  function outcome(result) {
    const casualties = result.casualties || [];
    if (!casualties.length) return say("no-casualties");
    return say("casualties", { list: casualties.map((c) => `${c.model} (${say(c.removed)})`).join(", ") });
  }

  /* Models on the editor's board move by dragging: the drop point, in inches (rounded to half an inch),
   * becomes the model's `at` in the YAML (rulespy.render.web.move), and the situation is judged again. */
  function draggable(board, area, web, judgeAgain) {
    const svg = board.querySelector("svg[data-frame]");
    if (!svg) return;
    const [x0, y1, scale] = svg.dataset.frame.split(" ").map(Number);
    const half = (value) => Math.round(value * 2) / 2;
    svg.querySelectorAll("g[data-model]").forEach((piece) => {
      piece.style.cursor = "grab";
      piece.style.touchAction = "none";
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
      piece.addEventListener("pointerup", (event) => {
        if (!from) return;
        const base = piece.querySelector(".vs-base");
        const now = at(event);
        const cx = Number(base.getAttribute("cx")) + now.x - from.x;
        const cy = Number(base.getAttribute("cy")) + now.y - from.y;
        from = null;
        area.value = web.move(area.value, piece.dataset.model, half(x0 + cx / scale), half(y1 - cy / scale));
        judgeAgain();
      });
    });
  }

  /* One editor: the YAML, Run, the permalink, and what rulespy answers. */
  function editor(host, text, judged) {
    const panel = element("div", "vs-judge");
    const area = element("textarea", "vs-judge-yaml");
    area.value = text;
    area.spellcheck = false;
    area.rows = Math.min(30, text.split("\n").length + 1);
    area.setAttribute("aria-label", say("yaml"));
    const bar = element("div", "vs-judge-bar");
    const run = element("button", "md-button md-button--primary vs-judge-run", say("run"));
    run.type = "button";
    const permalink = element("a", "vs-judge-permalink", say("permalink"));
    bar.append(run, permalink);
    const status = element("p", "vs-judge-status");
    status.setAttribute("role", "status");
    const board = element("div", "vs-judge-board");
    const result = element("p", "vs-judge-outcome");
    const account = element("pre", "vs-judge-account");
    const odds = element("pre", "vs-judge-odds");
    panel.append(area, bar, status, board, result, account, odds);
    host.append(panel);

    async function go() {
      const text = area.value;
      delete area.dataset.errorLine;
      panel.dataset.state = "running";
      status.className = "vs-judge-status";
      status.textContent = say(engine ? "resolving" : "loading");
      permalink.href = new URL("judge/#s=" + await encode(text), ROOT).href;
      let web;
      try {
        web = await judge();
      } catch (error) {
        status.textContent = say("no-start", { error: error.message });
        panel.dataset.state = "failed";
        return;
      }
      const started = performance.now();
      const answer = JSON.parse(web.resolve(text));
      panel.dataset.resolveMs = String(performance.now() - started);
      board.innerHTML = web.board(text);
      draggable(board, area, web, go);
      if (judged) judged(web, text);
      odds.textContent = "";
      if (answer.exit === 2) {
        status.className = "vs-judge-status vs-judge-error";
        status.textContent = answer.stderr.trim();
        result.textContent = "";
        account.textContent = "";
        markLine(area, answer.stderr);
        panel.dataset.state = "malformed";
        return;
      }
      const data = JSON.parse(answer.json);
      account.innerHTML = linked(answer.account);
      panel.dataset.json = answer.json;
      if (answer.exit === 1) {
        status.className = "vs-judge-status vs-judge-error";
        status.innerHTML = say("illegal", { message: escapeHtml(data.error.message), rule: linked(data.error.rule) });
        result.textContent = "";
        panel.dataset.state = "illegal";
        return;
      }
      status.textContent = say("computing");
      result.textContent = outcome(data);
      panel.dataset.state = "resolved";
      await new Promise((resolve) => setTimeout(resolve, 0)); // paint the account before the odds
      const oddsStarted = performance.now();
      const exact = JSON.parse(web.odds(text));
      panel.dataset.oddsMs = String(performance.now() - oddsStarted);
      odds.textContent = exact.exit === 0 ? exact.text : exact.stderr.trim();
      status.textContent = say("done");
      panel.dataset.state = "done";
    }
    run.addEventListener("click", () => { go(); });
    return { panel, area, run: go };
  }

  function tryIt(box) {
    const button = element("button", "md-button vs-try-button", say("try"));
    button.type = "button";
    button.title = say("try-title");
    box.append(button);
    button.addEventListener("click", async () => {
      button.remove();
      editor(box, await decode(box.dataset.scenario)).run();
    });
  }

  function enhance() {
    document.querySelectorAll(".vs-try[data-scenario]:not([data-ready])").forEach((box) => {
      box.dataset.ready = "1";
      tryIt(box);
    });
    const hosts = document.querySelectorAll(".vs-judge-page:not([data-ready])");
    hosts.forEach((host) => { host.dataset.ready = "1"; });
    if (hosts.length) { // the Judge page's forms: their script loads on that page only
      const forms = window.vsJudgePage ? Promise.resolve() : loadScript(new URL("assets/judge-page.js", ROOT).href);
      forms.then(() => hosts.forEach((host) => window.vsJudgePage(host)));
    }
  }

  window.vsJudge = { encode, decode, judge, editor, element, say, ROOT };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(enhance);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }
})();
