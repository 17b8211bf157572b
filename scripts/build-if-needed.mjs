// `npm start` runs this first: it rebuilds the web app and the server bundle only when a source
// file is newer than the build, so a restart is instant and a fresh clone still just works.
// `--server` limits it to the server bundle (for operator commands).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const sharedInputs = ["package-lock.json", "packages/contract/src", "packages/messages", "tsconfig.base.json"];
const targets = [
  {
    workspace: "@memory-box/server",
    output: "apps/server/dist/main.js",
    inputs: ["apps/server/src", "apps/server/build.mjs", "apps/server/package.json"],
  },
  {
    workspace: "@memory-box/web",
    output: "apps/web/dist/index.html",
    inputs: ["apps/web/src", "apps/web/index.html", "apps/web/public", "apps/web/vite.config.ts", "apps/web/package.json"],
  },
];

const serverOnly = process.argv.includes("--server");
for (const target of serverOnly ? targets.slice(0, 1) : targets) {
  const builtAt = modifiedAt(path.join(root, target.output));
  const changedAt = Math.max(...[...target.inputs, ...sharedInputs].map((input) => newestIn(path.join(root, input))));
  if (builtAt >= changedAt) continue;
  // Progress goes to stderr, so commands that print a value (service-token) stay pipeable.
  console.error(`Building ${target.workspace}…`);
  const result = spawnSync("npm", ["run", "build", "--workspace", target.workspace], {
    cwd: root,
    stdio: ["ignore", process.stderr, "inherit"],
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function modifiedAt(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newestIn(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestIn(path.join(entry, child)));
  return newest;
}
