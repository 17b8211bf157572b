import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");

// The commands themselves are tested in process (runCli and each command's own tests); this is the
// one test of the built entry point as `npm run invite` runs it: a bundle, its command loaded from
// dist/commands/, its output on stdout and its exit code.
describe("the built cli entry point", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-cli-"));
    // What `npm run invite` does first: build the server bundle unless it is up to date.
    await run(process.execPath, ["scripts/build-if-needed.mjs", "--server"], { cwd: root });
  }, 120_000);
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it("invites an address into a fresh DATA_DIR", { timeout: 60_000 }, async () => {
    // The SQLite default in DATA_DIR, whatever database the test run itself points at.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    // execFile rejects on a non-zero exit code, so getting output means the command exited 0.
    const invited = await run(process.execPath, ["--enable-source-maps", "apps/server/dist/cli.js", "invite", "a@x.org"], {
      cwd: root,
      env: { ...env, DATA_DIR: dataDir },
    });
    expect(invited.stdout).toBe("Invited a@x.org\n");

    const listed: string[] = [];
    expect(
      await runCli(["invite", "--list"], { env: { DATA_DIR: dataDir }, out: (line) => listed.push(line), err: () => {} }),
    ).toBe(0);
    expect(listed.join("\n")).toMatch(/^EMAIL .*\na@x\.org /);
  });
});
