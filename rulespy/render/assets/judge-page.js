/* The Judge page (judge/): the editor of judge.js with forms around it, loaded by judge.js on that page
 * only. The forms (declare the attack, move a model, add a model with a weapon from the library or typed
 * in, roll seeded, scripted or random dice) are filled from the YAML after every judgement
 * (rulespy.render.web.form) and write each change back into it through rulespy.render.web (declare,
 * move, weapon, add_model, roll, script), which is then judged again. A form writes only what the reader
 * chose or typed: a number field that holds no number says so and nothing is written, and a name the YAML
 * gives wrongly is offered as written. Their words come from the page (window.vsJudgeSite, as for
 * judge.js).
 *
 * Every call of rulespy.render.web runs in judge.js's Web Worker and returns a Promise. A reader who
 * changes a form keeps the focus where it was (the forms are filled again from the YAML after each
 * judgement, and the control that had the focus gets it back); a list changed with the arrow keys is
 * judged once the reader stops (DEBOUNCE_MS), not per key. The engine starts by itself only for a
 * reader whose browser fetched it before (judge.js's started()); anyone else is first told how much it
 * downloads and starts it with a button. A link that does not decode (cut short, or unpacking to more
 * than the loader accepts) says so above the starting board.
 */
(function () {
  "use strict";
  const { decode, judge, editor, compare, compareButton, element, say, downloadNote, started, ROOT } = window.vsJudge;
  const DEBOUNCE_MS = 400;

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

  /* The number typed in NODE ("12.5", or "12,5" as a Russian reader writes it; a WHOLE one when asked),
   * or null once the field has said why not: a form never writes a value the reader did not type. */
  function typedNumber(node, whole) {
    const text = node.value.trim().replace(",", ".");
    const value = text === "" ? NaN : Number(text);
    const ok = Number.isFinite(value) && (!whole || Number.isInteger(value));
    node.setCustomValidity(ok ? "" : say("not-a-number", { value: node.value }));
    if (!ok) node.reportValidity();
    return ok ? value : null;
  }

  /* OPTIONS with VALUE, as written in the YAML, added when it is none of them (a unit, a model or a
   * command the scenario names wrongly): the form shows it and declaring again keeps it, for the loader
   * or the engine to refuse with its line or rule, rather than putting another in its place. */
  function kept(options, value) {
    return value && !options.some(([known]) => known === value) ? [...options, [value, value]] : options;
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
      const answer = await edit(web, editor.area.value);
      if (answer !== null && !answer.startsWith("scenario.yaml:")) editor.area.value = answer; // else Run says why
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
      const commands = kept(known.commands.map((c) => [c, c]), attack.command);
      const named = attack.unit ? { id: attack.unit, models: [] } : known.units[0]; // a unit the YAML lacks, kept
      const firing = known.units.find((u) => u.id === attack.unit) || named || { id: "", models: [] };
      const others = units.filter(([id]) => id !== firing.id);
      // every unit may be chosen as the target: the engine refuses an illegal one with its rule
      declaring.append(
        field(say("command"), select("vs-judge-command", commands, attack.command)),
        field(say("firing"), select("vs-judge-firing", kept(units, firing.id), firing.id)),
        field(say("target"), select("vs-judge-main", kept(units, attack.main), attack.main)));
      const main = declaring.querySelector(".vs-judge-main").value;
      const split = attack.split || {};
      const choices = [["*", say("main")], ...others, ["", say("nowhere")]];
      firing.models.forEach((model) => model.weapons.forEach((name) => {
        const pair = `${model.id}/${name}`;
        const chosen = pair in split ? split[pair] : "*";
        const node = select("vs-judge-split", kept(choices, chosen), chosen);
        node.dataset.pair = pair;
        declaring.append(element("br"), field(say("fires-at", { weapon: pair }), node));
      }));
      const targets = [main, ...Object.values(split)].filter((u, i, all) => u && u !== "*" && all.indexOf(u) === i);
      targets.forEach((unit) => {
        const models = (known.units.find((u) => u.id === unit) || { models: [] }).models;
        const chosen = (attack.marks || {})[unit];
        const node = select("vs-judge-mark", kept(models.map((m) => [m.id, m.id]), chosen), chosen);
        node.dataset.unit = unit;
        declaring.append(element("br"), field(say("mark", { unit }), node));
      });
    }
    let choosing = null;
    declaring.addEventListener("change", () => { // a list moved with the arrow keys: judged once it rests
      clearTimeout(choosing);
      const edit = declared();
      choosing = setTimeout(() => change(edit), DEBOUNCE_MS);
    });

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
      const x = typedNumber(moveX), y = typedNumber(moveY);
      if (x !== null && y !== null) change((web, text) => web.move(text, model.value, x, y));
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
      const x = typedNumber(addX), y = typedNumber(addY);
      if (x === null || y === null) return;
      change(async (web, text) => {
        const armed = name && typed.range.value.trim() ? await web.weapon(text, name, profile()) : text;
        return web.add_model(armed, unit.value.trim() || "targets", side.value, x, y, name, "");
      });
    });

    /* Roll: seeded (the seed typed, or a random one, written down so the permalink replays it) or
     * scripted (the dice typed, in Dice Order). */
    const rolling = fieldset("vs-judge-rolling", "roll-legend");
    const mode = select("vs-judge-mode", ["seeded", "scripted", "random"].map((m) => [m, say(m)]), "seeded");
    const typedDice = input("vs-judge-typed-dice", "", 16);
    typedDice.setAttribute("aria-label", say("dice-typed"));
    typedDice.placeholder = say("seed");
    mode.addEventListener("change", () => {
      typedDice.placeholder = mode.value === "scripted" ? say("faces") : say("seed");
      typedDice.disabled = mode.value === "random";
    });
    const rollIt = button("vs-judge-roll", "roll");
    rolling.append(field(say("dice-mode"), mode), typedDice, rollIt);
    rollIt.addEventListener("click", () => {
      typedDice.setCustomValidity("");
      if (mode.value === "scripted") return change((web, text) => web.script(text, typedDice.value));
      let seed = Math.floor(Math.random() * 1000000); // random, or seeded with no seed typed
      if (mode.value === "seeded" && typedDice.value.trim()) seed = typedNumber(typedDice, true);
      return seed === null ? null : change((web, text) => web.roll(text, seed));
    });

    holder.append(declaring, moving, adding, rolling);
    /* Which control had the focus, found again after the forms are filled anew. */
    function focused() {
      const here = document.activeElement;
      if (!here || !holder.contains(here)) return null;
      const cls = [...here.classList].find((c) => c.startsWith("vs-judge-"));
      return cls ? { cls, pair: here.dataset.pair, unit: here.dataset.unit } : null;
    }
    function refocus(was) {
      if (!was) return;
      const again = [...holder.querySelectorAll("." + was.cls)].find((n) =>
        n.dataset.pair === was.pair && n.dataset.unit === was.unit);
      if (again && document.activeElement !== again) again.focus({ preventScroll: true });
    }
    async function fill(web, text) {
      const read = JSON.parse(await web.form(text));
      if (read.error) return;
      const was = focused();
      known = read;
      fillDeclaration();
      fillMove();
      refocus(was);
    }
    return { holder, fill };
  }

  /* The situations a permalink packs (#s=A, and &c=B for a comparison), or a message saying why not. */
  async function linked(hash) {
    const one = /(?:^#|&)s=([^&]*)/.exec(hash), two = /&c=([^&]*)/.exec(hash);
    if (!one) return { texts: [] };
    try {
      const texts = [await decode(one[1])];
      if (two) texts.push(await decode(two[1]));
      return { texts };
    } catch (error) {
      return { texts: [], broken: say("broken-link", { error: error.message || String(error) }) };
    }
  }

  window.vsJudgePage = async function judgePage(host) {
    const choose = host.querySelector("select");
    const slot = element("div", "vs-judge-slot");
    const notice = element("p", "vs-judge-notice");
    notice.setAttribute("role", "alert");
    let current = null;
    let pair = null;
    const forms = tools(host, () => current);
    host.append(notice, forms.holder, slot);
    async function open(text, other, run) {
      slot.replaceChildren();
      current = editor(slot, text, forms.fill);
      pair = null;
      const opened = (found) => { pair = found; };
      if (other !== undefined) opened(compare(slot, current, other));
      else compareButton(slot, current, opened);
      if (!run) return;
      await Promise.all([current.run(), pair ? pair.second.run() : null]);
    }
    choose.addEventListener("change", async () => {
      const option = choose.selectedOptions[0];
      if (!option.value) return open(await decode(host.dataset.empty), undefined, true);
      const answer = await fetch(new URL(option.value, ROOT));
      return open(await answer.text(), undefined, true);
    });
    const found = await linked(location.hash);
    if (found.broken) notice.textContent = found.broken;
    const [text, other] = found.texts.length ? found.texts : [await decode(host.dataset.empty)];
    if (started()) return open(text, other, true);
    // a first visit: say what the engine downloads, and start it when the reader asks
    await open(text, other, false);
    const begin = element("button", "md-button md-button--primary vs-judge-begin", say("begin"));
    begin.type = "button";
    const what = element("p", "vs-judge-begin-note", downloadNote());
    begin.addEventListener("click", async () => {
      begin.remove();
      what.remove();
      await Promise.all([current.run(), pair ? pair.second.run() : null]);
    });
    slot.prepend(what, begin);
    return null;
  };
})();
