// `npm run test:e2e`: the browser tests, in Debian's Chromium against the production build.
// Without a Chromium it skips loudly, and fails instead when CI is set.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const chromium = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (candidate) => candidate && fs.existsSync(candidate),
);

if (!chromium) {
  const banner = [
    "",
    "************************************************************************",
    "*  BROWSER TESTS SKIPPED: no Chromium found (looked for CHROMIUM_PATH,  *",
    "*  /usr/bin/chromium, /usr/bin/chromium-browser).                       *",
    "*  Install Debian's Chromium:  sudo apt-get install -y chromium         *",
    "*  or point CHROMIUM_PATH at a Chromium binary, then run npm test again.*",
    "************************************************************************",
    "",
  ].join("\n");
  if (process.env.CI) {
    console.error(`${banner}\nCI is set, so a missing browser is a failure.`);
    process.exit(1);
  }
  console.warn(banner);
  process.exit(0);
}

run("node", ["scripts/build-if-needed.mjs"]);
// A server per worker (e2e/servers.ts, E2E_WORKERS), then the journeys' OpenID Connect provider
// (e2e/oidc-provider.mjs) and SAML identity provider (e2e/saml-identity-provider.mjs), each on a port of its own.
// Two workers on two cores: the journeys keep both busy (Chromium draws in software), so a third
// only made each journey slower (measured: the run took 6.2 minutes instead of 4.9).
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
const ports = [];
while (ports.length < workers + 2) {
  const port = await freePort();
  if (!ports.includes(port)) ports.push(port);
}
const [oidcPort, samlPort, ...serverPorts] = ports;
// One day for the whole run, whichever process asks (the screens journey's turn of the day, the share).
const runDayText = process.env.E2E_RUN_DAY ?? new Date().toISOString().slice(0, 10);
// CI's deadline for the journeys, in seconds since 1970 (E2E_DEADLINE): past it no further share starts.
const deadline = process.env.E2E_DEADLINE ? Number(process.env.E2E_DEADLINE) : undefined;
// Under a deadline the journeys are taken in eighths, turned by the day (ADR 0074).
const shareCount = 8;
const args = process.argv.slice(2);
const shares = journeyShares(args);
let failed = false;
let longestShareMs = 0;
const ran = [];
for (const [index, share] of shares.entries()) {
  // The day's share always runs; each next one only while the time left holds the longest so far
  // with a quarter to spare (E2E_DEADLINE, which CI sets from its budget; ADR 0074).
  const secondsLeft = deadline === undefined ? Infinity : deadline - Date.now() / 1000;
  if (index > 0 && secondsLeft * 1000 < longestShareMs * 1.25) break;
  const started = Date.now();
  const status = runJourneys(share === undefined ? args : [...args, `--shard=${share}/${shareCount}`], share);
  longestShareMs = Math.max(longestShareMs, Date.now() - started);
  if (share !== undefined) ran.push(share);
  if (status !== 0) {
    failed = true;
    break;
  }
}
if (ran.length > 0) {
  console.log(
    `\nJourneys: ${ran.length} of ${shareCount} shares ran (${ran.join(", ")}), from the day's (${shares[0]}) on, as CI's time allowed; ` +
      "the others run on the next days, and `npm run test:full` runs them all.",
  );
}
process.exitCode = failed ? 1 : 0;

/**
 * What of the journeys this run takes, as Playwright shards in the order to run them: every journey
 * at once (`[undefined]`) when files are named, in the full matrix, or when no deadline is set (a
 * person's `npm test`); under CI's deadline, the day's eighth first, then the next ones in turn.
 */
function journeyShares(args) {
  const namesFiles = args.some((arg) => !arg.startsWith("-"));
  if (namesFiles || process.env.TEST_MATRIX === "full" || deadline === undefined) return [undefined];
  const first = runDay() % shareCount;
  return Array.from({ length: shareCount }, (_, offset) => ((first + offset) % shareCount) + 1);
}

/** One Playwright run (a share, or everything) with its servers and a throw-away data folder; its exit status. */
function runJourneys(playwrightArgs, share) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-e2e-"));
  try {
    const result = run(
      "npx",
      ["playwright", "test", ...playwrightArgs],
      {
        E2E_WORKERS: String(workers),
        E2E_PORTS: serverPorts.join(","),
        E2E_OIDC_PORT: String(oidcPort),
        E2E_SAML_PORT: String(samlPort),
        E2E_RUN_DAY: runDayText,
        E2E_DATA_DIR: dataDir,
        // Each share's report beside the others, for scripts/test-summary.mjs.
        E2E_REPORT: share === undefined ? "playwright.json" : `playwright-${share}.json`,
        CHROMIUM_PATH: chromium,
      },
      false,
    );
    return result.status ?? 1;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The run's day of the year (UTC), which turns the shares. */
function runDay() {
  const day = new Date(`${runDayText}T12:00:00Z`);
  return Math.floor((day.getTime() - Date.UTC(day.getUTCFullYear(), 0, 0)) / 86_400_000);
}

function run(command, args, env = {}, exitOnFailure = true) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (exitOnFailure && result.status !== 0) process.exit(result.status ?? 1);
  return result;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
