// Run by rulespy/render/offline.py (never by hand): Workbox's generateSW with the configuration given as
// JSON in the first argument (ignoreURLParametersMatching as regular expressions' source texts); prints
// what it precaches as JSON ({count, size, warnings}).
const { generateSW } = require("workbox-build");

const options = JSON.parse(process.argv[2]);
options.ignoreURLParametersMatching = (options.ignoreURLParametersMatching || []).map((text) => new RegExp(text));
generateSW(options).then(
  ({ count, size, warnings }) => console.log(JSON.stringify({ count, size, warnings })),
  (error) => {
    console.error(String(error && error.message ? error.message : error));
    process.exit(1);
  },
);
