/* The rules judge's engine, in a Web Worker: Pyodide and rulespy run here, never on the page's thread,
 * so the page stays responsive while the runtime downloads, starts and computes (assets/judge.js).
 *
 * judge.js starts one worker per visit (it survives Material's instant navigation, which keeps the page
 * and its scripts) and posts {runtime, pyodide} first: the folder holding pyodide/ and rulespy.zip, and
 * the Pyodide version the site pins (vsJudgeSite.pyodide, for the snapshot's key). The worker
 * answers with progress messages ({progress: step, steps, stage}) while it starts, then {ready: true},
 * or {failed: message}. Then each request {id, call, args} is answered with {id, answer} (the string
 * rulespy.render.web.CALL(*ARGS) returns) or {id, error}. Requests are answered one at a time, in order.
 * The call "fetched" answers with the addresses this worker fetched (JSON): a page's own resource list
 * does not hold a worker's. {ready} says how the engine started: boot "fresh" (Python started, rulespy
 * imported) or "snapshot" (from the copy this browser saved after an earlier page load's first
 * judgement, see below); the call "snapshot" saves that copy at once (made anyway once the first
 * odds are answered, the end of a judgement).
 *
 * Every reader's text goes through rulespy.render.web, whose helpers read YAML under the scenario
 * loader's budgets (size, nodes, depth), so no text can make this worker hold more than the loader
 * allows; judge.js stops a worker that takes too long and starts another.
 */
"use strict";
let web = null;
let queue = Promise.resolve();
let snapshotLater = null; // after the first odds: save the started engine for the next page load
const SNAPSHOTS = "vs-judge-engine"; // Cache Storage: the engine as it stood, started and warmed
const BUNDLE_FOLDER = "/judge";
const BUNDLE_FILE = BUNDLE_FOLDER + "/rulespy.zip";
const SNAPSHOT_LIMIT_MS = 60000; // a saved engine that has not started by then is forgotten

/* The started engine is kept between page loads as a Pyodide memory snapshot (Pyodide 0.29's
 * loadPyodide({_makeSnapshot}) and makeMemorySnapshot(), then loadPyodide({_loadSnapshot})): Python's
 * whole memory once rulespy is imported and has judged once, saved in the browser's Cache Storage under
 * a key naming the runtime's folder, its Pyodide version and the SHA-256 of rulespy.zip, so a new site
 * build (another rulespy) or another Pyodide never loads a stale one (Pyodide itself refuses a snapshot
 * of another build). A new page load then starts from it instead of starting Python and importing
 * rulespy again (about a tenth of the time; bench/README.md). Without Cache Storage (a page not served
 * from a secure origin), or when the snapshot cannot be read, made or loaded, the engine starts as
 * before: a snapshot is only ever a shortcut. The snapshot is about 25 MB of this browser's storage. */
const CAN_KEEP = typeof caches !== "undefined" && typeof crypto !== "undefined" && !!crypto.subtle;

async function snapshotKey(runtime, bundle, version) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bundle));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return new URL(`engine-snapshot/${version}/${hex}`, runtime).href;
}

/* Whether BYTES can be a Pyodide memory snapshot: a header (its first words: a magic number, then where
 * Python's memory starts, at least 48 bytes in) followed by whole 64 KiB WebAssembly pages. Pyodide
 * checks the magic number and its build itself, and throws; a snapshot too short or cut off would make
 * it size the module's memory from the bytes and never start, so it is refused here. */
function looksLikeSnapshot(bytes) {
  if (bytes.byteLength < 48 + 65536) return false;
  const start = new Uint32Array(bytes.buffer, bytes.byteOffset, 2)[1];
  return start >= 48 && start < bytes.byteLength && (bytes.byteLength - start) % 65536 === 0;
}

async function savedSnapshot(key) {
  if (!key) return null;
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(key);
    if (!found) return null;
    const bytes = new Uint8Array(await found.arrayBuffer());
    if (looksLikeSnapshot(bytes)) return bytes;
    await forget(key);
    return null;
  } catch (error) {
    return null;
  }
}

