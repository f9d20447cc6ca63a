/* The rules judge: rulespy itself, in Pyodide, on the reader's own scenario.
 *
 * Every worked example carries <div class="vs-try" data-scenario="CODE">, CODE being its scenario YAML
 * packed as raw DEFLATE + base64url (rulespy.render.web.encode). "Try it" opens an editor on that YAML
 * (dice included); Run hands the text to rulespy.render.web (resolve, odds, board), which runs the
 * command line's own code, and shows the outcome, the account with each cited rule linked, and the
 * exact odds. The Judge page (judge/) holds the same editor, restores a situation from the address
 * (#s=CODE) and starts from an empty board or any published scenario.
 *
 * Nothing heavy loads with a page: Pyodide (judge/pyodide/, copied from its npm package by the build)
 * and rulespy (judge/rulespy.zip) are fetched the first time a reader presses Try it or Run.
 */
(function () {
  "use strict";
  const ROOT = new URL("../", document.currentScript.src);
  const RUNTIME = new URL("judge/", ROOT);
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
    if (!casualties.length) return "Outcome: no casualties.";
    const when = { immediate: "removed at once", end_of_attack: "removed at the end of the attack",
      end_of_firefight: "removed at the end of the firefight" };
    return "Outcome: casualties " +
      casualties.map((c) => `${c.model} (${when[c.removed] || c.removed})`).join(", ") + ".";
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
  function editor(host, text) {
    const panel = element("div", "vs-judge");
    const area = element("textarea", "vs-judge-yaml");
    area.value = text;
    area.spellcheck = false;
    area.rows = Math.min(30, text.split("\n").length + 1);
    area.setAttribute("aria-label", "Scenario (YAML, as rulespy resolve reads it)");
    const bar = element("div", "vs-judge-bar");
    const run = element("button", "md-button md-button--primary vs-judge-run", "Run");
    run.type = "button";
    const permalink = element("a", "vs-judge-permalink", "Link to this ruling");
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
      status.textContent = engine ? "Resolving…" : "Loading the rules engine (the first time only)…";
      permalink.href = new URL("judge/#s=" + await encode(text), ROOT).href;
      let web;
      try {
        web = await judge();
      } catch (error) {
        status.textContent = "The rules engine could not start: " + error.message;
        panel.dataset.state = "failed";
        return;
      }
      const started = performance.now();
      const answer = JSON.parse(web.resolve(text));
      panel.dataset.resolveMs = String(performance.now() - started);
      board.innerHTML = web.board(text);
      draggable(board, area, web, go);
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
        status.innerHTML = "Illegal declaration: " + escapeHtml(data.error.message) +
          " (the rule it breaks: " + linked(data.error.rule) + ")";
        result.textContent = "";
        panel.dataset.state = "illegal";
        return;
      }
      status.textContent = "Resolved by rulespy. Computing the exact odds…";
      result.textContent = outcome(data);
      panel.dataset.state = "resolved";
      await new Promise((resolve) => setTimeout(resolve, 0)); // paint the account before the odds
      const oddsStarted = performance.now();
      const exact = JSON.parse(web.odds(text));
      panel.dataset.oddsMs = String(performance.now() - oddsStarted);
      odds.textContent = exact.exit === 0 ? exact.text : exact.stderr.trim();
      status.textContent = "Resolved by rulespy, with the exact odds over every die.";
      panel.dataset.state = "done";
    }
    run.addEventListener("click", () => { go(); });
    return { panel, area, run: go };
  }

  function tryIt(box) {
    const button = element("button", "md-button vs-try-button", "Try it");
    button.type = "button";
    button.title = "Edit this example's scenario and dice, and let the rules engine judge it";
    box.append(button);
    button.addEventListener("click", async () => {
      button.remove();
      editor(box, await decode(box.dataset.scenario)).run();
    });
  }

  function field(label, input) {
    const wrap = element("label", "vs-judge-field", label + " ");
    wrap.append(input);
    return wrap;
  }

  function input(value, size) {
    const node = element("input");
    node.value = value;
    node.size = size;
    return node;
  }

  /* The Judge page's form: add a model (to a unit, or a new unit of a side, with a weapon from the
   * library), and roll seeded random dice; each change is written into the YAML and judged again. */
  function tools(host, editorOf) {
    const library = JSON.parse(host.dataset.library || "{}");
    const form = element("fieldset", "vs-judge-tools");
    form.append(element("legend", "", "Add a model, roll the dice"));
    const unit = input("targets", 10);
    const side = element("select");
    ["blue", "red"].forEach((name) => side.append(new Option(name, name, name === "red", name === "red")));
    const x = input("12", 4);
    const y = input("2", 4);
    const weapon = element("select");
    weapon.append(new Option("no weapon", ""));
    Object.keys(library).forEach((name) => {
      const p = library[name];
      weapon.append(new Option(`${name} (range ${p.range}, ${p.dice} dice, lock ${p.lock}+, damage ${p.damage})`, name));
    });
    const add = element("button", "md-button vs-judge-add", "Add the model");
    add.type = "button";
    const seed = input("", 6);
    seed.placeholder = "random";
    const rollIt = element("button", "md-button vs-judge-roll", "Roll seeded dice");
    rollIt.type = "button";
    form.append(field("unit", unit), field("side (for a new unit)", side), field("x", x), field("y", y),
      field("weapon", weapon), add, element("br"), field("seed", seed), rollIt);
    add.addEventListener("click", async () => {
      const web = await judge();
      const editor = editorOf();
      const name = weapon.value;
      const answer = web.add_model(editor.area.value, unit.value.trim() || "targets", side.value,
        Number(x.value) || 0, Number(y.value) || 0, name, name ? JSON.stringify(library[name]) : "");
      if (answer.startsWith("scenario.yaml:")) return editor.run();
      editor.area.value = answer;
      editor.run();
    });
    rollIt.addEventListener("click", async () => {
      const web = await judge();
      const editor = editorOf();
      const typed = parseInt(seed.value, 10);
      const value = Number.isNaN(typed) ? Math.floor(Math.random() * 1000000) : typed;
      editor.area.value = web.roll(editor.area.value, value);
      editor.run();
    });
    return form;
  }

  async function judgePage(host) {
    const choose = host.querySelector("select");
    const slot = element("div", "vs-judge-slot");
    let current = null;
    host.append(tools(host, () => current), slot);
    async function open(text, runIt) {
      if (current) current.panel.remove();
      current = editor(slot, text);
      if (runIt) await current.run();
    }
    choose.addEventListener("change", async () => {
      const option = choose.selectedOptions[0];
      if (!option.value) return open(await decode(host.dataset.empty), false);
      const answer = await fetch(new URL(option.value, ROOT));
      open(await answer.text(), true);
    });
    const code = /(?:^#|&)s=([\w-]+)/.exec(location.hash);
    if (code) return open(await decode(code[1]), true);
    return open(await decode(host.dataset.empty), false);
  }

  function enhance() {
    document.querySelectorAll(".vs-try[data-scenario]:not([data-ready])").forEach((box) => {
      box.dataset.ready = "1";
      tryIt(box);
    });
    document.querySelectorAll(".vs-judge-page:not([data-ready])").forEach((host) => {
      host.dataset.ready = "1";
      judgePage(host);
    });
  }

  window.vsJudge = { encode, decode, judge };
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(enhance);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", enhance);
  } else {
    enhance();
  }
})();
