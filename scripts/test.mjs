// `npm test`: the unit suites and the browser journeys side by side. The journeys keep both cores
// busy only once their servers and browsers are up, and the unit suites leave a quarter of the
// machine idle (waiting on PostgreSQL, on timers): run together they finish about a minute sooner
// on the 2-core CI machine than one after the other. The unit suites print as they run; the
// journeys' output follows whole once both are done. Either failing fails the run.
import { spawn } from "node:child_process";

function run(script, { buffered }) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], {
      stdio: buffered ? ["ignore", "pipe", "pipe"] : "inherit",
      env: process.env,
    });
    const output = [];
    if (buffered) {
      child.stdout.on("data", (chunk) => output.push(chunk));
      child.stderr.on("data", (chunk) => output.push(chunk));
    }
    child.on("close", (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
  });
}

const [unit, browser] = await Promise.all([run("test:unit", { buffered: false }), run("test:e2e", { buffered: true })]);
process.stdout.write("\n==== The browser journeys (npm run test:e2e)\n");
process.stdout.write(browser.output);
if (unit.status !== 0) console.error(`The unit suites failed (exit ${unit.status}).`);
if (browser.status !== 0) console.error(`The browser journeys failed (exit ${browser.status}).`);
process.exitCode = unit.status !== 0 || browser.status !== 0 ? 1 : 0;