/* Save the engine as it stands (between two requests) under KEY, and forget the older snapshots of
 * the same runtime folder (an older edition served beside this one, v1.0/judge/, keeps its own). */
async function saveSnapshot(py, key, runtime) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    const mine = new URL("engine-snapshot/", runtime).href;
    for (const old of await cache.keys()) {
      if (old.url !== key && old.url.startsWith(mine)) await cache.delete(old);
    }
    await cache.put(key, new Response(py.makeMemorySnapshot()));
  } catch (error) { /* storage full or refused: the next page load starts Python again */ }
}

async function forget(key) {
  try { await (await caches.open(SNAPSHOTS)).delete(key); } catch (error) { /* nothing kept */ }
}

/* rulespy and PyYAML as one zip on sys.path (zipimport: the archive is written into Pyodide's file
 * system as one file, not unpacked file by file). */
function placeBundle(py, bundle) {
  py.FS.mkdirTree(BUNDLE_FOLDER);
  py.FS.writeFile(BUNDLE_FILE, bundle);
}

async function start(runtime, version) {
  const steps = 4;
  const say = (progress, stage) => postMessage({ progress, steps, stage });
  say(1, "runtime");
  importScripts(new URL("pyodide/pyodide.js", runtime).href);
  const fetched = await fetch(new URL("rulespy.zip", runtime));
  if (!fetched.ok) throw new Error("cannot load rulespy.zip: HTTP " + fetched.status);
  const bundle = new Uint8Array(await fetched.arrayBuffer());
  const indexURL = new URL("pyodide/", runtime).href;
  // no Cache Storage or no digest outside a secure origin: no snapshot, the engine starts afresh
  const key = CAN_KEEP ? await snapshotKey(runtime, bundle, version || "unknown").catch(() => null) : null;
  const snapshot = await savedSnapshot(key);
  if (snapshot) {
    try {
      say(2, "saved");
      const late = new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error("the saved engine did not start")), SNAPSHOT_LIMIT_MS);
      });
      const py = await Promise.race([loadPyodide({ indexURL, _loadSnapshot: snapshot }), late]);
      placeBundle(py, bundle); // for any module the snapshot has not imported yet
      web = py.pyimport("rulespy.render.web");
      say(4, "ready");
      return "snapshot";
    } catch (error) {
      await forget(key); // unreadable or of another build: start afresh, and make a new one
    }
  }
  const py = await loadPyodide({ indexURL, _makeSnapshot: key !== null });
  say(2, "python");
  placeBundle(py, bundle);
  say(3, "rulespy");
  py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(BUNDLE_FILE)})`);
  web = py.pyimport("rulespy.render.web");
  web.warm();
  if (key) snapshotLater = () => saveSnapshot(py, key, runtime);
  say(4, "ready");
  return "fresh";
}

onmessage = (event) => {
  const message = event.data;
  if (message.runtime) {
    const started = performance.now();
    queue = start(message.runtime, message.pyodide).then(
      (boot) => postMessage({ ready: true, ms: performance.now() - started, boot }),
      (error) => postMessage({ failed: String(error && error.message ? error.message : error) }));
    return;
  }
  if (message.call === "snapshot") { // made at once (the first answer makes it too): for the tests
    queue = queue.then(async () => {
      const making = snapshotLater;
      snapshotLater = null;
      if (making) await making();
      postMessage({ id: message.id, answer: making ? "made" : "none" });
    });
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
    // once the first judgement is answered (resolve, board, then odds: their modules imported, their
    // caches filled), save the engine for the next page load; later requests wait for it (about half a
    // second, once per build and browser)
    if (snapshotLater && message.call === "odds") {
      const making = snapshotLater;
      snapshotLater = null;
      return making();
    }
    return undefined;
  });
};
