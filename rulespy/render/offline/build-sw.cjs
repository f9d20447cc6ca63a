// Run by rulespy/render/offline.py (never by hand): Workbox's generateSW for each configuration of the
// JSON list given in the first argument (ignoreURLParametersMatching as regular expressions' source
// texts), one after the other in this one process (Workbox's bundler loads once for every edition of a
// build); prints what each precaches as one line of JSON ({count, size, warnings}), in the list's order.
const { generateSW } = require("workbox-build");

const configurations = JSON.parse(process.argv[2]);

(async () => {
  for (const options of Array.isArray(configurations) ? configurations : [configurations]) {
    options.ignoreURLParametersMatching = (options.ignoreURLParametersMatching || []).map((text) => new RegExp(text));
    const { count, size, warnings } = await generateSW(options);
    console.log(JSON.stringify({ count, size, warnings }));
  }
})().catch((error) => {
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
});
