/* The rules judge's engine, in a Web Worker: Pyodide and rulespy run here, never on the page's thread,
 * so the page stays responsive while the runtime downloads, starts and computes (assets/judge.js).
 *
 * judge.js starts one worker per visit (it survives Material's instant navigation, which keeps the page
 * and its scripts) and posts {runtime} first: the folder holding pyodide/ and rulespy.zip. The worker
 * answers with progress messages ({progress: step, steps, stage}) while it starts, then {ready: true},
 * or {failed: message}. Then each request {id, call, args} is answered with {id, answer} (the string
 * rulespy.render.web.CALL(*ARGS) returns) or {id, error}. Requests are answered one at a time, in order.
 * The call "fetched" answers with the addresses this worker fetched (JSON): a page's own resource list
 * does not hold a worker's.
 *
 * Every reader's text goes through rulespy.render.web, whose helpers read YAML under the scenario
 * loader's budgets (size, nodes, depth), so no text can make this worker hold more than the loader
 * allows; judge.js stops a worker that takes too long and starts another.
 */
"use strict";
let web = null;
let queue = Promise.resolve();

async function start(runtime) {
  const steps = 4;
  const say = (progress, stage) => postMessage({ progress, steps, stage });
  say(1, "runtime");
  importScripts(new URL("pyodide/pyodide.js", runtime).href);
  const py = await loadPyodide({ indexURL: new URL("pyodide/", runtime).href });
  say(2, "python");
  const bundle = await fetch(new URL("rulespy.zip", runtime));
  if (!bundle.ok) throw new Error("cannot load rulespy.zip: HTTP " + bundle.status);
  py.unpackArchive(await bundle.arrayBuffer(), "zip", { extractDir: "/judge/lib" });
  say(3, "rulespy");
  py.runPython("import sys; sys.path.insert(0, '/judge/lib')");
  web = py.pyimport("rulespy.render.web");
  web.warm();
  say(4, "ready");
}

onmessage = (event) => {
  const message = event.data;
  if (message.runtime) {
    const started = performance.now();
    queue = start(message.runtime).then(
      () => postMessage({ ready: true, ms: performance.now() - started }),
      (error) => postMessage({ failed: String(error && error.message ? error.message : error) }));
    return;
  }
  queue = queue.then(() => {
    if (message.call === "fetched") {
      const names = performance.getEntriesByType("resource").map((e) => e.name);
      postMessage({ id: message.id, answer: JSON.stringify([self.location.href, ...names]) });
      return;
    }
    try {
      const answer = web[message.call](...message.args);
      postMessage({ id: message.id, answer: String(answer) });
    } catch (error) {
      postMessage({ id: message.id, error: String(error && error.message ? error.message : error) });
    }
  });
};
