// `npm test`: the unit suites and the browser journeys, side by side. The journeys spend most of
// their time waiting on pages (loads, live updates, animations), the unit suites on the CPU, so on
// two cores the two together take little longer than the journeys alone. The unit suites' output
// is shown as it comes; the journeys' is kept and shown whole when both have finished.
// `npm run test:unit` and `npm run test:e2e` run either alone.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

// Both use the build (the journeys' servers, the spawned CLI test): made once, before either starts.
const build = spawnSync(process.execPath, ["scripts/build-if-needed.mjs"], { cwd: root, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const journeysLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-test-")), "journeys.log");
const journeysOutput = fs.openSync(journeysLog, "w");
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

const unit = run("test:unit", "inherit");
const journeys = run("test:e2e", ["ignore", journeysOutput, journeysOutput]);
console.log(`Browser journeys started beside the unit tests; their output follows once both have finished.\n`);
const [unitStatus, journeysStatus] = await Promise.all([unit, journeys]);

fs.closeSync(journeysOutput);
console.log(`\n==== Browser journeys (npm run test:e2e), finished at ${journeysStatus.at} s\n`);
process.stdout.write(fs.readFileSync(journeysLog));
fs.rmSync(path.dirname(journeysLog), { recursive: true, force: true });

console.log(
  `\nUnit tests: ${verdict(unitStatus)} (${unitStatus.at} s); browser journeys: ${verdict(journeysStatus)} (${journeysStatus.at} s).`,
);
process.exitCode = unitStatus.code === 0 && journeysStatus.code === 0 ? 0 : 1;

function run(script, stdio) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], { cwd: root, stdio });
    child.on("exit", (code, signal) => resolve({ code: code ?? 1, signal, at: seconds() }));
  });
}

function verdict({ code, signal }) {
  if (signal) return `stopped by ${signal}`;
  return code === 0 ? "passed" : "FAILED";
}
