/* The rules judge: rulespy itself, in Pyodide, on the reader's own scenario.
 *
 * Every worked example carries <div class="vs-try" data-scenario="CODE">, CODE being its scenario YAML
 * packed as raw DEFLATE + base64url (rulespy.render.web.encode). "Try it" opens an editor on that YAML
 * (dice included); Run hands the text to rulespy.render.web (resolve, odds, board), which runs the
 * command line's own code, and shows the outcome, the account with each cited rule linked, and the
 * exact odds. The Judge page (judge/) holds the same editor, restores a situation from the address
 * (#s=CODE) and starts from an empty board or any published scenario.
 *
 * The Judge page's forms (declare the attack, move a model, add a model with a weapon from the library
 * or typed in, roll seeded, scripted or random dice) are filled from the YAML after every judgement
 * (rulespy.render.web.form) and write each change back into it through rulespy.render.web (declare,
 * move, weapon, add_model, roll, script), which is then judged again.
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

  function field(label, control) {
    const wrap = element("label", "vs-judge-field", label + " ");
    wrap.append(control);
    return wrap;
  }

  function input(className, value, size) {
    const node = element("input", className);
    node.value = value;
    node.size = size;
    return node;
  }

  function button(className, label) {
    const node = element("button", "md-button " + className, say(label));
    node.type = "button";
    return node;
  }

  function select(className, options, chosen) {
    const node = element("select", className);
    options.forEach(([value, label]) => node.append(new Option(label, value, false, value === chosen)));
    return node;
  }

  function fieldset(className, legend) {
    const node = element("fieldset", "vs-judge-tools " + className);
    node.append(element("legend", "", say(legend)));
    return node;
  }

  /* The Judge page's forms. Each change is written into the YAML by rulespy.render.web and judged again
   * (change(web, text) returns the new text); after each judgement, fill(web, text) reads the YAML back
   * (rulespy.render.web.form) into the declaration and move forms. */
  function tools(host, editorOf) {
    const library = JSON.parse(host.dataset.library || "{}");
    let known = { commands: [], units: [], weapons: {}, attack: {} };
    const holder = element("div", "vs-judge-forms");

    async function change(edit) {
      const web = await judge();
      const editor = editorOf();
      editor.area.value = edit(web, editor.area.value);
      await editor.run();
    }

    /* Declare the attack: the command (the loader's list), the firing unit, the target and its mark,
     * and for a split (core/shooting.md#split-target) each weapon's own target and its mark. */
    const declaring = fieldset("vs-judge-declare", "declare-legend");
    function declared() {
      const get = (selector) => declaring.querySelector(selector).value;
      const split = {};
      if (get(".vs-judge-firing") === known.attack.unit) { // another firing unit starts with no split
        declaring.querySelectorAll("select.vs-judge-split").forEach((node) => {
          if (node.value !== "*") split[node.dataset.pair] = node.value;
        });
      }
      const marks = {};
      declaring.querySelectorAll("select.vs-judge-mark").forEach((node) => { marks[node.dataset.unit] = node.value; });
      const main = get(".vs-judge-main");
      [main, ...Object.values(split)].filter((u) => u && !(u in marks)).forEach((unit) => {
        const models = (known.units.find((u) => u.id === unit) || { models: [] }).models;
        marks[unit] = models.length ? models[0].id : "";
      });
      return (web, text) => web.declare(text, get(".vs-judge-firing"), get(".vs-judge-command"), main,
        JSON.stringify(marks), JSON.stringify(split));
    }
    function fillDeclaration() {
      declaring.querySelectorAll(":scope > :not(legend)").forEach((node) => node.remove());
      const attack = known.attack || {};
      const units = known.units.map((u) => [u.id, u.id]);
      const commands = known.commands.map((c) => [c, c]);
      if (attack.command && !known.commands.includes(attack.command)) commands.push([attack.command, attack.command]);
      const firing = known.units.find((u) => u.id === attack.unit) || known.units[0] || { id: "", models: [] };
      const others = units.filter(([id]) => id !== firing.id);
      // every unit may be chosen as the target: the engine refuses an illegal one with its rule
      declaring.append(
        field(say("command"), select("vs-judge-command", commands, attack.command)),
        field(say("firing"), select("vs-judge-firing", units, firing.id)),
        field(say("target"), select("vs-judge-main", units, attack.main)));
      const main = declaring.querySelector(".vs-judge-main").value;
      const split = attack.split || {};
      const choices = [["*", say("main")], ...others, ["", say("nowhere")]];
      firing.models.forEach((model) => model.weapons.forEach((name) => {
        const pair = `${model.id}/${name}`;
        const chosen = pair in split ? split[pair] : "*";
        const node = select("vs-judge-split", choices, chosen);
        node.dataset.pair = pair;
        declaring.append(element("br"), field(say("fires-at", { weapon: pair }), node));
      }));
      const targets = [main, ...Object.values(split)].filter((u, i, all) => u && u !== "*" && all.indexOf(u) === i);
      targets.forEach((unit) => {
        const models = (known.units.find((u) => u.id === unit) || { models: [] }).models;
        const chosen = (attack.marks || {})[unit];
        const node = select("vs-judge-mark", models.map((m) => [m.id, m.id]), chosen);
        node.dataset.unit = unit;
        declaring.append(element("br"), field(say("mark", { unit }), node));
      });
    }
    declaring.addEventListener("change", () => { change(declared()); });

    /* Move a model by typing where it stands: the same web.move the drag on the board uses. */
    const moving = fieldset("vs-judge-moving", "move-legend");
    const model = element("select", "vs-judge-model");
    const moveX = input("vs-judge-x", "", 5);
    const moveY = input("vs-judge-y", "", 5);
    const moveIt = button("vs-judge-move", "move");
    moving.append(field(say("model"), model), field(say("x"), moveX), field(say("y"), moveY), moveIt);
    const models = () => known.units.flatMap((u) => u.models);
    function showPosition() {
      const found = models().find((m) => m.id === model.value);
      const at = found && Array.isArray(found.at) ? found.at : ["", ""];
      moveX.value = String(at[0]);
      moveY.value = String(at[1]);
    }
    function fillMove() {
      const chosen = model.value;
      model.replaceChildren(...models().filter((m) => Array.isArray(m.at)).map((m) => new Option(m.id, m.id)));
      if (models().some((m) => m.id === chosen)) model.value = chosen;
      showPosition();
    }
    model.addEventListener("change", showPosition);
    moveIt.addEventListener("click", () => {
      change((web, text) => web.move(text, model.value, Number(moveX.value) || 0, Number(moveY.value) || 0));
    });

    /* Add a model, with a weapon from the library or typed in (the scenario format's weapon keys). */
    const adding = fieldset("vs-judge-adding", "add-legend");
    const unit = input("vs-judge-unit", "targets", 10);
    const side = select("vs-judge-side", [["blue", "blue"], ["red", "red"]], "red");
    const addX = input("vs-judge-add-x", "12", 4);
    const addY = input("vs-judge-add-y", "2", 4);
    const preset = select("vs-judge-library", [["", say("typed")], ...Object.keys(library).map((name) => {
      const p = library[name];
      return [name, say("profile", { name, range: p.range, dice: p.dice, lock: p.lock, damage: p.damage })];
    })], "");
    const keys = ["range", "dice", "lock", "damage", "traits"];
    const weaponName = input("vs-judge-weapon", "", 10);
    const typed = Object.fromEntries(keys.map((key) => [key, input("vs-judge-" + key, "", key === "traits" ? 16 : 4)]));
    preset.addEventListener("change", () => {
      const p = library[preset.value] || {};
      weaponName.value = preset.value;
      keys.forEach((key) => { typed[key].value = p[key] === undefined ? "" : [].concat(p[key]).join(", "); });
    });
    const profile = () => JSON.stringify(Object.fromEntries(keys.map((key) => [key, typed[key].value])));
    const writeWeapon = button("vs-judge-write-weapon", "write-weapon");
    const add = button("vs-judge-add", "add");
    adding.append(field(say("library"), preset), element("br"), field(say("weapon"), weaponName),
      ...keys.map((key) => field(say(key), typed[key])), writeWeapon, element("br"),
      field(say("unit"), unit), field(say("side"), side), field(say("x"), addX), field(say("y"), addY), add);
    writeWeapon.addEventListener("click", () => {
      if (weaponName.value.trim()) change((web, text) => web.weapon(text, weaponName.value.trim(), profile()));
    });
    add.addEventListener("click", () => {
      const name = weaponName.value.trim();
      change((web, text) => {
        const armed = name && typed.range.value.trim() ? web.weapon(text, name, profile()) : text;
        const answer = web.add_model(armed, unit.value.trim() || "targets", side.value,
          Number(addX.value) || 0, Number(addY.value) || 0, name, "");
        return answer.startsWith("scenario.yaml:") ? text : answer;
      });
    });

    /* Roll: seeded (the seed typed, or a random one, written down so the permalink replays it) or
     * scripted (the dice typed, in Dice Order). */
    const rolling = fieldset("vs-judge-rolling", "roll-legend");
    const mode = select("vs-judge-mode", ["seeded", "scripted", "random"].map((m) => [m, say(m)]), "seeded");
    const typedDice = input("vs-judge-typed-dice", "", 16);
    typedDice.placeholder = say("seed");
    mode.addEventListener("change", () => {
      typedDice.placeholder = mode.value === "scripted" ? say("faces") : say("seed");
      typedDice.disabled = mode.value === "random";
    });
    const rollIt = button("vs-judge-roll", "roll");
    rolling.append(mode, typedDice, rollIt);
    rollIt.addEventListener("click", () => {
      if (mode.value === "scripted") return change((web, text) => web.script(text, typedDice.value));
      const typedSeed = parseInt(typedDice.value, 10);
      const seed = mode.value === "seeded" && !Number.isNaN(typedSeed) ? typedSeed : Math.floor(Math.random() * 1000000);
      return change((web, text) => web.roll(text, seed));
    });

    holder.append(declaring, moving, adding, rolling);
    function fill(web, text) {
      const read = JSON.parse(web.form(text));
      if (read.error) return;
      known = read;
      fillDeclaration();
      fillMove();
    }
    return { holder, fill };
  }

  async function judgePage(host) {
    const choose = host.querySelector("select");
    const slot = element("div", "vs-judge-slot");
    let current = null;
    const forms = tools(host, () => current);
    host.append(forms.holder, slot);
    async function open(text) {
      if (current) current.panel.remove();
      current = editor(slot, text, forms.fill);
      await current.run();
    }
    choose.addEventListener("change", async () => {
      const option = choose.selectedOptions[0];
      if (!option.value) return open(await decode(host.dataset.empty));
      const answer = await fetch(new URL(option.value, ROOT));
      return open(await answer.text());
    });
    const code = /(?:^#|&)s=([\w-]+)/.exec(location.hash);
    return open(await decode(code ? code[1] : host.dataset.empty));
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
