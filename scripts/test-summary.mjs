// CI's closing lines: how many tests ran on PostgreSQL, on the S3 server and in the browser,
// and one total. Fails when one of those suites ran no test at all, since that means it was
// skipped without anyone noticing.
import fs from "node:fs";
import path from "node:path";

const reports = path.resolve(import.meta.dirname, "..", "test-results", "reports");
const unit = readJson("vitest.json");
// The journeys' reports: one, or one per share that ran (scripts/test-e2e.mjs).
const browserReports = fs.existsSync(reports)
  ? fs
      .readdirSync(reports)
      .filter((name) => /^playwright(-\d+)?\.json$/.test(name))
      .map(readJson)
  : [];
const browserStat = (name) => browserReports.reduce((sum, report) => sum + (report?.stats?.[name] ?? 0), 0);

const unitTests = (unit?.testResults ?? []).flatMap((file) =>
  file.assertionResults.map((test) => ({ name: [...test.ancestorTitles, test.title].join(" "), status: test.status })),
);
const passedWhere = (pattern) => unitTests.filter((test) => test.status === "passed" && pattern.test(test.name)).length;

const suites = {
  "PostgreSQL suites": passedWhere(/\bpostgres\b/i),
  "S3 suite": passedWhere(/\bs3\b/i),
  "Browser suite": browserStat("expected"),
};
for (const [name, passed] of Object.entries(suites)) console.log(`${name}: ${passed} tests passed`);

const passed = (unit?.numPassedTests ?? 0) + browserStat("expected");
const failed = (unit?.numFailedTests ?? 0) + browserStat("unexpected") + browserStat("flaky");
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0) + browserStat("skipped");
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

const silent = Object.entries(suites)
  .filter(([, count]) => count === 0)
  .map(([name]) => name);
if (failed > 0 || silent.length > 0) {
  if (silent.length > 0) console.error(`No test ran in: ${silent.join(", ")}.`);
  process.exit(1);
}

function readJson(name) {
  const file = path.join(reports, name);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
}
