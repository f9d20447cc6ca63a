// Run by rulespy/render/search.py (never by hand): Pagefind's Node API indexes one edition's sections.
// Reads a JSON file (the first argument): {language, output, documents: [{url, html}]}, each document
// one section of the built site as a small HTML page; writes the search bundle into `output` and prints
// {count, errors} as JSON.
import fs from "node:fs";
import * as pagefind from "pagefind";

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const { index, errors } = await pagefind.createIndex({ forceLanguage: job.language });
  if (!index) throw new Error(errors.join("; "));
  const problems = [...errors];
  let count = 0;
  for (const doc of job.documents) {
    const added = await index.addHTMLFile({ url: doc.url, content: doc.html });
    problems.push(...added.errors);
    count += added.errors.length ? 0 : 1;
  }
  const written = await index.writeFiles({ outputPath: job.output });
  problems.push(...written.errors);
  await pagefind.close();
  console.log(JSON.stringify({ count, errors: problems }));
  if (problems.length) process.exit(1);
}

main().catch((error) => {
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
});
