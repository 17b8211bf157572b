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
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-e2e-"));
try {
  const result = run(
    "npx",
    ["playwright", "test", ...process.argv.slice(2)],
    {
      E2E_WORKERS: String(workers),
      E2E_PORTS: serverPorts.join(","),
      E2E_OIDC_PORT: String(oidcPort),
      E2E_SAML_PORT: String(samlPort),
      // One day for the whole run, whichever process asks (the screens journey's turn of the day).
      E2E_RUN_DAY: process.env.E2E_RUN_DAY ?? new Date().toISOString().slice(0, 10),
      E2E_DATA_DIR: dataDir,
      CHROMIUM_PATH: chromium,
    },
    false,
  );
  process.exitCode = result.status ?? 1;
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
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
