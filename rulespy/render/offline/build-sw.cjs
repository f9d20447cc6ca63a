// Run by rulespy/render/offline.py (never by hand): the service worker of each configuration of the JSON
// list in the first argument (Workbox generateSW options; ignoreURLParametersMatching as regular
// expressions' source texts), in this one process; prints what each precaches as one line of JSON
// ({count, size, warnings}), in the list's order. The second argument is a folder where the bundled
// worker is kept between builds (none: generateSW in full); with a third, --keep-only, only the bundle
// is made and kept ({kept}), and no worker written.
//
// generateSW bundles the worker (rollup, babel, terser) for every edition of every build, though the
// bundle differs between two builds only in its precache list. So the bundle is made once per set of
// options (everything but the glob options and swDest) and kept: generateSW runs once with one
// placeholder entry as its whole precache list, and the worker's code as rollup and babel left it,
// before terser, is kept with terser's options and the Workbox runtime file it imports. A build then
// lists its files with Workbox's getManifest, puts the list in the placeholder's place and minifies the
// worker with terser, as generateSW would have: the same sw.js and workbox-*.js, byte for byte
// (tests/site/test_offline.py compares them with generateSW's own). Should the bundle not be kept (the
// placeholder not found, terser never called), each edition runs generateSW in full, as before.
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

const PLACEHOLDER = "__VS_PRECACHE_LIST__";
// the generateSW options that choose the files to precache (getManifest's), not the worker's code
const GLOB = new Set([
  "additionalManifestEntries", "dontCacheBustURLsMatching", "globDirectory", "globFollow", "globIgnores",
  "globPatterns", "globStrict", "manifestTransforms", "maximumFileSizeToCacheInBytes", "modifyURLPrefix",
  "templatedURLs",
]);
const LIST = new RegExp(
  String.raw`\[\s*\{\s*(["']?)url\1\s*:\s*(["'])${PLACEHOLDER}\2\s*,\s*(["']?)revision\3\s*:\s*null\s*\}\s*,?\s*\]`,
  "g",
);

function regexps(options) {
  return {
    ...options,
    ignoreURLParametersMatching: (options.ignoreURLParametersMatching || []).map((text) => new RegExp(text)),
  };
}

function split(options) {
  const glob = {};
  const worker = {};
  for (const [key, value] of Object.entries(options)) {
    if (GLOB.has(key)) glob[key] = value;
    else if (key !== "swDest") worker[key] = value;
  }
  return { glob, worker };
}

// terser's options as JSON: a regular expression as {regexp: [source, flags]}
const save = (options) => JSON.stringify(options, (_, v) => (v instanceof RegExp ? { regexp: [v.source, v.flags] } : v));
const load = (text) => JSON.parse(text, (_, v) => (v && Array.isArray(v.regexp) ? new RegExp(...v.regexp) : v));

// what terser is given for the worker's chunk while a bundle is made (null otherwise): generateSW's
// bundler loads @rollup/plugin-terser once, so the plugin is wrapped before workbox-build is first
// loaded; the wrapper computes the options the plugin passes to terser for a chunk (its renderChunk)
let seen = null;
const terserPlugin = require.resolve("@rollup/plugin-terser", { paths: [path.dirname(require.resolve("workbox-build"))] });
const original = require(terserPlugin);
require.cache[terserPlugin].exports = (input = {}) => {
  const plugin = original(input);
  const render = plugin.renderChunk;
  plugin.renderChunk = function (code, chunk, output) {
    if (seen !== null && code.includes(PLACEHOLDER)) {
      const { maxWorkers, ...options } = input;
      options.sourceMap = output.sourcemap === true || typeof output.sourcemap === "string";
      if (output.format === "es") options.module = true;
      if (output.format === "cjs") options.toplevel = true;
      seen.push({ code, terser: options });
    }
    return render.call(this, code, chunk, output);
  };
  return plugin;
};

// generateSW with the placeholder as its precache list: what terser was given for the worker and the
// runtime files written beside it, or null when the worker's code before terser was not seen
async function makeBundle(worker) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "vs-sw-"));
  seen = [];
  try {
    const { generateSW } = require("workbox-build");
    await generateSW({
      ...regexps(worker),
      globDirectory: folder,
      globPatterns: [PLACEHOLDER],
      additionalManifestEntries: [{ url: PLACEHOLDER, revision: null }],
      swDest: path.join(folder, "sw.js"),
    });
    if (seen.length !== 1 || (seen[0].code.match(LIST) || []).length !== 1) return null;
    const runtime = {};
    for (const name of fs.readdirSync(folder)) {
      if (name !== "sw.js") runtime[name] = fs.readFileSync(path.join(folder, name), "utf8");
    }
    // kept only if terser, given the same code and options here, writes what generateSW wrote (rollup
    // adds a line end after it)
    const written = fs.readFileSync(path.join(folder, "sw.js"), "utf8");
    const { code } = await require("terser").minify(seen[0].code, seen[0].terser);
    if (!written.startsWith(code)) return null;
    return { code: seen[0].code, terser: seen[0].terser, after: written.slice(code.length), runtime };
  } finally {
    seen = null;
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

async function bundleFor(worker, kept) {
  const version = require("workbox-build/package.json").version;
  // a new script or a new install (the lock beside this copy of the script) makes a new bundle
  const source = [__filename, path.join(__dirname, "package-lock.json")].map((file) => fs.readFileSync(file, "utf8"));
  const key = crypto.createHash("sha256").update(JSON.stringify([version, worker, source])).digest("hex");
  const file = path.join(kept, `sw-${key.slice(0, 16)}.json`);
  if (fs.existsSync(file)) return load(fs.readFileSync(file, "utf8"));
  const made = await makeBundle(worker);
  if (made === null) return null;
  fs.mkdirSync(kept, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, save(made));
  fs.renameSync(temporary, file);
  return made;
}

async function fromBundle(made, options, glob) {
  const { getManifest } = require("workbox-build/build/get-manifest");
  const { minify } = require("terser");
  const folder = path.dirname(options.swDest);
  // what generateSW leaves out of the list itself: the worker and the runtime beside it
  const ignored = [path.relative(glob.globDirectory, options.swDest), path.relative(glob.globDirectory, path.join(folder, "workbox-*.js"))];
  const listed = await getManifest({ ...glob, globIgnores: [...(glob.globIgnores || []), ...ignored.map((p) => p.split(path.sep).join("/"))] });
  const code = made.code.replace(LIST, () => JSON.stringify(listed.manifestEntries, null, 2));
  const minified = await minify(code, made.terser);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(options.swDest, minified.code + made.after);
  for (const [name, contents] of Object.entries(made.runtime)) fs.writeFileSync(path.join(folder, name), contents);
  return listed;
}

(async () => {
  const configurations = JSON.parse(process.argv[2]);
  const kept = process.argv[3];
  for (const options of Array.isArray(configurations) ? configurations : [configurations]) {
    const { glob, worker } = split(options);
    const made = kept ? await bundleFor(worker, kept) : null;
    if (process.argv[4] === "--keep-only") {
      console.log(JSON.stringify({ kept: made !== null }));
      continue;
    }
    const { count, size, warnings } = made ? await fromBundle(made, options, glob) : await require("workbox-build").generateSW(regexps(options));
    console.log(JSON.stringify({ count, size, warnings }));
  }
})().catch((error) => {
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
});
